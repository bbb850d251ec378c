/* passphrase.c - obtaining the passphrase
 *
 * As gpg: --passphrase, the first line of --passphrase-fd or of
 * --passphrase-file, or else, unless --batch, a prompt on /dev/tty
 * with echo turned off (twice when encrypting).  The passphrase only
 * ever lives in libgcrypt's secure memory and is wiped when
 * released.
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>
#include <gcrypt.h>

#include "sfenc.h"

/* Longest passphrase accepted, as gpg's agent limit.  */
#define MAX_PASSPHRASE 1024

#define WHAT "passphrase"


static char *
secure_alloc (void)
{
  char *p = gcry_malloc_secure (MAX_PASSPHRASE + 1);

  if (p)
    *p = 0;
  return p;
}


void
passphrase_release (char *pass)
{
  if (!pass)
    return;
  sf_wipememory (pass, MAX_PASSPHRASE + 1);
  gcry_free (pass);
}


/* Read one line from FD into PASS (without the line end).  One byte at
 * a time, so nothing after the line is consumed: with
 * --passphrase-fd 0 the data may follow the passphrase on stdin.  */
static gpg_error_t
read_line_fd (int fd, char *pass, const char *name)
{
  size_t n = 0;
  ssize_t r;
  char c;

  for (;;)
    {
      r = read (fd, &c, 1);
      if (r < 0 && errno == EINTR)
        continue;
      if (r < 0)
        return fail (gpg_error_from_syserror (), name, "read error: %s",
                     strerror (errno));
      if (!r || c == '\n')
        break;
      if (n == MAX_PASSPHRASE)
        return fail (gpg_error (GPG_ERR_TOO_LARGE), name,
                     "passphrase longer than %d bytes", MAX_PASSPHRASE);
      pass[n++] = c;
    }
  if (n && pass[n - 1] == '\r')
    n--;
  pass[n] = 0;
  return 0;
}


/* Prompt with PROMPT on the terminal TTY and read a line with echo
 * off.  */
static gpg_error_t
prompt_tty (int tty, const char *prompt, char *pass)
{
  gpg_error_t err;
  struct termios saved, noecho;
  int have_termios;
  ssize_t ignored;

  ignored = write (tty, prompt, strlen (prompt));
  (void)ignored;
  have_termios = !tcgetattr (tty, &saved);
  if (have_termios)
    {
      noecho = saved;
      noecho.c_lflag &= ~(ECHO | ECHONL);
      noecho.c_lflag |= ICANON;
      tcsetattr (tty, TCSANOW, &noecho);
    }
  err = read_line_fd (tty, pass, "/dev/tty");
  if (have_termios)
    tcsetattr (tty, TCSANOW, &saved);
  ignored = write (tty, "\n", 1);
  (void)ignored;
  return err;
}


static gpg_error_t
ask_terminal (char *pass, int confirm)
{
  gpg_error_t err;
  char *again = NULL;
  int tty;

  tty = open ("/dev/tty", O_RDWR | O_NOCTTY);
  if (tty < 0)
    return fail (gpg_error_from_syserror (), WHAT,
                 "cannot ask for it: /dev/tty: %s (use --passphrase-fd,"
                 " --passphrase-file or --passphrase)", strerror (errno));
  err = prompt_tty (tty, "Enter passphrase: ", pass);
  if (!err && confirm)
    {
      again = secure_alloc ();
      if (!again)
        err = fail (gpg_error_from_syserror (), "out of secure memory", NULL);
      else
        err = prompt_tty (tty, "Repeat passphrase: ", again);
      if (!err && strcmp (pass, again))
        err = fail (gpg_error (GPG_ERR_BAD_PASSPHRASE), WHAT,
                    "the two passphrases do not match");
      passphrase_release (again);
    }
  close (tty);
  return err;
}


int
passphrase_is_prompted (void)
{
  return !opt.passphrase && opt.passphrase_fd < 0 && !opt.passphrase_file
         && !opt.batch && !opt.pinentry_no_ask;
}


gpg_error_t
passphrase_get (char **r_pass, int confirm)
{
  gpg_error_t err = 0;
  char *pass;
  int fd;

  *r_pass = NULL;
  pass = secure_alloc ();
  if (!pass)
    return fail (gpg_error_from_syserror (), "out of secure memory", NULL);
  if (opt.passphrase)
    {
      if (strlen (opt.passphrase) > MAX_PASSPHRASE)
        err = fail (gpg_error (GPG_ERR_TOO_LARGE), WHAT,
                    "passphrase longer than %d bytes", MAX_PASSPHRASE);
      else
        strcpy (pass, opt.passphrase);
    }
  else if (opt.passphrase_fd >= 0)
    err = read_line_fd (opt.passphrase_fd, pass, "--passphrase-fd");
  else if (opt.passphrase_file)
    {
      fd = open (opt.passphrase_file, O_RDONLY);
      if (fd < 0)
        err = fail (gpg_error_from_syserror (), opt.passphrase_file,
                    "%s", strerror (errno));
      else
        {
          err = read_line_fd (fd, pass, opt.passphrase_file);
          close (fd);
        }
    }
  else if (opt.batch || opt.pinentry_no_ask)
    err = fail (gpg_error (GPG_ERR_NO_PASSPHRASE), WHAT,
                "none given and --batch forbids asking (use --passphrase,"
                " --passphrase-fd or --passphrase-file)");
  else
    err = ask_terminal (pass, confirm);
  if (err)
    {
      passphrase_release (pass);
      return err;
    }
  *r_pass = pass;
  return 0;
}
