/* decrypt.c - reading a passphrase-protected message (sfenc -d)
 *
 * RFC 4880: SKESK v4 packets (5.3, with or without an encrypted
 * session key) and PKESK packets (5.1), then an SEIPD v1 packet (5.13)
 * or, only with --ignore-mdc-error, a legacy SED packet (5.7, OpenPGP
 * CFB with resynchronisation).  Inside: compressed packets (5.6),
 * none, one or nested, holding the literal data packet (5.9), followed
 * by the MDC packet (5.14).  The two repeated bytes of the encrypted
 * prefix (the "quick check") tell a wrong passphrase.  With a v6
 * SKESK, an SEIPD v2 packet (RFC 9580 5.13.2) is read instead, with a
 * v5 SKESK LibrePGP's AEAD Encrypted Data packet (tag 20), both in
 * seipd2.c; SKESKs are parsed and opened in skesk.c.
 *
 * What is accepted is what gpg 2.2 accepts (tests/sfenc-gpgcompat.bats):
 * the first SKESK is used, further SKESKs and the PKESKs are checked
 * as gpg checks them and skipped; marker packets (5.8) are skipped
 * wherever they are, but only with their one valid body, "PGP", and
 * so are padding packets (RFC 9580 5.14).
 *
 * The stages are sources pulled from the output side: input -> armor
 * (detected) -> packet body -> decrypt and hash -> for each compressed
 * packet: its body -> inflate -> literal packet body (literal.c) ->
 * output.  The last 22 bytes are always held back, still encrypted,
 * so the MDC packet is found at the end of a stream of unknown length.
 * With --threads, the stages up to the decryption run on a second
 * thread (source-thread.c) and the rest on the calling one.
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <gcrypt.h>

#include "libsfcipher.h"
#include "packet.h"
#include "armor.h"
#include "decrypt.h"
#include "error.h"
#include "gpg-log.h"
#include "iobuf.h"
#include "list-only.h"
#include "log.h"
#include "options.h"
#include "s2k.h"
#include "compliance.h"
#include "compress.h"
#include "outfile.h"
#include "passphrase.h"
#include "literal.h"
#include "extension.h"
#include "mdc.h"
#include "progress.h"
#include "special-filename.h"
#include "status.h"
#include "skesk.h"
#include "seipd2.h"
#include "session-key.h"
#include "source-thread.h"

#define WHAT "decryption failed"

/* PKESK packets (RFC 4880 5.1): version 3 (or 2), key id, algorithm,
 * then MPIs: at least 12 bytes, as gpg requires, and MPIs of at most
 * 16384 bits.  */
#define MIN_PKESK 12
#define MAX_MPI_BITS 16384

/* Most compressed packets nested in one another: gpg 2.2 decrypts 30
 * and refuses 31.  Each level holds about 170 KiB of buffers.  */
#define MAX_COMPRESSED_DEPTH 30

/* Size of the output buffer: decrypted data is collected into it and
 * written in large blocks.  */
#define OUTPUT_BUFFER CHUNK_SIZE

/* The decryption stage.  */
typedef struct decrypt_source
{
  packet_body_t *body;
  sf_cipher_hd_t cipher;
  mdc_t *mdc;           /* NULL for a legacy SED packet.  */
  unsigned char tail[MDC_PACKET_LEN];   /* Ciphertext held back.  */
  size_t taillen;
  source_thread_t *ahead;       /* Runs cfb_read, with --threads.  */
  int eof;
  int failed;           /* The error came from this stage or below.  */
  int in_place;         /* The output cannot be taken back.  */
} decrypt_source_t;


/* Decrypt and check the MDC packet held back in DS->TAIL at the end
 * of the data: its two header bytes are hashed, the digest not.  */
static gpg_error_t
check_mdc (decrypt_source_t *ds)
{
  unsigned char *tail = ds->tail;
  unsigned char digest[SF_SHA1_DIGEST_LEN];
  gpg_error_t err;
  int good = 0;

  if (ds->taillen == MDC_PACKET_LEN)
    {
      err = mdc_decrypt (ds->mdc, tail, tail, 2);
      if (!err)
        err = sf_cipher_decrypt (ds->cipher, tail + 2, tail + 2,
                                 MDC_PACKET_LEN - 2);
      if (err)
        {
          ds->failed = 1;
          return fail (err, WHAT, "cipher: %s", gpg_strerror (err));
        }
      mdc_final (ds->mdc, digest);
      good = tail[0] == 0xd3 && tail[1] == 0x14
             && !memcmp (digest, tail + 2, SF_SHA1_DIGEST_LEN);
    }
  status_mdc_checked (good);
  if (good)
    return 0;
  if (opt.ignore_mdc_error)
    {
      log_warning ("WARNING: the message was modified (bad MDC);"
                   " continuing because of --ignore-mdc-error");
      return 0;
    }
  ds->failed = 1;
  return fail (gpg_error (GPG_ERR_BAD_SIGNATURE), WHAT,
               "bad MDC: the message was modified%s",
               ds->in_place
               ? "; do not trust the plaintext already written"
               : "; no output written");
}


