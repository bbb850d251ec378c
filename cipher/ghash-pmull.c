/* ghash-pmull.c - GHASH with the ARMv8 polynomial multiplication
 *
 * The arithmetic of ghash.c (see there: reflected order, reduction
 * by shifts) and the key powers of ghash-pclmul.c on the PMULL2
 * instruction of the ARMv8 Cryptography Extensions (the 128-bit
 * carry-less product of the high 64-bit lanes of two registers),
 * through the ACLE intrinsics of <arm_neon.h>.  The reduction is
 * aggregated over four blocks:
 *   Y' = (Y ^ X1) H^4 ^ X2 H^3 ^ X3 H^2 ^ X4 H,
 * four independent products summed before one reduction, so the
 * multiplier's latency overlaps and the reduction costs a quarter; a
 * tail of N < 4 blocks is summed the same way with H^N .. H.  Four
 * rather than ghash-pclmul.c's eight, because then the key (two
 * vectors per power) and the sums stay in the 32 vector registers:
 * with eight, GCC 12 spilled key powers to the stack, to be left
 * there after the return.
 *
 * A register holds a block as one 128-bit big-endian number, its
 * high half in lane 1: REV64 on the loaded bytes and a swap of the
 * lanes.  The key holds H^1 .. H^4 each divided by x, so that the
 * carry-less product of y and H^i/x is y H^i already aligned (the
 * one-bit shift of ghash.c's step 2 moves into the key), and each
 * again with its halves swapped, so that every partial product is a
 * PMULL2 of high lanes (see mul_add).
 *
 * Only the functions using the instructions are compiled for them
 * (target attribute); ghash.c asks sf_ghash_pmull_usable() first.
 * Where they cannot be used (not little-endian AArch64, or a compiler
 * that cannot enable them per function) it reports 0, so another
 * GHASH is always chosen, and the entry aborts if called at all.
 */
#include <config.h>

#include <stdlib.h>

#include "aead-internal.h"

/* As for sha1-armce-rounds.h: clang before 16 declares the
 * intrinsics only when the whole translation unit targets them.  */
#if defined(__aarch64__) && defined(__AARCH64EL__)                      \
  && (!defined(__clang__) || defined(__ARM_FEATURE_CRYPTO))

#include <arm_neon.h>
#ifdef __linux__
#include <sys/auxv.h>
#include <asm/hwcap.h>
#endif

/* GCC 12 has PMULL behind its one "crypto" flag; clang names the
 * feature without the plus.  */
#ifdef __clang__
#define PMULL_TARGET __attribute__ ((target ("crypto")))
#else
#define PMULL_TARGET __attribute__ ((target ("+crypto")))
#endif
#define PMULL_INLINE static inline __attribute__ ((always_inline)) PMULL_TARGET

#define POWERS 4

/* Key layout in the words: H^(i+1) / x in words 4i (low half) and
 * 4i + 1 (high half), the same with the halves swapped in words
 * 4i + 2 and 4i + 3.  */
#define KEY_WORDS_PER_POWER 4

int
sf_ghash_pmull_usable (void)
{
#ifdef __linux__
  unsigned long hwcap = getauxval (AT_HWCAP);

  return (hwcap & HWCAP_ASIMD) && (hwcap & HWCAP_PMULL);
#else
  return 0;
#endif
}

/* Lane 1 to lane 0 and lane 0 to lane 1.  */
PMULL_INLINE uint64x2_t
swap_lanes (uint64x2_t x)
{
  return vextq_u64 (x, x, 1);
}

PMULL_INLINE uint64x2_t
load_block (const unsigned char *p)
{
  return swap_lanes (vreinterpretq_u64_u8 (vrev64q_u8 (vld1q_u8 (p))));
}

PMULL_INLINE void
store_block (unsigned char *p, uint64x2_t x)
{
  vst1q_u8 (p, vrev64q_u8 (vreinterpretq_u8_u64 (swap_lanes (x))));
}

/* The carry-less product of the high lanes of A and B (PMULL2).  */
PMULL_INLINE uint64x2_t
clmul_high (uint64x2_t a, uint64x2_t b)
{
  return vreinterpretq_u64_p128 (vmull_high_p64 (vreinterpretq_p64_u64 (a),
                                                 vreinterpretq_p64_u64 (b)));
}

/* Add the 256-bit carry-less product of A and H (HS: H with its
 * halves swapped) into the sums LO, MI, HI of the products of the low
 * halves, the cross ones and the high halves.  With H a key power,
 * that product is A H^i, aligned: hi the coefficients of x^0..x^127,
 * lo those of x^128 and up.  Four PMULL2 rather than Karatsuba's
 * three multiplications: PMULL of the low lanes takes 64-bit scalars
 * in the intrinsics, and GCC 12 kept such copies of the key beside
 * its vectors and spilled them to the stack; with every operand in a
 * high lane the key stays in its vectors.  */
PMULL_INLINE void
mul_add (uint64x2_t a, uint64x2_t h, uint64x2_t hs, uint64x2_t *lo,
         uint64x2_t *mi, uint64x2_t *hi)
{
  uint64x2_t as = swap_lanes (a);

  *lo = veorq_u64 (*lo, clmul_high (as, hs));
  *hi = veorq_u64 (*hi, clmul_high (a, h));
  *mi = veorq_u64 (*mi, veorq_u64 (clmul_high (a, hs), clmul_high (as, h)));
}

/* X << 63 ^ X << 62 ^ X << 57 in each lane: what a right shift of
 * the number by 1, 2 and 7 moves out of the lane's low end.  */
PMULL_INLINE uint64x2_t
shifted_out (uint64x2_t x)
{
  return veorq_u64 (vshlq_n_u64 (x, 63),
                    veorq_u64 (vshlq_n_u64 (x, 62), vshlq_n_u64 (x, 57)));
}

