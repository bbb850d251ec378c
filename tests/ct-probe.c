/* ct-probe.c - run one implementation with its key or its data marked
 * secret, for the constant-time check (ctgrind.sh)
 *
 * Under valgrind's memcheck, bytes marked undefined with a client
 * request behave as secrets: memcheck reports every conditional jump
 * that depends on them and every memory access whose address does.
 * Marking the key (and separately the data) undefined before a key
 * setup and a round of encryption and decryption therefore shows
 * whether an implementation branches or indexes memory on secrets:
 * the check Adam Langley called ctgrind.  Outside valgrind the client
 * requests do nothing, so the probe also runs as an ordinary program.
 *
 * A block cipher of the table runs, each step with its own key setup:
 *   - CFB, encrypting and decrypting;
 *   - the same through the MDC's path, CFB with SHA-1 of the plaintext
 *     (sf_cipher_encrypt_sha1), which takes the spec's stitched entry
 *     where it has one that can run.  Valgrind 3.19 hides the SHA
 *     instructions on x86, so there the path seen is the generic one,
 *     the spec's CFB and sfenc's portable SHA-1;
 *   - ECB and CBC, both ways: their decryption is the only step that
 *     runs a 64-bit cipher's DECRYPT and its ECB and CBC decryption
 *     bulk functions (CFB decrypts with the cipher's encryption);
 *   - for a 128-bit block, OCB, EAX and GCM: the spec's OCB entry when
 *     it has one, CMAC, and the GHASH that sf_ghash_setkey chooses
 *     (valgrind hides VAES, VPCLMULQDQ and AVX-512, so AES-NI's
 *     128-bit kernels and PCLMULQDQ's GHASH are the ones seen there).
 * Besides the table:
 *   - GHASH IMPL, each usable GHASH implementation directly, with H
 *     from the key and the data hashed;
 *   - HKDF SHA256, g10/hkdf.c over libgcrypt's HMAC-SHA256, the key as
 *     input keying material and the data as salt and info.
 * Only tags are made, never compared: the comparison ends in a branch
 * on a result that is public by design.
 *
 * The probe registers a control, ct-leak.c, which ct-leak.pl makes
 * from cipher/rijndael-ct.c with one table load indexed by the state:
 * implementation "ct-leak", claiming "constant", which ctgrind.sh
 * requires to show reports.
 *
 *   ct-probe [--load-extension FILE]... ALGO IMPL key|data
 *   ct-probe [--load-extension FILE]... --list
 *                            what can be probed and its timing claim,
 *                            "ALGO IMPL CLAIM", one per line
 *   ct-probe [--load-extension FILE]... --list-loaded
 *                            the same for the loaded modules' ciphers
 *                            alone (a module author's check)
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
#include "aead-internal.h"
#include "hkdf.h"

/* Enough blocks for the bulk functions' widest paths (16 blocks with
 * VAES), plus a partial block.  */
#define DATA_LEN (64 * 16 + 5)

/* The blocks GHASH hashes: 63 = 7 * 8 + 7 = 15 * 4 + 3 = 3 * 16 + 15,
 * so that both the bulk loops (8 blocks at a time for pclmul, 4 for
 * pmull, 16 for vpclmul) and the tails of single blocks after them
 * run.  */
#define GHASH_BLOCKS (DATA_LEN / AEAD_BLOCK - 1)

/* The control: ct-leak.c's module, whose exported sf_module the
 * Makefile renames.  */
extern const sf_module_t sf_ct_leak_module;
/* The origin the control is registered under.  */
#define CONTROL_ORIGIN "ct-leak.c"

/* The GHASH implementations, probed directly.  */
static const struct
{
  const char *name;
  int (*usable) (void);         /* NULL: always.  */
  void (*setkey) (sf_ghash_key_t *key, const unsigned char h[AEAD_BLOCK]);
} ghash_impls[] =
  {
    { "ref", NULL, sf_ghash_setkey_ref },
    { "pclmul", sf_ghash_pclmul_usable, sf_ghash_setkey_pclmul },
    { "vpclmul", sf_ghash_vpclmul_usable, sf_ghash_setkey_vpclmul },
    { "pmull", sf_ghash_pmull_usable, sf_ghash_setkey_pmull }
  };

