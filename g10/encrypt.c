/* encrypt.c - writing a passphrase-protected message (sfenc -c)
 *
 * RFC 4880: an SKESK v4 packet (5.3) holding the S2K parameters, the
 * S2K-derived key being the session key; then an SEIPD v1 packet
 * (5.13): the cipher in CFB mode with a zero IV over a random block
 * whose last two bytes are repeated, the (optionally compressed,
 * 5.6) literal data packet (5.9) and the MDC packet (5.14), the
 * SHA-1 of everything before the MDC's hash.
 *
 * The stages are sinks pushed into from the input: literal packet
 * writer -> compressor (optional) -> hash and encrypt -> SEIPD packet
 * writer -> armor (optional) -> output.  Input is read straight into
 * the literal packet's chunk buffer, and each slice of it is hashed
 * and encrypted while it is in the L1 cache.
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <gcrypt.h>

#include "sfenc.h"
#include "compress.h"
#include "outfile.h"
#include "passphrase.h"
#include "extension.h"
#include "mdc.h"

#define WHAT "encryption failed"

/* The SEIPD stage: hash with SHA-1 for the MDC, encrypt, frame.  */
typedef struct seipd_writer
{
  sf_cipher_hd_t cipher;
  mdc_t *mdc;
  packet_writer_t packet;
} seipd_writer_t;


static gpg_error_t
seipd_sink (void *ctx, const unsigned char *buf, size_t len)
{
  seipd_writer_t *sw = ctx;
  gpg_error_t err;
  unsigned char *out;
  size_t n;

  while (len)
    {
      n = packet_writer_space (&sw->packet, &out);
      if (n > len)
        n = len;
      err = mdc_encrypt (sw->mdc, out, buf, n);
      if (err)
        return fail (err, WHAT, "cipher: %s", gpg_strerror (err));
      err = packet_writer_commit (&sw->packet, n);
      if (err)
        return err;
      buf += n;
      len -= n;
    }
  return 0;
}


/* Encrypt the MDC packet: its two header bytes are hashed, the hash
 * itself of course not.  */
static gpg_error_t
seipd_finish (seipd_writer_t *sw)
{
  gpg_error_t err;
  unsigned char mdc[MDC_PACKET_LEN];

  mdc[0] = 0xd3;
  mdc[1] = 0x14;
  err = mdc_encrypt (sw->mdc, mdc, mdc, 2);
  if (!err)
    {
      mdc_final (sw->mdc, mdc + 2);
      err = sf_cipher_encrypt (sw->cipher, mdc + 2, mdc + 2,
                               sizeof mdc - 2);
    }
  if (err)
    return fail (err, WHAT, "cipher: %s", gpg_strerror (err));
  err = packet_writer_sink (&sw->packet, mdc, sizeof mdc);
  if (!err)
    err = packet_writer_finish (&sw->packet);
  return err;
}


/* Look up the cipher of the options.  */
static gpg_error_t
find_cipher (const sf_cipher_spec_t **r_spec)
{
  const char *algo = opt.cipher_algo ? opt.cipher_algo : "AES256";
  gpg_error_t err;

  err = sf_table_find (algo, opt.cipher_impl, r_spec);
  switch (gpg_err_code (err))
    {
    case 0:
      /* Id 0 would be written into the message, which nothing could
       * then read, not even sfenc.  */
      if (!(*r_spec)->openpgp_id)
        return fail (gpg_error (GPG_ERR_CIPHER_ALGO), "--cipher-algo",
                     "%s has no OpenPGP algorithm id, so no OpenPGP"
                     " message can use it", (*r_spec)->name);
      return 0;
    case GPG_ERR_CIPHER_ALGO:
      return fail (err, "--cipher-algo", "unknown cipher algorithm '%s'"
                   " (see --list-ciphers)", algo);
    case GPG_ERR_NOT_FOUND:
      return fail (err, "--cipher-impl", "no implementation '%s' of %s"
                   " (see --list-ciphers)", opt.cipher_impl, algo);
    case GPG_ERR_NOT_SUPPORTED:
      return fail (err, "--cipher-impl", "%s%s%s cannot run on this machine",
                   algo, opt.cipher_impl ? "/" : "",
                   opt.cipher_impl ? opt.cipher_impl : "");
    default:
      return fail (err, "--cipher-algo", "%s: %s", algo, gpg_strerror (err));
    }
}


