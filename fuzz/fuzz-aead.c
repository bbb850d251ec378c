/* fuzz-aead.c - the framing of AEAD-protected data (g10/seipd2.c)
 *
 * Random bytes never pass an AEAD tag, so fuzz-decrypt stops at the
 * first chunk of an SEIPD v2 or LibrePGP AEAD packet, and
 * fuzz-packets only meets the packets sfenc's writer makes.  Here the
 * harness builds the packet from fields the input chooses, with valid
 * tags under a session key fixed for the run, edits its framing as
 * the input says, and runs the message through sfenc -d.  The chunks
 * are encrypted here from RFC 9580 5.13.2 and LibrePGP 5.16 rather
 * than by seipd2.c's writer: the salt or IV comes from the input, and
 * a mistake the writer and the reader share would show.
 *
 * Each input is its own check: a message that was not edited, with
 * fields sfenc reads, must decrypt; any other must be refused.  Either
 * way round is a finding (abort).
 *
 * Input, zeros past the end:
 *   byte 0   bit 0     0: SEIPD v2 (with a v6 SKESK), 1: LibrePGP's
 *                      AEAD packet (with a v5 SKESK);
 *            bits 1-2  the cipher: AES-128, AES-192, AES-256, Twofish;
 *            bits 3-4  the AEAD algorithm id, 0 to 3 (0, and GCM in
 *                      LibrePGP's packet, are refused; the SKESK then
 *                      uses EAX);
 *            bits 5-7  the packet's length: 0-3 as fuzz_frame writes
 *                      it, 4-7 as FUZZ_PARTIAL_EMPTY but ending where
 *                      the last length is due;
 *   byte 1   the chunk size octet: above 16 it is refused, and the
 *            chunks are then made as for 16;
 *   byte 2   SHIFT, mod 8, for the partial body lengths (fuzz_frame);
 *   byte 3-4 L, big-endian, mod MAX_PLAINTEXT + 1: 0 for no plaintext
 *            at all, else a literal data packet of L - 1 bytes of data;
 *   byte 5-36  the salt (SEIPD v2) or, its first bytes, the IV;
 *   then up to MAX_EDITS edits of 3 bytes each (EDIT_*): the operation,
 *   A and B.  The pieces an edit picks with A (mod their number) are
 *   the chunks with their tags, the final tag and appended bytes.
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <gcrypt.h>

#include "fuzz.h"
#include "aead-internal.h"
#include "skesk.h"
#include "seipd2.h"
#include "hkdf.h"

#define MAX_PLAINTEXT 4096
#define MAX_EDITS 4
#define SALT_OFFSET 5
#define FIELDS (SALT_OFFSET + SEIPD2_SALTLEN)

/* The plaintext: a literal packet's header (at most 3 octets), its
 * fields (6) and up to MAX_PLAINTEXT - 1 bytes of data.  */
#define PLAINTEXT_ROOM (MAX_PLAINTEXT + 8)

/* The plaintext in chunks of 64 bytes or more, the final tag, and one
 * more piece per edit.  */
#define MAX_PIECES ((PLAINTEXT_ROOM + 63) / 64 + 1 + MAX_EDITS)

/* Offsets in the packet body of the fields after the version.  */
#define HDR_VERSION 0
#define HDR_CIPHER 1
#define HDR_AEAD 2
#define HDR_CHUNK 3
#define HDR_LEN (4 + SEIPD2_SALTLEN)

/* Byte 0, bits 5-7, from which on the message is cut.  */
#define FRAMING_CUT 4

/* The edits.  */
enum
  {
    EDIT_NONE,
    EDIT_CUT_BEFORE,    /* Truncate before piece A.  */
    EDIT_CUT_IN_TAG,    /* Keep B mod 16 bytes of the tag of piece A.  */
    EDIT_DROP,          /* Drop piece A.  */
    EDIT_DUPLICATE,     /* Repeat piece A after it.  */
    EDIT_SWAP,          /* Swap pieces A and A + 1.  */
    EDIT_CHUNK_OCTET,   /* Set the header's chunk size octet to B.  */
    EDIT_CIPHER,        /* ... its cipher octet to B.  */
    EDIT_AEAD,          /* ... its AEAD algorithm octet to B.  */
    EDIT_VERSION,       /* ... its version octet to B.  */
    EDIT_APPEND,        /* Append B + 1 bytes of value A.  */
    EDIT_FLIP,          /* Flip the low bit of byte A * 256 + B.  */
    EDIT_CUT_AT,        /* Truncate at byte A * 256 + B.  */
    N_EDITS
  };

