/* options-file.c - gpg's options file: --options FILE and gpg.conf
 */
#include <config.h>

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libsfcipher.h"
#include "error.h"
#include "options-file.h"
#include "version.h"

/* Room for a line of an options file and its terminating zero.  */
#define OPTIONS_LINE_MAX 4096

/* The arguments read from options files, kept to the end of the run
 * as those of the command line are: the options point into them.  */
struct kept_value
{
  struct kept_value *next;
  char value[];
};
static struct kept_value *kept_values;

/* The names gpg 2.2.40 looks for in its home directory, first
 * found first.  */
static const char *const default_names[] =
  {
    ("gpg.conf-" GPG_INTERFACE_VERSION), "gpg.conf-2.2", "gpg.conf-2",
    "gpg.conf"
  };


const char *
options_home_dir (const char *homedir)
{
  static char path[PATH_MAX];
  const char *env = getenv ("GNUPGHOME");
  const char *home = getenv ("HOME");

  if (homedir)
    return homedir;
  if (env && *env)
    return env;
  snprintf (path, sizeof path, "%s/.gnupg", home ? home : "");
  return path;
}


/* Open the first default options file of HOMEDIR into *R_FP and its
 * path into PATH (of PATHSIZE bytes); *R_FP is NULL when there is
 * none.  */
static gpg_error_t
open_default (const char *homedir, char *path, size_t pathsize, FILE **r_fp)
{
  size_t i;

  *r_fp = NULL;
  for (i = 0; i < sizeof default_names / sizeof *default_names; i++)
    {
      snprintf (path, pathsize, "%s/%s", options_home_dir (homedir),
                default_names[i]);
      *r_fp = fopen (path, "r");
      if (*r_fp)
        return 0;
      if (errno != ENOENT && errno != ENOTDIR)
        return fail (gpg_error_from_syserror (), path, "%s",
                     strerror (errno));
    }
  return 0;
}


/* A copy of VALUE that stays to the end of the run, or NULL when
 * out of core.  */
static const char *
keep_value (const char *value)
{
  size_t len = strlen (value) + 1;
  struct kept_value *kept = malloc (sizeof *kept + len);

  if (!kept)
    return NULL;
  memcpy (kept->value, value, len);
  kept->next = kept_values;
  kept_values = kept;
  return kept->value;
}


/* Cut the blanks at both ends of S off.  */
static char *
trim (char *s)
{
  char *end;

  s += strspn (s, " \t\r\n");
  end = s + strlen (s);
  while (end > s && strchr (" \t\r\n", end[-1]))
    *--end = 0;
  return s;
}


/* Apply LINE, line LINENO of the options file PATH, to CL.  */
static gpg_error_t
apply_line (struct command_line *cl, const char *path, unsigned lineno,
            char *line)
{
  char where[PATH_MAX + 64], *name, *arg = NULL;
  const char *kept = NULL;
  size_t len;
  int takes;

  name = trim (line);
  if (!*name || *name == '#')
    return 0;
  len = strcspn (name, " \t");
  if (name[len])
    {
      name[len] = 0;
      arg = trim (name + len + 1);
      len = strlen (arg);
      if (len >= 2 && arg[0] == '"' && arg[len - 1] == '"')
        {
          arg[len - 1] = 0;
          arg++;
        }
    }
  takes = option_takes_argument (name);
  if (takes < 0 || (takes && !arg) || (!takes && arg))
    {
      fprintf (stderr, "%s:%u: %s\n", path, lineno,
               takes < 0 ? "invalid option"
               : takes ? "missing argument" : "argument not expected");
      return 0;
    }
  snprintf (where, sizeof where, "%s:%u: %s", path, lineno, name);
  if (arg && !(kept = keep_value (arg)))
    return fail (gpg_error_from_syserror (), where, "out of core");
  return option_apply_named (cl, name, arg ? kept : NULL, where);
}


/* Read a line of FP into LINE, of SIZE bytes, without its line end:
 * 1 when one was read, 0 at the end of the file, -1 when it does not
 * fit.  */
static int
read_line (FILE *fp, char *line, size_t size)
{
  size_t len = 0;
  int c;

  while ((c = getc (fp)) != EOF && c != '\n')
    {
      if (len == size - 1)
        return -1;
      line[len++] = c;
    }
  line[len] = 0;
  return c != EOF || len;
}


/* Read the lines of FP, the options file PATH, into CL.  */
static gpg_error_t
read_lines (struct command_line *cl, const char *path, FILE *fp)
{
  char line[OPTIONS_LINE_MAX];
  unsigned lineno = 0;
  gpg_error_t err = 0;
  int got;

  while (!err && (got = read_line (fp, line, sizeof line)))
    {
      lineno++;
      /* A line that does not fit (a device without line ends, say)
       * ends the reading, and not the memory.  */
      if (got < 0)
        err = fail (gpg_error (GPG_ERR_TOO_LARGE), path,
                    "line %u is longer than %d bytes", lineno,
                    OPTIONS_LINE_MAX - 1);
      else
        err = apply_line (cl, path, lineno, line);
    }
  if (!err && ferror (fp))
    err = fail (gpg_error_from_syserror (), path, "%s", strerror (errno));
  /* The line may have held a passphrase.  */
  sf_wipememory (line, sizeof line);
  return err;
}


gpg_error_t
options_file_read (struct command_line *cl, const char *path,
                   const char *homedir)
{
  char found[PATH_MAX];
  gpg_error_t err = 0;
  FILE *fp;

  if (path)
    {
      fp = fopen (path, "r");
      if (!fp)
        return fail (gpg_error_from_syserror (), "--options",
                     "option file '%s': %s", path, strerror (errno));
    }
  else
    {
      err = open_default (homedir, found, sizeof found, &fp);
      path = found;
    }
  if (err || !fp)
    return err;
  err = read_lines (cl, path, fp);
  fclose (fp);
  return err;
}
