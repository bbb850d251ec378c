/* inflate-parallel.c - a raw deflate stream inflated on several
 * threads, segment by segment
 *
 * The pieces live in a ring numbered in stream order: the reading
 * thread fills piece FILLING from the source and cuts it after a mark,
 * carrying the bytes past the mark into the next piece; workers take
 * the cut pieces in order (TAKEN) and record a verdict; the reading
 * thread hands out the output of piece EMITTING once its verdict is in.
 * The first piece, and any piece that is both EMITTING and FILLING
 * when the source has no bytes ready, is the reading thread's own
 * (STREAMING): it inflates it as its bytes arrive and hands out the
 * output at once, so that a stream that stalls, or has no mark, gives
 * its output as on one thread; the workers skip that piece.
 * A slot is filled again only after its piece was handed out, so a
 * worker and the reading thread never write the same piece, and the
 * ring bounds the memory whatever the stream.
 *
 * The serial path, once taken, reads a stream made up for it (replay
 * below): a stored block that holds the window, so that the engine
 * starts primed with it, then the pieces still held from the first one
 * not accepted, then the rest of the source.  Its first WINDOW_LEN
 * bytes of output are the window again, and are dropped.
 */
#include <config.h>

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#ifdef HAVE_ISAL
# include <isa-l/igzip_lib.h>
#endif

#include "error.h"
#include "log.h"
#include "deflate-engine.h"
#include "pdeflate.h"
#include "inflate-parallel.h"

/* The output of one of sfenc's segments, with room to spare so that
 * a decoder that has filled it still reads the mark that follows.  */
#define PIECE_OUT_MAX \
  (PDEFLATE_SEGMENT_BLOCKS * DEFLATE_BLOCK_SIZE + (size_t)4096)

/* The compressed bytes of one piece: a segment of sfenc's never comes
 * near, stored or not (deflate-engine.h).  A piece that fills it
 * without a mark is not one of sfenc's segments.  */
#define PIECE_IN_MAX (PDEFLATE_SEGMENT_BLOCKS * DEFLATE_OUT_MAX)

/* The window of deflate: as far back as a reference reaches.  */
#define WINDOW_MAX ((size_t)32 * 1024)

/* BFINAL and BTYPE 00 in a byte of their own, LEN and NLEN.  */
#define STORED_HEADER_LEN 5

enum verdict
  {
    PIECE_PENDING,
    PIECE_BOUNDARY,             /* Ended exactly at a block boundary.  */
    PIECE_END,                  /* The stream ended in it.  */
    PIECE_DOUBT                 /* Anything else.  */
  };

typedef struct piece
{
  size_t len;                   /* Its bytes, once cut.  */
  size_t fill;                  /* Bytes read in, past LEN once cut.  */
  size_t outlen;
  size_t end;                   /* Where the stream ended in it.  */
  enum verdict verdict;         /* Under the lock.  */
  int has_adler;                /* A worker summed its output (ZLIB).  */
  uLong adler;
  unsigned char in[PIECE_IN_MAX];
  unsigned char out[PIECE_OUT_MAX];
} piece_t;

/* The decoder of one worker, with an empty window for each piece.  */
typedef struct decoder
{
  enum inflate_impl impl;
  z_stream zs;
  int zs_open;
  size_t fed;                   /* Bytes of the piece consumed.  */
#ifdef HAVE_ISAL
  struct inflate_state *isal;
#endif
} decoder_t;

typedef struct worker
{
  inflate_parallel_t *pi;
  decoder_t dec;
  pthread_t thread;
  int started;
} worker_t;

