/* twofish.c - Twofish block cipher
 *
 * Twofish, a 128-bit block cipher with 128, 192 and 256-bit keys, as
 * specified in B. Schneier, J. Kelsey, D. Whiting, D. Wagner, C. Hall
 * and N. Ferguson, "Twofish: A 128-Bit Block Cipher" (AES submission,
 * 15 June 1998).  Section numbers below refer to that paper.
 *
 * Known answers: the paper's AES-submission package, twofish-kat.zip,
 * files ecb_ival.txt and ecb_tbl.txt (all three key sizes); a wider
 * selection is tests/vectors/twofish.txt.
 *
 * The key schedule folds the q permutations, the key-dependent S-box
 * bytes and the MDS matrix into four 256-entry word tables, so the g
 * function costs four table look-ups and three XORs.  The rounds are
 * fully unrolled; the parallel modes run two blocks interleaved so the
 * processor overlaps their look-ups, while CFB encryption (serial by
 * nature) keeps its chaining value in registers.
 */

#include <config.h>

#include <stdint.h>
#include <string.h>

#include "sfcipher.h"
#include "sha1-shani-rounds.h"

typedef uint32_t u32;

#define TWOFISH_BLOCKSIZE 16

typedef struct twofish_context
{
  /* g(X) = sbox[0][x0] ^ sbox[1][x1] ^ sbox[2][x2] ^ sbox[3][x3],
   * where xj is byte j of X: the key-dependent S-boxes of 4.3.2 with
   * column j of the MDS matrix already applied.  */
  u32 sbox[4][256];
  /* K0..K3 input whitening, K4..K7 output whitening, K8..K39 rounds.  */
  u32 subkey[40];
} twofish_context_t;


/* The fixed permutations q0 and q1 (4.3.5), tabulated from their 4-bit
 * tables t0..t3.  */
static const unsigned char q0[256] =
  {
    0xA9, 0x67, 0xB3, 0xE8, 0x04, 0xFD, 0xA3, 0x76, 0x9A, 0x92, 0x80, 0x78,
    0xE4, 0xDD, 0xD1, 0x38, 0x0D, 0xC6, 0x35, 0x98, 0x18, 0xF7, 0xEC, 0x6C,
    0x43, 0x75, 0x37, 0x26, 0xFA, 0x13, 0x94, 0x48, 0xF2, 0xD0, 0x8B, 0x30,
    0x84, 0x54, 0xDF, 0x23, 0x19, 0x5B, 0x3D, 0x59, 0xF3, 0xAE, 0xA2, 0x82,
    0x63, 0x01, 0x83, 0x2E, 0xD9, 0x51, 0x9B, 0x7C, 0xA6, 0xEB, 0xA5, 0xBE,
    0x16, 0x0C, 0xE3, 0x61, 0xC0, 0x8C, 0x3A, 0xF5, 0x73, 0x2C, 0x25, 0x0B,
    0xBB, 0x4E, 0x89, 0x6B, 0x53, 0x6A, 0xB4, 0xF1, 0xE1, 0xE6, 0xBD, 0x45,
    0xE2, 0xF4, 0xB6, 0x66, 0xCC, 0x95, 0x03, 0x56, 0xD4, 0x1C, 0x1E, 0xD7,
    0xFB, 0xC3, 0x8E, 0xB5, 0xE9, 0xCF, 0xBF, 0xBA, 0xEA, 0x77, 0x39, 0xAF,
    0x33, 0xC9, 0x62, 0x71, 0x81, 0x79, 0x09, 0xAD, 0x24, 0xCD, 0xF9, 0xD8,
    0xE5, 0xC5, 0xB9, 0x4D, 0x44, 0x08, 0x86, 0xE7, 0xA1, 0x1D, 0xAA, 0xED,
    0x06, 0x70, 0xB2, 0xD2, 0x41, 0x7B, 0xA0, 0x11, 0x31, 0xC2, 0x27, 0x90,
    0x20, 0xF6, 0x60, 0xFF, 0x96, 0x5C, 0xB1, 0xAB, 0x9E, 0x9C, 0x52, 0x1B,
    0x5F, 0x93, 0x0A, 0xEF, 0x91, 0x85, 0x49, 0xEE, 0x2D, 0x4F, 0x8F, 0x3B,
    0x47, 0x87, 0x6D, 0x46, 0xD6, 0x3E, 0x69, 0x64, 0x2A, 0xCE, 0xCB, 0x2F,
    0xFC, 0x97, 0x05, 0x7A, 0xAC, 0x7F, 0xD5, 0x1A, 0x4B, 0x0E, 0xA7, 0x5A,
    0x28, 0x14, 0x3F, 0x29, 0x88, 0x3C, 0x4C, 0x02, 0xB8, 0xDA, 0xB0, 0x17,
    0x55, 0x1F, 0x8A, 0x7D, 0x57, 0xC7, 0x8D, 0x74, 0xB7, 0xC4, 0x9F, 0x72,
    0x7E, 0x15, 0x22, 0x12, 0x58, 0x07, 0x99, 0x34, 0x6E, 0x50, 0xDE, 0x68,
    0x65, 0xBC, 0xDB, 0xF8, 0xC8, 0xA8, 0x2B, 0x40, 0xDC, 0xFE, 0x32, 0xA4,
    0xCA, 0x10, 0x21, 0xF0, 0xD3, 0x5D, 0x0F, 0x00, 0x6F, 0x9D, 0x36, 0x42,
    0x4A, 0x5E, 0xC1, 0xE0
  };

