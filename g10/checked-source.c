/* checked-source.c - a deflate stream passed on only once checked
 *
 * Each read is one read of the stream's source and one feed of the
 * check: a piece the check refuses is not passed on, as on one thread
 * (inflate-engine.c, isal_next_input).  The header is read and passed
 * on by itself, before any data is checked, so that a bad header is
 * refused in the engine's words before the check sees the data.
 */
#include <config.h>

#include <stdlib.h>

#include "packet.h"
#include "deflate-check.h"
#include "checked-source.h"

struct checked_source
{
  source_fn_t source;
  void *source_ctx;
  deflate_check_t *check;
  size_t header_left;           /* Header bytes still to pass on.  */
  size_t trailer_len;
  int ended;                    /* The check saw the end of the stream.  */
  size_t trailer_left;          /* Then: trailer bytes still to read.  */
  const char *reason;           /* Why the check refused the stream.  */
};


gpg_error_t
checked_source_new (checked_source_t **r_cs, size_t header_len,
                    size_t trailer_len, source_fn_t source, void *source_ctx)
{
  checked_source_t *cs;

  *r_cs = NULL;
  cs = calloc (1, sizeof *cs);
  if (!cs)
    return gpg_error_from_syserror ();
  cs->check = deflate_check_new ();
  if (!cs->check)
    {
      free (cs);
      return gpg_error_from_syserror ();
    }
  cs->source = source;
  cs->source_ctx = source_ctx;
  cs->header_left = header_len;
  cs->trailer_len = trailer_len;
  *r_cs = cs;
  return 0;
}


/* Feed the N bytes just read at BUF to the check; N is 0 at the end
 * of the input.  */
static gpg_error_t
check_piece (checked_source_t *cs, const unsigned char *buf, size_t n)
{
  size_t after;

  cs->reason = deflate_check_feed (cs->check, buf, n, !n);
  if (cs->reason)
    return gpg_error (GPG_ERR_BAD_DATA);
  if (deflate_check_ended (cs->check, &after))
    {
      cs->ended = 1;
      cs->trailer_left = after < cs->trailer_len ? cs->trailer_len - after : 0;
    }
  return 0;
}


gpg_error_t
checked_source_read (void *ctx, unsigned char *buf, size_t size,
                     size_t *nread)
{
  checked_source_t *cs = ctx;
  gpg_error_t err;
  size_t n;
  int header = cs->header_left > 0;

  *nread = 0;
  if (cs->reason)
    return gpg_error (GPG_ERR_BAD_DATA);
  if (cs->ended && !cs->trailer_left)
    return 0;
  /* The check takes at most CHUNK_SIZE bytes at a time.  */
  if (size > CHUNK_SIZE)
    size = CHUNK_SIZE;
  if (header && size > cs->header_left)
    size = cs->header_left;
  if (cs->ended && size > cs->trailer_left)
    size = cs->trailer_left;
  err = cs->source (cs->source_ctx, buf, size, &n);
  if (err)
    return err;
  if (header)
    cs->header_left = n ? cs->header_left - n : 0;
  else if (cs->ended)
    cs->trailer_left = n ? cs->trailer_left - n : 0;
  else
    err = check_piece (cs, buf, n);
  if (!err)
    *nread = n;
  return err;
}


const char *
checked_source_reason (const checked_source_t *cs)
{
  return cs->reason;
}


void
checked_source_release (checked_source_t *cs)
{
  if (!cs)
    return;
  deflate_check_release (cs->check);
  free (cs);
}
