/* t-table.c - the cipher table: look-up, defaults, and every refusal
 *
 * Registers modified copies of real specs to check that the table
 * refuses a duplicate, an ABI mismatch, a malformed spec, a priority
 * out of range and a spec whose self-test fails, that a module's spec
 * must also meet the known answers of the built-in implementations of
 * the algorithm it claims, and that the default follows the
 * documented priority rule and SFENC_DISABLE_HWF.  (t-corrupt-*
 * checks modules built with a corrupted table.)
 */
#include <config.h>

#include "t-common.h"

static void
check_lookup (void)
{
  const sf_cipher_spec_t *spec, *spec2;
  gpg_error_t err;

  err = sf_table_find ("aes", NULL, &spec);
  check (!err && !strcmp (spec->name, "AES"), "AES by lower-case name");
  err = sf_table_find ("Rijndael", NULL, &spec2);
  check (!err && spec2 == spec, "RIJNDAEL is an alias of AES");
  err = sf_table_find ("7", NULL, &spec2);
  check (!err && spec2 == spec, "OpenPGP id 7 is AES");
  err = sf_table_find_id (9, NULL, &spec2);
  check (!err && !strcmp (spec2->name, "AES256"), "id 9 is AES256");
  err = sf_table_find ("cast-128", "GCRYPT", &spec);
  check (!err && !strcmp (spec->name, "CAST5")
         && !strcmp (spec->impl, "gcrypt"),
         "CAST-128 alias with implementation name in capitals");
  err = sf_table_find ("tripledes", "gcrypt", &spec);
  check (!err && spec->openpgp_id == 2, "TRIPLEDES alias");

  err = sf_table_find ("NOSUCHCIPHER", NULL, &spec);
  check (gpg_err_code (err) == GPG_ERR_CIPHER_ALGO && !spec,
         "unknown algorithm: %s", gpg_strerror (err));
  err = sf_table_find ("AES", "nosuchimpl", &spec);
  check (gpg_err_code (err) == GPG_ERR_NOT_FOUND,
         "unknown implementation: %s", gpg_strerror (err));
  err = sf_table_find_id (99, NULL, &spec);
  check (gpg_err_code (err) == GPG_ERR_CIPHER_ALGO, "unknown id 99");
  err = sf_table_find ("", NULL, &spec);
  check (gpg_err_code (err) == GPG_ERR_CIPHER_ALGO, "empty name");
}


/* Every algorithm has a usable default, and it is the usable
 * implementation with the highest priority.  */
static void
check_defaults (void)
{
  const sf_table_entry_t *e;
  size_t i, j;

  for (i = 0; (e = sf_table_nth (i)); i++)
    {
      const sf_cipher_spec_t *def;
      gpg_error_t err = sf_table_find (e->spec->name, NULL, &def);

      check (!err, "%s has a default", e->spec->name);
      if (err)
        continue;
      for (j = 0; sf_table_nth (j); j++)
        {
          const sf_cipher_spec_t *other = sf_table_nth (j)->spec;

          if (strcmp (other->name, def->name) || !sf_spec_usable (other))
            continue;
          check (other->priority <= def->priority,
                 "default %s (%s) outranks %s", def->name, def->impl,
                 other->impl);
        }
    }
  check (sf_table_nth (0) != NULL, "table is not empty");
}


/* Register a copy of COPY as if it came from ORIGIN (NULL: built in).  */
static gpg_error_t
register_copy (const sf_cipher_spec_t *copy, const char *origin,
               char *why, size_t whylen)
{
  /* The table keeps the pointer: give it storage that lives on.  */
  sf_cipher_spec_t *keep = malloc (sizeof *keep);
  gpg_error_t err;

  if (!keep)
    exit (1);
  *keep = *copy;
  err = sf_table_register (keep, origin, why, whylen);
  if (err)
    free (keep);
  return err;
}


