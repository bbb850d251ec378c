/* sha1-armce-rounds.h - SHA-1 rounds on the ARMv8 Cryptography Extensions
 *
 * The SHA-1 compression of FIPS 180-4 6.1.2 with the SHA-1
 * instructions of ARMv8-A (the Cryptography Extensions, Arm ARM
 * A64 "SHA1C" and neighbours), through the ACLE intrinsics of
 * <arm_neon.h>, as macros and inline functions, for sha1-armce.c and
 * for cipher code that interleaves the hash with its own instructions
 * (the stitched CFB kernel of rijndael-armce.c).  Header-only, so that
 * a module built from such code as a shared object stays
 * self-contained.  The counterpart of sha1-shani-rounds.h, with the
 * same shape of interface.  Not installed.
 *
 * Code using it is compiled with SHA1_ARMCE_TARGET (the program as a
 * whole stays generic ARMv8-A) and runs only when
 * sha1_armce_cpu_usable() says so.  It exists only where
 * SHA1_ARMCE_AVAILABLE is defined: little-endian AArch64, with a
 * compiler whose intrinsics can be enabled per function (GCC), or
 * with the extension enabled for the whole build.
 *
 * The instructions work on four 32-bit words with the first one in
 * the lowest lane, which is memory order: a, b, c, d in one vector,
 * e in a general register, the message schedule four words W_t..
 * W_(t+3) at a time.
 *   SHA1C, SHA1P, SHA1M  four rounds with f = Ch, Parity or Maj; the
 *                        third operand holds W_t + K_t for each;
 *   SHA1H                rol30 of a, which four rounds later is e;
 *   SHA1SU0, SHA1SU1     the schedule W_t = rol1(W_(t-3) ^ W_(t-8) ^
 *                        W_(t-14) ^ W_(t-16)) for four words from the
 *                        previous sixteen.
 * The message words are big-endian: REV32 on the loaded bytes makes
 * them host integers, the first word in the lowest lane.
 *
 * The macros work on variables of the function using them, declared
 * with SHA1_ARMCE_VARIABLES: ABCD and E_SAVED carry the hash value
 * from block to block; M0..M3 hold the block's sixteen message words
 * (sha1_armce_message) and then the schedule, as a ring.  One block
 * is SHA1_ARMCE_BEGIN_BLOCK, the twenty steps SHA1_ARMCE_STEP_0 ..
 * SHA1_ARMCE_STEP_19 in this order (four rounds each), and
 * SHA1_ARMCE_END_BLOCK.  A step needs only M0..M3 as loaded and the
 * steps before it, so other work may go between steps; a stitched
 * CFB kernel places them with SHA1_ARMCE_CFB_ENC_LOOP
 * (SHA1_ARMCE_LOAD_BLOCK, then SHA1_ARMCE_OVER_4_BLOCKS or
 * SHA1_ARMCE_OVER_8_BLOCKS).  The variables are six vectors and three
 * 32-bit words: alone (sha1-armce.c) they leave nothing of
 * the message on the stack to be wiped (GCC 12 uses none), and as with
 * SHA-NI the registers themselves are not wiped.  A kernel keeping
 * many more vectors live (round keys, several blocks) should check
 * that its compiler does not spill them.
 */
#ifndef SF_SHA1_ARMCE_ROUNDS_H
#define SF_SHA1_ARMCE_ROUNDS_H

/* Clang before 16 declares the intrinsics only when the whole
 * translation unit targets the extension.  */
#if defined(__aarch64__) && defined(__AARCH64EL__)                      \
  && (!defined(__clang__) || defined(__ARM_FEATURE_CRYPTO))

#define SHA1_ARMCE_AVAILABLE 1

#include <stdint.h>
#include <arm_neon.h>
#ifdef __linux__
#include <sys/auxv.h>
#include <asm/hwcap.h>
#endif

/* GCC 12 has the SHA and AES intrinsics behind one "crypto" flag;
 * clang names the feature without the plus.  The AES kernels use the
 * same target, so that one function may hold both.  */
#ifdef __clang__
#define SHA1_ARMCE_ISA "crypto"
#else
#define SHA1_ARMCE_ISA "+crypto"
#endif
#define SHA1_ARMCE_TARGET __attribute__ ((target (SHA1_ARMCE_ISA)))
#define SHA1_ARMCE_INLINE                                               \
  static inline __attribute__ ((always_inline)) SHA1_ARMCE_TARGET

/* True when the processor has Advanced SIMD and the SHA-1
 * instructions, as the kernel reports them.  */
static inline int
sha1_armce_cpu_usable (void)
{
#ifdef __linux__
  unsigned long hwcap = getauxval (AT_HWCAP);

  return (hwcap & HWCAP_ASIMD) && (hwcap & HWCAP_SHA1);
#else
  return 0;
#endif
}

