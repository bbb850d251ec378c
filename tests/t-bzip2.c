/* t-bzip2.c - BZIP2 on threads (g10/bzip2-parallel.c,
 * g10/bunzip2-parallel.c): one stream for any number of threads, the
 * blocks joined bit for bit, read back on threads as libbz2 reads it
 *
 * Inputs of 0 and 1 bytes, random bytes, zeros, runs of every length
 * around bzip2's run-length limits, exactly one block and one block
 * and one byte, at levels 1 and 9:
 *   - the stream is the same with 1 thread in one write and with 2,
 *     3 and 4 threads in random pieces;
 *   - libbz2 reads it as one stream that ends where the data ends;
 *   - an input that fits one block gives exactly libbz2's own stream;
 *   - the parallel reader on 2 and 3 threads gives the input back,
 *     from these streams and from libbz2's own.
 * A block whose map of used bytes spells the block magic or the end
 * magic (a false magic inside a block, placed by the choice of bytes)
 * is read right; a wrong block CRC, a wrong combined CRC and a cut
 * stream are refused; data after the stream is ignored.  Blocks whose
 * output is larger than the reader holds of a piece are read right,
 * and stopping the reader in their middle, or a source that fails
 * there, leaves no thread behind.  The streams read one after another
 * share the workers: a stream of one block starts none, the first of
 * more blocks starts them, and later ones start no more.
 *
 * With arguments "compress LEVEL THREADS" it compresses standard input
 * to standard output instead (tests/sfenc-bzip2.bats gives that to
 * the bzip2 program).
 */
#include <config.h>

#include <bzlib.h>
#include <stdio.h>
#include <unistd.h>

#include "t-common.h"
#include "error.h"
#include "bzip2-stream.h"
#include "bzip2-parallel.h"
#include "bunzip2-parallel.h"

static gpg_error_t
out_sink (void *ctx, const unsigned char *buf, size_t len)
{
  test_buf_put (ctx, buf, len);
  return 0;
}

/* Memory as a source, in pieces of random sizes; failing once FAIL_AT
 * bytes are read, unless that is 0.  */
struct in
{
  const unsigned char *data;
  size_t len;
  size_t pos;
  size_t fail_at;
};

static gpg_error_t
in_source (void *ctx, unsigned char *buf, size_t size, size_t *nread)
{
  struct in *in = ctx;
  size_t n = in->len - in->pos;

  if (in->fail_at && in->pos >= in->fail_at)
    return gpg_error (GPG_ERR_EIO);

  if (n > size)
    n = size;
  if (n > 1)
    n = 1 + prng_below (n);
  memcpy (buf, in->data + in->pos, n);
  in->pos += n;
  *nread = n;
  return 0;
}

/* Compress IN (LEN bytes) with NTHREADS threads into *OUT, in one
 * write or, with PIECES, in writes of random sizes.  */
static gpg_error_t
compress_input (const unsigned char *in, size_t len, int level,
                int nthreads, int pieces, struct test_buf *out)
{
  gpg_error_t err;
  pbzip2_t *pb;
  size_t off, n;

  out->len = 0;
  err = pbzip2_new (&pb, level, nthreads, out_sink, out);
  for (off = 0; !err && off < len; off += n)
    {
      n = len - off;
      if (pieces)
        n = 1 + prng_below (n < 300000 ? n : 300000);
      err = pbzip2_write (pb, in + off, n);
    }
  if (!err)
    err = pbzip2_finish (pb);
  pbzip2_release (pb);
  return err;
}

/* Read the stream Z (ZLEN bytes) with NTHREADS threads into *OUT.  */
static gpg_error_t
decompress_parallel (const unsigned char *z, size_t zlen, int nthreads,
                     struct test_buf *out)
{
  struct in in = { z, zlen, 0, 0 };
  unsigned char buf[70000];
  pbunzip2_t *pu;
  gpg_error_t err;
  size_t n;

