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
 * most 2 MiB of its output; a block whose output is larger is
 * decoded again by the reading thread, straight into its reader.
 * Each decoding libbz2 takes 100 kB plus 4 times the block size.
 */
#ifndef SFENC_BUNZIP2_PARALLEL_H
#define SFENC_BUNZIP2_PARALLEL_H

#include <gpg-error.h>

#include "iobuf.h"

typedef struct pbunzip2 pbunzip2_t;

/* Decompress the stream read from SOURCE on NTHREADS (2 or more)
 * threads.  */
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
