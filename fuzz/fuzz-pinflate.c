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

#include "fuzz.h"
#include "inflate-engine.h"
#include "inflate-parallel.h"

#define OUTPUT_LIMIT ((size_t)1 << 20)

/* Bits of the flag byte that answer whether the source is ready.  */
#define READY_BITS 5

/* The answers to "bytes ready?", bits used in turn.  */
typedef struct ready_pattern
{
  unsigned int bits;
  unsigned int asked;
} ready_pattern_t;

static unsigned char parallel_out[OUTPUT_LIMIT];
static unsigned char serial_out[OUTPUT_LIMIT];


static int
pattern_ready (void *ctx)
{
  ready_pattern_t *rp = ctx;

  return rp->bits >> (rp->asked++ % READY_BITS) & 1;
}


/* The readers as sources.  */
static gpg_error_t
parallel_source (void *ctx, unsigned char *buf, size_t size, size_t *nread)
{
  return inflate_parallel_read (ctx, buf, size, nread);
}

static gpg_error_t
serial_source (void *ctx, unsigned char *buf, size_t size, size_t *nread)
{
  return inflate_engine_read (ctx, buf, size, nread);
}


static enum fuzz_ending
read_parallel (enum inflate_impl impl, enum inflate_framing framing,
               int nthreads, unsigned int ready, const uint8_t *data,
               size_t size, size_t *outlen)
{
  enum fuzz_ending ending = FUZZ_ENDED_REFUSED;
  ready_pattern_t rp = { ready, 0 };
  fuzz_source_t src;
  inflate_parallel_t *pi;

  *outlen = 0;
  fuzz_source_init (&src, data, size);
  if (!inflate_parallel_new (&pi, impl, framing, nthreads, fuzz_source_read,
                             &src, pattern_ready, &rp))
    ending = fuzz_read_stream (parallel_source, pi, parallel_out,
                               OUTPUT_LIMIT, outlen);
  inflate_parallel_release (pi);
  return ending;
}


static enum fuzz_ending
read_serial (enum inflate_impl impl, enum inflate_framing framing,
             const uint8_t *data, size_t size, size_t *outlen)
{
  enum fuzz_ending ending = FUZZ_ENDED_REFUSED;
  fuzz_source_t src;
  inflate_engine_t *e;

  *outlen = 0;
  fuzz_source_init (&src, data, size);
  if (!inflate_engine_new (&e, impl, framing, fuzz_source_read, &src))
    ending = fuzz_read_stream (serial_source, e, serial_out, OUTPUT_LIMIT,
                               outlen);
  inflate_engine_release (e);
  return ending;
}


int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  enum inflate_impl impl = INFLATE_IMPL_ZLIB;
  enum inflate_framing framing;
  enum fuzz_ending pend, send;
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
  fuzz_same_outcome (pend, parallel_out, plen, send, serial_out, slen);
  return 0;
}
