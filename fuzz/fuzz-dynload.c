/* fuzz-dynload.c - the checks before a module is loaded (cipher/dynload.c)
 *
 * sf_module_load checks a file's type, owner and mode, those of its
 * directory (where it is named and where it really is) and its ELF
 * header before it dlopens it, and sf_module_load_dir does so for
 * each *.so of a directory.  Here the input makes, in a private
 * scratch directory, the thing to be loaded: a file, a directory, a
 * symbolic link, a FIFO, a hard link, or nothing, with its mode, its
 * owner, its directories' modes and owners and its contents, and then
 * names it to the loader one of several ways.
 *
 * Loading runs the module's code, so nothing written here may ever
 * pass: a file that the checks would let through (an ELF shared object
 * of this machine) is written with another ELF type, so that its
 * header is refused instead.  The harness is linked with
 * -Wl,--wrap=dlopen, and __wrap_dlopen aborts: reaching dlopen with
 * what was written here means the checks let through a file they
 * must refuse, a finding.  The scratch files are removed after each
 * input.  Owners other than the user's are set only when the harness
 * runs as root; otherwise that choice leaves the user's.
 *
 * Input, zeros past the end:
 *   byte 0    what SCRATCH/a/m.so is (KIND_*);
 *   byte 1-2  its mode, big-endian, mod 010000 (for a symbolic link,
 *             that of the file it leads to);
 *   byte 3    its owner: 0 the user, else the uid OTHER_UID + byte;
 *   byte 4    the directory a/: bits 0-5 the group's and others'
 *             permissions (the owner's are rwx), bit 6 owned by
 *             OTHER_UID;
 *   byte 5    the same for b/, where links lead;
 *   byte 6    how it is named (NAME_*);
 *   the rest  the contents of the file.
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz.h"

#define FIELDS 7

/* A uid that is neither root nor the user's, for the owner checks.  */
#define OTHER_UID 1000

/* A regular file of root's, in a directory of root's, outside the
 * scratch directory.  */
#define SYSTEM_FILE "/etc/passwd"

enum
  {
    KIND_FILE,
    KIND_DIRECTORY,
    KIND_LINK_TO_FILE,          /* Symbolic link to b/t, a file.  */
    KIND_LINK_TO_DIRECTORY,     /* Symbolic link to b.  */
    KIND_DANGLING_LINK,         /* Symbolic link to b/none.  */
    KIND_LINK_LOOP,             /* Symbolic link to itself.  */
    KIND_FIFO,
    KIND_LINK_OUTSIDE,          /* Symbolic link to SYSTEM_FILE.  */
    KIND_HARD_LINK,             /* Hard link to b/t.  */
    KIND_NOTHING,
    N_KINDS
  };

enum
  {
    NAME_PATH,                  /* SCRATCH/a/m.so.  */
    NAME_BARE,                  /* m.so, in SFENC_MODULE_DIR, a.  */
    NAME_BARE_NO_SO,            /* m, which the loader finds as m.so.  */
    NAME_DIRECTORY,             /* sf_module_load_dir of a.  */
    NAME_DOTDOT,                /* SCRATCH/a/../a/m.so.  */
    N_NAMES
  };

/* The scratch directory, mode 0700, made once, and the names in it.  */
static char scratch[64];
static char dir_a[80], dir_b[80], object[96], target[96], missing[96];
static char dotdot[112];


void *__wrap_dlopen (const char *file, int mode);

void *
__wrap_dlopen (const char *file, int mode)
{
  (void)mode;
  fprintf (stderr, "fuzz-dynload: the checks let %s through to dlopen\n",
           file);
  abort ();
}


/* Remove what the last input made.  */
static void
clean (void)
{
  if (rmdir (object))
    unlink (object);
  unlink (target);
  rmdir (dir_a);
  rmdir (dir_b);
}


/* At exit, the scratch directory too.  */
static void
remove_scratch (void)
{
  clean ();
  rmdir (scratch);
}


static void
start (void)
{
  /* A file system in memory where there is one: on ext4, making and
   * removing the directories took most of the time of an input.  */
  static const char *const roots[] = { "/dev/shm", "/tmp" };
  size_t i;

  fuzz_start ();
  if (*scratch)
    return;
  for (i = 0; i < sizeof roots / sizeof *roots; i++)
    {
      snprintf (scratch, sizeof scratch, "%s/sfenc-fuzz-dynload.XXXXXX",
                roots[i]);
      if (mkdtemp (scratch))
        break;
    }
  if (i == sizeof roots / sizeof *roots || atexit (remove_scratch))
    {
      perror ("fuzz-dynload: mkdtemp");
      exit (2);
    }
  snprintf (dir_a, sizeof dir_a, "%s/a", scratch);
  snprintf (dir_b, sizeof dir_b, "%s/b", scratch);
  snprintf (object, sizeof object, "%s/m.so", dir_a);
  snprintf (target, sizeof target, "%s/t", dir_b);
  snprintf (missing, sizeof missing, "%s/none", dir_b);
  snprintf (dotdot, sizeof dotdot, "%s/../a/m.so", dir_a);
  if (setenv ("SFENC_MODULE_DIR", dir_a, 1))
    {
      perror ("fuzz-dynload: setenv");
      exit (2);
    }
}


