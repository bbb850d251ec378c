/* extension.c - dynamic cipher modules (--load-extension)
 *
 * The loading itself, and every refusal, is the cipher library's
 * (cipher/dynload.c); this file turns a refusal into sfenc's one-line
 * message naming the file, and tells the user when a module's code,
 * not the program's, is about to handle their data.
 */
#include <config.h>

#include "libsfcipher.h"
#include "error.h"
#include "log.h"
#include "extension.h"


gpg_error_t
extension_load (const char *file)
{
  char why[FAIL_MESSAGE_MAX];
  gpg_error_t err;

  err = sf_module_load (file, why, sizeof why);
  if (err)
    return fail (err, file, "%s", why);
  return 0;
}


gpg_error_t
extension_load_auto (void)
{
  /* A broken file in the module directory is reported and skipped:
   * the modules that do load, and the built-in ones, still work.  */
  sf_module_load_dir (sf_module_dir ());
  return 0;
}


void
extension_note_use (const sf_cipher_spec_t *spec)
{
  static int noted;
  const sf_cipher_spec_t *builtin = sf_table_builtin_default (spec);

  if (noted || !builtin)
    return;
  noted = 1;
  log_warning ("note: using %s implementation '%s' from %s instead of"
               " the built-in '%s'", spec->name, spec->impl,
               sf_table_origin (spec), builtin->impl);
}


void
extension_warn_private_id (const sf_cipher_spec_t *spec)
{
  const char *origin = sf_table_origin (spec);

  if (!sf_openpgp_id_private (spec->openpgp_id))
    return;
  log_warning ("warning: %s has the private OpenPGP id %d: only sfenc"
               " with %s%s reads this message, and gpg does not",
               spec->name, spec->openpgp_id,
               origin ? "the module " : "the same built-in ",
               origin ? origin : spec->name);
}
