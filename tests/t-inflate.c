/* t-inflate.c - the inflate engine (g10/inflate-engine.c): ISA-L gives
 * what zlib gives, and refuses what zlib refuses but where it is
 * documented to be more lenient
 *
 * Every stream below runs through each implementation of the build,
 * as raw deflate and in the zlib format, in input pieces and output
 * reads of several sizes; the outcome (the bytes, or a refusal) must
 * be the same for all, and for valid streams the bytes must be the
 * input.  The exceptions are the incomplete codes of dynamic blocks,
 * which zlib refuses and ISA-L takes (inflate-engine.h): there ISA-L
 * must give the bytes the stream codes.
 * The streams:
 *   - zlib's deflate at levels 0 to 9 and windows 9 to 15, and sfenc's
 *     pdeflate (igzip for levels 1 to 3) on 2 threads, of text, of
 *     random bytes and of zeros (blocks joined by sync flushes); each also cut short, and with bytes after its end
 *     (accepted, and dropped);
 *   - the zlib format's own faults: a preset dictionary (FDICT), a
 *     bad header check, a window over 32 KiB, a method other than 8,
 *     a bad or cut Adler-32; and a small window in the header with
 *     distances beyond it, which zlib accepts;
 *   - blocks written bit by bit: a distance too far back, distance
 *     codes 30 and 31, length codes 286 and 287, stored blocks with a
 *     bad LEN/NLEN, block type 3, dynamic blocks with incomplete or
 *     over-subscribed codes (code lengths, literal/lengths, distances),
 *     no end-of-block code, too many codes, bad repeats, and the
 *     single distance code zlib accepts; faults after 100 bytes, and
 *     codes of every length up to 15 bits.
 * With an argument DIR, the streams are also written there as the
 * seed corpus of fuzz/fuzz-inflate-diff.c (its first byte: bit 0 for
 * the framing, piece and read sizes in turn), those of up to 4 KiB.
 */
#include <config.h>

#include <errno.h>
#include <zlib.h>

#include "t-common.h"
#include "compress.h"
#include "inflate-engine.h"
#include "pdeflate.h"

#define TEXT_LEN ((size_t)300 * 1024)

/* Where the streams go as a seed corpus, or NULL.  */
static const char *corpus_dir;
static unsigned int corpus_count;

/* A growing buffer.  */
/* Whether the ALEN bytes at A are the BLEN bytes at B (either may be
 * NULL when empty).  */
static int
same_bytes (const void *a, size_t alen, const void *b, size_t blen)
{
  return alen == blen && (!alen || !memcmp (a, b, alen));
}

static gpg_error_t
buf_sink (void *ctx, const unsigned char *data, size_t len)
{
  test_buf_put (ctx, data, len);
  return 0;
}

/* The stream under test as a source, handed out PIECE bytes at a
 * time.  */
struct mem_source
{
  const unsigned char *data;
  size_t len;
  size_t pos;
  size_t piece;
};

static gpg_error_t
mem_source_read (void *ctx, unsigned char *out, size_t size, size_t *nread)
{
  struct mem_source *src = ctx;
  size_t n = src->len - src->pos;

  if (n > size)
    n = size;
  if (n > src->piece)
    n = src->piece;
  if (n)
    memcpy (out, src->data + src->pos, n);
  src->pos += n;
  *nread = n;
  return 0;
}

/* The outcome of inflating one stream: the error (0 when the stream
 * was accepted), the engine's reason, the bytes, and the input after
 * the stream's end (inflate_engine_read_after).  */
struct outcome
{
  gpg_error_t err;
  const char *reason;
  struct test_buf out;
  struct test_buf after;
};

/* Inflate through IMPL.  */
static void
run (enum inflate_impl impl, enum inflate_framing framing,
     const unsigned char *data, size_t len, size_t piece, size_t readsize,
     struct outcome *r)
{
  struct mem_source src = { data, len, 0, piece };
  inflate_engine_t *e;
  unsigned char *chunk = malloc (readsize);
  size_t n;

  memset (r, 0, sizeof *r);
  if (!chunk || inflate_engine_new (&e, impl, framing, mem_source_read, &src))
    abort ();
  do
    {
      r->err = inflate_engine_read (e, chunk, readsize, &n);
      if (!r->err)
        test_buf_put (&r->out, chunk, n);
    }
  while (!r->err && n);
  while (!r->err && !inflate_engine_read_after (e, chunk, readsize, &n) && n)
    test_buf_put (&r->after, chunk, n);
  r->reason = r->err ? inflate_engine_reason (e) : NULL;
  if (r->err)
    check (r->reason != NULL,
           "%s refused with no reason (%s)", inflate_impl_name (impl),
           gpg_strerror (r->err));
  inflate_engine_release (e);
  free (chunk);
}

