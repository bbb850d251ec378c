/* fuzz-inflate.c - decompression (g10/compress.c inflate_source_*)
 *
 * Input: the body of a compressed data packet, as decrypt.c reads
 * it: the algorithm byte (1 ZIP, 2 ZLIB, 3 BZIP2), then the
 * compressed data.  The output is read up to OUTPUT_LIMIT bytes, so
 * that a small input that expands a thousandfold does not slow the
 * fuzzer down; the code that runs is the same throughout.  Half the
 * inputs are read with --threads 1, half with 2, as fuzz_decrypt does:
 * BZIP2 has a reader for each (compress-bzip2.c, bunzip2-parallel.c),
 * and the default, one thread per processor, would leave the serial
 * one unread on any machine with more than one.
 */
#include <config.h>

#include "fuzz.h"
#include "compress.h"

#define OUTPUT_LIMIT (1u << 20)


/* The data is all there: a read never waits, so ZIP may be read in
 * segments on threads, as from a file.  */
static int
always_ready (void *ctx)
{
  (void)ctx;
  return 1;
}


int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  fuzz_source_t src;
  inflate_source_t *is = NULL;
  reader_t out;
  gpg_error_t err;

  fuzz_start ();
  if (!size)
    return 0;
  compress_set_threads (1 + size % 2);
  fuzz_source_init (&src, data + 1, size - 1);
  err = inflate_source_new (&is, data[0], fuzz_source_read, &src,
                            always_ready, NULL);
  if (!err)
    err = reader_init (&out, inflate_source_read, is);
  if (!err)
    {
      fuzz_drain (&out, OUTPUT_LIMIT);
      reader_release (&out);
    }
  inflate_source_release (is);
  fuzz_forget_error ();
  return 0;
}
