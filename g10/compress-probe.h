/* compress-probe.h - whether a block of input is worth deflating
 *
 * Data that is already compressed or encrypted costs deflate its full
 * time (about 40 MB/s per core at level 6) and saves nothing, so
 * pdeflate.c writes each block that looks like it as stored blocks
 * instead.  The probe looks at the block's own bytes only, so the
 * decision, and with it the stream, is the same for every thread
 * count.  It never calls fail (): it runs on worker threads.
 */
#ifndef SFENC_COMPRESS_PROBE_H
#define SFENC_COMPRESS_PROBE_H

#include <stddef.h>

/* Whether the LEN bytes at BLOCK look incompressible: nonzero when
 * deflate would not be expected to save more than a few percent of
 * them.  A block shorter than a sample piece (1 KiB) is never
 * incompressible: deflating it costs little.  */
int compress_probe_incompressible (const unsigned char *block, size_t len);

#endif /*SFENC_COMPRESS_PROBE_H*/
