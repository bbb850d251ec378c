/* seipd2.c - AEAD-protected data: SEIPD v2 and LibrePGP's AEAD packet
 *
 * The two formats differ in three places only (see seipd2.h), kept in
 * struct chunks: where the message key and IV come from (HKDF for
 * SEIPD v2, the session key and the packet for LibrePGP), how a chunk's
 * nonce is made (IV || index, or IV xor index) and whether the chunk
 * index is associated data.  The associated data always starts with
 * the packet's tag (new format), version, cipher, AEAD algorithm and
 * chunk size octet.
 *
 * Writing passes the ciphertext on as it is made: only the tag waits
 * for the end of a chunk.  OCB takes whole blocks in every call but a
 * message's last, so up to 15 bytes are carried to the next write.
 * Reading holds one chunk, its tag and the 16 bytes after it, since
 * the last 16 bytes of the packet are the final tag and not a chunk's.
 */
#include <config.h>

#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <gcrypt.h>

#include "libsfcipher.h"
#include "packet.h"
#include "error.h"
#include "iobuf.h"
#include "log.h"
#include "hkdf.h"
#include "seipd2.h"

#define WHAT_DEC "decryption failed"

/* Octets of associated data every chunk's starts with.  */
#define AD_PREFIX 5

/* The version octet of each packet.  */
#define SEIPD2_VERSION 2
#define AEAD_PACKET_VERSION 1

/* What reading and writing share: the key, the nonces, the counts.  */
struct chunks
{
  sf_aead_hd_t hd;
  int tag;
  unsigned char ad[AD_PREFIX];
  unsigned char iv[AEAD_MAX_NONCE];
  size_t noncelen;
  size_t chunk_size;
  uint64_t index;               /* Of the chunk being processed.  */
  uint64_t total;               /* Plaintext bytes of the chunks done.  */
};


int
aead_algo_from_name (const char *name)
{
  char *end;
  long id;

  if (!strcasecmp (name, "EAX"))
    return AEAD_ALGO_EAX;
  if (!strcasecmp (name, "OCB"))
    return AEAD_ALGO_OCB;
  if (!strcasecmp (name, "GCM"))
    return AEAD_ALGO_GCM;
  id = strtol (name, &end, 10);
  if (*name && !*end && id >= AEAD_ALGO_EAX && id <= AEAD_ALGO_GCM)
    return id;
  return 0;
}


const char *
aead_algo_name (int algo)
{
  switch (algo)
    {
    case AEAD_ALGO_EAX: return "EAX";
    case AEAD_ALGO_OCB: return "OCB";
    case AEAD_ALGO_GCM: return "GCM";
    }
  return "?";
}


size_t
aead_nonce_len (int tag, int algo)
{
  switch (algo)
    {
    case AEAD_ALGO_EAX: return 16;
    case AEAD_ALGO_OCB: return 15;
    case AEAD_ALGO_GCM: return tag == PKT_AEAD_ENCRYPTED ? 0 : 12;
    }
  return 0;
}


gpg_error_t
aead_open (sf_aead_hd_t *r_hd, const sf_cipher_spec_t *spec, int algo,
           const unsigned char *key, const char *what)
{
  enum sf_aead_mode mode = (algo == AEAD_ALGO_OCB ? SF_AEAD_OCB
                            : algo == AEAD_ALGO_EAX ? SF_AEAD_EAX
                            : SF_AEAD_GCM);
  gpg_error_t err;

  if (spec->blocksize != SF_AEAD_BLOCKSIZE)
    return fail (gpg_error (GPG_ERR_INV_CIPHER_MODE), what,
                 "%s needs a cipher with 128-bit blocks; %s has %u-bit"
                 " blocks", aead_algo_name (algo), spec->name,
                 (unsigned int)spec->blocksize * 8);
  err = sf_aead_open (r_hd, spec, mode, AEAD_TAGLEN, SF_CIPHER_SECURE);
  if (!err)
    err = sf_aead_setkey (*r_hd, key, spec->keylen);
  if (err)
    {
      sf_aead_close (*r_hd);
      *r_hd = NULL;
      return fail (err, what, "%s/%s.%s: %s", spec->name, spec->impl,
                   aead_algo_name (algo), gpg_strerror (err));
    }
  return 0;
}


/* Store the big-endian 64-bit V at P.  */
static void
put_be64 (unsigned char *p, uint64_t v)
{
  int i;

  for (i = 7; i >= 0; i--, v >>= 8)
    p[i] = v & 0xff;
}


/* Set up C for the packet of header H and the cipher SPEC with the
 * session KEY: the message key and IV.  */
