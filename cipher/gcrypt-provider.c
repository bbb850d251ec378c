/* gcrypt-provider.c - the eight OpenPGP block ciphers, backed by libgcrypt
 *
 * Implementation "gcrypt": the reference every native module is
 * checked against (tests/t-diff.c) and measured against
 * (tools/cipherbench).  Each mode's bulk function goes straight to
 * libgcrypt's own implementation of that mode, so a benchmark of this
 * provider measures libgcrypt, assembly and all, and not our modes.
 *
 * libgcrypt's algorithm numbers are the OpenPGP ids (RFC 4880 9.2)
 * for all eight, and its names are our canonical names.  Weak keys
 * are accepted, as the native modules accept them, so that both sides
 * of a differential test see the same keys.
 */
#include <config.h>

#include <string.h>
#include <gcrypt.h>

#include "libsfcipher.h"

/* One libgcrypt handle per mode, all keyed by setkey.  */
enum { H_ECB, H_CBC, H_CFB, H_OFB, H_CTR, N_HANDLES };

static const int gcry_modes[N_HANDLES] =
  {
    GCRY_CIPHER_MODE_ECB, GCRY_CIPHER_MODE_CBC, GCRY_CIPHER_MODE_CFB,
    GCRY_CIPHER_MODE_OFB, GCRY_CIPHER_MODE_CTR
  };

typedef struct
{
  gcry_cipher_hd_t hd[N_HANDLES];
  size_t blocksize;
} provider_ctx_t;


static void
provider_release (void *context)
{
  provider_ctx_t *ctx = context;
  int i;

  for (i = 0; i < N_HANDLES; i++)
    {
      gcry_cipher_close (ctx->hd[i]);
      ctx->hd[i] = NULL;
    }
}


static gpg_error_t
provider_setkey (int algo, void *context, const unsigned char *key,
                 size_t keylen)
{
  provider_ctx_t *ctx = context;
  /* The handles hold the key schedules.  They go where the caller put
   * the context: into secure memory under SF_CIPHER_SECURE, as a
   * native module's schedule does.  Not always, as the secure pool is
   * small and the five handles of a Twofish key take some 47 KiB.  */
  unsigned int flags = gcry_is_secure (ctx) ? GCRY_CIPHER_SECURE : 0;
  gpg_error_t err = 0;
  int i;

  memset (ctx, 0, sizeof *ctx);
  ctx->blocksize = gcry_cipher_get_algo_blklen (algo);
  for (i = 0; !err && i < N_HANDLES; i++)
    {
      err = gcry_cipher_open (&ctx->hd[i], algo, gcry_modes[i], flags);
      if (!err)
        err = gcry_cipher_ctl (ctx->hd[i], GCRYCTL_SET_ALLOW_WEAK_KEY,
                               NULL, 1);
      if (!err)
        {
          /* With weak keys allowed libgcrypt still says so, and uses
           * the key.  */
          err = gcry_cipher_setkey (ctx->hd[i], key, keylen);
          if (gpg_err_code (err) == GPG_ERR_WEAK_KEY)
            err = 0;
        }
    }
  if (err)
    provider_release (ctx);
  return err;
}


static void
provider_encrypt (const void *context, unsigned char *out,
                  const unsigned char *in)
{
  const provider_ctx_t *ctx = context;

  gcry_cipher_encrypt (ctx->hd[H_ECB], out, ctx->blocksize,
                       in, ctx->blocksize);
}


static void
provider_decrypt (const void *context, unsigned char *out,
                  const unsigned char *in)
{
  const provider_ctx_t *ctx = context;

  gcry_cipher_decrypt (ctx->hd[H_ECB], out, ctx->blocksize,
                       in, ctx->blocksize);
}


static void
provider_ecb_enc (const void *context, unsigned char *out,
                  const unsigned char *in, size_t nblocks)
{
  const provider_ctx_t *ctx = context;
  size_t len = nblocks * ctx->blocksize;

  gcry_cipher_encrypt (ctx->hd[H_ECB], out, len, in, len);
}


static void
provider_ecb_dec (const void *context, unsigned char *out,
                  const unsigned char *in, size_t nblocks)
{
  const provider_ctx_t *ctx = context;
  size_t len = nblocks * ctx->blocksize;

  gcry_cipher_decrypt (ctx->hd[H_ECB], out, len, in, len);
}


/* Run NBLOCKS through libgcrypt's mode WHICH starting from IV and
 * leave the next chaining value in IV.  For CBC and CFB that is the
 * last ciphertext block; for OFB the last keystream block, recovered
 * as ciphertext XOR plaintext.  */
