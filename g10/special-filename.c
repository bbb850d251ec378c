/* special-filename.c - "-&N" as a name for file descriptor N
 */
#include <config.h>

#include <limits.h>
#include <stdlib.h>
#include <string.h>

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
