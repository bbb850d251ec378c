/* iobuf.c - buffered readers, file descriptors and OpenPGP packet framing
 *
 * Packet headers and lengths follow RFC 4880 4.2: old-format headers
 * (1, 2, 4 octet or indeterminate lengths) and new-format headers
 * (1, 2, 5 octet and partial body lengths) are read; new-format
 * headers with partial body lengths are written.  Partial and
 * indeterminate lengths are refused on packets other than data
 * packets (4.2.2.4), as gpg refuses them.
 *
 * Data moves in large blocks: a read at least as large as a reader's
 * buffer goes straight from the source into the caller's memory, and
 * a packet writer lets its producer fill the chunk buffer in place.
 */
#include <config.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "packet.h"
#include "error.h"
#include "iobuf.h"


gpg_error_t
reader_init (reader_t *r, source_fn_t source, void *ctx)
{
  memset (r, 0, sizeof *r);
  r->source = source;
  r->ctx = ctx;
  r->size = CHUNK_SIZE;
  r->buf = malloc (r->size);
  if (!r->buf)
    return fail (gpg_error_from_syserror (), "out of core", NULL);
  return 0;
}


void
reader_release (reader_t *r)
{
  free (r->buf);
  r->buf = NULL;
}


gpg_error_t
reader_read (reader_t *r, unsigned char *buf, size_t size, size_t *nread)
{
  gpg_error_t err;
  size_t n;

  *nread = 0;
  if (!size)
    return 0;
  if (r->pos == r->len)
    {
      if (r->eof)
        return 0;
      if (size >= r->size)
        {
          err = r->source (r->ctx, buf, size, nread);
          if (!err && !*nread)
            r->eof = 1;
          r->consumed += *nread;
          return err;
        }
      r->pos = r->len = 0;
      err = r->source (r->ctx, r->buf, r->size, &r->len);
      if (err)
        return err;
      if (!r->len)
        {
          r->eof = 1;
          return 0;
        }
    }
  n = r->len - r->pos;
  if (n > size)
    n = size;
  memcpy (buf, r->buf + r->pos, n);
  r->pos += n;
  r->consumed += n;
  *nread = n;
  return 0;
}


gpg_error_t
source_read_full (source_fn_t source, void *ctx, unsigned char *buf,
                  size_t size, size_t *nread)
{
  gpg_error_t err;
  size_t n = 1;

  for (*nread = 0; *nread < size && n; *nread += n)
    {
      err = source (ctx, buf + *nread, size - *nread, &n);
      if (err)
        return err;
    }
  return 0;
}


gpg_error_t
reader_read_exact (reader_t *r, unsigned char *buf, size_t size)
{
  gpg_error_t err;
  size_t n;

  while (size)
    {
      err = reader_read (r, buf, size, &n);
      if (err)
        return err;
      if (!n)
        return gpg_error (GPG_ERR_TRUNCATED);
      buf += n;
      size -= n;
    }
  return 0;
}


gpg_error_t
reader_peek (reader_t *r, int *byte)
{
  gpg_error_t err;

  *byte = -1;
  if (r->pos == r->len)
    {
      if (r->eof)
        return 0;
      r->pos = r->len = 0;
      err = r->source (r->ctx, r->buf, r->size, &r->len);
      if (err)
        return err;
      if (!r->len)
        {
          r->eof = 1;
          return 0;
        }
    }
  *byte = r->buf[r->pos];
  return 0;
}


gpg_error_t
reader_peek_bytes (reader_t *r, size_t n, const unsigned char **r_bytes,
                   size_t *r_len)
{
  gpg_error_t err;
  size_t got;

  memmove (r->buf, r->buf + r->pos, r->len - r->pos);
  r->len -= r->pos;
  r->pos = 0;
  while (r->len < n && !r->eof)
    {
      err = r->source (r->ctx, r->buf + r->len, r->size - r->len, &got);
      if (err)
        return err;
      r->len += got;
      r->eof = !got;
    }
  *r_bytes = r->buf;
  *r_len = r->len < n ? r->len : n;
  return 0;
}


gpg_error_t
reader_source (void *ctx, unsigned char *buf, size_t size, size_t *nread)
{
  return reader_read (ctx, buf, size, nread);
}