static const enum inflate_impl impls[] =
  {
    INFLATE_IMPL_ZLIB,
#ifdef HAVE_ISAL
    INFLATE_IMPL_ISAL
#endif
  };
#define N_IMPLS (sizeof impls / sizeof *impls)

static void
write_corpus (enum inflate_framing framing, const unsigned char *data,
              size_t len)
{
  char name[4096];
  /* The harness's flag: the framing, and piece and read sizes that
   * vary from seed to seed.  */
  unsigned char flag = (framing == INFLATE_ZLIB) | (corpus_count % 8) << 1
                       | (corpus_count / 8 % 8) << 4;
  FILE *fp;

  /* Seeds larger than what make fuzz tries (run-fuzz.sh) only slow
   * the fuzzer down.  */
  if (!corpus_dir || len > 4096)
    return;
  snprintf (name, sizeof name, "%s/t-inflate-%04u", corpus_dir,
            corpus_count++);
  fp = fopen (name, "wb");
  if (!fp || fwrite (&flag, 1, 1, fp) != 1
      || fwrite (data, 1, len, fp) != len || fclose (fp))
    {
      fprintf (stderr, "t-inflate: %s: %s\n", name, strerror (errno));
      exit (1);
    }
}

/* Run the stream DATA (LEN bytes) of FRAMING through every
 * implementation in several piece and read sizes: all must agree with
 * zlib.  WANT, when not NULL, is the plaintext (WANTLEN bytes) the
 * stream must give; when NULL, zlib must refuse the stream, and so
 * must the others unless LENIENT is not NULL: then ISA-L, more lenient
 * than zlib there (inflate-engine.h), must accept it and give the
 * string LENIENT.  */
static void
agree_or_lenient (const char *what, enum inflate_framing framing,
                  const unsigned char *data, size_t len,
                  const unsigned char *want, size_t wantlen,
                  const char *lenient)
{
  static const size_t small[][2] = { { 1, 1 }, { 3, 7 }, { 64, 4096 } };
  static const size_t large[][2] = { { 777, 5000 }, { 65536, 65536 },
                                     { (size_t)1 << 20, 200000 } };
  const size_t (*sizes)[2] = len < 4096 ? small : large;
  const char *fr = framing == INFLATE_RAW ? "raw" : "zlib";
  struct outcome ref, got, *expect;
  size_t i, s;

  write_corpus (framing, data, len);
  run (INFLATE_IMPL_ZLIB, framing, data, len, len ? len : 1, 65536, &ref);
  if (want)
    check (!ref.err && same_bytes (ref.out.data, ref.out.len, want, wantlen),
           "%s (%s): zlib: %s, %zu of %zu bytes", what, fr,
           gpg_strerror (ref.err), ref.out.len, wantlen);
  else
    check (ref.err, "%s (%s): zlib accepted it", what, fr);
  for (i = 0; i < N_IMPLS; i++)
    for (s = 0; s < 3; s++)
      {
        struct outcome isal_lenient = { 0 };

        isal_lenient.out.data = (unsigned char *)lenient;
        isal_lenient.out.len = lenient ? strlen (lenient) : 0;
        expect = lenient && impls[i] != INFLATE_IMPL_ZLIB
                 ? &isal_lenient : &ref;
        run (impls[i], framing, data, len, sizes[s][0], sizes[s][1],
             &got);
        check (!got.err == !expect->err
               && (expect->err || same_bytes (got.out.data, got.out.len,
                                              expect->out.data,
                                              expect->out.len)),
               "%s (%s): %s in pieces of %zu, reads of %zu: %s (%zu bytes);"
               " expected %s (%zu bytes)", what, fr,
               inflate_impl_name (impls[i]), sizes[s][0], sizes[s][1],
               gpg_strerror (got.err), got.out.len,
               gpg_strerror (expect->err), expect->out.len);
        if (!got.err && !lenient)
          check (same_bytes (got.after.data, got.after.len, ref.after.data,
                             ref.after.len),
                 "%s (%s): %s in pieces of %zu: %zu bytes after the end,"
                 " zlib %zu", what, fr, inflate_impl_name (impls[i]),
                 sizes[s][0], got.after.len, ref.after.len);
        free (got.out.data);
        free (got.after.data);
      }
  free (ref.out.data);
  free (ref.after.data);
}

/* agree_or_lenient for a stream that no implementation may take
 * leniently.  */
