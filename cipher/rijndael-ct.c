/* rijndael-ct.c - AES (Rijndael with a 128-bit block), constant time
 *
 * The Advanced Encryption Standard as specified in FIPS-197 (NIST,
 * 2001), with 128-, 192- and 256-bit keys, as the OpenPGP algorithms
 * AES (id 7), AES192 (id 8) and AES256 (id 9) of RFC 4880 9.2.
 *
 * This is the constant-time portable implementation ("ct"): no branch
 * and no memory address depends on the key or on the data, in the key
 * schedule as in the block functions; they depend only on the key
 * length and the number of blocks.  (C promises nothing about that;
 * tests/ctgrind.sh checks the compiled code under valgrind.)  It is
 * bitsliced, as Kasper and Schwabe did for AES ("Faster and
 * Timing-Attack Resistant AES-GCM", CHES 2009) and T. Pornin's BearSSL
 * does in portable C (aes_ct64): the state of four blocks is eight
 * 64-bit words, word B holding bit B of each of the 64 bytes, so
 * SubBytes is a boolean circuit applied to 64 bytes at once and the
 * linear steps are shifts, masks and XORs of whole words.
 *
 * Why four blocks in 64-bit words: on x86-64 and the other 64-bit
 * processors an instruction then does the work of 64 S-boxes, twice
 * what the 32-bit two-block form gets; a 32-bit processor runs each
 * 64-bit operation as two 32-bit ones, about the cost of the 32-bit
 * form, from the same portable C.  The parallel modes (ECB, CBC and CFB
 * decryption, CTR) fill the four lanes.  One block alone (ENCRYPT and
 * DECRYPT, so the serial modes: CBC and CFB encryption, OFB) occupies
 * one lane and costs as much as four.
 *
 * The S-box is the inverse in GF(2^8) followed by the affine
 * transformation of FIPS-197 5.1.1.  The inverse is computed in the
 * isomorphic tower field GF(((2^2)^2)^2) with polynomial bases, the
 * construction of Satoh, Morioka, Takano and Munetoh ("A Compact
 * Rijndael Hardware Architecture with S-Box Optimization", ASIACRYPT
 * 2001): GF(4) = GF(2)[w]/(w^2+w+1), GF(16) = GF(4)[x]/(x^2+x+w^2),
 * GF(256) = GF(16)[y]/(y^2+y+mu) with mu = w x + w^2.  The inverse of
 * an element reduces to the inverse of its norm one level down and
 * three multiplications; in GF(4) the inverse is the square, which is
 * linear.  The isomorphism maps the AES generator x to the root 0x59
 * (in the tower's bits) of x^8+x^4+x^3+x+1.  Entering and leaving the
 * tower field are 8x8 binary matrices that absorb the affine
 * transformation (and for InvSubBytes its inverse), written as XORs
 * with shared partial sums.  These choices of w^2, mu and the root
 * came out of a search among all valid ones for a small circuit: 36
 * ANDs and about 110 XORs and NOTs per S-box.
 *
 * InvMixColumns is MixColumns after a multiplication by 04 x^2 + 05
 * (Daemen and Rijmen, "The Design of Rijndael", 2002, 4.1.3), cheap
 * in this representation.  Decryption is the inverse cipher of FIPS-197
 * 5.3 with the encryption round keys.  There is no table: the round
 * constants are computed.
 *
 * Known answers: FIPS-197 Appendix C; NIST SP 800-38A Appendix F.1
 * (ECB); NIST CAVP AESAVS KAT_AES.zip (GFSbox, KeySbox, VarKey).
 */

#include <stdint.h>
#include <stddef.h>
#include <string.h>

#include "sfcipher.h"
#include "rijndael-kats.h"
#include "rijndael-expand.h"
#include "rijndael-ctr.h"

#define AES_BLOCKSIZE 16
#define AES_MAX_ROUNDS 14
/* Blocks per bitsliced pass.  */
#define LANES 4

/* For the S-box: GCC keeps it out of line otherwise and passes the
 * planes through memory, which costs a fifth of the speed.  */
#if defined(__GNUC__)
# define ALWAYS_INLINE static inline __attribute__ ((always_inline))
#else
# define ALWAYS_INLINE static inline
#endif


/*
 * Representation.  Byte (row R, column C) of block L, byte 4C + R of
 * the block as FIPS-197 3.4 numbers them, is bit 16R + 4C + L of each
 * of the eight words ("planes"); plane B holds its bit B.  A row is
 * thus a 16-bit field of every plane: MixColumns, which combines rows,
 * is rotations of whole planes, and ShiftRows moves 4-bit groups
 * within each row.
 */

