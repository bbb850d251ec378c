/* armor.c - OpenPGP ASCII armor, writing and reading
 *
 * Radix-64 armor as in RFC 4880 6: "-----BEGIN PGP MESSAGE-----",
 * optional "Key: Value" headers, a blank line, base64 (RFC 4648) in
 * lines of 64 characters, the CRC-24 of the data ("=" and four
 * characters) and the END line.  The CRC-24 (RFC 4880 6.1: initial
 * value 0xB704CE, generator 0x1864CFB) is computed with a table.
 * Checked against GnuPG's armor in tests/sfenc-interop.bats.
 *
 * The headers written are gpg's: Version: with --emit-version (naming
 * sfenc), a Comment: per --comment, and --enarmor's own comment.
 *
 * Reading follows gpg 2.2 (tests/sfenc-gpgcompat.bats): text before
 * the BEGIN line and after the END line is ignored, the BEGIN line must
 * be exactly the BEGIN line of one of the blocks gpg reads (trailing
 * white space aside), an END line is "-----END PGP " and anything (gpg
 * looks at its first dash only), and the packets of
 * a further armored message in the same input continue the packets of
 * the first, so that a second message is refused by the packet reader
 * instead of passing unseen.  The CRC line is the one before the END
 * line; what follows the END line is not armor, a CRC line included.
 * A missing CRC line is accepted, as rnp accepts it (gpg 2.2 fails on
 * it when the base64 ends without padding).  Lines of any length are
 * read in constant memory: header lines as gpg reads them, and base64
 * lines longer than the 20000 characters gpg 2.2 refuses, as rnp
 * reads them (tests/sfenc-limits.bats).  A CRC that does not match is
 * an error, a warning with --ignore-crc-error, as in gpg.
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "packet.h"
#include "armor.h"
#include "error.h"
#include "iobuf.h"
#include "log.h"
#include "options.h"

#define CRC24_INIT 0xb704ceu
#define CRC24_POLY 0x1864cfbu

#define BEGIN_PREFIX "-----BEGIN PGP "
#define END_PREFIX "-----END PGP "
#define LINE_DASHES "-----"

/* The names of the armor blocks sfenc writes, by enum armor_block.  */
static const char *const block_names[] = { "MESSAGE", "ARMORED FILE" };

/* The blocks gpg 2.2 reads as OpenPGP data, whatever it is about to
 * do with their packets; the clear text signature ("SIGNED MESSAGE")
 * is not base64 and is no armor here.  */
static const char *const readable_blocks[] =
  { "MESSAGE", "PUBLIC KEY BLOCK", "SIGNATURE", "ARMORED FILE",
    "PRIVATE KEY BLOCK", "SECRET KEY BLOCK" };

/* What --enarmor writes after the headers given, word for word gpg's,
 * so that its output is gpg's.  */
#define ARMORED_FILE_COMMENT "Use \"gpg --dearmor\" for unpacking"

/* Characters per armor line, as gpg writes them.  */
#define LINE_CHARS 64

/* Longest part of a line kept while reading; the rest is read and
 * dropped.  */
#define MAX_LINE 1024

static const char b64chars[] =
  "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

static uint32_t crc24_table[256];
static signed char b64values[256];


/* Fill the CRC-24 and base64 tables once.  */
static void
init_tables (void)
{
  static int done;
  unsigned int i, j;

  if (done)
    return;
  for (i = 0; i < 256; i++)
    {
      uint32_t crc = (uint32_t)i << 16;

      for (j = 0; j < 8; j++)
        {
          crc <<= 1;
          if (crc & 0x1000000)
            crc ^= CRC24_POLY;
        }
      crc24_table[i] = crc & 0xffffff;
    }
  memset (b64values, -1, sizeof b64values);
  for (i = 0; i < 64; i++)
    b64values[(unsigned char)b64chars[i]] = i;
  done = 1;
}


