/* t-deflate.c - parallel deflate (g10/pdeflate.c): one stream for any
 * number of threads, and a stream that plain zlib reads
 *
 * For ZIP and ZLIB, levels through each library (igzip for 1 to 3 when
 * built with it, zlib for the others), and inputs of random bytes,
 * zeros and text of 0, 1, one block less one, one block, one block
 * and one, and several MiB:
 *   - the stream is compressed with 1 thread in one write, then with
 *     2 and 4 threads in random pieces: every stream is the same;
 *   - zlib's inflate gives the input back: ZIP as raw deflate with an
 *     8 KiB window (what gpg writes, and what old readers can take),
 *     ZLIB with its header and Adler-32 checked, and nothing follows
 *     the end of the stream.
 * Blocks that do not compress are stored (compress-probe.h): the
 * stream is walked block by block with zlib to see which blocks of
 * the input stored blocks carry.  Random input is stored whole and
 * costs a few bytes per block more; text and zeros are deflated; in
 * input that alternates text and random bytes, cut across the block
 * boundaries, the blocks all random are stored and the blocks mostly
 * text are deflated, again the same stream for every thread count.
 * Random bytes among runs of zeros, like a tar of compressed files,
 * go to deflate_sparse (t-deflate-sparse.c tests it alone): at every
 * level every such block is written so, the same stream for every
 * thread count, and the zeros are gone from it; random bytes among
 * single zeros do not.
 * Also: an error of the sink stops the stream, is returned by every
 * later call, and the threads are gone after pdeflate_release (which
 * ThreadSanitizer and LeakSanitizer would see otherwise).
 */
#include <config.h>

#include <zlib.h>

#include "t-common.h"
#include "deflate-engine.h"
#include "pdeflate.h"

#define B DEFLATE_BLOCK_SIZE
#define LARGE ((size_t)3 * 1024 * 1024 + 17)

/* A growing buffer, the sink of the tests.  */
struct out
{
  struct test_buf buf;
  size_t fail_after;    /* Fail the call that would pass this many.  */
  uint64_t blocks, stored, sparse;      /* pdeflate_counts at the end.  */
};

static gpg_error_t
out_sink (void *ctx, const unsigned char *buf, size_t len)
{
  struct out *o = ctx;

  if (o->fail_after && o->buf.len + len > o->fail_after)
    return gpg_error (GPG_ERR_ENOSPC);
  test_buf_put (&o->buf, buf, len);
  return 0;
}

/* Compress IN (LEN bytes) with NTHREADS threads into *OUT, in one
 * write or, with PIECES, in writes of random sizes.  */
static gpg_error_t
deflate_input (const unsigned char *in, size_t len, int algo, int level,
          int nthreads, int pieces, struct out *out)
{
  gpg_error_t err;
  pdeflate_t *pd;
  size_t off, n;

  err = pdeflate_new (&pd, algo, level, nthreads, out_sink, out);
  for (off = 0; !err && off < len; off += n)
    {
      n = len - off;
      if (pieces)
        n = prng_below (n < 3 * B ? n + 1 : 3 * B);
      err = pdeflate_write (pd, in + off, n);
    }
  if (!err)
    err = pdeflate_finish (pd);
  if (!err)
    pdeflate_counts (pd, &out->blocks, &out->stored, &out->sparse);
  pdeflate_release (pd);
  return err;
}

/* Inflate the stream with zlib alone; true when it gives back the LEN
 * bytes of WANT exactly and ends where the stream ends.  */
static int
inflates_to (const struct out *stream, int algo, const unsigned char *want,
             size_t len)
{
  z_stream zs;
  unsigned char *got = malloc (len + 1);
  int zrc, ok;

  memset (&zs, 0, sizeof zs);
  if (!got || inflateInit2 (&zs, algo == COMPRESS_ZIP ? -13 : 15) != Z_OK)
    abort ();
  zs.next_in = stream->buf.data;
  zs.avail_in = stream->buf.len;
  zs.next_out = got;
  zs.avail_out = len + 1;
  zrc = inflate (&zs, Z_FINISH);
  ok = zrc == Z_STREAM_END && !zs.avail_in && zs.total_out == len
       && !memcmp (got, want, len);
  if (!ok)
    fprintf (stderr, "inflate: %d (%s), %u bytes left, %lu of %zu out\n",
             zrc, zs.msg ? zs.msg : "-", zs.avail_in, zs.total_out, len);
  inflateEnd (&zs);
  free (got);
  return ok;
}

