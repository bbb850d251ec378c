/* fuzz-common.c - start-up, memory sources and sfenc -d for the harnesses
 */
#include <config.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fuzz.h"
#include "compress.h"
#include "decrypt.h"
#include "startup.h"


/* Make standard input a file in memory, for fuzz_decrypt.  */
static int
stdin_in_memory (void)
{
  int fd = memfd_create ("sfenc-fuzz-input", 0);

  if (fd < 0)
    return -1;
  if (fd != 0 && (dup2 (fd, 0) != 0 || close (fd)))
    return -1;
  return 0;
}


void
fuzz_start (void)
{
  static int started;
  gpg_error_t err;

  if (started)
    return;
  started = 1;
  err = init_libgcrypt (0);
  if (!err)
    err = sf_table_init ();
  if (!err && stdin_in_memory ())
    err = gpg_error_from_syserror ();
  if (err)
    {
      fail_print (err, "fuzz harness start-up");
      exit (2);
    }
  /* The program's defaults, as parse_command_line starts from them:
   * zeros would be limits of 0 (--s2k-argon2-max-work).  */
  options_set_defaults ();
  opt.batch = 1;
  opt.quiet = 1;
  opt.no_auto_modules = 1;
  opt.passphrase = FUZZ_PASSPHRASE;
  opt.output = "/dev/null";
}


gpg_error_t
fuzz_parse_command_line (int argc, char **argv)
{
  struct command_line cl;

  return parse_command_line (argc, argv, &cl);
}


void
fuzz_forget_error (void)
{
  char ignored[FAIL_MESSAGE_MAX];

  fail_push (ignored, sizeof ignored);
}


void
fuzz_source_init (fuzz_source_t *src, const uint8_t *data, size_t len)
{
  src->data = data;
  src->len = len;
  src->pos = 0;
  /* A third of the inputs in one piece, the others in pieces of 1 to
   * 257 bytes.  */
  src->piece = len % 3 ? 1 + len % 257 : len;
}


gpg_error_t
fuzz_source_read (void *ctx, unsigned char *buf, size_t size, size_t *nread)
{
  fuzz_source_t *src = ctx;
  size_t n = src->len - src->pos;

  if (n > size)
    n = size;
  if (n > src->piece)
    n = src->piece;
  memcpy (buf, src->data + src->pos, n);
  src->pos += n;
  *nread = n;
  return 0;
}


gpg_error_t
fuzz_drain (reader_t *r, size_t limit)
{
  static unsigned char buf[CHUNK_SIZE];
  gpg_error_t err;
  size_t n, total = 0;

  do
    {
      err = reader_read (r, buf, sizeof buf, &n);
      total += n;
    }
  while (!err && n && total < limit);
  return err;
}


enum fuzz_ending
fuzz_read_stream (source_fn_t source, void *ctx, unsigned char *out,
                  size_t limit, size_t *outlen)
{
  gpg_error_t err = 0;
  size_t n = 1;

  for (*outlen = 0; !err && n && *outlen < limit; *outlen += n)
    {
      err = source (ctx, out + *outlen, limit - *outlen, &n);
      if (err)
        n = 0;
    }
  return err ? FUZZ_ENDED_REFUSED : *outlen < limit ? FUZZ_ENDED_GOOD
                                                    : FUZZ_ENDED_AT_LIMIT;
}


void
fuzz_same_outcome (enum fuzz_ending pend, const unsigned char *pout,
                   size_t plen, enum fuzz_ending send,
                   const unsigned char *sout, size_t slen)
{
  if (pend != FUZZ_ENDED_AT_LIMIT && send != FUZZ_ENDED_AT_LIMIT
      && (pend == FUZZ_ENDED_GOOD) != (send == FUZZ_ENDED_GOOD))
    abort ();
  if (pend == FUZZ_ENDED_GOOD && send == FUZZ_ENDED_GOOD && plen != slen)
    abort ();
  if (memcmp (pout, sout, plen < slen ? plen : slen))
    abort ();
}


gpg_error_t
fuzz_decrypt (const uint8_t *data, size_t size)
{
  gpg_error_t err;

  if (ftruncate (0, 0) || pwrite (0, data, size, 0) != (ssize_t)size
      || lseek (0, 0, SEEK_SET))
    {
      perror ("fuzz harness: standard input");
      exit (2);
    }
  /* Half the inputs through the decryption on a second thread
   * (source-thread.c), half on one.  */
  compress_set_threads (1 + size % 2);
  err = decrypt_file (NULL);
  fuzz_forget_error ();
  return err;
}


size_t
fuzz_frame (unsigned char *out, int tag, const unsigned char *body,
            size_t len, enum fuzz_framing framing, unsigned int shift)
{
  unsigned char *p = out, header[8];
  size_t chunk = (size_t)1 << shift, n;

  if (framing == FUZZ_INDETERMINATE && tag == PKT_ENCRYPTED)
    {
      *p++ = 0x80 | tag << 2 | 3;
      memcpy (p, body, len);
      return p + len - out;
    }
  *p++ = 0xc0 | tag;
  if (framing == FUZZ_PARTIAL || framing == FUZZ_PARTIAL_EMPTY)
    while (framing == FUZZ_PARTIAL ? len > chunk : len >= chunk)
      {
        *p++ = 0xe0 | shift;
        memcpy (p, body, chunk);
        p += chunk;
        body += chunk;
        len -= chunk;
      }
  if (framing == FUZZ_INDETERMINATE)
    {
      *p++ = 0xff;
      *p++ = len >> 24;
      *p++ = len >> 16;
      *p++ = len >> 8;
      *p++ = len;
    }
  else
    {
      n = packet_header_put (header, 0, len);
      memcpy (p, header + 1, n - 1);
      p += n - 1;
    }
  memcpy (p, body, len);
  return p + len - out;
}
