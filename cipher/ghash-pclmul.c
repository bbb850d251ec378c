/* ghash-pclmul.c - GHASH with the x86 carry-less multiplication
 *
 * The arithmetic of ghash.c (see there: reflected order, Karatsuba,
 * reduction by shifts) on PCLMULQDQ, through compiler intrinsics, with
 * the reduction aggregated over eight blocks:
 *   Y' = (Y ^ X1) H^8 ^ X2 H^7 ^ ... ^ X8 H,
 * eight independent products summed before one reduction, so the
 * multiplier's latency overlaps and the reduction costs an eighth.
 * The key holds H^1 .. H^8 each divided by x, which turns the one-bit
 * shift of ghash.c's step 2 into part of the key: the carry-less
 * product of y and H/x is already y H, aligned.  Dividing by x is a
 * shift left by one of the number, and when the bit shifted out was
 * set, an XOR with x^-1 = x^127 + x^6 + x + 1, the number
 * c2000000000000000000000000000001.  The key also holds, for
 * Karatsuba, the XOR of the halves of each.  Blocks are loaded
 * byte-reversed, which makes a register hold the block as one 128-bit
 * big-endian number.  Where the processor has VPCLMULQDQ, the same on
 * two blocks per 256-bit register, sixteen per reduction (see below).
 *
 * Only the functions using the instructions are compiled for them
 * (target attributes); ghash.c asks sf_ghash_pclmul_usable() and
 * sf_ghash_vpclmul_usable() first.  Where the instructions cannot
 * exist (neither x86-64 nor i386) both report 0, so the portable GHASH
 * is always chosen, and the entries abort if called at all.
 */
#include <config.h>

#include <stdlib.h>

#include "aead-internal.h"

#if defined(__x86_64__) || defined(__i386__)

#include <immintrin.h>
#include <cpuid.h>

#define PCLMUL_TARGET __attribute__ ((target ("pclmul,ssse3")))
#define PCLMUL_INLINE static inline __attribute__ ((always_inline)) PCLMUL_TARGET
#define VPCLMUL_TARGET \
  __attribute__ ((target ("pclmul,ssse3,avx2,vpclmulqdq")))
#define VPCLMUL_INLINE \
  static inline __attribute__ ((always_inline)) VPCLMUL_TARGET

#define POWERS 8
#define VPOWERS 16

int
sf_ghash_pclmul_usable (void)
{
  unsigned int eax, ebx, ecx, edx;

  if (!__get_cpuid (1, &eax, &ebx, &ecx, &edx))
    return 0;
  return (ecx & bit_PCLMUL) && (ecx & bit_SSSE3);
}

/* VPCLMULQDQ (a carry-less multiplication in each 128-bit lane of a
 * 256-bit register) with AVX2, and the OS saving the YMM registers.  */
int
sf_ghash_vpclmul_usable (void)
{
  unsigned int eax, ebx, ecx, edx, xcr0_lo, xcr0_hi;

  if (!sf_ghash_pclmul_usable ()
      || !__get_cpuid (1, &eax, &ebx, &ecx, &edx)
      || !(ecx & bit_OSXSAVE) || !(ecx & bit_AVX))
    return 0;
  __asm__ ("xgetbv" : "=a" (xcr0_lo), "=d" (xcr0_hi) : "c" (0));
  if ((xcr0_lo & 6) != 6
      || !__get_cpuid_count (7, 0, &eax, &ebx, &ecx, &edx))
    return 0;
  return (ebx & bit_AVX2) && (ecx & bit_VPCLMULQDQ);
}

PCLMUL_INLINE __m128i
load_block (const unsigned char *p)
{
  const __m128i reverse = _mm_set_epi8 (0, 1, 2, 3, 4, 5, 6, 7,
                                        8, 9, 10, 11, 12, 13, 14, 15);

  return _mm_shuffle_epi8 (_mm_loadu_si128 ((const __m128i *) p), reverse);
}

