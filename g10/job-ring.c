/* job-ring.c - numbered jobs run on worker threads and passed on in
 * order
 *
 * Three counters, in job numbers: SUBMITTED (changed by the owner
 * under the lock), TAKEN (by the workers, under the lock) and EMITTED
 * (the owner's alone).  A slot's DONE flag is cleared when its job is
 * submitted and set, under the lock, when the job ran; the owner
 * reuses a slot only after its job was passed on, so a worker and the
 * owner never use the same slot at once.
 */
#include <config.h>

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "job-ring.h"

typedef struct worker
{
  job_ring_t *jr;
  int index;
  pthread_t thread;
  int started;
} worker_t;

struct job_ring
{
  job_run_fn_t run;
  void *ctx;
  size_t nslots;
  unsigned char *done;          /* A flag a slot, under the lock.  */
  uint64_t submitted;
  uint64_t taken;
  uint64_t emitted;
  int stopping;                 /* Under the lock.  */
  worker_t *workers;
  int nworkers;
  pthread_mutex_t lock;
  pthread_cond_t more;          /* Workers wait for a job.  */
  pthread_cond_t ran;           /* The owner waits for one.  */
};


static void *
worker_main (void *arg)
{
  worker_t *w = arg;
  job_ring_t *jr = w->jr;
  uint64_t seq;

  pthread_mutex_lock (&jr->lock);
  for (;;)
    {
      while (!jr->stopping && jr->taken == jr->submitted)
        pthread_cond_wait (&jr->more, &jr->lock);
      if (jr->stopping)
        break;
      seq = jr->taken++;
      pthread_mutex_unlock (&jr->lock);
      jr->run (jr->ctx, w->index, seq);
      pthread_mutex_lock (&jr->lock);
      jr->done[seq % jr->nslots] = 1;
      pthread_cond_signal (&jr->ran);
    }
  pthread_mutex_unlock (&jr->lock);
  return NULL;
}


/* Start NTHREADS workers; a thread that cannot start is WHAT's
 * failure.  */
static gpg_error_t
start_workers (job_ring_t *jr, int nthreads, const char *what)
{
  worker_t *w;
  int i, rc;

  jr->workers = calloc (nthreads, sizeof *jr->workers);
  if (!jr->workers)
    return fail (gpg_error_from_syserror (), "out of core", NULL);
  jr->nworkers = nthreads;
  for (i = 0; i < nthreads; i++)
    {
      w = &jr->workers[i];
      w->jr = jr;
      w->index = i;
      rc = pthread_create (&w->thread, NULL, worker_main, w);
      if (rc)
        return fail (gpg_error_from_errno (rc), what,
                     "cannot start a thread: %s", strerror (rc));
      w->started = 1;
    }
  return 0;
}


gpg_error_t
job_ring_new (job_ring_t **r_jr, int nthreads, job_run_fn_t run, void *ctx,
              const char *what)
{
  job_ring_t *jr;

  *r_jr = NULL;
  jr = calloc (1, sizeof *jr);
  if (!jr)
    return fail (gpg_error_from_syserror (), "out of core", NULL);
  jr->run = run;
  jr->ctx = ctx;
  jr->nslots = nthreads > 1 ? 2 * (size_t)nthreads + 1 : 1;
  pthread_mutex_init (&jr->lock, NULL);
  pthread_cond_init (&jr->more, NULL);
  pthread_cond_init (&jr->ran, NULL);
  *r_jr = jr;
  jr->done = calloc (jr->nslots, 1);
  if (!jr->done)
    return fail (gpg_error_from_syserror (), "out of core", NULL);
  return nthreads > 1 ? start_workers (jr, nthreads, what) : 0;
}


size_t
job_ring_slots (const job_ring_t *jr)
{
  return jr->nslots;
}


int
job_ring_workers (const job_ring_t *jr)
{
  return jr->nworkers ? jr->nworkers : 1;
}


uint64_t
job_ring_submitted (const job_ring_t *jr)
{
  return jr->submitted;
}


uint64_t
job_ring_emitted (const job_ring_t *jr)
{
  return jr->emitted;
}


void
job_ring_submit (job_ring_t *jr)
{
  size_t slot = jr->submitted % jr->nslots;

  if (!jr->nworkers)
    {
      jr->run (jr->ctx, 0, jr->submitted);
      jr->done[slot] = 1;
      jr->submitted++;
      return;
    }
  pthread_mutex_lock (&jr->lock);
  jr->done[slot] = 0;
  jr->submitted++;
  pthread_cond_signal (&jr->more);
  pthread_mutex_unlock (&jr->lock);
}


/* Whether job SEQ ran; with WAIT, wait until it has.  */
static int
job_ran (job_ring_t *jr, uint64_t seq, int wait)
{
  unsigned char *done = &jr->done[seq % jr->nslots];
  int ran;

  if (!jr->nworkers)
    return 1;
  pthread_mutex_lock (&jr->lock);
  while (wait && !*done)
    pthread_cond_wait (&jr->ran, &jr->lock);
  ran = *done;
  pthread_mutex_unlock (&jr->lock);
  return ran;
}


gpg_error_t
job_ring_emit (job_ring_t *jr, int all, job_emit_fn_t emit, void *ctx)
{
  uint64_t until;
  gpg_error_t err;

  if (all)
    until = jr->submitted;
  else
    until = jr->submitted >= jr->nslots ? jr->submitted + 1 - jr->nslots : 0;
  while (jr->emitted < jr->submitted)
    {
      if (!job_ran (jr, jr->emitted, jr->emitted < until))
        return 0;
      err = emit (ctx, jr->emitted);
      if (err)
        return err;
      jr->emitted++;
    }
  return 0;
}


void
job_ring_release (job_ring_t *jr)
{
  int i;

  if (!jr)
    return;
  pthread_mutex_lock (&jr->lock);
  jr->stopping = 1;
  pthread_cond_broadcast (&jr->more);
  pthread_mutex_unlock (&jr->lock);
  for (i = 0; i < jr->nworkers; i++)
    if (jr->workers[i].started)
      pthread_join (jr->workers[i].thread, NULL);
  free (jr->workers);
  free (jr->done);
  pthread_cond_destroy (&jr->ran);
  pthread_cond_destroy (&jr->more);
  pthread_mutex_destroy (&jr->lock);
  free (jr);
}
