/* inflate-engine.h - one raw deflate or zlib stream, inflated from a
 * source
 *
 * The engine pulls a compressed stream from a source (iobuf.h) and
 * inflates it into the caller's buffer, through ISA-L's isal_inflate
 * (the default where the build has ISA-L) or zlib's inflate
 * (--inflate-impl zlib, and the only one without ISA-L).
 *
 * For every stream zlib accepts, ISA-L gives the same bytes
 * (tests/t-inflate.c and the differential harness
 * fuzz/fuzz-inflate-diff.c hold it to that).  ISA-L is more lenient
 * than zlib where leniency is harmless, and takes some streams that
 * zlib refuses: a dynamic block whose literal/length, distance or
 * code length code is incomplete (its Huffman code leaves codes
 * unused).  Nothing is walked twice to refuse those: in OpenPGP the
 * MDC or the AEAD tag decides whether the bytes are authentic, not
 * how strict the decompressor is (doc/security.md).  Both refuse a
 * stream that is cut short, and neither reads or writes out of bounds
 * on any stream (fuzz/fuzz-inflate.c).
 *
 * isal_inflate inflated gpg's ZIP stream of a 64 MiB corpus twice as
 * fast as zlib (doc/benchmarks.md, "Inflate").
 *
 * The functions never call fail (): the owner of the stream reports
 * the error, with inflate_engine_reason's text.
 */
#ifndef SFENC_INFLATE_ENGINE_H
#define SFENC_INFLATE_ENGINE_H

#include <stddef.h>
#include <gpg-error.h>

#include "iobuf.h"

enum inflate_impl
  {
    INFLATE_IMPL_ZLIB,
    INFLATE_IMPL_ISAL           /* Only when built with ISA-L.  */
  };

#ifdef HAVE_ISAL
# define INFLATE_IMPL_DEFAULT INFLATE_IMPL_ISAL
#else
# define INFLATE_IMPL_DEFAULT INFLATE_IMPL_ZLIB
#endif

enum inflate_framing
  {
    INFLATE_RAW,                /* RFC 1951, OpenPGP's ZIP.  */
    INFLATE_ZLIB                /* RFC 1950, OpenPGP's ZLIB.  */
  };

typedef struct inflate_engine inflate_engine_t;

/* The implementation called NAME ("zlib", "isal"), or -1 when there
 * is none of that name in this build.  */
int inflate_impl_from_name (const char *name);

const char *inflate_impl_name (enum inflate_impl impl);

/* The names of the implementations of this build, for messages.  */
const char *inflate_impl_names (void);

/* An engine that inflates the stream of FRAMING read from SOURCE
 * through IMPL.  Fails only for lack of memory.  */
gpg_error_t inflate_engine_new (inflate_engine_t **r_engine,
                                enum inflate_impl impl,
                                enum inflate_framing framing,
                                source_fn_t source, void *source_ctx);

/* Inflate up to SIZE bytes into BUF and store their number at *NREAD:
 * at least one, or 0 once the stream has ended (what follows its end
 * is not read further).  Returns the source's error as it came,
 * GPG_ERR_TRUNCATED when the source ends before the stream, or
 * GPG_ERR_BAD_DATA for an invalid stream.  */
gpg_error_t inflate_engine_read (inflate_engine_t *engine,
                                 unsigned char *buf, size_t size,
                                 size_t *nread);

/* A source (iobuf.h) over the inflate_engine_t CTX, once
 * inflate_engine_read has said that the stream ended: the input that
 * follows the stream, first what the engine read past its end, then
 * the engine's source.  A reader of raw deflate data framed by
 * something of its own reads the frame's trailer so.  */
gpg_error_t inflate_engine_read_after (void *ctx, unsigned char *buf,
                                       size_t size, size_t *nread);

/* Why zlib refuses the zlib header (RFC 1950 2.2) H, or NULL when it
 * takes it: the text inflate_engine_reason gives then.  */
const char *inflate_zlib_header_reason (const unsigned char h[2]);

/* Why the engine refused the stream, after inflate_engine_read
 * returned an error of its own; NULL when the error was the
 * source's.  */
const char *inflate_engine_reason (const inflate_engine_t *engine);

void inflate_engine_release (inflate_engine_t *engine);

#endif /*SFENC_INFLATE_ENGINE_H*/
