/* outfile.c - output files that appear only when complete
 *
 * With -o FILE the output is written to a file that has no name yet
 * (O_TMPFILE, in FILE's directory, mode 0600) and is linked in as
 * FILE only when the whole run succeeded: a failed decryption, a
 * signal, even SIGKILL, never leaves unauthenticated plaintext
 * anywhere.  Where the file system has no O_TMPFILE, a private (0600)
 * temporary file beside FILE takes its place, removed on failure and
 * on every catchable fatal signal.
 *
 * On success a new FILE gets the mode a plain creat(2) would give it;
 * a file replaced with --yes keeps its mode and, where permitted, its
 * owner and group.  It is replaced, not rewritten: other hard links
 * to it keep the old contents, and its ACLs are not copied.
 *
 * Without --yes an existing FILE is refused, also if it appears while
 * we run (link(2) does not replace); with --command-fd, and without
 * --batch, gpg's question is asked there first.  A FILE that is not a
 * regular file (a device, a pipe) is written in place, but only after
 * the opened descriptor itself was found not to be a regular file, so
 * a path swapped in meanwhile cannot make sfenc write into a file.
 * FILE "-&N" with --enable-special-filenames is descriptor N, written
 * in place too.
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
#include <gcrypt.h>

#include "command-fd.h"
#include "error.h"
#include "options.h"
#include "outfile.h"
#include "special-filename.h"

#define FILE_EXISTS_MSG "file exists (use --yes to overwrite)"

/* The temporary file to remove if a signal ends the program.  */
static volatile sig_atomic_t have_tmpname;
static char *signal_tmpname;

/* The signals whose default action ends the process and that can be
 * caught.  SIGPIPE and SIGXFSZ are ignored by main, so that a write
 * fails with an error instead.  */
static const int fatal_signals[] =
  {
    SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGUSR1, SIGUSR2, SIGALRM,
    SIGVTALRM, SIGPROF, SIGXCPU
  };


void
outfile_abandon (void)
{
  if (have_tmpname)
    unlink (signal_tmpname);
}


static void
remove_on_signal (int sig)
{
  outfile_abandon ();
  signal (sig, SIG_DFL);
  raise (sig);
}


static void
catch_fatal_signals (void)
{
  struct sigaction sa;
  size_t i;

  memset (&sa, 0, sizeof sa);
  sa.sa_handler = remove_on_signal;
  sigfillset (&sa.sa_mask);
  for (i = 0; i < sizeof fatal_signals / sizeof *fatal_signals; i++)
    sigaction (fatal_signals[i], &sa, NULL);
}


/* True when the question whether to overwrite an existing file is
 * asked, as gpg asks it: on the command descriptor, unless --batch or
 * --no answer it.  */
static int
overwrite_is_asked (void)
{
  return command_fd_enabled () && !opt.batch && !opt.answer_no;
}


/* Refuse an existing regular file NAME without --yes, unless the
 * answer to gpg's question allows it; ask only when MAY_ASK.  */
static gpg_error_t
check_existing (const char *name, int may_ask)
{
  gpg_error_t err;
  struct stat st;
  int yes;

  if (is_stream_name (name) || opt.yes)
    return 0;
  if (stat (name, &st) || !S_ISREG (st.st_mode))
    return 0;
  if (!overwrite_is_asked ())
    return fail (gpg_error (GPG_ERR_EEXIST), name, FILE_EXISTS_MSG);
  if (!may_ask)
    return 0;
  err = command_get_bool ("openfile.overwrite.okay", &yes);
  if (!err && !yes)
    err = fail (gpg_error (GPG_ERR_EEXIST), name,
                "file exists (not overwritten: the answer was no)");
  /* A run has one output, and the answer yes is --yes for it: the
   * file is then replaced, not refused when it is put in place.  */
  if (!err)
    opt.yes = 1;
  return err;
}


/* The early check asks nothing: gpg asks for the passphrase first,
 * and a client that answers in order expects that.  */
gpg_error_t
outfile_name (const char *infile, const char *suffix, char **r_name)
{
  *r_name = NULL;
  if (opt.output)
    *r_name = strdup (opt.output);
  else if (!is_stream_name (infile))
    {
      *r_name = malloc (strlen (infile) + strlen (suffix) + 1);
      if (*r_name)
        {
          strcpy (*r_name, infile);
          strcat (*r_name, suffix);
        }
    }
  if ((opt.output || !is_stream_name (infile)) && !*r_name)
    return fail (gpg_error_from_syserror (), "out of core", NULL);
  /* gpg --dry-run writes to /dev/null every output but the standard
   * output of a command that reads its standard input (-o - too).  */
  if (opt.dry_run && *r_name)
    {
      free (*r_name);
      *r_name = strdup ("/dev/null");
      if (!*r_name)
        return fail (gpg_error_from_syserror (), "out of core", NULL);
    }
  return 0;
}


