/* sha1-shani.c - SHA-1 block function, x86 SHA extensions
 *
 * The SHA-1 compression of FIPS 180-4 6.1.2 with the SHA instructions
 * of x86 processors, through the rounds in sha1-shani-rounds.h (which
 * explains them), shared with the cipher code that interleaves them
 * with its own.  Only the block function is compiled for them (target
 * attribute); sha1.c asks sf_sha1_shani_usable() before choosing it.
 *
 * Where the instructions cannot exist (neither x86-64 nor i386)
 * sf_sha1_shani_usable() reports 0, so the portable SHA-1 is always
 * chosen, and the block function aborts if called at all.
 */
#include <config.h>

#include <stdlib.h>

#include "sha1.h"
#include "sha1-shani-rounds.h"

#if defined(__x86_64__) || defined(__i386__)

int
sf_sha1_shani_usable (void)
{
  return sha1_shani_cpu_usable ();
}

__attribute__ ((target (SHA1_SHANI_ISA))) void
sf_sha1_blocks_shani (uint32_t state[5], const unsigned char *data,
                      size_t nblocks)
{
  SHA1_SHANI_VARIABLES;

  SHA1_SHANI_LOAD_STATE (state);
  for (; nblocks; nblocks--, data += SF_SHA1_BLOCK_LEN)
    {
      const __m128i *block = (const __m128i *)data;

      SHA1_SHANI_BEGIN_BLOCK;
      m0 = sha1_shani_message (_mm_loadu_si128 (block));
      m1 = sha1_shani_message (_mm_loadu_si128 (block + 1));
      m2 = sha1_shani_message (_mm_loadu_si128 (block + 2));
      m3 = sha1_shani_message (_mm_loadu_si128 (block + 3));
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
  SHA1_SHANI_STORE_STATE (state);
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
