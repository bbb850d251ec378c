/* rijndael-ctr.h - the 128-bit counter of the AES CTR entries
 *
 * Shared by rijndael-aesni.c, rijndael-armce.c and rijndael-ct.c,
 * which keep the big-endian counter block as two 64-bit halves.
 */
#ifndef SFCIPHER_RIJNDAEL_CTR_H
#define SFCIPHER_RIJNDAEL_CTR_H

#include <stdint.h>

/* Advance the counter HI:LO by N.  The counter may be secret (EAX's
 * starts at OMAC_K (nonce)), so the carry is arithmetic, and the
 * empty asm hides the new LO from the compiler: otherwise it ends the
 * caller's loop by comparing LO with its final value, a branch on the
 * counter (tests/ctgrind.sh sees it with the key secret).  */
static inline void
ctr128_add (uint64_t *hi, uint64_t *lo, uint64_t n)
{
  uint64_t sum = *lo + n;

  *hi += sum < n;
  __asm__ ("" : "+r" (sum));
  *lo = sum;
}

#endif /*SFCIPHER_RIJNDAEL_CTR_H*/
