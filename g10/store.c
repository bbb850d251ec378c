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
#include <string.h>

#include "armor.h"
#include "encrypt.h"
#include "error.h"
#include "outfile.h"
#include "options.h"
#include "store.h"


gpg_error_t
store_file (const char *infile)
{
  gpg_error_t err, close_err;
  encrypt_input_t in;
  outfile_t out;
  armor_writer_t *aw = NULL;
  char *outname = NULL;

  memset (&out, 0, sizeof out);
  err = encrypt_open_input (&in, infile);
  if (err)
    return err;
  err = outfile_name (infile, opt.armor ? ".asc" : ".gpg", &outname);
  if (!err)
    err = outfile_check (outname);
  if (!err)
    err = outfile_open (&out, outname);
  if (err)
    goto leave;
  if (opt.armor)
    err = armor_writer_new (&aw, ARMOR_MESSAGE, fd_sink, &out.stream);
  if (!err)
    err = encrypt_write_plaintext (&in, 1, aw ? armor_writer_sink : fd_sink,
                                   aw ? (void *)aw : (void *)&out.stream);
  if (!err && aw)
    err = armor_writer_finish (aw);
  close_err = outfile_close (&out, !err);
  if (!err)
    err = close_err;

 leave:
  armor_writer_release (aw);
  free (outname);
  encrypt_close_input (&in);
  return err;
}
