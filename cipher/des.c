/* des.c - Triple DES (TDEA), three-key EDE, portable C
 *
 * The Triple Data Encryption Algorithm of NIST SP 800-67 Rev. 2
 * (2017), keying option 1 (three independent keys), built on the Data
 * Encryption Standard of FIPS 46-3 (1999): a block is encrypted as
 * E(K3, D(K2, E(K1, P))).  It is the OpenPGP algorithm TripleDES
 * (id 2) of RFC 4880 9.2, with a 24-byte key K1 || K2 || K3.  The
 * parity bits of the key are ignored, and weak or semi-weak DES keys
 * are accepted: the NIST validation tables use them, and libgcrypt's
 * refusal of some of them is a policy, not part of the algorithm.
 *
 * Speed comes from the usual table formulation of the DES round:
 *
 *   - The eight S-boxes are merged with the permutation P into eight
 *     tables (SP below), so a round is eight look-ups combined with
 *     XOR.
 *
 *   - The expansion E is never computed.  Its eight 6-bit groups start
 *     every 4 bits of R, so with R rotated right by one bit the odd
 *     groups (S1, S3, S5, S7) sit in bits 31..26, 23..18, 15..10 and
 *     7..2 of R, and the even groups (S8, S2, S4, S6) in the same
 *     places of R rotated right by four more bits.  The round keys are
 *     stored as two words in exactly that layout, so after the XOR
 *     with the key each byte of the two words indexes one SP table
 *     directly; the two low bits of each byte belong to neighbouring
 *     groups, which is why every SP entry is stored four times
 *     (8 x 256 words, 8 KiB).  Measured against masking the index
 *     into 64-entry tables, this saves two instructions per round and
 *     gains about 4% in CFB encryption and 17% in the parallel modes.
 *     Both halves stay rotated from the initial permutation to the
 *     final one, and the SP entries are rotated to match.
 *
 *   - The initial and final permutations (IP, IP^-1), done as five
 *     delta swaps, are applied once per triple encryption: between the
 *     three DES passes IP^-1 followed by IP cancels out, leaving only
 *     the exchange of the halves.
 *
 *   - CFB, CBC and OFB encryption are serial, so the chaining value is
 *     kept in the permuted domain: IP and IP^-1 are linear, which moves
 *     them off the chain of dependent rounds (IP (C) = IP (P) ^ the raw
 *     output of the rounds).  The parallel modes run three blocks
 *     interleaved so the CPU overlaps their rounds.
 *
 * The tables were computed from the S-boxes and the permutation P of
 * FIPS 46-3; PC-1, PC-2 and the rotation schedule are those of FIPS
 * 46-3 as well.
 *
 * Known answers: the three-key TDEA example of NIST SP 800-67
 * (Appendix B of the 2004 edition and of Rev. 1); NIST CAVP
 * tdesmmt.zip, TECBMMT3.rsp; NIST CAVP KAT_TDES.zip with K1 = K2 = K3,
 * which are the single-DES tables of NIST SP 800-20.
 */

#include <config.h>

#include <stdint.h>
#include <stddef.h>
#include <string.h>

#include "sfcipher.h"
#include "sha1-shani-rounds.h"

#define TDES_BLOCKSIZE 8
#define TDES_KEYLEN 24
#define TDES_ROUNDS 48

typedef struct
{
  /* Round keys, two words per round, in the order the rounds use
   * them: for encryption K1 forward, K2 backward, K3 forward; for
   * decryption K3 backward, K2 forward, K1 backward.  */
  uint32_t enc_keys[2 * TDES_ROUNDS];
  uint32_t dec_keys[2 * TDES_ROUNDS];
} tdes_context_t;

/* S1..S8 of FIPS 46-3 followed by P, one table per S-box.  Index: a
 * byte whose six high bits are the S-box input; its two low bits do
 * not matter, so each of the 64 entries is stored four times (X4).
 * Entry: P applied to the S-box output in its place, as a word with
 * DES bit 1 in the top bit, rotated right by one bit to match the
 * rotated halves.  The entries of different S-boxes have no bit in
 * common.  */
