/* fuzz-inflate-diff.c - the two inflate implementations against each
 * other (g10/inflate-engine.c)
 *
 * Input: a flag byte, then a compressed stream.  Bit 0 of the flag:
 * 0 raw deflate (ZIP), 1 the zlib format (ZLIB); bits 1 to 3 choose
 * the size of the input pieces, bits 4 to 6 that of the output reads,
 * and bit 7 gives ISA-L other sizes than zlib.  The stream goes
 * through zlib and through ISA-L, and the harness aborts
 *   - when zlib accepts a stream and ISA-L refuses it, or when both
 *     accept it and give different bytes;
 *   - when ISA-L accepts a stream that zlib refuses, but where ISA-L
 *     is documented to be more lenient (inflate-engine.h): zlib
 *     refused a Huffman code of a dynamic block (LENIENT_REASONS);
 *   - when the bytes both gave differ, those before a refusal
 *     included, as far as both got.
 * A stream that goes on past the limit is read on, and dropped, for a
 * verdict.  The output is read up to OUTPUT_LIMIT bytes, as in
 * fuzz-inflate.c, and to fewer with small reads (READS_MAX of them),
 * so that each input stays quick.  The seed corpus is written by
 * make-corpus-inflate-diff.sh.  Without ISA-L in the build, zlib runs
 * against itself in other sizes.
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "inflate-engine.h"

#define OUTPUT_LIMIT ((size_t)1 << 20)
#define READS_MAX 16384
/* How much more is read, and dropped, past the limit for a verdict.  */
#define DRAIN_MAX ((uint64_t)16 << 20)

static const size_t piece_sizes[8] = { 1, 2, 3, 7, 64, 255, 4096, 65536 };
static const size_t read_sizes[8] = { 1, 5, 100, 1000, 4096, 32768,
                                      65536, 262144 };

/* zlib's words for a dynamic block's Huffman code that it refuses
 * (incomplete or over-subscribed), the one fault where ISA-L may be
 * more lenient.  */
static const char *const lenient_reasons[] =
  {
    "invalid code lengths set",
    "invalid literal/lengths set",
    "invalid distances set"
  };

struct result
{
  gpg_error_t err;
  const char *reason;           /* The engine's, a static string.  */
  int cut;                      /* No verdict: the stream goes on.  */
  uint64_t total;               /* All the output, LEN of it kept.  */
  size_t len;
  unsigned char out[OUTPUT_LIMIT];
};

static unsigned char drain_buf[65536];

static struct result results[2];


/* Inflate through IMPL.  */
static void
inflate_all (enum inflate_impl impl, enum inflate_framing framing, const uint8_t *data, size_t size,
             size_t piece, size_t readsize, size_t limit, struct result *r)
{
  fuzz_source_t src;
  inflate_engine_t *e;
  size_t n;

  fuzz_source_init (&src, data, size);
  src.piece = piece;
  r->len = 0;
  if (inflate_engine_new (&e, impl, framing, fuzz_source_read, &src))
    abort ();
  do
    {
      if (readsize > limit - r->len)
        readsize = limit - r->len;
      r->err = inflate_engine_read (e, r->out + r->len, readsize, &n);
      r->len += n;
    }
  while (!r->err && n && r->len < limit);
  r->total = r->len;
  while (!r->err && n && r->total < r->len + DRAIN_MAX)
    {
      r->err = inflate_engine_read (e, drain_buf, sizeof drain_buf, &n);
      r->total += n;
    }
  r->cut = !r->err && n;
  r->reason = r->err ? inflate_engine_reason (e) : NULL;
  inflate_engine_release (e);
}


/* Whether zlib refused Z's stream where ISA-L may be lenient.  */
static int
lenient_case (const struct result *z)
{
  size_t i;

  for (i = 0; z->reason && i < sizeof lenient_reasons / sizeof *lenient_reasons;
       i++)
    if (!strcmp (z->reason, lenient_reasons[i]))
      return 1;
  return 0;
}


/* Abort unless R, through implementation NAME, agrees with zlib's
 * results[0]: a stream zlib accepts must be accepted with the same
 * length, one it refuses refused but in a lenient case, and all the
 * bytes both kept must be the same.  */
static void
agree_with_zlib (const struct result *r, const char *name)
{
  const struct result *z = &results[0];
  int cut = z->cut || r->cut;
  size_t common = z->len < r->len ? z->len : r->len;
  int differs;

  if (!z->err)
    differs = !cut && (r->err || z->total != r->total);
  else
    differs = !cut && !r->err && !lenient_case (z);
  if (differs || memcmp (z->out, r->out, common))
    {
      fprintf (stderr, "fuzz-inflate-diff: zlib %s (%s, %llu bytes), %s %s"
               " (%llu bytes)\n", gpg_strerror (z->err),
               z->reason ? z->reason : "", (unsigned long long)z->total,
               name, gpg_strerror (r->err), (unsigned long long)r->total);
      abort ();
    }
}


int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  enum inflate_framing framing;
  enum inflate_impl other;
  unsigned int flag, other_flag;
  size_t read_zlib, read_other, limit;

  fuzz_start ();
  if (!size)
    return 0;
  flag = data[0];
  framing = flag & 1 ? INFLATE_ZLIB : INFLATE_RAW;
#ifdef HAVE_ISAL
  other = INFLATE_IMPL_ISAL;
#else
  other = INFLATE_IMPL_ZLIB;
#endif
  other_flag = flag & 0x80 ? flag ^ 0x7e : flag;
  read_zlib = read_sizes[flag >> 4 & 7];
  read_other = read_sizes[other_flag >> 4 & 7];
  limit = (read_zlib < read_other ? read_zlib : read_other) * READS_MAX;
  if (limit > OUTPUT_LIMIT)
    limit = OUTPUT_LIMIT;
  inflate_all (INFLATE_IMPL_ZLIB, framing, data + 1, size - 1,
               piece_sizes[flag >> 1 & 7], read_zlib, limit, &results[0]);
  inflate_all (other, framing, data + 1, size - 1,
               piece_sizes[other_flag >> 1 & 7], read_other, limit,
               &results[1]);
  agree_with_zlib (&results[1], inflate_impl_name (other));
  return 0;
}
