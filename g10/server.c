/* server.c - sfenc --server: gpg 2.2's Assuan server
 *
 * The protocol as libassuan speaks it for gpg 2.2.40 (checked against
 * gpg --server): a line of at most 1002 bytes with its LF, a CR before
 * the LF dropped; command names in any case; empty lines and lines
 * starting with '#' ignored; every command answered by "OK" or by
 * "ERR CODE DESCRIPTION <SOURCE>", CODE the gpg_error_t in decimal,
 * with " - TEXT" where libassuan adds one; data lines "D ..." with '%',
 * CR and LF percent-escaped.  An over-long line or one cut by the end
 * of the input ends the server with a message on stderr and no answer,
 * and so does the end of the input, with exit status 0, as gpg.
 *
 * gpg sends no status lines ("S ...") on the Assuan channel for these
 * commands: they go to --status-fd, as sfenc's do (status.c).
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "decrypt.h"
#include "error.h"
#include "options.h"
#include "server.h"
#include "special-filename.h"
#include "status.h"
#include "version.h"

/* libassuan's ASSUAN_LINELENGTH: a line with its CR LF.  */
#define LINE_MAX_BYTES 1002

/* The longest data line: libassuan's 1000 bytes, less the line end.  */
#define DATA_LINE_MAX 1000

/* The exit status of a session in which a command failed.  */
#define EXIT_COMMAND_FAILED 2

typedef struct server
{
  char buf[LINE_MAX_BYTES];     /* Bytes read, not yet a command.  */
  size_t len;
  int input_fd, output_fd, message_fd;  /* -1 when not set.  */
  int failed;                   /* A command failed as gpg logs it.  */
  int done;                     /* BYE, or the client went away.  */
  const char *error_text;       /* libassuan's " - TEXT" after an ERR.  */
} server_t;

static gpg_error_t cmd_nop (server_t *s, char *args);
static gpg_error_t cmd_not_implemented (server_t *s, char *args);
static gpg_error_t cmd_not_supported (server_t *s, char *args);
static gpg_error_t cmd_option (server_t *s, char *args);
static gpg_error_t cmd_bye (server_t *s, char *args);
static gpg_error_t cmd_reset (server_t *s, char *args);
static gpg_error_t cmd_help (server_t *s, char *args);
static gpg_error_t cmd_recipient (server_t *s, char *args);
static gpg_error_t cmd_encrypt (server_t *s, char *args);
static gpg_error_t cmd_decrypt (server_t *s, char *args);
static gpg_error_t cmd_verify (server_t *s, char *args);
static gpg_error_t cmd_input (server_t *s, char *args);
static gpg_error_t cmd_output (server_t *s, char *args);
static gpg_error_t cmd_message (server_t *s, char *args);
static gpg_error_t cmd_getinfo (server_t *s, char *args);

struct command
{
  const char *name;
  gpg_error_t (*handler) (server_t *s, char *args);
  const char *help;     /* Lines for HELP NAME; NULL when gpg has none.  */
};

/* gpg 2.2.40's commands in its order, which HELP lists.  Those that
 * need keys answer as gpg does without any.  */
static const struct command commands[] =
  {
    { "NOP", cmd_nop, NULL },
    { "CANCEL", cmd_not_implemented, NULL },
    { "OPTION", cmd_option, NULL },
    { "BYE", cmd_bye, NULL },
    { "AUTH", cmd_not_implemented, NULL },
    { "RESET", cmd_reset, NULL },
    { "END", cmd_not_implemented, NULL },
    { "HELP", cmd_help, NULL },
    { "RECIPIENT", cmd_recipient, NULL },
    { "SIGNER", cmd_not_supported, NULL },
    { "ENCRYPT", cmd_encrypt, NULL },
    { "DECRYPT", cmd_decrypt, NULL },
    { "VERIFY", cmd_verify, NULL },
    { "SIGN", cmd_not_supported, NULL },
    { "IMPORT", cmd_not_supported, NULL },
    { "EXPORT", cmd_not_supported, NULL },
    { "INPUT", cmd_input, NULL },
    { "OUTPUT", cmd_output, NULL },
    { "MESSAGE", cmd_message, NULL },
    { "LISTKEYS", cmd_not_supported, NULL },
    { "LISTSECRETKEYS", cmd_not_supported, NULL },
    { "GENKEY", cmd_not_supported, NULL },
    { "DELKEYS", cmd_not_supported, NULL },
    { "GETINFO", cmd_getinfo, NULL },
    { "PASSWD", cmd_not_supported,
      "PASSWD <userID>\n"
      "\n"
      "Change the passphrase of the secret key for USERID." },
  };

