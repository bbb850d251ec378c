/* rijndael-aesni.c - AES (Rijndael with a 128-bit block), x86 AES-NI
 *
 * The Advanced Encryption Standard as specified in FIPS-197 (NIST,
 * 2001), with 128-, 192- and 256-bit keys, as the OpenPGP algorithms
 * AES (id 7), AES192 (id 8) and AES256 (id 9) of RFC 4880 9.2, using
 * the AES instructions of x86 processors (Intel, "Advanced Encryption
 * Standard (AES) New Instructions Set", 2010) through compiler
 * intrinsics.  Only the functions that execute those instructions are
 * compiled for them (target attributes); the program as a whole stays
 * generic and asks aesni_usable() before using this implementation.
 *
 * The key expansion is FIPS-197 5.2 written on words; SubWord is
 * computed with AESENCLAST on a register holding the word in all four
 * columns, where ShiftRows has nothing to move.  Decryption uses the
 * equivalent inverse cipher of FIPS-197 5.3.5, whose round keys
 * AESIMC produces.
 *
 * The serial modes (CFB and CBC encryption) keep the round keys in
 * registers and take every XOR they can off the dependency chain from
 * block to block; the chaining XOR is folded into the last round key,
 * so the chain is the AES rounds alone.  The parallel modes
 * (CFB and CBC decryption, CTR, ECB) run eight independent blocks
 * through each round so that the pipelined AES units stay busy, and
 * where the processor has VAES (AES rounds on both halves of a 256-bit
 * register) and the OS saves the AVX registers, sixteen blocks in
 * eight 256-bit registers.  OCB's whole blocks (the OCB entry) go the
 * same way, with the offsets and the checksum computed beside the
 * rounds, and on long runs, where the processor has AVX-512, 32 blocks
 * in eight 512-bit registers.  SFENC_DISABLE_HWF=vaes keeps all of it
 * to 128-bit registers, =avx512 to 256-bit ones.
 *
 * CFB also comes stitched with SHA-1 for OpenPGP's MDC, with the SHA
 * instructions (see "CFB stitched with SHA-1" below).
 *
 * On other processors the specs still exist, for a consistent cipher
 * list, but report themselves unusable.
 *
 * Known answers: FIPS-197 Appendix C; NIST SP 800-38A Appendix F.1
 * (ECB); NIST CAVP AESAVS KAT_AES.zip (GFSbox, KeySbox, VarKey).
 */

#include <stdatomic.h>
#include <stdint.h>
#include <stddef.h>
#include <string.h>

#include "sfcipher.h"
#include "rijndael-kats.h"
#include "rijndael-expand.h"
#include "rijndael-ctr.h"

#define AES_BLOCKSIZE 16
#define AES_MAX_ROUNDS 14

#if defined(__x86_64__) || defined(__i386__)

#include <immintrin.h>
#include <cpuid.h>

#include "sha1-shani-rounds.h"

#define AESNI_TARGET __attribute__ ((target ("aes,sse4.1")))
#define AESNI_INLINE static inline __attribute__ ((always_inline)) AESNI_TARGET
#define VAES_TARGET __attribute__ ((target ("aes,vaes,avx2")))
#define VAES_INLINE static inline __attribute__ ((always_inline)) VAES_TARGET

typedef struct
{
  __m128i enc_keys[AES_MAX_ROUNDS + 1];
  /* Equivalent inverse cipher: reversed, AESIMC on the inner keys.  */
  __m128i dec_keys[AES_MAX_ROUNDS + 1];
  unsigned int rounds;
  /* Set by setkey when the parallel modes may use VAES, and OCB its
   * 512-bit form.  */
  int use_vaes;
  int use_vaes512;
} aesni_context_t;


static int
aesni_probe (void)
{
  unsigned int eax, ebx, ecx, edx;

  if (!__get_cpuid (1, &eax, &ebx, &ecx, &edx))
    return 0;
  return (ecx & bit_AES) && (ecx & bit_SSSE3) && (ecx & bit_SSE4_1);
}

/* VAES applies an AES round to both halves of a 256-bit register,
 * which doubles the throughput of the parallel modes on processors
 * that execute it at the rate of the 128-bit instructions.  Besides
 * the CPU flags, the OS must save the YMM registers (XCR0 bits 1-2).  */
static int
vaes_probe (void)
{
  unsigned int eax, ebx, ecx, edx, xcr0_lo, xcr0_hi;

  if (!__get_cpuid (1, &eax, &ebx, &ecx, &edx)
      || !(ecx & bit_OSXSAVE) || !(ecx & bit_AVX))
    return 0;
  __asm__ ("xgetbv" : "=a" (xcr0_lo), "=d" (xcr0_hi) : "c" (0));
  if ((xcr0_lo & 6) != 6)
    return 0;
  if (!__get_cpuid_count (7, 0, &eax, &ebx, &ecx, &edx))
    return 0;
  return (ebx & bit_AVX2) && (ecx & bit_VAES);
}

/* The 512-bit VAES instructions, with AVX-512F, and the OS saving
 * the ZMM registers besides the YMM ones (XCR0 bits 5-7).  */
static int
vaes512_probe (void)
{
  unsigned int eax, ebx, ecx, edx, xcr0_lo, xcr0_hi;

  if (!vaes_probe ())
    return 0;
  __asm__ ("xgetbv" : "=a" (xcr0_lo), "=d" (xcr0_hi) : "c" (0));
  if ((xcr0_lo & 0xe6) != 0xe6
      || !__get_cpuid_count (7, 0, &eax, &ebx, &ecx, &edx))
    return 0;
  return (ebx & bit_AVX512F) != 0;
}

/* The probes' answers, asked once: in a virtual machine CPUID traps
 * to the hypervisor, and every key set (one or more per message, per
 * fuzzing input) asks.  SFENC_DISABLE_HWF is still read each time.  */
enum
  {
    CPU_PROBED = 1, CPU_AESNI = 2, CPU_VAES = 4, CPU_VAES512 = 8
  };

static _Atomic int cpu_features;

static int
cpu_has (int feature)
{
  int f = atomic_load_explicit (&cpu_features, memory_order_relaxed);

  if (!f)
    {
      f = CPU_PROBED | (aesni_probe () ? CPU_AESNI : 0)
          | (vaes_probe () ? CPU_VAES : 0)
          | (vaes512_probe () ? CPU_VAES512 : 0);
      atomic_store_explicit (&cpu_features, f, memory_order_relaxed);
    }
  return (f & feature) != 0;
}

static int
aesni_usable (void)
{
  return cpu_has (CPU_AESNI);
}

AESNI_INLINE __m128i
loadu (const unsigned char *p)
{
  return _mm_loadu_si128 ((const __m128i *)p);
}

AESNI_INLINE void
storeu (unsigned char *p, __m128i x)
{
  _mm_storeu_si128 ((__m128i *)p, x);
}


/*
 * Key schedule.  Words hold the key bytes in memory order, so on this
 * little-endian machine the first byte of a word is its low byte.
 */

AESNI_TARGET static uint32_t
sub_word (uint32_t w)
{
  __m128i x = _mm_set1_epi32 ((int)w);

  x = _mm_aesenclast_si128 (x, _mm_setzero_si128 ());
  return (uint32_t)_mm_cvtsi128_si32 (x);
}

AESNI_TARGET static void
expand_key (aesni_context_t *ctx, const unsigned char *key, size_t keylen)
{
  uint32_t w[RIJNDAEL_MAX_WORDS];
  unsigned int rounds = rijndael_expand_key (w, key, keylen, sub_word);
  unsigned int i;

  ctx->rounds = rounds;

  for (i = 0; i <= rounds; i++)
    ctx->enc_keys[i] = _mm_loadu_si128 ((const __m128i *)(w + 4 * i));
  ctx->dec_keys[0] = ctx->enc_keys[rounds];
  for (i = 1; i < rounds; i++)
    ctx->dec_keys[i] = _mm_aesimc_si128 (ctx->enc_keys[rounds - i]);
  ctx->dec_keys[rounds] = ctx->enc_keys[0];

  sf_wipememory (w, sizeof w);
}