static uint32_t
crc24_update (uint32_t crc, const unsigned char *buf, size_t len)
{
  while (len--)
    crc = ((crc << 8) ^ crc24_table[((crc >> 16) ^ *buf++) & 0xff])
          & 0xffffff;
  return crc;
}


/*
 * Writing.
 */

struct armor_writer
{
  sink_fn_t sink;
  void *sink_ctx;
  enum armor_block block;
  uint32_t crc;
  unsigned char carry[3];
  size_t ncarry;
  unsigned int col;
  size_t outlen;
  int started;
  /* Room for a chunk of encoded text; flushed when nearly full.  */
  char out[CHUNK_SIZE];
};


gpg_error_t
armor_writer_new (armor_writer_t **r_aw, enum armor_block block,
                  sink_fn_t sink, void *sink_ctx)
{
  armor_writer_t *aw;

  init_tables ();
  aw = calloc (1, sizeof *aw);
  if (!aw)
    return fail (gpg_error_from_syserror (), "out of core", NULL);
  aw->sink = sink;
  aw->sink_ctx = sink_ctx;
  aw->block = block;
  aw->crc = CRC24_INIT;
  *r_aw = aw;
  return 0;
}


void
armor_writer_release (armor_writer_t *aw)
{
  free (aw);
}


static gpg_error_t
flush_out (armor_writer_t *aw)
{
  gpg_error_t err;

  err = aw->sink (aw->sink_ctx, (unsigned char *)aw->out, aw->outlen);
  aw->outlen = 0;
  return err;
}


/* Add the text S to the output, flushing it when full.  Line feeds,
 * carriage returns and vertical tabs are written as "\n", "\r" and
 * "\v" when ESCAPE, as gpg writes them in a header, so that a header
 * stays one line.  */
static gpg_error_t
put_text (armor_writer_t *aw, const char *s, int escape)
{
  static const char escaped[] = "\n\r\v", letters[] = "nrv";
  gpg_error_t err;
  const char *e;

  for (; *s; s++)
    {
      if (aw->outlen + 2 > sizeof aw->out)
        {
          err = flush_out (aw);
          if (err)
            return err;
        }
      e = escape ? strchr (escaped, *s) : NULL;
      if (e)
        {
          aw->out[aw->outlen++] = '\\';
          aw->out[aw->outlen++] = letters[e - escaped];
        }
      else
        aw->out[aw->outlen++] = *s;
    }
  return 0;
}


/* The header line "KEY: VALUE".  */
static gpg_error_t
put_header (armor_writer_t *aw, const char *key, const char *value)
{
  gpg_error_t err;

  err = put_text (aw, key, 0);
  if (!err)
    err = put_text (aw, ": ", 0);
  if (!err)
    err = put_text (aw, value, 1);
  if (!err)
    err = put_text (aw, "\n", 0);
  return err;
}


/* The Version: header's value at --emit-version LEVEL (1 or more),
 * in the steps of gpg 2.2's "GnuPG v2", "GnuPG v2.2", "GnuPG v2.2.40"
 * and "GnuPG v2.2.40 (GNU/Linux)", but naming sfenc, which wrote the
 * message: "sfenc v0" up to "sfenc v0.1.0 (Linux)".  */
static void
version_header (int level, char *buf, size_t size)
{
  const char *v = PACKAGE_VERSION;
  size_t n = strlen (v);
  const char *dot = strchr (v, '.');
  struct utsname un;

  if (level < 3 && dot)
    n = level < 2 ? (size_t)(dot - v) : strcspn (dot + 1, ".") + (dot + 1 - v);
  snprintf (buf, size, "%s v%.*s", PACKAGE_NAME, (int)n, v);
  if (level > 3 && !uname (&un))
    snprintf (buf + strlen (buf), size - strlen (buf), " (%s)", un.sysname);
}


