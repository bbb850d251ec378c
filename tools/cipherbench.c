/* cipherbench.c - in-process cipher throughput, as "openssl speed"
 *
 * For each algorithm in the cipher table, every usable implementation
 * runs each selected mode (ECB, CBC and CFB in both directions, CTR,
 * OFB, OpenPGP CFB) over buffers of each selected size (16 to 16384
 * bytes), through the generic modes.  Beside them, in the same run:
 *
 *   - implementation "gcrypt", libgcrypt's own code for the same
 *     algorithm and mode (the gcrypt provider hands whole buffers to
 *     libgcrypt's mode functions), and
 *   - implementation "openssl", OpenSSL's libcrypto through its EVP
 *     interface, when the build found it (n/a for what it lacks:
 *     Twofish, OpenPGP CFB, CTR for 64-bit blocks).
 *
 * Every row carries its ratio to both: above 1 is faster than the peer.
 *
 * Beside CFB encryption, an implementation with a stitched CFB + SHA-1
 * entry gets the rows "cfb-enc+sha1" (one pass) and "cfb-enc;sha1"
 * (CFB, then a separate SHA-1 of the same data): what an OpenPGP
 * SEIPD packet costs either way, with their ratio in a note.
 *
 * The AEAD modes (OCB, EAX, GCM, for 128-bit blocks) are timed a
 * message per buffer, as libgcrypt's bench-slope and "openssl speed
 * -aead" do: nonce (the lengths RFC 9580 uses), data in place, tag
 * made or checked.  Their "gcrypt" and "openssl" rows are libgcrypt's
 * and OpenSSL's own OCB, EAX and GCM, not ours over their ciphers.
 * Notes say which GHASH GCM uses and which implementations take OCB's
 * whole blocks in their own OCB entry.
 *
 * Time is the process's CPU time.  Each sample repeats the buffer
 * until at least --seconds of CPU time have passed; the implementations
 * of one cell (algorithm, mode, size) are sampled in turn, --runs
 * times, and the median is reported, so that drift on a shared machine
 * hits all of them alike.  Cycles per byte come from the CPU's cycle
 * counter (perf_event_open) when the kernel offers it, else from the
 * CPU time and a clock rate measured with a chain of dependent
 * additions, one cycle each; the notes say which.
 */
#include <config.h>

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>
#include <gcrypt.h>
#ifdef __linux__
# include <linux/perf_event.h>
# include <sys/ioctl.h>
# include <sys/syscall.h>
#endif
#ifdef HAVE_OPENSSL
# include <openssl/evp.h>
#endif

#include "libsfcipher.h"
#include "aead.h"
#include "benchutil.h"
#include "openssl-name.h"
#include "plot.h"
#include "report.h"

#define MAX_IMPLS_PER_ALGO 8
#define MIB (1024.0 * 1024.0)

struct mode_def
{
  const char *name;
  enum sf_cipher_mode mode;
  int encrypting;
  const char *openssl;          /* OpenSSL's mode suffix, NULL: none.  */
  enum sf_aead_mode aead;       /* An AEAD mode (MODE unused), or 0.  */
};

static const struct mode_def modes[] =
  {
    { "ecb", SF_MODE_ECB, 1, "ecb", 0 },
    { "cbc-enc", SF_MODE_CBC, 1, "cbc", 0 },
    { "cbc-dec", SF_MODE_CBC, 0, "cbc", 0 },
    { "cfb-enc", SF_MODE_CFB, 1, "cfb", 0 },
    { "cfb-dec", SF_MODE_CFB, 0, "cfb", 0 },
    { "ctr", SF_MODE_CTR, 1, "ctr", 0 },
    { "ofb", SF_MODE_OFB, 1, "ofb", 0 },
    { "openpgp-cfb", SF_MODE_OPENPGP_CFB, 1, NULL, 0 },
    { "ocb-enc", 0, 1, "ocb", SF_AEAD_OCB },
    { "ocb-dec", 0, 0, "ocb", SF_AEAD_OCB },
    { "eax-enc", 0, 1, NULL, SF_AEAD_EAX },
    { "eax-dec", 0, 0, NULL, SF_AEAD_EAX },
    { "gcm-enc", 0, 1, "gcm", SF_AEAD_GCM },
    { "gcm-dec", 0, 0, "gcm", SF_AEAD_GCM }
  };
#define N_MODES (sizeof modes / sizeof *modes)

static const size_t all_sizes[] = { 16, 64, 256, 1024, 8192, 16384 };
static const size_t default_sizes[] = { 16384 };
#define N_ALL_SIZES (sizeof all_sizes / sizeof *all_sizes)

struct options
{
  char **algos;               /* Names, or NULL for all.  */
  char **impls;               /* Names, or NULL for all.  */
  int mode_on[N_MODES];
  const size_t *sizes;          /* all_sizes, default_sizes or given.  */
  size_t nsizes;
  double seconds;
  int runs;
  int auto_modules;           /* Load the module directory.  */
  char **extensions;          /* Modules to load.  */
  int n_extensions;
  int use_openssl;
  enum report_format format;
  const char *plot;
  const char *save;
};

/* Who runs a row: an implementation of the table, OpenSSL, or
 * libgcrypt's algorithm GCRY_ALGO run directly (for an algorithm the
 * table has no "gcrypt" implementation of; SPEC is then the table's
 * implementation whose geometry it has).  */
struct impl
{
  const sf_cipher_spec_t *spec;
  int is_openssl;
  int gcry_algo;
  const char *name;
};

/* One measured cell of one implementation.  */
struct result
{
  const sf_cipher_spec_t *spec;        /* The algorithm.  */
  const char *impl;
  const struct mode_def *mode;
  size_t size;
  double mibs, cycles_per_byte;        /* NaN: not available.  */
  double vs_gcrypt, vs_openssl;
  int is_default;                      /* The algorithm's default.  */
};

static struct options opt;
static struct result *results;
static size_t nresults, results_allocated;

/* Cycle counting: a perf counter when we have one, else the clock
 * rate measured once.  */
static int perf_fd = -1;
static double clock_hz;


