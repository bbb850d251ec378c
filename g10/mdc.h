/* mdc.h - the SHA-1 of the MDC, with the CFB it runs beside
 *
 * An SEIPD v1 packet (RFC 4880 5.13) encrypts with CFB, and its MDC
 * packet (5.14) carries the SHA-1 of the plaintext before it.  An
 * mdc_t hashes that plaintext in step with the cipher: mdc_encrypt
 * hashes and encrypts, mdc_decrypt decrypts and hashes, so that the
 * hash and the cipher stream stay at the same position and stitched
 * code can do both in one pass.
 */
#ifndef SFENC_MDC_H
#define SFENC_MDC_H

#include "libsfcipher.h"

typedef struct mdc mdc_t;

/* Start the hash of a message encrypted by CIPHER (full-block CFB):
 * sfenc's own SHA-1, stitched with CIPHER where its implementation
 * can, or libgcrypt's with --cipher-impl gcrypt, so that this choice
 * stays all libgcrypt as a reference.  Says which with -v.  */
gpg_error_t mdc_open (mdc_t **r_mdc, sf_cipher_hd_t cipher);

/* Free MDC; NULL is allowed.  */
void mdc_close (mdc_t *mdc);

/* Hash LEN bytes of plaintext IN and encrypt them to OUT with the
 * cipher of mdc_open (IN == OUT allowed).  */
gpg_error_t mdc_encrypt (mdc_t *mdc, unsigned char *out,
                         const unsigned char *in, size_t len);

/* Decrypt LEN bytes from IN to OUT and hash the plaintext.  */
gpg_error_t mdc_decrypt (mdc_t *mdc, unsigned char *out,
                         const unsigned char *in, size_t len);

/* Store the SHA-1 of everything hashed at DIGEST; MDC then takes no
 * more data.  */
void mdc_final (mdc_t *mdc, unsigned char digest[SF_SHA1_DIGEST_LEN]);

#endif /*SFENC_MDC_H*/
