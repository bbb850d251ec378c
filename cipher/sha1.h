/* sha1.h - sfenc's own SHA-1, for the OpenPGP MDC and bulk hashing
 *
 * SHA-1 as specified in FIPS 180-4 (NIST, 2015), byte-oriented, with a
 * portable implementation (sha1.c), one using the x86 SHA extensions
 * (sha1-shani.c) and one using the ARMv8 SHA-1 instructions
 * (sha1-armce.c).  It lives here rather than in libgcrypt
 * so that the streaming pipeline can interleave it with the cipher
 * (DESIGN.md); libgcrypt stays the reference it is tested against.
 * Internal to libsfcipher and the program: not installed.
 *
 * Contract:
 *   - sf_sha1_init, then sf_sha1_write any number of times with any
 *     lengths (0 included, DATA may then be NULL) and any alignment,
 *     then sf_sha1_final: the digest depends only on the concatenated
 *     bytes, not on how they were split;
 *   - sf_sha1_final wipes the context; call sf_sha1_init again to
 *     reuse it;
 *   - messages are shorter than 2^61 bytes (FIPS 180-4 counts bits in
 *     64 bits);
 *   - a context is not shared between threads without locking; the
 *     implementation choice itself is thread-safe.
 */
#ifndef SF_SHA1_H
#define SF_SHA1_H

#include <stddef.h>
#include <stdint.h>

#define SF_SHA1_DIGEST_LEN 20
#define SF_SHA1_BLOCK_LEN 64

/* Compress NBLOCKS consecutive 64-byte blocks at DATA (any alignment,
 * NBLOCKS may be 0) into STATE, the hash value H0..H4 of FIPS 180-4
 * as host integers.  No padding: that is sf_sha1_final's job.  */
typedef void sf_sha1_blocks_fn (uint32_t state[5], const unsigned char *data,
                                size_t nblocks);

/* While TOTAL is a multiple of 64 nothing is buffered, and code that
 * compresses whole blocks itself (a cipher mode stitched with the
 * MDC) may update STATE with any block function and add the bytes to
 * TOTAL: SHA-1 is SHA-1, whichever implementation computes it.  */
typedef struct
{
  uint32_t state[5];
  uint64_t total;                 /* Bytes written so far.  */
  sf_sha1_blocks_fn *blocks;      /* The implementation this context uses.  */
  unsigned char buffer[SF_SHA1_BLOCK_LEN];  /* The partial block.  */
} sf_sha1_t;

/* Start a message hashed by the implementation sf_sha1_blocks uses.  */
void sf_sha1_init (sf_sha1_t *ctx);

/* Start a message hashed by BLOCKS, for tests and benchmarks that
 * compare implementations in one process: sf_sha1_blocks_ref, or
 * sf_sha1_blocks_shani or sf_sha1_blocks_armce when its usable
 * function says so.  */
void sf_sha1_init_with (sf_sha1_t *ctx, sf_sha1_blocks_fn *blocks);

void sf_sha1_write (sf_sha1_t *ctx, const void *data, size_t len);

/* Pad, store the 20-byte digest at DIGEST and wipe CTX.  */
void sf_sha1_final (sf_sha1_t *ctx, unsigned char digest[SF_SHA1_DIGEST_LEN]);

/* The best usable block function, chosen on the first call of this,
 * sf_sha1_init or sf_sha1_impl_name: SHA-NI when the processor has it
 * and SFENC_DISABLE_HWF names neither "shani" nor "all", else the
 * ARMv8 SHA-1 instructions likewise ("arm-sha1"), else the portable
 * one.  For code that keeps the state itself, such as a
 * cipher mode stitched with the MDC.  */
void sf_sha1_blocks (uint32_t state[5], const unsigned char *data,
                     size_t nblocks);

/* "shani", "armce" or "ref": the implementation sf_sha1_blocks
 * uses.  */
const char *sf_sha1_impl_name (void);

/* The portable implementation (sha1.c).  */
void sf_sha1_blocks_ref (uint32_t state[5], const unsigned char *data,
                         size_t nblocks);

/* The SHA-NI implementation (sha1-shani.c).  Call it only when
 * sf_sha1_shani_usable returns true: the processor has the SHA
 * extensions, SSSE3 and SSE4.1.  SFENC_DISABLE_HWF is not consulted
 * here, only by the choice of sf_sha1_blocks.  */
int sf_sha1_shani_usable (void);
void sf_sha1_blocks_shani (uint32_t state[5], const unsigned char *data,
                           size_t nblocks);

/* The ARMv8 implementation (sha1-armce.c).  Call it only when
 * sf_sha1_armce_usable returns true: the processor has Advanced SIMD
 * and the SHA-1 instructions.  As for SHA-NI, SFENC_DISABLE_HWF is
 * consulted only by the choice of sf_sha1_blocks.  */
int sf_sha1_armce_usable (void);
void sf_sha1_blocks_armce (uint32_t state[5], const unsigned char *data,
                           size_t nblocks);

#endif /*SF_SHA1_H*/
