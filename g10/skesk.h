/* skesk.h - Symmetric-Key Encrypted Session Key packets (tag 3)
 *
 * Version 4 (RFC 4880 5.3, RFC 9580 5.3.1): cipher and S2K, and either
 * nothing more, the S2K key being the session key, or the session key
 * encrypted with the S2K key in CFB mode, its first octet naming the
 * data's cipher.  Version 5 (LibrePGP, as gpg 2.4 and rnp write it):
 * cipher, AEAD algorithm, S2K, IV, and the session key encrypted with
 * the S2K key in that AEAD mode, then its tag.  Version 6 (RFC 9580
 * 5.3.2): the same fields with octet counts, and the key that encrypts
 * the session key is HKDF-SHA256 of the S2K key.
 */
#ifndef SFENC_SKESK_H
#define SFENC_SKESK_H

#include <stddef.h>
#include <gpg-error.h>

#include "libsfcipher.h"
#include "iobuf.h"
#include "s2k.h"
#include "seipd2.h"

/* Largest SKESK packet gpg 2.2 accepts ("packet(3) too large"
 * beyond).  Those sfenc reads need at most 5 octets of version, counts
 * and ids, a 20-octet S2K, a 16-octet IV, a session key of 1 + 32
 * octets and a tag.  */
#define MAX_SKESK 201

/* Room for a session key.  */
#define SKESK_MAX_KEY 32

typedef struct skesk
{
  int version;                  /* 4, 5 or 6.  */
  int cipher_algo;
  int aead_algo;                /* Versions 5 and 6.  */
  s2k_t s2k;
  unsigned char iv[AEAD_MAX_NONCE];
  unsigned char esk[MAX_SKESK]; /* The encrypted session key (and tag).  */
  size_t esklen;
} skesk_t;

/* Read the SKESK packet HDR from IN into SK, checking what gpg checks
 * in every SKESK, used or not: the size, the version, the algorithms
 * and the S2K.  What sfenc does not support is named in the error.  */
gpg_error_t skesk_parse (reader_t *in, const packet_header_t *hdr,
                         skesk_t *sk);

/* Recover the session key of SK, whose cipher is SPEC, with PASS:
 * store it at KEY (secure memory of SKESK_MAX_KEY bytes), its length
 * at *R_KEYLEN and the cipher of the data at *R_ALGO; for versions 5
 * and 6 that is 0: the data packet names it.  */
gpg_error_t skesk_decrypt (const skesk_t *sk, const sf_cipher_spec_t *spec,
                           const char *pass, unsigned char *key,
                           size_t *r_keylen, int *r_algo);

/* An SKESK packet made for writing, and the session key it holds.  */
typedef struct skesk_out
{
  unsigned char packet[MAX_SKESK + 8];
  size_t len;
  unsigned char *key;           /* Secure memory, SPEC's key length.  */
} skesk_out_t;

/* Make the SKESK packet of VERSION (4, 5 or 6) for the cipher SPEC,
 * the S2K and PASS: for version 4 the S2K key is the session key, for
 * 5 and 6 a random session key is encrypted with ALGO.  */
gpg_error_t skesk_make (skesk_out_t *out, int version,
                        const sf_cipher_spec_t *spec, int algo,
                        const s2k_t *s2k, const char *pass);

/* Wipe the session key of OUT.  */
void skesk_out_release (skesk_out_t *out);

#endif /*SFENC_SKESK_H*/
