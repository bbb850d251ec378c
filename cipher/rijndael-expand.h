/* rijndael-expand.h - the AES key expansion of the modules whose
 * SubWord is their own
 *
 * FIPS-197 5.2, KeyExpansion, on 32-bit words holding four key bytes
 * with the first byte in the low bits (a little-endian load), which
 * is how the AES instructions (rijndael-aesni.c, rijndael-armce.c)
 * and the bitsliced code (rijndael-ct.c) hold a column.  Each module
 * brings SubWord, the S-box on the four bytes of a word, computed its
 * own way: one AES instruction, or the constant-time circuit; the
 * rest of the expansion is the same for all, so it lives here.  Only
 * the key length decides the branches and the round constant read.
 * Header-only, so that each module stays one object, also as a shared
 * object.  rijndael.c keeps its own expansion, on big-endian words.
 */
#ifndef RIJNDAEL_EXPAND_H
#define RIJNDAEL_EXPAND_H

#include <stddef.h>
#include <stdint.h>

#define RIJNDAEL_MAX_ROUNDS 14
#define RIJNDAEL_MAX_WORDS (4 * (RIJNDAEL_MAX_ROUNDS + 1))

/* Expand KEY of KEYLEN bytes (16, 24 or 32) into the 4 * (ROUNDS + 1)
 * words of W, round key r in W[4r .. 4r + 3]; return ROUNDS (10, 12
 * or 14).  SUB_WORD is the module's SubWord; inlined where the caller
 * inlines this.  */
static inline unsigned int
rijndael_expand_key (uint32_t w[RIJNDAEL_MAX_WORDS],
                     const unsigned char *key, size_t keylen,
                     uint32_t (*sub_word) (uint32_t))
{
  /* x^(i-1) in GF(2^8); 10 are enough for the 128-bit key, fewer for
   * the longer ones.  */
  static const unsigned char rcon[10] =
    {
      0x01, 0x02, 0x04, 0x08, 0x10, 0x20, 0x40, 0x80, 0x1b, 0x36
    };
  unsigned int nk = keylen / 4;
  unsigned int rounds = nk + 6;
  unsigned int nwords = 4 * (rounds + 1);
  unsigned int i;

  for (i = 0; i < nk; i++)
    w[i] = (uint32_t)key[4 * i] | (uint32_t)key[4 * i + 1] << 8
           | (uint32_t)key[4 * i + 2] << 16 | (uint32_t)key[4 * i + 3] << 24;
  for (i = nk; i < nwords; i++)
    {
      uint32_t temp = w[i - 1];

      if (i % nk == 0)
        /* RotWord moves the first byte, the low one here, last.  */
        temp = sub_word ((temp >> 8) | (temp << 24)) ^ rcon[i / nk - 1];
      else if (nk > 6 && i % nk == 4)
        temp = sub_word (temp);
      w[i] = w[i - nk] ^ temp;
    }
  return rounds;
}

#endif /*RIJNDAEL_EXPAND_H*/
