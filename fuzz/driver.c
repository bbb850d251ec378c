/* driver.c - run a harness without libFuzzer
 *
 * Usage: HARNESS FILE...
 *
 * Runs LLVMFuzzerTestOneInput once on the contents of each FILE, as
 * a libFuzzer binary does when given files, so that plain builds
 * (any compiler, no sanitizer runtime needed) replay the seed corpora
 * and the inputs of past findings in "make check".  A crash fails the
 * run; so does a harness's own check (they abort).
 */
#include <config.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"


/* Read FILE into *R_DATA (malloced, exactly *R_SIZE bytes, so that a
 * sanitizer sees a read beyond it).  */
static int
read_file (const char *file, uint8_t **r_data, size_t *r_size)
{
  FILE *fp = fopen (file, "rb");
  uint8_t *data = NULL, *grown;
  size_t size = 0, n;
  unsigned char buf[4096];

  if (!fp)
    return -1;
  /* Never NULL, as with libFuzzer, even for an empty file.  */
  data = malloc (1);
  while ((n = fread (buf, 1, sizeof buf, fp)))
    {
      grown = data ? realloc (data, size + n) : NULL;
      if (!grown)
        {
          free (data);
          fclose (fp);
          return -1;
        }
      data = grown;
      memcpy (data + size, buf, n);
      size += n;
    }
  if (ferror (fp))
    {
      free (data);
      fclose (fp);
      return -1;
    }
  fclose (fp);
  *r_data = data;
  *r_size = size;
  return 0;
}


int
main (int argc, char **argv)
{
  uint8_t *data;
  size_t size;
  int i;

  if (argc < 2)
    {
      fprintf (stderr, "usage: %s FILE...\n", argv[0]);
      return 2;
    }
  for (i = 1; i < argc; i++)
    {
      if (read_file (argv[i], &data, &size))
        {
          fprintf (stderr, "%s: %s: %s\n", argv[0], argv[i],
                   strerror (errno));
          return 2;
        }
      LLVMFuzzerTestOneInput (data, size);
      free (data);
    }
  printf ("%s: %d inputs run\n", argv[0], argc - 1);
  return 0;
}
