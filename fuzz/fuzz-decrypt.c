/* fuzz-decrypt.c - the whole of sfenc -d
 *
 * Input: a message, binary or armored, as sfenc -d reads it on its
 * standard input, decrypted with FUZZ_PASSPHRASE to /dev/null.  The
 * seed corpus holds messages of gpg, rnp and sfenc under that
 * passphrase, with cheap S2K settings so that most inputs get past
 * the key derivation quickly.
 */
#include <config.h>

#include "fuzz.h"


int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  fuzz_start ();
  fuzz_decrypt (data, size);
  return 0;
}
