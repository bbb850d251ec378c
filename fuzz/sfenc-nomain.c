/* sfenc-nomain.c - g10/sfenc.c for the harnesses, without its main
 *
 * The harnesses need what sfenc.c holds besides main: the options
 * (opt), log_info and log_warning, the option parser and the start-up
 * of libgcrypt.  libFuzzer (or driver.c) brings its own main, so
 * sfenc.c is compiled here with its main renamed, and the parts the
 * harnesses call, static in sfenc.c, are reached through the two
 * functions below: the program's code as it is, not a copy of it.
 */
int sfenc_main (int argc, char **argv);
#define main sfenc_main
#include "sfenc.c"
#undef main

#include "fuzz.h"


gpg_error_t
fuzz_sfenc_start (void)
{
  gpg_error_t err;

  err = init_libgcrypt ();
  if (!err)
    err = sf_table_init ();
  return err;
}


gpg_error_t
fuzz_parse_command_line (int argc, char **argv)
{
  struct command_line cl;

  memset (&cl, 0, sizeof cl);
  return parse_command_line (argc, argv, &cl);
}
