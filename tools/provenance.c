/* provenance.c - where a benchmark result comes from
 *
 * The peers' versions come from the programs themselves (the first
 * line of "gpg --version" and so on), as the benchmarks run them;
 * libgcrypt's from the second line of gpg's, unless the tool links
 * libgcrypt and says its own.
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/utsname.h>
#if defined(__aarch64__) && defined(__linux__)
# include <sys/auxv.h>
# include <asm/hwcap.h>
#endif

#include "benchutil.h"
#include "provenance.h"

#define UNKNOWN "unknown"

/* The CPU features that decide which implementation runs, as
 * /proc/cpuinfo names them on x86 and on ARM.  */
static const char *const interesting_flags[] =
  {
    "aes", "pclmulqdq", "sha_ni", "avx", "avx2", "vaes", "vpclmulqdq",
    "avx512f", "avx512vl", "pmull", "sha1", "sha2", "asimd"
  };


void
provenance_set (provenance_t *prov, const char *key, const char *value)
{
  size_t i;

  for (i = 0; i < prov->n; i++)
    if (!strcmp (prov->keys[i], key))
      {
        free (prov->values[i]);
        prov->values[i] = bench_xstrdup (value);
        return;
      }
  prov->keys = bench_xrealloc (prov->keys, prov->n + 1, sizeof *prov->keys);
  prov->values = bench_xrealloc (prov->values, prov->n + 1,
                                 sizeof *prov->values);
  prov->keys[prov->n] = bench_xstrdup (key);
  prov->values[prov->n++] = bench_xstrdup (value);
}


const char *
provenance_get (const provenance_t *prov, const char *key)
{
  size_t i;

  for (i = 0; i < prov->n; i++)
    if (!strcmp (prov->keys[i], key))
      return prov->values[i];
  return NULL;
}


/* Line LINENO (1-based) of what the shell command CMD prints, without
 * its line end, into BUF; 0 when there is none.  */
static int
command_line_n (const char *cmd, int lineno, char *buf, size_t size)
{
  FILE *fp = popen (cmd, "r");
  int found = 0;

  if (!fp)
    return 0;
  while (fgets (buf, size, fp))
    if (--lineno == 0)
      {
        buf[strcspn (buf, "\n")] = 0;
        found = 1;
        break;
      }
  pclose (fp);
  return found;
}


/* The word after the last space of LINE.  */
static const char *
last_word (const char *line)
{
  const char *sp = strrchr (line, ' ');

  return sp ? sp + 1 : line;
}


/* The value of the first line "KEY<spaces>: VALUE" of /proc/cpuinfo.  */
static int
cpuinfo_field (const char *key, char *buf, size_t size)
{
  FILE *fp = fopen ("/proc/cpuinfo", "r");
  size_t len = strlen (key);
  char line[4096];
  int found = 0;

  if (!fp)
    return 0;
  while (!found && fgets (line, sizeof line, fp))
    {
      char *colon = strchr (line, ':');

      if (!colon || strncmp (line, key, len)
          || strspn (line + len, " \t") != (size_t)(colon - line - len))
        continue;
      snprintf (buf, size, "%s", colon + 1 + strspn (colon + 1, " \t"));
      buf[strcspn (buf, "\n")] = 0;
      found = 1;
    }
  fclose (fp);
  return found;
}


/* The interesting flags among the space-separated FLAGS.  */
static void
pick_flags (const char *flags, char *buf, size_t size)
{
  size_t i, len;
  const char *p;

  *buf = 0;
  for (i = 0; i < sizeof interesting_flags / sizeof *interesting_flags; i++)
    {
      len = strlen (interesting_flags[i]);
      for (p = flags; (p = strstr (p, interesting_flags[i])); p += len)
        if ((p == flags || p[-1] == ' ') && (!p[len] || p[len] == ' '))
          {
            snprintf (buf + strlen (buf), size - strlen (buf), "%s%s",
                      *buf ? " " : "", interesting_flags[i]);
            break;
          }
    }
}


/* The /proc/cpuinfo field that lists the features of the processor
 * this program was built for.  Under qemu-user the file is the host's,
 * so a program that finds only another architecture's field runs
 * emulated.  */
#if defined(__x86_64__) || defined(__i386__)
# define OWN_FLAGS_FIELD "flags"
#elif defined(__aarch64__)
# define OWN_FLAGS_FIELD "Features"
#elif defined(__s390x__)
# define OWN_FLAGS_FIELD "features"
#else
# define OWN_FLAGS_FIELD NULL
#endif

