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
 */
#include <config.h>

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "packet.h"
#include "error.h"
#include "iobuf.h"
#include "source-thread.h"

struct source_thread
{
  source_fn_t source;
  void *source_ctx;
  pthread_t thread;
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


/* Pass the N bytes just read into the slot at TAIL, or the end, or
 * ERR, to the reader; true when the producer is done.  */
static int
publish (source_thread_t *st, gpg_error_t err, size_t n)
{
  int done = err || !n;

  pthread_mutex_lock (&st->lock);
  if (err)
    {
      st->err = err;
      fail_push (st->message, sizeof st->message);
    }
  if (done)
    st->ended = 1;
  else
    st->len[st->tail++ % SOURCE_THREAD_SLOTS] = n;
  pthread_cond_signal (&st->filled);
  pthread_mutex_unlock (&st->lock);
  return done;
}


static void *
produce (void *arg)
{
  source_thread_t *st = arg;
  unsigned char *slot;
  gpg_error_t err;
  size_t n;
  int old;

  pthread_setcancelstate (PTHREAD_CANCEL_DISABLE, &old);
  do
    {
      slot = free_slot (st);
      if (!slot)
        break;
      pthread_setcancelstate (PTHREAD_CANCEL_ENABLE, &old);
      err = st->source (st->source_ctx, slot, CHUNK_SIZE, &n);
      pthread_setcancelstate (PTHREAD_CANCEL_DISABLE, &old);
    }
  while (!publish (st, err, n));
  return NULL;
}


gpg_error_t
source_thread_start (source_thread_t **r_st, source_fn_t source,
                     void *source_ctx)
{
  source_thread_t *st;
  int rc;

  *r_st = NULL;
  st = calloc (1, sizeof *st);
  if (!st)
    return fail (gpg_error_from_syserror (), "out of core", NULL);
  st->data = malloc (SOURCE_THREAD_SLOTS * CHUNK_SIZE);
  if (!st->data)
    {
      free (st);
      return fail (gpg_error_from_syserror (), "out of core", NULL);
    }
  st->source = source;
  st->source_ctx = source_ctx;
  pthread_mutex_init (&st->lock, NULL);
  pthread_cond_init (&st->filled, NULL);
  pthread_cond_init (&st->emptied, NULL);
  rc = pthread_create (&st->thread, NULL, produce, st);
  if (rc)
    {
      source_thread_stop (st);
      return fail (gpg_error_from_errno (rc), "decryption failed",
                   "cannot start a thread: %s", strerror (rc));
    }
  st->running = 1;
  *r_st = st;
  return 0;
}


/* Wait for the producer thread, which has ended or was told to.  */
static void
join (source_thread_t *st)
{
  if (!st->running)
    return;
  pthread_join (st->thread, NULL);
  st->running = 0;
}


gpg_error_t
source_thread_read (void *ctx, unsigned char *buf, size_t size,
                    size_t *nread)
{
  source_thread_t *st = ctx;
  const unsigned char *slot;
  size_t n;

  *nread = 0;
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
      join (st);
    }
  pthread_cond_destroy (&st->emptied);
  pthread_cond_destroy (&st->filled);
  pthread_mutex_destroy (&st->lock);
  free (st->data);
  free (st);
}
