/* armor.h - OpenPGP ASCII armor, writing and reading (armor.c)
 */
#ifndef SFENC_ARMOR_H
#define SFENC_ARMOR_H

#include <gpg-error.h>

#include "iobuf.h"

/* Writing: a sink that armors what is written into it for SINK.  */
typedef struct armor_writer armor_writer_t;

gpg_error_t armor_writer_new (armor_writer_t **r_aw, sink_fn_t sink,
                              void *sink_ctx);
gpg_error_t armor_writer_sink (void *ctx, const unsigned char *buf,
                               size_t len);
gpg_error_t armor_writer_finish (armor_writer_t *aw);
void armor_writer_release (armor_writer_t *aw);

/* Encode the LEN bytes at IN as base64 (RFC 4648) with its padding,
 * no line breaks, into the 4 * ((LEN + 2) / 3) characters at OUT.  */
void armor_encode_base64 (const unsigned char *in, size_t len, char *out);

/* Reading: a source of the packets an armored message holds.  */
typedef struct armor_reader armor_reader_t;

/* Decode the armored message read from IN; the caller has checked
 * that it does not start with a packet tag.  */
gpg_error_t armor_reader_new (armor_reader_t **r_ar, reader_t *in);
gpg_error_t armor_reader_source (void *ctx, unsigned char *buf, size_t size,
                                 size_t *nread);
void armor_reader_release (armor_reader_t *ar);

#endif /*SFENC_ARMOR_H*/
