/* t-seipd2.c - the chunks of AEAD-protected data (g10/seipd2.c)
 *
 * For SEIPD v2 (RFC 9580 5.13.2) with OCB, EAX and GCM and LibrePGP's
 * AEAD packet (tag 20) with OCB and EAX, AES and Twofish, chunks of 64,
 * 128 and 256 bytes and plaintexts around their boundaries and across
 * the 64 KiB partial lengths:
 *   - the writer, fed in random pieces, gives the packet that a
 *     one-shot computation written here from the two specifications
 *     gives (key and nonce derivation, nonces, associated data, final
 *     tag over the total length) from the same salt or IV;
 *   - the reader, read in random pieces, gives the plaintext back.
 * Then for one message of five chunks: two chunks swapped, a chunk
 * dropped, the last chunk dropped, the final tag cut short, a byte
 * added, the header alone, and every single bit of the packet flipped
 * are all refused, and what the reader released before the error is
 * always a prefix of the plaintext made of whole chunks whose tags
 * were checked.
 */
#include <config.h>

#include "t-common.h"
#include "libsfcipher.h"
#include "packet.h"
#include "iobuf.h"
#include "hkdf.h"
#include "seipd2.h"

/* A growing buffer, the sink of the writer.  */
struct buf
{
  unsigned char *data;
  size_t len, size;
};

static gpg_error_t
buf_sink (void *ctx, const unsigned char *p, size_t n)
{
  struct buf *b = ctx;

  if (!n)
    return 0;
  if (b->len + n > b->size)
    {
      b->size = 2 * (b->len + n);
      b->data = realloc (b->data, b->size);
      if (!b->data)
        abort ();
    }
  memcpy (b->data + b->len, p, n);
  b->len += n;
  return 0;
}

/* Memory as a source, in pieces of random size.  */
struct mem
{
  const unsigned char *data;
  size_t len, pos;
};

static gpg_error_t
mem_source (void *ctx, unsigned char *p, size_t size, size_t *nread)
{
  struct mem *m = ctx;
  size_t n = m->len - m->pos;

  if (n > size)
    n = size;
  if (n > 1)
    n = 1 + prng_below (n);
  memcpy (p, m->data + m->pos, n);
  m->pos += n;
  *nread = n;
  return 0;
}


/* Encrypt PLAIN of LEN bytes into a packet with tag TAG, written in
 * random pieces, and return its body (the framing undone).  */
static unsigned char *
seal (int tag, const sf_cipher_spec_t *spec, int algo, int c,
      const unsigned char *key, const unsigned char *plain, size_t len,
      size_t *r_bodylen)
{
  struct buf out = { NULL, 0, 0 }, body = { NULL, 0, 0 };
  struct mem m;
  aead_writer_t *aw;
  reader_t r;
  packet_header_t hdr;
  packet_body_t pb;
  unsigned char piece[4096];
  size_t done, n;
  gpg_error_t err;

  err = aead_writer_open (&aw, tag, spec, algo, c, key, buf_sink, &out);
  for (done = 0; !err && done < len; done += n)
    {
      n = prng_below (len - done + 1);
      err = aead_writer_sink (aw, plain + done, n);
    }
  if (!err)
    err = aead_writer_finish (aw);
  aead_writer_close (aw);
  check (!err, "writer: %s", gpg_strerror (err));

  m.data = out.data;
  m.len = out.len;
  m.pos = 0;
  reader_init (&r, mem_source, &m);
  err = packet_read_header (&r, &hdr, "test");
  check (!err && hdr.tag == tag, "packet header: tag %d", hdr.tag);
  packet_body_init (&pb, &r, &hdr);
  do
    {
      err = packet_body_source (&pb, piece, sizeof piece, &n);
      buf_sink (&body, piece, n);
    }
  while (!err && n);
  check (!err && m.pos == m.len, "packet body: %s", gpg_strerror (err));
  reader_release (&r);
  free (out.data);
  *r_bodylen = body.len;
  return body.data;
}


/* Decrypt the packet body BODY of BODYLEN bytes with tag TAG, reading
 * in random pieces: what was released before the end or the error goes
 * to *OUT.  */
static gpg_error_t
open_body (int tag, const sf_cipher_spec_t *spec, const unsigned char *key,
           const unsigned char *body, size_t bodylen, struct buf *out)
{
  struct mem m = { body, bodylen, 0 };
  packet_header_t hdr;
  packet_body_t pb;
  aead_header_t h;
  aead_source_t *as = NULL;
  reader_t r;
  unsigned char version = 2, piece[1000];
  size_t n;
  gpg_error_t err;

  memset (&hdr, 0, sizeof hdr);
  hdr.tag = tag;
  hdr.length = bodylen;
  out->len = 0;
  reader_init (&r, mem_source, &m);
  packet_body_init (&pb, &r, &hdr);
  err = tag == PKT_AEAD_ENCRYPTED ? 0
        : packet_body_read_exact (&pb, &version, 1, "test");
  if (!err && version != 2)
    err = gpg_error (GPG_ERR_INV_PACKET);
  if (!err)
    err = aead_header_read (&pb, tag, &h);
  if (!err)
    err = aead_source_open (&as, &pb, &h, spec, key);
  while (!err)
    {
      err = aead_source_read (as, piece, 1 + prng_below (sizeof piece), &n);
      if (err || !n)
        break;
      buf_sink (out, piece, n);
    }
  aead_source_close (as);
  reader_release (&r);
  return err;
}


