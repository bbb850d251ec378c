/* literal.h - writing out the literal data packet of a decrypted message
 */
#ifndef SFENC_LITERAL_H
#define SFENC_LITERAL_H

#include <gpg-error.h>

#include "iobuf.h"

/* Read the literal data packet HDR from IN and write its data to OUT,
 * through BUF of SIZE bytes.  */
gpg_error_t literal_write (reader_t *in, const packet_header_t *hdr,
                           fd_stream_t *out, unsigned char *buf, size_t size);

#endif /*SFENC_LITERAL_H*/
