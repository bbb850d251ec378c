/* plaintext.c - the data sfenc -c encrypts
 *
 * The input is read ahead by a few bytes so that, as gpg does, data
 * that is already compressed is not compressed again: compressing it
 * costs time and gains nothing.  gpg 2.2 looks at the first bytes of
 * a named file only (never of standard input) and knows gzip, bzip2
 * and zip; sfenc looks at the first bytes of the stream, whatever it
 * comes from, and knows the formats below.  Whether to compress
 * anyway is encrypt.c's decision.  The bytes read ahead are then
 * handed out first, so the data encrypted is the whole input.
 */
#include <config.h>

#include <string.h>

#include "iobuf.h"
#include "plaintext.h"

/* Magic numbers at the start of compressed formats: the file(1)
 * signatures of each, as short as they are unambiguous.  */
static const struct
{
  const char *name;
  size_t len;
  unsigned char magic[PLAINTEXT_HEAD_MAX];
} compressed_formats[] =
  {
    { "gzip",  3, { 0x1f, 0x8b, 0x08 } },
    { "bzip2", 3, { 'B', 'Z', 'h' } },
    { "xz",    6, { 0xfd, '7', 'z', 'X', 'Z', 0x00 } },
    { "zstd",  4, { 0x28, 0xb5, 0x2f, 0xfd } },
    { "zip",   4, { 'P', 'K', 0x03, 0x04 } },
    { "7z",    6, { '7', 'z', 0xbc, 0xaf, 0x27, 0x1c } },
    { "JPEG",  3, { 0xff, 0xd8, 0xff } },
    { "PNG",   8, { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n' } }
  };


/* The input with the bytes read ahead in front.  */
static gpg_error_t
raw_source (void *ctx, unsigned char *buf, size_t size, size_t *nread)
{
  plaintext_t *pt = ctx;
  size_t n = pt->head_len - pt->head_pos;

  if (!n)
    return pt->source (pt->source_ctx, buf, size, nread);
  if (n > size)
    n = size;
  memcpy (buf, pt->head + pt->head_pos, n);
  pt->head_pos += n;
  *nread = n;
  return 0;
}


gpg_error_t
plaintext_open (plaintext_t *pt, source_fn_t source, void *source_ctx,
                enum text_mode mode)
{
  gpg_error_t err = 0;
  size_t n = 1;

  memset (pt, 0, sizeof *pt);
  pt->source = source;
  pt->source_ctx = source_ctx;
  /* A pipe may deliver the first bytes in pieces.  */
  while (!err && n && pt->head_len < sizeof pt->head)
    {
      err = source (source_ctx, pt->head + pt->head_len,
                    sizeof pt->head - pt->head_len, &n);
      pt->head_len += n;
    }
  if (!err && mode != TEXT_NONE)
    err = text_source_new (&pt->text, raw_source, pt, mode == TEXT_RFC2440);
  return err;
}


const char *
plaintext_compressed_format (const plaintext_t *pt)
{
  size_t i;

  for (i = 0; i < sizeof compressed_formats / sizeof *compressed_formats;
       i++)
    if (pt->head_len >= compressed_formats[i].len
        && !memcmp (pt->head, compressed_formats[i].magic,
                    compressed_formats[i].len))
      return compressed_formats[i].name;
  return NULL;
}


gpg_error_t
plaintext_source (void *ctx, unsigned char *buf, size_t size, size_t *nread)
{
  plaintext_t *pt = ctx;

  if (pt->text)
    return text_source_read (pt->text, buf, size, nread);
  return raw_source (pt, buf, size, nread);
}


void
plaintext_close (plaintext_t *pt)
{
  text_source_release (pt->text);
  pt->text = NULL;
}