/* The options of OPTION that gpg's server accepts; it ignores them
 * all, and so does sfenc.  */
static const char *const known_options[] =
  {
    "display", "ttyname", "ttytype", "lc-ctype", "lc-messages",
    "xauthority", "pinentry_user_data", "list-mode",
    "allow-pinentry-notify"
  };


/* An error as gpg's server makes it, from the source GnuPG.  */
static gpg_error_t
gnupg_error (gpg_err_code_t code)
{
  return gpg_err_make (GPG_ERR_SOURCE_GPG, code);
}


/* A syntax error, with libassuan's TEXT.  */
static gpg_error_t
syntax_error (server_t *s, const char *text)
{
  s->error_text = text;
  return gnupg_error (GPG_ERR_ASS_SYNTAX);
}


/* Write one line of the answer; a client that went away ends the
 * session.  */
static void
send_line (server_t *s, const char *fmt, ...)
{
  va_list ap;

  va_start (ap, fmt);
  vprintf (fmt, ap);
  va_end (ap);
  putchar ('\n');
  if (fflush (stdout) || ferror (stdout))
    s->done = 1;
}


/* Send DATA as data lines, '%', CR and LF escaped.  */
static void
send_data (server_t *s, const char *data)
{
  char line[DATA_LINE_MAX + 1];
  size_t n = 0;

  for (; *data && !s->done; data++)
    {
      if (n + 3 > DATA_LINE_MAX - 2)
        {
          line[n] = 0;
          send_line (s, "D %s", line);
          n = 0;
        }
      if (*data == '%' || *data == '\r' || *data == '\n')
        n += snprintf (line + n, sizeof line - n, "%%%02X",
                       (unsigned char)*data);
      else
        line[n++] = *data;
    }
  line[n] = 0;
  if (n)
    send_line (s, "D %s", line);
}


/* The code in decimal as a signed number, as gpg's -1.  */
static void
send_error (server_t *s, gpg_error_t err)
{
  send_line (s, "ERR %d %s <%s>%s%s", (int)err, gpg_strerror (err),
             gpg_strsource (err), s->error_text ? " - " : "",
             s->error_text ? s->error_text : "");
}


/* Forget the message a failed stage recorded, so that the next
 * command's failure is reported with its own.  */
static void
forget_failure (void)
{
  char discarded[FAIL_MESSAGE_MAX];

  fail_push (discarded, sizeof discarded);
}


/* Log that command NAME failed with ERR, as gpg logs it; the session
 * then ends with exit status 2.  */
static gpg_error_t
command_failed (server_t *s, const char *name, gpg_error_t err)
{
  char what[64];

  forget_failure ();
  snprintf (what, sizeof what, "command '%s' failed", name);
  fail_print (err, what);
  s->failed = 1;
  return err;
}


/* Close *FD unless a stage closed it already; never the protocol's
 * own descriptors or stderr.  */
static void
close_fd (int *fd)
{
  if (*fd > 2 && fcntl (*fd, F_GETFD) >= 0)
    close (*fd);
  *fd = -1;
}


/* After a command that used them, as gpg, and on RESET.  */
static void
close_io (server_t *s)
{
  close_fd (&s->input_fd);
  close_fd (&s->output_fd);
  close_fd (&s->message_fd);
}


static gpg_error_t
cmd_nop (server_t *s, char *args)
{
  (void)s;
  (void)args;
  return 0;
}


static gpg_error_t
cmd_not_implemented (server_t *s, char *args)
{
  (void)s;
  (void)args;
  return gnupg_error (GPG_ERR_NOT_IMPLEMENTED);
}


