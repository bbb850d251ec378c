/* provenance.c - where a benchmark result comes from
 *
 * The peers' versions come from the programs themselves (the first
 * line of "gpg --version" and so on), as the benchmarks run them;
 * libgcrypt's from the second line of gpg's, unless the tool links
 * libgcrypt and says its own.  So does an sfenc that a tool runs
 * (provenance_program): its own "--version", and its ELF header for
 * the processor it was built for.
 */
#include <config.h>

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
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

void
provenance_free (provenance_t *prov)
{
  size_t i;

  for (i = 0; i < prov->n; i++)
    {
      free (prov->keys[i]);
      free (prov->values[i]);
    }
  free (prov->keys);
  free (prov->values);
  memset (prov, 0, sizeof *prov);
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
  /* It turns off the accelerated implementations, for the cipher code
   * linked in and for an sfenc the tool runs.  */
  provenance_set (prov, "disable_hwf", getenv ("SFENC_DISABLE_HWF")
                  ? getenv ("SFENC_DISABLE_HWF") : "not set");
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


/* The e_machine of the ELF file FILE, or -1 when it is none.  */
static int
elf_machine (const char *file)
{
  unsigned char h[EI_NIDENT + 4];
  FILE *fp = fopen (file, "rb");
  size_t n = 0;

  if (fp)
    {
      n = fread (h, 1, sizeof h, fp);
      fclose (fp);
    }
  if (n < sizeof h || memcmp (h, ELFMAG, SELFMAG))
    return -1;
  /* e_machine follows e_ident and e_type, in the file's byte order.  */
  return h[EI_DATA] == ELFDATA2MSB ? h[EI_NIDENT + 2] << 8 | h[EI_NIDENT + 3]
                                   : h[EI_NIDENT + 3] << 8 | h[EI_NIDENT + 2];
}


/* What kind of program FILE is, into BUF: "ELF, e_machine N" or the
 * first line of a script, after "a script, ".  */
static void
describe_program (const char *file, int machine, char *buf, size_t size)
{
  FILE *fp;

  if (machine >= 0)
    {
      snprintf (buf, size, "ELF, e_machine %d", machine);
      return;
    }
  snprintf (buf, size, UNKNOWN);
  fp = fopen (file, "r");
  if (!fp)
    return;
  if (fgets (buf, size, fp) && !strncmp (buf, "#!", 2))
    {
      char *line = bench_xasprintf ("a script, %s", buf);

      line[strcspn (line, "\n")] = 0;
      snprintf (buf, size, "%s", line);
      free (line);
    }
  else
    snprintf (buf, size, UNKNOWN);
  fclose (fp);
}


/* Whether FILE is the sfenc of this tool's own build: in the build
 * tree (tools/ and g10/) or installed beside it.  */
static int
own_build (const char *file)
{
  static const char *const beside[] = { "/../g10/sfenc", "/sfenc" };
  char self[PATH_MAX], *real_file = realpath (file, NULL);
  ssize_t n = readlink ("/proc/self/exe", self, sizeof self - 1);
  int same = 0;
  size_t i;

  if (n <= 0 || !real_file)
    {
      free (real_file);
      return 0;
    }
  self[n] = 0;
  *strrchr (self, '/') = 0;
  for (i = 0; !same && i < sizeof beside / sizeof *beside; i++)
    {
      char *candidate = bench_xasprintf ("%s%s", self, beside[i]);
      char *real = realpath (candidate, NULL);

      same = real && !strcmp (real, real_file);
      free (real);
      free (candidate);
    }
  free (real_file);
  return same;
}


/* Set KEY to the second word of LINE when LINE is "KEY VERSION ...".  */
static void
set_from_version_line (provenance_t *prov, const char *key, const char *line)
{
  size_t len = strlen (key);
  char *v;

  if (strncmp (line, key, len) || line[len] != ' ')
    return;
  v = bench_xstrdup (line + len + 1);
  v[strcspn (v, " ")] = 0;
  provenance_set (prov, key, v);
  free (v);
}


void
provenance_program (provenance_t *prov, const char *file)
{
  char line[1024], kind[512], *versions = NULL;
  char *argv[] = { (char *) file, (char *) "--version", NULL };
  int machine = elf_machine (file);
  int own_machine = elf_machine ("/proc/self/exe");
  int out[2], pid;
  struct bench_usage u;
  double start;
  FILE *fp;

  provenance_set (prov, "sfenc_path", file);
  describe_program (file, machine, kind, sizeof kind);
  provenance_set (prov, "sfenc_file", kind);
  provenance_set (prov, "sfenc", UNKNOWN);
  /* Only the child's standard output may hold the pipe open.  */
  if (pipe2 (out, O_CLOEXEC))
    bench_die ("pipe", strerror (errno));
  pid = bench_spawn (argv, -1, out[1], -1, NULL, &start);
  close (out[1]);
  fp = fdopen (out[0], "r");
  if (!fp)
    bench_die ("fdopen", strerror (errno));
  /* The lines up to the first empty one: the versions of sfenc, the
   * gpg it stands in for and the libraries it uses.  */
  while (pid > 0 && fgets (line, sizeof line, fp) && line[strspn (line, " \n")])
    {
      char *joined;

      line[strcspn (line, "\n")] = 0;
      set_from_version_line (prov, "sfenc", line);
      set_from_version_line (prov, "libgcrypt", line);
      joined = bench_xasprintf ("%s%s%s", versions ? versions : "",
                                versions ? "; " : "", line);
      free (versions);
      versions = joined;
    }
  fclose (fp);
  if (pid > 0)
    bench_wait (pid, start, &u);
  provenance_set (prov, "sfenc_version", versions ? versions : UNKNOWN);
  free (versions);
  if (!own_build (file))
    {
      /* This tool's compiler and CFLAGS say nothing of that sfenc.  */
      provenance_set (prov, "compiler", UNKNOWN);
      provenance_set (prov, "cflags", UNKNOWN);
    }
  if (machine >= 0 && own_machine >= 0 && machine != own_machine)
    {
      /* It can run only under an emulator (qemu-user through
       * binfmt_misc), on a processor that is not this one.  */
      char model[256];

      if (!cpuinfo_field ("model name", model, sizeof model))
        snprintf (model, sizeof model, UNKNOWN);
      snprintf (line, sizeof line, "emulated (host: %s)", model);
      provenance_set (prov, "cpu", line);
      provenance_set (prov, "cpu_flags", UNKNOWN);
    }
}
