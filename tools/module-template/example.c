/* example.c - a template for an out-of-tree sfenc cipher module
 *
 * Copy this directory, rename the file and every "example", and
 * replace the toy cipher below with your algorithm.  What stays is
 * the shape every module has, top to bottom: the context, the key
 * schedule, one-block encrypt and decrypt, optional bulk functions,
 * known answers from your algorithm's standard, the spec, and the
 * SF_MODULE line.  The contract is sfcipher.h; read it first.
 *
 * The toy cipher: a 16-round Feistel network on 64-bit blocks with a
 * 128-bit key, round keys K[i mod 4] + (i + 1) * 0x9E3779B9 and round
 * function F(x, k) = rotl(x + k, 7) ^ rotl(x, 19).  It only shows the
 * plumbing: it is NOT a secure cipher, which is why its spec carries
 * no OpenPGP id.  Its known answers come from a separate model of the
 * same definition.
 *
 * Build: make (see Makefile); load: sfenc --load-extension ./example.so
 */
#include <stdint.h>
#include <string.h>

#include <sfcipher.h>

#define EXAMPLE_BLOCKSIZE 8
#define EXAMPLE_KEYLEN 16
#define EXAMPLE_ROUNDS 16

/* The context: everything setkey computes.  The caller allocates
 * spec.contextsize bytes, aligned, and wipes them after use.  */
typedef struct
{
  uint32_t round_key[EXAMPLE_ROUNDS];
} example_ctx_t;


static inline uint32_t
rotl32 (uint32_t x, unsigned int n)
{
  return (x << n) | (x >> (32 - n));
}

static inline uint32_t
load_be32 (const unsigned char *p)
{
  return ((uint32_t) p[0] << 24) | ((uint32_t) p[1] << 16)
         | ((uint32_t) p[2] << 8) | p[3];
}

static inline void
store_be32 (unsigned char *p, uint32_t v)
{
  p[0] = v >> 24;
  p[1] = v >> 16;
  p[2] = v >> 8;
  p[3] = v;
}


/* Key schedule.  Return GPG_ERR_INV_KEYLEN for a length you do not
 * support; wipe any key material left on the stack.  */
static gpg_error_t
example_setkey (void *context, const unsigned char *key, size_t keylen)
{
  example_ctx_t *ctx = context;
  uint32_t k[4];
  int i;

  if (keylen != EXAMPLE_KEYLEN)
    return gpg_error (GPG_ERR_INV_KEYLEN);
  for (i = 0; i < 4; i++)
    k[i] = load_be32 (key + 4 * i);
  for (i = 0; i < EXAMPLE_ROUNDS; i++)
    ctx->round_key[i] = k[i % 4] + (uint32_t) (i + 1) * 0x9E3779B9;
  sf_wipememory (k, sizeof k);
  return 0;
}


static inline uint32_t
round_function (uint32_t x, uint32_t k)
{
  return rotl32 (x + k, 7) ^ rotl32 (x, 19);
}

/* One block.  IN and OUT may be the same buffer and need not be
 * aligned; the context is never modified.  */
static void
example_encrypt (const void *context, unsigned char *out,
                 const unsigned char *in)
{
  const example_ctx_t *ctx = context;
  uint32_t l = load_be32 (in), r = load_be32 (in + 4), t;
  int i;

  for (i = 0; i < EXAMPLE_ROUNDS; i++)
    {
      t = l ^ round_function (r, ctx->round_key[i]);
      l = r;
      r = t;
    }
  store_be32 (out, r);
  store_be32 (out + 4, l);
}

static void
example_decrypt (const void *context, unsigned char *out,
                 const unsigned char *in)
{
  const example_ctx_t *ctx = context;
  uint32_t r = load_be32 (in), l = load_be32 (in + 4), t;
  int i;

  for (i = EXAMPLE_ROUNDS - 1; i >= 0; i--)
    {
      t = r ^ round_function (l, ctx->round_key[i]);
      r = l;
      l = t;
    }
  store_be32 (out, l);
  store_be32 (out + 4, r);
}


/* A bulk function is optional: without it the generic modes call
 * example_encrypt once per block.  CFB decryption is the one most
 * worth having, because its blocks are independent.  IV holds the
 * previous ciphertext block and must hold the last one on return.
 * (A cipher with 128-bit blocks may also offer, from ABI version 3,
 * an OCB entry, .ocb: see sf_ocb_t in sfcipher.h and doc/modules.md.
 * Set only the fields you have; the spec below leaves the others
 * zero, which builds against every ABI version's header.)  */
static void
example_cfb_dec (const void *context, unsigned char *iv, unsigned char *out,
                 const unsigned char *in, size_t nblocks)
{
  unsigned char keystream[EXAMPLE_BLOCKSIZE];
  size_t i;

  for (; nblocks; nblocks--, in += EXAMPLE_BLOCKSIZE, out += EXAMPLE_BLOCKSIZE)
    {
      example_encrypt (context, keystream, iv);
      memcpy (iv, in, EXAMPLE_BLOCKSIZE);
      for (i = 0; i < EXAMPLE_BLOCKSIZE; i++)
        out[i] = in[i] ^ keystream[i];
    }
  sf_wipememory (keystream, sizeof keystream);
}


/* Known answers, as hex: key, plaintext, ciphertext.  The cipher
 * table runs them in both directions when the module is loaded, and
 * refuses the module if one fails.  Use your standard's vectors.  */
static const sf_kat_t example_kats[] =
  {
    { "00000000000000000000000000000000", "0000000000000000",
      "B7BE650297A6B1EB" },
    { "000102030405060708090A0B0C0D0E0F", "0123456789ABCDEF",
      "B6943DA46CF27CDC" },
    { "FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF", "FFFFFFFFFFFFFFFF",
      "F8E154E6A5812EFC" }
  };

static const sf_cipher_spec_t example_spec =
  {
    .abi_version = SF_ABI_VERSION,
    .name = "EXAMPLE64",
    .aliases = NULL,
    .openpgp_id = 0,
    .blocksize = EXAMPLE_BLOCKSIZE,
    .keylen = EXAMPLE_KEYLEN,
    .contextsize = sizeof (example_ctx_t),
    .impl = "ref",
    .priority = SF_PRIO_REF,
    .setkey = example_setkey,
    .encrypt = example_encrypt,
    .decrypt = example_decrypt,
    .cfb_dec = example_cfb_dec,
    .kats = example_kats,
    .n_kats = sizeof example_kats / sizeof example_kats[0]
  };

/* The module's one exported symbol.  */
SF_MODULE (example, &example_spec);
