/* deflate-check.h - the structure of a raw deflate stream, checked as
 * zlib's inflate checks it
 *
 * isal_inflate accepts dynamic blocks whose Huffman codes are
 * incomplete (the code length code, the literal/length code, or a
 * distance code of more than one code), which zlib refuses, and it
 * can only be asked to inflate, not to stop at a block header.  So
 * the ISA-L path of inflate-engine.c runs the compressed bytes
 * through this check first: it walks the stream block by block,
 * decoding the symbols without writing anything, and refuses what
 * zlib refuses (the block type, stored lengths, the codes of dynamic
 * headers, invalid symbols, distances beyond the output so far).  It
 * stops at the end of the last block; running out of input is for
 * the inflater to report.
 *
 * Never calls fail (): inflate-engine.c turns a refusal into its own.
 */
#ifndef SFENC_DEFLATE_CHECK_H
#define SFENC_DEFLATE_CHECK_H

#include <stddef.h>

typedef struct deflate_check deflate_check_t;

/* A check at the start of a raw deflate stream; NULL for lack of
 * memory.  */
deflate_check_t *deflate_check_new (void);

/* Check the next LEN bytes (at most CHUNK_SIZE) of the stream; EOF
 * when they are the last.  Returns NULL, or why zlib would refuse
 * the stream (then the check has stopped).  */
const char *deflate_check_feed (deflate_check_t *dc,
                                const unsigned char *data, size_t len,
                                int eof);

/* Whether the stream has ended (its last block, checked whole); then
 * store at *R_AFTER how many of the bytes fed follow the byte where
 * it ended.  */
int deflate_check_ended (const deflate_check_t *dc, size_t *r_after);

void deflate_check_release (deflate_check_t *dc);

#endif /*SFENC_DEFLATE_CHECK_H*/
