/* bzip2-parallel.h - BZIP2 compression on several threads into one stream
 *
 * The input is cut into chunks that each fill one bzip2 block at the
 * level, whatever the sizes of the writes: a block holds
 * 100000 * level - 19 symbols after bzip2's first run-length step
 * (runs of 4 to 255 equal bytes become 5 symbols), which is counted
 * here as libbz2 counts it.  Each chunk is compressed by libbz2 as a
 * stream of its own, its one block is taken out of that stream, and
 * the blocks are joined bit for bit into one ordinary bzip2 stream:
 * one "BZh" header, the blocks in input order, one end magic with the
 * combined CRC.  The chunks depend only on the data, so the stream is
 * byte for byte the same for any number of threads.
 *
 * With one thread each chunk is compressed in line when it is full.
 * With more, the writing thread keeps counting and feeding the sink
 * while workers compress: it is the only thread that calls the sink or
 * fail ().  At most 2 * NTHREADS + 1 chunks are in flight, each held
 * after the run-length step (at most the block size, 900 kB at level
 * 9) with its compressed block.  Each thread's libbz2 compressor takes
 * 400 kB plus 8 times the block size while it runs (7.6 MB at level 9,
 * 5.2 MB at the default 6).
 */
#ifndef SFENC_BZIP2_PARALLEL_H
#define SFENC_BZIP2_PARALLEL_H

#include <gpg-error.h>

#include "iobuf.h"

typedef struct pbzip2 pbzip2_t;

/* Start a stream with blocks of LEVEL (1..9) times 100 kB that
 * NTHREADS (1..PDEFLATE_THREADS_MAX) threads compress into SINK.  */
gpg_error_t pbzip2_new (pbzip2_t **r_pb, int level, int nthreads,
                        sink_fn_t sink, void *sink_ctx);

/* Compress LEN bytes; a sink over the pbzip2_t CTX.  */
gpg_error_t pbzip2_write (void *ctx, const unsigned char *buf, size_t len);

/* End the stream: compress what is left, then the end magic and the
 * combined CRC.  */
gpg_error_t pbzip2_finish (pbzip2_t *pb);

/* Stop the threads, waiting for them, and free PB; after an error
 * too.  */
void pbzip2_release (pbzip2_t *pb);

#endif /*SFENC_BZIP2_PARALLEL_H*/