static void
put_be64 (unsigned char *p, uint64_t v)
{
  int i;

  for (i = 7; i >= 0; i--, v >>= 8)
    p[i] = v;
}

/* The body the specifications describe for PLAIN, given the header
 * HDRBYTES of HDRLEN bytes the writer chose (version, ids, chunk size
 * octet, salt or IV), each chunk encrypted in one call.  */
static unsigned char *
reference_body (int tag, const sf_cipher_spec_t *spec, int algo,
                const unsigned char *key, const unsigned char *hdrbytes,
                size_t hdrlen, const unsigned char *plain, size_t len,
                size_t *r_len)
{
  enum sf_aead_mode mode = algo == AEAD_ALGO_OCB ? SF_AEAD_OCB
                           : algo == AEAD_ALGO_EAX ? SF_AEAD_EAX : SF_AEAD_GCM;
  size_t noncelen = algo == AEAD_ALGO_OCB ? 15 : algo == AEAD_ALGO_EAX ? 16 : 12;
  size_t csize = (size_t)1 << (hdrbytes[3] + 6), done = 0, n, i;
  uint64_t index = 0;
  unsigned char mkey[32 + 16], nonce[16], ad[21], *body, *p;
  sf_aead_hd_t hd;

  /* The associated data starts with the packet tag and the header up
   * to the chunk size octet; the salt or the IV follows that.  */
  ad[0] = 0xc0 | tag;
  memcpy (ad + 1, hdrbytes, 4);
  if (tag == PKT_AEAD_ENCRYPTED)
    {
      memcpy (mkey, key, spec->keylen);
      memcpy (mkey + spec->keylen, hdrbytes + 4, noncelen);
    }
  else
    hkdf (GCRY_MD_SHA256, hdrbytes + 4, 32, key, spec->keylen, ad, 5,
          mkey, spec->keylen + noncelen - 8);
  body = malloc (hdrlen + len + (len / csize + 2) * 16);
  memcpy (body, hdrbytes, hdrlen);
  p = body + hdrlen;
  sf_aead_open (&hd, spec, mode, 16, 0);
  sf_aead_setkey (hd, mkey, spec->keylen);
  for (;;)
    {
      int final = done == len;
      size_t adlen = 5;

      memcpy (nonce, mkey + spec->keylen, noncelen);
      if (tag == PKT_AEAD_ENCRYPTED)
        {
          for (i = 0; i < 8; i++)
            nonce[noncelen - 8 + i] ^= (unsigned char)(index >> (56 - 8 * i));
          put_be64 (ad + adlen, index);
          adlen += 8;
        }
      else
        put_be64 (nonce + noncelen - 8, index);
      if (final)
        {
          put_be64 (ad + adlen, len);
          adlen += 8;
        }
      n = final ? 0 : len - done < csize ? len - done : csize;
      sf_aead_setnonce (hd, nonce, noncelen);
      sf_aead_authenticate (hd, ad, adlen);
      sf_aead_encrypt (hd, p, plain + done, n);
      sf_aead_gettag (hd, p + n, 16);
      p += n + 16;
      done += n;
      index++;
      if (final)
        break;
    }
  sf_aead_close (hd);
  *r_len = p - body;
  return body;
}


static void
round_trip (int tag, const sf_cipher_spec_t *spec, int algo, int c,
            size_t len)
{
  unsigned char key[32], *plain, *body, *ref;
  size_t bodylen, reflen, hdrlen;
  struct buf out = { NULL, 0, 0 };
  gpg_error_t err;
  const char *what = tag == PKT_AEAD_ENCRYPTED ? "tag 20" : "SEIPD v2";

  prng_fill (key, sizeof key);
  plain = malloc (len + 1);
  prng_fill (plain, len);
  body = seal (tag, spec, algo, c, key, plain, len, &bodylen);
  hdrlen = 4 + (tag == PKT_AEAD_ENCRYPTED ? aead_nonce_len (tag, algo) : 32);
  check (body[0] == (tag == PKT_AEAD_ENCRYPTED ? 1 : 2), "%s: version %d",
         what, body[0]);
  ref = reference_body (tag, spec, algo, key, body, hdrlen, plain, len,
                        &reflen);
  check (reflen == bodylen && !memcmp (ref, body, reflen),
         "%s %s/%s c=%d len=%zu: not the reference packet", what,
         spec->name, aead_algo_name (algo), c, len);
  err = open_body (tag, spec, key, body, bodylen, &out);
  check (!err && out.len == len && (!len || !memcmp (out.data, plain, len)),
         "%s %s/%s c=%d len=%zu: round trip: %s", what, spec->name,
         aead_algo_name (algo), c, len, gpg_strerror (err));
  free (out.data);
  free (ref);
  free (body);
  free (plain);
}


