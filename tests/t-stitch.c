/* t-stitch.c - CFB stitched with SHA-1, and the ABI version 2 that
 * brought it
 *
 * The paths: for every usable implementation of AES, AES192 and
 * AES256, every other one with a stitched entry (modules named on
 * the command line included), and model stitched entries written from
 * the contract for 128- and 64-bit blocks (so the mode layer's
 * switching is tested on any machine),
 * sf_cipher_encrypt_sha1 and sf_cipher_decrypt_sha1 over random
 * lengths, fed in random pieces, in place or not, at random
 * misalignments, after a random amount of data hashed before the
 * cipher stream or none (as in OpenPGP), must give the bytes of
 * sf_cipher_encrypt (decrypt) and the digest of libgcrypt's SHA-1,
 * and leave the cipher where sf_cipher_encrypt leaves it.  The aesni
 * implementations and the ref CAST5, 3DES, Blowfish and Twofish must run
 * their stitched kernels exactly when the processor has the SHA
 * extensions and SFENC_DISABLE_HWF does not turn them (or AES-NI)
 * off, and on AArch64 the armce implementations exactly when it has
 * the SHA-1 instructions and SFENC_DISABLE_HWF turns off neither
 * "arm-sha1" nor "arm-aes", so a run that silently took the generic
 * path everywhere fails.
 *
 * The table: the model entry is accepted and each deliberate flaw in
 * it (ciphertext, plaintext, hash state, chaining value) is refused
 * by the registration self-test; a spec and a module built for ABI
 * version 1 load, the spec sitting right before an inaccessible page
 * so that reading the field it lacks would crash; versions 0 and
 * SF_ABI_VERSION + 1 are refused.
 */
#include <config.h>

#include <stddef.h>

#include "t-common.h"

#define CASES_PER_SPEC 600
#define MAXLEN 5000
#define MAX_FOREIGN 200         /* Hashed before the cipher stream.  */
#define TAIL 16                 /* Encrypted after it, not hashed.  */


/*
 * The model stitched entries: the contract written the slow way over
 * the one-block encryption of BASE (libgcrypt's AES or CAST5) and the
 * portable SHA-1, the AES one with an optional flaw.
 */

enum flaw
  {
    FLAW_NONE,
    FLAW_ENC_DATA, FLAW_ENC_HASH, FLAW_ENC_IV,
    FLAW_DEC_DATA, FLAW_DEC_HASH, FLAW_DEC_IV,
    N_FLAWS
  };

static const char *const flaw_names[N_FLAWS] =
  {
    "none",
    "encryption: a ciphertext bit", "encryption: the hash state",
    "encryption: the chaining value",
    "decryption: a plaintext bit", "decryption: the hash state",
    "decryption: the chaining value"
  };

static const sf_cipher_spec_t *model_base, *model64_base;
static enum flaw model_flaw;

static void
model_crypt (const sf_cipher_spec_t *base, int encrypting, const void *ctx,
             unsigned char *iv, unsigned char *out, const unsigned char *in,
             size_t nblocks, uint32_t state[5])
{
  size_t bs = base->blocksize, len = nblocks * bs, i, j;
  unsigned char ks[SF_MAX_BLOCKSIZE], saved_iv[SF_MAX_BLOCKSIZE];
  enum flaw first = encrypting ? FLAW_ENC_DATA : FLAW_DEC_DATA;

  memcpy (saved_iv, iv, bs);
  if (encrypting)
    sf_sha1_blocks_ref (state, in, len / SF_SHA1_BLOCK_LEN);
  for (i = 0; i < len; i += bs)
    {
      base->encrypt (ctx, ks, iv);
      for (j = 0; j < bs; j++)
        {
          unsigned char c = encrypting ? in[i + j] ^ ks[j] : in[i + j];

          out[i + j] = in[i + j] ^ ks[j];
          iv[j] = c;
        }
    }
  if (!encrypting)
    sf_sha1_blocks_ref (state, out, len / SF_SHA1_BLOCK_LEN);

  if (model_flaw == first)
    out[len - 1] ^= 1;
  else if (model_flaw == first + 1)
    state[4] ^= 0x100;
  else if (model_flaw == first + 2)
    memcpy (iv, saved_iv, bs);
}

static void
model_enc (const void *ctx, unsigned char *iv, unsigned char *out,
           const unsigned char *in, size_t nblocks, uint32_t state[5])
{
  model_crypt (model_base, 1, ctx, iv, out, in, nblocks, state);
}

static void
model_dec (const void *ctx, unsigned char *iv, unsigned char *out,
           const unsigned char *in, size_t nblocks, uint32_t state[5])
{
  model_crypt (model_base, 0, ctx, iv, out, in, nblocks, state);
}