static void
agree (const char *what, enum inflate_framing framing,
       const unsigned char *data, size_t len,
       const unsigned char *want, size_t wantlen)
{
  agree_or_lenient (what, framing, data, len, want, wantlen, NULL);
}

/* A valid stream, then the same cut short at a few places (refused)
 * and followed by other bytes (the same plaintext).  */
static void
agree_valid (const char *what, enum inflate_framing framing,
             const unsigned char *data, size_t len,
             const unsigned char *want, size_t wantlen)
{
  static const unsigned char junk[] = "\x03\x00 data after the end";
  struct test_buf longer = { 0 };
  struct outcome ref;
  size_t cuts[5], i;
  char label[256];

  agree (what, framing, data, len, want, wantlen);
  cuts[0] = 0;
  cuts[1] = 1;
  cuts[2] = len / 2;
  cuts[3] = len - 2;
  cuts[4] = len - 1;
  for (i = 0; i < 5; i++)
    if (cuts[i] < len)
      {
        snprintf (label, sizeof label, "%s cut to %zu bytes", what, cuts[i]);
        agree (label, framing, data, cuts[i], NULL, 0);
      }
  test_buf_put (&longer, data, len);
  test_buf_put (&longer, junk, sizeof junk);
  snprintf (label, sizeof label, "%s with data after its end", what);
  agree (label, framing, longer.data, longer.len, want, wantlen);
  /* The others are held to zlib's bytes after the end; zlib's are
   * the data after it, to the byte.  */
  run (INFLATE_IMPL_ZLIB, framing, longer.data, longer.len, 100, 4096, &ref);
  check (!ref.err && same_bytes (ref.after.data, ref.after.len, junk,
                                 sizeof junk),
         "%s: zlib gave %zu bytes after the end, not the %zu there",
         label, ref.after.len, sizeof junk);
  free (ref.out.data);
  free (ref.after.data);
  free (longer.data);
}

/* DATA compressed by zlib's deflate at LEVEL with a window of 2^BITS
 * bytes, raw or in the zlib format, with the preset dictionary DICT
 * when not NULL.  */
static struct test_buf
zlib_deflate (const unsigned char *data, size_t len, int level, int bits,
              enum inflate_framing framing, const char *dict)
{
  struct test_buf b = { 0 };
  z_stream zs;

  memset (&zs, 0, sizeof zs);
  if (deflateInit2 (&zs, level, Z_DEFLATED,
                    framing == INFLATE_RAW ? -bits : bits, 8,
                    Z_DEFAULT_STRATEGY) != Z_OK
      || (dict && deflateSetDictionary (&zs, (const void *)dict,
                                        strlen (dict)) != Z_OK))
    abort ();
  b.size = deflateBound (&zs, len);
  b.data = malloc (b.size);
  if (!b.data)
    abort ();
  zs.next_in = (unsigned char *)data;
  zs.avail_in = len;
  zs.next_out = b.data;
  zs.avail_out = b.size;
  if (deflate (&zs, Z_FINISH) != Z_STREAM_END)
    abort ();
  b.len = b.size - zs.avail_out;
  deflateEnd (&zs);
  return b;
}

static void
fill_text (unsigned char *buf, size_t len)
{
  static const char *const words[] =
    { "inflate ", "the ", "window ", "of ", "ISA-L ", "zlib ", "\n",
      "distance ", "block ", "stored ", "Huffman ", "2026 " };
  size_t i, n;

  for (i = 0; i < len; i += n)
    {
      const char *w = words[prng_below (sizeof words / sizeof *words)];

      n = strlen (w) < len - i ? strlen (w) : len - i;
      memcpy (buf + i, w, n);
    }
}

static void
test_zlib_streams (const unsigned char *text, const unsigned char *rnd)
{
  static const enum inflate_framing framings[] = { INFLATE_RAW,
                                                   INFLATE_ZLIB };
  char what[128];
  struct test_buf b;
  int level, bits, f;

  for (f = 0; f < 2; f++)
    {
      for (level = 0; level <= 9; level++)
        {
          /* Short text keeps the level loop quick; long text and
           * random bytes at a few levels.  */
          snprintf (what, sizeof what, "zlib level %d, 20000 bytes of text",
                    level);
          b = zlib_deflate (text, 20000, level, 15, framings[f], NULL);
          agree_valid (what, framings[f], b.data, b.len, text, 20000);
          free (b.data);
        }
      for (bits = 9; bits <= 15; bits++)
        {
          snprintf (what, sizeof what, "zlib level 6, window %d, text", bits);
          b = zlib_deflate (text, TEXT_LEN, 6, bits, framings[f], NULL);
          agree_valid (what, framings[f], b.data, b.len, text, TEXT_LEN);
          free (b.data);
        }
      for (level = 0; level <= 9; level += 3)
        {
          snprintf (what, sizeof what, "zlib level %d, random bytes", level);
          b = zlib_deflate (rnd, TEXT_LEN, level, 15, framings[f], NULL);
          agree_valid (what, framings[f], b.data, b.len, rnd, TEXT_LEN);
          free (b.data);
        }
      b = zlib_deflate (text, 0, 6, 15, framings[f], NULL);
      agree_valid ("zlib, empty", framings[f], b.data, b.len, text, 0);
      free (b.data);
    }
}

