/* compliance.c - gpg's compliance modes (--compliance, --openpgp, ...)
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <gcrypt.h>

#include "compliance.h"
#include "error.h"
#include "log.h"
#include "options.h"
#include "s2k.h"
#include "seipd2.h"
#include "status.h"

/* The names of --compliance, in the order gpg lists them.  */
static const struct
{
  const char *name;
  enum compliance mode;
} mode_names[] =
  {
    { "gnupg", COMPLIANCE_GNUPG },
    { "openpgp", COMPLIANCE_OPENPGP },
    { "rfc4880bis", COMPLIANCE_RFC4880BIS },
    { "rfc4880", COMPLIANCE_OPENPGP },
    { "rfc2440", COMPLIANCE_RFC2440 },
    { "pgp6", COMPLIANCE_PGP6 },
    { "pgp7", COMPLIANCE_PGP7 },
    { "pgp8", COMPLIANCE_PGP8 },
    { "de-vs", COMPLIANCE_DE_VS }
  };

#define N_MODE_NAMES (sizeof mode_names / sizeof *mode_names)

/* OpenPGP's cipher ids, for the modes' lists.  */
enum
  {
    ID_IDEA = 1, ID_3DES = 2, ID_CAST5 = 3, ID_AES = 7, ID_AES192 = 8,
    ID_AES256 = 9, ID_TWOFISH = 10
  };

/* The status flag of de-vs compliance in gpg 2.2.  */
#define DE_VS_STATUS_FLAG "23"

static enum compliance current;
static int required;

/* --disable-cipher-algo, as many as a list option may be given.  */
static const char *disabled[MAX_LIST_OPTION];
static size_t n_disabled;

/* gpg sets the RFC modes' cipher, and warns of RFC 4880bis, when the
 * option is given, and a later mode does not undo that.  */
static int rfc_cipher;
static int rfc4880bis_given;


/* Set the mode MODE, and what the option does beyond that.  */
static void
set_mode (enum compliance mode)
{
  current = mode;
  /* gpg's RFC 2440 mode strips blanks at line ends in text mode, its
   * OpenPGP and de-vs modes keep them, the others leave the choice
   * made before.  */
  if (mode == COMPLIANCE_RFC2440)
    opt.rfc2440_text = 1;
  else if (mode == COMPLIANCE_OPENPGP || mode == COMPLIANCE_RFC4880BIS
           || mode == COMPLIANCE_DE_VS)
    opt.rfc2440_text = 0;
  if (mode == COMPLIANCE_OPENPGP || mode == COMPLIANCE_RFC4880BIS
      || mode == COMPLIANCE_RFC2440)
    rfc_cipher = 1;
  if (mode == COMPLIANCE_RFC4880BIS)
    rfc4880bis_given = 1;
}


gpg_error_t
compliance_set_name (const char *name)
{
  char names[128] = "";
  size_t i;

  for (i = 0; i < N_MODE_NAMES; i++)
    if (!strcasecmp (name, mode_names[i].name))
      {
        set_mode (mode_names[i].mode);
        return 0;
      }
  for (i = 0; i < N_MODE_NAMES; i++)
    snprintf (names + strlen (names), sizeof names - strlen (names), "%s%s",
              i ? ", " : "", mode_names[i].name);
  /* gpg lists the values for "help", and fails.  */
  if (!strcasecmp (name, "help"))
    return fail (gpg_error (GPG_ERR_INV_VALUE), "--compliance",
                 "valid values: %s", names);
  return fail (gpg_error (GPG_ERR_INV_VALUE), "--compliance",
               "invalid value '%s' (%s)", name, names);
}


void
compliance_require (void)
{
  required = 1;
}


/* The name of the mode as gpg writes it in its messages.  */
static const char *
mode_name (void)
{
  size_t i;

  for (i = 0; i < N_MODE_NAMES; i++)
    if (mode_names[i].mode == current)
      return mode_names[i].name;
  return "?";
}


gpg_error_t
compliance_apply (void)
{
  const char *rfc = current == COMPLIANCE_OPENPGP ? "RFC 4880 (--openpgp)"
                    : current == COMPLIANCE_RFC2440 ? "RFC 2440 (--rfc2440)"
                    : NULL;

  if (rfc4880bis_given)
    log_warning ("WARNING: using experimental features from RFC4880bis!");
  if (rfc && opt.aead_algo)
    return fail (gpg_error (GPG_ERR_INV_ARG), "--aead-algo", "%s has no AEAD",
                 rfc);
  if (rfc && opt.s2k_mode == S2K_ARGON2)
    return fail (gpg_error (GPG_ERR_INV_ARG), "--s2k-mode",
                 "%s has no Argon2", rfc);
  /* gpg's RFC modes use 3DES, RFC 4880's one required cipher, when no
   * cipher is given.  */
  if (rfc_cipher && !opt.s2k_cipher_algo)
    opt.s2k_cipher_algo = "3DES";
  return 0;
}


