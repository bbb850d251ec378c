/* source-thread.c - a source read ahead on a thread of its own
 *
 * A ring of SOURCE_THREAD_SLOTS buffers: the producer fills the slot
 * at TAIL, the reader empties the one at HEAD; a filled slot belongs
 * to the reader until it moves HEAD past it, so the data is copied
 * without holding the lock.  The end of the data or the producer's
 * error comes after the last filled slot.
 *
 * Stopping early (the reader failed) must not wait for input that
 * may never come, such as a pipe whose writer stays open: the
 * producer can be cancelled, but only while it is inside the source,
 * where the cancellation points are the input's read(2) and the
 * writes of --progress and its status lines, never the middle of a
 * cipher or hash update; the rest of its loop runs with cancellation
 * disabled and sees the STOPPING flag instead.
 *
 * A small message pays nothing for the thread: the first
 * SOURCE_THREAD_LAZY bytes are read from the source directly, on the
 * calling thread, as with --threads 1, and only a source that has
 * more to give then gets its producer, its ring and its stack.  The
 * source is the same either way, so is what it returns.
 *
 * The producer decrypts, so its stack holds key material (copies of
 * round keys, OCB offsets) that sf_burn_key_traces, which clears the
 * stack of the thread calling it, never sees, and glibc would keep
 * that stack for the next thread.  So the producer runs on a stack
 * mapped here, and it is unmapped as soon as the producer has ended.
 */
#include <config.h>

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>

#include "packet.h"
#include "error.h"
#include "iobuf.h"
#include "log.h"
#include "source-thread.h"

/* The producer's stack: its calls are shallow, but the sanitizers'
 * frames and the thread's own TLS, which glibc puts at the top of a
 * stack it is given, need room.  */
#define STACK_SIZE ((size_t)2 << 20)

/* What is read on the calling thread before the producer starts: as
 * much as the ring holds, so that a message the producer could not
 * have kept ahead of fits in it.  */
#define SOURCE_THREAD_LAZY ((size_t)SOURCE_THREAD_SLOTS * CHUNK_SIZE)

/* How long source_thread_ready waits for the producer before it says
 * no: a producer that is decrypting fills a slot far sooner (about
 * 30 us for 32 KiB), one that waits for its input may never.  Without
 * it, the reading thread found the ring empty for a moment before one
 * piece in 10 to 30 of a file and inflated it itself.  */
#define SOURCE_THREAD_GRACE_NS 1000000L

struct source_thread
{
  source_fn_t source;
  void *source_ctx;
  size_t read_directly;         /* Bytes read before the producer ran.  */
  int direct_end;               /* ERR is final: the source ended or
                                 * failed before the producer ran, or
                                 * the producer could not start.  */
  pthread_t thread;
  void *stack;                  /* STACK_SIZE bytes, or NULL.  */
  int running;                  /* THREAD is to be joined.  */
  pthread_mutex_t lock;
  pthread_cond_t filled;        /* The producer filled a slot or ended.  */
  pthread_cond_t emptied;       /* The reader emptied a slot or stops.  */
  unsigned char *data;          /* SOURCE_THREAD_SLOTS * CHUNK_SIZE.  */
  size_t len[SOURCE_THREAD_SLOTS];
  unsigned long head;           /* Slots emptied by the reader.  */
  unsigned long tail;           /* Slots filled by the producer.  */
  size_t pos;                   /* Bytes of slot HEAD already read.  */
  int ended;                    /* No slot follows TAIL.  */
  int stopping;
  gpg_error_t err;              /* Why it ended, 0 at the end of data.  */
  char message[FAIL_MESSAGE_MAX];       /* The producer's fail ().  */
};


/* Wait for a free slot; NULL when the reader stops.  */
static unsigned char *
free_slot (source_thread_t *st)
{
  unsigned char *slot = NULL;

  pthread_mutex_lock (&st->lock);
  while (!st->stopping && st->tail - st->head == SOURCE_THREAD_SLOTS)
    pthread_cond_wait (&st->emptied, &st->lock);
  if (!st->stopping)
    slot = st->data + (st->tail % SOURCE_THREAD_SLOTS) * CHUNK_SIZE;
  pthread_mutex_unlock (&st->lock);
  return slot;
}


