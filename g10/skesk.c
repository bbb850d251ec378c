/* skesk.c - Symmetric-Key Encrypted Session Key packets (tag 3)
 *
 * Parsing versions 4, 5 and 6 with their S2K specifiers (RFC 9580
 * 3.7.1: simple, salted, iterated and salted, Argon2), recovering the
 * session key with the passphrase, and making the packet for writing.
 * The AEAD of versions 5 and 6 has as associated data the packet's
 * tag (new format), version, cipher and AEAD algorithm; version 6
 * also runs the S2K key through HKDF-SHA256 with that as info (RFC
 * 9580 5.3.2), version 5 uses it as it is (LibrePGP).  Checked against
 * RFC 9580's sample messages and LibrePGP's in tests/sfenc-aead.bats.
 */
#include <config.h>

#include <string.h>
#include <gcrypt.h>

#include "libsfcipher.h"
#include "packet.h"
#include "error.h"
#include "iobuf.h"
#include "options.h"
#include "s2k.h"
#include "argon2.h"
#include "hkdf.h"
#include "skesk.h"

#define WHAT "decryption failed"

/* Octets of the S2K specifier of each type; 0 for none.  */
static const size_t s2k_lengths[] = { 2, 10, 0, 11, 20 };
#define S2K_MAX_LEN 20

/* Octets of associated data of an encrypted session key.  */
#define ESK_AD 4


static gpg_error_t
too_short (void)
{
  return fail (gpg_error (GPG_ERR_INV_PACKET), WHAT, "SKESK packet too short");
}


/* Check the Argon2 parameters of S2K as RFC 9580 3.7.1.4 requires,
 * and against the memory and the work sfenc is willing to spend.  */
static gpg_error_t
check_argon2 (const s2k_t *s2k)
{
  unsigned int t = s2k->argon2_t, p = s2k->argon2_p, m = s2k->argon2_m;

  if (!t || !p || m < argon2_min_memory_exp (p) || m > 31)
    return fail (gpg_error (GPG_ERR_INV_PACKET), WHAT,
                 "invalid Argon2 S2K (t=%u, p=%u, m=%u)", t, p, m);
  if (m > ARGON2_MAX_MEMORY_EXP)
    return fail (gpg_error (GPG_ERR_NOT_SUPPORTED), WHAT,
                 "Argon2 S2K with 2^%u KiB of memory is not supported"
                 " (at most 2^%d KiB)", m, ARGON2_MAX_MEMORY_EXP);
  if (!argon2_work_allowed (t, m))
    return fail (gpg_error (GPG_ERR_TOO_LARGE), WHAT,
                 "Argon2 S2K with t=%u, p=%u, m=%u is %llu MiB of work,"
                 " more than --s2k-argon2-max-work %lu", t, p, m,
                 argon2_work_kib (t, m) >> 10, opt.argon2_max_work_mib);
  return 0;
}


/* Parse the S2K specifier at P, of at most LEN octets, into S2K and
 * store its length at *R_USED.  */
static gpg_error_t
s2k_get (const unsigned char *p, size_t len, s2k_t *s2k, size_t *r_used)
{
  if (!len)
    return too_short ();
  s2k->mode = p[0];
  if (s2k->mode > S2K_ARGON2 || !s2k_lengths[s2k->mode])
    return fail (gpg_error (GPG_ERR_NOT_SUPPORTED), WHAT,
                 "S2K type %d is not supported", p[0]);
  *r_used = s2k_lengths[s2k->mode];
  if (len < *r_used)
    return too_short ();
  if (s2k->mode == S2K_ARGON2)
    {
      memcpy (s2k->salt, p + 1, ARGON2_SALTLEN);
      s2k->argon2_t = p[17];
      s2k->argon2_p = p[18];
      s2k->argon2_m = p[19];
      return check_argon2 (s2k);
    }
  s2k->hash_algo = p[1];
  if (s2k->mode != S2K_SIMPLE)
    memcpy (s2k->salt, p + 2, 8);
  if (s2k->mode == S2K_ITERSALTED)
    s2k->count_byte = p[10];
  return 0;
}


/* Store the S2K specifier at BUF; return its length.  */
static size_t
s2k_put (const s2k_t *s2k, unsigned char *buf)
{
  buf[0] = s2k->mode;
  if (s2k->mode == S2K_ARGON2)
    {
      memcpy (buf + 1, s2k->salt, ARGON2_SALTLEN);
      buf[17] = s2k->argon2_t;
      buf[18] = s2k->argon2_p;
      buf[19] = s2k->argon2_m;
    }
  else
    buf[1] = s2k->hash_algo;
  if (s2k->mode == S2K_SALTED || s2k->mode == S2K_ITERSALTED)
    memcpy (buf + 2, s2k->salt, 8);
  if (s2k->mode == S2K_ITERSALTED)
    buf[10] = s2k->count_byte;
  return s2k_lengths[s2k->mode];
}