/* The BEGIN line, the headers and the empty line after them.  */
static gpg_error_t
put_headers (armor_writer_t *aw)
{
  gpg_error_t err;
  char version[128];
  size_t i;

  aw->started = 1;
  err = put_text (aw, BEGIN_PREFIX, 0);
  if (!err)
    err = put_text (aw, block_names[aw->block], 0);
  if (!err)
    err = put_text (aw, LINE_DASHES "\n", 0);
  if (!err && opt.emit_version)
    {
      version_header (opt.emit_version, version, sizeof version);
      err = put_header (aw, "Version", version);
    }
  for (i = 0; !err && i < opt.n_comments; i++)
    err = put_header (aw, "Comment", opt.comments[i]);
  if (!err && aw->block == ARMOR_FILE)
    err = put_header (aw, "Comment", ARMORED_FILE_COMMENT);
  if (!err)
    err = put_text (aw, "\n", 0);
  /* The base64 that follows counts on the room of a whole buffer.  */
  if (!err)
    err = flush_out (aw);
  return err;
}


/* Encode the 3 bytes at P as the 4 characters at O.  */
static void
encode_group (const unsigned char *p, char *o)
{
  o[0] = b64chars[p[0] >> 2];
  o[1] = b64chars[((p[0] << 4) | (p[1] >> 4)) & 63];
  o[2] = b64chars[((p[1] << 2) | (p[2] >> 6)) & 63];
  o[3] = b64chars[p[2] & 63];
}


void
armor_encode_base64 (const unsigned char *in, size_t len, char *out)
{
  unsigned char last[3] = { 0, 0, 0 };
  size_t i;

  for (i = 0; i + 3 <= len; i += 3, out += 4)
    encode_group (in + i, out);
  if (i == len)
    return;
  memcpy (last, in + i, len - i);
  encode_group (last, out);
  out[3] = '=';
  if (len - i == 1)
    out[2] = '=';
}


/* Encode the 3 bytes at P as 4 characters, ending lines as needed.  */
static void
put_group (armor_writer_t *aw, const unsigned char *p)
{
  encode_group (p, aw->out + aw->outlen);
  aw->outlen += 4;
  aw->col += 4;
  if (aw->col == LINE_CHARS)
    {
      aw->out[aw->outlen++] = '\n';
      aw->col = 0;
    }
}


gpg_error_t
armor_writer_sink (void *ctx, const unsigned char *buf, size_t len)
{
  armor_writer_t *aw = ctx;
  gpg_error_t err;

  if (!aw->started)
    {
      err = put_headers (aw);
      if (err)
        return err;
    }
  aw->crc = crc24_update (aw->crc, buf, len);
  while (aw->ncarry && aw->ncarry < 3 && len)
    {
      aw->carry[aw->ncarry++] = *buf++;
      len--;
    }
  if (aw->ncarry == 3)
    {
      put_group (aw, aw->carry);
      aw->ncarry = 0;
    }
  for (; len >= 3; buf += 3, len -= 3)
    {
      /* A group adds at most 5 characters; keep room for the END
       * lines added by armor_writer_finish.  */
      if (aw->outlen + 64 > sizeof aw->out)
        {
          err = flush_out (aw);
          if (err)
            return err;
        }
      put_group (aw, buf);
    }
  memcpy (aw->carry + aw->ncarry, buf, len);
  aw->ncarry += len;
  return 0;
}


