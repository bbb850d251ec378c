/* bzip2-parallel.c - BZIP2 compression on several threads into one stream
 *
 * The chunks are the jobs of a job ring (job-ring.h), numbered in
 * input order as in pdeflate.c: the writing thread fills one, workers
 * compress the submitted ones, and the writing thread joins them into
 * the stream in order.
 *
 * A chunk is stored as libbz2 stores its block, after the first
 * run-length step, so that a chunk of 45 MB of one byte value takes
 * 900 kB; the worker expands it again piece by piece as it feeds
 * libbz2.  Checked against bzip2, GnuPG and rnp in
 * tests/sfenc-bzip2.bats and tests/t-bzip2.c.
 */
#include <config.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <bzlib.h>

#include "error.h"
#include "iobuf.h"
#include "bzip2-stream.h"
#include "job-ring.h"
#include "bzip2-parallel.h"

/* What a worker hands libbz2 at once, expanded from a chunk.  */
#define EXPAND_SIZE ((size_t)64 << 10)

/* No character yet in the run (libbz2's state_in_ch of 256).  */
#define NO_RUN 256

typedef struct chunk
{
  unsigned char *in;            /* After the run-length step.  */
  size_t len;
  unsigned char *out;           /* The chunk as a bzip2 stream.  */
  size_t outsize;
  size_t outlen;
  uint64_t block_bits;          /* Of the block in OUT after the header.  */
  uint32_t crc;                 /* The block's.  */
  gpg_error_t err;              /* A code only: the writing thread fails.  */
} chunk_t;

/* Room for libbz2's allocations: a compressor makes 4.  */
#define MEM_SLOTS 8

/* What libbz2 allocated for a worker, kept from one chunk to the
 * next: fresh pages for its 8 block sizes of arrays at every chunk
 * cost a tenth of the compression in page faults.  */
typedef struct mem_slot
{
  void *p;
  size_t size;
  int in_use;
} mem_slot_t;

/* What each worker of the ring keeps.  */
typedef struct worker
{
  mem_slot_t mem[MEM_SLOTS];
  unsigned char expanded[EXPAND_SIZE];
} worker_t;

struct pbzip2
{
  int level;
  size_t block_max;             /* libbz2's nblockMAX.  */
  sink_fn_t sink;
  void *sink_ctx;
  gpg_error_t err;              /* Sticky: the first error.  */
  /* The run-length step over the chunk being filled.  */
  int run_ch;
  int run_len;
  uint32_t combined;            /* The combined CRC so far.  */
  bitbuf_t pending;             /* Stream bits not yet passed on.  */
  job_ring_t *ring;
  chunk_t *chunks;              /* In the ring's slots.  */
  size_t nchunks;
  worker_t *workers;            /* One for each worker of the ring.  */
  int nworkers;
};


static chunk_t *
chunk_at (pbzip2_t *pb, uint64_t seq)
{
  return &pb->chunks[seq % pb->nchunks];
}


/* The chunk being filled.  */
static chunk_t *
chunk_filling (pbzip2_t *pb)
{
  return chunk_at (pb, job_ring_submitted (pb->ring));
}


/* libbz2's bzalloc over the worker OPAQUE's slots.  */
static void *
worker_alloc (void *opaque, int items, int size)
{
  worker_t *w = opaque;
  size_t n = (size_t)items * size;
  mem_slot_t *m, *empty = NULL;

  for (m = w->mem; m < w->mem + MEM_SLOTS; m++)
    {
      if (m->p && !m->in_use && m->size == n)
        {
          m->in_use = 1;
          return m->p;
        }
      if (!m->p && !empty)
        empty = m;
    }
  if (!empty)
    return NULL;
  empty->p = malloc (n);
  empty->size = n;
  empty->in_use = !!empty->p;
  return empty->p;
}


/* libbz2's bzfree: the memory stays with the worker.  */
static void
worker_free (void *opaque, void *p)
{
  worker_t *w = opaque;
  mem_slot_t *m;

  for (m = w->mem; m < w->mem + MEM_SLOTS; m++)
    if (m->p == p)
      m->in_use = 0;
}


static void
worker_release_mem (worker_t *w)
{
  mem_slot_t *m;

  for (m = w->mem; m < w->mem + MEM_SLOTS; m++)
    free (m->p);
}


/* Undoing the run-length step: a run of 4 equal bytes is followed by
 * the count of further copies.  */
