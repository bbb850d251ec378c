/* list-only.c - sfenc -d --list-only: how a message is encrypted
 */
#include <config.h>

#include <stdio.h>
#include <string.h>

#include "libsfcipher.h"
#include "list-only.h"
#include "progress.h"
#include "seipd2.h"
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


/* gpg's name of the public-key algorithm ALGO.  */
static const char *
pubkey_algo_name (int algo)
{
  switch (algo)
    {
    case 1: case 2: case 3: return "RSA";
    case 16: case 20: return "ELG";
    case 17: return "DSA";
    case 18: return "ECDH";
    case 19: return "ECDSA";
    case 22: return "EDDSA";
    default: return "?";
    }
}


/* gpg's line for a PKESK whose secret key it does not have.  */
static void
report_pkesks (void)
{
  int i, j;

  for (i = 0; i < npkesks; i++)
    {
      fprintf (stderr, "gpg: encrypted with %s key, ID ",
               pubkey_algo_name (pkesks[i].algo));
      for (j = 0; j < 8; j++)
        fprintf (stderr, "%02X", pkesks[i].keyid[j]);
      fputc ('\n', stderr);
    }
}


/* gpg's two lines for the SKESK SK, one of NSKESK.  */
static void
report_skesks (const skesk_t *sk, int nskesk)
{
  const sf_cipher_spec_t *spec;

  /* gpg names the cipher of the first SKESK and the mode of the data
   * packet: CFB for SEIPD v1, the AEAD mode for the others; and what
   * that cipher encrypts: the data itself, or a session key that the
   * SKESK holds.  */
  if (sf_table_find_id (sk->cipher_algo, NULL, &spec))
    fprintf (stderr, "gpg: cipher %d.", sk->cipher_algo);
  else
    fprintf (stderr, "gpg: %s.", spec->name);
  fprintf (stderr, "%s encrypted %s\n",
           sk->version == 4 ? "CFB" : aead_algo_name (sk->aead_algo),
           sk->esklen ? "session key" : "data");
  fprintf (stderr, "gpg: encrypted with %d passphrase%s\n", nskesk,
           nskesk == 1 ? "" : "s");
}


void
list_only_report (const skesk_t *sk, int nskesk)
{
  status_begin_decryption ();
  progress_break_line ();
  if (nskesk)
    report_skesks (sk, nskesk);
  report_pkesks ();
  status_end_listing ();
}
