/* dearmor.c - --enarmor and --dearmor: armor as a command of its own
 *
 * gpg's two commands that armor any data or take the armor off, with
 * no packet looked at: --enarmor writes a "PGP ARMORED FILE" block
 * with gpg's comment on how to unpack it, --dearmor writes the data of
 * the first armored block of any kind gpg reads (and of the blocks
 * that follow it, as armor.c reads them); data that starts as binary
 * OpenPGP data by gpg's rule (armor_is_binary_start) is passed on
 * unchanged, as gpg passes it.  Without -o the output of FILE is
 * FILE.asc and FILE.gpg, as gpg names them; of stdin, stdout.
 * The output is byte for byte gpg's (tests/sfenc-armorfiles.bats).
 */
#include <config.h>

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "armor.h"
#include "dearmor.h"
#include "error.h"
#include "iobuf.h"
#include "outfile.h"
#include "packet.h"
#include "progress.h"
#include "special-filename.h"
#include "status.h"
#include "write-output.h"


/* Copy what SOURCE with SOURCE_CTX gives to SINK with SINK_CTX.  */
static gpg_error_t
copy_all (source_fn_t source, void *source_ctx, sink_fn_t sink,
          void *sink_ctx)
{
  gpg_error_t err;
  unsigned char *buf;
  size_t n;

  buf = malloc (CHUNK_SIZE);
  if (!buf)
    return fail (gpg_error_from_syserror (), "out of core", NULL);
  do
    {
      err = source (source_ctx, buf, CHUNK_SIZE, &n);
      if (!err && n)
        err = sink (sink_ctx, buf, n);
    }
  while (!err && n);
  free (buf);
  return err;
}


/* Open INFILE into *IN and the name of its output, with SUFFIX when
 * it is derived from INFILE's, into *R_OUTNAME; refuse an existing
 * output early.  */
static gpg_error_t
open_ends (const char *infile, const char *suffix, fd_stream_t *in,
           char **r_outname)
{
  gpg_error_t err;

  *r_outname = NULL;
  err = open_input (infile, in);
  if (err)
    return err;
  progress_start (in->fd, in->name);
  err = outfile_name (infile, suffix, r_outname);
  if (!err)
    err = outfile_check (*r_outname);
  return err;
}


/* What a body copies: SOURCE with SOURCE_CTX.  */
struct copy_body
{
  source_fn_t source;
  void *source_ctx;
};


/* The body of the output: all that the copy_body CTX reads.  */
static gpg_error_t
write_copy (void *ctx, sink_fn_t sink, void *sink_ctx)
{
  struct copy_body *body = ctx;

  return copy_all (body->source, body->source_ctx, sink, sink_ctx);
}


gpg_error_t
enarmor_file (const char *infile)
{
  gpg_error_t err;
  fd_stream_t in;
  struct copy_body body = { progress_source, &in };
  char *outname;

  err = open_ends (infile, ".asc", &in, &outname);
  if (!err)
    err = write_output (outname, ARMOR_FILE, write_copy, &body);
  free (outname);
  if (in.fd > 0)
    close (in.fd);
  return err;
}


gpg_error_t
dearmor_file (const char *infile)
{
  gpg_error_t err;
  fd_stream_t in;
  reader_t raw;
  armor_reader_t *ar = NULL;
  struct copy_body body = { reader_source, &raw };
  const unsigned char *start = NULL;
  size_t n = 0;
  char *outname;
  int binary;

  memset (&raw, 0, sizeof raw);
  err = open_ends (infile, ".gpg", &in, &outname);
  if (!err)
    err = reader_init (&raw, progress_source, &in);
  if (!err)
    err = reader_peek_bytes (&raw, 2, &start, &n);
  binary = !err && armor_is_binary_start (start, n);
  if (!err && !binary)
    err = armor_reader_new (&ar, &raw);
  if (gpg_err_code (err) == GPG_ERR_NO_DATA)
    {
      status_no_armored_data ();
      err = fail (err, "dearmoring failed", "no valid OpenPGP data found");
    }
  if (!binary)
    body = (struct copy_body){ armor_reader_source, ar };
  if (!err)
    err = write_output (outname, ARMOR_NONE, write_copy, &body);
  armor_reader_release (ar);
  reader_release (&raw);
  free (outname);
  if (in.fd > 0)
    close (in.fd);
  return err;
}