gpg_error_t
armor_writer_finish (armor_writer_t *aw)
{
  gpg_error_t err;
  unsigned char crc[3];

  if (!aw->started)
    {
      err = put_headers (aw);
      if (err)
        return err;
    }
  if (aw->ncarry)
    {
      char *o = aw->out + aw->outlen;
      const unsigned char *p = aw->carry;

      if (aw->ncarry == 1)
        aw->carry[1] = 0;
      o[0] = b64chars[p[0] >> 2];
      o[1] = b64chars[((p[0] << 4) | (p[1] >> 4)) & 63];
      o[2] = aw->ncarry == 2 ? b64chars[(p[1] << 2) & 63] : '=';
      o[3] = '=';
      aw->outlen += 4;
      aw->col += 4;
    }
  if (aw->col)
    aw->out[aw->outlen++] = '\n';
  crc[0] = aw->crc >> 16;
  crc[1] = aw->crc >> 8;
  crc[2] = aw->crc;
  aw->out[aw->outlen++] = '=';
  aw->col = 0;
  put_group (aw, crc);
  err = put_text (aw, "\n" END_PREFIX, 0);
  if (!err)
    err = put_text (aw, block_names[aw->block], 0);
  if (!err)
    err = put_text (aw, LINE_DASHES "\n", 0);
  if (!err)
    err = flush_out (aw);
  return err;
}


/*
 * Reading.
 */

int
armor_is_binary_start (const unsigned char *buf, size_t len)
{
  int new_format, type, indeterminate;

  /* gpg decides on two bytes and takes less for no packet.  */
  if (len < 2 || !(buf[0] & 0x80))
    return 0;
  new_format = buf[0] & 0x40;
  type = new_format ? buf[0] & 0x3f : (buf[0] >> 2) & 0x0f;
  switch (type)
    {
    /* Not PKT_AEAD_ENCRYPTED, which gpg 2.2 takes for no packet.  */
    case PKT_COMPRESSED: case PKT_ENCRYPTED: case PKT_PLAINTEXT:
    case PKT_ENCRYPTED_MDC:
    case 16: case 61: case 63:  /* Old comment, comment, gpg's control.  */
      return 1;
    case PKT_PUBKEY_ENC: case PKT_SYMKEY_ENC: case PKT_MARKER: case PKT_MDC:
    case 2: case 4: case 5: case 6: case 7:     /* Signatures, keys.  */
    case 12: case 13: case 14: case 17:         /* Trust, user ids.  */
      break;
    default:
      return 0;
    }
  /* Only the packets above may be of indeterminate length.  */
  if (new_format)
    indeterminate = buf[1] >= 224 && buf[1] < 255;
  else
    indeterminate = (buf[0] & 3) == 3;
  return !indeterminate;
}

struct armor_reader
{
  reader_t *in;
  uint32_t crc;
  uint32_t quad;        /* Bits of the base64 group being decoded.  */
  int nquad;            /* Characters in QUAD.  */
  int line_start;
  int padded;           /* The data ended with "=" padding.  */
  int done;             /* The END line of the current block was read.  */
  int eof;              /* No further block follows.  */
};

#define ARMOR_WHAT "invalid armor"


/* Next input byte, or -1 at the end of the data.  */
static gpg_error_t
next_byte (reader_t *in, int *c)
{
  gpg_error_t err;

  if (in->pos < in->len)
    {
      *c = in->buf[in->pos++];
      return 0;
    }
  err = reader_peek (in, c);
  if (!err && *c >= 0)
    in->pos++;
  return err;
}


/* Read a line without its line ending into LINE (at most MAX_LINE - 1
 * characters kept, the rest of a longer line dropped and *R_LONG
 * set).  *R_EOF is set when nothing was left to read.  */
static gpg_error_t
read_line (reader_t *in, char *line, int *r_long, int *r_eof)
{
  gpg_error_t err;
  size_t n = 0;
  int c;

  *r_long = 0;
  *r_eof = 0;
  for (;;)
    {
      err = next_byte (in, &c);
      if (err)
        return err;
      if (c < 0)
        {
          *r_eof = !n;
          break;
        }
      if (c == '\n')
        break;
      if (n < MAX_LINE - 1)
        line[n++] = c;
      else
        *r_long = 1;
    }
  while (n && (line[n - 1] == '\r' || line[n - 1] == ' '
               || line[n - 1] == '\t'))
    n--;
  line[n] = 0;
  return 0;
}