/* The nonce length of the AEAD of SK (GCM is for version 6 only).  */
static size_t
esk_nonce_len (int version, int algo)
{
  return aead_nonce_len (version == 6 ? PKT_ENCRYPTED_MDC
                         : PKT_AEAD_ENCRYPTED, algo);
}


static gpg_error_t
unsupported_aead (int algo, int version)
{
  return fail (gpg_error (GPG_ERR_NOT_SUPPORTED), WHAT,
               "AEAD algorithm %d is not supported in a version %d SKESK",
               algo, version);
}


/* The fields of a version 5 SKESK, BODY of LEN octets.  */
static gpg_error_t
parse_v5 (const unsigned char *body, size_t len, skesk_t *sk)
{
  gpg_error_t err;
  size_t used, ivlen, n = 3;

  sk->cipher_algo = body[1];
  sk->aead_algo = body[2];
  ivlen = esk_nonce_len (5, sk->aead_algo);
  if (!ivlen)
    return unsupported_aead (sk->aead_algo, 5);
  err = s2k_get (body + n, len - n, &sk->s2k, &used);
  if (err)
    return err;
  n += used;
  if (len <= n + ivlen + AEAD_TAGLEN)
    return too_short ();
  memcpy (sk->iv, body + n, ivlen);
  sk->esklen = len - n - ivlen;
  memcpy (sk->esk, body + n + ivlen, sk->esklen);
  return 0;
}


/* The fields of a version 6 SKESK, BODY of LEN octets: a count of the
 * octets of the five fields before the encrypted session key, and one
 * of the S2K's.  */
static gpg_error_t
parse_v6 (const unsigned char *body, size_t len, skesk_t *sk)
{
  gpg_error_t err;
  size_t count, s2klen, ivlen, used;

  if (len < 5)
    return too_short ();
  count = body[1];
  s2klen = body[4];
  sk->cipher_algo = body[2];
  sk->aead_algo = body[3];
  ivlen = esk_nonce_len (6, sk->aead_algo);
  if (!ivlen)
    return unsupported_aead (sk->aead_algo, 6);
  if (count != 3 + s2klen + ivlen)
    return fail (gpg_error (GPG_ERR_INV_PACKET), WHAT,
                 "invalid SKESK packet (field octet count %zu, not %zu)",
                 count, 3 + s2klen + ivlen);
  if (len <= 2 + count + AEAD_TAGLEN)
    return too_short ();
  err = s2k_get (body + 5, s2klen, &sk->s2k, &used);
  if (!err && used != s2klen)
    err = fail (gpg_error (GPG_ERR_INV_PACKET), WHAT,
                "invalid SKESK packet (S2K octet count %zu, not %zu)",
                s2klen, used);
  if (err)
    return err;
  memcpy (sk->iv, body + 5 + s2klen, ivlen);
  sk->esklen = len - 2 - count;
  memcpy (sk->esk, body + 2 + count, sk->esklen);
  return 0;
}


gpg_error_t
skesk_parse (reader_t *in, const packet_header_t *hdr, skesk_t *sk)
{
  gpg_error_t err;
  unsigned char body[MAX_SKESK];
  size_t len = hdr->length, used;

  if (len > MAX_SKESK || len < 4)
    return fail (gpg_error (GPG_ERR_INV_PACKET), WHAT,
                 "invalid SKESK packet (length %llu)",
                 (unsigned long long)len);
  err = reader_read_exact (in, body, len);
  if (err)
    return fail (err, WHAT, "input truncated (in the SKESK packet)");
  memset (sk, 0, sizeof *sk);
  sk->version = body[0];
  switch (sk->version)
    {
    case 4:
      sk->cipher_algo = body[1];
      err = s2k_get (body + 2, len - 2, &sk->s2k, &used);
      if (err)
        return err;
      sk->esklen = len - 2 - used;
      memcpy (sk->esk, body + 2 + used, sk->esklen);
      return 0;
    case 5:
      return parse_v5 (body, len, sk);
    case 6:
      return parse_v6 (body, len, sk);
    default:
      return fail (gpg_error (GPG_ERR_NOT_SUPPORTED), WHAT,
                   "SKESK version %d is not supported", sk->version);
    }
}


/* The key that encrypts the session key of a version VERSION SKESK:
 * the S2K key, through HKDF for version 6.  KEK has SPEC's key
 * length.  */
