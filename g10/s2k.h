/* s2k.h - OpenPGP string-to-key (s2k.c; Argon2 in argon2.c)
 */
#ifndef SFENC_S2K_H
#define SFENC_S2K_H

#include <stddef.h>
#include <gpg-error.h>

/* S2K specifier types (RFC 9580 3.7.1).  */
enum
  {
    S2K_SIMPLE = 0,
    S2K_SALTED = 1,
    S2K_ITERSALTED = 3,
    S2K_ARGON2 = 4
  };

typedef struct s2k
{
  int mode;                     /* One of the S2K types above.  */
  int hash_algo;                /* OpenPGP id = libgcrypt id.  */
  unsigned char salt[16];       /* 8 bytes, 16 for Argon2.  */
  unsigned char count_byte;
  /* Argon2: passes, lanes, memory as the exponent of 2^M KiB.  */
  unsigned char argon2_t, argon2_p, argon2_m;
} s2k_t;

/* The OpenPGP id of the hash NAME as gpg reads it, its name or H and
 * its id ("H8"); 0 if unknown.  */
int digest_algo_from_name (const char *name);
const char *digest_algo_name (int algo);
/* True for the hashes the S2K may use here.  */
int digest_algo_supported (int algo);
unsigned char s2k_encode_count (unsigned long count);
unsigned long s2k_decode_count (unsigned char c);
/* Derive KEYLEN bytes of KEY from the passphrase.  */
gpg_error_t s2k_derive (const s2k_t *s2k, const char *passphrase,
                        unsigned char *key, size_t keylen);

#endif /*SFENC_S2K_H*/