static const int cipher_ids[4] = { 7, 8, 9, 10 };

/* The SKESK packets and session keys, made once: [v5][cipher][algo].  */
static skesk_out_t skesks[2][4][4];
static const sf_cipher_spec_t *specs[4];

/* The body of the AEAD packet being built and edited: the header
 * (HDRLEN bytes), then the pieces, the Ith ending at END[I].  */
typedef struct message
{
  unsigned char *buf;
  size_t len;
  size_t hdrlen;
  size_t end[MAX_PIECES];
  size_t npieces;
} message_t;


/* The AEAD algorithm the SKESK uses for the packet's ALGO.  */
static int
skesk_algo (int tag, int algo)
{
  return aead_nonce_len (tag, algo) ? algo : AEAD_ALGO_EAX;
}


static size_t
piece_start (const message_t *m, size_t i)
{
  return i ? m->end[i - 1] : m->hdrlen;
}


/* Encrypt PLAIN (LEN bytes) as the chunks and the final tag of the
 * packet with tag TAG whose header is at the start of M, under the
 * session KEY of SPEC; CHUNK_OCTET makes the chunks.  */
static void
encrypt_chunks (message_t *m, int tag, const sf_cipher_spec_t *spec,
                const unsigned char *key, int chunk_octet,
                const unsigned char *plain, size_t len)
{
  const unsigned char *hdr = m->buf;
  int algo = hdr[HDR_AEAD];
  size_t noncelen = aead_nonce_len (tag, algo);
  size_t chunk = (size_t)1 << (chunk_octet + 6), n, done = 0;
  unsigned char prefix[5] = { 0xc0 | tag, hdr[HDR_VERSION], hdr[HDR_CIPHER],
                              algo, hdr[HDR_CHUNK] };
  unsigned char iv[AEAD_MAX_NONCE], nonce[AEAD_MAX_NONCE], ad[5 + 16];
  unsigned char okm[SKESK_MAX_KEY + AEAD_MAX_NONCE];
  uint64_t index = 0;
  sf_aead_hd_t hd;
  size_t adlen, i;
  int final = 0;

  /* SEIPD v2: the message key and the nonces' first bytes from HKDF;
   * LibrePGP: the session key and the packet's IV.  */
  if (tag == PKT_ENCRYPTED_MDC)
    {
      if (hkdf (GCRY_MD_SHA256, hdr + 4, SEIPD2_SALTLEN, key, spec->keylen,
                prefix, sizeof prefix, okm, spec->keylen + noncelen - 8))
        abort ();
      memcpy (iv, okm + spec->keylen, noncelen - 8);
      key = okm;
    }
  else
    memcpy (iv, hdr + 4, noncelen);
  if (aead_open (&hd, spec, algo, key, "fuzz-aead"))
    abort ();
  m->npieces = 0;
  m->len = m->hdrlen;
  while (!final)
    {
      final = done == len;
      n = len - done < chunk ? len - done : chunk;
      memcpy (nonce, iv, noncelen);
      memcpy (ad, prefix, sizeof prefix);
      adlen = sizeof prefix;
      if (tag == PKT_AEAD_ENCRYPTED)
        {
          aead_store_be64 (ad + adlen, index);
          for (i = 0; i < 8; i++)
            nonce[noncelen - 8 + i] ^= ad[adlen + i];
          adlen += 8;
        }
      else
        aead_store_be64 (nonce + noncelen - 8, index);
      if (final)
        {
          aead_store_be64 (ad + adlen, len);
          adlen += 8;
        }
      if (sf_aead_setnonce (hd, nonce, noncelen)
          || sf_aead_authenticate (hd, ad, adlen)
          || sf_aead_encrypt (hd, m->buf + m->len, plain + done, n)
          || sf_aead_gettag (hd, m->buf + m->len + n, AEAD_TAGLEN))
        abort ();
      m->len += n + AEAD_TAGLEN;
      m->end[m->npieces++] = m->len;
      done += n;
      index++;
    }
  sf_aead_close (hd);
  sf_wipememory (okm, sizeof okm);
}


/* Replace LEN bytes at POS by INS (INSLEN bytes; NULL for nothing).  */
static void
splice (message_t *m, size_t pos, size_t len, const unsigned char *ins,
        size_t inslen)
{
  memmove (m->buf + pos + inslen, m->buf + pos + len, m->len - pos - len);
  if (ins)
    memcpy (m->buf + pos, ins, inslen);
  m->len += inslen - len;
}


