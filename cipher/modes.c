/* modes.c - ECB, CBC, CFB, OpenPGP CFB, CTR and OFB over any spec
 *
 * The modes are written once, here, in terms of a spec's one-block
 * functions; when the spec offers a bulk function for a mode, whole
 * blocks go through it instead.  The stream modes (CFB, CTR, OFB)
 * accept any length per call and carry a partial block across calls,
 * so a caller can feed them whatever its reads return.
 *
 * CFB also comes stitched with SHA-1 for OpenPGP's MDC
 * (sf_cipher_encrypt_sha1): the generic code brings the cipher and
 * the hash to a common 64-byte boundary, and the spec's stitched
 * entry, when it has a usable one, takes the whole 64-byte blocks.
 *
 * Partial blocks keep their state in IV, as libgcrypt does: in CFB
 * and OFB, IV holds the encrypted register and its first
 * (blocksize - unused) bytes have been consumed (in CFB replaced by
 * the ciphertext, which is the next register); in CTR the keystream
 * block is kept apart from the counter.
 */
#include <config.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <gcrypt.h>

#include "libsfcipher.h"

struct sf_cipher_hd
{
  const sf_cipher_spec_t *spec;
  enum sf_cipher_mode mode;
  unsigned int flags;
  int keyed;
  void *ctx;                  /* The spec's context, aligned.  */
  void *ctx_mem;              /* What was allocated for CTX.  */
  size_t ctx_len;             /* Bytes of CTX_MEM.  */
  const sf_cfb_sha1_t *cfb_sha1;  /* Stitched entry to use, or NULL.  */
  size_t unused;              /* Keystream bytes left in IV (or CTR_KS).  */
  unsigned char iv[SF_MAX_BLOCKSIZE];
  unsigned char lastiv[SF_MAX_BLOCKSIZE];  /* Register before the last
                                              encryption, for sync.  */
  unsigned char ctr_ks[SF_MAX_BLOCKSIZE];  /* CTR keystream block.  */
};


/* OUT = A ^ B for N bytes, a word at a time where it can.  */
static inline void
xor_bytes (unsigned char *out, const unsigned char *a,
           const unsigned char *b, size_t n)
{
  for (; n >= 8; n -= 8, out += 8, a += 8, b += 8)
    {
      uint64_t x, y;

      memcpy (&x, a, 8);
      memcpy (&y, b, 8);
      x ^= y;
      memcpy (out, &x, 8);
    }
  for (; n; n--)
    *out++ = *a++ ^ *b++;
}


/* Increment the big-endian counter CTR of N bytes.  */
static inline void
ctr_increment (unsigned char *ctr, size_t n)
{
  while (n-- && !++ctr[n])
    ;
}


gpg_error_t
sf_cipher_open (sf_cipher_hd_t *r_hd, const sf_cipher_spec_t *spec,
                enum sf_cipher_mode mode, unsigned int flags)
{
  sf_cipher_hd_t hd;
  size_t len;

  *r_hd = NULL;
  if (mode < SF_MODE_ECB || mode > SF_MODE_OFB)
    return gpg_error (GPG_ERR_INV_CIPHER_MODE);
  if (flags & ~SF_CIPHER_SECURE)
    return gpg_error (GPG_ERR_INV_FLAG);

  hd = calloc (1, sizeof *hd);
  if (!hd)
    return gpg_error_from_syserror ();
  hd->spec = spec;
  hd->mode = mode;
  hd->flags = flags;
  if (mode == SF_MODE_CFB)
    hd->cfb_sha1 = sf_spec_cfb_sha1 (spec);

  len = spec->contextsize + SF_CONTEXT_ALIGN;
  hd->ctx_mem = (flags & SF_CIPHER_SECURE) ? gcry_calloc_secure (1, len)
                                           : gcry_calloc (1, len);
  if (!hd->ctx_mem)
    {
      gpg_error_t err = gpg_error_from_syserror ();

      free (hd);
      return err;
    }
  hd->ctx_len = len;
  hd->ctx = (void *) (((uintptr_t) hd->ctx_mem + SF_CONTEXT_ALIGN - 1)
                      & ~(uintptr_t) (SF_CONTEXT_ALIGN - 1));
  *r_hd = hd;
  return 0;
}


