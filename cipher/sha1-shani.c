/* sha1-shani.c - SHA-1 block function, x86 SHA extensions
 *
 * The SHA-1 compression of FIPS 180-4 6.1.2 with the SHA instructions
 * of x86 processors (Intel, "Intel SHA Extensions", 2013) through
 * compiler intrinsics.  Only the block function is compiled for them
 * (target attribute); sha1.c asks sf_sha1_shani_usable() before
 * choosing it.
 *
 * The instructions work on four 32-bit words with the first one in
 * the highest lane: the working variables a, b, c, d in one register,
 * e apart, and the message schedule four words W_t..W_(t+3) at a time.
 *   SHA1RNDS4  four rounds; its immediate picks f and K (rounds 0-19,
 *              20-39, 40-59, 60-79); e + W_t comes in the highest lane
 *              of its second operand;
 *   SHA1NEXTE  the e of the next four rounds, which is the a of four
 *              rounds back rotated by 30, added to W_t;
 *   SHA1MSG1,  with an XOR between them, the schedule
 *   SHA1MSG2   W_t = rol1(W_(t-3) ^ W_(t-8) ^ W_(t-14) ^ W_(t-16)) for
 *              four words from the previous sixteen.
 * Loading the block with every byte reversed turns the big-endian
 * words into host integers and puts the first word in the highest
 * lane, both at once.
 *
 * On other processors the file builds a stub that is never usable.
 */
#include <config.h>

#include <stdlib.h>

#include "sha1.h"

#if defined(__x86_64__) || defined(__i386__)

#include <immintrin.h>
#include <cpuid.h>

#define SHANI_TARGET __attribute__ ((target ("sha,sse4.1,ssse3")))

int
sf_sha1_shani_usable (void)
{
  unsigned int eax, ebx, ecx, edx;

  if (!__get_cpuid (1, &eax, &ebx, &ecx, &edx)
      || !(ecx & bit_SSSE3) || !(ecx & bit_SSE4_1))
    return 0;
  if (!__get_cpuid_count (7, 0, &eax, &ebx, &ecx, &edx))
    return 0;
  return !!(ebx & bit_SHA);
}

/* Four rounds with function and constant set FN (0..3) on schedule
 * words MSG.  PREV keeps a..d from before them, from which SHA1NEXTE
 * derives the next e.  */
#define FOUR_ROUNDS(fn, msg)                                    \
  do                                                            \
    {                                                           \
      e = _mm_sha1nexte_epu32 (prev, (msg));                    \
      prev = abcd;                                              \
      abcd = _mm_sha1rnds4_epu32 (abcd, e, (fn));               \
    }                                                           \
  while (0)

/* The next four schedule words into M0, from the sixteen in M0 (the
 * oldest) to M3 (the newest), then four rounds on them.  */
#define SCHEDULE_FOUR_ROUNDS(fn, m0, m1, m2, m3)                        \
  do                                                                    \
    {                                                                   \
      m0 = _mm_sha1msg2_epu32 (_mm_xor_si128 (_mm_sha1msg1_epu32 (m0, m1), \
                                              m2), m3);                 \
      FOUR_ROUNDS (fn, m0);                                             \
    }                                                                   \
  while (0)

SHANI_TARGET void
sf_sha1_blocks_shani (uint32_t state[5], const unsigned char *data,
                      size_t nblocks)
{
  /* _mm_set_epi8 lists lanes from the highest: byte 15 to lane 0.  */
  const __m128i reverse_bytes = _mm_set_epi8 (0, 1, 2, 3, 4, 5, 6, 7,
                                              8, 9, 10, 11, 12, 13, 14, 15);
  __m128i abcd, e_saved, abcd_saved, prev, e, m0, m1, m2, m3;

  /* H0 (a) to the highest lane; H4 (e) alone in the highest lane of
   * its own register, where SHA1RNDS4 and SHA1NEXTE take it.  */
  abcd = _mm_shuffle_epi32 (_mm_loadu_si128 ((const __m128i *)state), 0x1b);
  e_saved = _mm_set_epi32 ((int)state[4], 0, 0, 0);

  for (; nblocks; nblocks--, data += SF_SHA1_BLOCK_LEN)
    {
      abcd_saved = abcd;

      m0 = _mm_shuffle_epi8 (_mm_loadu_si128 ((const __m128i *)data),
                             reverse_bytes);
      m1 = _mm_shuffle_epi8 (_mm_loadu_si128 ((const __m128i *)(data + 16)),
                             reverse_bytes);
      m2 = _mm_shuffle_epi8 (_mm_loadu_si128 ((const __m128i *)(data + 32)),
                             reverse_bytes);
      m3 = _mm_shuffle_epi8 (_mm_loadu_si128 ((const __m128i *)(data + 48)),
                             reverse_bytes);

      /* Rounds 0-3: e comes from the state, not from SHA1NEXTE.  */
      e = _mm_add_epi32 (e_saved, m0);
      prev = abcd;
      abcd = _mm_sha1rnds4_epu32 (abcd, e, 0);
      FOUR_ROUNDS (0, m1);
      FOUR_ROUNDS (0, m2);
      FOUR_ROUNDS (0, m3);
      /* Rounds 16-79: the schedule four words ahead of the rounds,
       * the sixteen newest words in m0..m3 used as a ring.  */
      SCHEDULE_FOUR_ROUNDS (0, m0, m1, m2, m3);
      SCHEDULE_FOUR_ROUNDS (1, m1, m2, m3, m0);
      SCHEDULE_FOUR_ROUNDS (1, m2, m3, m0, m1);
      SCHEDULE_FOUR_ROUNDS (1, m3, m0, m1, m2);
      SCHEDULE_FOUR_ROUNDS (1, m0, m1, m2, m3);
      SCHEDULE_FOUR_ROUNDS (1, m1, m2, m3, m0);
      SCHEDULE_FOUR_ROUNDS (2, m2, m3, m0, m1);
      SCHEDULE_FOUR_ROUNDS (2, m3, m0, m1, m2);
      SCHEDULE_FOUR_ROUNDS (2, m0, m1, m2, m3);
      SCHEDULE_FOUR_ROUNDS (2, m1, m2, m3, m0);
      SCHEDULE_FOUR_ROUNDS (2, m2, m3, m0, m1);
      SCHEDULE_FOUR_ROUNDS (3, m3, m0, m1, m2);
      SCHEDULE_FOUR_ROUNDS (3, m0, m1, m2, m3);
      SCHEDULE_FOUR_ROUNDS (3, m1, m2, m3, m0);
      SCHEDULE_FOUR_ROUNDS (3, m2, m3, m0, m1);
      SCHEDULE_FOUR_ROUNDS (3, m3, m0, m1, m2);

      /* e after round 79, plus H4, in one SHA1NEXTE.  */
      e_saved = _mm_sha1nexte_epu32 (prev, e_saved);
      abcd = _mm_add_epi32 (abcd, abcd_saved);
    }

  _mm_storeu_si128 ((__m128i *)state, _mm_shuffle_epi32 (abcd, 0x1b));
  state[4] = (uint32_t)_mm_extract_epi32 (e_saved, 3);
}

#else /* Neither x86-64 nor i386.  */

/* No SHA instructions: never usable, so never called.  */

int
sf_sha1_shani_usable (void)
{
  return 0;
}

/* Unreachable; stop rather than return a wrong hash.  */
void
sf_sha1_blocks_shani (uint32_t state[5], const unsigned char *data,
                      size_t nblocks)
{
  (void)state;
  (void)data;
  (void)nblocks;
  abort ();
}

#endif /* Neither x86-64 nor i386.  */