/* A command that needs a key: gpg's answer when none is there.  */
static gpg_error_t
cmd_not_supported (server_t *s, char *args)
{
  (void)s;
  (void)args;
  return gnupg_error (GPG_ERR_NOT_SUPPORTED);
}


static int
is_blank (char c)
{
  return c == ' ' || c == '\t';
}


static char *
skip_blanks (char *p)
{
  while (is_blank (*p))
    p++;
  return p;
}


/* Split the argument of OPTION into *R_KEY and its value, as
 * libassuan does: "KEY", "KEY=VALUE" or "KEY VALUE", blanks around
 * '=' allowed, and "--KEY" the same as "KEY".  */
static gpg_error_t
parse_option (server_t *s, char *args, char **r_key)
{
  char *key = skip_blanks (args), *p;

  if (!*key)
    return syntax_error (s, "argument required");
  if (*key == '=')
    return syntax_error (s, "no option name given");
  for (p = key; *p && !is_blank (*p) && *p != '='; p++)
    ;
  if (*p)
    {
      int had_equal = *p == '=';

      *p++ = 0;
      p = skip_blanks (p);
      if (!had_equal && *p == '=')
        {
          p = skip_blanks (p + 1);
          had_equal = 1;
        }
      if (had_equal && !*p)
        return syntax_error (s, "option argument expected");
    }
  if (key[0] == '-' && key[1] == '-' && key[2])
    key += 2;
  if (*key == '-')
    return syntax_error (s, "option should not begin with one dash");
  *r_key = key;
  return 0;
}


static gpg_error_t
cmd_option (server_t *s, char *args)
{
  gpg_error_t err;
  char *key;
  size_t i;

  err = parse_option (s, args, &key);
  if (err)
    return err;
  for (i = 0; i < sizeof known_options / sizeof *known_options; i++)
    if (!strcmp (key, known_options[i]))
      return 0;
  return gnupg_error (GPG_ERR_UNKNOWN_OPTION);
}


static gpg_error_t
cmd_bye (server_t *s, char *args)
{
  (void)args;
  send_line (s, "OK closing connection");
  s->done = 1;
  return 0;
}


static gpg_error_t
cmd_reset (server_t *s, char *args)
{
  (void)args;
  close_io (s);
  return 0;
}


static const struct command *
find_command (const char *name)
{
  size_t i;

  for (i = 0; i < sizeof commands / sizeof *commands; i++)
    if (!strcasecmp (name, commands[i].name))
      return &commands[i];
  return NULL;
}


/* Send the lines of TEXT as comments.  */
static void
send_comment_lines (server_t *s, const char *text)
{
  const char *end;

  for (; *text; text = *end ? end + 1 : end)
    {
      end = strchr (text, '\n');
      if (!end)
        end = text + strlen (text);
      send_line (s, "# %.*s", (int)(end - text), text);
    }
}


/* HELP lists the commands, the first line of a help text in place of
 * the name; HELP NAME shows NAME's help text.  */
static gpg_error_t
cmd_help (server_t *s, char *args)
{
  const struct command *c;
  size_t i;

  args = skip_blanks (args);
  args[strcspn (args, " \t")] = 0;
  if (!*args)
    {
      for (i = 0; i < sizeof commands / sizeof *commands; i++)
        {
          c = &commands[i];
          if (c->help)
            send_line (s, "# %.*s", (int)strcspn (c->help, "\n"), c->help);
          else
            send_line (s, "# %s", c->name);
        }
      return 0;
    }
  c = find_command (args);
  if (!c)
    return gnupg_error (GPG_ERR_UNKNOWN_COMMAND);
  if (!c->help)
    return gnupg_error (GPG_ERR_NOT_FOUND);
  send_comment_lines (s, c->help);
  return 0;
}


/* sfenc has no public keys: every recipient is skipped, as gpg skips
 * one it has no key for.  */