/* Forget the key: let the module free what it holds, then wipe.  */
static void
drop_key (sf_cipher_hd_t hd)
{
  if (hd->keyed && hd->spec->release)
    hd->spec->release (hd->ctx);
  hd->keyed = 0;
  sf_wipememory (hd->ctx_mem, hd->ctx_len);
}


void
sf_cipher_close (sf_cipher_hd_t hd)
{
  if (!hd)
    return;
  drop_key (hd);
  gcry_free (hd->ctx_mem);
  sf_wipememory (hd, sizeof *hd);
  free (hd);
  sf_burn_key_traces ();
}


const sf_cipher_spec_t *
sf_cipher_get_spec (sf_cipher_hd_t hd)
{
  return hd->spec;
}


gpg_error_t
sf_cipher_setkey (sf_cipher_hd_t hd, const void *key, size_t keylen)
{
  gpg_error_t err;

  drop_key (hd);
  err = hd->spec->setkey (hd->ctx, key, keylen);
  sf_burn_key_traces ();
  if (err)
    {
      sf_wipememory (hd->ctx_mem, hd->ctx_len);
      return err;
    }
  hd->keyed = 1;
  return sf_cipher_setiv (hd, NULL, hd->spec->blocksize);
}


gpg_error_t
sf_cipher_setiv (sf_cipher_hd_t hd, const void *iv, size_t ivlen)
{
  size_t bs = hd->spec->blocksize;

  if (ivlen != bs)
    return gpg_error (GPG_ERR_INV_LENGTH);
  if (iv)
    memcpy (hd->iv, iv, bs);
  else
    memset (hd->iv, 0, bs);
  memset (hd->lastiv, 0, sizeof hd->lastiv);
  memset (hd->ctr_ks, 0, sizeof hd->ctr_ks);
  hd->unused = 0;
  return 0;
}


static void
do_ecb (sf_cipher_hd_t hd, int encrypting, unsigned char *out,
        const unsigned char *in, size_t nblocks)
{
  const sf_cipher_spec_t *spec = hd->spec;
  sf_bulk_ecb_t bulk = encrypting ? spec->ecb_enc : spec->ecb_dec;
  void (*block) (const void *, unsigned char *, const unsigned char *)
    = encrypting ? spec->encrypt : spec->decrypt;
  size_t bs = spec->blocksize;

  if (bulk)
    {
      bulk (hd->ctx, out, in, nblocks);
      return;
    }
  for (; nblocks; nblocks--, in += bs, out += bs)
    block (hd->ctx, out, in);
}


static void
do_cbc (sf_cipher_hd_t hd, int encrypting, unsigned char *out,
        const unsigned char *in, size_t nblocks)
{
  const sf_cipher_spec_t *spec = hd->spec;
  sf_bulk_iv_t bulk = encrypting ? spec->cbc_enc : spec->cbc_dec;
  size_t bs = spec->blocksize;
  unsigned char saved[SF_MAX_BLOCKSIZE];

  if (bulk)
    {
      bulk (hd->ctx, hd->iv, out, in, nblocks);
      return;
    }
  for (; nblocks; nblocks--, in += bs, out += bs)
    {
      if (encrypting)
        {
          xor_bytes (out, in, hd->iv, bs);
          spec->encrypt (hd->ctx, out, out);
          memcpy (hd->iv, out, bs);
        }
      else
        {
          memcpy (saved, in, bs);   /* IN may be OUT.  */
          spec->decrypt (hd->ctx, out, in);
          xor_bytes (out, out, hd->iv, bs);
          memcpy (hd->iv, saved, bs);
        }
    }
}


/* CFB over NBLOCKS whole blocks without a bulk function.  */
static void
cfb_blocks (sf_cipher_hd_t hd, int encrypting, unsigned char *out,
            const unsigned char *in, size_t nblocks)
{
  const sf_cipher_spec_t *spec = hd->spec;
  size_t bs = spec->blocksize;
  unsigned char ks[SF_MAX_BLOCKSIZE];

  for (; nblocks; nblocks--, in += bs, out += bs)
    {
      spec->encrypt (hd->ctx, ks, hd->iv);
      if (encrypting)
        {
          xor_bytes (out, in, ks, bs);
          memcpy (hd->iv, out, bs);
        }
      else
        {
          memcpy (hd->iv, in, bs);
          xor_bytes (out, in, ks, bs);
        }
    }
  sf_wipememory (ks, sizeof ks);
}