static gpg_error_t
derive_kek (int version, const sf_cipher_spec_t *spec, int algo,
            const s2k_t *s2k, const char *pass, unsigned char *kek)
{
  gpg_error_t err;
  const unsigned char info[ESK_AD] =
    { 0xc0 | PKT_SYMKEY_ENC, version, spec->openpgp_id, algo };

  err = s2k_derive (s2k, pass, kek, spec->keylen);
  if (!err && version == 6)
    err = hkdf (GCRY_MD_SHA256, NULL, 0, kek, spec->keylen, info,
                sizeof info, kek, spec->keylen);
  return err;
}


/* Encrypt (ENCRYPTING) or decrypt the session key of KEYLEN octets from
 * IN to OUT with the AEAD ALGO of a version VERSION SKESK, keyed with
 * KEK, with nonce IV; the tag follows the encrypted key.  */
static gpg_error_t
esk_crypt (int version, const sf_cipher_spec_t *spec, int algo,
           const unsigned char *kek, const unsigned char *iv,
           unsigned char *out, const unsigned char *in, size_t keylen,
           int encrypting)
{
  gpg_error_t err;
  sf_aead_hd_t hd;
  const unsigned char ad[ESK_AD] =
    { 0xc0 | PKT_SYMKEY_ENC, version, spec->openpgp_id, algo };
  const char *what = encrypting ? "encryption failed" : WHAT;

  err = aead_open (&hd, spec, algo, kek, what);
  if (err)
    return err;
  err = sf_aead_setnonce (hd, iv, esk_nonce_len (version, algo));
  if (!err)
    err = sf_aead_authenticate (hd, ad, sizeof ad);
  if (!err && encrypting)
    err = sf_aead_encrypt (hd, out, in, keylen);
  if (!err && encrypting)
    err = sf_aead_gettag (hd, out + keylen, AEAD_TAGLEN);
  if (!err && !encrypting)
    err = sf_aead_decrypt (hd, out, in, keylen);
  if (!err && !encrypting)
    err = sf_aead_checktag (hd, in + keylen, AEAD_TAGLEN);
  sf_aead_close (hd);
  if (gpg_err_code (err) == GPG_ERR_CHECKSUM)
    return fail (gpg_error (GPG_ERR_BAD_KEY), what,
                 "wrong passphrase (Bad session key)");
  if (err)
    return fail (err, what, "%s", gpg_strerror (err));
  return 0;
}


/* Decrypt the session key of a version 4 SK with KEY (the S2K key) in
 * CFB mode with a zero IV, in place: its first octet names the data's
 * cipher, whose key length the rest must have.  */
static gpg_error_t
decrypt_v4_esk (const skesk_t *sk, const sf_cipher_spec_t *spec,
                unsigned char *key, size_t *r_keylen, int *r_algo)
{
  gpg_error_t err;
  sf_cipher_hd_t hd;
  const sf_cipher_spec_t *dspec;

  err = sf_cipher_open (&hd, spec, SF_MODE_CFB, SF_CIPHER_SECURE);
  if (!err)
    err = sf_cipher_setkey (hd, key, spec->keylen);
  if (!err)
    err = sf_cipher_setiv (hd, NULL, spec->blocksize);
  if (!err)
    err = sf_cipher_decrypt (hd, key, sk->esk, sk->esklen);
  sf_cipher_close (hd);
  if (err)
    return fail (err, WHAT, "%s", gpg_strerror (err));
  /* A wrong passphrase gives a random algorithm octet.  */
  if (sf_table_find_id (key[0], opt.cipher_impl, &dspec)
      || sk->esklen - 1 != dspec->keylen
      || sk->esklen - 1 > SKESK_MAX_KEY)
    return fail (gpg_error (GPG_ERR_BAD_KEY), WHAT,
                 "wrong passphrase (Bad session key)");
  *r_algo = key[0];
  *r_keylen = sk->esklen - 1;
  memmove (key, key + 1, *r_keylen);
  return 0;
}