#define X4(w) w, w, w, w
static const uint32_t sp[8][256] =
  {
    {
      X4 (0x00404100), X4 (0x00000000), X4 (0x00004000), X4 (0x00404101),
      X4 (0x00404001), X4 (0x00004101), X4 (0x00000001), X4 (0x00004000),
      X4 (0x00000100), X4 (0x00404100), X4 (0x00404101), X4 (0x00000100),
      X4 (0x00400101), X4 (0x00404001), X4 (0x00400000), X4 (0x00000001),
      X4 (0x00000101), X4 (0x00400100), X4 (0x00400100), X4 (0x00004100),
      X4 (0x00004100), X4 (0x00404000), X4 (0x00404000), X4 (0x00400101),
      X4 (0x00004001), X4 (0x00400001), X4 (0x00400001), X4 (0x00004001),
      X4 (0x00000000), X4 (0x00000101), X4 (0x00004101), X4 (0x00400000),
      X4 (0x00004000), X4 (0x00404101), X4 (0x00000001), X4 (0x00404000),
      X4 (0x00404100), X4 (0x00400000), X4 (0x00400000), X4 (0x00000100),
      X4 (0x00404001), X4 (0x00004000), X4 (0x00004100), X4 (0x00400001),
      X4 (0x00000100), X4 (0x00000001), X4 (0x00400101), X4 (0x00004101),
      X4 (0x00404101), X4 (0x00004001), X4 (0x00404000), X4 (0x00400101),
      X4 (0x00400001), X4 (0x00000101), X4 (0x00004101), X4 (0x00404100),
      X4 (0x00000101), X4 (0x00400100), X4 (0x00400100), X4 (0x00000000),
      X4 (0x00004001), X4 (0x00004100), X4 (0x00000000), X4 (0x00404001)
    },
    {
      X4 (0x20042008), X4 (0x20002000), X4 (0x00002000), X4 (0x00042008),
      X4 (0x00040000), X4 (0x00000008), X4 (0x20040008), X4 (0x20002008),
      X4 (0x20000008), X4 (0x20042008), X4 (0x20042000), X4 (0x20000000),
      X4 (0x20002000), X4 (0x00040000), X4 (0x00000008), X4 (0x20040008),
      X4 (0x00042000), X4 (0x00040008), X4 (0x20002008), X4 (0x00000000),
      X4 (0x20000000), X4 (0x00002000), X4 (0x00042008), X4 (0x20040000),
      X4 (0x00040008), X4 (0x20000008), X4 (0x00000000), X4 (0x00042000),
      X4 (0x00002008), X4 (0x20042000), X4 (0x20040000), X4 (0x00002008),
      X4 (0x00000000), X4 (0x00042008), X4 (0x20040008), X4 (0x00040000),
      X4 (0x20002008), X4 (0x20040000), X4 (0x20042000), X4 (0x00002000),
      X4 (0x20040000), X4 (0x20002000), X4 (0x00000008), X4 (0x20042008),
      X4 (0x00042008), X4 (0x00000008), X4 (0x00002000), X4 (0x20000000),
      X4 (0x00002008), X4 (0x20042000), X4 (0x00040000), X4 (0x20000008),
      X4 (0x00040008), X4 (0x20002008), X4 (0x20000008), X4 (0x00040008),
      X4 (0x00042000), X4 (0x00000000), X4 (0x20002000), X4 (0x00002008),
      X4 (0x20000000), X4 (0x20040008), X4 (0x20042008), X4 (0x00042000)
    },
    {
      X4 (0x00000082), X4 (0x02008080), X4 (0x00000000), X4 (0x02008002),
      X4 (0x02000080), X4 (0x00000000), X4 (0x00008082), X4 (0x02000080),
      X4 (0x00008002), X4 (0x02000002), X4 (0x02000002), X4 (0x00008000),
      X4 (0x02008082), X4 (0x00008002), X4 (0x02008000), X4 (0x00000082),
      X4 (0x02000000), X4 (0x00000002), X4 (0x02008080), X4 (0x00000080),
      X4 (0x00008080), X4 (0x02008000), X4 (0x02008002), X4 (0x00008082),
      X4 (0x02000082), X4 (0x00008080), X4 (0x00008000), X4 (0x02000082),
      X4 (0x00000002), X4 (0x02008082), X4 (0x00000080), X4 (0x02000000),
      X4 (0x02008080), X4 (0x02000000), X4 (0x00008002), X4 (0x00000082),
      X4 (0x00008000), X4 (0x02008080), X4 (0x02000080), X4 (0x00000000),
      X4 (0x00000080), X4 (0x00008002), X4 (0x02008082), X4 (0x02000080),
      X4 (0x02000002), X4 (0x00000080), X4 (0x00000000), X4 (0x02008002),
      X4 (0x02000082), X4 (0x00008000), X4 (0x02000000), X4 (0x02008082),
      X4 (0x00000002), X4 (0x00008082), X4 (0x00008080), X4 (0x02000002),
      X4 (0x02008000), X4 (0x02000082), X4 (0x00000082), X4 (0x02008000),
      X4 (0x00008082), X4 (0x00000002), X4 (0x02008002), X4 (0x00008080)
    },
    {
      X4 (0x40200800), X4 (0x40000820), X4 (0x40000820), X4 (0x00000020),
      X4 (0x00200820), X4 (0x40200020), X4 (0x40200000), X4 (0x40000800),
      X4 (0x00000000), X4 (0x00200800), X4 (0x00200800), X4 (0x40200820),
      X4 (0x40000020), X4 (0x00000000), X4 (0x00200020), X4 (0x40200000),
      X4 (0x40000000), X4 (0x00000800), X4 (0x00200000), X4 (0x40200800),
      X4 (0x00000020), X4 (0x00200000), X4 (0x40000800), X4 (0x00000820),
      X4 (0x40200020), X4 (0x40000000), X4 (0x00000820), X4 (0x00200020),
      X4 (0x00000800), X4 (0x00200820), X4 (0x40200820), X4 (0x40000020),
      X4 (0x00200020), X4 (0x40200000), X4 (0x00200800), X4 (0x40200820),
      X4 (0x40000020), X4 (0x00000000), X4 (0x00000000), X4 (0x00200800),
      X4 (0x00000820), X4 (0x00200020), X4 (0x40200020), X4 (0x40000000),
      X4 (0x40200800), X4 (0x40000820), X4 (0x40000820), X4 (0x00000020),
      X4 (0x40200820), X4 (0x40000020), X4 (0x40000000), X4 (0x00000800),
      X4 (0x40200000), X4 (0x40000800), X4 (0x00200820), X4 (0x40200020),
      X4 (0x40000800), X4 (0x00000820), X4 (0x00200000), X4 (0x40200800),
      X4 (0x00000020), X4 (0x00200000), X4 (0x00000800), X4 (0x00200820)
    },
    {
      X4 (0x00000040), X4 (0x00820040), X4 (0x00820000), X4 (0x10800040),
      X4 (0x00020000), X4 (0x00000040), X4 (0x10000000), X4 (0x00820000),
      X4 (0x10020040), X4 (0x00020000), X4 (0x00800040), X4 (0x10020040),
      X4 (0x10800040), X4 (0x10820000), X4 (0x00020040), X4 (0x10000000),
      X4 (0x00800000), X4 (0x10020000), X4 (0x10020000), X4 (0x00000000),
      X4 (0x10000040), X4 (0x10820040), X4 (0x10820040), X4 (0x00800040),
      X4 (0x10820000), X4 (0x10000040), X4 (0x00000000), X4 (0x10800000),
      X4 (0x00820040), X4 (0x00800000), X4 (0x10800000), X4 (0x00020040),
      X4 (0x00020000), X4 (0x10800040), X4 (0x00000040), X4 (0x00800000),
      X4 (0x10000000), X4 (0x00820000), X4 (0x10800040), X4 (0x10020040),
      X4 (0x00800040), X4 (0x10000000), X4 (0x10820000), X4 (0x00820040),
      X4 (0x10020040), X4 (0x00000040), X4 (0x00800000), X4 (0x10820000),
      X4 (0x10820040), X4 (0x00020040), X4 (0x10800000), X4 (0x10820040),
      X4 (0x00820000), X4 (0x00000000), X4 (0x10020000), X4 (0x10800000),
      X4 (0x00020040), X4 (0x00800040), X4 (0x10000040), X4 (0x00020000),
      X4 (0x00000000), X4 (0x10020000), X4 (0x00820040), X4 (0x10000040)
    },
    {
      X4 (0x08000004), X4 (0x08100000), X4 (0x00001000), X4 (0x08101004),
      X4 (0x08100000), X4 (0x00000004), X4 (0x08101004), X4 (0x00100000),
      X4 (0x08001000), X4 (0x00101004), X4 (0x00100000), X4 (0x08000004),
      X4 (0x00100004), X4 (0x08001000), X4 (0x08000000), X4 (0x00001004),
      X4 (0x00000000), X4 (0x00100004), X4 (0x08001004), X4 (0x00001000),
      X4 (0x00101000), X4 (0x08001004), X4 (0x00000004), X4 (0x08100004),
      X4 (0x08100004), X4 (0x00000000), X4 (0x00101004), X4 (0x08101000),
      X4 (0x00001004), X4 (0x00101000), X4 (0x08101000), X4 (0x08000000),
      X4 (0x08001000), X4 (0x00000004), X4 (0x08100004), X4 (0x00101000),
      X4 (0x08101004), X4 (0x00100000), X4 (0x00001004), X4 (0x08000004),
      X4 (0x00100000), X4 (0x08001000), X4 (0x08000000), X4 (0x00001004),
      X4 (0x08000004), X4 (0x08101004), X4 (0x00101000), X4 (0x08100000),
      X4 (0x00101004), X4 (0x08101000), X4 (0x00000000), X4 (0x08100004),
      X4 (0x00000004), X4 (0x00001000), X4 (0x08100000), X4 (0x00101004),
      X4 (0x00001000), X4 (0x00100004), X4 (0x08001004), X4 (0x00000000),
      X4 (0x08101000), X4 (0x08000000), X4 (0x00100004), X4 (0x08001004)
    },
    {
      X4 (0x00080000), X4 (0x81080000), X4 (0x81000200), X4 (0x00000000),
      X4 (0x00000200), X4 (0x81000200), X4 (0x80080200), X4 (0x01080200),
      X4 (0x81080200), X4 (0x00080000), X4 (0x00000000), X4 (0x81000000),
      X4 (0x80000000), X4 (0x01000000), X4 (0x81080000), X4 (0x80000200),
      X4 (0x01000200), X4 (0x80080200), X4 (0x80080000), X4 (0x01000200),
      X4 (0x81000000), X4 (0x01080000), X4 (0x01080200), X4 (0x80080000),
      X4 (0x01080000), X4 (0x00000200), X4 (0x80000200), X4 (0x81080200),
      X4 (0x00080200), X4 (0x80000000), X4 (0x01000000), X4 (0x00080200),
      X4 (0x01000000), X4 (0x00080200), X4 (0x00080000), X4 (0x81000200),
      X4 (0x81000200), X4 (0x81080000), X4 (0x81080000), X4 (0x80000000),
      X4 (0x80080000), X4 (0x01000000), X4 (0x01000200), X4 (0x00080000),
      X4 (0x01080200), X4 (0x80000200), X4 (0x80080200), X4 (0x01080200),
      X4 (0x80000200), X4 (0x81000000), X4 (0x81080200), X4 (0x01080000),
      X4 (0x00080200), X4 (0x00000000), X4 (0x80000000), X4 (0x81080200),
      X4 (0x00000000), X4 (0x80080200), X4 (0x01080000), X4 (0x00000200),
      X4 (0x81000000), X4 (0x01000200), X4 (0x00000200), X4 (0x80080000)
    },
    {
      X4 (0x04000410), X4 (0x00000400), X4 (0x00010000), X4 (0x04010410),
      X4 (0x04000000), X4 (0x04000410), X4 (0x00000010), X4 (0x04000000),
      X4 (0x00010010), X4 (0x04010000), X4 (0x04010410), X4 (0x00010400),
      X4 (0x04010400), X4 (0x00010410), X4 (0x00000400), X4 (0x00000010),
      X4 (0x04010000), X4 (0x04000010), X4 (0x04000400), X4 (0x00000410),
      X4 (0x00010400), X4 (0x00010010), X4 (0x04010010), X4 (0x04010400),
      X4 (0x00000410), X4 (0x00000000), X4 (0x00000000), X4 (0x04010010),
      X4 (0x04000010), X4 (0x04000400), X4 (0x00010410), X4 (0x00010000),
      X4 (0x00010410), X4 (0x00010000), X4 (0x04010400), X4 (0x00000400),
      X4 (0x00000010), X4 (0x04010010), X4 (0x00000400), X4 (0x00010410),
      X4 (0x04000400), X4 (0x00000010), X4 (0x04000010), X4 (0x04010000),
      X4 (0x04010010), X4 (0x04000000), X4 (0x00010000), X4 (0x04000410),
      X4 (0x00000000), X4 (0x04010410), X4 (0x00010010), X4 (0x04000010),
      X4 (0x04010000), X4 (0x04000400), X4 (0x04000410), X4 (0x00000000),
      X4 (0x04010410), X4 (0x00010400), X4 (0x00010400), X4 (0x00000410),
      X4 (0x00000410), X4 (0x00010010), X4 (0x04000000), X4 (0x04010400)
    }
  };