typedef struct
{
  /* Round keys as planes, the same key in all four lanes.  */
  uint64_t round_keys[AES_MAX_ROUNDS + 1][8];
  unsigned int rounds;
} ct_context_t;


static inline uint32_t
load_le32 (const unsigned char *p)
{
  return (uint32_t)p[0] | ((uint32_t)p[1] << 8)
         | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}

static inline void
store_le32 (unsigned char *p, uint32_t v)
{
  p[0] = v;
  p[1] = v >> 8;
  p[2] = v >> 16;
  p[3] = v >> 24;
}

/* The bytes of a column word (row R in bits 8R) to bits 16R, and back.  */
static inline uint64_t
spread_column (uint32_t col)
{
  uint64_t x = col;

  x = (x | (x << 16)) & 0x0000ffff0000ffffULL;
  return (x | (x << 8)) & 0x00ff00ff00ff00ffULL;
}

static inline uint32_t
gather_column (uint64_t x)
{
  x &= 0x00ff00ff00ff00ffULL;
  x = (x | (x >> 8)) & 0x0000ffff0000ffffULL;
  return (uint32_t)(x | (x >> 16));
}

/* Exchange the bits of LO at positions P + SHIFT with those of HI at
 * positions P, for the positions P that MASK selects.  */
static inline void
swap_bits (uint64_t *lo, uint64_t *hi, uint64_t mask, unsigned int shift)
{
  uint64_t t = ((*lo >> shift) ^ *hi) & mask;

  *hi ^= t;
  *lo ^= t << shift;
}

/* Transpose eight words seen as 8x8 matrices of bits: bit B of byte J
 * of word K and bit K of byte J of word B trade places, one bit of the
 * index at a time.  It is its own inverse.  */
static void
transpose (uint64_t w[8])
{
  swap_bits (&w[0], &w[1], 0x5555555555555555ULL, 1);
  swap_bits (&w[2], &w[3], 0x5555555555555555ULL, 1);
  swap_bits (&w[4], &w[5], 0x5555555555555555ULL, 1);
  swap_bits (&w[6], &w[7], 0x5555555555555555ULL, 1);
  swap_bits (&w[0], &w[2], 0x3333333333333333ULL, 2);
  swap_bits (&w[1], &w[3], 0x3333333333333333ULL, 2);
  swap_bits (&w[4], &w[6], 0x3333333333333333ULL, 2);
  swap_bits (&w[5], &w[7], 0x3333333333333333ULL, 2);
  swap_bits (&w[0], &w[4], 0x0f0f0f0f0f0f0f0fULL, 4);
  swap_bits (&w[1], &w[5], 0x0f0f0f0f0f0f0f0fULL, 4);
  swap_bits (&w[2], &w[6], 0x0f0f0f0f0f0f0f0fULL, 4);
  swap_bits (&w[3], &w[7], 0x0f0f0f0f0f0f0f0fULL, 4);
}

/* Planes from the column words COL (four per block, NBLOCKS blocks,
 * the unused lanes zero).  Before the transposition, word 4(C%2) + L
 * holds columns C%2 and C%2 + 2 of block L with their bytes interleaved
 * by row: byte 2R + C/2 of the word is byte (R, C), which the
 * transposition takes to bit 8(2R + C/2) + 4(C%2) + L = 16R + 4C + L.  */
static void
planes_from_columns (uint64_t q[8], const uint32_t *col, size_t nblocks)
{
  size_t l;

  memset (q, 0, 8 * sizeof *q);
  for (l = 0; l < nblocks; l++, col += 4)
    {
      q[l] = spread_column (col[0]) | (spread_column (col[2]) << 8);
      q[4 + l] = spread_column (col[1]) | (spread_column (col[3]) << 8);
    }
  transpose (q);
}

static void
columns_from_planes (uint32_t *col, const uint64_t q[8], size_t nblocks)
{
  uint64_t w[8];
  size_t l;

  memcpy (w, q, sizeof w);
  transpose (w);
  for (l = 0; l < nblocks; l++, col += 4)
    {
      col[0] = gather_column (w[l]);
      col[2] = gather_column (w[l] >> 8);
      col[1] = gather_column (w[4 + l]);
      col[3] = gather_column (w[4 + l] >> 8);
    }
}