/* Four message words from sixteen message BYTES as loaded.  */
SHA1_ARMCE_INLINE uint32x4_t
sha1_armce_message (uint8x16_t bytes)
{
  return vreinterpretq_u32_u8 (vrev32q_u8 (bytes));
}

#define SHA1_ARMCE_VARIABLES                                            \
  uint32x4_t abcd, abcd_saved, m0, m1, m2, m3;                          \
  uint32_t e, e_next, e_saved

#define SHA1_ARMCE_LOAD_STATE(state)                                    \
  do                                                                    \
    {                                                                   \
      abcd = vld1q_u32 (state);                                         \
      e_saved = (state)[4];                                             \
    }                                                                   \
  while (0)

#define SHA1_ARMCE_STORE_STATE(state)                                   \
  do                                                                    \
    {                                                                   \
      vst1q_u32 ((state), abcd);                                        \
      (state)[4] = e_saved;                                             \
    }                                                                   \
  while (0)

#define SHA1_ARMCE_BEGIN_BLOCK                                          \
  do                                                                    \
    {                                                                   \
      abcd_saved = abcd;                                                \
      e = e_saved;                                                      \
    }                                                                   \
  while (0)

#define SHA1_ARMCE_END_BLOCK                                            \
  do                                                                    \
    {                                                                   \
      e_saved += e;                                                     \
      abcd = vaddq_u32 (abcd, abcd_saved);                              \
    }                                                                   \
  while (0)

/* FIPS 180-4 4.2.1.  */
#define SHA1_ARMCE_K0 0x5a827999
#define SHA1_ARMCE_K1 0x6ed9eba1
#define SHA1_ARMCE_K2 0x8f1bbcdc
#define SHA1_ARMCE_K3 0xca62c1d6

/* Four rounds with the instruction OP (vsha1cq_u32, vsha1pq_u32 or
 * vsha1mq_u32) and constant K on schedule words MSG.  The e of the
 * next four rounds is a of these rotated, taken before they change
 * it.  */
#define SHA1_ARMCE_FOUR_ROUNDS(op, k, msg)                              \
  do                                                                    \
    {                                                                   \
      e_next = vsha1h_u32 (vgetq_lane_u32 (abcd, 0));                   \
      abcd = op (abcd, e, vaddq_u32 ((msg), vdupq_n_u32 (k)));          \
      e = e_next;                                                       \
    }                                                                   \
  while (0)

/* The next four schedule words into M0, from the sixteen in M0 (the
 * oldest) to M3 (the newest), then four rounds on them.  */
#define SHA1_ARMCE_SCHEDULE_FOUR_ROUNDS(op, k, m0, m1, m2, m3)          \
  do                                                                    \
    {                                                                   \
      m0 = vsha1su1q_u32 (vsha1su0q_u32 (m0, m1, m2), m3);              \
      SHA1_ARMCE_FOUR_ROUNDS (op, k, m0);                               \
    }                                                                   \
  while (0)

#define SHA1_ARMCE_STEP_0                                               \
  SHA1_ARMCE_FOUR_ROUNDS (vsha1cq_u32, SHA1_ARMCE_K0, m0)
#define SHA1_ARMCE_STEP_1                                               \
  SHA1_ARMCE_FOUR_ROUNDS (vsha1cq_u32, SHA1_ARMCE_K0, m1)
#define SHA1_ARMCE_STEP_2                                               \
  SHA1_ARMCE_FOUR_ROUNDS (vsha1cq_u32, SHA1_ARMCE_K0, m2)
#define SHA1_ARMCE_STEP_3                                               \
  SHA1_ARMCE_FOUR_ROUNDS (vsha1cq_u32, SHA1_ARMCE_K0, m3)
/* Rounds 16-79: the schedule four words ahead of the rounds, the
 * sixteen newest words in m0..m3 used as a ring.  */
#define SHA1_ARMCE_STEP_4                                               \
  SHA1_ARMCE_SCHEDULE_FOUR_ROUNDS (vsha1cq_u32, SHA1_ARMCE_K0, m0, m1, m2, m3)
#define SHA1_ARMCE_STEP_5                                               \
  SHA1_ARMCE_SCHEDULE_FOUR_ROUNDS (vsha1pq_u32, SHA1_ARMCE_K1, m1, m2, m3, m0)
#define SHA1_ARMCE_STEP_6                                               \
  SHA1_ARMCE_SCHEDULE_FOUR_ROUNDS (vsha1pq_u32, SHA1_ARMCE_K1, m2, m3, m0, m1)
#define SHA1_ARMCE_STEP_7                                               \
  SHA1_ARMCE_SCHEDULE_FOUR_ROUNDS (vsha1pq_u32, SHA1_ARMCE_K1, m3, m0, m1, m2)
