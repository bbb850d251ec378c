/* rijndael-armce.c - AES (Rijndael with a 128-bit block), ARMv8 CE
 *
 * The Advanced Encryption Standard as specified in FIPS-197 (NIST,
 * 2001), with 128-, 192- and 256-bit keys, as the OpenPGP algorithms
 * AES (id 7), AES192 (id 8) and AES256 (id 9) of RFC 4880 9.2, using
 * the AES instructions of the ARMv8-A Cryptography Extensions (Arm
 * ARM, A64 AESE, AESD, AESMC, AESIMC) through the ACLE intrinsics of
 * <arm_neon.h>.  Only the functions that execute those instructions
 * are compiled for them (target attributes); the program as a whole
 * stays generic ARMv8-A and asks armce_usable() before using this
 * implementation.
 *
 * The instructions split a round differently from FIPS-197: AESE is
 * AddRoundKey, ShiftRows and SubBytes, AESMC is MixColumns.  So a
 * cipher of R rounds is R - 1 pairs AESE, AESMC with the round keys
 * 0 .. R - 2, one AESE with key R - 1, and an XOR with key R; AESD
 * and AESIMC do the same for the equivalent inverse cipher of
 * FIPS-197 5.3.5, whose round keys AESIMC produces.  The key
 * expansion is FIPS-197 5.2 written on words; SubWord is AESE with a
 * zero key on a register holding the word in all four columns, where
 * ShiftRows has nothing to move.
 *
 * Every function that runs the rounds has the round count as a
 * compile-time constant (one copy per key size), so the round keys
 * are loaded into registers once per call (AArch64 has 32) and the
 * rounds are straight-line code.  The serial modes (CFB and CBC
 * encryption) take every XOR off the dependency chain from block to
 * block: the chaining XOR and the last round key are folded into the
 * next block's first round key, which AESE adds for free, so the
 * chain is the AES instructions alone.  The parallel modes (CFB and
 * CBC decryption, CTR, ECB, OCB's whole blocks) run eight independent
 * blocks through each round, which keeps the pipelined AES units of
 * the wider cores busy and lets a core fuse each AESE with its AESMC.
 *
 * CFB also comes stitched with SHA-1 for OpenPGP's MDC, with the
 * SHA-1 instructions (see "CFB stitched with SHA-1" below).
 *
 * The instructions and the lanes are used in memory order, which is
 * that of the registers only on little-endian AArch64, and the
 * features are read from the Linux auxiliary vector; elsewhere, and
 * on every other processor, the specs still exist, for a consistent
 * cipher list, but report themselves unusable.
 *
 * Known answers: FIPS-197 Appendix C; NIST SP 800-38A Appendix F.1
 * (ECB); NIST CAVP AESAVS KAT_AES.zip (GFSbox, KeySbox, VarKey).
 */

#include <stdint.h>
#include <stddef.h>
#include <string.h>

#include "sfcipher.h"
#include "rijndael-kats.h"
#include "rijndael-expand.h"
#include "rijndael-ctr.h"
/* Decides, for the AES instructions as for SHA-1, whether this
 * compiler can enable them per function on this target; declares
 * nothing where it cannot.  */
#include "sha1-armce-rounds.h"

#define AES_BLOCKSIZE 16
#define AES_MAX_ROUNDS 14

#if defined(SHA1_ARMCE_AVAILABLE) && defined(__linux__)

#include <arm_neon.h>
#include <sys/auxv.h>
#include <asm/hwcap.h>

/* GCC 12 enables the AES and the SHA intrinsics together, as
 * "+crypto"; the header names the target for both.  */
#define ARMCE_TARGET SHA1_ARMCE_TARGET
#define ARMCE_INLINE static inline __attribute__ ((always_inline)) ARMCE_TARGET

typedef struct
{
  uint8x16_t enc_keys[AES_MAX_ROUNDS + 1];
  /* Equivalent inverse cipher: reversed, AESIMC on the inner keys.  */
  uint8x16_t dec_keys[AES_MAX_ROUNDS + 1];
  unsigned int rounds;
} armce_context_t;


static int
armce_usable (void)
{
  return (getauxval (AT_HWCAP) & HWCAP_AES) != 0;
}


/*
 * Key schedule.  Words hold the key bytes in memory order, so on this
 * little-endian machine the first byte of a word is its low byte.
 */

ARMCE_TARGET static uint32_t
sub_word (uint32_t w)
{
  uint8x16_t x = vreinterpretq_u8_u32 (vdupq_n_u32 (w));

  x = vaeseq_u8 (x, vdupq_n_u8 (0));
  return vgetq_lane_u32 (vreinterpretq_u32_u8 (x), 0);
}

ARMCE_TARGET static void
expand_key (armce_context_t *ctx, const unsigned char *key, size_t keylen)
{
  uint32_t w[RIJNDAEL_MAX_WORDS];
  unsigned int rounds = rijndael_expand_key (w, key, keylen, sub_word);
  unsigned int i;

  ctx->rounds = rounds;

  for (i = 0; i <= rounds; i++)
    ctx->enc_keys[i] = vld1q_u8 ((const uint8_t *)(w + 4 * i));
  ctx->dec_keys[0] = ctx->enc_keys[rounds];
  for (i = 1; i < rounds; i++)
    ctx->dec_keys[i] = vaesimcq_u8 (ctx->enc_keys[rounds - i]);
  ctx->dec_keys[rounds] = ctx->enc_keys[0];

  sf_wipememory (w, sizeof w);
}