static const unsigned char q1[256] =
  {
    0x75, 0xF3, 0xC6, 0xF4, 0xDB, 0x7B, 0xFB, 0xC8, 0x4A, 0xD3, 0xE6, 0x6B,
    0x45, 0x7D, 0xE8, 0x4B, 0xD6, 0x32, 0xD8, 0xFD, 0x37, 0x71, 0xF1, 0xE1,
    0x30, 0x0F, 0xF8, 0x1B, 0x87, 0xFA, 0x06, 0x3F, 0x5E, 0xBA, 0xAE, 0x5B,
    0x8A, 0x00, 0xBC, 0x9D, 0x6D, 0xC1, 0xB1, 0x0E, 0x80, 0x5D, 0xD2, 0xD5,
    0xA0, 0x84, 0x07, 0x14, 0xB5, 0x90, 0x2C, 0xA3, 0xB2, 0x73, 0x4C, 0x54,
    0x92, 0x74, 0x36, 0x51, 0x38, 0xB0, 0xBD, 0x5A, 0xFC, 0x60, 0x62, 0x96,
    0x6C, 0x42, 0xF7, 0x10, 0x7C, 0x28, 0x27, 0x8C, 0x13, 0x95, 0x9C, 0xC7,
    0x24, 0x46, 0x3B, 0x70, 0xCA, 0xE3, 0x85, 0xCB, 0x11, 0xD0, 0x93, 0xB8,
    0xA6, 0x83, 0x20, 0xFF, 0x9F, 0x77, 0xC3, 0xCC, 0x03, 0x6F, 0x08, 0xBF,
    0x40, 0xE7, 0x2B, 0xE2, 0x79, 0x0C, 0xAA, 0x82, 0x41, 0x3A, 0xEA, 0xB9,
    0xE4, 0x9A, 0xA4, 0x97, 0x7E, 0xDA, 0x7A, 0x17, 0x66, 0x94, 0xA1, 0x1D,
    0x3D, 0xF0, 0xDE, 0xB3, 0x0B, 0x72, 0xA7, 0x1C, 0xEF, 0xD1, 0x53, 0x3E,
    0x8F, 0x33, 0x26, 0x5F, 0xEC, 0x76, 0x2A, 0x49, 0x81, 0x88, 0xEE, 0x21,
    0xC4, 0x1A, 0xEB, 0xD9, 0xC5, 0x39, 0x99, 0xCD, 0xAD, 0x31, 0x8B, 0x01,
    0x18, 0x23, 0xDD, 0x1F, 0x4E, 0x2D, 0xF9, 0x48, 0x4F, 0xF2, 0x65, 0x8E,
    0x78, 0x5C, 0x58, 0x19, 0x8D, 0xE5, 0x98, 0x57, 0x67, 0x7F, 0x05, 0x64,
    0xAF, 0x63, 0xB6, 0xFE, 0xF5, 0xB7, 0x3C, 0xA5, 0xCE, 0xE9, 0x68, 0x44,
    0xE0, 0x4D, 0x43, 0x69, 0x29, 0x2E, 0xAC, 0x15, 0x59, 0xA8, 0x0A, 0x9E,
    0x6E, 0x47, 0xDF, 0x34, 0x35, 0x6A, 0xCF, 0xDC, 0x22, 0xC9, 0xC0, 0x9B,
    0x89, 0xD4, 0xED, 0xAB, 0x12, 0xA2, 0x0D, 0x52, 0xBB, 0x02, 0x2F, 0xA9,
    0xD7, 0x61, 0x1E, 0xB4, 0x50, 0x04, 0xF6, 0xC2, 0x16, 0x25, 0x86, 0x56,
    0x55, 0x09, 0xBE, 0x91
  };

/* The q permutation applied to byte j of the h input before it is
 * XORed with byte j of key word L[level] (4.3.2, Figure 2), for levels
 * 0..3, and the final one (row 4) that feeds the MDS matrix.  */
static const unsigned char *const q_order[5][4] =
  {
    { q0, q0, q1, q1 },
    { q0, q1, q0, q1 },
    { q1, q1, q0, q0 },
    { q1, q0, q0, q1 },
    { q1, q0, q1, q0 }
  };

