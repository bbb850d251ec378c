/* clock.h - the time written into packets (clock.c)
 */
#ifndef SFENC_CLOCK_H
#define SFENC_CLOCK_H

#include <time.h>

/* --faked-system-time ARG, as gpg takes it: "yyyymmddThhmmss" (UTC)
 * or seconds since 1970, followed by "!" for a clock that stands
 * still; without "!" the clock runs on from there.  Anything else is
 * 0, 1970-01-01, as in gpg.  Tells that the time is faked, as gpg.  */
void clock_fake (const char *arg);

/* The time now: the system's, or the one --faked-system-time set.  */
time_t clock_now (void);

#endif /*SFENC_CLOCK_H*/