/*
 * The S-box circuit.  Each field element is a set of planes, one per
 * bit, so every operation below acts on the 64 bytes at once.
 */

typedef struct { uint64_t lo, hi; } gf4_t;      /* lo + hi w */
typedef struct { gf4_t lo, hi; } gf16_t;        /* lo + hi x */
typedef struct { gf16_t lo, hi; } gf256_t;      /* lo + hi y */

static inline gf4_t
gf4_add (gf4_t a, gf4_t b)
{
  return (gf4_t) { a.lo ^ b.lo, a.hi ^ b.hi };
}

/* Karatsuba: three ANDs.  w^2 = w + 1.  */
static inline gf4_t
gf4_mul (gf4_t a, gf4_t b)
{
  uint64_t lo = a.lo & b.lo;
  uint64_t hi = a.hi & b.hi;
  uint64_t mid = (a.lo ^ a.hi) & (b.lo ^ b.hi);

  return (gf4_t) { lo ^ hi, mid ^ lo };
}

/* Also the inverse, as a^3 = 1 for a != 0.  */
static inline gf4_t
gf4_square (gf4_t a)
{
  return (gf4_t) { a.lo ^ a.hi, a.hi };
}

static inline gf4_t
gf4_mul_w (gf4_t a)
{
  return (gf4_t) { a.hi, a.lo ^ a.hi };
}

static inline gf4_t
gf4_mul_w2 (gf4_t a)
{
  return (gf4_t) { a.lo ^ a.hi, a.lo };
}

static inline gf16_t
gf16_add (gf16_t a, gf16_t b)
{
  return (gf16_t) { gf4_add (a.lo, b.lo), gf4_add (a.hi, b.hi) };
}

/* Karatsuba again; x^2 = x + w^2.  */
static inline gf16_t
gf16_mul (gf16_t a, gf16_t b)
{
  gf4_t lo = gf4_mul (a.lo, b.lo);
  gf4_t hi = gf4_mul (a.hi, b.hi);
  gf4_t mid = gf4_mul (gf4_add (a.lo, a.hi), gf4_add (b.lo, b.hi));

  return (gf16_t) { gf4_add (lo, gf4_mul_w2 (hi)), gf4_add (mid, lo) };
}

static inline gf16_t
gf16_square (gf16_t a)
{
  gf4_t hi = gf4_square (a.hi);

  return (gf16_t) { gf4_add (gf4_mul_w2 (hi), gf4_square (a.lo)), hi };
}

/* Multiplication by mu = w x + w^2, worked out: linear.  */
static inline gf16_t
gf16_mul_mu (gf16_t a)
{
  return (gf16_t) { gf4_add (a.hi, gf4_mul_w2 (a.lo)),
                    gf4_add (a.hi, gf4_mul_w (a.lo)) };
}

/* For a = hi x + lo, the norm d = a * conj(a) = w^2 hi^2 + hi lo + lo^2
 * lies in GF(4), and 1/a = (hi x + hi + lo) / d.  0 maps to 0.  */
static inline gf16_t
gf16_inverse (gf16_t a)
{
  gf4_t d = gf4_add (gf4_mul (a.hi, a.lo),
                     gf4_add (gf4_mul_w2 (gf4_square (a.hi)),
                              gf4_square (a.lo)));
  gf4_t e = gf4_square (d);

  return (gf16_t) { gf4_mul (gf4_add (a.hi, a.lo), e), gf4_mul (a.hi, e) };
}

/* The same one level up, y^2 = y + mu: d = mu hi^2 + hi lo + lo^2 in
 * GF(16).  The compiler shares the operand sums the three
 * multiplications have in common.  */
ALWAYS_INLINE void
gf256_invert (gf256_t *a)
{
  gf16_t d = gf16_add (gf16_mul (a->hi, a->lo),
                       gf16_add (gf16_mul_mu (gf16_square (a->hi)),
                                 gf16_square (a->lo)));
  gf16_t e = gf16_inverse (d);

  a->lo = gf16_mul (gf16_add (a->hi, a->lo), e);
  a->hi = gf16_mul (a->hi, e);
}

/* SubBytes: into the tower basis, invert, out of it through the
 * affine transformation, whose constant 0x63 is the NOTs.  */
