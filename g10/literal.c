/* literal.c - writing out the literal data packet of a decrypted message
 *
 * RFC 4880 5.9: a format byte, the file name (a length byte and up to
 * 255 bytes), a four-byte date, then the data.  The name comes from
 * the sender, so -v shows it with its control characters escaped, as
 * gpg 2.2 -v shows it: \0 \b \n \v \f \r, otherwise \xNN for the bytes
 * below 0x20 and 0x7f; other bytes, UTF-8 included, are shown as they
 * are.  Only --use-embedded-filename makes it the output's name, as
 * gpg 2.2 does: as it is, "../" and all, a risk gpg(1) warns of too;
 * an existing file is still replaced only with --yes.
 *
 * Text ('t') and UTF-8 text ('u') data is written as gpg 2.2 writes it
 * on POSIX systems: with every carriage return removed, not only those
 * before a line feed, so the output is byte for byte gpg's.  Binary
 * data, and any other format byte, is written unchanged.
 *
 * With --max-output N the run fails, as gpg's does, where a write
 * would take the data written past N bytes: the output never exceeds
 * them.
 */
#include <config.h>

#include <stdio.h>
#include <string.h>

#include "error.h"
#include "iobuf.h"
#include "log.h"
#include "literal.h"
#include "options.h"
#include "outfile.h"
#include "status.h"

/* Room for a name with every byte escaped as \xNN.  */
#define SHOWN_NAME_MAX (4 * LITERAL_NAME_MAX + 1)


/* Remove the carriage returns from the LEN bytes at BUF; return the
 * length left.  */
static size_t
remove_cr (unsigned char *buf, size_t len)
{
  unsigned char *src = memchr (buf, '\r', len), *dst, *end = buf + len;

  if (!src)
    return len;
  for (dst = src; src < end; src++)
    if (*src != '\r')
      *dst++ = *src;
  return dst - buf;
}


/* Write the LEN bytes at BUF to OUT, where *WRITTEN were written
 * before: refused when they would take the output past --max-output,
 * as gpg refuses them, so that the output never exceeds it.  */
static gpg_error_t
write_limited (fd_stream_t *out, const unsigned char *buf, size_t len,
               uint64_t *written)
{
  if (opt.max_output && len > opt.max_output - *written)
    return fail (gpg_error (GPG_ERR_TOO_LARGE), out->name,
                 "exceeded --max-output limit (%lu bytes)", opt.max_output);
  *written += len;
  return fd_sink (out, buf, len);
}


/* Copy BODY to OUT in writes of SIZE bytes, without carriage returns
 * when TEXT.  */
static gpg_error_t
copy_body (packet_body_t *body, int text, fd_stream_t *out,
           unsigned char *buf, size_t size)
{
  gpg_error_t err;
  size_t len = 0, n;
  uint64_t written = 0;

  do
    {
      err = packet_body_source (body, buf + len, size - len, &n);
      if (err)
        return err;
      len += text ? remove_cr (buf + len, n) : n;
      if (len == size || (!n && len))
        {
          err = write_limited (out, buf, len, &written);
          if (err)
            return err;
          len = 0;
        }
    }
  while (n);
  return 0;
}


gpg_error_t
literal_read_fields (reader_t *in, const packet_header_t *hdr,
                     packet_body_t *body, unsigned char *fields)
{
  gpg_error_t err;

  packet_body_init (body, in, hdr);
  err = packet_body_read_exact (body, fields, 2, "literal data");
  if (!err)
    err = packet_body_read_exact (body, fields + 2, fields[1] + 4,
                                  "literal data");
  return err;
}


/* Open OUT under the name in the literal packet's FIELDS, for
 * --use-embedded-filename: stdout for an empty name, and nothing
 * kept for gpg's "_CONSOLE", data meant to be shown only.  */
static gpg_error_t
open_embedded (outfile_t *out, const unsigned char *fields)
{
  char name[LITERAL_NAME_MAX + 1];

  /* A name is a C string up to its first NUL, as gpg takes it.  */
  memcpy (name, fields + 2, fields[1]);
  name[fields[1]] = 0;
  if (!strcmp (name, "_CONSOLE"))
    {
      log_warning ("Note: sender requested \"for-your-eyes-only\"");
      log_warning ("data not saved; use option \"--output\" to save it");
      return outfile_open (out, "/dev/null");
    }
  return outfile_open (out, *name ? name : NULL);
}


gpg_error_t
literal_write (reader_t *in, const packet_header_t *hdr, outfile_t *out,
               int open_late, unsigned char *buf, size_t size)
{
  gpg_error_t err;
  packet_body_t body;
  unsigned char fields[LITERAL_FIELDS_MAX];
  char shown[SHOWN_NAME_MAX];
  int format;

  err = literal_read_fields (in, hdr, &body, fields);
  if (err)
    return err;
  format = fields[0];
  status_plaintext (hdr, fields);
  escape_controls (fields + 2, fields[1], shown, sizeof shown);
  log_info ("literal data: mode %c, name \"%s\"",
            format >= 0x20 && format < 0x7f ? format : '?', shown);
  if (open_late)
    err = open_embedded (out, fields);
  if (err)
    return err;
  return copy_body (&body, format == 't' || format == 'u', &out->stream,
                    buf, size);
}
