/* t-deflate-sparse.c - runs of zeros as matches, the rest stored
 * (g10/deflate-sparse.c)
 *
 * Inputs made of runs of zeros and of other bytes, at the lengths
 * where the writer decides (a run of 15 and of 16, a gap of 64 and of
 * 65 bytes, matches of 258 and what is left after them, stored blocks
 * of 65535), runs of every length up to 600 (every match length), at
 * the ends of the block, and random mixtures of them,
 * each written as the last block of a stream and as a block within
 * one:
 *   - zlib's raw inflate, with gpg's 8 KiB window, gives the input
 *     back; the last block ends the stream, any other ends byte
 *     aligned and not final, so that a final empty stored block after
 *     it ends the stream;
 *   - the output is never longer than the header promises, and each
 *     run of 16 zeros or more costs no more than 16 bytes and 3 bytes
 *     for every 258 zeros in it;
 *   - a run of 15 zeros is stored, one of 16 is not;
 *   - too small an output buffer is refused.
 */
#include <config.h>

#include <zlib.h>

#include "t-common.h"
#include "deflate-sparse.h"

#define BLOCK_MAX (128 * 1024)
#define OUT_MAX (BLOCK_MAX + BLOCK_MAX / 8 + 64)

/* An empty stored block, final.  */
static const unsigned char final_stored[5] = { 1, 0, 0, 0xff, 0xff };

static unsigned char out[OUT_MAX + sizeof final_stored];
static unsigned char got[BLOCK_MAX + 1];


/* Whether zlib inflates the LEN bytes at OUT to WANT (WANTLEN bytes)
 * and to the end of the stream, with nothing left over.  */
static int
inflates_to (const unsigned char *stream, size_t len,
             const unsigned char *want, size_t wantlen)
{
  z_stream zs;
  int zrc, ok;

  memset (&zs, 0, sizeof zs);
  if (inflateInit2 (&zs, -13) != Z_OK)
    abort ();
  zs.next_in = (unsigned char *)stream;
  zs.avail_in = len;
  zs.next_out = got;
  zs.avail_out = sizeof got;
  zrc = inflate (&zs, Z_FINISH);
  ok = zrc == Z_STREAM_END && !zs.avail_in && zs.total_out == wantlen
       && !memcmp (got, want, wantlen);
  inflateEnd (&zs);
  return ok;
}


/* The bytes in runs of 16 zeros or more in IN, and how many runs.  */
static size_t
zeros_in_runs (const unsigned char *in, size_t len, size_t *r_runs)
{
  size_t i, run, zeros = 0;

  *r_runs = 0;
  for (i = 0; i < len; i += run ? run : 1)
    {
      for (run = 0; i + run < len && !in[i + run]; run++)
        ;
      if (run >= 16)
        {
          zeros += run;
          ++*r_runs;
        }
    }
  return zeros;
}


/* Write IN (LEN bytes) as the last block and as one within a stream,
 * and check both; return the output length of the last.  */
static size_t
check_block (const unsigned char *in, size_t len, const char *what)
{
  size_t outlen = 0, zeros, runs, bound, last;
  gpg_error_t err;

  zeros = zeros_in_runs (in, len, &runs);
  bound = len + 6 * (len / 65535 + 1) + 16;
  for (last = 0; last <= 1; last++)
    {
      err = deflate_sparse (in, len, last, out, OUT_MAX, &outlen);
      check (!err, "%s, last %zu: %s", what, last, gpg_strerror (err));
      if (err)
        continue;
      check (outlen <= bound, "%s, last %zu: %zu bytes became %zu, over %zu",
             what, last, len, outlen, bound);
      check (outlen <= len - zeros + 16 * runs + 3 * (zeros / 258)
                        + 6 * (len / 65535 + 1) + 16,
             "%s, last %zu: %zu bytes, %zu of them in %zu runs of zeros, "
             "became %zu", what, last, len, zeros, runs, outlen);
      if (!last)
        {
          memcpy (out + outlen, final_stored, sizeof final_stored);
          outlen += sizeof final_stored;
        }
      check (inflates_to (out, outlen, in, len),
             "%s, last %zu: zlib does not read it back", what, last);
    }
  return outlen;
}


/* Bytes other than zero, a quarter of them from 144 up (9-bit
 * literals).  */
static void
fill_nonzero (unsigned char *p, size_t n)
{
  size_t i;

  prng_fill (p, n);
  for (i = 0; i < n; i++)
    if (!p[i])
      p[i] = 1 + prng_below (255);
}