enum kind { RANDOM, ZEROS, TEXT, MIXED, SPARSE, SCATTERED };
static const char *const kind_names[] = { "random", "zeros", "text",
                                          "mixed", "random among zeros",
                                          "random and single zeros" };

/* MIXED input: text, then random bytes, over and over, in runs that
 * do not line up with the blocks.  */
#define MIXED_TEXT_RUN (B / 2 + 1000)
#define MIXED_RANDOM_RUN (2 * B + 3333)

static int
mixed_is_text (size_t offset)
{
  return offset % (MIXED_TEXT_RUN + MIXED_RANDOM_RUN) < MIXED_TEXT_RUN;
}

static void fill (unsigned char *buf, size_t len, enum kind kind);

/* SPARSE input: like a tar of small compressed files, 512 to 2559
 * random bytes, then 300 to 811 zeros, over and over: about a
 * quarter of it zeros, enough in every sample of the probe.  */
static void
fill_sparse (unsigned char *buf, size_t len)
{
  size_t i, n;

  for (i = 0; i < len; i += n)
    {
      n = 512 + prng_below (2048);
      n = n < len - i ? n : len - i;
      prng_fill (buf + i, n);
      i += n;
      n = 300 + prng_below (512);
      n = n < len - i ? n : len - i;
      memset (buf + i, 0, n);
    }
}

/* SCATTERED input: random bytes, every fourth a zero, as the zeros of
 * machine code and tables lie among other bytes and not in runs.  */
static void
fill_scattered (unsigned char *buf, size_t len)
{
  size_t i;

  prng_fill (buf, len);
  for (i = 0; i < len; i++)
    if (!buf[i] || i % 4 == 3)
      buf[i] = i % 4 == 3 ? 0 : 1;
}

static void
fill_mixed (unsigned char *buf, size_t len)
{
  size_t i, n;

  for (i = 0; i < len; i += n)
    {
      for (n = 1; i + n < len && mixed_is_text (i + n) == mixed_is_text (i);
           n++)
        ;
      fill (buf + i, n, mixed_is_text (i) ? TEXT : RANDOM);
    }
}

static void
fill (unsigned char *buf, size_t len, enum kind kind)
{
  static const char *const words[] =
    { "the ", "stream ", "of ", "blocks ", "deflate ", "window ", "\n",
      "sfenc ", "thread ", "OpenPGP ", "2026 ", "compressed " };
  size_t i, n;

  if (kind == MIXED)
    fill_mixed (buf, len);
  else if (kind == SPARSE)
    fill_sparse (buf, len);
  else if (kind == SCATTERED)
    fill_scattered (buf, len);
  else if (kind == RANDOM)
    prng_fill (buf, len);
  else if (kind == ZEROS)
    memset (buf, 0, len);
  else
    for (i = 0; i < len; i += n)
      {
        const char *w = words[prng_below (sizeof words / sizeof *words)];

        n = strlen (w) < len - i ? strlen (w) : len - i;
        memcpy (buf + i, w, n);
      }
}

static void
check_one (const unsigned char *in, size_t len, const char *what, int algo,
           int level)
{
  static const int threads[] = { 2, 4 };
  struct out ref = { 0 }, other;
  gpg_error_t err;
  size_t i;

  err = deflate_input (in, len, algo, level, 1, 0, &ref);
  check (!err, "%s: 1 thread: %s", what, gpg_strerror (err));
  check (inflates_to (&ref, algo, in, len), "%s: zlib reads it", what);
  for (i = 0; i < sizeof threads / sizeof *threads; i++)
    {
      memset (&other, 0, sizeof other);
      err = deflate_input (in, len, algo, level, threads[i], 1, &other);
      check (!err, "%s: %d threads: %s", what, threads[i],
             gpg_strerror (err));
      check (other.buf.len == ref.buf.len && !memcmp (other.buf.data, ref.buf.data, ref.buf.len),
             "%s: %d threads in pieces differ from 1 thread (%zu, %zu bytes)",
             what, threads[i], other.buf.len, ref.buf.len);
      free (other.buf.data);
    }
  free (ref.buf.data);
}