/* Read from the source into SLOT until it is half full, at the end
 * of the data or at an error: a source that returns a few bytes at a
 * time (one-byte partial body lengths) must not cost a handover per
 * call.  Store the number of bytes at *R_LEN, and at *R_END whether
 * the source ended.  */
static gpg_error_t
fill_slot (source_thread_t *st, unsigned char *slot, size_t *r_len,
           int *r_end)
{
  gpg_error_t err = 0;
  size_t len = 0, n = 1;
  int old;

  pthread_setcancelstate (PTHREAD_CANCEL_ENABLE, &old);
  while (len < CHUNK_SIZE / 2 && n)
    {
      err = st->source (st->source_ctx, slot + len, CHUNK_SIZE - len, &n);
      if (err)
        break;
      len += n;
    }
  pthread_setcancelstate (PTHREAD_CANCEL_DISABLE, &old);
  *r_len = len;
  *r_end = err || !n;
  return err;
}


/* Pass the LEN bytes just read into the slot at TAIL, then the end or
 * ERR when END, to the reader.  */
static void
publish (source_thread_t *st, gpg_error_t err, size_t len, int end)
{
  pthread_mutex_lock (&st->lock);
  if (len)
    st->len[st->tail++ % SOURCE_THREAD_SLOTS] = len;
  if (err)
    {
      st->err = err;
      fail_push (st->message, sizeof st->message);
    }
  if (end)
    st->ended = 1;
  pthread_cond_signal (&st->filled);
  pthread_mutex_unlock (&st->lock);
}


static void *
produce (void *arg)
{
  source_thread_t *st = arg;
  unsigned char *slot;
  gpg_error_t err;
  size_t len;
  int old, end = 0;

  pthread_setcancelstate (PTHREAD_CANCEL_DISABLE, &old);
  while (!end && (slot = free_slot (st)))
    {
      err = fill_slot (st, slot, &len, &end);
      publish (st, err, len, end);
    }
  return NULL;
}


