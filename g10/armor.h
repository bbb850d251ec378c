/* armor.h - OpenPGP ASCII armor, writing and reading (armor.c)
 */
#ifndef SFENC_ARMOR_H
#define SFENC_ARMOR_H

#include <gpg-error.h>

#include "iobuf.h"

/* Writing: a sink that armors what is written into it for SINK.  */
typedef struct armor_writer armor_writer_t;

/* The armored blocks sfenc writes: "PGP MESSAGE", and --enarmor's
 * "PGP ARMORED FILE" with gpg's comment on how to unpack it.  Both
 * carry the headers of --emit-version and --comment.  ARMOR_NONE, no
 * block, is for callers that choose whether to armor (write_output);
 * armor_writer_new does not take it.  */
enum armor_block { ARMOR_NONE = -1, ARMOR_MESSAGE, ARMOR_FILE };

gpg_error_t armor_writer_new (armor_writer_t **r_aw, enum armor_block block,
                              sink_fn_t sink, void *sink_ctx);
gpg_error_t armor_writer_sink (void *ctx, const unsigned char *buf,
                               size_t len);
gpg_error_t armor_writer_finish (armor_writer_t *aw);
void armor_writer_release (armor_writer_t *aw);

/* Encode the LEN bytes at IN as base64 (RFC 4648) with its padding,
 * no line breaks, into the 4 * ((LEN + 2) / 3) characters at OUT.  */
void armor_encode_base64 (const unsigned char *in, size_t len, char *out);

/* Reading: a source of the packets an armored message holds.  */

/* True when the LEN bytes at BUF, the first of some data, start a
 * binary OpenPGP packet as gpg 2.2 decides it (a tag of a packet that
 * starts a message, of a length it may have there), so that the data
 * is no armor: --dearmor passes it on unchanged, as gpg does.  */
int armor_is_binary_start (const unsigned char *buf, size_t len);

typedef struct armor_reader armor_reader_t;

/* Decode the armored message read from IN, the first block of a kind
 * gpg reads (MESSAGE, ARMORED FILE, PUBLIC KEY BLOCK, ...); the caller
 * has checked that it does not start with a packet tag.  When IN has
 * no BEGIN line, return GPG_ERR_NO_DATA with no message recorded, for
 * the caller to say what it expected.  */
gpg_error_t armor_reader_new (armor_reader_t **r_ar, reader_t *in);
gpg_error_t armor_reader_source (void *ctx, unsigned char *buf, size_t size,
                                 size_t *nread);
void armor_reader_release (armor_reader_t *ar);

#endif /*SFENC_ARMOR_H*/