static void
check_streams (void)
{
  static const size_t sizes[] = { 0, 1, B - 1, B, B + 1, LARGE };
  static const int levels[] = { 1, 3, 6, 9 };
  unsigned char *in = malloc (LARGE);
  char what[128];
  size_t s, l;
  int kind, algo;

  if (!in)
    abort ();
  for (kind = RANDOM; kind <= TEXT; kind++)
    for (s = 0; s < sizeof sizes / sizeof *sizes; s++)
      for (algo = COMPRESS_ZIP; algo <= COMPRESS_ZLIB; algo++)
        for (l = 0; l < sizeof levels / sizeof *levels; l++)
          {
            /* The largest input at the slowest level adds time, not
             * coverage.  */
            if (sizes[s] == LARGE && levels[l] == 9)
              continue;
            fill (in, sizes[s], kind);
            snprintf (what, sizeof what, "%s, %zu bytes, %s level %d (%s)",
                      kind_names[kind], sizes[s],
                      algo == COMPRESS_ZIP ? "ZIP" : "ZLIB", levels[l],
                      deflate_engine_library (levels[l]));
            check_one (in, sizes[s], what, algo, levels[l]);
          }
  free (in);
}

/* What the deflate blocks of a stream carry, block B of the input
 * (the pdeflate block, DEFLATE_BLOCK_SIZE bytes) by block.  */
struct blocks
{
  size_t count;
  size_t *stored;       /* Bytes of the block inside stored blocks.  */
  size_t *compressed;   /* Huffman-coded blocks that start in it.  */
};

/* The type (BTYPE) of the deflate block whose header starts HELD
 * bits before P (the top bits of P[-1], which zlib holds), with AVAIL
 * bytes from P on, at *R_TYPE, and for a stored block its LEN at
 * *R_LEN; false when the stream ends first.  */
static int
block_header (const unsigned char *p, size_t avail, unsigned int held,
              int *r_type, size_t *r_len)
{
  unsigned int hdr;

  /* Past the 3 header bits, the next byte boundary.  */
  if (held < 3)
    {
      if (!avail--)
        return 0;
      hdr = held ? (unsigned)(p[-1] >> (8 - held) | p[0] << held) : p[0];
      p++;
    }
  else
    hdr = p[-1] >> (8 - held);
  *r_type = hdr >> 1 & 3;
  *r_len = 0;
  if (*r_type)
    return 1;
  if (avail < 2)
    return 0;
  *r_len = p[0] | p[1] << 8;
  return 1;
}

/* Count the block of TYPE (stored with LEN bytes) that starts at
 * OFFSET of the input into BL, now that the next block starts at
 * NEXT.  A Huffman block that wrote nothing (a flush marker; ISA-L
 * on aarch64 ends a block with one) holds no input and is not
 * counted.  */
static void
count_block (struct blocks *bl, size_t offset, int type, size_t len,
             size_t next)
{
  if (!type)
    bl->stored[offset / B] += len;
  else if (next > offset)
    bl->compressed[offset / B]++;
}

/* Walk STREAM, which holds LEN bytes of input, block by block with
 * zlib's inflate into BL; true when it reads to the end.  */
