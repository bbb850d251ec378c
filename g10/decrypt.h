/* decrypt.h - reading a passphrase-protected message (sfenc -d)
 */
#ifndef SFENC_DECRYPT_H
#define SFENC_DECRYPT_H

#include <gpg-error.h>

/* Decrypt the message in INFILE (stdin when NULL or "-"), binary or
 * armored, into -o, else stdout.  */
gpg_error_t decrypt_file (const char *infile);

#endif /*SFENC_DECRYPT_H*/
