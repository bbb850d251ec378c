/* argon2.c - the Argon2 S2K of RFC 9580 3.7.1.4 through libgcrypt
 *
 * Argon2id (RFC 9106) with libgcrypt's KDF interface (gcry_kdf_open,
 * GCRY_KDF_ARGON2, libgcrypt 1.10).  Argon2 fills its memory in
 * lanes that are independent within each quarter of a pass (a slice);
 * libgcrypt hands each lane of a slice to a dispatch function and
 * waits for them all before the next slice.  Here the dispatcher
 * starts a thread per lane while there are CPUs for them and runs the
 * others itself, so that the 2 GiB of RFC 9580's recommended setting
 * take seconds, not many.
 */
#include <config.h>

#include <pthread.h>
#include <string.h>
#include <unistd.h>
#include <gcrypt.h>

#include "error.h"
#include "options.h"
#include "argon2.h"

/* Threads one slice may use besides the calling one.  */
#define MAX_HELPERS 16

/* The threads running the lanes of one slice.  */
struct lanes
{
  pthread_t threads[MAX_HELPERS];
  int nthreads;
  int max_threads;
};


unsigned int
argon2_min_memory_exp (unsigned int parallelism)
{
  unsigned int bits = 0;

  /* ceil (log2 (p)) */
  while ((1u << bits) < parallelism)
    bits++;
  return 3 + bits;
}


unsigned long long
argon2_work_kib (unsigned int t, unsigned int m)
{
  return (unsigned long long)t << m;
}


int
argon2_work_allowed (unsigned int t, unsigned int m)
{
  unsigned long long most = opt.argon2_max_work_mib;

  return argon2_work_kib (t, m) <= most << 10;
}


/* A lane job: libgcrypt's function and its argument.  */
struct job
{
  gcry_kdf_job_fn_t fn;
  void *priv;
};

static void *
run_job (void *arg)
{
  struct job job = *(struct job *)arg;

  gcry_free (arg);
  job.fn (job.priv);
  return NULL;
}


/* Run JOB_FN (JOB_PRIV) on a thread of its own if one is free,
 * otherwise here and now.  */
static int
dispatch_lane (void *ctx, gcry_kdf_job_fn_t job_fn, void *job_priv)
{
  struct lanes *lanes = ctx;
  struct job *job;

  if (lanes->nthreads < lanes->max_threads
      && (job = gcry_malloc (sizeof *job)))
    {
      job->fn = job_fn;
      job->priv = job_priv;
      if (!pthread_create (&lanes->threads[lanes->nthreads], NULL,
                           run_job, job))
        {
          lanes->nthreads++;
          return 0;
        }
      gcry_free (job);
    }
  job_fn (job_priv);
  return 0;
}


static int
wait_lanes (void *ctx)
{
  struct lanes *lanes = ctx;

  while (lanes->nthreads)
    pthread_join (lanes->threads[--lanes->nthreads], NULL);
  return 0;
}


gpg_error_t
argon2_derive (const unsigned char salt[ARGON2_SALTLEN], unsigned int t,
               unsigned int p, unsigned int m, const char *passphrase,
               unsigned char *key, size_t keylen)
{
  gpg_error_t err;
  gcry_kdf_hd_t hd;
  struct lanes lanes;
  gcry_kdf_thread_ops_t ops = { &lanes, dispatch_lane, wait_lanes };
  const unsigned long param[4] = { keylen, t, 1ul << m, p };
  long ncpus = sysconf (_SC_NPROCESSORS_ONLN);

  memset (&lanes, 0, sizeof lanes);
  /* The calling thread runs a lane too.  */
  lanes.max_threads = ncpus > MAX_HELPERS ? MAX_HELPERS
                      : ncpus > 1 ? (int)ncpus - 1 : 0;
  err = gcry_kdf_open (&hd, GCRY_KDF_ARGON2, GCRY_KDF_ARGON2ID, param, 4,
                       passphrase, strlen (passphrase),
                       salt, ARGON2_SALTLEN, NULL, 0, NULL, 0);
  if (err)
    return fail (err, "string-to-key", "Argon2: %s", gpg_strerror (err));
  err = gcry_kdf_compute (hd, &ops);
  if (!err)
    err = gcry_kdf_final (hd, keylen, key);
  gcry_kdf_close (hd);
  if (err)
    return fail (err, "string-to-key", "Argon2 with 2^%u KiB: %s", m,
                 gpg_strerror (err));
  return 0;
}
