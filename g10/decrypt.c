/* decrypt.c - reading a passphrase-protected message (sfenc -d)
 *
 * RFC 4880: optional marker packets (5.8), SKESK v4 packets (5.3,
 * with or without an encrypted session key), then an SEIPD v1 packet
 * (5.13) or, only with --ignore-mdc-error, a legacy SED packet (5.7,
 * OpenPGP CFB with resynchronisation).  Inside: an optional
 * compressed packet (5.6) holding the literal data packet (5.9),
 * followed by the MDC packet (5.14).  The two repeated bytes of the
 * encrypted prefix (the "quick check") tell a wrong passphrase.
 *
 * The stages are sources pulled from the output side: input ->
 * armor (detected) -> packet body -> decrypt and hash -> compressed
 * packet body -> inflate -> literal packet body -> output.  The last
 * 22 decrypted bytes are always held back, so the MDC packet is
 * found at the end of a stream of unknown length.
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <gcrypt.h>

#include "sfenc.h"
#include "outfile.h"
#include "passphrase.h"

#define WHAT "decryption failed"

/* Largest SKESK packet: version, cipher, S2K (11 bytes) and an
 * encrypted session key of at most 1 + 32 bytes.  Anything longer is
 * not a packet sfenc can use.  */
#define MAX_SKESK 64

/* Size of the output buffer: decrypted data is collected into it and
 * written in large blocks.  */
#define OUTPUT_BUFFER CHUNK_SIZE

typedef struct skesk
{
  int cipher_algo;
  s2k_t s2k;
  unsigned char esk[MAX_SKESK];
  size_t esklen;
} skesk_t;

/* The decryption stage.  */
typedef struct decrypt_source
{
  packet_body_t *body;
  sf_cipher_hd_t cipher;
  gcry_md_hd_t mdc;     /* NULL for a legacy SED packet.  */
  unsigned char tail[MDC_PACKET_LEN];
  size_t taillen;
  int eof;
  int failed;           /* The error came from this stage or below.  */
  int to_stdout;
} decrypt_source_t;


/* Check the MDC packet held back in DS->TAIL at the end of the data.  */
static gpg_error_t
check_mdc (decrypt_source_t *ds)
{
  const unsigned char *digest;

  if (ds->taillen == MDC_PACKET_LEN && ds->tail[0] == 0xd3
      && ds->tail[1] == 0x14)
    {
      gcry_md_write (ds->mdc, ds->tail, 2);
      digest = gcry_md_read (ds->mdc, GCRY_MD_SHA1);
      if (!memcmp (digest, ds->tail + 2, 20))
        return 0;
    }
  if (opt.ignore_mdc_error)
    {
      log_warning ("WARNING: the message was modified (bad MDC);"
                   " continuing because of --ignore-mdc-error");
      return 0;
    }
  ds->failed = 1;
  return fail (gpg_error (GPG_ERR_BAD_SIGNATURE), WHAT,
               "bad MDC: the message was modified%s",
               ds->to_stdout
               ? "; do not trust the plaintext already written"
               : "; no output written");
}