#define N_GHASH_IMPLS (sizeof ghash_impls / sizeof *ghash_impls)


/* Encrypt and decrypt DATA_LEN bytes of BUF in CFB, in place, with a
 * cipher keyed by KEY.  */
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


/* The whole blocks of BUF in MODE (ECB or CBC), encrypted, then
 * decrypted, in place.  */
static void
run_block_mode (const sf_cipher_spec_t *spec, enum sf_cipher_mode mode,
                const unsigned char *key, unsigned char *buf)
{
  size_t len = DATA_LEN - DATA_LEN % spec->blocksize;
  sf_cipher_hd_t hd = open_keyed (spec, mode, key, spec->keylen, NULL);

  sf_cipher_encrypt (hd, buf, buf, len);
  if (mode != SF_MODE_ECB)
    sf_cipher_setiv (hd, NULL, spec->blocksize);
  sf_cipher_decrypt (hd, buf, buf, len);
  sf_cipher_close (hd);
}


/* MODE's encryption and decryption of DATA_LEN bytes of BUF in place,
 * with associated data, the data in two calls (three blocks, which an
 * OCB entry takes one by one, then the rest, whole runs and single
 * blocks and a partial one), each with the nonce length RFC 9580
 * gives the mode.  */
static void
run_aead (const sf_cipher_spec_t *spec, enum sf_aead_mode mode,
          const unsigned char *key, unsigned char *buf)
{
  static const unsigned char nonce[16] = { 1, 2, 3, 4, 5, 6, 7, 8, 9 };
  size_t noncelen = mode == SF_AEAD_OCB ? 15 : mode == SF_AEAD_EAX ? 16 : 12;
  unsigned char ad[40], tag[16];
  sf_aead_hd_t hd;
  int encrypting;

  memcpy (ad, buf, sizeof ad);
  if (sf_aead_open (&hd, spec, mode, sizeof tag, 0)
      || sf_aead_setkey (hd, key, spec->keylen))
    exit (1);
  for (encrypting = 1; encrypting >= 0; encrypting--)
    {
      gpg_error_t (*crypt) (sf_aead_hd_t, void *, const void *, size_t)
        = encrypting ? sf_aead_encrypt : sf_aead_decrypt;

      sf_aead_setnonce (hd, nonce, noncelen);
      sf_aead_authenticate (hd, ad, sizeof ad);
      crypt (hd, buf, buf, 48);
      crypt (hd, buf + 48, buf + 48, DATA_LEN - 48);
      sf_aead_gettag (hd, tag, sizeof tag);
    }
  sf_aead_close (hd);
}


static void
run_cipher (const sf_cipher_spec_t *spec, const unsigned char *key,
            unsigned char *buf)
{
  run_cfb (spec, key, buf);
  run_cfb_sha1 (spec, key, buf);
  run_block_mode (spec, SF_MODE_ECB, key, buf);
  run_block_mode (spec, SF_MODE_CBC, key, buf);
  if (spec->blocksize == AEAD_BLOCK)
    {
      run_aead (spec, SF_AEAD_OCB, key, buf);
      run_aead (spec, SF_AEAD_EAX, key, buf);
      run_aead (spec, SF_AEAD_GCM, key, buf);
    }
}


/* GHASH implementation number IMPL over GHASH_BLOCKS blocks of BUF,
 * with H the first block of KEY.  */
static void
run_ghash (size_t impl, const unsigned char *key, const unsigned char *buf)
{
  sf_ghash_key_t ghash_key;
  unsigned char y[AEAD_BLOCK] = { 0 };

  ghash_impls[impl].setkey (&ghash_key, key);
  sf_ghash_blocks (&ghash_key, y, buf, GHASH_BLOCKS);
}


/* HKDF-SHA256 as for a SEIPD v2 packet's message key and nonce: 32
 * bytes of input keying material (KEY), a 32-byte salt and 5 bytes of
 * info (BUF), 48 bytes of output, two blocks of the expansion.  */
