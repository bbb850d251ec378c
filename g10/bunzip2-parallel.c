/* bunzip2-parallel.c - BZIP2 decompression on several threads
 *
 * The reading thread cuts the stream after its header into pieces at
 * every bit offset where a block magic or the end magic begins (and,
 * in a stream without magics, where a piece grows longer than any
 * block).  It tries the 8 offsets at which a magic may end in a byte
 * only when the two bytes before are bits that a magic has there (a
 * magic ending in the byte covers them whole, wherever it ends): a
 * filter of 8 kB that lets one byte in 4096 through, so cutting costs
 * a table look-up a byte.  Workers decode the pieces that begin with
 * a block magic through libbz2 in a ring of 2 * NTHREADS + 1 pieces,
 * as pdeflate.c compresses, and the reading thread takes the results
 * in order.
 *
 * Why a decoded piece is the block the serial decoder reads.  A piece
 * that begins with a block magic is decoded by libbz2 as a stream: the
 * header, the piece and the 48 bits of the magic that made the cut
 * after it, all bits of the real stream but for the zeros that pad
 * the last byte.  libbz2 is first given only the bytes up to the
 * piece's last bit, and the piece is taken only if its block's output
 * begins there: the block's last code then ends at most 7 bits after
 * the piece.  The serial decoder, from the same first bit, reads the
 * same bits up to there and decodes the same block, so each byte of
 * output is the serial decoder's as soon as libbz2 gives it, before
 * any check.  Then libbz2 is given the rest of the magic, and the
 * piece is taken whole only once libbz2 checked the block's CRC and
 * found a magic right after the block.  Neither magic matches itself
 * or the other shifted by fewer than 45 bits, so the block cannot end
 * in the 7 bits after the piece: had it ended before the piece's end,
 * the bits libbz2 read as a magic would all be the real stream's,
 * where the reading thread found no magic.  So the block ends exactly
 * where the piece ends, and there is one block.  The serial decoder
 * then finds, where the next piece begins, the magic that made the
 * cut.  The first piece begins right after the header, and each
 * further piece the reading thread takes begins where a taken block
 * ended, so every block of the output is one the serial decoder
 * gives, in its order, and the combined CRC is checked over them.
 *
 * A block whose output is larger than a piece holds is therefore not
 * decoded twice: the worker's libbz2 stops with the piece full and
 * waits; the reading thread passes the piece's output on and then
 * runs that same libbz2 on, straight into its reader, as far as its
 * checks.  A block fails them only where the serial decoder fails,
 * after the same output.  And when no worker has begun the piece at
 * the head of the ring, the reading thread decodes it itself that
 * way: a stream of one block never needs a thread.
 *
 * A magic inside compressed data (possible, and easily crafted) makes
 * a piece that is not a whole block, whose decoding fails.  Then the
 * reading thread probes: it feeds libbz2 the bits from the block's
 * start, piece after piece, without anything appended, until the
 * block's output begins, which places the block's end between the
 * last two cuts fed.  Each of the two runs of pieces that end there
 * is checked as a stream of one block, the end magic and the block's
 * CRC as the combined CRC appended: libbz2 must end it having read all
 * of it, and then that end magic is the one appended, for the reason
 * above.  The one that decodes is decoded again into the reader.  When
 * neither does, or the probe meets an error or the end of the input,
 * the stream is refused as the serial decoder refuses it.  So false magics cost one probe of the block they are
 * in, never a wrong byte.
 *
 * A block longer than any encoder writes (an encoder's code lengths
 * take at most 41 bits each; libbz2 reads any number of bits there) is
 * not held whole: with the rest of the stream it goes to one libbz2,
 * fed a byte buffer at a time as the serial decoder is, so memory
 * stays bounded.  That libbz2 reads a stream whose first block is
 * forged to have the combined CRC of the blocks taken so far as its
 * CRC: libbz2's combined CRC after it is then the stream's, and libbz2
 * checks the stream's at its end.  The forged block's output is
 * dropped.
 *
 * A worker's libbz2 is run on a slice of input or of output at a time
 * and sees between them that the reading thread is stopping, so that
 * an error or the end of the run waits for no block to be decoded.
 */
#include <config.h>

#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <bzlib.h>

#include "packet.h"
#include "error.h"
#include "iobuf.h"
#include "bzip2-stream.h"
#include "compress-bzip2.h"
#include "bunzip2-parallel.h"

/* The most output of a piece held for the reading thread.  */
#define PIECE_OUTPUT_MAX ((size_t)2 << 20)

/* Output that is counted but not kept.  */
#define SCRATCH_SIZE ((size_t)64 << 10)

/* The most input a worker's libbz2 reads between two looks at whether
 * the reading thread is stopping, and the most output.  */
#define INPUT_SLICE ((size_t)64 << 10)
#define OUTPUT_SLICE ((size_t)512 << 10)

#define MAGIC_MASK ((1ULL << BZIP2_MAGIC_BITS) - 1)

/* The CRC-32 polynomial of bzip2, most significant bit first.  */
#define BZIP2_CRC_POLY 0x04c11db7

/* The output of the forged block, in bytes.  */
#define FORGED_LEN 4

/* The longest block an encoder writes at LEVEL, in bits: magic, CRC,
 * randomised bit and origin pointer (105), the map of the bytes used
 * (at most 272), the counts of tables and selectors (18), at most
 * 32767 selectors of at most 6 bits, 6 tables of 258 code lengths of
 * at most 5 + 41 bits, and at most 100000 * LEVEL + 1 codes of at most
 * 20 bits.  2.3 MB at level 9.  */
#define BLOCK_BITS_MAX(level)                                           \
  (105 + 272 + 18 + 32767 * 6 + 6 * (5 + 258 * 41)                      \
   + ((uint64_t)100000 * (level) + 1) * 20)

enum piece_kind
  {
    PIECE_OTHER,                /* No magic where it begins.  */
    PIECE_BLOCK,
    PIECE_END
  };

