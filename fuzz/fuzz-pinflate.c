/* fuzz-pinflate.c - raw deflate and zlib streams read in segments
 * on threads (g10/inflate-parallel.c) against one inflate engine
 * (g10/inflate-engine.c)
 *
 * Input: a flag byte, then the stream.  Bit 0 of the flag chooses the
 * implementation (zlib, or ISA-L where it is built), bit 1 2 or 3
 * threads, bits 2 to 6 the answers of the question whether the source
 * has bytes ready, in turn (all 1: a file; a 0 makes the reading
 * thread inflate the piece at the head, as when a pipe stalls), bit 7
 * the zlib format (RFC 1950) around the deflate stream, as OpenPGP's
 * ZLIB has it, rather than raw deflate (ZIP).  Both readers read the stream up to OUTPUT_LIMIT
 * bytes; the harness aborts when one accepts what the other refuses,
 * when both accept different bytes, or when the bytes both gave
 * differ as far as both went (the engine may give a damaged block's
 * first bytes, the parallel reader never gives a piece it doubts).
 * The seed corpus (corpus/pinflate/), written by
 * make-corpus-pinflate.sh, holds streams in segments as sfenc writes
 * them, with marks true and false.
 */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "inflate-engine.h"
#include "inflate-parallel.h"

#define OUTPUT_LIMIT ((size_t)1 << 20)

/* Bits of the flag byte that answer whether the source is ready.  */
#define READY_BITS 5

enum ending
  {
    ENDED_GOOD,
    ENDED_REFUSED,
    ENDED_AT_LIMIT
  };

/* The answers to "bytes ready?", bits used in turn.  */
typedef struct ready_pattern
{
  unsigned int bits;
  unsigned int asked;
} ready_pattern_t;

static unsigned char parallel_out[OUTPUT_LIMIT];
static unsigned char serial_out[OUTPUT_LIMIT];


static enum ending
ending_of (gpg_error_t err, size_t outlen)
{
  return err ? ENDED_REFUSED : outlen < OUTPUT_LIMIT ? ENDED_GOOD
                                                     : ENDED_AT_LIMIT;
}


static int
pattern_ready (void *ctx)
{
  ready_pattern_t *rp = ctx;

  return rp->bits >> (rp->asked++ % READY_BITS) & 1;
}


static enum ending
read_parallel (enum inflate_impl impl, enum inflate_framing framing,
               int nthreads, unsigned int ready, const uint8_t *data,
               size_t size, size_t *outlen)
{
  ready_pattern_t rp = { ready, 0 };
  fuzz_source_t src;
  inflate_parallel_t *pi;
  gpg_error_t err;
  size_t n = 0;

  *outlen = 0;
  fuzz_source_init (&src, data, size);
  err = inflate_parallel_new (&pi, impl, framing, nthreads,
                              fuzz_source_read, &src, pattern_ready, &rp);
  while (!err && *outlen < OUTPUT_LIMIT)
    {
      err = inflate_parallel_read (pi, parallel_out + *outlen,
                                   OUTPUT_LIMIT - *outlen, &n);
      if (!err && !n)
        break;
      *outlen += n;
    }
  inflate_parallel_release (pi);
  return ending_of (err, *outlen);
}


static enum ending
read_serial (enum inflate_impl impl, enum inflate_framing framing,
             const uint8_t *data, size_t size, size_t *outlen)
{
  fuzz_source_t src;
  inflate_engine_t *e;
  gpg_error_t err;
  size_t n = 0;

  *outlen = 0;
  fuzz_source_init (&src, data, size);
  err = inflate_engine_new (&e, impl, framing, fuzz_source_read, &src);
  while (!err && *outlen < OUTPUT_LIMIT)
    {
      err = inflate_engine_read (e, serial_out + *outlen,
                                 OUTPUT_LIMIT - *outlen, &n);
      if (!err && !n)
        break;
      *outlen += n;
    }
  inflate_engine_release (e);
  return ending_of (err, *outlen);
}


int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  enum inflate_impl impl = INFLATE_IMPL_ZLIB;
  enum inflate_framing framing;
  enum ending pend, send;
  size_t plen, slen;

  fuzz_start ();
  if (!size)
    return 0;
  if ((data[0] & 1) && inflate_impl_from_name ("isal") >= 0)
    impl = INFLATE_IMPL_ISAL;
  framing = data[0] & 0x80 ? INFLATE_ZLIB : INFLATE_RAW;
  pend = read_parallel (impl, framing, 2 + (data[0] >> 1 & 1),
                        data[0] >> 2 & 0x1f, data + 1, size - 1, &plen);
  send = read_serial (impl, framing, data + 1, size - 1, &slen);
  fuzz_forget_error ();
  if (pend != ENDED_AT_LIMIT && send != ENDED_AT_LIMIT
      && (pend == ENDED_GOOD) != (send == ENDED_GOOD))
    abort ();
  if (pend == ENDED_GOOD && send == ENDED_GOOD && plen != slen)
    abort ();
  if (memcmp (parallel_out, serial_out, plen < slen ? plen : slen))
    abort ();
  return 0;
}
