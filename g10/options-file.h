/* options-file.h - gpg's options file: --options FILE and gpg.conf
 *
 * gpg reads options from a file before its command line: the file
 * given with --options, else, unless --no-options, the first of
 * gpg.conf-2.2.40, gpg.conf-2.2, gpg.conf-2 and gpg.conf found in its
 * home directory.  One option a line: its long name whole (no dashes,
 * no abbreviation), then after blanks its argument, the double quotes
 * around it removed; empty lines and lines whose first non-blank is
 * '#' are skipped.  A line that gpg's parser cannot take (an unknown
 * name, an argument missing or not expected) is reported as
 * "FILE:LINE: invalid option" (or "missing argument", "argument not
 * expected") and skipped, and the run goes on, as in gpg 2.2; a bad
 * value is refused as it is on the command line.
 */
#ifndef SFENC_OPTIONS_FILE_H
#define SFENC_OPTIONS_FILE_H

#include <gpg-error.h>

#include "options.h"

/* gpg's home directory: HOMEDIR (--homedir) when not NULL, else
 * $GNUPGHOME, else ~/.gnupg.  */
const char *options_home_dir (const char *homedir);

/* Read the options file PATH into OPT and CL, or when PATH is NULL
 * the default one in the home directory HOMEDIR, if there is one.  */
gpg_error_t options_file_read (struct command_line *cl, const char *path,
                               const char *homedir);

#endif /*SFENC_OPTIONS_FILE_H*/