/* What decoding a piece, or a run of pieces, gave.  */
enum run_result
  {
    RUN_OK,                     /* One good block; its output is held.  */
    RUN_BIG,                    /* Its output fills the piece, and its
                                 * libbz2 waits to go on.  */
    RUN_BAD,                    /* Not exactly one good block.  */
    RUN_NOMEM
  };

/* What one run of a piece's libbz2 gave.  */
enum step
  {
    STEP_MORE,                  /* Call again.  */
    STEP_DONE,                  /* The block is whole and checked.  */
    STEP_BAD,
    STEP_NOMEM
  };

typedef struct piece
{
  int kind;
  int input_end;                /* It ends where the input ended.  */
  uint64_t nbits;
  bitbuf_t stream;              /* Header, the piece, the next magic.  */
  size_t split;                 /* STREAM's bytes up to the piece's end.  */
  int decode;                   /* Whether it is decoded.  */
  int result;                   /* The worker's enum run_result.  */
  bz_stream bs;                 /* Its libbz2, while BS_OPEN.  */
  int bs_open;
  size_t fed;                   /* Bytes of STREAM given to BS.  */
  int begun;                    /* BS has given output.  */
  unsigned char *out;           /* PIECE_OUTPUT_MAX bytes, or NULL.  */
  size_t outlen;
  size_t emitted;               /* Of OUT, by the reading thread.  */
  int emitting;                 /* The reading thread passes it on.  */
  int done;                     /* Under the lock with workers.  */
} piece_t;

struct pbunzip2
{
  source_fn_t source;
  void *source_ctx;
  int level;                    /* 0 until the header is read.  */
  int finished;
  unsigned char inbuf[CHUNK_SIZE];
  size_t inpos;
  size_t inlen;
  int input_eof;
  /* The scanner: the piece being read, from its first bit.  */
  bitbuf_t raw;
  bitbuf_t spare;
  int raw_kind;
  uint64_t scanned;             /* Bits read after the header.  */
  uint64_t raw_start;           /* Where RAW begins, after the header.  */
  uint64_t window;              /* The last 64 bits read.  */
  /* A bit for each value of WINDOW's bits 8 to 23 that a magic
   * ending in WINDOW's last byte gives.  */
  unsigned char magic_filter[(1 << 16) / 8];
  int scan_done;                /* The piece at the input's end is made.  */
  uint32_t combined;
  /* A verified one-block stream the reading thread decodes itself.  */
  int streaming;
  /* Or the rest of the stream, after a block too long to hold: BS reads
   * RUN's whole bytes from FED on, its first SKIP bytes of output
   * dropped.  */
  int serial;
  size_t fed;
  size_t skip;
  bz_stream bs;
  bitbuf_t run;
  bitbuf_t candidate;
  unsigned char scratch[SCRATCH_SIZE];
  piece_t *pieces;
  size_t npieces;
  uint64_t filling;             /* Pieces made; changed under the lock.  */
  uint64_t emitted;             /* The reading thread's alone.  */
  uint64_t taken;               /* Under the lock.  */
  uint64_t handed;              /* Pieces whose libbz2 the reading
                                 * thread has taken; under the lock.  */
  atomic_int stopping;          /* Set under the lock.  */
  int nthreads;                 /* Workers it may have.  */
  int asked;                    /* It asked the pool for them.  */
  int attached;                 /* It has them; under the lock.  */
};

/* The workers, shared by the streams read in the process one after
 * another: started for the first stream that needs them, at most
 * PBUNZIP2_THREADS_MAX, working for one stream at a time (a stream
 * read while they work for another is decoded by its reading thread
 * alone), and stopped at exit.  The lock guards what the comments of
 * pbunzip2_t say it does.  */
static struct
{
  pthread_mutex_t lock;
  pthread_cond_t submitted;     /* A piece, a libbz2 taken, or the end.  */
  pthread_cond_t completed;     /* A piece done, or a worker free.  */
  pthread_t threads[PBUNZIP2_THREADS_MAX];
  int nthreads;
  pbunzip2_t *owner;            /* The stream they work for.  */
  int busy;                     /* Workers holding a piece of OWNER's.  */
  int exit_hook;                /* pool_shutdown is registered.  */
  atomic_int shutdown;
} pool = { .lock = PTHREAD_MUTEX_INITIALIZER,
           .submitted = PTHREAD_COND_INITIALIZER,
           .completed = PTHREAD_COND_INITIALIZER };


static piece_t *
piece_at (pbunzip2_t *pu, uint64_t seq)
{
  return &pu->pieces[seq % pu->npieces];
}


static gpg_error_t
fail_corrupted (void)
{
  return bzip2_decompress_error (BZ_DATA_ERROR);
}


static gpg_error_t
fail_truncated (void)
{
  return fail (gpg_error (GPG_ERR_TRUNCATED), "decryption failed",
               "compressed data truncated");
}


static gpg_error_t
fail_nomem (void)
{
  return bzip2_decompress_error (BZ_MEM_ERROR);
}


/* Decode the one-block stream STREAM, which ends with the end magic
 * and the combined CRC, counting its output through SCRATCH: RUN_OK
 * if libbz2 ends it having read all of it.  */
static int
check_run (const bitbuf_t *stream, unsigned char *scratch)
{
  bz_stream bs;
  int rc, result;

  memset (&bs, 0, sizeof bs);
  if (BZ2_bzDecompressInit (&bs, 0, 0) != BZ_OK)
    return RUN_NOMEM;
  bs.next_in = (char *)stream->buf;
  bs.avail_in = bitbuf_bytes (stream);
  for (;;)
    {
      bs.next_out = (char *)scratch;
      bs.avail_out = SCRATCH_SIZE;
      rc = BZ2_bzDecompress (&bs);
      if (rc == BZ_STREAM_END)
        {
          result = bs.avail_in ? RUN_BAD : RUN_OK;
          break;
        }
      if (rc != BZ_OK)
        {
          result = rc == BZ_MEM_ERROR ? RUN_NOMEM : RUN_BAD;
          break;
        }
      /* Room for output and no input: it needs bits there are not.  */
      if (!bs.avail_in && bs.avail_out)
        {
          result = RUN_BAD;
          break;
        }
    }
  BZ2_bzDecompressEnd (&bs);
  return result;
}