/* The Reed-Solomon matrix that derives the S-box key words (4.3).  */
static const unsigned char rs_matrix[4][8] =
  {
    { 0x01, 0xA4, 0x55, 0x87, 0x5A, 0x58, 0xDB, 0x9E },
    { 0xA4, 0x56, 0x82, 0xF3, 0x1E, 0xC6, 0x68, 0xE5 },
    { 0x02, 0xA1, 0xFC, 0xC1, 0x47, 0xAE, 0x3D, 0x19 },
    { 0xA4, 0x55, 0x87, 0x5A, 0x58, 0xDB, 0x9E, 0x03 }
  };

/* The subkey constant rho = 2^24 + 2^16 + 2^8 + 2^0 (4.3.4).  */
#define TWOFISH_RHO 0x01010101U


static inline u32
rol32 (u32 x, unsigned int n)
{
  return (x << n) | (x >> (32 - n));
}

static inline u32
ror32 (u32 x, unsigned int n)
{
  return (x >> n) | (x << (32 - n));
}

/* Twofish reads and writes words least significant byte first.  */
static inline u32
load_le32 (const unsigned char *p)
{
  return ((u32) p[0] | ((u32) p[1] << 8) | ((u32) p[2] << 16)
          | ((u32) p[3] << 24));
}

static inline void
store_le32 (unsigned char *p, u32 v)
{
  p[0] = v;
  p[1] = v >> 8;
  p[2] = v >> 16;
  p[3] = v >> 24;
}


/*
 * Key schedule.
 */

/* A * B in GF(2^8) modulo the Reed-Solomon polynomial
 * x^8 + x^6 + x^3 + x^2 + 1.  B is a key byte: eight steps whatever
 * it is, and masks instead of branches, so that the key leaks only
 * through the table lookups the "tables" claim owns up to.  */
static unsigned int
rs_gf_mul (unsigned int a, unsigned int b)
{
  unsigned int r = 0;
  int i;

  for (i = 0; i < 8; i++)
    {
      r ^= a & -(b & 1);
      a = (a << 1) ^ (0x14D & -((a >> 7) & 1));
      b >>= 1;
    }
  return r;
}

/* One S-box key word: the RS matrix times the 8 key bytes M.  */
static u32
rs_word (const unsigned char *m)
{
  u32 s = 0;
  int i, j;

  for (i = 0; i < 4; i++)
    {
      unsigned int acc = 0;

      for (j = 0; j < 8; j++)
        acc ^= rs_gf_mul (rs_matrix[i][j], m[j]);
      s |= (u32) acc << (8 * i);
    }
  return s;
}

/* Y * 2^-1 in GF(2^8) modulo the MDS polynomial x^8 + x^6 + x^5 + x^3
 * + 1 (0x169).  The MDS entries are 0x5B = 1 + 2^-2 and 0xEF = 1 +
 * 2^-1 + 2^-2, so two halvings give both products (4.2).  */
static inline unsigned int
mds_half (unsigned int y)
{
  return (y >> 1) ^ (0xB4 & -(y & 1));
}

/* Column J of the MDS matrix times byte Y, as a word.  */
static u32
mds_column (int j, unsigned int y)
{
  u32 y01 = y;
  u32 y5b = y ^ mds_half (mds_half (y));
  u32 yef = y5b ^ mds_half (y);

  switch (j)
    {
    case 0:
      return y01 | (y5b << 8) | (yef << 16) | (yef << 24);
    case 1:
      return yef | (yef << 8) | (y5b << 16) | (y01 << 24);
    case 2:
      return y5b | (yef << 8) | (y01 << 16) | (yef << 24);
    default:
      return y5b | (y01 << 8) | (yef << 16) | (y5b << 24);
    }
}

/* Byte J of the h function (4.3.2) before the MDS matrix: X through
 * the q permutations, XORed with byte J of L[K-1] .. L[0].  */
static unsigned int
h_byte (int j, unsigned int x, const u32 *l, int k)
{
  int level;

  for (level = k - 1; level >= 0; level--)
    x = q_order[level][j][x] ^ ((l[level] >> (8 * j)) & 0xff);
  return q_order[4][j][x];
}

/* The h function of 4.3.2 with key words L[0..K-1].  */
static u32
h_func (u32 x, const u32 *l, int k)
{
  u32 z = 0;
  int j;

  for (j = 0; j < 4; j++)
    z ^= mds_column (j, h_byte (j, (x >> (8 * j)) & 0xff, l, k));
  return z;
}

static gpg_error_t
twofish_setkey (void *context, const unsigned char *key, size_t keylen)
{
  twofish_context_t *ctx = context;
  u32 me[4], mo[4], sbox_key[4];
  int k, i, j;

  if (keylen != 16 && keylen != 24 && keylen != 32)
    return gpg_error (GPG_ERR_INV_KEYLEN);
  k = keylen / 8;

  /* Me and Mo are the even and odd key words; the S-box key words
   * are used in reverse order, S = (S[k-1], ..., S[0]) (4.3).  */
  for (i = 0; i < k; i++)
    {
      me[i] = load_le32 (key + 8 * i);
      mo[i] = load_le32 (key + 8 * i + 4);
      sbox_key[k - 1 - i] = rs_word (key + 8 * i);
    }

  for (i = 0; i < 40; i += 2)
    {
      u32 a = h_func (i * TWOFISH_RHO, me, k);
      u32 b = rol32 (h_func ((i + 1) * TWOFISH_RHO, mo, k), 8);

      ctx->subkey[i] = a + b;
      ctx->subkey[i + 1] = rol32 (a + 2 * b, 9);
    }

  for (j = 0; j < 4; j++)
    for (i = 0; i < 256; i++)
      ctx->sbox[j][i] = mds_column (j, h_byte (j, i, sbox_key, k));

  sf_wipememory (me, sizeof me);
  sf_wipememory (mo, sizeof mo);
  sf_wipememory (sbox_key, sizeof sbox_key);
  return 0;
}


