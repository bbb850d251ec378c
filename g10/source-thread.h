/* source-thread.h - a source read ahead on a thread of its own
 *
 * sfenc -d with --threads above 1 splits its chain of sources in two:
 * a producer thread pulls the decrypting source (input, armor,
 * packets, CFB and the MDC's SHA-1, or AEAD chunks) into a few
 * buffers, while the thread that owns the run reads them and does
 * the rest (decompression, the literal packet, the output).  The two
 * halves then take about as long as the slower one instead of their
 * sum.
 *
 * The producer reads nothing ahead that the source did not release,
 * so an AEAD chunk still reaches the output only once its tag is
 * checked.  Its failure travels with the data: the reading thread
 * receives the error, and its one-line message (error.h), when it
 * has read everything before it, exactly where reading on one thread
 * would have seen it.  Memory is SOURCE_THREAD_SLOTS buffers of
 * CHUNK_SIZE bytes, and a stack, taken only when the thread starts.
 */
#ifndef SFENC_SOURCE_THREAD_H
#define SFENC_SOURCE_THREAD_H

#include <gpg-error.h>

#include "iobuf.h"

/* Buffers between the producer and the reader.  */
#define SOURCE_THREAD_SLOTS 4

typedef struct source_thread source_thread_t;

/* Read SOURCE with SOURCE_CTX ahead on a thread, which starts once
 * source_thread_read has read a few buffers' worth directly (a short
 * message never starts it).  From now until source_thread_read
 * returns the end or an error, or until source_thread_stop, only
 * source_thread_read may use SOURCE_CTX.  Fails for lack of memory;
 * a thread that cannot start fails the source_thread_read that
 * starts it.  */
gpg_error_t source_thread_start (source_thread_t **r_st, source_fn_t source,
                                 void *source_ctx);

/* A source over the source_thread_t CTX: what SOURCE returned, in
 * order.  Once it returns the end of the data or an error, the
 * producer thread has ended and SOURCE_CTX is the caller's again;
 * later calls return the same.  */
gpg_error_t source_thread_read (void *ctx, unsigned char *buf, size_t size,
                                size_t *nread);

/* Whether the next reads of up to N bytes in all are answered without
 * waiting for the producer: N bytes are read ahead, or the end or the
 * error is known, now or within a millisecond (the producer may be
 * decrypting them).  False while the first bytes are read directly,
 * since those reads may wait for the input.  Only the thread that
 * calls source_thread_read may ask.  */
int source_thread_ready (source_thread_t *st, size_t n);

/* End the producer thread, even one blocked reading its input, wait
 * for it, and free ST.  */
void source_thread_stop (source_thread_t *st);

#endif /*SFENC_SOURCE_THREAD_H*/