static void
model64_enc (const void *ctx, unsigned char *iv, unsigned char *out,
             const unsigned char *in, size_t nblocks, uint32_t state[5])
{
  model_crypt (model64_base, 1, ctx, iv, out, in, nblocks, state);
}

static void
model64_dec (const void *ctx, unsigned char *iv, unsigned char *out,
             const unsigned char *in, size_t nblocks, uint32_t state[5])
{
  model_crypt (model64_base, 0, ctx, iv, out, in, nblocks, state);
}

static const sf_cfb_sha1_t model_entry =
  { .hwf = NULL, .usable = NULL, .enc = model_enc, .dec = model_dec };
static const sf_cfb_sha1_t model64_entry =
  { .hwf = NULL, .usable = NULL, .enc = model64_enc, .dec = model64_dec };

static const sf_cfb_sha1_t empty_entry = { NULL, NULL, NULL, NULL };


/* Register a copy of COPY as built in; the table keeps the pointer.  */
static gpg_error_t
register_copy (const sf_cipher_spec_t *copy, char *why, size_t whylen)
{
  sf_cipher_spec_t *keep = malloc (sizeof *keep);
  gpg_error_t err;

  if (!keep)
    exit (1);
  *keep = *copy;
  err = sf_table_register (keep, NULL, why, whylen);
  if (err)
    free (keep);
  return err;
}

/* The models are accepted, each flaw refused, an entry without
 * functions is malformed.  */
static void
check_model_registration (void)
{
  sf_cipher_spec_t copy = *model64_base;
  char why[300] = "";
  gpg_error_t err;
  int flaw;

  copy.impl = "model";
  copy.cfb_sha1 = &model64_entry;
  err = register_copy (&copy, why, sizeof why);
  check (!err, "the 64-bit model entry is refused: %s", why);

  copy = *model_base;
  copy.cfb_sha1 = &model_entry;
  for (flaw = FLAW_ENC_DATA; flaw < N_FLAWS; flaw++)
    {
      model_flaw = flaw;
      copy.impl = "flawed";
      err = register_copy (&copy, why, sizeof why);
      check (gpg_err_code (err) == GPG_ERR_SELFTEST_FAILED,
             "flaw in %s not refused: %s", flaw_names[flaw],
             gpg_strerror (err));
      check (strstr (why, "stitched CFB + SHA-1") != NULL
             && strstr (why, flaw >= FLAW_DEC_DATA ? "decryption"
                                                   : "encryption"),
             "why: %s", why);
    }
  model_flaw = FLAW_NONE;
  copy.impl = "model";
  err = register_copy (&copy, why, sizeof why);
  check (!err, "the 128-bit model entry is refused: %s", why);

  copy.impl = "empty";
  copy.cfb_sha1 = &empty_entry;
  err = register_copy (&copy, why, sizeof why);
  check (gpg_err_code (err) == GPG_ERR_INV_ARG,
         "an entry without functions is malformed: %s", gpg_strerror (err));
}


/*
 * ABI versions.
 */

/* A copy of BASE as a spec built for ABI version 1, named IMPL.  */
static const sf_cipher_spec_t *
guarded_v1_spec (const sf_cipher_spec_t *base, const char *impl)
{
  return guarded_spec (base, impl, 1, offsetof (sf_cipher_spec_t, cfb_sha1));
}


static void
check_abi_versions (void)
{
  const sf_cipher_spec_t *v1 = guarded_v1_spec (model_base, "v1");
  const sf_cipher_spec_t *specs[2] = { NULL, NULL };
  sf_module_t module = { 1, "v1module", specs };
  sf_cipher_spec_t copy = *model_base;
  const sf_cipher_spec_t *found;
  char why[300] = "";
  gpg_error_t err;

  err = sf_table_register (v1, NULL, why, sizeof why);
  check (!err, "a version 1 spec is refused: %s", why);
  check (!sf_spec_cfb_sha1 (v1), "a version 1 spec has no stitched entry");
  check (!sf_table_find ("AES", "v1", &found) && found == v1,
         "the version 1 spec is in the table");

  specs[0] = guarded_v1_spec (model_base, "v1module");
  err = sf_table_register_module (&module, "v1module.so", why, sizeof why);
  check (!err, "a version 1 module is refused: %s", why);

  module.abi_version = SF_ABI_VERSION + 1;
  err = sf_table_register_module (&module, "future.so", why, sizeof why);
  check (gpg_err_code (err) == GPG_ERR_UNKNOWN_VERSION
         && strstr (why, "this program supports 1 to"),
         "a module newer than the program: %s", why);
  copy.abi_version = 0;
  copy.impl = "v0";
  err = register_copy (&copy, why, sizeof why);
  check (gpg_err_code (err) == GPG_ERR_UNKNOWN_VERSION,
         "ABI version 0 refused: %s", gpg_strerror (err));
}


/*
 * The paths.
 */

