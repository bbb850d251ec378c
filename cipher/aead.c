/* aead.c - the AEAD handle: allocation, keys, the order of calls, tags
 *
 * Everything here is common to OCB, EAX and GCM (ocb.c, eax.c,
 * gcm.c): a handle holds the spec's context and the mode's state in
 * one allocation, secure when asked, so that wiping and freeing it
 * disposes of every key-derived value at once.  A call is passed to
 * the mode only when it is valid at that point of a message.
 */
#include <config.h>

#include <stdint.h>
#include <gcrypt.h>

#include "aead-internal.h"

static const struct aead_mode_ops *
ops_of (enum sf_aead_mode mode)
{
  switch (mode)
    {
    case SF_AEAD_OCB: return &sf_aead_ocb_ops;
    case SF_AEAD_EAX: return &sf_aead_eax_ops;
    case SF_AEAD_GCM: return &sf_aead_gcm_ops;
    }
  return NULL;
}

const char *
sf_aead_mode_name (enum sf_aead_mode mode)
{
  switch (mode)
    {
    case SF_AEAD_OCB: return "OCB";
    case SF_AEAD_EAX: return "EAX";
    case SF_AEAD_GCM: return "GCM";
    }
  return "?";
}


gpg_error_t
sf_aead_open (sf_aead_hd_t *r_hd, const sf_cipher_spec_t *spec,
              enum sf_aead_mode mode, size_t taglen, unsigned int flags)
{
  const struct aead_mode_ops *ops = ops_of (mode);
  sf_aead_hd_t hd;
  size_t len;

  *r_hd = NULL;
  /* Every mode here is defined for 128-bit blocks only.  */
  if (!ops || spec->blocksize != AEAD_BLOCK)
    return gpg_error (GPG_ERR_INV_CIPHER_MODE);
  if (flags & ~SF_CIPHER_SECURE)
    return gpg_error (GPG_ERR_INV_FLAG);
  if (!ops->taglen_ok (taglen))
    return gpg_error (GPG_ERR_INV_LENGTH);

  len = sizeof *hd + SF_CONTEXT_ALIGN + spec->contextsize;
  hd = (flags & SF_CIPHER_SECURE) ? gcry_calloc_secure (1, len)
                                  : gcry_calloc (1, len);
  if (!hd)
    return gpg_error_from_syserror ();
  hd->spec = spec;
  hd->ops = ops;
  hd->taglen = taglen;
  hd->alloc_len = len;
  hd->ctx = (void *) (((uintptr_t) (hd + 1) + SF_CONTEXT_ALIGN - 1)
                      & ~(uintptr_t) (SF_CONTEXT_ALIGN - 1));
  *r_hd = hd;
  return 0;
}


/* Forget the key and all that came from it.  */
static void
drop_key (sf_aead_hd_t hd)
{
  if (hd->keyed && hd->spec->release)
    hd->spec->release (hd->ctx);
  hd->keyed = 0;
  sf_wipememory (hd->ctx, hd->spec->contextsize);
  sf_wipememory (&hd->u, sizeof hd->u);
  sf_wipememory (hd->tag, sizeof hd->tag);
}

void
sf_aead_close (sf_aead_hd_t hd)
{
  if (!hd)
    return;
  drop_key (hd);
  sf_wipememory (hd, hd->alloc_len);
  gcry_free (hd);
  sf_burn_key_traces ();
}


gpg_error_t
sf_aead_setkey (sf_aead_hd_t hd, const void *key, size_t keylen)
{
  gpg_error_t err;

  drop_key (hd);
  err = hd->spec->setkey (hd->ctx, key, keylen);
  if (err)
    {
      sf_wipememory (hd->ctx, hd->spec->contextsize);
      sf_burn_key_traces ();
      return err;
    }
  hd->keyed = 1;
  hd->ops->setkey (hd);
  sf_burn_key_traces ();
  hd->state = AEAD_NEED_NONCE;
  return 0;
}