  out->len = 0;
  err = pbunzip2_new (&pu, nthreads, in_source, &in);
  do
    {
      n = 0;
      if (!err)
        err = pbunzip2_read (pu, buf, 1 + prng_below (sizeof buf), &n);
      if (!err)
        out_sink (out, buf, n);
    }
  while (!err && n);
  pbunzip2_release (pu);
  return err;
}

/* Whether libbz2 reads Z (ZLEN bytes) as one stream that ends with
 * the data and holds IN (LEN bytes).  */
static int
libbz2_reads (const unsigned char *z, size_t zlen, const unsigned char *in,
              size_t len)
{
  unsigned char *buf = malloc (len + 1);
  bz_stream bs;
  int rc, ok;

  memset (&bs, 0, sizeof bs);
  if (!buf || BZ2_bzDecompressInit (&bs, 0, 0) != BZ_OK)
    abort ();
  bs.next_in = (char *)z;
  bs.avail_in = zlen;
  bs.next_out = (char *)buf;
  bs.avail_out = len + 1;
  rc = BZ2_bzDecompress (&bs);
  ok = (rc == BZ_STREAM_END && !bs.avail_in && bs.avail_out == 1
        && !memcmp (buf, in, len));
  BZ2_bzDecompressEnd (&bs);
  free (buf);
  return ok;
}

/* The number of block magics in Z at any bit offset.  */
static int
count_blocks (const unsigned char *z, size_t zlen)
{
  uint64_t pos;
  int n = 0;

  for (pos = BZIP2_HEADER_BITS; pos + BZIP2_MAGIC_BITS <= 8 * (uint64_t)zlen;
       pos++)
    n += bits_get (z, pos, BZIP2_MAGIC_BITS) == BZIP2_BLOCK_MAGIC;
  return n;
}

/* Every check of the top of the file on IN (LEN bytes) at LEVEL, with
 * BLOCKS blocks expected (0: not counted).  */
static void
check_input (const char *what, const unsigned char *in, size_t len,
             int level, int blocks)
{
  struct test_buf first = { 0 }, other = { 0 }, back = { 0 };
  unsigned char *ref;
  unsigned int reflen;
  gpg_error_t err;
  int nthreads;

  err = compress_input (in, len, level, 1, 0, &first);
  check (!err, "%s level %d: compression failed: %s", what, level,
         gpg_strerror (err));
  for (nthreads = 2; nthreads <= 4; nthreads++)
    {
      err = compress_input (in, len, level, nthreads, 1, &other);
      check (!err && other.len == first.len
             && !memcmp (other.data, first.data, first.len),
             "%s level %d: %d threads give another stream", what, level,
             nthreads);
    }
  check (libbz2_reads (first.data, first.len, in, len),
         "%s level %d: libbz2 does not read the stream back", what, level);
  if (blocks && first.len < 300000)
    check (count_blocks (first.data, first.len) == blocks,
           "%s level %d: %d blocks, not %d", what, level,
           count_blocks (first.data, first.len), blocks);
  if (blocks == 1 || !len)
    {
      reflen = len + len / 50 + 1000;
      ref = malloc (reflen);
      if (!ref
          || BZ2_bzBuffToBuffCompress ((char *)ref, &reflen, (char *)in, len,
                                       level, 0, 0) != BZ_OK)
        abort ();
      check (reflen == first.len && !memcmp (ref, first.data, reflen),
             "%s level %d: one block, but not libbz2's own stream", what,
             level);
      free (ref);
    }
  for (nthreads = 2; nthreads <= 3; nthreads++)
    {
      err = decompress_parallel (first.data, first.len, nthreads, &back);
      check (!err && back.len == len
             && (!len || !memcmp (back.data, in, len)),
             "%s level %d: the parallel reader on %d threads: %s", what,
             level, nthreads, err ? gpg_strerror (err) : "other output");
    }
  free (first.data);
  free (other.data);
  free (back.data);
}

/* Whether BUF (LEN bytes) has 4 equal bytes in a row.  */
static int
has_run (const unsigned char *buf, size_t len)
{
  size_t i;

  for (i = 3; i < len; i++)
    if (buf[i] == buf[i - 1] && buf[i] == buf[i - 2] && buf[i] == buf[i - 3])
      return 1;
  return 0;
}