/* The implementations that carry a stitched entry on this processor
 * family: on x86, AES-NI, and the one-block CFB chains of CAST5, 3DES,
 * Blowfish and Twofish; on AArch64, the Cryptography Extensions'
 * AES.  */
static int
has_stitched_entry (const sf_cipher_spec_t *spec)
{
#if defined(__x86_64__) || defined(__i386__)
  return (!strcmp (spec->impl, "aesni")
          || (!strcmp (spec->impl, "ref")
              && (!strcmp (spec->name, "CAST5")
                  || !strcmp (spec->name, "3DES")
                  || !strcmp (spec->name, "BLOWFISH")
                  || !strcmp (spec->name, "TWOFISH"))));
#elif defined(__aarch64__)
  return !strcmp (spec->impl, "armce");
#else
  (void)spec;
  return 0;
#endif
}

/* Those implementations take the stitched path exactly when the SHA
 * instructions (and what the spec itself needs) are there and not
 * disabled.  */
static void
check_stitched_where_expected (void)
{
  const sf_table_entry_t *e;
  size_t i, n = 0;

  for (i = 0; (e = sf_table_nth (i)); i++)
    {
      const sf_cipher_spec_t *spec = e->spec;
      int expected;

      if (!has_stitched_entry (spec))
        continue;
#ifdef __aarch64__
      expected = sf_spec_usable (spec) && sf_sha1_armce_usable ()
                 && !sf_hwf_disabled ("arm-sha1");
#else
      expected = sf_spec_usable (spec) && sf_sha1_shani_usable ()
                 && !sf_hwf_disabled ("shani");
#endif
      check ((sf_spec_cfb_sha1 (spec) != NULL) == expected,
             "%s (%s): stitched entry %s", spec->name, spec->impl,
             expected ? "missing" : "used although disabled");
      n += expected;
    }
  printf ("%s: %zu specs stitched with the SHA-1 instructions\n", test_name,
          n);
}

/* The length of the next piece when LEFT bytes remain: now and then
 * nothing, often less than a SHA-1 block or two, sometimes any.  */
static size_t
random_piece (size_t left)
{
  size_t r = prng_below (16);

  if (r == 0)
    return 0;
  if (r < 8)
    return prng_below ((left < 130 ? left : 130) + 1);
  return prng_below (left + 1);
}

/* Run LEN bytes from IN to OUT through HD and MD in random pieces.  */
static void
crypt_sha1_in_pieces (sf_cipher_hd_t hd, int encrypting, unsigned char *out,
                      const unsigned char *in, size_t len, sf_sha1_t *md)
{
  while (len)
    {
      size_t n = random_piece (len);
      gpg_error_t err = encrypting
                        ? sf_cipher_encrypt_sha1 (hd, out, in, n, md)
                        : sf_cipher_decrypt_sha1 (hd, out, in, n, md);

      check (!err, "piece of %zu: %s", n, gpg_strerror (err));
      in += n;
      out += n;
      len -= n;
    }
}

/* One random case of a stream: its plaintext and the expected
 * ciphertext (LEN + TAIL bytes each), after FOREIGN hashed bytes.  */
struct stream
{
  unsigned char key[32], iv[SF_MAX_BLOCKSIZE];
  unsigned char foreign[MAX_FOREIGN];
  unsigned char pt[MAXLEN + TAIL], ct[MAXLEN + TAIL];
  unsigned char digest[SF_SHA1_DIGEST_LEN];
  size_t len, nforeign;
};

static void
make_stream (const sf_cipher_spec_t *spec, struct stream *s)
{
  sf_cipher_hd_t ref;
  gcry_md_hd_t md;

  s->len = prng_below (8) ? prng_below (MAXLEN / 4 + 1)
                          : prng_below (MAXLEN + 1);
  s->nforeign = prng_below (4) ? 0 : prng_below (MAX_FOREIGN + 1);
  prng_fill (s->key, spec->keylen);
  prng_fill (s->iv, spec->blocksize);
  prng_fill (s->foreign, s->nforeign);
  prng_fill (s->pt, s->len + TAIL);
  ref = open_keyed (spec, SF_MODE_CFB, s->key, spec->keylen, s->iv);
  sf_cipher_encrypt (ref, s->ct, s->pt, s->len + TAIL);
  sf_cipher_close (ref);
  if (gcry_md_open (&md, GCRY_MD_SHA1, 0))
    exit (1);
  gcry_md_write (md, s->foreign, s->nforeign);
  gcry_md_write (md, s->pt, s->len);
  memcpy (s->digest, gcry_md_read (md, GCRY_MD_SHA1), sizeof s->digest);
  gcry_md_close (md);
}

/* Run S through the stitched functions in one direction; true when
 * the bytes, including the TAIL the plain function adds after them,
 * and the digest are the expected ones.  */
