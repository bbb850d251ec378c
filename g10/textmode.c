/* textmode.c - the input of sfenc -c -t as OpenPGP canonical text
 *
 * RFC 4880 5.9: text data ('t') is stored with CR LF line endings.
 * gpg 2.2 makes it line by line: it strips the end of a line of every
 * carriage return, line feed and NUL byte (gpg tests the characters
 * with strchr, which also finds the NUL that ends its set) and puts
 * CR LF back when the line had a line feed; trailing blanks stay.  So
 * "a\r\r\n" becomes "a\r\n", "a\0\r\0\n" becomes "a\r\n", a last
 * line "x\r\0" without a line feed becomes "x", and carriage returns
 * and NULs inside a line stay ("a\0b\n", "x\0 \n").  With
 * --rfc2440-text (which --rfc2440 sets) gpg strips spaces and tabs from
 * the end of a line too, as RFC 2440 asked, the last line included:
 * "b \t\0\r\n" becomes "b\r\n".  The same is done here on the
 * stream.  The characters that may end a line are held, not a line, so
 * that lines of any length are taken (gpg refuses lines of 19994 bytes
 * or more before the line feed): runs of one character each, so that
 * the carriage returns of one line cost one run however many.  The
 * runs are held in an array that grows as they come, up to RUNS_MAX:
 * more runs than that make a line that gpg refuses too.  Checked
 * against gpg in tests/sfenc-gpgopts.bats.
 */
#include <config.h>

#include <stdint.h>
#include <stdlib.h>

#include "packet.h"
#include "error.h"
#include "iobuf.h"
#include "textmode.h"

/* The most runs of held characters (see above): each is a byte at
 * least, and gpg refuses a line of 19994 bytes before its line feed.
 * The array starts with RUNS_FIRST.  */
#define RUNS_MAX 19993
#define RUNS_FIRST 64

/* COUNT characters C read but not yet written.  */
struct held_run
{
  unsigned char c;
  uint64_t count;
};

struct text_source
{
  source_fn_t source;
  void *source_ctx;
  int strip_blanks;     /* --rfc2440-text.  */
  struct held_run *held;
  size_t held_room;     /* Runs the array has room for.  */
  size_t nheld;         /* Runs held.  */
  size_t next_held;     /* The first run not yet written.  */
  int owe_lf;           /* The LF of a CR LF the last call had no room for.  */
  int eof;
  size_t pos, len;
  unsigned char inbuf[CHUNK_SIZE];
};


gpg_error_t
text_source_new (text_source_t **r_ts, source_fn_t source, void *source_ctx,
                 int strip_blanks)
{
  text_source_t *ts;

  *r_ts = NULL;
  ts = calloc (1, sizeof *ts);
  if (!ts)
    return fail (gpg_error_from_syserror (), "out of core", NULL);
  ts->source = source;
  ts->source_ctx = source_ctx;
  ts->strip_blanks = strip_blanks;
  *r_ts = ts;
  ts->held_room = RUNS_FIRST;
  ts->held = malloc (ts->held_room * sizeof *ts->held);
  if (!ts->held)
    return fail (gpg_error_from_syserror (), "out of core", NULL);
  return 0;
}


/* Refill the input buffer of TS.  */
static gpg_error_t
refill (text_source_t *ts)
{
  gpg_error_t err;

  ts->pos = 0;
  err = ts->source (ts->source_ctx, ts->inbuf, sizeof ts->inbuf, &ts->len);
  if (!err && !ts->len)
    ts->eof = 1;
  return err;
}


/* Whether C is dropped when only such characters follow it on its
 * line.  */
static int
may_end_line (const text_source_t *ts, unsigned char c)
{
  return c == '\r' || c == '\0'
         || (ts->strip_blanks && (c == ' ' || c == '\t'));
}


/* Make room for more runs, up to RUNS_MAX.  */
static gpg_error_t
grow_held (text_source_t *ts)
{
  struct held_run *more;
  size_t room;

  if (ts->held_room == RUNS_MAX)
    return fail (gpg_error (GPG_ERR_TOO_LARGE), "-t",
                 "more than %d runs of %s in one place of a line",
                 RUNS_MAX, (ts->strip_blanks ? "NULs, CRs, spaces and tabs"
                            : "NULs and CRs"));
  room = ts->held_room * 2 < RUNS_MAX ? ts->held_room * 2 : RUNS_MAX;
  more = realloc (ts->held, room * sizeof *more);
  if (!more)
    return fail (gpg_error_from_syserror (), "out of core", NULL);
  ts->held = more;
  ts->held_room = room;
  return 0;
}


/* Hold C until it is known whether the line ends after it.  */
static gpg_error_t
hold (text_source_t *ts, unsigned char c)
{
  gpg_error_t err;

  if (ts->nheld && ts->held[ts->nheld - 1].c == c)
    {
      ts->held[ts->nheld - 1].count++;
      return 0;
    }
  if (ts->nheld == ts->held_room)
    {
      err = grow_held (ts);
      if (err)
        return err;
    }
  ts->held[ts->nheld].c = c;
  ts->held[ts->nheld].count = 1;
  ts->nheld++;
  return 0;
}


/* The next held character, now known to be inside its line.  */
static unsigned char
release_one (text_source_t *ts)
{
  struct held_run *run = &ts->held[ts->next_held];
  unsigned char c = run->c;

  if (!--run->count && ++ts->next_held == ts->nheld)
    ts->nheld = ts->next_held = 0;
  return c;
}


gpg_error_t
text_source_read (void *ctx, unsigned char *buf, size_t size, size_t *nread)
{
  text_source_t *ts = ctx;
  gpg_error_t err;
  size_t out = 0;
  unsigned char c;

  while (out < size)
    {
      if (ts->owe_lf)
        {
          buf[out++] = '\n';
          ts->owe_lf = 0;
          continue;
        }
      if (ts->pos == ts->len)
        {
          /* Hand out what is ready before waiting for more input.
           * At the end, the held characters end the last line and
           * are dropped.  */
          if (ts->eof || out)
            break;
          err = refill (ts);
          if (err)
            return err;
          continue;
        }
      c = ts->inbuf[ts->pos];
      if (c == '\n')
        {
          ts->nheld = ts->next_held = 0;
          buf[out++] = '\r';
          ts->owe_lf = 1;
        }
      else if (may_end_line (ts, c))
        {
          err = hold (ts, c);
          if (err)
            return err;
        }
      else if (ts->nheld)
        {
          /* The held characters are inside the line after all and
           * stay; C is read again.  */
          buf[out++] = release_one (ts);
          continue;
        }
      else
        buf[out++] = c;
      ts->pos++;
    }
  *nread = out;
  return 0;
}


void
text_source_release (text_source_t *ts)
{
  if (!ts)
    return;
  free (ts->held);
  free (ts);
}
