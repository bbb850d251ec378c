/* inflate-engine.c - one raw deflate or zlib stream, through zlib or
 * ISA-L's isal_inflate
 *
 * zlib is the reference: every stream it accepts must give the same
 * bytes through ISA-L.  ISA-L reads the deflate data alone; the zlib
 * header is read here (isal_zlib_header), where isal_inflate would
 * take more than zlib and then misbehave.  What isal_inflate takes
 * that zlib refuses is listed in inflate-engine.h.
 */
#include <config.h>

#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <zlib.h>
#ifdef HAVE_ISAL
# include <isa-l/igzip_lib.h>
#endif

#include "packet.h"
#include "error.h"
#include "inflate-engine.h"

/* zlib's largest window, which it allocates when asked for any.  */
#define ZLIB_WINDOW_BITS 15

struct inflate_engine
{
  enum inflate_impl impl;
  enum inflate_framing framing;
  source_fn_t source;
  void *source_ctx;
  int input_eof;
  int done;                     /* The stream ended.  */
  /* The input past the stream's end: HELD bytes that the library read
   * into its bit buffer (ISA-L only), then NEXT_AFTER.  */
  unsigned char held[8];
  size_t held_len, held_pos;
  const unsigned char *next_after;
  size_t avail_after;
  const char *reason;           /* Why the engine refused the stream.  */
  z_stream zs;                  /* zlib; zs_open while it holds memory.  */
  int zs_open;
#ifdef HAVE_ISAL
  struct inflate_state *isal;
  unsigned char zlib_header[2]; /* As read so far, for ISA-L.  */
  int zlib_header_len;
#endif
  unsigned char inbuf[CHUNK_SIZE];
};


int
inflate_impl_from_name (const char *name)
{
  if (!strcasecmp (name, "zlib"))
    return INFLATE_IMPL_ZLIB;
#ifdef HAVE_ISAL
  if (!strcasecmp (name, "isal"))
    return INFLATE_IMPL_ISAL;
#endif
  return -1;
}


const char *
inflate_impl_name (enum inflate_impl impl)
{
  return impl == INFLATE_IMPL_ISAL ? "isal" : "zlib";
}


const char *
inflate_impl_names (void)
{
#ifdef HAVE_ISAL
  return "zlib, isal";
#else
  return "zlib";
#endif
}


/* Refuse the stream: CODE, and REASON for the owner's message.  */
static gpg_error_t
refuse (inflate_engine_t *e, gpg_err_code_t code, const char *reason)
{
  e->reason = reason;
  return gpg_error (code);
}


/* Refill the input buffer when it is empty: *R_AVAIL and *R_NEXT are
 * the library's view of it.  */
static gpg_error_t
refill (inflate_engine_t *e, size_t *r_avail, unsigned char **r_next)
{
  gpg_error_t err;
  size_t n;

  if (*r_avail || e->input_eof)
    return 0;
  err = e->source (e->source_ctx, e->inbuf, sizeof e->inbuf, &n);
  if (err)
    return err;
  e->input_eof = !n;
  *r_next = e->inbuf;
  *r_avail = n;
  return 0;
}


static gpg_error_t
zlib_open (inflate_engine_t *e)
{
  int bits = e->framing == INFLATE_RAW ? -ZLIB_WINDOW_BITS : ZLIB_WINDOW_BITS;

  if (inflateInit2 (&e->zs, bits) != Z_OK)
    return gpg_error (GPG_ERR_ENOMEM);
  e->zs_open = 1;
  return 0;
}


