/* inflate-engine.h - one raw deflate or zlib stream, inflated from a
 * source
 *
 * The engine pulls a compressed stream from a source (iobuf.h) and
 * inflates it into the caller's buffer, through zlib's inflate or
 * ISA-L's isal_inflate (--inflate-impl).  Both accept the same
 * streams and give the same bytes: what zlib refuses, the ISA-L path
 * refuses too, checking itself what isal_inflate lets through
 * (inflate-engine.c, deflate-check.h).  tests/t-inflate.c and the
 * differential harness fuzz/fuzz-inflate-diff.c hold them to that.
 *
 * zlib is the default.  isal_inflate alone inflated gpg's ZIP stream
 * of a 64 MiB corpus twice as fast as zlib, but the check that makes
 * it refuse what zlib refuses decodes every symbol once more, and the
 * two together ran at 0.87 to 1.07 times zlib's speed
 * (doc/benchmarks.md, "Inflate").  With --threads the check runs on
 * a thread of its own (inflate_engine_check_ahead), and the two
 * overlap: on 2 December 2026, with both cores of the machine free,
 * sfenc -d of gpg's ZIP message of 256 MiB took 0.85 s through ISA-L
 * on two threads against 1.25 s through zlib, for the user time of
 * one thread; while another load left it one core, no faster than
 * zlib.
 *
 * The functions never call fail (), but for a thread that cannot
 * start: the owner of the stream reports the error, with
 * inflate_engine_reason's text.
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

/* Have the ISA-L engine E check the stream on a thread of its own,
 * ahead of isal_inflate (checked-source.h); nothing for zlib.  Call
 * it before the first read.  From then until the stream ends, or
 * until inflate_engine_release, only that thread may use the source.
 * Fails for lack of memory or when the thread cannot start (then
 * with its message recorded, error.h).  */
gpg_error_t inflate_engine_check_ahead (inflate_engine_t *e);

/* Inflate up to SIZE bytes into BUF and store their number at *NREAD:
 * at least one, or 0 once the stream has ended (what follows its end
 * is not read further).  Returns the source's error as it came,
 * GPG_ERR_TRUNCATED when the source ends before the stream, or
 * GPG_ERR_BAD_DATA for an invalid stream.  */
gpg_error_t inflate_engine_read (inflate_engine_t *engine,
                                 unsigned char *buf, size_t size,
                                 size_t *nread);

/* Why the engine refused the stream, after inflate_engine_read
 * returned an error of its own; NULL when the error was the
 * source's.  */
const char *inflate_engine_reason (const inflate_engine_t *engine);

void inflate_engine_release (inflate_engine_t *engine);

#endif /*SFENC_INFLATE_ENGINE_H*/
