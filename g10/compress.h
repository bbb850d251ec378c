/* compress.h - compressed data packets (RFC 4880 5.6)
 */
#ifndef SFENC_COMPRESS_H
#define SFENC_COMPRESS_H

#include <gpg-error.h>

#include "iobuf.h"
#include "packet.h"
#include "inflate-parallel.h"

const char *compress_algo_name (int algo);
/* Parse "none", "uncompressed", "zip", "zlib", "bzip2" (in any case)
 * or an id 0..3, alone or after a Z, as gpg does.  Returns the id or
 * -1.  */
int compress_algo_from_name (const char *name);

/* Set how many threads compress (--threads, 1..PDEFLATE_THREADS_MAX);
 * until then, one per online processor.  */
void compress_set_threads (int nthreads);

/* The number of threads that compress, and that decompress while
 * another decrypts (source-thread.h).  */
int compress_thread_count (void);

typedef struct compress_writer compress_writer_t;

/* Start a compressed packet of ALGO (ZIP, ZLIB or BZIP2) at LEVEL
 * (1..9, or -1 for the default, 6) that is written into SINK.  */
gpg_error_t compress_writer_new (compress_writer_t **r_cw, int algo,
                                 int level, sink_fn_t sink, void *sink_ctx);
/* The same, in gpg 2.2's bytes: an old-format packet header of
 * indeterminate length, and ZIP and ZLIB through one zlib stream
 * (deflate-serial.h), for --store.  */
gpg_error_t compress_writer_new_gpg (compress_writer_t **r_cw, int algo,
                                     int level, sink_fn_t sink,
                                     void *sink_ctx);
gpg_error_t compress_writer_sink (void *ctx, const unsigned char *buf,
                                  size_t len);
gpg_error_t compress_writer_finish (compress_writer_t *cw);
/* Also after an error: no compressing thread outlives it.  */
void compress_writer_release (compress_writer_t *cw);

typedef struct inflate_source inflate_source_t;

/* A reader of the compressed data of ALGO from SOURCE.  A ZIP or ZLIB
 * layer may be inflated in segments on threads (inflate-parallel.h)
 * only when READY, with READY_CTX, can tell whether SOURCE has bytes
 * ready, so that its output flows with the input as on one thread;
 * with READY NULL it is inflated on one thread.  */
gpg_error_t inflate_source_new (inflate_source_t **r_is, int algo,
                                source_fn_t source, void *source_ctx,
                                input_ready_fn_t ready, void *ready_ctx);
gpg_error_t inflate_source_read (void *ctx, unsigned char *buf, size_t size,
                                 size_t *nread);
void inflate_source_release (inflate_source_t *is);

#endif /*SFENC_COMPRESS_H*/