/* Truncate M at byte POS.  */
static void
cut_at (message_t *m, size_t pos)
{
  if (pos >= m->len)
    return;
  m->len = pos;
  if (pos < m->hdrlen)
    m->hdrlen = pos;
  while (m->npieces && piece_start (m, m->npieces - 1) >= pos)
    m->npieces--;
  if (m->npieces)
    m->end[m->npieces - 1] = pos;
}


/* Apply edit OP with arguments A and B to M.  */
static void
edit (message_t *m, int op, unsigned int a, unsigned int b)
{
  size_t k = m->npieces ? a % m->npieces : 0, start, len, i;
  unsigned char *copy;

  start = piece_start (m, k);
  len = m->npieces ? m->end[k] - start : 0;
  switch (op)
    {
    case EDIT_CUT_BEFORE:
      cut_at (m, start);
      break;
    case EDIT_CUT_IN_TAG:
      if (len >= AEAD_TAGLEN)
        cut_at (m, m->end[k] - AEAD_TAGLEN + b % AEAD_TAGLEN);
      break;
    case EDIT_DROP:
      if (!len)
        break;
      splice (m, start, len, NULL, 0);
      for (i = k; i + 1 < m->npieces; i++)
        m->end[i] = m->end[i + 1] - len;
      m->npieces--;
      break;
    case EDIT_DUPLICATE:
      if (!len || m->npieces == MAX_PIECES)
        break;
      splice (m, m->end[k], 0, m->buf + start, len);
      for (i = m->npieces; i > k; i--)
        m->end[i] = m->end[i - 1] + len;
      m->npieces++;
      break;
    case EDIT_SWAP:
      if (k + 1 >= m->npieces)
        break;
      /* Piece K + 1 moves to where K began, K after it.  */
      copy = malloc (len);
      if (!copy)
        abort ();
      memcpy (copy, m->buf + start, len);
      memmove (m->buf + start, m->buf + m->end[k], m->end[k + 1] - m->end[k]);
      memcpy (m->buf + m->end[k + 1] - len, copy, len);
      m->end[k] = m->end[k + 1] - len;
      free (copy);
      break;
    case EDIT_CHUNK_OCTET:
    case EDIT_CIPHER:
    case EDIT_AEAD:
    case EDIT_VERSION:
      i = (op == EDIT_CHUNK_OCTET ? HDR_CHUNK : op == EDIT_CIPHER ? HDR_CIPHER
           : op == EDIT_AEAD ? HDR_AEAD : HDR_VERSION);
      if (i < m->hdrlen)
        m->buf[i] = b;
      break;
    case EDIT_APPEND:
      if (m->npieces == MAX_PIECES)
        break;
      memset (m->buf + m->len, a, b + 1);
      m->len += b + 1;
      m->end[m->npieces++] = m->len;
      break;
    case EDIT_FLIP:
      if (m->len)
        m->buf[(a << 8 | b) % m->len] ^= 1;
      break;
    case EDIT_CUT_AT:
      cut_at (m, (a << 8 | b) % (m->len + 1));
      break;
    }
}


/* Make the SKESKs for every cipher and AEAD algorithm.  */
static void
start (void)
{
  static const s2k_t s2k =
    { .mode = 1, .hash_algo = GCRY_MD_SHA1, .salt = { 8, 7, 6, 5, 4, 3, 2 } };
  gpg_error_t err = 0;
  int v5, c, algo;

  fuzz_start ();
  if (specs[0])
    return;
  for (c = 0; !err && c < 4; c++)
    err = sf_table_find_id (cipher_ids[c], NULL, &specs[c]);
  for (v5 = 0; !err && v5 < 2; v5++)
    for (c = 0; !err && c < 4; c++)
      for (algo = AEAD_ALGO_EAX; !err && algo <= AEAD_ALGO_GCM; algo++)
        if (aead_nonce_len (v5 ? PKT_AEAD_ENCRYPTED : PKT_ENCRYPTED_MDC,
                            algo))
          err = skesk_make (&skesks[v5][c][algo], v5 ? 5 : 6, specs[c], algo,
                            &s2k, FUZZ_PASSPHRASE);
  if (err)
    {
      fail_print (err, "fuzz-aead start-up");
      exit (2);
    }
}