struct inflate_parallel
{
  enum inflate_impl impl;
  enum inflate_framing framing;
  int header_read;              /* ZLIB: its header was read and taken.  */
  int trailer_read;             /* ZLIB: its Adler-32 was read and matched.  */
  uLong adler;                  /* ZLIB: of the output handed out.  */
  const char *reason;           /* Why the frame was refused.  */
  source_fn_t source;
  void *source_ctx;
  input_ready_fn_t ready;
  void *ready_ctx;
  int source_eof;
  gpg_error_t source_err;       /* Where the source ended, for the replay.  */
  int nthreads;
  piece_t *pieces;
  size_t npieces;
  uint64_t filling;             /* Changed by the reading thread, locked.  */
  uint64_t taken;               /* Under the lock.  */
  uint64_t emitting;            /* The reading thread's alone.  */
  size_t out_pos;               /* In piece EMITTING, once accepted.  */
  int accepted;                 /* Piece EMITTING is.  */
  int streaming;                /* The reading thread inflates it.  */
  decoder_t head;               /* With which.  */
  int ended;                    /* The stream ended in piece EMITTING.  */
  int stopping;                 /* Under the lock.  */
  worker_t *workers;
  int nworkers;
  pthread_mutex_t lock;
  pthread_cond_t submitted;
  pthread_cond_t completed;
  inflate_engine_t *serial;     /* Once the serial path is taken.  */
  uint64_t replay_seq;          /* The piece the replay reads.  */
  size_t replay_pos;            /* In the prefix, then in that piece.  */
  size_t prefix_len;
  /* A stored block header, then the last WINDOW_LEN bytes of output. */
  unsigned char prefix[STORED_HEADER_LEN + WINDOW_MAX];
  size_t window_len;
};


static piece_t *
piece_at (inflate_parallel_t *pi, uint64_t seq)
{
  return &pi->pieces[seq % pi->npieces];
}


/* Start inflating P with DEC, from an empty window.  */
static void
decoder_begin (decoder_t *dec, piece_t *p)
{
  dec->fed = 0;
  p->outlen = 0;
#ifdef HAVE_ISAL
  if (dec->impl == INFLATE_IMPL_ISAL)
    {
      isal_inflate_reset (dec->isal);
      dec->isal->crc_flag = ISAL_DEFLATE;
      dec->isal->next_out = p->out;
      dec->isal->avail_out = sizeof p->out;
      return;
    }
#endif
  inflateReset (&dec->zs);
  dec->zs.next_out = p->out;
  dec->zs.avail_out = sizeof p->out;
}


/* Go on inflating P with zlib up to byte UPTO of its input, which is
 * all of it when COMPLETE: block by block, so that zlib stops where a
 * block ends and tells whether the input ended there.  Its data_type
 * then has 128 at a block boundary, 64 once the last block began, and
 * the bits left of the last byte read in its low bits.  After the
 * last block, one more call ends the stream.  */
static enum verdict
feed_zlib (decoder_t *dec, piece_t *p, size_t upto, int complete)
{
  z_stream *zs = &dec->zs;
  int rc;

  zs->next_in = p->in + dec->fed;
  zs->avail_in = upto - dec->fed;
  do
    rc = inflate (zs, Z_BLOCK);
  while (rc == Z_OK && zs->avail_out
         && (zs->avail_in || (zs->data_type & 64)));
  dec->fed = upto - zs->avail_in;
  p->outlen = sizeof p->out - zs->avail_out;
  if (rc == Z_STREAM_END)
    {
      /* zlib reads no byte past the end.  */
      p->end = dec->fed;
      return PIECE_END;
    }
  if (!zs->avail_out)
    return PIECE_DOUBT;
  /* Short of input, zlib says Z_BUF_ERROR inside the last block.  */
  if (!complete && (rc == Z_OK || rc == Z_BUF_ERROR))
    return PIECE_PENDING;
  if (rc != Z_OK || zs->avail_in
      || (zs->data_type & (128 | 64 | 7)) != 128)
    return PIECE_DOUBT;
  return PIECE_BOUNDARY;
}


#ifdef HAVE_ISAL
/* As feed_zlib, with isal_inflate, which stops only where the input
 * or the output ends.  */
