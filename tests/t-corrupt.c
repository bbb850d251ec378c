/* t-corrupt.c - a module with a corrupted table is refused
 *
 * Linked with a copy of one module's source in which corrupt-table.pl
 * flipped one bit of a table constant, built as if it were a dynamic
 * module whose exported symbol is renamed sf_corrupt_module.  Its
 * registration must fail with GPG_ERR_SELFTEST_FAILED and a message
 * saying so; the cipher table stays empty of it.
 */
#include <config.h>

#include "t-common.h"

extern const sf_module_t sf_corrupt_module;

int
main (void)
{
  const sf_cipher_spec_t *spec;
  char why[256] = "";
  gpg_error_t err;

  /* No sf_table_init: the intact module must not be registered first,
   * or the copy would be refused as a duplicate instead.  */
  test_name = "t-corrupt";
  gcry_check_version (NULL);
  gcry_control (GCRYCTL_INITIALIZATION_FINISHED, 0);

  err = sf_table_register_module (&sf_corrupt_module, "corrupted build",
                                  why, sizeof why);
  printf ("%s: module %s: %s\n", test_name, sf_corrupt_module.name, why);
  check (gpg_err_code (err) == GPG_ERR_SELFTEST_FAILED,
         "module %s with a corrupted table was not refused: %s",
         sf_corrupt_module.name, gpg_strerror (err));
  check (strstr (why, "self-test failed") != NULL, "why: %s", why);
  check (sf_table_find (sf_corrupt_module.specs[0]->name,
                        sf_corrupt_module.specs[0]->impl, &spec) != 0,
         "the refused implementation is not in the table");
  return test_finish ();
}