/* Runs of every length around the limits of bzip2's first run-length
 * step (4 and 255), then random bytes: LEN bytes in all.  */
static void
fill_runs (unsigned char *buf, size_t len)
{
  size_t pos = 0, run;
  int c = 0;

  for (run = 1; pos < len / 2; run = run % 300 + 1, c = (c + 1) % 3)
    {
      if (run > len / 2 - pos)
        run = len / 2 - pos;
      memset (buf + pos, c, run);
      pos += run;
    }
  prng_fill (buf + pos, len - pos);
}

/* LEN random bytes of the 3 * 16 whose map in a block reads as the 48
 * bits MAGIC: the map of used bytes begins with 16 bits that say
 * which of the 16 ranges of 16 byte values occur (here the first
 * three), then one 16-bit map per such range, most significant bit
 * first.  Runs of 4 are left out: their counts would be bytes too.  */
static void
fill_spelling (unsigned char *buf, size_t len, uint64_t magic)
{
  unsigned char set[48];
  size_t i, n = 0;

  for (i = 0; i < 48; i++)
    if (magic >> (47 - i) & 1)
      set[n++] = i;
  for (i = 0; i < len; i++)
    do
      buf[i] = set[prng_below (n)];
    while (i >= 3 && has_run (buf + i - 3, 4));
}

/* Blocks that hold MAGIC 153 bits into the stream: after the header
 * (32 bits), the block's magic, CRC, randomised bit, origin pointer
 * (105) and the 16 bits of ranges.  */
static void
check_false_magic (const char *what, uint64_t magic)
{
  size_t len = 350000;
  unsigned char *in = malloc (len);
  struct test_buf z = { 0 }, back = { 0 };
  gpg_error_t err;
  int nthreads;

  if (!in)
    abort ();
  fill_spelling (in, len, magic);
  err = compress_input (in, len, 1, 2, 1, &z);
  check (!err && bits_get (z.data, 153, BZIP2_MAGIC_BITS) == magic,
         "%s: the block does not hold the magic", what);
  for (nthreads = 2; nthreads <= 3; nthreads++)
    {
      err = decompress_parallel (z.data, z.len, nthreads, &back);
      check (!err && back.len == len && !memcmp (back.data, in, len),
             "%s: the parallel reader on %d threads: %s", what, nthreads,
             err ? gpg_strerror (err) : "other output");
    }
  free (in);
  free (z.data);
  free (back.data);
}

/* The bits after FROM at which MAGIC begins in Z (ZLEN bytes), as a
 * set of the 8 offsets in a byte.  */
static unsigned int
magic_offsets (const unsigned char *z, size_t zlen, uint64_t from,
               uint64_t magic)
{
  unsigned int offsets = 0;
  uint64_t pos;

  for (pos = from; pos + BZIP2_MAGIC_BITS <= 8 * (uint64_t)zlen;
       pos++)
    if (bits_get (z, pos, BZIP2_MAGIC_BITS) == magic)
      offsets |= 1u << pos % 8;
  return offsets;
}

/* Streams of two small blocks (a pattern and a few random bytes) at
 * level 1, until the second block magic and the end magic have begun
 * at each of the 8 bits of a byte: the reader finds a magic wherever
 * it begins.  One it missed would join two blocks in a piece, and the
 * stream would be refused.  */
