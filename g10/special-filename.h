/* special-filename.h - "-&N" as a name for file descriptor N
 *
 * With --enable-special-filenames, gpg takes an input or output file
 * name of the form "-&N" as the already open file descriptor N: that
 * is how GPGME hands it the pipes of its data objects.  Without the
 * option such a name is an ordinary file name, as in gpg.
 */
#ifndef SFENC_SPECIAL_FILENAME_H
#define SFENC_SPECIAL_FILENAME_H

/* --enable-special-filenames.  */
void special_filenames_enable (void);

/* The descriptor NAME stands for, or -1 when it names a file (or
 * special names are not enabled).  */
int special_filename_fd (const char *name);

/* True when NAME is not a file name: NULL, "-" (stdin or stdout), or a
 * special name.  */
int is_stream_name (const char *name);

#endif /*SFENC_SPECIAL_FILENAME_H*/
