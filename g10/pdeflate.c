/* pdeflate.c - deflate on several threads into one stream
 *
 * The blocks are the jobs of a job ring (job-ring.h), numbered in
 * input order: the writing thread fills one, workers compress the
 * submitted ones, and the writing thread passes them to the sink in
 * order.
 *
 * Each job carries its own copy of the window that precedes it (none
 * at a segment's start), so a worker never needs another job, and the
 * block and segment boundaries depend only on the offsets in the
 * input: the output is the same for any NTHREADS, and with one thread
 * no worker is started at all.
 *
 * A block the probe calls incompressible (compress-probe.h) is not
 * deflated: the writing thread passes its input to the sink as stored
 * blocks, straight from the job, so it is copied no more than the
 * output of a deflated block.  A block of incompressible bytes among
 * zeros is not searched either: deflate-sparse.c takes out its runs
 * of zeros and stores the rest.
 */
#include <config.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "packet.h"
#include "error.h"
#include "iobuf.h"
#include "compress-probe.h"
#include "deflate-engine.h"
#include "deflate-sparse.h"
#include "job-ring.h"
#include "pdeflate.h"

/* ZIP is written with an 8 KiB window, as gpg writes it for old
 * readers; ZLIB with the full 32 KiB.  */
#define ZIP_WINDOW_BITS 13
#define ZLIB_WINDOW_BITS 15

/* The most bytes of one stored block (RFC 1951 3.2.4), and the size
 * of its header: BFINAL and BTYPE 00 in a byte of their own (the
 * stream is byte aligned where a job starts), LEN and NLEN.  */
#define STORED_LEN_MAX 65535
#define STORED_HEADER_LEN 5

/* Two empty stored blocks: the end of PDEFLATE_SEGMENT_MARK is the
 * second, and the first makes the start of the mark where the block
 * before did not end with a sync flush.  */
static const unsigned char two_empty_stored[2 * STORED_HEADER_LEN] =
  { 0, 0, 0, 0xff, 0xff, 0, 0, 0, 0xff, 0xff };

typedef struct job
{
  size_t dictlen;
  size_t len;
  size_t outlen;
  int last;
  enum compress_probe_verdict verdict;
  gpg_error_t err;
  uLong adler;                  /* Of the input of the block (ZLIB).  */
  unsigned char dict[DEFLATE_DICT_MAX];
  unsigned char in[DEFLATE_BLOCK_SIZE];
  unsigned char out[DEFLATE_OUT_MAX];
} job_t;

struct pdeflate
{
  int algo;
  int level;
  int window_bits;
  sink_fn_t sink;
  void *sink_ctx;
  gpg_error_t err;              /* Sticky: the first error.  */
  uLong adler;                  /* Of the input written so far (ZLIB).  */
  job_ring_t *ring;
  job_t *jobs;                  /* In the ring's slots.  */
  deflate_engine_t **engines;   /* One for each worker.  */
  int nengines;
  uint64_t nstored;             /* Jobs emitted as stored blocks.  */
  uint64_t nsparse;             /* Jobs written by deflate_sparse.  */
};


static job_t *
job_at (pdeflate_t *pd, uint64_t seq)
{
  return &pd->jobs[seq % job_ring_slots (pd->ring)];
}


/* The job being filled.  */
static job_t *
job_filling (pdeflate_t *pd)
{
  return job_at (pd, job_ring_submitted (pd->ring));
}


/* Whether block number SEQ starts a segment.  */
static int
starts_segment (uint64_t seq)
{
  return seq % PDEFLATE_SEGMENT_BLOCKS == 0;
}


/* Compress JOB as the probe says: with ENGINE, or with
 * deflate_sparse, or not at all; on any thread.  */
static void
compress_job (pdeflate_t *pd, deflate_engine_t *engine, job_t *job)
{
  job->verdict = compress_probe (job->in, job->len);
  if (job->verdict == PROBE_STORE)
    job->err = 0;
  else if (job->verdict == PROBE_SPARSE)
    job->err = deflate_sparse (job->in, job->len, job->last, job->out,
                               sizeof job->out, &job->outlen);
  else
    job->err = deflate_engine_run (engine, job->dict, job->dictlen,
                                   job->in, job->len, job->last, job->out,
                                   &job->outlen);
  if (pd->algo == COMPRESS_ZLIB)
    job->adler = adler32 (adler32 (0, NULL, 0), job->in, job->len);
}