#undef X4

/* FIPS 46-3 key schedule: permuted choice 1 (64 key bits to 56),
 * permuted choice 2 (56 to 48) and the left rotations of C and D
 * before each round.  Bit numbers count from 1 at the most significant
 * bit, as in the standard.  */
static const unsigned char pc1[56] =
  {
    57, 49, 41, 33, 25, 17,  9,  1, 58, 50, 42, 34, 26, 18,
    10,  2, 59, 51, 43, 35, 27, 19, 11,  3, 60, 52, 44, 36,
    63, 55, 47, 39, 31, 23, 15,  7, 62, 54, 46, 38, 30, 22,
    14,  6, 61, 53, 45, 37, 29, 21, 13,  5, 28, 20, 12,  4
  };

static const unsigned char pc2[48] =
  {
    14, 17, 11, 24,  1,  5,  3, 28, 15,  6, 21, 10,
    23, 19, 12,  4, 26,  8, 16,  7, 27, 20, 13,  2,
    41, 52, 31, 37, 47, 55, 30, 40, 51, 45, 33, 48,
    44, 49, 39, 56, 34, 53, 46, 42, 50, 36, 29, 32
  };

static const unsigned char key_rotations[16] =
  {
    1, 1, 2, 2, 2, 2, 2, 2, 1, 2, 2, 2, 2, 2, 2, 1
  };


