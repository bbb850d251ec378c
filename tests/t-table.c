/* t-table.c - the cipher table: look-up, defaults, and every refusal
 *
 * Registers modified copies of real specs to check that the table
 * refuses a duplicate, an ABI mismatch, a malformed spec and a spec
 * whose self-test fails, and that the default follows the documented
 * priority rule and SFENC_DISABLE_HWF.  (t-corrupt-* checks modules
 * built with a corrupted table.)
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


static gpg_error_t
register_copy (const sf_cipher_spec_t *copy, char *why, size_t whylen)
{
  /* The table keeps the pointer: give it storage that lives on.  */
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
  err = register_copy (&copy, why, sizeof why);
  check (gpg_err_code (err) == GPG_ERR_DUP_NAME,
         "duplicate refused: %s", gpg_strerror (err));
  check (strstr (why, "already registered") != NULL, "why: %s", why);

  copy = *aes;
  copy.name = "NEWNAME";
  copy.aliases = NULL;
  err = register_copy (&copy, why, sizeof why);
  check (gpg_err_code (err) == GPG_ERR_DUP_NAME,
         "an OpenPGP id already taken by the same implementation name is"
         " a duplicate: %s", gpg_strerror (err));

  copy = *aes;
  copy.abi_version = SF_ABI_VERSION + 1;
  copy.impl = "future";
  err = register_copy (&copy, why, sizeof why);
  check (gpg_err_code (err) == GPG_ERR_UNKNOWN_VERSION,
         "ABI mismatch refused: %s", gpg_strerror (err));
  check (strstr (why, "ABI") != NULL, "why: %s", why);

  copy = *aes;
  copy.impl = "odd";
  copy.blocksize = 12;
  err = register_copy (&copy, why, sizeof why);
  check (gpg_err_code (err) == GPG_ERR_INV_ARG,
         "malformed spec refused: %s", gpg_strerror (err));

  copy = *aes;
  copy.impl = "nokat";
  copy.kats = NULL;
  copy.n_kats = 0;
  err = register_copy (&copy, why, sizeof why);
  check (gpg_err_code (err) == GPG_ERR_SELFTEST_FAILED,
         "spec without known answers refused: %s", gpg_strerror (err));

  badkat = aes->kats[0];
  badkat.ciphertext = "00000000000000000000000000000000";
  copy = *aes;
  copy.impl = "badkat";
  copy.kats = &badkat;
  copy.n_kats = 1;
  err = register_copy (&copy, why, sizeof why);
  check (gpg_err_code (err) == GPG_ERR_SELFTEST_FAILED,
         "wrong known answer refused: %s", gpg_strerror (err));
  check (strstr (why, "self-test failed") != NULL, "why: %s", why);
  check (sf_table_find ("AES", "badkat", &aes) != 0,
         "a refused implementation is not in the table");
}


/* A higher-priority implementation becomes the default, unless its
 * hardware feature is disabled.  */
static void
check_priority_and_hwf (void)
{
  const sf_cipher_spec_t *aes, *def;
  sf_cipher_spec_t copy;
  char why[256];
  gpg_error_t err;

  if (sf_table_find ("AES", "gcrypt", &aes))
    return;
  copy = *aes;
  copy.impl = "fastest";
  copy.priority = SF_PRIO_ACCEL + 1;
  copy.hwf = "testfeature";
  err = register_copy (&copy, why, sizeof why);
  check (!err, "new implementation of a known algorithm accepted: %s", why);

  unsetenv ("SFENC_DISABLE_HWF");
  err = sf_table_find ("AES", NULL, &def);
  check (!err && !strcmp (def->impl, "fastest"),
         "highest priority is the default");

  setenv ("SFENC_DISABLE_HWF", "foo,TestFeature", 1);
  err = sf_table_find ("AES", NULL, &def);
  check (!err && strcmp (def->impl, "fastest"),
         "disabled feature is not the default");
  err = sf_table_find ("AES", "fastest", &def);
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
  check_priority_and_hwf ();
  check_stable_order ();
  return test_finish ();
}
