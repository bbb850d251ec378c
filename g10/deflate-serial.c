/* deflate-serial.c - one deflate stream on one thread, as gpg writes it
 */
#include <config.h>

#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "packet.h"
#include "deflate-serial.h"
#include "error.h"

/* gpg's ZIP window, 2^13 bytes, and zlib's memory level.  */
#define ZIP_WINDOW_BITS 13
#define MEM_LEVEL 8

/* Output passed on at a time.  */
#define OUT_SIZE ((size_t)64 * 1024)

struct deflate_serial
{
  z_stream zs;
  int ready;                    /* ZS was initialised.  */
  sink_fn_t sink;
  void *sink_ctx;
  unsigned char out[OUT_SIZE];
};


gpg_error_t
deflate_serial_new (deflate_serial_t **r_ds, int algo, int level,
                    sink_fn_t sink, void *sink_ctx)
{
  deflate_serial_t *ds;
  int window_bits = algo == COMPRESS_ZIP ? -ZIP_WINDOW_BITS : MAX_WBITS;

  *r_ds = NULL;
  ds = calloc (1, sizeof *ds);
  if (!ds)
    return fail (gpg_error_from_syserror (), "out of core", NULL);
  *r_ds = ds;
  ds->sink = sink;
  ds->sink_ctx = sink_ctx;
  if (deflateInit2 (&ds->zs, level, Z_DEFLATED, window_bits, MEM_LEVEL,
                    Z_DEFAULT_STRATEGY) != Z_OK)
    return fail (gpg_error (GPG_ERR_COMPR_ALGO), "compression",
                 "zlib: %s", ds->zs.msg ? ds->zs.msg : "cannot start");
  ds->ready = 1;
  return 0;
}


/* Run deflate with FLUSH over the pending input, passing each full
 * output buffer on, until zlib wants more input or, with Z_FINISH,
 * the stream has ended.  */
static gpg_error_t
run_deflate (deflate_serial_t *ds, int flush)
{
  gpg_error_t err;
  int rc;

  do
    {
      ds->zs.next_out = ds->out;
      ds->zs.avail_out = OUT_SIZE;
      rc = deflate (&ds->zs, flush);
      if (rc != Z_OK && rc != Z_STREAM_END && rc != Z_BUF_ERROR)
        return fail (gpg_error (GPG_ERR_COMPR_ALGO), "compression",
                     "zlib: %s", ds->zs.msg ? ds->zs.msg : "error");
      if (ds->zs.avail_out < OUT_SIZE
          && (err = ds->sink (ds->sink_ctx, ds->out,
                              OUT_SIZE - ds->zs.avail_out)))
        return err;
    }
  while (flush == Z_FINISH ? rc != Z_STREAM_END : !ds->zs.avail_out);
  return 0;
}


gpg_error_t
deflate_serial_write (void *ctx, const unsigned char *buf, size_t len)
{
  deflate_serial_t *ds = ctx;

  ds->zs.next_in = (unsigned char *)buf;
  ds->zs.avail_in = len;
  return run_deflate (ds, Z_NO_FLUSH);
}


gpg_error_t
deflate_serial_finish (deflate_serial_t *ds)
{
  return run_deflate (ds, Z_FINISH);
}


void
deflate_serial_release (deflate_serial_t *ds)
{
  if (!ds)
    return;
  if (ds->ready)
    deflateEnd (&ds->zs);
  free (ds);
}
