/* ct-probe.c - run one implementation with its key or its data marked
 * secret, for the constant-time check (ctgrind.sh)
 *
 * Under valgrind's memcheck, bytes marked undefined with a client
 * request behave as secrets: memcheck reports every conditional jump
 * that depends on them and every memory access whose address does.
 * Marking the key (and separately the plaintext) undefined before a
 * key setup and a round of encryption and decryption therefore shows
 * whether an implementation branches or indexes memory on secrets:
 * the check Adam Langley called ctgrind.  Outside valgrind the client
 * requests do nothing, so the probe also runs as an ordinary program.
 *
 *   ct-probe ALGO IMPL key|data
 *   ct-probe --list          the usable implementations and their timing
 *                            claims, "ALGO IMPL CLAIM"
 *
 * The probe itself never branches on what it computed.
 */
#include <config.h>

#ifdef HAVE_VALGRIND_MEMCHECK_H
# include <valgrind/memcheck.h>
#else
/* ctgrind.sh refuses to run without valgrind; the probe still builds.  */
# define VALGRIND_MAKE_MEM_UNDEFINED(addr, len) ((void)(addr), (void)(len))
#endif

#include "t-common.h"

/* Enough blocks for the bulk functions' widest paths (16 blocks with
 * VAES), plus a partial block.  */
#define DATA_LEN (64 * 16 + 5)


/* Encrypt and decrypt DATA_LEN bytes of PLAIN in CFB, in place, with
 * a cipher keyed by KEY.  */
static void
run_cfb (const sf_cipher_spec_t *spec, const unsigned char *key,
         unsigned char *buf)
{
  sf_cipher_hd_t hd = open_keyed (spec, SF_MODE_CFB, key, spec->keylen,
                                  NULL);

  sf_cipher_encrypt (hd, buf, buf, DATA_LEN);
  sf_cipher_setiv (hd, NULL, spec->blocksize);
  sf_cipher_decrypt (hd, buf, buf, DATA_LEN);
  sf_cipher_close (hd);
}


static void
list_usable (void)
{
  const sf_table_entry_t *e;
  size_t i;

  for (i = 0; (e = sf_table_nth (i)); i++)
    if (sf_spec_usable (e->spec))
      printf ("%s %s %s\n", e->spec->name, e->spec->impl,
              sf_timing_name (sf_spec_timing (e->spec)));
}


int
main (int argc, char **argv)
{
  const sf_cipher_spec_t *spec;
  unsigned char key[64], buf[DATA_LEN];
  int secret_key;

  test_init ("ct-probe");
  if (argc == 2 && !strcmp (argv[1], "--list"))
    {
      list_usable ();
      return 0;
    }
  if (argc != 4 || (strcmp (argv[3], "key") && strcmp (argv[3], "data")))
    {
      fprintf (stderr, "usage: ct-probe ALGO IMPL key|data\n");
      return 2;
    }
  if (sf_table_find (argv[1], argv[2], &spec))
    {
      fprintf (stderr, "ct-probe: %s/%s is not usable here\n", argv[1],
               argv[2]);
      return 77;
    }
  secret_key = !strcmp (argv[3], "key");
  prng_seed ();
  prng_fill (key, sizeof key);
  prng_fill (buf, sizeof buf);
  if (secret_key)
    VALGRIND_MAKE_MEM_UNDEFINED (key, sizeof key);
  else
    VALGRIND_MAKE_MEM_UNDEFINED (buf, sizeof buf);
  run_cfb (spec, key, buf);
  return 0;
}
