/* idea.c - IDEA (Lai and Massey) for sfenc
 *
 * The International Data Encryption Algorithm of Xuejia Lai and James
 * L. Massey, as specified in X. Lai, "On the Design and Security of
 * Block Ciphers" (ETH Series in Information Processing, vol. 1, 1992)
 * and used by OpenPGP (RFC 4880 9.2, algorithm id 1): a 64-bit block of
 * four big-endian 16-bit words, a 128-bit key, eight rounds and an
 * output transformation mixing XOR, addition modulo 2^16 and
 * multiplication modulo 2^16 + 1 (where the word 0 stands for 2^16).
 *
 * Implementation "ref": portable C, plus SSE2 for eight blocks at a
 * time in the parallel bulk paths when the compiler targets SSE2 (the
 * x86-64 baseline), and on x86 two one-line asm statements that save a
 * zero-extension in the serial path (see mul below).  The
 * multiplication never branches on data or key: the zero operand is
 * handled with masks.  Decryption runs the same code with the
 * inverted key schedule, computed once in setkey.
 *
 * Known answers: the designers' example (key 0001 0002 ... 0008,
 * plaintext 0000 0001 0002 0003) and the NESSIE verified test vectors
 * (Idea-128-64.verified.test-vectors); the whole set is
 * tests/vectors/idea.txt.
 */
#include <config.h>

#include <stdint.h>
#include <string.h>
#ifdef __SSE2__
# include <emmintrin.h>
#endif

#include "sfcipher.h"

#define IDEA_BLOCKSIZE 8
#define IDEA_KEYLEN 16
#define IDEA_ROUNDS 8
#define IDEA_SUBKEYS (6 * IDEA_ROUNDS + 4)

/* Eight blocks, one per 16-bit lane, in the SSE2 path.  */
#define IDEA_LANES 8

#if defined __GNUC__ && (defined __x86_64__ || defined __i386__)
# define IDEA_X86_ASM 1
#else
# define IDEA_X86_ASM 0
#endif

typedef struct
{
  /* Subkeys for encryption and for decryption.  A multiplicative
   * subkey is kept as its value in 1..2^16 (0 already replaced by
   * 2^16), an additive one as itself.  */
  uint32_t ek[IDEA_SUBKEYS];
  uint32_t dk[IDEA_SUBKEYS];
#ifdef __SSE2__
  /* The same as 16-bit words repeated in every lane.  */
  _Alignas (16) uint16_t ekv[IDEA_SUBKEYS][IDEA_LANES];
  _Alignas (16) uint16_t dkv[IDEA_SUBKEYS][IDEA_LANES];
#endif
} idea_context_t;


static inline uint32_t
load_be16 (const unsigned char *p)
{
  return ((uint32_t) p[0] << 8) | p[1];
}

static inline void
store_be16 (unsigned char *p, uint32_t v)
{
  p[0] = v >> 8;
  p[1] = v;
}

static inline uint64_t
load_be64 (const unsigned char *p)
{
  return ((uint64_t) load_be16 (p) << 48)
         | ((uint64_t) load_be16 (p + 2) << 32)
         | ((uint64_t) load_be16 (p + 4) << 16) | load_be16 (p + 6);
}

static inline void
store_be64 (unsigned char *p, uint64_t v)
{
  store_be16 (p, v >> 48);
  store_be16 (p + 2, v >> 32);
  store_be16 (p + 4, v >> 16);
  store_be16 (p + 6, v);
}

/* The four words of the block at P, and back.  */
static inline void
load_words (uint32_t *w, const unsigned char *p)
{
  w[0] = load_be16 (p);
  w[1] = load_be16 (p + 2);
  w[2] = load_be16 (p + 4);
  w[3] = load_be16 (p + 6);
}

static inline void
store_words (unsigned char *p, const uint32_t *w)
{
  store_be16 (p, w[0]);
  store_be16 (p + 2, w[1]);
  store_be16 (p + 4, w[2]);
  store_be16 (p + 6, w[3]);
}

