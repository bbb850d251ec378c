/* error.h - the one-line error message of a failed run (error.c)
 */
#ifndef SFENC_ERROR_H
#define SFENC_ERROR_H

#include <stddef.h>
#include <gpg-error.h>

/* Record the error message "WHAT: WHY" of the first failure of a run
 * on the calling thread and return ERR, so a caller can write
 * "return fail (err, ...)".
 * WHY is formatted from FMT, or is gpg_strerror (ERR) when FMT is
 * NULL.  Later calls do not replace the first message, so the stage
 * that saw the problem names it, not the ones that pass it along.  */
gpg_error_t fail (gpg_error_t err, const char *what, const char *fmt, ...)
  __attribute__ ((format (printf, 3, 4)));

/* Room for a recorded message.  */
#define FAIL_MESSAGE_MAX 512

/* Move the recorded message to SAVE (SAVELEN bytes) and forget it, to
 * see whether further work records another one.  */
void fail_push (char *save, size_t savelen);

/* Restore a message moved away by fail_push.  */
void fail_pop (const char *save);

/* Record RECORDED, a message another thread moved away with
 * fail_push, unless this thread recorded one already; return ERR.  */
gpg_error_t fail_adopt (gpg_error_t err, const char *recorded);

/* Print the recorded message, or "WHAT: gpg_strerror (ERR)" when
 * none was recorded, as one line on stderr.  */
void fail_print (gpg_error_t err, const char *what);

#endif /*SFENC_ERROR_H*/
