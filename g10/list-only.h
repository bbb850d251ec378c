/* list-only.h - sfenc -d --list-only: how a message is encrypted
 *
 * gpg --decrypt --list-only reads a message's key packets, says how
 * its data is encrypted and with how many passphrases, and decrypts
 * nothing: no passphrase is asked for.  Vim's gnupg plugin runs it to
 * tell an encrypted file from another and matches the line
 * "gpg: encrypted with N passphrase", so these two lines carry gpg's
 * prefix and wording, not sfenc's.
 */
#ifndef SFENC_LIST_ONLY_H
#define SFENC_LIST_ONLY_H

#include "skesk.h"

/* Note a PKESK packet for the key KEYID (8 octets) of public-key
 * algorithm ALGO, to be reported as gpg reports one whose secret key
 * it does not have.  */
void list_only_note_pkesk (const unsigned char *keyid, int algo);

/* Report, as gpg does, a message whose first SKESK is SK, one of
 * NSKESK (SK is not used when there is none), then its PKESKs, between
 * BEGIN_DECRYPTION and END_DECRYPTION.  */
void list_only_report (const skesk_t *sk, int nskesk);

#endif /*SFENC_LIST_ONLY_H*/
