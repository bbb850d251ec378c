/* dearmor.h - --enarmor and --dearmor (dearmor.c)
 */
#ifndef SFENC_DEARMOR_H
#define SFENC_DEARMOR_H

#include <gpg-error.h>

/* Armor INFILE (stdin when NULL or "-") as a PGP ARMORED FILE block
 * into -o, else INFILE.asc, else stdout.  */
gpg_error_t enarmor_file (const char *infile);

/* Write the data of the armored INFILE (stdin when NULL or "-") into
 * -o, else INFILE.gpg, else stdout.  */
gpg_error_t dearmor_file (const char *infile);

#endif /*SFENC_DEARMOR_H*/
