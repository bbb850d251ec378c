/* inflate-parallel.h - a raw deflate or zlib stream inflated on
 * several threads, segment by segment
 *
 * sfenc writes its ZIP and ZLIB streams in segments that do not depend
 * on each other (pdeflate.h): each but the last ends with
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
 * Output is never held back waiting for input: a pipe may stall
 * between two bytes of a segment, for good if its writer keeps it
 * open while the run should end on an output error.  So before each
 * read of the source the reading thread asks READY whether the source
 * has bytes ready.  While it has, the reading thread fills pieces
 * ahead for the workers.  When it has none, the reading thread first
 * hands out the output of the pieces cut before, waiting for the
 * workers, not for the input; once the piece it is filling is the
 * next to go out, it inflates that piece itself as its bytes arrive
 * and hands out the output as it comes.  That piece's start is proven
 * by then (the stream's start, or the end of the piece accepted
 * before it), so this is the serial decode until a reference reaches
 * before the start, which is doubt like any other.  The first piece is
 * always inflated so, as it needs no proof; threads start only at the
 * second.  Should a streamed piece fail, the serial path skips the
 * output already handed out.  The answer of READY changes where the
 * work is done, never the output: a wrong "no" only takes a piece
 * from the workers, a wrong "yes" only holds output back until the
 * read returns.  The source (decrypt.c) answers from what is read
 * ahead on the decrypting thread (source_thread_ready), the one place
 * that knows whether a read would wait without making it; it waits up
 * to a millisecond for that thread to decrypt more before it says no,
 * so that a piece of a file is not taken from the workers only because
 * the reading thread caught up with the decryption for a moment.
 *
 * A zlib stream (RFC 1950, OpenPGP's ZLIB) is the same deflate stream
 * between a header, which is checked and dropped before the first
 * piece, and the Adler-32 of the output.  The workers sum the output
 * of their pieces, and the reading thread that of the pieces it
 * inflates and of the serial path, so the sums are combined in order
 * at no cost to the reading thread.  Where the deflate stream ends
 * the reader knows to the byte (for isal_inflate, less the whole
 * bytes in its bit buffer), and reads the trailer from there, out of
 * the pieces or the serial engine (inflate_engine_read_after).  Every
 * refusal has the serial engine's reason.
 *
 * Memory is a ring of at most 2 * INFLATE_PARALLEL_THREADS_MAX + 1
 * pieces of about 1.3 MiB.
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

/* Whether the next read of a source returns without waiting for
 * input (see above).  */
typedef int (*input_ready_fn_t) (void *ctx);

/* A reader of the stream of FRAMING from SOURCE that inflates with
 * IMPL on NTHREADS (2 or more) threads, asking READY with READY_CTX
 * whether SOURCE has bytes ready.  Fails only for lack of memory.  */
gpg_error_t inflate_parallel_new (inflate_parallel_t **r_pi,
                                  enum inflate_impl impl,
                                  enum inflate_framing framing,
                                  int nthreads, source_fn_t source,
                                  void *source_ctx, input_ready_fn_t ready,
                                  void *ready_ctx);

/* As inflate_engine_read.  */
gpg_error_t inflate_parallel_read (inflate_parallel_t *pi,
                                   unsigned char *buf, size_t size,
                                   size_t *nread);

/* As inflate_engine_reason.  */
const char *inflate_parallel_reason (const inflate_parallel_t *pi);

/* Stop the threads, waiting for them, and free PI.  */
void inflate_parallel_release (inflate_parallel_t *pi);

#endif /*SFENC_INFLATE_PARALLEL_H*/
