/* gen-random.h - gpg's --gen-random: bytes of libgcrypt's generator
 */
#ifndef SFENC_GEN_RANDOM_H
#define SFENC_GEN_RANDOM_H

#include <stddef.h>
#include <gpg-error.h>

/* --gen-random LEVEL [COUNT]: write COUNT random bytes of libgcrypt's
 * quality LEVEL (0 weak, 1 strong, 2 very strong) to stdout, base64
 * on one line with -a; without COUNT, or with 0, until stdout can
 * take no more.  ARGS are the N_ARGS words after the options.  */
gpg_error_t gen_random_command (const char *const *args, size_t n_args);

/* --gen-prime: refused, as gpg 2.2 refuses it ("not yet
 * supported").  */
gpg_error_t gen_prime_command (void);

#endif /*SFENC_GEN_RANDOM_H*/
