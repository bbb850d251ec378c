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
 * Every PDEFLATE_SEGMENT_BLOCKS blocks start a segment that can be
 * inflated on its own (inflate-parallel.h), in ZIP and ZLIB alike: its
 * first block is not primed with the input before it, so no
 * back-reference crosses the segment's start, and the segment before
 * it ends with PDEFLATE_SEGMENT_MARK, a sync flush followed by an
 * empty stored block, as pigz --independent marks its blocks.  The
 * stream stays one ordinary deflate stream that any inflater reads.
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

/* Blocks (DEFLATE_BLOCK_SIZE) per independent segment of a stream.
 * On the 256 MiB corpus of sfbench at the default level, ZIP
 * (85335425 bytes without segments), the restarts cost 0.73% of the
 * size with segments of 1 block, 0.37% with 2, 0.18% with 4, 0.09%
 * with 8 and 0.05% with 16.  Four keep the cost well under 1% and
 * the segments small enough for the reader to hold a few per
 * thread.  */
#define PDEFLATE_SEGMENT_BLOCKS 4

/* The bytes that end every segment but the last: the end of a sync
 * flush (LEN 0, NLEN 0xffff), then an empty stored block, byte
 * aligned, BFINAL clear.  */
#define PDEFLATE_SEGMENT_MARK "\0\0\xff\xff\0\0\0\xff\xff"
#define PDEFLATE_SEGMENT_MARK_LEN 9

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
