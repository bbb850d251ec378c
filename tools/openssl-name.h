/* openssl-name.h - find OpenSSL's cipher for an algorithm of the table
 * (openssl-name.c)
 */
#ifndef SFENC_OPENSSL_NAME_H
#define SFENC_OPENSSL_NAME_H

#include <stddef.h>

/* OpenSSL's name, without its mode, of the cipher that OpenSSL's own
 * look-up (EVP_CIPHER_fetch) finds under NAME or one of ALIASES (NULL
 * terminated, or NULL), and whose key and block are KEYLEN and
 * BLOCKSIZE bytes: "CAMELLIA-128" for CAMELLIA128, "BF" for BLOWFISH,
 * to which "-CFB" and the like append a mode.  Writes it to STEM
 * (STEMLEN bytes) and returns 1; returns 0 when OpenSSL has no such
 * cipher, or when the program is built without OpenSSL.  Loads
 * OpenSSL's legacy provider beside the default one, the first time,
 * for Blowfish and CAST5.  */
int openssl_cipher_stem (const char *name, const char *const *aliases,
                         size_t keylen, size_t blocksize,
                         char *stem, size_t stemlen);

#endif /*SFENC_OPENSSL_NAME_H*/