#define SHA1_ARMCE_STEP_8                                               \
  SHA1_ARMCE_SCHEDULE_FOUR_ROUNDS (vsha1pq_u32, SHA1_ARMCE_K1, m0, m1, m2, m3)
#define SHA1_ARMCE_STEP_9                                               \
  SHA1_ARMCE_SCHEDULE_FOUR_ROUNDS (vsha1pq_u32, SHA1_ARMCE_K1, m1, m2, m3, m0)
#define SHA1_ARMCE_STEP_10                                              \
  SHA1_ARMCE_SCHEDULE_FOUR_ROUNDS (vsha1mq_u32, SHA1_ARMCE_K2, m2, m3, m0, m1)
#define SHA1_ARMCE_STEP_11                                              \
  SHA1_ARMCE_SCHEDULE_FOUR_ROUNDS (vsha1mq_u32, SHA1_ARMCE_K2, m3, m0, m1, m2)
#define SHA1_ARMCE_STEP_12                                              \
  SHA1_ARMCE_SCHEDULE_FOUR_ROUNDS (vsha1mq_u32, SHA1_ARMCE_K2, m0, m1, m2, m3)
#define SHA1_ARMCE_STEP_13                                              \
  SHA1_ARMCE_SCHEDULE_FOUR_ROUNDS (vsha1mq_u32, SHA1_ARMCE_K2, m1, m2, m3, m0)
#define SHA1_ARMCE_STEP_14                                              \
  SHA1_ARMCE_SCHEDULE_FOUR_ROUNDS (vsha1mq_u32, SHA1_ARMCE_K2, m2, m3, m0, m1)
#define SHA1_ARMCE_STEP_15                                              \
  SHA1_ARMCE_SCHEDULE_FOUR_ROUNDS (vsha1pq_u32, SHA1_ARMCE_K3, m3, m0, m1, m2)
#define SHA1_ARMCE_STEP_16                                              \
  SHA1_ARMCE_SCHEDULE_FOUR_ROUNDS (vsha1pq_u32, SHA1_ARMCE_K3, m0, m1, m2, m3)
#define SHA1_ARMCE_STEP_17                                              \
  SHA1_ARMCE_SCHEDULE_FOUR_ROUNDS (vsha1pq_u32, SHA1_ARMCE_K3, m1, m2, m3, m0)
#define SHA1_ARMCE_STEP_18                                              \
  SHA1_ARMCE_SCHEDULE_FOUR_ROUNDS (vsha1pq_u32, SHA1_ARMCE_K3, m2, m3, m0, m1)
#define SHA1_ARMCE_STEP_19                                              \
  SHA1_ARMCE_SCHEDULE_FOUR_ROUNDS (vsha1pq_u32, SHA1_ARMCE_K3, m3, m0, m1, m2)

/* The twenty steps of one block in order, for code that places
 * nothing between them.  */
#define SHA1_ARMCE_ALL_STEPS                                            \
  SHA1_ARMCE_STEP_0;                                                    \
  SHA1_ARMCE_STEP_1;                                                    \
  SHA1_ARMCE_STEP_2;                                                    \
  SHA1_ARMCE_STEP_3;                                                    \
  SHA1_ARMCE_STEP_4;                                                    \
  SHA1_ARMCE_STEP_5;                                                    \
  SHA1_ARMCE_STEP_6;                                                    \
  SHA1_ARMCE_STEP_7;                                                    \
  SHA1_ARMCE_STEP_8;                                                    \
  SHA1_ARMCE_STEP_9;                                                    \
  SHA1_ARMCE_STEP_10;                                                   \
  SHA1_ARMCE_STEP_11;                                                   \
  SHA1_ARMCE_STEP_12;                                                   \
  SHA1_ARMCE_STEP_13;                                                   \
  SHA1_ARMCE_STEP_14;                                                   \
  SHA1_ARMCE_STEP_15;                                                   \
  SHA1_ARMCE_STEP_16;                                                   \
  SHA1_ARMCE_STEP_17;                                                   \
  SHA1_ARMCE_STEP_18;                                                   \
  SHA1_ARMCE_STEP_19

/* The sixty-four bytes at P, one SHA-1 block, into M0..M3.  A stitched
 * CFB kernel loads the whole block before it stores any ciphertext,
 * so that it may work in place.  */
#define SHA1_ARMCE_LOAD_BLOCK(p)                                        \
  do                                                                    \
    {                                                                   \
      m0 = sha1_armce_message (vld1q_u8 (p));                           \
      m1 = sha1_armce_message (vld1q_u8 ((p) + 16));                    \
      m2 = sha1_armce_message (vld1q_u8 ((p) + 32));                    \
      m3 = sha1_armce_message (vld1q_u8 ((p) + 48));                    \
    }                                                                   \
  while (0)

#define SHA1_ARMCE_NO_STEP ((void)0)