/* Every word the cipher works on is kept clean: a value below 2^16 in
 * a uint32_t.
 *
 * X times Z modulo 2^16 + 1, as a clean word.  X is a clean word (0
 * meaning 2^16), Z a multiplicative subkey in 1..2^16.  For X != 0
 * the product is not a multiple of 2^16 + 1, and since 2^16 = -1 its
 * residue is the low half minus the high half, plus 2^16 + 1 when
 * that is negative (which modulo 2^16 is plus 1).  For X = 0 the
 * product is 0 and the answer, -Z = 1 - Z, is added through a mask
 * instead of a branch: no branch depends on the data or the key.
 *
 * Three multiplications and an addition lie on the critical path of
 * every round.  On x86 they end in a 16-bit ADC or ADD, which leave
 * bits 16..31 of a clean register at zero; compiled from C they need
 * one more instruction, a zero-extension, each time (about 12% of the
 * speed of CFB encryption).  */
static inline uint32_t
mul (uint32_t x, uint32_t z)
{
  uint32_t p = x * z;
  uint32_t lo = p & 0xffff, hi = p >> 16;
  uint32_t fix = ((x - 1) >> 16) & (1 - z);

#if IDEA_X86_ASM
  __asm__ ("cmpl %[hi], %[lo]\n\t"
           "adcw %w[fix_hi], %w[lo]"
           : [lo] "+r" (lo)
           : [hi] "r" (hi), [fix_hi] "r" (fix - hi)
           : "cc");
  return lo;
#else
  return (lo - hi + (lo < hi) + fix) & 0xffff;
#endif
}

/* A + B modulo 2^16 for clean words, as a clean word; on x86 a 16-bit
 * add, for the reason given above.  */
static inline uint32_t
add16 (uint32_t a, uint32_t b)
{
#if IDEA_X86_ASM
  __asm__ ("addw %w[b], %w[a]" : [a] "+r" (a) : [b] "r" (b) : "cc");
  return a;
#else
  return (a + b) & 0xffff;
#endif
}

/* A multiplicative subkey in 1..2^16 from its 16-bit word.  */
static inline uint32_t
mul_key (uint32_t w)
{
  return ((w - 1) & 0xffff) + 1;
}

/* The multiplicative inverse of the word W, as a word: W^(2^16 - 1) by
 * a fixed chain of squarings and multiplications (2^16 + 1 is prime),
 * so setkey does not branch on the key either.  */
static uint32_t
mul_inverse (uint32_t w)
{
  uint32_t r = w;
  int i;

  for (i = 0; i < 15; i++)
    {
      r = mul (r, mul_key (r));
      r = mul (r, mul_key (w));
    }
  return r;
}


