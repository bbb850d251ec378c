/* bzip2-stream.h - the bit-level layout of a bzip2 stream
 *
 * A bzip2 stream is "BZh" and the level digit (32 bits), then blocks
 * that each begin with the 48-bit block magic and the block's CRC,
 * then the 48-bit end magic, the combined CRC of the blocks and zero
 * bits up to a byte boundary.  Nothing but the header is byte
 * aligned.  The parallel stages (bzip2-parallel.c, bunzip2-parallel.c)
 * cut streams into blocks and join blocks into streams with these
 * helpers: a growing buffer of bits and the CRC arithmetic.
 */
#ifndef SFENC_BZIP2_STREAM_H
#define SFENC_BZIP2_STREAM_H

#include <stddef.h>
#include <stdint.h>
#include <gpg-error.h>

#define BZIP2_BLOCK_MAGIC 0x314159265359ULL
#define BZIP2_END_MAGIC 0x177245385090ULL
#define BZIP2_MAGIC_BITS 48
#define BZIP2_HEADER_BITS 32
/* The end magic and the combined CRC.  */
#define BZIP2_TRAILER_BITS 80
/* From the block magic to the end of the block's CRC.  */
#define BZIP2_BLOCK_HEAD_BITS 80

/* Bits, most significant first, as bzip2 writes them; the bits after
 * NBITS in the last byte are zero.  */
typedef struct bitbuf
{
  unsigned char *buf;
  size_t size;
  uint64_t nbits;
} bitbuf_t;

/* Append NBITS bits of SRC starting at bit SRCBIT.  Returns
 * GPG_ERR_ENOMEM without calling fail (), so any thread may use it.  */
gpg_error_t bitbuf_append (bitbuf_t *bb, const unsigned char *src,
                           uint64_t srcbit, uint64_t nbits);

/* Append the NBITS (at most 64) low bits of VALUE.  */
gpg_error_t bitbuf_put (bitbuf_t *bb, uint64_t value, int nbits);

/* Keep only the first NBITS bits.  */
void bitbuf_truncate (bitbuf_t *bb, uint64_t nbits);

/* The bytes that hold the bits.  */
size_t bitbuf_bytes (const bitbuf_t *bb);

void bitbuf_release (bitbuf_t *bb);

/* The NBITS (at most 64) bits of SRC from bit POS.  */
uint64_t bits_get (const unsigned char *src, uint64_t pos, int nbits);

/* The combined CRC of a stream after a block with BLOCK_CRC.  */
uint32_t bzip2_combine_crc (uint32_t combined, uint32_t block_crc);

#endif /*SFENC_BZIP2_STREAM_H*/