/* The twenty steps of one SHA-1 block spread over the cipher blocks
 * of the same sixty-four bytes, for a stitched CFB kernel.
 * BLOCK (J, S0, ...) expands to cipher block J with the steps S0, ...
 * placed between its rounds: four 128-bit blocks take five steps
 * each, eight 64-bit blocks three or two (SHA1_ARMCE_NO_STEP fills
 * the third place).  */
#define SHA1_ARMCE_OVER_4_BLOCKS(block)                                 \
  do                                                                    \
    {                                                                   \
      block (0, SHA1_ARMCE_STEP_0, SHA1_ARMCE_STEP_1, SHA1_ARMCE_STEP_2, \
             SHA1_ARMCE_STEP_3, SHA1_ARMCE_STEP_4);                     \
      block (1, SHA1_ARMCE_STEP_5, SHA1_ARMCE_STEP_6, SHA1_ARMCE_STEP_7, \
             SHA1_ARMCE_STEP_8, SHA1_ARMCE_STEP_9);                     \
      block (2, SHA1_ARMCE_STEP_10, SHA1_ARMCE_STEP_11,                 \
             SHA1_ARMCE_STEP_12, SHA1_ARMCE_STEP_13, SHA1_ARMCE_STEP_14); \
      block (3, SHA1_ARMCE_STEP_15, SHA1_ARMCE_STEP_16,                 \
             SHA1_ARMCE_STEP_17, SHA1_ARMCE_STEP_18, SHA1_ARMCE_STEP_19); \
    }                                                                   \
  while (0)

#define SHA1_ARMCE_OVER_8_BLOCKS(block)                                 \
  do                                                                    \
    {                                                                   \
      block (0, SHA1_ARMCE_STEP_0, SHA1_ARMCE_STEP_1, SHA1_ARMCE_STEP_2); \
      block (1, SHA1_ARMCE_STEP_3, SHA1_ARMCE_STEP_4, SHA1_ARMCE_STEP_5); \
      block (2, SHA1_ARMCE_STEP_6, SHA1_ARMCE_STEP_7, SHA1_ARMCE_STEP_8); \
      block (3, SHA1_ARMCE_STEP_9, SHA1_ARMCE_STEP_10,                  \
             SHA1_ARMCE_STEP_11);                                       \
      block (4, SHA1_ARMCE_STEP_12, SHA1_ARMCE_STEP_13,                 \
             SHA1_ARMCE_NO_STEP);                                       \
      block (5, SHA1_ARMCE_STEP_14, SHA1_ARMCE_STEP_15,                 \
             SHA1_ARMCE_NO_STEP);                                       \
      block (6, SHA1_ARMCE_STEP_16, SHA1_ARMCE_STEP_17,                 \
             SHA1_ARMCE_NO_STEP);                                       \
      block (7, SHA1_ARMCE_STEP_18, SHA1_ARMCE_STEP_19,                 \
             SHA1_ARMCE_NO_STEP);                                       \
    }                                                                   \
  while (0)

/* The body of a stitched CFB encryption kernel (sfcipher.h,
 * sf_cfb_sha1_fn_t) of a cipher with N blocks to 64 bytes (4 or 8):
 * over the function's arguments IN, OUT, NBLOCKS and STATE, each SHA-1
 * block loaded whole, then BLOCK (J, ...) for its N cipher blocks as
 * SHA1_ARMCE_OVER_N_BLOCKS places the steps.  The cipher's chaining
 * value is the kernel's own, before and after.  */
#define SHA1_ARMCE_CFB_ENC_LOOP(n, block)                               \
  do                                                                    \
    {                                                                   \
      SHA1_ARMCE_LOAD_STATE (state);                                    \
      for (; nblocks; nblocks -= (n), in += 64, out += 64)              \
        {                                                               \
          SHA1_ARMCE_BEGIN_BLOCK;                                       \
          SHA1_ARMCE_LOAD_BLOCK (in);                                   \
          SHA1_ARMCE_OVER_ ## n ## _BLOCKS (block);                     \
          SHA1_ARMCE_END_BLOCK;                                         \
        }                                                               \
      SHA1_ARMCE_STORE_STATE (state);                                   \
    }                                                                   \
  while (0)

/* The sf_cfb_sha1_t of a cipher whose stitched kernel KERNEL
 * encrypts: its decryption has independent blocks to keep the core
 * busy, and gains too little from the hash beside it.  */
#define SHA1_ARMCE_CFB_ENC_ENTRY(kernel)                                \
  { .hwf = "arm-sha1", .usable = sha1_armce_cpu_usable,                 \
    .enc = (kernel), .dec = NULL }

#endif /* Little-endian AArch64 with the intrinsics.  */
#endif /*SF_SHA1_ARMCE_ROUNDS_H*/
