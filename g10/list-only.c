/* list-only.c - sfenc -d --list-only: how a message is encrypted
 */
#include <config.h>

#include "gpg-log.h"
#include "list-only.h"
#include "status.h"


void
list_only_report (int nskesk)
{
  /* Each SKESK had its line as it was read; gpg then counts them and
   * reports a decryption that it does not run.  */
  gpg_log_passphrases (nskesk);
  status_begin_decryption ();
  status_end_listing ();
}
