/* seipd2.h - AEAD-protected data: SEIPD v2 and LibrePGP's AEAD packet
 *
 * RFC 9580 5.13.2: an SEIPD packet (tag 18) of version 2 names the
 * cipher, the AEAD algorithm and the chunk size octet c, and carries a
 * 32-byte salt; HKDF-SHA256 of the session key with that salt gives
 * the message key and the first bytes of every nonce.
 *
 * LibrePGP (draft-koch-librepgp 5.16, from draft-ietf-openpgp-
 * rfc4880bis-10), as gpg 2.4 and rnp write it: the AEAD Encrypted
 * Data packet (tag 20), version 1, names the same, then a starting IV;
 * the session key is the message key.
 *
 * In both, the plaintext is cut into chunks of 2^(c+6) bytes, each
 * encrypted with its own nonce and followed by its 16-byte tag, and a
 * final tag over the total length ends the packet, so that a message
 * cut at a chunk boundary is refused as well.  Reading releases a
 * chunk's plaintext only after its tag (and, for the last chunk, the
 * final tag) has been checked; memory is one chunk, at most 4 MiB.
 */
#ifndef SFENC_SEIPD2_H
#define SFENC_SEIPD2_H

#include <stddef.h>
#include <gpg-error.h>

#include "libsfcipher.h"
#include "aead.h"
#include "iobuf.h"

/* AEAD algorithm ids (RFC 9580 9.6).  */
enum
  {
    AEAD_ALGO_EAX = 1,
    AEAD_ALGO_OCB = 2,
    AEAD_ALGO_GCM = 3
  };

#define AEAD_TAGLEN 16
#define AEAD_MAX_NONCE 16
#define SEIPD2_SALTLEN 32

/* Chunk size octets: 0 (64 bytes) to 16 (4 MiB), the range RFC 9580
 * allows; sfenc reads no larger chunks of the LibrePGP packet either,
 * since a chunk is held in memory until its tag is checked.  */
#define AEAD_MAX_CHUNK_OCTET 16

/* The AEAD algorithm named NAME (OCB, EAX, GCM, any case, or the id in
 * decimal); 0 if there is none.  */
int aead_algo_from_name (const char *name);

/* "OCB", "EAX", "GCM", or "?".  */
const char *aead_algo_name (int algo);

/* The nonce length of ALGO in packets with tag TAG (GCM is not defined
 * for LibrePGP's packet); 0 if ALGO cannot be used there.  */
size_t aead_nonce_len (int tag, int algo);

/* Open *R_HD for SPEC and ALGO in secure memory, keyed with KEY of
 * SPEC's key length.  A cipher without 128-bit blocks is refused with
 * a message for WHAT.  */
gpg_error_t aead_open (sf_aead_hd_t *r_hd, const sf_cipher_spec_t *spec,
                       int algo, const unsigned char *key,
                       const char *what);

/* The header of an AEAD-protected data packet.  */
typedef struct aead_header
{
  int tag;                      /* PKT_ENCRYPTED_MDC or PKT_AEAD_ENCRYPTED.  */
  int cipher_algo;
  int aead_algo;
  int chunk_octet;
  unsigned char salt[SEIPD2_SALTLEN];   /* SEIPD v2.  */
  unsigned char iv[AEAD_MAX_NONCE];     /* LibrePGP: the starting IV.  */
} aead_header_t;

/* Read the header of the packet with tag TAG from BODY into H: for
 * SEIPD, what follows the version octet (already read); for tag 20,
 * from the version octet on.  Unsupported versions, algorithms and
 * chunk sizes are refused, each named.  */
gpg_error_t aead_header_read (packet_body_t *body, int tag, aead_header_t *h);

/* The plaintext of an AEAD-protected data packet, as a source.  */
typedef struct aead_source aead_source_t;

/* Decrypt the rest of BODY, whose header is H, with the cipher SPEC
 * and the session KEY (SPEC's key length).  */
gpg_error_t aead_source_open (aead_source_t **r_as, packet_body_t *body,
                              const aead_header_t *h,
                              const sf_cipher_spec_t *spec,
                              const unsigned char *key);
gpg_error_t aead_source_read (void *ctx, unsigned char *buf, size_t size,
                              size_t *nread);
/* Wipe and free AS; NULL is allowed.  */
void aead_source_close (aead_source_t *as);

/* Writing: an AEAD-protected data packet as a sink.  */
typedef struct aead_writer aead_writer_t;

/* Start a packet with tag TAG (SEIPD v2 or LibrePGP's) for SPEC, ALGO
 * and chunks of 2^(CHUNK_OCTET + 6) bytes, protected by the session
 * KEY, and write its header into SINK.  */
gpg_error_t aead_writer_open (aead_writer_t **r_aw, int tag,
                              const sf_cipher_spec_t *spec, int algo,
                              int chunk_octet, const unsigned char *key,
                              sink_fn_t sink, void *sink_ctx);
gpg_error_t aead_writer_sink (void *ctx, const unsigned char *buf,
                             size_t len);
/* End the last chunk, write the final tag and end the packet.  */
gpg_error_t aead_writer_finish (aead_writer_t *aw);
/* Wipe and free AW; NULL is allowed.  */
void aead_writer_close (aead_writer_t *aw);

#endif /*SFENC_SEIPD2_H*/
