/* sha1-armce.c - SHA-1 block function, ARMv8 Cryptography Extensions
 *
 * The SHA-1 compression of FIPS 180-4 6.1.2 with the SHA-1
 * instructions of ARMv8-A, through the rounds in sha1-armce-rounds.h
 * (which explains them), shared with the cipher code that interleaves
 * them with its own.  Only the block function is compiled for them
 * (target attribute); sha1.c asks sf_sha1_armce_usable() before
 * choosing it.
 *
 * Where the instructions cannot be used (not little-endian AArch64,
 * or a compiler that cannot enable them per function)
 * sf_sha1_armce_usable() reports 0, so another SHA-1 is always
 * chosen, and the block function aborts if called at all.
 */
#include <config.h>

#include <stdlib.h>

#include "sha1.h"
#include "sha1-armce-rounds.h"

#ifdef SHA1_ARMCE_AVAILABLE

int
sf_sha1_armce_usable (void)
{
  return sha1_armce_cpu_usable ();
}

SHA1_ARMCE_TARGET void
sf_sha1_blocks_armce (uint32_t state[5], const unsigned char *data,
                      size_t nblocks)
{
  SHA1_ARMCE_VARIABLES;

  SHA1_ARMCE_LOAD_STATE (state);
  for (; nblocks; nblocks--, data += SF_SHA1_BLOCK_LEN)
    {
      SHA1_ARMCE_BEGIN_BLOCK;
      SHA1_ARMCE_LOAD_BLOCK (data);
      SHA1_ARMCE_ALL_STEPS;
      SHA1_ARMCE_END_BLOCK;
    }
  SHA1_ARMCE_STORE_STATE (state);
}

#else /* !SHA1_ARMCE_AVAILABLE */

/* No SHA-1 instructions: never usable, so never called.  */

int
sf_sha1_armce_usable (void)
{
  return 0;
}

/* Unreachable; stop rather than return a wrong hash.  */
void
sf_sha1_blocks_armce (uint32_t state[5], const unsigned char *data,
                      size_t nblocks)
{
  (void)state;
  (void)data;
  (void)nblocks;
  abort ();
}

#endif /* !SHA1_ARMCE_AVAILABLE */
