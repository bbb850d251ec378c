/* compress-bzip2.c - BZIP2 compressed data through libbz2, serially
 *
 * Read as gpg reads it: the first stream of the packet is the data,
 * whatever follows it is ignored.  Checked against GnuPG and rnp in
 * tests/sfenc-bzip2.bats.
 */
#include <config.h>

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bzlib.h>

#include "packet.h"
#include "error.h"
#include "iobuf.h"
#include "compress-bzip2.h"

/* The largest piece handed to libbz2 at once: its counts are
 * unsigned int.  */
#define BZ_PIECE_MAX ((size_t)UINT_MAX)

struct bzip2_reader
{
  bz_stream bs;
  source_fn_t source;
  void *source_ctx;
  int input_eof;
  int done;                     /* The stream ended; bs is released.  */
  unsigned char inbuf[CHUNK_SIZE];
};


gpg_error_t
bzip2_reader_new (bzip2_reader_t **r_br, source_fn_t source,
                  void *source_ctx)
{
  bzip2_reader_t *br;
  int rc;

  *r_br = NULL;
  br = calloc (1, sizeof *br);
  if (!br)
    return fail (gpg_error_from_syserror (), "out of core", NULL);
  br->source = source;
  br->source_ctx = source_ctx;
  rc = BZ2_bzDecompressInit (&br->bs, 0, 0);
  if (rc != BZ_OK)
    {
      free (br);
      return fail (gpg_error (rc == BZ_MEM_ERROR ? GPG_ERR_ENOMEM
                              : GPG_ERR_COMPR_ALGO), "decryption failed",
                   "libbz2 BZ2_bzDecompressInit failed (%d)", rc);
    }
  *r_br = br;
  return 0;
}


gpg_error_t
bzip2_decompress_error (int rc)
{
  switch (rc)
    {
    case BZ_DATA_ERROR_MAGIC:
      return fail (gpg_error (GPG_ERR_BAD_DATA), "decryption failed",
                   "invalid compressed data (not a bzip2 stream)");
    case BZ_DATA_ERROR:
      return fail (gpg_error (GPG_ERR_BAD_DATA), "decryption failed",
                   "invalid compressed data (bzip2 data corrupted)");
    case BZ_MEM_ERROR:
      return fail (gpg_error (GPG_ERR_ENOMEM), "decryption failed",
                   "out of core for the bzip2 block size");
    default:
      return fail (gpg_error (GPG_ERR_INTERNAL), "decryption failed",
                   "libbz2 BZ2_bzDecompress failed (%d)", rc);
    }
}


gpg_error_t
bzip2_reader_read (void *ctx, unsigned char *buf, size_t size,
                   size_t *nread)
{
  bzip2_reader_t *br = ctx;
  gpg_error_t err;
  size_t n, room = size < BZ_PIECE_MAX ? size : BZ_PIECE_MAX;
  int rc;

  *nread = 0;
  if (br->done || !size)
    return 0;
  br->bs.next_out = (char *)buf;
  br->bs.avail_out = room;
  while (br->bs.avail_out == room)
    {
      if (!br->bs.avail_in && !br->input_eof)
        {
          err = br->source (br->source_ctx, br->inbuf, sizeof br->inbuf, &n);
          if (err)
            return err;
          br->input_eof = !n;
          br->bs.next_in = (char *)br->inbuf;
          br->bs.avail_in = n;
        }
      rc = BZ2_bzDecompress (&br->bs);
      if (rc == BZ_STREAM_END)
        {
          /* The block arrays (3.6 MiB at level 9) go now, not when
           * the message ends: a layer nested inside still runs.  */
          BZ2_bzDecompressEnd (&br->bs);
          br->done = 1;
          break;
        }
      if (rc != BZ_OK)
        return bzip2_decompress_error (rc);
      /* Without input left, no output means no end will come.  */
      if (br->input_eof && !br->bs.avail_in && br->bs.avail_out == room)
        return fail (gpg_error (GPG_ERR_TRUNCATED), "decryption failed",
                     "compressed data truncated");
    }
  *nread = room - br->bs.avail_out;
  return 0;
}


void
bzip2_reader_release (bzip2_reader_t *br)
{
  if (!br)
    return;
  if (!br->done)
    BZ2_bzDecompressEnd (&br->bs);
  free (br);
}


const char *
bzip2_library_version (void)
{
  static char version[32];
  const char *full = BZ2_bzlibVersion ();

  /* "1.0.8, 13-Jul-2019": the version is what comes before the comma.  */
  snprintf (version, sizeof version, "%.*s", (int)strcspn (full, ","), full);
  return version;
}
