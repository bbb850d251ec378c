/* passphrase.h - obtaining the passphrase
 */
#ifndef SFENC_PASSPHRASE_H
#define SFENC_PASSPHRASE_H

#include <gpg-error.h>

/* Longest passphrase accepted: far above any real use, and above what
 * gpg 2.2 itself can hold in its secure memory (about 32 KiB).  */
#define MAX_PASSPHRASE 65536

/* Obtain the passphrase from the options or the terminal, in secure
 * memory; release it with passphrase_release.  ENCRYPTING asks twice
 * on a terminal and refuses an empty passphrase, as gpg -c does.  */
gpg_error_t passphrase_get (char **r_pass, int encrypting);

/* Wipe and free PASS; NULL is allowed.  */
void passphrase_release (char *pass);

/* Read one line from FD (NAME in messages) into secure memory at
 * *R_LINE, without its line end; *R_EOF says that FD ended before a
 * line end, and then *R_LINE is NULL.  Release the line with
 * passphrase_release.  */
gpg_error_t passphrase_read_line (int fd, const char *name, char **r_line,
                                  int *r_eof);

/* True when passphrase_get would ask: on the terminal or on the
 * command descriptor, so after NEED_PASSPHRASE_SYM.  */
int passphrase_is_prompted (void);

/* True when an option gives the passphrase (--passphrase,
 * --passphrase-fd, --passphrase-file): it can be read before it is
 * needed.  */
int passphrase_is_given (void);

/* Before each file of --decrypt-files: keep the passphrase that
 * passphrase_get obtains, and hand out copies of it instead of asking
 * again; passphrase_was_kept says whether one was kept before the
 * file; passphrase_forget wipes it at the end.  */
void passphrase_keep (void);
int passphrase_was_kept (void);
void passphrase_forget (void);

#endif /*SFENC_PASSPHRASE_H*/
