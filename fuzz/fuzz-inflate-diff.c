/* fuzz-inflate-diff.c - the two inflate implementations against each
 * other (g10/inflate-engine.c)
 *
 * Input: a flag byte, then a compressed stream.  Bit 0 of the flag:
 * 0 raw deflate (ZIP), 1 the zlib format (ZLIB); bits 1 to 3 choose
 * the size of the input pieces, bits 4 to 6 that of the output reads,
 * and bit 7 gives ISA-L other sizes than zlib.  The stream goes
 * through zlib and through ISA-L; the harness aborts when one accepts
 * what the other refuses, or when they give different bytes (those
 * before a refusal included, as far as both got).  The output is read
 * up to OUTPUT_LIMIT bytes, as in fuzz-inflate.c.  The seed corpus is
 * written by make-corpus-inflate-diff.sh.  Without ISA-L in
 * the build, zlib runs against itself in other sizes.
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "inflate-engine.h"

#define OUTPUT_LIMIT (1u << 20)

static const size_t piece_sizes[8] = { 1, 2, 3, 7, 64, 255, 4096, 65536 };
static const size_t read_sizes[8] = { 1, 5, 100, 1000, 4096, 32768,
                                      65536, 262144 };

struct result
{
  gpg_error_t err;
  size_t len;
  unsigned char out[OUTPUT_LIMIT];
};

static struct result results[2];


static void
inflate_all (enum inflate_impl impl, enum inflate_framing framing,
             const uint8_t *data, size_t size, size_t piece,
             size_t readsize, struct result *r)
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
      if (readsize > OUTPUT_LIMIT - r->len)
        readsize = OUTPUT_LIMIT - r->len;
      r->err = inflate_engine_read (e, r->out + r->len, readsize, &n);
      r->len += n;
    }
  while (!r->err && n && r->len < OUTPUT_LIMIT);
  inflate_engine_release (e);
}


int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  enum inflate_framing framing;
  enum inflate_impl other;
  unsigned int flag;
  size_t common;
  int ok_zlib, ok_other, cut;

  fuzz_start ();
  if (!size)
    return 0;
  flag = data[0];
  framing = flag & 1 ? INFLATE_ZLIB : INFLATE_RAW;
  other = inflate_impl_default ();
  inflate_all (INFLATE_IMPL_ZLIB, framing, data + 1, size - 1,
               piece_sizes[flag >> 1 & 7], read_sizes[flag >> 4 & 7],
               &results[0]);
  if (flag & 0x80)
    flag ^= 0x7e;
  inflate_all (other, framing, data + 1, size - 1,
               piece_sizes[(flag >> 1) & 7], read_sizes[(flag >> 4) & 7],
               &results[1]);
  /* Past OUTPUT_LIMIT, the ISA-L path may have refused what zlib has
   * not reached yet: then only the bytes are compared.  */
  cut = results[0].len == OUTPUT_LIMIT || results[1].len == OUTPUT_LIMIT;
  ok_zlib = !results[0].err;
  ok_other = !results[1].err;
  common = results[0].len < results[1].len ? results[0].len : results[1].len;
  if ((!cut && (ok_zlib != ok_other
                || (ok_zlib && results[0].len != results[1].len)))
      || memcmp (results[0].out, results[1].out, common))
    {
      fprintf (stderr, "fuzz-inflate-diff: zlib %s (%zu bytes), %s %s"
               " (%zu bytes)\n", gpg_strerror (results[0].err),
               results[0].len, inflate_impl_name (other),
               gpg_strerror (results[1].err), results[1].len);
      abort ();
    }
  return 0;
}
