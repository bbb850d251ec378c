/* aead-internal.h - what the AEAD mode files share; not for callers
 *
 * aead.c keeps the handle, its states and the checks common to every
 * mode, and calls a mode's functions (struct aead_mode_ops) only when
 * the call is valid.  The helpers below are the block-level pieces
 * more than one mode uses.  GHASH, GCM's hash, has several
 * implementations (ghash.c, ghash-pclmul.c, ghash-pmull.c) that the
 * tests and the benchmark also reach directly.
 */
#ifndef SF_AEAD_INTERNAL_H
#define SF_AEAD_INTERNAL_H

#include <stdint.h>
#include <string.h>

#include "aead.h"

#define AEAD_BLOCK SF_AEAD_BLOCKSIZE


/*
 * GHASH (NIST SP 800-38D 6.4): Y = (Y ^ X_i) * H in GF(2^128), over
 * whole blocks.  Y is a block in the standard's byte order.
 */

typedef struct sf_ghash_key sf_ghash_key_t;

typedef void sf_ghash_blocks_fn (const sf_ghash_key_t *key,
                                 unsigned char y[AEAD_BLOCK],
                                 const unsigned char *data, size_t nblocks);

#define SF_GHASH_KEY_WORDS 64

struct sf_ghash_key
{
  sf_ghash_blocks_fn *blocks;   /* The implementation the key is for.  */
  /* What that implementation derives from H, in its own layout.  */
  uint64_t words[SF_GHASH_KEY_WORDS];
};

/* Set KEY for H with the best usable implementation: VPCLMULQDQ when
 * the processor has it and SFENC_DISABLE_HWF names neither "vpclmul",
 * "pclmul" nor "all", else PCLMULQDQ likewise, else the ARMv8 PMULL
 * likewise ("arm-pmull"), else the portable one.  Chosen once.  */
void sf_ghash_setkey (sf_ghash_key_t *key, const unsigned char h[AEAD_BLOCK]);

/* sf_ghash_impl_name (aead.h) says which it chose.  */

/* Y = GHASH over NBLOCKS blocks at DATA, continuing from Y.  */
static inline void
sf_ghash_blocks (const sf_ghash_key_t *key, unsigned char y[AEAD_BLOCK],
                 const unsigned char *data, size_t nblocks)
{
  key->blocks (key, y, data, nblocks);
}

/* The portable implementation (ghash.c).  */
void sf_ghash_setkey_ref (sf_ghash_key_t *key, const unsigned char h[AEAD_BLOCK]);

/* The carry-less multiplication one (ghash-pclmul.c); only when
 * sf_ghash_pclmul_usable says so.  SFENC_DISABLE_HWF is not consulted
 * here, only by sf_ghash_setkey.  */
int sf_ghash_pclmul_usable (void);
void sf_ghash_setkey_pclmul (sf_ghash_key_t *key,
                             const unsigned char h[AEAD_BLOCK]);

/* The same on two blocks per 256-bit register (ghash-pclmul.c), when
 * sf_ghash_vpclmul_usable says so; likewise without SFENC_DISABLE_HWF.  */
int sf_ghash_vpclmul_usable (void);
void sf_ghash_setkey_vpclmul (sf_ghash_key_t *key,
                              const unsigned char h[AEAD_BLOCK]);

/* The ARMv8 polynomial multiplication one (ghash-pmull.c), when
 * sf_ghash_pmull_usable says so; likewise without SFENC_DISABLE_HWF.  */
int sf_ghash_pmull_usable (void);
void sf_ghash_setkey_pmull (sf_ghash_key_t *key,
                            const unsigned char h[AEAD_BLOCK]);


/*
 * Per-mode state, inside the handle.  Everything derived from the key
 * lives here, so SF_CIPHER_SECURE puts it in secure memory with the
 * key schedule.
 */

struct ocb_state
{
  const sf_ocb_t *entry;                /* The spec's, if usable.  */
  /* L_*, L_$ and L_i of RFC 7253 4.1; L_63 is the last a 64-bit block
   * count can need.  Blocks as raw bytes in two words, for XOR; L is
   * also the table an OCB entry reads.  */
  uint64_t l_star[2], l_dollar[2], l[64][2];
  uint64_t offset[2], checksum[2];      /* Of the data so far.  */
  uint64_t nblocks;
  uint64_t ad_offset[2], ad_sum[2];     /* Of HASH (K, A) so far.  */
  uint64_t ad_nblocks;
  unsigned char ad_buf[AEAD_BLOCK];     /* A partial block of A.  */
  size_t ad_buflen;
  int data_ended;                       /* After a partial data block.  */
};

/* OMAC1 (CMAC) of one message being written.  */
struct aead_cmac
{
  unsigned char x[AEAD_BLOCK];          /* CBC-MAC chaining value.  */
  unsigned char buf[AEAD_BLOCK];        /* The last block, held back.  */
  size_t buflen;
};

