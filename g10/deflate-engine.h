/* deflate-engine.h - one block of a parallel deflate stream
 *
 * A deflate engine compresses one block of the input on its own: its
 * history is preset with the input that came before the block (the
 * dictionary), and the block ends with a sync flush (an empty stored
 * block, byte aligned, BFINAL clear), or, for the last block, with
 * the end of the stream.  Such blocks concatenate into one ordinary
 * raw deflate stream (RFC 1951) whatever thread compressed each.
 *
 * Levels 1 to 3 run through ISA-L's igzip when configure found it:
 * on 256 MiB of files from /usr, each of its levels compressed 3 to 8
 * times faster than zlib's level of the same number, to within 2.5%
 * of its size.  Its best level is still 9 to 12% larger than zlib's
 * 6, so the default level and those above stay with zlib, as all
 * levels do without ISA-L.
 *
 * Blocks whose bytes look random never reach an engine: pdeflate.c
 * writes them as stored blocks (compress-probe.h).
 *
 * The functions below never call fail (): they run on worker
 * threads, and only the thread that owns the stream reports errors.
 */
#ifndef SFENC_DEFLATE_ENGINE_H
#define SFENC_DEFLATE_ENGINE_H

#include <stddef.h>
#include <gpg-error.h>

/* Input bytes per block.  */
#define DEFLATE_BLOCK_SIZE ((size_t)128 * 1024)

/* The largest dictionary: the 32 KiB window of deflate.  */
#define DEFLATE_DICT_MAX ((size_t)32 * 1024)

/* Room for the compressed form of one block.  Neither library
 * expands incompressible data by more than a few bytes per 16 KiB
 * (zlib's deflateBound; igzip switches to stored blocks), so half a
 * block more is a wide margin; running out of it would be an error,
 * never a truncated stream.  */
#define DEFLATE_OUT_MAX (DEFLATE_BLOCK_SIZE + DEFLATE_BLOCK_SIZE / 2 + 1024)

typedef struct deflate_engine deflate_engine_t;

/* An engine for LEVEL (1..9) with a window of 2^WINDOW_BITS bytes
 * (9..15).  */
gpg_error_t deflate_engine_new (deflate_engine_t **r_engine, int level,
                                int window_bits);

/* Compress the LEN bytes at IN into OUT (DEFLATE_OUT_MAX bytes),
 * after the DICTLEN bytes at DICT that precede them in the input;
 * end the stream when LAST.  Store the output length at *R_OUTLEN.  */
gpg_error_t deflate_engine_run (deflate_engine_t *engine,
                                const unsigned char *dict, size_t dictlen,
                                const unsigned char *in, size_t len,
                                int last, unsigned char *out,
                                size_t *r_outlen);

void deflate_engine_release (deflate_engine_t *engine);

/* The library that compresses LEVEL: "zlib" or "igzip".  */
const char *deflate_engine_library (int level);

/* The version of ISA-L in use, or NULL when built without it.  */
const char *deflate_engine_isal_version (void);

#endif /*SFENC_DEFLATE_ENGINE_H*/
