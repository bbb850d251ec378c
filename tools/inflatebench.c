/* inflatebench.c - in-process inflate throughput, as "openssl speed"
 *
 * Reads one compressed stream file, raw deflate (what OpenPGP's ZIP
 * packets hold) or the zlib format (ZLIB), and inflates it from
 * memory through g10/inflate-engine.c, the code sfenc -d runs, once
 * per implementation of the build (zlib, and isal with ISA-L), the
 * input in CHUNK_SIZE pieces and the output in CHUNK_SIZE reads as
 * sfenc's reader takes them.  The implementations run in turn, --runs
 * times; each figure is the median of the process CPU time of its
 * runs, so that drift on a shared machine hits all of them alike.
 * Prints MiB/s of output for each, and each one's ratio to zlib.
 * With ISA-L, the row "isal-only" is isal_inflate called directly,
 * without the check of g10/deflate-check.c that sfenc's isal path
 * runs (and must, to refuse what zlib refuses): the peer's own speed,
 * which shows what that check costs.
 * First, outside the timing, every implementation must give the same
 * bytes (length and CRC-32), or the program fails.
 */
#include <config.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <zlib.h>
#ifdef HAVE_ISAL
# include <isa-l/igzip_lib.h>
#endif

#include "packet.h"
#include "inflate-engine.h"
#include "benchutil.h"

#define MIB (1024.0 * 1024.0)
#define MAX_RUNS 101

static const enum inflate_impl impls[] =
  {
    INFLATE_IMPL_ZLIB,
#ifdef HAVE_ISAL
    INFLATE_IMPL_ISAL
#endif
  };
#define N_IMPLS (sizeof impls / sizeof *impls)
#ifdef HAVE_ISAL
# define N_ROWS (N_IMPLS + 1)
#else
# define N_ROWS N_IMPLS
#endif

/* The compressed file in memory, read as a source.  */
struct mem_source
{
  const unsigned char *data;
  size_t len;
  size_t pos;
};

static gpg_error_t
mem_source_read (void *ctx, unsigned char *buf, size_t size, size_t *nread)
{
  struct mem_source *src = ctx;
  size_t n = src->len - src->pos;

  *nread = n < size ? n : size;
  memcpy (buf, src->data + src->pos, *nread);
  src->pos += *nread;
  return 0;
}

static void
usage (FILE *fp)
{
  fprintf (fp, "Usage: inflatebench [--runs N] [--zlib] FILE\n"
           "Inflate FILE, a raw deflate stream (or with --zlib one in the"
           " zlib format),\nin memory through each inflate implementation"
           " of sfenc -d, and print\nMiB/s of output (median of N runs,"
           " default 5) and the ratio to zlib.\n");
}

