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


gpg_error_t
enarmor_file (const char *infile)
{
  gpg_error_t err, close_err;
  fd_stream_t in;
  outfile_t out;
  armor_writer_t *aw = NULL;
  char *outname;

  memset (&out, 0, sizeof out);
  err = open_ends (infile, ".asc", &in, &outname);
  if (!err)
    err = outfile_open (&out, outname);
  if (err)
    goto leave;
  err = armor_writer_new (&aw, ARMOR_FILE, fd_sink, &out.stream);
  if (!err)
    err = copy_all (progress_source, &in, armor_writer_sink, aw);
  if (!err)
    err = armor_writer_finish (aw);
  close_err = outfile_close (&out, !err);
  if (!err)
    err = close_err;

 leave:
  armor_writer_release (aw);
  free (outname);
  if (in.fd > 0)
    close (in.fd);
  return err;
}


gpg_error_t
dearmor_file (const char *infile)
{
  gpg_error_t err, close_err;
  fd_stream_t in;
  reader_t raw;
  outfile_t out;
  armor_reader_t *ar = NULL;
  const unsigned char *start = NULL;
  size_t n = 0;
  char *outname;
  int binary;

  memset (&out, 0, sizeof out);
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
  if (!err)
    err = outfile_open (&out, outname);
  if (err)
    goto leave;
  if (binary)
    err = copy_all (reader_source, &raw, fd_sink, &out.stream);
  else
    err = copy_all (armor_reader_source, ar, fd_sink, &out.stream);
  close_err = outfile_close (&out, !err);
  if (!err)
    err = close_err;

 leave:
  armor_reader_release (ar);
  reader_release (&raw);
  free (outname);
  if (in.fd > 0)
    close (in.fd);
  return err;
}
