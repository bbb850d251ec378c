/* eax.c - EAX (Bellare, Rogaway, Wagner, FSE 2004) over any 128-bit
 * block cipher
 *
 *   N' = OMAC^0 (N), H' = OMAC^1 (H), C = CTR from N' (M),
 *   C' = OMAC^2 (C), Tag = first TAGLEN bytes of N' ^ C' ^ H',
 * where OMAC^t (X) is OMAC1 (CMAC) of the block [t] followed by X.
 *
 * The keystream goes through the spec's bulk CTR, many blocks at a
 * time.  OMAC is a CBC-MAC chain, serial by nature; it goes through
 * the spec's bulk CBC encryption, which keeps the round keys in
 * registers along the chain, and its output is thrown away but for
 * the chaining value.  Each OMAC holds its last block back until the
 * end, as that block alone is masked with K1 or K2.
 */
#include <config.h>

#include "aead-internal.h"

/* CBC output discarded per bulk call.  */
#define SCRATCH_BLOCKS 32

/* Bytes encrypted and then authenticated at a time, so that the
 * second pass reads from L1.  */
#define EAX_CHUNK 4096

static int
eax_taglen_ok (size_t taglen)
{
  return taglen >= 1 && taglen <= AEAD_BLOCK;
}

/* EAX takes a nonce of any length, the empty one included.  */
static int
eax_noncelen_ok (size_t noncelen)
{
  (void) noncelen;
  return 1;
}


/* X = E (X ^ B) for each of the NBLOCKS whole blocks B at DATA.  */
static void
cbc_mac (sf_aead_hd_t hd, unsigned char x[AEAD_BLOCK],
         const unsigned char *data, size_t nblocks)
{
  unsigned char scratch[SCRATCH_BLOCKS * AEAD_BLOCK];
  size_t n;

  if (!hd->spec->cbc_enc)
    {
      for (; nblocks; nblocks--, data += AEAD_BLOCK)
        {
          aead_xor (x, x, data, AEAD_BLOCK);
          aead_encrypt_block (hd, x, x);
        }
      return;
    }
  for (; nblocks; nblocks -= n, data += n * AEAD_BLOCK)
    {
      n = nblocks < SCRATCH_BLOCKS ? nblocks : SCRATCH_BLOCKS;
      hd->spec->cbc_enc (hd->ctx, x, scratch, data, n);
    }
  sf_wipememory (scratch, sizeof scratch);
}

/* Begin OMAC^T: the block [T] is the first, held back like any.  */
static void
cmac_init (struct aead_cmac *m, unsigned char t)
{
  memset (m->x, 0, sizeof m->x);
  memset (m->buf, 0, sizeof m->buf);
  m->buf[AEAD_BLOCK - 1] = t;
  m->buflen = AEAD_BLOCK;
}

static void
cmac_update (sf_aead_hd_t hd, struct aead_cmac *m, const unsigned char *data,
             size_t len)
{
  size_t n;

  while (len)
    {
      /* More is coming, so the held block is not the last.  */
      if (m->buflen == AEAD_BLOCK)
        {
          cbc_mac (hd, m->x, m->buf, 1);
          m->buflen = 0;
        }
      /* Whole blocks straight from DATA, but for the last byte.  */
      if (!m->buflen && len > AEAD_BLOCK)
        {
          n = (len - 1) / AEAD_BLOCK;
          cbc_mac (hd, m->x, data, n);
          data += n * AEAD_BLOCK;
          len -= n * AEAD_BLOCK;
        }
      n = AEAD_BLOCK - m->buflen < len ? AEAD_BLOCK - m->buflen : len;
      memcpy (m->buf + m->buflen, data, n);
      m->buflen += n;
      data += n;
      len -= n;
    }
}

/* The last block: whole, masked with K1, or padded 10* and masked
 * with K2.  */
static void
cmac_final (sf_aead_hd_t hd, struct aead_cmac *m, unsigned char mac[AEAD_BLOCK])
{
  struct eax_state *s = &hd->u.eax;

  if (m->buflen == AEAD_BLOCK)
    aead_xor (m->buf, m->buf, s->k1, AEAD_BLOCK);
  else
    {
      memset (m->buf + m->buflen, 0, AEAD_BLOCK - m->buflen);
      m->buf[m->buflen] = 0x80;
      aead_xor (m->buf, m->buf, s->k2, AEAD_BLOCK);
    }
  aead_xor (mac, m->x, m->buf, AEAD_BLOCK);
  aead_encrypt_block (hd, mac, mac);
}


/* K1 = double (E (K, 0)), K2 = double (K1).  */
static void
eax_setkey (sf_aead_hd_t hd)
{
  struct eax_state *s = &hd->u.eax;
  unsigned char l[AEAD_BLOCK];

  memset (l, 0, sizeof l);
  aead_encrypt_block (hd, l, l);
  aead_double (s->k1, l);
  aead_double (s->k2, s->k1);
  sf_wipememory (l, sizeof l);
}

static void
eax_setnonce (sf_aead_hd_t hd, const unsigned char *nonce, size_t len)
{
  struct eax_state *s = &hd->u.eax;
  struct aead_cmac m;

  cmac_init (&m, 0);
  cmac_update (hd, &m, nonce, len);
  cmac_final (hd, &m, s->nonce_mac);
  sf_wipememory (&m, sizeof m);

  memcpy (s->ctr.ctr, s->nonce_mac, AEAD_BLOCK);
  s->ctr.unused = 0;
  s->ctr.inc32 = 0;
  cmac_init (&s->ad_mac, 1);
  cmac_init (&s->ct_mac, 2);
}

static void
eax_authenticate (sf_aead_hd_t hd, const unsigned char *ad, size_t len)
{
  cmac_update (hd, &hd->u.eax.ad_mac, ad, len);
}

/* The MAC covers the ciphertext: after the keystream when encrypting,
 * before it when decrypting, so that IN may be OUT.  */
static gpg_error_t
eax_crypt (sf_aead_hd_t hd, int encrypting, unsigned char *out,
           const unsigned char *in, size_t len)
{
  struct eax_state *s = &hd->u.eax;
  size_t n;

  for (; len; len -= n, in += n, out += n)
    {
      n = len < EAX_CHUNK ? len : EAX_CHUNK;
      if (!encrypting)
        cmac_update (hd, &s->ct_mac, in, n);
      aead_ctr_crypt (hd, &s->ctr, out, in, n);
      if (encrypting)
        cmac_update (hd, &s->ct_mac, out, n);
    }
  return 0;
}

static void
eax_final (sf_aead_hd_t hd, unsigned char tag[AEAD_BLOCK])
{
  struct eax_state *s = &hd->u.eax;
  unsigned char mac[AEAD_BLOCK];

  cmac_final (hd, &s->ad_mac, mac);
  aead_xor (tag, s->nonce_mac, mac, AEAD_BLOCK);
  cmac_final (hd, &s->ct_mac, mac);
  aead_xor (tag, tag, mac, AEAD_BLOCK);
  sf_wipememory (mac, sizeof mac);
}

const struct aead_mode_ops sf_aead_eax_ops =
  {
    .taglen_ok = eax_taglen_ok,
    .noncelen_ok = eax_noncelen_ok,
    .setkey = eax_setkey,
    .setnonce = eax_setnonce,
    .authenticate = eax_authenticate,
    .crypt = eax_crypt,
    .final = eax_final
  };