/* sfenc's own streams: 128 KiB blocks joined by sync flushes.  */
static void
test_pdeflate_streams (const unsigned char *text, const unsigned char *rnd,
                       const unsigned char *zeros)
{
  static const int levels[] = { 1, 3, 6, 9, 2, 6 };
  char what[128];
  struct test_buf b;
  pdeflate_t *pd;
  size_t i;
  int algo;

  for (algo = COMPRESS_ZIP; algo <= COMPRESS_ZLIB; algo++)
    for (i = 0; i < sizeof levels / sizeof *levels; i++)
      {
        const unsigned char *in = i > 3 ? zeros : i % 2 ? rnd : text;

        memset (&b, 0, sizeof b);
        if (pdeflate_new (&pd, algo, levels[i], 2, buf_sink, &b)
            || pdeflate_write (pd, in, TEXT_LEN) || pdeflate_finish (pd))
          abort ();
        pdeflate_release (pd);
        snprintf (what, sizeof what, "pdeflate %s level %d, 2 threads",
                  compress_algo_name (algo), levels[i]);
        agree_valid (what, algo == COMPRESS_ZIP ? INFLATE_RAW : INFLATE_ZLIB,
                     b.data, b.len, in, TEXT_LEN);
        free (b.data);
      }
}

/* The zlib format around a valid deflate stream, with one fault.  */
static void
test_zlib_format (const unsigned char *text)
{
  static const char dict[] = "inflate the window of ISA-L zlib distance";
  struct test_buf b;
  unsigned char hdr[2];

  b = zlib_deflate (text, 5000, 6, 15, INFLATE_ZLIB, dict);
  agree ("a preset dictionary (FDICT)", INFLATE_ZLIB, b.data, b.len, NULL, 0);
  free (b.data);

  b = zlib_deflate (text, 5000, 6, 15, INFLATE_ZLIB, NULL);
  memcpy (hdr, b.data, 2);
  b.data[1] ^= 1;
  agree ("a bad header check (FCHECK)", INFLATE_ZLIB, b.data, b.len, NULL, 0);
  /* CINFO 8, a window of 64 KiB; the check bits made right.  */
  b.data[0] = 0x88;
  b.data[1] = 0;
  b.data[1] = 31 - (b.data[0] << 8) % 31;
  agree ("a window of 2^16 (CINFO 8)", INFLATE_ZLIB, b.data, b.len, NULL, 0);
  /* Method 7.  */
  b.data[0] = 0x77;
  b.data[1] = 0;
  b.data[1] = 31 - (b.data[0] << 8) % 31;
  agree ("compression method 7", INFLATE_ZLIB, b.data, b.len, NULL, 0);
  memcpy (b.data, hdr, 2);
  b.data[b.len - 1] ^= 0x40;
  agree ("a bad Adler-32", INFLATE_ZLIB, b.data, b.len, NULL, 0);
  b.data[b.len - 1] ^= 0x40;
  b.data[b.len - 4] ^= 0x01;
  agree ("a bad Adler-32 (first byte)", INFLATE_ZLIB, b.data, b.len, NULL,
         0);
  free (b.data);

  /* A 32 KiB stream in a header that claims a 256-byte window (CINFO
   * 0): zlib takes the header's window as a hint only, and inflates
   * the distances beyond it.  */
  b = zlib_deflate (text, TEXT_LEN, 9, 15, INFLATE_ZLIB, NULL);
  b.data[0] = 0x08;
  b.data[1] = 0;
  b.data[1] = 31 - (b.data[0] << 8) % 31;
  agree ("a 256-byte window in the header, distances beyond it",
         INFLATE_ZLIB, b.data, b.len, text, TEXT_LEN);
  free (b.data);
}

/* Writing deflate blocks bit by bit (RFC 1951 3.1.1: from the least
 * significant bit; Huffman codes from their most significant).  */
