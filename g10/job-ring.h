/* job-ring.h - numbered jobs run on worker threads and passed on in
 * order
 *
 * The parallel writers (pdeflate.c, bzip2-parallel.c) cut their input
 * into jobs numbered in input order.  The owner fills the job whose
 * number is job_ring_submitted and submits it; a worker runs it; the
 * owner passes the jobs on in number order, waiting for the oldest
 * only when it needs its slot back.  The owner keeps the jobs in a
 * ring of job_ring_slots slots (job SEQ in slot SEQ % slots), and, for
 * each worker index the run function is given, whatever a worker needs
 * (an engine, its memory).  So the workers always have a job while
 * the owner reads and writes, a slow job holds up the output, never
 * the workers, and memory is bounded by the thread count.
 *
 * With one thread there is no worker: each job runs on the calling
 * thread when it is submitted.  The ring calls the run function on
 * the workers and nothing else; the owner's emit function runs on the
 * owner's thread, the only one that may call fail ().
 */
#ifndef SFENC_JOB_RING_H
#define SFENC_JOB_RING_H

#include <stddef.h>
#include <stdint.h>
#include <gpg-error.h>

typedef struct job_ring job_ring_t;

/* Run job SEQ with CTX as worker WORKER, 0 to job_ring_workers - 1.  */
typedef void (*job_run_fn_t) (void *ctx, int worker, uint64_t seq);

/* Pass job SEQ, which ran, on.  */
typedef gpg_error_t (*job_emit_fn_t) (void *ctx, uint64_t seq);

/* A ring for NTHREADS threads (1: none started) that runs jobs with
 * RUN and CTX; a thread that cannot start is WHAT's failure.  */
gpg_error_t job_ring_new (job_ring_t **r_jr, int nthreads, job_run_fn_t run,
                          void *ctx, const char *what);

/* The slots the owner keeps jobs in: 2 * NTHREADS + 1, or 1.  */
size_t job_ring_slots (const job_ring_t *jr);

/* How many workers' state the owner keeps: NTHREADS, or 1.  */
int job_ring_workers (const job_ring_t *jr);

/* The number of the job being filled: those before were submitted.  */
uint64_t job_ring_submitted (const job_ring_t *jr);

/* How many jobs were passed on.  */
uint64_t job_ring_emitted (const job_ring_t *jr);

/* Submit the job being filled: a worker runs it, or the calling
 * thread at once when there is none.  */
void job_ring_submit (job_ring_t *jr);

/* Pass the jobs that ran to EMIT with CTX, in order: with ALL every
 * one submitted, waiting for them; otherwise, waiting, those whose
 * slot the job after the one being filled needs, then those done.
 * Stops at EMIT's first error.  */
gpg_error_t job_ring_emit (job_ring_t *jr, int all, job_emit_fn_t emit,
                           void *ctx);

/* Stop the workers, waiting for each to finish its job, and free JR;
 * then the owner may free what they used.  */
void job_ring_release (job_ring_t *jr);

#endif /*SFENC_JOB_RING_H*/