static gpg_error_t
chunks_init (struct chunks *c, const aead_header_t *h,
             const sf_cipher_spec_t *spec, const unsigned char *key,
             const char *what)
{
  gpg_error_t err;
  unsigned char *okm;
  size_t keylen = spec->keylen;

  memset (c, 0, sizeof *c);
  c->tag = h->tag;
  c->noncelen = aead_nonce_len (h->tag, h->aead_algo);
  c->chunk_size = (size_t)1 << (h->chunk_octet + 6);
  c->ad[0] = 0xc0 | h->tag;
  c->ad[1] = h->tag == PKT_AEAD_ENCRYPTED ? AEAD_PACKET_VERSION
                                          : SEIPD2_VERSION;
  c->ad[2] = h->cipher_algo;
  c->ad[3] = h->aead_algo;
  c->ad[4] = h->chunk_octet;
  if (h->tag == PKT_AEAD_ENCRYPTED)
    {
      memcpy (c->iv, h->iv, c->noncelen);
      return aead_open (&c->hd, spec, h->aead_algo, key, what);
    }
  /* RFC 9580 5.13.2: HKDF-SHA256 (salt, session key, AD prefix) gives
   * the message key and the nonces' first NONCELEN - 8 bytes.  */
  okm = gcry_malloc_secure (keylen + c->noncelen - 8);
  if (!okm)
    return fail (gpg_error_from_syserror (), "out of secure memory", NULL);
  err = hkdf (GCRY_MD_SHA256, h->salt, SEIPD2_SALTLEN, key, keylen,
              c->ad, AD_PREFIX, okm, keylen + c->noncelen - 8);
  if (err)
    err = fail (err, what, "HKDF: %s", gpg_strerror (err));
  else
    {
      memcpy (c->iv, okm + keylen, c->noncelen - 8);
      err = aead_open (&c->hd, spec, h->aead_algo, okm, what);
    }
  sf_wipememory (okm, keylen + c->noncelen - 8);
  gcry_free (okm);
  return err;
}


/* Start the AEAD message of chunk C->INDEX: its nonce and associated
 * data.  With FINAL, the message of the final tag instead, which also
 * authenticates the total length.  */
static gpg_error_t
chunks_begin (struct chunks *c, int final)
{
  gpg_error_t err;
  unsigned char nonce[AEAD_MAX_NONCE], ad[AD_PREFIX + 16];
  size_t adlen = AD_PREFIX, i;

  memcpy (ad, c->ad, AD_PREFIX);
  memcpy (nonce, c->iv, c->noncelen);
  if (c->tag == PKT_AEAD_ENCRYPTED)
    {
      unsigned char index[8];

      put_be64 (index, c->index);
      for (i = 0; i < 8; i++)
        nonce[c->noncelen - 8 + i] ^= index[i];
      memcpy (ad + adlen, index, 8);
      adlen += 8;
    }
  else
    put_be64 (nonce + c->noncelen - 8, c->index);
  if (final)
    {
      put_be64 (ad + adlen, c->total);
      adlen += 8;
    }
  err = sf_aead_setnonce (c->hd, nonce, c->noncelen);
  if (!err)
    err = sf_aead_authenticate (c->hd, ad, adlen);
  return err;
}


/* Refuse chunks larger than sfenc reads (PACKET names the packet).  */
static gpg_error_t
check_chunk_octet (aead_header_t *h, const char *packet)
{
  if (h->chunk_octet > AEAD_MAX_CHUNK_OCTET)
    return fail (gpg_error (GPG_ERR_NOT_SUPPORTED), WHAT_DEC,
                 "%s chunk size of 2^%d bytes is not supported (at most"
                 " 2^%d)", packet, h->chunk_octet + 6,
                 AEAD_MAX_CHUNK_OCTET + 6);
  return 0;
}