static void
check_magic_offsets (void)
{
  size_t len = 100000 - 19 + 1000, i, n;
  unsigned char *in = malloc (len);
  struct test_buf z = { 0 }, back = { 0 };
  unsigned int blocks = 0, ends = 0;
  gpg_error_t err;
  int tries;

  if (!in)
    abort ();
  for (tries = 0; tries < 1000 && (blocks & ends) != 0xff; tries++)
    {
      do
        {
          for (i = 0; i < len; i++)
            in[i] = "abc"[i % 3];
          for (n = 1 + prng_below (64); n; n--)
            in[prng_below (len)] = prng_next ();
        }
      while (has_run (in, len));
      err = compress_input (in, len, 1, 1, 0, &z);
      check (!err, "magic offsets: compression failed: %s",
             gpg_strerror (err));
      blocks |= magic_offsets (z.data, z.len, BZIP2_HEADER_BITS + 1,
                               BZIP2_BLOCK_MAGIC);
      ends |= magic_offsets (z.data, z.len, BZIP2_HEADER_BITS,
                             BZIP2_END_MAGIC);
      err = decompress_parallel (z.data, z.len, 2, &back);
      check (!err && back.len == len && !memcmp (back.data, in, len),
             "magic offsets: the parallel reader: %s",
             err ? gpg_strerror (err) : "other output");
    }
  check ((blocks & ends) == 0xff,
         "magic offsets: block magics at %02x, end magics at %02x only",
         blocks, ends);
  free (in);
  free (z.data);
  free (back.data);
}

/* The parallel reader refuses Z (ZLEN bytes) with CODE.  */
static void
check_refused (const char *what, const unsigned char *z, size_t zlen,
               gpg_err_code_t code)
{
  struct test_buf back = { 0 };
  gpg_error_t err;
  char ignored[FAIL_MESSAGE_MAX];

  err = decompress_parallel (z, zlen, 2, &back);
  check (gpg_err_code (err) == code, "%s: %s, not %s", what,
         gpg_strerror (err), gpg_strerror (gpg_error (code)));
  fail_push (ignored, sizeof ignored);
  free (back.data);
}

static void
check_damage (void)
{
  size_t len = 450000, i;
  unsigned char *in = malloc (len), *bad;
  struct test_buf z = { 0 }, back = { 0 };
  gpg_error_t err;
  uint64_t pos, second = 0;

  if (!in)
    abort ();
  prng_fill (in, len);
  err = compress_input (in, len, 1, 1, 0, &z);
  if (err)
    abort ();
  bad = malloc (z.len + 100);
  if (!bad)
    abort ();
  for (pos = 100; !second; pos++)
    if (bits_get (z.data, pos, BZIP2_MAGIC_BITS) == BZIP2_BLOCK_MAGIC)
      second = pos;
  /* The second block's CRC.  */
  memcpy (bad, z.data, z.len);
  i = (second + BZIP2_MAGIC_BITS + 5) / 8;
  bad[i] ^= 0x10;
  check_refused ("a wrong block CRC", bad, z.len, GPG_ERR_BAD_DATA);
  /* The combined CRC: the last 32 bits before the padding.  */
  memcpy (bad, z.data, z.len);
  bad[z.len - 2] ^= 0x01;
  check_refused ("a wrong combined CRC", bad, z.len, GPG_ERR_BAD_DATA);
  check_refused ("a stream cut in a block", z.data, z.len / 2,
                 GPG_ERR_TRUNCATED);
  check_refused ("a stream cut in its end", z.data, z.len - 3,
                 GPG_ERR_TRUNCATED);
  check_refused ("a header alone", z.data, 4, GPG_ERR_TRUNCATED);
  check_refused ("nothing", z.data, 0, GPG_ERR_TRUNCATED);
  memcpy (bad, z.data, z.len);
  bad[3] = '0';
  check_refused ("level 0", bad, z.len, GPG_ERR_BAD_DATA);
  memcpy (bad, z.data, z.len);
  memset (bad + z.len, 0x31, 100);
  err = decompress_parallel (bad, z.len + 100, 2, &back);
  check (!err && back.len == len && !memcmp (back.data, in, len),
         "data after the stream is not ignored");
  free (in);
  free (bad);
  free (z.data);
  free (back.data);
}

/* The threads of this process, as Linux counts them; 0 if unknown.  */
static int
thread_count (void)
{
  FILE *fp = fopen ("/proc/self/status", "r");
  char line[256];
  int n = 0;

  while (fp && fgets (line, sizeof line, fp))
    if (sscanf (line, "Threads: %d", &n) == 1)
      break;
  if (fp)
    fclose (fp);
  return n;
}

/* Read streams of one block and of three, one after another, on
 * NTHREADS threads; return how many threads the process then has.  */
