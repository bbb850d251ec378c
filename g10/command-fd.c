/* command-fd.c - questions answered on the command descriptor
 *
 * Each question is one status line, and its answer the next line read
 * from the command descriptor, one byte at a time so that nothing
 * after it is consumed: with --command-fd 0 the data may follow the
 * answers on stdin, as with gpg.  Without --status-fd the questions
 * are still asked, only not shown, as in gpg.
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <strings.h>

#include "command-fd.h"
#include "error.h"
#include "passphrase.h"
#include "status.h"

#define WHAT "--command-fd"

static int command_fd = -1;


gpg_error_t
command_fd_set (int fd)
{
  if (fcntl (fd, F_GETFD) == -1)
    return fail (gpg_error_from_syserror (), WHAT, "%d: %s", fd,
                 strerror (errno));
  command_fd = fd;
  return 0;
}


int
command_fd_enabled (void)
{
  return command_fd >= 0;
}


/* gpg's cancel character: typed at a prompt, or written by a client
 * on the command descriptor, anywhere in an answer.  */
#define CONTROL_D '\004'

/* Ask KEYWORD as a question of TYPE and read the answer into
 * *R_LINE.  An answer that the end of the descriptor cuts short, or
 * that holds Control-D, cancels, as in gpg.  */
static gpg_error_t
ask (const char *type, const char *keyword, char **r_line)
{
  gpg_error_t err;
  int eof;

  status_get (type, keyword);
  err = passphrase_read_line (command_fd, WHAT, r_line, &eof);
  if (err)
    return err;
  /* gpg says GOT_IT also when the descriptor has ended.  */
  status_got_it ();
  if (eof)
    return gpg_error (GPG_ERR_CANCELED);
  if (strchr (*r_line, CONTROL_D))
    {
      passphrase_release (*r_line);
      *r_line = NULL;
      return gpg_error (GPG_ERR_CANCELED);
    }
  return 0;
}


gpg_error_t
command_get_hidden (const char *keyword, char **r_line)
{
  return ask ("GET_HIDDEN", keyword, r_line);
}


gpg_error_t
command_get_bool (const char *keyword, int *r_yes)
{
  gpg_error_t err;
  char *line;

  *r_yes = 0;
  err = ask ("GET_BOOL", keyword, &line);
  if (gpg_err_code (err) == GPG_ERR_CANCELED)
    return 0;
  if (err)
    return err;
  *r_yes = !strcasecmp (line, "y") || !strcasecmp (line, "yes");
  passphrase_release (line);
  return 0;
}
