/* argon2.h - the Argon2 S2K of RFC 9580 3.7.1.4 through libgcrypt
 */
#ifndef SFENC_ARGON2_H
#define SFENC_ARGON2_H

#include <stddef.h>
#include <gpg-error.h>

/* Salt length of the Argon2 S2K.  */
#define ARGON2_SALTLEN 16

/* The memory exponents (2^M KiB) sfenc writes and reads: RFC 9580's
 * least is 3 + ceil (log2 (parallelism)); 21 (2 GiB) is the first of
 * the RFC 9106 settings RFC 9580 recommends, and its sample messages
 * use it.  More is refused when reading, so that a message cannot make
 * sfenc allocate what it likes.  The fuzz harnesses (configure
 * --enable-fuzz) read hostile messages by the million: there 2^10 KiB,
 * so that no input takes seconds.  */
#ifdef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
# define ARGON2_MAX_MEMORY_EXP 10
#else
# define ARGON2_MAX_MEMORY_EXP 21
#endif

/* The least memory exponent RFC 9580 allows with PARALLELISM lanes.  */
unsigned int argon2_min_memory_exp (unsigned int parallelism);

/* Derive KEYLEN bytes of KEY from PASSPHRASE with Argon2id, version
 * 0x13, SALT, T passes, P lanes and 2^M KiB of memory (no secret, no
 * associated data).  The lanes of each slice run on up to one thread
 * per CPU.  */
gpg_error_t argon2_derive (const unsigned char salt[ARGON2_SALTLEN],
                           unsigned int t, unsigned int p, unsigned int m,
                           const char *passphrase,
                           unsigned char *key, size_t keylen);

#endif /*SFENC_ARGON2_H*/
