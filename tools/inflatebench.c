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
 * Prints MiB/s of output for each, by CPU time and by wall time,
 * and each one's ratio to zlib.
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

#include "packet.h"
#include "inflate-engine.h"
#include "benchutil.h"

#define MIB (1024.0 * 1024.0)
#define MAX_RUNS 101

/* The implementations measured, zlib first.  */
static const enum inflate_impl engines[] =
  {
    INFLATE_IMPL_ZLIB,
#ifdef HAVE_ISAL
    INFLATE_IMPL_ISAL
#endif
  };
#define N_ENGINES (sizeof engines / sizeof *engines)

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

/* Inflate DATA through IMPL once into OUT (CHUNK_SIZE bytes at
 * a time); its times, and the output length at *R_OUTLEN.  With
 * R_CRC, no timing: the CRC-32 of the output goes there.  */
static struct times
run_once (enum inflate_impl impl, enum inflate_framing framing,
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
  if (err)
    bench_die (inflate_impl_name (impl), inflate_engine_reason (e)
               ? inflate_engine_reason (e) : gpg_strerror (err));
  inflate_engine_release (e);
  spent = times_since (start);
  *r_outlen = total;
  if (r_crc)
    *r_crc = crc;
  return spent;
}


int
main (int argc, char **argv)
{
  enum inflate_framing framing = INFLATE_RAW;
  double cpu[N_ENGINES][MAX_RUNS], wall[N_ENGINES][MAX_RUNS];
  double mibs[N_ENGINES], wall_mibs[N_ENGINES];
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
      run_once (engines[i], framing, data, len, out, &outlen, &crc);
      if (!i)
        {
          ref_len = outlen;
          ref_crc = crc;
        }
      else if (outlen != ref_len || crc != ref_crc)
        bench_die (inflate_impl_name (engines[i]),
                   "its output differs from zlib's");
    }
  for (r = 0; r < (size_t)runs; r++)
    {
      for (i = 0; i < N_ENGINES; i++)
        {
          t = run_once (engines[i], framing, data, len, out, &outlen, NULL);
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
  for (i = 0; i < N_ENGINES; i++)
    {
      mibs[i] = ref_len / MIB / bench_median (cpu[i], runs);
      wall_mibs[i] = ref_len / MIB / bench_median (wall[i], runs);
      printf ("%-10s %10.1f %10.2f %10.1f %10.2f\n",
              inflate_impl_name (engines[i]),
              mibs[i], mibs[i] / mibs[0], wall_mibs[i],
              wall_mibs[i] / wall_mibs[0]);
    }
  free (data);
  return 0;
}
