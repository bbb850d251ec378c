/* compress.c - compressed data packets
 *
 * RFC 4880 5.6: algorithm 1 (ZIP) is raw deflate (RFC 1951),
 * algorithm 2 (ZLIB) is the zlib format (RFC 1950), algorithm 3 is
 * BZIP2, written on --threads threads (bzip2-parallel.c) and read on
 * them (bunzip2-parallel.c) or on one (compress-bzip2.c).  Like gpg,
 * ZIP is written with an 8 KiB window (windowBits 13) for the benefit
 * of old readers; reading accepts any window size.  Deflate is
 * written through pdeflate.c, on --threads threads, and read through
 * inflate-engine.c (zlib or ISA-L, --inflate-impl).  Checked against
 * GnuPG in tests/sfenc-interop.bats and tests/sfenc-threads.bats.
 */
#include <config.h>

#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "packet.h"
#include "error.h"
#include "iobuf.h"
#include "log.h"
#include "compress.h"
#include "compress-bzip2.h"
#include "bzip2-parallel.h"
#include "bunzip2-parallel.h"
#include "deflate-engine.h"
#include "deflate-serial.h"
#include "inflate-engine.h"
#include "inflate-parallel.h"
#include "options.h"
#include "pdeflate.h"

static const struct
{
  const char *name;
  int algo;
} compress_names[] =
  {
    { "none", COMPRESS_NONE },
    { "uncompressed", COMPRESS_NONE },
    { "zip", COMPRESS_ZIP },
    { "zlib", COMPRESS_ZLIB },
    { "bzip2", COMPRESS_BZIP2 }
  };


const char *
compress_algo_name (int algo)
{
  switch (algo)
    {
    case COMPRESS_NONE: return "Uncompressed";
    case COMPRESS_ZIP: return "ZIP";
    case COMPRESS_ZLIB: return "ZLIB";
    case COMPRESS_BZIP2: return "BZIP2";
    default: return "?";
    }
}


int
compress_algo_from_name (const char *name)
{
  size_t i;

  for (i = 0; i < sizeof compress_names / sizeof *compress_names; i++)
    if (!strcasecmp (name, compress_names[i].name))
      return compress_names[i].algo;
  /* As gpg: the id, alone or after a Z ("Z3").  */
  if ((name[0] == 'z' || name[0] == 'Z') && name[1])
    name++;
  if (name[0] >= '0' && name[0] <= '3' && !name[1])
    return name[0] - '0';
  return -1;
}


/* The level of -z -1 (the default): zlib's default, as gpg's, which
 * takes it for BZIP2 too.  */
#define DEFAULT_LEVEL 6

/* --threads, or 0 for one thread per online processor.  */
static int compress_threads;


void
compress_set_threads (int nthreads)
{
  compress_threads = nthreads;
}


int
compress_thread_count (void)
{
  long n = compress_threads;

  if (!n)
    n = sysconf (_SC_NPROCESSORS_ONLN);
  return n < 1 ? 1 : n > PDEFLATE_THREADS_MAX ? PDEFLATE_THREADS_MAX : n;
}


/* The compressed packet: the algorithm byte, then the stream.  */
struct compress_writer
{
  packet_writer_t packet;
  pdeflate_t *deflater;         /* ZIP and ZLIB.  */
  deflate_serial_t *serial;     /* ZIP and ZLIB as gpg writes them.  */
  pbzip2_t *bzip2;              /* BZIP2.  */
};


/* Start the stream of ALGO at LEVEL into the packet of CW.  */
static gpg_error_t
start_stream (compress_writer_t *cw, int algo, int level)
{
  gpg_error_t err;
  int nthreads = compress_thread_count ();

  if (algo == COMPRESS_BZIP2)
    {
      err = pbzip2_new (&cw->bzip2, level, nthreads, packet_writer_sink,
                        &cw->packet);
      if (!err)
        log_info ("BZIP2 compression, level %d (libbz2), %d thread%s",
                  level, nthreads, nthreads == 1 ? "" : "s");
      return err;
    }
  err = pdeflate_new (&cw->deflater, algo, level, nthreads,
                      packet_writer_sink, &cw->packet);
  if (!err)
    log_info ("%s compression, level %d (%s), %d thread%s",
              compress_algo_name (algo), level,
              deflate_engine_library (level), nthreads,
              nthreads == 1 ? "" : "s");
  return err;
}


