/* encrypt.h - writing a passphrase-protected message (sfenc -c)
 */
#ifndef SFENC_ENCRYPT_H
#define SFENC_ENCRYPT_H

#include <gpg-error.h>

/* Encrypt INFILE (stdin when NULL or "-") as the options say, into
 * -o, else as gpg into INFILE.gpg (INFILE.asc with -a), else stdout.  */
gpg_error_t encrypt_file (const char *infile);

#endif /*SFENC_ENCRYPT_H*/