/* The field element the sums stand for: combine and reduce (ghash.c,
 * step 3).  */
PMULL_INLINE uint64x2_t
reduce (uint64x2_t lo, uint64x2_t mi, uint64x2_t hi)
{
  const uint64x2_t zero = vdupq_n_u64 (0);

  hi = veorq_u64 (hi, vextq_u64 (mi, zero, 1));
  lo = veorq_u64 (lo, vextq_u64 (zero, mi, 1));

  /* lo << 127, << 126, << 121 reach its high lane only.  */
  lo = veorq_u64 (lo, vextq_u64 (zero, shifted_out (lo), 1));
  /* hi ^= lo ^ lo >> 1 ^ lo >> 2 ^ lo >> 7, as 128-bit shifts: the
   * lanes shifted alone, then what the high lane passes to the low.  */
  hi = veorq_u64 (hi, veorq_u64 (lo, vshrq_n_u64 (lo, 1)));
  hi = veorq_u64 (hi, veorq_u64 (vshrq_n_u64 (lo, 2), vshrq_n_u64 (lo, 7)));
  return veorq_u64 (hi, vextq_u64 (shifted_out (lo), zero, 1));
}

/* Key power I + 1, and the same with its halves swapped.  */
PMULL_INLINE uint64x2_t
power (const sf_ghash_key_t *key, int i)
{
  return vld1q_u64 (key->words + KEY_WORDS_PER_POWER * i);
}

PMULL_INLINE uint64x2_t
power_swapped (const sf_ghash_key_t *key, int i)
{
  return vld1q_u64 (key->words + KEY_WORDS_PER_POWER * i + 2);
}

/* Add X times key power I + 1 into the sums.  */
#define MUL_ADD_POWER(x, i)                                             \
  mul_add ((x), power (key, (i)), power_swapped (key, (i)), &lo, &mi, &hi)

PMULL_TARGET static void
ghash_blocks_pmull (const sf_ghash_key_t *key, unsigned char y[AEAD_BLOCK],
                    const unsigned char *data, size_t nblocks)
{
  const uint64x2_t zero = vdupq_n_u64 (0);
  uint64x2_t acc = load_block (y), lo, mi, hi;
  size_t i;

  for (; nblocks >= POWERS; nblocks -= POWERS, data += POWERS * AEAD_BLOCK)
    {
      lo = mi = hi = zero;
      /* Block i is multiplied by H^(4 - i); the first, which waits for
       * the previous reduction, last.  */
      MUL_ADD_POWER (load_block (data + 1 * AEAD_BLOCK), 2);
      MUL_ADD_POWER (load_block (data + 2 * AEAD_BLOCK), 1);
      MUL_ADD_POWER (load_block (data + 3 * AEAD_BLOCK), 0);
      MUL_ADD_POWER (veorq_u64 (acc, load_block (data)), 3);
      acc = reduce (lo, mi, hi);
    }
  if (nblocks)
    {
      /* Block i of the N left is multiplied by H^(N - i).  */
      lo = mi = hi = zero;
      for (i = 1; i < nblocks; i++)
        MUL_ADD_POWER (load_block (data + i * AEAD_BLOCK),
                       (int) (nblocks - 1 - i));
      MUL_ADD_POWER (veorq_u64 (acc, load_block (data)), (int) nblocks - 1);
      acc = reduce (lo, mi, hi);
    }
  store_block (y, acc);
}

/* H / x; not on a hot path, so on the halves as integers.  */
static uint64x2_t
divide_by_x (uint64x2_t h)
{
  uint64_t h0 = vgetq_lane_u64 (h, 0), h1 = vgetq_lane_u64 (h, 1);
  uint64_t carry = -(h1 >> 63);

  h1 = ((h1 << 1) | (h0 >> 63)) ^ (carry & 0xc200000000000000ULL);
  h0 = (h0 << 1) ^ (carry & 1);
  return vcombine_u64 (vcreate_u64 (h0), vcreate_u64 (h1));
}

PMULL_TARGET void
sf_ghash_setkey_pmull (sf_ghash_key_t *key, const unsigned char h[AEAD_BLOCK])
{
  const uint64x2_t zero = vdupq_n_u64 (0);
  uint64x2_t h1 = load_block (h), hdiv = divide_by_x (h1), hi = h1;
  uint64x2_t hdiv_swapped = swap_lanes (hdiv);
  uint64x2_t lo_sum, mi_sum, hi_sum;
  int i;

  for (i = 0; i < POWERS; i++)
    {
      /* HI is H^(i + 1).  */
      uint64x2_t p = i ? divide_by_x (hi) : hdiv;

      vst1q_u64 (key->words + KEY_WORDS_PER_POWER * i, p);
      vst1q_u64 (key->words + KEY_WORDS_PER_POWER * i + 2, swap_lanes (p));
      lo_sum = mi_sum = hi_sum = zero;
      mul_add (hi, hdiv, hdiv_swapped, &lo_sum, &mi_sum, &hi_sum);
      hi = reduce (lo_sum, mi_sum, hi_sum);
    }
  key->blocks = ghash_blocks_pmull;
}

#else /* !(little-endian AArch64 with the intrinsics) */

/* No polynomial multiplication: never usable, so never called.  */

int
sf_ghash_pmull_usable (void)
{
  return 0;
}

/* Unreachable; stop rather than hash with no key.  */
void
sf_ghash_setkey_pmull (sf_ghash_key_t *key, const unsigned char h[AEAD_BLOCK])
{
  (void) key;
  (void) h;
  abort ();
}

#endif /* !(little-endian AArch64 with the intrinsics) */