static enum verdict
feed_isal (decoder_t *dec, piece_t *p, size_t upto, int complete)
{
  struct inflate_state *s = dec->isal;
  int rc;

  s->next_in = p->in + dec->fed;
  s->avail_in = upto - dec->fed;
  rc = isal_inflate (s);
  dec->fed = upto - s->avail_in;
  p->outlen = sizeof p->out - s->avail_out;
  if (rc != ISAL_DECOMP_OK)
    return PIECE_DOUBT;
  if (s->block_state == ISAL_BLOCK_FINISH)
    {
      /* The whole bytes in its bit buffer are past the end; its buffer
       * for short input is empty by then (inflate-engine.c).  */
      if (s->tmp_in_size)
        return PIECE_DOUBT;
      p->end = dec->fed - s->read_in_length / 8;
      return PIECE_END;
    }
  if (!s->avail_out)
    return PIECE_DOUBT;
  if (!complete)
    return PIECE_PENDING;
  /* Fed in steps, isal_inflate that ran out of input where a block
   * ended is left in ISAL_BLOCK_HDR, having tried the next header and
   * kept nothing of it.  */
  if (s->avail_in || s->tmp_in_size || s->read_in_length || s->bfinal
      || (s->block_state != ISAL_BLOCK_NEW_HDR
          && s->block_state != ISAL_BLOCK_HDR))
    return PIECE_DOUBT;
  return PIECE_BOUNDARY;
}
#endif


/* Go on inflating P up to byte UPTO of its input: PIECE_PENDING while
 * the input is not COMPLETE and nothing went wrong yet.  */
static enum verdict
decoder_feed (decoder_t *dec, piece_t *p, size_t upto, int complete)
{
#ifdef HAVE_ISAL
  if (dec->impl == INFLATE_IMPL_ISAL)
    return feed_isal (dec, p, upto, complete);
#endif
  return feed_zlib (dec, p, upto, complete);
}


static gpg_error_t
decoder_init (decoder_t *dec, enum inflate_impl impl)
{
  dec->impl = impl;
#ifdef HAVE_ISAL
  if (impl == INFLATE_IMPL_ISAL)
    {
      dec->isal = malloc (sizeof *dec->isal);
      if (!dec->isal)
        return gpg_error_from_syserror ();
      isal_inflate_init (dec->isal);
      return 0;
    }
#endif
  if (inflateInit2 (&dec->zs, -MAX_WBITS) != Z_OK)
    return gpg_error (GPG_ERR_ENOMEM);
  dec->zs_open = 1;
  return 0;
}


static void
decoder_release (decoder_t *dec)
{
  if (dec->zs_open)
    inflateEnd (&dec->zs);
#ifdef HAVE_ISAL
  free (dec->isal);
#endif
}


/* The Adler-32 (RFC 1950) of the LEN bytes of output at BUF, on from
 * ADLER.  */
static uLong
output_adler (uLong adler, const unsigned char *buf, size_t len)
{
#ifdef HAVE_ISAL
  /* Three times as fast as zlib's adler32 on this code's machines.  */
  return isal_adler32 (adler, buf, len);
#else
  return adler32 (adler, buf, len);
#endif
}


static void *
worker_main (void *arg)
{
  worker_t *w = arg;
  inflate_parallel_t *pi = w->pi;
  enum verdict verdict;
  piece_t *p;

  pthread_mutex_lock (&pi->lock);
  for (;;)
    {
      while (!pi->stopping && pi->taken == pi->filling)
        pthread_cond_wait (&pi->submitted, &pi->lock);
      if (pi->stopping)
        break;
      p = piece_at (pi, pi->taken++);
      pthread_mutex_unlock (&pi->lock);
      decoder_begin (&w->dec, p);
      verdict = decoder_feed (&w->dec, p, p->len, 1);
      if (pi->framing == INFLATE_ZLIB && verdict != PIECE_DOUBT)
        p->adler = output_adler (adler32 (0, NULL, 0), p->out, p->outlen);
      pthread_mutex_lock (&pi->lock);
      p->has_adler = pi->framing == INFLATE_ZLIB;
      p->verdict = verdict;
      pthread_cond_broadcast (&pi->completed);
    }
  pthread_mutex_unlock (&pi->lock);
  return NULL;
}


