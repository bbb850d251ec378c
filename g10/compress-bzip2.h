/* compress-bzip2.h - BZIP2 compressed data through libbz2, serially
 *
 * RFC 4880 9.3, algorithm 3: the body of the compressed packet is one
 * bzip2 stream, as the bzip2 program writes it ("BZh" and the block
 * size, the blocks, the combined CRC).  This is the reader on one
 * thread (--threads 1, and every BZIP2 layer nested inside one read
 * on threads): it streams with buffers of constant size, and libbz2's
 * own memory depends on the block size alone, never on the data:
 * 100 kB plus 4 times the block size of the stream (3.7 MB at most).
 * Writing, on any number of threads, is bzip2-parallel.c's; reading
 * on several, bunzip2-parallel.c's.
 */
#ifndef SFENC_COMPRESS_BZIP2_H
#define SFENC_COMPRESS_BZIP2_H

#include <gpg-error.h>

#include "iobuf.h"

typedef struct bzip2_reader bzip2_reader_t;

/* Decompress the stream read from SOURCE.  */
gpg_error_t bzip2_reader_new (bzip2_reader_t **r_br, source_fn_t source,
                              void *source_ctx);

/* A source over the bzip2_reader_t CTX.  Data after the end of the
 * stream is not read.  */
gpg_error_t bzip2_reader_read (void *ctx, unsigned char *buf, size_t size,
                               size_t *nread);

void bzip2_reader_release (bzip2_reader_t *br);

/* Fail with the message of a BZ2_bzDecompress return code RC other
 * than BZ_OK and BZ_STREAM_END.  */
gpg_error_t bzip2_decompress_error (int rc);

/* The version of libbz2 in use, such as "1.0.8".  */
const char *bzip2_library_version (void);

#endif /*SFENC_COMPRESS_BZIP2_H*/
