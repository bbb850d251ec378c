/* bzip2-stream.c - the bit-level layout of a bzip2 stream
 */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "bzip2-stream.h"


size_t
bitbuf_bytes (const bitbuf_t *bb)
{
  return (bb->nbits + 7) / 8;
}


/* Make room for NBITS more bits and the byte after them.  */
static gpg_error_t
bitbuf_reserve (bitbuf_t *bb, uint64_t nbits)
{
  size_t need = (bb->nbits + nbits + 7) / 8 + 1;
  size_t size = bb->size ? bb->size : 4096;
  unsigned char *p;

  if (need <= bb->size)
    return 0;
  while (size < need)
    size *= 2;
  p = realloc (bb->buf, size);
  if (!p)
    return gpg_error (GPG_ERR_ENOMEM);
  memset (p + bb->size, 0, size - bb->size);
  bb->buf = p;
  bb->size = size;
  return 0;
}


gpg_error_t
bitbuf_append (bitbuf_t *bb, const unsigned char *src, uint64_t srcbit,
               uint64_t nbits)
{
  gpg_error_t err;
  unsigned char *dst;
  unsigned int d, s, a;
  size_t i, nbytes, last;

  if (!nbits)
    return 0;
  err = bitbuf_reserve (bb, nbits);
  if (err)
    return err;
  dst = bb->buf + bb->nbits / 8;
  d = bb->nbits % 8;
  src += srcbit / 8;
  s = srcbit % 8;
  nbytes = (nbits + 7) / 8;
  last = (s + nbits - 1) / 8;   /* The last byte of SRC to read.  */
  if (!d && !s)
    {
      memcpy (dst, src, nbytes);
      if (nbits % 8)
        dst[nbytes - 1] &= 0xff << (8 - nbits % 8);
      bb->nbits += nbits;
      return 0;
    }
  for (i = 0; i < nbytes; i++)
    {
      /* The next 8 bits of the source, aligned.  */
      a = src[i] << s;
      if (s && i + 1 <= last)
        a |= src[i + 1] >> (8 - s);
      a &= 0xff;
      if (i == nbytes - 1 && nbits % 8)
        a &= 0xff << (8 - nbits % 8);
      if (d)
        {
          dst[i] |= a >> d;
          dst[i + 1] = a << (8 - d);
        }
      else
        dst[i] = a;
    }
  bb->nbits += nbits;
  return 0;
}


gpg_error_t
bitbuf_put (bitbuf_t *bb, uint64_t value, int nbits)
{
  unsigned char be[8];
  int i;

  for (i = 0; i < 8; i++)
    be[i] = value >> (56 - 8 * i);
  return bitbuf_append (bb, be, 64 - nbits, nbits);
}


void
bitbuf_truncate (bitbuf_t *bb, uint64_t nbits)
{
  size_t keep = (nbits + 7) / 8;

  if (nbits >= bb->nbits)
    return;
  memset (bb->buf + keep, 0, bitbuf_bytes (bb) - keep);
  if (nbits % 8)
    bb->buf[keep - 1] &= 0xff << (8 - nbits % 8);
  bb->nbits = nbits;
}


void
bitbuf_release (bitbuf_t *bb)
{
  free (bb->buf);
  memset (bb, 0, sizeof *bb);
}


uint64_t
bits_get (const unsigned char *src, uint64_t pos, int nbits)
{
  uint64_t v = 0;
  int i;

  for (i = 0; i < nbits; i++, pos++)
    v = v << 1 | (src[pos / 8] >> (7 - pos % 8) & 1);
  return v;
}


uint32_t
bzip2_combine_crc (uint32_t combined, uint32_t block_crc)
{
  return (combined << 1 | combined >> 31) ^ block_crc;
}