static int
pool_step (const struct test_buf *one, const struct test_buf *three,
           int nthreads)
{
  struct test_buf back = { 0 };
  gpg_error_t err;

  err = decompress_parallel (one->data, one->len, nthreads, &back);
  check (!err && back.len == 1000, "one block on %d threads: %s", nthreads,
         err ? gpg_strerror (err) : "other output");
  err = decompress_parallel (three->data, three->len, nthreads, &back);
  check (!err && back.len == 250000, "three blocks on %d threads: %s",
         nthreads, err ? gpg_strerror (err) : "other output");
  free (back.data);
  return thread_count ();
}

/* Before any other stream is read.  A sanitizer may start a thread of
 * its own with the first worker: counts are compared after that.  */
static void
check_pool (void)
{
  unsigned char *in = malloc (250000);
  struct test_buf one = { 0 }, three = { 0 }, back = { 0 };
  int base = thread_count (), two, n;

  if (!in)
    abort ();
  prng_fill (in, 250000);
  if (compress_input (in, 1000, 1, 1, 0, &one)
      || compress_input (in, 250000, 1, 1, 0, &three))
    abort ();
  check (base > 0, "no thread count in /proc/self/status");
  check (!decompress_parallel (one.data, one.len, 3, &back)
         && thread_count () == base,
         "a stream of one block started threads: %d, not %d",
         thread_count (), base);
  two = pool_step (&one, &three, 2);
  check (two >= base + 2, "2 threads: %d threads, not %d", two, base + 2);
  n = pool_step (&one, &three, 3);
  check (n == two + 1, "3 threads after 2: %d threads, not %d", n, two + 1);
  n = pool_step (&one, &three, 2);
  check (n == two + 1, "2 threads after 3: %d threads, not %d", n, two + 1);
  n = pool_step (&one, &three, 3);
  check (n == two + 1, "3 threads again: %d threads, not %d", n, two + 1);
  free (in);
  free (one.data);
  free (three.data);
  free (back.data);
}

/* Zeros: 4.5 MB of output a block at level 1, more than the reader
 * holds of a piece, in more blocks than its ring holds pieces.  Read
 * whole, stopped after some output, and with a source that fails in
 * the middle; each time no thread is left.  */
static void
check_large_blocks (void)
{
  size_t len = 40000000, got, n;
  unsigned char *in = calloc (1, len);
  unsigned char buf[65536];
  struct test_buf z = { 0 }, back = { 0 };
  struct in src = { 0 };
  gpg_error_t err;
  pbunzip2_t *pu;
  int before = thread_count (), nthreads;

  if (!in || compress_input (in, len, 1, 2, 0, &z))
    abort ();
  for (nthreads = 2; nthreads <= 3; nthreads++)
    {
      err = decompress_parallel (z.data, z.len, nthreads, &back);
      check (!err && back.len == len && !memcmp (back.data, in, len),
             "zeros on %d threads: %s", nthreads,
             err ? gpg_strerror (err) : "other output");
      src.data = z.data;
      src.len = z.len;
      src.pos = 0;
      err = pbunzip2_new (&pu, nthreads, in_source, &src);
      for (got = 0; !err && got < 5000000; got += n)
        err = pbunzip2_read (pu, buf, sizeof buf, &n);
      pbunzip2_release (pu);
      check (!err, "zeros on %d threads, stopped: %s", nthreads,
             gpg_strerror (err));
      check (thread_count () == before, "zeros on %d threads, stopped:"
             " %d threads left, not %d", nthreads, thread_count (), before);
      src.pos = 0;
      src.fail_at = z.len / 2;
      err = pbunzip2_new (&pu, nthreads, in_source, &src);
      do
        if (!err)
          err = pbunzip2_read (pu, buf, sizeof buf, &n);
      while (!err && n);
      pbunzip2_release (pu);
      src.fail_at = 0;
      check (gpg_err_code (err) == GPG_ERR_EIO, "zeros on %d threads, the"
             " source failing: %s", nthreads, gpg_strerror (err));
      check (thread_count () == before, "zeros on %d threads, the source"
             " failing: %d threads left, not %d", nthreads, thread_count (),
             before);
    }
  free (in);
  free (z.data);
  free (back.data);
}