/* A counter-mode keystream.  */
struct aead_ctr
{
  unsigned char ctr[AEAD_BLOCK];        /* The next counter block.  */
  unsigned char ks[AEAD_BLOCK];         /* The current keystream block.  */
  size_t unused;                        /* Its bytes not yet used.  */
  int inc32;                            /* Increment the last 32 bits
                                           only (GCM), not all 128.  */
};

struct eax_state
{
  unsigned char k1[AEAD_BLOCK], k2[AEAD_BLOCK];   /* CMAC subkeys.  */
  unsigned char nonce_mac[AEAD_BLOCK];            /* N' = OMAC^0 (N).  */
  struct aead_cmac ad_mac, ct_mac;                /* OMAC^1, OMAC^2.  */
  struct aead_ctr ctr;
};

struct gcm_state
{
  sf_ghash_key_t ghash;
  unsigned char y[AEAD_BLOCK];          /* The GHASH accumulator.  */
  unsigned char buf[AEAD_BLOCK];        /* A partial block of A or C.  */
  size_t buflen;
  unsigned char ek_j0[AEAD_BLOCK];      /* E (K, J0), masks the tag.  */
  struct aead_ctr ctr;
  uint64_t adlen, ctlen;                /* Bytes.  */
  int data_started;
};


/*
 * The handle and the modes.
 */

enum aead_state
  {
    AEAD_NEED_NONCE,    /* Keyed, no message begun.  */
    AEAD_AD,            /* Taking associated data (and data).  */
    AEAD_DATA,          /* Taking data.  */
    AEAD_TAG_DONE       /* The tag is in HD->tag.  */
  };

/* What a mode implements.  aead.c checks lengths with TAGLEN_OK and
 * NONCELEN_OK and the order of calls before calling the others.  */
struct aead_mode_ops
{
  int (*taglen_ok) (size_t taglen);
  int (*noncelen_ok) (size_t noncelen);
  void (*setkey) (sf_aead_hd_t hd);     /* After the cipher's setkey.  */
  void (*setnonce) (sf_aead_hd_t hd, const unsigned char *nonce, size_t len);
  void (*authenticate) (sf_aead_hd_t hd, const unsigned char *ad, size_t len);
  gpg_error_t (*crypt) (sf_aead_hd_t hd, int encrypting, unsigned char *out,
                        const unsigned char *in, size_t len);
  /* The full 16-byte tag; aead.c truncates it.  */
  void (*final) (sf_aead_hd_t hd, unsigned char tag[AEAD_BLOCK]);
};

extern const struct aead_mode_ops sf_aead_ocb_ops;
extern const struct aead_mode_ops sf_aead_eax_ops;
extern const struct aead_mode_ops sf_aead_gcm_ops;

struct sf_aead_hd
{
  const sf_cipher_spec_t *spec;
  const struct aead_mode_ops *ops;
  size_t taglen;
  size_t alloc_len;             /* Bytes allocated from this address.  */
  void *ctx;                    /* The spec's context, aligned, after
                                   this struct in the same allocation.  */
  int keyed;
  enum aead_state state;
  unsigned char tag[AEAD_BLOCK];
  union
  {
    struct ocb_state ocb;
    struct eax_state eax;
    struct gcm_state gcm;
  } u;
};


/*
 * Helpers (aead.c).
 */

/* OUT = A ^ B for N bytes, a word at a time where it can.  */
static inline void
aead_xor (unsigned char *out, const unsigned char *a, const unsigned char *b,
          size_t n)
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

/* One block through the keyed cipher.  */
static inline void
aead_encrypt_block (sf_aead_hd_t hd, unsigned char *out,
                    const unsigned char *in)
{
  hd->spec->encrypt (hd->ctx, out, in);
}

/* NBLOCKS whole blocks through the cipher, encrypting or decrypting,
 * by the spec's ECB bulk function when it has one.  */
void aead_ecb (sf_aead_hd_t hd, int encrypting, unsigned char *out,
               const unsigned char *in, size_t nblocks);

/* X * 2 in GF(2^128) with OCB's and CMAC's polynomial, the block read
 * as a big-endian number (RFC 7253 2, "double").  */
void aead_double (unsigned char out[AEAD_BLOCK],
                  const unsigned char in[AEAD_BLOCK]);

/* Advance C's counter block by one: all 128 bits big-endian, or the
 * last 32 only (GCM's inc32).  */
void aead_ctr_increment (struct aead_ctr *c);

/* XOR LEN bytes from IN with C's keystream into OUT.  Whole blocks
 * go through the spec's CTR bulk function when it has one.  */
void aead_ctr_crypt (sf_aead_hd_t hd, struct aead_ctr *c, unsigned char *out,
                     const unsigned char *in, size_t len);

/* Store X big-endian in 8 bytes at P.  */
static inline void
aead_store_be64 (unsigned char *p, uint64_t x)
{
  int i;

  for (i = 7; i >= 0; i--, x >>= 8)
    p[i] = (unsigned char) x;
}

#endif /*SF_AEAD_INTERNAL_H*/