static gpg_error_t
idea_setkey (void *context, const unsigned char *key, size_t keylen)
{
  idea_context_t *c = context;
  uint16_t z[IDEA_SUBKEYS];
  uint64_t k_hi, k_lo, t;
  int i, r;

  if (keylen != IDEA_KEYLEN)
    return gpg_error (GPG_ERR_INV_KEYLEN);

  /* The subkeys are the key's words in order, the key being rotated
   * left by 25 bits after every eight.  */
  k_hi = load_be64 (key);
  k_lo = load_be64 (key + 8);
  for (i = 0; i < IDEA_SUBKEYS; i++)
    {
      if (i && !(i % 8))
        {
          t = k_hi;
          k_hi = (k_hi << 25) | (k_lo >> 39);
          k_lo = (k_lo << 25) | (t >> 39);
        }
      z[i] = (i % 8 < 4 ? k_hi : k_lo) >> (48 - 16 * (i % 4));
    }

  /* Decryption round R undoes encryption round 9 - R: inverses of its
   * multiplicative and negatives of its additive subkeys (these two
   * crossed, except next to the output transformation), with the
   * multiplication-addition subkeys of the round before.  */
  for (r = 0; r <= IDEA_ROUNDS; r++)
    {
      const uint16_t *e = z + 6 * (IDEA_ROUNDS - r);
      uint32_t *d = c->dk + 6 * r;
      int crossed = r > 0 && r < IDEA_ROUNDS;

      d[0] = mul_key (mul_inverse (e[0]));
      d[1] = (-(uint32_t) e[crossed ? 2 : 1]) & 0xffff;
      d[2] = (-(uint32_t) e[crossed ? 1 : 2]) & 0xffff;
      d[3] = mul_key (mul_inverse (e[3]));
      if (r < IDEA_ROUNDS)
        {
          d[4] = mul_key (e[-2]);
          d[5] = mul_key (e[-1]);
        }
    }

  for (i = 0; i < IDEA_SUBKEYS; i++)
    {
      int additive = i % 6 == 1 || i % 6 == 2;

      c->ek[i] = additive ? z[i] : mul_key (z[i]);
#ifdef __SSE2__
      for (r = 0; r < IDEA_LANES; r++)
        {
          c->ekv[i][r] = c->ek[i];
          c->dkv[i][r] = c->dk[i];
        }
#endif
    }

  sf_wipememory (z, sizeof z);
  sf_wipememory (&k_hi, sizeof k_hi);
  sf_wipememory (&k_lo, sizeof k_lo);
  sf_wipememory (&t, sizeof t);
  return 0;
}


/* One round on the words X1..X4 with the subkeys K[0..5].  The
 * middle words swap places at the end; the output transformation
 * takes them back.  */
#define IDEA_ROUND(k, x1, x2, x3, x4)                                   \
  do {                                                                  \
    uint32_t t0_, t1_;                                                  \
    x1 = mul (x1, (k)[0]);                                              \
    x2 = (x2 + (k)[1]) & 0xffff;                                        \
    x3 = (x3 + (k)[2]) & 0xffff;                                        \
    x4 = mul (x4, (k)[3]);                                              \
    t0_ = mul (x1 ^ x3, (k)[4]);                                        \
    t1_ = mul (add16 (t0_, x2 ^ x4), (k)[5]);                           \
    t0_ = add16 (t0_, t1_);                                             \
    x1 ^= t1_;                                                          \
    x4 ^= t0_;                                                          \
    t0_ ^= x2;                                                          \
    x2 = x3 ^ t1_;                                                      \
    x3 = t0_;                                                           \
  } while (0)

/* The output transformation with the subkeys K[48..51].  */
#define IDEA_OUTPUT(k, x1, x2, x3, x4)                                  \
  do {                                                                  \
    uint32_t y2_ = (x3 + (k)[49]) & 0xffff;                             \
    x1 = mul (x1, (k)[48]);                                             \
    x3 = (x2 + (k)[50]) & 0xffff;                                       \
    x2 = y2_;                                                           \
    x4 = mul (x4, (k)[51]);                                             \
  } while (0)

/* The whole cipher on X1..X4 in place, unrolled.  */
#define IDEA_CRYPT(k, x1, x2, x3, x4)                                   \
  do {                                                                  \
    IDEA_ROUND ((k) + 0, x1, x2, x3, x4);                               \
    IDEA_ROUND ((k) + 6, x1, x2, x3, x4);                               \
    IDEA_ROUND ((k) + 12, x1, x2, x3, x4);                              \
    IDEA_ROUND ((k) + 18, x1, x2, x3, x4);                              \
    IDEA_ROUND ((k) + 24, x1, x2, x3, x4);                              \
    IDEA_ROUND ((k) + 30, x1, x2, x3, x4);                              \
    IDEA_ROUND ((k) + 36, x1, x2, x3, x4);                              \
    IDEA_ROUND ((k) + 42, x1, x2, x3, x4);                              \
    IDEA_OUTPUT (k, x1, x2, x3, x4);                                    \
  } while (0)