gpg_error_t
aead_header_read (packet_body_t *body, int tag, aead_header_t *h)
{
  gpg_error_t err;
  unsigned char f[4];
  const char *packet = tag == PKT_AEAD_ENCRYPTED ? "AEAD Encrypted Data"
                                                 : "SEIPD v2";
  int v1 = tag == PKT_AEAD_ENCRYPTED;

  memset (h, 0, sizeof *h);
  h->tag = tag;
  err = packet_body_read_exact (body, f, v1 ? 4 : 3, "encrypted data");
  if (err)
    return err;
  if (v1 && f[0] != AEAD_PACKET_VERSION)
    return fail (gpg_error (GPG_ERR_NOT_SUPPORTED), WHAT_DEC,
                 "AEAD Encrypted Data packet version %d is not supported",
                 f[0]);
  h->cipher_algo = f[v1];
  h->aead_algo = f[v1 + 1];
  h->chunk_octet = f[v1 + 2];
  if (!aead_nonce_len (tag, h->aead_algo))
    return fail (gpg_error (GPG_ERR_NOT_SUPPORTED), WHAT_DEC,
                 "AEAD algorithm %d is not supported in the %s packet",
                 h->aead_algo, packet);
  err = check_chunk_octet (h, packet);
  if (!err && v1)
    err = packet_body_read_exact (body, h->iv,
                                  aead_nonce_len (tag, h->aead_algo),
                                  "encrypted data");
  else if (!err)
    err = packet_body_read_exact (body, h->salt, SEIPD2_SALTLEN,
                                  "encrypted data");
  return err;
}


/*
 * Reading.
 */

struct aead_source
{
  struct chunks c;
  packet_body_t *body;
  unsigned char *buf;           /* A chunk, its tag and 16 bytes more.  */
  size_t fill;                  /* Ciphertext bytes in BUF.  */
  size_t pos, len;              /* Checked plaintext not yet released.  */
  int done;
};


gpg_error_t
aead_source_open (aead_source_t **r_as, packet_body_t *body,
                  const aead_header_t *h, const sf_cipher_spec_t *spec,
                  const unsigned char *key)
{
  gpg_error_t err;
  aead_source_t *as;

  *r_as = NULL;
  as = calloc (1, sizeof *as);
  if (!as)
    return fail (gpg_error_from_syserror (), "out of core", NULL);
  err = chunks_init (&as->c, h, spec, key, WHAT_DEC);
  if (!err)
    {
      as->body = body;
      as->buf = malloc (as->c.chunk_size + 2 * AEAD_TAGLEN);
      if (!as->buf)
        err = fail (gpg_error_from_syserror (), "out of core", NULL);
    }
  if (err)
    {
      aead_source_close (as);
      return err;
    }
  log_info ("%s/%s.%s encrypted data (%s, chunks of %zu bytes)", spec->name,
            spec->impl, aead_algo_name (h->aead_algo),
            h->tag == PKT_AEAD_ENCRYPTED ? "LibrePGP AEAD packet"
            : "SEIPD v2", as->c.chunk_size);
  *r_as = as;
  return 0;
}


void
aead_source_close (aead_source_t *as)
{
  if (!as)
    return;
  if (as->buf)
    {
      sf_wipememory (as->buf, as->c.chunk_size + 2 * AEAD_TAGLEN);
      free (as->buf);
    }
  sf_aead_close (as->c.hd);
  free (as);
}


/* Read from the packet until BUF holds WANT bytes or the packet ends.  */
static gpg_error_t
fill_buffer (aead_source_t *as, size_t want)
{
  gpg_error_t err;
  size_t n;

  while (as->fill < want)
    {
      err = packet_body_source (as->body, as->buf + as->fill,
                                want - as->fill, &n);
      if (err)
        return err;
      if (!n)
        break;
      as->fill += n;
    }
  return 0;
}


/* Decrypt the chunk of LEN plaintext bytes at the start of BUF and
 * check its tag; only then does its plaintext become readable.  */
static gpg_error_t
open_chunk (aead_source_t *as, size_t len)
{
  gpg_error_t err;

  err = chunks_begin (&as->c, 0);
  if (!err)
    err = sf_aead_decrypt (as->c.hd, as->buf, as->buf, len);
  if (!err)
    err = sf_aead_checktag (as->c.hd, as->buf + len, AEAD_TAGLEN);
  if (err)
    {
      sf_wipememory (as->buf, len);
      if (gpg_err_code (err) == GPG_ERR_CHECKSUM)
        return fail (gpg_error (GPG_ERR_BAD_SIGNATURE), WHAT_DEC,
                     "authentication tag of chunk %llu does not match:"
                     " the message was modified",
                     (unsigned long long)as->c.index + 1);
      return fail (err, WHAT_DEC, "cipher: %s", gpg_strerror (err));
    }
  as->c.index++;
  as->c.total += len;
  as->pos = 0;
  as->len = len;
  return 0;
}


/* The packet has ended with the FILL bytes in BUF: the last 16 are the
 * final tag, what comes before them the last chunk, if any.  */
