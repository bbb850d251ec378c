/* s2k.c - OpenPGP string-to-key
 *
 * RFC 4880 3.7.1: simple (0), salted (1) and iterated and salted (3)
 * S2K over MD5, SHA-1, RIPEMD-160 and SHA-2 through libgcrypt.  When
 * the key is longer than the hash, further hash contexts are preloaded
 * with 1, 2, ... zero octets.  The iteration count is coded in one
 * octet (3.7.1.3); gpg's default, 65011712, is the largest, 0xff.
 * Argon2 (4, RFC 9580 3.7.1.4) is in argon2.c.
 * Checked against GnuPG for every mode and hash in
 * tests/sfenc-interop.bats.
 */
#include <config.h>

#include <string.h>
#include <strings.h>
#include <stdlib.h>
#include <gcrypt.h>

#include "libsfcipher.h"
#include "error.h"
#include "s2k.h"
#include "argon2.h"

/* OpenPGP's hashes by the names gpg 2.2 reads: libgcrypt's, with no
 * alias ("SHA-256" and "RMD160" are refused, as gpg refuses them).  */
static const struct
{
  int algo;
  const char *name;
} digest_names[] =
  {
    { GCRY_MD_MD5, "MD5" },
    { GCRY_MD_SHA1, "SHA1" },
    { GCRY_MD_RMD160, "RIPEMD160" },
    { GCRY_MD_SHA256, "SHA256" },
    { GCRY_MD_SHA384, "SHA384" },
    { GCRY_MD_SHA512, "SHA512" },
    { GCRY_MD_SHA224, "SHA224" }
  };

#define N_DIGESTS (sizeof digest_names / sizeof *digest_names)

/* Bytes of (salt || passphrase) repetitions hashed per call, so that
 * 65 MB of S2K input costs few calls into libgcrypt.  */
#define S2K_BUFFER 4096

/* The most bytes the iterated and salted S2K hashes: as many as the
 * count octet can say, 65011712 (0xff).  The fuzz harnesses (configure
 * --enable-fuzz) read hostile messages by the million, and as their
 * mutator raises the count octet, SHA-1 took a third of their time:
 * there 65536 bytes (the octet 0x60), so that no input is slow.  The
 * keys of larger counts then differ from those of other programs,
 * which only fuzzed messages use.  */
#ifdef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
# define S2K_MAX_COUNT 65536
#else
# define S2K_MAX_COUNT 65011712
#endif


int
digest_algo_from_name (const char *name)
{
  size_t i;
  char *end;
  long id;

  for (i = 0; i < N_DIGESTS; i++)
    if (!strcasecmp (name, digest_names[i].name))
      return digest_names[i].algo;
  /* As gpg: H and the id ("H8"), not the id alone.  */
  if ((name[0] != 'H' && name[0] != 'h') || name[1] < '0' || name[1] > '9')
    return 0;
  id = strtol (name + 1, &end, 10);
  if (!*end && digest_algo_supported (id))
    return id;
  return 0;
}


const char *
digest_algo_name (int algo)
{
  size_t i;

  for (i = 0; i < N_DIGESTS; i++)
    if (digest_names[i].algo == algo)
      return digest_names[i].name;
  return "?";
}


int
digest_algo_supported (int algo)
{
  size_t i;

  for (i = 0; i < N_DIGESTS; i++)
    if (digest_names[i].algo == algo)
      return 1;
  return 0;
}


unsigned long
s2k_decode_count (unsigned char c)
{
  return (16ul + (c & 15)) << ((c >> 4) + 6);
}


unsigned char
s2k_encode_count (unsigned long count)
{
  unsigned int c;

  /* The smallest coded count at least COUNT, as gpg rounds.  */
  for (c = 0; c < 255; c++)
    if (s2k_decode_count (c) >= count)
      break;
  return c;
}


gpg_error_t
s2k_derive (const s2k_t *s2k, const char *passphrase, unsigned char *key,
            size_t keylen)
{
  gpg_error_t err;
  gcry_md_hd_t md;
  size_t passlen = strlen (passphrase);
  size_t unitlen, dlen, pass_no, done, n;
  uint64_t count, total;
  unsigned char *units = NULL;
  size_t unitslen = 0;
  static const unsigned char zero = 0;

  if (s2k->mode == S2K_ARGON2)
    return argon2_derive (s2k->salt, s2k->argon2_t, s2k->argon2_p,
                          s2k->argon2_m, passphrase, key, keylen);
  err = gcry_md_open (&md, s2k->hash_algo, GCRY_MD_FLAG_SECURE);
  if (err)
    return fail (err, "string-to-key", "%s: %s",
                 digest_algo_name (s2k->hash_algo), gpg_strerror (err));
  dlen = gcry_md_get_algo_dlen (s2k->hash_algo);
  unitlen = 8 + passlen;
  count = s2k->mode == 3 ? s2k_decode_count (s2k->count_byte) : unitlen;
  if (count > S2K_MAX_COUNT)
    count = S2K_MAX_COUNT;
  if (count < unitlen)
    count = unitlen;
  if (s2k->mode == 3)
    {
      /* A buffer of whole repetitions of salt and passphrase, in
       * secure memory since it holds the passphrase.  */
      unitslen = (S2K_BUFFER / unitlen + 1) * unitlen;
      units = gcry_malloc_secure (unitslen);
      if (!units)
        {
          err = gpg_error_from_syserror ();
          gcry_md_close (md);
          return fail (err, "string-to-key", NULL);
        }
      for (n = 0; n < unitslen; n += unitlen)
        {
          memcpy (units + n, s2k->salt, 8);
          memcpy (units + n + 8, passphrase, passlen);
        }
    }

  for (pass_no = 0, done = 0; done < keylen; pass_no++)
    {
      gcry_md_reset (md);
      for (n = 0; n < pass_no; n++)
        gcry_md_write (md, &zero, 1);
      if (s2k->mode == 0)
        gcry_md_write (md, passphrase, passlen);
      else if (s2k->mode == 1)
        {
          gcry_md_write (md, s2k->salt, 8);
          gcry_md_write (md, passphrase, passlen);
        }
      else
        for (total = count; total; total -= n)
          {
            n = total < unitslen ? total : unitslen;
            gcry_md_write (md, units, n);
          }
      n = keylen - done < dlen ? keylen - done : dlen;
      memcpy (key + done, gcry_md_read (md, s2k->hash_algo), n);
      done += n;
    }
  gcry_md_close (md);
  if (units)
    {
      sf_wipememory (units, unitslen);
      gcry_free (units);
    }
  return 0;
}