/*
 * Block encryption and decryption (4.1, Figure 1).
 */

/* g(X) and g(ROL(X, 8)); the rotation is folded into which byte each
 * table gets.  */
#define G0(s, x) ((s)[0][(x) & 0xff] ^ (s)[1][((x) >> 8) & 0xff]      \
                  ^ (s)[2][((x) >> 16) & 0xff] ^ (s)[3][(x) >> 24])
#define G1(s, x) ((s)[0][(x) >> 24] ^ (s)[1][(x) & 0xff]               \
                  ^ (s)[2][((x) >> 8) & 0xff] ^ (s)[3][((x) >> 16) & 0xff])

/* One round: F of (A, B) with round keys KP[0], KP[1] folded into C
 * and D.  Instead of swapping halves, the next round is called with
 * the halves' roles exchanged.  */
#define ENC_ROUND(s, a, b, c, d, kp)                    \
  do                                                    \
    {                                                   \
      u32 t0_ = G0 (s, a);                              \
      u32 t1_ = G1 (s, b);                              \
      t0_ += t1_;                                       \
      t1_ += t0_;                                       \
      (c) = ror32 ((c) ^ (t0_ + (kp)[0]), 1);           \
      (d) = rol32 ((d), 1) ^ (t1_ + (kp)[1]);           \
    }                                                   \
  while (0)

#define DEC_ROUND(s, a, b, c, d, kp)                    \
  do                                                    \
    {                                                   \
      u32 t0_ = G0 (s, a);                              \
      u32 t1_ = G1 (s, b);                              \
      t0_ += t1_;                                       \
      t1_ += t0_;                                       \
      (c) = rol32 ((c), 1) ^ (t0_ + (kp)[0]);           \
      (d) = ror32 ((d) ^ (t1_ + (kp)[1]), 1);           \
    }                                                   \
  while (0)

/* Two rounds, leaving the halves where they started.  */
#define ENC_CYCLE(s, a, b, c, d, kp)                    \
  do                                                    \
    {                                                   \
      ENC_ROUND (s, a, b, c, d, (kp));                  \
      ENC_ROUND (s, c, d, a, b, (kp) + 2);              \
    }                                                   \
  while (0)

#define DEC_CYCLE(s, a, b, c, d, kp)                    \
  do                                                    \
    {                                                   \
      DEC_ROUND (s, c, d, a, b, (kp) + 2);              \
      DEC_ROUND (s, a, b, c, d, (kp));                  \
    }                                                   \
  while (0)

/* The same for two independent blocks, interleaved round by round.  */
#define ENC_CYCLE2(s, a, b, c, d, e, f, g, h, kp)       \
  do                                                    \
    {                                                   \
      ENC_ROUND (s, a, b, c, d, (kp));                  \
      ENC_ROUND (s, e, f, g, h, (kp));                  \
      ENC_ROUND (s, c, d, a, b, (kp) + 2);              \
      ENC_ROUND (s, g, h, e, f, (kp) + 2);              \
    }                                                   \
  while (0)

#define DEC_CYCLE2(s, a, b, c, d, e, f, g, h, kp)       \
  do                                                    \
    {                                                   \
      DEC_ROUND (s, c, d, a, b, (kp) + 2);              \
      DEC_ROUND (s, g, h, e, f, (kp) + 2);              \
      DEC_ROUND (s, a, b, c, d, (kp));                  \
      DEC_ROUND (s, e, f, g, h, (kp));                  \
    }                                                   \
  while (0)

/* Encrypt the block held in the words W[0..3] in place, with the
 * statements S0 .. S4 after rounds 4, 6, 8, 10 and 12 (the stitched
 * CFB kernel puts its SHA-1 steps there).  Uses the variables S and K
 * of the function it expands in: the S-boxes and the subkeys.  */