/* Whether the PGP version of the mode reads cipher ID.  */
static int
pgp_reads (int id)
{
  switch (id)
    {
    case ID_IDEA: case ID_3DES: case ID_CAST5:
      return 1;
    case ID_AES: case ID_AES192: case ID_AES256: case ID_TWOFISH:
      return current == COMPLIANCE_PGP7;
    default:
      return 0;
    }
}


/* Whether cipher ID in AEAD mode AEAD_ALGO (0 for CFB) is de-vs
 * compliant: AES and 3DES in CFB or OCB mode.  */
static int
de_vs_cipher (int id, int aead_algo)
{
  return (id == ID_3DES || id == ID_AES || id == ID_AES192
          || id == ID_AES256)
         && (!aead_algo || aead_algo == AEAD_ALGO_OCB);
}


/* Whether libgcrypt claims de-vs compliance, as gpg checks it: a
 * version from 1.8.1 before 1.9.0, or a later one that names de-vs in
 * its "compliance" configuration.  */
static int
de_vs_library (void)
{
  char *config, *field;
  int yes;

  if (!gcry_check_version ("1.9.0"))
    return !!gcry_check_version ("1.8.1");
  config = gcry_get_config (0, "compliance");
  field = config ? strchr (config, ':') : NULL;
  yes = field && strstr (field, "de-vs");
  gcry_free (config);
  return yes;
}


gpg_error_t
compliance_check_encryption (const sf_cipher_spec_t *spec)
{
  /* gpg checks only the cipher given with --cipher-algo.  */
  if ((current == COMPLIANCE_PGP6 || current == COMPLIANCE_PGP7)
      && opt.cipher_algo && !pgp_reads (spec->openpgp_id))
    {
      log_warning ("cipher algorithm '%s' may not be used in"
                   " --compliance=%s mode", spec->name, mode_name ());
      log_warning ("this message may not be usable by PGP %c.x",
                   current == COMPLIANCE_PGP6 ? '6' : '7');
    }
  if (current == COMPLIANCE_RFC2440)
    return fail (gpg_error (GPG_ERR_NOT_SUPPORTED), "--compliance=rfc2440",
                 "sfenc does not write messages without integrity"
                 " protection (RFC 2440's), which gpg writes in this mode");
  if (current != COMPLIANCE_DE_VS)
    return 0;
  if (!de_vs_cipher (spec->openpgp_id, opt.aead_algo))
    return fail (gpg_error (GPG_ERR_CIPHER_ALGO), "--compliance=de-vs",
                 "cipher algorithm '%s' may not be used in"
                 " --compliance=de-vs mode", spec->name);
  if (!de_vs_library ())
    {
      status_error ("random-compliance", gpg_error (GPG_ERR_FORBIDDEN));
      return fail (gpg_error (GPG_ERR_FORBIDDEN), "--compliance=de-vs",
                   "RNG is not compliant with --compliance=de-vs mode");
    }
  return 0;
}


gpg_error_t
compliance_check_decryption (const sf_cipher_spec_t *spec, int aead_algo)
{
  int compliant = de_vs_cipher (spec->openpgp_id, aead_algo)
                  && de_vs_library ();

  if (compliant)
    status_decryption_compliance (DE_VS_STATUS_FLAG);
  if (required && current == COMPLIANCE_DE_VS && !compliant)
    {
      status_failure ("compliance-check", gpg_error (GPG_ERR_FORBIDDEN));
      return fail (gpg_error (GPG_ERR_FORBIDDEN), "--require-compliance",
                   "operation forced to fail due to unfulfilled"
                   " compliance rules");
    }
  return 0;
}


int
compliance_de_vs_active (void)
{
  return current == COMPLIANCE_DE_VS && de_vs_library ();
}


gpg_error_t
compliance_disable_cipher (const char *name)
{
  if (n_disabled == MAX_LIST_OPTION)
    return fail (gpg_error (GPG_ERR_INV_ARG), "--disable-cipher-algo",
                 "given more than %d times", MAX_LIST_OPTION);
  disabled[n_disabled++] = name;
  return 0;
}


int
compliance_cipher_disabled (const sf_cipher_spec_t *spec)
{
  size_t i;

  for (i = 0; i < n_disabled; i++)
    if (sf_spec_has_name (spec, disabled[i]))
      return 1;
  return 0;
}