static gpg_error_t
decrypt_source_read (void *ctx, unsigned char *buf, size_t size,
                     size_t *nread)
{
  decrypt_source_t *ds = ctx;
  gpg_error_t err;
  size_t got, total, keep, off, end, hashed, n;

  *nread = 0;
  if (ds->eof)
    return 0;
  if (!ds->mdc)
    {
      err = packet_body_source (ds->body, buf, size, &got);
      if (!err && got)
        err = sf_cipher_decrypt (ds->cipher, buf, buf, got);
      if (err)
        ds->failed = 1;
      ds->eof = !got;
      *nread = got;
      return err;
    }
  if (size <= MDC_PACKET_LEN)
    return gpg_error (GPG_ERR_INV_ARG);
  do
    {
      memcpy (buf, ds->tail, ds->taillen);
      err = packet_body_source (ds->body, buf + ds->taillen,
                                size - ds->taillen, &got);
      if (err)
        {
          ds->failed = 1;
          return err;
        }
      if (!got)
        {
          ds->eof = 1;
          return check_mdc (ds);
        }
      total = ds->taillen + got;
      keep = total < MDC_PACKET_LEN ? total : MDC_PACKET_LEN;
      /* Decrypt the new bytes and hash those that are released, one
       * cache-sized slice at a time.  */
      for (off = ds->taillen, hashed = 0; off < total; off = end)
        {
          end = off + CRYPT_SLICE < total ? off + CRYPT_SLICE : total;
          err = sf_cipher_decrypt (ds->cipher, buf + off, buf + off,
                                   end - off);
          if (err)
            {
              ds->failed = 1;
              return fail (err, WHAT, "cipher: %s", gpg_strerror (err));
            }
          n = end < total - keep ? end : total - keep;
          if (n > hashed)
            {
              gcry_md_write (ds->mdc, buf + hashed, n - hashed);
              hashed = n;
            }
        }
      memcpy (ds->tail, buf + total - keep, keep);
      ds->taillen = keep;
      *nread = total - keep;
    }
  while (!*nread);
  return 0;
}


/* Read up to the end of DS, which checks the MDC.  */
static gpg_error_t
decrypt_source_drain (decrypt_source_t *ds, unsigned char *buf, size_t size)
{
  gpg_error_t err;
  size_t n;

  do
    err = decrypt_source_read (ds, buf, size, &n);
  while (!err && n);
  return err;
}


/* Read exactly SIZE bytes of a packet body.  */
static gpg_error_t
body_read_exact (packet_body_t *body, unsigned char *buf, size_t size,
                 const char *what)
{
  gpg_error_t err;
  size_t n;

  while (size)
    {
      err = packet_body_source (body, buf, size, &n);
      if (err)
        return err;
      if (!n)
        return fail (gpg_error (GPG_ERR_INV_PACKET), WHAT,
                     "%s packet too short", what);
      buf += n;
      size -= n;
    }
  return 0;
}


static gpg_error_t
parse_skesk (reader_t *in, const packet_header_t *hdr, skesk_t *sk)
{
  gpg_error_t err;
  unsigned char body[MAX_SKESK];
  size_t len = hdr->length, n;

  if (hdr->partial || hdr->to_eof || len > MAX_SKESK || len < 4)
    return fail (gpg_error (GPG_ERR_INV_PACKET), WHAT,
                 "invalid SKESK packet (length %llu)",
                 (unsigned long long)len);
  err = reader_read_exact (in, body, len);
  if (err)
    return fail (err, WHAT, "input truncated (in the SKESK packet)");
  if (body[0] != 4)
    return fail (gpg_error (GPG_ERR_INV_PACKET), WHAT,
                 "unsupported SKESK version %d", body[0]);
  memset (sk, 0, sizeof *sk);
  sk->cipher_algo = body[1];
  sk->s2k.mode = body[2];
  sk->s2k.hash_algo = body[3];
  n = 4;
  if (sk->s2k.mode != 0 && sk->s2k.mode != 1 && sk->s2k.mode != 3)
    return fail (gpg_error (GPG_ERR_INV_PACKET), WHAT,
                 "unsupported S2K mode %d", sk->s2k.mode);
  if (!digest_algo_supported (sk->s2k.hash_algo))
    return fail (gpg_error (GPG_ERR_DIGEST_ALGO), WHAT,
                 "unknown S2K digest algorithm %d", sk->s2k.hash_algo);
  if (sk->s2k.mode)
    {
      if (len < n + 8)
        return fail (gpg_error (GPG_ERR_INV_PACKET), WHAT,
                     "SKESK packet too short");
      memcpy (sk->s2k.salt, body + n, 8);
      n += 8;
    }
  if (sk->s2k.mode == 3)
    {
      if (len < n + 1)
        return fail (gpg_error (GPG_ERR_INV_PACKET), WHAT,
                     "SKESK packet too short");
      sk->s2k.count_byte = body[n++];
    }
  sk->esklen = len - n;
  memcpy (sk->esk, body + n, sk->esklen);
  return 0;
}


