/* sha1.c - SHA-1 (FIPS 180-4): the message interface, the choice of
 * implementation and the portable block function
 *
 * The block function follows FIPS 180-4 6.1.2 with the alternate
 * schedule of 6.1.3: the 80 words W_t live in a ring of 16, W_t
 * overwriting W_(t-16), so the schedule stays in one cache line.  The
 * 80 rounds are unrolled and the working variables a..e rotate by
 * renaming instead of by moves.
 *
 * Known answers: tests/t-sha1.c (NIST CAVP SHA1ShortMsg/SHA1LongMsg,
 * the FIPS 180-4 examples) and a differential test against libgcrypt.
 */
#include <config.h>

#include <stdatomic.h>
#include <string.h>

#include "libsfcipher.h"
#include "sha1.h"

static inline uint32_t
rol32 (uint32_t x, unsigned int n)
{
  return (x << n) | (x >> (32 - n));
}

static inline uint32_t
load_be32 (const unsigned char *p)
{
  return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16)
         | ((uint32_t)p[2] << 8) | (uint32_t)p[3];
}

static inline void
store_be32 (unsigned char *p, uint32_t x)
{
  p[0] = x >> 24;
  p[1] = x >> 16;
  p[2] = x >> 8;
  p[3] = x;
}


/*
 * The portable block function.
 */

/* FIPS 180-4 4.1.1, with Ch and Maj in forms that need one operation
 * fewer than the standard's.  */
#define CH(x, y, z) ((z) ^ ((x) & ((y) ^ (z))))
#define PARITY(x, y, z) ((x) ^ (y) ^ (z))
#define MAJ(x, y, z) (((x) & (y)) | ((z) & ((x) | (y))))

/* FIPS 180-4 4.2.1.  */
#define K0 0x5a827999
#define K1 0x6ed9eba1
#define K2 0x8f1bbcdc
#define K3 0xca62c1d6

/* W_t for round T, a constant: the loaded word for the first 16
 * rounds, then the schedule of FIPS 180-4 6.1.3 step 3.  */
#define W(t)                                                    \
  ((t) < 16 ? w[(t) & 15]                                       \
   : (w[(t) & 15] = rol32 (w[((t) + 13) & 15] ^ w[((t) + 8) & 15] \
                           ^ w[((t) + 2) & 15] ^ w[(t) & 15], 1)))

/* One round.  Instead of shifting a..e down, the caller renames them,
 * so only E (the new a) and B (rotated into the new c) change.  */
#define ROUND(a, b, c, d, e, f, k, t)                           \
  do                                                            \
    {                                                           \
      e += rol32 (a, 5) + f (b, c, d) + (k) + W (t);            \
      b = rol32 (b, 30);                                        \
    }                                                           \
  while (0)

/* Five rounds bring the names back to where they started.  */
#define ROUNDS5(f, k, t)                                        \
  ROUND (a, b, c, d, e, f, k, (t));                             \
  ROUND (e, a, b, c, d, f, k, (t) + 1);                         \
  ROUND (d, e, a, b, c, f, k, (t) + 2);                         \
  ROUND (c, d, e, a, b, f, k, (t) + 3);                         \
  ROUND (b, c, d, e, a, f, k, (t) + 4)

void
sf_sha1_blocks_ref (uint32_t state[5], const unsigned char *data,
                    size_t nblocks)
{
  uint32_t a, b, c, d, e;
  uint32_t w[16];
  int i;

  for (; nblocks; nblocks--, data += SF_SHA1_BLOCK_LEN)
    {
      for (i = 0; i < 16; i++)
        w[i] = load_be32 (data + 4 * i);
      a = state[0];
      b = state[1];
      c = state[2];
      d = state[3];
      e = state[4];

      ROUNDS5 (CH, K0, 0);
      ROUNDS5 (CH, K0, 5);
      ROUNDS5 (CH, K0, 10);
      ROUNDS5 (CH, K0, 15);
      ROUNDS5 (PARITY, K1, 20);
      ROUNDS5 (PARITY, K1, 25);
      ROUNDS5 (PARITY, K1, 30);
      ROUNDS5 (PARITY, K1, 35);
      ROUNDS5 (MAJ, K2, 40);
      ROUNDS5 (MAJ, K2, 45);
      ROUNDS5 (MAJ, K2, 50);
      ROUNDS5 (MAJ, K2, 55);
      ROUNDS5 (PARITY, K3, 60);
      ROUNDS5 (PARITY, K3, 65);
      ROUNDS5 (PARITY, K3, 70);
      ROUNDS5 (PARITY, K3, 75);

      state[0] += a;
      state[1] += b;
      state[2] += c;
      state[3] += d;
      state[4] += e;
    }
  /* The schedule is message material, the working variables a
   * function of it.  */
  sf_wipememory (w, sizeof w);
}