gpg_error_t
skesk_decrypt (const skesk_t *sk, const sf_cipher_spec_t *spec,
               const char *pass, unsigned char *key, size_t *r_keylen,
               int *r_algo)
{
  gpg_error_t err;
  unsigned char *kek;
  size_t keylen;

  *r_keylen = spec->keylen;
  *r_algo = sk->cipher_algo;
  if (sk->version == 4 && !sk->esklen)
    return s2k_derive (&sk->s2k, pass, key, spec->keylen);
  kek = gcry_malloc_secure (MAX_SKESK);
  if (!kek)
    return fail (gpg_error_from_syserror (), "out of secure memory", NULL);
  if (sk->version == 4)
    {
      err = s2k_derive (&sk->s2k, pass, kek, spec->keylen);
      if (!err)
        err = decrypt_v4_esk (sk, spec, kek, r_keylen, r_algo);
      if (!err)
        memcpy (key, kek, *r_keylen);
    }
  else
    {
      keylen = sk->esklen - AEAD_TAGLEN;
      *r_algo = 0;
      *r_keylen = keylen;
      if (keylen > SKESK_MAX_KEY)
        err = fail (gpg_error (GPG_ERR_INV_PACKET), WHAT,
                    "invalid SKESK packet (session key of %zu octets)",
                    keylen);
      else
        err = derive_kek (sk->version, spec, sk->aead_algo, &sk->s2k, pass,
                          kek);
      if (!err)
        err = esk_crypt (sk->version, spec, sk->aead_algo, kek, sk->iv, key,
                         sk->esk, keylen, 0);
    }
  sf_wipememory (kek, MAX_SKESK);
  gcry_free (kek);
  return err;
}


/* Fill KEY with LEN random bytes.  libgcrypt 1.10's generator keeps
 * the bytes it returned in its pool until its next request mixes the
 * pool anew, so a second request, whose bytes are dropped, leaves no
 * copy of the session key there (tests/sfenc-secrets.bats).  */
static void
random_session_key (unsigned char *key, size_t len)
{
  unsigned char dropped[SKESK_MAX_KEY];

  gcry_randomize (key, len, GCRY_STRONG_RANDOM);
  gcry_randomize (dropped, sizeof dropped, GCRY_STRONG_RANDOM);
}


/* The fields of a version 5 or 6 SKESK for writing, at BODY; returns
 * their length.  The session key OUT->KEY is made and encrypted.  */
static gpg_error_t
make_aead_body (skesk_out_t *out, int version, const sf_cipher_spec_t *spec,
                int algo, const s2k_t *s2k, const char *pass,
                unsigned char *body, size_t *r_len)
{
  gpg_error_t err;
  unsigned char *kek, iv[AEAD_MAX_NONCE], spec_buf[S2K_MAX_LEN];
  size_t s2klen = s2k_put (s2k, spec_buf), ivlen, n = 0;

  ivlen = esk_nonce_len (version, algo);
  kek = gcry_malloc_secure (SKESK_MAX_KEY);
  if (!kek)
    return fail (gpg_error_from_syserror (), "out of secure memory", NULL);
  gcry_create_nonce (iv, ivlen);
  random_session_key (out->key, spec->keylen);
  body[n++] = version;
  if (version == 6)
    body[n++] = 3 + s2klen + ivlen;
  body[n++] = spec->openpgp_id;
  body[n++] = algo;
  if (version == 6)
    body[n++] = s2klen;
  memcpy (body + n, spec_buf, s2klen);
  n += s2klen;
  memcpy (body + n, iv, ivlen);
  n += ivlen;
  err = derive_kek (version, spec, algo, s2k, pass, kek);
  if (!err)
    err = esk_crypt (version, spec, algo, kek, iv, body + n, out->key,
                     spec->keylen, 1);
  *r_len = n + spec->keylen + AEAD_TAGLEN;
  sf_wipememory (kek, SKESK_MAX_KEY);
  gcry_free (kek);
  return err;
}


gpg_error_t
skesk_make (skesk_out_t *out, int version, const sf_cipher_spec_t *spec,
            int algo, const s2k_t *s2k, const char *pass)
{
  gpg_error_t err;
  unsigned char body[MAX_SKESK];
  size_t n = 0;

  memset (out, 0, sizeof *out);
  out->key = gcry_malloc_secure (SKESK_MAX_KEY);
  if (!out->key)
    return fail (gpg_error_from_syserror (), "out of secure memory", NULL);
  if (version == 4)
    {
      /* No encrypted session key: the S2K key is the session key.  */
      body[0] = version;
      body[1] = spec->openpgp_id;
      n = 2 + s2k_put (s2k, body + 2);
      err = s2k_derive (s2k, pass, out->key, spec->keylen);
    }
  else
    err = make_aead_body (out, version, spec, algo, s2k, pass, body, &n);
  if (err)
    return err;
  out->len = packet_header_put (out->packet, PKT_SYMKEY_ENC, n);
  memcpy (out->packet + out->len, body, n);
  out->len += n;
  return 0;
}


void
skesk_out_release (skesk_out_t *out)
{
  if (out->key)
    {
      sf_wipememory (out->key, SKESK_MAX_KEY);
      gcry_free (out->key);
    }
  out->key = NULL;
}
