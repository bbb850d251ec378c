/* plaintext.h - the data sfenc -c encrypts
 */
#ifndef SFENC_PLAINTEXT_H
#define SFENC_PLAINTEXT_H

#include <gpg-error.h>

#include "iobuf.h"
#include "textmode.h"

/* The most bytes a magic number takes (PNG's 8).  */
#define PLAINTEXT_HEAD_MAX 8

/* The input, its first bytes read ahead, and with -t its text form.  */
typedef struct plaintext
{
  source_fn_t source;
  void *source_ctx;
  unsigned char head[PLAINTEXT_HEAD_MAX];
  size_t head_len;
  size_t head_pos;
  text_source_t *text;
} plaintext_t;

/* Read the first bytes of the input from SOURCE (fewer only at its
 * end) and read it from then on as MODE says (textmode.h).  */
gpg_error_t plaintext_open (plaintext_t *pt, source_fn_t source,
                            void *source_ctx, enum text_mode mode);

/* The name of the compressed format ("gzip", "PNG", ...) the input
 * starts with, or NULL.  Looks at the bytes as they are in the input,
 * before any text conversion.  */
const char *plaintext_compressed_format (const plaintext_t *pt);

/* A source over the plaintext_t CTX: the whole input, from its first
 * byte.  */
gpg_error_t plaintext_source (void *ctx, unsigned char *buf, size_t size,
                              size_t *nread);

void plaintext_close (plaintext_t *pt);

#endif /*SFENC_PLAINTEXT_H*/
