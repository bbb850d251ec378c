/* checked-source.h - a deflate stream passed on only once checked
 *
 * The ISA-L path of inflate-engine.c has deflate-check.c walk every
 * compressed byte before isal_inflate gets it.  With --threads above
 * 1 that walk runs ahead on a thread of its own (source-thread.h),
 * as this source: it reads the stream from its own source, feeds each
 * piece to the check, and passes on only what the check let through,
 * so isal_inflate meets the same bytes as on one thread.  It stops
 * reading where the stream ends, after its trailer, so that the
 * packet around the stream is not read further than one thread
 * reads it.
 *
 * Never calls fail (): a refusal is GPG_ERR_BAD_DATA, with
 * checked_source_reason's text, which the engine turns into its own.
 */
#ifndef SFENC_CHECKED_SOURCE_H
#define SFENC_CHECKED_SOURCE_H

#include <stddef.h>
#include <gpg-error.h>

#include "iobuf.h"

typedef struct checked_source checked_source_t;

/* A checked source over the stream read from SOURCE with SOURCE_CTX:
 * HEADER_LEN bytes of header (the zlib header, which the engine
 * checks) are passed on unchecked, then the raw deflate data, then
 * TRAILER_LEN bytes after its end (the Adler-32).  Fails only for
 * lack of memory.  */
gpg_error_t checked_source_new (checked_source_t **r_cs, size_t header_len,
                                size_t trailer_len, source_fn_t source,
                                void *source_ctx);

/* The source over the checked_source_t CTX.  Returns GPG_ERR_BAD_DATA
 * when the check refuses the stream, and then again.  */
gpg_error_t checked_source_read (void *ctx, unsigned char *buf, size_t size,
                                 size_t *nread);

/* Why the check refused the stream, or NULL while it has not.  */
const char *checked_source_reason (const checked_source_t *cs);

void checked_source_release (checked_source_t *cs);

#endif /*SFENC_CHECKED_SOURCE_H*/
