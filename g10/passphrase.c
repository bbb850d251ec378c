/* passphrase.c - obtaining the passphrase
 *
 * As gpg: --passphrase, the first line of --passphrase-fd or of
 * --passphrase-file, or else the answer to GET_HIDDEN on --command-fd,
 * or else, unless --batch, a prompt on /dev/tty with echo turned off
 * (twice when encrypting).  The passphrase only ever lives in
 * libgcrypt's secure memory and is wiped when released.
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>
#include <gcrypt.h>

#include "libsfcipher.h"
#include "command-fd.h"
#include "error.h"
#include "options.h"
#include "passphrase.h"
#include "status.h"

/* First size of a passphrase buffer; it doubles as needed.  */
#define INITIAL_SIZE 256

#define WHAT "passphrase"

/* A passphrase being collected, in secure memory.  */
typedef struct pass_buf
{
  char *mem;
  size_t len;
  size_t size;
  int at_eof;           /* The input ended without a line end.  */
} pass_buf_t;


static gpg_error_t
out_of_secure_memory (void)
{
  return fail (gpg_error_from_syserror (), "out of secure memory", NULL);
}


static gpg_error_t
too_long (const char *name)
{
  return fail (gpg_error (GPG_ERR_TOO_LARGE), name,
               "passphrase longer than %d bytes", MAX_PASSPHRASE);
}


/* Make room for at least NEED bytes and the terminating zero.  */
static gpg_error_t
pass_buf_reserve (pass_buf_t *pb, size_t need, const char *name)
{
  size_t size = pb->size ? pb->size : INITIAL_SIZE;
  char *mem;

  if (need > MAX_PASSPHRASE)
    return too_long (name);
  if (need < pb->size)
    return 0;
  while (size <= need)
    size *= 2;
  if (size > MAX_PASSPHRASE + 1)
    size = MAX_PASSPHRASE + 1;
  /* Copied by hand, not gcry_realloc: the old block must be wiped.  */
  mem = gcry_malloc_secure (size);
  if (!mem)
    return out_of_secure_memory ();
  if (pb->mem)
    memcpy (mem, pb->mem, pb->len);
  mem[pb->len] = 0;
  passphrase_release (pb->mem);
  pb->mem = mem;
  pb->size = size;
  return 0;
}


void
passphrase_release (char *pass)
{
  if (!pass)
    return;
  /* gcry_free wipes a secure block whole as well; this wipe does not
   * depend on it.  */
  sf_wipememory (pass, strlen (pass));
  gcry_free (pass);
}


/* Read one line from FD into PB (without the line end, and as gpg,
 * keeping a carriage return before it).  One byte at a time, so
 * nothing after the line is consumed: with --passphrase-fd 0 the
 * data may follow the passphrase on stdin.  */
static gpg_error_t
read_line_fd (int fd, pass_buf_t *pb, const char *name)
{
  gpg_error_t err;
  ssize_t r;
  char c;

  err = pass_buf_reserve (pb, 0, name);
  for (;;)
    {
      if (err)
        return err;
      r = read (fd, &c, 1);
      if (r < 0 && errno == EINTR)
        continue;
      if (r < 0)
        return fail (gpg_error_from_syserror (), name, "read error: %s",
                     strerror (errno));
      if (!r)
        pb->at_eof = 1;
      if (!r || c == '\n')
        return 0;
      err = pass_buf_reserve (pb, pb->len + 1, name);
      if (!err)
        {
          pb->mem[pb->len++] = c;
          pb->mem[pb->len] = 0;
        }
    }
}


/* Prompt with PROMPT on the terminal TTY and read a line with echo
 * off.  */
static gpg_error_t
prompt_tty (int tty, const char *prompt, pass_buf_t *pb)
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
  err = read_line_fd (tty, pb, "/dev/tty");
  if (have_termios)
    tcsetattr (tty, TCSANOW, &saved);
  ignored = write (tty, "\n", 1);
  (void)ignored;
  return err;
}


/* Ask on the terminal, then CONFIRM times more for the same
 * passphrase.  */
static gpg_error_t
ask_terminal (pass_buf_t *pb, int confirm)
{
  gpg_error_t err;
  pass_buf_t again = { NULL, 0, 0, 0 };
  int tty;

  tty = open ("/dev/tty", O_RDWR | O_NOCTTY);
  if (tty < 0)
    return fail (gpg_error_from_syserror (), WHAT,
                 "cannot ask for it: /dev/tty: %s (use --passphrase-fd,"
                 " --passphrase-file or --passphrase)", strerror (errno));
  err = prompt_tty (tty, "Enter passphrase: ", pb);
  for (; !err && confirm > 0; confirm--)
    {
      err = prompt_tty (tty, "Repeat passphrase: ", &again);
      if (!err && (again.len != pb->len
                   || memcmp (again.mem, pb->mem, pb->len)))
        err = fail (gpg_error (GPG_ERR_BAD_PASSPHRASE), WHAT,
                    "the two passphrases do not match");
      passphrase_release (again.mem);
      again = (pass_buf_t){ NULL, 0, 0, 0 };
    }
  close (tty);
  return err;
}