static int
walk_blocks (const struct out *stream, int algo, size_t len, struct blocks *bl)
{
  unsigned char *got = malloc (len + 1);
  z_stream zs;
  size_t stored_len = 0, start = 0;
  int zrc = Z_OK, type = -1, ok = 0;

  bl->count = len / B + 1;
  bl->stored = calloc (bl->count, sizeof *bl->stored);
  bl->compressed = calloc (bl->count, sizeof *bl->compressed);
  memset (&zs, 0, sizeof zs);
  if (!got || !bl->stored || !bl->compressed
      || inflateInit2 (&zs, algo == COMPRESS_ZIP ? -13 : 15) != Z_OK)
    abort ();
  zs.next_in = stream->buf.data;
  zs.avail_in = stream->buf.len;
  zs.next_out = got;
  zs.avail_out = len + 1;
  /* zlib stops before every block header but the first of a raw
   * stream.  */
  if (algo == COMPRESS_ZIP
      && !block_header (zs.next_in, zs.avail_in, 0, &type, &stored_len))
    goto leave;
  for (;;)
    {
      /* Z_BLOCK stops at each block boundary (data_type 128), also
       * after the last block (64), before the Adler-32.  */
      zrc = inflate (&zs, Z_BLOCK);
      if (zrc != Z_OK && zrc != Z_STREAM_END)
        break;
      if (zrc == Z_STREAM_END || (zs.data_type & 128))
        {
          if (type >= 0)
            count_block (bl, start, type, stored_len, zs.total_out);
          type = -1;
        }
      if (zrc == Z_STREAM_END)
        {
          ok = zs.total_out == len;
          break;
        }
      if (!(zs.data_type & 128) || (zs.data_type & 63) > 7)
        break;
      if (zs.data_type & 64)
        continue;
      if (!block_header (zs.next_in, zs.avail_in, zs.data_type & 63, &type,
                         &stored_len))
        break;
      start = zs.total_out;
    }
 leave:
  if (!ok)
    fprintf (stderr, "walk: %d (%s) at %lu of %zu out\n", zrc,
             zs.msg ? zs.msg : "-", zs.total_out, len);
  inflateEnd (&zs);
  free (got);
  return ok;
}

/* STREAM is the SPARSE input IN (LEN bytes, whole blocks) compressed
 * with ALGO at LEVEL by 2 threads: every block went to deflate_sparse
 * (all but the empty one that ends the stream), zlib reads it, 1 and
 * 4 threads write the same, and each of its runs of 300 zeros or
 * more costs under 20 bytes: a stored block's header, a Huffman
 * block's bits and a match for every 258 zeros.  */
static void
check_sparse (const unsigned char *in, size_t len, int algo, int level,
              const struct out *stream, const char *what)
{
  static const int threads[] = { 1, 4 };
  struct out other;
  size_t zeros = 0, runs = 0, run, i;
  gpg_error_t err;

  check (stream->sparse == len / B && !stream->stored,
         "%s: %llu of %llu blocks written by deflate_sparse, %llu stored",
         what, (unsigned long long)stream->sparse,
         (unsigned long long)stream->blocks,
         (unsigned long long)stream->stored);
  check (inflates_to (stream, algo, in, len), "%s: zlib reads it", what);
  for (i = 0; i < sizeof threads / sizeof *threads; i++)
    {
      memset (&other, 0, sizeof other);
      err = deflate_input (in, len, algo, level, threads[i], 1, &other);
      check (!err && other.buf.len == stream->buf.len
             && !memcmp (other.buf.data, stream->buf.data, other.buf.len),
             "%s: %d threads wrote another stream", what, threads[i]);
      free (other.buf.data);
    }
  for (i = 0; i < len; i += run)
    {
      for (run = 1; i + run < len && !in[i] && !in[i + run]; run++)
        ;
      if (!in[i] && run >= 300)
        {
          zeros += run;
          runs++;
        }
    }
  check (stream->buf.len <= len - zeros + 20 * runs,
         "%s: %zu bytes, %zu of them in %zu runs of zeros, became %zu",
         what, len, zeros, runs, stream->buf.len);
}

/* Compress KIND input of LEN bytes at LEVEL and check which blocks
 * were stored; for MIXED input, also that every thread count writes
 * the same stream.  */