struct bits
{
  struct test_buf b;
  unsigned int acc;
  int n;
};

static void
put_bits (struct bits *w, unsigned int value, int count)
{
  int i;

  for (i = 0; i < count; i++)
    {
      w->acc |= ((value >> i) & 1) << w->n;
      if (++w->n == 8)
        {
          unsigned char c = w->acc;

          test_buf_put (&w->b, &c, 1);
          w->acc = 0;
          w->n = 0;
        }
    }
}

static void
put_code (struct bits *w, unsigned int code, int len)
{
  while (len--)
    put_bits (w, code >> len & 1, 1);
}

/* Pad to a byte boundary.  */
static void
put_align (struct bits *w)
{
  if (w->n)
    put_bits (w, 0, 8 - w->n);
}

/* The canonical codes (RFC 1951 3.2.2) of the N lengths LENS.  */
static void
canonical_codes (const unsigned char *lens, int n, unsigned int *codes)
{
  unsigned int count[16] = { 0 }, next[16];
  unsigned int code = 0;
  int i;

  for (i = 0; i < n; i++)
    count[lens[i]]++;
  count[0] = 0;
  for (i = 1; i < 16; i++)
    {
      code = (code + count[i - 1]) << 1;
      next[i] = code;
    }
  for (i = 0; i < n; i++)
    if (lens[i])
      codes[i] = next[lens[i]]++;
}

/* The fixed literal/length code (RFC 1951 3.2.6).  */
static void
put_fixed_symbol (struct bits *w, int sym)
{
  if (sym < 144)
    put_code (w, 0x30 + sym, 8);
  else if (sym < 256)
    put_code (w, 0x190 + sym - 144, 9);
  else if (sym < 280)
    put_code (w, sym - 256, 7);
  else
    put_code (w, 0xc0 + sym - 280, 8);
}

/* A final block with the fixed code: 'a', then the symbols SYMS (N of
 * them, a distance code after each length code), then end-of-block.  */
static void
fixed_block (struct bits *w, const int *syms, int n)
{
  int i;

  put_bits (w, 1, 1);
  put_bits (w, 1, 2);
  put_fixed_symbol (w, 'a');
  for (i = 0; i < n; i++)
    {
      put_fixed_symbol (w, syms[i]);
      if (syms[i] > 256 && i + 1 < n)
        put_code (w, syms[++i], 5);
    }
  put_fixed_symbol (w, 256);
}

/* The code length code of every dynamic block below: length 4 for
 * the lengths 0 to 12 and the repeats 16, 17 and 18 (complete), or
 * the lengths of CL when not NULL.  */
static const unsigned char cl_order[19] =
  { 16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15 };

/* A final dynamic block header: NLIT literal/length lengths and NDIST
 * distance lengths, in LENS (NLIT + NDIST), each sent as such, or, for
 * a value of 16 and above, as that repeat symbol with extra bits 0.
 * Returns the codes of the literal/lengths in LITCODES.  */
static void
dynamic_header (struct bits *w, const unsigned char *cl, const int *lens,
                int nlit, int ndist, unsigned int *litcodes)
{
  static const unsigned char cl_default[19] =
    { 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 0, 0, 0, 4, 4, 4 };
  static const int extra[3] = { 2, 3, 7 };
  unsigned int clcodes[19];
  unsigned char litlens[320];
  int i;

  if (!cl)
    cl = cl_default;
  canonical_codes (cl, 19, clcodes);
  put_bits (w, 1, 1);
  put_bits (w, 2, 2);
  put_bits (w, nlit - 257, 5);
  put_bits (w, ndist - 1, 5);
  put_bits (w, 19 - 4, 4);
  for (i = 0; i < 19; i++)
    put_bits (w, cl[cl_order[i]], 3);
  for (i = 0; i < nlit + ndist; i++)
    {
      put_code (w, clcodes[lens[i]], cl[lens[i]]);
      if (lens[i] >= 16)
        put_bits (w, 0, extra[lens[i] - 16]);
    }
  memset (litlens, 0, sizeof litlens);
  for (i = 0; i < nlit && i < 320; i++)
    litlens[i] = lens[i] < 16 ? lens[i] : 0;
  canonical_codes (litlens, nlit, litcodes);
}

/* One dynamic block whose literal/length code gives length LITLEN to
 * each of the symbols LITS (ended by -1) and whose distance code gives
 * DISTLEN to each of DISTS (ended by -1); NLIT and NDIST as sent.  Its
 * data: each of DATA's literals (ended by -1), then end-of-block when
 * the code has one.  */
