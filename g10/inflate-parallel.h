/* inflate-parallel.h - a raw deflate stream inflated on several
 * threads, segment by segment
 *
 * sfenc writes its ZIP streams in segments that do not depend on each
 * other (pdeflate.h): each but the last ends with
 * PDEFLATE_SEGMENT_MARK, and no back-reference reaches before a
 * segment's start.  This reader cuts the compressed stream after every
 * such mark and has worker threads inflate the pieces, each with an
 * empty window, while the reading thread hands out their output in
 * order.
 *
 * The mark is only a candidate: its bytes may occur inside compressed
 * data, and another writer's stream may use them with references
 * across.  So a piece is accepted only when its start is proven a
 * block boundary: the first piece starts the stream, and each next one
 * starts where the accepted piece before it ended exactly, at a block
 * boundary, having consumed all its bytes.  From a proven boundary, a
 * decode with an empty window that meets no reference beyond its start
 * gives the very bytes a serial decode gives.  Anything else -- a
 * reference beyond the start, a piece that ends inside a block, an
 * error, a piece too large, a stream with no mark at all, as gpg
 * writes -- sends the rest of the stream, from the start of the first
 * piece not accepted, through one inflate engine (inflate-engine.h)
 * primed with the last 32 KiB of output: the serial path, with its
 * own messages for truly bad data.
 *
 * The first piece, which starts the stream and so needs no proof, is
 * inflated by the reading thread as its bytes arrive, its output
 * handed out as it comes; should it then fail, the serial path skips
 * the output already handed out.  Threads start only at the second
 * piece; memory is a ring of at most
 * 2 * INFLATE_PARALLEL_THREADS_MAX + 1 pieces of about 1.3 MiB.
 */
#ifndef SFENC_INFLATE_PARALLEL_H
#define SFENC_INFLATE_PARALLEL_H

#include <stddef.h>
#include <gpg-error.h>

#include "iobuf.h"
#include "inflate-engine.h"

/* The most worker threads of one stream, whatever --threads says:
 * more pieces in flight would only cost memory.  */
#define INFLATE_PARALLEL_THREADS_MAX 8

typedef struct inflate_parallel inflate_parallel_t;

/* A reader of the raw deflate stream from SOURCE that inflates with
 * IMPL on NTHREADS (2 or more) threads.  Fails only for lack of
 * memory.  */
gpg_error_t inflate_parallel_new (inflate_parallel_t **r_pi,
                                  enum inflate_impl impl, int nthreads,
                                  source_fn_t source, void *source_ctx);

/* As inflate_engine_read.  */
gpg_error_t inflate_parallel_read (inflate_parallel_t *pi,
                                   unsigned char *buf, size_t size,
                                   size_t *nread);

/* As inflate_engine_reason.  */
const char *inflate_parallel_reason (const inflate_parallel_t *pi);

/* Stop the threads, waiting for them, and free PI.  */
void inflate_parallel_release (inflate_parallel_t *pi);

#endif /*SFENC_INFLATE_PARALLEL_H*/
