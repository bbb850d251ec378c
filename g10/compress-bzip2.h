/* compress-bzip2.h - BZIP2 compressed data through libbz2
 *
 * RFC 4880 9.3, algorithm 3: the body of the compressed packet is one
 * bzip2 stream, as the bzip2 program writes it ("BZh" and the block
 * size, the blocks, the combined CRC).  Both directions stream with
 * buffers of constant size, and libbz2's own memory depends on the
 * block size alone, never on the data: 400 kB plus 8 times the block
 * size to compress (7.6 MB at level 9), 100 kB plus 4 times the block
 * size of the stream to decompress (3.7 MB at most).
 * There is one thread: a bzip2 stream has no independent parts that
 * --threads could compress apart and that every reader accepts.
 */
#ifndef SFENC_COMPRESS_BZIP2_H
#define SFENC_COMPRESS_BZIP2_H

#include <gpg-error.h>

#include "iobuf.h"

typedef struct bzip2_writer bzip2_writer_t;

/* Start a stream with blocks of LEVEL (1..9) times 100 kB that is
 * written into SINK.  */
gpg_error_t bzip2_writer_new (bzip2_writer_t **r_bw, int level,
                              sink_fn_t sink, void *sink_ctx);

/* Compress LEN bytes; a sink over the bzip2_writer_t CTX.  */
gpg_error_t bzip2_writer_write (void *ctx, const unsigned char *buf,
                                size_t len);

/* End the stream: compress what is left, then the trailer.  */
gpg_error_t bzip2_writer_finish (bzip2_writer_t *bw);

void bzip2_writer_release (bzip2_writer_t *bw);

typedef struct bzip2_reader bzip2_reader_t;

/* Decompress the stream read from SOURCE.  */
gpg_error_t bzip2_reader_new (bzip2_reader_t **r_br, source_fn_t source,
                              void *source_ctx);

/* A source over the bzip2_reader_t CTX.  Data after the end of the
 * stream is not read.  */
gpg_error_t bzip2_reader_read (void *ctx, unsigned char *buf, size_t size,
                               size_t *nread);

void bzip2_reader_release (bzip2_reader_t *br);

/* The version of libbz2 in use, such as "1.0.8".  */
const char *bzip2_library_version (void);

#endif /*SFENC_COMPRESS_BZIP2_H*/