/* Compress job SEQ as worker WORKER: a job_run_fn_t.  */
static void
run_job (void *ctx, int worker, uint64_t seq)
{
  pdeflate_t *pd = ctx;

  compress_job (pd, pd->engines[worker], job_at (pd, seq));
}


/* Pass the input of JOB to the sink as stored blocks, the last one
 * final when JOB ends the stream.  Each ends byte aligned, as a sync
 * flush does, so the next job's blocks follow on.  */
static gpg_error_t
emit_stored (pdeflate_t *pd, const job_t *job)
{
  unsigned char hdr[STORED_HEADER_LEN];
  gpg_error_t err = 0;
  size_t off, n;

  for (off = 0; !err && off < job->len; off += n)
    {
      n = job->len - off;
      if (n > STORED_LEN_MAX)
        n = STORED_LEN_MAX;
      hdr[0] = job->last && off + n == job->len;
      hdr[1] = n;
      hdr[2] = n >> 8;
      hdr[3] = ~n;
      hdr[4] = ~n >> 8;
      err = pd->sink (pd->sink_ctx, hdr, sizeof hdr);
      if (!err)
        err = pd->sink (pd->sink_ctx, job->in + off, n);
    }
  return err;
}


/* Pass the compressed JOB, number SEQ, to the sink.  */
static gpg_error_t
emit_job_data (pdeflate_t *pd, job_t *job, uint64_t seq)
{
  if (job->err)
    return fail (job->err, "compression", "%s failed on block %llu",
                 job->verdict == PROBE_SPARSE ? "the zero-run writer"
                 : deflate_engine_library (pd->level),
                 (unsigned long long)seq);
  if (pd->algo == COMPRESS_ZLIB)
    pd->adler = adler32_combine (pd->adler, job->adler, job->len);
  if (job->verdict == PROBE_STORE)
    {
      pd->nstored++;
      return emit_stored (pd, job);
    }
  pd->nsparse += job->verdict == PROBE_SPARSE;
  return pd->sink (pd->sink_ctx, job->out, job->outlen);
}


/* End the segment whose last block is JOB with PDEFLATE_SEGMENT_MARK:
 * the end of JOB's sync flush, when it has one, is the mark's
 * start.  */
static gpg_error_t
emit_segment_mark (pdeflate_t *pd, const job_t *job)
{
  const unsigned char *end;
  size_t len, skip = 0;

  end = job->verdict == PROBE_STORE ? job->in + job->len
                                    : job->out + job->outlen;
  len = job->verdict == PROBE_STORE ? job->len : job->outlen;
  if (len >= 4 && !memcmp (end - 4, two_empty_stored + 1, 4))
    skip = STORED_HEADER_LEN;
  return pd->sink (pd->sink_ctx, two_empty_stored + skip,
                   sizeof two_empty_stored - skip);
}


/* Pass job SEQ to the sink, with the segment mark after it when it
 * ends a segment: a job_emit_fn_t.  */
static gpg_error_t
emit_job (void *ctx, uint64_t seq)
{
  pdeflate_t *pd = ctx;
  job_t *job = job_at (pd, seq);
  gpg_error_t err;

  err = emit_job_data (pd, job, seq);
  if (!err && !job->last && starts_segment (seq + 1))
    err = emit_segment_mark (pd, job);
  return err;
}


/* Make the job being filled ready, with the window before it unless
 * it starts a segment.  With one thread the previous job is the same
 * one: its input is read before it is emptied.  */
static void
start_job (pdeflate_t *pd)
{
  uint64_t seq = job_ring_submitted (pd->ring);
  job_t *job = job_at (pd, seq);
  job_t *prev;

  job->dictlen = 0;
  if (!starts_segment (seq))
    {
      /* All blocks but the last are full, and larger than the
       * window.  */
      prev = job_at (pd, seq - 1);
      job->dictlen = (size_t)1 << pd->window_bits;
      memcpy (job->dict, prev->in + DEFLATE_BLOCK_SIZE - job->dictlen,
              job->dictlen);
    }
  job->len = 0;
  job->last = 0;
}


/* Hand the job being filled over for compression, ending the stream
 * with it when LAST, and make room for the next one.  */
static gpg_error_t
submit_job (pdeflate_t *pd, int last)
{
  gpg_error_t err;

  job_filling (pd)->last = last;
  job_ring_submit (pd->ring);
  err = job_ring_emit (pd->ring, last, emit_job, pd);
  if (!err && !last)
    start_job (pd);
  return err;
}


