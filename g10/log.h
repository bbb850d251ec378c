/* log.h - the messages of a run that goes on (log.c)
 *
 * Both write one line "sfenc: ..." on stderr, first ending the
 * --progress display's line.  A failure is reported through error.h
 * instead.
 */
#ifndef SFENC_LOG_H
#define SFENC_LOG_H

/* Print a verbose (-v) message.  */
void log_info (const char *fmt, ...) __attribute__ ((format (printf, 1, 2)));

/* Print a warning unless -q.  */
void log_warning (const char *fmt, ...)
  __attribute__ ((format (printf, 1, 2)));

#endif /*SFENC_LOG_H*/