static double
cpu_seconds (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

static unsigned char *
read_file (const char *name, size_t *r_len)
{
  FILE *fp = fopen (name, "rb");
  unsigned char *data = NULL;
  size_t len = 0, size = 0, n;

  if (!fp)
    bench_die (name, strerror (errno));
  do
    {
      if (len == size)
        {
          size = size ? 2 * size : 1 << 20;
          data = bench_xrealloc (data, size, 1);
        }
      n = fread (data + len, 1, size - len, fp);
      len += n;
    }
  while (n);
  if (ferror (fp))
    bench_die (name, strerror (errno));
  fclose (fp);
  *r_len = len;
  return data;
}

/* Inflate DATA through IMPL once into OUT (CHUNK_SIZE bytes at a
 * time); its CPU seconds, and the output length at *R_OUTLEN.  With
 * R_CRC, no timing: the CRC-32 of the output goes there.  */
static double
run_once (enum inflate_impl impl, enum inflate_framing framing,
          const unsigned char *data, size_t len, unsigned char *out,
          uint64_t *r_outlen, unsigned long *r_crc)
{
  struct mem_source src = { data, len, 0 };
  inflate_engine_t *e;
  unsigned long crc = crc32 (0, NULL, 0);
  uint64_t total = 0;
  double start, seconds;
  gpg_error_t err;
  size_t n;

  start = cpu_seconds ();
  if (inflate_engine_new (&e, impl, framing, mem_source_read, &src))
    bench_die ("inflate_engine_new", "out of memory");
  do
    {
      err = inflate_engine_read (e, out, CHUNK_SIZE, &n);
      total += n;
      if (r_crc)
        crc = crc32 (crc, out, n);
    }
  while (!err && n);
  seconds = cpu_seconds () - start;
  if (err)
    bench_die (inflate_impl_name (impl), inflate_engine_reason (e)
               ? inflate_engine_reason (e) : gpg_strerror (err));
  inflate_engine_release (e);
  *r_outlen = total;
  if (r_crc)
    *r_crc = crc;
  return seconds;
}

#ifdef HAVE_ISAL
/* isal_inflate alone over DATA, in the same pieces; its CPU seconds
 * and the output length at *R_OUTLEN.  */
static double
run_isal_only (enum inflate_framing framing, const unsigned char *data,
               size_t len, unsigned char *out, uint64_t *r_outlen)
{
  struct inflate_state *st = bench_xcalloc (1, sizeof *st);
  uint64_t total = 0;
  size_t pos = 0, n;
  double start;

  start = cpu_seconds ();
  isal_inflate_init (st);
  st->crc_flag = framing == INFLATE_RAW ? ISAL_DEFLATE : ISAL_ZLIB;
  while (st->block_state != ISAL_BLOCK_FINISH)
    {
      if (!st->avail_in)
        {
          n = len - pos < CHUNK_SIZE ? len - pos : CHUNK_SIZE;
          if (!n)
            bench_die ("isal-only", "the stream is truncated");
          st->next_in = (unsigned char *)data + pos;
          st->avail_in = n;
          pos += n;
        }
      st->next_out = out;
      st->avail_out = CHUNK_SIZE;
      if (isal_inflate (st) != ISAL_DECOMP_OK)
        bench_die ("isal-only", "isal_inflate refused the stream");
      total += CHUNK_SIZE - st->avail_out;
    }
  start = cpu_seconds () - start;
  free (st);
  *r_outlen = total;
  return start;
}
#endif


int
main (int argc, char **argv)
{
  enum inflate_framing framing = INFLATE_RAW;
  double secs[N_ROWS][MAX_RUNS], mibs[N_ROWS];
  unsigned char out[CHUNK_SIZE];
  const char *file = NULL;
  unsigned char *data;
  size_t len, i, r;
  int runs = 5, a;
  uint64_t outlen, ref_len = 0;
  unsigned long crc, ref_crc = 0;

  bench_progname = "inflatebench";
  for (a = 1; a < argc; a++)
    if (!strcmp (argv[a], "--help"))
      {
        usage (stdout);
        return 0;
      }
    else if (!strcmp (argv[a], "--runs") && a + 1 < argc)
      runs = bench_parse_number ("--runs", argv[++a], 1, MAX_RUNS,
                                 "a number of runs, 1..101");
    else if (!strcmp (argv[a], "--zlib"))
      framing = INFLATE_ZLIB;
    else if (argv[a][0] == '-' || file)
      {
        usage (stderr);
        return 2;
      }
    else
      file = argv[a];
  if (!file)
    {
      usage (stderr);
      return 2;
    }
  data = read_file (file, &len);
  for (i = 0; i < N_IMPLS; i++)
    {
      run_once (impls[i], framing, data, len, out, &outlen, &crc);
      if (!i)
        {
          ref_len = outlen;
          ref_crc = crc;
        }
      else if (outlen != ref_len || crc != ref_crc)
        bench_die (inflate_impl_name (impls[i]),
                   "its output differs from zlib's");
    }
  for (r = 0; r < (size_t)runs; r++)
    {
      for (i = 0; i < N_IMPLS; i++)
        secs[i][r] = run_once (impls[i], framing, data, len, out, &outlen,
                               NULL);
#ifdef HAVE_ISAL
      secs[N_IMPLS][r] = run_isal_only (framing, data, len, out, &outlen);
      if (outlen != ref_len)
        bench_die ("isal-only", "its output differs from zlib's");
#endif
    }
  printf ("inflatebench: %s, %s, %.1f MiB -> %.1f MiB (ratio %.2f),"
          " median CPU time of %d runs\n", file,
          framing == INFLATE_RAW ? "raw deflate" : "zlib format",
          len / MIB, ref_len / MIB, len ? (double)ref_len / len : 0.0, runs);
  printf ("%-10s %10s %10s\n", "inflate", "MiB/s out", "vs zlib");
  for (i = 0; i < N_ROWS; i++)
    {
      mibs[i] = ref_len / MIB / bench_median (secs[i], runs);
      printf ("%-10s %10.1f %10.2f\n",
              i < N_IMPLS ? inflate_impl_name (impls[i]) : "isal-only",
              mibs[i], mibs[i] / mibs[0]);
    }
  free (data);
  return 0;
}