ALWAYS_INLINE void
sub_bytes (uint64_t q[8])
{
  uint64_t s0, s1, s2, s3, s4;
  gf256_t a;

  s0 = q[2] ^ q[3];
  s1 = s0 ^ q[5];
  s2 = q[1] ^ q[6];
  s3 = s2 ^ q[7];
  a.lo.lo.lo = s0 ^ s3 ^ q[0];
  a.lo.lo.hi = s1;
  a.lo.hi.lo = q[2] ^ q[5];
  a.lo.hi.hi = s3 ^ q[3];
  a.hi.lo.lo = q[1];
  a.hi.lo.hi = s1 ^ q[7];
  a.hi.hi.lo = s1 ^ s2 ^ q[4];
  a.hi.hi.hi = q[5] ^ q[7];

  gf256_invert (&a);

  s0 = a.hi.lo.lo ^ a.hi.hi.lo;
  s1 = a.lo.lo.lo ^ a.lo.hi.lo;
  s2 = a.lo.hi.hi ^ a.hi.lo.hi;
  s3 = a.lo.hi.lo ^ s0;
  s4 = s1 ^ s2;
  q[0] = ~(s0 ^ s4);
  q[1] = ~(a.lo.lo.lo ^ a.lo.lo.hi);
  q[2] = a.lo.lo.hi ^ s1;
  q[3] = a.hi.lo.lo ^ s4;
  q[4] = a.lo.lo.lo ^ a.hi.lo.hi ^ s0;
  q[5] = ~(s2 ^ s3);
  q[6] = ~s0;
  q[7] = a.hi.hi.hi ^ s3;
}

/* InvSubBytes: the inverse affine transformation folded into the
 * basis change (its constant becomes 0x66 in the tower's bits, the
 * NOTs), invert, back to the AES basis.  */
ALWAYS_INLINE void
inv_sub_bytes (uint64_t q[8])
{
  uint64_t s0, s1, s2;
  gf256_t a;

  s0 = q[0] ^ q[5];
  s1 = q[1] ^ q[2];
  s2 = q[0] ^ q[3];
  a.lo.lo.lo = s0;
  a.lo.lo.hi = ~(s0 ^ q[1]);
  a.lo.hi.lo = ~s1;
  a.lo.hi.hi = s1 ^ q[0] ^ q[4];
  a.hi.lo.lo = s2 ^ q[6];
  a.hi.lo.hi = ~(s0 ^ q[4] ^ q[6]);
  a.hi.hi.lo = ~s2;
  a.hi.hi.hi = s1 ^ q[6] ^ q[7];

  gf256_invert (&a);

  s0 = a.lo.lo.hi ^ a.hi.lo.hi;
  s1 = a.lo.hi.lo ^ a.lo.hi.hi;
  s2 = a.hi.hi.hi ^ s0;
  q[0] = a.lo.lo.lo ^ s1 ^ s2;
  q[1] = a.hi.lo.lo;
  q[2] = a.lo.hi.lo ^ s2;
  q[3] = a.lo.lo.hi ^ a.lo.hi.lo;
  q[4] = a.hi.hi.lo ^ s0 ^ s1;
  q[5] = s2;
  q[6] = a.hi.lo.lo ^ a.hi.lo.hi ^ s1;
  q[7] = s0;
}


/*
 * Round functions.  What they do to each plane is written out, not
 * looped: GCC vectorises such loops, and its 16-byte loads of planes
 * just written by 8-byte stores stall (10% or more of the time).
 */

static inline uint64_t
rotr64 (uint64_t x, unsigned int n)
{
  return (x >> n) | (x << (64 - n));
}

/* Row R turns left by R columns, that is right by 4R bits within its
 * 16: rows 1 and 3 by 4 bits, then rows 2 and 3 by 8, a swap of their
 * bytes.  */
static inline uint64_t
shift_rows_plane (uint64_t x)
{
  uint64_t t;

  x = (x & 0x0000ffff0000ffffULL)
      | ((x >> 4) & 0x0fff00000fff0000ULL)
      | ((x << 12) & 0xf0000000f0000000ULL);
  t = (x ^ (x >> 8)) & 0x00ff00ff00000000ULL;
  return x ^ t ^ (t << 8);
}

/* The other way: rows 1 and 3 left by 4 bits, rows 2 and 3 by 8.  */
static inline uint64_t
inv_shift_rows_plane (uint64_t x)
{
  uint64_t t;

  x = (x & 0x0000ffff0000ffffULL)
      | ((x << 4) & 0xfff00000fff00000ULL)
      | ((x >> 12) & 0x000f0000000f0000ULL);
  t = (x ^ (x >> 8)) & 0x00ff00ff00000000ULL;
  return x ^ t ^ (t << 8);
}