static void
check_stored_kind (enum kind kind, size_t len, int algo, int level)
{
  unsigned char *in = malloc (len);
  struct out stream = { 0 };
  struct blocks bl;
  char what[128];
  size_t b, blen, ntext, i, nstored = 0;
  gpg_error_t err;

  if (!in)
    abort ();
  fill (in, len, kind);
  snprintf (what, sizeof what, "stored? %s, %zu bytes, %s level %d",
            kind_names[kind], len, algo == COMPRESS_ZIP ? "ZIP" : "ZLIB",
            level);
  if (kind == MIXED)
    check_one (in, len, what, algo, level);
  err = deflate_input (in, len, algo, level, 2, 1, &stream);
  check (!err, "%s: %s", what, gpg_strerror (err));
  check (walk_blocks (&stream, algo, len, &bl), "%s: walked", what);
  for (b = 0; b < bl.count; b++)
    {
      blen = b + 1 < bl.count ? B : len % B;
      for (ntext = 0, i = b * B; kind == MIXED && i < b * B + blen; i++)
        ntext += mixed_is_text (i);
      if ((kind == RANDOM || (kind == MIXED && !ntext)) && blen >= 1024)
        check (bl.stored[b] == blen && !bl.compressed[b],
               "%s: block %zu of random bytes: %zu of %zu bytes stored, "
               "%zu Huffman blocks", what, b, bl.stored[b], blen,
               bl.compressed[b]);
      if (kind == TEXT || kind == ZEROS || (kind == MIXED && ntext > blen / 2))
        check (bl.compressed[b] && bl.stored[b] < blen,
               "%s: block %zu, %zu bytes of text: %zu stored, "
               "%zu Huffman blocks", what, b, ntext, bl.stored[b],
               bl.compressed[b]);
      nstored += bl.stored[b];
    }
  /* Stored blocks cost 5 bytes per 64 KiB.  */
  if (kind == RANDOM)
    check (stream.buf.len <= len + len / 8192 + 64,
           "%s: %zu bytes of random input became %zu", what, len,
           stream.buf.len);
  if (kind == TEXT)
    check (stream.buf.len < len / 2 && !nstored,
           "%s: text not deflated: %zu bytes, %zu stored", what,
           stream.buf.len, nstored);
  if (kind == SPARSE)
    check_sparse (in, len, algo, level, &stream, what);
  else
    check (!stream.sparse, "%s: %llu blocks written by deflate_sparse",
           what, (unsigned long long)stream.sparse);
  free (bl.stored);
  free (bl.compressed);
  free (stream.buf.data);
  free (in);
}

static void
check_stored (void)
{
  static const int levels[] = { 1, 6, 9 };
  size_t l;
  int algo;

  for (algo = COMPRESS_ZIP; algo <= COMPRESS_ZLIB; algo++)
    for (l = 0; l < sizeof levels / sizeof *levels; l++)
      {
        check_stored_kind (RANDOM, LARGE, algo, levels[l]);
        check_stored_kind (TEXT, LARGE, algo, levels[l]);
        check_stored_kind (ZEROS, LARGE, algo, levels[l]);
        check_stored_kind (MIXED, LARGE, algo, levels[l]);
        check_stored_kind (SPARSE, 24 * B, algo, levels[l]);
        check_stored_kind (SCATTERED, 8 * B, algo, levels[l]);
      }
}

/* A sink that fails in the middle: the error comes back, from then on
 * every call returns it, and release stops the threads.  */
static void
check_sink_error (int nthreads)
{
  size_t len = 40 * B;
  unsigned char *in = malloc (len);
  struct out out = { 0 };
  gpg_error_t err;
  pdeflate_t *pd;

  if (!in)
    abort ();
  fill (in, len, RANDOM);
  out.fail_after = 5 * B;
  err = pdeflate_new (&pd, COMPRESS_ZLIB, 6, nthreads, out_sink, &out);
  check (!err, "sink error: pdeflate_new: %s", gpg_strerror (err));
  if (!err)
    err = pdeflate_write (pd, in, len);
  check (gpg_err_code (err) == GPG_ERR_ENOSPC,
         "sink error, %d threads: the write returns it (%s)", nthreads,
         gpg_strerror (err));
  err = pdeflate_write (pd, in, 1);
  check (gpg_err_code (err) == GPG_ERR_ENOSPC,
         "sink error, %d threads: a later write returns it (%s)", nthreads,
         gpg_strerror (err));
  err = pdeflate_finish (pd);
  check (gpg_err_code (err) == GPG_ERR_ENOSPC,
         "sink error, %d threads: finish returns it (%s)", nthreads,
         gpg_strerror (err));
  check (out.buf.len <= out.fail_after, "sink error: nothing written after it");
  pdeflate_release (pd);
  free (out.buf.data);
  free (in);
}

int
main (void)
{
  test_init ("t-deflate");
  prng_seed ();
  check_streams ();
  check_stored ();
  check_sink_error (1);
  check_sink_error (2);
  check_sink_error (4);
  return test_finish ();
}