/* Start a compressed packet of ALGO at LEVEL into SINK in *R_CW;
 * AS_GPG writes gpg's bytes (compress_writer_new_gpg).  */
static gpg_error_t
writer_new (compress_writer_t **r_cw, int algo, int level, int as_gpg,
            sink_fn_t sink, void *sink_ctx)
{
  gpg_error_t err;
  compress_writer_t *cw;

  *r_cw = NULL;
  if (level < 0)
    level = DEFAULT_LEVEL;
  cw = calloc (1, sizeof *cw);
  if (!cw)
    return fail (gpg_error_from_syserror (), "out of core", NULL);
  *r_cw = cw;
  err = packet_writer_init (&cw->packet, PKT_COMPRESSED, sink, sink_ctx);
  if (!err && as_gpg)
    packet_writer_set_framing (&cw->packet, FRAME_OLD_TO_END, 0);
  if (!err)
    {
      unsigned char algo_byte = algo;

      err = packet_writer_sink (&cw->packet, &algo_byte, 1);
    }
  /* libbz2's stream is the same on any number of threads.  */
  if (!err && as_gpg && algo != COMPRESS_BZIP2)
    err = deflate_serial_new (&cw->serial, algo, level, packet_writer_sink,
                              &cw->packet);
  else if (!err)
    err = start_stream (cw, algo, level);
  return err;
}


gpg_error_t
compress_writer_new (compress_writer_t **r_cw, int algo, int level,
                     sink_fn_t sink, void *sink_ctx)
{
  return writer_new (r_cw, algo, level, 0, sink, sink_ctx);
}


gpg_error_t
compress_writer_new_gpg (compress_writer_t **r_cw, int algo, int level,
                         sink_fn_t sink, void *sink_ctx)
{
  return writer_new (r_cw, algo, level, 1, sink, sink_ctx);
}


gpg_error_t
compress_writer_sink (void *ctx, const unsigned char *buf, size_t len)
{
  compress_writer_t *cw = ctx;

  if (cw->bzip2)
    return pbzip2_write (cw->bzip2, buf, len);
  if (cw->serial)
    return deflate_serial_write (cw->serial, buf, len);
  return pdeflate_write (cw->deflater, buf, len);
}


/* With -v: how many blocks did not compress, and how many did only
 * for their zeros.  */
static void
log_stored_blocks (const pdeflate_t *pd)
{
  uint64_t blocks, stored, sparse;

  pdeflate_counts (pd, &blocks, &stored, &sparse);
  log_info ("%llu of %llu blocks stored, incompressible",
            (unsigned long long)stored, (unsigned long long)blocks);
  log_info ("%llu of %llu blocks incompressible but for runs of zeros,"
            " stored around them",
            (unsigned long long)sparse, (unsigned long long)blocks);
}


gpg_error_t
compress_writer_finish (compress_writer_t *cw)
{
  gpg_error_t err;

  if (cw->bzip2)
    err = pbzip2_finish (cw->bzip2);
  else if (cw->serial)
    err = deflate_serial_finish (cw->serial);
  else
    {
      err = pdeflate_finish (cw->deflater);
      if (!err)
        log_stored_blocks (cw->deflater);
    }
  if (!err)
    err = packet_writer_finish (&cw->packet);
  return err;
}


void
compress_writer_release (compress_writer_t *cw)
{
  if (!cw)
    return;
  pdeflate_release (cw->deflater);
  deflate_serial_release (cw->serial);
  pbzip2_release (cw->bzip2);
  packet_writer_release (&cw->packet);
  free (cw);
}


/* How many BZIP2 layers, or ZIP and ZLIB layers in segments
 * (inflate-parallel.h), are being read on threads: one at a time, so
 * that 30 nested layers do not each hold a ring of blocks; the others
 * are read serially.  Layers are opened and released on the reading
 * thread only.  */
static int parallel_layers;