/* True when LINE is the BEGIN line of a block gpg reads.  */
static int
is_begin_line (const char *line)
{
  size_t i, n;

  if (strncmp (line, BEGIN_PREFIX, strlen (BEGIN_PREFIX)))
    return 0;
  line += strlen (BEGIN_PREFIX);
  for (i = 0; i < sizeof readable_blocks / sizeof *readable_blocks; i++)
    {
      n = strlen (readable_blocks[i]);
      if (!strncmp (line, readable_blocks[i], n)
          && !strcmp (line + n, LINE_DASHES))
        return 1;
    }
  return 0;
}


/* Skip the lines up to the next BEGIN line and read the armor headers
 * after it.  *R_FOUND is false when the input ended first.  */
static gpg_error_t
read_block_start (reader_t *in, int *r_found)
{
  gpg_error_t err;
  char line[MAX_LINE];
  int is_long, eof;

  *r_found = 0;
  do
    {
      err = read_line (in, line, &is_long, &eof);
      if (err || eof)
        return err;
    }
  while (is_long || !is_begin_line (line));
  for (;;)
    {
      err = read_line (in, line, &is_long, &eof);
      if (err)
        return err;
      if (eof)
        return fail (gpg_error (GPG_ERR_TRUNCATED), ARMOR_WHAT,
                     "input truncated in the armor headers");
      /* A header line of any length is read, as gpg reads it; only
       * its first MAX_LINE - 1 characters are kept and checked.  */
      if (!*line)
        break;
      if (!strstr (line, ": "))
        return fail (gpg_error (GPG_ERR_INV_ARMOR), ARMOR_WHAT,
                     "malformed armor header line");
    }
  *r_found = 1;
  return 0;
}


/* Get ready to decode the base64 of a block.  */
static void
start_block (armor_reader_t *ar)
{
  ar->crc = CRC24_INIT;
  ar->quad = 0;
  ar->nquad = 0;
  ar->line_start = 1;
  ar->padded = 0;
  ar->done = 0;
}


gpg_error_t
armor_reader_new (armor_reader_t **r_ar, reader_t *in)
{
  gpg_error_t err;
  armor_reader_t *ar;
  int found;

  init_tables ();
  err = read_block_start (in, &found);
  if (err)
    return err;
  if (!found)
    return gpg_error (GPG_ERR_NO_DATA);
  ar = calloc (1, sizeof *ar);
  if (!ar)
    return fail (gpg_error_from_syserror (), "out of core", NULL);
  ar->in = in;
  start_block (ar);
  *r_ar = ar;
  return 0;
}


void
armor_reader_release (armor_reader_t *ar)
{
  free (ar);
}


/* Called at the "=" that starts the CRC line or at the "-" that starts
 * the END line: check both.  */
static gpg_error_t
finish_body (armor_reader_t *ar, int c)
{
  gpg_error_t err;
  char line[MAX_LINE];
  const char *end_line = END_PREFIX;
  int is_long, eof, i;
  uint32_t crc = 0;

  if (ar->nquad)
    return fail (gpg_error (GPG_ERR_INV_ARMOR), ARMOR_WHAT,
                 "incomplete base64 group at the end");
  err = read_line (ar->in, line, &is_long, &eof);
  if (err)
    return err;
  if (c == '=')
    {
      for (i = 0; i < 4; i++)
        {
          int v = b64values[(unsigned char)line[i]];

          if (!line[i] || v < 0)
            return fail (gpg_error (GPG_ERR_INV_ARMOR), ARMOR_WHAT,
                         "malformed CRC line");
          crc = crc << 6 | v;
        }
      if (line[4])
        return fail (gpg_error (GPG_ERR_INV_ARMOR), ARMOR_WHAT,
                     "malformed CRC line");
      if (crc != ar->crc && !opt.ignore_crc_error)
        return fail (gpg_error (GPG_ERR_INV_ARMOR), ARMOR_WHAT,
                     "CRC error; %06lX - %06lX",
                     (unsigned long)ar->crc, (unsigned long)crc);
      if (crc != ar->crc)
        log_warning ("CRC error; %06lX - %06lX (--ignore-crc-error)",
                     (unsigned long)ar->crc, (unsigned long)crc);
      err = read_line (ar->in, line, &is_long, &eof);
      if (err)
        return err;
      if (eof)
        return fail (gpg_error (GPG_ERR_TRUNCATED), ARMOR_WHAT,
                     "input truncated before the END line");
    }
  else
    end_line++;   /* Its first dash is already consumed.  */
  if (strncmp (line, end_line, strlen (end_line)))
    return fail (gpg_error (GPG_ERR_INV_ARMOR), ARMOR_WHAT,
                 "END line expected");
  ar->done = 1;
  return 0;
}