static inline uint32_t
ror32 (uint32_t x, unsigned int n)
{
  return (x >> n) | (x << (32 - n));
}

static inline uint32_t
rol32 (uint32_t x, unsigned int n)
{
  return (x << n) | (x >> (32 - n));
}

/* Big-endian words at any alignment.  memcpy and a byte swap compile
 * to a load or store and a bswap; byte-wise shifts led GCC to merge
 * and spill the bytes of every output block.  */
static inline uint32_t
load_be32 (const unsigned char *p)
{
  uint32_t x;

  memcpy (&x, p, sizeof x);
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  x = __builtin_bswap32 (x);
#endif
  return x;
}

static inline void
store_be32 (unsigned char *p, uint32_t x)
{
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  x = __builtin_bswap32 (x);
#endif
  memcpy (p, &x, sizeof x);
}

/*
 * Key schedule.
 */

/* Compute the 16 round keys of the DES key KEY (8 bytes) into RK, two
 * words per round in the layout the round function uses (see the
 * header comment): S1, S3, S5, S7 key bits in the first word, S8, S2,
 * S4, S6 key bits in the second, each 6-bit group in bits 31..26,
 * 23..18, 15..10 and 7..2.  */
static void
des_key_schedule (const unsigned char *key, uint32_t *rk)
{
  struct
  {
    uint64_t key, cd, subkey;
    uint32_t c, d;
    unsigned int group[8];
  } w;
  int i, round;

  w.key = ((uint64_t) load_be32 (key) << 32) | load_be32 (key + 4);
  w.cd = 0;
  for (i = 0; i < 56; i++)
    w.cd = (w.cd << 1) | ((w.key >> (64 - pc1[i])) & 1);
  w.c = (uint32_t) (w.cd >> 28);
  w.d = (uint32_t) w.cd & 0x0fffffff;

  for (round = 0; round < 16; round++)
    {
      unsigned int n = key_rotations[round];

      w.c = ((w.c << n) | (w.c >> (28 - n))) & 0x0fffffff;
      w.d = ((w.d << n) | (w.d >> (28 - n))) & 0x0fffffff;
      w.cd = ((uint64_t) w.c << 28) | w.d;
      w.subkey = 0;
      for (i = 0; i < 48; i++)
        w.subkey = (w.subkey << 1) | ((w.cd >> (56 - pc2[i])) & 1);
      for (i = 0; i < 8; i++)
        w.group[i] = (unsigned int) (w.subkey >> (42 - 6 * i)) & 0x3f;

      rk[2 * round] = ((uint32_t) w.group[0] << 26)
                      | ((uint32_t) w.group[2] << 18)
                      | ((uint32_t) w.group[4] << 10)
                      | ((uint32_t) w.group[6] << 2);
      rk[2 * round + 1] = ((uint32_t) w.group[7] << 26)
                          | ((uint32_t) w.group[1] << 18)
                          | ((uint32_t) w.group[3] << 10)
                          | ((uint32_t) w.group[5] << 2);
    }

  sf_wipememory (&w, sizeof w);
}


static gpg_error_t
tdes_setkey (void *context, const unsigned char *key, size_t keylen)
{
  tdes_context_t *ctx = context;
  int round;

  if (keylen != TDES_KEYLEN)
    return gpg_error (GPG_ERR_INV_KEYLEN);

  /* Each key's forward schedule goes where one direction runs it
   * forward; the other direction gets it reversed.  */
  des_key_schedule (key, ctx->enc_keys);
  des_key_schedule (key + 8, ctx->dec_keys + 32);
  des_key_schedule (key + 16, ctx->enc_keys + 64);
  for (round = 0; round < TDES_ROUNDS; round++)
    {
      uint32_t *enc = ctx->enc_keys + 2 * round;
      uint32_t *dec = ctx->dec_keys + 2 * (TDES_ROUNDS - 1 - round);

      if (round / 16 == 1)
        memcpy (enc, dec, 2 * sizeof (uint32_t));
      else
        memcpy (dec, enc, 2 * sizeof (uint32_t));
    }
  return 0;
}