/* CFB over LEN bytes, any length.  */
static void
do_cfb (sf_cipher_hd_t hd, int encrypting, unsigned char *out,
        const unsigned char *in, size_t len)
{
  const sf_cipher_spec_t *spec = hd->spec;
  sf_bulk_iv_t bulk = encrypting ? spec->cfb_enc : spec->cfb_dec;
  size_t bs = spec->blocksize;
  unsigned char *reg = hd->iv;
  size_t n, i;

  /* Finish a block begun by an earlier call.  */
  if (hd->unused)
    {
      size_t pos = bs - hd->unused;

      n = len < hd->unused ? len : hd->unused;
      for (i = 0; i < n; i++)
        {
          unsigned char c = encrypting ? reg[pos + i] ^ in[i] : in[i];

          out[i] = reg[pos + i] ^ in[i];
          reg[pos + i] = c;
        }
      hd->unused -= n;
      in += n;
      out += n;
      len -= n;
    }

  /* Whole blocks.  */
  if (len >= bs)
    {
      size_t nblocks = len / bs;

      if (bulk)
        bulk (hd->ctx, reg, out, in, nblocks);
      else
        cfb_blocks (hd, encrypting, out, in, nblocks);
      in += nblocks * bs;
      out += nblocks * bs;
      len -= nblocks * bs;
    }

  /* Begin a block that a later call will finish.  */
  if (len)
    {
      memcpy (hd->lastiv, reg, bs);
      spec->encrypt (hd->ctx, reg, reg);
      for (i = 0; i < len; i++)
        {
          unsigned char c = encrypting ? reg[i] ^ in[i] : in[i];

          out[i] = reg[i] ^ in[i];
          reg[i] = c;
        }
      hd->unused = bs - len;
    }
}


/* OFB and CTR over LEN bytes, any length.  Both XOR a keystream: in
 * OFB each keystream block is the register HD->IV encrypted in place,
 * in CTR the encryption of the counter HD->IV, kept in HD->CTR_KS.  */
static void
do_keystream (sf_cipher_hd_t hd, unsigned char *out, const unsigned char *in,
              size_t len)
{
  const sf_cipher_spec_t *spec = hd->spec;
  int is_ctr = hd->mode == SF_MODE_CTR;
  sf_bulk_iv_t bulk = is_ctr ? spec->ctr : spec->ofb;
  unsigned char *ks = is_ctr ? hd->ctr_ks : hd->iv;
  size_t bs = spec->blocksize;
  size_t n;

  if (hd->unused)
    {
      n = len < hd->unused ? len : hd->unused;
      xor_bytes (out, in, ks + bs - hd->unused, n);
      hd->unused -= n;
      in += n;
      out += n;
      len -= n;
    }
  if (len >= bs && bulk)
    {
      n = len / bs;
      bulk (hd->ctx, hd->iv, out, in, n);
      in += n * bs;
      out += n * bs;
      len -= n * bs;
    }
  for (; len; in += n, out += n, len -= n)
    {
      n = len < bs ? len : bs;
      spec->encrypt (hd->ctx, ks, hd->iv);
      if (is_ctr)
        ctr_increment (hd->iv, bs);
      xor_bytes (out, in, ks, n);
      hd->unused = bs - n;
    }
}


static gpg_error_t
do_crypt (sf_cipher_hd_t hd, int encrypting, void *outbuf,
          const void *inbuf, size_t len)
{
  unsigned char *out = outbuf;
  const unsigned char *in = inbuf;
  size_t bs = hd->spec->blocksize;

  if (!hd->keyed)
    return gpg_error (GPG_ERR_MISSING_KEY);
  switch (hd->mode)
    {
    case SF_MODE_ECB:
    case SF_MODE_CBC:
      if (len % bs)
        return gpg_error (GPG_ERR_INV_LENGTH);
      if (!len)
        break;
      if (hd->mode == SF_MODE_ECB)
        do_ecb (hd, encrypting, out, in, len / bs);
      else
        do_cbc (hd, encrypting, out, in, len / bs);
      break;
    case SF_MODE_CFB:
    case SF_MODE_OPENPGP_CFB:
      do_cfb (hd, encrypting, out, in, len);
      break;
    case SF_MODE_OFB:
    case SF_MODE_CTR:
      do_keystream (hd, out, in, len);
      break;
    }
  return 0;
}