static gpg_error_t
close_chunks (aead_source_t *as)
{
  gpg_error_t err = 0;
  size_t last = as->fill - AEAD_TAGLEN;

  as->done = 1;
  if (as->fill < AEAD_TAGLEN || (last && last < AEAD_TAGLEN))
    return fail (gpg_error (GPG_ERR_TRUNCATED), WHAT_DEC,
                 "input truncated (in the last chunk of AEAD encrypted"
                 " data)");
  if (last)
    err = open_chunk (as, last - AEAD_TAGLEN);
  if (!err)
    err = chunks_begin (&as->c, 1);
  if (!err)
    err = sf_aead_checktag (as->c.hd, as->buf + last, AEAD_TAGLEN);
  if (gpg_err_code (err) == GPG_ERR_CHECKSUM)
    err = fail (gpg_error (GPG_ERR_BAD_SIGNATURE), WHAT_DEC,
                "final authentication tag does not match: the message"
                " was truncated or modified");
  else if (err)
    err = fail (err, WHAT_DEC, "cipher: %s", gpg_strerror (err));
  if (err)
    {
      sf_wipememory (as->buf, as->len);
      as->len = 0;
    }
  return err;
}


/* Make the next chunk's plaintext readable.  */
static gpg_error_t
next_chunk (aead_source_t *as)
{
  gpg_error_t err;
  size_t whole = as->c.chunk_size + AEAD_TAGLEN;

  /* The 16 bytes read after the last chunk come first.  */
  if (as->fill > whole)
    {
      memmove (as->buf, as->buf + whole, as->fill - whole);
      as->fill -= whole;
    }
  err = fill_buffer (as, whole + AEAD_TAGLEN);
  if (err)
    return err;
  if (as->fill == whole + AEAD_TAGLEN)
    return open_chunk (as, as->c.chunk_size);
  return close_chunks (as);
}


gpg_error_t
aead_source_read (void *ctx, unsigned char *buf, size_t size, size_t *nread)
{
  aead_source_t *as = ctx;
  gpg_error_t err;
  size_t n;

  *nread = 0;
  while (!as->len)
    {
      if (as->done)
        return 0;
      err = next_chunk (as);
      if (err)
        return err;
    }
  n = size < as->len ? size : as->len;
  memcpy (buf, as->buf + as->pos, n);
  as->pos += n;
  as->len -= n;
  *nread = n;
  return 0;
}


/*
 * Writing.
 */

struct aead_writer
{
  struct chunks c;
  packet_writer_t packet;
  size_t in_chunk;              /* Plaintext bytes of the open chunk.  */
  int open;                     /* A chunk has begun.  */
  unsigned char carry[SF_AEAD_BLOCKSIZE];   /* Short of a whole block.  */
  size_t ncarry;
};


/* The header after the packet's length: version, ids, chunk size
 * octet, then the salt or the IV; returns its length.  */
static size_t
put_header (const aead_header_t *h, unsigned char *buf)
{
  size_t n = 0;

  buf[n++] = h->tag == PKT_AEAD_ENCRYPTED ? AEAD_PACKET_VERSION
                                          : SEIPD2_VERSION;
  buf[n++] = h->cipher_algo;
  buf[n++] = h->aead_algo;
  buf[n++] = h->chunk_octet;
  if (h->tag == PKT_AEAD_ENCRYPTED)
    {
      memcpy (buf + n, h->iv, aead_nonce_len (h->tag, h->aead_algo));
      return n + aead_nonce_len (h->tag, h->aead_algo);
    }
  memcpy (buf + n, h->salt, SEIPD2_SALTLEN);
  return n + SEIPD2_SALTLEN;
}


gpg_error_t
aead_writer_open (aead_writer_t **r_aw, int tag, const sf_cipher_spec_t *spec,
                  int algo, int chunk_octet, const unsigned char *key,
                  sink_fn_t sink, void *sink_ctx)
{
  gpg_error_t err;
  aead_writer_t *aw;
  aead_header_t h;
  unsigned char hdr[4 + SEIPD2_SALTLEN];

  *r_aw = NULL;
  memset (&h, 0, sizeof h);
  h.tag = tag;
  h.cipher_algo = spec->openpgp_id;
  h.aead_algo = algo;
  h.chunk_octet = chunk_octet;
  gcry_create_nonce (tag == PKT_AEAD_ENCRYPTED ? h.iv : h.salt,
                     tag == PKT_AEAD_ENCRYPTED ? sizeof h.iv : sizeof h.salt);
  aw = calloc (1, sizeof *aw);
  if (!aw)
    return fail (gpg_error_from_syserror (), "out of core", NULL);
  err = chunks_init (&aw->c, &h, spec, key, "encryption failed");
  if (!err)
    err = packet_writer_init (&aw->packet, tag, sink, sink_ctx);
  if (!err)
    err = packet_writer_sink (&aw->packet, hdr, put_header (&h, hdr));
  if (err)
    {
      aead_writer_close (aw);
      return err;
    }
  *r_aw = aw;
  return 0;
}


