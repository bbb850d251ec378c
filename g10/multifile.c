/* multifile.c - gpg's commands over several files
 *
 * What gpg 2.2 does, observed with gpg 2.2.40 and kept here: each file
 * is reported as "FILE_START 3 NAME" (2 for encryption) ... "FILE_DONE",
 * whatever happens to it; a file that fails has its own message and
 * the run goes on; a name without one of the suffixes below is
 * skipped with a note, which is no failure; -o is refused, as one
 * output cannot take several files; and the exit status is 2 when
 * any file failed.  No FAILURE status line ends the run: the clients
 * read each file's lines.
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decrypt.h"
#include "error.h"
#include "key-command.h"
#include "log.h"
#include "multifile.h"
#include "passphrase.h"
#include "progress.h"
#include "status.h"

/* gpg's operation numbers in FILE_START.  */
#define FILE_OP_ENCRYPT 2
#define FILE_OP_DECRYPT 3

/* Longest name read from stdin, as gpg reads them.  */
#define NAME_LINE_MAX 2048

/* The suffixes that --decrypt-files removes to name the output.  */
static const char *const suffixes[] = { ".gpg", ".pgp", ".sig", ".asc" };


gpg_error_t
multifile_resolve (struct command_line *cl)
{
  const char *why = NULL;

  if (!opt.multifile)
    return 0;
  if (cl->cmd == CMD_SYMMETRIC)
    why = "--symmetric does not yet work with --multifile";
  else if (cl->cmd == CMD_DECRYPT)
    cl->cmd = CMD_DECRYPT_FILES;
  else if (cl->cmd == CMD_KEYS && cl->key_need == NEEDS_PUBLIC_KEY)
    {
      if (cl->symmetric)
        why = "--symmetric --encrypt does not yet work with --multifile";
      else
        cl->cmd = CMD_ENCRYPT_FILES;
    }
  if (!why)
    return 0;
  status_failure ("option-postprocessing", gpg_error (GPG_ERR_GENERAL));
  return fail (gpg_error (GPG_ERR_GENERAL), "--multifile", "%s", why);
}


/* The output of NAME into *R_OUT (malloced): NAME without its suffix,
 * or NULL when it has none of them.  */
static gpg_error_t
output_name (const char *name, char **r_out)
{
  size_t len = strlen (name), i;

  *r_out = NULL;
  for (i = 0; i < sizeof suffixes / sizeof *suffixes; i++)
    if (len > strlen (suffixes[i])
        && !strcmp (name + len - strlen (suffixes[i]), suffixes[i]))
      {
        *r_out = strndup (name, len - strlen (suffixes[i]));
        if (!*r_out)
          return fail (gpg_error_from_syserror (), "out of core", NULL);
        break;
      }
  return 0;
}


/* Print the message of the file that failed with ERR, and forget it,
 * so that the next file's failure has its own.  */
static void
report_file (gpg_error_t err, const char *what)
{
  char done[FAIL_MESSAGE_MAX];

  fail_print (err, what);
  fail_push (done, sizeof done);
}


/* Decrypt NAME to its name without the suffix.  */
static gpg_error_t
decrypt_one (const char *name)
{
  gpg_error_t err;
  char *out;

  err = output_name (name, &out);
  if (!err && !out)
    {
      log_warning ("%s: unknown suffix", name);
      return 0;
    }
  if (!err)
    {
      opt.output = out;
      err = decrypt_file (name);
      opt.output = NULL;
    }
  free (out);
  if (err)
    report_file (err, "decryption failed");
  return err;
}


/* Encrypt NAME to the recipients of CL: without keys, gpg's failure
 * for the file.  */
static gpg_error_t
encrypt_one (const struct command_line *cl, const char *name)
{
  gpg_error_t err;
  size_t i;

  for (i = 0; i < cl->n_recipients; i++)
    status_invalid_recipient (cl->recipients[i]);
  if (!cl->n_recipients)
    status_no_recipients ();
  err = fail (gpg_error (cl->n_recipients ? GPG_ERR_NO_PUBKEY
                         : GPG_ERR_NO_USER_ID), name,
              "encryption failed: %s: sfenc has no keys"
              " (-c encrypts with a passphrase)",
              cl->n_recipients ? "no public key" : "no recipient");
  report_file (err, "encryption failed");
  return err;
}


/* Process file NAME for CL, between its status lines; count a
 * failure in *R_FAILED.  */
static void
process_one (const struct command_line *cl, const char *name, int *r_failed)
{
  int encrypting = cl->cmd == CMD_ENCRYPT_FILES;

  status_file_start (encrypting ? FILE_OP_ENCRYPT : FILE_OP_DECRYPT, name);
  passphrase_keep ();
  if (encrypting ? encrypt_one (cl, name) : decrypt_one (name))
    ++*r_failed;
  /* --progress: each file's own last line.  */
  progress_finish ();
  status_file_done ();
}


/* Process each name read from stdin, one a line.  */
static gpg_error_t
process_stdin_names (const struct command_line *cl, int *r_failed)
{
  char line[NAME_LINE_MAX];
  size_t len;

  while (fgets (line, sizeof line, stdin))
    {
      len = strlen (line);
      if (len && line[len - 1] == '\n')
        line[--len] = 0;
      if (len)
        process_one (cl, line, r_failed);
    }
  if (ferror (stdin))
    return fail (gpg_error_from_syserror (), "stdin", "read error");
  return 0;
}


gpg_error_t
multifile_run (const struct command_line *cl, int *r_reported)
{
  gpg_error_t err = 0;
  int failed = 0;
  size_t i;

  *r_reported = 0;
  if (opt.output)
    return fail (gpg_error (GPG_ERR_GENERAL), "--output",
                 "does not work for this command");
  if (cl->n_args)
    for (i = 0; i < cl->n_args; i++)
      process_one (cl, cl->args[i], &failed);
  else
    err = process_stdin_names (cl, &failed);
  passphrase_forget ();
  if (err || !failed)
    return err;
  *r_reported = 1;
  return gpg_error (GPG_ERR_GENERAL);
}