/* One block in the words W[0..3].  */
static inline void
crypt_words (const uint32_t *k, uint32_t *w)
{
  uint32_t x1 = w[0], x2 = w[1], x3 = w[2], x4 = w[3];

  IDEA_CRYPT (k, x1, x2, x3, x4);
  w[0] = x1;
  w[1] = x2;
  w[2] = x3;
  w[3] = x4;
}

/* Two independent blocks in W[0..7], their rounds interleaved so that
 * the multiplications of one fill the latency of the other's.  */
static inline void
crypt_words2 (const uint32_t *k, uint32_t *w)
{
  uint32_t a1 = w[0], a2 = w[1], a3 = w[2], a4 = w[3];
  uint32_t b1 = w[4], b2 = w[5], b3 = w[6], b4 = w[7];
  int r;

  for (r = 0; r < 6 * IDEA_ROUNDS; r += 6)
    {
      IDEA_ROUND (k + r, a1, a2, a3, a4);
      IDEA_ROUND (k + r, b1, b2, b3, b4);
    }
  IDEA_OUTPUT (k, a1, a2, a3, a4);
  IDEA_OUTPUT (k, b1, b2, b3, b4);
  w[0] = a1;
  w[1] = a2;
  w[2] = a3;
  w[3] = a4;
  w[4] = b1;
  w[5] = b2;
  w[6] = b3;
  w[7] = b4;
}

static inline void
crypt_block (const uint32_t *k, unsigned char *out, const unsigned char *in)
{
  uint32_t w[4];

  load_words (w, in);
  crypt_words (k, w);
  store_words (out, w);
}

static void
idea_encrypt (const void *context, unsigned char *out,
              const unsigned char *in)
{
  const idea_context_t *c = context;

  crypt_block (c->ek, out, in);
}

static void
idea_decrypt (const void *context, unsigned char *out,
              const unsigned char *in)
{
  const idea_context_t *c = context;

  crypt_block (c->dk, out, in);
}


#ifdef __SSE2__
/* Eight blocks at once, one per 16-bit lane: X1..X4 hold the first to
 * fourth words of all eight.  */

/* X times Z modulo 2^16 + 1 in every lane, both words (0 meaning
 * 2^16), as mul() above: low minus high half, plus 1 when the low half
 * is not the larger.  The halves are equal only when the product is 0,
 * that is when X or Z is 0; that first step then gives 1, and the
 * answer 1 - X - Z is reached by subtracting X + Z under a mask.  */
static inline __m128i
mul_sse2 (__m128i x, __m128i z)
{
  __m128i lo = _mm_mullo_epi16 (x, z);
  __m128i hi = _mm_mulhi_epu16 (x, z);
  __m128i lo_le_hi = _mm_cmpeq_epi16 (_mm_subs_epu16 (lo, hi),
                                      _mm_setzero_si128 ());
  __m128i zero_product = _mm_cmpeq_epi16 (lo, hi);
  __m128i r = _mm_sub_epi16 (_mm_sub_epi16 (lo, hi), lo_le_hi);

  return _mm_sub_epi16 (r, _mm_and_si128 (zero_product,
                                          _mm_add_epi16 (x, z)));
}

/* Subkey I in every lane.  */
static inline __m128i
key_sse2 (const uint16_t (*kv)[IDEA_LANES], int i)
{
  return _mm_load_si128 ((const __m128i *) kv[i]);
}

/* The whole cipher on the words *X1..*X4 of eight blocks, as
 * IDEA_CRYPT.  */
