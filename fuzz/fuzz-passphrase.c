/* fuzz-passphrase.c - the passphrase from a descriptor or a file
 *
 * The other harnesses give sfenc -d its passphrase with --passphrase;
 * here it comes as the first line of a descriptor or of a file
 * (g10/passphrase.c), read a byte at a time into a growing buffer in
 * secure memory, and the message follows, as with sfenc -d
 * --passphrase-fd 0 or --passphrase-file FILE.
 *
 * Input: one byte, the source (SOURCE_*), then the text read: its
 * first line is the passphrase (FUZZ_PASSPHRASE decrypts the seeds),
 * and what follows the message.  With --passphrase-file the file holds
 * the whole text and standard input what follows its first line.
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fuzz.h"

enum
  {
    SOURCE_FD,          /* --passphrase-fd 0: standard input.  */
    SOURCE_FILE,        /* --passphrase-file, a file holding the text.  */
    SOURCE_DIRECTORY,   /* --passphrase-file naming a directory.  */
    SOURCE_MISSING,     /* --passphrase-file naming no file.  */
    N_SOURCES
  };

#define DIRECTORY "/"
#define MISSING "/nonexistent/sfenc-fuzz-passphrase"

/* The file of SOURCE_FILE: a file in memory, by its name in /proc.  */
static int file_fd = -1;
static char file_name[64];


static void
start (void)
{
  fuzz_start ();
  if (file_fd >= 0)
    return;
  file_fd = memfd_create ("sfenc-fuzz-passphrase", 0);
  snprintf (file_name, sizeof file_name, "/proc/self/fd/%d", file_fd);
  if (file_fd < 0 || access (file_name, R_OK))
    {
      perror ("fuzz-passphrase: a file in memory");
      exit (2);
    }
}


int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  const uint8_t *text = data + !!size, *newline;
  size_t len = size - !!size, skip;
  const char *saved_passphrase = opt.passphrase;
  int source = size ? data[0] % N_SOURCES : SOURCE_FD;

  start ();
  opt.passphrase = NULL;
  if (source == SOURCE_FD)
    {
      opt.passphrase_fd = 0;
      fuzz_decrypt (text, len);
    }
  else
    {
      if (source == SOURCE_FILE
          && (ftruncate (file_fd, 0)
              || pwrite (file_fd, text, len, 0) != (ssize_t)len))
        {
          perror ("fuzz-passphrase: writing the file");
          exit (2);
        }
      opt.passphrase_file = (source == SOURCE_FILE ? file_name
                             : source == SOURCE_DIRECTORY ? DIRECTORY
                             : MISSING);
      newline = memchr (text, '\n', len);
      skip = newline ? (size_t)(newline - text) + 1 : len;
      fuzz_decrypt (text + skip, len - skip);
    }
  opt.passphrase = saved_passphrase;
  opt.passphrase_fd = -1;
  opt.passphrase_file = NULL;
  return 0;
}