/*
 * The block function.
 */

/* Exchange the bits of B selected by MASK with the bits of A selected
 * by MASK << SHIFT.  */
#define DELTA_SWAP(a, b, shift, mask)                   \
  do                                                    \
    {                                                   \
      uint32_t t_ = (((a) >> (shift)) ^ (b)) & (mask);  \
      (b) ^= t_;                                        \
      (a) ^= t_ << (shift);                             \
    }                                                   \
  while (0)

/* IP of FIPS 46-3 on the block L || R (big-endian words), leaving both
 * halves rotated right by one bit for the rounds.  */
static inline void
initial_perm (uint32_t *pl, uint32_t *pr)
{
  uint32_t l = *pl, r = *pr;

  DELTA_SWAP (l, r, 4, 0x0f0f0f0f);
  DELTA_SWAP (l, r, 16, 0x0000ffff);
  DELTA_SWAP (r, l, 2, 0x33333333);
  DELTA_SWAP (r, l, 8, 0x00ff00ff);
  DELTA_SWAP (l, r, 1, 0x55555555);
  *pl = ror32 (l, 1);
  *pr = ror32 (r, 1);
}

/* IP^-1: the same delta swaps in reverse order, each its own
 * inverse.  */
static inline void
final_perm (uint32_t *pl, uint32_t *pr)
{
  uint32_t l = rol32 (*pl, 1), r = rol32 (*pr, 1);

  DELTA_SWAP (l, r, 1, 0x55555555);
  DELTA_SWAP (r, l, 8, 0x00ff00ff);
  DELTA_SWAP (r, l, 2, 0x33333333);
  DELTA_SWAP (l, r, 16, 0x0000ffff);
  DELTA_SWAP (l, r, 4, 0x0f0f0f0f);
  *pl = l;
  *pr = r;
}

/* Exchange the halves L and R.  */
#define SWAP_HALVES(l, r)                       \
  do                                            \
    {                                           \
      uint32_t t_ = (l);                        \
      (l) = (r);                                \
      (r) = t_;                                 \
    }                                           \
  while (0)

/* The SP lookups of one round, f(R, K) = SP_U (U) ^ SP_V (V), from
 * U = R ^ K[0] and V = ROR (R, 4) ^ K[1].  The SP entries have
 * disjoint bits, so | and ^ combine them alike; mixing the two keeps
 * these balanced trees, which GCC would otherwise reassociate into a
 * serial chain of XORs, a few percent slower where the rounds are a
 * chain of dependencies (CFB encryption).  */
#define SP_U(u)                                                         \
  ((sp[6][(u) & 0xff] | sp[4][((u) >> 8) & 0xff])                       \
   ^ (sp[2][((u) >> 16) & 0xff] | sp[0][(u) >> 24]))
#define SP_V(v)                                                         \
  ((sp[5][(v) & 0xff] | sp[3][((v) >> 8) & 0xff])                       \
   ^ (sp[1][((v) >> 16) & 0xff] | sp[7][(v) >> 24]))

/* One DES round: L ^= f(R, K), with K the two-word round key.  */
#define DES_ROUND(l, r, k)                                              \
  do                                                                    \
    {                                                                   \
      uint32_t u_ = (r) ^ (k)[0];                                       \
      uint32_t v_ = ror32 ((r), 4) ^ (k)[1];                            \
                                                                        \
      (l) ^= SP_U (u_) | SP_V (v_);                                     \
    }                                                                   \
  while (0)

/* The same round for one block alone, whose rounds are a chain: U and
 * V come in already made from R; the round updates L and makes the
 * next round's U and V from it, with the round key KN.  The key goes
 * into L before f is known, off the chain, and then the half of f
 * from U, which is ready first (V waits for a rotation), so that the
 * chain from one round's lookups to the next is SP_V's tree and one
 * XOR (and the ROR) instead of f's tree, the XOR into L and the
 * key's XOR: two cycles a round less.  ROL (KN[1], 4) moves the key
 * under the rotation.  */
#define DES_ROUND_CHAINED(l, u, v, kn)                                  \
  do                                                                    \
    {                                                                   \
      uint32_t fu_ = SP_U (u), fv_ = SP_V (v);                          \
      uint32_t next_u_ = ((l) ^ (kn)[0]) ^ fu_;                         \
      uint32_t next_v_ = ((l) ^ rol32 ((kn)[1], 4)) ^ fu_;              \
                                                                        \
      (l) ^= fu_ ^ fv_;                                                 \
      (u) = next_u_ ^ fv_;                                              \
      (v) = ror32 (next_v_ ^ fv_, 4);                                   \
    }                                                                   \
  while (0)

/* The 48 rounds of a triple encryption (KS = enc_keys) or decryption
 * (KS = dec_keys) on one block L, R in the permuted domain, with the
 * statements S0, S1 and S2 after the three passes (the stitched CFB
 * kernel puts its SHA-1 steps there).  L and R end in the order
 * IP^-1 takes them.  */
#define TDES_ROUNDS_WITH(ks, l, r, s0, s1, s2)                          \
  do                                                                    \
    {                                                                   \
      TDES_PASS_ (ks, l, r);                                            \
      s0;                                                               \
      TDES_PASS_ ((ks) + 32, l, r);                                     \
      s1;                                                               \
      TDES_PASS_ ((ks) + 64, l, r);                                     \
      s2;                                                               \
    }                                                                   \
  while (0)

