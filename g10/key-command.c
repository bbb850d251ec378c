/* key-command.c - the gpg commands that need keys
 */
#include <config.h>

#include "error.h"
#include "key-command.h"
#include "status.h"


gpg_error_t
key_command_fail (const char *option, const char *command,
                  enum key_need needs, const char *const *recipients,
                  size_t n_recipients, const char *signer)
{
  size_t i;

  switch (needs)
    {
    case NEEDS_PUBLIC_KEY:
      for (i = 0; i < n_recipients; i++)
        status_invalid_recipient (recipients[i]);
      status_failure ("encrypt", gpg_error (GPG_ERR_NO_PUBKEY));
      return fail (gpg_error (GPG_ERR_NO_PUBKEY), option,
                   "no public key: sfenc has no keys"
                   " (-c encrypts with a passphrase)");
    case NEEDS_SECRET_KEY:
      status_invalid_signer (signer);
      status_failure ("sign", gpg_error (GPG_ERR_NO_SECKEY));
      return fail (gpg_error (GPG_ERR_NO_SECKEY), option,
                   "no secret key: sfenc has no keys and makes no"
                   " signatures");
    default:
      /* The location of the FAILURE is the command's long name, as
       * gpg's locations are: never an abbreviation or "-k".  */
      status_failure (command, gpg_error (GPG_ERR_NOT_SUPPORTED));
      return fail (gpg_error (GPG_ERR_NOT_SUPPORTED), option,
                   "sfenc has no keys: it encrypts and decrypts with a"
                   " passphrase only");
    }
}
