/* store.c - --store: a literal data packet, compressed, not encrypted
 *
 * gpg --store writes what gpg -c encrypts, without the encryption:
 * a compressed packet holding the literal data packet, or the literal
 * packet alone with -z 0, armored with -a.  The packets are framed as
 * gpg 2.2 frames them (encrypt_write_plaintext with AS_GPG: old-format
 * headers, gpg's partial lengths, zlib's one stream), so that with the
 * date fixed (--faked-system-time) the output is gpg's, byte for byte;
 * tests/sfenc-files.bats compares the two.  sfenc -d and gpg -d read
 * it back without a passphrase.
 */
#include <config.h>

#include <stdlib.h>

#include "armor.h"
#include "encrypt.h"
#include "error.h"
#include "outfile.h"
#include "options.h"
#include "store.h"
#include "write-output.h"


/* The body of the output: the packets of IN, framed as gpg frames
 * them.  */
static gpg_error_t
write_packets (void *in, sink_fn_t sink, void *sink_ctx)
{
  return encrypt_write_plaintext (in, 1, sink, sink_ctx);
}


gpg_error_t
store_file (const char *infile)
{
  gpg_error_t err;
  encrypt_input_t in;
  char *outname = NULL;

  err = encrypt_open_input (&in, infile);
  if (err)
    return err;
  err = outfile_name (infile, opt.armor ? ".asc" : ".gpg", &outname);
  if (!err)
    err = outfile_check (outname);
  if (!err)
    err = write_output (outname, opt.armor ? ARMOR_MESSAGE : ARMOR_NONE,
                        write_packets, &in);
  free (outname);
  encrypt_close_input (&in);
  return err;
}