/* Decrypt the tampered BODY: refused, and what came out is a prefix of
 * PLAIN of PREFIX bytes (any prefix of whole chunks when PREFIX is
 * -1).  */
static void
expect_refused (const char *what, const sf_cipher_spec_t *spec,
                const unsigned char *key, const unsigned char *body,
                size_t bodylen, const unsigned char *plain, long prefix)
{
  struct buf out = { NULL, 0, 0 };
  gpg_error_t err;

  err = open_body (PKT_ENCRYPTED_MDC, spec, key, body, bodylen, &out);
  check (err, "%s: not refused", what);
  if (prefix >= 0)
    check (out.len == (size_t)prefix, "%s: %zu bytes released, not %ld",
           what, out.len, prefix);
  else
    check (out.len % 64 == 0, "%s: %zu bytes released", what, out.len);
  check (!out.len || !memcmp (out.data, plain, out.len),
         "%s: released bytes that are not the plaintext", what);
  free (out.data);
}


/* Five chunks of 64 bytes (the last of 44) with OCB: each way of
 * tampering with them.  */
static void
tampering (const sf_cipher_spec_t *spec)
{
  enum { LEN = 300, HDR = 36, CH = 80 };
  unsigned char key[32], plain[LEN], *body, *t;
  size_t bodylen, i;
  int bit;

  prng_fill (key, sizeof key);
  prng_fill (plain, sizeof plain);
  body = seal (PKT_ENCRYPTED_MDC, spec, AEAD_ALGO_OCB, 0, key, plain, LEN,
               &bodylen);
  check (bodylen == HDR + 4 * CH + 44 + 16 + 16, "body of %zu bytes",
         bodylen);
  t = malloc (bodylen + 1);

  memcpy (t, body, bodylen);
  memcpy (t + HDR + CH, body + HDR + 2 * CH, CH);
  memcpy (t + HDR + 2 * CH, body + HDR + CH, CH);
  expect_refused ("chunks 2 and 3 swapped", spec, key, t, bodylen, plain, 64);

  memcpy (t, body, HDR + CH);
  memcpy (t + HDR + CH, body + HDR + 2 * CH, bodylen - HDR - 2 * CH);
  expect_refused ("chunk 2 dropped", spec, key, t, bodylen - CH, plain, 64);

  memcpy (t, body, HDR + 4 * CH);
  memcpy (t + HDR + 4 * CH, body + bodylen - 16, 16);
  /* Chunk 4 is not the last one for the reader until the packet ends;
   * the final tag then tells.  */
  expect_refused ("last chunk dropped", spec, key, t, HDR + 4 * CH + 16,
                  plain, 4 * 64);

  expect_refused ("final tag cut short", spec, key, body, bodylen - 1,
                  plain, 4 * 64);
  expect_refused ("final tag missing", spec, key, body, bodylen - 16,
                  plain, 4 * 64);
  expect_refused ("header alone", spec, key, body, HDR, plain, 0);

  memcpy (t, body, bodylen);
  t[bodylen] = 0;
  expect_refused ("a byte added", spec, key, t, bodylen + 1, plain, 4 * 64);

  for (i = 0; i < bodylen; i++)
    for (bit = 0; bit < 8; bit++)
      {
        char what[64];

        memcpy (t, body, bodylen);
        t[i] ^= 1 << bit;
        snprintf (what, sizeof what, "bit %d of byte %zu flipped", bit, i);
        expect_refused (what, spec, key, t, bodylen, plain, -1);
      }
  free (t);
  free (body);
}


int
main (void)
{
  static const size_t lens[] =
    { 0, 1, 15, 16, 17, 63, 64, 65, 127, 128, 129, 255, 256, 257, 1000,
      70000 };
  static const int algos[] = { AEAD_ALGO_OCB, AEAD_ALGO_EAX, AEAD_ALGO_GCM };
  static const char *ciphers[] = { "AES", "AES256", "TWOFISH" };
  static const int tags[] = { PKT_ENCRYPTED_MDC, PKT_AEAD_ENCRYPTED };
  const sf_cipher_spec_t *spec;
  size_t l, a, s, t;
  int c;

  test_init ("t-seipd2");
  prng_seed ();
  for (s = 0; s < sizeof ciphers / sizeof *ciphers; s++)
    {
      if (sf_table_find (ciphers[s], NULL, &spec))
        {
          check (0, "no %s in the table", ciphers[s]);
          continue;
        }
      for (t = 0; t < sizeof tags / sizeof *tags; t++)
        for (a = 0; a < sizeof algos / sizeof *algos; a++)
          for (c = 0; c <= 2; c++)
            for (l = 0; l < sizeof lens / sizeof *lens; l++)
              if (aead_nonce_len (tags[t], algos[a]))
                round_trip (tags[t], spec, algos[a], c, lens[l]);
    }
  if (!sf_table_find ("AES", NULL, &spec))
    tampering (spec);
  return test_finish ();
}
