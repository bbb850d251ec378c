/* progress.c - how much of the input has been read
 *
 * The display is one line on stderr, redrawn after a carriage return
 * at most four times a second,
 *
 *   sfenc: read 1.5 GiB of 4.0 GiB (37%), 512.0 MiB/s, 0:05 left
 *
 * or only the count and the rate when the size of the input is not
 * known, and at the end the total, the time spent reading and the
 * average rate, with a newline.  The rate is a moving average over
 * samples of at least a quarter of a second.  A gap of more than a
 * second between two reads (a passphrase prompt, a stalled pipe) is
 * not reading time: it starts a new sample and is left out of the
 * average, so waiting does not show as slow reading.  Nor is the time
 * up to the second read: a message's first read holds its key packets,
 * and the next comes once the key is derived.
 *
 * The PROGRESS status lines are gpg 2.2's: one when the input is
 * opened, at most one a second while it is read, one at its end.
 */
#include <config.h>

#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "iobuf.h"
#include "progress.h"
#include "status.h"

#define REDRAW_MS 250
#define STATUS_MS 1000
#define PAUSE_MS 1000

/* A moving average: each sample moves the rate by this fraction of
 * its difference.  */
#define RATE_WEIGHT 0.25

static struct
{
  int display;          /* --progress.  */
  int status;           /* --enable-progress-filter.  */
  int active;           /* Started, with something to report.  */
  unsigned int reads;   /* Counted up to 2 only.  */
  const char *what;
  uint64_t done;        /* Bytes read.  */
  uint64_t total;       /* Size of the input, 0 when unknown.  */
  uint64_t start_ms, seen_ms, drawn_ms, status_ms, paused_ms;
  uint64_t mark_ms, mark_done;  /* Start of the current rate sample.  */
  uint64_t status_done; /* DONE at the last PROGRESS line.  */
  double rate;          /* Bytes per second; 0 before the first sample.  */
  size_t line_len;      /* Of the line on stderr; 0 once it is ended.  */
} meter;

/* With --threads, the input is read on another thread than the one
 * that logs (source-thread.c): the meter and its line on stderr are
 * shared under this lock, which is taken with cancellation disabled,
 * so that cancelling the reading thread cannot leave it held.  */
static pthread_mutex_t meter_lock = PTHREAD_MUTEX_INITIALIZER;


/* Take METER_LOCK, storing the cancellation state to restore.  */
static void
lock_meter (int *cancel_state)
{
  pthread_setcancelstate (PTHREAD_CANCEL_DISABLE, cancel_state);
  pthread_mutex_lock (&meter_lock);
}


static void
unlock_meter (int cancel_state)
{
  int disabled;

  pthread_mutex_unlock (&meter_lock);
  pthread_setcancelstate (cancel_state, &disabled);
}


/* Milliseconds of the coarse monotonic clock: a read of the vDSO
 * without a system call, precise to a few milliseconds.  */