static int
stream_ok (const sf_cipher_spec_t *spec, const struct stream *s,
           int encrypting, int in_place)
{
  static unsigned char src[MAXLEN + TAIL + 16], dst[MAXLEN + TAIL + 16];
  const unsigned char *from = encrypting ? s->pt : s->ct;
  const unsigned char *want = encrypting ? s->ct : s->pt;
  unsigned char *in = src + prng_below (16);
  unsigned char *out = in_place ? in : dst + prng_below (16);
  unsigned char digest[SF_SHA1_DIGEST_LEN];
  sf_cipher_hd_t hd;
  sf_sha1_t md;

  /* Which SHA-1 the context uses does not matter.  */
  if (prng_below (2))
    sf_sha1_init (&md);
  else
    sf_sha1_init_with (&md, sf_sha1_blocks_ref);
  sf_sha1_write (&md, s->foreign, s->nforeign);
  memcpy (in, from, s->len + TAIL);
  hd = open_keyed (spec, SF_MODE_CFB, s->key, spec->keylen, s->iv);
  crypt_sha1_in_pieces (hd, encrypting, out, in, s->len, &md);
  if (encrypting)
    sf_cipher_encrypt (hd, out + s->len, in + s->len, TAIL);
  else
    sf_cipher_decrypt (hd, out + s->len, in + s->len, TAIL);
  sf_cipher_close (hd);
  sf_sha1_final (&md, digest);
  return (!memcmp (out, want, s->len + TAIL)
          && !memcmp (digest, s->digest, sizeof digest));
}

static void
check_paths (const sf_cipher_spec_t *spec)
{
  static struct stream s;
  unsigned long bad = 0;
  int i, encrypting;

  for (i = 0; i < CASES_PER_SPEC; i++)
    {
      make_stream (spec, &s);
      for (encrypting = 0; encrypting < 2; encrypting++)
        {
          int in_place = (int) prng_below (2);

          if (stream_ok (spec, &s, encrypting, in_place))
            continue;
          if (!bad++)
            fprintf (stderr, "%s: %s (%s): first difference: %s, %zu"
                     " bytes after %zu hashed, %s\n", test_name,
                     spec->name, spec->impl,
                     encrypting ? "encrypting" : "decrypting", s.len,
                     s.nforeign, in_place ? "in place" : "not in place");
        }
    }
  check (!bad, "%s (%s): %lu of %d streams differ from CFB and SHA-1 in"
         " series", spec->name, spec->impl, bad, 2 * CASES_PER_SPEC);
  printf ("%s: %s (%s), %s: %d streams each way\n", test_name, spec->name,
          spec->impl, sf_spec_cfb_sha1 (spec) ? "stitched" : "generic",
          CASES_PER_SPEC);
}


static void
check_misuse (void)
{
  sf_cipher_hd_t hd;
  unsigned char buf[64] = { 0 };
  sf_sha1_t md;
  gpg_error_t err;

  sf_sha1_init (&md);
  if (sf_cipher_open (&hd, model_base, SF_MODE_OPENPGP_CFB, 0))
    exit (1);
  err = sf_cipher_encrypt_sha1 (hd, buf, buf, sizeof buf, &md);
  check (gpg_err_code (err) == GPG_ERR_MISSING_KEY, "no key yet");
  sf_cipher_setkey (hd, buf, model_base->keylen);
  err = sf_cipher_decrypt_sha1 (hd, buf, buf, sizeof buf, &md);
  check (gpg_err_code (err) == GPG_ERR_INV_CIPHER_MODE,
         "only in full-block CFB: %s", gpg_strerror (err));
  check (!sf_cipher_cfb_sha1 (hd), "no stitched entry outside CFB");
  sf_cipher_close (hd);
}


int
main (int argc, char **argv)
{
  const sf_table_entry_t *e;
  size_t i;

  test_init ("t-stitch");
  test_load_modules (argc, argv);
  prng_seed ();
  if (sf_table_find ("AES", "gcrypt", &model_base)
      || sf_table_find ("CAST5", "gcrypt", &model64_base))
    {
      check (0, "no gcrypt AES and CAST5 to build the models on");
      return test_finish ();
    }
  check_model_registration ();
  check_abi_versions ();
  check_stitched_where_expected ();
  check_misuse ();
  for (i = 0; (e = sf_table_nth (i)); i++)
    {
      const sf_cipher_spec_t *spec = e->spec;

      if ((spec->openpgp_id < 7 || spec->openpgp_id > 9)
          && !sf_spec_cfb_sha1 (spec))
        continue;
      if (sf_spec_usable (spec))
        check_paths (spec);
      else
        printf ("%s: %s (%s): UNAVAILABLE on this machine, not tested\n",
                test_name, spec->name, spec->impl);
    }
  return test_finish ();
}