typedef struct expander
{
  const unsigned char *in;
  size_t len;
  size_t pos;
  int prev;
  int same;                     /* How many times PREV came in a row.  */
  unsigned int repeat;          /* Copies of PREV still to write.  */
} expander_t;


/* The end of the bytes of X from its position on, up to END, that are
 * data: through the fourth of 4 equal bytes in a row, after which
 * comes a count.  Updates X's PREV and SAME to that end.  */
static size_t
data_end (expander_t *x, size_t end)
{
  const unsigned char *in = x->in;
  size_t k = x->pos, start = x->pos;

  /* The first 3 bytes may continue a run from before.  */
  while (k < end && k < start + 3 && x->same < 4)
    {
      x->same = in[k] == x->prev ? x->same + 1 : 1;
      x->prev = in[k++];
    }
  if (x->same == 4 || k == end)
    return k;
  /* From here a run of 4 lies within the bytes looked at.  */
  while (k < end
         && !(in[k] == in[k - 1] && in[k] == in[k - 2] && in[k] == in[k - 3]))
    k++;
  if (k < end)
    {
      x->same = 4;
      x->prev = in[k];
      return k + 1;
    }
  x->prev = in[k - 1];
  x->same = in[k - 2] != in[k - 1] ? 1 : in[k - 3] != in[k - 1] ? 2 : 3;
  return k;
}


/* Fill OUT with up to SIZE bytes of X; 0 at the end.  */
static size_t
expand (expander_t *x, unsigned char *out, size_t size)
{
  size_t n = 0, k;

  while (n < size)
    {
      if (x->repeat)
        {
          k = x->repeat < size - n ? x->repeat : size - n;
          memset (out + n, x->prev, k);
          n += k;
          x->repeat -= k;
          continue;
        }
      if (x->pos == x->len)
        break;
      if (x->same == 4)
        {
          x->repeat = x->in[x->pos++];
          x->same = 0;
          continue;
        }
      k = data_end (x, x->len - x->pos < size - n ? x->len
                                                  : x->pos + size - n);
      memcpy (out + n, x->in + x->pos, k - x->pos);
      n += k - x->pos;
      x->pos = k;
    }
  return n;
}


/* Run BZ2_bzCompress with ACTION until the input is consumed (BZ_RUN)
 * or the stream has ended (BZ_FINISH), growing CK's output.  */
static gpg_error_t
compress_input (bz_stream *bs, chunk_t *ck, int action)
{
  unsigned char *p;
  int rc;

  do
    {
      if (ck->outsize - ck->outlen < EXPAND_SIZE)
        {
          p = realloc (ck->out, 2 * ck->outsize + EXPAND_SIZE);
          if (!p)
            return gpg_error (GPG_ERR_ENOMEM);
          ck->out = p;
          ck->outsize = 2 * ck->outsize + EXPAND_SIZE;
        }
      bs->next_out = (char *)ck->out + ck->outlen;
      bs->avail_out = ck->outsize - ck->outlen;
      rc = BZ2_bzCompress (bs, action);
      ck->outlen = ck->outsize - bs->avail_out;
      if (rc != BZ_RUN_OK && rc != BZ_FINISH_OK && rc != BZ_STREAM_END)
        return gpg_error (GPG_ERR_INTERNAL);
    }
  while (action == BZ_RUN ? bs->avail_in != 0 : rc != BZ_STREAM_END);
  return 0;
}


/* Find the one block in CK's stream: it ends where the end magic
 * begins, 80 bits and 0 to 7 bits of padding before the end.  The
 * end magic never matches itself shifted by fewer than 45 bits, so
 * only one padding fits.  */
static gpg_error_t
locate_block (chunk_t *ck)
{
  uint64_t total = (uint64_t)ck->outlen * 8, end;
  int pad;

  if (total < BZIP2_HEADER_BITS + BZIP2_BLOCK_HEAD_BITS + BZIP2_TRAILER_BITS
      || bits_get (ck->out, BZIP2_HEADER_BITS, BZIP2_MAGIC_BITS)
         != BZIP2_BLOCK_MAGIC)
    return gpg_error (GPG_ERR_INTERNAL);
  for (pad = 0; pad < 8; pad++)
    {
      end = total - pad - BZIP2_TRAILER_BITS;
      if (bits_get (ck->out, end, BZIP2_MAGIC_BITS) == BZIP2_END_MAGIC)
        {
          ck->block_bits = end - BZIP2_HEADER_BITS;
          ck->crc = bits_get (ck->out, BZIP2_HEADER_BITS + BZIP2_MAGIC_BITS,
                              32);
          return 0;
        }
    }
  return gpg_error (GPG_ERR_INTERNAL);
}