/* Start piece P's libbz2.  */
static int
piece_open (piece_t *p)
{
  memset (&p->bs, 0, sizeof p->bs);
  if (BZ2_bzDecompressInit (&p->bs, 0, 0) != BZ_OK)
    return RUN_NOMEM;
  p->bs_open = 1;
  p->fed = 0;
  p->begun = 0;
  return RUN_OK;
}


static void
piece_close (piece_t *p)
{
  if (p->bs_open)
    BZ2_bzDecompressEnd (&p->bs);
  p->bs_open = 0;
}


/* Run piece P's libbz2 once into OUT, ROOM bytes, and add the output
 * to *R_PRODUCED: up to the piece's end until the output begins, then
 * the rest of the magic after it (see the top of the file).  */
static int
piece_step (piece_t *p, unsigned char *out, size_t room, size_t *r_produced)
{
  size_t total = bitbuf_bytes (&p->stream);
  size_t end = p->begun ? total : p->split;
  size_t produced;
  int rc;

  if (!p->bs.avail_in && p->fed < end)
    {
      p->bs.next_in = (char *)p->stream.buf + p->fed;
      p->bs.avail_in = end - p->fed < INPUT_SLICE ? end - p->fed
                                                  : INPUT_SLICE;
      p->fed += p->bs.avail_in;
    }
  p->bs.next_out = (char *)out;
  p->bs.avail_out = room < UINT_MAX ? room : UINT_MAX;
  produced = p->bs.avail_out;
  rc = BZ2_bzDecompress (&p->bs);
  produced -= p->bs.avail_out;
  *r_produced += produced;
  if (produced)
    p->begun = 1;
  if (rc != BZ_OK)
    return rc == BZ_MEM_ERROR ? STEP_NOMEM : STEP_BAD;
  /* libbz2 stops with room for output only when it needs input.  */
  if (p->bs.avail_in || !p->bs.avail_out
      || p->fed < (p->begun ? total : p->split))
    return STEP_MORE;
  return p->begun ? STEP_DONE : STEP_BAD;
}


/* Decode piece P on a worker into its output buffer, until the block
 * is checked, the buffer is full (RUN_BIG: the libbz2 stays open) or
 * the reading thread stops.  */
static int
decode_piece (pbunzip2_t *pu, piece_t *p)
{
  int step = STEP_MORE;
  size_t room;

  p->outlen = 0;
  if (!p->out)
    p->out = malloc (PIECE_OUTPUT_MAX);
  if (!p->out || piece_open (p) != RUN_OK)
    return RUN_NOMEM;
  while (step == STEP_MORE)
    {
      if (atomic_load_explicit (&pu->stopping, memory_order_relaxed))
        break;
      room = PIECE_OUTPUT_MAX - p->outlen;
      if (!room)
        return RUN_BIG;
      step = piece_step (p, p->out + p->outlen,
                         room < OUTPUT_SLICE ? room : OUTPUT_SLICE,
                         &p->outlen);
    }
  piece_close (p);
  return step == STEP_DONE ? RUN_OK : step == STEP_NOMEM ? RUN_NOMEM
                                                         : RUN_BAD;
}


/* Whether worker INDEX has a piece to take; under the lock.  */
static int
has_work (int index)
{
  pbunzip2_t *pu = pool.owner;

  return (pu && index < pu->nthreads && !pu->stopping
          && pu->taken < pu->filling);
}


static void *
worker_main (void *arg)
{
  int index = (int)(intptr_t)arg;
  pbunzip2_t *pu;
  uint64_t seq;
  piece_t *p;
  int result;

  pthread_mutex_lock (&pool.lock);
  for (;;)
    {
      while (!pool.shutdown && !has_work (index))
        pthread_cond_wait (&pool.submitted, &pool.lock);
      if (pool.shutdown)
        break;
      pu = pool.owner;
      seq = pu->taken++;
      p = piece_at (pu, seq);
      pool.busy++;
      pthread_mutex_unlock (&pool.lock);
      result = p->decode ? decode_piece (pu, p) : RUN_BAD;
      pthread_mutex_lock (&pool.lock);
      p->result = result;
      p->done = 1;
      pthread_cond_broadcast (&pool.completed);
      /* A libbz2 left open goes to the reading thread before this
       * thread opens another: no more than one a thread.  */
      while (!pu->stopping && !pool.shutdown && result == RUN_BIG
             && pu->handed <= seq)
        pthread_cond_wait (&pool.submitted, &pool.lock);
      pool.busy--;
      pthread_cond_broadcast (&pool.completed);
    }
  pthread_mutex_unlock (&pool.lock);
  return NULL;
}


/* Wait until no worker has the piece at the head of the ring; return
 * whether no worker took it, which leaves it to the reading thread.  */
static int
claim_head (pbunzip2_t *pu)
{
  piece_t *p = piece_at (pu, pu->emitted);
  int claimed = 0;

  pthread_mutex_lock (&pool.lock);
  if (pu->taken == pu->emitted)
    {
      pu->taken++;
      p->done = 1;
      claimed = 1;
    }
  while (!p->done)
    pthread_cond_wait (&pool.completed, &pool.lock);
  /* Its libbz2, if a worker left it open, is the reading thread's.  */
  pu->handed = pu->emitted + 1;
  if (p->bs_open)
    pthread_cond_broadcast (&pool.submitted);
  pthread_mutex_unlock (&pool.lock);
  return claimed;
}


/* Give the slot of the oldest piece back.  */
static void
pop_piece (pbunzip2_t *pu)
{
  piece_t *p = piece_at (pu, pu->emitted);

  claim_head (pu);
  piece_close (p);
  pu->emitted++;
}


/* Read more input once the buffer is used up; it stays empty at the
 * end of the input.  */