static inline void
shift_rows (uint64_t q[8])
{
  q[0] = shift_rows_plane (q[0]);
  q[1] = shift_rows_plane (q[1]);
  q[2] = shift_rows_plane (q[2]);
  q[3] = shift_rows_plane (q[3]);
  q[4] = shift_rows_plane (q[4]);
  q[5] = shift_rows_plane (q[5]);
  q[6] = shift_rows_plane (q[6]);
  q[7] = shift_rows_plane (q[7]);
}

static inline void
inv_shift_rows (uint64_t q[8])
{
  q[0] = inv_shift_rows_plane (q[0]);
  q[1] = inv_shift_rows_plane (q[1]);
  q[2] = inv_shift_rows_plane (q[2]);
  q[3] = inv_shift_rows_plane (q[3]);
  q[4] = inv_shift_rows_plane (q[4]);
  q[5] = inv_shift_rows_plane (q[5]);
  q[6] = inv_shift_rows_plane (q[6]);
  q[7] = inv_shift_rows_plane (q[7]);
}

/* Row R of a column becomes 02 a[R] + 03 a[R+1] + a[R+2] + a[R+3]
 * = 02 (a[R] + a[R+1]) + a[R+1] + (a[R+2] + a[R+3]); turning a plane
 * right by 16 bits brings row R+1 to row R.  Doubling (FIPS-197
 * 4.2.1) moves the pair sums P up one plane, and the bit leaving plane
 * 7 is reduced by x^8 = x^4 + x^3 + x + 1.  */
static inline void
mix_columns (uint64_t q[8])
{
  uint64_t n0 = rotr64 (q[0], 16), p0 = q[0] ^ n0;
  uint64_t n1 = rotr64 (q[1], 16), p1 = q[1] ^ n1;
  uint64_t n2 = rotr64 (q[2], 16), p2 = q[2] ^ n2;
  uint64_t n3 = rotr64 (q[3], 16), p3 = q[3] ^ n3;
  uint64_t n4 = rotr64 (q[4], 16), p4 = q[4] ^ n4;
  uint64_t n5 = rotr64 (q[5], 16), p5 = q[5] ^ n5;
  uint64_t n6 = rotr64 (q[6], 16), p6 = q[6] ^ n6;
  uint64_t n7 = rotr64 (q[7], 16), p7 = q[7] ^ n7;

  q[0] = p7 ^ n0 ^ rotr64 (p0, 32);
  q[1] = p0 ^ p7 ^ n1 ^ rotr64 (p1, 32);
  q[2] = p1 ^ n2 ^ rotr64 (p2, 32);
  q[3] = p2 ^ p7 ^ n3 ^ rotr64 (p3, 32);
  q[4] = p3 ^ p7 ^ n4 ^ rotr64 (p4, 32);
  q[5] = p4 ^ n5 ^ rotr64 (p5, 32);
  q[6] = p5 ^ n6 ^ rotr64 (p6, 32);
  q[7] = p6 ^ n7 ^ rotr64 (p7, 32);
}

/* 0b x^3 + 0d x^2 + 09 x + 0e = (03 x^3 + x^2 + x + 02) (04 x^2 + 05):
 * row R becomes a[R] + 04 (a[R] + a[R+2]), then MixColumns.  Times 04
 * moves the sums S up two planes, planes 6 and 7 reduced by x^8 = 0x1b
 * and x^9 = 0x36.  */
static void
inv_mix_columns (uint64_t q[8])
{
  uint64_t s0 = q[0] ^ rotr64 (q[0], 32);
  uint64_t s1 = q[1] ^ rotr64 (q[1], 32);
  uint64_t s2 = q[2] ^ rotr64 (q[2], 32);
  uint64_t s3 = q[3] ^ rotr64 (q[3], 32);
  uint64_t s4 = q[4] ^ rotr64 (q[4], 32);
  uint64_t s5 = q[5] ^ rotr64 (q[5], 32);
  uint64_t s6 = q[6] ^ rotr64 (q[6], 32);
  uint64_t s7 = q[7] ^ rotr64 (q[7], 32);

  q[0] ^= s6;
  q[1] ^= s6 ^ s7;
  q[2] ^= s0 ^ s7;
  q[3] ^= s1 ^ s6;
  q[4] ^= s2 ^ s6 ^ s7;
  q[5] ^= s3 ^ s7;
  q[6] ^= s4;
  q[7] ^= s5;
  mix_columns (q);
}

