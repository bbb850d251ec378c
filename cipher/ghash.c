/* ghash.c - GHASH (NIST SP 800-38D 6.4): the choice of implementation
 * and the portable one
 *
 * The portable multiplication is constant-time, without tables.  The
 * usual 4-bit or 8-bit tables per key are faster in C, but they are
 * indexed by bits of Y ^ X, which depend on H: their cache footprint
 * tells an observer about H, and knowing H is enough to forge GCM tags
 * for that key.  Here no secret picks an address or a branch.
 *
 * A block B is read as the 128-bit big-endian number b, whose bit
 * 127 - i is the coefficient of x^i (the standard's reflected order).
 * For such numbers, the carry-less product of b and h is the field
 * product shifted right by one bit, so a multiplication is
 *   1. the 255-bit carry-less product of y and h, by Karatsuba from
 *      three 64 x 64-bit ones;
 *   2. a shift left by one bit, to 256 bits hi:lo, where lo holds the
 *      coefficients of x^128 and up;
 *   3. the reduction by x^128 = x^7 + x^2 + x + 1, which in this order
 *      is hi ^= lo ^ lo >> 1 ^ lo >> 2 ^ lo >> 7, after folding into lo
 *      the bits those shifts push below bit 0 (lo << 127, << 126,
 *      << 121).
 * A 64 x 64-bit carry-less product comes from integer multiplications
 * with holes: with the operands split into four sets of bits 4 apart,
 * each integer product sums at most 16 terms per bit position into
 * the 4-bit gap before the next one of its set, so no carry reaches a
 * bit that is kept (only bit 64, out of the word, can receive one).
 * That gives the low 64 bits; the high ones are the low ones of the
 * product of the bit-reversed operands, reversed.  This assumes a
 * 64-bit multiplication whose time does not depend on its operands,
 * as on x86-64 and ARMv8.
 */
#include <config.h>

#include <stdatomic.h>

#include "aead-internal.h"

/* Key words of this implementation.  */
enum
  {
    K_HI, K_LO, K_MID,          /* H's halves and their XOR.  */
    K_RHI, K_RLO, K_RMID        /* The same, bit-reversed.  */
  };

static inline uint64_t
load_be64 (const unsigned char *p)
{
  uint64_t x = 0;
  int i;

  for (i = 0; i < 8; i++)
    x = (x << 8) | p[i];
  return x;
}

static inline uint64_t
reverse_bits (uint64_t x)
{
  x = ((x >> 1) & 0x5555555555555555ULL) | ((x & 0x5555555555555555ULL) << 1);
  x = ((x >> 2) & 0x3333333333333333ULL) | ((x & 0x3333333333333333ULL) << 2);
  x = ((x >> 4) & 0x0f0f0f0f0f0f0f0fULL) | ((x & 0x0f0f0f0f0f0f0f0fULL) << 4);
  x = ((x >> 8) & 0x00ff00ff00ff00ffULL) | ((x & 0x00ff00ff00ff00ffULL) << 8);
  x = ((x >> 16) & 0x0000ffff0000ffffULL) | ((x & 0x0000ffff0000ffffULL) << 16);
  return (x >> 32) | (x << 32);
}

/* The low 64 bits of the carry-less product of X and Y.  */
static inline uint64_t
clmul_low (uint64_t x, uint64_t y)
{
  const uint64_t m0 = 0x1111111111111111ULL, m1 = m0 << 1;
  const uint64_t m2 = m0 << 2, m3 = m0 << 3;
  uint64_t x0 = x & m0, x1 = x & m1, x2 = x & m2, x3 = x & m3;
  uint64_t y0 = y & m0, y1 = y & m1, y2 = y & m2, y3 = y & m3;
  /* Product of sets i and j lands in set (i + j) mod 4.  */
  uint64_t z0 = (x0 * y0) ^ (x1 * y3) ^ (x2 * y2) ^ (x3 * y1);
  uint64_t z1 = (x0 * y1) ^ (x1 * y0) ^ (x2 * y3) ^ (x3 * y2);
  uint64_t z2 = (x0 * y2) ^ (x1 * y1) ^ (x2 * y0) ^ (x3 * y3);
  uint64_t z3 = (x0 * y3) ^ (x1 * y2) ^ (x2 * y1) ^ (x3 * y0);

  return (z0 & m0) | (z1 & m1) | (z2 & m2) | (z3 & m3);
}

/* The 127-bit carry-less product of X and Y in *HI:*LO; RX and RY are
 * X and Y bit-reversed.  */
static inline void
clmul64 (uint64_t x, uint64_t y, uint64_t rx, uint64_t ry,
         uint64_t *hi, uint64_t *lo)
{
  *lo = clmul_low (x, y);
  *hi = reverse_bits (clmul_low (rx, ry)) >> 1;
}