gpg_error_t
fd_source (void *ctx, unsigned char *buf, size_t size, size_t *nread)
{
  fd_stream_t *s = ctx;
  ssize_t n;

  do
    n = read (s->fd, buf, size);
  while (n < 0 && errno == EINTR);
  if (n < 0)
    {
      *nread = 0;
      return fail (gpg_error_from_syserror (), s->name, "read error: %s",
                   strerror (errno));
    }
  *nread = n;
  return 0;
}


gpg_error_t
fd_sink (void *ctx, const unsigned char *buf, size_t len)
{
  fd_stream_t *s = ctx;
  ssize_t n;

  while (len)
    {
      n = write (s->fd, buf, len);
      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        return fail (gpg_error_from_syserror (), s->name, "write error: %s",
                     strerror (errno));
      buf += n;
      len -= n;
    }
  return 0;
}


/* Read a new-format body length (RFC 4880 4.2.2) into HDR.  */
static gpg_error_t
read_new_length (reader_t *r, packet_header_t *hdr)
{
  gpg_error_t err;
  unsigned char b[4];

  hdr->partial = 0;
  err = reader_read_exact (r, b, 1);
  if (err)
    return err;
  if (b[0] < 192)
    hdr->length = b[0];
  else if (b[0] < 224)
    {
      hdr->length = (b[0] - 192) << 8;
      err = reader_read_exact (r, b, 1);
      hdr->length += b[0] + 192;
    }
  else if (b[0] == 255)
    {
      err = reader_read_exact (r, b, 4);
      hdr->length = ((uint64_t)b[0] << 24 | (uint64_t)b[1] << 16
                     | (uint64_t)b[2] << 8 | b[3]);
    }
  else
    {
      hdr->length = (uint64_t)1 << (b[0] & 0x1f);
      hdr->partial = 1;
    }
  return err;
}


/* True for the packets whose length may be partial or indeterminate:
 * compressed, literal and encrypted data.  */
static int
is_data_packet (int tag)
{
  return (tag == PKT_COMPRESSED || tag == PKT_ENCRYPTED
          || tag == PKT_PLAINTEXT || tag == PKT_ENCRYPTED_MDC
          || tag == PKT_AEAD_ENCRYPTED);
}


gpg_error_t
packet_read_header (reader_t *r, packet_header_t *hdr, const char *what)
{
  gpg_error_t err;
  unsigned char ctb, b[4];
  size_t n;
  uint64_t start = r->consumed;

  memset (hdr, 0, sizeof *hdr);
  err = reader_read (r, &ctb, 1, &n);
  if (err)
    return err;
  if (!n)
    return 0;
  hdr->ctb = ctb;
  if (!(ctb & 0x80))
    return fail (gpg_error (GPG_ERR_INV_PACKET), what,
                 "invalid packet header (ctb=%02x)", ctb);
  if (ctb & 0x40)
    {
      hdr->new_format = 1;
      hdr->tag = ctb & 0x3f;
      err = read_new_length (r, hdr);
    }
  else
    {
      hdr->tag = (ctb >> 2) & 0xf;
      switch (ctb & 3)
        {
        case 0:
          err = reader_read_exact (r, b, 1);
          hdr->length = b[0];
          break;
        case 1:
          err = reader_read_exact (r, b, 2);
          hdr->length = (uint64_t)b[0] << 8 | b[1];
          break;
        case 2:
          err = reader_read_exact (r, b, 4);
          hdr->length = ((uint64_t)b[0] << 24 | (uint64_t)b[1] << 16
                         | (uint64_t)b[2] << 8 | b[3]);
          break;
        default:
          hdr->to_eof = 1;
          break;
        }
    }
  hdr->hlen = r->consumed - start;
  if (gpg_err_code (err) == GPG_ERR_TRUNCATED)
    return fail (err, what, "truncated packet header");
  if (!err && !hdr->tag)
    return fail (gpg_error (GPG_ERR_INV_PACKET), what,
                 "invalid packet header (ctb=%02x)", ctb);
  if (!err && (hdr->partial || hdr->to_eof) && !is_data_packet (hdr->tag))
    return fail (gpg_error (GPG_ERR_INV_PACKET), what,
                 "%s length on a packet that is not a data packet (tag %d)",
                 hdr->partial ? "partial body" : "indeterminate", hdr->tag);
  return err;
}


void
packet_body_init (packet_body_t *body, reader_t *in,
                  const packet_header_t *hdr)
{
  body->in = in;
  body->remaining = hdr->length;
  body->partial = hdr->partial;
  body->to_eof = hdr->to_eof;
}