static void
dynamic_block (struct bits *w, const unsigned char *cl, const int *lits,
               int litlen, const int *dists, int distlen, int nlit,
               int ndist, const int *data)
{
  int lens[320] = { 0 };
  unsigned int codes[320];
  int i;

  for (i = 0; lits[i] >= 0; i++)
    lens[lits[i]] = litlen;
  for (i = 0; dists[i] >= 0; i++)
    lens[nlit + dists[i]] = distlen;
  dynamic_header (w, cl, lens, nlit, ndist, codes);
  for (i = 0; data[i] >= 0; i++)
    put_code (w, codes[data[i]], litlen);
  if (lens[256])
    put_code (w, codes[256], litlen);
}

static unsigned long
adler (const unsigned char *data, size_t len)
{
  return adler32 (adler32 (0, NULL, 0), data, len);
}

/* Run the crafted raw stream W both raw and inside the zlib format,
 * whose Adler-32 is that of WANT, or of LENIENT when WANT is NULL;
 * WANT and LENIENT as for agree_or_lenient.  */
static void
crafted_or_lenient (const char *what, struct bits *w, const char *want,
                    const char *lenient)
{
  const char *sum_of = want ? want : lenient ? lenient : "";
  unsigned long a = adler ((const unsigned char *)sum_of, strlen (sum_of));
  unsigned char trailer[4] = { a >> 24, a >> 16, a >> 8, a };
  size_t wantlen = want ? strlen (want) : 0;
  struct test_buf z = { 0 };

  put_align (w);
  agree_or_lenient (what, INFLATE_RAW, w->b.data, w->b.len,
                    (const unsigned char *)want, wantlen, lenient);
  test_buf_put (&z, "\x78\x9c", 2);
  test_buf_put (&z, w->b.data, w->b.len);
  test_buf_put (&z, trailer, 4);
  agree_or_lenient (what, INFLATE_ZLIB, z.data, z.len,
                    (const unsigned char *)want, wantlen, lenient);
  free (z.data);
  free (w->b.data);
  memset (w, 0, sizeof *w);
}

static void
agree_crafted (const char *what, struct bits *w, const char *want)
{
  crafted_or_lenient (what, w, want, NULL);
}

/* A crafted stream that zlib refuses and ISA-L takes, giving
 * LENIENT.  */
static void
lenient_crafted (const char *what, struct bits *w, const char *lenient)
{
  crafted_or_lenient (what, w, NULL, lenient);
}

static void
test_fixed_and_stored (void)
{
  struct bits w = { 0 };
  int syms[4] = { 0 };

  fixed_block (&w, syms, 0);
  agree_crafted ("fixed block, one literal", &w, "a");
  /* Length 3 at distance 1: 'a' three more times.  */
  syms[0] = 257;
  syms[1] = 0;
  fixed_block (&w, syms, 2);
  agree_crafted ("fixed block, a match at distance 1", &w, "aaaa");
  /* Distance 2 with one byte out.  */
  syms[1] = 1;
  fixed_block (&w, syms, 2);
  agree_crafted ("a distance too far back", &w, NULL);
  syms[1] = 30;
  fixed_block (&w, syms, 2);
  agree_crafted ("distance code 30", &w, NULL);
  syms[1] = 31;
  fixed_block (&w, syms, 2);
  agree_crafted ("distance code 31", &w, NULL);
  syms[0] = 286;
  syms[1] = 0;
  fixed_block (&w, syms, 2);
  agree_crafted ("length code 286", &w, NULL);
  syms[0] = 287;
  fixed_block (&w, syms, 2);
  agree_crafted ("length code 287", &w, NULL);

  /* Stored blocks: LEN 3, NLEN its complement; then a bad NLEN.  */
  put_bits (&w, 1, 3);
  put_align (&w);
  test_buf_put (&w.b, "\x03\x00\xfc\xff" "abc", 7);
  agree_crafted ("a stored block", &w, "abc");
  put_bits (&w, 0, 3);
  put_align (&w);
  test_buf_put (&w.b, "\x00\x00\xff\xff", 4);
  put_bits (&w, 1, 3);
  put_align (&w);
  test_buf_put (&w.b, "\x03\x00\xfc\xff" "abc", 7);
  agree_crafted ("an empty stored block, then one of 3", &w, "abc");
  put_bits (&w, 1, 3);
  put_align (&w);
  test_buf_put (&w.b, "\x03\x00\xfc\xfe" "abc", 7);
  agree_crafted ("a stored block with a bad NLEN", &w, NULL);
  put_bits (&w, 1, 3);
  put_align (&w);
  test_buf_put (&w.b, "\x03\x00\x03\x00" "abc", 7);
  agree_crafted ("a stored block with NLEN = LEN", &w, NULL);
  put_bits (&w, 7, 3);
  agree_crafted ("block type 3", &w, NULL);
  put_bits (&w, 6, 3);
  agree_crafted ("block type 3, not final", &w, NULL);
  /* A block that is not final, then nothing.  */
  put_bits (&w, 2, 3);
  put_fixed_symbol (&w, 'a');
  put_fixed_symbol (&w, 256);
  agree_crafted ("no final block", &w, NULL);
}

