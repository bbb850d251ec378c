/* status.c - machine-readable status lines (--status-fd)
 *
 * A line is formatted whole and written by one write(2) loop, so it
 * reaches the reader at once, in order with the work, and never in
 * pieces mixed with another line.  When the reader has gone, the
 * lines stop and the operation goes on, as gpg goes on.
 *
 * The arguments are gpg 2.2's: numbers in decimal (OpenPGP ids for
 * algorithms), the literal format byte in hexadecimal, a literal file
 * name percent-escaped, and error codes as gpg's error values, whose
 * source is gpg's.
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "error.h"
#include "iobuf.h"
#include "outfile.h"
#include "s2k.h"
#include "status.h"

/* Room for the arguments of a line: the longest is PLAINTEXT, with a
 * 255-byte name of which every byte may be escaped as %XX.  */
#define STATUS_ARGS_MAX 1024

/* Room for a literal data packet's name, of up to 255 bytes, with
 * every byte escaped as %XX.  */
#define NAME_SHOWN_MAX (3 * 255 + 1)

/* The MDC method that gpg names: the digest id of SHA-1.  */
#define MDC_METHOD_SHA1 2

/* The reasons of INV_RECP and INV_SGNR that sfenc gives (GnuPG's
 * doc/DETAILS): no such key, and no secret key.  */
#define INV_REASON_NOT_FOUND 1
#define INV_REASON_NO_SECRET_KEY 9

/* Exit status of a run ended by --exit-on-status-write-error.  */
#define EXIT_STATUS_WRITE_ERROR 2

/* Units of the PROGRESS numbers: gpg scales them down by 1024 while
 * the total (or, without one, the count) exceeds 1 MiB.  */
#define PROGRESS_SCALE_LIMIT (1024 * 1024)

static int status_fd = -1;
static int exit_on_write_error;

/* What the decryption has reported so far, to end it as gpg does.  */
static struct
{
  int aead;             /* The data is AEAD encrypted.  */
  int mdc;              /* 0 not checked, 1 good, -1 bad.  */
  int failed;           /* DECRYPTION_FAILED written.  */
} decryption;


gpg_error_t
status_set_fd (int fd)
{
  if (fcntl (fd, F_GETFD) == -1)
    return fail (gpg_error_from_syserror (), "--status-fd", "%d: %s", fd,
                 strerror (errno));
  status_fd = fd;
  return 0;
}


int
status_enabled (void)
{
  return status_fd >= 0;
}


void
status_exit_on_write_error (void)
{
  exit_on_write_error = 1;
}


/* The reader of the status lines has gone.  */
static void
write_failed (int write_errno)
{
  status_fd = -1;
  if (!exit_on_write_error)
    return;
  fprintf (stderr, "sfenc: --status-fd: write error: %s"
           " (stopping: --exit-on-status-write-error)\n",
           strerror (write_errno));
  /* Other threads may be at work, so no exit handlers run.  */
  outfile_abandon ();
  _exit (EXIT_STATUS_WRITE_ERROR);
}


static void
write_line (const char *line, size_t len)
{
  ssize_t n;

  while (len)
    {
      n = write (status_fd, line, len);
      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        {
          write_failed (n < 0 ? errno : EPIPE);
          return;
        }
      line += n;
      len -= n;
    }
}


/* Write the line of KEYWORD with the arguments formatted from FMT (or
 * none when FMT is NULL).  A line break in the arguments would end
 * the line, so it is written as \n or \r, as gpg writes it.  */
static void status_printf (const char *keyword, const char *fmt, ...)
  __attribute__ ((format (printf, 2, 3)));

static void
status_printf (const char *keyword, const char *fmt, ...)
{
  char args[STATUS_ARGS_MAX], line[2 * STATUS_ARGS_MAX + 64];
  const char *s;
  size_t n;
  va_list ap;

  if (status_fd < 0)
    return;
  n = snprintf (line, sizeof line, "[GNUPG:] %s", keyword);
  if (fmt)
    {
      va_start (ap, fmt);
      vsnprintf (args, sizeof args, fmt, ap);
      va_end (ap);
      line[n++] = ' ';
      for (s = args; *s; s++)
        if (*s == '\n' || *s == '\r')
          {
            line[n++] = '\\';
            line[n++] = *s == '\n' ? 'n' : 'r';
          }
        else
          line[n++] = *s;
    }
  line[n++] = '\n';
  write_line (line, n);
}


void
status_need_passphrase_sym (int cipher_algo, const s2k_t *s2k)
{
  status_printf ("NEED_PASSPHRASE_SYM", "%d %d %d", cipher_algo, s2k->mode,
                 s2k->hash_algo);
}


void
status_get (const char *type, const char *keyword)
{
  status_printf (type, "%s", keyword);
}


void
status_got_it (void)
{
  status_printf ("GOT_IT", NULL);
}


void
status_inquire_maxlen (unsigned int maxlen)
{
  status_printf ("INQUIRE_MAXLEN", "%u", maxlen);
}


void
status_missing_passphrase (void)
{
  status_printf ("MISSING_PASSPHRASE", NULL);
}


void
status_canceled_by_user (void)
{
  status_printf ("CANCELED_BY_USER", NULL);
}


void
status_invalid_recipient (const char *name)
{
  status_printf ("INV_RECP", "%d %s", INV_REASON_NOT_FOUND, name);
}


void
status_no_recipients (void)
{
  status_printf ("NO_RECP", "0");
}


void
status_file_start (int operation, const char *name)
{
  status_printf ("FILE_START", "%d %s", operation, name);
}


void
status_file_done (void)
{
  status_printf ("FILE_DONE", NULL);
}