static gpg_error_t
fill_input (pbunzip2_t *pu)
{
  gpg_error_t err;
  size_t n;

  if (pu->inpos == pu->inlen && !pu->input_eof)
    {
      err = pu->source (pu->source_ctx, pu->inbuf, sizeof pu->inbuf, &n);
      if (err)
        return err;
      pu->inpos = 0;
      pu->inlen = n;
      pu->input_eof = !n;
    }
  return 0;
}


/* Store the next input byte at *C, or -1 at the end of the input.  */
static gpg_error_t
next_byte (pbunzip2_t *pu, int *c)
{
  gpg_error_t err = fill_input (pu);

  if (err)
    return err;
  *c = pu->inpos < pu->inlen ? pu->inbuf[pu->inpos++] : -1;
  return 0;
}


/* Read "BZh" and the level digit, as libbz2 checks them.  */
static gpg_error_t
read_header (pbunzip2_t *pu)
{
  static const char magic[] = "BZh";
  gpg_error_t err;
  int i, c;

  for (i = 0; i < 4; i++)
    {
      err = next_byte (pu, &c);
      if (err)
        return err;
      if (c < 0)
        return fail_truncated ();
      if (i < 3 ? c != magic[i] : c < '1' || c > '9')
        return bzip2_decompress_error (BZ_DATA_ERROR_MAGIC);
    }
  pu->level = c - '0';
  return 0;
}


/* At exit: stop the pool's workers and wait for them.  */
static void
pool_shutdown (void)
{
  int i;

  pthread_mutex_lock (&pool.lock);
  pool.shutdown = 1;
  pthread_cond_broadcast (&pool.submitted);
  pthread_mutex_unlock (&pool.lock);
  for (i = 0; i < pool.nthreads; i++)
    pthread_join (pool.threads[i], NULL);
}


/* Have the pool's workers decode PU's pieces, starting those it lacks,
 * the first time a piece waits behind the one at the head of the ring:
 * until then the reading thread decodes alone, and on if the workers
 * work for another stream.  */
static gpg_error_t
attach_workers (pbunzip2_t *pu)
{
  gpg_error_t err = 0;
  int rc;

  pu->asked = 1;
  pthread_mutex_lock (&pool.lock);
  if (!pool.owner)
    {
      pool.owner = pu;
      pu->attached = 1;
    }
  if (pu->attached && !pool.exit_hook)
    pool.exit_hook = !atexit (pool_shutdown);
  while (!err && pu->attached && pool.exit_hook
         && pool.nthreads < pu->nthreads)
    {
      rc = pthread_create (&pool.threads[pool.nthreads], NULL, worker_main,
                           (void *)(intptr_t)pool.nthreads);
      if (rc)
        err = fail (gpg_error_from_errno (rc), "decryption failed",
                    "cannot start a thread: %s", strerror (rc));
      else
        pool.nthreads++;
    }
  pthread_mutex_unlock (&pool.lock);
  return err;
}


/* Append the piece of the first NBITS bits of RAW to the ring, cut at
 * the end of the input if INPUT_END, and hand it to the workers; the
 * next piece begins with NEXT_KIND.  */
static gpg_error_t
make_piece (pbunzip2_t *pu, uint64_t nbits, int next_kind, int input_end)
{
  piece_t *p = piece_at (pu, pu->filling);
  bitbuf_t swap;
  gpg_error_t err;

  p->kind = pu->raw_kind;
  p->input_end = input_end;
  p->nbits = nbits;
  p->decode = p->kind == PIECE_BLOCK && nbits >= BZIP2_BLOCK_HEAD_BITS
              && next_kind != PIECE_OTHER;
  p->split = (BZIP2_HEADER_BITS + nbits + 7) / 8;
  p->outlen = 0;
  p->emitted = 0;
  p->emitting = 0;
  p->done = 0;
  bitbuf_truncate (&p->stream, 0);
  err = bitbuf_put (&p->stream, 0x425a6830 + pu->level, BZIP2_HEADER_BITS);
  if (!err)
    err = bitbuf_append (&p->stream, pu->raw.buf, 0, nbits);
  if (!err && p->decode)
    err = bitbuf_put (&p->stream, next_kind == PIECE_BLOCK ? BZIP2_BLOCK_MAGIC
                                                           : BZIP2_END_MAGIC,
                      BZIP2_MAGIC_BITS);
  bitbuf_truncate (&pu->spare, 0);
  if (!err)
    err = bitbuf_append (&pu->spare, pu->raw.buf, nbits,
                         pu->raw.nbits - nbits);
  if (err)
    return fail_nomem ();
  swap = pu->raw;
  pu->raw = pu->spare;
  pu->spare = swap;
  pu->raw_kind = next_kind;
  pu->raw_start += nbits;
  pu->scan_done = input_end;
  if (p->decode && !pu->asked && pu->filling > pu->emitted)
    {
      err = attach_workers (pu);
      if (err)
        return err;
    }
  pthread_mutex_lock (&pool.lock);
  pu->filling++;
  pthread_cond_broadcast (&pool.submitted);
  pthread_mutex_unlock (&pool.lock);
  return 0;
}


/* The kind of piece that begins where the 48 bits at the bottom of
 * MAGIC are.  */
static int
magic_kind (uint64_t magic)
{
  magic &= MAGIC_MASK;
  return (magic == BZIP2_BLOCK_MAGIC ? PIECE_BLOCK
          : magic == BZIP2_END_MAGIC ? PIECE_END : PIECE_OTHER);
}


/* Mark in PU's filter the bits 8 to 23 of the window when a magic
 * ends S bits before the window's end, for S 0 to 7: all 16 are the
 * magic's.  */
static void
magic_filter_init (pbunzip2_t *pu)
{
  static const uint64_t magics[] = { BZIP2_BLOCK_MAGIC, BZIP2_END_MAGIC };
  unsigned int key;
  size_t i;
  int s;

  for (i = 0; i < sizeof magics / sizeof *magics; i++)
    for (s = 0; s < 8; s++)
      {
        key = ((magics[i] << s) >> 8) & 0xffff;
        pu->magic_filter[key / 8] |= 1 << (key % 8);
      }
}