/* libbz2's own streams of several blocks (its blocks keep a run that
 * is cut at the block's end for the next one).  */
static void
check_libbz2_streams (void)
{
  size_t len = 2500000;
  unsigned char *in = malloc (len), *z;
  unsigned int zlen = len + len / 50 + 1000;
  struct test_buf back = { 0 };
  gpg_error_t err;

  z = malloc (zlen);
  if (!in || !z)
    abort ();
  fill_runs (in, len);
  if (BZ2_bzBuffToBuffCompress ((char *)z, &zlen, (char *)in, len, 2, 0, 0)
      != BZ_OK)
    abort ();
  err = decompress_parallel (z, zlen, 3, &back);
  check (!err && back.len == len && !memcmp (back.data, in, len),
         "libbz2's stream: %s", err ? gpg_strerror (err) : "other output");
  free (in);
  free (z);
  free (back.data);
}

/* compress LEVEL THREADS: standard input to standard output.  */
static int
compress_stdio (int level, int nthreads)
{
  struct test_buf in = { 0 }, z = { 0 };
  unsigned char buf[65536];
  ssize_t n;

  while ((n = read (0, buf, sizeof buf)) > 0)
    out_sink (&in, buf, n);
  if (n < 0 || compress_input (in.data, in.len, level, nthreads, 1, &z)
      || write (1, z.data, z.len) != (ssize_t)z.len)
    return 1;
  free (in.data);
  free (z.data);
  return 0;
}


int
main (int argc, char **argv)
{
  static const int levels[] = { 1, 9 };
  size_t sizes[3], i, j, block_max;
  unsigned char *buf;
  char what[64];

  if (argc == 4 && !strcmp (argv[1], "compress"))
    return compress_stdio (atoi (argv[2]), atoi (argv[3]));
  test_init ("t-bzip2");
  prng_seed ();
  check_pool ();
  buf = malloc (12000000);
  if (!buf)
    abort ();
  for (i = 0; i < sizeof levels / sizeof *levels; i++)
    {
      block_max = 100000 * (size_t)levels[i] - 19;
      check_input ("nothing", buf, 0, levels[i], 0);
      buf[0] = 'x';
      check_input ("one byte", buf, 1, levels[i], 1);
      /* Random bytes have almost no runs: one byte, one symbol, and
       * the last byte is added once the block is full.  */
      do
        prng_fill (buf, block_max + 2);
      while (has_run (buf, block_max + 2));
      check_input ("one block of random bytes", buf, block_max + 1,
                   levels[i], 1);
      check_input ("one block of random bytes and one", buf, block_max + 2,
                   levels[i], 2);
      /* Up to more blocks than the 4 threads of check_input, at level
       * 1 only: level 9's larger blocks would cost CI minutes under
       * qemu and the sanitizers and test nothing more.  */
      sizes[0] = 1000;
      sizes[1] = 2 * block_max + 5;
      sizes[2] = 5 * block_max + 17;
      for (j = 0; j < (levels[i] == 1 ? 3 : 1); j++)
        {
          prng_fill (buf, sizes[j]);
          snprintf (what, sizeof what, "%zu random bytes", sizes[j]);
          check_input (what, buf, sizes[j], levels[i], 0);
          fill_runs (buf, sizes[j]);
          snprintf (what, sizeof what, "%zu bytes of runs", sizes[j]);
          check_input (what, buf, sizes[j], levels[i], 0);
        }
      /* 255 equal bytes take 5 symbols: 12 MB of zeros fill 3 blocks
       * at level 1.  */
      memset (buf, 0, 12000000);
      check_input ("zeros", buf, 12000000, levels[i], levels[i] == 1 ? 3 : 1);
    }
  check_false_magic ("a false block magic", BZIP2_BLOCK_MAGIC);
  check_false_magic ("a false end magic", BZIP2_END_MAGIC);
  check_magic_offsets ();
  check_damage ();
  check_libbz2_streams ();
  check_large_blocks ();
  free (buf);
  return test_finish ();
}
