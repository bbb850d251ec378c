/* outfile.c - output files that appear only when complete
 *
 * With -o FILE the output goes to a temporary file beside FILE (same
 * directory, hence same file system) that is renamed over FILE only
 * when the whole run succeeded, and removed otherwise: a failed
 * decryption never leaves unauthenticated plaintext under the name
 * the user asked for.  Without --yes an existing FILE is refused,
 * also if it appears while we run (link(2) does not replace).
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sfenc.h"

/* The temporary file to remove if a signal ends the program.  */
static volatile sig_atomic_t have_tmpname;
static char *signal_tmpname;


static void
remove_on_signal (int sig)
{
  if (have_tmpname)
    unlink (signal_tmpname);
  signal (sig, SIG_DFL);
  raise (sig);
}


gpg_error_t
outfile_check (const char *name)
{
  struct stat st;

  if (!name || !strcmp (name, "-") || opt.yes)
    return 0;
  if (!stat (name, &st) && S_ISREG (st.st_mode))
    return fail (gpg_error (GPG_ERR_EEXIST), name,
                 "file exists (use --yes to overwrite)");
  return 0;
}


gpg_error_t
outfile_open (outfile_t *of, const char *name)
{
  gpg_error_t err;
  struct stat st;
  mode_t mask;
  int fd;

  memset (of, 0, sizeof *of);
  if (!name || !strcmp (name, "-"))
    {
      of->stream.fd = 1;
      of->stream.name = "stdout";
      return 0;
    }
  err = outfile_check (name);
  if (err)
    return err;
  if (!stat (name, &st) && !S_ISREG (st.st_mode))
    {
      /* A device or a pipe (-o /dev/null): cannot be replaced, is
       * written in place.  */
      fd = open (name, O_WRONLY);
      if (fd < 0)
        return fail (gpg_error_from_syserror (), name, "%s", strerror (errno));
      of->stream.fd = fd;
      of->stream.name = name;
      of->is_device = 1;
      return 0;
    }
  of->name = strdup (name);
  of->tmpname = malloc (strlen (name) + 16);
  if (!of->name || !of->tmpname)
    {
      free (of->name);
      free (of->tmpname);
      return fail (gpg_error_from_syserror (), "out of core", NULL);
    }
  strcpy (of->tmpname, name);
  strcat (of->tmpname, ".tmp-XXXXXX");
  fd = mkstemp (of->tmpname);
  if (fd < 0)
    {
      err = fail (gpg_error_from_syserror (), name,
                  "cannot create a temporary file beside it: %s",
                  strerror (errno));
      free (of->name);
      free (of->tmpname);
      return err;
    }
  /* mkstemp makes the file private; give it the mode a plain creat
   * would have.  */
  mask = umask (0);
  umask (mask);
  fchmod (fd, 0666 & ~mask);
  signal_tmpname = of->tmpname;
  have_tmpname = 1;
  signal (SIGINT, remove_on_signal);
  signal (SIGTERM, remove_on_signal);
  signal (SIGHUP, remove_on_signal);
  signal (SIGPIPE, remove_on_signal);
  of->stream.fd = fd;
  of->stream.name = of->name;
  return 0;
}


/* link(2) failed with LINK_ERRNO: refuse an existing file, or, on a
 * file system without hard links, check and rename (not atomic, but
 * the best such a file system allows).  */
static gpg_error_t
place_without_link (outfile_t *of, int link_errno)
{
  struct stat st;
  int no_links = (link_errno == EPERM || link_errno == EOPNOTSUPP
                  || link_errno == ENOSYS || link_errno == EMLINK);

  if (link_errno == EEXIST || (no_links && !lstat (of->name, &st)))
    return fail (gpg_error (GPG_ERR_EEXIST), of->name,
                 "file exists (use --yes to overwrite)");
  if (!no_links)
    return fail (gpg_error_from_errno (link_errno), of->name, "%s",
                 strerror (link_errno));
  if (rename (of->tmpname, of->name))
    return fail (gpg_error_from_syserror (), of->name, "%s",
                 strerror (errno));
  return 0;
}


gpg_error_t
outfile_close (outfile_t *of, int ok)
{
  gpg_error_t err = 0;

  if (of->is_device)
    {
      if (close (of->stream.fd) && ok)
        err = fail (gpg_error_from_syserror (), of->stream.name,
                    "write error: %s", strerror (errno));
      return err;
    }
  if (!of->tmpname)
    return 0;
  if (close (of->stream.fd) && ok)
    err = fail (gpg_error_from_syserror (), of->name, "write error: %s",
                strerror (errno));
  if (ok && !err && opt.yes)
    {
      if (!rename (of->tmpname, of->name))
        goto done;
      err = fail (gpg_error_from_syserror (), of->name, "%s",
                  strerror (errno));
    }
  else if (ok && !err && link (of->tmpname, of->name))
    err = place_without_link (of, errno);
  /* After link(2) or on failure the temporary name goes away.  */
  unlink (of->tmpname);

 done:
  have_tmpname = 0;
  free (of->tmpname);
  free (of->name);
  of->tmpname = of->name = NULL;
  return err;
}