gpg_error_t
sf_aead_setnonce (sf_aead_hd_t hd, const void *nonce, size_t noncelen)
{
  if (!hd->keyed)
    return gpg_error (GPG_ERR_MISSING_KEY);
  if (!hd->ops->noncelen_ok (noncelen))
    return gpg_error (GPG_ERR_INV_LENGTH);
  hd->ops->setnonce (hd, nonce, noncelen);
  hd->state = AEAD_AD;
  return 0;
}


/* 0 when a message has begun, else why not.  */
static gpg_error_t
check_message (sf_aead_hd_t hd)
{
  if (!hd->keyed)
    return gpg_error (GPG_ERR_MISSING_KEY);
  if (hd->state == AEAD_NEED_NONCE)
    return gpg_error (GPG_ERR_INV_STATE);
  return 0;
}

gpg_error_t
sf_aead_authenticate (sf_aead_hd_t hd, const void *ad, size_t len)
{
  gpg_error_t err = check_message (hd);

  if (err)
    return err;
  /* GCM hashes A before C; the others could mix them but do not.  */
  if (hd->state != AEAD_AD)
    return gpg_error (GPG_ERR_INV_STATE);
  if (len)
    hd->ops->authenticate (hd, ad, len);
  return 0;
}

static gpg_error_t
do_crypt (sf_aead_hd_t hd, int encrypting, void *out, const void *in,
          size_t len)
{
  gpg_error_t err = check_message (hd);

  if (err)
    return err;
  if (hd->state == AEAD_TAG_DONE)
    return gpg_error (GPG_ERR_INV_STATE);
  hd->state = AEAD_DATA;
  /* The modes need not care for empty calls, nor for their NULLs.  */
  return len ? hd->ops->crypt (hd, encrypting, out, in, len) : 0;
}

gpg_error_t
sf_aead_encrypt (sf_aead_hd_t hd, void *out, const void *in, size_t len)
{
  return do_crypt (hd, 1, out, in, len);
}

gpg_error_t
sf_aead_decrypt (sf_aead_hd_t hd, void *out, const void *in, size_t len)
{
  return do_crypt (hd, 0, out, in, len);
}


/* End the message once: its tag goes to HD->tag.  */
static gpg_error_t
finish (sf_aead_hd_t hd, size_t taglen)
{
  gpg_error_t err = check_message (hd);

  if (err)
    return err;
  if (taglen != hd->taglen)
    return gpg_error (GPG_ERR_INV_LENGTH);
  if (hd->state != AEAD_TAG_DONE)
    {
      hd->ops->final (hd, hd->tag);
      hd->state = AEAD_TAG_DONE;
    }
  return 0;
}

gpg_error_t
sf_aead_gettag (sf_aead_hd_t hd, void *tag, size_t taglen)
{
  gpg_error_t err = finish (hd, taglen);

  if (!err)
    memcpy (tag, hd->tag, taglen);
  return err;
}

gpg_error_t
sf_aead_checktag (sf_aead_hd_t hd, const void *tag, size_t taglen)
{
  const unsigned char *expected = tag;
  gpg_error_t err = finish (hd, taglen);
  unsigned int diff = 0;
  size_t i;

  if (err)
    return err;
  /* Every byte is compared whatever the first difference, into a
   * register; the empty asm makes the compiler forget what it knows of
   * DIFF, so it cannot stop the loop early on a difference.  */
  for (i = 0; i < taglen; i++)
    {
      diff |= hd->tag[i] ^ expected[i];
      __asm__ ("" : "+r" (diff));
    }
  return diff ? gpg_error (GPG_ERR_CHECKSUM) : 0;
}


/*
 * Helpers for the modes.
 */

