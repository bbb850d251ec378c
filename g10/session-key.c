/* session-key.c - --show-session-key and --override-session-key
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <gcrypt.h>

#include "libsfcipher.h"
#include "error.h"
#include "options.h"
#include "passphrase.h"
#include "progress.h"
#include "session-key.h"
#include "skesk.h"
#include "status.h"

#define WHAT "--override-session-key"

/* "255.255:" and two digits per octet of the largest key.  */
#define SHOWN_MAX (8 + 2 * SKESK_MAX_KEY + 1)

/* The session key given on the command line, in secure memory.  */
static struct
{
  unsigned char *key;
  size_t keylen;
  int algo;
} given;


/* Parse the decimal id at *S, up to 255, and move *S past it.  */
static int
parse_id (const char **s)
{
  int v = 0, digits = 0;

  while (**s >= '0' && **s <= '9' && digits++ < 3)
    v = v * 10 + *(*s)++ - '0';
  return digits && v <= 255 ? v : -1;
}


static int
hex_value (char c)
{
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  if (c >= 'A' && c <= 'F')
    return c - 'A' + 10;
  return -1;
}


/* Parse TEXT, "ALGO:HEX" or "ALGO.AEAD:HEX", into GIVEN.  */
static gpg_error_t
parse_session_key (const char *text)
{
  const char *s = text;
  size_t len, i;
  int hi, lo;

  given.algo = parse_id (&s);
  if (given.algo > 0 && *s == '.')
    {
      s++;
      if (parse_id (&s) < 0)
        given.algo = -1;
    }
  len = given.algo > 0 && *s == ':' ? strlen (++s) : 0;
  if (!len || len % 2 || len / 2 > SKESK_MAX_KEY)
    return fail (gpg_error (GPG_ERR_INV_SESSION_KEY), WHAT, "not a session key"
                 " (ALGO:HEX, at most %d octets)", SKESK_MAX_KEY);
  given.key = gcry_malloc_secure (SKESK_MAX_KEY);
  if (!given.key)
    return fail (gpg_error_from_syserror (), "out of secure memory", NULL);
  for (i = 0; i < len / 2; i++)
    {
      hi = hex_value (s[2 * i]);
      lo = hex_value (s[2 * i + 1]);
      if (hi < 0 || lo < 0)
        return fail (gpg_error (GPG_ERR_INV_SESSION_KEY), WHAT,
                     "not a session key (a non-hex digit)");
      given.key[i] = hi << 4 | lo;
    }
  given.keylen = len / 2;
  return 0;
}


gpg_error_t
session_key_load (void)
{
  gpg_error_t err;
  char *line;
  int eof;

  if (opt.override_session_key)
    {
      err = parse_session_key (opt.override_session_key);
      /* The string is argv's, which ps shows: wiped at once.  */
      sf_wipememory ((char *)opt.override_session_key,
                     strlen (opt.override_session_key));
      return err;
    }
  if (opt.override_session_key_fd < 0)
    return 0;
  err = passphrase_read_line (opt.override_session_key_fd,
                              "--override-session-key-fd", &line, &eof);
  if (!err && !line)
    return fail (gpg_error (GPG_ERR_NO_DATA), "--override-session-key-fd",
                 "no session key on file descriptor %d",
                 opt.override_session_key_fd);
  if (!err)
    err = parse_session_key (line);
  passphrase_release (line);
  return err;
}


int
session_key_overridden (void)
{
  return given.key != NULL;
}


gpg_error_t
session_key_take (int data_algo, unsigned char *key, size_t size,
                  size_t *r_keylen, int *r_algo)
{
  if (data_algo && data_algo != given.algo)
    return fail (gpg_error (GPG_ERR_CIPHER_ALGO), WHAT, "the session key is"
                 " for cipher %d, but the data is encrypted with cipher %d",
                 given.algo, data_algo);
  if (given.keylen > size)
    return fail (gpg_error (GPG_ERR_INV_KEYLEN), WHAT, "%s",
                 gpg_strerror (GPG_ERR_INV_KEYLEN));
  memcpy (key, given.key, given.keylen);
  *r_keylen = given.keylen;
  *r_algo = given.algo;
  return 0;
}


void
session_key_show (int algo, int aead_algo, const unsigned char *key,
                  size_t keylen)
{
  char shown[SHOWN_MAX], *p = shown;
  size_t i;

  if (!opt.show_session_key || keylen > SKESK_MAX_KEY)
    return;
  p += aead_algo ? sprintf (p, "%d.%d:", algo, aead_algo)
                 : sprintf (p, "%d:", algo);
  for (i = 0; i < keylen; i++)
    p += sprintf (p, "%02X", key[i]);
  progress_break_line ();
  fprintf (stderr, "gpg: session key: '%s'\n", shown);
  status_session_key (shown);
  sf_wipememory (shown, sizeof shown);
}


void
session_key_release (void)
{
  if (given.key)
    sf_wipememory (given.key, SKESK_MAX_KEY);
  gcry_free (given.key);
  memset (&given, 0, sizeof given);
}
