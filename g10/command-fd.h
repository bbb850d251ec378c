/* command-fd.h - questions answered on the command descriptor
 *
 * With --command-fd N, gpg asks its questions as status lines and
 * reads each answer as one line from N (GnuPG's doc/DETAILS, "Format
 * of the --command-fd input"): "GET_HIDDEN passphrase.enter" for the
 * passphrase, "GET_BOOL openfile.overwrite.okay" before replacing a
 * file; "GOT_IT" follows each answer.  That is how GPGME passes the
 * passphrase of a loopback pinentry and how Emacs answers gpg.
 */
#ifndef SFENC_COMMAND_FD_H
#define SFENC_COMMAND_FD_H

#include <gpg-error.h>

/* Read the answers from the open descriptor FD (--command-fd).  */
gpg_error_t command_fd_set (int fd);

/* True when questions are asked on the command descriptor.  */
int command_fd_enabled (void);

/* Ask KEYWORD as GET_HIDDEN: the answer line, in secure memory, at
 * *R_LINE (release it with passphrase_release), or GPG_ERR_CANCELED
 * when the descriptor ended before a line end or the answer held
 * Control-D.  */
gpg_error_t command_get_hidden (const char *keyword, char **r_line);

/* Ask KEYWORD as GET_BOOL: *R_YES is 1 for an answer "y" or "yes"
 * (in any case), as gpg reads it, and 0 for anything else.  */
gpg_error_t command_get_bool (const char *keyword, int *r_yes);

#endif /*SFENC_COMMAND_FD_H*/