void
status_invalid_signer (const char *name)
{
  if (name)
    status_printf ("INV_SGNR", "%d %s", INV_REASON_NO_SECRET_KEY, name);
  else
    status_printf ("INV_SGNR", "%d", INV_REASON_NO_SECRET_KEY);
}


void
status_begin_encryption (int cipher_algo, int aead_algo)
{
  if (aead_algo)
    status_printf ("BEGIN_ENCRYPTION", "0 %d %d", cipher_algo, aead_algo);
  else
    status_printf ("BEGIN_ENCRYPTION", "%d %d", MDC_METHOD_SHA1, cipher_algo);
}


void
status_end_encryption (void)
{
  status_printf ("END_ENCRYPTION", NULL);
}


void
status_enc_to (const unsigned char *keyid, int algo)
{
  char hex[2 * 8 + 1];
  int i;

  for (i = 0; i < 8; i++)
    sprintf (hex + 2 * i, "%02X", keyid[i]);
  /* The 0 is the key length, which gpg does not know either.  */
  status_printf ("ENC_TO", "%s %d 0", hex, algo);
  status_printf ("NO_SECKEY", "%s", hex);
}


void
status_begin_decryption (void)
{
  memset (&decryption, 0, sizeof decryption);
  status_printf ("BEGIN_DECRYPTION", NULL);
}


void
status_decryption_info (int mdc_method, int cipher_algo, int aead_algo)
{
  decryption.aead = aead_algo != 0;
  status_printf ("DECRYPTION_INFO", "%d %d %d", mdc_method, cipher_algo,
                 aead_algo);
}


void
status_session_key (const char *shown)
{
  status_printf ("SESSION_KEY", "%s", shown);
}


/* Write NAME of LEN bytes to OUT as gpg writes it in a status line:
 * the bytes up to the space, '%' and DEL as %XX.  */
static void
percent_escape (const unsigned char *name, size_t len, char *out)
{
  size_t i;

  for (i = 0; i < len; i++)
    if (name[i] <= ' ' || name[i] == '%' || name[i] == 0x7f)
      out += sprintf (out, "%%%02X", name[i]);
    else
      *out++ = name[i];
  *out = 0;
}


void
status_plaintext (const packet_header_t *hdr, const unsigned char *fields)
{
  size_t namelen = fields[1];
  const unsigned char *date = fields + 2 + namelen;
  char shown[NAME_SHOWN_MAX];

  if (status_fd < 0)
    return;
  percent_escape (fields + 2, namelen, shown);
  status_printf ("PLAINTEXT", "%X %lu %s", fields[0],
                 (unsigned long)date[0] << 24 | date[1] << 16 | date[2] << 8
                 | date[3], shown);
  /* The data follows the 6 bytes of format, length, date and the
   * name.  */
  if (!hdr->partial && !hdr->to_eof)
    status_printf ("PLAINTEXT_LENGTH", "%llu",
                   (unsigned long long)(hdr->length - 6 - namelen));
}


void
status_mdc_checked (int good)
{
  decryption.mdc = good ? 1 : -1;
}


void
status_end_decryption (gpg_error_t err, int unverified)
{
  gpg_err_code_t code = gpg_err_code (err);

  /* An AEAD message has no MDC, but its tags protect it as an MDC
   * would: gpg 2.4 reports them as one.  */
  if (decryption.aead && (code == GPG_ERR_BAD_SIGNATURE
                          || code == GPG_ERR_TRUNCATED))
    unverified = 1;
  if (!err)
    {
      status_printf ("DECRYPTION_OKAY", NULL);
      if (decryption.mdc > 0 || decryption.aead)
        status_printf ("GOODMDC", NULL);
    }
  else
    {
      /* gpg's words for a quick check that failed: the passphrase
       * is probably wrong.  */
      if (code == GPG_ERR_BAD_KEY)
        status_printf ("ERROR", "symkey_decrypt.maybe_error"
                       " 11_BAD_PASSPHRASE");
      else if (decryption.mdc < 0 || unverified)
        status_printf ("BADMDC", NULL);
      status_printf ("DECRYPTION_FAILED", NULL);
      decryption.failed = 1;
    }
  status_printf ("END_DECRYPTION", NULL);
}


void
status_end_listing (void)
{
  status_printf ("END_DECRYPTION", NULL);
}


void
status_no_armored_data (void)
{
  /* gpg's code 1: "No armored data".  */
  status_printf ("NODATA", "1");
}


void
status_failure (const char *where, gpg_error_t err)
{
  /* One FAILURE line at most, as gpg writes, from the stage that
   * knows best what failed.  */
  static int written;

  if (decryption.failed || written)
    return;
  written = 1;
  status_printf ("FAILURE", "%s %u", where,
                 gpg_err_make (GPG_ERR_SOURCE_GPG, gpg_err_code (err)));
}


void
status_error (const char *where, gpg_error_t err)
{
  status_printf ("ERROR", "%s %u", where,
                 gpg_err_make (GPG_ERR_SOURCE_GPG, gpg_err_code (err)));
}


void
status_decryption_compliance (const char *flag)
{
  status_printf ("DECRYPTION_COMPLIANCE_MODE", "%s", flag);
}


void
status_progress (const char *what, uint64_t current, uint64_t total)
{
  static const char units[] = "BKMGTPEZY";
  int unit = 0;

  if (total && current > total)
    current = total;
  while ((total ? total : current) > PROGRESS_SCALE_LIMIT)
    {
      total >>= 10;
      current >>= 10;
      unit++;
    }
  status_printf ("PROGRESS", "%.20s ? %llu %llu %c%s", what,
                 (unsigned long long)current, (unsigned long long)total,
                 units[unit], unit ? "iB" : "");
}