static gpg_error_t
cmd_recipient (server_t *s, char *args)
{
  char what[DATA_LINE_MAX + 16];

  args = skip_blanks (args);
  if (!*args)
    return command_failed (s, "RECIPIENT", gnupg_error (GPG_ERR_INV_USER_ID));
  snprintf (what, sizeof what, "%s: skipped", args);
  fail_print (gpg_error (GPG_ERR_NO_PUBKEY), what);
  status_invalid_recipient (args);
  return command_failed (s, "RECIPIENT", gpg_error (GPG_ERR_NO_PUBKEY));
}


/* No RECIPIENT can have succeeded, so there is none to encrypt to.  */
static gpg_error_t
cmd_encrypt (server_t *s, char *args)
{
  (void)args;
  status_no_recipients ();
  close_io (s);
  return command_failed (s, "ENCRYPT", gnupg_error (GPG_ERR_NO_USER_ID));
}


/* Decrypt from descriptor IN to descriptor OUT through decrypt_file,
 * as "-&N" names, which it opens and closes as it does gpg's.  */
static gpg_error_t
decrypt_descriptors (int in, int out)
{
  char inname[32], outname[32];
  const char *saved_output = opt.output;
  gpg_error_t err;

  snprintf (inname, sizeof inname, "-&%d", in);
  snprintf (outname, sizeof outname, "-&%d", out);
  opt.output = outname;
  err = decrypt_file (inname);
  opt.output = saved_output;
  return err;
}


/* gpg's answer for the error ERR of a decryption: with no passphrase
 * to give, gpg-agent's "No secret key", from no source; for an input
 * that cannot be read or holds no OpenPGP data, -1.  */
static gpg_error_t
decrypt_answer (gpg_error_t err)
{
  gpg_err_code_t code = gpg_err_code (err);

  if (code == GPG_ERR_NO_PASSPHRASE)
    return gpg_error (GPG_ERR_NO_SECKEY);
  if (code == GPG_ERR_NO_DATA || (code & GPG_ERR_SYSTEM_ERROR))
    return (gpg_error_t)-1;
  return gnupg_error (code);
}


static gpg_error_t
cmd_decrypt (server_t *s, char *args)
{
  gpg_error_t err;

  (void)args;
  if (s->input_fd < 0)
    return gnupg_error (GPG_ERR_ASS_NO_INPUT);
  if (s->output_fd < 0)
    return gnupg_error (GPG_ERR_ASS_NO_OUTPUT);
  err = decrypt_descriptors (s->input_fd, s->output_fd);
  close_io (s);
  if (!err)
    return 0;
  fail_print (err, "decryption failed");
  return command_failed (s, "DECRYPT", decrypt_answer (err));
}


/* A signature could only be checked with a public key.  */
static gpg_error_t
cmd_verify (server_t *s, char *args)
{
  (void)args;
  if (s->input_fd < 0)
    return gnupg_error (GPG_ERR_ASS_NO_INPUT);
  close_io (s);
  return command_failed (s, "VERIFY", gpg_error (GPG_ERR_NO_PUBKEY));
}


/* The argument of INPUT, OUTPUT and MESSAGE: "FD=N", in any case,
 * anything after N ignored, as libassuan reads it.  A bare "FD" would
 * pass a descriptor over a socket, which a pipe cannot do.  */
static gpg_error_t
parse_fd (server_t *s, char *args, int *r_fd)
{
  unsigned long fd;

  args = skip_blanks (args);
  if (strncasecmp (args, "FD", 2) || (args[2] && args[2] != '='
                                      && !is_blank (args[2])))
    return syntax_error (s, "FD[=<n>] expected");
  if (args[2] != '=')
    {
      s->error_text = "server does not support sending and receiving of"
                   " file descriptors";
      return gnupg_error (GPG_ERR_NOT_IMPLEMENTED);
    }
  if (args[3] < '0' || args[3] > '9')
    return syntax_error (s, "number required");
  fd = strtoul (args + 3, NULL, 10);
  /* The protocol's own descriptors, refused as libassuan refuses
   * them: DECRYPT would close them.  */
  s->error_text = fd == STDIN_FILENO ? "fd same as inbound fd"
                  : fd == STDOUT_FILENO ? "fd same as outbound fd" : NULL;
  if (s->error_text)
    return gnupg_error (GPG_ERR_ASS_PARAMETER);
  /* Too large to be open: refused when used, as by gpg.  */
  *r_fd = fd > INT_MAX ? INT_MAX : (int)fd;
  return 0;
}


