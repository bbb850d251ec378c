/* sfenc.c - the sfenc command: main and --list-ciphers
 *
 * A gpg -c / gpg -d compatible subset (RFC 4880 symmetric messages)
 * over the sfenc cipher table.  main makes the process ready
 * (startup.c), parses the command line (options.c), starts libgcrypt,
 * the cipher table and the modules, and runs the command: -c is
 * encrypt.c, -d (the default) decrypt.c, --version and --list-config
 * version.c, the commands that need keys key-command.c, --enarmor and
 * --dearmor dearmor.c, --server server.c, --store store.c,
 * --decrypt-files and --encrypt-files multifile.c.
 */
#include <config.h>

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "libsfcipher.h"
#include "dearmor.h"
#include "decrypt.h"
#include "encrypt.h"
#include "error.h"
#include "extension.h"
#include "gen-random.h"
#include "key-command.h"
#include "list-packets.h"
#include "multifile.h"
#include "options.h"
#include "print-md.h"
#include "progress.h"
#include "server.h"
#include "startup.h"
#include "status.h"
#include "store.h"
#include "version.h"

/* Exit status on any failure, as gpg.  */
#define EXIT_FAILED 2


/* Print S for --with-colons: ':' and '%' and control characters as
 * \xNN, as gpg does.  */
static void
print_colon_field (const char *s)
{
  for (; s && *s; s++)
    if (*s == ':' || *s == '\\' || (unsigned char)*s < 0x20)
      printf ("\\x%02x", (unsigned char)*s);
    else
      putchar (*s);
}


static void
list_ciphers (void)
{
  const sf_table_entry_t *e;
  const sf_cipher_spec_t *spec, *def;
  char why[256], aliases[256];
  size_t i, j;

  if (!opt.with_colons)
    printf ("%-9s %-28s %3s %5s %4s %-8s %-8s %-8s %-8s %s\n", "NAME",
            "ALIASES", "ID", "BLOCK", "KEY", "IMPL", "SELFTEST", "STATUS",
            "TIMING", "ORIGIN");
  for (i = 0; (e = sf_table_nth (i)); i++)
    {
      const char *status, *selftest;

      spec = e->spec;
      *aliases = 0;
      for (j = 0; spec->aliases && spec->aliases[j]; j++)
        snprintf (aliases + strlen (aliases), sizeof aliases - strlen (aliases),
                  "%s%s", j ? "," : "", spec->aliases[j]);
      /* Code for another processor's instructions cannot test itself
       * here; SFENC_DISABLE_HWF alone leaves the self-test runnable.  */
      if (spec->usable && !spec->usable ())
        selftest = "n/a";
      else
        selftest = sf_spec_selftest (spec, why, sizeof why) ? "failed" : "ok";
      if (!sf_spec_usable (spec))
        status = "unusable";
      else if (!sf_table_find (spec->name, NULL, &def) && def == spec)
        status = "default";
      else
        status = "usable";
      if (opt.with_colons)
        {
          fputs ("cipher:", stdout);
          print_colon_field (spec->name);
          putchar (':');
          print_colon_field (aliases);
          printf (":%d:%zu:%zu:", spec->openpgp_id, spec->blocksize * 8,
                  spec->keylen * 8);
          print_colon_field (spec->impl);
          printf (":%s:", e->origin ? "dynamic" : "static");
          print_colon_field (e->origin);
          printf (":%s:%s:%s:\n", selftest, status,
                  sf_timing_name (sf_spec_timing (spec)));
        }
      else
        printf ("%-9s %-28s %3d %5zu %4zu %-8s %-8s %-8s %-8s %s\n",
                spec->name, *aliases ? aliases : "-", spec->openpgp_id,
                spec->blocksize * 8, spec->keylen * 8, spec->impl, selftest,
                status, sf_timing_name (sf_spec_timing (spec)),
                e->origin ? e->origin : "static");
    }
}



/* Start what every command but --help and --dump-options needs:
 * libgcrypt, the cipher table and the modules.  */
static gpg_error_t
start_libraries (const struct command_line *cl)
{
  gpg_error_t err;
  size_t i;

  err = init_libgcrypt (opt.require_secmem);
  if (err)
    status_failure ("option-checking", err);
  if (!err)
    sf_table_init ();
  for (i = 0; !err && i < cl->n_extensions; i++)
    err = extension_load (cl->extensions[i]);
  if (!err && !opt.no_auto_modules)
    err = extension_load_auto ();
  return err;
}