/* Read and decrypt from DS's packet, and hash with its MDC; 0 bytes
 * at the end of the packet, where the MDC packet is left in DS->TAIL.
 * A source that touches neither DS->EOF nor DS->FAILED, so that it
 * can run on a thread of its own.  */
static gpg_error_t
cfb_read (void *ctx, unsigned char *buf, size_t size, size_t *nread)
{
  decrypt_source_t *ds = ctx;
  gpg_error_t err;
  size_t got, total, keep;

  *nread = 0;
  if (!ds->mdc)
    {
      err = packet_body_source (ds->body, buf, size, &got);
      if (!err && got)
        err = sf_cipher_decrypt (ds->cipher, buf, buf, got);
      if (!err)
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
      if (err || !got)
        return err;
      total = ds->taillen + got;
      keep = total < MDC_PACKET_LEN ? total : MDC_PACKET_LEN;
      /* What may be the MDC packet stays encrypted: decrypting only
       * what is hashed keeps the cipher and the hash at the same
       * position, as stitched code needs them.  */
      err = mdc_decrypt (ds->mdc, buf, buf, total - keep);
      if (err)
        return fail (err, WHAT, "cipher: %s", gpg_strerror (err));
      memcpy (ds->tail, buf + total - keep, keep);
      ds->taillen = keep;
      *nread = total - keep;
    }
  while (!*nread);
  return 0;
}


/* The plaintext of DS, read ahead on a thread with --threads; the MDC
 * is checked here, in the order of the data, once all of it was
 * read.  */