/* One DES pass of TDES_ROUNDS_WITH with the round keys at PK.  */
#define TDES_PASS_(pk, l, r)                                            \
  do                                                                    \
    {                                                                   \
      const uint32_t *k_ = (pk);                                        \
      uint32_t u_ = (r) ^ k_[0], v_ = ror32 ((r), 4) ^ k_[1];           \
      int i_;                                                           \
                                                                        \
      for (i_ = 0; i_ < 28; i_ += 4)                                    \
        {                                                               \
          DES_ROUND_CHAINED (l, u_, v_, k_ + i_ + 2);                   \
          DES_ROUND_CHAINED (r, u_, v_, k_ + i_ + 4);                   \
        }                                                               \
      DES_ROUND_CHAINED (l, u_, v_, k_ + 30);                           \
      /* The pass's last round: the next pass starts from L as it       \
       * stands, so nothing is chained.  */                             \
      (r) ^= SP_U (u_) ^ SP_V (v_);                                     \
      /* The last DES round does not exchange the halves; the next      \
       * pass (or IP^-1) takes them exchanged.  */                      \
      SWAP_HALVES (l, r);                                               \
    }                                                                   \
  while (0)

#define NOTHING ((void)0)

static inline __attribute__ ((always_inline)) void
tdes_rounds (const uint32_t *ks, uint32_t *pl, uint32_t *pr)
{
  uint32_t l = *pl, r = *pr;

  TDES_ROUNDS_WITH (ks, l, r, NOTHING, NOTHING, NOTHING);
  *pl = l;
  *pr = r;
}

/* The same on three independent blocks B[0] || B[1], B[2] || B[3],
 * B[4] || B[5], interleaved.  */
static inline void
tdes_rounds3 (const uint32_t *ks, uint32_t *b)
{
  uint32_t l0 = b[0], r0 = b[1], l1 = b[2], r1 = b[3], l2 = b[4], r2 = b[5];
  int pass, i;

  for (pass = 0; pass < 3; pass++)
    {
      for (i = 0; i < 8; i++, ks += 4)
        {
          DES_ROUND (l0, r0, ks);
          DES_ROUND (l1, r1, ks);
          DES_ROUND (l2, r2, ks);
          DES_ROUND (r0, l0, ks + 2);
          DES_ROUND (r1, l1, ks + 2);
          DES_ROUND (r2, l2, ks + 2);
        }
      SWAP_HALVES (l0, r0);
      SWAP_HALVES (l1, r1);
      SWAP_HALVES (l2, r2);
    }
  b[0] = l0;
  b[1] = r0;
  b[2] = l1;
  b[3] = r1;
  b[4] = l2;
  b[5] = r2;
}

/* Load the block at IN into the permuted domain.  */
static inline void
load_block (const unsigned char *in, uint32_t *pl, uint32_t *pr)
{
  *pl = load_be32 (in);
  *pr = load_be32 (in + 4);
  initial_perm (pl, pr);
}

/* Store the block L || R of the permuted domain at OUT, XORed with
 * XL || XR.  */
static inline void
store_block (unsigned char *out, uint32_t l, uint32_t r,
             uint32_t xl, uint32_t xr)
{
  final_perm (&l, &r);
  store_be32 (out, l ^ xl);
  store_be32 (out + 4, r ^ xr);
}

static inline void
tdes_crypt (const uint32_t *ks, unsigned char *out, const unsigned char *in)
{
  uint32_t l, r;

  load_block (in, &l, &r);
  tdes_rounds (ks, &l, &r);
  store_block (out, l, r, 0, 0);
}

static void
tdes_encrypt (const void *context, unsigned char *out,
              const unsigned char *in)
{
  const tdes_context_t *ctx = context;

  tdes_crypt (ctx->enc_keys, out, in);
}

static void
tdes_decrypt (const void *context, unsigned char *out,
              const unsigned char *in)
{
  const tdes_context_t *ctx = context;

  tdes_crypt (ctx->dec_keys, out, in);
}


/*
 * Bulk functions.
 */

/* ECB with the round keys KS, three blocks at a time.  */
static inline void
tdes_ecb (const uint32_t *ks, unsigned char *out, const unsigned char *in,
          size_t nblocks)
{
  uint32_t b[6];

  for (; nblocks >= 3; nblocks -= 3, in += 24, out += 24)
    {
      load_block (in, &b[0], &b[1]);
      load_block (in + 8, &b[2], &b[3]);
      load_block (in + 16, &b[4], &b[5]);
      tdes_rounds3 (ks, b);
      store_block (out, b[0], b[1], 0, 0);
      store_block (out + 8, b[2], b[3], 0, 0);
      store_block (out + 16, b[4], b[5], 0, 0);
    }
  for (; nblocks; nblocks--, in += 8, out += 8)
    tdes_crypt (ks, out, in);
}

static void
tdes_ecb_enc (const void *context, unsigned char *out,
              const unsigned char *in, size_t nblocks)
{
  const tdes_context_t *ctx = context;

  tdes_ecb (ctx->enc_keys, out, in, nblocks);
}

static void
tdes_ecb_dec (const void *context, unsigned char *out,
              const unsigned char *in, size_t nblocks)
{
  const tdes_context_t *ctx = context;

  tdes_ecb (ctx->dec_keys, out, in, nblocks);
}

/* CBC encryption.  The chaining value stays in the permuted domain:
 * IP (C[i-1] ^ P[i]) = IP (C[i-1]) ^ IP (P[i]), and the rounds yield
 * IP (C[i]) directly.  */
static void
tdes_cbc_enc (const void *context, unsigned char *iv, unsigned char *out,
              const unsigned char *in, size_t nblocks)
{
  const tdes_context_t *ctx = context;
  uint32_t l, r, pl, pr;

  load_block (iv, &l, &r);
  for (; nblocks; nblocks--, in += 8, out += 8)
    {
      load_block (in, &pl, &pr);
      l ^= pl;
      r ^= pr;
      tdes_rounds (ctx->enc_keys, &l, &r);
      store_block (out, l, r, 0, 0);
    }
  store_block (iv, l, r, 0, 0);
}