static gpg_error_t
run_command (const struct command_line *cl)
{
  switch (cl->cmd)
    {
    case CMD_VERSION:
      show_version ();
      return 0;
    case CMD_LIST_CIPHERS:
      list_ciphers ();
      return 0;
    case CMD_LIST_CONFIG:
      return list_config (cl->args, cl->n_args);
    case CMD_LIST_PACKETS: return list_packets_file (cl->args[0]);
    case CMD_LIST_GCRYPT_CONFIG: return list_gcrypt_config ();
    case CMD_PRINT_MD: return print_md_command (cl->args, cl->n_args, 0);
    case CMD_PRINT_MDS: return print_md_command (cl->args, cl->n_args, 1);
    case CMD_GEN_RANDOM: return gen_random_command (cl->args, cl->n_args);
    case CMD_GEN_PRIME: return gen_prime_command ();
    case CMD_GPGCONF_LIST: return gpgconf_list ();
    /* gpg checks its options file; sfenc reads none.  */
    case CMD_GPGCONF_TEST: return 0;
    case CMD_KEYS:
      return key_command_fail (cl->cmd_option, cl->key_command, cl->key_need,
                               cl->recipients, cl->n_recipients, cl->signer);
    case CMD_SYMMETRIC:
      return encrypt_file (cl->args[0]);
    case CMD_ENARMOR:
      return enarmor_file (cl->args[0]);
    case CMD_DEARMOR:
      return dearmor_file (cl->args[0]);
    case CMD_STORE:
      return store_file (cl->args[0]);
    default:
      return decrypt_file (cl->args[0]);
    }
}


/* gpg's name of the command CMD in its FAILURE status line, and the
 * words of its error message when no stage recorded one.  */
static void
failure_names (enum cmd cmd, const char **r_where, const char **r_what)
{
  switch (cmd)
    {
    case CMD_SYMMETRIC:
      *r_where = "symencrypt";
      *r_what = "encryption failed";
      break;
    case CMD_ENARMOR:
      *r_where = "enarmor";
      *r_what = "enarmoring failed";
      break;
    case CMD_DEARMOR:
      *r_where = "dearmor";
      *r_what = "dearmoring failed";
      break;
    case CMD_STORE:
      *r_where = "store";
      *r_what = "storing failed";
      break;
    default:
      *r_where = "decrypt";
      *r_what = "decryption failed";
      break;
    }
}


/* Run CL's command if it needs nothing started: whether it did.  */
static int
run_early_command (const struct command_line *cl)
{
  switch (cl->cmd)
    {
    case CMD_HELP: show_help (); return 1;
    case CMD_DUMP_OPTIONS: dump_options (); return 1;
    case CMD_DUMP_OPTION_TABLE: dump_option_table (); return 1;
    case CMD_WARRANTY: show_warranty (); return 1;
    default: return 0;
    }
}


/* --decrypt-files and --encrypt-files: each file is reported as it is
 * done, and, as in gpg, no FAILURE line ends the run.  */
static int
run_multifile (const struct command_line *cl)
{
  gpg_error_t err;
  int reported;

  err = multifile_run (cl, &reported);
  if (err && !reported)
    fail_print (err, "sfenc");
  return err ? EXIT_FAILED : 0;
}


int
main (int argc, char **argv)
{
  gpg_error_t err;
  struct command_line cl;

  if (!harden_process ())
    return EXIT_FAILED;
  options_set_defaults ();
  err = parse_command_line (argc, argv, &cl);
  if (!err)
    err = options_open_files ();
  if (err)
    status_failure ("option-parser", gpg_error (GPG_ERR_GENERAL));
  else
    err = multifile_resolve (&cl);
  if (!err && run_early_command (&cl))
    return 0;
  if (!err)
    err = start_libraries (&cl);
  /* gpg reads the names before --version could see them.  */
  if (!err && cl.cmd != CMD_VERSION && cl.cmd != CMD_LIST_CIPHERS)
    err = options_check_ciphers ();
  if (err)
    {
      fail_print (err, "sfenc");
      return EXIT_FAILED;
    }
  /* The server answers each command itself.  */
  if (cl.cmd == CMD_SERVER)
    return server_run ();

  if (cl.cmd == CMD_DECRYPT_FILES || cl.cmd == CMD_ENCRYPT_FILES)
    return run_multifile (&cl);
  err = run_command (&cl);
  progress_finish ();
  if (!err && (fflush (stdout) || ferror (stdout)))
    err = fail (gpg_error_from_syserror (), "stdout", "write error: %s",
                strerror (errno));
  if (err)
    {
      const char *where, *what;

      failure_names (cl.cmd, &where, &what);
      status_failure (where, err);
      fail_print (err, what);
      return EXIT_FAILED;
    }
  return 0;
}
