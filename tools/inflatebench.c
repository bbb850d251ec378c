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
 * which shows what that check costs; the row "isal-ahead" is sfenc's
 * isal path with the check on a thread of its own, as with --threads
 * above 1, where the CPU time counts both threads and the wall time
 * (also printed, for every row) is what the overlap gains.
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

/* The engines measured: an implementation, with the check ahead or
 * not.  */
static const struct engine
{
  const char *name;
  enum inflate_impl impl;
  int ahead;
} engines[] =
  {
    { "zlib", INFLATE_IMPL_ZLIB, 0 },
#ifdef HAVE_ISAL
    { "isal", INFLATE_IMPL_ISAL, 0 },
    { "isal-ahead", INFLATE_IMPL_ISAL, 1 }
#endif
  };
#define N_ENGINES (sizeof engines / sizeof *engines)
#ifdef HAVE_ISAL
# define N_ROWS (N_ENGINES + 1)
#else
# define N_ROWS N_ENGINES
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
           " default 5) and the ratio to zlib,\nby CPU time (all threads)"
           " and by wall time.\n");
}

static double
clock_seconds (clockid_t clock)
{
  struct timespec ts;

  clock_gettime (clock, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* CPU seconds of the process, all threads, and wall seconds.  */
struct times
{
  double cpu, wall;
};

static struct times
times_now (void)
{
  struct times t = { clock_seconds (CLOCK_PROCESS_CPUTIME_ID),
                     clock_seconds (CLOCK_MONOTONIC) };
  return t;
}

static struct times
times_since (struct times start)
{
  struct times t = times_now ();

  t.cpu -= start.cpu;
  t.wall -= start.wall;
  return t;
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

/* Inflate DATA through engine EN once into OUT (CHUNK_SIZE bytes at
 * a time); its times, and the output length at *R_OUTLEN.  With
 * R_CRC, no timing: the CRC-32 of the output goes there.  */
static struct times
run_once (const struct engine *en, enum inflate_framing framing,
          const unsigned char *data, size_t len, unsigned char *out,
          uint64_t *r_outlen, unsigned long *r_crc)
{
  struct mem_source src = { data, len, 0 };
  inflate_engine_t *e;
  unsigned long crc = crc32 (0, NULL, 0);
  uint64_t total = 0;
  struct times start, spent;
  gpg_error_t err;
  size_t n;

  start = times_now ();
  if (inflate_engine_new (&e, en->impl, framing, mem_source_read, &src))
    bench_die ("inflate_engine_new", "out of memory");
  if (en->ahead && inflate_engine_check_ahead (e))
    bench_die ("inflate_engine_check_ahead", "cannot start the thread");
  do
    {
      err = inflate_engine_read (e, out, CHUNK_SIZE, &n);
      total += n;
      if (r_crc)
        crc = crc32 (crc, out, n);
    }
  while (!err && n);
  if (err)
    bench_die (en->name, inflate_engine_reason (e)
               ? inflate_engine_reason (e) : gpg_strerror (err));
  inflate_engine_release (e);
  spent = times_since (start);
  *r_outlen = total;
  if (r_crc)
    *r_crc = crc;
  return spent;
}

#ifdef HAVE_ISAL
/* isal_inflate alone over DATA, in the same pieces; its times and
 * the output length at *R_OUTLEN.  */
static struct times
run_isal_only (enum inflate_framing framing, const unsigned char *data,
               size_t len, unsigned char *out, uint64_t *r_outlen)
{
  struct inflate_state *st = bench_xcalloc (1, sizeof *st);
  uint64_t total = 0;
  size_t pos = 0, n;
  struct times start;

  start = times_now ();
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
  free (st);
  *r_outlen = total;
  return times_since (start);
}
#endif


int
main (int argc, char **argv)
{
  enum inflate_framing framing = INFLATE_RAW;
  double cpu[N_ROWS][MAX_RUNS], wall[N_ROWS][MAX_RUNS], mibs[N_ROWS];
  double wall_mibs[N_ROWS];
  struct times t;
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
  for (i = 0; i < N_ENGINES; i++)
    {
      run_once (&engines[i], framing, data, len, out, &outlen, &crc);
      if (!i)
        {
          ref_len = outlen;
          ref_crc = crc;
        }
      else if (outlen != ref_len || crc != ref_crc)
        bench_die (engines[i].name, "its output differs from zlib's");
    }
  for (r = 0; r < (size_t)runs; r++)
    {
      for (i = 0; i < N_ROWS; i++)
        {
#ifdef HAVE_ISAL
          if (i == N_ENGINES)
            {
              t = run_isal_only (framing, data, len, out, &outlen);
              if (outlen != ref_len)
                bench_die ("isal-only", "its output differs from zlib's");
            }
          else
#endif
            t = run_once (&engines[i], framing, data, len, out, &outlen,
                          NULL);
          cpu[i][r] = t.cpu;
          wall[i][r] = t.wall;
        }
    }
  printf ("inflatebench: %s, %s, %.1f MiB -> %.1f MiB (ratio %.2f),"
          " median CPU time of %d runs\n", file,
          framing == INFLATE_RAW ? "raw deflate" : "zlib format",
          len / MIB, ref_len / MIB, len ? (double)ref_len / len : 0.0, runs);
  printf ("%-10s %10s %10s %10s %10s\n", "inflate", "MiB/s out",
          "vs zlib", "wall MiB/s", "vs zlib");
  for (i = 0; i < N_ROWS; i++)
    {
      mibs[i] = ref_len / MIB / bench_median (cpu[i], runs);
      wall_mibs[i] = ref_len / MIB / bench_median (wall[i], runs);
      printf ("%-10s %10.1f %10.2f %10.1f %10.2f\n",
              i < N_ENGINES ? engines[i].name : "isal-only",
              mibs[i], mibs[i] / mibs[0], wall_mibs[i],
              wall_mibs[i] / wall_mibs[0]);
    }
  free (data);
  return 0;
}