/* Look up the cipher with OpenPGP id ALGO.  */
static gpg_error_t
find_cipher (int algo, const sf_cipher_spec_t **r_spec)
{
  gpg_error_t err;

  err = sf_table_find_id (algo, opt.cipher_impl, r_spec);
  switch (gpg_err_code (err))
    {
    case 0:
      return 0;
    case GPG_ERR_NOT_FOUND:
      return fail (err, "--cipher-impl", "no implementation '%s' of cipher"
                   " algorithm %d (see --list-ciphers)", opt.cipher_impl,
                   algo);
    case GPG_ERR_NOT_SUPPORTED:
      return fail (err, WHAT, "cipher algorithm %d cannot run on this"
                   " machine", algo);
    default:
      return fail (err, WHAT, "unknown cipher algorithm %d", algo);
    }
}


/* Derive the session key from the SKESK and PASS and open the cipher
 * for the encrypted data packet with tag TAG.  */
static gpg_error_t
open_cipher (const skesk_t *sk, int tag, const char *pass,
             sf_cipher_hd_t *r_hd)
{
  gpg_error_t err;
  const sf_cipher_spec_t *spec, *s2kspec;
  sf_cipher_hd_t eskhd = NULL;
  unsigned char *key;
  size_t keylen;

  *r_hd = NULL;
  err = find_cipher (sk->cipher_algo, &s2kspec);
  if (err)
    return err;
  key = gcry_malloc_secure (MAX_SKESK);
  if (!key)
    return fail (gpg_error_from_syserror (), "out of secure memory", NULL);
  keylen = s2kspec->keylen;
  err = s2k_derive (&sk->s2k, pass, key, keylen);
  spec = s2kspec;
  if (!err && sk->esklen)
    {
      /* The session key is encrypted with the S2K key, CFB, zero IV:
       * its first byte names the cipher of the data.  */
      err = sf_cipher_open (&eskhd, s2kspec, SF_MODE_CFB, SF_CIPHER_SECURE);
      if (!err)
        err = sf_cipher_setkey (eskhd, key, keylen);
      if (!err)
        err = sf_cipher_setiv (eskhd, NULL, s2kspec->blocksize);
      if (!err)
        err = sf_cipher_decrypt (eskhd, key, sk->esk, sk->esklen);
      sf_cipher_close (eskhd);
      /* A wrong passphrase gives a random algorithm byte.  */
      if (!err && (sf_table_find_id (key[0], opt.cipher_impl, &spec)
                   || sk->esklen - 1 != spec->keylen))
        err = fail (gpg_error (GPG_ERR_BAD_KEY), WHAT,
                    "wrong passphrase (Bad session key)");
      if (!err)
        {
          keylen = spec->keylen;
          memmove (key, key + 1, keylen);
        }
    }
  if (!err)
    log_info ("%s/%s.CFB encrypted data", spec->name, spec->impl);
  if (!err)
    err = sf_cipher_open (r_hd, spec, tag == PKT_ENCRYPTED_MDC ? SF_MODE_CFB
                          : SF_MODE_OPENPGP_CFB, SF_CIPHER_SECURE);
  if (!err)
    err = sf_cipher_setkey (*r_hd, key, keylen);
  if (!err)
    err = sf_cipher_setiv (*r_hd, NULL, spec->blocksize);
  sf_wipememory (key, MAX_SKESK);
  gcry_free (key);
  if (err)
    {
      sf_cipher_close (*r_hd);
      *r_hd = NULL;
      return fail (err, WHAT, "%s", gpg_strerror (err));
    }
  return 0;
}