static void
chained (const provider_ctx_t *ctx, int which, int encrypting,
         unsigned char *iv, unsigned char *out, const unsigned char *in,
         size_t nblocks)
{
  gcry_cipher_hd_t hd = ctx->hd[which];
  size_t bs = ctx->blocksize;
  size_t len = nblocks * bs;
  unsigned char last_in[SF_MAX_BLOCKSIZE];
  size_t i;

  memcpy (last_in, in + len - bs, bs);   /* IN may be OUT.  */
  gcry_cipher_setiv (hd, iv, bs);
  if (encrypting)
    gcry_cipher_encrypt (hd, out, len, in, len);
  else
    gcry_cipher_decrypt (hd, out, len, in, len);

  if (which == H_OFB)
    for (i = 0; i < bs; i++)
      iv[i] = out[len - bs + i] ^ last_in[i];
  else
    memcpy (iv, encrypting ? out + len - bs : last_in, bs);
}

static void
provider_cbc_enc (const void *ctx, unsigned char *iv, unsigned char *out,
                  const unsigned char *in, size_t nblocks)
{
  chained (ctx, H_CBC, 1, iv, out, in, nblocks);
}

static void
provider_cbc_dec (const void *ctx, unsigned char *iv, unsigned char *out,
                  const unsigned char *in, size_t nblocks)
{
  chained (ctx, H_CBC, 0, iv, out, in, nblocks);
}

static void
provider_cfb_enc (const void *ctx, unsigned char *iv, unsigned char *out,
                  const unsigned char *in, size_t nblocks)
{
  chained (ctx, H_CFB, 1, iv, out, in, nblocks);
}

static void
provider_cfb_dec (const void *ctx, unsigned char *iv, unsigned char *out,
                  const unsigned char *in, size_t nblocks)
{
  chained (ctx, H_CFB, 0, iv, out, in, nblocks);
}

static void
provider_ofb (const void *ctx, unsigned char *iv, unsigned char *out,
              const unsigned char *in, size_t nblocks)
{
  chained (ctx, H_OFB, 1, iv, out, in, nblocks);
}


static void
provider_ctr (const void *context, unsigned char *ctr, unsigned char *out,
              const unsigned char *in, size_t nblocks)
{
  const provider_ctx_t *ctx = context;
  size_t bs = ctx->blocksize;
  size_t len = nblocks * bs;
  size_t carry = nblocks;
  size_t i;

  gcry_cipher_setctr (ctx->hd[H_CTR], ctr, bs);
  gcry_cipher_encrypt (ctx->hd[H_CTR], out, len, in, len);

  /* Advance the big-endian counter by NBLOCKS.  */
  for (i = bs; i-- && carry; )
    {
      carry += ctr[i];
      ctr[i] = carry & 0xff;
      carry >>= 8;
    }
}


#define PROVIDER_SETKEY(fn, algo)                                       \
  static gpg_error_t                                                    \
  fn (void *ctx, const unsigned char *key, size_t keylen)               \
  {                                                                     \
    return provider_setkey (algo, ctx, key, keylen);                    \
  }

PROVIDER_SETKEY (setkey_idea, GCRY_CIPHER_IDEA)
PROVIDER_SETKEY (setkey_3des, GCRY_CIPHER_3DES)
PROVIDER_SETKEY (setkey_cast5, GCRY_CIPHER_CAST5)
PROVIDER_SETKEY (setkey_blowfish, GCRY_CIPHER_BLOWFISH)
PROVIDER_SETKEY (setkey_aes128, GCRY_CIPHER_AES128)
PROVIDER_SETKEY (setkey_aes192, GCRY_CIPHER_AES192)
PROVIDER_SETKEY (setkey_aes256, GCRY_CIPHER_AES256)
PROVIDER_SETKEY (setkey_twofish, GCRY_CIPHER_TWOFISH)


/* One known answer per algorithm, from the sources in tests/vectors:
 * Lai-Massey's IDEA example, SP 800-67 TDEA, RFC 2144 B.1, Schneier's
 * Blowfish vectors, FIPS-197 C.1-C.3, the Twofish paper.  */
static const sf_kat_t kat_idea[] =
  { { "00010002000300040005000600070008", "0000000100020003",
      "11FBED2B01986DE5" } };
static const sf_kat_t kat_3des[] =
  { { "0123456789ABCDEF23456789ABCDEF01456789ABCDEF0123",
      "54686520717566636B2062726F776E20666F78206A756D70",
      "A826FD8CE53B855FCCE21C8112256FE668D5C05DD9B6B900" } };
static const sf_kat_t kat_cast5[] =
  { { "0123456712345678234567893456789A", "0123456789ABCDEF",
      "238B4FE5847E44B2" } };
