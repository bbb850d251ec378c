/* gpg-log.c - the lines of gpg's log that programs read
 */
#include <config.h>

#include <stdarg.h>
#include <stdio.h>

#include "libsfcipher.h"
#include "gpg-log.h"
#include "options.h"
#include "progress.h"
#include "s2k.h"
#include "seipd2.h"


static void gpg_log (const char *fmt, ...)
  __attribute__ ((format (printf, 1, 2)));

/* Write "gpg: " and FMT as one line on stderr, unless -q, as gpg's
 * log_info writes it.  */
static void
gpg_log (const char *fmt, ...)
{
  va_list ap;

  if (opt.quiet)
    return;
  progress_break_line ();
  fputs ("gpg: ", stderr);
  va_start (ap, fmt);
  vfprintf (stderr, fmt, ap);
  va_end (ap);
  putc ('\n', stderr);
}


void
gpg_log_skesk (const skesk_t *sk)
{
  const sf_cipher_spec_t *spec;

  /* gpg names the cipher by the name of its table, which sfenc's
   * table shares, and the mode: CFB for a version 4 SKESK, else its
   * AEAD mode; and what the SKESK's key decrypts: a session key when
   * the SKESK holds one, else the data.  */
  if (sf_table_find_id (sk->cipher_algo, NULL, &spec))
    gpg_log ("encrypted with unknown algorithm %d", sk->cipher_algo);
  else
    gpg_log ("%s.%s encrypted %s", spec->name,
             sk->version == 4 ? "CFB" : aead_algo_name (sk->aead_algo),
             sk->esklen ? "session key" : "data");
  if (sk->s2k.mode != S2K_ARGON2 && !digest_algo_supported (sk->s2k.hash_algo))
    gpg_log ("passphrase generated with unknown digest algorithm %d",
             sk->s2k.hash_algo);
}


void
gpg_log_passphrases (int n)
{
  gpg_log ("encrypted with %d passphrase%s", n, n == 1 ? "" : "s");
}


/* gpg's name of the public-key algorithm ALGO.  */
static const char *
pubkey_algo_name (int algo)
{
  switch (algo)
    {
    case 1: case 2: case 3: return "RSA";
    case 16: case 20: return "ELG";
    case 17: return "DSA";
    case 18: return "ECDH";
    case 19: return "ECDSA";
    case 22: return "EDDSA";
    default: return "?";
    }
}


void
gpg_log_pkesk (const unsigned char *keyid, int algo)
{
  gpg_log ("encrypted with %s key, ID %02X%02X%02X%02X%02X%02X%02X%02X",
           pubkey_algo_name (algo), keyid[0], keyid[1], keyid[2], keyid[3],
           keyid[4], keyid[5], keyid[6], keyid[7]);
}