/* Choose the S2K of the options and make the salt.  */
static gpg_error_t
make_s2k (s2k_t *s2k)
{
  const char *name = opt.s2k_digest_algo ? opt.s2k_digest_algo
                     : opt.digest_algo;

  memset (s2k, 0, sizeof *s2k);
  s2k->mode = opt.s2k_mode;
  s2k->hash_algo = name ? digest_algo_from_name (name) : GCRY_MD_SHA1;
  if (!s2k->hash_algo)
    return fail (gpg_error (GPG_ERR_DIGEST_ALGO),
                 opt.s2k_digest_algo ? "--s2k-digest-algo" : "--digest-algo",
                 "unknown digest algorithm '%s'", name);
  s2k->count_byte = s2k_encode_count (opt.s2k_count);
  gcry_create_nonce (s2k->salt, sizeof s2k->salt);
  return 0;
}


/* The SKESK packet for S2K and cipher SPEC.  */
static gpg_error_t
write_skesk (sink_fn_t sink, void *sink_ctx, const s2k_t *s2k,
             const sf_cipher_spec_t *spec)
{
  unsigned char body[16], pkt[24];
  size_t n = 0, hlen;

  body[n++] = 4;
  body[n++] = spec->openpgp_id;
  body[n++] = s2k->mode;
  body[n++] = s2k->hash_algo;
  if (s2k->mode)
    {
      memcpy (body + n, s2k->salt, 8);
      n += 8;
    }
  if (s2k->mode == 3)
    body[n++] = s2k->count_byte;
  hlen = packet_header_put (pkt, PKT_SYMKEY_ENC, n);
  memcpy (pkt + hlen, body, n);
  return sink (sink_ctx, pkt, hlen + n);
}


/* Derive the session key and open the cipher in CFB mode.  */
static gpg_error_t
open_cipher (sf_cipher_hd_t *r_hd, const sf_cipher_spec_t *spec,
             const s2k_t *s2k)
{
  gpg_error_t err;
  char *pass;
  unsigned char *key;

  *r_hd = NULL;
  err = passphrase_get (&pass, 1);
  if (err)
    return err;
  key = gcry_malloc_secure (spec->keylen);
  if (!key)
    {
      passphrase_release (pass);
      return fail (gpg_error_from_syserror (), "out of secure memory", NULL);
    }
  err = s2k_derive (s2k, pass, key, spec->keylen);
  passphrase_release (pass);
  if (!err)
    err = sf_cipher_open (r_hd, spec, SF_MODE_CFB, SF_CIPHER_SECURE);
  if (!err)
    err = sf_cipher_setkey (*r_hd, key, spec->keylen);
  if (!err)
    err = sf_cipher_setiv (*r_hd, NULL, spec->blocksize);
  sf_wipememory (key, spec->keylen);
  gcry_free (key);
  if (err)
    {
      sf_cipher_close (*r_hd);
      *r_hd = NULL;
      return fail (err, WHAT, "%s/%s: %s", spec->name, spec->impl,
                   gpg_strerror (err));
    }
  return 0;
}


/* Write the literal packet: its header fields, then the input read
 * straight into the chunk buffer.  */
static gpg_error_t
write_literal (packet_writer_t *lit, fd_stream_t *in, const char *name)
{
  gpg_error_t err;
  unsigned char *space;
  size_t namelen = strlen (name), n;
  uint32_t now = (uint32_t)time (NULL);

  if (namelen > 255)
    namelen = 255;
  packet_writer_space (lit, &space);
  space[0] = 'b';
  space[1] = namelen;
  memcpy (space + 2, name, namelen);
  space[2 + namelen] = now >> 24;
  space[3 + namelen] = now >> 16;
  space[4 + namelen] = now >> 8;
  space[5 + namelen] = now;
  err = packet_writer_commit (lit, 6 + namelen);
  while (!err)
    {
      size_t room = packet_writer_space (lit, &space);

      err = fd_source (in, space, room, &n);
      if (err || !n)
        break;
      err = packet_writer_commit (lit, n);
    }
  if (!err)
    err = packet_writer_finish (lit);
  return err;
}