PCLMUL_INLINE void
store_block (unsigned char *p, __m128i x)
{
  const __m128i reverse = _mm_set_epi8 (0, 1, 2, 3, 4, 5, 6, 7,
                                        8, 9, 10, 11, 12, 13, 14, 15);

  _mm_storeu_si128 ((__m128i *) p, _mm_shuffle_epi8 (x, reverse));
}

/* Key layout in the words: H^(i+1) / x at power (i), the XOR of its
 * halves in the low lane of mid (i).  */
PCLMUL_INLINE __m128i
power (const sf_ghash_key_t *key, int i)
{
  return _mm_loadu_si128 ((const __m128i *) key->words + i);
}

PCLMUL_INLINE __m128i
mid (const sf_ghash_key_t *key, int i)
{
  return _mm_loadu_si128 ((const __m128i *) key->words + POWERS + i);
}

/* Add the 256-bit carry-less product of A and H (HM: the XOR of H's
 * halves) into the Karatsuba sums LO, MI, HI.  With H a key power,
 * that product is A H^i, aligned: hi the coefficients of x^0..x^127,
 * lo those of x^128 and up.  */
PCLMUL_INLINE void
mul_add (__m128i a, __m128i h, __m128i hm, __m128i *lo, __m128i *mi,
         __m128i *hi)
{
  __m128i am = _mm_xor_si128 (a, _mm_shuffle_epi32 (a, 0x4e));

  *lo = _mm_xor_si128 (*lo, _mm_clmulepi64_si128 (a, h, 0x00));
  *hi = _mm_xor_si128 (*hi, _mm_clmulepi64_si128 (a, h, 0x11));
  *mi = _mm_xor_si128 (*mi, _mm_clmulepi64_si128 (am, hm, 0x00));
}

/* V >> S as a 128-bit number; S is 1 .. 63.  */
#define SHR128(v, s) \
  _mm_xor_si128 (_mm_srli_epi64 (v, s), \
                 _mm_srli_si128 (_mm_slli_epi64 (v, 64 - (s)), 8))

/* The field element the Karatsuba sums stand for: combine and reduce
 * (ghash.c, step 3).  */
PCLMUL_INLINE __m128i
reduce (__m128i lo, __m128i mi, __m128i hi)
{
  __m128i fold;

  mi = _mm_xor_si128 (mi, _mm_xor_si128 (lo, hi));
  hi = _mm_xor_si128 (hi, _mm_srli_si128 (mi, 8));
  lo = _mm_xor_si128 (lo, _mm_slli_si128 (mi, 8));

  /* lo << 127, << 126, << 121 reach its high lane only.  */
  fold = _mm_xor_si128 (_mm_slli_epi64 (lo, 63),
                        _mm_xor_si128 (_mm_slli_epi64 (lo, 62),
                                       _mm_slli_epi64 (lo, 57)));
  lo = _mm_xor_si128 (lo, _mm_slli_si128 (fold, 8));
  hi = _mm_xor_si128 (hi, lo);
  hi = _mm_xor_si128 (hi, SHR128 (lo, 1));
  hi = _mm_xor_si128 (hi, SHR128 (lo, 2));
  return _mm_xor_si128 (hi, SHR128 (lo, 7));
}

PCLMUL_INLINE __m128i
gf_mul (__m128i a, __m128i h, __m128i hm)
{
  __m128i lo = _mm_setzero_si128 (), mi = lo, hi = lo;

  mul_add (a, h, hm, &lo, &mi, &hi);
  return reduce (lo, mi, hi);
}

PCLMUL_INLINE __m128i
halves_xor (__m128i h)
{
  return _mm_xor_si128 (h, _mm_shuffle_epi32 (h, 0x4e));
}

/* H / x; not on a hot path, so on words.  */
PCLMUL_INLINE __m128i
divide_by_x (__m128i h)
{
  uint64_t w[2], carry;

  _mm_storeu_si128 ((__m128i *) w, h);
  carry = -(w[1] >> 63);
  w[1] = ((w[1] << 1) | (w[0] >> 63)) ^ (carry & 0xc200000000000000ULL);
  w[0] = (w[0] << 1) ^ (carry & 1);
  return _mm_loadu_si128 ((const __m128i *) w);
}