/* Decrypt the prefix and do the quick check.  */
static gpg_error_t
check_prefix (decrypt_source_t *ds, int tag)
{
  gpg_error_t err;
  const sf_cipher_spec_t *spec = sf_cipher_get_spec (ds->cipher);
  size_t bs = spec->blocksize;
  unsigned char prefix[MAX_BLOCKSIZE + 2];

  err = body_read_exact (ds->body, prefix, bs + 2, "encrypted data");
  if (!err)
    err = sf_cipher_decrypt (ds->cipher, prefix, prefix, bs + 2);
  if (err)
    return err;
  if (prefix[bs - 2] != prefix[bs] || prefix[bs - 1] != prefix[bs + 1])
    return fail (gpg_error (GPG_ERR_BAD_KEY), WHAT,
                 "wrong passphrase (Bad session key)");
  if (tag == PKT_ENCRYPTED)
    return sf_cipher_sync (ds->cipher);
  gcry_md_write (ds->mdc, prefix, bs + 2);
  return 0;
}


/* Copy the body of the literal packet LIT to the output, in large
 * writes.  */
static gpg_error_t
copy_literal (packet_body_t *lit, fd_stream_t *out, unsigned char *buf)
{
  gpg_error_t err;
  size_t len = 0, n;

  do
    {
      err = packet_body_source (lit, buf + len, OUTPUT_BUFFER - len, &n);
      if (err)
        return err;
      len += n;
      if (len == OUTPUT_BUFFER || (!n && len))
        {
          err = fd_sink (out, buf, len);
          if (err)
            return err;
          len = 0;
        }
    }
  while (n);
  return 0;
}


/* Check that reader R has nothing left.  */
static gpg_error_t
expect_end (reader_t *r, const char *after)
{
  gpg_error_t err;
  int c;

  err = reader_peek (r, &c);
  if (!err && c >= 0)
    err = fail (gpg_error (GPG_ERR_INV_PACKET), WHAT,
                "unexpected data after the %s", after);
  return err;
}


/* Parse the decrypted packets read from IN and write the literal data
 * to OUT.  */
static gpg_error_t
process_plaintext (reader_t *in, outfile_t *out, unsigned char *buf)
{
  gpg_error_t err;
  packet_header_t hdr;
  packet_body_t body, litbody;
  inflate_source_t *inflater = NULL;
  reader_t inflated, *litin = in;
  unsigned char algo, fields[255 + 6];

  memset (&inflated, 0, sizeof inflated);
  err = packet_read_header (in, &hdr, WHAT);
  if (!err && !hdr.tag)
    err = fail (gpg_error (GPG_ERR_NO_DATA), WHAT,
                "the encrypted data is empty");
  if (err)
    return err;
  if (hdr.tag == PKT_COMPRESSED)
    {
      packet_body_init (&body, in, &hdr);
      err = body_read_exact (&body, &algo, 1, "compressed");
      if (!err)
        err = inflate_source_new (&inflater, algo, packet_body_source, &body);
      if (!err)
        {
          log_info ("%s compressed data", compress_algo_name (algo));
          err = reader_init (&inflated, inflate_source_read, inflater);
        }
      if (!err)
        {
          litin = &inflated;
          err = packet_read_header (litin, &hdr, WHAT);
        }
      if (!err && !hdr.tag)
        err = fail (gpg_error (GPG_ERR_NO_DATA), WHAT,
                    "the compressed data is empty");
      if (err)
        goto leave;
    }
  if (hdr.tag != PKT_PLAINTEXT)
    {
      err = fail (gpg_error (GPG_ERR_UNEXPECTED), WHAT,
                  "unexpected packet (tag %d) in the encrypted data",
                  hdr.tag);
      goto leave;
    }
  packet_body_init (&litbody, litin, &hdr);
  err = body_read_exact (&litbody, fields, 2, "literal data");
  if (!err)
    err = body_read_exact (&litbody, fields + 2, fields[1] + 4,
                           "literal data");
  if (err)
    goto leave;
  log_info ("literal data: mode %c, name \"%.*s\"",
            fields[0] >= 0x20 && fields[0] < 0x7f ? fields[0] : '?',
            (int)fields[1], fields + 2);
  err = copy_literal (&litbody, &out->stream, buf);
  if (!err)
    err = expect_end (litin, "literal data packet");
  if (!err && inflater)
    err = packet_body_skip (&body);
  if (!err && inflater)
    err = expect_end (in, "compressed packet");

 leave:
  reader_release (&inflated);
  inflate_source_release (inflater);
  return err;
}