/* CBC decryption, three blocks at a time.  The ciphertext is kept in
 * words before anything is written, so IN == OUT works.  */
static void
tdes_cbc_dec (const void *context, unsigned char *iv, unsigned char *out,
              const unsigned char *in, size_t nblocks)
{
  const tdes_context_t *ctx = context;
  uint32_t ivl = load_be32 (iv), ivr = load_be32 (iv + 4);
  uint32_t c[6], b[6];
  int i;

  for (; nblocks >= 3; nblocks -= 3, in += 24, out += 24)
    {
      for (i = 0; i < 6; i++)
        b[i] = c[i] = load_be32 (in + 4 * i);
      initial_perm (&b[0], &b[1]);
      initial_perm (&b[2], &b[3]);
      initial_perm (&b[4], &b[5]);
      tdes_rounds3 (ctx->dec_keys, b);
      store_block (out, b[0], b[1], ivl, ivr);
      store_block (out + 8, b[2], b[3], c[0], c[1]);
      store_block (out + 16, b[4], b[5], c[2], c[3]);
      ivl = c[4];
      ivr = c[5];
    }
  for (; nblocks; nblocks--, in += 8, out += 8)
    {
      uint32_t l, r;

      c[0] = l = load_be32 (in);
      c[1] = r = load_be32 (in + 4);
      initial_perm (&l, &r);
      tdes_rounds (ctx->dec_keys, &l, &r);
      store_block (out, l, r, ivl, ivr);
      ivl = c[0];
      ivr = c[1];
    }
  store_be32 (iv, ivl);
  store_be32 (iv + 4, ivr);
}

/* CFB encryption.  As for CBC the feedback stays in the permuted
 * domain: IP (C[i]) = IP (P[i]) ^ the rounds' output for C[i-1], so
 * IP and IP^-1 are off the serial chain of rounds.  */
static void
tdes_cfb_enc (const void *context, unsigned char *iv, unsigned char *out,
              const unsigned char *in, size_t nblocks)
{
  const tdes_context_t *ctx = context;
  uint32_t l, r, pl, pr;

  load_block (iv, &l, &r);
  for (; nblocks; nblocks--, in += 8, out += 8)
    {
      load_block (in, &pl, &pr);
      tdes_rounds (ctx->enc_keys, &l, &r);
      l ^= pl;
      r ^= pr;
      store_block (out, l, r, 0, 0);
    }
  store_block (iv, l, r, 0, 0);
}


#if defined(__x86_64__) || defined(__i386__)
/*
 * CFB encryption stitched with SHA-1 (sfcipher.h, sf_cfb_sha1_t): the
 * twenty SHA steps of each 64 bytes of plaintext go between the
 * passes of the eight chained blocks of the same bytes, the hash on
 * the vector units while the rounds hold the integer ones.
 */

/* CFB block J of the 64 bytes at IN to OUT, the feedback in L, R (in
 * the permuted domain), with the SHA steps S0, S1 and S2 after its
 * three passes.  */
#define CFB_ENC_BLOCK_SHA1_(j, s0, s1, s2)                              \
  do                                                                    \
    {                                                                   \
      uint32_t pl_, pr_;                                                \
                                                                        \
      load_block (in + 8 * (j), &pl_, &pr_);                            \
      TDES_ROUNDS_WITH (ctx->enc_keys, l, r, s0, s1, s2);               \
      l ^= pl_;                                                         \
      r ^= pr_;                                                         \
      store_block (out + 8 * (j), l, r, 0, 0);                          \
    }                                                                   \
  while (0)

__attribute__ ((target (SHA1_SHANI_ISA))) static void
tdes_cfb_enc_sha1 (const void *context, unsigned char *iv,
                   unsigned char *out, const unsigned char *in,
                   size_t nblocks, uint32_t state[5])
{
  const tdes_context_t *ctx = context;
  uint32_t l, r;
  SHA1_SHANI_VARIABLES;

  load_block (iv, &l, &r);
  SHA1_SHANI_CFB_ENC_LOOP (8, CFB_ENC_BLOCK_SHA1_);
  store_block (iv, l, r, 0, 0);
}

static const sf_cfb_sha1_t tdes_cfb_sha1 =
  SHA1_SHANI_CFB_ENC_ENTRY (tdes_cfb_enc_sha1);
# define TDES_CFB_SHA1 (&tdes_cfb_sha1)
#else
# define TDES_CFB_SHA1 NULL
#endif /* x86-64 or i386 */

/* CFB decryption: every block's cipher input is known, so three run
 * at a time.  */
static void
tdes_cfb_dec (const void *context, unsigned char *iv, unsigned char *out,
              const unsigned char *in, size_t nblocks)
{
  const tdes_context_t *ctx = context;
  uint32_t ivl = load_be32 (iv), ivr = load_be32 (iv + 4);
  uint32_t c[6], b[6];
  int i;

  for (; nblocks >= 3; nblocks -= 3, in += 24, out += 24)
    {
      for (i = 0; i < 6; i++)
        c[i] = load_be32 (in + 4 * i);
      b[0] = ivl;
      b[1] = ivr;
      for (i = 2; i < 6; i++)
        b[i] = c[i - 2];
      initial_perm (&b[0], &b[1]);
      initial_perm (&b[2], &b[3]);
      initial_perm (&b[4], &b[5]);
      tdes_rounds3 (ctx->enc_keys, b);
      store_block (out, b[0], b[1], c[0], c[1]);
      store_block (out + 8, b[2], b[3], c[2], c[3]);
      store_block (out + 16, b[4], b[5], c[4], c[5]);
      ivl = c[4];
      ivr = c[5];
    }
  for (; nblocks; nblocks--, in += 8, out += 8)
    {
      uint32_t l = ivl, r = ivr;

      ivl = load_be32 (in);
      ivr = load_be32 (in + 4);
      initial_perm (&l, &r);
      tdes_rounds (ctx->enc_keys, &l, &r);
      store_block (out, l, r, ivl, ivr);
    }
  store_be32 (iv, ivl);
  store_be32 (iv + 4, ivr);
}