/* Read the rest of the input buffer up to the byte in which a magic
 * ends, and return the kind of piece it begins, with in *R_SHIFT how
 * many bits of that byte follow it; PIECE_OTHER at the buffer's end.
 * The filter (see the top of the file) passes every byte in which a
 * magic ends.  */
static int
scan_buffer (pbunzip2_t *pu, int *r_shift)
{
  const unsigned char *filter = pu->magic_filter;
  uint64_t window = pu->window, scanned;
  unsigned int key;
  size_t first = pu->inpos, pos = pu->inpos;
  int s, kind = PIECE_OTHER;

  while (pos < pu->inlen && kind == PIECE_OTHER)
    {
      window = window << 8 | pu->inbuf[pos++];
      key = (window >> 8) & 0xffff;
      if (!(filter[key / 8] >> (key % 8) & 1))
        continue;
      scanned = pu->scanned + 8 * (uint64_t)(pos - first);
      if (scanned < BZIP2_MAGIC_BITS)
        continue;
      /* At most one magic ends in a byte: they are 45 bits apart at
       * least.  */
      s = scanned - BZIP2_MAGIC_BITS < 7 ? (int)(scanned - BZIP2_MAGIC_BITS)
                                         : 7;
      for (; s >= 0 && kind == PIECE_OTHER; s--)
        kind = magic_kind (window >> s);
      *r_shift = s + 1;
    }
  pu->window = window;
  pu->scanned += 8 * (uint64_t)(pos - first);
  pu->inpos = pos;
  return kind;
}


/* Read on until the next piece is cut and made; there must be room
 * in the ring.  The bytes scanned go into RAW a buffer at a time.  */
static gpg_error_t
scan_piece (pbunzip2_t *pu)
{
  gpg_error_t err;
  uint64_t start;
  size_t first;
  int shift = 0, kind;

  for (;;)
    {
      err = fill_input (pu);
      if (err)
        return err;
      if (pu->inpos == pu->inlen)
        return make_piece (pu, pu->raw.nbits, PIECE_OTHER, 1);
      first = pu->inpos;
      kind = scan_buffer (pu, &shift);
      if (bitbuf_append (&pu->raw, pu->inbuf + first, 0,
                         8 * (uint64_t)(pu->inpos - first)))
        return fail_nomem ();
      if (kind != PIECE_OTHER)
        {
          start = pu->scanned - BZIP2_MAGIC_BITS - shift - pu->raw_start;
          if (start)
            return make_piece (pu, start, kind, 0);
          pu->raw_kind = kind;
        }
      /* Every magic that begins 48 bits back has been seen.  */
      if (pu->raw.nbits > BLOCK_BITS_MAX (pu->level) + BZIP2_MAGIC_BITS)
        return make_piece (pu, pu->raw.nbits - BZIP2_MAGIC_BITS, PIECE_OTHER,
                           0);
    }
}


/* Make pieces while there is room, up to a piece that begins with the
 * end magic: what follows that is read only if it is needed.  */
static gpg_error_t
fill_ring (pbunzip2_t *pu)
{
  gpg_error_t err;

  while (!pu->scan_done && pu->filling - pu->emitted < pu->npieces
         && (pu->filling == pu->emitted
             || piece_at (pu, pu->filling - 1)->kind != PIECE_END))
    {
      err = scan_piece (pu);
      if (err)
        return err;
    }
  return 0;
}


/* Make sure piece SEQ exists.  */
static gpg_error_t
have_piece (pbunzip2_t *pu, uint64_t seq)
{
  gpg_error_t err;

  while (pu->filling <= seq)
    {
      if (pu->scan_done)
        return fail_truncated ();
      err = scan_piece (pu);
      if (err)
        return err;
    }
  return 0;
}


/* Append the bits of piece P to BB.  */
static gpg_error_t
append_piece (bitbuf_t *bb, piece_t *p)
{
  if (bitbuf_append (bb, p->stream.buf, BZIP2_HEADER_BITS, p->nbits))
    return fail_nomem ();
  return 0;
}


/* Start decoding the verified one-block stream in RUN into the reader,
 * adding its block's CRC to the combined CRC.  */
static gpg_error_t
start_streaming (pbunzip2_t *pu)
{
  memset (&pu->bs, 0, sizeof pu->bs);
  if (BZ2_bzDecompressInit (&pu->bs, 0, 0) != BZ_OK)
    return fail_nomem ();
  pu->bs.next_in = (char *)pu->run.buf;
  pu->bs.avail_in = bitbuf_bytes (&pu->run);
  pu->streaming = 1;
  pu->combined = bzip2_combine_crc
    (pu->combined, bits_get (pu->run.buf,
                             BZIP2_HEADER_BITS + BZIP2_MAGIC_BITS, 32));
  return 0;
}


static gpg_error_t
stream_run (pbunzip2_t *pu, unsigned char *buf, size_t size, size_t *nread)
{
  unsigned int room = size < UINT_MAX ? size : UINT_MAX;
  int rc;

  pu->bs.next_out = (char *)buf;
  pu->bs.avail_out = room;
  rc = BZ2_bzDecompress (&pu->bs);
  *nread = room - pu->bs.avail_out;
  if (rc == BZ_OK && (pu->bs.avail_in || pu->bs.avail_out != room))
    return 0;
  BZ2_bzDecompressEnd (&pu->bs);
  pu->streaming = 0;
  if (rc == BZ_STREAM_END && !pu->bs.avail_in)
    return 0;
  /* It was decoded once already: this is not the data's fault.  */
  return fail (gpg_error (GPG_ERR_INTERNAL), "decryption failed",
               "libbz2 decoded a verified bzip2 block differently (%d)", rc);
}


/* Check the piece run of RUN's first NBITS bits after the header as a
 * whole block; if it is one, make RUN that one-block stream.  */