/* The processor's features as the kernel gives them to the program,
 * which qemu-user emulates too; empty where there is no such list.  */
static void
hwcap_flags (char *buf, size_t size)
{
#if defined(__aarch64__) && defined(__linux__)
  static const struct { unsigned long bit; const char *name; } caps[] =
    {
      { HWCAP_AES, "aes" }, { HWCAP_PMULL, "pmull" }, { HWCAP_SHA1, "sha1" },
      { HWCAP_SHA2, "sha2" }, { HWCAP_ASIMD, "asimd" }
    };
  unsigned long hwcap = getauxval (AT_HWCAP);
  size_t i;

  *buf = 0;
  for (i = 0; i < sizeof caps / sizeof *caps; i++)
    if (hwcap & caps[i].bit)
      snprintf (buf + strlen (buf), size - strlen (buf), "%s%s",
                *buf ? " " : "", caps[i].name);
#else
  (void)size;
  *buf = 0;
#endif
}

static void
collect_machine (provenance_t *prov)
{
  char buf[4096], model[256], picked[512];
  struct utsname un;
  int emulated;

  if (!cpuinfo_field ("model name", model, sizeof model)
      && !cpuinfo_field ("CPU part", model, sizeof model))
    snprintf (model, sizeof model, UNKNOWN);
  emulated = OWN_FLAGS_FIELD && !cpuinfo_field (OWN_FLAGS_FIELD, buf, sizeof buf)
             && (cpuinfo_field ("flags", buf, sizeof buf)
                 || cpuinfo_field ("Features", buf, sizeof buf)
                 || cpuinfo_field ("features", buf, sizeof buf));
  if (emulated)
    {
      /* The host's name and flags would describe another machine.  */
      snprintf (buf, sizeof buf, "emulated (host: %s)", model);
      provenance_set (prov, "cpu", buf);
      hwcap_flags (picked, sizeof picked);
      provenance_set (prov, "cpu_flags", *picked ? picked : UNKNOWN);
    }
  else
    {
      provenance_set (prov, "cpu", model);
      if (cpuinfo_field ("flags", buf, sizeof buf)
          || cpuinfo_field ("Features", buf, sizeof buf))
        {
          pick_flags (buf, picked, sizeof picked);
          provenance_set (prov, "cpu_flags", picked);
        }
      else
        provenance_set (prov, "cpu_flags", UNKNOWN);
    }
  snprintf (buf, sizeof buf, "%ld", sysconf (_SC_NPROCESSORS_ONLN));
  provenance_set (prov, "cores", buf);
  if (!uname (&un))
    {
      snprintf (buf, sizeof buf, "%s %s %s", un.sysname, un.release,
                un.machine);
      provenance_set (prov, "kernel", buf);
    }
  else
    provenance_set (prov, "kernel", UNKNOWN);
}


/* Set KEY to the last word of line LINENO of CMD's output.  */
static void
collect_version (provenance_t *prov, const char *key, const char *cmd,
                 int lineno)
{
  char buf[512];

  provenance_set (prov, key, command_line_n (cmd, lineno, buf, sizeof buf)
                  ? last_word (buf) : UNKNOWN);
}


void
provenance_collect (provenance_t *prov, int argc, char **argv)
{
  char buf[4096];
  time_t now = time (NULL);
  int i;

  strftime (buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", gmtime (&now));
  provenance_set (prov, "date", buf);
  *buf = 0;
  for (i = 0; i < argc; i++)
    snprintf (buf + strlen (buf), sizeof buf - strlen (buf), "%s%s",
              i ? " " : "", argv[i]);
  provenance_set (prov, "command", buf);
  collect_machine (prov);
  provenance_set (prov, "compiler", SF_BUILD_CC " (" __VERSION__ ")");
  provenance_set (prov, "cflags", SF_BUILD_CFLAGS);
  provenance_set (prov, "sfenc", PACKAGE_VERSION);
  collect_version (prov, "libgcrypt", "gpg --version 2>/dev/null", 2);
  collect_version (prov, "gpg", "gpg --version 2>/dev/null", 1);
  collect_version (prov, "rnp", "rnp --version 2>/dev/null", 1);
  /* "OpenSSL 3.0.15 3 Sep 2024": the second word.  */
  if (command_line_n ("openssl version 2>/dev/null", 1, buf, sizeof buf)
      && strchr (buf, ' '))
    {
      char *v = strchr (buf, ' ') + 1;

      v[strcspn (v, " ")] = 0;
      provenance_set (prov, "openssl", v);
    }
  else
    provenance_set (prov, "openssl", UNKNOWN);
}
