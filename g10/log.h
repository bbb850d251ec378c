/* log.h - the messages of a run that goes on (log.c)
 *
 * Both write one line "sfenc: ..." on stderr, first ending the
 * --progress display's line, with control characters escaped.  A
 * failure is reported through error.h instead.
 */
#ifndef SFENC_LOG_H
#define SFENC_LOG_H

#include <stddef.h>

/* Print a verbose (-v) message.  */
void log_info (const char *fmt, ...) __attribute__ ((format (printf, 1, 2)));

/* Print a warning unless -q.  */
void log_warning (const char *fmt, ...)
  __attribute__ ((format (printf, 1, 2)));

/* Copy the LEN bytes at S to OUT, of OUTSIZE bytes, as a string with
 * the control characters escaped (\n, \x1b, \0), so that a file name,
 * an option value or a name from a message stays on the line that
 * shows it.  What does not fit is cut at a whole character.  */
void escape_controls (const unsigned char *s, size_t len, char *out,
                      size_t outsize);

#endif /*SFENC_LOG_H*/