static void
usage (FILE *fp)
{
  fputs ("Usage: cipherbench [OPTIONS]\n"
         "Measure every implementation in the cipher table beside libgcrypt\n"
         "(implementation \"gcrypt\") and OpenSSL (\"openssl\"), in process.\n"
         "\n"
         "  --algo LIST     algorithms to measure, comma separated (default all)\n"
         "  --impl LIST     implementations to measure besides gcrypt and openssl\n"
         "  --mode LIST     ecb, cbc-enc, cbc-dec, cfb-enc, cfb-dec, ctr, ofb,\n"
         "                  openpgp-cfb, ocb-enc, ocb-dec, eax-enc, eax-dec,\n"
         "                  gcm-enc, gcm-dec (128-bit blocks), or all\n"
         "                  (default cfb-enc,cfb-dec)\n"
         "  --size LIST     buffer sizes in bytes, multiples of 16, or all\n"
         "                  (16,64,256,1024,8192,16384; default 16384)\n"
         "  --seconds S     CPU seconds per sample (default 0.2)\n"
         "  --runs N        samples per figure, median reported (default 5)\n"
         "  --no-openssl    leave OpenSSL out\n"
         "  --format FMT    text (default), markdown, csv, json or html\n"
         "  --save PREFIX   also write PREFIX.txt, .md, .csv, .json, .html\n"
         "  --plot FILE     draw a chart, FILE.svg or FILE.png (gnuplot)\n"
         "  --load-extension FILE  load a dynamic cipher module (repeatable)\n"
         "  --no-auto-modules      do not load the module directory\n"
         "  --help          this text\n", fp);
}

/* True when SPEC's algorithm is named (or aliased) in ITEMS.  */
static int
algo_selected (const sf_cipher_spec_t *spec, char **items)
{
  for (; *items; items++)
    if (sf_spec_has_name (spec, *items))
      return 1;
  return 0;
}

/* True when SPEC's implementation is in ITEMS.  */
static int
impl_selected (const sf_cipher_spec_t *spec, char **items)
{
  for (; *items; items++)
    if (!strcasecmp (spec->impl, *items))
      return 1;
  return 0;
}