gpg_error_t
outfile_check (const char *name)
{
  return check_existing (name, 0);
}


int
outfile_is_in_place (const outfile_t *of)
{
  return !of->name;
}


/* Open NAME for writing in place if it is something other than a
 * regular file.  Returns 1 with OF set up when it is, 0 when NAME is
 * (or will be) a regular file, -1 with the error recorded.  */
static int
open_in_place (outfile_t *of, const char *name)
{
  struct stat st;
  int fd, open_errno;

  /* No O_CREAT and no O_TRUNC: opening a regular file here changes
   * nothing, and fstat decides on what was really opened.  */
  fd = open (name, O_WRONLY | O_NOCTTY | O_CLOEXEC);
  if (fd >= 0)
    {
      if (!fstat (fd, &st) && !S_ISREG (st.st_mode))
        {
          of->stream.fd = fd;
          of->stream.name = name;
          of->is_device = 1;
          return 1;
        }
      close (fd);
      return 0;
    }
  open_errno = errno;
  /* A missing file, or one we may not write but may replace.  */
  if (open_errno == ENOENT || (!stat (name, &st) && S_ISREG (st.st_mode)))
    return 0;
  fail (gpg_error_from_errno (open_errno), name, "%s", strerror (open_errno));
  return -1;
}


/* The directory part of NAME, for O_TMPFILE.  Malloced.  */
static char *
directory_of (const char *name)
{
  const char *slash = strrchr (name, '/');

  if (!slash)
    return strdup (".");
  if (slash == name)
    return strdup ("/");
  return strndup (name, slash - name);
}


/* Create the file without a name in NAME's directory.  Returns the
 * descriptor, or -1 when the file system (or the absence of /proc,
 * which linking it needs) calls for a named temporary file.  */
static int
create_anonymous (const char *name)
{
#ifdef O_TMPFILE
  char *dir;
  int fd;

  if (access ("/proc/self/fd", X_OK))
    return -1;
  dir = directory_of (name);
  if (!dir)
    return -1;
  fd = open (dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, 0600);
  free (dir);
  return fd;
#else
  (void)name;
  return -1;
#endif
}


/* Create the private temporary file beside NAME.  */
static gpg_error_t
create_named (outfile_t *of, const char *name)
{
  int fd;

  of->tmpname = malloc (strlen (name) + 16);
  if (!of->tmpname)
    return fail (gpg_error_from_syserror (), "out of core", NULL);
  strcpy (of->tmpname, name);
  strcat (of->tmpname, ".tmp-XXXXXX");
  /* mkstemp creates the file with mode 0600.  */
  fd = mkstemp (of->tmpname);
  if (fd < 0)
    return fail (gpg_error_from_syserror (), name,
                 "cannot create a temporary file beside it: %s",
                 strerror (errno));
  signal_tmpname = of->tmpname;
  have_tmpname = 1;
  catch_fatal_signals ();
  of->stream.fd = fd;
  return 0;
}


gpg_error_t
outfile_open (outfile_t *of, const char *name)
{
  gpg_error_t err;
  int in_place;

  memset (of, 0, sizeof *of);
  of->stream.fd = -1;
  if (!name || !strcmp (name, "-"))
    {
      of->stream.fd = 1;
      of->stream.name = "stdout";
      return 0;
    }
  if (special_filename_fd (name) >= 0)
    {
      of->stream.fd = special_filename_fd (name);
      of->stream.name = name;
      of->is_device = 1;
      return 0;
    }
  err = check_existing (name, 1);
  if (err)
    return err;
  in_place = open_in_place (of, name);
  if (in_place)
    return in_place > 0 ? 0 : gpg_error (GPG_ERR_GENERAL);

  of->name = strdup (name);
  if (!of->name)
    return fail (gpg_error_from_syserror (), "out of core", NULL);
  of->stream.name = of->name;
  of->replaces = !stat (name, &of->replaced) && S_ISREG (of->replaced.st_mode);
  of->stream.fd = create_anonymous (name);
  if (of->stream.fd >= 0)
    {
      of->is_anonymous = 1;
      return 0;
    }
  err = create_named (of, name);
  if (err)
    {
      free (of->tmpname);
      free (of->name);
      memset (of, 0, sizeof *of);
    }
  return err;
}


/* Give the finished file FD the mode a plain creat would, or the
 * mode, owner and group of the file it replaces.  */
static void
set_final_mode (outfile_t *of)
{
  int fd = of->stream.fd;
  mode_t mask;
  int ignored;

  if (!of->replaces)
    {
      mask = umask (0);
      umask (mask);
      fchmod (fd, 0666 & ~mask);
      return;
    }
  /* Owner first: fchown may clear the set-id bits that fchmod sets.
   * Not permitted to give the file away, we keep at least the group
   * when we are a member of it.  */
  if (fchown (fd, of->replaced.st_uid, of->replaced.st_gid))
    ignored = fchown (fd, -1, of->replaced.st_gid);
  (void)ignored;
  fchmod (fd, of->replaced.st_mode & 07777);
}