static void
check_edges (void)
{
  static const size_t runs[] = { 1, 15, 16, 17, 258, 259, 260, 261, 262,
                                 516, 517, 518, 1000, 65535, 65536,
                                 BLOCK_MAX };
  static const size_t gaps[] = { 1, 63, 64, 65, 66, 500 };
  static unsigned char in[BLOCK_MAX];
  char what[128];
  size_t r, g, len, n;

  check_block (in, 0, "empty");
  /* Every match length, alone and as what is left after 258.  */
  for (len = 16; len <= 600; len++)
    {
      fill_nonzero (in, 1);
      memset (in + 1, 0, len);
      fill_nonzero (in + 1 + len, 1);
      snprintf (what, sizeof what, "a run of %zu zeros", len);
      check_block (in, len + 2, what);
    }
  for (r = 0; r < sizeof runs / sizeof *runs; r++)
    {
      /* The run alone, then at the start, the end and the middle.  */
      memset (in, 0, runs[r]);
      snprintf (what, sizeof what, "%zu zeros", runs[r]);
      n = check_block (in, runs[r], what);
      if (runs[r] == 15)
        check (n == 15 + 5 + 2, "15 zeros are stored: %zu bytes", n);
      if (runs[r] == 16)
        check (n <= 6, "16 zeros are not stored: %zu bytes", n);
      len = runs[r] + 100 < BLOCK_MAX ? runs[r] + 100 : BLOCK_MAX;
      fill_nonzero (in + runs[r], len - runs[r]);
      snprintf (what, sizeof what, "%zu zeros, then %zu bytes", runs[r],
                len - runs[r]);
      check_block (in, len, what);
      fill_nonzero (in, len - runs[r]);
      memset (in + len - runs[r], 0, runs[r]);
      snprintf (what, sizeof what, "%zu bytes, then %zu zeros",
                len - runs[r], runs[r]);
      check_block (in, len, what);
      for (g = 0; g < sizeof gaps / sizeof *gaps; g++)
        {
          if (3 * gaps[g] + 2 * runs[r] > BLOCK_MAX)
            continue;
          len = 0;
          fill_nonzero (in + len, gaps[g]);
          len += gaps[g];
          memset (in + len, 0, runs[r]);
          len += runs[r];
          memset (in + len, 0xff, gaps[g]);
          len += gaps[g];
          memset (in + len, 0, runs[r]);
          len += runs[r];
          fill_nonzero (in + len, gaps[g]);
          len += gaps[g];
          snprintf (what, sizeof what, "two runs of %zu zeros %zu apart",
                    runs[r], gaps[g]);
          check_block (in, len, what);
        }
    }
  fill_nonzero (in, BLOCK_MAX);
  n = check_block (in, BLOCK_MAX, "128 KiB without zeros");
  check (n == BLOCK_MAX + 5 * 3 + 2,
         "128 KiB without zeros are stored: %zu bytes", n);
}


/* Blocks of random runs of zeros and other bytes, random bytes among
 * them, of random lengths up to 128 KiB.  */
static void
check_random (void)
{
  static unsigned char in[BLOCK_MAX];
  char what[64];
  size_t len, i, n;
  int k;

  for (k = 0; k < 300; k++)
    {
      len = prng_below (BLOCK_MAX + 1);
      for (i = 0; i < len; i += n)
        {
          n = 1 + prng_below (prng_below (4) ? 200 : 3000);
          n = n < len - i ? n : len - i;
          if (prng_below (2))
            memset (in + i, 0, n);
          else
            prng_fill (in + i, n);
        }
      snprintf (what, sizeof what, "random mixture %d, %zu bytes", k, len);
      check_block (in, len, what);
    }
}


static void
check_too_short (void)
{
  static unsigned char in[1000];
  size_t outlen = 1;
  gpg_error_t err;

  err = deflate_sparse (in, sizeof in, 1, out, sizeof in + sizeof in / 8 + 63,
                        &outlen);
  check (gpg_err_code (err) == GPG_ERR_TOO_SHORT && !outlen,
         "a short output buffer: %s, %zu bytes", gpg_strerror (err), outlen);
  err = deflate_sparse (in, sizeof in, 1, out, sizeof in + sizeof in / 8 + 64,
                        &outlen);
  check (!err, "the output buffer the header asks for: %s",
         gpg_strerror (err));
}


int
main (void)
{
  test_init ("t-deflate-sparse");
  prng_seed ();
  check_edges ();
  check_random ();
  check_too_short ();
  return test_finish ();
}