static gpg_error_t
decrypt_source_read (void *ctx, unsigned char *buf, size_t size,
                     size_t *nread)
{
  decrypt_source_t *ds = ctx;
  gpg_error_t err;

  *nread = 0;
  if (ds->eof)
    return 0;
  if (ds->ahead)
    err = source_thread_read (ds->ahead, buf, size, nread);
  else
    err = cfb_read (ds, buf, size, nread);
  if (err)
    {
      ds->failed = 1;
      return err;
    }
  if (*nread)
    return 0;
  ds->eof = 1;
  return ds->mdc ? check_mdc (ds) : 0;
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


gpg_error_t
marker_read (reader_t *r, const packet_header_t *hdr)
{
  gpg_error_t err;
  packet_body_t body;
  unsigned char marker[3];

  if (hdr->length != sizeof marker)
    return fail (gpg_error (GPG_ERR_INV_PACKET), WHAT,
                 "invalid marker packet (not \"PGP\")");
  packet_body_init (&body, r, hdr);
  err = packet_body_read_exact (&body, marker, sizeof marker, "marker");
  if (!err && memcmp (marker, "PGP", sizeof marker))
    err = fail (gpg_error (GPG_ERR_INV_PACKET), WHAT,
                "invalid marker packet (not \"PGP\")");
  return err;
}


/* Read the next packet header from R into HDR, skipping marker
 * packets: RFC 4880 5.8 says to ignore them, and gpg does wherever
 * they are, once their body is checked to be "PGP"; and padding
 * packets, which RFC 9580 5.14 says to ignore.  */
static gpg_error_t
next_packet (reader_t *r, packet_header_t *hdr)
{
  gpg_error_t err;
  packet_body_t body;

  for (;;)
    {
      err = packet_read_header (r, hdr, WHAT);
      if (!err && hdr->tag == PKT_PADDING)
        {
          packet_body_init (&body, r, hdr);
          err = packet_body_skip (&body);
        }
      else if (!err && hdr->tag == PKT_MARKER)
        err = marker_read (r, hdr);
      else
        return err;
      if (err)
        return err;
    }
}


/* Read the MPI at the current place of BODY, checking that it lies
 * within it, and store its size in bits at *R_BITS.  */
static gpg_error_t
read_mpi (packet_body_t *body, unsigned int *r_bits)
{
  gpg_error_t err;
  unsigned char value[MAX_MPI_BITS / 8];
  unsigned int bits;

  err = packet_body_read_exact (body, value, 2, "PKESK");
  if (err)
    return err;
  bits = value[0] << 8 | value[1];
  if (bits > MAX_MPI_BITS)
    return fail (gpg_error (GPG_ERR_INV_PACKET), WHAT,
                 "MPI of %u bits in the PKESK packet is too large", bits);
  *r_bits = bits;
  return packet_body_read_exact (body, value, (bits + 7) / 8, "PKESK");
}


gpg_error_t
pkesk_read (reader_t *in, const packet_header_t *hdr, pkesk_t *pk)
{
  gpg_error_t err;
  packet_body_t body;
  unsigned char fields[10], key[256];
  int nmpis;

  memset (pk, 0, sizeof *pk);
  if (hdr->length < MIN_PKESK)
    return fail (gpg_error (GPG_ERR_INV_PACKET), WHAT,
                 "PKESK packet too short");
  packet_body_init (&body, in, hdr);
  err = packet_body_read_exact (&body, fields, sizeof fields, "PKESK");
  if (err)
    return err;
  if (fields[0] != 3 && fields[0] != 2)
    return fail (gpg_error (GPG_ERR_INV_PACKET), WHAT,
                 "unsupported PKESK version %d", fields[0]);
  pk->version = fields[0];
  memcpy (pk->keyid, fields + 1, sizeof pk->keyid);
  pk->algo = fields[9];
  nmpis = (pk->algo >= 1 && pk->algo <= 3) || pk->algo == 18 ? 1
          : pk->algo == 16 || pk->algo == 20 ? 2 : 0;
  while (!err && pk->nparts < nmpis)
    err = read_mpi (&body, &pk->bits[pk->nparts++]);
  if (!err && pk->algo == 18)
    {
      err = packet_body_read_exact (&body, key, 1, "PKESK");
      if (!err)
        err = packet_body_read_exact (&body, key + 1, key[0], "PKESK");
      if (!err)
        pk->bits[pk->nparts++] = 8 * (1 + key[0]);
    }
  if (!err)
    err = packet_body_skip (&body);
  return err;
}


/* Check the PKESK packet HDR read from IN as gpg checks it, then skip
 * it: sfenc has no private keys.  */
static gpg_error_t
skip_pkesk (reader_t *in, const packet_header_t *hdr)
{
  gpg_error_t err;
  pkesk_t pk;

  err = pkesk_read (in, hdr, &pk);
  if (err)
    return err;
  status_enc_to (pk.keyid, pk.algo);
  list_only_note_pkesk (pk.keyid, pk.algo);
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
      if (compliance_cipher_disabled (*r_spec))
        return fail (gpg_error (GPG_ERR_CIPHER_ALGO), WHAT, "encrypted with"
                     " %s, which --disable-cipher-algo disables",
                     (*r_spec)->name);
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


/* Recover the session key of SK with the passphrase *PASS into KEY
 * (secure memory of SKESK_MAX_KEY bytes), or take the one given with
 * --override-session-key (SK and *PASS may be NULL then): its length
 * at *R_KEYLEN, the data's cipher at *R_ALGO (0 when the data packet
 * names it, as DATA_ALGO; DATA_ALGO is 0 for SEIPD v1 and SED).  The
 * passphrase is released then: nothing needs it while the data is
 * decrypted.  */
static gpg_error_t
session_key (const skesk_t *sk, int data_algo, char **pass,
             unsigned char *key, size_t *r_keylen, int *r_algo)
{
  const sf_cipher_spec_t *spec;
  gpg_error_t err;

  if (session_key_overridden ())
    return session_key_take (data_algo, key, SKESK_MAX_KEY, r_keylen, r_algo);
  err = find_cipher (sk->cipher_algo, &spec);
  if (!err)
    err = skesk_decrypt (sk, spec, *pass, key, r_keylen, r_algo);
  passphrase_release (*pass);
  *pass = NULL;
  return err;
}


/* Derive the session key from the SKESK and PASS and open the cipher
 * for the encrypted data packet with tag TAG.  */
static gpg_error_t
open_cipher (const skesk_t *sk, int tag, char **pass,
             sf_cipher_hd_t *r_hd)
{
  gpg_error_t err;
  const sf_cipher_spec_t *spec;
  unsigned char *key;
  size_t keylen;
  int algo;

  *r_hd = NULL;
  key = gcry_malloc_secure (SKESK_MAX_KEY);
  if (!key)
    return fail (gpg_error_from_syserror (), "out of secure memory", NULL);
  err = session_key (sk, 0, pass, key, &keylen, &algo);
  if (!err)
    err = find_cipher (algo, &spec);
  if (!err)
    {
      log_info ("%s/%s.CFB encrypted data", spec->name, spec->impl);
      extension_note_use (spec);
      status_decryption_info (tag == PKT_ENCRYPTED_MDC ? GCRY_MD_SHA1 : 0,
                              spec->openpgp_id, 0);
      session_key_show (spec->openpgp_id, 0, key, keylen);
      err = compliance_check_decryption (spec, 0);
    }
  if (!err)
    err = sf_cipher_open (r_hd, spec, tag == PKT_ENCRYPTED_MDC ? SF_MODE_CFB
                          : SF_MODE_OPENPGP_CFB, SF_CIPHER_SECURE);
  if (!err)
    err = sf_cipher_setkey (*r_hd, key, keylen);
  if (!err)
    err = sf_cipher_setiv (*r_hd, NULL, spec->blocksize);
  sf_wipememory (key, SKESK_MAX_KEY);
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

  err = packet_body_read_exact (ds->body, prefix, bs + 2, "encrypted data");
  if (!err && tag == PKT_ENCRYPTED_MDC)
    err = mdc_open (&ds->mdc, ds->cipher);
  if (!err)
    err = ds->mdc ? mdc_decrypt (ds->mdc, prefix, prefix, bs + 2)
                  : sf_cipher_decrypt (ds->cipher, prefix, prefix, bs + 2);
  if (err)
    return err;
  if (prefix[bs - 2] != prefix[bs] || prefix[bs - 1] != prefix[bs + 1])
    {
      /* Not a passphrase's failure: gpg reports a wrong session key
       * given as data that could not be decrypted.  */
      if (session_key_overridden ())
        return fail (gpg_error (GPG_ERR_INV_SESSION_KEY), WHAT,
                     "wrong session key (the quick check failed)");
      /* A private id may stand for another cipher where the message
       * was written; that cipher fails the check as a wrong key does.  */
      if (sf_openpgp_id_private (spec->openpgp_id))
        return fail (gpg_error (GPG_ERR_BAD_KEY), WHAT,
                     "wrong passphrase (Bad session key), or the message's"
                     " private cipher id %d is not %s", spec->openpgp_id,
                     spec->name);
      return fail (gpg_error (GPG_ERR_BAD_KEY), WHAT,
                   "wrong passphrase (Bad session key)");
    }
  if (tag == PKT_ENCRYPTED)
    return sf_cipher_sync (ds->cipher);
  return 0;
}


/* Check that reader R has no packet left but marker packets.  */
static gpg_error_t
expect_no_packet (reader_t *r, const char *after)
{
  gpg_error_t err;
  packet_header_t hdr;

  err = next_packet (r, &hdr);
  if (!err && hdr.tag)
    err = fail (gpg_error (GPG_ERR_UNEXPECTED), WHAT,
                "unexpected packet (tag %d) after the %s", hdr.tag, after);
  return err;
}


/* The most octets a read of a packet body takes before its first
 * octet of data: a new-format partial length.  */
#define BODY_LENGTH_MAX 5


/* The thread that reads ahead the decrypted data that reader IN reads
 * straight from, or NULL.  */
static source_thread_t *
read_ahead_under (const reader_t *in)
{
  if (in->source == decrypt_source_read)
    return ((const decrypt_source_t *)in->ctx)->ahead;
  if (in->source == source_thread_read)
    return in->ctx;
  return NULL;
}


/* Whether the compressed packet's body CTX, read straight from the
 * decrypted data read ahead on a thread, gives its next octet without
 * waiting for the input: a length header and an octet of data are in
 * its reader or ready on that thread (inflate-parallel.h asks).  */
static int
layer_input_ready (void *ctx)
{
  const packet_body_t *body = ctx;
  reader_t *in = body->in;
  size_t held = in->len - in->pos;

  return in->eof || held > BODY_LENGTH_MAX
    || source_thread_ready (read_ahead_under (in),
                            BODY_LENGTH_MAX + 1 - held);
}


gpg_error_t
open_layer (compressed_layer_t *layer, reader_t *in,
            const packet_header_t *hdr)
{
  gpg_error_t err;
  unsigned char algo;

  memset (layer, 0, sizeof *layer);
  packet_body_init (&layer->body, in, hdr);
  err = packet_body_read_exact (&layer->body, &algo, 1, "compressed");
  if (err)
    return err;
  layer->algo = algo;
  /* gpg reads algorithm 0 as the packets themselves.  */
  if (algo == COMPRESS_NONE)
    {
      log_info ("uncompressed data in a compressed packet");
      return reader_init (&layer->contents, packet_body_source, &layer->body);
    }
  err = inflate_source_new (&layer->inflater, algo, packet_body_source,
                            &layer->body,
                            read_ahead_under (in) ? layer_input_ready : NULL,
                            &layer->body);
  if (err)
    return err;
  log_info ("%s compressed data", compress_algo_name (algo));
  return reader_init (&layer->contents, inflate_source_read, layer->inflater);
}


void
close_layer (compressed_layer_t *layer)
{
  reader_release (&layer->contents);
  inflate_source_release (layer->inflater);
}


/* Check that nothing but marker packets follows the literal data
 * packet, in the innermost of the DEPTH LAYERS and then in each
 * packet around it up to IN.  */
static gpg_error_t
expect_ends (reader_t *in, compressed_layer_t *layers, int depth)
{
  gpg_error_t err;

  err = expect_no_packet (depth ? &layers[depth - 1].contents : in,
                          "literal data packet");
  while (!err && depth--)
    {
      /* Whatever follows the end of the compressed stream in its
       * packet is dropped, as gpg drops it.  */
      err = packet_body_skip (&layers[depth].body);
      if (!err)
        err = expect_no_packet (depth ? &layers[depth - 1].contents : in,
                                "compressed packet");
    }
  return err;
}


/* Parse the decrypted packets read from IN, starting with FIRST when
 * its header was read already, and write the literal data to OUT
 * through BUF of SIZE bytes; with OPEN_LATE, OUT is opened under the
 * literal packet's name.  */
static gpg_error_t
process_plaintext (reader_t *in, const packet_header_t *first,
                   outfile_t *out, int open_late, unsigned char *buf,
                   size_t size)
{
  gpg_error_t err = 0;
  packet_header_t hdr;
  compressed_layer_t layers[MAX_COMPRESSED_DEPTH];
  reader_t *r = in;
  int depth = 0;

  for (;;)
    {
      if (first && !depth)
        hdr = *first;
      else
        err = next_packet (r, &hdr);
      if (!err && !hdr.tag)
        err = fail (gpg_error (GPG_ERR_NO_DATA), WHAT, "the %s is empty",
                    depth ? "compressed data" : "encrypted data");
      if (err || hdr.tag != PKT_COMPRESSED)
        break;
      if (depth == MAX_COMPRESSED_DEPTH)
        {
          err = fail (gpg_error (GPG_ERR_INV_PACKET), WHAT,
                      "compressed packets nested more than %d deep",
                      MAX_COMPRESSED_DEPTH);
          break;
        }
      err = open_layer (&layers[depth++], r, &hdr);
      if (err)
        break;
      r = &layers[depth - 1].contents;
    }
  if (!err && hdr.tag != PKT_PLAINTEXT)
    err = fail (gpg_error (GPG_ERR_UNEXPECTED), WHAT,
                "unexpected packet (tag %d) in the encrypted data", hdr.tag);
  if (!err)
    err = literal_write (r, &hdr, out, open_late, buf, size);
  if (!err)
    err = expect_ends (in, layers, depth);
  while (depth--)
    close_layer (&layers[depth]);
  return err;
}


/* Where the plaintext of -d goes.  */
typedef struct plaintext_output
{
  outfile_t *out;
  unsigned char *buf;
  int open_late;                /* OUT is opened under the embedded name.  */
} plaintext_output_t;


/* Copy the packets of PLAIN, the encryption layer removed, to OUT
 * through BUF of SIZE bytes, as gpg --unwrap does.  */
static gpg_error_t
unwrap_plaintext (reader_t *plain, outfile_t *out, unsigned char *buf,
                  size_t size)
{
  gpg_error_t err;
  size_t n;

  for (;;)
    {
      err = reader_read (plain, buf, size, &n);
      if (err || !n)
        return err;
      err = fd_sink (&out->stream, buf, n);
      if (err)
        return err;
    }
}


/* The plaintext handler of -d: the literal data, or with --unwrap the
 * packets, to the output of CTX.  */
static gpg_error_t
write_plaintext (void *ctx, reader_t *plain, size_t header_len)
{
  plaintext_output_t *po = ctx;

  (void)header_len;
  if (opt.unwrap)
    return unwrap_plaintext (plain, po->out, po->buf, OUTPUT_BUFFER);
  return process_plaintext (plain, NULL, po->out, po->open_late, po->buf,
                            OUTPUT_BUFFER);
}


/* With --threads above 1, have SOURCE with CTX, the decrypting end of
 * the chain, read ahead on a thread of its own into *R_AHEAD, while
 * the calling thread decompresses and writes: once the message is
 * longer than a few buffers (source-thread.c).  */
static gpg_error_t
start_read_ahead (source_thread_t **r_ahead, source_fn_t source, void *ctx)
{
  *r_ahead = NULL;
  if (compress_thread_count () < 2)
    return 0;
  return source_thread_start (r_ahead, source, ctx);
}


/* Decrypt the SEIPD v1 or SED packet with tag TAG from BODY (after
 * its version octet) with SK and PASS for HANDLER, using BUF; set
 * *R_UNVERIFIED when its MDC could not be checked.  */
static gpg_error_t
decrypt_cfb (packet_body_t *body, int tag, const skesk_t *sk,
             char **pass, const plaintext_handler_t *handler,
             unsigned char *buf, int *r_unverified)
{
  gpg_error_t err;
  decrypt_source_t ds;
  reader_t plain;

  memset (&ds, 0, sizeof ds);
  memset (&plain, 0, sizeof plain);
  ds.body = body;
  ds.in_place = handler->in_place;
  err = handler->on_header ? handler->on_header (handler->ctx, NULL) : 0;
  if (!err)
    err = open_cipher (sk, tag, pass, &ds.cipher);
  if (!err)
    err = check_prefix (&ds, tag);
  if (!err)
    err = start_read_ahead (&ds.ahead, cfb_read, &ds);
  if (!err)
    err = reader_init (&plain, decrypt_source_read, &ds);
  if (err)
    goto leave;
  /* Before the plaintext: SEIPD's version octet and the prefix.  */
  err = handler->fn (handler->ctx, &plain, (tag == PKT_ENCRYPTED_MDC)
                     + sf_cipher_get_spec (ds.cipher)->blocksize + 2);
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
  *r_unverified = ds.mdc && ds.failed;
  reader_release (&plain);
  source_thread_stop (ds.ahead);
  sf_cipher_close (ds.cipher);
  mdc_close (ds.mdc);
  return err;
}


/* Decrypt the AEAD-protected packet with tag TAG from BODY (after the
 * version octet of an SEIPD) with SK and PASS for HANDLER.  Each
 * chunk's plaintext is released only once its tag is checked.  */
static gpg_error_t
decrypt_aead (packet_body_t *body, int tag, const skesk_t *sk,
              char **pass, const plaintext_handler_t *handler)
{
  gpg_error_t err;
  aead_header_t h;
  const sf_cipher_spec_t *spec;
  aead_source_t *as = NULL;
  source_thread_t *ahead = NULL;
  reader_t plain;
  unsigned char *key;
  size_t keylen;
  int algo;

  memset (&plain, 0, sizeof plain);
  key = gcry_malloc_secure (SKESK_MAX_KEY);
  if (!key)
    return fail (gpg_error_from_syserror (), "out of secure memory", NULL);
  err = aead_header_read (body, tag, &h);
  if (!err && handler->on_header)
    err = handler->on_header (handler->ctx, &h);
  if (!err)
    err = find_cipher (h.cipher_algo, &spec);
  if (!err)
    err = session_key (sk, h.cipher_algo, pass, key, &keylen, &algo);
  if (!err && keylen != spec->keylen)
    err = fail (gpg_error (GPG_ERR_INV_PACKET), WHAT, "the session key has"
                " %zu octets, but %s needs %zu", keylen, spec->name,
                spec->keylen);
  if (!err)
    {
      extension_note_use (spec);
      status_decryption_info (0, spec->openpgp_id, h.aead_algo);
      session_key_show (spec->openpgp_id,
                        tag == PKT_AEAD_ENCRYPTED ? h.aead_algo : 0,
                        key, keylen);
      err = compliance_check_decryption (spec, h.aead_algo);
    }
  if (!err)
    err = aead_source_open (&as, body, &h, spec, key);
  sf_wipememory (key, SKESK_MAX_KEY);
  gcry_free (key);
  if (!err)
    err = start_read_ahead (&ahead, aead_source_read, as);
  if (!err && ahead)
    err = reader_init (&plain, source_thread_read, ahead);
  else if (!err)
    err = reader_init (&plain, aead_source_read, as);
  if (!err)
    /* Before the plaintext: the version, the algorithms, the chunk
     * size octet, and the IV or the salt.  */
    err = handler->fn (handler->ctx, &plain, tag == PKT_AEAD_ENCRYPTED
                       ? 4 + aead_nonce_len (tag, h.aead_algo)
                       : 4 + SEIPD2_SALTLEN);
  reader_release (&plain);
  source_thread_stop (ahead);
  aead_source_close (as);
  return err;
}


/* Read the version octet of the SEIPD packet BODY into *VERSION, and
 * check that SK's version (if any) goes with that of the packet with
 * tag TAG:
 * RFC 9580 5.3 pairs a v6 SKESK with SEIPD v2 and a v4 SKESK with the
 * packets before, LibrePGP a v5 SKESK with its AEAD packet.  */
static gpg_error_t
check_versions (packet_body_t *body, int tag, const skesk_t *sk,
                unsigned char *version)
{
  gpg_error_t err;
  int want;

  *version = 1;
  if (tag == PKT_ENCRYPTED_MDC)
    {
      err = packet_body_read_exact (body, version, 1, "encrypted data");
      if (err)
        return err;
      if (*version != 1 && *version != 2)
        return fail (gpg_error (GPG_ERR_NOT_SUPPORTED), WHAT,
                     "SEIPD version %d is not supported", *version);
    }
  want = tag == PKT_AEAD_ENCRYPTED ? 5 : *version == 2 ? 6 : 4;
  if (sk && sk->version != want)
    return fail (gpg_error (GPG_ERR_INV_PACKET), WHAT,
                 "a version %d SKESK cannot open %s (it takes a version"
                 " %d SKESK)", sk->version,
                 tag == PKT_AEAD_ENCRYPTED ? "an AEAD Encrypted Data packet"
                 : tag == PKT_ENCRYPTED ? "a SED packet"
                 : *version == 2 ? "an SEIPD v2 packet" : "an SEIPD v1 packet",
                 want);
  return 0;
}


gpg_error_t
decrypt_packet (reader_t *in, const packet_header_t *hdr, const skesk_t *sk,
                char **pass, const plaintext_handler_t *handler)
{
  gpg_error_t err;
  packet_body_t body;
  unsigned char version, *buf;
  int unverified = 0;

  buf = malloc (OUTPUT_BUFFER);
  if (!buf)
    return fail (gpg_error_from_syserror (), "out of core", NULL);
  status_begin_decryption ();
  packet_body_init (&body, in, hdr);
  err = check_versions (&body, hdr->tag, sk, &version);
  if (!err && (hdr->tag == PKT_AEAD_ENCRYPTED || version == 2))
    err = decrypt_aead (&body, hdr->tag, sk, pass, handler);
  else if (!err)
    err = decrypt_cfb (&body, hdr->tag, sk, pass, handler, buf, &unverified);
  status_end_decryption (err, unverified);
  free (buf);
  return err;
}


gpg_error_t
input_open (input_t *in, const char *infile)
{
  memset (in, 0, sizeof *in);
  return open_input (infile, &in->fd);
}


gpg_error_t
input_start (input_t *in)
{
  gpg_error_t err;
  int c;

  err = reader_init (&in->raw, progress_source, &in->fd);
  if (!err)
    err = reader_peek (&in->raw, &c);
  if (err)
    return err;
  if (c < 0)
    return fail (gpg_error (GPG_ERR_NO_DATA), WHAT,
                 "no OpenPGP data found: the input is empty");
  in->packets = &in->raw;
  if (c & 0x80)
    return 0;
  err = armor_reader_new (&in->armor, &in->raw);
  if (gpg_err_code (err) == GPG_ERR_NO_DATA)
    err = fail (err, WHAT, "no OpenPGP data found");
  if (!err)
    err = reader_init (&in->dearmored, armor_reader_source, in->armor);
  if (!err)
    in->packets = &in->dearmored;
  return err;
}


void
input_close (input_t *in)
{
  reader_release (&in->dearmored);
  armor_reader_release (in->armor);
  reader_release (&in->raw);
  if (in->fd.fd > 0)
    close (in->fd.fd);
}


gpg_error_t
check_data_packet (const packet_header_t *hdr, int nskesk, int npkesk)
{
  /* A session key given on the command line needs no SKESK.  */
  if (!nskesk && npkesk && !session_key_overridden ())
    {
      /* As gpg ends it when it has none of the secret keys.  */
      status_begin_decryption ();
      status_end_decryption (gpg_error (GPG_ERR_NO_SECKEY), 0);
      return fail (gpg_error (GPG_ERR_NO_SECKEY), WHAT, "the message is"
                   " encrypted to a public key, not with a passphrase");
    }
  if (!nskesk && !session_key_overridden ())
    return fail (gpg_error (GPG_ERR_NO_SECKEY), WHAT,
                 "no passphrase-encrypted session key (SKESK packet)"
                 " before the encrypted data");
  if (hdr->tag == PKT_ENCRYPTED)
    {
      if (!opt.ignore_mdc_error)
        return fail (gpg_error (GPG_ERR_BAD_SIGNATURE), WHAT,
                     "the message is not integrity protected (no MDC);"
                     " use --ignore-mdc-error to decrypt it anyway");
      log_warning ("WARNING: the message is not integrity protected (no MDC)");
    }
  return 0;
}


/* Read the packets before the encrypted data from R: keep the first
 * SKESK in SK, count the SKESKs in *R_NSKESK, check and skip the
 * others and the PKESKs, and leave the header of the encrypted data
 * packet in HDR.  */
static gpg_error_t
read_key_packets (reader_t *r, skesk_t *sk, packet_header_t *hdr,
                  int *r_nskesk)
{
  gpg_error_t err;
  skesk_t unused;
  int nskesk = 0, npkesk = 0;

  for (;;)
    {
      err = next_packet (r, hdr);
      if (err)
        return err;
      switch (hdr->tag)
        {
        case PKT_ENCRYPTED_MDC:
        case PKT_ENCRYPTED:
        case PKT_AEAD_ENCRYPTED:
          *r_nskesk = nskesk;
          /* --list-only decrypts nothing: gpg lists a message it
           * could not decrypt as well.  */
          return opt.list_only ? 0 : check_data_packet (hdr, nskesk, npkesk);
        case 0:
          return fail (gpg_error (GPG_ERR_NO_DATA), WHAT,
                       nskesk || npkesk
                       ? "input truncated (no encrypted data packet)"
                       : "no OpenPGP data found");
        case PKT_SYMKEY_ENC:
          err = skesk_parse (r, hdr, nskesk++ ? &unused : sk);
          /* gpg names the SKESK it decrypts with, the first; listing,
           * it names them all.  */
          if (!err && (nskesk == 1 || opt.list_only))
            gpg_log_skesk (nskesk == 1 ? sk : &unused);
          if (!err && nskesk == 1 && sk->s2k.mode != S2K_ARGON2
              && !digest_algo_supported (sk->s2k.hash_algo))
            err = fail (gpg_error (GPG_ERR_DIGEST_ALGO), WHAT,
                        "unknown S2K digest algorithm %d", sk->s2k.hash_algo);
          if (!err && nskesk == 1 && !opt.list_only
              && !session_key_overridden () && !passphrase_was_kept ())
            status_need_passphrase_sym (sk->cipher_algo, &sk->s2k);
          break;
        case PKT_PUBKEY_ENC:
          npkesk++;
          err = skip_pkesk (r, hdr);
          break;
        case PKT_COMPRESSED:
        case PKT_PLAINTEXT:
          /* gpg -d writes out a message that is not encrypted, as
           * --store makes it.  */
          if (!nskesk && !npkesk && !opt.list_only)
            return 0;
          return fail (gpg_error (GPG_ERR_NO_DATA), WHAT,
                       "the message is not encrypted");
        default:
          return fail (gpg_error (GPG_ERR_UNEXPECTED), WHAT,
                       "unexpected packet (tag %d) before the encrypted data",
                       hdr->tag);
        }
      if (err)
        return err;
    }
}


/* Whether the output is named by the literal packet: with
 * --use-embedded-filename, when -o does not name it, as in gpg.  */
static int
embedded_name (void)
{
  return opt.use_embedded_filename && !opt.output;
}


/* Write out the message that begins with the compressed or literal
 * packet HDR read from R: no encryption, as --store writes it.  As gpg
 * then, no passphrase is needed and no decryption is reported.  */
static gpg_error_t
unencrypted_to_output (reader_t *r, const packet_header_t *hdr)
{
  gpg_error_t err, close_err;
  outfile_t out;
  unsigned char *buf;
  int open_late = embedded_name ();

  memset (&out, 0, sizeof out);
  buf = malloc (OUTPUT_BUFFER);
  if (!buf)
    return fail (gpg_error_from_syserror (), "out of core", NULL);
  err = open_late ? 0 : outfile_open (&out, opt.output);
  if (!err)
    err = process_plaintext (r, hdr, &out, open_late, buf, OUTPUT_BUFFER);
  close_err = outfile_close (&out, !err);
  free (buf);
  return err ? err : close_err;
}


/* Decrypt the encrypted data packet HDR read from R with SK, the first
 * of NSKESK SKESKs (NULL if none), and the passphrase *PASS (asked for
 * now if need be) into the output, which keeps the plaintext only when
 * the whole input was good.  */
static gpg_error_t
decrypt_to_output (reader_t *r, const packet_header_t *hdr,
                   const skesk_t *sk, int nskesk, char **pass)
{
  gpg_error_t err, close_err;
  outfile_t out;
  plaintext_output_t po = { &out, NULL, 0 };
  plaintext_handler_t handler = { write_plaintext, NULL, &po, 0 };

  memset (&out, 0, sizeof out);
  err = *pass || session_key_overridden () ? 0 : passphrase_get (pass, 0);
  /* After the passphrase, given or not, as gpg.  */
  if (nskesk)
    gpg_log_passphrases (nskesk);
  if (err)
    {
      /* As gpg reports a passphrase not given: a decryption that
       * started and failed, which is what a client waits for.  */
      status_begin_decryption ();
      status_end_decryption (err, 0);
      return err;
    }
  po.buf = malloc (OUTPUT_BUFFER);
  if (!po.buf)
    return fail (gpg_error_from_syserror (), "out of core", NULL);
  po.open_late = embedded_name ();
  err = po.open_late ? 0 : outfile_open (&out, opt.output);
  if (err)
    {
      free (po.buf);
      return err;
    }
  handler.in_place = !po.open_late && outfile_is_in_place (&out);
  err = decrypt_packet (r, hdr, sk, pass, &handler);
  if (!err)
    err = expect_no_packet (r, "encrypted data");
  close_err = outfile_close (&out, !err);
  free (po.buf);
  return err ? err : close_err;
}


gpg_error_t
decrypt_get_key (char **r_pass)
{
  gpg_error_t err;

  *r_pass = NULL;
  err = session_key_load ();
  if (err)
    {
      /* As gpg reports a session key it cannot use.  */
      status_begin_decryption ();
      status_end_decryption (err, 0);
      return err;
    }
  /* A passphrase not typed on the terminal is read first: with
   * --passphrase-fd 0 it precedes the message on stdin.  */
  if (!session_key_overridden () && passphrase_is_given ())
    err = passphrase_get (r_pass, 0);
  return err;
}


gpg_error_t
decrypt_file (const char *infile)
{
  gpg_error_t err;
  input_t in;
  packet_header_t hdr;
  skesk_t sk;
  char *pass = NULL;
  int nskesk = 0;

  err = input_open (&in, infile);
  if (err)
    return err;
  progress_start (in.fd.fd, in.fd.name);
  err = outfile_check (opt.output);
  if (!err && !opt.list_only)
    err = decrypt_get_key (&pass);
  if (!err)
    err = input_start (&in);
  if (!err)
    err = read_key_packets (in.packets, &sk, &hdr, &nskesk);
  if (!err && opt.list_only)
    list_only_report (nskesk);
  else if (!err && (hdr.tag == PKT_COMPRESSED || hdr.tag == PKT_PLAINTEXT))
    err = unencrypted_to_output (in.packets, &hdr);
  else if (!err)
    err = decrypt_to_output (in.packets, &hdr, nskesk ? &sk : NULL, nskesk,
                             &pass);
  passphrase_release (pass);
  session_key_release ();
  input_close (&in);
  return err;
}
