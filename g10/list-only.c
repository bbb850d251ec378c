/* list-only.c - sfenc -d --list-only: how a message is encrypted
 */
#include <config.h>

#include <string.h>

#include "gpg-log.h"
#include "list-only.h"
#include "status.h"


/* The PKESKs of the message, as many as gpg would list.  */
#define MAX_PKESK_LISTED 64

static struct
{
  unsigned char keyid[8];
  int algo;
} pkesks[MAX_PKESK_LISTED];
static int npkesks;


void
list_only_note_pkesk (const unsigned char *keyid, int algo)
{
  if (npkesks == MAX_PKESK_LISTED)
    return;
  memcpy (pkesks[npkesks].keyid, keyid, sizeof pkesks[npkesks].keyid);
  pkesks[npkesks++].algo = algo;
}


void
list_only_report (int nskesk)
{
  int i;

  /* Each SKESK had its line as it was read; gpg then counts them,
   * names the keys of the PKESKs, and reports a decryption that it
   * does not run.  */
  if (nskesk)
    gpg_log_passphrases (nskesk);
  for (i = 0; i < npkesks; i++)
    gpg_log_pkesk (pkesks[i].keyid, pkesks[i].algo);
  status_begin_decryption ();
  status_end_listing ();
}
