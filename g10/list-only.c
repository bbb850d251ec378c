/* list-only.c - sfenc -d --list-only: how a message is encrypted
 */
#include <config.h>

#include <stdio.h>

#include "libsfcipher.h"
#include "list-only.h"
#include "progress.h"
#include "seipd2.h"
#include "status.h"


void
list_only_report (const skesk_t *sk, int nskesk)
{
  const sf_cipher_spec_t *spec;

  /* gpg names the cipher of the first SKESK and the mode of the data
   * packet: CFB for SEIPD v1, the AEAD mode for the others.  */
  status_begin_decryption ();
  progress_break_line ();
  if (sf_table_find_id (sk->cipher_algo, NULL, &spec))
    fprintf (stderr, "gpg: cipher %d.", sk->cipher_algo);
  else
    fprintf (stderr, "gpg: %s.", spec->name);
  fprintf (stderr, "%s encrypted data\n",
           sk->version == 4 ? "CFB" : aead_algo_name (sk->aead_algo));
  fprintf (stderr, "gpg: encrypted with %d passphrase%s\n", nskesk,
           nskesk == 1 ? "" : "s");
  status_end_listing ();
}