static uint64_t
now_ms (void)
{
  struct timespec ts;

#ifdef CLOCK_MONOTONIC_COARSE
  clock_gettime (CLOCK_MONOTONIC_COARSE, &ts);
#else
  clock_gettime (CLOCK_MONOTONIC, &ts);
#endif
  return (uint64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}


void
progress_enable_display (void)
{
  meter.display = 1;
}


void
progress_enable_status (void)
{
  meter.status = 1;
}


void
progress_start (int fd, const char *name)
{
  struct stat st;
  off_t pos;

  meter.status = meter.status && status_enabled ();
  meter.active = meter.display || meter.status;
  if (!meter.active)
    return;
  /* Each file of --decrypt-files is counted from 0.  */
  meter.reads = 0;
  meter.done = meter.total = meter.paused_ms = 0;
  meter.mark_ms = meter.mark_done = meter.status_done = 0;
  meter.rate = 0;
  meter.what = name;
  if (!fstat (fd, &st) && S_ISREG (st.st_mode))
    {
      pos = lseek (fd, 0, SEEK_CUR);
      if (pos < 0)
        pos = 0;
      if (st.st_size > pos)
        meter.total = st.st_size - pos;
    }
  meter.start_ms = meter.seen_ms = meter.drawn_ms = meter.status_ms = now_ms ();
  if (meter.status)
    status_progress (name, 0, meter.total);
}


static void
format_bytes (char *buf, size_t size, double n)
{
  static const char *const units[] = { "KiB", "MiB", "GiB", "TiB", "PiB" };
  int unit = -1;

  while (n >= 1024 && unit < 4)
    {
      n /= 1024;
      unit++;
    }
  if (unit < 0)
    snprintf (buf, size, "%.0f B", n);
  else
    snprintf (buf, size, "%.1f %s", n, units[unit]);
}


static void
format_time (char *buf, size_t size, uint64_t seconds)
{
  if (seconds >= 3600)
    snprintf (buf, size, "%u:%02u:%02u", (unsigned int)(seconds / 3600),
              (unsigned int)(seconds / 60 % 60), (unsigned int)(seconds % 60));
  else
    snprintf (buf, size, "%u:%02u", (unsigned int)(seconds / 60),
              (unsigned int)(seconds % 60));
}


/* The line while reading: what is read, of how much, and once the
 * rate is known, how fast and how long the rest will take.  */
static void
format_running (char *line, size_t size)
{
  char done[32], total[32], rate[32], left[32];
  size_t n;
  uint64_t rest;

  format_bytes (done, sizeof done, meter.done);
  n = snprintf (line, size, "sfenc: read %s", done);
  if (meter.total)
    {
      format_bytes (total, sizeof total, meter.total);
      n += snprintf (line + n, size - n, " of %s (%u%%)", total,
                     meter.done >= meter.total ? 100
                     : (unsigned int)(meter.done * 100 / meter.total));
    }
  if (meter.rate <= 0)
    return;
  format_bytes (rate, sizeof rate, meter.rate);
  n += snprintf (line + n, size - n, ", %s/s", rate);
  if (meter.total > meter.done)
    {
      rest = meter.total - meter.done;
      format_time (left, sizeof left, (uint64_t)(rest / meter.rate) + 1);
      snprintf (line + n, size - n, ", %s left", left);
    }
}


/* Replace the line on stderr by LINE, blanking what is left of a
 * longer one.  */
static void
draw (const char *line)
{
  size_t len = strlen (line);

  fprintf (stderr, "\r%s%*s", line,
           (int)(meter.line_len > len ? meter.line_len - len : 0), "");
  meter.line_len = len;
}


/* Take a rate sample when the current one is long enough.  */
static void
sample_rate (uint64_t now)
{
  double rate;

  if (now - meter.mark_ms < REDRAW_MS)
    return;
  rate = (double)(meter.done - meter.mark_done) * 1000 / (now - meter.mark_ms);
  meter.rate = meter.rate > 0 ? meter.rate + (rate - meter.rate) * RATE_WEIGHT
               : rate;
  meter.mark_ms = now;
  meter.mark_done = meter.done;
}


/* After a read: note a pause, redraw and write a PROGRESS line when
 * it is time.  EOF is true at the end of the input.  */
static void
progress_update (int eof)
{
  uint64_t now = now_ms ();
  char line[256];

  if (meter.reads < 2 || now - meter.seen_ms > PAUSE_MS)
    {
      meter.paused_ms += now - meter.seen_ms;
      meter.mark_ms = now;
      meter.mark_done = meter.done;
      if (meter.reads < 2)
        meter.reads++;
    }
  meter.seen_ms = now;
  if (meter.display && now - meter.drawn_ms >= REDRAW_MS)
    {
      sample_rate (now);
      format_running (line, sizeof line);
      draw (line);
      meter.drawn_ms = now;
    }
  if (meter.status && (eof ? meter.done != meter.status_done
                       : now - meter.status_ms >= STATUS_MS))
    {
      status_progress (meter.what, meter.done, meter.total);
      meter.status_done = meter.done;
      meter.status_ms = now;
    }
}


gpg_error_t
progress_source (void *ctx, unsigned char *buf, size_t size, size_t *nread)
{
  gpg_error_t err = fd_source (ctx, buf, size, nread);
  int cancel_state;

  lock_meter (&cancel_state);
  meter.done += *nread;
  if (meter.active && !err)
    progress_update (!*nread);
  unlock_meter (cancel_state);
  return err;
}


/* End the line on stderr, if one was drawn; METER_LOCK held.  */
static void
break_line (void)
{
  if (!meter.line_len)
    return;
  fputc ('\n', stderr);
  meter.line_len = 0;
}


void
progress_finish (void)
{
  char line[256], done[32], rate[32], spent[32];
  uint64_t ms;
  size_t n;
  int cancel_state;

  lock_meter (&cancel_state);
  if (!meter.active || !meter.display)
    {
      unlock_meter (cancel_state);
      return;
    }
  meter.active = 0;
  ms = now_ms () - meter.start_ms - meter.paused_ms;
  format_bytes (done, sizeof done, meter.done);
  if (ms < 60000)
    snprintf (spent, sizeof spent, "%.1f s", ms / 1000.0);
  else
    format_time (spent, sizeof spent, (ms + 500) / 1000);
  n = snprintf (line, sizeof line, "sfenc: read %s in %s", done, spent);
  /* No rate for reading too short to have been sampled.  */
  if (meter.rate > 0 && ms)
    {
      format_bytes (rate, sizeof rate, (double)meter.done * 1000 / ms);
      snprintf (line + n, sizeof line - n, ", %s/s", rate);
    }
  draw (line);
  break_line ();
  unlock_meter (cancel_state);
}


void
progress_break_line (void)
{
  int cancel_state;

  lock_meter (&cancel_state);
  break_line ();
  unlock_meter (cancel_state);
}
