/* multifile.h - gpg's commands over several files
 *
 * --decrypt-files (or -d --multifile) decrypts each file named, or
 * each name read from stdin, one a line, when none is named: FILE.gpg,
 * FILE.pgp, FILE.sig or FILE.asc to FILE, through decrypt_file, with
 * the passphrase asked for once.  --encrypt-files (or -e --multifile)
 * needs public keys and fails for each file as gpg fails without
 * them.  As gpg, a file that fails does not stop the others: each is
 * reported between the status lines FILE_START and FILE_DONE, and the
 * run exits with status 2 when one failed.
 */
#ifndef SFENC_MULTIFILE_H
#define SFENC_MULTIFILE_H

#include <gpg-error.h>

#include "options.h"

/* Make CL's command the one --multifile turns it into, or refuse what
 * gpg 2.2 refuses: -c, alone or with -e, with --multifile (FAILURE
 * option-postprocessing).  */
gpg_error_t multifile_resolve (struct command_line *cl);

/* Run --decrypt-files or --encrypt-files of CL.  Each file's failure
 * has been reported when it returns an error; *R_REPORTED says so (an
 * error of the command itself, as -o, has not).  */
gpg_error_t multifile_run (const struct command_line *cl, int *r_reported);

#endif /*SFENC_MULTIFILE_H*/
