/* gen-random.c - gpg's --gen-random: bytes of libgcrypt's generator
 */
#include <config.h>

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <gcrypt.h>

#include "armor.h"
#include "error.h"
#include "gen-random.h"
#include "options.h"

/* Bytes asked of libgcrypt at a time: gpg's chunk, a multiple of 3 so
 * that the base64 of the chunks joins up without padding.  */
#define CHUNK 99

#define USAGE "sfenc [options] --gen-random 0|1|2 [count]"


/* Parse the decimal ARG, MIN..MAX, into *R_VALUE.  */
static int
parse_arg (const char *arg, long min, long max, long *r_value)
{
  char *end;

  errno = 0;
  *r_value = strtol (arg, &end, 10);
  return *arg && !*end && !errno && *r_value >= min && *r_value <= max;
}


/* Write the N bytes at P, as base64 with -a.  */
static gpg_error_t
write_chunk (const unsigned char *p, size_t n)
{
  char b64[CHUNK / 3 * 4];

  if (opt.armor)
    {
      armor_encode_base64 (p, n, b64);
      n = (n + 2) / 3 * 4;
      p = (const unsigned char *)b64;
    }
  if (fwrite (p, 1, n, stdout) != n)
    return fail (gpg_error_from_syserror (), "stdout", "write error: %s",
                 strerror (errno));
  return 0;
}


gpg_error_t
gen_random_command (const char *const *args, size_t n_args)
{
  gpg_error_t err = 0;
  long level, count = 0;
  int endless;

  if (n_args < 1 || n_args > 2 || !parse_arg (args[0], 0, 2, &level)
      || (n_args == 2 && !parse_arg (args[1], 0, LONG_MAX, &count)))
    return fail (gpg_error (GPG_ERR_INV_ARG), "usage", USAGE);
  endless = !count;
  while (!err && (endless || count))
    {
      size_t n = !endless && count < CHUNK ? (size_t)count : CHUNK;
      unsigned char *p = gcry_random_bytes (n, level);

      err = write_chunk (p, n);
      gcry_free (p);
      count -= endless ? 0 : (long)n;
    }
  if (!err && opt.armor && putchar ('\n') == EOF)
    err = fail (gpg_error_from_syserror (), "stdout", "write error: %s",
                strerror (errno));
  return err;
}


gpg_error_t
gen_prime_command (void)
{
  return fail (gpg_error (GPG_ERR_NOT_SUPPORTED), "--gen-prime",
               "not supported, as in gpg 2.2");
}
