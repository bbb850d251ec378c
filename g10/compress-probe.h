/* compress-probe.h - whether a block of input is worth deflating
 *
 * Data that is already compressed or encrypted costs deflate its full
 * time (about 40 MB/s per core at level 6) and saves nothing, so
 * pdeflate.c writes each block that looks like it as stored blocks
 * instead; a block of such data among zeros (tar headers and
 * padding), whose zeros are all that compresses, it gives to
 * deflate_sparse, which takes out the runs of zeros and stores the
 * rest (deflate-sparse.h).  The probe looks at the block's own bytes only, so
 * the decision, and with it the stream, is the same for every thread
 * count.  It never calls fail (): it runs on worker threads.
 */
#ifndef SFENC_COMPRESS_PROBE_H
#define SFENC_COMPRESS_PROBE_H

#include <stddef.h>

/* What a block is worth.  */
enum compress_probe_verdict
  {
    PROBE_DEFLATE,              /* Compressible: the level asked for.  */
    PROBE_SPARSE,               /* Random bytes among zeros.  */
    PROBE_STORE                 /* Incompressible.  */
  };

/* What the LEN bytes at BLOCK are worth: PROBE_STORE when deflate
 * would not be expected to save more than a few percent of them;
 * PROBE_SPARSE when their bytes other than zero look random, as in a
 * tar of compressed files, where the runs of zeros are nearly all
 * there is to find.  A block shorter than
 * a sample piece (1 KiB) is always deflated: that costs little.  */
enum compress_probe_verdict compress_probe (const unsigned char *block,
                                            size_t len);

#endif /*SFENC_COMPRESS_PROBE_H*/
