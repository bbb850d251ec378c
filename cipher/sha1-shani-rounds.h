/* sha1-shani-rounds.h - SHA-1 rounds on the x86 SHA extensions
 *
 * The SHA-1 compression of FIPS 180-4 6.1.2 with the SHA instructions
 * of x86 processors (Intel, "Intel SHA Extensions", 2013), as macros
 * and inline functions, for sha1-shani.c and for cipher code that
 * interleaves the hash with its own instructions (the stitched CFB
 * kernels of rijndael-aesni.c, cast5.c, blowfish.c and twofish.c).
 * Header-only, so that a module built from such code as a shared
 * object stays self-contained.  Code using it is compiled for the
 * target SHA1_SHANI_ISA and runs only when sha1_shani_cpu_usable()
 * says so.  Not installed.
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
 * The macros work on variables of the function using them, declared
 * with SHA1_SHANI_VARIABLES: ABCD and E_SAVED carry the hash value
 * from block to block; M0..M3 hold the block's sixteen message words
 * (sha1_shani_message) and then the schedule, as a ring.  One block
 * is SHA1_SHANI_BEGIN_BLOCK, the twenty steps SHA1_SHANI_STEP_0 ..
 * SHA1_SHANI_STEP_19 in this order (four rounds each), and
 * SHA1_SHANI_END_BLOCK.  A step needs only M0..M3 as loaded and the
 * steps before it, so other work may go between steps; the stitched
 * CFB kernels of the ciphers place them with SHA1_SHANI_CFB_ENC_LOOP
 * (SHA1_SHANI_LOAD_BLOCK, then SHA1_SHANI_OVER_4_BLOCKS or
 * SHA1_SHANI_OVER_8_BLOCKS).
 */
#ifndef SF_SHA1_SHANI_ROUNDS_H
#define SF_SHA1_SHANI_ROUNDS_H

#if defined(__x86_64__) || defined(__i386__)

#include <stdatomic.h>
#include <stdint.h>
#include <immintrin.h>
#include <cpuid.h>

#define SHA1_SHANI_ISA "sha,sse4.1,ssse3"
#define SHA1_SHANI_INLINE                                               \
  static inline __attribute__ ((always_inline, target (SHA1_SHANI_ISA)))

static inline int
sha1_shani_cpu_probe (void)
{
  unsigned int eax, ebx, ecx, edx;

  if (!__get_cpuid (1, &eax, &ebx, &ecx, &edx)
      || !(ecx & bit_SSSE3) || !(ecx & bit_SSE4_1))
    return 0;
  if (!__get_cpuid_count (7, 0, &eax, &ebx, &ecx, &edx))
    return 0;
  return !!(ebx & bit_SHA);
}

/* True when the processor has the SHA extensions, SSSE3 and SSE4.1.
 * Probed once per file that includes this: CPUID traps to the
 * hypervisor in a virtual machine, and the stitched CFB's spec is
 * looked up for every message.  */
static inline int
sha1_shani_cpu_usable (void)
{
  /* 0 not probed yet, 1 not usable, 2 usable.  */
  static _Atomic int probed;
  int p = atomic_load_explicit (&probed, memory_order_relaxed);

  if (!p)
    {
      p = sha1_shani_cpu_probe () ? 2 : 1;
      atomic_store_explicit (&probed, p, memory_order_relaxed);
    }
  return p == 2;
}

/* Four message words from sixteen message BYTES as loaded, in the
 * lanes the schedule wants them.  */
SHA1_SHANI_INLINE __m128i
sha1_shani_message (__m128i bytes)
{
  /* _mm_set_epi8 lists lanes from the highest: byte 15 to lane 0.  */
  const __m128i reverse_bytes = _mm_set_epi8 (0, 1, 2, 3, 4, 5, 6, 7,
                                              8, 9, 10, 11, 12, 13, 14, 15);

  return _mm_shuffle_epi8 (bytes, reverse_bytes);
}

