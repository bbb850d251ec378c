/* deflate-sparse.h - a block of random bytes among zeros, deflated
 * without a search
 *
 * In a tar of small compressed files the bytes are random but for
 * tar's zeros (the 512-byte headers, the padding of every file), and
 * compress-probe.c calls such a block PROBE_SPARSE.  Deflate's match
 * search finds nothing in the random bytes and spends its time there;
 * this writer looks only for runs of zeros, eight bytes at a time.  It
 * writes the random bytes as stored blocks and each run of zeros, with
 * what lies a few bytes between it and the next, as a fixed-Huffman
 * block (RFC 1951 3.2.6): a literal zero, then matches at distance 1.
 *
 * Nothing refers to the bytes before the block, so the output joins a
 * pdeflate stream as an engine's block does (deflate-engine.h): it
 * ends byte aligned with BFINAL clear, or ends the stream.  It is a
 * function of the block's bytes alone, the same with and without
 * ISA-L.  It never calls fail (): it runs on worker threads.
 */
#ifndef SFENC_DEFLATE_SPARSE_H
#define SFENC_DEFLATE_SPARSE_H

#include <stddef.h>
#include <gpg-error.h>

/* The shortest run of zeros written as matches.  */
#define DEFLATE_SPARSE_RUN_MIN 16

/* The zeros of the LEN bytes at P that lie in runs of at least
 * DEFLATE_SPARSE_RUN_MIN, those deflate_sparse writes as matches.  */
size_t deflate_sparse_zeros_in_runs (const unsigned char *p, size_t len);

/* Write the LEN bytes at IN as raw deflate blocks into OUT, which
 * has room for OUTMAX bytes; end the stream when LAST.  Store the
 * output length at *R_OUTLEN.  The output is never longer than LEN
 * and 6 bytes per 64 KiB and 16 bytes more; an OUTMAX below
 * LEN + LEN / 8 + 64 is refused (GPG_ERR_TOO_SHORT).  */
gpg_error_t deflate_sparse (const unsigned char *in, size_t len, int last,
                            unsigned char *out, size_t outmax,
                            size_t *r_outlen);

#endif /*SFENC_DEFLATE_SPARSE_H*/
