/* aead.h - authenticated encryption (OCB, EAX, GCM) over the cipher table
 *
 * The AEAD modes of RFC 9580 (5.13.2 and 9.6), written once over any
 * spec with a 128-bit block: AES of every implementation, Twofish,
 * Camellia from a dynamic module.  Internal to libsfcipher and the
 * program: not installed.
 *
 *   OCB  RFC 7253, with its tag length parameter; nonces of 1..15
 *        bytes (RFC 9580: 15), tags of 1..16 bytes (RFC 9580: 16).
 *   EAX  Bellare, Rogaway and Wagner, "The EAX Mode of Operation"
 *        (FSE 2004), with OMAC1 (CMAC); nonces of any length
 *        (RFC 9580: 16), tags of 1..16 bytes.
 *   GCM  NIST SP 800-38D; nonces of 1 byte or more (RFC 9580: 12,
 *        the fast path), tags of 4, 8 or 12..16 bytes (5.2.1.2).
 *
 * A message is: sf_aead_setnonce, then sf_aead_authenticate any number
 * of times, then sf_aead_encrypt or sf_aead_decrypt any number of
 * times, then sf_aead_gettag or sf_aead_checktag.  Lengths are free
 * (0 included, the buffer may then be NULL), with one exception that
 * OCB itself imposes: the ciphertext of a partial block depends on
 * whether it is the message's last, so in OCB every encrypt or decrypt
 * call but the last must be a multiple of 16 bytes; a call that is not
 * ends the message's data.  Associated data never has that limit.
 * OUT may be IN; otherwise they do not overlap.
 *
 * Errors: GPG_ERR_INV_CIPHER_MODE (a 64-bit block cipher, an unknown
 * mode), GPG_ERR_INV_LENGTH (tag or nonce length the mode does not
 * take, more data than GCM allows), GPG_ERR_MISSING_KEY,
 * GPG_ERR_INV_STATE (no nonce for this message, as in libgcrypt;
 * associated data after data; data after the tag or after OCB's last
 * partial block), GPG_ERR_CHECKSUM (the tag does not match).
 *
 * A handle is not shared between threads without locking.
 */
#ifndef SF_AEAD_H
#define SF_AEAD_H

#include <stddef.h>
#include "libsfcipher.h"

enum sf_aead_mode
  {
    SF_AEAD_OCB = 1,
    SF_AEAD_EAX,
    SF_AEAD_GCM
  };

#define SF_AEAD_BLOCKSIZE 16
#define SF_AEAD_MAX_TAGLEN 16

typedef struct sf_aead_hd *sf_aead_hd_t;

/* Open a handle for SPEC in MODE producing tags of TAGLEN bytes.
 * FLAGS may be SF_CIPHER_SECURE: the key schedule and everything
 * derived from the key go to libgcrypt's secure memory.  */
gpg_error_t sf_aead_open (sf_aead_hd_t *r_hd, const sf_cipher_spec_t *spec,
                          enum sf_aead_mode mode, size_t taglen,
                          unsigned int flags);

/* Wipe and free HD.  NULL is allowed.  */
void sf_aead_close (sf_aead_hd_t hd);

/* Set the key; a message then needs a nonce.  */
gpg_error_t sf_aead_setkey (sf_aead_hd_t hd, const void *key, size_t keylen);

/* Start a message with NONCE of NONCELEN bytes.  */
gpg_error_t sf_aead_setnonce (sf_aead_hd_t hd, const void *nonce,
                              size_t noncelen);

/* Add LEN bytes of associated data, before any encrypt or decrypt.  */
gpg_error_t sf_aead_authenticate (sf_aead_hd_t hd, const void *ad, size_t len);

/* Encrypt or decrypt LEN bytes from IN to OUT.  */
gpg_error_t sf_aead_encrypt (sf_aead_hd_t hd, void *out, const void *in,
                             size_t len);
gpg_error_t sf_aead_decrypt (sf_aead_hd_t hd, void *out, const void *in,
                             size_t len);

/* End the message and store its tag, TAGLEN bytes (the length given
 * to sf_aead_open), at TAG.  May be called again for the same tag.  */
gpg_error_t sf_aead_gettag (sf_aead_hd_t hd, void *tag, size_t taglen);

/* End the message and compare its tag with TAG, in time independent
 * of where they differ: 0 or GPG_ERR_CHECKSUM.  */
gpg_error_t sf_aead_checktag (sf_aead_hd_t hd, const void *tag,
                              size_t taglen);

/* "OCB", "EAX", "GCM"; "?" for anything else.  */
const char *sf_aead_mode_name (enum sf_aead_mode mode);

/* "vpclmul", "pclmul", "pmull" or "ref": the GHASH implementation
 * GCM uses here, chosen once (SFENC_DISABLE_HWF=vpclmul, =pclmul or
 * =arm-pmull narrow the choice).  */
const char *sf_ghash_impl_name (void);

#endif /*SF_AEAD_H*/