#define SHA1_SHANI_VARIABLES                                            \
  __m128i abcd, e_saved, abcd_saved, prev, e, m0, m1, m2, m3

/* H0 (a) to the highest lane; H4 (e) alone in the highest lane of its
 * own register, where SHA1RNDS4 and SHA1NEXTE take it.  */
#define SHA1_SHANI_LOAD_STATE(state)                                    \
  do                                                                    \
    {                                                                   \
      abcd = _mm_shuffle_epi32                                          \
               (_mm_loadu_si128 ((const __m128i *)(state)), 0x1b);      \
      e_saved = _mm_set_epi32 ((int)(state)[4], 0, 0, 0);               \
    }                                                                   \
  while (0)

#define SHA1_SHANI_STORE_STATE(state)                                   \
  do                                                                    \
    {                                                                   \
      _mm_storeu_si128 ((__m128i *)(state), _mm_shuffle_epi32 (abcd, 0x1b)); \
      (state)[4] = (uint32_t)_mm_extract_epi32 (e_saved, 3);            \
    }                                                                   \
  while (0)

#define SHA1_SHANI_BEGIN_BLOCK (abcd_saved = abcd)

/* e after round 79, plus H4, in one SHA1NEXTE; a..d plus H0..H3.  */
#define SHA1_SHANI_END_BLOCK                                            \
  do                                                                    \
    {                                                                   \
      e_saved = _mm_sha1nexte_epu32 (prev, e_saved);                    \
      abcd = _mm_add_epi32 (abcd, abcd_saved);                          \
    }                                                                   \
  while (0)

/* Four rounds with function and constant set FN (0..3) on schedule
 * words MSG.  PREV keeps a..d from before them, from which SHA1NEXTE
 * derives the next e.  */
#define SHA1_SHANI_FOUR_ROUNDS(fn, msg)                                 \
  do                                                                    \
    {                                                                   \
      e = _mm_sha1nexte_epu32 (prev, (msg));                            \
      prev = abcd;                                                      \
      abcd = _mm_sha1rnds4_epu32 (abcd, e, (fn));                       \
    }                                                                   \
  while (0)

/* The next four schedule words into M0, from the sixteen in M0 (the
 * oldest) to M3 (the newest), then four rounds on them.  */
#define SHA1_SHANI_SCHEDULE_FOUR_ROUNDS(fn, m0, m1, m2, m3)             \
  do                                                                    \
    {                                                                   \
      m0 = _mm_sha1msg2_epu32                                           \
             (_mm_xor_si128 (_mm_sha1msg1_epu32 (m0, m1), m2), m3);     \
      SHA1_SHANI_FOUR_ROUNDS (fn, m0);                                  \
    }                                                                   \
  while (0)

/* Rounds 0-3: e comes from the hash value, not from SHA1NEXTE.  */
#define SHA1_SHANI_STEP_0                                               \
  do                                                                    \
    {                                                                   \
      e = _mm_add_epi32 (e_saved, m0);                                  \
      prev = abcd;                                                      \
      abcd = _mm_sha1rnds4_epu32 (abcd, e, 0);                          \
    }                                                                   \
  while (0)
#define SHA1_SHANI_STEP_1 SHA1_SHANI_FOUR_ROUNDS (0, m1)
#define SHA1_SHANI_STEP_2 SHA1_SHANI_FOUR_ROUNDS (0, m2)
#define SHA1_SHANI_STEP_3 SHA1_SHANI_FOUR_ROUNDS (0, m3)
/* Rounds 16-79: the schedule four words ahead of the rounds, the
 * sixteen newest words in m0..m3 used as a ring.  */