/* A final fixed block of 100 literals, then the symbols SYMS (N of
 * them; after a length code, the distance code and its EXTRA bits of
 * value 0), then 40 literals and end-of-block: a fault in SYMS lies
 * well inside the stream, where the check's fast loop meets it.  */
static void
fixed_long_block (struct bits *w, const int *syms, int n, int extra)
{
  int i;

  put_bits (w, 1, 1);
  put_bits (w, 1, 2);
  for (i = 0; i < 100; i++)
    put_fixed_symbol (w, 'a' + i % 26);
  for (i = 0; i < n; i++)
    {
      put_fixed_symbol (w, syms[i]);
      if (syms[i] > 256 && i + 1 < n)
        {
          put_code (w, syms[++i], 5);
          put_bits (w, 0, extra);
        }
    }
  for (i = 0; i < 40; i++)
    put_fixed_symbol (w, 'z');
  put_fixed_symbol (w, 256);
}

static void
test_faults_inside (void)
{
  static const char *const text100 =
    "abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyz"
    "abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuv";
  struct bits w = { 0 };
  char want[256];
  int syms[2];

  /* Length 3 at distance 129 (code 14, 6 extra bits): 100 bytes out.  */
  syms[0] = 257;
  syms[1] = 14;
  fixed_long_block (&w, syms, 2, 6);
  agree_crafted ("a distance too far back, inside", &w, NULL);
  /* Length 3 at distance 97 (code 13, 5 extra bits): valid.  */
  syms[1] = 13;
  fixed_long_block (&w, syms, 2, 5);
  snprintf (want, sizeof want, "%s%.3s%s", text100, text100 + 3,
            "zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz");
  agree_crafted ("a distance of 97 after 100 bytes", &w, want);
  syms[1] = 30;
  fixed_long_block (&w, syms, 2, 0);
  agree_crafted ("distance code 30, inside", &w, NULL);
  syms[0] = 286;
  fixed_long_block (&w, syms, 1, 0);
  agree_crafted ("length code 286, inside", &w, NULL);
}

/* A dynamic block whose literal/length code has codes of every length
 * from 1 to 15 bits ('a' 1 bit, 'b' 2, ... 'n' 14, 'o' and
 * end-of-block 15): the check decodes those over 12 bits bit by bit,
 * in its fast loop and at the end of the stream.  */
static void
test_long_codes (void)
{
  static const unsigned char cl_0_to_15[19] =
    { 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 0, 0, 0 };
  struct bits w = { 0 };
  int lens[320] = { 0 };
  unsigned int codes[320];
  char want[20 * 15 + 1];
  int i, k;

  for (i = 0; i < 15; i++)
    lens['a' + i] = i + 1;
  lens[256] = 15;
  lens[257] = 1;
  dynamic_header (&w, cl_0_to_15, lens, 257, 1, codes);
  for (k = 0; k < 20; k++)
    for (i = 0; i < 15; i++)
      {
        put_code (&w, codes['a' + i], i + 1);
        want[k * 15 + i] = 'a' + i;
      }
  want[20 * 15] = 0;
  put_code (&w, codes[256], 15);
  agree_crafted ("codes of 1 to 15 bits", &w, want);
}