struct inflate_source
{
  bzip2_reader_t *bzip2;        /* BZIP2 on one thread.  */
  pbunzip2_t *pbunzip2;         /* BZIP2 on several.  */
  inflate_engine_t *engine;     /* ZIP and ZLIB.  */
  inflate_parallel_t *pinflate; /* ZIP and ZLIB on several threads.  */
};


gpg_error_t
inflate_source_new (inflate_source_t **r_is, int algo, source_fn_t source,
                    void *source_ctx, input_ready_fn_t ready, void *ready_ctx)
{
  enum inflate_framing framing;
  gpg_error_t err;
  inflate_source_t *is;

  if (algo != COMPRESS_ZIP && algo != COMPRESS_ZLIB
      && algo != COMPRESS_BZIP2)
    return fail (gpg_error (GPG_ERR_COMPR_ALGO), "decryption failed",
                 "unknown compression algorithm %d", algo);
  is = calloc (1, sizeof *is);
  if (!is)
    return fail (gpg_error_from_syserror (), "out of core", NULL);
  if (algo == COMPRESS_BZIP2 && compress_thread_count () > 1
      && !parallel_layers)
    {
      err = pbunzip2_new (&is->pbunzip2, compress_thread_count (), source,
                          source_ctx);
      if (err)
        {
          pbunzip2_release (is->pbunzip2);
          free (is);
          return err;
        }
      parallel_layers++;
      *r_is = is;
      return 0;
    }
  if (algo == COMPRESS_BZIP2)
    {
      err = bzip2_reader_new (&is->bzip2, source, source_ctx);
      if (err)
        free (is);
      else
        *r_is = is;
      return err;
    }
  framing = algo == COMPRESS_ZIP ? INFLATE_RAW : INFLATE_ZLIB;
  if (compress_thread_count () > 1 && ready && !parallel_layers)
    {
      parallel_layers++;
      log_info ("%s decompression through %s", compress_algo_name (algo),
                inflate_impl_name (opt.inflate_impl));
      err = inflate_parallel_new (&is->pinflate, opt.inflate_impl, framing,
                                  compress_thread_count (), source,
                                  source_ctx, ready, ready_ctx);
      if (err)
        {
          parallel_layers--;
          free (is);
          return fail (err, "out of core", NULL);
        }
      *r_is = is;
      return 0;
    }
  err = inflate_engine_new (&is->engine, opt.inflate_impl, framing,
                            source, source_ctx);
  if (err)
    {
      free (is);
      return fail (err, "out of core", NULL);
    }
  log_info ("%s decompression through %s", compress_algo_name (algo),
            inflate_impl_name (opt.inflate_impl));
  *r_is = is;
  return 0;
}


gpg_error_t
inflate_source_read (void *ctx, unsigned char *buf, size_t size,
                     size_t *nread)
{
  inflate_source_t *is = ctx;
  gpg_error_t err;
  const char *reason;

  if (is->pbunzip2)
    return pbunzip2_read (is->pbunzip2, buf, size, nread);
  if (is->bzip2)
    return bzip2_reader_read (is->bzip2, buf, size, nread);
  if (is->pinflate)
    err = inflate_parallel_read (is->pinflate, buf, size, nread);
  else
    err = inflate_engine_read (is->engine, buf, size, nread);
  reason = !err ? NULL : is->pinflate ? inflate_parallel_reason (is->pinflate)
    : inflate_engine_reason (is->engine);
  if (!reason)
    return err;
  if (gpg_err_code (err) == GPG_ERR_TRUNCATED)
    return fail (err, "decryption failed", "compressed data truncated");
  return fail (err, "decryption failed", "invalid compressed data (%s)",
               reason);
}


void
inflate_source_release (inflate_source_t *is)
{
  if (!is)
    return;
  if (is->pbunzip2)
    {
      pbunzip2_release (is->pbunzip2);
      parallel_layers--;
    }
  else if (is->pinflate)
    {
      inflate_parallel_release (is->pinflate);
      parallel_layers--;
    }
  else if (is->bzip2)
    bzip2_reader_release (is->bzip2);
  else
    inflate_engine_release (is->engine);
  free (is);
}