static inline void
crypt_sse2 (const uint16_t (*kv)[IDEA_LANES],
            __m128i *x1, __m128i *x2, __m128i *x3, __m128i *x4)
{
  __m128i a = *x1, b = *x2, c = *x3, d = *x4, t0, t1;
  int r;

  for (r = 0; r < 6 * IDEA_ROUNDS; r += 6)
    {
      a = mul_sse2 (a, key_sse2 (kv, r));
      b = _mm_add_epi16 (b, key_sse2 (kv, r + 1));
      c = _mm_add_epi16 (c, key_sse2 (kv, r + 2));
      d = mul_sse2 (d, key_sse2 (kv, r + 3));
      t0 = mul_sse2 (_mm_xor_si128 (a, c), key_sse2 (kv, r + 4));
      t1 = mul_sse2 (_mm_add_epi16 (t0, _mm_xor_si128 (b, d)),
                     key_sse2 (kv, r + 5));
      t0 = _mm_add_epi16 (t0, t1);
      a = _mm_xor_si128 (a, t1);
      d = _mm_xor_si128 (d, t0);
      t0 = _mm_xor_si128 (t0, b);
      b = _mm_xor_si128 (c, t1);
      c = t0;
    }
  *x1 = mul_sse2 (a, key_sse2 (kv, 48));
  *x2 = _mm_add_epi16 (c, key_sse2 (kv, 49));
  *x3 = _mm_add_epi16 (b, key_sse2 (kv, 50));
  *x4 = mul_sse2 (d, key_sse2 (kv, 51));
}

/* Byte swap of each 16-bit lane: IDEA words are big-endian.  */
static inline __m128i
bswap16_sse2 (__m128i v)
{
  return _mm_or_si128 (_mm_slli_epi16 (v, 8), _mm_srli_epi16 (v, 8));
}

/* Encrypt or decrypt the eight blocks held in B[0..3] (two blocks per
 * register, in memory order), in place.  */
static inline void
crypt8_sse2 (const uint16_t (*kv)[IDEA_LANES], __m128i *b)
{
  __m128i t0, t1, t2, t3, u0, u1, u2, u3;

  /* Transpose the 8x4 matrix of words into one register per word
   * position.  */
  t0 = _mm_unpacklo_epi16 (b[0], b[1]);
  t1 = _mm_unpackhi_epi16 (b[0], b[1]);
  t2 = _mm_unpacklo_epi16 (b[2], b[3]);
  t3 = _mm_unpackhi_epi16 (b[2], b[3]);
  u0 = _mm_unpacklo_epi16 (t0, t1);
  u1 = _mm_unpackhi_epi16 (t0, t1);
  u2 = _mm_unpacklo_epi16 (t2, t3);
  u3 = _mm_unpackhi_epi16 (t2, t3);
  t0 = bswap16_sse2 (_mm_unpacklo_epi64 (u0, u2));
  t1 = bswap16_sse2 (_mm_unpackhi_epi64 (u0, u2));
  t2 = bswap16_sse2 (_mm_unpacklo_epi64 (u1, u3));
  t3 = bswap16_sse2 (_mm_unpackhi_epi64 (u1, u3));

  crypt_sse2 (kv, &t0, &t1, &t2, &t3);

  t0 = bswap16_sse2 (t0);
  t1 = bswap16_sse2 (t1);
  t2 = bswap16_sse2 (t2);
  t3 = bswap16_sse2 (t3);
  u0 = _mm_unpacklo_epi16 (t0, t1);
  u1 = _mm_unpackhi_epi16 (t0, t1);
  u2 = _mm_unpacklo_epi16 (t2, t3);
  u3 = _mm_unpackhi_epi16 (t2, t3);
  b[0] = _mm_unpacklo_epi32 (u0, u2);
  b[1] = _mm_unpackhi_epi32 (u0, u2);
  b[2] = _mm_unpacklo_epi32 (u1, u3);
  b[3] = _mm_unpackhi_epi32 (u1, u3);
}

static inline void
load8_sse2 (__m128i *b, const unsigned char *p)
{
  b[0] = _mm_loadu_si128 ((const __m128i *) p);
  b[1] = _mm_loadu_si128 ((const __m128i *) (p + 16));
  b[2] = _mm_loadu_si128 ((const __m128i *) (p + 32));
  b[3] = _mm_loadu_si128 ((const __m128i *) (p + 48));
}

