/* clock.c - the time written into packets
 *
 * gpg's --faked-system-time sets the time gpg believes it is, so that
 * what it writes with a date (the literal data packet here) can be
 * made again byte for byte: tests compare sfenc's --store with gpg's
 * that way.  The faked clock runs on from the time given, as gpg's
 * does, unless the time ends in "!".
 */
#include <config.h>

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "clock.h"
#include "log.h"

/* Added to the system's time; or the time itself when frozen.  */
static time_t offset;
static time_t frozen_at;
static int frozen;


/* The number the N decimal digits at S write.  */
static int
digits (const char *s, int n)
{
  int v = 0;

  while (n--)
    v = v * 10 + *s++ - '0';
  return v;
}


/* Parse "yyyymmddThhmmss" at S into *R_TIME (UTC).  */
static int
parse_isotime (const char *s, time_t *r_time)
{
  struct tm tm;
  size_t i;

  for (i = 0; i < 15; i++)
    if (i == 8 ? s[i] != 'T' : (s[i] < '0' || s[i] > '9'))
      return 0;
  memset (&tm, 0, sizeof tm);
  tm.tm_year = digits (s, 4) - 1900;
  tm.tm_mon = digits (s + 4, 2) - 1;
  tm.tm_mday = digits (s + 6, 2);
  tm.tm_hour = digits (s + 9, 2);
  tm.tm_min = digits (s + 11, 2);
  tm.tm_sec = digits (s + 13, 2);
  *r_time = timegm (&tm);
  return *r_time != (time_t)-1;
}


void
clock_fake (const char *arg)
{
  size_t len = strlen (arg);
  time_t t;
  struct tm *tm;
  char shown[32];

  frozen = len && arg[len - 1] == '!';
  if (!parse_isotime (arg, &t))
    t = (time_t)strtoul (arg, NULL, 10);
  frozen_at = t;
  offset = t - time (NULL);
  tm = gmtime (&t);
  if (!tm || !strftime (shown, sizeof shown, "%Y-%m-%d %H:%M:%S", tm))
    strcpy (shown, "?");
  log_warning ("WARNING: running with faked system time: %s", shown);
}


time_t
clock_now (void)
{
  return frozen ? frozen_at : time (NULL) + offset;
}