/* Start the workers, at the first piece cut for them.  */
static gpg_error_t
start_workers (inflate_parallel_t *pi)
{
  gpg_error_t err;
  worker_t *w;
  int i, rc;

  pi->workers = calloc (pi->nthreads, sizeof *pi->workers);
  if (!pi->workers)
    return fail (gpg_error_from_syserror (), "out of core", NULL);
  pi->nworkers = pi->nthreads;
  log_info ("inflating independent segments on %d threads", pi->nthreads);
  for (i = 0; i < pi->nworkers; i++)
    {
      w = &pi->workers[i];
      w->pi = pi;
      err = decoder_init (&w->dec, pi->impl);
      if (err)
        return fail (err, "out of core", NULL);
      rc = pthread_create (&w->thread, NULL, worker_main, w);
      if (rc)
        return fail (gpg_error_from_errno (rc), "decryption failed",
                     "cannot start a thread: %s", strerror (rc));
      w->started = 1;
    }
  return 0;
}


static void
stop_workers (inflate_parallel_t *pi)
{
  int i;

  pthread_mutex_lock (&pi->lock);
  pi->stopping = 1;
  pthread_cond_broadcast (&pi->submitted);
  pthread_mutex_unlock (&pi->lock);
  for (i = 0; i < pi->nworkers; i++)
    {
      if (pi->workers[i].started)
        pthread_join (pi->workers[i].thread, NULL);
      decoder_release (&pi->workers[i].dec);
    }
  free (pi->workers);
  pi->workers = NULL;
  pi->nworkers = 0;
}


/* Cut piece FILLING at LEN and start the next one with the bytes past
 * the cut.  Hand the piece to the workers unless the reading thread
 * inflates it (STREAMED): then the workers skip it.  */
static gpg_error_t
cut_piece (inflate_parallel_t *pi, size_t len, int streamed)
{
  piece_t *p = piece_at (pi, pi->filling);
  piece_t *next = piece_at (pi, pi->filling + 1);
  gpg_error_t err;

  if (!streamed && !pi->workers)
    {
      err = start_workers (pi);
      if (err)
        return err;
    }
  p->len = len;
  p->verdict = PIECE_PENDING;
  next->fill = p->fill - len;
  memcpy (next->in, p->in + len, next->fill);
  pthread_mutex_lock (&pi->lock);
  pi->filling++;
  if (streamed)
    pi->taken++;
  else
    pthread_cond_signal (&pi->submitted);
  pthread_mutex_unlock (&pi->lock);
  return 0;
}


/* The end of the first mark in the LEN bytes at P, or 0.  */
static size_t
find_mark (const unsigned char *p, size_t len)
{
  const unsigned char *m;

  m = memmem (p, len, PDEFLATE_SEGMENT_MARK, PDEFLATE_SEGMENT_MARK_LEN);
  return m ? (size_t)(m - p) + PDEFLATE_SEGMENT_MARK_LEN : 0;
}


/* Have the reading thread inflate piece FILLING, the next to be
 * handed out, as its bytes arrive.  */
static void
stream_head (inflate_parallel_t *pi)
{
  piece_t *p = piece_at (pi, pi->filling);

  decoder_begin (&pi->head, p);
  p->has_adler = 0;
  pi->streaming = 1;
}


/* Whether the workers' verdict on piece EMITTING is in.  */
static int
verdict_in (inflate_parallel_t *pi)
{
  int in;

  if (pi->emitting == pi->filling)
    return 0;
  pthread_mutex_lock (&pi->lock);
  in = piece_at (pi, pi->emitting)->verdict != PIECE_PENDING;
  pthread_mutex_unlock (&pi->lock);
  return in;
}