static inline void
store8_sse2 (unsigned char *p, const __m128i *b)
{
  _mm_storeu_si128 ((__m128i *) p, b[0]);
  _mm_storeu_si128 ((__m128i *) (p + 16), b[1]);
  _mm_storeu_si128 ((__m128i *) (p + 32), b[2]);
  _mm_storeu_si128 ((__m128i *) (p + 48), b[3]);
}

/* The eight blocks before the eight at P: the chaining value IV and
 * the first seven blocks at P, for CBC and CFB decryption.  */
static inline void
load8_prev_sse2 (__m128i *b, const unsigned char *iv, const unsigned char *p)
{
  b[0] = _mm_unpacklo_epi64 (_mm_loadl_epi64 ((const __m128i *) iv),
                             _mm_loadl_epi64 ((const __m128i *) p));
  b[1] = _mm_loadu_si128 ((const __m128i *) (p + 8));
  b[2] = _mm_loadu_si128 ((const __m128i *) (p + 24));
  b[3] = _mm_loadu_si128 ((const __m128i *) (p + 40));
}

/* The eight counter blocks from *COUNTER on, which is advanced.  Built
 * in registers: eight 8-byte stores read back as 16-byte loads would
 * defeat store forwarding.  SSE2 means x86, which is little-endian.  */
static inline void
counter8_sse2 (__m128i *b, uint64_t *counter)
{
  uint64_t n = *counter;
  int i;

  for (i = 0; i < 4; i++, n += 2)
    b[i] = _mm_set_epi64x ((long long) __builtin_bswap64 (n + 1),
                           (long long) __builtin_bswap64 (n));
  *counter = n;
}

static inline void
xor8_sse2 (__m128i *b, const __m128i *a)
{
  b[0] = _mm_xor_si128 (b[0], a[0]);
  b[1] = _mm_xor_si128 (b[1], a[1]);
  b[2] = _mm_xor_si128 (b[2], a[2]);
  b[3] = _mm_xor_si128 (b[3], a[3]);
}
#endif /*__SSE2__*/


/* Bulk functions.  CFB encryption is serial and keeps the chaining
 * value in words across the loop.  The parallel modes take eight
 * blocks per step with SSE2 and the rest, or everything without SSE2,
 * two at a time in words.  */

static void
idea_cfb_enc (const void *context, unsigned char *iv,
              unsigned char *out, const unsigned char *in,
              size_t nblocks)
{
  const idea_context_t *c = context;
  uint32_t x1 = load_be16 (iv), x2 = load_be16 (iv + 2);
  uint32_t x3 = load_be16 (iv + 4), x4 = load_be16 (iv + 6);

  for (; nblocks; nblocks--, in += IDEA_BLOCKSIZE, out += IDEA_BLOCKSIZE)
    {
      IDEA_CRYPT (c->ek, x1, x2, x3, x4);
      x1 ^= load_be16 (in);
      x2 ^= load_be16 (in + 2);
      x3 ^= load_be16 (in + 4);
      x4 ^= load_be16 (in + 6);
      store_be16 (out, x1);
      store_be16 (out + 2, x2);
      store_be16 (out + 4, x3);
      store_be16 (out + 6, x4);
    }
  store_be16 (iv, x1);
  store_be16 (iv + 2, x2);
  store_be16 (iv + 4, x3);
  store_be16 (iv + 6, x4);
}


/* How a parallel mode feeds the cipher and uses its output.  */
enum chain_mode
  {
    CHAIN_ECB_ENC,      /* Input block in, output block out.  */
    CHAIN_ECB_DEC,
    CHAIN_CBC_DEC,      /* Input in, output XOR the previous input.  */
    CHAIN_CFB_DEC,      /* Previous input in, output XOR the input.  */
    CHAIN_CTR           /* Counter in, output XOR the input.  */
  };