/*
 * The choice of implementation.
 */

/* Chosen on first use rather than at start-up, so that nothing needs
 * calling first.  Racing first callers compute and store the same
 * pointer; the atomic only keeps that from being a data race.  */
static _Atomic (sf_sha1_blocks_fn *) chosen_blocks;

static sf_sha1_blocks_fn *
choose_blocks (void)
{
  sf_sha1_blocks_fn *fn = atomic_load_explicit (&chosen_blocks,
                                                memory_order_relaxed);

  if (!fn)
    {
      if (!sf_hwf_disabled ("shani") && sf_sha1_shani_usable ())
        fn = sf_sha1_blocks_shani;
      else if (!sf_hwf_disabled ("arm-sha1") && sf_sha1_armce_usable ())
        fn = sf_sha1_blocks_armce;
      else
        fn = sf_sha1_blocks_ref;
      atomic_store_explicit (&chosen_blocks, fn, memory_order_relaxed);
    }
  return fn;
}

void
sf_sha1_blocks (uint32_t state[5], const unsigned char *data, size_t nblocks)
{
  choose_blocks () (state, data, nblocks);
}

const char *
sf_sha1_impl_name (void)
{
  sf_sha1_blocks_fn *fn = choose_blocks ();

  if (fn == sf_sha1_blocks_shani)
    return "shani";
  if (fn == sf_sha1_blocks_armce)
    return "armce";
  return "ref";
}


/*
 * Messages.
 */

void
sf_sha1_init_with (sf_sha1_t *ctx, sf_sha1_blocks_fn *blocks)
{
  /* FIPS 180-4 5.3.1.  */
  ctx->state[0] = 0x67452301;
  ctx->state[1] = 0xefcdab89;
  ctx->state[2] = 0x98badcfe;
  ctx->state[3] = 0x10325476;
  ctx->state[4] = 0xc3d2e1f0;
  ctx->total = 0;
  ctx->blocks = blocks;
}

void
sf_sha1_init (sf_sha1_t *ctx)
{
  sf_sha1_init_with (ctx, choose_blocks ());
}

void
sf_sha1_write (sf_sha1_t *ctx, const void *data, size_t len)
{
  const unsigned char *p = data;
  size_t used = ctx->total % SF_SHA1_BLOCK_LEN;

  if (!len)
    return;
  ctx->total += len;
  if (used)
    {
      size_t room = SF_SHA1_BLOCK_LEN - used;

      if (len < room)
        {
          memcpy (ctx->buffer + used, p, len);
          return;
        }
      memcpy (ctx->buffer + used, p, room);
      ctx->blocks (ctx->state, ctx->buffer, 1);
      p += room;
      len -= room;
    }
  if (len >= SF_SHA1_BLOCK_LEN)
    {
      /* Whole blocks straight from the caller's buffer, in one call so
       * that an accelerated implementation keeps its state in
       * registers across them.  */
      size_t nblocks = len / SF_SHA1_BLOCK_LEN;

      ctx->blocks (ctx->state, p, nblocks);
      p += nblocks * SF_SHA1_BLOCK_LEN;
      len -= nblocks * SF_SHA1_BLOCK_LEN;
    }
  if (len)
    memcpy (ctx->buffer, p, len);
}

void
sf_sha1_final (sf_sha1_t *ctx, unsigned char digest[SF_SHA1_DIGEST_LEN])
{
  size_t used = ctx->total % SF_SHA1_BLOCK_LEN;
  uint64_t bits = ctx->total << 3;
  int i;

  /* FIPS 180-4 5.1.1: a 1 bit, zeroes, the length in bits in the last
   * 64 bits of the last block.  */
  ctx->buffer[used++] = 0x80;
  if (used > SF_SHA1_BLOCK_LEN - 8)
    {
      memset (ctx->buffer + used, 0, SF_SHA1_BLOCK_LEN - used);
      ctx->blocks (ctx->state, ctx->buffer, 1);
      used = 0;
    }
  memset (ctx->buffer + used, 0, SF_SHA1_BLOCK_LEN - 8 - used);
  store_be32 (ctx->buffer + SF_SHA1_BLOCK_LEN - 8, (uint32_t)(bits >> 32));
  store_be32 (ctx->buffer + SF_SHA1_BLOCK_LEN - 4, (uint32_t)bits);
  ctx->blocks (ctx->state, ctx->buffer, 1);

  for (i = 0; i < 5; i++)
    store_be32 (digest + 4 * i, ctx->state[i]);
  sf_wipememory (ctx, sizeof *ctx);
}