/* Read into the pieces and cut them at the marks while the ring has a
 * slot for the piece after the one filling, until the verdict on
 * piece EMITTING is in, and while the source has bytes ready: its
 * output goes out before a read that may wait for input.  When the
 * source has none and the piece filling is the one to be handed out
 * next, the reading thread streams it.  Set *R_DOUBT when a piece
 * fills without a mark or the source fails.  */
static gpg_error_t
fill_pieces (inflate_parallel_t *pi, int *r_doubt)
{
  gpg_error_t err;
  piece_t *p;
  size_t n, scanned = 0, cut;

  *r_doubt = 0;
  while (!pi->source_eof && pi->filling + 1 - pi->emitting < pi->npieces)
    {
      p = piece_at (pi, pi->filling);
      cut = find_mark (p->in + scanned, p->fill - scanned);
      if (cut)
        {
          err = cut_piece (pi, scanned + cut, 0);
          if (err)
            return err;
          scanned = 0;
          continue;
        }
      if (p->fill == sizeof p->in)
        {
          *r_doubt = 1;
          return 0;
        }
      if (verdict_in (pi))
        return 0;
      if (!pi->ready (pi->ready_ctx))
        {
          if (pi->emitting == pi->filling)
            stream_head (pi);
          return 0;
        }
      if (p->fill >= PDEFLATE_SEGMENT_MARK_LEN)
        scanned = p->fill - PDEFLATE_SEGMENT_MARK_LEN + 1;
      err = pi->source (pi->source_ctx, p->in + p->fill,
                        sizeof p->in - p->fill, &n);
      if (err)
        {
          /* The serial path gives the output of the bytes before the
           * error first, as on one thread.  */
          pi->source_err = err;
          pi->source_eof = 1;
          *r_doubt = 1;
          return 0;
        }
      p->fill += n;
      if (n)
        continue;
      pi->source_eof = 1;
      return cut_piece (pi, p->fill, 0);
    }
  return 0;
}


/* The source of the serial path: the prefix, the pieces from
 * EMITTING on, then the source.  */
static gpg_error_t
replay_read (void *ctx, unsigned char *buf, size_t size, size_t *nread)
{
  inflate_parallel_t *pi = ctx;
  const unsigned char *from;
  size_t avail;
  piece_t *p;

  for (;;)
    {
      if (pi->replay_pos < pi->prefix_len)
        {
          from = pi->prefix + pi->replay_pos;
          avail = pi->prefix_len - pi->replay_pos;
        }
      else if (pi->replay_seq <= pi->filling)
        {
          p = piece_at (pi, pi->replay_seq);
          avail = pi->replay_seq < pi->filling ? p->len : p->fill;
          from = p->in + (pi->replay_pos - pi->prefix_len);
          avail -= pi->replay_pos - pi->prefix_len;
          if (!avail)
            {
              pi->replay_seq++;
              pi->replay_pos = pi->prefix_len;
              continue;
            }
        }
      else if (pi->source_eof)
        {
          *nread = 0;
          return pi->source_err;
        }
      else
        return pi->source (pi->source_ctx, buf, size, nread);
      if (avail > size)
        avail = size;
      memcpy (buf, from, avail);
      pi->replay_pos += avail;
      *nread = avail;
      return 0;
    }
}


/* Take the serial path from piece EMITTING on: an engine over the
 * replay, past the window it gives back first and the output of the
 * piece already handed out.  */