static gpg_error_t
try_candidate (pbunzip2_t *pu, uint64_t nbits, int *r_good)
{
  bitbuf_t *c = &pu->candidate;
  int result;

  *r_good = 0;
  if (nbits < BZIP2_BLOCK_HEAD_BITS)
    return 0;
  bitbuf_truncate (c, 0);
  if (bitbuf_append (c, pu->run.buf, 0, BZIP2_HEADER_BITS + nbits)
      || bitbuf_put (c, BZIP2_END_MAGIC, BZIP2_MAGIC_BITS)
      || bitbuf_put (c, bits_get (pu->run.buf,
                                  BZIP2_HEADER_BITS + BZIP2_MAGIC_BITS, 32),
                     32))
    return fail_nomem ();
  result = check_run (c, pu->scratch);
  if (result == RUN_NOMEM)
    return fail_nomem ();
  if (result == RUN_BAD)
    return 0;
  bitbuf_truncate (&pu->run, 0);
  if (bitbuf_append (&pu->run, c->buf, 0, c->nbits))
    return fail_nomem ();
  *r_good = 1;
  return 0;
}


/* Feed BS the whole bytes of RUN from *FED on; set *R_OUTPUT when the
 * block's output begins.  */
static gpg_error_t
probe_feed (pbunzip2_t *pu, bz_stream *bs, size_t *fed, int *r_output)
{
  int rc;

  bs->next_in = (char *)pu->run.buf + *fed;
  bs->avail_in = pu->run.nbits / 8 - *fed;
  *fed = pu->run.nbits / 8;
  do
    {
      bs->next_out = (char *)pu->scratch;
      bs->avail_out = SCRATCH_SIZE;
      rc = BZ2_bzDecompress (bs);
      if (rc == BZ_STREAM_END || bs->avail_out != SCRATCH_SIZE)
        {
          *r_output = 1;
          return 0;
        }
      if (rc != BZ_OK)
        return bzip2_decompress_error (rc);
    }
  while (bs->avail_in);
  return 0;
}


static gpg_error_t start_serial (pbunzip2_t *pu);


/* The head piece begins with a block magic and does not decode as a
 * block: find the pieces the block spans (see the top of the file).  */
static gpg_error_t
probe_block (pbunzip2_t *pu)
{
  gpg_error_t err;
  bz_stream bs;
  uint64_t seq = pu->emitted, cut = 0, prev_cut = 0;
  size_t fed = 0;
  int output = 0, good = 0;
  piece_t *p;

  bitbuf_truncate (&pu->run, 0);
  if (bitbuf_put (&pu->run, 0x425a6830 + pu->level, BZIP2_HEADER_BITS))
    return fail_nomem ();
  memset (&bs, 0, sizeof bs);
  if (BZ2_bzDecompressInit (&bs, 0, 0) != BZ_OK)
    return fail_nomem ();
  for (;;)
    {
      err = have_piece (pu, seq);
      if (err)
        break;
      p = piece_at (pu, seq);
      err = append_piece (&pu->run, p);
      if (err)
        break;
      prev_cut = cut;
      cut = pu->run.nbits - BZIP2_HEADER_BITS;
      while (pu->emitted < seq)
        pop_piece (pu);
      err = probe_feed (pu, &bs, &fed, &output);
      if (err || output)
        break;
      if (p->input_end)
        {
          err = fail_truncated ();
          break;
        }
      if (cut > BLOCK_BITS_MAX (pu->level))
        break;
      seq++;
    }
  BZ2_bzDecompressEnd (&bs);
  if (err)
    return err;
  /* Longer than any encoder writes.  */
  if (!output)
    return start_serial (pu);
  /* The block ends after the cut before PREV_CUT's piece, so at
   * PREV_CUT or at CUT; when only the head piece was fed, it failed
   * alone already.  */
  if (prev_cut)
    {
      err = try_candidate (pu, prev_cut, &good);
      if (!err && !good)
        {
          err = try_candidate (pu, cut, &good);
          if (!err && good)
            pop_piece (pu);
        }
      if (err)
        return err;
    }
  if (!good)
    return fail_corrupted ();
  return start_streaming (pu);
}


/* Stop the workers' work for PU, wait until none holds a piece of it,
 * and give them back to the pool.  */
static void
stop_workers (pbunzip2_t *pu)
{
  pthread_mutex_lock (&pool.lock);
  pu->stopping = 1;
  if (pu->attached)
    {
      pthread_cond_broadcast (&pool.submitted);
      while (pool.busy)
        pthread_cond_wait (&pool.completed, &pool.lock);
      pool.owner = NULL;
      pu->attached = 0;
    }
  pthread_mutex_unlock (&pool.lock);
}


/* Free the pieces and the buffers.  */
static void
free_pieces (pbunzip2_t *pu)
{
  size_t i;

  for (i = 0; pu->pieces && i < pu->npieces; i++)
    {
      piece_close (&pu->pieces[i]);
      bitbuf_release (&pu->pieces[i].stream);
      free (pu->pieces[i].out);
    }
  free (pu->pieces);
  pu->pieces = NULL;
  bitbuf_release (&pu->raw);
  bitbuf_release (&pu->spare);
  bitbuf_release (&pu->run);
  bitbuf_release (&pu->candidate);
}


/* Store at DATA the FORGED_LEN bytes whose bzip2 CRC is CRC.  Four
 * bytes DATA turn the CRC register R into (R ^ DATA) x^32 modulo the
 * polynomial, and the CRC is that register inverted: so DATA is the
 * inverted CRC divided by x^32 (the register shifted back 32 times)
 * XOR the initial register, all ones.  */
static void
forge_crc_bytes (uint32_t crc, unsigned char *data)
{
  uint32_t r = ~crc;
  int i;

  for (i = 0; i < 32; i++)
    r = r & 1 ? ((r ^ BZIP2_CRC_POLY) >> 1) | 0x80000000 : r >> 1;
  r ^= 0xffffffff;
  for (i = 0; i < FORGED_LEN; i++)
    data[i] = r >> (24 - 8 * i);
}


