/* mdc.c - the SHA-1 of the MDC, with the CFB it runs beside
 *
 * By default the hash is sfenc's own SHA-1 (cipher/sha1.c) through
 * sf_cipher_encrypt_sha1 and sf_cipher_decrypt_sha1, which run the
 * cipher implementation's stitched CFB + SHA-1 kernel where it has
 * one: paying for CFB and SHA-1 in series is most of what an SEIPD
 * packet costs.  --cipher-impl gcrypt keeps libgcrypt's SHA-1 beside
 * libgcrypt's cipher, as gpg runs them, so that it stays the honest
 * reference run within sfenc.
 */
#include <config.h>

#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <gcrypt.h>

#include "libsfcipher.h"
#include "packet.h"
#include "error.h"
#include "log.h"
#include "options.h"
#include "mdc.h"

struct mdc
{
  sf_cipher_hd_t cipher;
  gcry_md_hd_t gcry;        /* libgcrypt's SHA-1, or NULL for sfenc's.  */
  sf_sha1_t own;
};


/* Tell with -v which SHA-1 hashes, and whether stitched.  */
static void
log_choice (const mdc_t *mdc)
{
  const sf_cipher_spec_t *spec = sf_cipher_get_spec (mdc->cipher);

  if (mdc->gcry)
    log_info ("MDC: SHA-1 (libgcrypt)");
  else if (sf_cipher_cfb_sha1 (mdc->cipher))
    log_info ("MDC: SHA-1 (%s, stitched with %s)", sf_sha1_impl_name (),
              spec->impl);
  else
    log_info ("MDC: SHA-1 (%s)", sf_sha1_impl_name ());
}


gpg_error_t
mdc_open (mdc_t **r_mdc, sf_cipher_hd_t cipher)
{
  mdc_t *mdc;
  gpg_error_t err = 0;

  *r_mdc = NULL;
  mdc = calloc (1, sizeof *mdc);
  if (!mdc)
    return fail (gpg_error_from_syserror (), "out of core", NULL);
  mdc->cipher = cipher;
  if (opt.cipher_impl && !strcasecmp (opt.cipher_impl, "gcrypt"))
    err = gcry_md_open (&mdc->gcry, GCRY_MD_SHA1, 0);
  else
    sf_sha1_init (&mdc->own);
  if (err)
    {
      free (mdc);
      return fail (err, "SHA-1", NULL);
    }
  log_choice (mdc);
  *r_mdc = mdc;
  return 0;
}


void
mdc_close (mdc_t *mdc)
{
  if (!mdc)
    return;
  gcry_md_close (mdc->gcry);
  sf_wipememory (mdc, sizeof *mdc);
  free (mdc);
}


/* Hash and encrypt, or decrypt and hash, LEN bytes.  */
static gpg_error_t
crypt_slice (mdc_t *mdc, int encrypting, unsigned char *out,
             const unsigned char *in, size_t len)
{
  gpg_error_t err;

  if (!mdc->gcry)
    return encrypting
           ? sf_cipher_encrypt_sha1 (mdc->cipher, out, in, len, &mdc->own)
           : sf_cipher_decrypt_sha1 (mdc->cipher, out, in, len, &mdc->own);
  if (encrypting)
    {
      gcry_md_write (mdc->gcry, in, len);
      return sf_cipher_encrypt (mdc->cipher, out, in, len);
    }
  err = sf_cipher_decrypt (mdc->cipher, out, in, len);
  if (!err)
    gcry_md_write (mdc->gcry, out, len);
  return err;
}


/* A slice at a time, so that where the hash and the cipher run in
 * series the second pass finds the data in the L1 cache.  */
static gpg_error_t
crypt_slices (mdc_t *mdc, int encrypting, unsigned char *out,
              const unsigned char *in, size_t len)
{
  gpg_error_t err = 0;
  size_t n;

  for (; !err && len; in += n, out += n, len -= n)
    {
      n = len < CRYPT_SLICE ? len : CRYPT_SLICE;
      err = crypt_slice (mdc, encrypting, out, in, n);
    }
  return err;
}


gpg_error_t
mdc_encrypt (mdc_t *mdc, unsigned char *out, const unsigned char *in,
             size_t len)
{
  return crypt_slices (mdc, 1, out, in, len);
}


gpg_error_t
mdc_decrypt (mdc_t *mdc, unsigned char *out, const unsigned char *in,
             size_t len)
{
  return crypt_slices (mdc, 0, out, in, len);
}


void
mdc_final (mdc_t *mdc, unsigned char digest[SF_SHA1_DIGEST_LEN])
{
  if (mdc->gcry)
    memcpy (digest, gcry_md_read (mdc->gcry, GCRY_MD_SHA1),
            SF_SHA1_DIGEST_LEN);
  else
    sf_sha1_final (&mdc->own, digest);
}
