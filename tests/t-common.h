/* t-common.h - what every C test shares: set-up, checks, vectors, PRNG
 *
 * Each test is a small program that prints one line per failed check
 * on stderr, a summary "N passed, N failed" on stdout, and exits 1 if
 * anything failed (77, automake's SKIP, is never used: a missing peer
 * is a failure, not a skip).
 */
#ifndef T_COMMON_H
#define T_COMMON_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <gcrypt.h>

#include "libsfcipher.h"

extern unsigned long test_passed, test_failed;
extern const char *test_name;

#define check(cond, ...)                                                \
  do {                                                                  \
    if (cond)                                                           \
      test_passed++;                                                    \
    else                                                                \
      {                                                                 \
        test_failed++;                                                  \
        fprintf (stderr, "%s: FAIL at %s:%d: ", test_name,              \
                 __FILE__, __LINE__);                                   \
        fprintf (stderr, __VA_ARGS__);                                  \
        fputc ('\n', stderr);                                           \
      }                                                                 \
  } while (0)

/* The test source directory, which holds vectors/: $srcdir when set
 * (make check sets it), else the one this program was built from, so
 * that a test program also runs by hand, from any directory and from
 * an out-of-tree build.  */
const char *test_srcdir (void);

/* Initialise libgcrypt as the program does and fill the cipher table.  */
void test_init (const char *name);
/* Load the dynamic modules named by the arguments ARGV[1..ARGC-1].  */
void test_load_modules (int argc, char **argv);
/* Print the summary; return the exit status.  */
int test_finish (void);

/* A reproducible PRNG: seeded from SFENC_TEST_SEED or a nonce, and
 * the seed printed so that a failure can be replayed.  */
void prng_seed (void);
uint64_t prng_next (void);
void prng_fill (void *buf, size_t len);
size_t prng_below (size_t n);

/* A growing buffer in memory, as the stages' sink in the tests.  */
struct test_buf
{
  unsigned char *data;
  size_t len;
  size_t size;
};

/* Append LEN bytes at DATA to B, or exit when out of memory.  */
void test_buf_put (struct test_buf *b, const void *data, size_t len);

/* Decode HEXLEN hex characters at HEX into a fresh buffer of *R_LEN
 * bytes; NULL on bad input.  */
unsigned char *hex_to_bytes (const char *hex, size_t hexlen, size_t *r_len);

/* Open SPEC in MODE keyed with KEY and IV (NULL: zero), or exit.  */
sf_cipher_hd_t open_keyed (const sf_cipher_spec_t *spec,
                           enum sf_cipher_mode mode,
                           const unsigned char *key, size_t keylen,
                           const unsigned char *iv);

/* Set KEY on libgcrypt's handle GHD, opened with weak keys allowed:
 * libgcrypt still reports a weak key (a random Blowfish or DES key can
 * be one) though it set it, so that is no error here.  */
gpg_error_t gcry_setkey_allow_weak (gcry_cipher_hd_t ghd,
                                    const unsigned char *key, size_t len);

/* A copy of BASE named IMPL as a spec built for ABI version VERSION,
 * whose struct ends after its first SIZE bytes (offsetof the first
 * field VERSION lacks), placed right before an inaccessible page:
 * reading a field beyond them crashes.  Never freed.  */
const sf_cipher_spec_t *guarded_spec (const sf_cipher_spec_t *base,
                                      const char *impl, unsigned int version,
                                      size_t size);

#define N_MODES 6
extern const enum sf_cipher_mode all_modes[N_MODES];
const char *mode_name (enum sf_cipher_mode mode);

#endif /*T_COMMON_H*/