static const sf_kat_t kat_blowfish[] =
  { { "FEDCBA9876543210", "0123456789ABCDEF", "0ACEAB0FC6A0A28D" } };
static const sf_kat_t kat_aes128[] =
  { { "000102030405060708090A0B0C0D0E0F",
      "00112233445566778899AABBCCDDEEFF",
      "69C4E0D86A7B0430D8CDB78070B4C55A" } };
static const sf_kat_t kat_aes192[] =
  { { "000102030405060708090A0B0C0D0E0F1011121314151617",
      "00112233445566778899AABBCCDDEEFF",
      "DDA97CA4864CDFE06EAF70A0EC0D7191" } };
static const sf_kat_t kat_aes256[] =
  { { "000102030405060708090A0B0C0D0E0F"
      "101112131415161718191A1B1C1D1E1F",
      "00112233445566778899AABBCCDDEEFF",
      "8EA2B7CA516745BFEAFC49904B496089" } };
static const sf_kat_t kat_twofish[] =
  { { "0123456789ABCDEFFEDCBA987654321000112233445566778899AABBCCDDEEFF",
      "00000000000000000000000000000000",
      "37527BE0052334B89F0CFCCAE87CFA20" } };

static const char *const aliases_cast5[] = { "CAST-128", "CAST128", NULL };
static const char *const aliases_3des[] =
  { "TRIPLEDES", "DES-EDE3", "3DES-EDE", NULL };
static const char *const aliases_aes128[] =
  { "AES128", "RIJNDAEL", "RIJNDAEL128", NULL };
static const char *const aliases_aes192[] = { "RIJNDAEL192", NULL };
static const char *const aliases_aes256[] = { "RIJNDAEL256", NULL };
static const char *const aliases_twofish[] = { "TWOFISH256", NULL };

#define PROVIDER_SPEC(var, nam, alias, id, bs, klen, setkey_fn, kat)   \
  static const sf_cipher_spec_t var =                                   \
    {                                                                   \
      .abi_version = SF_ABI_VERSION,                                    \
      .name = nam, .aliases = alias, .openpgp_id = id,                  \
      .blocksize = bs, .keylen = klen,                                  \
      .contextsize = sizeof (provider_ctx_t),                           \
      .impl = "gcrypt", .priority = SF_PRIO_PEER,                       \
      .setkey = setkey_fn, .release = provider_release,                 \
      .encrypt = provider_encrypt, .decrypt = provider_decrypt,         \
      .ecb_enc = provider_ecb_enc, .ecb_dec = provider_ecb_dec,         \
      .cbc_enc = provider_cbc_enc, .cbc_dec = provider_cbc_dec,         \
      .cfb_enc = provider_cfb_enc, .cfb_dec = provider_cfb_dec,         \
      .ofb = provider_ofb, .ctr = provider_ctr,                         \
      .kats = kat, .n_kats = 1,                                         \
      /* Whatever libgcrypt chose for this CPU.  */                     \
      .timing = SF_TIMING_UNKNOWN                                       \
    }

PROVIDER_SPEC (sf_spec_idea_gcrypt, "IDEA", NULL, 1, 8, 16,
               setkey_idea, kat_idea);
PROVIDER_SPEC (sf_spec_3des_gcrypt, "3DES", aliases_3des, 2, 8, 24,
               setkey_3des, kat_3des);
PROVIDER_SPEC (sf_spec_cast5_gcrypt, "CAST5", aliases_cast5, 3, 8, 16,
               setkey_cast5, kat_cast5);
PROVIDER_SPEC (sf_spec_blowfish_gcrypt, "BLOWFISH", NULL, 4, 8, 16,
               setkey_blowfish, kat_blowfish);
PROVIDER_SPEC (sf_spec_aes128_gcrypt, "AES", aliases_aes128, 7, 16, 16,
               setkey_aes128, kat_aes128);
PROVIDER_SPEC (sf_spec_aes192_gcrypt, "AES192", aliases_aes192, 8, 16, 24,
               setkey_aes192, kat_aes192);
PROVIDER_SPEC (sf_spec_aes256_gcrypt, "AES256", aliases_aes256, 9, 16, 32,
               setkey_aes256, kat_aes256);
PROVIDER_SPEC (sf_spec_twofish_gcrypt, "TWOFISH", aliases_twofish, 10, 16, 32,
               setkey_twofish, kat_twofish);

SF_MODULE (gcrypt,
           &sf_spec_idea_gcrypt, &sf_spec_3des_gcrypt, &sf_spec_cast5_gcrypt,
           &sf_spec_blowfish_gcrypt, &sf_spec_aes128_gcrypt,
           &sf_spec_aes192_gcrypt, &sf_spec_aes256_gcrypt,
           &sf_spec_twofish_gcrypt);