void
aead_writer_close (aead_writer_t *aw)
{
  if (!aw)
    return;
  packet_writer_release (&aw->packet);
  sf_aead_close (aw->c.hd);
  sf_wipememory (aw, sizeof *aw);
  free (aw);
}


/* Encrypt LEN bytes of IN into the packet: whole blocks, or the end of
 * a chunk.  */
static gpg_error_t
emit (aead_writer_t *aw, const unsigned char *in, size_t len)
{
  gpg_error_t err;
  unsigned char *out, block[SF_AEAD_BLOCKSIZE];
  size_t n;

  while (len)
    {
      n = packet_writer_space (&aw->packet, &out);
      if (n < len)
        n -= n % SF_AEAD_BLOCKSIZE;
      if (!n)
        {
          /* Less than a block of room: through BLOCK.  */
          n = len < sizeof block ? len : sizeof block;
          err = sf_aead_encrypt (aw->c.hd, block, in, n);
          if (!err)
            err = packet_writer_sink (&aw->packet, block, n);
        }
      else
        {
          if (n > len)
            n = len;
          err = sf_aead_encrypt (aw->c.hd, out, in, n);
          if (!err)
            err = packet_writer_commit (&aw->packet, n);
        }
      if (err)
        return fail (err, "encryption failed", "%s", gpg_strerror (err));
      in += n;
      len -= n;
    }
  return 0;
}


/* Encrypt LEN bytes of the open chunk: whole blocks now, the rest
 * carried to the next call.  */
static gpg_error_t
encrypt_blocks (aead_writer_t *aw, const unsigned char *in, size_t len)
{
  gpg_error_t err;
  size_t n, whole;

  if (aw->ncarry)
    {
      n = SF_AEAD_BLOCKSIZE - aw->ncarry;
      if (n > len)
        n = len;
      memcpy (aw->carry + aw->ncarry, in, n);
      aw->ncarry += n;
      in += n;
      len -= n;
      if (aw->ncarry < SF_AEAD_BLOCKSIZE)
        return 0;
      aw->ncarry = 0;
      err = emit (aw, aw->carry, SF_AEAD_BLOCKSIZE);
      if (err)
        return err;
    }
  whole = len - len % SF_AEAD_BLOCKSIZE;
  err = emit (aw, in, whole);
  memcpy (aw->carry, in + whole, len - whole);
  aw->ncarry = len - whole;
  return err;
}


/* End the open chunk: its last bytes, then its tag.  */
static gpg_error_t
end_chunk (aead_writer_t *aw)
{
  gpg_error_t err;
  unsigned char tag[AEAD_TAGLEN];

  err = emit (aw, aw->carry, aw->ncarry);
  aw->ncarry = 0;
  if (!err)
    err = sf_aead_gettag (aw->c.hd, tag, sizeof tag);
  if (!err)
    err = packet_writer_sink (&aw->packet, tag, sizeof tag);
  aw->c.index++;
  aw->c.total += aw->in_chunk;
  aw->in_chunk = 0;
  aw->open = 0;
  return err;
}


gpg_error_t
aead_writer_sink (void *ctx, const unsigned char *buf, size_t len)
{
  aead_writer_t *aw = ctx;
  gpg_error_t err = 0;
  size_t n;

  while (!err && len)
    {
      if (!aw->open)
        {
          err = chunks_begin (&aw->c, 0);
          if (err)
            return fail (err, "encryption failed", "%s", gpg_strerror (err));
          aw->open = 1;
        }
      n = aw->c.chunk_size - aw->in_chunk;
      if (n > len)
        n = len;
      err = encrypt_blocks (aw, buf, n);
      aw->in_chunk += n;
      buf += n;
      len -= n;
      if (!err && aw->in_chunk == aw->c.chunk_size)
        err = end_chunk (aw);
    }
  return err;
}


gpg_error_t
aead_writer_finish (aead_writer_t *aw)
{
  gpg_error_t err = 0;
  unsigned char tag[AEAD_TAGLEN];

  if (aw->open)
    err = end_chunk (aw);
  if (!err)
    err = chunks_begin (&aw->c, 1);
  if (!err)
    err = sf_aead_gettag (aw->c.hd, tag, sizeof tag);
  if (err)
    return fail (err, "encryption failed", "%s", gpg_strerror (err));
  err = packet_writer_sink (&aw->packet, tag, sizeof tag);
  if (!err)
    err = packet_writer_finish (&aw->packet);
  return err;
}