static gpg_error_t
setkey_checked (void *ctx, const unsigned char *key, size_t keylen,
                size_t wanted)
{
  if (keylen != wanted)
    return gpg_error (GPG_ERR_INV_KEYLEN);
  /* Also clears the round keys a shorter key leaves unused, which the
   * kernels load anyway.  */
  sf_wipememory (ctx, sizeof (armce_context_t));
  expand_key (ctx, key, keylen);
  return 0;
}

static gpg_error_t
aes128_setkey (void *ctx, const unsigned char *key, size_t keylen)
{
  return setkey_checked (ctx, key, keylen, 16);
}

static gpg_error_t
aes192_setkey (void *ctx, const unsigned char *key, size_t keylen)
{
  return setkey_checked (ctx, key, keylen, 24);
}

static gpg_error_t
aes256_setkey (void *ctx, const unsigned char *key, size_t keylen)
{
  return setkey_checked (ctx, key, keylen, 32);
}


/*
 * The rounds.  A kernel is an inline function with a parameter
 * ROUNDS that is a constant at each call site (BY_ROUNDS_); it
 * declares the round keys as locals with ROUND_KEYS_ and runs them
 * with AES_ROUNDS_, which leaves the last AddRoundKey, KLAST, to the
 * caller, who usually has more to XOR in there.
 */

/* Calls KERNEL (CTX, R, ...) with the context's round count R as a
 * constant.  */
#define BY_ROUNDS_(kernel, ctx, ...)                                    \
  do                                                                    \
    {                                                                   \
      if ((ctx)->rounds == 10)                                          \
        kernel ((ctx), 10, __VA_ARGS__);                                \
      else if ((ctx)->rounds == 12)                                     \
        kernel ((ctx), 12, __VA_ARGS__);                                \
      else                                                              \
        kernel ((ctx), 14, __VA_ARGS__);                                \
    }                                                                   \
  while (0)

/* KEYS[0] .. KEYS[12] as K0 .. K12, the key of the last AESE (AESD)
 * as KPEN and the one XORed after it as KLAST.  The compiler keeps
 * those ROUNDS uses in registers and drops the loads of the others.  */
#define ROUND_KEYS_(keys)                                               \
  const uint8x16_t *const kp_ = (keys);                                 \
  const uint8x16_t k0 = kp_[0], k1 = kp_[1], k2 = kp_[2], k3 = kp_[3];  \
  const uint8x16_t k4 = kp_[4], k5 = kp_[5], k6 = kp_[6], k7 = kp_[7];  \
  const uint8x16_t k8 = kp_[8], k9 = kp_[9], k10 = kp_[10];             \
  const uint8x16_t k11 = kp_[11], k12 = kp_[12];                        \
  const uint8x16_t kpen = kp_[rounds - 1], klast = kp_[rounds]

/* ROUND (K) for the round keys FIRST (K0, or K0 with more folded in),
 * K1 .. K(ROUNDS - 2), then FINAL (KPEN).  */
#define AES_ROUNDS_(first, round, final)                                \
  do                                                                    \
    {                                                                   \
      round (first); round (k1); round (k2); round (k3); round (k4);    \
      round (k5); round (k6); round (k7); round (k8);                   \
      if (rounds > 10)                                                  \
        {                                                               \
          round (k9); round (k10);                                      \
        }                                                               \
      if (rounds > 12)                                                  \
        {                                                               \
          round (k11); round (k12);                                     \
        }                                                               \
      final (kpen);                                                     \
    }                                                                   \
  while (0)

/* The round and final operations on the one block X.  */
#define ENC1_(k) x = vaesmcq_u8 (vaeseq_u8 (x, (k)))
#define ENC1_FINAL_(k) x = vaeseq_u8 (x, (k))
#define DEC1_(k) x = vaesimcq_u8 (vaesdq_u8 (x, (k)))
#define DEC1_FINAL_(k) x = vaesdq_u8 (x, (k))

/* The same on the eight blocks B0 .. B7.  */
#define FOR_EIGHT(OP) \
  do { OP (0); OP (1); OP (2); OP (3); OP (4); OP (5); OP (6); OP (7); } \
  while (0)
#define AESE_MC_(i) b ## i = vaesmcq_u8 (vaeseq_u8 (b ## i, rk_))
#define AESE_(i) b ## i = vaeseq_u8 (b ## i, rk_)
#define AESD_IMC_(i) b ## i = vaesimcq_u8 (vaesdq_u8 (b ## i, rk_))
#define AESD_(i) b ## i = vaesdq_u8 (b ## i, rk_)
#define EIGHT_(op, k)                                                   \
  do                                                                    \
    {                                                                   \
      const uint8x16_t rk_ = (k);                                       \
      FOR_EIGHT (op);                                                   \
    }                                                                   \
  while (0)
#define ENC8_(k) EIGHT_ (AESE_MC_, k)
#define ENC8_FINAL_(k) EIGHT_ (AESE_, k)
#define DEC8_(k) EIGHT_ (AESD_IMC_, k)
#define DEC8_FINAL_(k) EIGHT_ (AESD_, k)

#define LOAD_(i) b ## i = vld1q_u8 (in + i * AES_BLOCKSIZE)


/*
 * ECB, and the single blocks.
 */