gpg_error_t
sf_cipher_encrypt (sf_cipher_hd_t hd, void *out, const void *in, size_t len)
{
  return do_crypt (hd, 1, out, in, len);
}


gpg_error_t
sf_cipher_decrypt (sf_cipher_hd_t hd, void *out, const void *in, size_t len)
{
  return do_crypt (hd, 0, out, in, len);
}


/* CFB and SHA-1 in series over LEN bytes: the hash takes the
 * plaintext, IN before it is encrypted (IN may be OUT), OUT after it
 * is decrypted.  */
static void
cfb_then_sha1 (sf_cipher_hd_t hd, int encrypting, unsigned char *out,
               const unsigned char *in, size_t len, sf_sha1_t *md)
{
  if (!len)
    return;
  if (encrypting)
    sf_sha1_write (md, in, len);
  do_cfb (hd, encrypting, out, in, len);
  if (!encrypting)
    sf_sha1_write (md, out, len);
}


/* How many of LEN bytes to take the generic way before the CFB
 * position and MD's both stand at a 64-byte boundary: the bytes left
 * in MD's block, when they also finish the cipher's block.  LEN when
 * the two never meet, because the caller did not start the cipher
 * stream and the hash together.  */
static size_t
bytes_to_common_boundary (sf_cipher_hd_t hd, const sf_sha1_t *md, size_t len)
{
  size_t to_boundary = (SF_SHA1_BLOCK_LEN - md->total % SF_SHA1_BLOCK_LEN)
                       % SF_SHA1_BLOCK_LEN;

  if (to_boundary % hd->spec->blocksize != hd->unused)
    return len;
  return to_boundary < len ? to_boundary : len;
}


static gpg_error_t
crypt_sha1 (sf_cipher_hd_t hd, int encrypting, unsigned char *out,
            const unsigned char *in, size_t len, sf_sha1_t *md)
{
  sf_cfb_sha1_fn_t stitched = NULL;
  size_t n;

  if (!hd->keyed)
    return gpg_error (GPG_ERR_MISSING_KEY);
  if (hd->mode != SF_MODE_CFB)
    return gpg_error (GPG_ERR_INV_CIPHER_MODE);
  if (hd->cfb_sha1)
    stitched = encrypting ? hd->cfb_sha1->enc : hd->cfb_sha1->dec;

  n = stitched ? bytes_to_common_boundary (hd, md, len) : len;
  cfb_then_sha1 (hd, encrypting, out, in, n, md);
  in += n;
  out += n;
  len -= n;
  /* Without a stitched entry the generic call took everything.  */
  n = len - len % SF_SHA1_BLOCK_LEN;
  if (n)
    {
      stitched (hd->ctx, hd->iv, out, in, n / hd->spec->blocksize,
                md->state);
      md->total += n;
      in += n;
      out += n;
      len -= n;
    }
  cfb_then_sha1 (hd, encrypting, out, in, len, md);
  return 0;
}


gpg_error_t
sf_cipher_encrypt_sha1 (sf_cipher_hd_t hd, void *out, const void *in,
                        size_t len, sf_sha1_t *md)
{
  return crypt_sha1 (hd, 1, out, in, len, md);
}


gpg_error_t
sf_cipher_decrypt_sha1 (sf_cipher_hd_t hd, void *out, const void *in,
                        size_t len, sf_sha1_t *md)
{
  return crypt_sha1 (hd, 0, out, in, len, md);
}


const sf_cfb_sha1_t *
sf_cipher_cfb_sha1 (sf_cipher_hd_t hd)
{
  return hd->cfb_sha1;
}


gpg_error_t
sf_cipher_sync (sf_cipher_hd_t hd)
{
  size_t bs = hd->spec->blocksize;

  if (hd->mode != SF_MODE_OPENPGP_CFB)
    return gpg_error (GPG_ERR_INV_CIPHER_MODE);
  if (hd->unused)
    {
      size_t used = bs - hd->unused;

      /* The last BS ciphertext bytes: the tail of the previous block
       * followed by the USED bytes of the current one.  */
      memmove (hd->iv + hd->unused, hd->iv, used);
      memcpy (hd->iv, hd->lastiv + used, hd->unused);
      hd->unused = 0;
    }
  return 0;
}