static double
cpu_seconds (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Open a counter of this thread's CPU cycles in user space, or leave
 * perf_fd at -1 (virtual machines rarely expose one).  */
static void
open_cycle_counter (void)
{
#ifdef __linux__
  struct perf_event_attr attr;
  uint64_t count;
  long fd;

  memset (&attr, 0, sizeof attr);
  attr.size = sizeof attr;
  attr.type = PERF_TYPE_HARDWARE;
  attr.config = PERF_COUNT_HW_CPU_CYCLES;
  attr.exclude_kernel = 1;
  attr.exclude_hv = 1;
  fd = syscall (SYS_perf_event_open, &attr, 0, -1, -1, 0);
  if (fd < 0)
    return;
  /* Some hypervisors accept the counter and never count.  */
  if (read ((int) fd, &count, sizeof count) != sizeof count || !count)
    {
      volatile unsigned long spin = 0;

      while (spin < 1000000)
        spin++;
      if (read ((int) fd, &count, sizeof count) != sizeof count || !count)
        {
          close ((int) fd);
          return;
        }
    }
  perf_fd = (int) fd;
#endif
}

static uint64_t
read_cycles (void)
{
  uint64_t count = 0;

  if (perf_fd >= 0 && read (perf_fd, &count, sizeof count) != sizeof count)
    count = 0;
  return count;
}

/* The core clock rate, from a chain of dependent additions: each waits
 * for the one before, and an addition takes one cycle on every core
 * this runs on, so additions per second are cycles per second.  The
 * empty asm keeps the compiler from folding the chain.  */
static double
measure_clock (void)
{
  double best = 0;
  int round;

  for (round = 0; round < 5; round++)
    {
      unsigned long x = round, i, n = 20000000;
      double start = cpu_seconds (), elapsed;

      for (i = 0; i < n; i++)
        {
          x += i;
          __asm__ volatile ("" : "+r" (x));
          x += 1;
          __asm__ volatile ("" : "+r" (x));
          x += 2;
          __asm__ volatile ("" : "+r" (x));
          x += 3;
          __asm__ volatile ("" : "+r" (x));
        }
      elapsed = cpu_seconds () - start;
      /* The fastest round is the least disturbed one.  */
      if (elapsed > 0 && 4.0 * n / elapsed > best)
        best = 4.0 * n / elapsed;
    }
  return best;
}

/* libgcrypt's algorithm that libgcrypt's own look-up finds under the
 * name or an alias of SPEC, with SPEC's key and block sizes; 0 if
 * none.  */
static int
gcrypt_algo_of (const sf_cipher_spec_t *spec)
{
  const char *const *alias = spec->aliases;
  const char *candidate = spec->name;

  while (candidate)
    {
      int algo = gcry_cipher_map_name (candidate);

      if (algo && gcry_cipher_get_algo_keylen (algo) == spec->keylen
          && gcry_cipher_get_algo_blklen (algo) == spec->blocksize)
        return algo;
      candidate = alias && *alias ? *alias++ : NULL;
    }
  return 0;
}

/* libgcrypt's mode for the block mode MODE; 0 for OpenPGP's CFB,
 * which libgcrypt runs only inside its own OpenPGP code.  */
static int
gcry_block_mode (enum sf_cipher_mode mode)
{
  switch (mode)
    {
    case SF_MODE_ECB: return GCRY_CIPHER_MODE_ECB;
    case SF_MODE_CBC: return GCRY_CIPHER_MODE_CBC;
    case SF_MODE_CFB: return GCRY_CIPHER_MODE_CFB;
    case SF_MODE_OFB: return GCRY_CIPHER_MODE_OFB;
    case SF_MODE_CTR: return GCRY_CIPHER_MODE_CTR;
    default: return 0;
    }
}

#ifdef HAVE_OPENSSL
/* OpenSSL's cipher for SPEC in MODE, or NULL.  */
static EVP_CIPHER *
openssl_cipher (const sf_cipher_spec_t *spec, const struct mode_def *mode)
{
  char stem[64], name[80];

  if (!mode->openssl
      || !openssl_cipher_stem (spec->name, spec->aliases, spec->keylen,
                               spec->blocksize, stem, sizeof stem))
    return NULL;
  snprintf (name, sizeof name, "%s-%s", stem, mode->openssl);
  return EVP_CIPHER_fetch (NULL, name, NULL);
}

static int
openssl_has (const sf_cipher_spec_t *spec, const struct mode_def *mode)
{
  EVP_CIPHER *cipher = openssl_cipher (spec, mode);

  EVP_CIPHER_free (cipher);
  return cipher != NULL;
}
#endif

/* One AEAD message a call, by our modes over SPEC or by libgcrypt's or
 * OpenSSL's own.  */
struct aead_runner
{
  const struct mode_def *mode;
  unsigned char nonce[16];
  size_t noncelen;
  sf_aead_hd_t hd;                /* Ours, or NULL.  */
  gcry_cipher_hd_t ghd;           /* libgcrypt's, or NULL.  */
#ifdef HAVE_OPENSSL
  EVP_CIPHER_CTX *ctx;            /* OpenSSL's, or NULL.  */
  EVP_CIPHER *cipher;
#endif
};

static int
gcry_aead_mode (enum sf_aead_mode mode)
{
  return mode == SF_AEAD_OCB ? GCRY_CIPHER_MODE_OCB
         : mode == SF_AEAD_EAX ? GCRY_CIPHER_MODE_EAX : GCRY_CIPHER_MODE_GCM;
}

#ifdef HAVE_OPENSSL
static void
openssl_aead_open (struct aead_runner *r, const struct impl *impl,
                   const unsigned char *key)
{
  r->cipher = openssl_cipher (impl->spec, r->mode);
  r->ctx = EVP_CIPHER_CTX_new ();
  if (!r->cipher || !r->ctx
      || !EVP_CipherInit_ex2 (r->ctx, r->cipher, NULL, NULL,
                              r->mode->encrypting, NULL)
      || !EVP_CIPHER_CTX_ctrl (r->ctx, EVP_CTRL_AEAD_SET_IVLEN,
                               (int) r->noncelen, NULL)
      || !EVP_CipherInit_ex2 (r->ctx, NULL, key, NULL, r->mode->encrypting,
                              NULL))
    bench_die (impl->spec->name, "OpenSSL refused the AEAD cipher");
}

static void
openssl_aead_message (struct aead_runner *r, unsigned char *buf, size_t size)
{
  unsigned char tag[16] = { 0 };
  int outl, finl;

  EVP_CipherInit_ex2 (r->ctx, NULL, NULL, r->nonce, r->mode->encrypting, NULL);
  if (!r->mode->encrypting)
    EVP_CIPHER_CTX_ctrl (r->ctx, EVP_CTRL_AEAD_SET_TAG, sizeof tag, tag);
  EVP_CipherUpdate (r->ctx, buf, &outl, buf, (int) size);
  /* Decryption fails here on the made-up tag, having done the work.  */
  EVP_CipherFinal_ex (r->ctx, buf + outl, &finl);
  if (r->mode->encrypting)
    EVP_CIPHER_CTX_ctrl (r->ctx, EVP_CTRL_AEAD_GET_TAG, sizeof tag, tag);
}
#endif

static void
aead_runner_open (struct aead_runner *r, const struct impl *impl,
                  const struct mode_def *mode, const unsigned char *key)
{
  const sf_cipher_spec_t *spec = impl->spec;
  gpg_error_t err;

  memset (r, 0, sizeof *r);
  r->mode = mode;
  /* RFC 9580's nonce lengths (5.13.2, 9.6).  */
  r->noncelen = mode->aead == SF_AEAD_OCB ? 15
                : mode->aead == SF_AEAD_EAX ? 16 : 12;
  memset (r->nonce, 0x3c, sizeof r->nonce);
  if (impl->is_openssl)
    {
#ifdef HAVE_OPENSSL
      openssl_aead_open (r, impl, key);
#endif
      return;
    }
  if (!strcmp (impl->name, "gcrypt"))
    {
      err = gcry_cipher_open (&r->ghd, gcrypt_algo_of (spec),
                              gcry_aead_mode (mode->aead), 0);
      if (!err)
        err = gcry_cipher_setkey (r->ghd, key, spec->keylen);
    }
  else
    {
      err = sf_aead_open (&r->hd, spec, mode->aead, 16, 0);
      if (!err)
        err = sf_aead_setkey (r->hd, key, spec->keylen);
    }
  if (err)
    bench_die (spec->name, gpg_strerror (err));
}

/* The tag is made, or checked against a wrong one, which costs the
 * same; its result is of no interest here.  */
static void
aead_runner_message (struct aead_runner *r, unsigned char *buf, size_t size)
{
  unsigned char tag[16] = { 0 };

  if (r->hd)
    {
      sf_aead_setnonce (r->hd, r->nonce, r->noncelen);
      if (r->mode->encrypting)
        {
          sf_aead_encrypt (r->hd, buf, buf, size);
          sf_aead_gettag (r->hd, tag, sizeof tag);
        }
      else
        {
          sf_aead_decrypt (r->hd, buf, buf, size);
          sf_aead_checktag (r->hd, tag, sizeof tag);
        }
    }
  else if (r->ghd)
    {
      gcry_cipher_setiv (r->ghd, r->nonce, r->noncelen);
      if (r->mode->aead == SF_AEAD_OCB)
        gcry_cipher_final (r->ghd);
      if (r->mode->encrypting)
        {
          gcry_cipher_encrypt (r->ghd, buf, size, NULL, 0);
          gcry_cipher_gettag (r->ghd, tag, sizeof tag);
        }
      else
        {
          gcry_cipher_decrypt (r->ghd, buf, size, NULL, 0);
          gcry_cipher_checktag (r->ghd, tag, sizeof tag);
        }
    }
#ifdef HAVE_OPENSSL
  else
    openssl_aead_message (r, buf, size);
#endif
}

static void
aead_runner_close (struct aead_runner *r)
{
  sf_aead_close (r->hd);
  gcry_cipher_close (r->ghd);
#ifdef HAVE_OPENSSL
  EVP_CIPHER_CTX_free (r->ctx);
  EVP_CIPHER_free (r->cipher);
#endif
}

/* One step of a sample: process BUF (SIZE bytes) once.  */
typedef void (*step_fn_t) (void *arg, unsigned char *buf, size_t size);

/* Repeat STEP over BUF for opt.seconds of CPU time: MiB/s, and the
 * cycles per byte at *R_CPB.  */
static double
time_steps (step_fn_t step, void *arg, unsigned char *buf, size_t size,
            double *r_cpb)
{
  unsigned long reps = 0, batch = 1, i;
  double start, elapsed;
  uint64_t cycles0, cycles1;

  /* Reading the CPU-time clock is a system call, which costs more
   * than a 16-byte buffer: the clock is read once per batch, and the
   * batch doubles until it fills a sixty-fourth of the sample.  */
  cycles0 = read_cycles ();
  start = cpu_seconds ();
  do
    {
      for (i = 0; i < batch; i++)
        step (arg, buf, size);
      reps += batch;
      elapsed = cpu_seconds () - start;
      if (elapsed < opt.seconds / 64)
        batch *= 2;
    }
  while (elapsed < opt.seconds);
  cycles1 = read_cycles ();
  if (perf_fd >= 0)
    *r_cpb = (double) (cycles1 - cycles0) / (reps * (double) size);
  else
    *r_cpb = elapsed * clock_hz / (reps * (double) size);
  return reps * (double) size / elapsed / MIB;
}

/* What one sample of an implementation runs.  */
struct sampler
{
  const struct impl *impl;
  const struct mode_def *mode;
  sf_cipher_hd_t hd;
  gcry_cipher_hd_t ghd;         /* A direct libgcrypt peer's.  */
  struct aead_runner aead;
#ifdef HAVE_OPENSSL
  EVP_CIPHER_CTX *ctx;
  EVP_CIPHER *cipher;
#endif
};

static void
sampler_step (void *arg, unsigned char *buf, size_t size)
{
  struct sampler *sm = arg;

  if (sm->mode->aead)
    aead_runner_message (&sm->aead, buf, size);
  else if (sm->impl->is_openssl)
    {
#ifdef HAVE_OPENSSL
      int outl;

      EVP_CipherUpdate (sm->ctx, buf, &outl, buf, (int) size);
#endif
    }
  else if (sm->impl->gcry_algo)
    {
      if (sm->mode->encrypting)
        gcry_cipher_encrypt (sm->ghd, buf, size, NULL, 0);
      else
        gcry_cipher_decrypt (sm->ghd, buf, size, NULL, 0);
    }
  else if (sm->mode->encrypting)
    sf_cipher_encrypt (sm->hd, buf, buf, size);
  else
    sf_cipher_decrypt (sm->hd, buf, buf, size);
}

/* Key SM's implementation for its mode with KEY and IV.  */
static void
sampler_open (struct sampler *sm, const unsigned char *key,
              const unsigned char *iv)
{
  const sf_cipher_spec_t *spec = sm->impl->spec;
  gpg_error_t err;

  if (sm->mode->aead)
    aead_runner_open (&sm->aead, sm->impl, sm->mode, key);
  else if (sm->impl->is_openssl)
    {
#ifdef HAVE_OPENSSL
      sm->cipher = openssl_cipher (spec, sm->mode);
      sm->ctx = EVP_CIPHER_CTX_new ();
      if (!sm->cipher || !sm->ctx
          || !EVP_CipherInit_ex2 (sm->ctx, sm->cipher, key,
                                  sm->mode->mode == SF_MODE_ECB ? NULL : iv,
                                  sm->mode->encrypting, NULL)
          || !EVP_CIPHER_CTX_set_padding (sm->ctx, 0))
        bench_die (spec->name, "OpenSSL refused the cipher");
#endif
    }
  else if (sm->impl->gcry_algo)
    {
      err = gcry_cipher_open (&sm->ghd, sm->impl->gcry_algo,
                              gcry_block_mode (sm->mode->mode), 0);
      if (!err)
        err = gcry_cipher_setkey (sm->ghd, key, spec->keylen);
      if (!err && sm->mode->mode == SF_MODE_CTR)
        err = gcry_cipher_setctr (sm->ghd, iv, spec->blocksize);
      else if (!err && sm->mode->mode != SF_MODE_ECB)
        err = gcry_cipher_setiv (sm->ghd, iv, spec->blocksize);
      if (err)
        bench_die (spec->name, gpg_strerror (err));
    }
  else
    {
      err = sf_cipher_open (&sm->hd, spec, sm->mode->mode, 0);
      if (!err)
        err = sf_cipher_setkey (sm->hd, key, spec->keylen);
      if (!err && sm->mode->mode != SF_MODE_ECB)
        err = sf_cipher_setiv (sm->hd, iv, spec->blocksize);
      if (err)
        bench_die (spec->name, gpg_strerror (err));
    }
}

static void
sampler_close (struct sampler *sm)
{
  if (sm->mode->aead)
    aead_runner_close (&sm->aead);
  else if (sm->impl->is_openssl)
    {
#ifdef HAVE_OPENSSL
      EVP_CIPHER_CTX_free (sm->ctx);
      EVP_CIPHER_free (sm->cipher);
#endif
    }
  else if (sm->impl->gcry_algo)
    gcry_cipher_close (sm->ghd);
  else
    sf_cipher_close (sm->hd);
}

/* Any fixed key without weak parts will do.  */
static void
fixed_key (unsigned char *key, size_t len)
{
  size_t i;

  for (i = 0; i < len; i++)
    key[i] = (unsigned char) (i * 0x9d + 0x35);
}

/* One sample of IMPL: MiB/s of MODE over BUF (SIZE bytes); the
 * cycles per byte go to *R_CPB.  */
static double
sample (const struct impl *impl, const struct mode_def *mode,
        unsigned char *buf, size_t size, double *r_cpb)
{
  struct sampler sm;
  unsigned char key[64], iv[SF_MAX_BLOCKSIZE];
  double mibs;

  memset (&sm, 0, sizeof sm);
  sm.impl = impl;
  sm.mode = mode;
  fixed_key (key, sizeof key);
  memset (iv, 0xa5, sizeof iv);
  sampler_open (&sm, key, iv);
  mibs = time_steps (sampler_step, &sm, buf, size, r_cpb);
  sampler_close (&sm);
  return mibs;
}

static struct result *
new_result (void)
{
  if (nresults == results_allocated)
    {
      results_allocated = results_allocated ? 2 * results_allocated : 256;
      results = realloc (results, results_allocated * sizeof *results);
      if (!results)
        bench_die ("out of core", strerror (errno));
    }
  memset (&results[nresults], 0, sizeof *results);
  return &results[nresults++];
}

/* Measure one cell for every implementation in IMPLS, interleaved,
 * and keep the medians.  */
static void
measure_cell (const struct impl *impls, int nimpls,
              const struct mode_def *mode, size_t size)
{
  double *mibs = bench_xcalloc ((size_t) nimpls * opt.runs, sizeof *mibs);
  double *cpb = bench_xcalloc ((size_t) nimpls * opt.runs, sizeof *cpb);
  unsigned char *buf = bench_xcalloc (size + 64, 1);
  const sf_cipher_spec_t *def = NULL;
  /* An index: new_result may move the array.  */
  size_t first = nresults;
  double gcrypt = NAN, openssl = NAN;
  int r, i;

  memset (buf, 0x5a, size);
  sf_table_find (impls[0].spec->name, NULL, &def);
  for (r = 0; r < opt.runs; r++)
    for (i = 0; i < nimpls; i++)
      mibs[i * opt.runs + r] = sample (&impls[i], mode, buf, size,
                                       &cpb[i * opt.runs + r]);
  for (i = 0; i < nimpls; i++)
    {
      struct result *res = new_result ();

      res->spec = impls[i].spec;
      res->impl = impls[i].name;
      res->mode = mode;
      res->size = size;
      res->mibs = bench_median (mibs + i * opt.runs, opt.runs);
      res->cycles_per_byte = bench_median (cpb + i * opt.runs, opt.runs);
      res->is_default = !impls[i].is_openssl && impls[i].spec == def;
      if (!strcmp (res->impl, "gcrypt"))
        gcrypt = res->mibs;
      else if (impls[i].is_openssl)
        openssl = res->mibs;
    }
  for (; first < nresults; first++)
    {
      results[first].vs_gcrypt = results[first].mibs / gcrypt;
      results[first].vs_openssl = results[first].mibs / openssl;
    }
  free (mibs);
  free (cpb);
  free (buf);
}

/* One sample of SPEC's CFB encryption with the SHA-1 of the same
 * data, as an OpenPGP SEIPD packet pays them: STITCHED, in one pass
 * (sf_cipher_encrypt_sha1), else in series (sf_sha1_write, then
 * sf_cipher_encrypt).  As sample() for the rest.  */
struct cfb_sha1_sampler
{
  sf_cipher_hd_t hd;
  sf_sha1_t md;
  int stitched;
};

static void
cfb_sha1_step (void *arg, unsigned char *buf, size_t size)
{
  struct cfb_sha1_sampler *cs = arg;

  if (cs->stitched)
    sf_cipher_encrypt_sha1 (cs->hd, buf, buf, size, &cs->md);
  else
    {
      sf_sha1_write (&cs->md, buf, size);
      sf_cipher_encrypt (cs->hd, buf, buf, size);
    }
}

static double
sample_cfb_sha1 (const sf_cipher_spec_t *spec, int stitched,
                 unsigned char *buf, size_t size, double *r_cpb)
{
  struct cfb_sha1_sampler cs;
  unsigned char key[64];
  gpg_error_t err;
  double mibs;

  memset (&cs, 0, sizeof cs);
  cs.stitched = stitched;
  fixed_key (key, sizeof key);
  err = sf_cipher_open (&cs.hd, spec, SF_MODE_CFB, 0);
  if (!err)
    err = sf_cipher_setkey (cs.hd, key, spec->keylen);
  if (err)
    bench_die (spec->name, gpg_strerror (err));
  sf_sha1_init (&cs.md);
  mibs = time_steps (cfb_sha1_step, &cs, buf, size, r_cpb);
  sf_cipher_close (cs.hd);
  return mibs;
}

/* Beside CFB encryption at SIZE bytes, for each implementation of
 * IMPLS with a stitched CFB + SHA-1 entry: the rows "cfb-enc+sha1"
 * (stitched) and "cfb-enc;sha1" (in series: a semicolon, as a comma
 * would need quoting in CSV), sampled in turn, and their ratio in a
 * note.  Neither peer has a row to compare with.  */
static void
measure_cfb_sha1 (const struct impl *impls, int nimpls, size_t size,
                  report_t *rep)
{
  static const struct mode_def row_modes[2] =
    {
      { .name = "cfb-enc+sha1", .mode = SF_MODE_CFB, .encrypting = 1 },
      { .name = "cfb-enc;sha1", .mode = SF_MODE_CFB, .encrypting = 1 }
    };
  double *mibs = bench_xcalloc (2 * (size_t) opt.runs, sizeof *mibs);
  double *cpb = bench_xcalloc (2 * (size_t) opt.runs, sizeof *cpb);
  unsigned char *buf = bench_xcalloc (size + 64, 1);
  int i, r, k;

  memset (buf, 0x5a, size);
  for (i = 0; i < nimpls; i++)
    {
      const sf_cipher_spec_t *spec = impls[i].spec, *def = NULL;
      double median[2];

      if (impls[i].is_openssl || !sf_spec_cfb_sha1 (spec))
        continue;
      sf_table_find (spec->name, NULL, &def);
      for (r = 0; r < opt.runs; r++)
        for (k = 0; k < 2; k++)
          mibs[k * opt.runs + r] = sample_cfb_sha1 (spec, !k, buf, size,
                                                    &cpb[k * opt.runs + r]);
      for (k = 0; k < 2; k++)
        {
          struct result *res = new_result ();

          res->spec = spec;
          res->impl = impls[i].name;
          res->mode = &row_modes[k];
          res->size = size;
          res->mibs = bench_median (mibs + k * opt.runs, opt.runs);
          res->cycles_per_byte = bench_median (cpb + k * opt.runs, opt.runs);
          res->vs_gcrypt = res->vs_openssl = NAN;
          res->is_default = spec == def;
          median[k] = res->mibs;
        }
      report_note (rep, "%s %s, %zu bytes: cfb-enc+sha1 (stitched) runs"
                   " at %.2fx cfb-enc;sha1 (in series)", spec->name,
                   impls[i].name, size, median[0] / median[1]);
    }
  free (mibs);
  free (cpb);
  free (buf);
}

/* Parse --size: a list of multiples of 16, or "all".  */
static void
parse_sizes (const char *option, const char *val)
{
  static size_t *given;         /* The list of the last --size.  */
  size_t n, i;
  char **items;

  free (given);
  given = NULL;
  if (!strcmp (val, "all"))
    {
      opt.sizes = all_sizes;
      opt.nsizes = N_ALL_SIZES;
      return;
    }
  items = bench_split_list (val, &n);
  if (!n)
    bench_die (option, "a multiple of 16 between 16 and 67108864 expected");
  given = bench_xcalloc (n, sizeof *given);
  for (i = 0; i < n; i++)
    {
      double v = bench_parse_number
        (option, items[i], 16, 1 << 26,
         "a multiple of 16 between 16 and 67108864 expected");

      if (v != floor (v) || (size_t) v % 16)
        bench_die (option, "a multiple of 16 between 16 and 67108864 expected");
      given[i] = (size_t) v;
    }
  opt.sizes = given;
  opt.nsizes = n;
  free (items);
}

static void
parse_modes (const char *option, const char *val)
{
  char **items = bench_split_list (val, NULL);
  size_t i, m;

  memset (opt.mode_on, 0, sizeof opt.mode_on);
  for (i = 0; items[i]; i++)
    {
      int found = 0;

      for (m = 0; m < N_MODES; m++)
        if (!strcasecmp (items[i], "all")
            || !strcasecmp (items[i], modes[m].name))
          opt.mode_on[m] = found = 1;
      if (!found)
        bench_die (option, "ecb, cbc-enc, cbc-dec, cfb-enc, cfb-dec, ctr,"
                   " ofb, openpgp-cfb, ocb-enc, ocb-dec, eax-enc, eax-dec,"
                   " gcm-enc, gcm-dec or all expected");
    }
  free (items);
}

static void
parse_args (int argc, char **argv)
{
  int i;

  for (i = 1; i < argc; i++)
    {
      const char *arg = argv[i];
      const char *val = i + 1 < argc ? argv[i + 1] : NULL;

      if (!strcmp (arg, "--help"))
        {
          usage (stdout);
          exit (0);
        }
      if (!strcmp (arg, "--no-auto-modules"))
        {
          opt.auto_modules = 0;
          continue;
        }
      if (!strcmp (arg, "--no-openssl"))
        {
          opt.use_openssl = 0;
          continue;
        }
      if (strcmp (arg, "--algo") && strcmp (arg, "--impl")
          && strcmp (arg, "--size") && strcmp (arg, "--seconds")
          && strcmp (arg, "--runs") && strcmp (arg, "--load-extension")
          && strcmp (arg, "--mode") && strcmp (arg, "--format")
          && strcmp (arg, "--save") && strcmp (arg, "--plot"))
        bench_die (arg, "unknown option (try --help)");
      if (!val)
        bench_die (arg, "missing argument");
      i++;
      if (!strcmp (arg, "--algo"))
        opt.algos = bench_split_list (val, NULL);
      else if (!strcmp (arg, "--load-extension"))
        opt.extensions[opt.n_extensions++] = (char *) val;
      else if (!strcmp (arg, "--impl"))
        opt.impls = bench_split_list (val, NULL);
      else if (!strcmp (arg, "--size"))
        parse_sizes (arg, val);
      else if (!strcmp (arg, "--mode"))
        parse_modes (arg, val);
      else if (!strcmp (arg, "--seconds"))
        opt.seconds = bench_parse_number
          (arg, val, 1e-6, 60, "a number of seconds above 0 and up to 60"
           " expected");
      else if (!strcmp (arg, "--format"))
        opt.format = report_parse_format (arg, val);
      else if (!strcmp (arg, "--save"))
        opt.save = val;
      else if (!strcmp (arg, "--plot"))
        opt.plot = val;
      else
        {
          double v = bench_parse_number (arg, val, 1, 101,
                                         "a count from 1 to 101 expected");

          if (v != floor (v))
            bench_die (arg, "a count from 1 to 101 expected");
          opt.runs = (int) v;
        }
    }
  if (opt.plot)
    plot_check ("--plot", opt.plot);
}

/* True when a selected mode is the AEAD mode AEAD.  */
static int
aead_selected (enum sf_aead_mode aead)
{
  size_t m;

  for (m = 0; m < N_MODES; m++)
    if (opt.mode_on[m] && modes[m].aead == aead)
      return 1;
  return 0;
}

/* Notes on the AEAD paths taken: GHASH's implementation, and which
 * implementations have an OCB entry (sfcipher.h) that will run here.  */
static void
note_aead_paths (report_t *rep)
{
  char list[400] = "";
  const sf_table_entry_t *e;
  size_t i;

  if (aead_selected (SF_AEAD_GCM))
    report_note (rep, "GCM: GHASH by %s", sf_ghash_impl_name ());
  if (!aead_selected (SF_AEAD_OCB))
    return;
  for (i = 0; (e = sf_table_nth (i)); i++)
    if (sf_spec_ocb (e->spec)
        && (!opt.algos || algo_selected (e->spec, opt.algos))
        && (!opt.impls || impl_selected (e->spec, opt.impls)))
      snprintf (list + strlen (list), sizeof list - strlen (list), "%s%s %s",
                *list ? ", " : "", e->spec->name, e->spec->impl);
  report_note (rep, "OCB: whole blocks by the implementation's OCB entry"
               " for %s, through ECB for the others",
               *list ? list : "none");
}

/* The implementations of the algorithm of table entry IDX to measure,
 * libgcrypt's and OpenSSL's last.  Returns their number.  */
static int
collect_impls (size_t idx, const struct mode_def *mode, struct impl *impls,
               report_t *rep)
{
  const sf_cipher_spec_t *first = sf_table_nth (idx)->spec;
  const sf_cipher_spec_t *gcrypt = NULL;
  const sf_table_entry_t *e;
  int n = 0;
  size_t j;

  for (j = idx; (e = sf_table_nth (j)) && n < MAX_IMPLS_PER_ALGO - 2; j++)
    {
      const sf_cipher_spec_t *spec = e->spec;

      if (strcmp (spec->name, first->name))
        continue;
      if (!strcmp (spec->impl, "gcrypt"))
        {
          gcrypt = spec;
          continue;
        }
      if (opt.impls && !impl_selected (spec, opt.impls))
        continue;
      if (!sf_spec_usable (spec))
        {
          if (rep)
            report_note (rep, "%s %s: not usable on this machine",
                         spec->name, spec->impl);
          continue;
        }
      impls[n].spec = spec;
      impls[n].is_openssl = 0;
      impls[n].gcry_algo = 0;
      impls[n++].name = spec->impl;
    }
  if (gcrypt)
    {
      impls[n].spec = gcrypt;
      impls[n].is_openssl = 0;
      impls[n].gcry_algo = 0;
      impls[n++].name = "gcrypt";
    }
  else if (n && (mode->aead || gcry_block_mode (mode->mode))
           && gcrypt_algo_of (impls[0].spec))
    {
      /* An algorithm a module brings: libgcrypt's own, if it has it.  */
      impls[n].spec = impls[0].spec;
      impls[n].is_openssl = 0;
      impls[n].gcry_algo = gcrypt_algo_of (impls[0].spec);
      impls[n++].name = "gcrypt";
    }
#ifdef HAVE_OPENSSL
  if (opt.use_openssl && n && openssl_has (impls[0].spec, mode))
    {
      impls[n].spec = impls[0].spec;
      impls[n].is_openssl = 1;
      impls[n].gcry_algo = 0;
      impls[n++].name = "openssl";
    }
#else
  (void) mode;
#endif
  return n;
}

static void
add_results_table (report_t *rep)
{
  report_table_t *tab = report_add_table (rep, "results", NULL);
  int c_algo, c_bits, c_impl, c_mode, c_size, c_mibs, c_ns, c_cpb;
  int c_vg, c_vo;
  size_t i;

  c_algo = report_add_column (tab, "algo", "ALGO", REPORT_STR, 0, 0);
  c_bits = report_add_column (tab, "bits", "BITS", REPORT_NUM, 0, 0);
  c_impl = report_add_column (tab, "impl", "IMPL", REPORT_STR, 0, 0);
  c_mode = report_add_column (tab, "mode", "MODE", REPORT_STR, 0, 0);
  c_size = report_add_column (tab, "bytes", "BYTES", REPORT_NUM, 0, 0);
  c_mibs = report_add_column (tab, "mibs", "MiB/s", REPORT_NUM, 1, 0);
  c_ns = report_add_column (tab, "ns_per_byte", "ns/B", REPORT_NUM, 2, 0);
  c_cpb = report_add_column (tab, "cycles_per_byte", "c/B", REPORT_NUM, 2, 0);
  c_vg = report_add_column (tab, "ratio_gcrypt", "xgcrypt", REPORT_RATIO,
                            2, 0);
  c_vo = report_add_column (tab, "ratio_openssl", "xopenssl", REPORT_RATIO,
                            2, 0);
  for (i = 0; i < nresults; i++)
    {
      const struct result *res = &results[i];

      report_add_row (tab);
      report_set_str (tab, c_algo, res->spec->name);
      report_set_num (tab, c_bits, res->spec->keylen * 8);
      report_set_str (tab, c_impl, res->impl);
      report_set_str (tab, c_mode, res->mode->name);
      report_set_num (tab, c_size, res->size);
      report_set_num (tab, c_mibs, res->mibs);
      report_set_num (tab, c_ns, 1e9 / (res->mibs * MIB));
      report_set_num (tab, c_cpb, res->cycles_per_byte);
      report_set_num (tab, c_vg, res->vs_gcrypt);
      report_set_num (tab, c_vo, res->vs_openssl);
    }
}

/* The geometric-mean line of each implementation, and of "default",
 * each algorithm's default implementation (what sfenc runs).  */
static void
add_summary_table (report_t *rep)
{
  report_table_t *tab = report_add_table
    (rep, "summary", "geometric means per implementation over the"
     " algorithms, modes and sizes it was measured on");
  const char *names[MAX_IMPLS_PER_ALGO * 4];
  size_t nnames = 0, i, j;
  int c_impl, c_algos, c_cells, c_mibs, c_vg, c_vo;

  c_impl = report_add_column (tab, "impl", "IMPL", REPORT_STR, 0, 0);
  c_algos = report_add_column (tab, "algorithms", "ALGOS", REPORT_NUM, 0, 0);
  c_cells = report_add_column (tab, "cells", "CELLS", REPORT_NUM, 0, 0);
  c_mibs = report_add_column (tab, "mibs", "MiB/s", REPORT_NUM, 1, 0);
  c_vg = report_add_column (tab, "ratio_gcrypt", "xgcrypt", REPORT_RATIO,
                            2, 0);
  c_vo = report_add_column (tab, "ratio_openssl", "xopenssl", REPORT_RATIO,
                            2, 0);
  names[nnames++] = "default";
  for (i = 0; i < nresults; i++)
    {
      for (j = 0; j < nnames && strcmp (names[j], results[i].impl); j++)
        ;
      if (j == nnames && nnames < sizeof names / sizeof *names)
        names[nnames++] = results[i].impl;
    }
  for (j = 0; j < nnames; j++)
    {
      struct bench_geomean mibs = { 0, 0 }, vg = { 0, 0 }, vo = { 0, 0 };
      const char *last_algo = NULL;
      size_t cells = 0, algos = 0;

      for (i = 0; i < nresults; i++)
        {
          const struct result *res = &results[i];

          if (j ? strcmp (res->impl, names[j]) != 0 : !res->is_default)
            continue;
          cells++;
          if (!last_algo || strcmp (last_algo, res->spec->name))
            algos++;
          last_algo = res->spec->name;
          bench_geomean_add (&mibs, res->mibs);
          bench_geomean_add (&vg, res->vs_gcrypt);
          bench_geomean_add (&vo, res->vs_openssl);
        }
      report_add_row (tab);
      report_set_str (tab, c_impl, names[j]);
      report_set_num (tab, c_algos, algos);
      report_set_num (tab, c_cells, cells);
      report_set_num (tab, c_mibs, bench_geomean (&mibs));
      report_set_num (tab, c_vg, bench_geomean (&vg));
      report_set_num (tab, c_vo, bench_geomean (&vo));
    }
}

/* Chart: one group per algorithm and mode at the largest size, one bar
 * per implementation.  */
static void
draw (void)
{
  size_t largest = 0, ncats = 0, nseries = 0, i, j;
  char **cats = bench_xcalloc (nresults, sizeof *cats);
  char **series = bench_xcalloc (nresults, sizeof *series);
  double *values;
  char title[200];
  int pass;

  for (i = 0; i < nresults; i++)
    if (results[i].size > largest)
      largest = results[i].size;
  /* Native implementations first, then the peers.  */
  for (pass = 0; pass < 3; pass++)
    for (i = 0; i < nresults; i++)
      {
        const char *impl = results[i].impl;
        int peer = !strcmp (impl, "gcrypt") ? 1
          : !strcmp (impl, "openssl") ? 2 : 0;

        if (peer != pass)
          continue;
        for (j = 0; j < nseries && strcmp (series[j], impl); j++)
          ;
        if (j == nseries)
          series[nseries++] = (char *) impl;
      }
  values = bench_xcalloc (nresults * nseries, sizeof *values);
  for (i = 0; i < nresults * nseries; i++)
    values[i] = NAN;
  for (i = 0; i < nresults; i++)
    {
      const struct result *res = &results[i];
      char label[80];
      size_t c, s;

      if (res->size != largest)
        continue;
      snprintf (label, sizeof label, "%s %s", res->spec->name,
                res->mode->name);
      for (c = 0; c < ncats && strcmp (cats[c], label); c++)
        ;
      if (c == ncats)
        cats[ncats++] = bench_xstrdup (label);
      for (s = 0; strcmp (series[s], res->impl); s++)
        ;
      values[c * nseries + s] = res->mibs;
    }
  snprintf (title, sizeof title, "cipherbench: %zu-byte buffers, CPU time,"
            " median of %d samples", largest, opt.runs);
  plot_bars (opt.plot, title, "MiB/s", ncats, cats, nseries, series, values);
  bench_free_strings (cats, ncats);
  free (series);                /* The results' names, not copies.  */
  free (values);
}

int
main (int argc, char **argv)
{
  const sf_table_entry_t *e;
  report_t *rep;
  size_t i, j, m, s;
  int matched = 0;
  char modes_text[200] = "";

  bench_progname = "cipherbench";
  opt.seconds = 0.2;
  opt.runs = 5;
  opt.auto_modules = 1;
  opt.use_openssl = 1;
  opt.mode_on[3] = opt.mode_on[4] = 1;          /* cfb-enc, cfb-dec */
  opt.sizes = default_sizes;
  opt.nsizes = 1;
  opt.extensions = bench_xcalloc (argc, sizeof *opt.extensions);
  parse_args (argc, argv);
  if (!gcry_check_version ("1.10.0"))
    bench_die ("libgcrypt", "version 1.10 or later is needed");
  gcry_control (GCRYCTL_INITIALIZATION_FINISHED, 0);
  sf_table_init ();
  if (opt.auto_modules)
    sf_module_load_dir (sf_module_dir ());
  for (i = 0; i < (size_t) opt.n_extensions; i++)
    {
      char why[300];

      if (sf_module_load (opt.extensions[i], why, sizeof why))
        bench_die (opt.extensions[i], why);
    }

  /* Refuse a name the table does not know rather than print an
   * empty table.  */
  for (i = 0; opt.algos && opt.algos[i]; i++)
    {
      const sf_cipher_spec_t *spec;

      if (gpg_err_code (sf_table_find (opt.algos[i], NULL, &spec))
          == GPG_ERR_CIPHER_ALGO)
        bench_die (opt.algos[i],
                   "unknown cipher algorithm (see sfenc --list-ciphers)");
    }
  open_cycle_counter ();
  if (perf_fd < 0)
    clock_hz = measure_clock ();

  rep = report_new ("cipherbench");
  report_provenance (rep, argc, argv);
  report_set_provenance (rep, "libgcrypt", gcry_check_version (NULL));
  for (m = 0; m < N_MODES; m++)
    if (opt.mode_on[m])
      snprintf (modes_text + strlen (modes_text),
                sizeof modes_text - strlen (modes_text), "%s%s",
                *modes_text ? ", " : "", modes[m].name);
  report_note (rep, "%s; CPU time, median of %d samples of %g s each,"
               " implementations interleaved", modes_text, opt.runs,
               opt.seconds);
  report_note (rep, "xgcrypt, xopenssl = implementation / libgcrypt %s,"
               " / OpenSSL %s (above 1: faster), same run",
               gcry_check_version (NULL),
#ifdef HAVE_OPENSSL
               opt.use_openssl ? OpenSSL_version (OPENSSL_VERSION_STRING)
               : "(left out: --no-openssl)"
#else
               "(n/a: built without libcrypto)"
#endif
               );
  if (perf_fd >= 0)
    report_note (rep, "c/B: the CPU's cycle counter (perf_event_open)");
  else
    report_note (rep, "c/B: ns/B times the clock rate measured with a"
                 " chain of dependent additions, %.2f GHz (no cycle"
                 " counter available)", clock_hz / 1e9);
  note_aead_paths (rep);

  /* One group per algorithm, in table order of first appearance.  */
  for (i = 0; (e = sf_table_nth (i)); i++)
    {
      int seen_before = 0, noted = 0;

      for (j = 0; j < i; j++)
        if (!strcmp (sf_table_nth (j)->spec->name, e->spec->name))
          seen_before = 1;
      if (seen_before)
        continue;
      if (opt.algos && !algo_selected (e->spec, opt.algos))
        continue;
      for (m = 0; m < N_MODES; m++)
        {
          struct impl impls[MAX_IMPLS_PER_ALGO];
          int n;

          if (!opt.mode_on[m]
              || (modes[m].aead && e->spec->blocksize != SF_AEAD_BLOCKSIZE))
            continue;
          n = collect_impls (i, &modes[m], impls, noted ? NULL : rep);
          noted = 1;
          /* libgcrypt alone is no comparison when --impl chose
           * nothing native for this algorithm.  */
          if (!n || (opt.impls && !impl_selected (impls[0].spec, opt.impls)))
            continue;
          matched = 1;
          for (s = 0; s < opt.nsizes; s++)
            {
              measure_cell (impls, n, &modes[m], opt.sizes[s]);
              if (!strcmp (modes[m].name, "cfb-enc"))
                measure_cfb_sha1 (impls, n, opt.sizes[s], rep);
            }
        }
    }
  if (!matched)
    bench_die ("nothing to measure", "no implementation matches --algo/--impl");

  add_results_table (rep);
  add_summary_table (rep);
  if (opt.plot)
    {
      draw ();
      report_add_chart (rep, opt.plot);
    }
  report_print (rep, opt.format, stdout);
  if (opt.save)
    report_save (rep, opt.save);
  report_free (rep);
  return 0;
}
