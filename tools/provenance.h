/* provenance.h - where a benchmark result comes from
 *
 * What "openssl speed" prints as "built on", "options" and
 * "compiler", and more: the machine (the CPU and the features that
 * change which code runs, the cores, the kernel), this build (its
 * compiler and CFLAGS, the sfenc version), the versions of the peers,
 * the date and the exact command.  Every JSON result carries it as
 * its "provenance" object, so that results from several machines,
 * builds and dates can be put side by side (tools/sfreport).
 */
#ifndef PROVENANCE_H
#define PROVENANCE_H

#include <stddef.h>

typedef struct provenance
{
  char **keys, **values;
  size_t n;
} provenance_t;

/* Fill PROV for the command ARGV (ARGC words), in this order: date,
 * command, cpu, cpu_flags, cores, kernel, compiler, cflags, sfenc,
 * disable_hwf (SFENC_DISABLE_HWF, or "not set"), libgcrypt, gpg, rnp,
 * openssl.  A tool that knows a field better
 * sets it with provenance_set.  What cannot be found is "unknown".  */
void provenance_collect (provenance_t *prov, int argc, char **argv);

/* Describe FILE, the sfenc a tool runs and measures, in place of the
 * tool's own build: sfenc_path, sfenc_file (an ELF file or a script),
 * sfenc, libgcrypt (when it says) and sfenc_version from what "FILE
 * --version" prints; compiler
 * and cflags become "unknown" unless FILE is of the tool's own build,
 * and cpu says "emulated" when FILE is an ELF file for another
 * processor.  */
void provenance_program (provenance_t *prov, const char *file);

/* Set field KEY to VALUE (copied), replacing any value it had.  */
void provenance_set (provenance_t *prov, const char *key, const char *value);

/* The value of KEY, or NULL.  */
const char *provenance_get (const provenance_t *prov, const char *key);

/* Free what PROV holds, and empty it.  */
void provenance_free (provenance_t *prov);

#endif /*PROVENANCE_H*/
