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

/* Report, as gpg does, a message whose first SKESK is SK, one of
 * NSKESK, between BEGIN_DECRYPTION and END_DECRYPTION.  */
void list_only_report (const skesk_t *sk, int nskesk);

#endif /*SFENC_LIST_ONLY_H*/
