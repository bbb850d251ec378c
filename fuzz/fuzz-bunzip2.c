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

/* How a reader ended.  */
enum ending
  {
    ENDED_GOOD,
    ENDED_REFUSED,
    ENDED_AT_LIMIT
  };

static unsigned char parallel_out[OUTPUT_LIMIT];
static unsigned char serial_out[OUTPUT_LIMIT];


static int
read_parallel (const uint8_t *data, size_t size, int nthreads, size_t *outlen)
{
  fuzz_source_t src;
  pbunzip2_t *pu;
  gpg_error_t err;
  size_t n = 0;

  *outlen = 0;
  fuzz_source_init (&src, data, size);
  err = pbunzip2_new (&pu, nthreads, fuzz_source_read, &src);
  while (!err && *outlen < OUTPUT_LIMIT)
    {
      err = pbunzip2_read (pu, parallel_out + *outlen,
                           OUTPUT_LIMIT - *outlen, &n);
      if (!err && !n)
        break;
      *outlen += n;
    }
  pbunzip2_release (pu);
  return err ? ENDED_REFUSED : *outlen < OUTPUT_LIMIT ? ENDED_GOOD
                                                      : ENDED_AT_LIMIT;
}


static int
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
    return ENDED_AT_LIMIT;
  return rc == BZ_STREAM_END ? ENDED_GOOD : ENDED_REFUSED;
}


int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  size_t plen, slen;
  int pend, send;

  fuzz_start ();
  if (!size)
    return 0;
  pend = read_parallel (data + 1, size - 1, 2 + (data[0] & 1), &plen);
  send = read_serial (data + 1, size - 1, &slen);
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