/* Add X times key power I + 1 into the Karatsuba sums.  */
#define MUL_ADD_POWER(x, i) \
  mul_add ((x), power (key, (i)), mid (key, (i)), &lo, &mi, &hi)

PCLMUL_TARGET static void
ghash_blocks_pclmul (const sf_ghash_key_t *key, unsigned char y[AEAD_BLOCK],
                     const unsigned char *data, size_t nblocks)
{
  __m128i acc = load_block (y), lo, mi, hi;

  for (; nblocks >= POWERS; nblocks -= POWERS, data += POWERS * AEAD_BLOCK)
    {
      lo = mi = hi = _mm_setzero_si128 ();
      /* Block i is multiplied by H^(8 - i); the first, which waits for
       * the previous reduction, last.  */
      MUL_ADD_POWER (load_block (data + 1 * AEAD_BLOCK), 6);
      MUL_ADD_POWER (load_block (data + 2 * AEAD_BLOCK), 5);
      MUL_ADD_POWER (load_block (data + 3 * AEAD_BLOCK), 4);
      MUL_ADD_POWER (load_block (data + 4 * AEAD_BLOCK), 3);
      MUL_ADD_POWER (load_block (data + 5 * AEAD_BLOCK), 2);
      MUL_ADD_POWER (load_block (data + 6 * AEAD_BLOCK), 1);
      MUL_ADD_POWER (load_block (data + 7 * AEAD_BLOCK), 0);
      MUL_ADD_POWER (_mm_xor_si128 (acc, load_block (data)), 7);
      acc = reduce (lo, mi, hi);
    }
  for (; nblocks; nblocks--, data += AEAD_BLOCK)
    acc = gf_mul (_mm_xor_si128 (acc, load_block (data)),
                  power (key, 0), mid (key, 0));
  store_block (y, acc);
}

PCLMUL_TARGET void
sf_ghash_setkey_pclmul (sf_ghash_key_t *key, const unsigned char h[AEAD_BLOCK])
{
  __m128i *words = (__m128i *) key->words;
  __m128i h1 = load_block (h), hdiv = divide_by_x (h1);
  __m128i hdiv_mid = halves_xor (hdiv), hi = h1;
  int i;

  for (i = 0; i < POWERS; i++)
    {
      __m128i p = i ? divide_by_x (hi) : hdiv;

      _mm_storeu_si128 (words + i, p);
      _mm_storeu_si128 (words + POWERS + i, halves_xor (p));
      hi = gf_mul (hi, hdiv, hdiv_mid);
    }
  key->blocks = ghash_blocks_pclmul;
}


/*
 * With VPCLMULQDQ: the same arithmetic on two blocks per 256-bit
 * register, aggregated over sixteen blocks per reduction,
 *   Y' = (Y ^ X1) H^16 ^ X2 H^15 ^ ... ^ X16 H,
 * which halves both the multiplications and the reductions per
 * block.  The key holds H^16 .. H^1, each divided by x, in that order,
 * so that a 256-bit load at pair j gives the powers of blocks 2j and
 * 2j + 1, and after them the XORs of their halves in the same order.
 */

VPCLMUL_INLINE __m256i
load_pair (const unsigned char *p)
{
  const __m256i reverse = _mm256_broadcastsi128_si256
    (_mm_set_epi8 (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15));

  return _mm256_shuffle_epi8 (_mm256_loadu_si256 ((const __m256i *) p),
                              reverse);
}

VPCLMUL_INLINE __m256i
key_pair (const sf_ghash_key_t *key, int j)
{
  return _mm256_loadu_si256 ((const __m256i *) key->words + j);
}

/* As mul_add, for the pair of blocks A and the pair of key powers
 * J (their halves' XORs at J + VPOWERS / 2).  */
