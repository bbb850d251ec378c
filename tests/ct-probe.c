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
 * The probe also runs CFB with the MDC's SHA-1 and, for a 128-bit
 * block, OCB, which reaches the spec's OCB entry when it has one
 * (valgrind hides VAES and AVX-512, so AES-NI's 128-bit kernels are
 * the ones seen there).  Valgrind 3.19 hides the SHA instructions
 * too, so the MDC's path seen is the generic one, the spec's CFB and
 * sfenc's portable SHA-1; the stitched kernels run the same rounds
 * with SHA instructions between them, which do not branch.
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
#include "aead.h"

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


/* The same through the MDC's path, CFB with SHA-1 of the plaintext
 * (sf_cipher_encrypt_sha1), which takes the spec's stitched entry
 * where it has one that can run.  */
static void
run_cfb_sha1 (const sf_cipher_spec_t *spec, const unsigned char *key,
              unsigned char *buf)
{
  sf_cipher_hd_t hd = open_keyed (spec, SF_MODE_CFB, key, spec->keylen,
                                  NULL);
  sf_sha1_t md;

  sf_sha1_init (&md);
  sf_cipher_encrypt_sha1 (hd, buf, buf, DATA_LEN, &md);
  sf_cipher_setiv (hd, NULL, spec->blocksize);
  sf_cipher_decrypt_sha1 (hd, buf, buf, DATA_LEN, &md);
  sf_cipher_close (hd);
}


/* OCB encryption and decryption of DATA_LEN bytes of BUF in place,
 * with associated data, the data in two calls (three blocks, which
 * an entry takes one by one, then the rest, whole runs and single
 * blocks and a partial one).  Only the tags are made: comparing one
 * ends in a branch on a result that is public by design.  */
static void
run_ocb (const sf_cipher_spec_t *spec, const unsigned char *key,
         unsigned char *buf)
{
  static const unsigned char nonce[15] = { 1, 2, 3, 4, 5, 6, 7, 8, 9 };
  unsigned char ad[40], tag[16];
  sf_aead_hd_t hd;
  int encrypting;

  if (spec->blocksize != 16)
    return;
  memcpy (ad, buf, sizeof ad);
  if (sf_aead_open (&hd, spec, SF_AEAD_OCB, sizeof tag, 0)
      || sf_aead_setkey (hd, key, spec->keylen))
    exit (1);
  for (encrypting = 1; encrypting >= 0; encrypting--)
    {
      gpg_error_t (*crypt) (sf_aead_hd_t, void *, const void *, size_t)
        = encrypting ? sf_aead_encrypt : sf_aead_decrypt;

      sf_aead_setnonce (hd, nonce, sizeof nonce);
      sf_aead_authenticate (hd, ad, sizeof ad);
      crypt (hd, buf, buf, 48);
      crypt (hd, buf + 48, buf + 48, DATA_LEN - 48);
      sf_aead_gettag (hd, tag, sizeof tag);
    }
  sf_aead_close (hd);
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
  run_cfb_sha1 (spec, key, buf);
  run_ocb (spec, key, buf);
  return 0;
}