static void
test_dynamic (void)
{
  static const int abc[] = { 'a', 'b', 'c', 256, -1 };
  static const int data_abc[] = { 'a', 'b', 'c', -1 };
  static const int data_ab[] = { 'a', 'b', -1 };
  static const int none[] = { -1 };
  static const int d0[] = { 0, -1 }, d01[] = { 0, 1, -1 };
  static const int d0123[] = { 0, 1, 2, 3, -1 };
  static const int ab_eob[] = { 'a', 'b', 256, -1 };
  static const int abcde[] = { 'a', 'b', 'c', 'd', 256, -1 };
  static const int abcd[] = { 'a', 'b', 'c', 'd', -1 };
  static const unsigned char cl_over[19] =
    { 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 0, 0, 4, 4, 4 };
  static const unsigned char cl_incomplete[19] =
    { 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 0, 0, 0, 0, 4, 4, 4 };
  struct bits w = { 0 };
  int lens[320], i;
  unsigned int codes[320];

  dynamic_block (&w, NULL, abc, 2, d0123, 2, 257, 4, data_abc);
  agree_crafted ("dynamic block", &w, "abc");
  dynamic_block (&w, NULL, abc, 2, d0, 1, 257, 1, data_abc);
  agree_crafted ("dynamic block, a single distance code", &w, "abc");
  dynamic_block (&w, NULL, abc, 2, none, 1, 257, 1, data_abc);
  agree_crafted ("dynamic block, no distance code", &w, "abc");
  dynamic_block (&w, NULL, abc, 2, d01, 2, 257, 2, data_abc);
  lenient_crafted ("an incomplete distance code", &w, "abc");
  dynamic_block (&w, NULL, abc, 2, d01, 1, 257, 30, data_abc);
  agree_crafted ("30 distance codes, two of length 1", &w, "abc");
  dynamic_block (&w, NULL, abc, 2, d0123, 1, 257, 4, data_abc);
  agree_crafted ("an over-subscribed distance code", &w, NULL);
  dynamic_block (&w, NULL, ab_eob, 2, d0, 1, 257, 1, data_ab);
  lenient_crafted ("an incomplete literal/length code", &w, "ab");
  dynamic_block (&w, NULL, abcde, 2, d0, 1, 257, 1, data_abc);
  agree_crafted ("an over-subscribed literal/length code", &w, NULL);
  dynamic_block (&w, NULL, abcd, 2, d0, 1, 257, 1, data_abc);
  agree_crafted ("no end-of-block code", &w, NULL);
  dynamic_block (&w, cl_over, abc, 2, d0, 1, 257, 1, data_abc);
  agree_crafted ("an over-subscribed code length code", &w, NULL);
  dynamic_block (&w, cl_incomplete, abc, 2, d0, 1, 257, 1, data_abc);
  lenient_crafted ("an incomplete code length code", &w, "abc");
  dynamic_block (&w, NULL, abc, 2, d0, 1, 287, 1, data_abc);
  agree_crafted ("287 literal/length codes", &w, NULL);
  dynamic_block (&w, NULL, abc, 2, d0, 1, 286, 1, data_abc);
  agree_crafted ("286 literal/length codes", &w, "abc");
  dynamic_block (&w, NULL, abc, 2, d0, 1, 257, 31, data_abc);
  agree_crafted ("31 distance codes", &w, NULL);
  dynamic_block (&w, NULL, abc, 2, d0, 1, 257, 32, data_abc);
  agree_crafted ("32 distance codes", &w, NULL);

  /* Repeats: 16 first (nothing to repeat); 18 past the end.  */
  memset (lens, 0, sizeof lens);
  lens[0] = 16;
  lens['a'] = lens['b'] = lens['c'] = lens[256] = 2;
  lens[257] = 1;
  dynamic_header (&w, NULL, lens, 257, 1, codes);
  for (i = 0; data_abc[i] >= 0; i++)
    put_code (&w, codes[data_abc[i]], 2);
  put_code (&w, codes[256], 2);
  agree_crafted ("a repeat (16) with nothing before", &w, NULL);
  memset (lens, 0, sizeof lens);
  lens['a'] = lens['b'] = lens['c'] = lens[256] = 2;
  lens[257] = 18;
  dynamic_header (&w, NULL, lens, 257, 1, codes);
  agree_crafted ("a repeat (18) past the last length", &w, NULL);
}

int
main (int argc, char **argv)
{
  unsigned char *text = malloc (TEXT_LEN), *rnd = malloc (TEXT_LEN);
  unsigned char *zeros = calloc (1, TEXT_LEN);

  test_init ("t-inflate");
  if (argc > 1)
    corpus_dir = argv[1];
  if (!text || !rnd || !zeros)
    abort ();
  prng_seed ();
  fill_text (text, TEXT_LEN);
  prng_fill (rnd, TEXT_LEN);
  check (N_IMPLS == 2 || inflate_impl_from_name ("isal") < 0,
         "built with ISA-L, but the test runs zlib alone");
  test_fixed_and_stored ();
  test_faults_inside ();
  test_dynamic ();
  test_long_codes ();
  test_zlib_format (text);
  test_zlib_streams (text, rnd);
  test_pdeflate_streams (text, rnd, zeros);
  free (text);
  free (rnd);
  free (zeros);
  return test_finish ();
}