ARMCE_INLINE void
ecb_rounds (const armce_context_t *ctx, unsigned int rounds, int encrypting,
            unsigned char *out, const unsigned char *in, size_t nblocks)
{
  ROUND_KEYS_ (encrypting ? ctx->enc_keys : ctx->dec_keys);
  uint8x16_t b0, b1, b2, b3, b4, b5, b6, b7, x;

  for (; nblocks >= 8; nblocks -= 8, in += 8 * AES_BLOCKSIZE,
         out += 8 * AES_BLOCKSIZE)
    {
#define LAST_(i) vst1q_u8 (out + i * AES_BLOCKSIZE, veorq_u8 (b ## i, klast))
      FOR_EIGHT (LOAD_);
      if (encrypting)
        AES_ROUNDS_ (k0, ENC8_, ENC8_FINAL_);
      else
        AES_ROUNDS_ (k0, DEC8_, DEC8_FINAL_);
      FOR_EIGHT (LAST_);
#undef LAST_
    }
  for (; nblocks; nblocks--, in += AES_BLOCKSIZE, out += AES_BLOCKSIZE)
    {
      x = vld1q_u8 (in);
      if (encrypting)
        AES_ROUNDS_ (k0, ENC1_, ENC1_FINAL_);
      else
        AES_ROUNDS_ (k0, DEC1_, DEC1_FINAL_);
      vst1q_u8 (out, veorq_u8 (x, klast));
    }
}

ARMCE_TARGET static void
armce_encrypt (const void *ctx_arg, unsigned char *out,
               const unsigned char *in)
{
  const armce_context_t *ctx = ctx_arg;

  BY_ROUNDS_ (ecb_rounds, ctx, 1, out, in, 1);
}

ARMCE_TARGET static void
armce_decrypt (const void *ctx_arg, unsigned char *out,
               const unsigned char *in)
{
  const armce_context_t *ctx = ctx_arg;

  BY_ROUNDS_ (ecb_rounds, ctx, 0, out, in, 1);
}

ARMCE_TARGET static void
armce_ecb_enc (const void *ctx_arg, unsigned char *out,
               const unsigned char *in, size_t nblocks)
{
  const armce_context_t *ctx = ctx_arg;

  BY_ROUNDS_ (ecb_rounds, ctx, 1, out, in, nblocks);
}

ARMCE_TARGET static void
armce_ecb_dec (const void *ctx_arg, unsigned char *out,
               const unsigned char *in, size_t nblocks)
{
  const armce_context_t *ctx = ctx_arg;

  BY_ROUNDS_ (ecb_rounds, ctx, 0, out, in, nblocks);
}


/*
 * The serial modes: CBC and CFB encryption, one block after the
 * other.
 *
 * AESE begins with the XOR of its key, so whatever the next block
 * adds to the chaining value before its first round can go into that
 * round's key instead, computed beside the chain: the register X
 * carries the state before the last AddRoundKey from one block to the
 * next, and the ciphertext, X ^ KLAST (^ the plaintext in CFB), is an
 * XOR off the chain.
 */

ARMCE_INLINE void
cbc_enc_rounds (const armce_context_t *ctx, unsigned int rounds,
                unsigned char *iv, unsigned char *out,
                const unsigned char *in, size_t nblocks)
{
  ROUND_KEYS_ (ctx->enc_keys);
  /* The next block's first round key: K0 ^ its plaintext ^ KLAST,
   * which turns X into the ciphertext; for the first block, X is the
   * IV itself.  */
  const uint8x16_t k0_klast = veorq_u8 (k0, klast);
  uint8x16_t x = vld1q_u8 (iv), c = x;
  uint8x16_t first = veorq_u8 (k0, vld1q_u8 (in));

  for (; nblocks; nblocks--, in += AES_BLOCKSIZE, out += AES_BLOCKSIZE)
    {
      AES_ROUNDS_ (first, ENC1_, ENC1_FINAL_);
      /* IN and OUT are the same or apart: the next plaintext is not
       * where this ciphertext goes.  */
      if (nblocks > 1)
        first = veorq_u8 (k0_klast, vld1q_u8 (in + AES_BLOCKSIZE));
      c = veorq_u8 (x, klast);
      vst1q_u8 (out, c);
    }
  vst1q_u8 (iv, c);
}

ARMCE_TARGET static void
armce_cbc_enc (const void *ctx_arg, unsigned char *iv, unsigned char *out,
               const unsigned char *in, size_t nblocks)
{
  const armce_context_t *ctx = ctx_arg;

  BY_ROUNDS_ (cbc_enc_rounds, ctx, iv, out, in, nblocks);
}

ARMCE_INLINE void
cfb_enc_rounds (const armce_context_t *ctx, unsigned int rounds,
                unsigned char *iv, unsigned char *out,
                const unsigned char *in, size_t nblocks)
{
  ROUND_KEYS_ (ctx->enc_keys);
  /* T is the plaintext ^ KLAST, which turns X into the ciphertext and,
   * with K0, is the next block's first round key.  */
  uint8x16_t x = vld1q_u8 (iv), c = x, first = k0, t;

  for (; nblocks; nblocks--, in += AES_BLOCKSIZE, out += AES_BLOCKSIZE)
    {
      t = veorq_u8 (vld1q_u8 (in), klast);
      AES_ROUNDS_ (first, ENC1_, ENC1_FINAL_);
      c = veorq_u8 (x, t);
      vst1q_u8 (out, c);
      first = veorq_u8 (t, k0);
    }
  vst1q_u8 (iv, c);
}