#define ENCRYPT_WORDS_WITH(w, s0, s1, s2, s3, s4)                       \
  do                                                                    \
    {                                                                   \
      u32 a = (w)[0] ^ k[0], b = (w)[1] ^ k[1];                         \
      u32 c = (w)[2] ^ k[2], d = (w)[3] ^ k[3];                         \
                                                                        \
      ENC_CYCLE (s, a, b, c, d, k + 8);                                 \
      ENC_CYCLE (s, a, b, c, d, k + 12);                                \
      s0;                                                               \
      ENC_CYCLE (s, a, b, c, d, k + 16);                                \
      s1;                                                               \
      ENC_CYCLE (s, a, b, c, d, k + 20);                                \
      s2;                                                               \
      ENC_CYCLE (s, a, b, c, d, k + 24);                                \
      s3;                                                               \
      ENC_CYCLE (s, a, b, c, d, k + 28);                                \
      s4;                                                               \
      ENC_CYCLE (s, a, b, c, d, k + 32);                                \
      ENC_CYCLE (s, a, b, c, d, k + 36);                                \
                                                                        \
      /* The last round's swap is undone: output is (C, D, A, B).  */   \
      (w)[0] = c ^ k[4];                                                \
      (w)[1] = d ^ k[5];                                                \
      (w)[2] = a ^ k[6];                                                \
      (w)[3] = b ^ k[7];                                                \
    }                                                                   \
  while (0)

#define NOTHING ((void)0)

/* Always inlined so the bulk loops keep the block in registers.  */
static inline __attribute__ ((always_inline)) void
encrypt_words (const twofish_context_t *ctx, u32 *w)
{
  const u32 (*s)[256] = ctx->sbox;
  const u32 *k = ctx->subkey;

  ENCRYPT_WORDS_WITH (w, NOTHING, NOTHING, NOTHING, NOTHING, NOTHING);
}

static inline __attribute__ ((always_inline)) void
decrypt_words (const twofish_context_t *ctx, u32 *w)
{
  const u32 (*s)[256] = ctx->sbox;
  const u32 *k = ctx->subkey;
  u32 c = w[0] ^ k[4], d = w[1] ^ k[5], a = w[2] ^ k[6], b = w[3] ^ k[7];

  DEC_CYCLE (s, a, b, c, d, k + 36);
  DEC_CYCLE (s, a, b, c, d, k + 32);
  DEC_CYCLE (s, a, b, c, d, k + 28);
  DEC_CYCLE (s, a, b, c, d, k + 24);
  DEC_CYCLE (s, a, b, c, d, k + 20);
  DEC_CYCLE (s, a, b, c, d, k + 16);
  DEC_CYCLE (s, a, b, c, d, k + 12);
  DEC_CYCLE (s, a, b, c, d, k + 8);

  w[0] = a ^ k[0];
  w[1] = b ^ k[1];
  w[2] = c ^ k[2];
  w[3] = d ^ k[3];
}

/* Two blocks, W[0..3] and W[4..7], interleaved.  */
static inline __attribute__ ((always_inline)) void
encrypt2_words (const twofish_context_t *ctx, u32 *w)
{
  const u32 (*s)[256] = ctx->sbox;
  const u32 *k = ctx->subkey;
  u32 a = w[0] ^ k[0], b = w[1] ^ k[1], c = w[2] ^ k[2], d = w[3] ^ k[3];
  u32 e = w[4] ^ k[0], f = w[5] ^ k[1], g = w[6] ^ k[2], h = w[7] ^ k[3];

  ENC_CYCLE2 (s, a, b, c, d, e, f, g, h, k + 8);
  ENC_CYCLE2 (s, a, b, c, d, e, f, g, h, k + 12);
  ENC_CYCLE2 (s, a, b, c, d, e, f, g, h, k + 16);
  ENC_CYCLE2 (s, a, b, c, d, e, f, g, h, k + 20);
  ENC_CYCLE2 (s, a, b, c, d, e, f, g, h, k + 24);
  ENC_CYCLE2 (s, a, b, c, d, e, f, g, h, k + 28);
  ENC_CYCLE2 (s, a, b, c, d, e, f, g, h, k + 32);
  ENC_CYCLE2 (s, a, b, c, d, e, f, g, h, k + 36);

  w[0] = c ^ k[4];
  w[1] = d ^ k[5];
  w[2] = a ^ k[6];
  w[3] = b ^ k[7];
  w[4] = g ^ k[4];
  w[5] = h ^ k[5];
  w[6] = e ^ k[6];
  w[7] = f ^ k[7];
}

static inline __attribute__ ((always_inline)) void
decrypt2_words (const twofish_context_t *ctx, u32 *w)
{
  const u32 (*s)[256] = ctx->sbox;
  const u32 *k = ctx->subkey;
  u32 c = w[0] ^ k[4], d = w[1] ^ k[5], a = w[2] ^ k[6], b = w[3] ^ k[7];
  u32 g = w[4] ^ k[4], h = w[5] ^ k[5], e = w[6] ^ k[6], f = w[7] ^ k[7];

  DEC_CYCLE2 (s, a, b, c, d, e, f, g, h, k + 36);
  DEC_CYCLE2 (s, a, b, c, d, e, f, g, h, k + 32);
  DEC_CYCLE2 (s, a, b, c, d, e, f, g, h, k + 28);
  DEC_CYCLE2 (s, a, b, c, d, e, f, g, h, k + 24);
  DEC_CYCLE2 (s, a, b, c, d, e, f, g, h, k + 20);
  DEC_CYCLE2 (s, a, b, c, d, e, f, g, h, k + 16);
  DEC_CYCLE2 (s, a, b, c, d, e, f, g, h, k + 12);
  DEC_CYCLE2 (s, a, b, c, d, e, f, g, h, k + 8);

  w[0] = a ^ k[0];
  w[1] = b ^ k[1];
  w[2] = c ^ k[2];
  w[3] = d ^ k[3];
  w[4] = e ^ k[0];
  w[5] = f ^ k[1];
  w[6] = g ^ k[2];
  w[7] = h ^ k[3];
}