static gpg_error_t
fall_back (inflate_parallel_t *pi)
{
  unsigned char *scratch = piece_at (pi, pi->emitting)->out;
  size_t n = 1, skip = pi->window_len;
  gpg_error_t err;

  stop_workers (pi);
  pi->prefix[0] = 0;
  pi->prefix[1] = skip;
  pi->prefix[2] = skip >> 8;
  pi->prefix[3] = ~skip;
  pi->prefix[4] = ~skip >> 8;
  pi->prefix_len = skip ? STORED_HEADER_LEN + skip : 0;
  skip += pi->out_pos;
  pi->replay_seq = pi->emitting;
  pi->replay_pos = 0;
  log_info ("no independent segments from segment %llu on:"
            " inflating on one thread", (unsigned long long)pi->emitting);
  err = inflate_engine_new (&pi->serial, pi->impl, INFLATE_RAW,
                            replay_read, pi);
  if (err)
    return fail (err, "out of core", NULL);
  /* The engine gives that much, unless it fails first: it inflates
   * the same bytes from the same window.  */
  for (; skip && n && !err; skip -= n)
    err = inflate_engine_read (pi->serial, scratch,
                               skip < WINDOW_MAX ? skip : WINDOW_MAX, &n);
  return err;
}


/* Keep the last WINDOW_MAX bytes of output, with the LEN at OUT.  */
static void
update_window (inflate_parallel_t *pi, const unsigned char *out, size_t len)
{
  unsigned char *window = pi->prefix + STORED_HEADER_LEN;
  size_t keep;

  if (len >= WINDOW_MAX)
    {
      memcpy (window, out + len - WINDOW_MAX, WINDOW_MAX);
      pi->window_len = WINDOW_MAX;
      return;
    }
  keep = WINDOW_MAX - len;
  if (keep > pi->window_len)
    keep = pi->window_len;
  memmove (window, window + pi->window_len - keep, keep);
  memcpy (window + keep, out, len);
  pi->window_len = keep + len;
}


/* Accept piece EMITTING, on VERDICT, or take the serial path.  */
static gpg_error_t
judge_piece (inflate_parallel_t *pi, enum verdict verdict)
{
  /* The last piece must end the stream: the serial path says how it
   * is truncated.  */
  if (verdict == PIECE_BOUNDARY && pi->source_eof
      && pi->emitting + 1 == pi->filling)
    verdict = PIECE_DOUBT;
  if (verdict == PIECE_DOUBT)
    return fall_back (pi);
  pi->accepted = 1;
  pi->streaming = 0;
  pi->ended = verdict == PIECE_END;
  return 0;
}


/* Wait for the workers' verdict on piece EMITTING and judge it.  */
static gpg_error_t
await_piece (inflate_parallel_t *pi)
{
  piece_t *p = piece_at (pi, pi->emitting);
  enum verdict verdict;

  pthread_mutex_lock (&pi->lock);
  while (p->verdict == PIECE_PENDING)
    pthread_cond_wait (&pi->completed, &pi->lock);
  verdict = p->verdict;
  pthread_mutex_unlock (&pi->lock);
  return judge_piece (pi, verdict);
}


/* Read once more into the piece streamed, and cut it at its mark or at
 * the end of the source.  */
static gpg_error_t
read_streamed (inflate_parallel_t *pi)
{
  piece_t *p = piece_at (pi, pi->filling);
  size_t n, from, cut;
  gpg_error_t err;

  if (p->fill == sizeof p->in)
    return fall_back (pi);
  from = p->fill >= PDEFLATE_SEGMENT_MARK_LEN
    ? p->fill - PDEFLATE_SEGMENT_MARK_LEN + 1 : 0;
  err = pi->source (pi->source_ctx, p->in + p->fill,
                    sizeof p->in - p->fill, &n);
  if (err)
    {
      pi->source_err = err;
      pi->source_eof = 1;
      return fall_back (pi);
    }
  p->fill += n;
  if (!n)
    {
      pi->source_eof = 1;
      return cut_piece (pi, p->fill, 1);
    }
  cut = find_mark (p->in + from, p->fill - from);
  return cut ? cut_piece (pi, from + cut, 1) : 0;
}


/* Inflate piece EMITTING on the reading thread as its bytes arrive,
 * so that output flows before its mark as on one thread; it starts
 * the stream or where the piece accepted before it ended, so this is
 * the serial decode.  Read more once the bytes in are used up and
 * their output handed out.  Once it is cut, first give the workers
 * the pieces after it that the bytes ready make.  */
