/* textmode.c - the input of sfenc -c -t as OpenPGP canonical text
 *
 * RFC 4880 5.9: text data ('t') is stored with CR LF line endings.
 * gpg 2.2 makes it line by line: it strips every carriage return and
 * line feed from the end of a line and puts CR LF back when the line
 * had a line feed; trailing blanks stay (RFC 2440's stripping of them
 * is off by default).  So "a\r\r\n" becomes "a\r\n", a last line
 * "x\r" without a line feed becomes "x", and a carriage return inside
 * a line stays.  The same is done here on the stream, with a count of
 * the carriage returns not yet known to end a line instead of a line
 * buffer, so that lines of any length are taken (gpg refuses lines
 * longer than 19995 bytes).  Checked against gpg --store -t in
 * tests/sfenc-gpgopts.bats.
 */
#include <config.h>

#include <stdint.h>
#include <stdlib.h>

#include "packet.h"
#include "error.h"
#include "iobuf.h"
#include "textmode.h"

struct text_source
{
  source_fn_t source;
  void *source_ctx;
  uint64_t held_cr;     /* Carriage returns read but not yet written.  */
  int owe_lf;           /* The LF of a CR LF the last call had no room for.  */
  int eof;
  size_t pos, len;
  unsigned char inbuf[CHUNK_SIZE];
};


gpg_error_t
text_source_new (text_source_t **r_ts, source_fn_t source, void *source_ctx)
{
  text_source_t *ts;

  *r_ts = NULL;
  ts = calloc (1, sizeof *ts);
  if (!ts)
    return fail (gpg_error_from_syserror (), "out of core", NULL);
  ts->source = source;
  ts->source_ctx = source_ctx;
  *r_ts = ts;
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
           * At the end, the held carriage returns end no line and
           * are dropped.  */
          if (ts->eof || out)
            break;
          err = refill (ts);
          if (err)
            return err;
          continue;
        }
      c = ts->inbuf[ts->pos];
      if (c == '\r')
        ts->held_cr++;
      else if (c == '\n')
        {
          ts->held_cr = 0;
          buf[out++] = '\r';
          ts->owe_lf = 1;
        }
      else if (ts->held_cr)
        {
          /* Carriage returns inside a line stay; C is read again.  */
          buf[out++] = '\r';
          ts->held_cr--;
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
  free (ts);
}