/* Decrypt the encrypted data packet HDR read from IN with the
 * passphrase PASS.  */
static gpg_error_t
decrypt_packet (reader_t *in, const packet_header_t *hdr, const skesk_t *sk,
                const char *pass, outfile_t *out)
{
  gpg_error_t err;
  decrypt_source_t ds;
  packet_body_t body;
  reader_t plain;
  unsigned char version, *buf;

  memset (&ds, 0, sizeof ds);
  memset (&plain, 0, sizeof plain);
  buf = malloc (OUTPUT_BUFFER);
  if (!buf)
    return fail (gpg_error_from_syserror (), "out of core", NULL);
  packet_body_init (&body, in, hdr);
  ds.body = &body;
  ds.to_stdout = outfile_is_stdout (out);
  if (hdr->tag == PKT_ENCRYPTED_MDC)
    {
      err = body_read_exact (&body, &version, 1, "encrypted data");
      if (!err && version != 1)
        err = fail (gpg_error (GPG_ERR_INV_PACKET), WHAT,
                    "unsupported SEIPD version %d", version);
      if (!err)
        err = gcry_md_open (&ds.mdc, GCRY_MD_SHA1, 0);
      if (err)
        goto leave;
    }
  err = open_cipher (sk, hdr->tag, pass, &ds.cipher);
  if (!err)
    err = check_prefix (&ds, hdr->tag);
  if (!err)
    err = reader_init (&plain, decrypt_source_read, &ds);
  if (err)
    goto leave;
  err = process_plaintext (&plain, out, buf);
  if (!err)
    err = expect_end (&plain, "literal data packet");
  if (err && ds.mdc && !ds.failed && !ds.eof
      && !(gpg_err_code (err) & GPG_ERR_SYSTEM_ERROR))
    {
      /* Tampering is more likely than a bad packet inside correctly
       * encrypted data: if the MDC (or the rest of the input) says
       * so, report that instead.  An output error needs no such
       * check.  */
      char saved[FAIL_MESSAGE_MAX];
      gpg_error_t drain_err;

      fail_push (saved, sizeof saved);
      drain_err = decrypt_source_drain (&ds, buf, OUTPUT_BUFFER);
      if (drain_err)
        err = drain_err;
      else
        fail_pop (saved);
    }

 leave:
  reader_release (&plain);
  sf_cipher_close (ds.cipher);
  gcry_md_close (ds.mdc);
  free (buf);
  return err;
}


