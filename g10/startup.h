/* startup.h - the process and libgcrypt made ready for a passphrase
 */
#ifndef SFENC_STARTUP_H
#define SFENC_STARTUP_H

#include <gpg-error.h>

/* Make the process fit to hold a passphrase: no core dumps, the three
 * standard descriptors open, write errors instead of SIGPIPE and
 * SIGXFSZ.  Returns false when a descriptor cannot be reopened.  */
int harden_process (void);

/* Initialise libgcrypt as gpg does: version check, secure memory,
 * done.  */
/* Start libgcrypt, its secure memory locked where the process may
 * lock memory; with REQUIRE_SECMEM (gpg's --require-secmem), fail
 * where it may not.  */
gpg_error_t init_libgcrypt (int require_secmem);

#endif /*SFENC_STARTUP_H*/
