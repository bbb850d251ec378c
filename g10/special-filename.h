/* special-filename.h - "-&N" as a name for file descriptor N
 *
 * With --enable-special-filenames, gpg takes an input or output file
 * name of the form "-&N" as the already open file descriptor N: that
 * is how GPGME hands it the pipes of its data objects.  Without the
 * option such a name is an ordinary file name, as in gpg.
 */
#ifndef SFENC_SPECIAL_FILENAME_H
#define SFENC_SPECIAL_FILENAME_H

#include <gpg-error.h>

#include "iobuf.h"

/* --enable-special-filenames.  */
void special_filenames_enable (void);

/* The descriptor NAME stands for, or -1 when it names a file (or
 * special names are not enabled).  */
int special_filename_fd (const char *name);

/* True when NAME is not a file name: NULL, "-" (stdin or stdout), or a
 * special name.  */
int is_stream_name (const char *name);

/* Open the input INFILE into *IN: stdin when INFILE is NULL or "-",
 * the descriptor of a special name, else the file (closed by the
 * caller when IN->fd is above 0).  */
gpg_error_t open_input (const char *infile, fd_stream_t *in);

#endif /*SFENC_SPECIAL_FILENAME_H*/
