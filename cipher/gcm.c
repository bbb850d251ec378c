/* gcm.c - GCM (NIST SP 800-38D) over any 128-bit block cipher
 *
 *   H = E (K, 0); J0 = IV || 0^31 || 1 for a 96-bit IV, else
 *   GHASH (IV padded || 0^64 || [len (IV)]_64);
 *   C = CTR from inc32 (J0) (M), the counter wrapping in its last 32
 *   bits; S = GHASH (A padded || C padded || [len (A)]_64 || [len (C)]_64);
 *   T = first t bytes of E (K, J0) ^ S.
 *
 * The keystream goes through the spec's bulk CTR (aead.c splits the
 * calls where inc32 wraps), GHASH through the best implementation
 * (ghash.c, ghash-pclmul.c), a few KiB at a time so that the hash
 * reads what the keystream wrote while it is in L1.
 */
#include <config.h>

#include "aead-internal.h"

/* Bytes encrypted and then hashed at a time.  */
#define GCM_CHUNK 4096

/* At most 2^39 - 256 bits of plaintext (5.2.1.1).  */
#define GCM_MAX_CTLEN ((UINT64_C (1) << 36) - 32)

/* 128, 120, 112, 104 or 96 bits, and 64 or 32 for the applications
 * of Appendix C (5.2.1.2).  */
static int
gcm_taglen_ok (size_t taglen)
{
  return taglen == 4 || taglen == 8 || (taglen >= 12 && taglen <= AEAD_BLOCK);
}

static int
gcm_noncelen_ok (size_t noncelen)
{
  return noncelen >= 1;
}


/* GHASH over LEN more bytes of A or C, a partial block kept back.  */
static void
gcm_hash (struct gcm_state *s, const unsigned char *data, size_t len)
{
  size_t n;

  if (s->buflen)
    {
      n = AEAD_BLOCK - s->buflen < len ? AEAD_BLOCK - s->buflen : len;
      memcpy (s->buf + s->buflen, data, n);
      s->buflen += n;
      data += n;
      len -= n;
      if (s->buflen < AEAD_BLOCK)
        return;
      sf_ghash_blocks (&s->ghash, s->y, s->buf, 1);
      s->buflen = 0;
    }
  n = len / AEAD_BLOCK;
  if (n)
    sf_ghash_blocks (&s->ghash, s->y, data, n);
  memcpy (s->buf, data + n * AEAD_BLOCK, len % AEAD_BLOCK);
  s->buflen = len % AEAD_BLOCK;
}

/* End A or C: its partial block, zero-padded.  */
static void
gcm_hash_pad (struct gcm_state *s)
{
  if (!s->buflen)
    return;
  memset (s->buf + s->buflen, 0, AEAD_BLOCK - s->buflen);
  sf_ghash_blocks (&s->ghash, s->y, s->buf, 1);
  s->buflen = 0;
}

/* The block [LEN1 * 8]_64 || [LEN2 * 8]_64 into the hash.  */
static void
gcm_hash_lengths (struct gcm_state *s, uint64_t len1, uint64_t len2)
{
  unsigned char block[AEAD_BLOCK];

  aead_store_be64 (block, len1 * 8);
  aead_store_be64 (block + 8, len2 * 8);
  sf_ghash_blocks (&s->ghash, s->y, block, 1);
}


static void
gcm_setkey (sf_aead_hd_t hd)
{
  unsigned char h[AEAD_BLOCK];

  memset (h, 0, sizeof h);
  aead_encrypt_block (hd, h, h);
  sf_ghash_setkey (&hd->u.gcm.ghash, h);
  sf_wipememory (h, sizeof h);
}

static void
gcm_setnonce (sf_aead_hd_t hd, const unsigned char *iv, size_t len)
{
  struct gcm_state *s = &hd->u.gcm;
  unsigned char *j0 = s->ctr.ctr;

  memset (s->y, 0, sizeof s->y);
  s->buflen = 0;
  if (len == 12)
    {
      memcpy (j0, iv, 12);
      memset (j0 + 12, 0, 3);
      j0[15] = 1;
    }
  else
    {
      gcm_hash (s, iv, len);
      gcm_hash_pad (s);
      gcm_hash_lengths (s, 0, len);
      memcpy (j0, s->y, AEAD_BLOCK);
      memset (s->y, 0, sizeof s->y);
    }
  aead_encrypt_block (hd, s->ek_j0, j0);
  s->ctr.inc32 = 1;
  s->ctr.unused = 0;
  aead_ctr_increment (&s->ctr);
  s->adlen = 0;
  s->ctlen = 0;
  s->data_started = 0;
}

/* A is never near the 2^61 bytes where its length in bits would
 * overflow, so it is not checked.  */
static void
gcm_authenticate (sf_aead_hd_t hd, const unsigned char *ad, size_t len)
{
  struct gcm_state *s = &hd->u.gcm;

  gcm_hash (s, ad, len);
  s->adlen += len;
}

/* The keystream and GHASH over the ciphertext: after the keystream
 * when encrypting, before it when decrypting, so that IN may be OUT.
 * A module's stitched GCM entry (a later ABI version), interleaving
 * the two in one pass, would take this function's place.  */
static void
gcm_crypt_chunk (sf_aead_hd_t hd, int encrypting, unsigned char *out,
                 const unsigned char *in, size_t len)
{
  struct gcm_state *s = &hd->u.gcm;

  if (!encrypting)
    gcm_hash (s, in, len);
  aead_ctr_crypt (hd, &s->ctr, out, in, len);
  if (encrypting)
    gcm_hash (s, out, len);
}

static gpg_error_t
gcm_crypt (sf_aead_hd_t hd, int encrypting, unsigned char *out,
           const unsigned char *in, size_t len)
{
  struct gcm_state *s = &hd->u.gcm;
  size_t n;

  if (len > GCM_MAX_CTLEN - s->ctlen)
    return gpg_error (GPG_ERR_INV_LENGTH);
  if (!s->data_started)
    {
      gcm_hash_pad (s);
      s->data_started = 1;
    }
  s->ctlen += len;
  for (; len; len -= n, in += n, out += n)
    {
      n = len < GCM_CHUNK ? len : GCM_CHUNK;
      gcm_crypt_chunk (hd, encrypting, out, in, n);
    }
  return 0;
}

static void
gcm_final (sf_aead_hd_t hd, unsigned char tag[AEAD_BLOCK])
{
  struct gcm_state *s = &hd->u.gcm;

  gcm_hash_pad (s);
  gcm_hash_lengths (s, s->adlen, s->ctlen);
  aead_xor (tag, s->y, s->ek_j0, AEAD_BLOCK);
}

const struct aead_mode_ops sf_aead_gcm_ops =
  {
    .taglen_ok = gcm_taglen_ok,
    .noncelen_ok = gcm_noncelen_ok,
    .setkey = gcm_setkey,
    .setnonce = gcm_setnonce,
    .authenticate = gcm_authenticate,
    .crypt = gcm_crypt,
    .final = gcm_final
  };