/* Link the anonymous file FD to NEWNAME; fails with EEXIST when
 * NEWNAME exists.  */
static int
link_anonymous (int fd, const char *newname)
{
  char path[64];

  snprintf (path, sizeof path, "/proc/self/fd/%d", fd);
  return linkat (AT_FDCWD, path, AT_FDCWD, newname, AT_SYMLINK_FOLLOW);
}


/* Replace NAME by the anonymous file: link it under a fresh temporary
 * name, which then is renamed over NAME.  The temporary name exists
 * only for that instant, holding the complete output.  */
static int
replace_with_anonymous (outfile_t *of)
{
  size_t len = strlen (of->name);
  unsigned char nonce[6];
  char *tmp;
  int rc, tries;

  tmp = malloc (len + 16);
  if (!tmp)
    return -1;
  for (tries = 0; tries < 100; tries++)
    {
      gcry_create_nonce (nonce, sizeof nonce);
      snprintf (tmp, len + 16, "%s.tmp-%02x%02x%02x%02x%02x%02x", of->name,
                nonce[0], nonce[1], nonce[2], nonce[3], nonce[4], nonce[5]);
      rc = link_anonymous (of->stream.fd, tmp);
      if (!rc || errno != EEXIST)
        break;
    }
  if (!rc && rename (tmp, of->name))
    {
      int saved = errno;

      unlink (tmp);
      errno = saved;
      rc = -1;
    }
  free (tmp);
  return rc;
}


/* link(2) of the named temporary failed with LINK_ERRNO: refuse an
 * existing file, or, on a file system without hard links, check and
 * rename (not atomic, but the best such a file system allows).  */
static gpg_error_t
place_without_link (outfile_t *of, int link_errno)
{
  struct stat st;
  int no_links = (link_errno == EPERM || link_errno == EOPNOTSUPP
                  || link_errno == ENOSYS || link_errno == EMLINK);

  if (link_errno == EEXIST || (no_links && !lstat (of->name, &st)))
    return fail (gpg_error (GPG_ERR_EEXIST), of->name, FILE_EXISTS_MSG);
  if (!no_links)
    return fail (gpg_error_from_errno (link_errno), of->name, "%s",
                 strerror (link_errno));
  if (rename (of->tmpname, of->name))
    return fail (gpg_error_from_syserror (), of->name, "%s",
                 strerror (errno));
  return 0;
}


/* Put the finished regular file in place under its final name.  */
static gpg_error_t
place_file (outfile_t *of)
{
  if (of->is_anonymous)
    {
      if (!(opt.yes ? replace_with_anonymous (of)
                    : link_anonymous (of->stream.fd, of->name)))
        return 0;
      if (errno == EEXIST)
        return fail (gpg_error (GPG_ERR_EEXIST), of->name, FILE_EXISTS_MSG);
      return fail (gpg_error_from_syserror (), of->name, "%s",
                   strerror (errno));
    }
  if (opt.yes)
    {
      if (!rename (of->tmpname, of->name))
        return 0;
      return fail (gpg_error_from_syserror (), of->name, "%s",
                   strerror (errno));
    }
  if (link (of->tmpname, of->name))
    return place_without_link (of, errno);
  return 0;
}


gpg_error_t
outfile_close (outfile_t *of, int ok)
{
  gpg_error_t err = 0;
  int fd = of->stream.fd;

  if (of->is_device)
    {
      if (close (fd) && ok)
        err = fail (gpg_error_from_syserror (), of->stream.name,
                    "write error: %s", strerror (errno));
      return err;
    }
  if (!of->name)
    return 0;
  if (ok)
    set_final_mode (of);
  /* A named file is complete once closed; an anonymous one must stay
   * open until linked, and is taken away again should its close
   * report a late write error (NFS).  */
  if (!of->is_anonymous && close (fd) && ok)
    err = fail (gpg_error_from_syserror (), of->name, "write error: %s",
                strerror (errno));
  if (ok && !err)
    err = place_file (of);
  if (of->is_anonymous && close (fd) && ok && !err)
    {
      err = fail (gpg_error_from_syserror (), of->name, "write error: %s",
                  strerror (errno));
      unlink (of->name);
    }
  /* After link(2), or on failure, the temporary name goes away.  */
  if (of->tmpname && (err || !ok || !opt.yes))
    unlink (of->tmpname);
  have_tmpname = 0;
  free (of->tmpname);
  free (of->name);
  memset (of, 0, sizeof *of);
  return err;
}