static inline void
add_round_key (uint64_t q[8], const uint64_t rk[8])
{
  q[0] ^= rk[0];
  q[1] ^= rk[1];
  q[2] ^= rk[2];
  q[3] ^= rk[3];
  q[4] ^= rk[4];
  q[5] ^= rk[5];
  q[6] ^= rk[6];
  q[7] ^= rk[7];
}


/*
 * Key schedule (FIPS-197 5.2), on column words: byte R of a word in
 * bits 8R, so RotWord turns it right by 8 bits.
 */

/* SubWord through the circuit, the word as column 0 of one block.  */
static uint32_t
sub_word (uint32_t w)
{
  uint32_t col[4] = { w, 0, 0, 0 };
  uint64_t q[8];

  planes_from_columns (q, col, 1);
  sub_bytes (q);
  columns_from_planes (col, q, 1);
  sf_wipememory (q, sizeof q);
  w = col[0];
  sf_wipememory (col, sizeof col);
  return w;
}

/* KeyExpansion for a key of KEYLEN bytes (16, 24 or 32), then each
 * round key to planes in lane 0, copied to the other three lanes.
 * Only the key length decides the branches.  */
static void
expand_key (ct_context_t *ctx, const unsigned char *key, size_t keylen)
{
  uint32_t w[RIJNDAEL_MAX_WORDS];
  unsigned int rounds = rijndael_expand_key (w, key, keylen, sub_word);
  unsigned int r;
  int b;

  ctx->rounds = rounds;

  for (r = 0; r <= rounds; r++)
    {
      uint64_t *rk = ctx->round_keys[r];

      planes_from_columns (rk, w + 4 * r, 1);
      /* Lane L is bit L of each group of four.  */
      for (b = 0; b < 8; b++)
        {
          rk[b] |= rk[b] << 1;
          rk[b] |= rk[b] << 2;
        }
    }
  sf_wipememory (w, sizeof w);
}

static gpg_error_t
setkey_checked (void *ctx, const unsigned char *key, size_t keylen,
                size_t wanted)
{
  if (keylen != wanted)
    return gpg_error (GPG_ERR_INV_KEYLEN);
  sf_wipememory (ctx, sizeof (ct_context_t));
  expand_key (ctx, key, keylen);
  return 0;
}

static gpg_error_t
aes128_setkey (void *ctx, const unsigned char *key, size_t keylen)
{
  return setkey_checked (ctx, key, keylen, 16);
}

static gpg_error_t
aes192_setkey (void *ctx, const unsigned char *key, size_t keylen)
{
  return setkey_checked (ctx, key, keylen, 24);
}

static gpg_error_t
aes256_setkey (void *ctx, const unsigned char *key, size_t keylen)
{
  return setkey_checked (ctx, key, keylen, 32);
}


/*
 * Blocks.  The functions below hold blocks as column words between the
 * bytes and the planes: four lanes per pass, one for ENCRYPT and
 * DECRYPT.
 */

static void
encrypt_planes (const ct_context_t *ctx, uint64_t q[8])
{
  unsigned int r;

  add_round_key (q, ctx->round_keys[0]);
  for (r = 1; r < ctx->rounds; r++)
    {
      sub_bytes (q);
      shift_rows (q);
      mix_columns (q);
      add_round_key (q, ctx->round_keys[r]);
    }
  sub_bytes (q);
  shift_rows (q);
  add_round_key (q, ctx->round_keys[ctx->rounds]);
}

static void
decrypt_planes (const ct_context_t *ctx, uint64_t q[8])
{
  unsigned int r;

  add_round_key (q, ctx->round_keys[ctx->rounds]);
  for (r = ctx->rounds - 1; r > 0; r--)
    {
      inv_shift_rows (q);
      inv_sub_bytes (q);
      add_round_key (q, ctx->round_keys[r]);
      inv_mix_columns (q);
    }
  inv_shift_rows (q);
  inv_sub_bytes (q);
  add_round_key (q, ctx->round_keys[0]);
}

/* Encrypt, or decrypt, the NBLOCKS (1 to LANES) blocks in COL.  */
static void
encrypt_columns (const ct_context_t *ctx, uint32_t *col, size_t nblocks)
{
  uint64_t q[8];

  planes_from_columns (q, col, nblocks);
  encrypt_planes (ctx, q);
  columns_from_planes (col, q, nblocks);
}