#define SHA1_SHANI_STEP_4 SHA1_SHANI_SCHEDULE_FOUR_ROUNDS (0, m0, m1, m2, m3)
#define SHA1_SHANI_STEP_5 SHA1_SHANI_SCHEDULE_FOUR_ROUNDS (1, m1, m2, m3, m0)
#define SHA1_SHANI_STEP_6 SHA1_SHANI_SCHEDULE_FOUR_ROUNDS (1, m2, m3, m0, m1)
#define SHA1_SHANI_STEP_7 SHA1_SHANI_SCHEDULE_FOUR_ROUNDS (1, m3, m0, m1, m2)
#define SHA1_SHANI_STEP_8 SHA1_SHANI_SCHEDULE_FOUR_ROUNDS (1, m0, m1, m2, m3)
#define SHA1_SHANI_STEP_9 SHA1_SHANI_SCHEDULE_FOUR_ROUNDS (1, m1, m2, m3, m0)
#define SHA1_SHANI_STEP_10 SHA1_SHANI_SCHEDULE_FOUR_ROUNDS (2, m2, m3, m0, m1)
#define SHA1_SHANI_STEP_11 SHA1_SHANI_SCHEDULE_FOUR_ROUNDS (2, m3, m0, m1, m2)
#define SHA1_SHANI_STEP_12 SHA1_SHANI_SCHEDULE_FOUR_ROUNDS (2, m0, m1, m2, m3)
#define SHA1_SHANI_STEP_13 SHA1_SHANI_SCHEDULE_FOUR_ROUNDS (2, m1, m2, m3, m0)
#define SHA1_SHANI_STEP_14 SHA1_SHANI_SCHEDULE_FOUR_ROUNDS (2, m2, m3, m0, m1)
#define SHA1_SHANI_STEP_15 SHA1_SHANI_SCHEDULE_FOUR_ROUNDS (3, m3, m0, m1, m2)
#define SHA1_SHANI_STEP_16 SHA1_SHANI_SCHEDULE_FOUR_ROUNDS (3, m0, m1, m2, m3)
#define SHA1_SHANI_STEP_17 SHA1_SHANI_SCHEDULE_FOUR_ROUNDS (3, m1, m2, m3, m0)
#define SHA1_SHANI_STEP_18 SHA1_SHANI_SCHEDULE_FOUR_ROUNDS (3, m2, m3, m0, m1)
#define SHA1_SHANI_STEP_19 SHA1_SHANI_SCHEDULE_FOUR_ROUNDS (3, m3, m0, m1, m2)

/* The sixty-four bytes at P, one SHA-1 block, into M0..M3.  A stitched
 * CFB kernel loads the whole block before it stores any ciphertext,
 * so that it may work in place.  */
#define SHA1_SHANI_LOAD_BLOCK(p)                                        \
  do                                                                    \
    {                                                                   \
      m0 = sha1_shani_message (_mm_loadu_si128 ((const __m128i *)(p))); \
      m1 = sha1_shani_message                                           \
             (_mm_loadu_si128 ((const __m128i *)((p) + 16)));           \
      m2 = sha1_shani_message                                           \
             (_mm_loadu_si128 ((const __m128i *)((p) + 32)));           \
      m3 = sha1_shani_message                                           \
             (_mm_loadu_si128 ((const __m128i *)((p) + 48)));           \
    }                                                                   \
  while (0)

#define SHA1_SHANI_NO_STEP ((void)0)

/* The twenty steps of one SHA-1 block spread over the cipher blocks
 * of the same sixty-four bytes, for a stitched CFB kernel.
 * BLOCK (J, S0, ...) expands to cipher block J with the steps S0, ...
 * placed between its rounds: four 128-bit blocks take five steps
 * each, eight 64-bit blocks three or two (SHA1_SHANI_NO_STEP fills
 * the third place).  */