gpg_error_t
packet_body_source (void *ctx, unsigned char *buf, size_t size,
                    size_t *nread)
{
  packet_body_t *body = ctx;
  packet_header_t next;
  gpg_error_t err;

  *nread = 0;
  if (body->to_eof)
    return reader_read (body->in, buf, size, nread);
  while (!body->remaining)
    {
      if (!body->partial)
        return 0;
      err = read_new_length (body->in, &next);
      if (gpg_err_code (err) == GPG_ERR_TRUNCATED)
        return fail (err, "decryption failed",
                     "input truncated (in a partial length header)");
      if (err)
        return err;
      body->remaining = next.length;
      body->partial = next.partial;
    }
  if (size > body->remaining)
    size = body->remaining;
  err = reader_read (body->in, buf, size, nread);
  if (err)
    return err;
  if (!*nread)
    return fail (gpg_error (GPG_ERR_TRUNCATED), "decryption failed",
                 "input truncated (%llu more bytes expected in this packet)",
                 (unsigned long long)body->remaining);
  body->remaining -= *nread;
  return 0;
}


gpg_error_t
packet_body_read_exact (packet_body_t *body, unsigned char *buf, size_t size,
                        const char *what)
{
  gpg_error_t err;
  size_t n;

  while (size)
    {
      err = packet_body_source (body, buf, size, &n);
      if (err)
        return err;
      if (!n)
        return fail (gpg_error (GPG_ERR_INV_PACKET), "decryption failed",
                     "%s packet too short", what);
      buf += n;
      size -= n;
    }
  return 0;
}


gpg_error_t
packet_body_skip (packet_body_t *body)
{
  gpg_error_t err;
  unsigned char buf[4096];
  size_t n;

  do
    err = packet_body_source (body, buf, sizeof buf, &n);
  while (!err && n);
  return err;
}


/* Room reserved in front of the chunk buffer for the packet header
 * (ctb and 5 length octets).  */
#define HEADER_ROOM 8


gpg_error_t
packet_writer_init (packet_writer_t *w, int tag, sink_fn_t sink,
                    void *sink_ctx)
{
  memset (w, 0, sizeof *w);
  w->tag = tag;
  w->sink = sink;
  w->sink_ctx = sink_ctx;
  w->mem = malloc (HEADER_ROOM + CHUNK_SIZE);
  if (!w->mem)
    return fail (gpg_error_from_syserror (), "out of core", NULL);
  w->data = w->mem + HEADER_ROOM;
  w->chunk = CHUNK_SIZE;
  return 0;
}


/* gpg 2.2's partial body chunks: its 8 KiB buffer, and the smallest
 * it writes at the end.  */
#define GPG_CHUNK_LOG2 13
#define GPG_CHUNK_MIN 512


void
packet_writer_set_framing (packet_writer_t *w, enum packet_framing framing,
                           uint64_t length)
{
  w->framing = framing;
  w->length = length;
  if (framing == FRAME_GPG_PARTIAL)
    w->chunk = (size_t)1 << GPG_CHUNK_LOG2;
}


/* Whether W's packet has one header, if any, and no chunks.  */
static int
is_unchunked (const packet_writer_t *w)
{
  return w->framing == FRAME_OLD_LENGTH || w->framing == FRAME_OLD_TO_END
         || w->framing == FRAME_BARE;
}


/* The old-format header of W's packet (RFC 4880 4.2.1) at BUF: its
 * length in 1, 2 or 4 octets, or none for indeterminate; returns the
 * number of bytes.  */
static size_t
old_header_put (const packet_writer_t *w, unsigned char *buf)
{
  size_t n, i;

  if (w->framing == FRAME_BARE)
    return 0;
  buf[0] = 0x80 | w->tag << 2;
  if (w->framing == FRAME_OLD_TO_END)
    {
      buf[0] |= 3;
      return 1;
    }
  n = w->length < 0x100 ? 1 : w->length < 0x10000 ? 2 : 4;
  buf[0] |= n == 4 ? 2 : n - 1;
  for (i = 0; i < n; i++)
    buf[1 + i] = w->length >> 8 * (n - 1 - i);
  return 1 + n;
}


/* Pass on the LEN bytes of W's buffer under an old-format header,
 * written before the first.  */
static gpg_error_t
old_format_pass (packet_writer_t *w, size_t len)
{
  unsigned char hdr[HEADER_ROOM];
  size_t n = 0;

  if (!w->started)
    n = old_header_put (w, hdr);
  memcpy (w->data - n, hdr, n);
  w->started = 1;
  w->len = 0;
  return w->sink (w->sink_ctx, w->data - n, len + n);
}