ARMCE_TARGET static void
armce_cfb_enc (const void *ctx_arg, unsigned char *iv, unsigned char *out,
               const unsigned char *in, size_t nblocks)
{
  const armce_context_t *ctx = ctx_arg;

  BY_ROUNDS_ (cfb_enc_rounds, ctx, iv, out, in, nblocks);
}


/*
 * The parallel modes: CFB and CBC decryption, CTR.
 */

ARMCE_INLINE void
cfb_dec_rounds (const armce_context_t *ctx, unsigned int rounds,
                unsigned char *iv, unsigned char *out,
                const unsigned char *in, size_t nblocks)
{
  ROUND_KEYS_ (ctx->enc_keys);
  uint8x16_t b0, b1, b2, b3, b4, b5, b6, b7, x, c;
  uint8x16_t prev = vld1q_u8 (iv);

  for (; nblocks >= 8; nblocks -= 8, in += 8 * AES_BLOCKSIZE,
         out += 8 * AES_BLOCKSIZE)
    {
      /* Block i is encrypted from ciphertext i - 1.  */
      b0 = prev;
      b1 = vld1q_u8 (in);
      b2 = vld1q_u8 (in + 1 * AES_BLOCKSIZE);
      b3 = vld1q_u8 (in + 2 * AES_BLOCKSIZE);
      b4 = vld1q_u8 (in + 3 * AES_BLOCKSIZE);
      b5 = vld1q_u8 (in + 4 * AES_BLOCKSIZE);
      b6 = vld1q_u8 (in + 5 * AES_BLOCKSIZE);
      b7 = vld1q_u8 (in + 6 * AES_BLOCKSIZE);
      prev = vld1q_u8 (in + 7 * AES_BLOCKSIZE);
      AES_ROUNDS_ (k0, ENC8_, ENC8_FINAL_);
      /* Each ciphertext block is read again, before the store that
       * may overwrite it, rather than held in a register through the
       * rounds beside the keys.  */
#define LAST_(i)                                                        \
      vst1q_u8 (out + i * AES_BLOCKSIZE,                                \
                veorq_u8 (b ## i,                                       \
                          veorq_u8 (klast,                              \
                                    vld1q_u8 (in + i * AES_BLOCKSIZE))))
      FOR_EIGHT (LAST_);
#undef LAST_
    }
  for (; nblocks; nblocks--, in += AES_BLOCKSIZE, out += AES_BLOCKSIZE)
    {
      c = vld1q_u8 (in);
      x = prev;
      AES_ROUNDS_ (k0, ENC1_, ENC1_FINAL_);
      vst1q_u8 (out, veorq_u8 (x, veorq_u8 (klast, c)));
      prev = c;
    }
  vst1q_u8 (iv, prev);
}

ARMCE_TARGET static void
armce_cfb_dec (const void *ctx_arg, unsigned char *iv, unsigned char *out,
               const unsigned char *in, size_t nblocks)
{
  const armce_context_t *ctx = ctx_arg;

  BY_ROUNDS_ (cfb_dec_rounds, ctx, iv, out, in, nblocks);
}