/* Append to BB the bits of a block whose CRC is CRC.  */
static gpg_error_t
append_forged_block (bitbuf_t *bb, uint32_t crc)
{
  unsigned char data[FORGED_LEN], stream[128];
  unsigned int len = sizeof stream;
  uint64_t end;
  int pad;

  forge_crc_bytes (crc, data);
  if (BZ2_bzBuffToBuffCompress ((char *)stream, &len, (char *)data,
                                sizeof data, 1, 0, 0) != BZ_OK)
    return fail_nomem ();
  /* After the block: the end magic, the combined CRC (the block's
   * own) and fewer than 8 zero bits.  */
  for (pad = 0; pad < 8; pad++)
    {
      end = 8 * (uint64_t)len - pad - BZIP2_TRAILER_BITS;
      if (bits_get (stream, end, BZIP2_MAGIC_BITS) == BZIP2_END_MAGIC
          && bits_get (stream, end + BZIP2_MAGIC_BITS, 32) == crc)
        break;
    }
  if (pad == 8)
    return fail (gpg_error (GPG_ERR_INTERNAL), "decryption failed",
                 "libbz2 wrote no end magic after a block");
  if (bitbuf_append (bb, stream, BZIP2_HEADER_BITS, end - BZIP2_HEADER_BITS))
    return fail_nomem ();
  return 0;
}


/* Make RUN the bits in CANDIDATE and the input not read yet, from its
 * first byte on; CANDIDATE gets RUN's buffer.  */
static gpg_error_t
run_from_candidate (pbunzip2_t *pu)
{
  bitbuf_t swap;

  if (bitbuf_append (&pu->candidate, pu->inbuf + pu->inpos, 0,
                     8 * (uint64_t)(pu->inlen - pu->inpos)))
    return fail_nomem ();
  pu->inpos = pu->inlen;
  swap = pu->run;
  pu->run = pu->candidate;
  pu->candidate = swap;
  pu->fed = 0;
  return 0;
}


/* The head block is longer than any encoder writes, and RUN holds the
 * header and its bits up to the end of the head piece: hand it and the
 * rest of the stream to one libbz2 (see the top of the file).  */
static gpg_error_t
start_serial (pbunzip2_t *pu)
{
  bitbuf_t *c = &pu->candidate;
  gpg_error_t err;

  bitbuf_truncate (c, 0);
  if (bitbuf_put (c, 0x425a6830 + pu->level, BZIP2_HEADER_BITS))
    return fail_nomem ();
  err = append_forged_block (c, pu->combined);
  if (err)
    return err;
  if (bitbuf_append (c, pu->run.buf, BZIP2_HEADER_BITS,
                     pu->run.nbits - BZIP2_HEADER_BITS))
    return fail_nomem ();
  pop_piece (pu);
  for (; pu->emitted < pu->filling; pop_piece (pu))
    {
      err = append_piece (c, piece_at (pu, pu->emitted));
      if (err)
        return err;
    }
  if (bitbuf_append (c, pu->raw.buf, 0, pu->raw.nbits))
    return fail_nomem ();
  err = run_from_candidate (pu);
  if (err)
    return err;
  stop_workers (pu);
  memset (&pu->bs, 0, sizeof pu->bs);
  if (BZ2_bzDecompressInit (&pu->bs, 0, 0) != BZ_OK)
    return fail_nomem ();
  pu->serial = 1;
  pu->skip = FORGED_LEN;
  return 0;
}


/* All the whole bytes of RUN are fed: keep its last bits and add the
 * next input, or at its end those bits padded to a byte.  */
static gpg_error_t
serial_refill (pbunzip2_t *pu)
{
  uint64_t kept = pu->run.nbits - 8 * (uint64_t)pu->fed;
  gpg_error_t err;

  bitbuf_truncate (&pu->candidate, 0);
  if (bitbuf_append (&pu->candidate, pu->run.buf, 8 * (uint64_t)pu->fed,
                     kept))
    return fail_nomem ();
  err = fill_input (pu);
  if (err)
    return err;
  if (pu->inpos == pu->inlen)
    {
      if (!kept)
        return fail_truncated ();
      /* The forged block shifted the stream's bits: its last ones may
       * be fewer than a byte here.  Pad them as bzip2 pads.  */
      if (bitbuf_put (&pu->candidate, 0, 8 - kept))
        return fail_nomem ();
    }
  return run_from_candidate (pu);
}


/* Read the output of the rest of the stream, decoded serially.  */
static gpg_error_t
serial_read (pbunzip2_t *pu, unsigned char *buf, size_t size, size_t *nread)
{
  unsigned int room = size < UINT_MAX ? size : UINT_MAX;
  size_t whole, n, drop;
  gpg_error_t err;
  int rc;

  for (;;)
    {
      whole = pu->run.nbits / 8;
      pu->bs.next_in = (char *)pu->run.buf + pu->fed;
      pu->bs.avail_in = whole - pu->fed;
      pu->bs.next_out = (char *)buf;
      pu->bs.avail_out = room;
      rc = BZ2_bzDecompress (&pu->bs);
      pu->fed = whole - pu->bs.avail_in;
      n = room - pu->bs.avail_out;
      drop = n < pu->skip ? n : pu->skip;
      memmove (buf, buf + drop, n - drop);
      n -= drop;
      pu->skip -= drop;
      if (rc == BZ_STREAM_END)
        {
          BZ2_bzDecompressEnd (&pu->bs);
          pu->serial = 0;
          pu->finished = 1;
          free_pieces (pu);
          *nread = n;
          return 0;
        }
      if (rc != BZ_OK)
        return bzip2_decompress_error (rc);
      if (n)
        {
          *nread = n;
          return 0;
        }
      if (!pu->bs.avail_in)
        {
          err = serial_refill (pu);
          if (err)
            return err;
        }
    }
}


