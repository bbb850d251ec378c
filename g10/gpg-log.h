/* gpg-log.h - the lines of gpg's log that programs read (gpg-log.c)
 *
 * Some programs that drive gpg read its log, not only its status
 * lines: Vim's gnupg plugin runs gpg -d --list-only --logger-fd 1 and
 * tells a passphrase-encrypted file by the line "gpg: encrypted with
 * N passphrase", and takes the cipher from "gpg: AES256.CFB encrypted
 * data".  sfenc writes these lines as gpg 2.2 writes them, with gpg's
 * prefix, at the same points of a decryption, on stderr (or where
 * --logger-fd or --log-file send it), and not with -q.  Its other
 * messages keep sfenc's own wording (log.h, error.h).
 */
#ifndef SFENC_GPG_LOG_H
#define SFENC_GPG_LOG_H

#include "skesk.h"

/* The SKESK SK was read: "gpg: AES256.CFB encrypted data" (or
 * "... encrypted session key" when it holds one), its cipher and
 * mode, or, for an algorithm sfenc does not know, gpg's lines for
 * that.  */
void gpg_log_skesk (const skesk_t *sk);

/* The message is encrypted with N passphrases (SKESKs).  */
void gpg_log_passphrases (int n);

/* A PKESK for the key KEYID (8 octets) of public-key algorithm ALGO,
 * whose secret key sfenc never has: "gpg: encrypted with RSA key, ID
 * 0123456789ABCDEF".  */
void gpg_log_pkesk (const unsigned char *keyid, int algo);

#endif /*SFENC_GPG_LOG_H*/