gpg_error_t
passphrase_read_line (int fd, const char *name, char **r_line, int *r_eof)
{
  gpg_error_t err;
  pass_buf_t pb = { NULL, 0, 0, 0 };

  *r_line = NULL;
  err = read_line_fd (fd, &pb, name);
  if (err)
    {
      passphrase_release (pb.mem);
      return err;
    }
  /* A line cut short by the end of FD is no answer: gpg cancels
   * rather than take a truncated passphrase.  */
  if (pb.at_eof)
    {
      passphrase_release (pb.mem);
      *r_eof = 1;
      return 0;
    }
  *r_eof = 0;
  *r_line = pb.mem;
  return 0;
}


/* Ask on the command descriptor, as gpg 2.2 asks there under
 * --pinentry-mode loopback: once, also when encrypting.  An empty
 * answer is no passphrase; an answer without its line end, or with
 * Control-D in it, cancels.  */
static gpg_error_t
ask_command_fd (pass_buf_t *pb, int encrypting)
{
  gpg_error_t err;

  status_inquire_maxlen (MAX_PASSPHRASE);
  err = command_get_hidden ("passphrase.enter", &pb->mem);
  if (gpg_err_code (err) == GPG_ERR_CANCELED)
    {
      status_canceled_by_user ();
      return fail (err, WHAT, "cancelled: the answer on --command-fd"
                   " had no line end, or held Control-D");
    }
  if (err)
    return err;
  pb->len = strlen (pb->mem);
  if (pb->len)
    return 0;
  status_missing_passphrase ();
  return fail (gpg_error (encrypting ? GPG_ERR_INV_PASSPHRASE
                          : GPG_ERR_NO_PASSPHRASE), WHAT,
               "the answer on --command-fd was empty");
}


int
passphrase_is_prompted (void)
{
  return !opt.passphrase && opt.passphrase_fd < 0 && !opt.passphrase_file
         && !opt.pinentry_no_ask && (command_fd_enabled () || !opt.batch);
}


/* Read the first line of the file NAME.  */
static gpg_error_t
read_passphrase_file (const char *name, pass_buf_t *pb)
{
  gpg_error_t err;
  int fd;

  fd = open (name, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return fail (gpg_error_from_syserror (), name, "%s", strerror (errno));
  err = read_line_fd (fd, pb, name);
  close (fd);
  return err;
}


/* The passphrase kept for the files of --decrypt-files, which gpg asks
 * for once (its agent caches it): whether to keep it, the copy, in
 * secure memory, and whether it was kept before the current file.  */
static int keeping;
static char *kept;
static int kept_before;


void
passphrase_keep (void)
{
  keeping = 1;
  kept_before = kept != NULL;
}


int
passphrase_was_kept (void)
{
  return kept_before;
}


void
passphrase_forget (void)
{
  passphrase_release (kept);
  kept = NULL;
  keeping = kept_before = 0;
}


/* A copy of the kept passphrase into *R_PASS.  */
static gpg_error_t
copy_kept (char **r_pass)
{
  *r_pass = gcry_malloc_secure (strlen (kept) + 1);
  if (!*r_pass)
    return fail (gpg_error_from_syserror (), WHAT, "out of secure memory");
  strcpy (*r_pass, kept);
  return 0;
}


/* Keep a copy of PASS, just obtained.  */
static gpg_error_t
keep_copy (const char *pass)
{
  kept = gcry_malloc_secure (strlen (pass) + 1);
  if (!kept)
    return fail (gpg_error_from_syserror (), WHAT, "out of secure memory");
  strcpy (kept, pass);
  return 0;
}


int
passphrase_is_given (void)
{
  return opt.passphrase || opt.passphrase_fd >= 0 || opt.passphrase_file;
}


gpg_error_t
passphrase_get (char **r_pass, int encrypting)
{
  gpg_error_t err = 0;
  pass_buf_t pb = { NULL, 0, 0, 0 };

  *r_pass = NULL;
  if (kept)
    return copy_kept (r_pass);
  if (opt.passphrase)
    {
      err = pass_buf_reserve (&pb, strlen (opt.passphrase), WHAT);
      if (!err)
        {
          pb.len = strlen (opt.passphrase);
          memcpy (pb.mem, opt.passphrase, pb.len + 1);
        }
    }
  else if (opt.passphrase_fd >= 0)
    err = read_line_fd (opt.passphrase_fd, &pb, "--passphrase-fd");
  else if (opt.passphrase_file)
    err = read_passphrase_file (opt.passphrase_file, &pb);
  else if (opt.pinentry_no_ask)
    err = fail (gpg_error (GPG_ERR_NO_PASSPHRASE), WHAT,
                "none given and --pinentry-mode forbids asking (use"
                " --passphrase, --passphrase-fd or --passphrase-file)");
  else if (command_fd_enabled ())
    err = ask_command_fd (&pb, encrypting);
  else if (opt.batch)
    err = fail (gpg_error (GPG_ERR_NO_PASSPHRASE), WHAT,
                "none given and --batch forbids asking (use --passphrase,"
                " --passphrase-fd or --passphrase-file)");
  else
    err = ask_terminal (&pb, encrypting ? opt.passphrase_repeat : 0);
  /* gpg -c refuses an empty passphrase: it would protect nothing.  */
  if (!err && encrypting && !pb.len)
    err = fail (gpg_error (GPG_ERR_NO_PASSPHRASE), WHAT,
                "an empty passphrase cannot protect a message");
  if (err)
    {
      passphrase_release (pb.mem);
      return err;
    }
  *r_pass = pb.mem;
  if (keeping)
    return keep_copy (pb.mem);
  return 0;
}
