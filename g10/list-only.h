/* list-only.h - sfenc -d --list-only: how a message is encrypted
 *
 * gpg --decrypt --list-only reads a message's key packets, says how
 * its data is encrypted and with how many passphrases, and decrypts
 * nothing: no passphrase is asked for.  Vim's gnupg plugin runs it to
 * tell an encrypted file from another.  The lines are gpg's
 * (gpg-log.h): one for every SKESK as it is read, then the count.
 */
#ifndef SFENC_LIST_ONLY_H
#define SFENC_LIST_ONLY_H

/* Note a PKESK packet for the key KEYID (8 octets) of public-key
 * algorithm ALGO, to be reported as gpg reports one whose secret key
 * it does not have.  */
void list_only_note_pkesk (const unsigned char *keyid, int algo);

/* Report, as gpg does, a message of NSKESK SKESKs, whose lines were
 * written as they were read: the count, the noted PKESKs, then
 * BEGIN_DECRYPTION and END_DECRYPTION.  */
void list_only_report (int nskesk);

#endif /*SFENC_LIST_ONLY_H*/