static gpg_error_t
zlib_read (inflate_engine_t *e, unsigned char *buf, size_t size,
           size_t *nread)
{
  gpg_error_t err;
  size_t avail;
  int zrc;

  e->zs.next_out = buf;
  e->zs.avail_out = size;
  while (e->zs.avail_out == size)
    {
      avail = e->zs.avail_in;
      err = refill (e, &avail, &e->zs.next_in);
      if (err)
        return err;
      e->zs.avail_in = avail;
      zrc = inflate (&e->zs, Z_NO_FLUSH);
      if (zrc == Z_STREAM_END)
        {
          /* zlib reads no byte past the end of the stream.  */
          e->next_after = e->zs.next_in;
          e->avail_after = e->zs.avail_in;
          /* Free the window while the rest of the message, perhaps a
           * layer nested inside, still runs.  */
          inflateEnd (&e->zs);
          e->zs_open = 0;
          e->done = 1;
          break;
        }
      if (zrc == Z_BUF_ERROR && e->input_eof)
        return refuse (e, GPG_ERR_TRUNCATED, "truncated");
      if (zrc == Z_NEED_DICT)
        return refuse (e, GPG_ERR_BAD_DATA, "preset dictionary");
      if (zrc != Z_OK && zrc != Z_BUF_ERROR)
        return refuse (e, GPG_ERR_BAD_DATA,
                       e->zs.msg ? e->zs.msg : "zlib error");
    }
  *nread = size - e->zs.avail_out;
  return 0;
}


#ifdef HAVE_ISAL
static gpg_error_t
isal_open (inflate_engine_t *e)
{
  e->isal = malloc (sizeof *e->isal);
  if (!e->isal)
    return gpg_error_from_syserror ();
  isal_inflate_init (e->isal);
  /* The zlib header is read here (isal_zlib_header); ISA-L then
   * inflates the deflate data and checks the Adler-32 after it.  */
  e->isal->crc_flag = e->framing == INFLATE_RAW ? ISAL_DEFLATE
                      : ISAL_ZLIB_NO_HDR_VER;
  if (e->framing == INFLATE_RAW)
    e->zlib_header_len = sizeof e->zlib_header;
  return 0;
}


/* Read the two bytes of the zlib header (RFC 1950 2.2) from the input
 * and check them as zlib does: isal_inflate 2.30 takes a window over
 * 32 KiB and then runs off the end of its output, and it limits the
 * distances to a smaller window that the header names, which zlib
 * only takes as a hint.  */
static gpg_error_t
isal_zlib_header (inflate_engine_t *e)
{
  struct inflate_state *st = e->isal;
  const char *reason;

  while (e->zlib_header_len < 2 && st->avail_in)
    {
      e->zlib_header[e->zlib_header_len++] = *st->next_in++;
      st->avail_in--;
    }
  if (e->zlib_header_len < 2)
    return 0;
  reason = inflate_zlib_header_reason (e->zlib_header);
  return reason ? refuse (e, GPG_ERR_BAD_DATA, reason) : 0;
}


/* Why isal_inflate returned RC.  */
static const char *
isal_reason (int rc)
{
  switch (rc)
    {
    case ISAL_NEED_DICT: return "preset dictionary";
    case ISAL_INVALID_BLOCK: return "invalid block";
    case ISAL_INVALID_SYMBOL: return "invalid symbol";
    case ISAL_INVALID_LOOKBACK: return "invalid distance too far back";
    case ISAL_INVALID_WRAPPER: return "incorrect header check";
    case ISAL_UNSUPPORTED_METHOD: return "unknown compression method";
    case ISAL_INCORRECT_CHECKSUM: return "incorrect data check";
    default: return "isal_inflate error";
    }
}


/* The next piece of input for isal_inflate, after the zlib header.  */
static gpg_error_t
isal_next_input (inflate_engine_t *e)
{
  struct inflate_state *st = e->isal;
  gpg_error_t err;
  size_t avail = 0;

  err = refill (e, &avail, &st->next_in);
  if (err)
    return err;
  st->avail_in = avail;
  if (e->zlib_header_len < 2)
    return isal_zlib_header (e);
  return 0;
}


/* Keep the input past the end of the stream that isal_inflate read:
 * whole bytes in its bit buffer, after the bits that pad the stream's
 * last byte, then the rest of the input buffer.  isal_inflate 2.30
 * has used up its buffer for short input (tmp_in_buffer) by then: it
 * was empty at the end of 8,000 streams fed in pieces of 1 to 4,096
 * bytes, and tests/t-inflate.c checks the bytes after the end.  */
static void
isal_keep_after (inflate_engine_t *e)
{
  struct inflate_state *st = e->isal;
  uint64_t bits = st->read_in >> (st->read_in_length % 8);

  for (e->held_len = 0; e->held_len < (size_t)st->read_in_length / 8;
       e->held_len++)
    e->held[e->held_len] = bits >> (8 * e->held_len);
  e->next_after = st->next_in;
  e->avail_after = st->avail_in;
}


