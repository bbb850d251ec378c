/* bunzip2-parallel.h - BZIP2 decompression on several threads
 *
 * The blocks of a bzip2 stream are independent but not byte aligned
 * and not indexed: the reading thread finds them by their 48-bit
 * magic at any bit offset, and workers decode each through libbz2 as
 * a stream of one block.  The output is passed on in block order by
 * the reading thread, the only one that calls the source or fail ().
 * The output is what libbz2 gives reading the stream serially, or an
 * error: bunzip2-parallel.c says why a magic inside compressed data
 * cannot change it.
 *
 * Memory is bounded whatever the message: at most 2 * NTHREADS + 1
 * pieces of the stream are in flight, each at most the longest block
 * an encoder writes at the stream's level (2.3 MB at level 9) and at
 * most 2 MiB of its output; for a block whose output is larger, the
 * worker's libbz2 waits, and the reading thread runs it on straight
 * into its reader, so no block is decoded twice.  A block longer than
 * that, which only a crafted stream holds, is read with the rest of
 * the stream by the reading thread alone, an input buffer at a time.
 * Each decoding libbz2 takes 100 kB plus 4 times the block size.
 * That is up to 12.5 MB a thread at level 9 (a worker holds one libbz2
 * at a time: one left waiting goes to the reading thread before the
 * worker starts another), so no more than PBUNZIP2_THREADS_MAX
 * threads run, which keeps the whole of sfenc -d under 64 MiB (issue
 * 22): 9 pieces of 4.4 MB, 5 decoders of 3.7 MB (the reading thread's
 * too) and sfenc's own few MB.
 *
 * The workers are the process's, shared by the streams read one
 * after another: started for the first stream that has a second piece
 * waiting behind the one at the head, given to one stream at a time,
 * and stopped at exit.  Until a stream has them, and whenever no
 * worker has taken the head piece, the reading thread decodes it
 * itself, so a stream of one block starts no thread, and a stream read
 * while the workers work for another is decoded by its reading thread
 * alone.  pbunzip2_release gets the workers back in the middle of a
 * block: they look at the stop between slices of input and output.
 */
#ifndef SFENC_BUNZIP2_PARALLEL_H
#define SFENC_BUNZIP2_PARALLEL_H

#include <gpg-error.h>

#include "iobuf.h"

typedef struct pbunzip2 pbunzip2_t;

#define PBUNZIP2_THREADS_MAX 4

/* Decompress the stream read from SOURCE on NTHREADS (2 or more)
 * threads, or on PBUNZIP2_THREADS_MAX if that is fewer, started when
 * they are needed.  */
gpg_error_t pbunzip2_new (pbunzip2_t **r_pu, int nthreads,
                          source_fn_t source, void *source_ctx);

/* A source over the pbunzip2_t CTX.  Data after the end of the stream
 * is ignored.  */
gpg_error_t pbunzip2_read (void *ctx, unsigned char *buf, size_t size,
                           size_t *nread);

/* Stop the threads, waiting for them, and free PU; after an error
 * too.  */
void pbunzip2_release (pbunzip2_t *pu);

#endif /*SFENC_BUNZIP2_PARALLEL_H*/