static gpg_error_t
cmd_input (server_t *s, char *args)
{
  return parse_fd (s, args, &s->input_fd);
}


static gpg_error_t
cmd_output (server_t *s, char *args)
{
  return parse_fd (s, args, &s->output_fd);
}


static gpg_error_t
cmd_message (server_t *s, char *args)
{
  return parse_fd (s, args, &s->message_fd);
}


static gpg_error_t
cmd_getinfo (server_t *s, char *args)
{
  char pid[32];

  args = skip_blanks (args);
  if (!strcmp (args, "version"))
    send_data (s, GPG_INTERFACE_VERSION);
  else if (!strcmp (args, "pid"))
    {
      snprintf (pid, sizeof pid, "%lu", (unsigned long)getpid ());
      send_data (s, pid);
    }
  else
    {
      s->error_text = "unknown value for WHAT";
      return gnupg_error (GPG_ERR_ASS_PARAMETER);
    }
  return 0;
}


/* Run the command LINE and answer it.  */
static void
run_line (server_t *s, char *line)
{
  const struct command *c;
  gpg_error_t err;
  char *args;

  s->error_text = NULL;
  if (!*line || *line == '#')
    return;
  if (is_blank (*line))
    err = syntax_error (s, "leading white-space");
  else
    {
      /* "D " is data of an INQUIRE, which gpg's server never sends.  */
      int is_data = line[0] == 'D' && line[1] == ' ';

      args = line + strcspn (line, " \t");
      if (*args)
        *args++ = 0;
      c = find_command (line);
      if (is_data)
        err = gnupg_error (GPG_ERR_NOT_IMPLEMENTED);
      else if (!c)
        err = gnupg_error (GPG_ERR_ASS_UNKNOWN_CMD);
      else
        err = c->handler (s, args);
    }
  forget_failure ();
  if (err)
    send_error (s, err);
  else if (!s->done)
    send_line (s, "OK");
}


/* Read the next line into *R_LINE (in S->buf, its line end removed),
 * or return GPG_ERR_EOF at the end of the input, or libassuan's error
 * for a line too long or cut short.  */
static gpg_error_t
read_line (server_t *s, char **r_line, size_t *r_used)
{
  char *lf;
  ssize_t n;

  while (!(lf = memchr (s->buf, '\n', s->len)))
    {
      if (s->len == sizeof s->buf)
        return gpg_error (GPG_ERR_ASS_LINE_TOO_LONG);
      n = read (0, s->buf + s->len, sizeof s->buf - s->len);
      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        return gpg_error_from_syserror ();
      if (!n)
        return gpg_error (s->len ? GPG_ERR_ASS_INCOMPLETE_LINE : GPG_ERR_EOF);
      s->len += n;
    }
  *lf = 0;
  if (lf > s->buf && lf[-1] == '\r')
    lf[-1] = 0;
  *r_line = s->buf;
  *r_used = lf - s->buf + 1;
  return 0;
}


int
server_run (void)
{
  static server_t s;
  gpg_error_t err = 0;
  char *line;
  size_t used = 0;

  s.input_fd = s.output_fd = s.message_fd = -1;
  /* gpg's server asks for no passphrase on a terminal; DECRYPT
   * names the client's descriptors "-&N" for decrypt_file.  */
  opt.batch = 1;
  special_filenames_enable ();
  send_line (&s, "OK sfenc's OpenPGP server %s ready", PACKAGE_VERSION);
  while (!s.done && !(err = read_line (&s, &line, &used)))
    {
      run_line (&s, line);
      s.len -= used;
      memmove (s.buf, s.buf + used, s.len);
    }
  if (err && gpg_err_code (err) != GPG_ERR_EOF)
    fail_print (err, "Assuan processing failed");
  close_io (&s);
  return s.failed ? EXIT_COMMAND_FAILED : 0;
}
