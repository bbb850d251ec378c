/* fuzz-armor.c - the ASCII armor decoder (g10/armor.c)
 *
 * Input: anything that does not start with a packet tag, as sfenc -d
 * hands to the armor reader; the decoded bytes are read to the end.
 */
#include <config.h>

#include "fuzz.h"
#include "armor.h"


int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  fuzz_source_t src;
  reader_t in, decoded;
  armor_reader_t *ar = NULL;
  gpg_error_t err;

  fuzz_start ();
  /* decrypt.c reads input with the top bit of its first byte set as
   * packets, never as armor.  */
  if (size && (data[0] & 0x80))
    return 0;
  fuzz_source_init (&src, data, size);
  err = reader_init (&in, fuzz_source_read, &src);
  if (!err)
    err = armor_reader_new (&ar, &in);
  if (!err)
    err = reader_init (&decoded, armor_reader_source, ar);
  if (!err)
    {
      fuzz_drain (&decoded, SIZE_MAX);
      reader_release (&decoded);
    }
  armor_reader_release (ar);
  reader_release (&in);
  fuzz_forget_error ();
  return 0;
}