/* NBLOCKS blocks from IN to OUT in MODE with the subkeys K, two at a
 * time.  CHAIN holds the words of the previous input block (CBC,
 * CFB), *COUNTER the counter (CTR); both are updated.  All input is
 * read before any output is written, so IN may be OUT.  */
static void
parallel_words (const uint32_t *k, enum chain_mode mode, uint32_t *chain,
                uint64_t *counter, unsigned char *out,
                const unsigned char *in, size_t nblocks)
{
  uint32_t d[8], w[8];
  size_t n, i;

  for (; nblocks; nblocks -= n)
    {
      n = nblocks > 1 ? 2 : 1;
      for (i = 0; i < n; i++)
        load_words (d + 4 * i, in + IDEA_BLOCKSIZE * i);
      for (i = 0; i < 4 * n; i++)
        switch (mode)
          {
          case CHAIN_ECB_ENC:
          case CHAIN_ECB_DEC:
          case CHAIN_CBC_DEC:
            w[i] = d[i];
            break;
          case CHAIN_CFB_DEC:
            w[i] = i < 4 ? chain[i] : d[i - 4];
            break;
          case CHAIN_CTR:
            w[i] = (*counter >> (48 - 16 * (i % 4))) & 0xffff;
            if (i % 4 == 3)
              ++*counter;
            break;
          }

      if (n == 2)
        crypt_words2 (k, w);
      else
        crypt_words (k, w);

      for (i = 0; i < 4 * n; i++)
        switch (mode)
          {
          case CHAIN_ECB_ENC:
          case CHAIN_ECB_DEC:
            break;
          case CHAIN_CBC_DEC:
            w[i] ^= i < 4 ? chain[i] : d[i - 4];
            break;
          case CHAIN_CFB_DEC:
          case CHAIN_CTR:
            w[i] ^= d[i];
            break;
          }
      if (mode == CHAIN_CBC_DEC || mode == CHAIN_CFB_DEC)
        memcpy (chain, d + 4 * (n - 1), 4 * sizeof *chain);
      for (i = 0; i < n; i++)
        store_words (out + IDEA_BLOCKSIZE * i, w + 4 * i);
      in += n * IDEA_BLOCKSIZE;
      out += n * IDEA_BLOCKSIZE;
    }
}

/* The parallel modes: eight blocks per step with SSE2, the rest (or
 * everything, without SSE2) by parallel_words.  IV is the chaining
 * value or the counter, NULL for ECB.  */
static void
parallel_crypt (const idea_context_t *c, enum chain_mode mode,
                unsigned char *iv, unsigned char *out,
                const unsigned char *in, size_t nblocks)
{
  int decrypt = mode == CHAIN_ECB_DEC || mode == CHAIN_CBC_DEC;
  int chained = mode == CHAIN_CBC_DEC || mode == CHAIN_CFB_DEC;
  uint64_t counter = mode == CHAIN_CTR ? load_be64 (iv) : 0;
  uint32_t chain[4];

#ifdef __SSE2__
  for (; nblocks >= IDEA_LANES; nblocks -= IDEA_LANES)
    {
      __m128i b[4], data[4], prev[4];

      load8_sse2 (data, in);
      if (chained)
        {
          load8_prev_sse2 (prev, iv, in);
          memcpy (iv, in + (IDEA_LANES - 1) * IDEA_BLOCKSIZE,
                  IDEA_BLOCKSIZE);
        }
      switch (mode)
        {
        case CHAIN_ECB_ENC:
        case CHAIN_ECB_DEC:
        case CHAIN_CBC_DEC:
          memcpy (b, data, sizeof b);
          break;
        case CHAIN_CFB_DEC:
          memcpy (b, prev, sizeof b);
          break;
        case CHAIN_CTR:
          counter8_sse2 (b, &counter);
          break;
        }

      crypt8_sse2 (decrypt ? c->dkv : c->ekv, b);

      switch (mode)
        {
        case CHAIN_ECB_ENC:
        case CHAIN_ECB_DEC:
          break;
        case CHAIN_CBC_DEC:
          xor8_sse2 (b, prev);
          break;
        case CHAIN_CFB_DEC:
        case CHAIN_CTR:
          xor8_sse2 (b, data);
          break;
        }
      store8_sse2 (out, b);
      in += IDEA_LANES * IDEA_BLOCKSIZE;
      out += IDEA_LANES * IDEA_BLOCKSIZE;
    }
#endif

  if (chained)
    load_words (chain, iv);
  parallel_words (decrypt ? c->dk : c->ek, mode, chain, &counter,
                  out, in, nblocks);
  if (chained)
    store_words (iv, chain);
  else if (mode == CHAIN_CTR)
    store_be64 (iv, counter);
}