/* Stop if the harness cannot make what it tests: that is no finding,
 * but the input would not test what it says.  */
static void
must (int ok, const char *what)
{
  if (!ok)
    {
      fprintf (stderr, "fuzz-dynload: %s: %s\n", what, strerror (errno));
      exit (2);
    }
}


/* Give PATH (not followed if a link) to UID, when the harness may.  */
static void
set_owner (const char *path, uid_t uid)
{
  if (uid != getuid () && !getuid ())
    must (!lchown (path, uid, (gid_t)-1), "lchown");
}


/* Write the file PATH with the mode MODE and CONTENTS (LEN bytes), of
 * any ELF type but a shared object's.  */
static void
write_file (const char *path, mode_t mode, const uint8_t *contents,
            size_t len)
{
  const size_t type_at = offsetof (ElfW(Ehdr), e_type);
  ElfW(Half) type;
  int fd;

  fd = open (path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  must (fd >= 0, "open");
  must (write (fd, contents, len) == (ssize_t)len, "write");
  if (len >= type_at + sizeof type)
    {
      memcpy (&type, contents + type_at, sizeof type);
      if (type == ET_DYN)
        {
          type = ET_EXEC;
          must (pwrite (fd, &type, sizeof type, type_at) == sizeof type,
                "pwrite");
        }
    }
  must (!fchmod (fd, mode), "fchmod");
  must (!close (fd), "close");
}


/* Make the directory PATH as the byte SPEC says.  */
static void
make_directory (const char *path, uint8_t spec)
{
  must (!mkdir (path, 0700), "mkdir");
  must (!chmod (path, 0700 | (spec & 077)), "chmod");
  set_owner (path, spec & 0x40 ? OTHER_UID : getuid ());
}


int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  uint8_t f[FIELDS];
  const uint8_t *contents = data + (size < FIELDS ? size : FIELDS);
  size_t len = size < FIELDS ? 0 : size - FIELDS;
  uid_t owner;
  mode_t mode;
  char why[300];

  start ();
  memset (f, 0, sizeof f);
  memcpy (f, data, size < FIELDS ? size : FIELDS);
  mode = (f[1] << 8 | f[2]) & 07777;
  owner = f[3] ? (uid_t)OTHER_UID + f[3] : getuid ();
  make_directory (dir_a, f[4]);
  make_directory (dir_b, f[5]);
  switch (f[0] % N_KINDS)
    {
    case KIND_FILE:
      write_file (object, mode, contents, len);
      set_owner (object, owner);
      break;
    case KIND_DIRECTORY:
      must (!mkdir (object, mode), "mkdir");
      must (!chmod (object, mode), "chmod");
      set_owner (object, owner);
      break;
    case KIND_LINK_TO_FILE:
    case KIND_HARD_LINK:
      write_file (target, mode, contents, len);
      set_owner (target, owner);
      if (f[0] % N_KINDS == KIND_HARD_LINK)
        must (!link (target, object), "link");
      else
        must (!symlink (target, object), "symlink");
      break;
    case KIND_LINK_TO_DIRECTORY:
      must (!symlink (dir_b, object), "symlink");
      break;
    case KIND_DANGLING_LINK:
      must (!symlink (missing, object), "symlink");
      break;
    case KIND_LINK_LOOP:
      must (!symlink (object, object), "symlink");
      break;
    case KIND_FIFO:
      must (!mkfifo (object, mode), "mkfifo");
      must (!chmod (object, mode), "chmod");
      set_owner (object, owner);
      break;
    case KIND_LINK_OUTSIDE:
      must (!symlink (SYSTEM_FILE, object), "symlink");
      break;
    }

  /* Every one of these is refused, or __wrap_dlopen aborts.  */
  switch (f[6] % N_NAMES)
    {
    case NAME_PATH:
      sf_module_load (object, why, sizeof why);
      break;
    case NAME_BARE:
      sf_module_load ("m.so", why, sizeof why);
      break;
    case NAME_BARE_NO_SO:
      sf_module_load ("m", why, sizeof why);
      break;
    case NAME_DIRECTORY:
      sf_module_load_dir (dir_a);
      break;
    case NAME_DOTDOT:
      sf_module_load (dotdot, why, sizeof why);
      break;
    }
  clean ();
  return 0;
}