/* Pass on the first LEN bytes of W's buffer as a partial body chunk
 * of 2^LOG2 bytes; the rest moves to the front.  */
static gpg_error_t
partial_pass (packet_writer_t *w, size_t len, int log2)
{
  unsigned char *p = w->data;
  gpg_error_t err;

  *--p = 0xe0 | log2;
  if (!w->started)
    *--p = 0xc0 | w->tag;
  w->started = 1;
  err = w->sink (w->sink_ctx, p, len + (w->data - p));
  memmove (w->data, w->data + len, w->len - len);
  w->len -= len;
  return err;
}


void
packet_writer_release (packet_writer_t *w)
{
  free (w->mem);
  w->mem = w->data = NULL;
}


size_t
packet_writer_space (packet_writer_t *w, unsigned char **r_ptr)
{
  *r_ptr = w->data + w->len;
  return w->chunk - w->len;
}


gpg_error_t
packet_writer_commit (packet_writer_t *w, size_t n)
{
  unsigned char *p = w->data;

  w->len += n;
  if (w->len < w->chunk)
    return 0;
  if (is_unchunked (w))
    return old_format_pass (w, w->len);
  if (w->framing == FRAME_GPG_PARTIAL)
    return partial_pass (w, w->len, GPG_CHUNK_LOG2);
  *--p = 0xe0 | CHUNK_LOG2;
  if (!w->started)
    *--p = 0xc0 | w->tag;
  w->started = 1;
  w->len = 0;
  return w->sink (w->sink_ctx, p, CHUNK_SIZE + (w->data - p));
}


gpg_error_t
packet_writer_sink (void *ctx, const unsigned char *buf, size_t len)
{
  packet_writer_t *w = ctx;
  gpg_error_t err;
  unsigned char *space;
  size_t n;

  while (len)
    {
      n = packet_writer_space (w, &space);
      if (n > len)
        n = len;
      memcpy (space, buf, n);
      err = packet_writer_commit (w, n);
      if (err)
        return err;
      buf += n;
      len -= n;
    }
  return 0;
}


/* Store the new-format encoding of the definite LENGTH at BUF; return
 * the number of bytes.  */
static size_t
put_length (unsigned char *buf, uint64_t length)
{
  if (length < 192)
    {
      buf[0] = length;
      return 1;
    }
  if (length < 8384)
    {
      buf[0] = ((length - 192) >> 8) + 192;
      buf[1] = (length - 192) & 0xff;
      return 2;
    }
  buf[0] = 255;
  buf[1] = length >> 24;
  buf[2] = length >> 16;
  buf[3] = length >> 8;
  buf[4] = length;
  return 5;
}


size_t
packet_header_put (unsigned char *buf, int tag, uint64_t length)
{
  buf[0] = 0xc0 | tag;
  return 1 + put_length (buf + 1, length);
}


/* Finish W's packet in an old format: pass on what is left.  */
static gpg_error_t
old_format_finish (packet_writer_t *w)
{
  if (w->len || !w->started)
    return old_format_pass (w, w->len);
  return 0;
}


/* gpg's end of partial lengths: chunks of the largest powers of two
 * down to GPG_CHUNK_MIN, then the rest with a definite length.  */
static gpg_error_t
gpg_partial_finish (packet_writer_t *w)
{
  gpg_error_t err = 0;
  int log2;

  if (w->len < GPG_CHUNK_MIN && !w->started)
    return 0;
  while (!err && w->len >= GPG_CHUNK_MIN)
    {
      for (log2 = GPG_CHUNK_LOG2; ((size_t)1 << log2) > w->len; log2--)
        ;
      err = partial_pass (w, (size_t)1 << log2, log2);
    }
  return err;
}


gpg_error_t
packet_writer_finish (packet_writer_t *w)
{
  gpg_error_t err;
  unsigned char hdr[HEADER_ROOM];
  size_t n;

  if (is_unchunked (w))
    return old_format_finish (w);
  if (w->framing == FRAME_GPG_PARTIAL
      && (err = gpg_partial_finish (w)))
    return err;
  if (w->started)
    n = put_length (hdr, w->len);
  else
    n = packet_header_put (hdr, w->tag, w->len);
  memcpy (w->data - n, hdr, n);
  w->started = 1;
  return w->sink (w->sink_ctx, w->data - n, w->len + n);
}
