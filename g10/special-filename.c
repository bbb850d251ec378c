/* special-filename.c - "-&N" as a name for file descriptor N
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "special-filename.h"

static int enabled;


void
special_filenames_enable (void)
{
  enabled = 1;
}


int
special_filename_fd (const char *name)
{
  char *end;
  long fd;

  if (!enabled || !name || name[0] != '-' || name[1] != '&'
      || name[2] < '0' || name[2] > '9')
    return -1;
  fd = strtol (name + 2, &end, 10);
  if (*end || fd > INT_MAX)
    return -1;
  return fd;
}


int
is_stream_name (const char *name)
{
  return !name || !strcmp (name, "-") || special_filename_fd (name) >= 0;
}


gpg_error_t
open_input (const char *infile, fd_stream_t *in)
{
  in->fd = 0;
  in->name = "stdin";
  if (special_filename_fd (infile) >= 0)
    {
      in->fd = special_filename_fd (infile);
      in->name = infile;
    }
  else if (!is_stream_name (infile))
    {
      in->name = infile;
      in->fd = open (infile, O_RDONLY);
      if (in->fd < 0)
        return fail (gpg_error_from_syserror (), infile, "%s",
                     strerror (errno));
    }
  return 0;
}
