/* print-md.h - gpg's --print-md and --print-mds: digests of files
 *
 * gpg prints the hash of each file in a layout of its own: bytes in
 * groups, wrapped before column 80, or with --with-colons one line
 * "FILE:ALGO:HEX:".  Programs that ran gpg for it parse that layout,
 * so sfenc writes it byte for byte.
 */
#ifndef SFENC_PRINT_MD_H
#define SFENC_PRINT_MD_H

#include <stddef.h>
#include <gpg-error.h>

/* --print-md ALGO [FILES]: ARGS are ALGO (a libgcrypt hash name, or
 * "*" for gpg's seven) and the N_ARGS - 1 files, stdin when none.
 * ALL is set for --print-mds, whose ARGS are the files only.  A file
 * that cannot be read is reported and the others are still hashed.  */
gpg_error_t print_md_command (const char *const *args, size_t n_args,
                              int all);

#endif /*SFENC_PRINT_MD_H*/