#define SHA1_SHANI_OVER_4_BLOCKS(block)                                 \
  do                                                                    \
    {                                                                   \
      block (0, SHA1_SHANI_STEP_0, SHA1_SHANI_STEP_1, SHA1_SHANI_STEP_2, \
             SHA1_SHANI_STEP_3, SHA1_SHANI_STEP_4);                     \
      block (1, SHA1_SHANI_STEP_5, SHA1_SHANI_STEP_6, SHA1_SHANI_STEP_7, \
             SHA1_SHANI_STEP_8, SHA1_SHANI_STEP_9);                     \
      block (2, SHA1_SHANI_STEP_10, SHA1_SHANI_STEP_11,                 \
             SHA1_SHANI_STEP_12, SHA1_SHANI_STEP_13, SHA1_SHANI_STEP_14); \
      block (3, SHA1_SHANI_STEP_15, SHA1_SHANI_STEP_16,                 \
             SHA1_SHANI_STEP_17, SHA1_SHANI_STEP_18, SHA1_SHANI_STEP_19); \
    }                                                                   \
  while (0)

#define SHA1_SHANI_OVER_8_BLOCKS(block)                                 \
  do                                                                    \
    {                                                                   \
      block (0, SHA1_SHANI_STEP_0, SHA1_SHANI_STEP_1, SHA1_SHANI_STEP_2); \
      block (1, SHA1_SHANI_STEP_3, SHA1_SHANI_STEP_4, SHA1_SHANI_STEP_5); \
      block (2, SHA1_SHANI_STEP_6, SHA1_SHANI_STEP_7, SHA1_SHANI_STEP_8); \
      block (3, SHA1_SHANI_STEP_9, SHA1_SHANI_STEP_10,                  \
             SHA1_SHANI_STEP_11);                                       \
      block (4, SHA1_SHANI_STEP_12, SHA1_SHANI_STEP_13,                 \
             SHA1_SHANI_NO_STEP);                                       \
      block (5, SHA1_SHANI_STEP_14, SHA1_SHANI_STEP_15,                 \
             SHA1_SHANI_NO_STEP);                                       \
      block (6, SHA1_SHANI_STEP_16, SHA1_SHANI_STEP_17,                 \
             SHA1_SHANI_NO_STEP);                                       \
      block (7, SHA1_SHANI_STEP_18, SHA1_SHANI_STEP_19,                 \
             SHA1_SHANI_NO_STEP);                                       \
    }                                                                   \
  while (0)

/* The body of a stitched CFB encryption kernel (sfcipher.h,
 * sf_cfb_sha1_fn_t) of a cipher with N blocks to 64 bytes (4 or 8):
 * over the function's arguments IN, OUT, NBLOCKS and STATE, each SHA-1
 * block loaded whole, then BLOCK (J, ...) for its N cipher blocks as
 * SHA1_SHANI_OVER_N_BLOCKS places the steps.  The cipher's chaining
 * value is the kernel's own, before and after.  */
#define SHA1_SHANI_CFB_ENC_LOOP(n, block)                               \
  do                                                                    \
    {                                                                   \
      SHA1_SHANI_LOAD_STATE (state);                                    \
      for (; nblocks; nblocks -= (n), in += 64, out += 64)              \
        {                                                               \
          SHA1_SHANI_BEGIN_BLOCK;                                       \
          SHA1_SHANI_LOAD_BLOCK (in);                                   \
          SHA1_SHANI_OVER_ ## n ## _BLOCKS (block);                     \
          SHA1_SHANI_END_BLOCK;                                         \
        }                                                               \
      SHA1_SHANI_STORE_STATE (state);                                   \
    }                                                                   \
  while (0)

/* The sf_cfb_sha1_t of a cipher whose stitched kernel KERNEL
 * encrypts: its decryption has independent blocks to keep the core
 * busy, and gains too little from the hash beside it.  */
#define SHA1_SHANI_CFB_ENC_ENTRY(kernel)                                \
  { .hwf = "shani", .usable = sha1_shani_cpu_usable,                    \
    .enc = (kernel), .dec = NULL }

#endif /* x86-64 or i386 */
#endif /*SF_SHA1_SHANI_ROUNDS_H*/
