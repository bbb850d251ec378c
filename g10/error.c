/* error.c - the one-line error message of a failed run
 *
 * sfenc reports a failure as one line "sfenc: WHAT: WHY" and exits
 * with status 2.  The stage that detects a problem knows best what
 * went wrong, so it records the message; the stages above it only
 * pass the error code along.
 *
 * The message is kept per thread: a stage that runs on a thread of
 * its own (source-thread.c) hands its message to the thread that
 * reads from it, which records it when it reaches the failure, so
 * the first failure in the order of the data is the one reported,
 * whatever the timing of the threads.
 */
#include <config.h>

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "error.h"
#include "log.h"

static _Thread_local char message[FAIL_MESSAGE_MAX];


gpg_error_t
fail (gpg_error_t err, const char *what, const char *fmt, ...)
{
  char raw[FAIL_MESSAGE_MAX];
  va_list ap;
  int n;

  if (*message)
    return err;
  n = snprintf (raw, sizeof raw, "%s: ", what);
  if (n < 0 || (size_t)n >= sizeof raw)
    return err;
  if (fmt)
    {
      va_start (ap, fmt);
      vsnprintf (raw + n, sizeof raw - n, fmt, ap);
      va_end (ap);
    }
  else
    snprintf (raw + n, sizeof raw - n, "%s", gpg_strerror (err));
  /* WHAT and the values in WHY may be a file name or an option value
   * of the user's, or a name from the message: the message must stay
   * one line whatever they hold.  */
  escape_controls ((const unsigned char *)raw, strlen (raw), message,
                   sizeof message);
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


gpg_error_t
fail_adopt (gpg_error_t err, const char *recorded)
{
  if (!*message)
    snprintf (message, sizeof message, "%s", recorded);
  return err;
}


void
fail_print (gpg_error_t err, const char *what)
{
  if (*message)
    fprintf (stderr, "sfenc: %s\n", message);
  else
    fprintf (stderr, "sfenc: %s: %s\n", what, gpg_strerror (err));
}