static void
run_hkdf (const unsigned char *key, const unsigned char *buf)
{
  unsigned char okm[48];

  if (hkdf (GCRY_MD_SHA256, buf, 32, key, 32, buf + 32, 5, okm, sizeof okm))
    exit (1);
}


static int
ghash_usable (size_t impl)
{
  return !ghash_impls[impl].usable || ghash_impls[impl].usable ();
}

/* The control's AES192 and AES256 run the same code as its AES: only
 * the module's first spec is probed.  */
static int
control_repeat (const sf_cipher_spec_t *spec)
{
  size_t i;

  for (i = 1; sf_ct_leak_module.specs[i]; i++)
    if (spec == sf_ct_leak_module.specs[i])
      return 1;
  return 0;
}

/* Print what can be probed: everything, or, when LOADED_ONLY, the
 * ciphers of the modules named with --load-extension.  */
static void
list_usable (int loaded_only)
{
  const sf_table_entry_t *e;
  size_t i;

  for (i = 0; (e = sf_table_nth (i)); i++)
    if (sf_spec_usable (e->spec) && !control_repeat (e->spec)
        && (!loaded_only
            || (e->origin && strcmp (e->origin, CONTROL_ORIGIN))))
      printf ("%s %s %s\n", e->spec->name, e->spec->impl,
              sf_timing_name (sf_spec_timing (e->spec)));
  if (loaded_only)
    return;
  for (i = 0; i < N_GHASH_IMPLS; i++)
    if (ghash_usable (i))
      printf ("GHASH %s constant\n", ghash_impls[i].name);
  printf ("HKDF SHA256 constant\n");
}


int
main (int argc, char **argv)
{
  const sf_cipher_spec_t *spec = NULL;
  unsigned char key[64], buf[DATA_LEN];
  char why[256] = "";
  size_t ghash = N_GHASH_IMPLS;
  int hkdf_sha256;

  test_init ("ct-probe");
  if (sf_table_register_module (&sf_ct_leak_module, CONTROL_ORIGIN,
                                why, sizeof why))
    {
      fprintf (stderr, "ct-probe: the control was refused: %s\n", why);
      return 1;
    }
  while (argc >= 3 && !strcmp (argv[1], "--load-extension"))
    {
      if (sf_module_load (argv[2], why, sizeof why))
        {
          fprintf (stderr, "ct-probe: %s: %s\n", argv[2], why);
          return 2;
        }
      argc -= 2;
      argv += 2;
    }
  if (argc == 2 && (!strcmp (argv[1], "--list")
                    || !strcmp (argv[1], "--list-loaded")))
    {
      list_usable (!strcmp (argv[1], "--list-loaded"));
      return 0;
    }
  if (argc != 4 || (strcmp (argv[3], "key") && strcmp (argv[3], "data")))
    {
      fprintf (stderr, "usage: ct-probe [--load-extension FILE]..."
               " ALGO IMPL key|data\n");
      return 2;
    }
  hkdf_sha256 = !strcmp (argv[1], "HKDF") && !strcmp (argv[2], "SHA256");
  if (!strcmp (argv[1], "GHASH"))
    for (ghash = 0; ghash < N_GHASH_IMPLS; ghash++)
      if (!strcmp (argv[2], ghash_impls[ghash].name) && ghash_usable (ghash))
        break;
  if (!hkdf_sha256 && ghash == N_GHASH_IMPLS
      && sf_table_find (argv[1], argv[2], &spec))
    {
      fprintf (stderr, "ct-probe: %s/%s is not usable here\n", argv[1],
               argv[2]);
      return 77;
    }
  prng_seed ();
  prng_fill (key, sizeof key);
  prng_fill (buf, sizeof buf);
  if (!strcmp (argv[3], "key"))
    VALGRIND_MAKE_MEM_UNDEFINED (key, sizeof key);
  else
    VALGRIND_MAKE_MEM_UNDEFINED (buf, sizeof buf);
  if (hkdf_sha256)
    run_hkdf (key, buf);
  else if (ghash < N_GHASH_IMPLS)
    run_ghash (ghash, key, buf);
  else
    run_cipher (spec, key, buf);
  return 0;
}
