/* compliance.h - gpg's compliance modes (--compliance, --openpgp, ...)
 *
 * gpg 2.2 has one setting, the compliance mode, that --compliance
 * NAME and its shorthands (--gnupg, --openpgp, --rfc4880,
 * --rfc4880bis, --rfc2440, --pgp6, --pgp7, --pgp8, and --no-pgp2..8
 * for --gnupg) set; the last one given wins, but the RFC modes' cipher
 * stays when a later one is given, as in gpg.  For a passphrase
 * message it decides the cipher used when none is given (3DES in
 * the RFC modes), which ciphers gpg warns about (PGP 6 and 7) or
 * refuses (de-vs), and whether gpg's DECRYPTION_COMPLIANCE_MODE
 * status line is written.
 */
#ifndef SFENC_COMPLIANCE_H
#define SFENC_COMPLIANCE_H

#include <gpg-error.h>

#include "libsfcipher.h"

enum compliance
  {
    COMPLIANCE_GNUPG,           /* The default.  */
    COMPLIANCE_OPENPGP,         /* RFC 4880: --openpgp, --rfc4880.  */
    COMPLIANCE_RFC4880BIS,
    COMPLIANCE_RFC2440,
    COMPLIANCE_PGP6,
    COMPLIANCE_PGP7,
    COMPLIANCE_PGP8,
    COMPLIANCE_DE_VS            /* The German VS-NfD rules.  */
  };

/* --compliance NAME, and the shorthands --NAME: set the mode that
 * NAME (any case) names.  */
gpg_error_t compliance_set_name (const char *name);

/* --require-compliance: fail a decryption that the mode does not
 * allow (in gpg, only de-vs has such rules).  */
void compliance_require (void);

/* Once the options are parsed: apply the mode to the options, which
 * --cipher-algo and --s2k-cipher-algo override wherever they stand.  */
gpg_error_t compliance_apply (void);

/* -c: check the cipher SPEC, and the random generator, against the
 * mode; warn as gpg does or fail.  */
gpg_error_t compliance_check_encryption (const sf_cipher_spec_t *spec);

/* -d: the data is encrypted with SPEC in AEAD mode AEAD_ALGO (0 for
 * CFB): write DECRYPTION_COMPLIANCE_MODE when that is de-vs
 * compliant, and fail with --require-compliance when it is not.  */
gpg_error_t compliance_check_decryption (const sf_cipher_spec_t *spec,
                                         int aead_algo);

/* --disable-cipher-algo NAME: refuse that cipher, as gpg does; a
 * name no cipher has is ignored, as in gpg.  */
gpg_error_t compliance_disable_cipher (const char *name);

/* Whether SPEC is disabled with --disable-cipher-algo.  */
int compliance_cipher_disabled (const sf_cipher_spec_t *spec);

/* Whether the mode is de-vs and libgcrypt claims compliance with it,
 * as --gpgconf-list reports.  */
int compliance_de_vs_active (void);

#endif /*SFENC_COMPLIANCE_H*/