static inline void
load_block (u32 *w, const unsigned char *p)
{
  w[0] = load_le32 (p);
  w[1] = load_le32 (p + 4);
  w[2] = load_le32 (p + 8);
  w[3] = load_le32 (p + 12);
}

static inline void
store_block (unsigned char *p, const u32 *w)
{
  store_le32 (p, w[0]);
  store_le32 (p + 4, w[1]);
  store_le32 (p + 8, w[2]);
  store_le32 (p + 12, w[3]);
}

static void
twofish_encrypt (const void *context, unsigned char *out,
                 const unsigned char *in)
{
  u32 w[4];

  load_block (w, in);
  encrypt_words (context, w);
  store_block (out, w);
}

static void
twofish_decrypt (const void *context, unsigned char *out,
                 const unsigned char *in)
{
  u32 w[4];

  load_block (w, in);
  decrypt_words (context, w);
  store_block (out, w);
}


/*
 * Bulk functions.  Every loop reads a whole block before writing
 * the block at the same position, so IN == OUT works.
 */

static void
twofish_ecb_enc (const void *context, unsigned char *out,
                 const unsigned char *in, size_t nblocks)
{
  u32 w[8];

  for (; nblocks >= 2; nblocks -= 2)
    {
      load_block (w, in);
      load_block (w + 4, in + 16);
      encrypt2_words (context, w);
      store_block (out, w);
      store_block (out + 16, w + 4);
      in += 32;
      out += 32;
    }
  if (nblocks)
    {
      load_block (w, in);
      encrypt_words (context, w);
      store_block (out, w);
    }
}

static void
twofish_ecb_dec (const void *context, unsigned char *out,
                 const unsigned char *in, size_t nblocks)
{
  u32 w[8];

  for (; nblocks >= 2; nblocks -= 2)
    {
      load_block (w, in);
      load_block (w + 4, in + 16);
      decrypt2_words (context, w);
      store_block (out, w);
      store_block (out + 16, w + 4);
      in += 32;
      out += 32;
    }
  if (nblocks)
    {
      load_block (w, in);
      decrypt_words (context, w);
      store_block (out, w);
    }
}

static void
twofish_cbc_enc (const void *context, unsigned char *iv, unsigned char *out,
                 const unsigned char *in, size_t nblocks)
{
  u32 w[4];

  load_block (w, iv);
  for (; nblocks; nblocks--)
    {
      w[0] ^= load_le32 (in);
      w[1] ^= load_le32 (in + 4);
      w[2] ^= load_le32 (in + 8);
      w[3] ^= load_le32 (in + 12);
      encrypt_words (context, w);
      store_block (out, w);
      in += 16;
      out += 16;
    }
  store_block (iv, w);
}

static void
twofish_cbc_dec (const void *context, unsigned char *iv, unsigned char *out,
                 const unsigned char *in, size_t nblocks)
{
  u32 chain[4], ct[8], w[8];
  int i;

  load_block (chain, iv);
  for (; nblocks >= 2; nblocks -= 2)
    {
      load_block (ct, in);
      load_block (ct + 4, in + 16);
      memcpy (w, ct, sizeof w);
      decrypt2_words (context, w);
      for (i = 0; i < 4; i++)
        {
          w[i] ^= chain[i];
          w[i + 4] ^= ct[i];
          chain[i] = ct[i + 4];
        }
      store_block (out, w);
      store_block (out + 16, w + 4);
      in += 32;
      out += 32;
    }
  if (nblocks)
    {
      load_block (ct, in);
      memcpy (w, ct, 4 * sizeof *w);
      decrypt_words (context, w);
      for (i = 0; i < 4; i++)
        {
          w[i] ^= chain[i];
          chain[i] = ct[i];
        }
      store_block (out, w);
    }
  store_block (iv, chain);
}

/* CFB encryption is serial: the chaining value stays in W across
 * blocks instead of going through IV.  */
static void
twofish_cfb_enc (const void *context, unsigned char *iv, unsigned char *out,
                 const unsigned char *in, size_t nblocks)
{
  u32 w[4];

  load_block (w, iv);
  for (; nblocks; nblocks--)
    {
      encrypt_words (context, w);
      w[0] ^= load_le32 (in);
      w[1] ^= load_le32 (in + 4);
      w[2] ^= load_le32 (in + 8);
      w[3] ^= load_le32 (in + 12);
      store_block (out, w);
      in += 16;
      out += 16;
    }
  store_block (iv, w);
}


