/* encrypt.h - writing a passphrase-protected message (sfenc -c)
 */
#ifndef SFENC_ENCRYPT_H
#define SFENC_ENCRYPT_H

#include <gpg-error.h>

#include "iobuf.h"

/* Encrypt INFILE (stdin when NULL or "-") as the options say, into
 * -o, else as gpg into INFILE.gpg (INFILE.asc with -a), else stdout.  */
gpg_error_t encrypt_file (const char *infile);

/* The input of -c and --store (store.c): stdin, a descriptor or a
 * file, and the name the literal packet gives it.  */
typedef struct encrypt_input
{
  fd_stream_t fd;
  const char *litname;
  int named_file;               /* A file named on the command line.  */
} encrypt_input_t;

/* Open INFILE (stdin when NULL or "-") into IN, its literal name the
 * file's base name, --set-filename's or --for-your-eyes-only's.  */
gpg_error_t encrypt_open_input (encrypt_input_t *in, const char *infile);
void encrypt_close_input (encrypt_input_t *in);

/* Write the literal data packet of IN, compressed or not, into SINK;
 * with --no-literal the bare data.  AS_GPG frames the packets as gpg
 * 2.2 frames them, through zlib as gpg (deflate-serial.h), so that
 * --store writes gpg's bytes.  */
gpg_error_t encrypt_write_plaintext (encrypt_input_t *in, int as_gpg,
                                     sink_fn_t sink, void *sink_ctx);

#endif /*SFENC_ENCRYPT_H*/
