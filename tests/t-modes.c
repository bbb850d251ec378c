/* t-modes.c - the generic modes: streaming, alignment, OpenPGP CFB
 *
 * The SP 800-38A answers themselves run in t-kat (vectors/aes.txt and
 * vectors/aes-ofb.txt, every AES implementation, the gcrypt one
 * included).  Here, for every usable implementation and every mode:
 *   - one call and the same data in random pieces give the same bytes;
 *   - in place and misaligned buffers give the same bytes;
 *   - decryption inverts encryption over random lengths;
 * and OpenPGP CFB with its resynchronisation is checked against
 * libgcrypt's (GCRY_CIPHER_ENABLE_SYNC) and against the steps of
 * RFC 4880 13.9 written out over ECB.  Arguments name dynamic
 * modules to load first.
 */
#include <config.h>

#include "t-common.h"

#define MAXLEN 2048
#define ROUNDS_PER_MODE 40

static int
is_stream_mode (enum sf_cipher_mode mode)
{
  return mode != SF_MODE_ECB && mode != SF_MODE_CBC;
}

/* Encrypt (or decrypt) IN into OUT in random pieces.  */
static void
crypt_in_pieces (sf_cipher_hd_t hd, int encrypting, unsigned char *out,
                 const unsigned char *in, size_t len, size_t granule)
{
  while (len)
    {
      size_t n = (prng_below (len / granule + 1)) * granule;
      gpg_error_t err;

      if (!n)
        n = len < granule ? len : granule;
      if (prng_below (4) == 0)
        n = len;
      err = encrypting ? sf_cipher_encrypt (hd, out, in, n)
                       : sf_cipher_decrypt (hd, out, in, n);
      check (!err, "piece of %zu: %s", n, gpg_strerror (err));
      in += n;
      out += n;
      len -= n;
    }
}

static void
check_streaming (const sf_cipher_spec_t *spec, enum sf_cipher_mode mode)
{
  size_t bs = spec->blocksize;
  size_t granule = is_stream_mode (mode) ? 1 : bs;
  unsigned char key[64], iv[SF_MAX_BLOCKSIZE];
  static unsigned char pt[MAXLEN + 16], whole[MAXLEN + 16];
  static unsigned char pieces[MAXLEN + 16], back[MAXLEN + 16];
  int round;

  for (round = 0; round < ROUNDS_PER_MODE; round++)
    {
      size_t len = prng_below (MAXLEN / granule + 1) * granule;
      size_t off = prng_below (8);
      sf_cipher_hd_t enc, dec;
      gpg_error_t err;

      prng_fill (key, spec->keylen);
      prng_fill (iv, bs);
      prng_fill (pt, len);

      enc = open_keyed (spec, mode, key, spec->keylen, iv);
      err = sf_cipher_encrypt (enc, whole, pt, len);
      check (!err, "%s (%s) %s: %s", spec->name, spec->impl,
             mode_name (mode), gpg_strerror (err));

      /* Pieces, at a misaligned address.  */
      sf_cipher_setiv (enc, iv, bs);
      crypt_in_pieces (enc, 1, pieces + off, pt, len, granule);
      check (!memcmp (whole, pieces + off, len),
             "%s (%s) %s: %zu bytes in pieces differ from one call",
             spec->name, spec->impl, mode_name (mode), len);

      /* In place.  */
      memcpy (back + off, pt, len);
      sf_cipher_setiv (enc, iv, bs);
      sf_cipher_encrypt (enc, back + off, back + off, len);
      check (!memcmp (whole, back + off, len),
             "%s (%s) %s: in place differs", spec->name, spec->impl,
             mode_name (mode));

      /* And back, in other pieces, in place.  */
      dec = open_keyed (spec, mode, key, spec->keylen, iv);
      crypt_in_pieces (dec, 0, back + off, back + off, len, granule);
      check (!memcmp (back + off, pt, len),
             "%s (%s) %s: %zu bytes do not decrypt back", spec->name,
             spec->impl, mode_name (mode), len);
      sf_cipher_close (enc);
      sf_cipher_close (dec);
    }
}