VPCLMUL_INLINE void
mul_add_pair (const sf_ghash_key_t *key, __m256i a, int j, __m256i *lo,
              __m256i *mi, __m256i *hi)
{
  __m256i h = key_pair (key, j), hm = key_pair (key, j + VPOWERS / 2);
  __m256i am = _mm256_xor_si256 (a, _mm256_shuffle_epi32 (a, 0x4e));

  *lo = _mm256_xor_si256 (*lo, _mm256_clmulepi64_epi128 (a, h, 0x00));
  *hi = _mm256_xor_si256 (*hi, _mm256_clmulepi64_epi128 (a, h, 0x11));
  *mi = _mm256_xor_si256 (*mi, _mm256_clmulepi64_epi128 (am, hm, 0x00));
}

VPCLMUL_INLINE __m128i
fold_lanes (__m256i x)
{
  return _mm_xor_si128 (_mm256_castsi256_si128 (x),
                        _mm256_extracti128_si256 (x, 1));
}

VPCLMUL_TARGET static void
ghash_blocks_vpclmul (const sf_ghash_key_t *key, unsigned char y[AEAD_BLOCK],
                      const unsigned char *data, size_t nblocks)
{
  const __m128i *words = (const __m128i *) key->words;
  __m128i acc = load_block (y), lo1, mi1, hi1;
  __m256i lo, mi, hi;
  size_t i;
  int j;

  for (; nblocks >= VPOWERS; nblocks -= VPOWERS, data += VPOWERS * AEAD_BLOCK)
    {
      lo = mi = hi = _mm256_setzero_si256 ();
      /* The first pair, which waits for the previous reduction, last.  */
      for (j = 1; j < VPOWERS / 2; j++)
        mul_add_pair (key, load_pair (data + 2 * j * AEAD_BLOCK), j,
                      &lo, &mi, &hi);
      mul_add_pair (key, _mm256_xor_si256 (load_pair (data),
                                           _mm256_set_m128i
                                             (_mm_setzero_si128 (), acc)),
                    0, &lo, &mi, &hi);
      acc = reduce (fold_lanes (lo), fold_lanes (mi), fold_lanes (hi));
    }
  if (!nblocks)
    {
      store_block (y, acc);
      return;
    }
  /* The N < 16 blocks left, aggregated too, with H^N .. H^1, the
   * last N powers.  */
  lo1 = mi1 = hi1 = _mm_setzero_si128 ();
  acc = _mm_xor_si128 (acc, load_block (data));
  for (i = 0; i < nblocks; i++)
    mul_add (i ? load_block (data + i * AEAD_BLOCK) : acc,
             _mm_loadu_si128 (words + VPOWERS - nblocks + i),
             _mm_loadu_si128 (words + 2 * VPOWERS - nblocks + i),
             &lo1, &mi1, &hi1);
  store_block (y, reduce (lo1, mi1, hi1));
}

VPCLMUL_TARGET void
sf_ghash_setkey_vpclmul (sf_ghash_key_t *key,
                         const unsigned char h[AEAD_BLOCK])
{
  __m128i *words = (__m128i *) key->words;
  __m128i h1 = load_block (h), hdiv = divide_by_x (h1);
  __m128i hdiv_mid = halves_xor (hdiv), hi = h1;
  int i;

  for (i = 0; i < VPOWERS; i++)
    {
      __m128i p = i ? divide_by_x (hi) : hdiv;

      _mm_storeu_si128 (words + VPOWERS - 1 - i, p);
      _mm_storeu_si128 (words + 2 * VPOWERS - 1 - i, halves_xor (p));
      hi = gf_mul (hi, hdiv, hdiv_mid);
    }
  key->blocks = ghash_blocks_vpclmul;
}

#else /* Neither x86-64 nor i386.  */

/* No carry-less multiplication: never usable, so never called.  */

int
sf_ghash_pclmul_usable (void)
{
  return 0;
}

int
sf_ghash_vpclmul_usable (void)
{
  return 0;
}

/* Unreachable; stop rather than hash with no key.  */
void
sf_ghash_setkey_pclmul (sf_ghash_key_t *key, const unsigned char h[AEAD_BLOCK])
{
  (void) key;
  (void) h;
  abort ();
}

void
sf_ghash_setkey_vpclmul (sf_ghash_key_t *key,
                         const unsigned char h[AEAD_BLOCK])
{
  (void) key;
  (void) h;
  abort ();
}

#endif /* Neither x86-64 nor i386.  */
