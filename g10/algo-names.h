/* algo-names.h - algorithm names in options, read as gpg 2.2 reads
 * them
 *
 * gpg takes a cipher as libgcrypt names one of OpenPGP's ciphers
 * (aliases included: "AES-256", "RIJNDAEL") or as S and its id
 * ("S9"); a hash by its name or as H and its id ("H8"); a compression
 * algorithm by its name or as Z and its id ("Z2").  A preference
 * string (--personal-*-preferences) is a list of such items of any
 * kind, and of the flags mdc, no-mdc, ks-modify and no-ks-modify,
 * each at most once; each option then takes the items of its own
 * kind.  gpg refuses a name it cannot read in any of these options,
 * whatever the command; so does sfenc, in gpg's words where a client
 * might read them.
 */
#ifndef SFENC_ALGO_NAMES_H
#define SFENC_ALGO_NAMES_H

#include <gpg-error.h>

enum pref_kind
  {
    PREF_CIPHER,
    PREF_DIGEST,
    PREF_COMPRESS
  };

/* Read the preference string LIST of OPTION as gpg does, and store at
 * *R_FIRST the id of its first item of KIND, or -1 when it has none
 * ("none" and "" are empty lists).  Fails on an item gpg does not
 * read or reads twice.  */
gpg_error_t algo_prefs_first (const char *option, const char *list,
                              enum pref_kind kind, int *r_first);

/* Refuse the cipher NAME of OPTION when neither gpg reads it nor the
 * cipher table (with the modules loaded) has it.  */
gpg_error_t algo_check_cipher_name (const char *option, const char *name);

#endif /*SFENC_ALGO_NAMES_H*/