/* Y1:Y0 = Y1:Y0 * H, both as big-endian halves.  */
static inline void
gf_mul (uint64_t *y1, uint64_t *y0, const uint64_t *k)
{
  uint64_t x1 = *y1, x0 = *y0, xm = x1 ^ x0;
  uint64_t hh, hl, lh, ll, mh, ml, p3, p2, p1, p0, fold;

  clmul64 (x1, k[K_HI], reverse_bits (x1), k[K_RHI], &hh, &hl);
  clmul64 (x0, k[K_LO], reverse_bits (x0), k[K_RLO], &lh, &ll);
  clmul64 (xm, k[K_MID], reverse_bits (xm), k[K_RMID], &mh, &ml);
  mh ^= hh ^ lh;
  ml ^= hl ^ ll;

  /* The product p3:p2:p1:p0, shifted left by one bit.  */
  p3 = (hh << 1) | ((hl ^ mh) >> 63);
  p2 = ((hl ^ mh) << 1) | ((lh ^ ml) >> 63);
  p1 = ((lh ^ ml) << 1) | (ll >> 63);
  p0 = ll << 1;

  /* lo = p1:p0 with lo << 127, << 126, << 121 folded in (they reach
   * p1 only), then hi ^= lo ^ lo >> 1 ^ lo >> 2 ^ lo >> 7.  */
  p1 ^= (p0 << 63) ^ (p0 << 62) ^ (p0 << 57);
  fold = p0 ^ (p0 >> 1) ^ (p0 >> 2) ^ (p0 >> 7)
         ^ (p1 << 63) ^ (p1 << 62) ^ (p1 << 57);
  *y1 = p3 ^ p1 ^ (p1 >> 1) ^ (p1 >> 2) ^ (p1 >> 7);
  *y0 = p2 ^ fold;
}

static void
ghash_blocks_ref (const sf_ghash_key_t *key, unsigned char y[AEAD_BLOCK],
                  const unsigned char *data, size_t nblocks)
{
  uint64_t y1 = load_be64 (y), y0 = load_be64 (y + 8);

  for (; nblocks; nblocks--, data += AEAD_BLOCK)
    {
      y1 ^= load_be64 (data);
      y0 ^= load_be64 (data + 8);
      gf_mul (&y1, &y0, key->words);
    }
  aead_store_be64 (y, y1);
  aead_store_be64 (y + 8, y0);
}

void
sf_ghash_setkey_ref (sf_ghash_key_t *key, const unsigned char h[AEAD_BLOCK])
{
  uint64_t *k = key->words;

  memset (key->words, 0, sizeof key->words);
  k[K_HI] = load_be64 (h);
  k[K_LO] = load_be64 (h + 8);
  k[K_MID] = k[K_HI] ^ k[K_LO];
  k[K_RHI] = reverse_bits (k[K_HI]);
  k[K_RLO] = reverse_bits (k[K_LO]);
  k[K_RMID] = reverse_bits (k[K_MID]);
  key->blocks = ghash_blocks_ref;
}


/*
 * The choice, made on first use as sha1.c makes its own.
 */

enum
  {
    CHOICE_UNKNOWN, CHOICE_REF, CHOICE_PCLMUL, CHOICE_VPCLMUL, CHOICE_PMULL
  };

static _Atomic int chosen;

static int
choice (void)
{
  int c = atomic_load_explicit (&chosen, memory_order_relaxed);

  if (c == CHOICE_UNKNOWN)
    {
      /* VPCLMULQDQ is the same instruction on wider registers: turning
       * off "pclmul" turns it off too.  */
      if (!sf_hwf_disabled ("pclmul") && sf_ghash_pclmul_usable ())
        c = !sf_hwf_disabled ("vpclmul") && sf_ghash_vpclmul_usable ()
            ? CHOICE_VPCLMUL : CHOICE_PCLMUL;
      else if (!sf_hwf_disabled ("arm-pmull") && sf_ghash_pmull_usable ())
        c = CHOICE_PMULL;
      else
        c = CHOICE_REF;
      atomic_store_explicit (&chosen, c, memory_order_relaxed);
    }
  return c;
}

void
sf_ghash_setkey (sf_ghash_key_t *key, const unsigned char h[AEAD_BLOCK])
{
  switch (choice ())
    {
    case CHOICE_VPCLMUL:
      sf_ghash_setkey_vpclmul (key, h);
      break;
    case CHOICE_PCLMUL:
      sf_ghash_setkey_pclmul (key, h);
      break;
    case CHOICE_PMULL:
      sf_ghash_setkey_pmull (key, h);
      break;
    default:
      sf_ghash_setkey_ref (key, h);
      break;
    }
}

const char *
sf_ghash_impl_name (void)
{
  switch (choice ())
    {
    case CHOICE_VPCLMUL: return "vpclmul";
    case CHOICE_PCLMUL: return "pclmul";
    case CHOICE_PMULL: return "pmull";
    default: return "ref";
    }
}
