/* hkdf.c - HKDF (RFC 5869) over libgcrypt's HMAC
 *
 * RFC 9580 derives the key that encrypts a v6 SKESK's session key and
 * the message key and nonce of an SEIPD v2 packet with HKDF-SHA256.
 * libgcrypt 1.10 has HMAC but no HKDF, so the two steps are written
 * here: PRK = HMAC (salt, IKM), then T(i) = HMAC (PRK, T(i-1) || info
 * || i).  Checked with RFC 5869's test vectors in tests/t-hkdf.c.
 */
#include <config.h>

#include <string.h>
#include <gcrypt.h>

#include "libsfcipher.h"
#include "hkdf.h"

/* The longest digest of a hash libgcrypt offers for HMAC here.  */
#define MAX_DIGEST 64


/* Key MD (an HMAC handle) with KEY, or with HashLen zero bytes when
 * KEY is empty: an HMAC key is padded with zeros anyway, so both mean
 * the same, and libgcrypt need not take an empty key.  */
static gpg_error_t
set_hmac_key (gcry_md_hd_t md, const void *key, size_t keylen, size_t dlen)
{
  static const unsigned char zeros[MAX_DIGEST];

  if (!keylen)
    return gcry_md_setkey (md, zeros, dlen);
  return gcry_md_setkey (md, key, keylen);
}


gpg_error_t
hkdf (int md_algo, const void *salt, size_t saltlen,
      const void *ikm, size_t ikmlen, const void *info, size_t infolen,
      void *okm, size_t okmlen)
{
  gpg_error_t err;
  gcry_md_hd_t md;
  unsigned char *prk, *t;
  unsigned char counter;
  size_t dlen = gcry_md_get_algo_dlen (md_algo), done, n;

  if (!dlen || dlen > MAX_DIGEST)
    return gpg_error (GPG_ERR_DIGEST_ALGO);
  if (okmlen > 255 * dlen)
    return gpg_error (GPG_ERR_INV_LENGTH);
  err = gcry_md_open (&md, md_algo, GCRY_MD_FLAG_HMAC | GCRY_MD_FLAG_SECURE);
  if (err)
    return err;
  prk = gcry_malloc_secure (2 * dlen);
  if (!prk)
    {
      err = gpg_error_from_syserror ();
      gcry_md_close (md);
      return err;
    }
  t = prk + dlen;

  err = set_hmac_key (md, salt, saltlen, dlen);
  if (!err)
    {
      gcry_md_write (md, ikm, ikmlen);
      memcpy (prk, gcry_md_read (md, md_algo), dlen);
      err = gcry_md_setkey (md, prk, dlen);
    }
  for (done = 0, counter = 1; !err && done < okmlen; done += n, counter++)
    {
      gcry_md_reset (md);
      if (counter > 1)
        gcry_md_write (md, t, dlen);
      gcry_md_write (md, info, infolen);
      gcry_md_putc (md, counter);
      memcpy (t, gcry_md_read (md, md_algo), dlen);
      n = okmlen - done < dlen ? okmlen - done : dlen;
      memcpy ((unsigned char *)okm + done, t, n);
    }
  gcry_md_close (md);
  sf_wipememory (prk, 2 * dlen);
  gcry_free (prk);
  return err;
}