static gpg_error_t
isal_read (inflate_engine_t *e, unsigned char *buf, size_t size,
           size_t *nread)
{
  struct inflate_state *st = e->isal;
  gpg_error_t err;
  int rc;

  st->next_out = buf;
  st->avail_out = size;
  while (st->avail_out == size)
    {
      if (!st->avail_in && !e->input_eof)
        {
          err = isal_next_input (e);
          if (err)
            return err;
        }
      rc = isal_inflate (st);
      if (rc != ISAL_DECOMP_OK)
        return refuse (e, GPG_ERR_BAD_DATA, isal_reason (rc));
      if (st->block_state == ISAL_BLOCK_FINISH)
        {
          isal_keep_after (e);
          /* Free the state at once, as zlib_read frees its window.  */
          *nread = size - st->avail_out;
          free (e->isal);
          e->isal = NULL;
          e->done = 1;
          return 0;
        }
      if (e->input_eof && !st->avail_in && st->avail_out == size)
        return refuse (e, GPG_ERR_TRUNCATED, "truncated");
    }
  *nread = size - st->avail_out;
  return 0;
}
#endif /*HAVE_ISAL*/


gpg_error_t
inflate_engine_new (inflate_engine_t **r_engine, enum inflate_impl impl,
                    enum inflate_framing framing, source_fn_t source,
                    void *source_ctx)
{
  inflate_engine_t *e;
  gpg_error_t err;

  *r_engine = NULL;
  e = calloc (1, sizeof *e);
  if (!e)
    return gpg_error_from_syserror ();
  e->impl = impl;
  e->framing = framing;
  e->source = source;
  e->source_ctx = source_ctx;
#ifdef HAVE_ISAL
  if (impl == INFLATE_IMPL_ISAL)
    err = isal_open (e);
  else
#endif
    err = zlib_open (e);
  if (err)
    {
      inflate_engine_release (e);
      return err;
    }
  *r_engine = e;
  return 0;
}


gpg_error_t
inflate_engine_read (inflate_engine_t *e, unsigned char *buf, size_t size,
                     size_t *nread)
{
  *nread = 0;
  if (e->done || !size)
    return 0;
  /* Both libraries count the output space in 32 bits.  */
  if (size > UINT_MAX)
    size = UINT_MAX;
#ifdef HAVE_ISAL
  if (e->impl == INFLATE_IMPL_ISAL)
    return isal_read (e, buf, size, nread);
#endif
  return zlib_read (e, buf, size, nread);
}


gpg_error_t
inflate_engine_read_after (void *ctx, unsigned char *buf, size_t size,
                           size_t *nread)
{
  inflate_engine_t *e = ctx;
  size_t n;

  if (e->held_pos < e->held_len)
    {
      n = e->held_len - e->held_pos;
      n = n < size ? n : size;
      memcpy (buf, e->held + e->held_pos, n);
      e->held_pos += n;
    }
  else if (e->avail_after)
    {
      n = e->avail_after < size ? e->avail_after : size;
      memcpy (buf, e->next_after, n);
      e->next_after += n;
      e->avail_after -= n;
    }
  else if (e->input_eof)
    n = 0;
  else
    return e->source (e->source_ctx, buf, size, nread);
  *nread = n;
  return 0;
}


const char *
inflate_zlib_header_reason (const unsigned char h[2])
{
  if ((h[0] << 8 | h[1]) % 31)
    return "incorrect header check";
  if ((h[0] & 0x0f) != Z_DEFLATED)
    return "unknown compression method";
  if ((h[0] >> 4) + 8 > ZLIB_WINDOW_BITS)
    return "invalid window size";
  if (h[1] & 0x20)
    return "preset dictionary";
  return NULL;
}


const char *
inflate_engine_reason (const inflate_engine_t *e)
{
  return e->reason;
}


void
inflate_engine_release (inflate_engine_t *e)
{
  if (!e)
    return;
  if (e->zs_open)
    inflateEnd (&e->zs);
#ifdef HAVE_ISAL
  free (e->isal);
#endif
  free (e);
}