/* RFC 4880 13.9 steps 1-9 written out over ECB: encrypt the BS+2 byte
 * PREFIX, resynchronise, then encrypt DATA in plain CFB from the last
 * BS bytes of ciphertext.  */
static void
rfc4880_cfb (const sf_cipher_spec_t *spec, const unsigned char *key,
             const unsigned char *prefix, const unsigned char *data,
             size_t datalen, unsigned char *out)
{
  size_t bs = spec->blocksize;
  unsigned char fr[SF_MAX_BLOCKSIZE], fre[SF_MAX_BLOCKSIZE];
  sf_cipher_hd_t ecb = open_keyed (spec, SF_MODE_ECB, key, spec->keylen,
                                   NULL);
  size_t i, done;

  memset (fr, 0, bs);                                  /* step 1 */
  sf_cipher_encrypt (ecb, fre, fr, bs);                /* step 2 */
  for (i = 0; i < bs; i++)                             /* step 3 */
    out[i] = fre[i] ^ prefix[i];
  memcpy (fr, out, bs);                                /* step 4 */
  sf_cipher_encrypt (ecb, fre, fr, bs);                /* step 5 */
  out[bs] = fre[0] ^ prefix[bs];                       /* step 6 */
  out[bs + 1] = fre[1] ^ prefix[bs + 1];
  memcpy (fr, out + 2, bs);                            /* step 7 */
  for (done = 0; done < datalen; done += bs)           /* steps 8, 9 */
    {
      size_t n = datalen - done < bs ? datalen - done : bs;

      sf_cipher_encrypt (ecb, fre, fr, bs);
      for (i = 0; i < n; i++)
        out[bs + 2 + done + i] = fre[i] ^ data[done + i];
      memcpy (fr, out + bs + 2 + done, n);
    }
  sf_cipher_close (ecb);
}

static void
check_openpgp_cfb (const sf_cipher_spec_t *spec)
{
  size_t bs = spec->blocksize;
  unsigned char key[64], prefix[SF_MAX_BLOCKSIZE + 2];
  static unsigned char data[MAXLEN], ours[MAXLEN + 18], ref[MAXLEN + 18];
  static unsigned char theirs[MAXLEN + 18];
  int round;

  for (round = 0; round < ROUNDS_PER_MODE; round++)
    {
      size_t len = prng_below (MAXLEN);
      sf_cipher_hd_t hd;
      gcry_cipher_hd_t ghd;
      gpg_error_t err;

      prng_fill (key, spec->keylen);
      prng_fill (prefix, bs);
      prefix[bs] = prefix[bs - 2];       /* The quick-check bytes.  */
      prefix[bs + 1] = prefix[bs - 1];
      prng_fill (data, len);

      hd = open_keyed (spec, SF_MODE_OPENPGP_CFB, key, spec->keylen, NULL);
      sf_cipher_encrypt (hd, ours, prefix, bs + 2);
      err = sf_cipher_sync (hd);
      check (!err, "sync: %s", gpg_strerror (err));
      crypt_in_pieces (hd, 1, ours + bs + 2, data, len, 1);
      sf_cipher_close (hd);

      rfc4880_cfb (spec, key, prefix, data, len, ref);
      check (!memcmp (ours, ref, bs + 2 + len),
             "%s (%s): OpenPGP CFB with resync differs from RFC 4880 13.9"
             " (%zu bytes)", spec->name, spec->impl, len);

      /* A module's algorithm that libgcrypt lacks has RFC 4880's
       * steps alone to meet (main says so).  */
      if (gcry_cipher_map_name (spec->name))
        {
          err = gcry_cipher_open (&ghd, gcry_cipher_map_name (spec->name),
                                  GCRY_CIPHER_MODE_CFB,
                                  GCRY_CIPHER_ENABLE_SYNC);
          if (!err)
            err = gcry_cipher_ctl (ghd, GCRYCTL_SET_ALLOW_WEAK_KEY, NULL, 1);
          if (!err)
            err = gcry_setkey_allow_weak (ghd, key, spec->keylen);
          check (!err, "libgcrypt %s: %s", spec->name, gpg_strerror (err));
          if (err)
            return;
          gcry_cipher_encrypt (ghd, theirs, bs + 2, prefix, bs + 2);
          gcry_cipher_sync (ghd);
          gcry_cipher_encrypt (ghd, theirs + bs + 2, len, data, len);
          gcry_cipher_close (ghd);
          check (!memcmp (ours, theirs, bs + 2 + len),
                 "%s (%s): OpenPGP CFB differs from libgcrypt's", spec->name,
                 spec->impl);
        }

      /* Decryption mirrors it, resync included.  */
      hd = open_keyed (spec, SF_MODE_OPENPGP_CFB, key, spec->keylen, NULL);
      sf_cipher_decrypt (hd, theirs, ours, bs + 2);
      sf_cipher_sync (hd);
      crypt_in_pieces (hd, 0, theirs + bs + 2, ours + bs + 2, len, 1);
      sf_cipher_close (hd);
      check (!memcmp (theirs, prefix, bs + 2)
             && !memcmp (theirs + bs + 2, data, len),
             "%s (%s): OpenPGP CFB does not decrypt back", spec->name,
             spec->impl);
    }
}


