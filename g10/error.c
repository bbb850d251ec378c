/* error.c - the one-line error message of a failed run
 *
 * sfenc reports a failure as one line "sfenc: WHAT: WHY" and exits
 * with status 2.  The stage that detects a problem knows best what
 * went wrong, so it records the message; the stages above it only
 * pass the error code along.
 */
#include <config.h>

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "error.h"

static char message[FAIL_MESSAGE_MAX];


gpg_error_t
fail (gpg_error_t err, const char *what, const char *fmt, ...)
{
  va_list ap;
  int n;

  if (*message)
    return err;
  n = snprintf (message, sizeof message, "%s: ", what);
  if (n < 0 || (size_t)n >= sizeof message)
    return err;
  if (fmt)
    {
      va_start (ap, fmt);
      vsnprintf (message + n, sizeof message - n, fmt, ap);
      va_end (ap);
    }
  else
    snprintf (message + n, sizeof message - n, "%s", gpg_strerror (err));
  return err;
}


void
fail_push (char *save, size_t savelen)
{
  snprintf (save, savelen, "%s", message);
  *message = 0;
}


void
fail_pop (const char *save)
{
  snprintf (message, sizeof message, "%s", save);
}


void
fail_print (gpg_error_t err, const char *what)
{
  if (*message)
    fprintf (stderr, "sfenc: %s\n", message);
  else
    fprintf (stderr, "sfenc: %s: %s\n", what, gpg_strerror (err));
}