/* Compress CK into a one-block stream with W's buffer; on any thread.
 * The chunk fits one block, so libbz2 never ends a block before
 * BZ_FINISH: fed with BZ_RUN, it starts a block only once the block
 * is full.  */
static void
compress_chunk (pbzip2_t *pb, worker_t *w, chunk_t *ck)
{
  expander_t x = { ck->in, ck->len, 0, -1, 0, 0 };
  bz_stream bs;
  size_t n;
  int rc, last;

  memset (&bs, 0, sizeof bs);
  bs.bzalloc = worker_alloc;
  bs.bzfree = worker_free;
  bs.opaque = w;
  ck->outlen = 0;
  rc = BZ2_bzCompressInit (&bs, pb->level, 0, 0);
  if (rc != BZ_OK)
    {
      ck->err = gpg_error (rc == BZ_MEM_ERROR ? GPG_ERR_ENOMEM
                           : GPG_ERR_INTERNAL);
      return;
    }
  do
    {
      n = expand (&x, w->expanded, sizeof w->expanded);
      last = x.pos == x.len && !x.repeat;
      bs.next_in = (char *)w->expanded;
      bs.avail_in = n;
      ck->err = compress_input (&bs, ck, last ? BZ_FINISH : BZ_RUN);
    }
  while (!ck->err && !last);
  BZ2_bzCompressEnd (&bs);
  if (!ck->err)
    ck->err = locate_block (ck);
}


/* Compress chunk SEQ as worker WORKER: a job_run_fn_t.  */
static void
run_chunk (void *ctx, int worker, uint64_t seq)
{
  pbzip2_t *pb = ctx;

  compress_chunk (pb, &pb->workers[worker], chunk_at (pb, seq));
}


/* Pass the whole bytes of the pending bits to the sink and keep the
 * last partial byte; with ALL, that one too.  */
static gpg_error_t
flush_pending (pbzip2_t *pb, int all)
{
  bitbuf_t *bb = &pb->pending;
  size_t n = all ? bitbuf_bytes (bb) : bb->nbits / 8;
  gpg_error_t err;

  if (!n)
    return 0;
  err = pb->sink (pb->sink_ctx, bb->buf, n);
  if (err)
    return err;
  if (all)
    {
      bitbuf_truncate (bb, 0);
      return 0;
    }
  bb->buf[0] = bb->buf[n];
  bb->buf[n] = 0;
  bb->nbits %= 8;
  return 0;
}


/* Join the block of chunk SEQ to the stream: a job_emit_fn_t.  */
static gpg_error_t
emit_chunk (void *ctx, uint64_t seq)
{
  pbzip2_t *pb = ctx;
  chunk_t *ck = chunk_at (pb, seq);
  gpg_error_t err = ck->err;

  if (!err)
    err = bitbuf_append (&pb->pending, ck->out, BZIP2_HEADER_BITS,
                         ck->block_bits);
  if (err)
    return fail (err, "compression", "libbz2 failed on block %llu: %s",
                 (unsigned long long)seq, gpg_strerror (err));
  pb->combined = bzip2_combine_crc (pb->combined, ck->crc);
  return flush_pending (pb, 0);
}


/* Make the chunk being filled empty, with no run begun.  */
static void
start_chunk (pbzip2_t *pb)
{
  chunk_t *ck = chunk_filling (pb);

  ck->len = 0;
  ck->err = 0;
  pb->run_ch = NO_RUN;
  pb->run_len = 0;
}


/* Put the run of RUN times CH at IN + N as libbz2's add_pair_to_block
 * does: 1 to 3 bytes as they are, 4 to 255 as 4 bytes and the count of
 * the others; return the new N.  */
static size_t
put_run (unsigned char *in, size_t n, int ch, int run)
{
  int i;

  if (ch == NO_RUN)
    return n;
  for (i = 0; i < run && i < 4; i++)
    in[n++] = ch;
  if (run >= 4)
    in[n++] = run - 4;
  return n;
}


/* Hand the chunk being filled over for compression and make room for
 * the next one; at the end (LAST), wait for every chunk to be
 * joined.  */
static gpg_error_t
submit_chunk (pbzip2_t *pb, int last)
{
  chunk_t *ck = chunk_filling (pb);
  gpg_error_t err;

  ck->len = put_run (ck->in, ck->len, pb->run_ch, pb->run_len);
  job_ring_submit (pb->ring);
  err = job_ring_emit (pb->ring, last, emit_chunk, pb);
  if (!err)
    start_chunk (pb);
  return err;
}


