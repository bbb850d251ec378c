/* compress-probe.c - whether a block of input is worth deflating
 *
 * The probe counts the bytes of a sample of the block: 16 pieces of
 * 1 KiB spread evenly over it, so that data that changes along the
 * block is seen.  From the counts C[0..255] of N sampled bytes it
 * takes the collision entropy (Renyi's entropy of order 2),
 * -log2 (sum (C[i] / N)^2) bits per byte, and calls the block
 * incompressible at 7 bits per byte or more:
 *
 *     128 * sum (C[i]^2) <= N^2
 *
 * in integers, so the decision is exact on every machine.  Random
 * bytes give about 7.98 bits per byte; text, code and binaries less
 * than 6.  Deflate still finds a few repeats in bytes whose counts
 * are even, which storing gives up: sfenc -c's output grew by 0.3% on
 * sfbench's corpus, 0.9% on a tar of /usr/share's .gz files, 2% on a
 * tar of larger compressed files.  The sample costs about 8
 * microseconds per 128 KiB block; a trial deflate of it with igzip's
 * fastest level cost 47 and chose about as well (doc/benchmarks.md).
 *
 * A tar of small compressed files fails that test by its zeros alone
 * (the 512-byte headers, the padding of each file): one byte value so
 * common brings the entropy of the whole below 7 bits, mostly below 4.  So the
 * same test is made again without the zeros' count; when the other
 * bytes pass it, they are compressed data and the zeros are all that
 * deflate can take out, which its fastest level does as well as level
 * 6: on the 362 such blocks of a tar of /usr/share's man pages and
 * changelogs, level 1 of igzip (with gpg's 8 KiB window) left 70.4%
 * of them, zlib's level 6 70.3%, at 401 against 3009 microseconds a
 * block.  Of sfbench's 256 MiB corpus, 4 blocks of 2049 pass it.
 */
#include <config.h>

#include <stdint.h>

#include "compress-probe.h"

#define PROBE_PIECES 16
#define PROBE_PIECE_LEN 1024

/* Incompressible from this many bits per byte (the shift below).  */
#define PROBE_MIN_BITS 7


/* Add the LEN bytes at P to COUNTS, four tables so that runs of
 * equal bytes do not wait on the same counter.  */
static void
count_bytes (uint32_t counts[4][256], const unsigned char *p, size_t len)
{
  size_t i;

  for (i = 0; i + 4 <= len; i += 4)
    {
      counts[0][p[i]]++;
      counts[1][p[i + 1]]++;
      counts[2][p[i + 2]]++;
      counts[3][p[i + 3]]++;
    }
  for (; i < len; i++)
    counts[0][p[i]]++;
}


enum compress_probe_verdict
compress_probe (const unsigned char *block, size_t len)
{
  uint32_t counts[4][256] = { { 0 } };
  uint64_t sampled, squares, c, zeros;
  size_t k, i;

  if (len < PROBE_PIECE_LEN)
    return PROBE_DEFLATE;
  if (len <= PROBE_PIECES * PROBE_PIECE_LEN)
    {
      count_bytes (counts, block, len);
      sampled = len;
    }
  else
    {
      for (k = 0; k < PROBE_PIECES; k++)
        count_bytes (counts, block + k * (len / PROBE_PIECES),
                     PROBE_PIECE_LEN);
      sampled = PROBE_PIECES * PROBE_PIECE_LEN;
    }
  squares = 0;
  for (i = 0; i < 256; i++)
    {
      c = (uint64_t)counts[0][i] + counts[1][i] + counts[2][i] + counts[3][i];
      squares += c * c;
    }
  if (squares << PROBE_MIN_BITS <= sampled * sampled)
    return PROBE_STORE;
  /* The same test on the bytes other than zero.  */
  zeros = (uint64_t)counts[0][0] + counts[1][0] + counts[2][0] + counts[3][0];
  squares -= zeros * zeros;
  sampled -= zeros;
  if (sampled && squares << PROBE_MIN_BITS <= sampled * sampled)
    return PROBE_DEFLATE_FAST;
  return PROBE_DEFLATE;
}
