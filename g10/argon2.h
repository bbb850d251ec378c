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

/* The most work an Argon2 S2K may ask of sfenc unless
 * --s2k-argon2-max-work says otherwise, in MiB of memory passes
 * (passes times memory; the lanes share the memory, so they divide
 * the work among threads rather than add to it).  Without a cap, a
 * message of 255 passes over 2 GiB, within RFC 9580's ranges, would
 * hold decryption for a quarter of an hour before a wrong passphrase
 * can be reported.  The default is 4 times RFC 9106's first
 * recommended setting (1 pass over 2 GiB) and 42 times its second
 * (3 passes over 64 MiB); in fuzz builds, a few milliseconds.  */
#ifdef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
# define ARGON2_DEFAULT_MAX_WORK_MIB 2
#else
# define ARGON2_DEFAULT_MAX_WORK_MIB 8192
#endif

/* The largest value --s2k-argon2-max-work takes: 255 passes over
 * 2^ARGON2_MAX_MEMORY_EXP KiB.  */
#define ARGON2_MAX_WORK_MIB (255ul << (ARGON2_MAX_MEMORY_EXP - 10))

/* The least memory exponent RFC 9580 allows with PARALLELISM lanes.  */
unsigned int argon2_min_memory_exp (unsigned int parallelism);

/* Derive KEYLEN bytes of KEY from PASSPHRASE with Argon2id, version
 * 0x13, SALT, T passes, P lanes and 2^M KiB of memory (no secret, no
 * associated data).  The lanes of each slice run on up to one thread
 * per CPU.  */
/* The work of T passes over 2^M KiB in KiB (T <= 255, M <= 31).  */
unsigned long long argon2_work_kib (unsigned int t, unsigned int m);

/* Whether T passes over 2^M KiB are within --s2k-argon2-max-work.  */
int argon2_work_allowed (unsigned int t, unsigned int m);

gpg_error_t argon2_derive (const unsigned char salt[ARGON2_SALTLEN],
                           unsigned int t, unsigned int p, unsigned int m,
                           const char *passphrase,
                           unsigned char *key, size_t keylen);

#endif /*SFENC_ARGON2_H*/