/* OFB: the keystream feeds itself, so it never leaves the permuted
 * domain.  */
static void
tdes_ofb (const void *context, unsigned char *iv, unsigned char *out,
          const unsigned char *in, size_t nblocks)
{
  const tdes_context_t *ctx = context;
  uint32_t l, r;

  load_block (iv, &l, &r);
  for (; nblocks; nblocks--, in += 8, out += 8)
    {
      tdes_rounds (ctx->enc_keys, &l, &r);
      store_block (out, l, r, load_be32 (in), load_be32 (in + 4));
    }
  store_block (iv, l, r, 0, 0);
}

/* CTR with the whole 64-bit block as a big-endian counter, three
 * blocks at a time.  */
static void
tdes_ctr (const void *context, unsigned char *iv, unsigned char *out,
          const unsigned char *in, size_t nblocks)
{
  const tdes_context_t *ctx = context;
  uint64_t ctr = ((uint64_t) load_be32 (iv) << 32) | load_be32 (iv + 4);
  uint32_t b[6];
  int i;

  for (; nblocks >= 3; nblocks -= 3, in += 24, out += 24)
    {
      for (i = 0; i < 3; i++, ctr++)
        {
          b[2 * i] = (uint32_t) (ctr >> 32);
          b[2 * i + 1] = (uint32_t) ctr;
          initial_perm (&b[2 * i], &b[2 * i + 1]);
        }
      tdes_rounds3 (ctx->enc_keys, b);
      for (i = 0; i < 3; i++)
        store_block (out + 8 * i, b[2 * i], b[2 * i + 1],
                     load_be32 (in + 8 * i), load_be32 (in + 8 * i + 4));
    }
  for (; nblocks; nblocks--, in += 8, out += 8, ctr++)
    {
      uint32_t l = (uint32_t) (ctr >> 32), r = (uint32_t) ctr;

      initial_perm (&l, &r);
      tdes_rounds (ctx->enc_keys, &l, &r);
      store_block (out, l, r, load_be32 (in), load_be32 (in + 4));
    }
  store_be32 (iv, (uint32_t) (ctr >> 32));
  store_be32 (iv + 4, (uint32_t) ctr);
}


/*
 * Self-test and spec.
 */

/* Known answers (ECB, E(K3, D(K2, E(K1, P)))), KEY = K1 || K2 || K3.  */
static const sf_kat_t tdes_kats[] =
  {
    /* NIST SP 800-67, Appendix B (2004 edition and Rev. 1): three-key
     * TDEA, three blocks.  */
    { "0123456789abcdef23456789abcdef01456789abcdef0123",
      "54686520717566636b2062726f776e20666f78206a756d70",
      "a826fd8ce53b855fcce21c8112256fe668d5c05dd9b6b900" },
    /* NIST CAVP tdesmmt.zip, TECBMMT3.rsp, [ENCRYPT] COUNT = 0 and
     * COUNT = 3.  */
    { "a2b5bc67da13dc92cd9d344aa238544a0e1fa79ef76810cd",
      "329d86bdf1bc5af4",
      "d946c2756d78633f" },
    { "b0265876ae4cce98e697cef4048a45e30815a83276efec31",
      "b59cc5e13bd10f801e2464e029c383cacfe812646c0bf805"
      "ce560848f459df5f",
      "26d325d7f6b90510521344875d157166580748b2a3feeecb"
      "959e574e451cae80" },
    /* NIST CAVP KAT_TDES.zip with K1 = K2 = K3 (single DES, NIST SP
     * 800-20): TCBCsubtab.rsp COUNT = 0, and TCBCvartext.rsp
     * COUNT = 0, whose key is the weak DES key 0101010101010101.  */
    { "7ca110454a1a6e577ca110454a1a6e577ca110454a1a6e57",
      "01a1d6d039776742",
      "690f5b0d9a26939b" },
    { "010101010101010101010101010101010101010101010101",
      "8000000000000000",
      "95f8a5e5dd31d900" }
  };

static const char *const tdes_aliases[] =
  {
    "TRIPLEDES", "DES-EDE3", "3DES-EDE", NULL
  };

static const sf_cipher_spec_t sf_spec_3des_ref =
  {
    .abi_version = SF_ABI_VERSION,
    .name = "3DES",
    .aliases = tdes_aliases,
    .openpgp_id = 2,
    .blocksize = TDES_BLOCKSIZE,
    .keylen = TDES_KEYLEN,
    .contextsize = sizeof (tdes_context_t),
    .impl = "ref",
    .priority = SF_PRIO_REF,
    .hwf = NULL,
    .usable = NULL,
    .setkey = tdes_setkey,
    .encrypt = tdes_encrypt,
    .decrypt = tdes_decrypt,
    .release = NULL,
    .ecb_enc = tdes_ecb_enc,
    .ecb_dec = tdes_ecb_dec,
    .cbc_enc = tdes_cbc_enc,
    .cbc_dec = tdes_cbc_dec,
    .cfb_enc = tdes_cfb_enc,
    .cfb_dec = tdes_cfb_dec,
    .cfb_sha1 = TDES_CFB_SHA1,
    .ofb = tdes_ofb,
    .ctr = tdes_ctr,
    .kats = tdes_kats,
    .n_kats = sizeof tdes_kats / sizeof tdes_kats[0],
    /* The SP-box tables are indexed by key and data bits, and the
     * weak-key check compares the key.  */
    .timing = SF_TIMING_TABLES
  };

SF_MODULE (des, &sf_spec_3des_ref);
