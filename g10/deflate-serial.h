/* deflate-serial.h - one deflate stream on one thread, as gpg writes it
 *
 * gpg 2.2 compresses ZIP and ZLIB through one zlib stream: raw
 * deflate with an 8 KiB window (windowBits -13) for ZIP, zlib's
 * defaults for ZLIB, memory level 8, the input fed without flushing
 * and the stream finished at the end.  zlib's output does not depend
 * on how the input is cut into writes, so this writer gives gpg's
 * bytes for the same input and level: --store uses it, for output
 * equal to gpg's.  The parallel writer (pdeflate.h) is faster but
 * writes other bytes.
 */
#ifndef SFENC_DEFLATE_SERIAL_H
#define SFENC_DEFLATE_SERIAL_H

#include <gpg-error.h>

#include "iobuf.h"

typedef struct deflate_serial deflate_serial_t;

/* Start a stream of ALGO (COMPRESS_ZIP or COMPRESS_ZLIB) at LEVEL
 * (1..9) into SINK.  */
gpg_error_t deflate_serial_new (deflate_serial_t **r_ds, int algo, int level,
                                sink_fn_t sink, void *sink_ctx);

/* Compress LEN bytes; a sink over the deflate_serial_t CTX.  */
gpg_error_t deflate_serial_write (void *ctx, const unsigned char *buf,
                                  size_t len);

/* End the stream.  */
gpg_error_t deflate_serial_finish (deflate_serial_t *ds);

void deflate_serial_release (deflate_serial_t *ds);

#endif /*SFENC_DEFLATE_SERIAL_H*/