static gpg_error_t
stream_piece (inflate_parallel_t *pi)
{
  piece_t *p = piece_at (pi, pi->emitting);
  int complete = pi->filling > pi->emitting;
  size_t upto = complete ? p->len : p->fill;
  enum verdict verdict;
  gpg_error_t err;
  int doubt;

  if (!complete && pi->head.fed == upto)
    return read_streamed (pi);
  if (complete)
    {
      err = fill_pieces (pi, &doubt);
      if (err || doubt)
        return err ? err : fall_back (pi);
    }
  verdict = decoder_feed (&pi->head, p, upto, complete);
  return verdict == PIECE_PENDING ? 0 : judge_piece (pi, verdict);
}


/* Refuse the frame around the deflate stream: CODE, and REASON for
 * inflate_parallel_reason, in the serial engine's words.  */
static gpg_error_t
refuse (inflate_parallel_t *pi, gpg_err_code_t code, const char *reason)
{
  pi->reason = reason;
  return gpg_error (code);
}


/* Read the zlib header (RFC 1950 2.2) into the first piece, check it
 * as the serial engine does, and drop it: the pieces hold the deflate
 * stream alone.  */
static gpg_error_t
read_zlib_header (inflate_parallel_t *pi)
{
  piece_t *p = piece_at (pi, 0);
  const char *reason;
  gpg_error_t err;

  err = source_read_full (pi->source, pi->source_ctx, p->in, 2, &p->fill);
  if (err)
    return err;
  if (p->fill < 2)
    return refuse (pi, GPG_ERR_TRUNCATED, "truncated");
  reason = inflate_zlib_header_reason (p->in);
  if (reason)
    return refuse (pi, GPG_ERR_BAD_DATA, reason);
  p->fill = 0;
  pi->header_read = 1;
  return 0;
}


/* Read the Adler-32 that follows the deflate stream of a ZLIB stream
 * from SOURCE, and match it with that of the output.  */
static gpg_error_t
read_zlib_trailer (inflate_parallel_t *pi, source_fn_t source, void *ctx)
{
  unsigned char t[4];
  gpg_error_t err;
  size_t n;

  err = source_read_full (source, ctx, t, sizeof t, &n);
  if (err)
    return err;
  if (n < sizeof t)
    return refuse (pi, GPG_ERR_TRUNCATED, "truncated");
  if (((uLong)t[0] << 24 | t[1] << 16 | t[2] << 8 | t[3]) != pi->adler)
    return refuse (pi, GPG_ERR_BAD_DATA, "incorrect data check");
  pi->trailer_read = 1;
  return 0;
}


/* The deflate stream ended in piece EMITTING, P, whose output is all
 * out: read a ZLIB stream's trailer from the bytes that follow the end
 * there, and the source after them.  */
static gpg_error_t
end_in_piece (inflate_parallel_t *pi, piece_t *p)
{
  if (pi->framing != INFLATE_ZLIB || pi->trailer_read)
    return 0;
  if (p->has_adler)
    pi->adler = adler32_combine (pi->adler, p->adler, p->outlen);
  p->has_adler = 0;
  pi->prefix_len = 0;
  pi->replay_seq = pi->emitting;
  pi->replay_pos = p->end;
  return read_zlib_trailer (pi, replay_read, pi);
}


/* Hand out up to SIZE bytes of output of piece EMITTING, P.  */
static void
hand_out (inflate_parallel_t *pi, piece_t *p, unsigned char *buf,
          size_t size, size_t *nread)
{
  size_t n = p->outlen - pi->out_pos;

  n = n < size ? n : size;
  memcpy (buf, p->out + pi->out_pos, n);
  if (pi->framing == INFLATE_ZLIB && !p->has_adler)
    pi->adler = output_adler (pi->adler, buf, n);
  pi->out_pos += n;
  *nread = n;
}


