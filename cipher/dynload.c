/* dynload.c - load cipher modules at run time
 *
 * A dynamic module is a shared object exporting one symbol, sf_module
 * (see SF_MODULE in sfcipher.h).  The loader binds it at once
 * (RTLD_NOW), so an unresolved symbol is a refusal here rather than a
 * crash later, checks its ABI version before reading anything else,
 * and hands it to the cipher table, which runs its self-tests and
 * refuses duplicates.  Each kind of failure has its own message, as
 * in GnuPG 1.x's dynload.c: the file does not load, it is not an
 * sfenc module, it is an sfenc module of another ABI, it fails.
 */
#include <config.h>

#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "libsfcipher.h"

const char *
sf_module_dir (void)
{
  const char *dir = getenv ("SFENC_MODULE_DIR");

  return dir && *dir ? dir : SF_MODULE_DIR;
}


/* Return the file name to open for FILE: FILE itself when it has a
 * slash, else DIR/FILE or DIR/FILE.so, whichever exists.  Malloced.  */
static char *
resolve (const char *file)
{
  const char *dir = sf_module_dir ();
  struct stat st;
  char *path;

  if (strchr (file, '/'))
    return strdup (file);
  path = malloc (strlen (dir) + strlen (file) + 5);
  if (!path)
    return NULL;
  sprintf (path, "%s/%s", dir, file);
  if (stat (path, &st))
    sprintf (path, "%s/%s.so", dir, file);
  return path;
}


gpg_error_t
sf_module_load (const char *file, char *why, size_t whylen)
{
  const sf_module_t *module;
  struct stat st;
  char *path;
  void *handle;
  gpg_error_t err;

  /* Loading code named by the environment or the command line into a
   * privileged process would hand its privileges away.  */
  if (getuid () != geteuid () || getgid () != getegid ())
    {
      snprintf (why, whylen, "loading modules is not allowed in a setuid"
                " or setgid process");
      return gpg_error (GPG_ERR_EPERM);
    }

  path = resolve (file);
  if (!path)
    return gpg_error_from_syserror ();
  if (stat (path, &st))
    {
      err = gpg_error_from_syserror ();
      if (strchr (file, '/'))
        snprintf (why, whylen, "%s", strerror (errno));
      else
        snprintf (why, whylen, "%s (looked for %s and %s.so in %s)",
                  strerror (errno), file, file, sf_module_dir ());
      free (path);
      return err;
    }
  if (!S_ISREG (st.st_mode))
    {
      snprintf (why, whylen, "not a regular file");
      free (path);
      return gpg_error (GPG_ERR_INV_OBJ);
    }

  dlerror ();
  handle = dlopen (path, RTLD_NOW | RTLD_LOCAL);
  if (!handle)
    {
      const char *msg = dlerror ();

      snprintf (why, whylen, "not a loadable shared object (%s)",
                msg ? msg : "unknown reason");
      free (path);
      return gpg_error (GPG_ERR_INV_OBJ);
    }

  module = dlsym (handle, SF_MODULE_SYMBOL);
  if (!module)
    {
      snprintf (why, whylen, "not an sfenc cipher module (no symbol %s)",
                SF_MODULE_SYMBOL);
      dlclose (handle);
      free (path);
      return gpg_error (GPG_ERR_NOT_FOUND);
    }

  /* The table keeps PATH as the origin of every spec it registers,
   * and the specs live in the loaded object: on success neither is
   * ever released.  */
  err = sf_table_register_module (module, path, why, whylen);
  if (err)
    {
      dlclose (handle);
      free (path);
    }
  return err;
}


/* True when the file at PATH is already the origin of a registered
 * implementation (it was named with --load-extension).  */
static int
already_loaded (const char *path)
{
  const sf_table_entry_t *e;
  char *real = realpath (path, NULL);
  int found = 0;
  size_t i;

  for (i = 0; real && !found && (e = sf_table_nth (i)); i++)
    if (e->origin)
      {
        char *other = realpath (e->origin, NULL);

        found = other && !strcmp (real, other);
        free (other);
      }
  free (real);
  return found;
}


static int
compare_names (const void *a, const void *b)
{
  return strcmp (*(char *const *) a, *(char *const *) b);
}


gpg_error_t
sf_module_load_dir (const char *dir)
{
  gpg_error_t first_err = 0;
  struct dirent *de;
  char **names = NULL;
  size_t n = 0, size = 0, i;
  DIR *d;

  d = opendir (dir);
  if (!d)
    return 0;
  while ((de = readdir (d)))
    {
      size_t len = strlen (de->d_name);

      if (len <= 3 || strcmp (de->d_name + len - 3, ".so"))
        continue;
      if (n == size)
        {
          char **grown;

          size = size ? 2 * size : 16;
          grown = realloc (names, size * sizeof *names);
          if (!grown)
            break;
          names = grown;
        }
      names[n] = malloc (strlen (dir) + len + 2);
      if (!names[n])
        break;
      sprintf (names[n], "%s/%s", dir, de->d_name);
      n++;
    }
  closedir (d);

  /* Name order, so that the table's order does not depend on the
   * file system.  */
  if (n)
    qsort (names, n, sizeof *names, compare_names);
  for (i = 0; i < n; i++)
    {
      char why[300];
      gpg_error_t err = 0;

      if (!already_loaded (names[i]))
        err = sf_module_load (names[i], why, sizeof why);
      if (err)
        {
          fprintf (stderr, "sfenc: %s: %s\n", names[i], why);
          if (!first_err)
            first_err = err;
        }
      free (names[i]);
    }
  free (names);
  return first_err;
}
