/* outfile.h - output files that appear only when complete
 */
#ifndef SFENC_OUTFILE_H
#define SFENC_OUTFILE_H

#include <sys/stat.h>
#include <gpg-error.h>

#include "iobuf.h"

/* An output: stdout, a device written in place, or a regular file
 * written under no name (O_TMPFILE) or a private temporary name beside
 * its final one, and put in place only on success.  */
typedef struct outfile
{
  fd_stream_t stream;
  char *name;           /* The final name of a regular file.  */
  char *tmpname;        /* The visible temporary name, if any.  */
  int is_device;        /* Written in place, not through a temporary.  */
  int is_anonymous;     /* An O_TMPFILE file: nothing to remove.  */
  int replaces;         /* NAME existed (--yes): keep its mode, owner.  */
  struct stat replaced; /* The file NAME was when opened.  */
} outfile_t;

/* The output file of INFILE into *R_NAME (malloced): -o, else as gpg
 * INFILE with SUFFIX appended; NULL for stdout, also when INFILE is a
 * stream.  With --dry-run, as gpg, /dev/null unless NULL.  */
gpg_error_t outfile_name (const char *infile, const char *suffix,
                          char **r_name);

/* Refuse an existing NAME without --yes, early, before any work.  */
gpg_error_t outfile_check (const char *name);

/* NAME NULL or "-" means stdout; "-&N" descriptor N where special
 * file names are enabled.  */
gpg_error_t outfile_open (outfile_t *of, const char *name);

/* True when the output is written in place (stdout, a device, a
 * pipe): what is written there cannot be taken back.  */
int outfile_is_in_place (const outfile_t *of);

/* When OK, give a regular file its final mode and put it in place;
 * otherwise, or when that fails, make sure nothing is left.  */
gpg_error_t outfile_close (outfile_t *of, int ok);

/* The program ends now, without outfile_close: remove the visible
 * temporary file of the output being written, if there is one.  Safe
 * where only async-signal-safe calls are.  */
void outfile_abandon (void);

#endif /*SFENC_OUTFILE_H*/