static gpg_error_t
setkey_checked (void *ctx, const unsigned char *key, size_t keylen,
                size_t wanted)
{
  if (keylen != wanted)
    return gpg_error (GPG_ERR_INV_KEYLEN);
  /* Also clears the round keys a shorter key leaves unused, which the
   * serial modes load anyway.  */
  sf_wipememory (ctx, sizeof (aesni_context_t));
  expand_key (ctx, key, keylen);
  ((aesni_context_t *)ctx)->use_vaes = cpu_has (CPU_VAES)
                                       && !sf_hwf_disabled ("vaes");
  ((aesni_context_t *)ctx)->use_vaes512 = ((aesni_context_t *)ctx)->use_vaes
                                          && cpu_has (CPU_VAES512)
                                          && !sf_hwf_disabled ("avx512");
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
 * One block.
 */

AESNI_INLINE __m128i
encrypt_block (const aesni_context_t *ctx, __m128i x)
{
  const __m128i *k = ctx->enc_keys;
  unsigned int r;

  x = _mm_xor_si128 (x, k[0]);
  for (r = 1; r < ctx->rounds; r++)
    x = _mm_aesenc_si128 (x, k[r]);
  return _mm_aesenclast_si128 (x, k[ctx->rounds]);
}

AESNI_INLINE __m128i
decrypt_block (const aesni_context_t *ctx, __m128i x)
{
  const __m128i *k = ctx->dec_keys;
  unsigned int r;

  x = _mm_xor_si128 (x, k[0]);
  for (r = 1; r < ctx->rounds; r++)
    x = _mm_aesdec_si128 (x, k[r]);
  return _mm_aesdeclast_si128 (x, k[ctx->rounds]);
}

AESNI_TARGET static void
aesni_encrypt (const void *ctx, unsigned char *out, const unsigned char *in)
{
  storeu (out, encrypt_block (ctx, loadu (in)));
}

AESNI_TARGET static void
aesni_decrypt (const void *ctx, unsigned char *out, const unsigned char *in)
{
  storeu (out, decrypt_block (ctx, loadu (in)));
}


/*
 * Eight blocks at a time.  The macros work on the variables B0 .. B7
 * of the function using them.
 */

#define FOR_EIGHT(OP) \
  do { OP (0); OP (1); OP (2); OP (3); OP (4); OP (5); OP (6); OP (7); } \
  while (0)

#define LOAD_(i)      b ## i = loadu (in + i * AES_BLOCKSIZE)
#define XOR_KEY_(i)   b ## i = _mm_xor_si128 (b ## i, rk_)
#define AESENC_(i)    b ## i = _mm_aesenc_si128 (b ## i, rk_)
#define AESDEC_(i)    b ## i = _mm_aesdec_si128 (b ## i, rk_)

/* All rounds but the last on B0 .. B7 with the round keys K.  */
#define ENCRYPT_EIGHT(k, rounds)                                        \
  do {                                                                  \
    __m128i rk_ = (k)[0];                                               \
    unsigned int r_;                                                    \
    FOR_EIGHT (XOR_KEY_);                                               \
    for (r_ = 1; r_ < (rounds); r_++)                                   \
      {                                                                 \
        rk_ = (k)[r_];                                                  \
        FOR_EIGHT (AESENC_);                                            \
      }                                                                 \
  } while (0)

#define DECRYPT_EIGHT(k, rounds)                                        \
  do {                                                                  \
    __m128i rk_ = (k)[0];                                               \
    unsigned int r_;                                                    \
    FOR_EIGHT (XOR_KEY_);                                               \
    for (r_ = 1; r_ < (rounds); r_++)                                   \
      {                                                                 \
        rk_ = (k)[r_];                                                  \
        FOR_EIGHT (AESDEC_);                                            \
      }                                                                 \
  } while (0)



/* The counter block as two host-order halves of a 128-bit big-endian
 * number; counter_block() turns HI:LO back into memory order.  */
AESNI_INLINE __m128i
counter_block (uint64_t hi, uint64_t lo)
{
  return _mm_set_epi64x ((long long)__builtin_bswap64 (lo),
                         (long long)__builtin_bswap64 (hi));
}

AESNI_INLINE uint64_t
load_be64 (const unsigned char *p)
{
  uint64_t v;

  memcpy (&v, p, sizeof v);
  return __builtin_bswap64 (v);
}

AESNI_INLINE void
store_be64 (unsigned char *p, uint64_t v)
{
  v = __builtin_bswap64 (v);
  memcpy (p, &v, sizeof v);
}


/*
 * Sixteen blocks at a time with VAES: eight 256-bit registers Y0 .. Y7
 * of two blocks each.  These functions take a multiple of 16 blocks;
 * the bulk functions below do the rest with the 128-bit code.
 */

#define Y_LOAD_(i)    y ## i = loadu256 (in + 32 * i)
#define Y_XOR_KEY_(i) y ## i = _mm256_xor_si256 (y ## i, rk_)
#define Y_AESENC_(i)  y ## i = _mm256_aesenc_epi128 (y ## i, rk_)
#define Y_AESDEC_(i)  y ## i = _mm256_aesdec_epi128 (y ## i, rk_)

#define VAES_ENCRYPT_EIGHT(k, rounds)                                   \
  do {                                                                  \
    __m256i rk_ = _mm256_broadcastsi128_si256 ((k)[0]);                 \
    unsigned int r_;                                                    \
    FOR_EIGHT (Y_XOR_KEY_);                                             \
    for (r_ = 1; r_ < (rounds); r_++)                                   \
      {                                                                 \
        rk_ = _mm256_broadcastsi128_si256 ((k)[r_]);                    \
        FOR_EIGHT (Y_AESENC_);                                          \
      }                                                                 \
  } while (0)

#define VAES_DECRYPT_EIGHT(k, rounds)                                   \
  do {                                                                  \
    __m256i rk_ = _mm256_broadcastsi128_si256 ((k)[0]);                 \
    unsigned int r_;                                                    \
    FOR_EIGHT (Y_XOR_KEY_);                                             \
    for (r_ = 1; r_ < (rounds); r_++)                                   \
      {                                                                 \
        rk_ = _mm256_broadcastsi128_si256 ((k)[r_]);                    \
        FOR_EIGHT (Y_AESDEC_);                                          \
      }                                                                 \
  } while (0)

VAES_INLINE __m256i
loadu256 (const unsigned char *p)
{
  return _mm256_loadu_si256 ((const __m256i *)p);
}

VAES_INLINE void
storeu256 (unsigned char *p, __m256i x)
{
  _mm256_storeu_si256 ((__m256i *)p, x);
}

VAES_TARGET static void
vaes_ecb_enc (const aesni_context_t *ctx, unsigned char *out,
              const unsigned char *in, size_t nblocks)
{
  const __m128i *k = ctx->enc_keys;
  unsigned int rounds = ctx->rounds;
  __m256i y0, y1, y2, y3, y4, y5, y6, y7;
  __m256i rk_last = _mm256_broadcastsi128_si256 (k[rounds]);

  for (; nblocks; nblocks -= 16, in += 16 * AES_BLOCKSIZE,
         out += 16 * AES_BLOCKSIZE)
    {
#define Y_LAST_(i)                                                      \
      storeu256 (out + 32 * i, _mm256_aesenclast_epi128 (y ## i, rk_last))
      FOR_EIGHT (Y_LOAD_);
      VAES_ENCRYPT_EIGHT (k, rounds);
      FOR_EIGHT (Y_LAST_);
#undef Y_LAST_
    }
}

VAES_TARGET static void
vaes_ecb_dec (const aesni_context_t *ctx, unsigned char *out,
              const unsigned char *in, size_t nblocks)
{
  const __m128i *k = ctx->dec_keys;
  unsigned int rounds = ctx->rounds;
  __m256i y0, y1, y2, y3, y4, y5, y6, y7;
  __m256i rk_last = _mm256_broadcastsi128_si256 (k[rounds]);

  for (; nblocks; nblocks -= 16, in += 16 * AES_BLOCKSIZE,
         out += 16 * AES_BLOCKSIZE)
    {
#define Y_LAST_(i)                                                      \
      storeu256 (out + 32 * i, _mm256_aesdeclast_epi128 (y ## i, rk_last))
      FOR_EIGHT (Y_LOAD_);
      VAES_DECRYPT_EIGHT (k, rounds);
      FOR_EIGHT (Y_LAST_);
#undef Y_LAST_
    }
}

VAES_TARGET static void
vaes_cfb_dec (const aesni_context_t *ctx, unsigned char *iv,
              unsigned char *out, const unsigned char *in, size_t nblocks)
{
  const __m128i *k = ctx->enc_keys;
  unsigned int rounds = ctx->rounds;
  __m256i y0, y1, y2, y3, y4, y5, y6, y7;
  __m256i rk_last = _mm256_broadcastsi128_si256 (k[rounds]);
  __m128i prev = loadu (iv);

  for (; nblocks; nblocks -= 16, in += 16 * AES_BLOCKSIZE,
         out += 16 * AES_BLOCKSIZE)
    {
      /* Block i is encrypted from ciphertext i - 1: the registers hold
       * the input shifted by one block.  */
#define Y_LOAD_PREV_(i) y ## i = loadu256 (in + 32 * i - AES_BLOCKSIZE)
      y0 = _mm256_set_m128i (loadu (in), prev);
      Y_LOAD_PREV_ (1);
      Y_LOAD_PREV_ (2);
      Y_LOAD_PREV_ (3);
      Y_LOAD_PREV_ (4);
      Y_LOAD_PREV_ (5);
      Y_LOAD_PREV_ (6);
      Y_LOAD_PREV_ (7);
#undef Y_LOAD_PREV_
      prev = loadu (in + 15 * AES_BLOCKSIZE);
      VAES_ENCRYPT_EIGHT (k, rounds);
      /* As in the 128-bit code, the ciphertext is read again for the
       * XOR, folded into the last round key, before each store.  */
#define Y_LAST_(i)                                                      \
      storeu256 (out + 32 * i,                                          \
                 _mm256_aesenclast_epi128                               \
                   (y ## i, _mm256_xor_si256 (rk_last,                  \
                                              loadu256 (in + 32 * i))))
      FOR_EIGHT (Y_LAST_);
#undef Y_LAST_
    }
  storeu (iv, prev);
}

VAES_TARGET static void
vaes_cbc_dec (const aesni_context_t *ctx, unsigned char *iv,
              unsigned char *out, const unsigned char *in, size_t nblocks)
{
  const __m128i *k = ctx->dec_keys;
  unsigned int rounds = ctx->rounds;
  __m256i y0, y1, y2, y3, y4, y5, y6, y7;
  __m256i rk_last = _mm256_broadcastsi128_si256 (k[rounds]);
  __m128i prev = loadu (iv);

  for (; nblocks; nblocks -= 16, in += 16 * AES_BLOCKSIZE,
         out += 16 * AES_BLOCKSIZE)
    {
      FOR_EIGHT (Y_LOAD_);
      VAES_DECRYPT_EIGHT (k, rounds);
      /* Plaintext i is D(C[i]) ^ C[i - 1].  All ciphertext is read
       * before the first store, which may overwrite it.  */
      y0 = _mm256_aesdeclast_epi128
             (y0, _mm256_xor_si256 (rk_last,
                                    _mm256_set_m128i (loadu (in), prev)));
#define Y_LAST_(i)                                                      \
      y ## i = _mm256_aesdeclast_epi128                                 \
                 (y ## i,                                               \
                  _mm256_xor_si256 (rk_last,                            \
                                    loadu256 (in + 32 * i - AES_BLOCKSIZE)))
      Y_LAST_ (1);
      Y_LAST_ (2);
      Y_LAST_ (3);
      Y_LAST_ (4);
      Y_LAST_ (5);
      Y_LAST_ (6);
      Y_LAST_ (7);
#undef Y_LAST_
      prev = loadu (in + 15 * AES_BLOCKSIZE);
#define Y_STORE_(i) storeu256 (out + 32 * i, y ## i)
      FOR_EIGHT (Y_STORE_);
#undef Y_STORE_
    }
  storeu (iv, prev);
}

VAES_TARGET static void
vaes_ctr (const aesni_context_t *ctx, unsigned char *iv, unsigned char *out,
          const unsigned char *in, size_t nblocks)
{
  const __m128i *k = ctx->enc_keys;
  unsigned int rounds = ctx->rounds;
  __m256i y0, y1, y2, y3, y4, y5, y6, y7;
  __m256i rk_last = _mm256_broadcastsi128_si256 (k[rounds]);
  /* Reverses the bytes of each 128-bit lane: a counter kept as a
   * little-endian 128-bit number becomes the big-endian block.  */
  const __m256i bswap128 =
    _mm256_broadcastsi128_si256 (_mm_set_epi8 (0, 1, 2, 3, 4, 5, 6, 7, 8, 9,
                                               10, 11, 12, 13, 14, 15));
  const __m256i two = _mm256_set_epi64x (0, 2, 0, 2);
  uint64_t hi = load_be64 (iv);
  uint64_t lo = load_be64 (iv + 8);

  for (; nblocks; nblocks -= 16, in += 16 * AES_BLOCKSIZE,
         out += 16 * AES_BLOCKSIZE)
    {
      if (lo <= UINT64_MAX - 15)
        {
          /* No carry into HI: add to the low halves in the vector.  */
          __m256i c = _mm256_set_epi64x ((long long)hi, (long long)(lo + 1),
                                         (long long)hi, (long long)lo);
#define Y_COUNTER_(i)                                                   \
          y ## i = _mm256_shuffle_epi8 (c, bswap128);                   \
          c = _mm256_add_epi64 (c, two)
          FOR_EIGHT (Y_COUNTER_);
#undef Y_COUNTER_
        }
      else
        {
#define Y_COUNTER_(i)                                                   \
          y ## i = _mm256_set_m128i                                     \
                     (counter_block (hi + (lo + 2 * i + 1 < lo),        \
                                     lo + 2 * i + 1),                   \
                      counter_block (hi + (lo + 2 * i < lo), lo + 2 * i))
          FOR_EIGHT (Y_COUNTER_);
#undef Y_COUNTER_
        }
      ctr128_add (&hi, &lo, 16);
      VAES_ENCRYPT_EIGHT (k, rounds);
#define Y_LAST_(i)                                                      \
      storeu256 (out + 32 * i,                                          \
                 _mm256_aesenclast_epi128                               \
                   (y ## i, _mm256_xor_si256 (rk_last,                  \
                                              loadu256 (in + 32 * i))))
      FOR_EIGHT (Y_LAST_);
#undef Y_LAST_
    }
  store_be64 (iv, hi);
  store_be64 (iv + 8, lo);
}


/*
 * Bulk functions.
 */

AESNI_TARGET static void
aesni_ecb_enc (const void *ctx_arg, unsigned char *out,
               const unsigned char *in, size_t nblocks)
{
  const aesni_context_t *ctx = ctx_arg;
  const __m128i *k = ctx->enc_keys;
  unsigned int rounds = ctx->rounds;
  __m128i b0, b1, b2, b3, b4, b5, b6, b7, rk_last = k[rounds];

  if (ctx->use_vaes && nblocks >= 16)
    {
      size_t n = nblocks & ~(size_t)15;

      vaes_ecb_enc (ctx, out, in, n);
      in += n * AES_BLOCKSIZE;
      out += n * AES_BLOCKSIZE;
      nblocks -= n;
    }

  for (; nblocks >= 8; nblocks -= 8, in += 8 * AES_BLOCKSIZE,
         out += 8 * AES_BLOCKSIZE)
    {
#define LAST_(i) storeu (out + i * AES_BLOCKSIZE,                       \
                         _mm_aesenclast_si128 (b ## i, rk_last))
      FOR_EIGHT (LOAD_);
      ENCRYPT_EIGHT (k, rounds);
      FOR_EIGHT (LAST_);
#undef LAST_
    }
  for (; nblocks; nblocks--, in += AES_BLOCKSIZE, out += AES_BLOCKSIZE)
    storeu (out, encrypt_block (ctx, loadu (in)));
}

AESNI_TARGET static void
aesni_ecb_dec (const void *ctx_arg, unsigned char *out,
               const unsigned char *in, size_t nblocks)
{
  const aesni_context_t *ctx = ctx_arg;
  const __m128i *k = ctx->dec_keys;
  unsigned int rounds = ctx->rounds;
  __m128i b0, b1, b2, b3, b4, b5, b6, b7, rk_last = k[rounds];

  if (ctx->use_vaes && nblocks >= 16)
    {
      size_t n = nblocks & ~(size_t)15;

      vaes_ecb_dec (ctx, out, in, n);
      in += n * AES_BLOCKSIZE;
      out += n * AES_BLOCKSIZE;
      nblocks -= n;
    }

  for (; nblocks >= 8; nblocks -= 8, in += 8 * AES_BLOCKSIZE,
         out += 8 * AES_BLOCKSIZE)
    {
#define LAST_(i) storeu (out + i * AES_BLOCKSIZE,                       \
                         _mm_aesdeclast_si128 (b ## i, rk_last))
      FOR_EIGHT (LOAD_);
      DECRYPT_EIGHT (k, rounds);
      FOR_EIGHT (LAST_);
#undef LAST_
    }
  for (; nblocks; nblocks--, in += AES_BLOCKSIZE, out += AES_BLOCKSIZE)
    storeu (out, decrypt_block (ctx, loadu (in)));
}

/* CBC and CFB encryption: one block after the other.  ROUNDS is a
 * constant at each call site, so the round keys live in registers and
 * the round sequence is straight-line code.  */
AESNI_INLINE void
cbc_enc_rounds (const aesni_context_t *ctx, unsigned int rounds,
                unsigned char *iv, unsigned char *out,
                const unsigned char *in, size_t nblocks)
{
  const __m128i *k = ctx->enc_keys;
  __m128i k0 = k[0], k1 = k[1], k2 = k[2], k3 = k[3], k4 = k[4];
  __m128i k5 = k[5], k6 = k[6], k7 = k[7], k8 = k[8], k9 = k[9];
  __m128i k10 = k[10], k11 = k[11], k12 = k[12], k13 = k[13];
  __m128i k_last = k[rounds];
  /* X is the next block's input to the rounds: the chaining value ^
   * the plaintext ^ the first round key.  */
  __m128i x = _mm_xor_si128 (loadu (iv), _mm_xor_si128 (loadu (in), k0));
  __m128i next;

  for (; nblocks; nblocks--, in += AES_BLOCKSIZE, out += AES_BLOCKSIZE)
    {
      x = _mm_aesenc_si128 (x, k1);
      x = _mm_aesenc_si128 (x, k2);
      x = _mm_aesenc_si128 (x, k3);
      x = _mm_aesenc_si128 (x, k4);
      x = _mm_aesenc_si128 (x, k5);
      x = _mm_aesenc_si128 (x, k6);
      x = _mm_aesenc_si128 (x, k7);
      x = _mm_aesenc_si128 (x, k8);
      x = _mm_aesenc_si128 (x, k9);
      if (rounds > 10)
        {
          x = _mm_aesenc_si128 (x, k10);
          x = _mm_aesenc_si128 (x, k11);
        }
      if (rounds > 12)
        {
          x = _mm_aesenc_si128 (x, k12);
          x = _mm_aesenc_si128 (x, k13);
        }
      /* As in CFB, the next plaintext and the first round key go into
       * the last round key, so that the chain is the AES rounds alone
       * and the ciphertext is one XOR away, off it.  After the last
       * block, the plaintext is taken as zero.  The next plaintext is
       * read before this ciphertext is stored, in case OUT is IN.  */
      next = nblocks > 1 ? _mm_xor_si128 (loadu (in + AES_BLOCKSIZE), k0) : k0;
      x = _mm_aesenclast_si128 (x, _mm_xor_si128 (k_last, next));
      storeu (out, _mm_xor_si128 (x, next));
    }
  storeu (iv, _mm_xor_si128 (x, k0));
}

AESNI_TARGET static void
aesni_cbc_enc (const void *ctx_arg, unsigned char *iv, unsigned char *out,
               const unsigned char *in, size_t nblocks)
{
  const aesni_context_t *ctx = ctx_arg;

  if (ctx->rounds == 10)
    cbc_enc_rounds (ctx, 10, iv, out, in, nblocks);
  else if (ctx->rounds == 12)
    cbc_enc_rounds (ctx, 12, iv, out, in, nblocks);
  else
    cbc_enc_rounds (ctx, 14, iv, out, in, nblocks);
}

AESNI_INLINE void
cfb_enc_rounds (const aesni_context_t *ctx, unsigned int rounds,
                unsigned char *iv, unsigned char *out,
                const unsigned char *in, size_t nblocks)
{
  const __m128i *k = ctx->enc_keys;
  __m128i k0 = k[0], k1 = k[1], k2 = k[2], k3 = k[3], k4 = k[4];
  __m128i k5 = k[5], k6 = k[6], k7 = k[7], k8 = k[8], k9 = k[9];
  __m128i k10 = k[10], k11 = k[11], k12 = k[12], k13 = k[13];
  /* The last round key with the first folded in: AESENCLAST then
   * yields the next ciphertext already whitened for the next block,
   * and the ciphertext itself is one XOR away, off the chain.  */
  __m128i k_last_k0 = _mm_xor_si128 (k[rounds], k0);
  __m128i x = _mm_xor_si128 (loadu (iv), k0);

  for (; nblocks; nblocks--, in += AES_BLOCKSIZE, out += AES_BLOCKSIZE)
    {
      x = _mm_aesenc_si128 (x, k1);
      x = _mm_aesenc_si128 (x, k2);
      x = _mm_aesenc_si128 (x, k3);
      x = _mm_aesenc_si128 (x, k4);
      x = _mm_aesenc_si128 (x, k5);
      x = _mm_aesenc_si128 (x, k6);
      x = _mm_aesenc_si128 (x, k7);
      x = _mm_aesenc_si128 (x, k8);
      x = _mm_aesenc_si128 (x, k9);
      if (rounds > 10)
        {
          x = _mm_aesenc_si128 (x, k10);
          x = _mm_aesenc_si128 (x, k11);
        }
      if (rounds > 12)
        {
          x = _mm_aesenc_si128 (x, k12);
          x = _mm_aesenc_si128 (x, k13);
        }
      x = _mm_aesenclast_si128 (x, _mm_xor_si128 (k_last_k0, loadu (in)));
      storeu (out, _mm_xor_si128 (x, k0));
    }
  storeu (iv, _mm_xor_si128 (x, k0));
}

AESNI_TARGET static void
aesni_cfb_enc (const void *ctx_arg, unsigned char *iv, unsigned char *out,
               const unsigned char *in, size_t nblocks)
{
  const aesni_context_t *ctx = ctx_arg;

  if (ctx->rounds == 10)
    cfb_enc_rounds (ctx, 10, iv, out, in, nblocks);
  else if (ctx->rounds == 12)
    cfb_enc_rounds (ctx, 12, iv, out, in, nblocks);
  else
    cfb_enc_rounds (ctx, 14, iv, out, in, nblocks);
}

AESNI_TARGET static void
aesni_cfb_dec (const void *ctx_arg, unsigned char *iv, unsigned char *out,
               const unsigned char *in, size_t nblocks)
{
  const aesni_context_t *ctx = ctx_arg;
  const __m128i *k = ctx->enc_keys;
  unsigned int rounds = ctx->rounds;
  __m128i b0, b1, b2, b3, b4, b5, b6, b7, rk_last = k[rounds];
  __m128i prev;

  if (ctx->use_vaes && nblocks >= 16)
    {
      size_t n = nblocks & ~(size_t)15;

      vaes_cfb_dec (ctx, iv, out, in, n);
      in += n * AES_BLOCKSIZE;
      out += n * AES_BLOCKSIZE;
      nblocks -= n;
    }
  prev = loadu (iv);

  for (; nblocks >= 8; nblocks -= 8, in += 8 * AES_BLOCKSIZE,
         out += 8 * AES_BLOCKSIZE)
    {
      /* Block i is encrypted from ciphertext i - 1.  */
      b0 = prev;
      b1 = loadu (in);
      b2 = loadu (in + 1 * AES_BLOCKSIZE);
      b3 = loadu (in + 2 * AES_BLOCKSIZE);
      b4 = loadu (in + 3 * AES_BLOCKSIZE);
      b5 = loadu (in + 4 * AES_BLOCKSIZE);
      b6 = loadu (in + 5 * AES_BLOCKSIZE);
      b7 = loadu (in + 6 * AES_BLOCKSIZE);
      prev = loadu (in + 7 * AES_BLOCKSIZE);
      ENCRYPT_EIGHT (k, rounds);
      /* The XOR with the ciphertext is folded into the last round
       * key.  Each ciphertext block is read again here, before the
       * store that may overwrite it, rather than held in a register
       * through the rounds.  */
#define LAST_(i)                                                        \
      storeu (out + i * AES_BLOCKSIZE,                                  \
              _mm_aesenclast_si128                                      \
                (b ## i, _mm_xor_si128 (rk_last,                        \
                                        loadu (in + i * AES_BLOCKSIZE))))
      FOR_EIGHT (LAST_);
#undef LAST_
    }
  for (; nblocks; nblocks--, in += AES_BLOCKSIZE, out += AES_BLOCKSIZE)
    {
      __m128i c = loadu (in);

      storeu (out, _mm_xor_si128 (encrypt_block (ctx, prev), c));
      prev = c;
    }
  storeu (iv, prev);
}

AESNI_TARGET static void
aesni_cbc_dec (const void *ctx_arg, unsigned char *iv, unsigned char *out,
               const unsigned char *in, size_t nblocks)
{
  const aesni_context_t *ctx = ctx_arg;
  const __m128i *k = ctx->dec_keys;
  unsigned int rounds = ctx->rounds;
  __m128i b0, b1, b2, b3, b4, b5, b6, b7, rk_last = k[rounds];
  __m128i prev;

  if (ctx->use_vaes && nblocks >= 16)
    {
      size_t n = nblocks & ~(size_t)15;

      vaes_cbc_dec (ctx, iv, out, in, n);
      in += n * AES_BLOCKSIZE;
      out += n * AES_BLOCKSIZE;
      nblocks -= n;
    }
  prev = loadu (iv);

  for (; nblocks >= 8; nblocks -= 8, in += 8 * AES_BLOCKSIZE,
         out += 8 * AES_BLOCKSIZE)
    {
      FOR_EIGHT (LOAD_);
      DECRYPT_EIGHT (k, rounds);
      /* Plaintext i is D(C[i]) ^ C[i - 1]; C[i] is read before the
       * store of plaintext i, which may overwrite it.  */
#define LAST_(i)                                                        \
      do {                                                              \
        __m128i c_ = loadu (in + i * AES_BLOCKSIZE);                    \
        storeu (out + i * AES_BLOCKSIZE,                                \
                _mm_aesdeclast_si128 (b ## i,                           \
                                      _mm_xor_si128 (rk_last, prev)));  \
        prev = c_;                                                      \
      } while (0)
      FOR_EIGHT (LAST_);
#undef LAST_
    }
  for (; nblocks; nblocks--, in += AES_BLOCKSIZE, out += AES_BLOCKSIZE)
    {
      __m128i c = loadu (in);

      storeu (out, _mm_xor_si128 (decrypt_block (ctx, c), prev));
      prev = c;
    }
  storeu (iv, prev);
}

AESNI_TARGET static void
aesni_ctr (const void *ctx_arg, unsigned char *iv, unsigned char *out,
           const unsigned char *in, size_t nblocks)
{
  const aesni_context_t *ctx = ctx_arg;
  const __m128i *k = ctx->enc_keys;
  unsigned int rounds = ctx->rounds;
  __m128i b0, b1, b2, b3, b4, b5, b6, b7, rk_last = k[rounds];
  uint64_t hi, lo;

  if (ctx->use_vaes && nblocks >= 16)
    {
      size_t n = nblocks & ~(size_t)15;

      vaes_ctr (ctx, iv, out, in, n);
      in += n * AES_BLOCKSIZE;
      out += n * AES_BLOCKSIZE;
      nblocks -= n;
    }
  hi = load_be64 (iv);
  lo = load_be64 (iv + 8);

  for (; nblocks >= 8; nblocks -= 8, in += 8 * AES_BLOCKSIZE,
         out += 8 * AES_BLOCKSIZE)
    {
      /* Counter i is HI:LO + i, with the carry into HI.  */
#define COUNTER_(i)                                                     \
      b ## i = counter_block (hi + (lo + i < lo), lo + i)
      FOR_EIGHT (COUNTER_);
#undef COUNTER_
      ctr128_add (&hi, &lo, 8);
      ENCRYPT_EIGHT (k, rounds);
#define LAST_(i)                                                        \
      storeu (out + i * AES_BLOCKSIZE,                                  \
              _mm_aesenclast_si128                                      \
                (b ## i, _mm_xor_si128 (rk_last,                        \
                                        loadu (in + i * AES_BLOCKSIZE))))
      FOR_EIGHT (LAST_);
#undef LAST_
    }
  for (; nblocks; nblocks--, in += AES_BLOCKSIZE, out += AES_BLOCKSIZE)
    {
      __m128i ks = encrypt_block (ctx, counter_block (hi, lo));

      storeu (out, _mm_xor_si128 (ks, loadu (in)));
      ctr128_add (&hi, &lo, 1);
    }
  store_be64 (iv, hi);
  store_be64 (iv + 8, lo);
}


/*
 * OCB's whole blocks (sfcipher.h, sf_ocb_t).
 *
 * From a block count that is a multiple of eight, the next eight
 * offsets need L_ntz(n) for ntz (n) = 0, 1, 0, 2, 0, 1, 0 and then
 * something larger: all but the last are the same in every such run.
 * So Offset_(8m+j) = Offset_8m ^ P_j, with P_j the XOR of the first j
 * of those L, computed once per call, and only the eighth needs a
 * table read, L_ntz(8m+8).  Each offset goes in with the first round
 * key and comes out with the last, as AESENCLAST's (AESDECLAST's) key
 * XOR, so the data gets no pass of its own; the checksum is summed in
 * the registers the data passes through.  With VAES, the same over
 * sixteen blocks in eight 256-bit registers, with P_1 .. P_15, and
 * with AVX-512 over 32 in eight 512-bit ones, with P_1 .. P_31.  The
 * P and the offsets are key material; like the round keys the
 * compiler spills, what of them reaches the stack is left for the
 * handles to burn (sf_burn_key_traces).
 */

/* P[j] = L_ntz(1) ^ ... ^ L_ntz(j) for j = 1 .. N - 1, N a power of
 * two up to 32.  That is the XOR of the L_i for the bits i set in the
 * Gray code of j, which is linear, so P_(2^m + j) = P_(2^m) ^ P_j for
 * j < 2^m, with P_(2^m) = L_(m-1) ^ L_m: a few levels of independent
 * XORs rather than one chain.  */
AESNI_INLINE void
ocb_prefixes (__m128i p[32], const unsigned char *l, unsigned int n)
{
  unsigned int m, j;

  p[1] = loadu (l);
  for (m = 2; m < n; m *= 2)
    {
      p[m] = _mm_xor_si128 (loadu (l + AES_BLOCKSIZE * __builtin_ctz (m / 2)),
                            loadu (l + AES_BLOCKSIZE * __builtin_ctz (m)));
      for (j = 1; j < m; j++)
        p[m + j] = _mm_xor_si128 (p[m], p[j]);
    }
}

/* L_ntz(N), N not 0.  */
AESNI_INLINE __m128i
ocb_l (const unsigned char *l, uint64_t n)
{
  return loadu (l + AES_BLOCKSIZE * __builtin_ctzll (n));
}

/* One block under OFFSET, its plaintext summed into *SUM.  */
AESNI_INLINE void
ocb_one (const aesni_context_t *ctx, int encrypting, __m128i offset,
         __m128i *sum, unsigned char *out, const unsigned char *in)
{
  __m128i x = _mm_xor_si128 (loadu (in), offset);

  if (encrypting)
    {
      *sum = _mm_xor_si128 (*sum, loadu (in));
      x = encrypt_block (ctx, x);
    }
  else
    x = decrypt_block (ctx, x);
  x = _mm_xor_si128 (x, offset);
  if (!encrypting)
    *sum = _mm_xor_si128 (*sum, x);
  storeu (out, x);
}

/* Eight blocks from the block count DONE, a multiple of eight, after
 * Offset_DONE, OFFSET; returns Offset_(DONE+8).  */
AESNI_INLINE __m128i
ocb_eight (const aesni_context_t *ctx, int encrypting, const __m128i p[32],
           const unsigned char *l, uint64_t done, __m128i offset,
           __m128i *sum, unsigned char *out, const unsigned char *in)
{
  const __m128i *k = encrypting ? ctx->enc_keys : ctx->dec_keys;
  unsigned int rounds = ctx->rounds;
  __m128i b0, b1, b2, b3, b4, b5, b6, b7, o[8], s = *sum;
  __m128i rk_, last = _mm_xor_si128 (k[rounds], offset);
  unsigned int r_;

#define OCB_IN_(i)                                                      \
  o[i] = i < 7 ? p[i + 1]                                               \
               : _mm_xor_si128 (p[7], ocb_l (l, done + 8));            \
  b ## i = loadu (in + i * AES_BLOCKSIZE);                              \
  if (encrypting)                                                       \
    s = _mm_xor_si128 (s, b ## i);                                      \
  b ## i = _mm_xor_si128 (b ## i, _mm_xor_si128 (offset, o[i]));        \
  b ## i = _mm_xor_si128 (b ## i, k[0])
#define OCB_OUT_(i)                                                     \
  b ## i = encrypting                                                   \
    ? _mm_aesenclast_si128 (b ## i, _mm_xor_si128 (last, o[i]))         \
    : _mm_aesdeclast_si128 (b ## i, _mm_xor_si128 (last, o[i]));        \
  if (!encrypting)                                                      \
    s = _mm_xor_si128 (s, b ## i);                                      \
  storeu (out + i * AES_BLOCKSIZE, b ## i)
  FOR_EIGHT (OCB_IN_);
  for (r_ = 1; r_ < rounds; r_++)
    {
      rk_ = k[r_];
      if (encrypting)
        FOR_EIGHT (AESENC_);
      else
        FOR_EIGHT (AESDEC_);
    }
  FOR_EIGHT (OCB_OUT_);
#undef OCB_IN_
#undef OCB_OUT_
  *sum = s;
  return _mm_xor_si128 (offset, o[7]);
}

/* Q[i] = (P_(2i+1), P_(2i+2)) in the lanes of a 256-bit register, for
 * i = 0 .. 6; the last pair comes with each run.  */
VAES_INLINE void
ocb_pairs (__m256i q[8], const __m128i p[32])
{
  int i;

  for (i = 0; i < 7; i++)
    q[i] = _mm256_set_m128i (p[2 * i + 2], p[2 * i + 1]);
}

/* Sixteen blocks at a time with VAES, NBLOCKS a multiple of sixteen
 * from the block count DONE, also one; *OFFSET is Offset_DONE on entry
 * and the last block's on return.  Block pairs (2i, 2i+1) share a
 * 256-bit register, and so do their P.  ROUNDS is a constant at each
 * call site, so the rounds are straight-line code and the eight
 * registers stay where they are from one round to the next.  */
VAES_INLINE void
vaes_ocb (const aesni_context_t *ctx, int encrypting, unsigned int rounds,
          const __m128i p[32], const unsigned char *l, uint64_t done,
          __m128i *offset, __m128i *sum, unsigned char *out,
          const unsigned char *in, size_t nblocks)
{
  const __m128i *k = encrypting ? ctx->enc_keys : ctx->dec_keys;
  __m256i y0, y1, y2, y3, y4, y5, y6, y7, q[8], rk_, base, last;
  __m256i k0 = _mm256_broadcastsi128_si256 (k[0]);
  __m256i k0_last = _mm256_xor_si256 (k0, _mm256_broadcastsi128_si256
                                            (k[rounds]));
  __m256i s = _mm256_setzero_si256 ();
  __m128i o = *offset;

  ocb_pairs (q, p);
#define Y_OCB_IN_(i)                                                    \
  y ## i = loadu256 (in + 32 * i);                                      \
  if (encrypting)                                                       \
    s = _mm256_xor_si256 (s, y ## i);                                   \
  y ## i = _mm256_xor_si256 (y ## i, _mm256_xor_si256 (base, q[i]))
#define Y_ROUND_(r)                                                     \
  rk_ = _mm256_broadcastsi128_si256 (k[r]);                             \
  if (encrypting)                                                       \
    FOR_EIGHT (Y_AESENC_);                                              \
  else                                                                  \
    FOR_EIGHT (Y_AESDEC_)
#define Y_OCB_OUT_(i)                                                   \
  y ## i = encrypting                                                   \
    ? _mm256_aesenclast_epi128 (y ## i, _mm256_xor_si256 (last, q[i]))  \
    : _mm256_aesdeclast_epi128 (y ## i, _mm256_xor_si256 (last, q[i])); \
  if (!encrypting)                                                      \
    s = _mm256_xor_si256 (s, y ## i);                                   \
  storeu256 (out + 32 * i, y ## i)
  for (; nblocks; nblocks -= 16, done += 16, in += 16 * AES_BLOCKSIZE,
         out += 16 * AES_BLOCKSIZE)
    {
      /* The first round key goes in with the offsets, the last comes
       * out with them.  */
      base = _mm256_xor_si256 (_mm256_broadcastsi128_si256 (o), k0);
      last = _mm256_xor_si256 (base, k0_last);
      q[7] = _mm256_set_m128i (_mm_xor_si128 (p[15], ocb_l (l, done + 16)),
                               p[15]);
      FOR_EIGHT (Y_OCB_IN_);
      Y_ROUND_ (1); Y_ROUND_ (2); Y_ROUND_ (3); Y_ROUND_ (4); Y_ROUND_ (5);
      Y_ROUND_ (6); Y_ROUND_ (7); Y_ROUND_ (8); Y_ROUND_ (9);
      if (rounds > 10)
        {
          Y_ROUND_ (10); Y_ROUND_ (11);
        }
      if (rounds > 12)
        {
          Y_ROUND_ (12); Y_ROUND_ (13);
        }
      FOR_EIGHT (Y_OCB_OUT_);
      o = _mm_xor_si128 (o, _mm256_extracti128_si256 (q[7], 1));
    }
#undef Y_OCB_IN_
#undef Y_ROUND_
#undef Y_OCB_OUT_
  *sum = _mm_xor_si128 (*sum, _mm_xor_si128 (_mm256_castsi256_si128 (s),
                                             _mm256_extracti128_si256 (s, 1)));
  *offset = o;
}

/* The VAES kernels for each key size and direction.  */
#define VAES_OCB_FN_(name, encrypting)                                  \
  VAES_TARGET static void                                               \
  name (const aesni_context_t *ctx, const __m128i p[32],                \
        const unsigned char *l, uint64_t done, __m128i *offset,         \
        __m128i *sum, unsigned char *out, const unsigned char *in,      \
        size_t nblocks)                                                 \
  {                                                                     \
    if (ctx->rounds == 10)                                              \
      vaes_ocb (ctx, encrypting, 10, p, l, done, offset, sum, out, in,  \
                nblocks);                                               \
    else if (ctx->rounds == 12)                                         \
      vaes_ocb (ctx, encrypting, 12, p, l, done, offset, sum, out, in,  \
                nblocks);                                               \
    else                                                                \
      vaes_ocb (ctx, encrypting, 14, p, l, done, offset, sum, out, in,  \
                nblocks);                                               \
  }
VAES_OCB_FN_ (vaes_ocb_enc, 1)
VAES_OCB_FN_ (vaes_ocb_dec, 0)
#undef VAES_OCB_FN_

#define VAES512_TARGET __attribute__ ((target ("aes,vaes,avx2,avx512f")))
#define VAES512_INLINE \
  static inline __attribute__ ((always_inline)) VAES512_TARGET

/* Q[i] = (P_(4i+1), .. P_(4i+4)) in the lanes of a 512-bit register,
 * P_31 standing for P_32, which each run completes.  */
VAES512_INLINE void
ocb_quads (__m512i q[8], const __m128i p[32])
{
  int i;

  for (i = 0; i < 8; i++)
    {
      q[i] = _mm512_castsi128_si512 (p[4 * i + 1]);
      q[i] = _mm512_inserti32x4 (q[i], p[4 * i + 2], 1);
      q[i] = _mm512_inserti32x4 (q[i], p[4 * i + 3], 2);
      q[i] = _mm512_inserti32x4 (q[i], p[i < 7 ? 4 * i + 4 : 31], 3);
    }
}

/* The XOR of the four blocks of S.  */
VAES512_INLINE __m128i
fold_quad (__m512i s)
{
  return _mm_xor_si128 (_mm_xor_si128 (_mm512_extracti32x4_epi32 (s, 0),
                                       _mm512_extracti32x4_epi32 (s, 1)),
                        _mm_xor_si128 (_mm512_extracti32x4_epi32 (s, 2),
                                       _mm512_extracti32x4_epi32 (s, 3)));
}

/* As vaes_ocb, thirty-two blocks at a time in eight 512-bit registers
 * of four, from a block count that is a multiple of 32.  */
VAES512_INLINE void
vaes512_ocb (const aesni_context_t *ctx, int encrypting, unsigned int rounds,
             const __m128i p[32], const unsigned char *l, uint64_t done,
             __m128i *offset, __m128i *sum, unsigned char *out,
             const unsigned char *in, size_t nblocks)
{
  const __m128i *k = encrypting ? ctx->enc_keys : ctx->dec_keys;
  __m512i z0, z1, z2, z3, z4, z5, z6, z7, q[8], rk_, base, last, q7;
  __m512i k0 = _mm512_broadcast_i32x4 (k[0]);
  __m512i k0_last = _mm512_xor_si512 (k0, _mm512_broadcast_i32x4 (k[rounds]));
  __m512i s = _mm512_setzero_si512 ();
  __m128i o = *offset;

  ocb_quads (q, p);
  q7 = q[7];
#define Z_OCB_IN_(i)                                                    \
  z ## i = _mm512_loadu_si512 (in + 64 * i);                            \
  if (encrypting)                                                       \
    s = _mm512_xor_si512 (s, z ## i);                                   \
  z ## i = _mm512_ternarylogic_epi64 (z ## i, base, q[i], 0x96)
#define Z_AESENC_(i) z ## i = _mm512_aesenc_epi128 (z ## i, rk_)
#define Z_AESDEC_(i) z ## i = _mm512_aesdec_epi128 (z ## i, rk_)
#define Z_ROUND_(r)                                                     \
  rk_ = _mm512_broadcast_i32x4 (k[r]);                                  \
  if (encrypting)                                                       \
    FOR_EIGHT (Z_AESENC_);                                              \
  else                                                                  \
    FOR_EIGHT (Z_AESDEC_)
#define Z_OCB_OUT_(i)                                                   \
  z ## i = encrypting                                                   \
    ? _mm512_aesenclast_epi128 (z ## i, _mm512_xor_si512 (last, q[i]))  \
    : _mm512_aesdeclast_epi128 (z ## i, _mm512_xor_si512 (last, q[i])); \
  if (!encrypting)                                                      \
    s = _mm512_xor_si512 (s, z ## i);                                   \
  _mm512_storeu_si512 (out + 64 * i, z ## i)
  for (; nblocks; nblocks -= 32, done += 32, in += 32 * AES_BLOCKSIZE,
         out += 32 * AES_BLOCKSIZE)
    {
      base = _mm512_xor_si512 (_mm512_broadcast_i32x4 (o), k0);
      last = _mm512_xor_si512 (base, k0_last);
      q[7] = _mm512_inserti32x4 (q7, _mm_xor_si128 (p[31],
                                                    ocb_l (l, done + 32)), 3);
      FOR_EIGHT (Z_OCB_IN_);
      Z_ROUND_ (1); Z_ROUND_ (2); Z_ROUND_ (3); Z_ROUND_ (4); Z_ROUND_ (5);
      Z_ROUND_ (6); Z_ROUND_ (7); Z_ROUND_ (8); Z_ROUND_ (9);
      if (rounds > 10)
        {
          Z_ROUND_ (10); Z_ROUND_ (11);
        }
      if (rounds > 12)
        {
          Z_ROUND_ (12); Z_ROUND_ (13);
        }
      FOR_EIGHT (Z_OCB_OUT_);
      o = _mm_xor_si128 (o, _mm512_extracti32x4_epi32 (q[7], 3));
    }
#undef Z_OCB_IN_
#undef Z_AESENC_
#undef Z_AESDEC_
#undef Z_ROUND_
#undef Z_OCB_OUT_
  *sum = _mm_xor_si128 (*sum, fold_quad (s));
  *offset = o;
}

#define VAES512_OCB_FN_(name, encrypting)                               \
  VAES512_TARGET static void                                            \
  name (const aesni_context_t *ctx, const __m128i p[32],                \
        const unsigned char *l, uint64_t done, __m128i *offset,         \
        __m128i *sum, unsigned char *out, const unsigned char *in,      \
        size_t nblocks)                                                 \
  {                                                                     \
    if (ctx->rounds == 10)                                              \
      vaes512_ocb (ctx, encrypting, 10, p, l, done, offset, sum, out,   \
                   in, nblocks);                                        \
    else if (ctx->rounds == 12)                                         \
      vaes512_ocb (ctx, encrypting, 12, p, l, done, offset, sum, out,   \
                   in, nblocks);                                        \
    else                                                                \
      vaes512_ocb (ctx, encrypting, 14, p, l, done, offset, sum, out,   \
                   in, nblocks);                                        \
  }
VAES512_OCB_FN_ (vaes512_ocb_enc, 1)
VAES512_OCB_FN_ (vaes512_ocb_dec, 0)
#undef VAES512_OCB_FN_

/* N single blocks from the block count DONE after Offset_DONE,
 * OFFSET; returns Offset_(DONE+N).  */
AESNI_INLINE __m128i
ocb_singles (const aesni_context_t *ctx, int encrypting,
             const unsigned char *l, uint64_t done, size_t n, __m128i offset,
             __m128i *sum, unsigned char *out, const unsigned char *in)
{
  size_t i;

  for (i = 0; i < n; i++)
    {
      offset = _mm_xor_si128 (offset, ocb_l (l, done + i + 1));
      ocb_one (ctx, encrypting, offset, sum, out + i * AES_BLOCKSIZE,
               in + i * AES_BLOCKSIZE);
    }
  return offset;
}

/* The 512-bit kernel takes some forty cycles more to set up than the
 * 256-bit one and then runs some 10 % faster (AMD Zen 4): from about
 * 160 blocks on it gains.  */
#define OCB_512_MIN 160

/* NBLOCKS, a multiple of eight, from the block count DONE, also one,
 * in runs of 32 (VAES on 512 bits), 16 (on 256) and 8 blocks: runs of
 * eight first, while the count is not a multiple of the widest run
 * and enough blocks remain for one.  Returns the last offset.  */
AESNI_INLINE __m128i
ocb_runs (const aesni_context_t *ctx, int encrypting, const unsigned char *l,
          uint64_t done, size_t nblocks, __m128i offset, __m128i *sum,
          unsigned char *out, const unsigned char *in)
{
  __m128i p[32];

  ocb_prefixes (p, l, ctx->use_vaes512 ? 32 : 16);
#define ADVANCE_(n) \
  (nblocks -= (n), done += (n), in += (n) * AES_BLOCKSIZE, \
   out += (n) * AES_BLOCKSIZE)
#define EIGHT_ \
  (offset = ocb_eight (ctx, encrypting, p, l, done, offset, sum, out, in))
  /* -DONE % W blocks, in runs of eight, bring the count to a multiple
   * of W.  */
  if (ctx->use_vaes512 && nblocks >= (size_t) (-done % 32) + OCB_512_MIN)
    {
      size_t n;

      for (; done % 32; ADVANCE_ (8))
        EIGHT_;
      n = nblocks & ~(size_t) 31;
      (encrypting ? vaes512_ocb_enc : vaes512_ocb_dec)
        (ctx, p, l, done, &offset, sum, out, in, n);
      ADVANCE_ (n);
    }
  if (ctx->use_vaes && nblocks >= (size_t) (-done % 16) + 16)
    {
      size_t n;

      for (; done % 16; ADVANCE_ (8))
        EIGHT_;
      n = nblocks & ~(size_t) 15;
      (encrypting ? vaes_ocb_enc : vaes_ocb_dec)
        (ctx, p, l, done, &offset, sum, out, in, n);
      ADVANCE_ (n);
    }
  for (; nblocks; ADVANCE_ (8))
    EIGHT_;
#undef ADVANCE_
#undef EIGHT_
  return offset;
}

/* The entry: single blocks up to a multiple of eight, the runs, the
 * single blocks left.  */
AESNI_INLINE void
ocb_blocks (const aesni_context_t *ctx, int encrypting, unsigned char *out,
            const unsigned char *in, size_t nblocks, uint64_t done,
            unsigned char *offset_p, unsigned char *sum_p,
            const unsigned char *l)
{
  __m128i offset = loadu (offset_p), sum = loadu (sum_p);
  size_t head = (size_t) (-done % 8), runs;

  if (head > nblocks)
    head = nblocks;
  runs = (nblocks - head) & ~(size_t) 7;
  offset = ocb_singles (ctx, encrypting, l, done, head, offset, &sum, out,
                        in);
  done += head;
  in += head * AES_BLOCKSIZE;
  out += head * AES_BLOCKSIZE;
  if (runs)
    offset = ocb_runs (ctx, encrypting, l, done, runs, offset, &sum, out, in);
  offset = ocb_singles (ctx, encrypting, l, done + runs, nblocks - head - runs,
                        offset, &sum, out + runs * AES_BLOCKSIZE,
                        in + runs * AES_BLOCKSIZE);
  storeu (offset_p, offset);
  storeu (sum_p, sum);
}

AESNI_TARGET static void
aesni_ocb_enc (const void *ctx, unsigned char *out, const unsigned char *in,
               size_t nblocks, uint64_t blocks_done, unsigned char offset[16],
               unsigned char checksum[16], const unsigned char l[64 * 16])
{
  ocb_blocks (ctx, 1, out, in, nblocks, blocks_done, offset, checksum, l);
}

AESNI_TARGET static void
aesni_ocb_dec (const void *ctx, unsigned char *out, const unsigned char *in,
               size_t nblocks, uint64_t blocks_done, unsigned char offset[16],
               unsigned char checksum[16], const unsigned char l[64 * 16])
{
  ocb_blocks (ctx, 0, out, in, nblocks, blocks_done, offset, checksum, l);
}

/* AES-NI is all it needs: the spec's own HWF and USABLE cover it.  */
static const sf_ocb_t aesni_ocb =
  {
    .hwf = NULL,
    .usable = NULL,
    .enc = aesni_ocb_enc,
    .dec = aesni_ocb_dec
  };


/*
 * CFB stitched with SHA-1 (sfcipher.h, sf_cfb_sha1_t), the SHA-1
 * rounds coming from sha1-shani-rounds.h.
 *
 * CFB encryption is one chain of dependent AES rounds and SHA-1 one
 * of dependent SHA1RNDS4 steps; each leaves its execution units idle
 * most of the time, and they are different units.  The encryption
 * kernel therefore runs, per 64 bytes, the four chained AES blocks
 * with the twenty SHA steps of the same plaintext placed between
 * their rounds, five per block, so that both chains are always in
 * flight.  In decryption the AES blocks are independent: four go
 * through the rounds together, and the plaintext they produce is
 * hashed in the same loop, its steps overlapping the next four
 * blocks' rounds.
 */

#define AESNI_SHA_TARGET __attribute__ ((target ("aes," SHA1_SHANI_ISA)))
#define AESNI_SHA_INLINE                                                \
  static inline __attribute__ ((always_inline)) AESNI_SHA_TARGET

#define FOR_FOUR(OP) do { OP (0); OP (1); OP (2); OP (3); } while (0)

/* Block J of the CFB encryption chain X (whitened as in
 * cfb_enc_rounds) from the 64 bytes of plaintext at IN to the
 * ciphertext at OUT, with the SHA steps S0 .. S4 after every other
 * round.  The plaintext is read again for the last round, which may
 * be after stores to the blocks before it (in place), never to its
 * own.  */
#define CFB_ENC_BLOCK_SHA1_(j, s0, s1, s2, s3, s4)                      \
  do                                                                    \
    {                                                                   \
      x = _mm_aesenc_si128 (x, k1);                                     \
      s0;                                                               \
      x = _mm_aesenc_si128 (x, k2);                                     \
      x = _mm_aesenc_si128 (x, k3);                                     \
      s1;                                                               \
      x = _mm_aesenc_si128 (x, k4);                                     \
      x = _mm_aesenc_si128 (x, k5);                                     \
      s2;                                                               \
      x = _mm_aesenc_si128 (x, k6);                                     \
      x = _mm_aesenc_si128 (x, k7);                                     \
      s3;                                                               \
      x = _mm_aesenc_si128 (x, k8);                                     \
      x = _mm_aesenc_si128 (x, k9);                                     \
      s4;                                                               \
      if (rounds > 10)                                                  \
        {                                                               \
          x = _mm_aesenc_si128 (x, k10);                                \
          x = _mm_aesenc_si128 (x, k11);                                \
        }                                                               \
      if (rounds > 12)                                                  \
        {                                                               \
          x = _mm_aesenc_si128 (x, k12);                                \
          x = _mm_aesenc_si128 (x, k13);                                \
        }                                                               \
      x = _mm_aesenclast_si128                                          \
            (x, _mm_xor_si128 (k_last_k0, loadu (in + (j) * AES_BLOCKSIZE))); \
      storeu (out + (j) * AES_BLOCKSIZE, _mm_xor_si128 (x, k0));        \
    }                                                                   \
  while (0)

AESNI_SHA_INLINE void
cfb_enc_sha1_rounds (const aesni_context_t *ctx, unsigned int rounds,
                     unsigned char *iv, unsigned char *out,
                     const unsigned char *in, size_t nblocks,
                     uint32_t state[5])
{
  const __m128i *k = ctx->enc_keys;
  __m128i k0 = k[0], k1 = k[1], k2 = k[2], k3 = k[3], k4 = k[4];
  __m128i k5 = k[5], k6 = k[6], k7 = k[7], k8 = k[8], k9 = k[9];
  __m128i k10 = k[10], k11 = k[11], k12 = k[12], k13 = k[13];
  __m128i k_last_k0 = _mm_xor_si128 (k[rounds], k0);
  __m128i x = _mm_xor_si128 (loadu (iv), k0);
  SHA1_SHANI_VARIABLES;

  SHA1_SHANI_CFB_ENC_LOOP (4, CFB_ENC_BLOCK_SHA1_);
  storeu (iv, _mm_xor_si128 (x, k0));
}

/* NBLOCKS is a multiple of four: whole SHA-1 blocks.  */
AESNI_SHA_TARGET static void
aesni_cfb_enc_sha1 (const void *ctx_arg, unsigned char *iv,
                    unsigned char *out, const unsigned char *in,
                    size_t nblocks, uint32_t state[5])
{
  const aesni_context_t *ctx = ctx_arg;

  if (ctx->rounds == 10)
    cfb_enc_sha1_rounds (ctx, 10, iv, out, in, nblocks, state);
  else if (ctx->rounds == 12)
    cfb_enc_sha1_rounds (ctx, 12, iv, out, in, nblocks, state);
  else
    cfb_enc_sha1_rounds (ctx, 14, iv, out, in, nblocks, state);
}

AESNI_SHA_TARGET static void
aesni_cfb_dec_sha1 (const void *ctx_arg, unsigned char *iv,
                    unsigned char *out, const unsigned char *in,
                    size_t nblocks, uint32_t state[5])
{
  const aesni_context_t *ctx = ctx_arg;
  const __m128i *k = ctx->enc_keys;
  unsigned int rounds = ctx->rounds, r;
  __m128i b0, b1, b2, b3, rk_, rk_last = k[rounds];
  __m128i c = loadu (iv);
  SHA1_SHANI_VARIABLES;

  SHA1_SHANI_LOAD_STATE (state);
  for (; nblocks; nblocks -= 4, in += 4 * AES_BLOCKSIZE,
         out += 4 * AES_BLOCKSIZE)
    {
      /* Block i is encrypted from ciphertext i - 1.  */
      b0 = c;
      b1 = loadu (in);
      b2 = loadu (in + AES_BLOCKSIZE);
      b3 = loadu (in + 2 * AES_BLOCKSIZE);
      c = loadu (in + 3 * AES_BLOCKSIZE);
      rk_ = k[0];
      FOR_FOUR (XOR_KEY_);
      for (r = 1; r < rounds; r++)
        {
          rk_ = k[r];
          FOR_FOUR (AESENC_);
        }
      /* As in aesni_cfb_dec: the ciphertext is read again, before the
       * store that may overwrite it, and XORed in the last round.  */
#define LAST_(i)                                                        \
      b ## i = _mm_aesenclast_si128                                     \
                 (b ## i, _mm_xor_si128 (rk_last,                       \
                                         loadu (in + i * AES_BLOCKSIZE))); \
      storeu (out + i * AES_BLOCKSIZE, b ## i)
      FOR_FOUR (LAST_);
#undef LAST_
      SHA1_SHANI_BEGIN_BLOCK;
      m0 = sha1_shani_message (b0);
      m1 = sha1_shani_message (b1);
      m2 = sha1_shani_message (b2);
      m3 = sha1_shani_message (b3);
      SHA1_SHANI_STEP_0;
      SHA1_SHANI_STEP_1;
      SHA1_SHANI_STEP_2;
      SHA1_SHANI_STEP_3;
      SHA1_SHANI_STEP_4;
      SHA1_SHANI_STEP_5;
      SHA1_SHANI_STEP_6;
      SHA1_SHANI_STEP_7;
      SHA1_SHANI_STEP_8;
      SHA1_SHANI_STEP_9;
      SHA1_SHANI_STEP_10;
      SHA1_SHANI_STEP_11;
      SHA1_SHANI_STEP_12;
      SHA1_SHANI_STEP_13;
      SHA1_SHANI_STEP_14;
      SHA1_SHANI_STEP_15;
      SHA1_SHANI_STEP_16;
      SHA1_SHANI_STEP_17;
      SHA1_SHANI_STEP_18;
      SHA1_SHANI_STEP_19;
      SHA1_SHANI_END_BLOCK;
    }
  storeu (iv, c);
  SHA1_SHANI_STORE_STATE (state);
}

static const sf_cfb_sha1_t aesni_cfb_sha1 =
  {
    .hwf = "shani",
    .usable = sha1_shani_cpu_usable,
    .enc = aesni_cfb_enc_sha1,
    .dec = aesni_cfb_dec_sha1
  };

#define AESNI_CONTEXT_SIZE sizeof (aesni_context_t)
#define AESNI_FUNCS                                                     \
  .encrypt = aesni_encrypt,                                             \
  .decrypt = aesni_decrypt,                                             \
  .ecb_enc = aesni_ecb_enc,                                             \
  .ecb_dec = aesni_ecb_dec,                                             \
  .cbc_enc = aesni_cbc_enc,                                             \
  .cbc_dec = aesni_cbc_dec,                                             \
  .cfb_enc = aesni_cfb_enc,                                             \
  .cfb_dec = aesni_cfb_dec,                                             \
  .ofb = NULL,                                                          \
  .ctr = aesni_ctr,                                                     \
  .cfb_sha1 = &aesni_cfb_sha1,                                          \
  .ocb = &aesni_ocb

#else /* Neither x86-64 nor i386.  */

#include <stdlib.h>

/* No AES instructions to use: the specs exist but are never usable,
 * and setkey refuses every key.  */

static int
aesni_usable (void)
{
  return 0;
}

static gpg_error_t
aesni_setkey_unsupported (void *ctx, const unsigned char *key, size_t keylen)
{
  (void)ctx;
  (void)key;
  (void)keylen;
  return gpg_error (GPG_ERR_NOT_SUPPORTED);
}

/* Unreachable without a key; stop rather than return a block that is
 * not ciphertext.  */
static void
aesni_crypt_unsupported (const void *ctx, unsigned char *out,
                         const unsigned char *in)
{
  (void)ctx;
  (void)out;
  (void)in;
  abort ();
}

/* Every key size is refused alike.  */
#define aes128_setkey aesni_setkey_unsupported
#define aes192_setkey aesni_setkey_unsupported
#define aes256_setkey aesni_setkey_unsupported
#define AESNI_CONTEXT_SIZE ((size_t)AES_BLOCKSIZE)
#define AESNI_FUNCS                                                     \
  .encrypt = aesni_crypt_unsupported,                                   \
  .decrypt = aesni_crypt_unsupported

#endif /* Neither x86-64 nor i386.  */


/*
 * Specs.
 */

#define RIJNDAEL_AESNI_SPEC(NAME, ALIASES, ID, KEYLEN, SETKEY, KATS)     \
  {                                                                     \
    .abi_version = SF_ABI_VERSION,                                      \
    .name = NAME,                                                       \
    .aliases = ALIASES,                                                 \
    .openpgp_id = ID,                                                   \
    .blocksize = AES_BLOCKSIZE,                                         \
    .keylen = KEYLEN,                                                   \
    .contextsize = AESNI_CONTEXT_SIZE,                                  \
    .impl = "aesni",                                                    \
    .priority = SF_PRIO_ACCEL,                                          \
    .hwf = "aesni",                                                     \
    .usable = aesni_usable,                                             \
    .setkey = SETKEY,                                                   \
    .release = NULL,                                                    \
    AESNI_FUNCS,                                                        \
    .kats = KATS,                                                       \
    .n_kats = sizeof (KATS) / sizeof (KATS[0]),                         \
    /* The AES instructions take the same time for every input.  */     \
    .timing = SF_TIMING_CONSTANT                                        \
  }

static const sf_cipher_spec_t sf_spec_aes128_aesni =
  RIJNDAEL_AESNI_SPEC ("AES", aes128_aliases, 7, 16, aes128_setkey,
                       aes128_kats);
static const sf_cipher_spec_t sf_spec_aes192_aesni =
  RIJNDAEL_AESNI_SPEC ("AES192", aes192_aliases, 8, 24, aes192_setkey,
                       aes192_kats);
static const sf_cipher_spec_t sf_spec_aes256_aesni =
  RIJNDAEL_AESNI_SPEC ("AES256", aes256_aliases, 9, 32, aes256_setkey,
                       aes256_kats);

SF_MODULE (rijndael_aesni, &sf_spec_aes128_aesni, &sf_spec_aes192_aesni, &sf_spec_aes256_aesni);