static void
idea_ecb_enc (const void *context, unsigned char *out,
              const unsigned char *in, size_t nblocks)
{
  parallel_crypt (context, CHAIN_ECB_ENC, NULL, out, in, nblocks);
}

static void
idea_ecb_dec (const void *context, unsigned char *out,
              const unsigned char *in, size_t nblocks)
{
  parallel_crypt (context, CHAIN_ECB_DEC, NULL, out, in, nblocks);
}

static void
idea_cbc_dec (const void *context, unsigned char *iv,
              unsigned char *out, const unsigned char *in,
              size_t nblocks)
{
  parallel_crypt (context, CHAIN_CBC_DEC, iv, out, in, nblocks);
}

static void
idea_cfb_dec (const void *context, unsigned char *iv,
              unsigned char *out, const unsigned char *in,
              size_t nblocks)
{
  parallel_crypt (context, CHAIN_CFB_DEC, iv, out, in, nblocks);
}

/* CTR with a 64-bit big-endian counter: the whole block.  */
static void
idea_ctr (const void *context, unsigned char *ctr, unsigned char *out,
          const unsigned char *in, size_t nblocks)
{
  parallel_crypt (context, CHAIN_CTR, ctr, out, in, nblocks);
}


/* The designers' example; NESSIE set 1 vector 0, set 3 vector 1 and
 * set 4 vectors 0 and 1.  */
static const sf_kat_t idea_kats[] =
  {
    { "00010002000300040005000600070008", "0000000100020003",
      "11FBED2B01986DE5" },
    { "80000000000000000000000000000000", "0000000000000000",
      "B1F5F7F87901370F" },
    { "01010101010101010101010101010101", "0101010101010101",
      "E3F8AFF7A3795615" },
    { "000102030405060708090A0B0C0D0E0F", "0011223344556677",
      "F526AB9A62C0D258" },
    { "2BD6459F82C5B300952C49104881FF48", "EA024714AD5C4D84",
      "C8FB51D3516627A8" }
  };

static const sf_cipher_spec_t sf_spec_idea_ref =
  {
    .abi_version = SF_ABI_VERSION,
    .name = "IDEA",
    .aliases = NULL,
    .openpgp_id = 1,
    .blocksize = IDEA_BLOCKSIZE,
    .keylen = IDEA_KEYLEN,
    .contextsize = sizeof (idea_context_t),
    .impl = "ref",
    .priority = SF_PRIO_REF,
    .setkey = idea_setkey,
    .encrypt = idea_encrypt,
    .decrypt = idea_decrypt,
    .ecb_enc = idea_ecb_enc,
    .ecb_dec = idea_ecb_dec,
    .cbc_dec = idea_cbc_dec,
    .cfb_enc = idea_cfb_enc,
    .cfb_dec = idea_cfb_dec,
    .ctr = idea_ctr,
    .kats = idea_kats,
    .n_kats = sizeof idea_kats / sizeof idea_kats[0],
    /* No tables; the multiplication modulo 65537 has no branch.  */
    .timing = SF_TIMING_CONSTANT
  };

SF_MODULE (idea, &sf_spec_idea_ref);