static void
check_refusals (void)
{
  const sf_cipher_spec_t *aes;
  sf_cipher_spec_t copy;
  sf_kat_t badkat;
  char why[256];
  gpg_error_t err;

  if (sf_table_find ("AES", "gcrypt", &aes))
    {
      check (0, "no gcrypt AES to copy");
      return;
    }

  copy = *aes;
  err = register_copy (&copy, NULL, why, sizeof why);
  check (gpg_err_code (err) == GPG_ERR_DUP_NAME,
         "duplicate refused: %s", gpg_strerror (err));
  check (strstr (why, "already registered") != NULL, "why: %s", why);

  copy = *aes;
  copy.name = "NEWNAME";
  copy.aliases = NULL;
  err = register_copy (&copy, NULL, why, sizeof why);
  check (gpg_err_code (err) == GPG_ERR_DUP_NAME,
         "an OpenPGP id already taken by the same implementation name is"
         " a duplicate: %s", gpg_strerror (err));

  copy = *aes;
  copy.abi_version = SF_ABI_VERSION + 1;
  copy.impl = "future";
  err = register_copy (&copy, NULL, why, sizeof why);
  check (gpg_err_code (err) == GPG_ERR_UNKNOWN_VERSION,
         "ABI mismatch refused: %s", gpg_strerror (err));
  check (strstr (why, "ABI") != NULL, "why: %s", why);

  copy = *aes;
  copy.impl = "odd";
  copy.blocksize = 12;
  err = register_copy (&copy, NULL, why, sizeof why);
  check (gpg_err_code (err) == GPG_ERR_INV_ARG,
         "malformed spec refused: %s", gpg_strerror (err));

  copy = *aes;
  copy.impl = "nokat";
  copy.kats = NULL;
  copy.n_kats = 0;
  err = register_copy (&copy, NULL, why, sizeof why);
  check (gpg_err_code (err) == GPG_ERR_SELFTEST_FAILED,
         "spec without known answers refused: %s", gpg_strerror (err));

  badkat = aes->kats[0];
  badkat.ciphertext = "00000000000000000000000000000000";
  copy = *aes;
  copy.impl = "badkat";
  copy.kats = &badkat;
  copy.n_kats = 1;
  err = register_copy (&copy, NULL, why, sizeof why);
  check (gpg_err_code (err) == GPG_ERR_SELFTEST_FAILED,
         "wrong known answer refused: %s", gpg_strerror (err));
  check (strstr (why, "self-test failed") != NULL, "why: %s", why);
  check (sf_table_find ("AES", "badkat", &aes) != 0,
         "a refused implementation is not in the table");
}


/* A priority outside 0..SF_PRIO_ACCEL is refused, so that no module
 * outranks the built-in accelerated code.  */
static void
check_priority_bounds (void)
{
  static const int out_of_range[] = { -1, SF_PRIO_ACCEL + 1, 1000000 };
  const sf_cipher_spec_t *aes;
  sf_cipher_spec_t copy;
  char why[256] = "";
  gpg_error_t err;
  size_t i;

  if (sf_table_find ("AES", "gcrypt", &aes))
    return;
  for (i = 0; i < sizeof out_of_range / sizeof *out_of_range; i++)
    {
      copy = *aes;
      copy.impl = "outranking";
      copy.priority = out_of_range[i];
      err = register_copy (&copy, "outranking.so", why, sizeof why);
      check (gpg_err_code (err) == GPG_ERR_INV_ARG,
             "priority %d refused: %s", out_of_range[i], gpg_strerror (err));
      check (strstr (why, "is outside 0..") != NULL, "why: %s", why);
    }
}


/* The attack of issue 15: a module claims AES256 with an identity
 * "cipher" and known answers in which plaintext equals ciphertext.
 * Its own self-test passes; the built-in implementations' known
 * answers must not.  */
static gpg_error_t
identity_setkey (void *ctx, const unsigned char *key, size_t keylen)
{
  (void) ctx;
  (void) key;
  (void) keylen;
  return 0;
}

static void
identity_crypt (const void *ctx, unsigned char *out, const unsigned char *in)
{
  (void) ctx;
  memmove (out, in, 16);
}

static const sf_kat_t identity_kats[] =
  { { "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
      "00112233445566778899aabbccddeeff",
      "00112233445566778899aabbccddeeff" } };

static const sf_cipher_spec_t identity_aes256 =
  {
    .abi_version = SF_ABI_VERSION,
    .name = "AES256", .openpgp_id = 9,
    .blocksize = 16, .keylen = 32, .contextsize = 1,
    .impl = "identity", .priority = SF_PRIO_ACCEL,
    .setkey = identity_setkey,
    .encrypt = identity_crypt, .decrypt = identity_crypt,
    .kats = identity_kats, .n_kats = 1
  };

