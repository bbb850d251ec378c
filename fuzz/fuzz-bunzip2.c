/* fuzz-bunzip2.c - BZIP2 read on threads (g10/bunzip2-parallel.c)
 * against libbz2 read serially
 *
 * Input: a byte whose low bit chooses 2 or 3 threads, then a bzip2
 * stream.  The parallel reader and BZ2_bzDecompress read the same
 * stream, each up to OUTPUT_LIMIT bytes: when both end, both must have
 * refused it or both given the same bytes, and what both gave must
 * agree as far as both went; anything else aborts.  The serial reader
 * may give a damaged block's bytes before it sees the damage, the
 * parallel reader never does, so only the shorter output is compared
 * when one of them refused.
 */
#include <config.h>

#include <stdlib.h>
#include <string.h>
#include <bzlib.h>

#include "fuzz.h"
#include "bunzip2-parallel.h"

#define OUTPUT_LIMIT (1u << 20)

static unsigned char parallel_out[OUTPUT_LIMIT];
static unsigned char serial_out[OUTPUT_LIMIT];


static enum fuzz_ending
read_parallel (const uint8_t *data, size_t size, int nthreads, size_t *outlen)
{
  enum fuzz_ending ending = FUZZ_ENDED_REFUSED;
  fuzz_source_t src;
  pbunzip2_t *pu;

  *outlen = 0;
  fuzz_source_init (&src, data, size);
  if (!pbunzip2_new (&pu, nthreads, fuzz_source_read, &src))
    ending = fuzz_read_stream (pbunzip2_read, pu, parallel_out,
                               OUTPUT_LIMIT, outlen);
  pbunzip2_release (pu);
  return ending;
}


static enum fuzz_ending
read_serial (const uint8_t *data, size_t size, size_t *outlen)
{
  bz_stream bs;
  int rc;

  memset (&bs, 0, sizeof bs);
  if (BZ2_bzDecompressInit (&bs, 0, 0) != BZ_OK)
    abort ();
  bs.next_in = (char *)data;
  bs.avail_in = size;
  bs.next_out = (char *)serial_out;
  bs.avail_out = OUTPUT_LIMIT;
  do
    rc = BZ2_bzDecompress (&bs);
  while (rc == BZ_OK && bs.avail_in && bs.avail_out);
  *outlen = OUTPUT_LIMIT - bs.avail_out;
  BZ2_bzDecompressEnd (&bs);
  if (*outlen == OUTPUT_LIMIT)
    return FUZZ_ENDED_AT_LIMIT;
  return rc == BZ_STREAM_END ? FUZZ_ENDED_GOOD : FUZZ_ENDED_REFUSED;
}


int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  enum fuzz_ending pend, send;
  size_t plen, slen;

  fuzz_start ();
  if (!size)
    return 0;
  pend = read_parallel (data + 1, size - 1, 2 + (data[0] & 1), &plen);
  send = read_serial (data + 1, size - 1, &slen);
  fuzz_forget_error ();
  fuzz_same_outcome (pend, parallel_out, plen, send, serial_out, slen);
  return 0;
}
