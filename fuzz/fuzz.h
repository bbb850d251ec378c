/* fuzz.h - what the harnesses of fuzz/ share
 *
 * Each harness is one file defining LLVMFuzzerTestOneInput.  Built
 * with --enable-fuzz it is linked with libFuzzer's main; otherwise
 * with driver.c, which runs it once on each file named on its command
 * line, so that "make check" replays the seed corpora and the inputs
 * of past findings (fuzz/regress/).  doc/security.md says how to run
 * them.
 */
#ifndef SFENC_FUZZ_H
#define SFENC_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <gpg-error.h>

/* What every harness meets: the cipher table, the packet numbers,
 * the options the start-up sets, the error message of an input and
 * the sources and readers the stages are made of.  */
#include "libsfcipher.h"
#include "packet.h"
#include "options.h"
#include "error.h"
#include "iobuf.h"

/* The passphrase of every message the harnesses decrypt; the seed
 * corpora (fuzz/make-corpus.sh) are encrypted with it.  */
#define FUZZ_PASSPHRASE "sfenc fuzz"

/* libFuzzer's entry point.  Returns 0.  */
int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

/*-- fuzz-common.c --*/

/* Start up once, as sfenc's main does, with OPT at sfenc's defaults
 * but for decrypting with FUZZ_PASSPHRASE to /dev/null; a harness
 * that cannot start says why and exits, as that is no finding.  Every
 * harness calls it first.  */
void fuzz_start (void);

/* Parse the command line ARGV (ARGC entries, ARGV[0] the program)
 * with sfenc's option parser (g10/options.c) into OPT.  */
gpg_error_t fuzz_parse_command_line (int argc, char **argv);

/* Forget the error message the last input recorded (error.c keeps
 * the first message of a run).  */
void fuzz_forget_error (void);

/* DATA as a source that hands out a few bytes at a time, as a pipe
 * may, so that a stage meets its input in pieces of every size; the
 * piece size follows from the length of the data.  */
typedef struct fuzz_source
{
  const uint8_t *data;
  size_t len;
  size_t pos;
  size_t piece;
} fuzz_source_t;

void fuzz_source_init (fuzz_source_t *src, const uint8_t *data, size_t len);
gpg_error_t fuzz_source_read (void *ctx, unsigned char *buf, size_t size,
                              size_t *nread);

/* How a reader of a stream ended, as fuzz_read_stream read it.  */
enum fuzz_ending
  {
    FUZZ_ENDED_GOOD,
    FUZZ_ENDED_REFUSED,
    FUZZ_ENDED_AT_LIMIT
  };

/* Read SOURCE with CTX into OUT until it ends, fails or has given
 * LIMIT bytes, *OUTLEN of them.  */
enum fuzz_ending fuzz_read_stream (source_fn_t source, void *ctx,
                                   unsigned char *out, size_t limit,
                                   size_t *outlen);

/* Abort unless a reader on threads, which ended as PEND after the
 * PLEN bytes at POUT, agrees with a serial one, SEND after SLEN at
 * SOUT: where both ended before the limit, both refused or both gave
 * the same number of bytes, and the bytes both gave are the same as
 * far as both went (a serial reader may give a damaged block's first
 * bytes, one on threads never gives a piece it doubts).  */
void fuzz_same_outcome (enum fuzz_ending pend, const unsigned char *pout,
                        size_t plen, enum fuzz_ending send,
                        const unsigned char *sout, size_t slen);

/* Read R to its end, or up to LIMIT bytes, and drop what was read.  */
gpg_error_t fuzz_drain (reader_t *r, size_t limit);

/* Run DATA through sfenc -d (decrypt_file) as its standard input.  */
gpg_error_t fuzz_decrypt (const uint8_t *data, size_t size);

/* How fuzz_frame writes the length of a packet.  */
enum fuzz_framing
  {
    FUZZ_DEFINITE,      /* A definite length, new format.  */
    FUZZ_PARTIAL,       /* Partial body lengths of 2^SHIFT bytes, then a
                         * definite last part of 1 to 2^SHIFT bytes.  */
    FUZZ_PARTIAL_EMPTY, /* The same, the last part 0 to 2^SHIFT - 1.  */
    FUZZ_INDETERMINATE  /* Old format, indeterminate, for tag 9 (SED);
                         * a five-octet length for the other tags.  */
  };

/* Write the packet TAG with BODY (LEN bytes) to OUT as FRAMING says;
 * return its size, at most 2 * LEN + 8.  */
size_t fuzz_frame (unsigned char *out, int tag, const unsigned char *body,
                   size_t len, enum fuzz_framing framing,
                   unsigned int shift);

#endif /*SFENC_FUZZ_H*/