#if defined(__x86_64__) || defined(__i386__)
/*
 * CFB encryption stitched with SHA-1 (sfcipher.h, sf_cfb_sha1_t).
 * CFB encryption is one chain of dependent rounds of S-box loads and
 * integer steps, with much of the core idle; SHA-1 on the SHA
 * instructions is another chain, in the vector units.  Here the
 * twenty SHA steps of each 64 bytes of plaintext go between the
 * rounds of the four CFB blocks of the same bytes, so that both
 * chains are in flight together instead of one after the other.
 */

/* CFB block J of the 64 bytes at IN to OUT, the chaining value in W,
 * with the SHA steps S0 .. S4 between its rounds.  */
#define CFB_ENC_BLOCK_SHA1_(j, s0, s1, s2, s3, s4)                      \
  do                                                                    \
    {                                                                   \
      ENCRYPT_WORDS_WITH (w, s0, s1, s2, s3, s4);                       \
      w[0] ^= load_le32 (in + 16 * (j));                                \
      w[1] ^= load_le32 (in + 16 * (j) + 4);                            \
      w[2] ^= load_le32 (in + 16 * (j) + 8);                            \
      w[3] ^= load_le32 (in + 16 * (j) + 12);                           \
      store_block (out + 16 * (j), w);                                  \
    }                                                                   \
  while (0)

__attribute__ ((target (SHA1_SHANI_ISA))) static void
twofish_cfb_enc_sha1 (const void *context, unsigned char *iv,
                      unsigned char *out, const unsigned char *in,
                      size_t nblocks, uint32_t state[5])
{
  const twofish_context_t *ctx = context;
  const u32 (*s)[256] = ctx->sbox;
  const u32 *k = ctx->subkey;
  u32 w[4];
  SHA1_SHANI_VARIABLES;

  load_block (w, iv);
  SHA1_SHANI_CFB_ENC_LOOP (4, CFB_ENC_BLOCK_SHA1_);
  store_block (iv, w);
}

static const sf_cfb_sha1_t twofish_cfb_sha1 =
  SHA1_SHANI_CFB_ENC_ENTRY (twofish_cfb_enc_sha1);
# define TWOFISH_CFB_SHA1 (&twofish_cfb_sha1)
#else
# define TWOFISH_CFB_SHA1 NULL
#endif /* x86-64 or i386 */

static void
twofish_cfb_dec (const void *context, unsigned char *iv, unsigned char *out,
                 const unsigned char *in, size_t nblocks)
{
  u32 ct[8], w[8];
  int i;

  load_block (w, iv);
  for (; nblocks >= 2; nblocks -= 2)
    {
      load_block (ct, in);
      load_block (ct + 4, in + 16);
      memcpy (w + 4, ct, 4 * sizeof *w);
      encrypt2_words (context, w);
      for (i = 0; i < 8; i++)
        w[i] ^= ct[i];
      store_block (out, w);
      store_block (out + 16, w + 4);
      memcpy (w, ct + 4, 4 * sizeof *w);
      in += 32;
      out += 32;
    }
  if (nblocks)
    {
      load_block (ct, in);
      encrypt_words (context, w);
      for (i = 0; i < 4; i++)
        w[i] ^= ct[i];
      store_block (out, w);
      memcpy (w, ct, 4 * sizeof *w);
    }
  store_block (iv, w);
}

static void
twofish_ofb (const void *context, unsigned char *iv, unsigned char *out,
             const unsigned char *in, size_t nblocks)
{
  u32 w[4];

  load_block (w, iv);
  for (; nblocks; nblocks--)
    {
      encrypt_words (context, w);
      store_le32 (out, w[0] ^ load_le32 (in));
      store_le32 (out + 4, w[1] ^ load_le32 (in + 4));
      store_le32 (out + 8, w[2] ^ load_le32 (in + 8));
      store_le32 (out + 12, w[3] ^ load_le32 (in + 12));
      in += 16;
      out += 16;
    }
  store_block (iv, w);
}

/* Add one to the 128-bit big-endian counter CTR.  */
static inline void
counter_inc (unsigned char *ctr)
{
  int i;

  for (i = TWOFISH_BLOCKSIZE - 1; i >= 0; i--)
    if (++ctr[i])
      break;
}

static void
twofish_ctr (const void *context, unsigned char *iv, unsigned char *out,
             const unsigned char *in, size_t nblocks)
{
  u32 w[8];
  int i;

  for (; nblocks >= 2; nblocks -= 2)
    {
      load_block (w, iv);
      counter_inc (iv);
      load_block (w + 4, iv);
      counter_inc (iv);
      encrypt2_words (context, w);
      for (i = 0; i < 8; i++)
        store_le32 (out + 4 * i, w[i] ^ load_le32 (in + 4 * i));
      in += 32;
      out += 32;
    }
  if (nblocks)
    {
      load_block (w, iv);
      counter_inc (iv);
      encrypt_words (context, w);
      for (i = 0; i < 4; i++)
        store_le32 (out + 4 * i, w[i] ^ load_le32 (in + 4 * i));
    }
}