static void
check_misuse (void)
{
  const sf_cipher_spec_t *spec;
  unsigned char buf[32] = { 0 }, key[32] = { 0 };
  sf_cipher_hd_t hd;
  gpg_error_t err;

  if (sf_table_find ("AES", "gcrypt", &spec))
    {
      check (0, "no gcrypt AES");
      return;
    }
  err = sf_cipher_open (&hd, spec, 0, 0);
  check (gpg_err_code (err) == GPG_ERR_INV_CIPHER_MODE && !hd,
         "invalid mode refused");
  err = sf_cipher_open (&hd, spec, SF_MODE_CBC, 0x80);
  check (gpg_err_code (err) == GPG_ERR_INV_FLAG, "invalid flag refused");

  err = sf_cipher_open (&hd, spec, SF_MODE_CBC, SF_CIPHER_SECURE);
  check (!err, "secure open: %s", gpg_strerror (err));
  err = sf_cipher_encrypt (hd, buf, buf, 16);
  check (gpg_err_code (err) == GPG_ERR_MISSING_KEY, "no key yet");
  err = sf_cipher_setkey (hd, key, 15);
  check (gpg_err_code (err) == GPG_ERR_INV_KEYLEN, "bad key length");
  err = sf_cipher_setkey (hd, key, 16);
  check (!err, "setkey: %s", gpg_strerror (err));
  err = sf_cipher_setiv (hd, buf, 8);
  check (gpg_err_code (err) == GPG_ERR_INV_LENGTH, "bad IV length");
  err = sf_cipher_encrypt (hd, buf, buf, 17);
  check (gpg_err_code (err) == GPG_ERR_INV_LENGTH, "CBC partial block");
  err = sf_cipher_sync (hd);
  check (gpg_err_code (err) == GPG_ERR_INV_CIPHER_MODE,
         "sync outside OpenPGP CFB");
  sf_cipher_close (hd);
  sf_cipher_close (NULL);
}


int
main (int argc, char **argv)
{
  const sf_table_entry_t *e;
  size_t i, m, nimpl = 0;

  test_init ("t-modes");
  test_load_modules (argc, argv);
  prng_seed ();
  check_misuse ();
  for (i = 0; (e = sf_table_nth (i)); i++)
    {
      if (!sf_spec_usable (e->spec))
        {
          printf ("%s: %s (%s): UNAVAILABLE on this machine, not tested\n",
                  test_name, e->spec->name, e->spec->impl);
          continue;
        }
      for (m = 0; m < N_MODES; m++)
        check_streaming (e->spec, all_modes[m]);
      if (!gcry_cipher_map_name (e->spec->name))
        printf ("%s: %s (%s): OpenPGP CFB against RFC 4880 alone; NOT"
                " TESTED against libgcrypt, which has no %s\n", test_name,
                e->spec->name, e->spec->impl, e->spec->name);
      check_openpgp_cfb (e->spec);
      nimpl++;
    }
  printf ("%s: %zu implementations x %zu modes\n", test_name, nimpl,
          (size_t) N_MODES);
  check (nimpl >= 8, "at least the eight gcrypt implementations");
  return test_finish ();
}