/* Add bytes of BUF (LEN bytes) to chunk CK until it is full, as
 * libbz2's ADD_CHAR_TO_BLOCK adds them to its block, with its test for
 * a full block before each byte; return how many.  */
static size_t
fill_chunk (pbzip2_t *pb, chunk_t *ck, const unsigned char *buf, size_t len)
{
  unsigned char *in = ck->in;
  size_t i, n = ck->len, max = pb->block_max;
  int c, ch = pb->run_ch, run = pb->run_len;

  for (i = 0; i < len && n < max; i++)
    {
      c = buf[i];
      if (c != ch && run == 1)
        {
          in[n++] = ch;
          ch = c;
        }
      else if (c != ch || run == 255)
        {
          n = put_run (in, n, ch, run);
          ch = c;
          run = 1;
        }
      else
        run++;
    }
  ck->len = n;
  pb->run_ch = ch;
  pb->run_len = run;
  return i;
}


gpg_error_t
pbzip2_write (void *ctx, const unsigned char *buf, size_t len)
{
  pbzip2_t *pb = ctx;
  size_t n;

  while (len && !pb->err)
    {
      n = fill_chunk (pb, chunk_filling (pb), buf, len);
      buf += n;
      len -= n;
      if (len)
        pb->err = submit_chunk (pb, 0);
    }
  return pb->err;
}


gpg_error_t
pbzip2_finish (pbzip2_t *pb)
{
  chunk_t *ck;

  if (pb->err)
    return pb->err;
  ck = chunk_filling (pb);
  if (ck->len || pb->run_ch != NO_RUN)
    pb->err = submit_chunk (pb, 1);
  if (!pb->err)
    pb->err = bitbuf_put (&pb->pending, BZIP2_END_MAGIC, BZIP2_MAGIC_BITS);
  if (!pb->err)
    pb->err = bitbuf_put (&pb->pending, pb->combined, 32);
  if (pb->err)
    return fail (pb->err, "compression", NULL);
  pb->err = flush_pending (pb, 1);
  return pb->err;
}


gpg_error_t
pbzip2_new (pbzip2_t **r_pb, int level, int nthreads, sink_fn_t sink,
            void *sink_ctx)
{
  gpg_error_t err;
  pbzip2_t *pb;
  size_t i;

  *r_pb = NULL;
  pb = calloc (1, sizeof *pb);
  if (!pb)
    return fail (gpg_error_from_syserror (), "out of core", NULL);
  pb->level = level;
  pb->block_max = 100000 * (size_t)level - 19;
  pb->sink = sink;
  pb->sink_ctx = sink_ctx;
  *r_pb = pb;
  err = job_ring_new (&pb->ring, nthreads, run_chunk, pb, "compression");
  if (err)
    return err;
  pb->workers = calloc (job_ring_workers (pb->ring), sizeof *pb->workers);
  if (!pb->workers)
    return fail (gpg_error_from_syserror (), "out of core", NULL);
  pb->nworkers = job_ring_workers (pb->ring);
  pb->chunks = calloc (job_ring_slots (pb->ring), sizeof *pb->chunks);
  if (!pb->chunks)
    return fail (gpg_error_from_syserror (), "out of core", NULL);
  pb->nchunks = job_ring_slots (pb->ring);
  for (i = 0; i < pb->nchunks; i++)
    {
      /* A full chunk, then the last run (5 bytes) and the run the
       * next byte ended (5 more).  */
      pb->chunks[i].in = malloc (pb->block_max + 10);
      if (!pb->chunks[i].in)
        return fail (gpg_error_from_syserror (), "out of core", NULL);
    }
  start_chunk (pb);
  err = bitbuf_put (&pb->pending, 0x425a6830 + level, BZIP2_HEADER_BITS);
  if (err)
    return fail (err, "out of core", NULL);
  return 0;
}


void
pbzip2_release (pbzip2_t *pb)
{
  size_t i;
  int n;

  if (!pb)
    return;
  /* The workers are stopped before their memory goes.  */
  job_ring_release (pb->ring);
  for (n = 0; n < pb->nworkers; n++)
    worker_release_mem (&pb->workers[n]);
  for (i = 0; i < pb->nchunks; i++)
    {
      free (pb->chunks[i].in);
      free (pb->chunks[i].out);
    }
  free (pb->chunks);
  free (pb->workers);
  bitbuf_release (&pb->pending);
  free (pb);
}
