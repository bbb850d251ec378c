/* textmode.h - the input of sfenc -c -t as OpenPGP canonical text
 */
#ifndef SFENC_TEXTMODE_H
#define SFENC_TEXTMODE_H

#include <gpg-error.h>

#include "iobuf.h"

typedef struct text_source text_source_t;

/* How sfenc -c reads its input.  */
enum text_mode
  {
    TEXT_NONE,                  /* As binary data.  */
    TEXT_CANONICAL,             /* -t.  */
    TEXT_RFC2440                /* -t --rfc2440-text.  */
  };

/* Read SOURCE as text, as gpg 2.2 does: every line feed, with the
 * carriage returns and NUL bytes just before it, becomes CR LF;
 * carriage returns and NULs at the very end are dropped; everything
 * else passes unchanged.  With STRIP_BLANKS, spaces and tabs are
 * dropped with them at the end of each line.  */
gpg_error_t text_source_new (text_source_t **r_ts, source_fn_t source,
                             void *source_ctx, int strip_blanks);

/* A source over the text_source_t CTX.  */
gpg_error_t text_source_read (void *ctx, unsigned char *buf, size_t size,
                              size_t *nread);

void text_source_release (text_source_t *ts);

#endif /*SFENC_TEXTMODE_H*/