ARMCE_INLINE void
cbc_dec_rounds (const armce_context_t *ctx, unsigned int rounds,
                unsigned char *iv, unsigned char *out,
                const unsigned char *in, size_t nblocks)
{
  ROUND_KEYS_ (ctx->dec_keys);
  uint8x16_t b0, b1, b2, b3, b4, b5, b6, b7, x, c;
  uint8x16_t prev = vld1q_u8 (iv);

  for (; nblocks >= 8; nblocks -= 8, in += 8 * AES_BLOCKSIZE,
         out += 8 * AES_BLOCKSIZE)
    {
      FOR_EIGHT (LOAD_);
      AES_ROUNDS_ (k0, DEC8_, DEC8_FINAL_);
      /* Plaintext i is D(C[i]) ^ C[i - 1]; C[i] is read before the
       * store of plaintext i, which may overwrite it.  */
#define LAST_(i)                                                        \
      do                                                                \
        {                                                               \
          const uint8x16_t c_ = vld1q_u8 (in + i * AES_BLOCKSIZE);      \
                                                                        \
          vst1q_u8 (out + i * AES_BLOCKSIZE,                            \
                    veorq_u8 (b ## i, veorq_u8 (klast, prev)));         \
          prev = c_;                                                    \
        }                                                               \
      while (0)
      FOR_EIGHT (LAST_);
#undef LAST_
    }
  for (; nblocks; nblocks--, in += AES_BLOCKSIZE, out += AES_BLOCKSIZE)
    {
      c = vld1q_u8 (in);
      x = c;
      AES_ROUNDS_ (k0, DEC1_, DEC1_FINAL_);
      vst1q_u8 (out, veorq_u8 (x, veorq_u8 (klast, prev)));
      prev = c;
    }
  vst1q_u8 (iv, prev);
}

ARMCE_TARGET static void
armce_cbc_dec (const void *ctx_arg, unsigned char *iv, unsigned char *out,
               const unsigned char *in, size_t nblocks)
{
  const armce_context_t *ctx = ctx_arg;

  BY_ROUNDS_ (cbc_dec_rounds, ctx, iv, out, in, nblocks);
}

/* The counter block of the 128-bit big-endian number HI:LO.  */
ARMCE_INLINE uint8x16_t
counter_block (uint64_t hi, uint64_t lo)
{
  return vrev64q_u8 (vreinterpretq_u8_u64
                       (vcombine_u64 (vcreate_u64 (hi), vcreate_u64 (lo))));
}

ARMCE_INLINE uint64_t
load_be64 (const unsigned char *p)
{
  uint64_t v;

  memcpy (&v, p, sizeof v);
  return __builtin_bswap64 (v);
}

ARMCE_INLINE void
store_be64 (unsigned char *p, uint64_t v)
{
  v = __builtin_bswap64 (v);
  memcpy (p, &v, sizeof v);
}

ARMCE_INLINE void
ctr_rounds (const armce_context_t *ctx, unsigned int rounds,
            unsigned char *iv, unsigned char *out, const unsigned char *in,
            size_t nblocks)
{
  ROUND_KEYS_ (ctx->enc_keys);
  uint8x16_t b0, b1, b2, b3, b4, b5, b6, b7, x;
  uint64_t hi = load_be64 (iv);
  uint64_t lo = load_be64 (iv + 8);

  for (; nblocks >= 8; nblocks -= 8, in += 8 * AES_BLOCKSIZE,
         out += 8 * AES_BLOCKSIZE)
    {
      /* Counter i is HI:LO + i, with the carry into HI computed, not
       * branched on: the counter may be secret (EAX).  */
#define COUNTER_(i) b ## i = counter_block (hi + (lo + i < lo), lo + i)
      FOR_EIGHT (COUNTER_);
#undef COUNTER_
      ctr128_add (&hi, &lo, 8);
      AES_ROUNDS_ (k0, ENC8_, ENC8_FINAL_);
#define LAST_(i)                                                        \
      vst1q_u8 (out + i * AES_BLOCKSIZE,                                \
                veorq_u8 (b ## i,                                       \
                          veorq_u8 (klast,                              \
                                    vld1q_u8 (in + i * AES_BLOCKSIZE))))
      FOR_EIGHT (LAST_);
#undef LAST_
    }
  for (; nblocks; nblocks--, in += AES_BLOCKSIZE, out += AES_BLOCKSIZE)
    {
      x = counter_block (hi, lo);
      AES_ROUNDS_ (k0, ENC1_, ENC1_FINAL_);
      vst1q_u8 (out, veorq_u8 (x, veorq_u8 (klast, vld1q_u8 (in))));
      ctr128_add (&hi, &lo, 1);
    }
  store_be64 (iv, hi);
  store_be64 (iv + 8, lo);
}

ARMCE_TARGET static void
armce_ctr (const void *ctx_arg, unsigned char *iv, unsigned char *out,
           const unsigned char *in, size_t nblocks)
{
  const armce_context_t *ctx = ctx_arg;

  BY_ROUNDS_ (ctr_rounds, ctx, iv, out, in, nblocks);
}


/*
 * OCB's whole blocks (sfcipher.h, sf_ocb_t).
 *
 * From a block count that is a multiple of eight, the next eight
 * offsets need L_ntz(n) for ntz (n) = 0, 1, 0, 2, 0, 1, 0 and then
 * something larger: all but the last are the same in every such run.
 * So Offset_(8m+j) = Offset_8m ^ P_j, with P_j the XOR of the first j
 * of those L, computed once per call, and only the eighth needs a
 * table read, L_ntz(8m+8).  AESE (AESD) adds the offset to the data
 * with the first round key, and the last round key and the offset are
 * XORed together, off the blocks' chains; the checksum is summed in
 * the registers the data passes through.  Runs of eight start at
 * block counts that are multiples of eight; single blocks before and
 * after them.  The P and the offsets are key material; like the round
 * keys the compiler spills, what of them reaches the stack is left
 * for the handles to burn (sf_burn_key_traces).
 */

/* L_ntz(N), N not 0.  */
ARMCE_INLINE uint8x16_t
ocb_l (const unsigned char *l, uint64_t n)
{
  return vld1q_u8 (l + AES_BLOCKSIZE * __builtin_ctzll (n));
}

ARMCE_INLINE void
ocb_rounds (const armce_context_t *ctx, unsigned int rounds, int encrypting,
            unsigned char *out, const unsigned char *in, size_t nblocks,
            uint64_t done, unsigned char *offset_p, unsigned char *sum_p,
            const unsigned char *l)
{
  ROUND_KEYS_ (encrypting ? ctx->enc_keys : ctx->dec_keys);
  uint8x16_t b0, b1, b2, b3, b4, b5, b6, b7, x, q7, last;
  uint8x16_t offset = vld1q_u8 (offset_p), sum = vld1q_u8 (sum_p);
  /* Q_i = P_(i+1) for i < 7, spelt out as XORs of L_0, L_1 and L_2;
   * Q_7 comes with each run.  Named rather than an array, so that they
   * may stay in registers.  */
  const uint8x16_t l0 = vld1q_u8 (l), l1 = vld1q_u8 (l + AES_BLOCKSIZE);
  const uint8x16_t l2 = vld1q_u8 (l + 2 * AES_BLOCKSIZE);
  const uint8x16_t q0 = l0, q1 = veorq_u8 (l0, l1), q2 = l1;
  const uint8x16_t q3 = veorq_u8 (l1, l2), q4 = veorq_u8 (q1, l2);
  const uint8x16_t q5 = veorq_u8 (l0, l2), q6 = l2;

  while (nblocks)
    {
      if (done % 8 || nblocks < 8)
        {
          offset = veorq_u8 (offset, ocb_l (l, done + 1));
          x = vld1q_u8 (in);
          if (encrypting)
            sum = veorq_u8 (sum, x);
          x = veorq_u8 (x, offset);
          if (encrypting)
            AES_ROUNDS_ (k0, ENC1_, ENC1_FINAL_);
          else
            AES_ROUNDS_ (k0, DEC1_, DEC1_FINAL_);
          x = veorq_u8 (x, veorq_u8 (klast, offset));
          if (!encrypting)
            sum = veorq_u8 (sum, x);
          vst1q_u8 (out, x);
          nblocks--;
          done++;
          in += AES_BLOCKSIZE;
          out += AES_BLOCKSIZE;
          continue;
        }
      q7 = veorq_u8 (q6, ocb_l (l, done + 8));
      /* Block i goes in with Offset ^ Q_i and comes out with that and
       * KLAST.  */
      last = veorq_u8 (offset, klast);
#define OCB_IN_(i)                                                      \
      b ## i = vld1q_u8 (in + i * AES_BLOCKSIZE);                       \
      if (encrypting)                                                   \
        sum = veorq_u8 (sum, b ## i);                                   \
      b ## i = veorq_u8 (b ## i, veorq_u8 (offset, q ## i))
#define OCB_OUT_(i)                                                     \
      b ## i = veorq_u8 (b ## i, veorq_u8 (last, q ## i));              \
      if (!encrypting)                                                  \
        sum = veorq_u8 (sum, b ## i);                                   \
      vst1q_u8 (out + i * AES_BLOCKSIZE, b ## i)
      FOR_EIGHT (OCB_IN_);
      if (encrypting)
        AES_ROUNDS_ (k0, ENC8_, ENC8_FINAL_);
      else
        AES_ROUNDS_ (k0, DEC8_, DEC8_FINAL_);
      FOR_EIGHT (OCB_OUT_);
#undef OCB_IN_
#undef OCB_OUT_
      offset = veorq_u8 (offset, q7);
      nblocks -= 8;
      done += 8;
      in += 8 * AES_BLOCKSIZE;
      out += 8 * AES_BLOCKSIZE;
    }
  vst1q_u8 (offset_p, offset);
  vst1q_u8 (sum_p, sum);
}

ARMCE_TARGET static void
armce_ocb_enc (const void *ctx_arg, unsigned char *out,
               const unsigned char *in, size_t nblocks, uint64_t blocks_done,
               unsigned char offset[16], unsigned char checksum[16],
               const unsigned char l[64 * 16])
{
  const armce_context_t *ctx = ctx_arg;

  BY_ROUNDS_ (ocb_rounds, ctx, 1, out, in, nblocks, blocks_done, offset,
              checksum, l);
}

ARMCE_TARGET static void
armce_ocb_dec (const void *ctx_arg, unsigned char *out,
               const unsigned char *in, size_t nblocks, uint64_t blocks_done,
               unsigned char offset[16], unsigned char checksum[16],
               const unsigned char l[64 * 16])
{
  const armce_context_t *ctx = ctx_arg;

  BY_ROUNDS_ (ocb_rounds, ctx, 0, out, in, nblocks, blocks_done, offset,
              checksum, l);
}

/* The AES instructions are all it needs: the spec's own HWF and
 * USABLE cover it.  */
static const sf_ocb_t armce_ocb =
  {
    .hwf = NULL,
    .usable = NULL,
    .enc = armce_ocb_enc,
    .dec = armce_ocb_dec
  };

/*
 * CFB stitched with SHA-1 (sfcipher.h, sf_cfb_sha1_t), the SHA-1
 * rounds coming from sha1-armce-rounds.h.
 *
 * CFB encryption is one chain of dependent AES rounds and SHA-1 one
 * of dependent four-round steps (SHA1C, SHA1P or SHA1M, with SHA1H
 * for the next e); each leaves the core idle most of the time, so the
 * encryption kernel runs, per 64 bytes, the four chained AES blocks
 * with the twenty SHA-1 steps of the same plaintext placed between
 * their rounds, five per block after every other round, and both
 * chains are always in flight.  In decryption the AES blocks are
 * independent: four go through the rounds together, with the steps
 * of the 64 bytes of plaintext the previous four produced placed two
 * after each round, so that an in-order core overlaps them too; the
 * last 64 bytes are hashed after the loop.
 */

#define FOR_FOUR(OP) do { OP (0); OP (1); OP (2); OP (3); } while (0)
#define ENC4_(k)                                                        \
  do                                                                    \
    {                                                                   \
      const uint8x16_t rk_ = (k);                                       \
      FOR_FOUR (AESE_MC_);                                              \
    }                                                                   \
  while (0)
#define ENC4_FINAL_(k)                                                  \
  do                                                                    \
    {                                                                   \
      const uint8x16_t rk_ = (k);                                       \
      FOR_FOUR (AESE_);                                                 \
    }                                                                   \
  while (0)

/* Block J of the CFB encryption chain of cfb_enc_rounds, from the 64
 * bytes of plaintext at IN to the ciphertext at OUT, with the SHA-1
 * steps S0 .. S4 after every other round.  The plaintext is read
 * again for the XOR, which may be after stores to the blocks before
 * it (in place), never to its own.  */
#define CFB_ENC_BLOCK_SHA1_(j, s0, s1, s2, s3, s4)                      \
  do                                                                    \
    {                                                                   \
      t = veorq_u8 (vld1q_u8 (in + (j) * AES_BLOCKSIZE), klast);        \
      ENC1_ (first);                                                    \
      s0;                                                               \
      ENC1_ (k1);                                                       \
      ENC1_ (k2);                                                       \
      s1;                                                               \
      ENC1_ (k3);                                                       \
      ENC1_ (k4);                                                       \
      s2;                                                               \
      ENC1_ (k5);                                                       \
      ENC1_ (k6);                                                       \
      s3;                                                               \
      ENC1_ (k7);                                                       \
      ENC1_ (k8);                                                       \
      s4;                                                               \
      if (rounds > 10)                                                  \
        {                                                               \
          ENC1_ (k9);                                                   \
          ENC1_ (k10);                                                  \
        }                                                               \
      if (rounds > 12)                                                  \
        {                                                               \
          ENC1_ (k11);                                                  \
          ENC1_ (k12);                                                  \
        }                                                               \
      ENC1_FINAL_ (kpen);                                               \
      c = veorq_u8 (x, t);                                              \
      vst1q_u8 (out + (j) * AES_BLOCKSIZE, c);                          \
      first = veorq_u8 (t, k0);                                         \
    }                                                                   \
  while (0)

ARMCE_INLINE void
cfb_enc_sha1_rounds (const armce_context_t *ctx, unsigned int rounds,
                     unsigned char *iv, unsigned char *out,
                     const unsigned char *in, size_t nblocks,
                     uint32_t state[5])
{
  ROUND_KEYS_ (ctx->enc_keys);
  uint8x16_t x = vld1q_u8 (iv), c = x, first = k0, t;
  SHA1_ARMCE_VARIABLES;

  SHA1_ARMCE_CFB_ENC_LOOP (4, CFB_ENC_BLOCK_SHA1_);
  vst1q_u8 (iv, c);
}

/* NBLOCKS is a multiple of four: whole SHA-1 blocks.  */
ARMCE_TARGET static void
armce_cfb_enc_sha1 (const void *ctx_arg, unsigned char *iv,
                    unsigned char *out, const unsigned char *in,
                    size_t nblocks, uint32_t state[5])
{
  const armce_context_t *ctx = ctx_arg;

  BY_ROUNDS_ (cfb_enc_sha1_rounds, ctx, iv, out, in, nblocks, state);
}

#define HASH_STEP_(n) SHA1_ARMCE_STEP_ ## n
#define NO_HASH_STEP_(n) ((void)0)

/* The last round key and the ciphertext into block I, stored, and
 * loaded as message words.  */
#define DEC_SHA1_LAST_(i)                                               \
  b ## i = veorq_u8 (b ## i,                                            \
                     veorq_u8 (klast, vld1q_u8 (in + i * AES_BLOCKSIZE))); \
  vst1q_u8 (out + i * AES_BLOCKSIZE, b ## i);                           \
  m ## i = sha1_armce_message (b ## i)

/* Four blocks of CFB decryption from IN to OUT, C holding the
 * ciphertext before them, with STEP (0) .. STEP (19) placed two after
 * each of the first nine rounds and the last AESE; then the plaintext
 * as the message words M0 .. M3 of the next SHA-1 block.  As in
 * cfb_dec_rounds, the ciphertext is read again, before the store that
 * may overwrite it, for the XOR.  */
#define CFB_DEC_FOUR_SHA1_(step)                                        \
  do                                                                    \
    {                                                                   \
      b0 = c;                                                           \
      b1 = vld1q_u8 (in);                                               \
      b2 = vld1q_u8 (in + AES_BLOCKSIZE);                               \
      b3 = vld1q_u8 (in + 2 * AES_BLOCKSIZE);                           \
      c = vld1q_u8 (in + 3 * AES_BLOCKSIZE);                            \
      ENC4_ (k0); step (0); step (1);                                   \
      ENC4_ (k1); step (2); step (3);                                   \
      ENC4_ (k2); step (4); step (5);                                   \
      ENC4_ (k3); step (6); step (7);                                   \
      ENC4_ (k4); step (8); step (9);                                   \
      ENC4_ (k5); step (10); step (11);                                 \
      ENC4_ (k6); step (12); step (13);                                 \
      ENC4_ (k7); step (14); step (15);                                 \
      ENC4_ (k8); step (16); step (17);                                 \
      if (rounds > 10)                                                  \
        {                                                               \
          ENC4_ (k9);                                                   \
          ENC4_ (k10);                                                  \
        }                                                               \
      if (rounds > 12)                                                  \
        {                                                               \
          ENC4_ (k11);                                                  \
          ENC4_ (k12);                                                  \
        }                                                               \
      ENC4_FINAL_ (kpen); step (18); step (19);                         \
      FOR_FOUR (DEC_SHA1_LAST_);                                        \
    }                                                                   \
  while (0)

ARMCE_INLINE void
cfb_dec_sha1_rounds (const armce_context_t *ctx, unsigned int rounds,
                     unsigned char *iv, unsigned char *out,
                     const unsigned char *in, size_t nblocks,
                     uint32_t state[5])
{
  ROUND_KEYS_ (ctx->enc_keys);
  uint8x16_t b0, b1, b2, b3, c = vld1q_u8 (iv);
  SHA1_ARMCE_VARIABLES;

  SHA1_ARMCE_LOAD_STATE (state);
  CFB_DEC_FOUR_SHA1_ (NO_HASH_STEP_);
  for (nblocks -= 4; nblocks; nblocks -= 4)
    {
      in += 4 * AES_BLOCKSIZE;
      out += 4 * AES_BLOCKSIZE;
      SHA1_ARMCE_BEGIN_BLOCK;
      CFB_DEC_FOUR_SHA1_ (HASH_STEP_);
      SHA1_ARMCE_END_BLOCK;
    }
  SHA1_ARMCE_BEGIN_BLOCK;
  SHA1_ARMCE_ALL_STEPS;
  SHA1_ARMCE_END_BLOCK;
  SHA1_ARMCE_STORE_STATE (state);
  vst1q_u8 (iv, c);
}

ARMCE_TARGET static void
armce_cfb_dec_sha1 (const void *ctx_arg, unsigned char *iv,
                    unsigned char *out, const unsigned char *in,
                    size_t nblocks, uint32_t state[5])
{
  const armce_context_t *ctx = ctx_arg;

  BY_ROUNDS_ (cfb_dec_sha1_rounds, ctx, iv, out, in, nblocks, state);
}

static const sf_cfb_sha1_t armce_cfb_sha1 =
  {
    .hwf = "arm-sha1",
    .usable = sha1_armce_cpu_usable,
    .enc = armce_cfb_enc_sha1,
    .dec = armce_cfb_dec_sha1
  };

#define ARMCE_CONTEXT_SIZE sizeof (armce_context_t)
#define ARMCE_FUNCS                                                     \
  .encrypt = armce_encrypt,                                             \
  .decrypt = armce_decrypt,                                             \
  .ecb_enc = armce_ecb_enc,                                             \
  .ecb_dec = armce_ecb_dec,                                             \
  .cbc_enc = armce_cbc_enc,                                             \
  .cbc_dec = armce_cbc_dec,                                             \
  .cfb_enc = armce_cfb_enc,                                             \
  .cfb_dec = armce_cfb_dec,                                             \
  .ofb = NULL,                                                          \
  .ctr = armce_ctr,                                                     \
  .cfb_sha1 = &armce_cfb_sha1,                                          \
  .ocb = &armce_ocb

#else /* Not little-endian AArch64 Linux with the intrinsics.  */

#include <stdlib.h>

/* No AES instructions to use: the specs exist but are never usable,
 * and setkey refuses every key.  */

static int
armce_usable (void)
{
  return 0;
}

static gpg_error_t
armce_setkey_unsupported (void *ctx, const unsigned char *key, size_t keylen)
{
  (void)ctx;
  (void)key;
  (void)keylen;
  return gpg_error (GPG_ERR_NOT_SUPPORTED);
}

/* Unreachable without a key; stop rather than return a block that is
 * not ciphertext.  */
static void
armce_crypt_unsupported (const void *ctx, unsigned char *out,
                         const unsigned char *in)
{
  (void)ctx;
  (void)out;
  (void)in;
  abort ();
}

/* Every key size is refused alike.  */
#define aes128_setkey armce_setkey_unsupported
#define aes192_setkey armce_setkey_unsupported
#define aes256_setkey armce_setkey_unsupported
#define ARMCE_CONTEXT_SIZE ((size_t)AES_BLOCKSIZE)
#define ARMCE_FUNCS                                                     \
  .encrypt = armce_crypt_unsupported,                                   \
  .decrypt = armce_crypt_unsupported

#endif /* Not little-endian AArch64 Linux with the intrinsics.  */


/*
 * Specs.
 */

#define RIJNDAEL_ARMCE_SPEC(NAME, ALIASES, ID, KEYLEN, SETKEY, KATS)     \
  {                                                                     \
    .abi_version = SF_ABI_VERSION,                                      \
    .name = NAME,                                                       \
    .aliases = ALIASES,                                                 \
    .openpgp_id = ID,                                                   \
    .blocksize = AES_BLOCKSIZE,                                         \
    .keylen = KEYLEN,                                                   \
    .contextsize = ARMCE_CONTEXT_SIZE,                                  \
    .impl = "armce",                                                    \
    .priority = SF_PRIO_ACCEL,                                          \
    .hwf = "arm-aes",                                                   \
    .usable = armce_usable,                                             \
    .setkey = SETKEY,                                                   \
    .release = NULL,                                                    \
    ARMCE_FUNCS,                                                        \
    .kats = KATS,                                                       \
    .n_kats = sizeof (KATS) / sizeof (KATS[0]),                         \
    /* No table in memory, no branch or address that depends on the     \
     * key or the data; Arm lists the AES instructions among those      \
     * whose timing PSTATE.DIT (Armv8.4) makes independent of their     \
     * operands, a bit this module does not set: the claim rests, as    \
     * for AES-NI, on the cores taking the same time for every input.   \
     */                                                                 \
    .timing = SF_TIMING_CONSTANT                                        \
  }

static const sf_cipher_spec_t sf_spec_aes128_armce =
  RIJNDAEL_ARMCE_SPEC ("AES", aes128_aliases, 7, 16, aes128_setkey,
                       aes128_kats);
static const sf_cipher_spec_t sf_spec_aes192_armce =
  RIJNDAEL_ARMCE_SPEC ("AES192", aes192_aliases, 8, 24, aes192_setkey,
                       aes192_kats);
static const sf_cipher_spec_t sf_spec_aes256_armce =
  RIJNDAEL_ARMCE_SPEC ("AES256", aes256_aliases, 9, 32, aes256_setkey,
                       aes256_kats);

SF_MODULE (rijndael_armce, &sf_spec_aes128_armce, &sf_spec_aes192_armce, &sf_spec_aes256_armce);