static void
check_claims (void)
{
  static const char *const lower_alias[] = { "rijndael256", NULL };
  const sf_cipher_spec_t *aes256, *def;
  sf_cipher_spec_t copy;
  char why[512] = "";
  gpg_error_t err;
  size_t i;
  /* Each claims AES256 in another way: name, id, alias either way.  */
  struct { const char *name; const char *const *aliases; int id; } claim[] =
    {
      { "AES256", NULL, 9 }, { "aes256", NULL, 0 }, { "OTHER", NULL, 9 },
      { "OTHER", lower_alias, 0 }, { "Rijndael256", NULL, 0 }
    };

  if (sf_table_find ("AES256", "gcrypt", &aes256)
      || sf_table_find ("AES256", NULL, &def))
    {
      check (0, "no AES256 to compare with");
      return;
    }

  copy = identity_aes256;
  err = sf_spec_selftest (&copy, why, sizeof why);
  check (!err, "the identity cipher passes its own self-test: %s", why);

  for (i = 0; i < sizeof claim / sizeof *claim; i++)
    {
      copy = identity_aes256;
      copy.name = claim[i].name;
      copy.aliases = claim[i].aliases;
      copy.openpgp_id = claim[i].id;
      err = register_copy (&copy, "identity.so", why, sizeof why);
      check (gpg_err_code (err) == GPG_ERR_SELFTEST_FAILED,
             "identity cipher named %s, id %d refused: %s", claim[i].name,
             claim[i].id, gpg_strerror (err));
      check (strstr (why, "claims AES256 (OpenPGP id 9) but fails the"
                     " table's known answers for it") != NULL,
             "why: %s", why);
    }
  err = sf_table_find ("AES256", NULL, &def);
  check (!err && strcmp (def->impl, "identity"),
         "the identity cipher is not the default");

  copy = *aes256;
  copy.impl = "shortkey";
  copy.keylen = 16;
  err = register_copy (&copy, "shortkey.so", why, sizeof why);
  check (gpg_err_code (err) == GPG_ERR_CONFLICT,
         "AES256 with a 16-byte key refused: %s", gpg_strerror (err));
  check (strstr (why, "claims AES256 (OpenPGP id 9) but its block and key"
                 " are 16 and 16 bytes, not 16 and 32") != NULL,
         "why: %s", why);

  /* A faithful copy passes every built-in AES256's known answers.  It
   * is not built in, the built-in default still is.  */
  copy = *aes256;
  copy.impl = "copy";
  err = register_copy (&copy, "copy.so", why, sizeof why);
  check (!err, "a module that really is AES256 is accepted: %s", why);
  err = sf_table_find ("AES256", "copy", &aes256);
  check (!err, "the copy is registered");
  if (err)
    return;
  check (sf_table_origin (def) == NULL, "a built-in spec has no origin");
  check (sf_table_origin (aes256)
         && !strcmp (sf_table_origin (aes256), "copy.so"),
         "the copy's origin is its file");
  check (sf_table_builtin_default (def) == NULL,
         "a built-in spec has no built-in to be used instead of");
  check (sf_table_builtin_default (aes256) == def,
         "the built-in default of the copy's algorithm is the default");

  /* An algorithm no built-in implements is checked by its own answers
   * alone, and has no built-in default.  */
  copy = *aes256;
  copy.name = "NEWALGO";
  copy.aliases = NULL;
  copy.openpgp_id = 0;
  err = register_copy (&copy, "newalgo.so", why, sizeof why);
  check (!err, "a module of a new algorithm is accepted: %s", why);
  if (!err && !sf_table_find ("NEWALGO", NULL, &def))
    check (sf_table_builtin_default (def) == NULL,
           "a new algorithm has no built-in default");
}


/* A higher-priority implementation becomes the default, unless its
 * hardware feature is disabled.  CAST5 has no accelerated built-in
 * implementation to tie with.  */
static void
check_priority_and_hwf (void)
{
  const sf_cipher_spec_t *cast5, *def;
  sf_cipher_spec_t copy;
  char why[256];
  gpg_error_t err;

  if (sf_table_find ("CAST5", "gcrypt", &cast5))
    return;
  copy = *cast5;
  copy.impl = "fastest";
  copy.priority = SF_PRIO_ACCEL;
  copy.hwf = "testfeature";
  err = register_copy (&copy, NULL, why, sizeof why);
  check (!err, "new implementation of a known algorithm accepted: %s", why);

  unsetenv ("SFENC_DISABLE_HWF");
  err = sf_table_find ("CAST5", NULL, &def);
  check (!err && !strcmp (def->impl, "fastest"),
         "highest priority is the default");

  setenv ("SFENC_DISABLE_HWF", "foo,TestFeature", 1);
  err = sf_table_find ("CAST5", NULL, &def);
  check (!err && strcmp (def->impl, "fastest"),
         "disabled feature is not the default");
  err = sf_table_find ("CAST5", "fastest", &def);
  check (gpg_err_code (err) == GPG_ERR_NOT_SUPPORTED,
         "disabled implementation asked by name: %s", gpg_strerror (err));

  setenv ("SFENC_DISABLE_HWF", "all", 1);
  check (!sf_spec_usable (&copy), "all disables every feature");
  unsetenv ("SFENC_DISABLE_HWF");
}


static void
check_stable_order (void)
{
  const sf_table_entry_t *first = sf_table_nth (0);
  size_t i, n;

  for (n = 0; sf_table_nth (n); n++)
    ;
  check (sf_table_init () == 0 && sf_table_nth (0) == first,
         "sf_table_init is idempotent");
  for (i = 0; i < n; i++)
    check (sf_table_nth (i) == sf_table_nth (i), "stable entry %zu", i);
  check (sf_table_nth (n) == NULL, "end of table");
  check (!strcmp (sf_table_nth (n - 1)->spec->impl, "fastest"),
         "last registered comes last");
}


int
main (void)
{
  test_init ("t-table");
  check_lookup ();
  check_defaults ();
  check_refusals ();
  check_priority_bounds ();
  check_claims ();
  check_priority_and_hwf ();
  check_stable_order ();
  return test_finish ();
}
