/* log.c - verbose messages and warnings
 */
#include <config.h>

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "log.h"
#include "options.h"
#include "progress.h"


/* Room for a line before and after escaping (\xNN for each byte).  */
#define LINE_MAX 1024
#define SHOWN_LINE_MAX (4 * LINE_MAX)


void
escape_controls (const unsigned char *s, size_t len, char *out,
                 size_t outsize)
{
  static const char controls[] = "\b\n\v\f\r";
  static const char letters[] = "bnvfr";
  const char *control;
  char one[5];
  size_t i, used = 0, n;

  for (i = 0; i < len; i++)
    {
      unsigned char c = s[i];

      if (c >= 0x20 && c != 0x7f)
        one[0] = c, one[1] = 0;
      else if (!c)
        strcpy (one, "\\0");
      else if ((control = strchr (controls, c)))
        snprintf (one, sizeof one, "\\%c", letters[control - controls]);
      else
        snprintf (one, sizeof one, "\\x%02x", c);
      n = strlen (one);
      if (used + n >= outsize)
        break;
      memcpy (out + used, one, n);
      used += n;
    }
  if (outsize)
    out[used] = 0;
}


static void log_line (const char *fmt, va_list ap)
  __attribute__ ((format (printf, 1, 0)));

/* Print "sfenc: " and FMT as one line on stderr.  */
static void
log_line (const char *fmt, va_list ap)
{
  char line[LINE_MAX], shown[SHOWN_LINE_MAX];
  int n;

  n = vsnprintf (line, sizeof line, fmt, ap);
  if (n < 0)
    return;
  escape_controls ((const unsigned char *)line,
                   (size_t)n < sizeof line ? (size_t)n : sizeof line - 1,
                   shown, sizeof shown);
  progress_break_line ();
  fprintf (stderr, "sfenc: %s\n", shown);
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