int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  uint8_t f[FIELDS + 3 * MAX_EDITS];
  unsigned char *plain, *original, *msg;
  int v5, c, algo, tag, framing, chunk_octet, readable;
  unsigned int shift;
  size_t plainlen, bodysize, n, msglen, origlen, i;
  const skesk_out_t *skesk;
  message_t m;
  gpg_error_t err;

  start ();
  memset (f, 0, sizeof f);
  memcpy (f, data, size < sizeof f ? size : sizeof f);
  v5 = f[0] & 1;
  c = (f[0] >> 1) & 3;
  algo = (f[0] >> 3) & 3;
  framing = f[0] >> 5;
  chunk_octet = f[1];
  shift = f[2] & 7;
  tag = v5 ? PKT_AEAD_ENCRYPTED : PKT_ENCRYPTED_MDC;
  skesk = &skesks[v5][c][skesk_algo (tag, algo)];
  n = (f[3] << 8 | f[4]) % (MAX_PLAINTEXT + 1);

  /* The plaintext: a literal data packet of N - 1 bytes of data.  */
  plain = malloc (PLAINTEXT_ROOM);
  if (!plain)
    abort ();
  plainlen = 0;
  if (n)
    {
      plainlen = packet_header_put (plain, PKT_PLAINTEXT, 6 + n - 1);
      memcpy (plain + plainlen, "b\0\0\0\0\0", 6);
      plainlen += 6;
      for (i = 0; i < n - 1; i++)
        plain[plainlen++] = (unsigned char)(i * 7 + 1);
    }

  /* Room for the pieces with their tags, one tag per 64-byte chunk,
   * and what the edits add: a copy of the largest piece or 256 bytes
   * each.  */
  bodysize = (HDR_LEN + 2 * plainlen + 2 * AEAD_TAGLEN) * (1 + MAX_EDITS)
             + 256 * MAX_EDITS;
  m.buf = malloc (bodysize);
  original = malloc (bodysize);
  msg = malloc (MAX_SKESK + 8 + 2 * bodysize + 8);
  if (!m.buf || !original || !msg)
    abort ();
  m.buf[HDR_VERSION] = v5 ? 1 : 2;
  m.buf[HDR_CIPHER] = cipher_ids[c];
  m.buf[HDR_AEAD] = algo;
  m.buf[HDR_CHUNK] = chunk_octet;
  m.hdrlen = 4 + (v5 ? aead_nonce_len (tag, algo) : SEIPD2_SALTLEN);
  memcpy (m.buf + 4, f + SALT_OFFSET, m.hdrlen - 4);
  readable = (aead_nonce_len (tag, algo)
              && chunk_octet <= AEAD_MAX_CHUNK_OCTET && n);
  if (aead_nonce_len (tag, algo))
    encrypt_chunks (&m, tag, specs[c], skesk->key,
                    chunk_octet < AEAD_MAX_CHUNK_OCTET ? chunk_octet
                    : AEAD_MAX_CHUNK_OCTET, plain, plainlen);
  else
    {
      /* Refused at the header: ciphertext of the right size will do.  */
      memset (m.buf + m.hdrlen, 0x5a, plainlen + AEAD_TAGLEN);
      m.len = m.hdrlen + plainlen + AEAD_TAGLEN;
      m.end[0] = m.len;
      m.npieces = 1;
    }
  origlen = m.len;
  memcpy (original, m.buf, m.len);

  for (i = 0; i < MAX_EDITS; i++)
    edit (&m, f[FIELDS + 3 * i] % N_EDITS, f[FIELDS + 3 * i + 1],
          f[FIELDS + 3 * i + 2]);
  if (m.len != origlen || memcmp (m.buf, original, m.len))
    readable = 0;

  memcpy (msg, skesk->packet, skesk->len);
  msglen = skesk->len + fuzz_frame (msg + skesk->len, tag, m.buf, m.len,
                                    framing >= FRAMING_CUT
                                    ? FUZZ_PARTIAL_EMPTY : framing, shift);
  if (framing >= FRAMING_CUT)
    {
      /* The last part, shorter than 2^SHIFT (at most 127 bytes), and
       * its one length octet.  */
      msglen -= 1 + m.len % ((size_t)1 << shift);
      readable = 0;
    }

  err = fuzz_decrypt (msg, msglen);
  if (!err != !!readable)
    {
      fprintf (stderr, "fuzz-aead: a message that %s was %s\n",
               readable ? "must decrypt" : "must be refused",
               err ? "refused" : "decrypted");
      abort ();
    }
  free (msg);
  free (original);
  free (m.buf);
  free (plain);
  return 0;
}
