/* hkdf.h - HKDF, the HMAC-based key derivation function of RFC 5869
 */
#ifndef SFENC_HKDF_H
#define SFENC_HKDF_H

#include <stddef.h>
#include <gpg-error.h>

/* Derive OKMLEN bytes of OKM from the input keying material IKM with
 * HMAC over the libgcrypt hash MD_ALGO: extract with SALT (NULL or
 * empty means HashLen zero bytes, as RFC 5869 2.2 says), then expand
 * with INFO.  OKMLEN may be at most 255 times the hash length
 * (GPG_ERR_INV_LENGTH).  OKM may be IKM: the input is read before
 * anything is written.  Intermediate values live in secure memory and
 * are wiped.  */
gpg_error_t hkdf (int md_algo, const void *salt, size_t saltlen,
                  const void *ikm, size_t ikmlen,
                  const void *info, size_t infolen,
                  void *okm, size_t okmlen);

#endif /*SFENC_HKDF_H*/
