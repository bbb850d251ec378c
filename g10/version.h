/* version.h - who sfenc says it is: --version, --list-config and
 * --list-gcrypt-config
 */
#ifndef SFENC_VERSION_H
#define SFENC_VERSION_H

#include <stddef.h>
#include <gpg-error.h>

/* The version of gpg whose interface sfenc implements for symmetric
 * work, and was checked against: Debian 12's gpg.  */
#define GPG_INTERFACE_VERSION "2.2.40"

/* --version: the gpg interface version on the first line, as the
 * programs that drive gpg parse it, then sfenc's own name and version,
 * its libraries and the algorithm lists.  */
void show_version (void);

/* --warranty: where gpg prints its licence's warranty terms.  */
void show_warranty (void);

/* --list-config: the "cfg:" lines of gpg --with-colons --list-config
 * for the N_ITEMS names ITEMS, or for all when N_ITEMS is 0.  */
gpg_error_t list_config (const char *const *items, size_t n_items);

/* --list-gcrypt-config: libgcrypt's configuration, as gpg prints
 * it.  */
gpg_error_t list_gcrypt_config (void);

/* --gpgconf-list: the defaults gpgconf reads from gpg 2.2.40, in its
 * format.  */
gpg_error_t gpgconf_list (void);

#endif /*SFENC_VERSION_H*/
