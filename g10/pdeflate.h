/* pdeflate.h - deflate on several threads into one stream
 *
 * The input is cut into blocks of DEFLATE_BLOCK_SIZE bytes at fixed
 * offsets, whatever the sizes of the writes, and each block is
 * compressed on its own (deflate-engine.h), primed with the input
 * before it.  The compressed blocks are passed to the sink in input
 * order, so the stream is byte for byte the same for any number of
 * threads: ZIP (algorithm 1) is the raw deflate stream with an 8 KiB
 * window, as gpg writes it; ZLIB (2) frames it with the zlib header
 * and the Adler-32 of the whole input (RFC 1950).
 *
 * A block whose bytes look incompressible (compress-probe.h) is
 * written as stored blocks instead of being deflated: that costs a
 * copy where deflate would spend its full time to save nothing.  The
 * decision depends on the block's bytes alone, so the stream is still
 * the same for any number of threads, and still one ordinary deflate
 * stream.
 *
 * With one thread, each block is compressed in line when it is full.
 * With more, the thread that writes keeps reading and feeding the sink
 * while worker threads compress: it is the only thread that calls the
 * sink or fail (), so the stages downstream need no locking.  At most
 * 2 * NTHREADS + 1 blocks are in flight, so memory is bounded by the
 * thread count, never by the size of the input.
 */
#ifndef SFENC_PDEFLATE_H
#define SFENC_PDEFLATE_H

#include <stdint.h>
#include <gpg-error.h>

#include "iobuf.h"
#include "packet.h"

/* The most threads one stream may use.  */
#define PDEFLATE_THREADS_MAX 64

typedef struct pdeflate pdeflate_t;

/* Start a stream of compression ALGO (COMPRESS_ZIP or COMPRESS_ZLIB)
 * at LEVEL (1..9) that NTHREADS (1..PDEFLATE_THREADS_MAX) threads
 * compress into SINK.  */
gpg_error_t pdeflate_new (pdeflate_t **r_pd, int algo, int level,
                          int nthreads, sink_fn_t sink, void *sink_ctx);

/* Compress LEN bytes; a sink over the pdeflate_t CTX.  */
gpg_error_t pdeflate_write (void *ctx, const unsigned char *buf, size_t len);

/* End the stream: compress and write what is left, then the trailer.  */
gpg_error_t pdeflate_finish (pdeflate_t *pd);

/* The blocks PD has written so far, how many of them were stored,
 * and how many written by deflate_sparse (compress-probe.h).  */
void pdeflate_counts (const pdeflate_t *pd, uint64_t *r_blocks,
                      uint64_t *r_stored, uint64_t *r_sparse);

/* Stop the threads, waiting for them, and free PD; after an error
 * too, so that no thread outlives the stream.  */
void pdeflate_release (pdeflate_t *pd);

#endif /*SFENC_PDEFLATE_H*/
