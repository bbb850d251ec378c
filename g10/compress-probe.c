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
 * common brings the entropy of the whole below 7 bits, mostly below
 * 4.  So the same test is made again without the zeros' count; when
 * the other bytes pass it, and at least half the zeros of the sample
 * lie in runs that deflate_sparse writes as matches, the zeros are
 * nearly all there is to take out, and deflate_sparse does that
 * without a search.  Machine code and tables can pass the second
 * test too, but their zeros lie among the other bytes, which deflate
 * compresses with them: of the 7 blocks of sfbench's 256 MiB corpus
 * that pass it (igzip's level 1 left 52 to 88% of their bytes), 6 had
 * 0 to 27% of their zeros in such runs, while each of the 363 such
 * blocks of a tar of /usr/share's .gz files had 80% or more (whole
 * blocks counted).
 */
#include <config.h>

#include <stdint.h>

#include "compress-probe.h"
#include "deflate-sparse.h"

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
  uint64_t sampled, squares, c, zeros, in_runs;
  size_t npieces, piece_len, k, i;

  if (len < PROBE_PIECE_LEN)
    return PROBE_DEFLATE;
  /* A short block is its own sample.  */
  npieces = len <= PROBE_PIECES * PROBE_PIECE_LEN ? 1 : PROBE_PIECES;
  piece_len = npieces == 1 ? len : PROBE_PIECE_LEN;
  for (k = 0; k < npieces; k++)
    count_bytes (counts, block + k * (len / npieces), piece_len);
  sampled = npieces * piece_len;
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
  if (!sampled || squares << PROBE_MIN_BITS > sampled * sampled)
    return PROBE_DEFLATE;
  /* Tar's zeros come in runs; those of machine code and tables, which
   * deflate compresses with the bytes around them, mostly do not.  */
  in_runs = 0;
  for (k = 0; k < npieces; k++)
    in_runs += deflate_sparse_zeros_in_runs (block + k * (len / npieces),
                                             piece_len);
  return 2 * in_runs >= zeros ? PROBE_SPARSE : PROBE_DEFLATE;
}
