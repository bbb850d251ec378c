/* log.c - verbose messages and warnings
 */
#include <config.h>

#include <stdarg.h>
#include <stdio.h>

#include "log.h"
#include "options.h"
#include "progress.h"


static void log_line (const char *fmt, va_list ap)
  __attribute__ ((format (printf, 1, 0)));

/* Print "sfenc: " and FMT as one line on stderr.  */
static void
log_line (const char *fmt, va_list ap)
{
  progress_break_line ();
  fputs ("sfenc: ", stderr);
  vfprintf (stderr, fmt, ap);
  putc ('\n', stderr);
}


void
log_info (const char *fmt, ...)
{
  va_list ap;

  if (!opt.verbose)
    return;
  va_start (ap, fmt);
  log_line (fmt, ap);
  va_end (ap);
}


void
log_warning (const char *fmt, ...)
{
  va_list ap;

  if (opt.quiet)
    return;
  va_start (ap, fmt);
  log_line (fmt, ap);
  va_end (ap);
}