/* Encrypt IN into the output sink.  */
static gpg_error_t
encrypt_stream (fd_stream_t *in, const char *litname, sink_fn_t sink,
                void *sink_ctx, const sf_cipher_spec_t *spec,
                const s2k_t *s2k, sf_cipher_hd_t cipher)
{
  gpg_error_t err;
  seipd_writer_t sw;
  compress_writer_t *cw = NULL;
  packet_writer_t lit;
  unsigned char prefix[MAX_BLOCKSIZE + 2];
  size_t bs = spec->blocksize;
  int compress = opt.compress_level && opt.compress_algo != COMPRESS_NONE;

  memset (&sw, 0, sizeof sw);
  memset (&lit, 0, sizeof lit);
  sw.cipher = cipher;
  err = write_skesk (sink, sink_ctx, s2k, spec);
  if (!err)
    err = packet_writer_init (&sw.packet, PKT_ENCRYPTED_MDC, sink, sink_ctx);
  if (!err)
    err = mdc_open (&sw.mdc, sw.cipher);
  if (err)
    goto leave;

  /* The version byte is not encrypted.  */
  prefix[0] = 1;
  err = packet_writer_sink (&sw.packet, prefix, 1);
  gcry_randomize (prefix, bs, GCRY_STRONG_RANDOM);
  prefix[bs] = prefix[bs - 2];
  prefix[bs + 1] = prefix[bs - 1];
  if (!err)
    err = seipd_sink (&sw, prefix, bs + 2);
  if (!err && compress)
    err = compress_writer_new (&cw, opt.compress_algo, opt.compress_level,
                               seipd_sink, &sw);
  if (!err)
    err = packet_writer_init (&lit, PKT_PLAINTEXT,
                              cw ? compress_writer_sink : seipd_sink,
                              cw ? (void *)cw : (void *)&sw);
  if (!err)
    err = write_literal (&lit, in, litname);
  if (!err && cw)
    err = compress_writer_finish (cw);
  if (!err)
    err = seipd_finish (&sw);

 leave:
  packet_writer_release (&lit);
  compress_writer_release (cw);
  packet_writer_release (&sw.packet);
  mdc_close (sw.mdc);
  return err;
}


gpg_error_t
encrypt_file (const char *infile)
{
  gpg_error_t err;
  const sf_cipher_spec_t *spec;
  s2k_t s2k;
  sf_cipher_hd_t cipher = NULL;
  fd_stream_t in;
  outfile_t out;
  armor_writer_t *aw = NULL;
  char *outname = NULL;
  const char *litname = "";
  gpg_error_t close_err;

  memset (&out, 0, sizeof out);
  in.fd = 0;
  in.name = "stdin";
  if (infile && strcmp (infile, "-"))
    {
      const char *slash = strrchr (infile, '/');

      litname = slash ? slash + 1 : infile;
      in.name = infile;
      in.fd = open (infile, O_RDONLY);
      if (in.fd < 0)
        return fail (gpg_error_from_syserror (), infile, "%s",
                     strerror (errno));
    }
  if (opt.output)
    outname = strdup (opt.output);
  else if (infile && strcmp (infile, "-"))
    {
      /* As gpg: FILE.gpg, or FILE.asc when armored.  */
      outname = malloc (strlen (infile) + 5);
      if (outname)
        {
          strcpy (outname, infile);
          strcat (outname, opt.armor ? ".asc" : ".gpg");
        }
    }
  if ((opt.output || (infile && strcmp (infile, "-"))) && !outname)
    {
      err = fail (gpg_error_from_syserror (), "out of core", NULL);
      goto leave;
    }

  err = find_cipher (&spec);
  if (!err)
    {
      extension_note_use (spec);
      err = make_s2k (&s2k);
    }
  if (!err)
    err = outfile_check (outname);
  if (!err)
    err = open_cipher (&cipher, spec, &s2k);
  if (err)
    goto leave;
  log_info ("%s/%s.CFB encryption, S2K mode %d with %s", spec->name,
            spec->impl, s2k.mode, digest_algo_name (s2k.hash_algo));

  err = outfile_open (&out, outname);
  if (err)
    goto leave;
  if (opt.armor)
    err = armor_writer_new (&aw, fd_sink, &out.stream);
  if (!err)
    err = encrypt_stream (&in, litname, aw ? armor_writer_sink : fd_sink,
                          aw ? (void *)aw : (void *)&out.stream,
                          spec, &s2k, cipher);
  if (!err && aw)
    err = armor_writer_finish (aw);
  close_err = outfile_close (&out, !err);
  if (!err)
    err = close_err;

 leave:
  armor_writer_release (aw);
  sf_cipher_close (cipher);
  free (outname);
  if (in.fd > 0)
    close (in.fd);
  return err;
}