static void
decrypt_columns (const ct_context_t *ctx, uint32_t *col, size_t nblocks)
{
  uint64_t q[8];

  planes_from_columns (q, col, nblocks);
  decrypt_planes (ctx, q);
  columns_from_planes (col, q, nblocks);
}

static inline void
load_columns (uint32_t *col, const unsigned char *in, size_t nblocks)
{
  size_t i;

  for (i = 0; i < 4 * nblocks; i++)
    col[i] = load_le32 (in + 4 * i);
}

static inline void
store_columns (unsigned char *out, const uint32_t *col, size_t nblocks)
{
  size_t i;

  for (i = 0; i < 4 * nblocks; i++)
    store_le32 (out + 4 * i, col[i]);
}

/* OUT = IN xor COL, word by word: IN may be OUT.  */
static inline void
xor_columns (unsigned char *out, const unsigned char *in,
             const uint32_t *col, size_t nblocks)
{
  size_t i;

  for (i = 0; i < 4 * nblocks; i++)
    store_le32 (out + 4 * i, load_le32 (in + 4 * i) ^ col[i]);
}

static void
ct_encrypt (const void *ctx, unsigned char *out, const unsigned char *in)
{
  uint32_t col[4];

  load_columns (col, in, 1);
  encrypt_columns (ctx, col, 1);
  store_columns (out, col, 1);
}

static void
ct_decrypt (const void *ctx, unsigned char *out, const unsigned char *in)
{
  uint32_t col[4];

  load_columns (col, in, 1);
  decrypt_columns (ctx, col, 1);
  store_columns (out, col, 1);
}


/*
 * Bulk functions: the modes whose blocks are independent, LANES blocks
 * per pass and the rest in a last, partly filled one.  IN may be OUT,
 * so what a later block needs from IN is read before OUT is written.
 */

static void
ct_ecb_enc (const void *ctx, unsigned char *out, const unsigned char *in,
            size_t nblocks)
{
  uint32_t col[4 * LANES];
  size_t n;

  for (; nblocks; nblocks -= n, in += n * AES_BLOCKSIZE,
         out += n * AES_BLOCKSIZE)
    {
      n = nblocks < LANES ? nblocks : LANES;
      load_columns (col, in, n);
      encrypt_columns (ctx, col, n);
      store_columns (out, col, n);
    }
}

static void
ct_ecb_dec (const void *ctx, unsigned char *out, const unsigned char *in,
            size_t nblocks)
{
  uint32_t col[4 * LANES];
  size_t n;

  for (; nblocks; nblocks -= n, in += n * AES_BLOCKSIZE,
         out += n * AES_BLOCKSIZE)
    {
      n = nblocks < LANES ? nblocks : LANES;
      load_columns (col, in, n);
      decrypt_columns (ctx, col, n);
      store_columns (out, col, n);
    }
}

/* Plaintext block I is D(C[I]) xor C[I-1], with C[-1] the IV.  CHAIN
 * holds C[-1] of the pass, then its ciphertext blocks.  */
static void
ct_cbc_dec (const void *ctx, unsigned char *iv, unsigned char *out,
            const unsigned char *in, size_t nblocks)
{
  uint32_t chain[4 * (LANES + 1)], col[4 * LANES];
  size_t n, i;

  load_columns (chain, iv, 1);
  for (; nblocks; nblocks -= n, in += n * AES_BLOCKSIZE,
         out += n * AES_BLOCKSIZE)
    {
      n = nblocks < LANES ? nblocks : LANES;
      load_columns (chain + 4, in, n);
      memcpy (col, chain + 4, n * AES_BLOCKSIZE);
      decrypt_columns (ctx, col, n);
      for (i = 0; i < 4 * n; i++)
        col[i] ^= chain[i];
      store_columns (out, col, n);
      memcpy (chain, chain + 4 * n, AES_BLOCKSIZE);
    }
  store_columns (iv, chain, 1);
}

/* Keystream block I is E(C[I-1]), with C[-1] the IV: all known from
 * the start, so they go through the lanes together.  */
static void
ct_cfb_dec (const void *ctx, unsigned char *iv, unsigned char *out,
            const unsigned char *in, size_t nblocks)
{
  uint32_t prev[4], ks[4 * LANES];
  size_t n;

  load_columns (prev, iv, 1);
  for (; nblocks; nblocks -= n, in += n * AES_BLOCKSIZE,
         out += n * AES_BLOCKSIZE)
    {
      n = nblocks < LANES ? nblocks : LANES;
      memcpy (ks, prev, AES_BLOCKSIZE);
      load_columns (ks + 4, in, n - 1);
      load_columns (prev, in + (n - 1) * AES_BLOCKSIZE, 1);
      encrypt_columns (ctx, ks, n);
      xor_columns (out, in, ks, n);
    }
  store_columns (iv, prev, 1);
}

