/* literal.h - writing out the literal data packet of a decrypted message
 */
#ifndef SFENC_LITERAL_H
#define SFENC_LITERAL_H

#include <gpg-error.h>

#include "iobuf.h"
#include "outfile.h"

/* The fields before a literal packet's data: format, name length,
 * name and date (RFC 4880 5.9).  */
#define LITERAL_NAME_MAX 255
#define LITERAL_FIELDS_MAX (2 + LITERAL_NAME_MAX + 4)

/* Start reading the literal data packet HDR from IN as BODY and read
 * its fields into FIELDS (LITERAL_FIELDS_MAX octets); the data
 * follows in BODY.  */
gpg_error_t literal_read_fields (reader_t *in, const packet_header_t *hdr,
                                 packet_body_t *body, unsigned char *fields);

/* Read the literal data packet HDR from IN and write its data to OUT,
 * through BUF of SIZE bytes.  With OPEN_LATE, OUT is not open yet:
 * it is opened under the packet's name (--use-embedded-filename).  */
gpg_error_t literal_write (reader_t *in, const packet_header_t *hdr,
                           outfile_t *out, int open_late,
                           unsigned char *buf, size_t size);

#endif /*SFENC_LITERAL_H*/