/* The head piece begins with the end magic: check the combined CRC
 * that follows it, and end.  */
static gpg_error_t
end_of_stream (pbunzip2_t *pu)
{
  gpg_error_t err;
  uint64_t seq;

  bitbuf_truncate (&pu->run, 0);
  for (seq = pu->emitted; pu->run.nbits < BZIP2_TRAILER_BITS; seq++)
    {
      err = have_piece (pu, seq);
      if (!err)
        err = append_piece (&pu->run, piece_at (pu, seq));
      if (err)
        return err;
      if (pu->run.nbits < BZIP2_TRAILER_BITS && piece_at (pu, seq)->input_end)
        return fail_truncated ();
    }
  if (bits_get (pu->run.buf, BZIP2_MAGIC_BITS, 32) != pu->combined)
    return fail_corrupted ();
  /* As the serial reader, give the memory back now: a layer nested
   * inside may still run.  */
  pu->finished = 1;
  stop_workers (pu);
  free_pieces (pu);
  return 0;
}


/* Add the CRC of the block of piece P to the combined CRC.  */
static void
combine_piece_crc (pbunzip2_t *pu, piece_t *p)
{
  pu->combined = bzip2_combine_crc
    (pu->combined, bits_get (p->stream.buf,
                             BZIP2_HEADER_BITS + BZIP2_MAGIC_BITS, 32));
}


/* Take the next block at the head of the ring: its output held, its
 * libbz2 to go on with, or to be decoded by the reading thread.  */
static gpg_error_t
take_head (pbunzip2_t *pu)
{
  gpg_error_t err;
  piece_t *p;
  int claimed;

  err = fill_ring (pu);
  if (err)
    return err;
  if (pu->emitted == pu->filling)
    return fail_truncated ();
  p = piece_at (pu, pu->emitted);
  claimed = claim_head (pu);
  if (p->kind == PIECE_END)
    return end_of_stream (pu);
  if (p->kind == PIECE_OTHER)
    return p->input_end && p->nbits < BZIP2_MAGIC_BITS ? fail_truncated ()
                                                       : fail_corrupted ();
  if (!p->decode)
    return probe_block (pu);
  if (claimed)
    {
      p->outlen = 0;
      if (piece_open (p) != RUN_OK)
        return fail_nomem ();
      p->emitting = 1;
      return 0;
    }
  if (p->result == RUN_NOMEM)
    return fail_nomem ();
  if (p->result == RUN_OK)
    combine_piece_crc (pu, p);
  if (p->result == RUN_OK || p->result == RUN_BIG)
    {
      p->emitting = 1;
      return 0;
    }
  return probe_block (pu);
}


/* Pass on the output of the block at the head of the ring: what is
 * held, then what its libbz2 gives, if it is open.  */
static gpg_error_t
emit_head (pbunzip2_t *pu, unsigned char *buf, size_t size, size_t *nread)
{
  piece_t *p = piece_at (pu, pu->emitted);
  size_t n = p->outlen - p->emitted;
  int step = STEP_DONE;

  if (n)
    {
      n = n < size ? n : size;
      memcpy (buf, p->out + p->emitted, n);
      p->emitted += n;
      *nread = n;
      if (p->emitted == p->outlen && !p->bs_open)
        pop_piece (pu);
      return 0;
    }
  if (p->bs_open)
    {
      do
        step = piece_step (p, buf, size, nread);
      while (step == STEP_MORE && !*nread);
      if (step == STEP_NOMEM)
        return fail_nomem ();
      if (step == STEP_BAD && !p->begun)
        {
          /* Only a piece no worker took gets here: probe it.  */
          *nread = 0;
          piece_close (p);
          p->emitting = 0;
          return probe_block (pu);
        }
      if (step == STEP_BAD)
        return fail_corrupted ();
      if (step == STEP_DONE)
        combine_piece_crc (pu, p);
    }
  if (step == STEP_DONE)
    pop_piece (pu);
  return 0;
}


gpg_error_t
pbunzip2_read (void *ctx, unsigned char *buf, size_t size, size_t *nread)
{
  pbunzip2_t *pu = ctx;
  gpg_error_t err;
  piece_t *p;

  *nread = 0;
  if (!size)
    return 0;
  if (!pu->level)
    {
      err = read_header (pu);
      if (err)
        return err;
    }
  while (!pu->finished)
    {
      if (pu->serial)
        return serial_read (pu, buf, size, nread);
      if (pu->streaming)
        {
          err = stream_run (pu, buf, size, nread);
          if (err || *nread)
            return err;
          continue;
        }
      p = pu->emitted < pu->filling ? piece_at (pu, pu->emitted) : NULL;
      if (p && p->emitting)
        err = emit_head (pu, buf, size, nread);
      else
        err = take_head (pu);
      if (err || *nread)
        return err;
    }
  return 0;
}


gpg_error_t
pbunzip2_new (pbunzip2_t **r_pu, int nthreads, source_fn_t source,
              void *source_ctx)
{
  pbunzip2_t *pu;

  *r_pu = NULL;
  pu = calloc (1, sizeof *pu);
  if (!pu)
    return fail (gpg_error_from_syserror (), "out of core", NULL);
  pu->source = source;
  pu->source_ctx = source_ctx;
  if (nthreads > PBUNZIP2_THREADS_MAX)
    nthreads = PBUNZIP2_THREADS_MAX;
  pu->nthreads = nthreads;
  pu->npieces = 2 * (size_t)nthreads + 1;
  magic_filter_init (pu);
  *r_pu = pu;
  pu->pieces = calloc (pu->npieces, sizeof *pu->pieces);
  if (!pu->pieces)
    return fail (gpg_error_from_syserror (), "out of core", NULL);
  return 0;
}


void
pbunzip2_release (pbunzip2_t *pu)
{
  if (!pu)
    return;
  stop_workers (pu);
  if (pu->streaming || pu->serial)
    BZ2_bzDecompressEnd (&pu->bs);
  free_pieces (pu);
  free (pu);
}
