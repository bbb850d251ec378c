/* dynload.c - load cipher modules at run time
 *
 * A dynamic module is a shared object exporting one symbol, sf_module
 * (see SF_MODULE in sfcipher.h).  Loading it runs its constructors,
 * that is, any code it likes, before a single field of it can be
 * read.  So what can be checked without loading is checked first, as
 * GnuPG 1.x checked its extensions: the file and its directory belong
 * to root or to the user and nobody else may write to them, and the
 * file is an ELF shared object.  The loader then binds it at once
 * (RTLD_NOW), so an unresolved symbol is a refusal here rather than a
 * crash later, checks its ABI version before reading anything else,
 * and hands it to the cipher table, which runs its self-tests and
 * refuses duplicates.  Each kind of failure has its own message, as
 * in GnuPG 1.x's dynload.c: the file is unsafe, it does not load, it
 * is not an sfenc module, it is an sfenc module of another ABI, it
 * fails.
 */
#include <config.h>

#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/stat.h>
#include <unistd.h>

#include "libsfcipher.h"

/* True in a process that has more rights than whoever started it, so
 * that loading code named by its environment or command line would
 * hand those rights away.  AT_SECURE is the kernel's verdict and also
 * covers file capabilities, which leave the ids alone; comparing the
 * ids covers a process that changed them after it started.  */
static int
privileged (void)
{
  return (getauxval (AT_SECURE) || getuid () != geteuid ()
          || getgid () != getegid ());
}


const char *
sf_module_dir (void)
{
  /* secure_getenv: a privileged process does not take the directory
   * from its environment, whatever a caller does with it.  */
  const char *dir = secure_getenv ("SFENC_MODULE_DIR");

  return dir && *dir ? dir : SF_MODULE_DIR;
}


/* Check the owner and mode in ST of a module or of the directory
 * holding one: owned by root or by the real user, and writable by
 * nobody else.  A sticky directory writable by all does not qualify:
 * anyone may still add a file to it.  */
static gpg_error_t
check_owner_and_mode (const struct stat *st, char *why, size_t whylen)
{
  if (st->st_uid != 0 && st->st_uid != getuid ())
    {
      snprintf (why, whylen, "unsafe ownership (owned by uid %lu,"
                " neither root nor uid %lu)", (unsigned long) st->st_uid,
                (unsigned long) getuid ());
      return gpg_error (GPG_ERR_EPERM);
    }
  if (st->st_mode & (S_IWGRP | S_IWOTH))
    {
      snprintf (why, whylen, "unsafe permissions (mode %04lo: writable"
                " by group or others)", (unsigned long) (st->st_mode & 07777));
      return gpg_error (GPG_ERR_EPERM);
    }
  return 0;
}


/* Check the directory that holds PATH, which contains a slash.  */
static gpg_error_t
check_parent (const char *path, char *why, size_t whylen)
{
  const char *slash = strrchr (path, '/');
  char reason[200];
  struct stat st;
  gpg_error_t err;
  char *dir;

  dir = strndup (path, slash == path ? 1 : (size_t) (slash - path));
  if (!dir)
    return gpg_error_from_syserror ();
  if (stat (dir, &st))
    {
      err = gpg_error_from_syserror ();
      snprintf (reason, sizeof reason, "%s", strerror (errno));
    }
  else
    err = check_owner_and_mode (&st, reason, sizeof reason);
  if (err)
    snprintf (why, whylen, "directory %s: %s", dir, reason);
  free (dir);
  return err;
}


/* Check, without loading it, that the regular file PATH may be
 * loaded: a safe owner and mode, and the ELF header of a shared object
 * of this machine's word size and byte order.  */
