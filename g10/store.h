/* store.h - --store: a literal data packet, compressed, not encrypted
 */
#ifndef SFENC_STORE_H
#define SFENC_STORE_H

#include <gpg-error.h>

/* Write INFILE (stdin when NULL or "-") as gpg --store does into -o,
 * else INFILE.gpg (INFILE.asc with -a), else stdout.  */
gpg_error_t store_file (const char *infile);

#endif /*SFENC_STORE_H*/