/*
 * Known answers: twofish-kat.zip (see the header), ecb_ival.txt and
 * entries I=1, 2, 10 and 49 of each ecb_tbl.txt table.
 */
static const sf_kat_t twofish_kats[] =
  {
    /* ecb_ival.txt.  */
    { "0123456789ABCDEFFEDCBA98765432100011223344556677",
      "00000000000000000000000000000000",
      "CFD1D2E5A9BE9CDF501F13B892BD2248" },
    { "0123456789ABCDEFFEDCBA987654321000112233445566778899AABBCCDDEEFF",
      "00000000000000000000000000000000",
      "37527BE0052334B89F0CFCCAE87CFA20" },
    /* ecb_tbl.txt, KEYSIZE=128.  */
    { "00000000000000000000000000000000",
      "00000000000000000000000000000000",
      "9F589F5CF6122C32B6BFEC2F2AE8C35A" },
    { "00000000000000000000000000000000",
      "9F589F5CF6122C32B6BFEC2F2AE8C35A",
      "D491DB16E7B1C39E86CB086B789F5419" },
    { "34C8A5FB2D3D08A170D120AC6D26DBFA",
      "28530B358C1B42EF277DE6D4407FC591",
      "8A8AB983310ED78C8C0ECDE030B8DCA4" },
    { "BCA724A54533C6987E14AA827952F921",
      "6B459286F3FFD28D49F15B1581B08E42",
      "5D9D4EEFFA9151575524F115815A12E0" },
    /* ecb_tbl.txt, KEYSIZE=192.  */
    { "000000000000000000000000000000000000000000000000",
      "00000000000000000000000000000000",
      "EFA71F788965BD4453F860178FC19101" },
    { "000000000000000000000000000000000000000000000000",
      "EFA71F788965BD4453F860178FC19101",
      "88B2B2706B105E36B446BB6D731A1E88" },
    { "AE8109BFDA85C1F2C5038B34ED691BFF3AF6F7CE5BD35EF1",
      "893FD67B98C550073571BD631263FC78",
      "16434FC9C8841A63D58700B5578E8F67" },
    { "FB66522C332FCC4C042ABE32FA9E902FDEA4F3DA75EC7A8E",
      "F0AB73301125FA21EF70BE5385FB76B6",
      "E75449212BEEF9F4A390BD860A640941" },
    /* ecb_tbl.txt, KEYSIZE=256.  */
    { "0000000000000000000000000000000000000000000000000000000000000000",
      "00000000000000000000000000000000",
      "57FF739D4DC92C1BD7FC01700CC8216F" },
    { "0000000000000000000000000000000000000000000000000000000000000000",
      "57FF739D4DC92C1BD7FC01700CC8216F",
      "D43BB7556EA32E46F2A282B7D45B4E0D" },
    { "DC096BCD99FC72F79936D4C748E75AF75AB67A5F8539A4A5FD9F0373BA463466",
      "C5A3E7CEE0F1B7260528A68FB4EA05F2",
      "43D5CEC327B24AB90AD34A79D0469151" },
    { "248A7F3528B168ACFDD1386E3F51E30C2E2158BC3E5FC714C1EEECA0EA696D48",
      "431058F4DBC7F734DA4F02F04CC4F459",
      "37FE26FF1CF66175F5DDF4C33B97A205" }
  };

static const char *const twofish_aliases[] = { "TWOFISH256", NULL };

static const sf_cipher_spec_t sf_spec_twofish_ref =
  {
    .abi_version = SF_ABI_VERSION,
    .name = "TWOFISH",
    .aliases = twofish_aliases,
    .openpgp_id = 10,
    .blocksize = TWOFISH_BLOCKSIZE,
    .keylen = 32,
    .contextsize = sizeof (twofish_context_t),
    .impl = "ref",
    .priority = SF_PRIO_REF,
    .hwf = NULL,
    .usable = NULL,
    .setkey = twofish_setkey,
    .encrypt = twofish_encrypt,
    .decrypt = twofish_decrypt,
    .release = NULL,
    .ecb_enc = twofish_ecb_enc,
    .ecb_dec = twofish_ecb_dec,
    .cbc_enc = twofish_cbc_enc,
    .cbc_dec = twofish_cbc_dec,
    .cfb_enc = twofish_cfb_enc,
    .cfb_dec = twofish_cfb_dec,
    .ofb = twofish_ofb,
    .ctr = twofish_ctr,
    .cfb_sha1 = TWOFISH_CFB_SHA1,
    .kats = twofish_kats,
    .n_kats = sizeof twofish_kats / sizeof twofish_kats[0],
    /* The key-dependent S-box tables are indexed by the data.  */
    .timing = SF_TIMING_TABLES
  };

SF_MODULE (twofish, &sf_spec_twofish_ref);
