/* fuzz-options.c - the command line parser (g10/options.c)
 *
 * Input: the arguments, separated by NUL bytes; each is given to the
 * parser in memory of its own exact size, after the program name.
 * The options are reset after each input, as each input is a new run,
 * and so is standard error, which --logger-fd moves while parsing.
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz.h"

/* More arguments than any useful command line has.  */
#define MAX_ARGS 64


/* Split DATA at its NUL bytes into ARGV[1..], at most MAX_ARGS
 * arguments.  Returns ARGC.  */
static int
split_arguments (const uint8_t *data, size_t size, char **argv)
{
  const uint8_t *p = data, *end = data + size, *nul;
  int argc = 1;

  while (p < end && argc <= MAX_ARGS)
    {
      size_t len;

      nul = memchr (p, 0, end - p);
      len = nul ? (size_t)(nul - p) : (size_t)(end - p);
      argv[argc] = malloc (len + 1);
      if (!argv[argc])
        abort ();
      memcpy (argv[argc], p, len);
      argv[argc][len] = 0;
      argc++;
      p += len + 1;
    }
  argv[argc] = NULL;
  return argc;
}


int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  static char program[] = "sfenc";
  static int saved_stderr = -1;
  char *argv[MAX_ARGS + 2];
  struct options saved;
  int argc, i;

  fuzz_start ();
  if (saved_stderr < 0 && (saved_stderr = dup (STDERR_FILENO)) < 0)
    {
      perror ("fuzz-options: dup");
      exit (2);
    }
  saved = opt;
  argv[0] = program;
  argc = split_arguments (data, size, argv);
  fuzz_parse_command_line (argc, argv);
  for (i = 1; i < argc; i++)
    free (argv[i]);
  opt = saved;
  if (dup2 (saved_stderr, STDERR_FILENO) < 0)
    abort ();
  fuzz_forget_error ();
  return 0;
}