static inline uint32_t
swap_bytes32 (uint32_t x)
{
  return (x >> 24) | ((x >> 8) & 0xff00) | ((x << 8) & 0xff0000) | (x << 24);
}

/* The block holding the big-endian 128-bit number HI:LO, as columns.  */
static inline void
counter_columns (uint32_t col[4], uint64_t hi, uint64_t lo)
{
  col[0] = swap_bytes32 (hi >> 32);
  col[1] = swap_bytes32 (hi);
  col[2] = swap_bytes32 (lo >> 32);
  col[3] = swap_bytes32 (lo);
}

/* The IV is a 128-bit big-endian counter.  */
static void
ct_ctr (const void *ctx, unsigned char *iv, unsigned char *out,
        const unsigned char *in, size_t nblocks)
{
  uint32_t col[4 * LANES];
  uint64_t hi, lo;
  size_t n, l;

  load_columns (col, iv, 1);
  hi = ((uint64_t)swap_bytes32 (col[0]) << 32) | swap_bytes32 (col[1]);
  lo = ((uint64_t)swap_bytes32 (col[2]) << 32) | swap_bytes32 (col[3]);
  for (; nblocks; nblocks -= n, in += n * AES_BLOCKSIZE,
         out += n * AES_BLOCKSIZE)
    {
      n = nblocks < LANES ? nblocks : LANES;
      for (l = 0; l < n; l++)
        {
          counter_columns (col + 4 * l, hi, lo);
          ctr128_add (&hi, &lo, 1);
        }
      encrypt_columns (ctx, col, n);
      xor_columns (out, in, col, n);
    }
  counter_columns (col, hi, lo);
  store_columns (iv, col, 1);
}


/*
 * Specs.  The priority sits between the table-based "ref" and the
 * accelerated implementations: where AES-NI is missing or disabled,
 * the constant-time code is the default.
 */

#define RIJNDAEL_CT_SPEC(NAME, ALIASES, ID, KEYLEN, SETKEY, KATS)        \
  {                                                                     \
    .abi_version = SF_ABI_VERSION,                                      \
    .name = NAME,                                                       \
    .aliases = ALIASES,                                                 \
    .openpgp_id = ID,                                                   \
    .blocksize = AES_BLOCKSIZE,                                         \
    .keylen = KEYLEN,                                                   \
    .contextsize = sizeof (ct_context_t),                               \
    .impl = "ct",                                                       \
    .priority = SF_PRIO_REF + 50,                                       \
    .hwf = NULL,                                                        \
    .usable = NULL,                                                     \
    .setkey = SETKEY,                                                   \
    .encrypt = ct_encrypt,                                              \
    .decrypt = ct_decrypt,                                              \
    .release = NULL,                                                    \
    .ecb_enc = ct_ecb_enc,                                              \
    .ecb_dec = ct_ecb_dec,                                              \
    .cbc_enc = NULL,                                                    \
    .cbc_dec = ct_cbc_dec,                                              \
    .cfb_enc = NULL,                                                    \
    .cfb_dec = ct_cfb_dec,                                              \
    .ofb = NULL,                                                        \
    .ctr = ct_ctr,                                                      \
    .kats = KATS,                                                       \
    .n_kats = sizeof (KATS) / sizeof (KATS[0]),                         \
    /* Bitsliced: no table, no branch on the key or the data.  */       \
    .timing = SF_TIMING_CONSTANT                                        \
  }

static const sf_cipher_spec_t sf_spec_aes128_ct =
  RIJNDAEL_CT_SPEC ("AES", aes128_aliases, 7, 16, aes128_setkey,
                    aes128_kats);
static const sf_cipher_spec_t sf_spec_aes192_ct =
  RIJNDAEL_CT_SPEC ("AES192", aes192_aliases, 8, 24, aes192_setkey,
                    aes192_kats);
static const sf_cipher_spec_t sf_spec_aes256_ct =
  RIJNDAEL_CT_SPEC ("AES256", aes256_aliases, 9, 32, aes256_setkey,
                    aes256_kats);

SF_MODULE (rijndael_ct, &sf_spec_aes128_ct, &sf_spec_aes192_ct, &sf_spec_aes256_ct);
