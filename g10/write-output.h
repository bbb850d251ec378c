/* write-output.h - write a command's output file, armored or not
 */
#ifndef SFENC_WRITE_OUTPUT_H
#define SFENC_WRITE_OUTPUT_H

#include <gpg-error.h>

#include "armor.h"
#include "iobuf.h"

/* Write the whole body of the output into SINK with SINK_CTX; CTX is
 * the caller's.  */
typedef gpg_error_t (*write_output_body_t) (void *ctx, sink_fn_t sink,
                                            void *sink_ctx);

/* Open the output NAME (as outfile_open takes it), have BODY with CTX
 * write into it, in an armor block of kind ARMOR unless ARMOR_NONE,
 * and close it: kept only when all went well, the first error
 * returned.  */
gpg_error_t write_output (const char *name, enum armor_block armor,
                          write_output_body_t body, void *ctx);

#endif /*SFENC_WRITE_OUTPUT_H*/