/* As inflate_parallel_read, once the serial path is taken.  */
static gpg_error_t
read_serial (inflate_parallel_t *pi, unsigned char *buf, size_t size,
             size_t *nread)
{
  gpg_error_t err;

  err = inflate_engine_read (pi->serial, buf, size, nread);
  if (err || pi->framing != INFLATE_ZLIB || pi->trailer_read)
    return err;
  if (*nread)
    {
      pi->adler = output_adler (pi->adler, buf, *nread);
      return 0;
    }
  return read_zlib_trailer (pi, inflate_engine_read_after, pi->serial);
}


gpg_error_t
inflate_parallel_read (inflate_parallel_t *pi, unsigned char *buf,
                       size_t size, size_t *nread)
{
  gpg_error_t err;
  piece_t *p;
  int doubt;

  *nread = 0;
  if (pi->framing == INFLATE_ZLIB && !pi->header_read)
    {
      err = read_zlib_header (pi);
      if (err)
        return err;
    }
  while (!pi->serial)
    {
      p = piece_at (pi, pi->emitting);
      if ((pi->accepted || pi->streaming) && pi->out_pos < p->outlen)
        {
          hand_out (pi, p, buf, size, nread);
          return 0;
        }
      if (pi->accepted && pi->ended)
        return end_in_piece (pi, p);
      if (pi->accepted)
        {
          if (p->has_adler)
            pi->adler = adler32_combine (pi->adler, p->adler, p->outlen);
          update_window (pi, p->out, p->outlen);
          pi->accepted = 0;
          pi->emitting++;
          pi->out_pos = 0;
        }
      if (pi->streaming)
        err = stream_piece (pi);
      else
        {
          err = fill_pieces (pi, &doubt);
          if (!err && doubt)
            err = fall_back (pi);
          else if (!err && !pi->streaming)
            err = await_piece (pi);
        }
      if (err)
        return err;
    }
  return read_serial (pi, buf, size, nread);
}


const char *
inflate_parallel_reason (const inflate_parallel_t *pi)
{
  if (pi->reason)
    return pi->reason;
  return pi->serial ? inflate_engine_reason (pi->serial) : NULL;
}


gpg_error_t
inflate_parallel_new (inflate_parallel_t **r_pi, enum inflate_impl impl,
                      enum inflate_framing framing, int nthreads,
                      source_fn_t source, void *source_ctx,
                      input_ready_fn_t ready, void *ready_ctx)
{
  inflate_parallel_t *pi;
  gpg_error_t err;

  *r_pi = NULL;
  pi = calloc (1, sizeof *pi);
  if (!pi)
    return gpg_error_from_syserror ();
  if (nthreads > INFLATE_PARALLEL_THREADS_MAX)
    nthreads = INFLATE_PARALLEL_THREADS_MAX;
  pi->impl = impl;
  pi->framing = framing;
  pi->adler = adler32 (0, NULL, 0);
  pi->nthreads = nthreads;
  pi->source = source;
  pi->source_ctx = source_ctx;
  pi->ready = ready;
  pi->ready_ctx = ready_ctx;
  pi->npieces = 2 * (size_t)nthreads + 1;
  pthread_mutex_init (&pi->lock, NULL);
  pthread_cond_init (&pi->submitted, NULL);
  pthread_cond_init (&pi->completed, NULL);
  pi->pieces = malloc (pi->npieces * sizeof *pi->pieces);
  err = pi->pieces ? decoder_init (&pi->head, impl)
    : gpg_error_from_syserror ();
  if (err)
    {
      inflate_parallel_release (pi);
      return err;
    }
  pi->pieces[0].fill = 0;
  stream_head (pi);
  *r_pi = pi;
  return 0;
}


void
inflate_parallel_release (inflate_parallel_t *pi)
{
  if (!pi)
    return;
  stop_workers (pi);
  inflate_engine_release (pi->serial);
  decoder_release (&pi->head);
  free (pi->pieces);
  pthread_cond_destroy (&pi->completed);
  pthread_cond_destroy (&pi->submitted);
  pthread_mutex_destroy (&pi->lock);
  free (pi);
}