gpg_error_t
pdeflate_write (void *ctx, const unsigned char *buf, size_t len)
{
  pdeflate_t *pd = ctx;
  job_t *job;
  size_t n;

  while (len && !pd->err)
    {
      job = job_filling (pd);
      n = DEFLATE_BLOCK_SIZE - job->len;
      if (n > len)
        n = len;
      memcpy (job->in + job->len, buf, n);
      job->len += n;
      buf += n;
      len -= n;
      if (job->len == DEFLATE_BLOCK_SIZE)
        pd->err = submit_job (pd, 0);
    }
  return pd->err;
}


/* The zlib header (RFC 1950 2.2) for LEVEL and WINDOW_BITS, with the
 * level flags zlib itself writes.  */
static void
zlib_header (unsigned char hdr[2], int level, int window_bits)
{
  unsigned int cmf = (window_bits - 8) << 4 | Z_DEFLATED;
  unsigned int flevel = level < 2 ? 0 : level < 6 ? 1 : level == 6 ? 2 : 3;
  unsigned int check = (cmf << 8 | flevel << 6);

  check += 31 - check % 31;
  hdr[0] = check >> 8;
  hdr[1] = check;
}


void
pdeflate_counts (const pdeflate_t *pd, uint64_t *r_blocks,
                 uint64_t *r_stored, uint64_t *r_sparse)
{
  *r_blocks = job_ring_emitted (pd->ring);
  *r_stored = pd->nstored;
  *r_sparse = pd->nsparse;
}


gpg_error_t
pdeflate_finish (pdeflate_t *pd)
{
  unsigned char trailer[4];

  if (pd->err)
    return pd->err;
  pd->err = submit_job (pd, 1);
  if (pd->err || pd->algo != COMPRESS_ZLIB)
    return pd->err;
  trailer[0] = pd->adler >> 24;
  trailer[1] = pd->adler >> 16;
  trailer[2] = pd->adler >> 8;
  trailer[3] = pd->adler;
  pd->err = pd->sink (pd->sink_ctx, trailer, sizeof trailer);
  return pd->err;
}


/* Make the engine of each worker of the ring.  */
static gpg_error_t
engines_new (pdeflate_t *pd)
{
  gpg_error_t err;
  int i;

  pd->engines = calloc (job_ring_workers (pd->ring), sizeof *pd->engines);
  if (!pd->engines)
    return fail (gpg_error_from_syserror (), "out of core", NULL);
  pd->nengines = job_ring_workers (pd->ring);
  for (i = 0; i < pd->nengines; i++)
    {
      err = deflate_engine_new (&pd->engines[i], pd->level, pd->window_bits);
      if (err)
        return fail (err, "compression", "%s: %s",
                     deflate_engine_library (pd->level), gpg_strerror (err));
    }
  return 0;
}


gpg_error_t
pdeflate_new (pdeflate_t **r_pd, int algo, int level, int nthreads,
              sink_fn_t sink, void *sink_ctx)
{
  gpg_error_t err;
  pdeflate_t *pd;
  unsigned char hdr[2];

  *r_pd = NULL;
  pd = calloc (1, sizeof *pd);
  if (!pd)
    return fail (gpg_error_from_syserror (), "out of core", NULL);
  pd->algo = algo;
  pd->level = level;
  pd->window_bits = algo == COMPRESS_ZIP ? ZIP_WINDOW_BITS : ZLIB_WINDOW_BITS;
  pd->sink = sink;
  pd->sink_ctx = sink_ctx;
  pd->adler = adler32 (0, NULL, 0);
  *r_pd = pd;
  err = job_ring_new (&pd->ring, nthreads, run_job, pd, "compression");
  if (!err)
    err = engines_new (pd);
  if (err)
    return err;
  pd->jobs = malloc (job_ring_slots (pd->ring) * sizeof *pd->jobs);
  if (!pd->jobs)
    return fail (gpg_error_from_syserror (), "out of core", NULL);
  start_job (pd);
  if (algo != COMPRESS_ZLIB)
    return 0;
  zlib_header (hdr, level, pd->window_bits);
  return sink (sink_ctx, hdr, sizeof hdr);
}


void
pdeflate_release (pdeflate_t *pd)
{
  int i;

  if (!pd)
    return;
  /* The workers are stopped before their engines go.  */
  job_ring_release (pd->ring);
  for (i = 0; i < pd->nengines; i++)
    deflate_engine_release (pd->engines[i]);
  free (pd->engines);
  free (pd->jobs);
  free (pd);
}
