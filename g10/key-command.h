/* key-command.h - the gpg commands that need keys
 *
 * sfenc keeps no keys: it encrypts and decrypts with a passphrase.  A
 * client that asks it for anything that needs a key (-e -r, --sign,
 * --list-keys, --import, ...) gets what gpg gives when it has no
 * such key: its status lines, one line on stderr and exit status 2,
 * so that the client reports an error instead of waiting.
 */
#ifndef SFENC_KEY_COMMAND_H
#define SFENC_KEY_COMMAND_H

#include <stddef.h>
#include <gpg-error.h>

/* What a key command needs, which decides gpg's failure lines.  */
enum key_need
  {
    NEEDS_PUBLIC_KEY,           /* -e: INV_RECP for each recipient.  */
    NEEDS_SECRET_KEY,           /* Signing: INV_SGNR.  */
    NEEDS_KEYRING               /* Everything else.  */
  };

/* Fail the command COMMAND ("encrypt", "list-keys", ...), given as
 * OPTION ("-e", "--list-k", ...), which NEEDS that; the N_RECIPIENTS
 * RECIPIENTS (-r) and SIGNER (-u, NULL if none) are named in the
 * status lines.  */
gpg_error_t key_command_fail (const char *option, const char *command,
                              enum key_need needs,
                              const char *const *recipients,
                              size_t n_recipients, const char *signer);

#endif /*SFENC_KEY_COMMAND_H*/