void
aead_ecb (sf_aead_hd_t hd, int encrypting, unsigned char *out,
          const unsigned char *in, size_t nblocks)
{
  const sf_cipher_spec_t *spec = hd->spec;
  sf_bulk_ecb_t bulk = encrypting ? spec->ecb_enc : spec->ecb_dec;
  void (*block) (const void *, unsigned char *, const unsigned char *)
    = encrypting ? spec->encrypt : spec->decrypt;

  if (bulk)
    {
      bulk (hd->ctx, out, in, nblocks);
      return;
    }
  for (; nblocks; nblocks--, in += AEAD_BLOCK, out += AEAD_BLOCK)
    block (hd->ctx, out, in);
}

void
aead_double (unsigned char out[AEAD_BLOCK], const unsigned char in[AEAD_BLOCK])
{
  /* The bit shifted out selects the reduction without a branch.  */
  unsigned char mask = (unsigned char) -(in[0] >> 7);
  int i;

  for (i = 0; i < AEAD_BLOCK - 1; i++)
    out[i] = (unsigned char) ((in[i] << 1) | (in[i + 1] >> 7));
  out[AEAD_BLOCK - 1] = (unsigned char) ((in[AEAD_BLOCK - 1] << 1)
                                         ^ (0x87 & mask));
}

/* The carry goes through every byte it may reach, whatever their
 * values: EAX's counter starts at OMAC_K (nonce), a secret.  */
void
aead_ctr_increment (struct aead_ctr *c)
{
  size_t n = AEAD_BLOCK, stop = c->inc32 ? AEAD_BLOCK - 4 : 0;
  unsigned int carry = 1;

  while (n-- > stop)
    {
      carry += c->ctr[n];
      c->ctr[n] = (unsigned char)carry;
      carry >>= 8;
    }
}

/* NBLOCKS through the spec's bulk CTR, which carries through all 128
 * bits of the counter.  GCM's inc32 wraps in the last 32 instead, so
 * there the calls stop where those wrap, and the first 96 bits, which
 * the carry may have changed, are put back.  */
static void
ctr_bulk (sf_aead_hd_t hd, struct aead_ctr *c, unsigned char *out,
          const unsigned char *in, size_t nblocks)
{
  unsigned char head[AEAD_BLOCK - 4] = { 0 };

  while (nblocks)
    {
      size_t n = nblocks;

      if (c->inc32)
        {
          const unsigned char *p = c->ctr + AEAD_BLOCK - 4;
          uint64_t before_wrap = 0x100000000ULL
            - (((uint64_t) p[0] << 24) | ((uint64_t) p[1] << 16)
               | ((uint64_t) p[2] << 8) | p[3]);

          if (n > before_wrap)
            n = (size_t) before_wrap;
          memcpy (head, c->ctr, sizeof head);
        }
      hd->spec->ctr (hd->ctx, c->ctr, out, in, n);
      if (c->inc32)
        memcpy (c->ctr, head, sizeof head);
      in += n * AEAD_BLOCK;
      out += n * AEAD_BLOCK;
      nblocks -= n;
    }
}

void
aead_ctr_crypt (sf_aead_hd_t hd, struct aead_ctr *c, unsigned char *out,
                const unsigned char *in, size_t len)
{
  size_t n;

  if (c->unused)
    {
      n = len < c->unused ? len : c->unused;
      aead_xor (out, in, c->ks + AEAD_BLOCK - c->unused, n);
      c->unused -= n;
      in += n;
      out += n;
      len -= n;
    }
  if (len >= AEAD_BLOCK && hd->spec->ctr)
    {
      n = len / AEAD_BLOCK;
      ctr_bulk (hd, c, out, in, n);
      in += n * AEAD_BLOCK;
      out += n * AEAD_BLOCK;
      len -= n * AEAD_BLOCK;
    }
  for (; len; in += n, out += n, len -= n)
    {
      n = len < AEAD_BLOCK ? len : AEAD_BLOCK;
      aead_encrypt_block (hd, c->ks, c->ctr);
      aead_ctr_increment (c);
      aead_xor (out, in, c->ks, n);
      c->unused = AEAD_BLOCK - n;
    }
}