/* Start the producer on a stack of its own; 0 or an errno value.  */
static int
create_thread (source_thread_t *st)
{
  pthread_attr_t attr;
  int rc;

  st->stack = mmap (NULL, STACK_SIZE, PROT_READ | PROT_WRITE,
                    MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
  if (st->stack == MAP_FAILED)
    {
      st->stack = NULL;
      return errno;
    }
  /* A guard page at the bottom, as glibc gives its own stacks.  */
  if (mprotect (st->stack, sysconf (_SC_PAGESIZE), PROT_NONE))
    return errno;
  rc = pthread_attr_init (&attr);
  if (rc)
    return rc;
  rc = pthread_attr_setstack (&attr, st->stack, STACK_SIZE);
  if (!rc)
    rc = pthread_create (&st->thread, &attr, produce, st);
  pthread_attr_destroy (&attr);
  return rc;
}


gpg_error_t
source_thread_start (source_thread_t **r_st, source_fn_t source,
                     void *source_ctx)
{
  source_thread_t *st;

  *r_st = NULL;
  st = calloc (1, sizeof *st);
  if (!st)
    return fail (gpg_error_from_syserror (), "out of core", NULL);
  st->source = source;
  st->source_ctx = source_ctx;
  pthread_mutex_init (&st->lock, NULL);
  pthread_cond_init (&st->filled, NULL);
  pthread_cond_init (&st->emptied, NULL);
  *r_st = st;
  return 0;
}


/* Wait for the producer thread, which has ended or was told to, and
 * unmap its stack with what the decryption left in it.  */
static void
join (source_thread_t *st)
{
  if (st->running)
    pthread_join (st->thread, NULL);
  st->running = 0;
  if (st->stack)
    munmap (st->stack, STACK_SIZE);
  st->stack = NULL;
}


/* Give ST its ring and start its producer.  */
static gpg_error_t
start_producer (source_thread_t *st)
{
  int rc;

  st->data = malloc (SOURCE_THREAD_SLOTS * CHUNK_SIZE);
  if (!st->data)
    return fail (gpg_error_from_syserror (), "out of core", NULL);
  rc = create_thread (st);
  if (rc)
    {
      join (st);
      return fail (gpg_error_from_errno (rc), "decryption failed",
                   "cannot start a thread: %s", strerror (rc));
    }
  st->running = 1;
  log_info ("decrypting on a second thread");
  return 0;
}


/* Read from the source on the calling thread while the producer has
 * not started: until SOURCE_THREAD_LAZY bytes came, and for good when
 * the source ended or failed before.  True when it answered the read
 * (at *NREAD and *R_ERR), false when the producer is to answer.  */
static int
read_directly (source_thread_t *st, unsigned char *buf, size_t size,
               size_t *nread, gpg_error_t *r_err)
{
  if (st->direct_end)
    {
      *r_err = st->err;
      return 1;
    }
  if (st->data || st->read_directly >= SOURCE_THREAD_LAZY)
    return 0;
  *r_err = st->source (st->source_ctx, buf, size, nread);
  st->read_directly += *nread;
  if (*r_err || !*nread)
    {
      st->direct_end = 1;
      st->err = *r_err;
    }
  return 1;
}


gpg_error_t
source_thread_read (void *ctx, unsigned char *buf, size_t size,
                    size_t *nread)
{
  source_thread_t *st = ctx;
  const unsigned char *slot;
  gpg_error_t err;
  size_t n;

  *nread = 0;
  if (read_directly (st, buf, size, nread, &err))
    return err;
  if (!st->data)
    {
      err = start_producer (st);
      if (err)
        {
          st->direct_end = 1;
          st->err = err;
          return err;
        }
    }
  pthread_mutex_lock (&st->lock);
  while (st->head == st->tail && !st->ended)
    pthread_cond_wait (&st->filled, &st->lock);
  if (st->head == st->tail)
    {
      pthread_mutex_unlock (&st->lock);
      join (st);
      return st->err ? fail_adopt (st->err, st->message) : 0;
    }
  slot = st->data + (st->head % SOURCE_THREAD_SLOTS) * CHUNK_SIZE;
  n = st->len[st->head % SOURCE_THREAD_SLOTS] - st->pos;
  pthread_mutex_unlock (&st->lock);

  if (n > size)
    n = size;
  memcpy (buf, slot + st->pos, n);
  st->pos += n;
  *nread = n;
  if (st->pos < st->len[st->head % SOURCE_THREAD_SLOTS])
    return 0;
  pthread_mutex_lock (&st->lock);
  st->head++;
  st->pos = 0;
  pthread_cond_signal (&st->emptied);
  pthread_mutex_unlock (&st->lock);
  return 0;
}


/* Whether N bytes, or the end, are read ahead; under the lock.  */
static int
ready_now (source_thread_t *st, size_t n)
{
  unsigned long slot;
  size_t ready = 0;

  for (slot = st->head; slot != st->tail && ready < st->pos + n; slot++)
    ready += st->len[slot % SOURCE_THREAD_SLOTS];
  return st->ended || ready >= st->pos + n;
}


int
source_thread_ready (source_thread_t *st, size_t n)
{
  struct timespec until;
  int enough, rc = 0;

  if (st->direct_end)
    return 1;
  if (!st->data)
    return 0;
  pthread_mutex_lock (&st->lock);
  enough = ready_now (st, n);
  if (!enough)
    {
      clock_gettime (CLOCK_REALTIME, &until);
      until.tv_nsec += SOURCE_THREAD_GRACE_NS;
      if (until.tv_nsec >= 1000000000L)
        {
          until.tv_sec++;
          until.tv_nsec -= 1000000000L;
        }
    }
  while (!enough && !rc)
    {
      rc = pthread_cond_timedwait (&st->filled, &st->lock, &until);
      enough = ready_now (st, n);
    }
  pthread_mutex_unlock (&st->lock);
  return enough;
}


void
source_thread_stop (source_thread_t *st)
{
  if (!st)
    return;
  if (st->running)
    {
      pthread_mutex_lock (&st->lock);
      st->stopping = 1;
      pthread_cond_signal (&st->emptied);
      pthread_mutex_unlock (&st->lock);
      pthread_cancel (st->thread);
    }
  join (st);
  pthread_cond_destroy (&st->emptied);
  pthread_cond_destroy (&st->filled);
  pthread_mutex_destroy (&st->lock);
  free (st->data);
  free (st);
}