/* Decode base64 of the current block into BUF, up to its END line.  */
static gpg_error_t
decode_block (armor_reader_t *ar, unsigned char *buf, size_t size,
              size_t *nread)
{
  gpg_error_t err;
  size_t n = 0, hashed = 0;
  int c, v;

  while (!ar->done && n + 3 <= size)
    {
      err = next_byte (ar->in, &c);
      if (err)
        return err;
      if (c < 0)
        return fail (gpg_error (GPG_ERR_TRUNCATED), ARMOR_WHAT,
                     "input truncated before the END line");
      if (c == '\n')
        {
          ar->line_start = 1;
          continue;
        }
      if (c == '\r' || c == ' ' || c == '\t')
        continue;
      if (ar->line_start && (c == '-' || (c == '=' && !ar->nquad)))
        {
          ar->crc = crc24_update (ar->crc, buf, n);
          hashed = n;
          err = finish_body (ar, c);
          if (err)
            return err;
          break;
        }
      ar->line_start = 0;
      if (c == '=')
        {
          /* Padding: two characters give one byte, three give two.  */
          if (ar->nquad == 2)
            buf[n++] = ar->quad >> 4;
          else if (ar->nquad == 3)
            {
              buf[n++] = ar->quad >> 10;
              buf[n++] = ar->quad >> 2;
            }
          else if (!ar->padded)
            return fail (gpg_error (GPG_ERR_INV_ARMOR), ARMOR_WHAT,
                         "misplaced base64 padding");
          ar->nquad = 0;
          ar->padded = 1;
          continue;
        }
      v = b64values[c];
      if (v < 0)
        return fail (gpg_error (GPG_ERR_INV_ARMOR), ARMOR_WHAT,
                     "invalid character (0x%02x) in the armored data", c);
      if (ar->padded)
        return fail (gpg_error (GPG_ERR_INV_ARMOR), ARMOR_WHAT,
                     "data after base64 padding");
      ar->quad = ar->quad << 6 | v;
      if (++ar->nquad == 4)
        {
          buf[n++] = ar->quad >> 16;
          buf[n++] = ar->quad >> 8;
          buf[n++] = ar->quad;
          ar->nquad = 0;
        }
    }
  ar->crc = crc24_update (ar->crc, buf + hashed, n - hashed);
  *nread = n;
  return 0;
}


gpg_error_t
armor_reader_source (void *ctx, unsigned char *buf, size_t size,
                     size_t *nread)
{
  armor_reader_t *ar = ctx;
  gpg_error_t err;
  int found;

  *nread = 0;
  /* A block may hold no data: go on until one does or the input ends.  */
  while (!ar->eof)
    {
      if (ar->done)
        {
          err = read_block_start (ar->in, &found);
          if (err || !found)
            {
              ar->eof = !err;
              return err;
            }
          start_block (ar);
        }
      err = decode_block (ar, buf, size, nread);
      if (err || *nread || !ar->done)
        return err;
    }
  return 0;
}