static gpg_error_t
check_file (const char *path, char *why, size_t whylen)
{
  ElfW(Ehdr) ehdr;
  struct stat st;
  gpg_error_t err;
  ssize_t n;
  int fd;

  fd = open (path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    {
      err = gpg_error_from_syserror ();
      snprintf (why, whylen, "%s", strerror (errno));
      return err;
    }
  if (fstat (fd, &st))
    {
      err = gpg_error_from_syserror ();
      snprintf (why, whylen, "%s", strerror (errno));
      close (fd);
      return err;
    }
  err = check_owner_and_mode (&st, why, whylen);
  if (err)
    {
      close (fd);
      return err;
    }
  n = read (fd, &ehdr, sizeof ehdr);
  close (fd);
  if (n != (ssize_t) sizeof ehdr
      || memcmp (ehdr.e_ident, ELFMAG, SELFMAG))
    {
      snprintf (why, whylen, "not a loadable shared object (no ELF header)");
      return gpg_error (GPG_ERR_INV_OBJ);
    }
  if (ehdr.e_ident[EI_CLASS] != (sizeof (void *) == 8 ? ELFCLASS64
                                                       : ELFCLASS32)
      || ehdr.e_ident[EI_DATA] != (__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
                                   ? ELFDATA2LSB : ELFDATA2MSB)
      || ehdr.e_type != ET_DYN)
    {
      snprintf (why, whylen, "not a loadable shared object (ELF, but not"
                " a shared object for this machine)");
      return gpg_error (GPG_ERR_INV_OBJ);
    }
  return 0;
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


/* True when the file REAL (a path without symbolic links) is already
 * the origin of a registered implementation.  */
static int
already_loaded (const char *real)
{
  const sf_table_entry_t *e;
  int found = 0;
  size_t i;

  for (i = 0; !found && (e = sf_table_nth (i)); i++)
    if (e->origin)
      {
        char *other = realpath (e->origin, NULL);

        found = other && !strcmp (real, other);
        free (other);
      }
  return found;
}


gpg_error_t
sf_module_load (const char *file, char *why, size_t whylen)
{
  const sf_module_t *module;
  struct stat st;
  char *path, *real;
  void *handle;
  gpg_error_t err;

  if (privileged ())
    {
      snprintf (why, whylen, "loading modules is not allowed in a"
                " privileged process (setuid, setgid or file capabilities)");
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

  /* Check the directory the file is named in, and, when symbolic links
   * lead elsewhere, the one it really is in; then load what was
   * checked.  */
  real = realpath (path, NULL);
  if (!real)
    {
      err = gpg_error_from_syserror ();
      snprintf (why, whylen, "%s", strerror (errno));
      free (path);
      return err;
    }
  /* A file named twice (on the command line, or there and in the
   * module directory) is loaded once.  */
  if (already_loaded (real))
    {
      free (real);
      free (path);
      return 0;
    }
  err = check_parent (path, why, whylen);
  if (!err)
    err = check_parent (real, why, whylen);
  if (!err)
    err = check_file (real, why, whylen);
  if (err)
    {
      free (real);
      free (path);
      return err;
    }

  dlerror ();
  handle = dlopen (real, RTLD_NOW | RTLD_LOCAL);
  free (real);
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


static int
compare_names (const void *a, const void *b)
{
  return strcmp (*(char *const *) a, *(char *const *) b);
}


gpg_error_t
sf_module_load_dir (const char *dir)
{
  gpg_error_t first_err = 0;
  char reason[200];
  struct dirent *de;
  struct stat st;
  char **names = NULL;
  size_t n = 0, size = 0, i;
  DIR *d;

  d = opendir (dir);
  if (!d)
    return 0;
  /* sf_module_load checks each file's directory again; refusing it
   * here says so once rather than once per file.  */
  if (!fstat (dirfd (d), &st)
      && (first_err = check_owner_and_mode (&st, reason, sizeof reason)))
    {
      fprintf (stderr, "sfenc: %s: %s; no module loaded from it\n",
               dir, reason);
      closedir (d);
      return first_err;
    }
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
      gpg_error_t err;

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