gpg_error_t
decrypt_file (const char *infile)
{
  gpg_error_t err;
  fd_stream_t in;
  reader_t raw, dearmored, *top = &raw;
  armor_reader_t *ar = NULL;
  packet_header_t hdr;
  skesk_t sk;
  outfile_t out;
  int c, have_skesk = 0, have_pkesk = 0;
  gpg_error_t close_err;
  char *pass = NULL;

  memset (&raw, 0, sizeof raw);
  memset (&dearmored, 0, sizeof dearmored);
  memset (&out, 0, sizeof out);
  in.fd = 0;
  in.name = "stdin";
  if (infile && strcmp (infile, "-"))
    {
      in.name = infile;
      in.fd = open (infile, O_RDONLY);
      if (in.fd < 0)
        return fail (gpg_error_from_syserror (), infile, "%s",
                     strerror (errno));
    }
  err = outfile_check (opt.output);
  /* A passphrase not typed on the terminal is read first: with
   * --passphrase-fd 0 it precedes the message on stdin.  */
  if (!err && !passphrase_is_prompted ())
    err = passphrase_get (&pass, 0);
  if (!err)
    err = reader_init (&raw, fd_source, &in);
  if (!err)
    err = reader_peek (&raw, &c);
  if (err)
    goto leave;
  if (c < 0)
    {
      err = fail (gpg_error (GPG_ERR_NO_DATA), WHAT,
                  "no OpenPGP data found: the input is empty");
      goto leave;
    }
  if (!(c & 0x80))
    {
      err = armor_reader_new (&ar, &raw);
      if (!err)
        err = reader_init (&dearmored, armor_reader_source, ar);
      if (err)
        goto leave;
      top = &dearmored;
    }

  for (;;)
    {
      err = packet_read_header (top, &hdr, WHAT);
      if (err)
        goto leave;
      if (hdr.tag == PKT_ENCRYPTED_MDC || hdr.tag == PKT_ENCRYPTED)
        break;
      switch (hdr.tag)
        {
        case 0:
          err = fail (gpg_error (GPG_ERR_NO_DATA), WHAT,
                      have_skesk || have_pkesk
                      ? "input truncated (no encrypted data packet)"
                      : "no OpenPGP data found");
          goto leave;
        case PKT_SYMKEY_ENC:
          if (have_skesk)
            {
              packet_body_t skip;

              packet_body_init (&skip, top, &hdr);
              err = packet_body_skip (&skip);
            }
          else
            err = parse_skesk (top, &hdr, &sk);
          have_skesk = 1;
          break;
        case PKT_PUBKEY_ENC:
        case PKT_MARKER:
          {
            packet_body_t skip;

            have_pkesk |= hdr.tag == PKT_PUBKEY_ENC;
            packet_body_init (&skip, top, &hdr);
            err = packet_body_skip (&skip);
          }
          break;
        case PKT_AEAD_ENCRYPTED:
          err = fail (gpg_error (GPG_ERR_NOT_SUPPORTED), WHAT,
                      "AEAD encrypted data is not supported");
          break;
        case PKT_COMPRESSED:
        case PKT_PLAINTEXT:
          err = fail (gpg_error (GPG_ERR_NO_DATA), WHAT,
                      "the message is not encrypted");
          break;
        default:
          err = fail (gpg_error (GPG_ERR_UNEXPECTED), WHAT,
                      "unexpected packet (tag %d) before the encrypted data",
                      hdr.tag);
          break;
        }
      if (err)
        goto leave;
    }
  if (!have_skesk)
    {
      err = fail (gpg_error (GPG_ERR_NO_SECKEY), WHAT, have_pkesk
                  ? "the message is encrypted to a public key, not with a"
                  " passphrase" : "no passphrase-encrypted session key"
                  " (SKESK packet) before the encrypted data");
      goto leave;
    }
  if (hdr.tag == PKT_ENCRYPTED)
    {
      if (!opt.ignore_mdc_error)
        {
          err = fail (gpg_error (GPG_ERR_BAD_SIGNATURE), WHAT,
                      "the message is not integrity protected (no MDC);"
                      " use --ignore-mdc-error to decrypt it anyway");
          goto leave;
        }
      log_warning ("WARNING: the message is not integrity protected (no MDC)");
    }

  if (!pass)
    err = passphrase_get (&pass, 0);
  if (!err)
    err = outfile_open (&out, opt.output);
  if (err)
    goto leave;
  err = decrypt_packet (top, &hdr, &sk, pass, &out);
  if (!err)
    {
      err = packet_read_header (top, &hdr, WHAT);
      if (!err && hdr.tag)
        err = fail (gpg_error (GPG_ERR_UNEXPECTED), WHAT,
                    "unexpected packet (tag %d) after the encrypted data",
                    hdr.tag);
    }
  close_err = outfile_close (&out, !err);
  if (!err)
    err = close_err;

 leave:
  passphrase_release (pass);
  reader_release (&dearmored);
  armor_reader_release (ar);
  reader_release (&raw);
  if (in.fd > 0)
    close (in.fd);
  return err;
}
