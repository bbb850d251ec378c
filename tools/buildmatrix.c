/* buildmatrix.c - the tree built several ways, measured side by side
 *
 * Two tables people who choose a cipher build make by hand: the same
 * library compiled by several compilers, algorithm by algorithm, and
 * the same library built normally and with profile-guided optimisation
 * ("openssl speed" before and after, per buffer size).  buildmatrix:
 *
 *   1. copies the sources with "make distdir" into DIR/src, so that
 *      every build compiles the same files whatever is edited while it
 *      runs, and the source tree itself is never written to;
 *   2. configures and builds that copy out of tree, in DIR/BUILD, once
 *      per build of the matrix: every gcc-N and clang-N in PATH (and
 *      each --cc) times -O2 (what ./configure does), -O3 -march=native,
 *      --enable-lto, --enable-pgo (and each --cflags);
 *   3. runs the known-answer tests of each build: a build that fails
 *      to configure, to build or to pass them is reported, never
 *      measured;
 *   4. measures every good build with its own tools/cipherbench (CFB
 *      both ways, 16 KiB buffers, every implementation the build has)
 *      and its own sfenc on a pipe (tools/sfbench: -z 0 -c, user time),
 *      one algorithm at a time, every build once per round, so that
 *      drift on a noisy machine hits all of them alike;
 *   5. prints the builds with their geometric means, the matrix
 *      (algorithms by builds, the best of each row marked), the pipe
 *      matrix, and the PGO / -O2 ratio per algorithm and buffer size.
 *
 * buildmatrix is built with the tree, like cipherbench and sfbench, and
 * shares their tables (report.c), charts (plot.c) and helpers.
 */
#include <config.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include <sys/stat.h>

#include "benchutil.h"
#include "plot.h"
#include "report.h"

/* Builds are columns of one report table, beside three label columns.  */
#define MAX_BUILDS 48
/* The buffer size of the matrix, as in the hand-made tables.  */
#define MATRIX_BYTES 16384
#define MATRIX_BYTES_TEXT "16384"

/* What a build passes before it is measured: the official vectors of
 * every algorithm and mode, the SHA-1 of the MDC, and the differential
 * test against libgcrypt.  */
static const char *const gate_tests[] = { "t-kat", "t-modes", "t-sha1", "t-diff" };
#define N_GATE_TESTS (sizeof gate_tests / sizeof *gate_tests)

struct variant
{
  const char *id;               /* The second half of a build's name.  */
  const char *cflags;
  const char *option;           /* A configure option, or NULL.  */
};

/* -O2 is what ./configure does without CFLAGS; LTO and PGO add to it.  */
static const struct variant std_variants[] =
  {
    { "O2", "-g -O2", NULL },
    { "native", "-g -O3 -march=native", NULL },
    { "lto", "-g -O2", "--enable-lto" },
    { "pgo", "-g -O2", "--enable-pgo" }
  };
#define N_STD_VARIANTS (sizeof std_variants / sizeof *std_variants)
#define V_O2 (&std_variants[0])
#define V_PGO (&std_variants[3])

struct compiler
{
  char *name;                   /* gcc-12, or the base name of --cc.  */
  char *cc;                     /* What configure gets as CC.  */
  char *real;                   /* The file, every link resolved.  */
  int family;                   /* F_GCC, F_CLANG or F_OTHER.  */
  int version[3];
  char *version_text;           /* "gcc 12.2.0".  */
  int is_default;               /* The one ./configure picks.  */
};

enum { F_GCC, F_CLANG, F_OTHER };
static const char *const family_names[] = { "gcc", "clang", "cc" };

enum build_state
  {
    B_PLANNED, B_OK, B_CONFIGURE_FAILED, B_BUILD_FAILED, B_KAT_FAILED,
    B_MEASURE_FAILED, B_NOT_BUILT
  };
/* As the status file and the report say them.  */
static const char *const state_names[] =
  {
    "planned", "ok", "configure failed", "build failed", "KAT failed",
    "measure failed", "not built"
  };
#define N_STATES (sizeof state_names / sizeof *state_names)

struct build
{
  char *id;                     /* "gcc-12-O2": column and directory.  */
  const struct compiler *cc;
  const struct variant *variant;
  char *dir;
  enum build_state state;
  char *why;                    /* What failed, one line.  */
  double seconds;               /* configure, make and the tests.  */
  int sweep;                    /* Measured at every --sizes: the -O2
                                   and PGO builds of one compiler.  */
};

/* The samples of one figure of one build.  */
struct samples
{
  double *v;
  size_t n;
};

/* One row of figures: an implementation, mode and buffer size of an
 * algorithm in cipherbench (MiB/s), or an algorithm on the pipe (mode
 * "pipe", bytes 0: user seconds with the input and with an empty one).  */
struct row
{
  char *algo, *impl, *mode;
  size_t bytes;
  struct samples s[MAX_BUILDS];
  struct samples empty[MAX_BUILDS];
  double pipe_mib;
};

static struct
{
  char *dir;
  char **ccs;
  size_t nccs;
  int discover;
  int variant_on[N_STD_VARIANTS];
  char **cflags;
  size_t ncflags;
  int quick, measure_only, list;
  char **algos;
  int runs;
  double seconds;
  char *sizes_text;             /* For cipherbench, 16384 included.  */
  size_t *sizes;
  size_t nsizes;
  double pipe_seconds;
  int jobs;
  enum report_format format;
  const char *save, *plot;
} opt;

static struct compiler *compilers;
static size_t ncompilers;
static struct build builds[MAX_BUILDS];
static size_t nbuilds;
static struct row *rows;
static size_t nrows;
static char *top_builddir, *top_srcdir;


static void
usage (FILE *fp)
{
  fputs ("Usage: buildmatrix [OPTIONS]\n"
         "Build this tree with several compilers and flags, out of tree,\n"
         "check each build's known answers, and measure them side by side:\n"
         "cipherbench (CFB, 16 KiB) and the sfenc pipe (-z 0 -c, user time).\n"
         "\n"
         "  --dir DIR          where the copy of the sources and the builds go\n"
         "                     (default: BUILDDIR/buildmatrix; for a build in\n"
         "                     the source tree, $TMPDIR/sfenc-buildmatrix)\n"
         "  --cc CC            also build with CC (repeatable)\n"
         "  --no-discover      leave out the gcc-N and clang-N found in PATH\n"
         "  --variants LIST    O2, native (-O3 -march=native), lto, pgo\n"
         "                     (default: all)\n"
         "  --cflags FLAGS     also build with CFLAGS=FLAGS (repeatable)\n"
         "  --quick            a small matrix, short samples: the default\n"
         "                     compiler -O2 and PGO, one of the other family -O2\n"
         "  --list             print the builds of the matrix and exit\n"
         "  --measure-only     measure the builds an earlier run left in DIR\n"
         "  --algo LIST        algorithms (default: every one sfenc lists\n"
         "                     with an OpenPGP id)\n"
         "  --runs N           rounds, median reported (default 5)\n"
         "  --seconds S        cipherbench CPU seconds per sample (default 0.1)\n"
         "  --sizes LIST       buffer sizes of the PGO table\n"
         "                     (default 16,64,256,1024,8192,16384)\n"
         "  --pipe-seconds S   user seconds of sfenc per pipe run (default 0.5)\n"
         "  --jobs N           make -jN (default: the number of CPUs)\n"
         "  --format FMT       text (default), markdown, csv, json or html\n"
         "  --save PREFIX      also write PREFIX.txt, .md, .csv, .json, .html\n"
         "  --plot FILE        draw a chart, FILE.svg or FILE.png (gnuplot)\n"
         "  --help             this text\n"
         "Exit status: 0, every build measured; 1, a build failed (the\n"
         "report says which and why); 2, buildmatrix itself failed.\n", fp);
}


/* Progress: one line rewritten in place on a terminal, else a line per
 * step for logs.  */
static int progress_tty = -1;

static void
progress (const char *fmt, ...)
{
  va_list ap;

  if (progress_tty < 0)
    progress_tty = isatty (2);
  fprintf (stderr, "%s%s: ", progress_tty ? "\r\033[K" : "", bench_progname);
  va_start (ap, fmt);
  vfprintf (stderr, fmt, ap);
  va_end (ap);
  if (!progress_tty)
    fputc ('\n', stderr);
  fflush (stderr);
}

static void
progress_end (void)
{
  if (progress_tty > 0)
    fputs ("\r\033[K", stderr);
}


/* Run ARGV (argv[0] looked up as the shell does) in directory DIR (NULL:
 * here) with its output on OUT_FD and its errors on ERR_FD (-1:
 * /dev/null).  Returns 0 when it exited with status 0.  */
static int
run_fd (const char *dir, char *const *argv, int out_fd, int err_fd)
{
  struct bench_usage u;
  double start;
  int here = -1, pid;

  if (dir)
    {
      here = open (".", O_RDONLY | O_DIRECTORY);
      if (here < 0 || chdir (dir))
        bench_die (dir, strerror (errno));
    }
  pid = bench_spawn (argv, -1, out_fd, err_fd, NULL, &start);
  if (pid < 0 && err_fd >= 0)
    dprintf (err_fd, "%s: cannot run %s: %s\n", bench_progname, argv[0],
             strerror (errno));
  if (here >= 0)
    {
      if (fchdir (here))
        bench_die ("fchdir", strerror (errno));
      close (here);
    }
  return pid < 0 ? -1 : bench_wait (pid, start, &u);
}

static int
open_log (const char *log)
{
  int fd = open (log, O_WRONLY | O_CREAT | O_APPEND, 0644);

  if (fd < 0)
    bench_die (log, strerror (errno));
  return fd;
}

/* Run ARGV in DIR with its output and errors appended to the file LOG.  */
static int
run_logged (const char *dir, char *const *argv, const char *log)
{
  int fd = open_log (log), rc, i;

  dprintf (fd, "\n$");
  for (i = 0; argv[i]; i++)
    dprintf (fd, " %s", argv[i]);
  dprintf (fd, "\n");
  rc = run_fd (dir, argv, fd, fd);
  close (fd);
  return rc;
}

/* Run ARGV and return what it printed, or NULL when it failed; its
 * errors are appended to LOG (NULL: thrown away).  */
static char *
capture (char *const *argv, const char *log)
{
  const char *tmpdir = getenv ("TMPDIR");
  char *name = bench_xasprintf ("%s/buildmatrix.XXXXXX",
                                tmpdir && *tmpdir ? tmpdir : "/tmp");
  int fd = mkstemp (name), err_fd = log ? open_log (log) : -1;
  char *text = NULL;
  off_t size;
  int rc;

  if (fd < 0)
    bench_die (name, strerror (errno));
  unlink (name);
  rc = run_fd (NULL, argv, fd, err_fd);
  if (err_fd >= 0)
    close (err_fd);
  size = lseek (fd, 0, SEEK_END);
  if (!rc && size >= 0)
    {
      text = bench_xcalloc ((size_t) size + 1, 1);
      if (pread (fd, text, (size_t) size, 0) != size)
        bench_die (name, strerror (errno));
    }
  close (fd);
  free (name);
  return text;
}

/* The whole file NAME as a string, or NULL.  */
static char *
read_file (const char *name)
{
  FILE *fp = fopen (name, "r");
  char *text = NULL;
  size_t len = 0, got;
  char buf[4096];

  if (!fp)
    return NULL;
  while ((got = fread (buf, 1, sizeof buf, fp)) > 0)
    {
      text = bench_xrealloc (text, len + got + 1, 1);
      memcpy (text + len, buf, got);
      len += got;
    }
  fclose (fp);
  if (text)
    text[len] = 0;
  return text ? text : bench_xstrdup ("");
}

static void
remove_tree (const char *path)
{
  char *argv[] = { "rm", "-rf", (char *) path, NULL };

  if (run_fd (NULL, argv, -1, 2))
    bench_die (path, "cannot remove it");
}

/* Free what add_compiler gave C.  */
static void
free_compiler (struct compiler *c)
{
  free (c->name);
  free (c->cc);
  free (c->real);
  free (c->version_text);
}

static char *
xrealpath (const char *path)
{
  char *real = realpath (path, NULL);

  if (!real)
    bench_die (path, strerror (errno));
  return real;
}

/* Whether PATH is DIR or inside it (both canonical).  */
static int
inside (const char *path, const char *dir)
{
  size_t n = strlen (dir);

  return !strncmp (path, dir, n) && (path[n] == '/' || !path[n]);
}

/* The path of TO relative to the directory FROM, both canonical.  */
static char *
relative_path (const char *from, const char *to)
{
  size_t common = 0, ups = 0, i;
  const char *rest;
  char *rel;

  /* The end of the longest leading directory they share.  */
  for (i = 0; from[i] && from[i] == to[i]; i++)
    if (from[i] == '/')
      common = i;
  if (!from[i] && (to[i] == '/' || !to[i]))
    common = i;
  for (i = common; from[i]; i++)
    ups += from[i] == '/';
  rest = to[common] == '/' ? to + common + 1 : to + common;
  rel = bench_xcalloc (3 * ups + strlen (rest) + 2, 1);
  for (i = 0; i < ups; i++)
    strcat (rel, "../");
  strcat (rel, *rel || *rest ? rest : ".");
  return rel;
}

/* The line of a failed step's LOG that says what went wrong: the first
 * with "error:" in it (configure's, the compiler's), else the last.  */
static char *
failure_line (const char *log)
{
  char *text = read_file (log), *line, *save = NULL, *found = NULL;

  if (!text)
    return bench_xstrdup ("(no log)");
  for (line = strtok_r (text, "\n", &save); line;
       line = strtok_r (NULL, "\n", &save))
    {
      if (strstr (line, "error:"))
        {
          found = line;
          break;
        }
      if (line[strspn (line, " \t")])
        found = line;
    }
  found = bench_xstrdup (found ? found : "(empty log)");
  free (text);
  return found;
}


/* Compilers.  */

/* The value of the integer macro NAME in the -dM listing TEXT, or -1.  */
static int
macro_value (const char *text, const char *name)
{
  char *key = bench_xasprintf ("#define %s ", name);
  const char *p = strstr (text, key);
  int v = p ? atoi (p + strlen (key)) : -1;

  free (key);
  return v;
}

/* Ask C->cc what it is.  Returns 0 when it answered like a C compiler.  */
static int
probe_compiler (struct compiler *c)
{
  char *argv[] = { c->cc, "-E", "-dM", "-x", "c", "/dev/null", NULL };
  char *text = capture (argv, NULL);
  static const char *const macros[][3] =
    {
      { "__GNUC__", "__GNUC_MINOR__", "__GNUC_PATCHLEVEL__" },
      { "__clang_major__", "__clang_minor__", "__clang_patchlevel__" }
    };
  int i;

  if (!text || !strstr (text, "#define __STDC__ 1"))
    {
      free (text);
      return -1;
    }
  c->family = strstr (text, "#define __clang__ ") ? F_CLANG
    : strstr (text, "#define __GNUC__ ") ? F_GCC : F_OTHER;
  for (i = 0; i < 3; i++)
    c->version[i] = c->family == F_OTHER ? 0
      : macro_value (text, macros[c->family][i]);
  c->version_text = c->family == F_OTHER ? bench_xstrdup ("unknown")
    : bench_xasprintf ("%s %d.%d.%d", family_names[c->family],
                       c->version[0], c->version[1], c->version[2]);
  free (text);
  return 0;
}

/* Add the compiler CC (a name in PATH or a path).  GIVEN: named by
 * --cc, so that a problem with it is an error, not a skip.  */
static void
add_compiler (const char *cc, int given)
{
  char *file = bench_find_program (cc);
  const char *base = strrchr (cc, '/');
  struct compiler c;
  size_t i;

  if (!file)
    {
      if (given)
        bench_die (cc, "--cc: no such program");
      return;
    }
  memset (&c, 0, sizeof c);
  c.real = xrealpath (file);
  free (file);
  c.name = bench_xstrdup (base ? base + 1 : cc);
  c.cc = bench_xstrdup (cc);
  for (i = 0; i < ncompilers; i++)
    {
      /* The same compiler under another name (gcc and gcc-12) once.  */
      if (!strcmp (compilers[i].real, c.real))
        {
          free_compiler (&c);
          return;
        }
      /* The first in PATH, as the shell would run it.  */
      if (!strcmp (compilers[i].name, c.name))
        {
          if (given)
            bench_die (cc, "--cc: another compiler has the same name");
          free_compiler (&c);
          return;
        }
    }
  if (probe_compiler (&c))
    {
      if (given)
        bench_die (cc, "--cc: not a working C compiler");
      free_compiler (&c);
      return;
    }
  compilers = bench_xrealloc (compilers, ncompilers + 1, sizeof *compilers);
  compilers[ncompilers++] = c;
}

/* gcc-N and clang-N: the names Debian (and most systems) give the
 * compilers of each version, where plain gcc and clang are one of them.  */
static int
versioned_compiler_name (const char *s)
{
  const char *digits = !strncmp (s, "gcc-", 4) ? s + 4
    : !strncmp (s, "clang-", 6) ? s + 6 : NULL;

  return digits && *digits && strspn (digits, "0123456789") == strlen (digits);
}

static int
compare_names (const void *a, const void *b)
{
  return strcmp (*(char *const *) a, *(char *const *) b);
}

/* Every gcc-N and clang-N in PATH, in PATH order.  */
static void
discover_compilers (void)
{
  const char *path = getenv ("PATH");
  char *copy = bench_xstrdup (path ? path : "/usr/bin:/bin");
  char *dir, *save = NULL;

  for (dir = strtok_r (copy, ":", &save); dir;
       dir = strtok_r (NULL, ":", &save))
    {
      DIR *d = opendir (dir);
      struct dirent *e;
      char **names = NULL;
      size_t n = 0, i;

      if (!d)
        continue;
      while ((e = readdir (d)))
        if (versioned_compiler_name (e->d_name))
          {
            names = bench_xrealloc (names, n + 1, sizeof *names);
            names[n++] = bench_xasprintf ("%s/%s", dir, e->d_name);
          }
      closedir (d);
      /* qsort's array must not be NULL, even when empty (C11 7.22.5).  */
      if (n)
        qsort (names, n, sizeof *names, compare_names);
      for (i = 0; i < n; i++)
        {
          add_compiler (names[i], 0);
          free (names[i]);
        }
      free (names);
    }
  free (copy);
}

static int
compare_compilers (const void *a, const void *b)
{
  const struct compiler *x = a, *y = b;
  int i;

  if (x->is_default != y->is_default)
    return y->is_default - x->is_default;
  if (x->family != y->family)
    return x->family - y->family;
  for (i = 0; i < 3; i++)
    if (x->version[i] != y->version[i])
      return x->version[i] - y->version[i];
  return strcmp (x->name, y->name);
}

/* Find the compilers, the one ./configure picks by default (gcc, else
 * cc) first.  */
static void
find_compilers (void)
{
  const char *def_name = "gcc";
  char *def = bench_find_program (def_name);
  size_t i;

  if (!def)
    def = bench_find_program (def_name = "cc");
  if (def)
    {
      char *real = xrealpath (def);

      free (def);
      def = real;
    }
  if (opt.discover)
    {
      discover_compilers ();
      /* The default build is in the matrix even where the default
       * compiler has no versioned name.  */
      for (i = 0; def && i < ncompilers && strcmp (compilers[i].real, def);
           i++)
        ;
      if (def && i == ncompilers)
        add_compiler (def_name, 0);
    }
  for (i = 0; i < opt.nccs; i++)
    add_compiler (opt.ccs[i], 1);
  if (!ncompilers)
    bench_die ("no compiler", "no gcc-N or clang-N in PATH; give --cc CC");
  for (i = 0; def && i < ncompilers; i++)
    compilers[i].is_default = !strcmp (compilers[i].real, def);
  free (def);
  qsort (compilers, ncompilers, sizeof *compilers, compare_compilers);
  if (opt.quick && ncompilers > 1)
    {
      /* The first, and the newest of the other family.  */
      size_t other = 0;

      for (i = 1; i < ncompilers; i++)
        if (compilers[i].family != compilers[0].family
            && compilers[i].family != F_OTHER)
          other = i;
      for (i = 1; i < ncompilers; i++)
        if (i != other)
          free_compiler (&compilers[i]);
      if (other)
        compilers[1] = compilers[other];
      ncompilers = other ? 2 : 1;
    }
}


/* The matrix.  */

static void
add_build (const struct compiler *cc, const struct variant *v)
{
  struct build *b;

  if (nbuilds == MAX_BUILDS)
    bench_die ("too many builds", "at most 48; use --variants or --no-discover");
  b = &builds[nbuilds++];
  b->cc = cc;
  b->variant = v;
  b->id = bench_xasprintf ("%s-%s", cc->name, v->id);
  b->state = B_PLANNED;
  b->seconds = NAN;
}

static void
plan_builds (void)
{
  size_t c, v;

  for (c = 0; c < ncompilers; c++)
    {
      for (v = 0; v < N_STD_VARIANTS; v++)
        /* --quick tries the other variants with the first compiler only.  */
        if (opt.variant_on[v] && !(opt.quick && c && &std_variants[v] != V_O2))
          add_build (&compilers[c], &std_variants[v]);
      for (v = 0; v < opt.ncflags && !(opt.quick && c); v++)
        {
          struct variant *custom = bench_xcalloc (1, sizeof *custom);

          custom->id = bench_xasprintf ("cflags%zu", v + 1);
          custom->cflags = opt.cflags[v];
          add_build (&compilers[c], custom);
        }
    }
  if (!nbuilds)
    bench_die ("--variants", "no build left to make");
}

/* The PGO table compares the -O2 and PGO builds of each compiler at
 * every size: where both are good, both are measured at every size.  */
static void
choose_sweeps (void)
{
  size_t i, j;

  for (i = 0; i < nbuilds; i++)
    for (j = 0; j < nbuilds; j++)
      if (builds[i].cc == builds[j].cc && builds[i].variant == V_O2
          && builds[j].variant == V_PGO && builds[i].state == B_OK
          && builds[j].state == B_OK)
        builds[i].sweep = builds[j].sweep = 1;
}

/* The build the others are compared with: -O2 with the compiler
 * ./configure picks, else the first good one.  */
static struct build *
reference_build (void)
{
  size_t i;

  for (i = 0; i < nbuilds; i++)
    if (builds[i].state == B_OK && builds[i].cc->is_default
        && builds[i].variant == V_O2)
      return &builds[i];
  for (i = 0; i < nbuilds; i++)
    if (builds[i].state == B_OK)
      return &builds[i];
  return NULL;
}


/* Building.  */

static char *
build_path (const struct build *b, const char *file)
{
  return bench_xasprintf ("%s/%s", b->dir, file);
}

static void
write_status (const struct build *b)
{
  char *name = build_path (b, "buildmatrix-status");
  FILE *fp = fopen (name, "w");

  if (!fp)
    bench_die (name, strerror (errno));
  fprintf (fp, "%s\n%.1f\n%s\n", state_names[b->state], b->seconds,
           b->why ? b->why : "");
  if (fclose (fp))
    bench_die (name, strerror (errno));
  free (name);
}

/* For --measure-only: what the earlier run found.  */
static void
read_status (struct build *b)
{
  char *name = build_path (b, "buildmatrix-status");
  char *text = read_file (name), *line, *save = NULL;
  size_t s;

  b->state = B_NOT_BUILT;
  line = text ? strtok_r (text, "\n", &save) : NULL;
  for (s = 0; line && s < N_STATES; s++)
    if (!strcmp (line, state_names[s]))
      {
        b->state = (enum build_state) s;
        line = strtok_r (NULL, "\n", &save);
        b->seconds = line ? atof (line) : NAN;
        line = strtok_r (NULL, "\n", &save);
        b->why = line ? bench_xstrdup (line) : NULL;
        break;
      }
  /* A build that failed to measure is measured again.  */
  if (b->state == B_MEASURE_FAILED)
    {
      b->state = B_OK;
      free (b->why);
      b->why = NULL;
    }
  free (text);
  free (name);
}

/* The gate tests of B that did not pass, space separated, and what
 * the first of them said first; NULL when all passed.  */
static char *
failed_gate_tests (const struct build *b)
{
  char *failed = NULL, *said = NULL;
  size_t i;

  for (i = 0; i < N_GATE_TESTS; i++)
    {
      char *trs_name = bench_xasprintf ("%s/tests/%s.trs", b->dir,
                                        gate_tests[i]);
      char *trs = read_file (trs_name);

      if (!trs || !strstr (trs, ":test-result: PASS"))
        {
          char *more = bench_xasprintf ("%s%s%s", failed ? failed : "",
                                        failed ? " " : "", gate_tests[i]);

          free (failed);
          failed = more;
          if (!said)
            {
              char *log = bench_xasprintf ("%s/tests/%s.log", b->dir,
                                           gate_tests[i]);
              char *text = read_file (log), *save = NULL, *line, *first;

              /* The first line that tells a failure, else the first.  */
              first = line = text ? strtok_r (text, "\n", &save) : NULL;
              while (line && !strcasestr (line, "fail"))
                line = strtok_r (NULL, "\n", &save);
              said = bench_xasprintf ("%s: %s", gate_tests[i],
                                      line ? line : first ? first
                                      : "(no log)");
              free (text);
              free (log);
            }
        }
      free (trs);
      free (trs_name);
    }
  if (failed)
    {
      char *both = bench_xasprintf ("%s (%s)", failed, said);

      free (failed);
      free (said);
      failed = both;
    }
  return failed;
}

/* "VAR=t-kat t-modes ...": the gate tests as a make variable.  */
static char *
gate_list (const char *var)
{
  char *list = bench_xstrdup (var);
  size_t i;

  for (i = 0; i < N_GATE_TESTS; i++)
    {
      char *more = bench_xasprintf ("%s%s%s", list, i ? " " : "",
                                    gate_tests[i]);

      free (list);
      list = more;
    }
  return list;
}

static void
make_build (struct build *b, size_t index, const char *src)
{
  char *log = build_path (b, "buildmatrix.log");
  char *configure = bench_xasprintf ("%s/configure", src);
  char *cc = bench_xasprintf ("CC=%s", b->cc->cc);
  char *cflags = bench_xasprintf ("CFLAGS=%s", b->variant->cflags);
  char *jobs = bench_xasprintf ("-j%d", opt.jobs);
  char *configure_argv[] = { configure, cc, cflags,
                             (char *) b->variant->option, NULL };
  char *make_argv[] = { "make", jobs, NULL };
  char *tests = gate_list ("TESTS=");
  char *programs = gate_list ("check_PROGRAMS=");
  /* Only the programs of the gate, not every test's.  */
  char *check_argv[] = { "make", jobs, "-C", "tests", "check", tests,
                         programs, NULL };
  double start = bench_now ();

  remove_tree (b->dir);
  if (mkdir (b->dir, 0755))
    bench_die (b->dir, strerror (errno));
  progress ("[%zu/%zu] %s: configure", index + 1, nbuilds, b->id);
  if (run_logged (b->dir, configure_argv, log))
    b->state = B_CONFIGURE_FAILED;
  else
    {
      progress ("[%zu/%zu] %s: make%s", index + 1, nbuilds, b->id,
                b->variant == V_PGO ? " (instrumented, training, with the profile)"
                : "");
      if (run_logged (b->dir, make_argv, log))
        b->state = B_BUILD_FAILED;
      else
        {
          progress ("[%zu/%zu] %s: known-answer tests", index + 1, nbuilds,
                    b->id);
          run_logged (b->dir, check_argv, log);
          b->why = failed_gate_tests (b);
          b->state = b->why ? B_KAT_FAILED : B_OK;
        }
    }
  if (b->state == B_CONFIGURE_FAILED || b->state == B_BUILD_FAILED)
    b->why = failure_line (log);
  b->seconds = bench_now () - start;
  write_status (b);
  free (log);
  free (configure);
  free (cc);
  free (cflags);
  free (jobs);
  free (tests);
  free (programs);
}

/* PATH made absolute and canonical; only its parent need exist.  */
static char *
canonical_path (const char *path)
{
  char *copy = bench_xstrdup (path), *slash, *parent, *whole;
  size_t n = strlen (copy);

  while (n > 1 && copy[n - 1] == '/')
    copy[--n] = 0;
  slash = strrchr (copy, '/');
  if (slash)
    *slash = 0;
  parent = xrealpath (!slash ? "." : slash == copy ? "/" : copy);
  whole = bench_xasprintf ("%s/%s", strcmp (parent, "/") ? parent : "",
                           slash ? slash + 1 : copy);
  free (parent);
  free (copy);
  return whole;
}

/* DIR: refused if it lies in the source tree or holds anything but an
 * earlier run's work, else made if need be.  */
static void
prepare_dir (void)
{
  char *marker, *real = canonical_path (opt.dir);
  DIR *d;
  struct dirent *e;
  int empty = 1;

  free (opt.dir);
  opt.dir = real;
  if (inside (opt.dir, top_srcdir)
      && !(strcmp (top_builddir, top_srcdir) && inside (opt.dir, top_builddir)))
    bench_die (opt.dir, "in the source tree; give --dir elsewhere");
  if (mkdir (opt.dir, 0755) && errno != EEXIST)
    bench_die (opt.dir, strerror (errno));
  marker = bench_xasprintf ("%s/.buildmatrix", opt.dir);
  if (access (marker, F_OK))
    {
      int fd;

      d = opendir (opt.dir);
      if (!d)
        bench_die (opt.dir, strerror (errno));
      while ((e = readdir (d)))
        if (strcmp (e->d_name, ".") && strcmp (e->d_name, ".."))
          empty = 0;
      closedir (d);
      if (!empty)
        bench_die (opt.dir, "not empty and not made by buildmatrix;"
                   " give another --dir");
      if (opt.measure_only)
        bench_die (opt.dir, "--measure-only: no earlier run here");
      fd = open (marker, O_WRONLY | O_CREAT | O_TRUNC, 0644);
      if (fd < 0)
        bench_die (marker, strerror (errno));
      dprintf (fd, "Made by buildmatrix: a copy of the sources (src) and"
               " one build per directory.\n");
      close (fd);
    }
  free (marker);
}

/* Copy the sources into DIR/src with make distdir, run in the tree
 * buildmatrix was built in.  Returns the copy's path.  */
static char *
copy_sources (void)
{
  char *src = bench_xasprintf ("%s/src", opt.dir);
  char *log = bench_xasprintf ("%s/distdir.log", opt.dir);
  /* distdir is relative to the top build directory: the subdirectories'
   * rules do not work with an absolute one.  */
  char *rel = relative_path (top_builddir, src);
  char *distdir = bench_xasprintf ("distdir=%s", rel);
  char *argv[] = { "make", "-C", top_builddir, "distdir", distdir, NULL };

  remove_tree (src);
  unlink (log);
  progress ("copying the sources into %s (make distdir)", src);
  if (run_logged (NULL, argv, log))
    bench_die ("make distdir", "failed; see the log in --dir");
  free (log);
  free (rel);
  free (distdir);
  return src;
}


/* Measuring.  */

/* The row of these figures, made when it is the first.  */
static struct row *
find_row (const char *algo, const char *impl, const char *mode, size_t bytes)
{
  size_t i;

  for (i = 0; i < nrows; i++)
    if (!strcmp (rows[i].algo, algo) && !strcmp (rows[i].impl, impl)
        && !strcmp (rows[i].mode, mode) && rows[i].bytes == bytes)
      return &rows[i];
  rows = bench_xrealloc (rows, nrows + 1, sizeof *rows);
  memset (&rows[nrows], 0, sizeof *rows);
  rows[nrows].algo = bench_xstrdup (algo);
  rows[nrows].impl = bench_xstrdup (impl);
  rows[nrows].mode = bench_xstrdup (mode);
  rows[nrows].bytes = bytes;
  return &rows[nrows++];
}

static void
add_sample (struct samples *s, double v)
{
  s->v = bench_xrealloc (s->v, s->n + 1, sizeof *s->v);
  s->v[s->n++] = v;
}

static double
median_of (const struct samples *s)
{
  double *copy, m;

  if (!s->n)
    return NAN;
  copy = bench_xcalloc (s->n, sizeof *copy);
  memcpy (copy, s->v, s->n * sizeof *copy);
  m = bench_median (copy, s->n);
  free (copy);
  return m;
}

/* A CSV table of cipherbench or sfbench: the header's fields and the
 * data lines up to the empty line that ends the table.  */
struct csv
{
  char *fields[64];
  int nfields;
  char **lines;                 /* NULL-terminated, in the text.  */
};

/* Split LINE in place at each SEP into at most MAX FIELDS; returns
 * their number.  (Neither cipherbench nor sfbench quotes a field.)  */
static int
split_fields (char *line, int sep, char **fields, int max)
{
  int n = 0;

  fields[n++] = line;
  for (; *line && n < max; line++)
    if (*line == sep)
      {
        *line = 0;
        fields[n++] = line + 1;
      }
  return n;
}

/* The table of TEXT (modified) whose header has the field WANT.  */
static int
find_csv_table (char *text, const char *want, struct csv *t)
{
  char *p = text;
  int header = 1, found = 0, i;
  size_t n = 0;

  t->lines = bench_xcalloc (strlen (text) / 2 + 2, sizeof *t->lines);
  while (p && *p)
    {
      char *end = strchr (p, '\n'), *line = p;

      if (end)
        *end = 0;
      p = end ? end + 1 : NULL;
      if (!*line)
        {
          if (found)
            break;
          header = 1;
          continue;
        }
      if (header)
        {
          header = 0;
          t->nfields = split_fields (line, ',', t->fields, 64);
          for (i = 0; i < t->nfields && !found; i++)
            found = !strcmp (t->fields[i], want);
        }
      else if (found)
        t->lines[n++] = line;
    }
  return found ? 0 : -1;
}

static int
csv_column (const struct csv *t, const char *name)
{
  int i;

  for (i = 0; i < t->nfields; i++)
    if (!strcmp (t->fields[i], name))
      return i;
  bench_die (name, "column missing in the output of cipherbench or sfbench");
}

static void
measure_failed (struct build *b, const char *what)
{
  b->state = B_MEASURE_FAILED;
  b->why = bench_xasprintf ("%s failed; see %s/measure.log", what, b->dir);
  write_status (b);
}

/* One cipherbench sample of ALGO by build number K.  */
static void
measure_cipherbench (size_t k, const char *algo)
{
  struct build *b = &builds[k];
  char *prog = build_path (b, "tools/cipherbench");
  char *log = build_path (b, "measure.log");
  char *seconds = bench_xasprintf ("%g", opt.seconds);
  char *argv[] = { prog, "--algo", (char *) algo, "--mode", "cfb-enc,cfb-dec",
                   "--size", b->sweep ? opt.sizes_text
                   : (char *) MATRIX_BYTES_TEXT,
                   "--runs", "1", "--seconds", seconds, "--no-openssl",
                   "--no-auto-modules", "--format", "csv", NULL };
  char *text = capture (argv, log);
  struct csv t;
  int c_algo, c_impl, c_mode, c_bytes, c_mibs;
  size_t i;

  if (!text || find_csv_table (text, "mibs", &t))
    measure_failed (b, "cipherbench");
  else
    {
      c_algo = csv_column (&t, "algo");
      c_impl = csv_column (&t, "impl");
      c_mode = csv_column (&t, "mode");
      c_bytes = csv_column (&t, "bytes");
      c_mibs = csv_column (&t, "mibs");
      for (i = 0; t.lines[i]; i++)
        {
          char *f[64];
          int n = split_fields (t.lines[i], ',', f, 64);
          double mibs;

          if (n != t.nfields)
            continue;
          mibs = strtod (f[c_mibs], NULL);
          if (mibs > 0)
            add_sample (&find_row (f[c_algo], f[c_impl], f[c_mode],
                                   strtoul (f[c_bytes], NULL, 10))->s[k],
                        mibs);
        }
      free (t.lines);
    }
  free (text);
  free (prog);
  free (log);
  free (seconds);
}

/* Run build B's sfenc on a pipe of MIB MiB of ALGO, once with the input
 * and once with an empty one, through sfbench.  Returns 0 and the user
 * seconds of both, and the implementation sfenc ran.  */
static int
pipe_sample (struct build *b, const char *algo, int mib, double *r_data,
             double *r_empty, char **r_impl)
{
  char *prog = build_path (b, "tools/sfbench");
  char *sfenc = build_path (b, "g10/sfenc");
  char *log = build_path (b, "measure.log");
  char *size = bench_xasprintf ("%d", mib);
  char *argv[] = { prog, "--sfenc", sfenc, "--algo", (char *) algo,
                   "--size", size, "--runs", "1", "--no-decrypt", "--no-gpg",
                   "--no-openssl", "--no-rnp", "--format", "csv", NULL };
  char *text = capture (argv, log);
  struct csv t;
  int c_impl, c_input, c_user, found = 0;
  size_t i;

  if (text && !find_csv_table (text, "input", &t))
    {
      c_impl = csv_column (&t, "impl");
      c_input = csv_column (&t, "input");
      c_user = csv_column (&t, "user_s");
      for (i = 0; t.lines[i]; i++)
        {
          char *f[64];

          if (split_fields (t.lines[i], ',', f, 64) != t.nfields)
            continue;
          if (!strcmp (f[c_input], "data"))
            {
              *r_data = strtod (f[c_user], NULL);
              *r_impl = bench_xstrdup (f[c_impl]);
              found |= 1;
            }
          else if (!strcmp (f[c_input], "empty"))
            {
              *r_empty = strtod (f[c_user], NULL);
              found |= 2;
            }
        }
      free (t.lines);
    }
  free (text);
  free (prog);
  free (sfenc);
  free (log);
  free (size);
  return found == 3 ? 0 : -1;
}

/* How many MiB make a pipe run of about --pipe-seconds of user time
 * beyond the fixed cost (the S2K, start-up), on build K: the pipe rates
 * range from 3DES's tens of MiB/s to AES's hundreds.  0 when the build
 * failed.  */
static int
pipe_size (size_t k, const char *algo)
{
  double data, empty, net = 0;
  char *impl;
  int mib;

  /* Grow the run until its net time is long enough to scale from (a
   * quarter of the aim, or 50 ms: the kernel splits CPU time into user
   * and system by the scheduler tick), then scale it.  */
  for (mib = 4; ; mib *= 4)
    {
      if (pipe_sample (&builds[k], algo, mib, &data, &empty, &impl))
        {
          measure_failed (&builds[k], "sfbench");
          return 0;
        }
      free (impl);
      net = data - empty;
      if (net >= opt.pipe_seconds / 4 || net >= 0.05 || mib >= 1024)
        break;
    }
  mib = (int) ceil (mib * opt.pipe_seconds / (net > 0.004 ? net : 0.004));
  return mib < 1 ? 1 : mib > 2048 ? 2048 : mib;
}

static void
measure_pipe (size_t k, const char *algo, int mib)
{
  double data, empty;
  char *impl;
  struct row *row;

  if (pipe_sample (&builds[k], algo, mib, &data, &empty, &impl))
    {
      measure_failed (&builds[k], "sfbench");
      return;
    }
  row = find_row (algo, impl, "pipe", 0);
  row->pipe_mib = mib;
  add_sample (&row->s[k], data);
  add_sample (&row->empty[k], empty);
  free (impl);
}


/* Whether the --with-colons line fields F (cipher:NAME:ALIASES:...)
 * name the algorithm WANT.  */
static int
names_algorithm (char **f, const char *want)
{
  char *aliases = bench_xstrdup (f[2]), *alias, *save = NULL;
  int match = !strcasecmp (f[1], want);

  for (alias = strtok_r (aliases, ",", &save); alias && !match;
       alias = strtok_r (NULL, ",", &save))
    match = !strcasecmp (alias, want);
  free (aliases);
  return match;
}

/* The algorithms to measure, by their canonical names: those of --algo
 * (names or aliases), else every one sfenc lists with an OpenPGP id.
 * The sfenc built with buildmatrix knows them before any build is made.  */
static char **
algorithms (size_t *r_n)
{
  char *sfenc = bench_xasprintf ("%s/g10/sfenc", top_builddir);
  char *argv[] = { sfenc, "--list-ciphers", "--with-colons", NULL };
  char *text = capture (argv, NULL), *line, *save = NULL;
  char **names, **wanted = opt.algos;
  char *(*lines)[5];
  size_t nlines = 0, n = 0, i, j;

  if (!text)
    bench_die (sfenc, "--list-ciphers failed");
  lines = bench_xcalloc (strlen (text) + 1, sizeof *lines);
  names = bench_xcalloc (strlen (text) + 1, sizeof *names);
  for (line = strtok_r (text, "\n", &save); line;
       line = strtok_r (NULL, "\n", &save))
    /* cipher:NAME:ALIASES:OPENPGP-ID:...  */
    if (split_fields (line, ':', lines[nlines], 5) == 5
        && !strcmp (lines[nlines][0], "cipher"))
      nlines++;
  /* The names point into the listing, which is kept.  */
  for (i = 0; i < nlines; i++)
    if (*lines[i][3] || wanted)
      {
        for (j = 0; wanted && wanted[j]; j++)
          if (names_algorithm (lines[i], wanted[j]))
            break;
        if (wanted && !wanted[j])
          continue;
        for (j = 0; j < n && strcmp (names[j], lines[i][1]); j++)
          ;
        if (j == n)
          names[n++] = lines[i][1];
      }
  for (j = 0; wanted && wanted[j]; j++)
    {
      for (i = 0; i < nlines && !names_algorithm (lines[i], wanted[j]); i++)
        ;
      if (i == nlines)
        bench_die (wanted[j], "--algo: unknown algorithm"
                   " (see sfenc --list-ciphers)");
    }
  free (lines);
  free (sfenc);
  *r_n = n;
  return names;
}

/* Measure every good build, one algorithm at a time: in each of --runs
 * rounds every build runs once, in an order rotated round by round so
 * that none is always first.  */
static void
measure (char **algos, size_t nalgos)
{
  size_t a, j, k;
  int r, mib;

  for (a = 0; a < nalgos; a++)
    {
      /* The pipe run is sized once, on the first good build.  */
      for (mib = 0, k = 0; k < nbuilds && !mib; k++)
        if (builds[k].state == B_OK)
          {
            progress ("%s (%zu/%zu): sizing the pipe run on %s", algos[a],
                      a + 1, nalgos, builds[k].id);
            mib = pipe_size (k, algos[a]);
          }
      for (r = 0; r < opt.runs; r++)
        for (j = 0; j < nbuilds; j++)
          {
            k = (j + r) % nbuilds;
            if (builds[k].state != B_OK)
              continue;
            progress ("%s (%zu/%zu), round %d/%d: %s", algos[a], a + 1,
                      nalgos, r + 1, opt.runs, builds[k].id);
            measure_cipherbench (k, algos[a]);
            if (builds[k].state == B_OK && mib)
              measure_pipe (k, algos[a], mib);
          }
    }
}


/* The figures.  */

enum row_set { ROWS_MATRIX, ROWS_CONTROL, ROWS_PIPE };

static int
is_pipe (const struct row *r)
{
  return !strcmp (r->mode, "pipe");
}

static int
is_control (const struct row *r)
{
  return !strcmp (r->impl, "gcrypt");
}

/* The matrix: our implementations at 16 KiB.  The control: libgcrypt's
 * code (implementation gcrypt), the same in every build, so that its
 * spread across the builds is the noise of the run.  */
static int
in_set (const struct row *r, enum row_set set)
{
  if (set == ROWS_PIPE)
    return is_pipe (r);
  return !is_pipe (r) && r->bytes == MATRIX_BYTES
    && is_control (r) == (set == ROWS_CONTROL);
}

/* Build K's figure of row R, in MiB/s: the median of cipherbench's, or
 * the size of the pipe run over the median user time net of the
 * median with an empty input.  NaN when K has no good figure.  */
static double
figure (const struct row *r, size_t k)
{
  double net;

  if (builds[k].state != B_OK)
    return NAN;
  if (!is_pipe (r))
    return median_of (&r->s[k]);
  net = median_of (&r->s[k]) - median_of (&r->empty[k]);
  return net > 0 ? r->pipe_mib / net : NAN;
}

/* Whether every good build has a figure in row R: geometric means over
 * the same rows compare.  */
static int
complete (const struct row *r)
{
  size_t k;

  for (k = 0; k < nbuilds; k++)
    if (builds[k].state == B_OK && isnan (figure (r, k)))
      return 0;
  return 1;
}

static double
geomean_of (enum row_set set, size_t k)
{
  struct bench_geomean g = { 0, 0 };
  size_t i;

  for (i = 0; i < nrows; i++)
    if (in_set (&rows[i], set) && complete (&rows[i]))
      bench_geomean_add (&g, figure (&rows[i], k));
  return bench_geomean (&g);
}

static size_t
good_builds (void)
{
  size_t k, n = 0;

  for (k = 0; k < nbuilds; k++)
    n += builds[k].state == B_OK;
  return n;
}

/* One row per build: what it is, how it went, its geometric means
 * (with --list, what it would be).  */
static void
add_builds_table (report_t *rep, const struct build *ref)
{
  report_table_t *tab = report_add_table (rep, "builds", NULL);
  int c_build, c_cc, c_cflags, c_option, c_status, c_secs = 0, c_cfb = 0;
  int c_xcfb = 0, c_pipe = 0, c_xpipe = 0, c_xcontrol = 0;
  size_t k, r = ref ? (size_t) (ref - builds) : 0;

  c_build = report_add_column (tab, "build", "BUILD", REPORT_STR, 0, 0);
  c_cc = report_add_column (tab, "compiler", "COMPILER", REPORT_STR, 0, 0);
  c_cflags = report_add_column (tab, "cflags", "CFLAGS", REPORT_STR, 0, 0);
  c_option = report_add_column (tab, "option", "OPTION", REPORT_STR, 0, 0);
  c_status = report_add_column (tab, "status", "STATUS", REPORT_STR, 0, 0);
  if (!opt.list)
    {
      c_secs = report_add_column (tab, "build_s", "BUILD s", REPORT_NUM,
                                  0, 0);
      c_cfb = report_add_column (tab, "cfb_mibs", "CFB MiB/s", REPORT_NUM,
                                 1, 0);
      c_xcfb = report_add_column (tab, "cfb_ratio", "xdefault",
                                  REPORT_RATIO, 3, 0);
      c_pipe = report_add_column (tab, "pipe_mibs", "pipe MiB/s",
                                  REPORT_NUM, 1, 0);
      c_xpipe = report_add_column (tab, "pipe_ratio", "xdefault",
                                   REPORT_RATIO, 3, 0);
      c_xcontrol = report_add_column (tab, "control_ratio",
                                      "gcrypt xdefault", REPORT_RATIO, 3, 0);
    }
  for (k = 0; k < nbuilds; k++)
    {
      const struct build *b = &builds[k];

      report_add_row (tab);
      report_set_str (tab, c_build, b->id);
      report_set_str (tab, c_cc, b->cc->version_text);
      report_set_str (tab, c_cflags, b->variant->cflags);
      report_set_str (tab, c_option, b->variant->option ? b->variant->option
                      : "");
      report_set_str (tab, c_status, state_names[b->state]);
      if (opt.list)
        continue;
      report_set_num (tab, c_secs, b->seconds);
      if (b->state != B_OK || !ref)
        continue;
      report_set_num (tab, c_cfb, geomean_of (ROWS_MATRIX, k));
      report_set_num (tab, c_xcfb, geomean_of (ROWS_MATRIX, k)
                      / geomean_of (ROWS_MATRIX, r));
      report_set_num (tab, c_pipe, geomean_of (ROWS_PIPE, k));
      report_set_num (tab, c_xpipe, geomean_of (ROWS_PIPE, k)
                      / geomean_of (ROWS_PIPE, r));
      report_set_num (tab, c_xcontrol, geomean_of (ROWS_CONTROL, k)
                      / geomean_of (ROWS_CONTROL, r));
    }
}

/* Set the figures of the last row of TAB, one per build from column
 * FIRST, and mark the highest when it is MARK_BEST and there is a
 * choice.  */
static void
set_build_figures (report_table_t *tab, int first, const double *v,
                   int mark_best)
{
  size_t k, best = nbuilds;

  for (k = 0; k < nbuilds; k++)
    {
      report_set_num (tab, first + (int) k, v[k]);
      if (!isnan (v[k]) && (best == nbuilds || v[k] > v[best]))
        best = k;
    }
  if (mark_best && best < nbuilds && good_builds () > 1)
    report_mark (tab, first + (int) best, "*");
}

/* Algorithms as rows, builds as columns, in MiB/s, the best of each row
 * marked; a geometric-mean row, and for cipherbench the control.  */
static void
add_matrix_table (report_t *rep, enum row_set set)
{
  int pipe = set == ROWS_PIPE;
  report_table_t *tab = report_add_table
    (rep, pipe ? "pipe" : "cipherbench",
     pipe ? "sfenc -z 0 -c on a pipe: MiB/s of user time net of the fixed"
     " cost, per build (*: the fastest)"
     : "cipherbench: MiB/s of CFB on " MATRIX_BYTES_TEXT "-byte buffers,"
     " per build (*: the fastest)");
  int c_algo, c_impl, c_mode = -1, first = 0;
  double v[MAX_BUILDS];
  size_t i, k;

  c_algo = report_add_column (tab, "algo", "ALGO", REPORT_STR, 0, 0);
  c_impl = report_add_column (tab, "impl", "IMPL", REPORT_STR, 0, 0);
  if (!pipe)
    c_mode = report_add_column (tab, "mode", "MODE", REPORT_STR, 0, 0);
  for (k = 0; k < nbuilds; k++)
    {
      int c = report_add_column (tab, builds[k].id, builds[k].id, REPORT_NUM,
                                 1, 0);

      if (!k)
        first = c;
    }
  for (i = 0; i < nrows; i++)
    if (in_set (&rows[i], set))
      {
        report_add_row (tab);
        report_set_str (tab, c_algo, rows[i].algo);
        report_set_str (tab, c_impl, rows[i].impl);
        if (!pipe)
          report_set_str (tab, c_mode, rows[i].mode);
        for (k = 0; k < nbuilds; k++)
          v[k] = figure (&rows[i], k);
        set_build_figures (tab, first, v, 1);
      }
  report_add_row (tab);
  report_set_str (tab, c_algo, "geomean");
  report_set_str (tab, c_impl, "");
  if (!pipe)
    report_set_str (tab, c_mode, "");
  for (k = 0; k < nbuilds; k++)
    v[k] = geomean_of (set, k);
  set_build_figures (tab, first, v, 1);
  if (pipe)
    return;
  report_add_row (tab);
  report_set_str (tab, c_algo, "control");
  report_set_str (tab, c_impl, "gcrypt");
  report_set_str (tab, c_mode, "");
  for (k = 0; k < nbuilds; k++)
    v[k] = geomean_of (ROWS_CONTROL, k);
  set_build_figures (tab, first, v, 0);
}

/* One PGO table row: the ratios of build K1 to build K0 for the rows
 * of SET (all of them, or those like ROW), per size and over all.  */
static void
add_pgo_row (report_table_t *tab, int first, size_t k0, size_t k1,
             enum row_set set, const struct row *like)
{
  struct bench_geomean all = { 0, 0 };
  size_t s, i;

  for (s = 0; s < opt.nsizes; s++)
    {
      struct bench_geomean g = { 0, 0 };

      for (i = 0; i < nrows; i++)
        {
          const struct row *r = &rows[i];

          if (is_pipe (r) || r->bytes != opt.sizes[s]
              || is_control (r) == (set == ROWS_MATRIX)
              || (like && (strcmp (r->algo, like->algo)
                           || strcmp (r->impl, like->impl)
                           || strcmp (r->mode, like->mode))))
            continue;
          bench_geomean_add (&g, figure (r, k1) / figure (r, k0));
        }
      report_set_num (tab, first + (int) s, bench_geomean (&g));
      bench_geomean_add (&all, bench_geomean (&g));
    }
  report_set_num (tab, first + (int) opt.nsizes, bench_geomean (&all));
}

/* PGO / -O2 per algorithm and buffer size, for every compiler with both
 * builds good.  */
static void
add_pgo_table (report_t *rep)
{
  report_table_t *tab = NULL;
  int c_cc = 0, c_algo = 0, c_impl = 0, c_mode = 0, first = 0;
  size_t k0, k1, s, i;

  for (k0 = 0; k0 < nbuilds; k0++)
    for (k1 = 0; k1 < nbuilds; k1++)
      {
        if (builds[k0].cc != builds[k1].cc || builds[k0].variant != V_O2
            || builds[k1].variant != V_PGO || builds[k0].state != B_OK
            || builds[k1].state != B_OK)
          continue;
        if (!tab)
          {
            tab = report_add_table (rep, "pgo", "PGO / -O2 of the same"
                                    " compiler, cipherbench CFB, per buffer"
                                    " size in bytes (above 1.00x: PGO is"
                                    " faster)");
            c_cc = report_add_column (tab, "compiler", "COMPILER",
                                      REPORT_STR, 0, 0);
            c_algo = report_add_column (tab, "algo", "ALGO", REPORT_STR, 0, 0);
            c_impl = report_add_column (tab, "impl", "IMPL", REPORT_STR, 0, 0);
            c_mode = report_add_column (tab, "mode", "MODE", REPORT_STR, 0, 0);
            for (s = 0; s < opt.nsizes; s++)
              {
                char key[32];
                int c;

                snprintf (key, sizeof key, "x%zu", opt.sizes[s]);
                c = report_add_column (tab, key, key + 1, REPORT_RATIO, 2, 0);

                if (!s)
                  first = c;
              }
            report_add_column (tab, "geomean", "geomean", REPORT_RATIO, 3, 0);
          }
        for (i = 0; i < nrows; i++)
          if (in_set (&rows[i], ROWS_MATRIX))
            {
              report_add_row (tab);
              report_set_str (tab, c_cc, builds[k0].cc->name);
              report_set_str (tab, c_algo, rows[i].algo);
              report_set_str (tab, c_impl, rows[i].impl);
              report_set_str (tab, c_mode, rows[i].mode);
              add_pgo_row (tab, first, k0, k1, ROWS_MATRIX, &rows[i]);
            }
        report_add_row (tab);
        report_set_str (tab, c_cc, builds[k0].cc->name);
        report_set_str (tab, c_algo, "geomean");
        report_set_str (tab, c_impl, "");
        report_set_str (tab, c_mode, "");
        add_pgo_row (tab, first, k0, k1, ROWS_MATRIX, NULL);
        report_add_row (tab);
        report_set_str (tab, c_cc, builds[k0].cc->name);
        report_set_str (tab, c_algo, "control");
        report_set_str (tab, c_impl, "gcrypt");
        report_set_str (tab, c_mode, "");
        add_pgo_row (tab, first, k0, k1, ROWS_CONTROL, NULL);
      }
}

/* Grouped bars: one group per row of the matrix and of the pipe, one
 * bar per good build, the speed relative to the reference build.  */
static void
draw (const struct build *ref)
{
  size_t r = (size_t) (ref - builds), ncats = 0, nseries = 0, i, k, s;
  char **cats = bench_xcalloc (nrows, sizeof *cats);
  char **series = bench_xcalloc (nbuilds, sizeof *series);
  double *values = bench_xcalloc (nrows * nbuilds, sizeof *values);
  char *title, *ylabel;

  for (k = 0; k < nbuilds; k++)
    if (builds[k].state == B_OK)
      series[nseries++] = builds[k].id;
  for (i = 0; i < nrows; i++)
    {
      const struct row *row = &rows[i];

      if (!in_set (row, ROWS_MATRIX) && !in_set (row, ROWS_PIPE))
        continue;
      cats[ncats] = is_pipe (row)
        ? bench_xasprintf ("%s pipe", row->algo)
        : bench_xasprintf ("%s %s %s", row->algo, row->impl, row->mode);
      for (s = 0, k = 0; k < nbuilds; k++)
        if (builds[k].state == B_OK)
          values[ncats * nseries + s++] = figure (row, k) / figure (row, r);
      ncats++;
    }
  title = bench_xasprintf ("buildmatrix: speed relative to %s (cipherbench"
                           " CFB on %d-byte buffers; sfenc -z 0 -c on a"
                           " pipe)", ref->id, MATRIX_BYTES);
  ylabel = bench_xasprintf ("x %s", ref->id);
  plot_bars (opt.plot, title, ylabel, ncats, cats, nseries, series, values);
  bench_free_strings (cats, ncats);
  free (series);                /* The builds' ids, not copies.  */
  free (values);
  free (title);
  free (ylabel);
}

static void
add_notes (report_t *rep, const struct build *ref)
{
  size_t k;

  report_note (rep, "sfenc %s from %s, copied by make distdir to %s/src;"
               " one build a directory there, make -j%d", PACKAGE_VERSION,
               top_srcdir, opt.dir, opt.jobs);
  report_note (rep, "each build passed its known-answer tests (%s %s %s %s)"
               " before it was measured; a build that failed anything has"
               " n/a", gate_tests[0], gate_tests[1], gate_tests[2],
               gate_tests[3]);
  report_note (rep, "cipherbench: cfb-enc and cfb-dec, CPU time, %g s a"
               " sample; pipe: tools/sfbench, sfenc -z 0 -c, MiB/s of user"
               " time net of the user time with an empty input (the S2K,"
               " start-up), about %g s a run", opt.seconds, opt.pipe_seconds);
  report_note (rep, "the median of %d round%s; in a round every build runs"
               " once per algorithm, in an order rotated from round to"
               " round", opt.runs, opt.runs == 1 ? "" : "s");
  if (ref)
    report_note (rep, "xdefault: the build's geometric mean / %s's (%s)",
                 ref->id, ref->cc->is_default && ref->variant == V_O2
                 ? "the build ./configure makes by default"
                 : "the first good build; the default one is not here");
  report_note (rep, "control: implementation gcrypt, libgcrypt's own code,"
               " the same in every build (only the call into it is built"
               " here): at %d bytes, how far it strays from 1.00x is the"
               " noise of this run", MATRIX_BYTES);
  for (k = 0; k < nbuilds; k++)
    if (builds[k].why)
      report_note (rep, "%s: %s: %s (log: %s/buildmatrix.log)", builds[k].id,
                   state_names[builds[k].state], builds[k].why,
                   builds[k].dir);
}


/* Options.  */

static void
parse_variants (const char *option, const char *val)
{
  char **items = bench_split_list (val, NULL);
  size_t i, v;

  memset (opt.variant_on, 0, sizeof opt.variant_on);
  for (i = 0; items[i]; i++)
    {
      int found = 0;

      for (v = 0; v < N_STD_VARIANTS; v++)
        if (!strcasecmp (items[i], "all")
            || !strcasecmp (items[i], std_variants[v].id))
          opt.variant_on[v] = found = 1;
      if (!found)
        bench_die (option, "O2, native, lto, pgo or all expected");
    }
  free (items);
}

static void
parse_sizes (const char *option, const char *val)
{
  char **items = bench_split_list (val, &opt.nsizes);
  const char *expected = "multiples of 16 from 16 to 67108864 expected";
  size_t i;
  int has_matrix = 0;

  if (!opt.nsizes)
    bench_die (option, expected);
  /* A later --sizes or --quick replaces the default or an earlier one.  */
  free (opt.sizes);
  free (opt.sizes_text);
  opt.sizes = bench_xcalloc (opt.nsizes, sizeof *opt.sizes);
  for (i = 0; i < opt.nsizes; i++)
    {
      double v = bench_parse_number (option, items[i], 16, 1 << 26, expected);

      if (v != floor (v) || (size_t) v % 16)
        bench_die (option, expected);
      opt.sizes[i] = (size_t) v;
      has_matrix |= opt.sizes[i] == MATRIX_BYTES;
    }
  /* The swept builds are in the matrix too.  */
  opt.sizes_text = bench_xasprintf ("%s%s", val,
                                    has_matrix ? "" : "," MATRIX_BYTES_TEXT);
  free (items);
}

static int
parse_count (const char *option, const char *val, int hi)
{
  double v = bench_parse_number (option, val, 1, hi, "a count expected");

  if (v != floor (v))
    bench_die (option, "a count expected");
  return (int) v;
}

static void
parse_args (int argc, char **argv)
{
  int i;

  /* --quick sets defaults that the other options may override.  */
  for (i = 1; i < argc; i++)
    if (!strcmp (argv[i], "--quick"))
      {
        opt.quick = 1;
        opt.runs = 1;
        opt.seconds = 0.01;
        opt.pipe_seconds = 0.05;
        parse_variants ("--quick", "O2,pgo");
        parse_sizes ("--quick", "16," MATRIX_BYTES_TEXT);
      }
  for (i = 1; i < argc; i++)
    {
      const char *arg = argv[i];
      const char *val = i + 1 < argc ? argv[i + 1] : NULL;

      if (!strcmp (arg, "--help"))
        {
          usage (stdout);
          exit (0);
        }
      if (!strcmp (arg, "--quick"))
        continue;
      if (!strcmp (arg, "--no-discover"))
        {
          opt.discover = 0;
          continue;
        }
      if (!strcmp (arg, "--list"))
        {
          opt.list = 1;
          continue;
        }
      if (!strcmp (arg, "--measure-only"))
        {
          opt.measure_only = 1;
          continue;
        }
      if (strcmp (arg, "--dir") && strcmp (arg, "--cc")
          && strcmp (arg, "--variants") && strcmp (arg, "--cflags")
          && strcmp (arg, "--algo") && strcmp (arg, "--runs")
          && strcmp (arg, "--seconds") && strcmp (arg, "--sizes")
          && strcmp (arg, "--pipe-seconds") && strcmp (arg, "--jobs")
          && strcmp (arg, "--format") && strcmp (arg, "--save")
          && strcmp (arg, "--plot"))
        bench_die (arg, "unknown option (try --help)");
      if (!val)
        bench_die (arg, "missing argument");
      i++;
      if (!strcmp (arg, "--dir"))
        opt.dir = bench_xstrdup (val);
      else if (!strcmp (arg, "--cc"))
        opt.ccs[opt.nccs++] = (char *) val;
      else if (!strcmp (arg, "--cflags"))
        opt.cflags[opt.ncflags++] = (char *) val;
      else if (!strcmp (arg, "--variants"))
        parse_variants (arg, val);
      else if (!strcmp (arg, "--algo"))
        opt.algos = bench_split_list (val, NULL);
      else if (!strcmp (arg, "--runs"))
        opt.runs = parse_count (arg, val, 101);
      else if (!strcmp (arg, "--jobs"))
        opt.jobs = parse_count (arg, val, 1024);
      else if (!strcmp (arg, "--seconds"))
        opt.seconds = bench_parse_number
          (arg, val, 1e-6, 60, "a number of seconds above 0 and up to 60"
           " expected");
      else if (!strcmp (arg, "--pipe-seconds"))
        opt.pipe_seconds = bench_parse_number
          (arg, val, 1e-3, 60, "a number of seconds from 0.001 to 60"
           " expected");
      else if (!strcmp (arg, "--sizes"))
        parse_sizes (arg, val);
      else if (!strcmp (arg, "--format"))
        opt.format = report_parse_format (arg, val);
      else if (!strcmp (arg, "--save"))
        opt.save = val;
      else
        opt.plot = val;
    }
  if (opt.plot)
    plot_check ("--plot", opt.plot);
}

/* BUILDDIR/buildmatrix; for a build in the source tree, where
 * buildmatrix never writes, $TMPDIR/sfenc-buildmatrix.  */
static char *
default_dir (void)
{
  const char *tmpdir = getenv ("TMPDIR");

  if (strcmp (top_builddir, top_srcdir))
    return bench_xasprintf ("%s/buildmatrix", top_builddir);
  return bench_xasprintf ("%s/sfenc-buildmatrix",
                          tmpdir && *tmpdir ? tmpdir : "/tmp");
}

int
main (int argc, char **argv)
{
  static const char *const make_variables[] =
    { "MAKEFLAGS", "MFLAGS", "GNUMAKEFLAGS", "MAKELEVEL" };
  struct build *ref;
  report_t *rep;
  size_t i, nalgos;
  char **algos;
  int failed = 0;

  bench_progname = "buildmatrix";
  bench_at_die (progress_end);
  opt.discover = 1;
  opt.runs = 5;
  opt.seconds = 0.1;
  opt.pipe_seconds = 0.5;
  opt.jobs = (int) sysconf (_SC_NPROCESSORS_ONLN);
  if (opt.jobs < 1)
    opt.jobs = 1;
  for (i = 0; i < N_STD_VARIANTS; i++)
    opt.variant_on[i] = 1;
  parse_sizes ("--sizes", "16,64,256,1024,8192," MATRIX_BYTES_TEXT);
  opt.ccs = bench_xcalloc (argc, sizeof *opt.ccs);
  opt.cflags = bench_xcalloc (argc, sizeof *opt.cflags);
  parse_args (argc, argv);
  /* Each build is a make of its own, not a part of the one that may
   * have started buildmatrix (make check).  */
  for (i = 0; i < sizeof make_variables / sizeof *make_variables; i++)
    unsetenv (make_variables[i]);
  top_builddir = xrealpath (SF_ABS_TOP_BUILDDIR);
  top_srcdir = xrealpath (SF_ABS_TOP_SRCDIR);

  find_compilers ();
  plan_builds ();
  rep = report_new ("buildmatrix");
  report_provenance (rep, argc, argv);
  if (opt.list)
    {
      add_builds_table (rep, NULL);
      report_print (rep, opt.format, stdout);
      report_free (rep);
      return 0;
    }
  algos = algorithms (&nalgos);
  if (!opt.dir)
    opt.dir = default_dir ();
  prepare_dir ();
  for (i = 0; i < nbuilds; i++)
    builds[i].dir = bench_xasprintf ("%s/%s", opt.dir, builds[i].id);
  if (opt.measure_only)
    for (i = 0; i < nbuilds; i++)
      read_status (&builds[i]);
  else
    {
      char *src = copy_sources ();

      for (i = 0; i < nbuilds; i++)
        make_build (&builds[i], i, src);
      free (src);
    }

  ref = reference_build ();
  if (ref)
    {
      choose_sweeps ();
      measure (algos, nalgos);
      /* A build may have failed to measure since.  */
      ref = reference_build ();
    }
  progress_end ();

  add_notes (rep, ref);
  add_builds_table (rep, ref);
  if (ref)
    {
      add_matrix_table (rep, ROWS_MATRIX);
      add_matrix_table (rep, ROWS_PIPE);
      add_pgo_table (rep);
    }
  if (opt.plot && ref)
    {
      draw (ref);
      report_add_chart (rep, opt.plot);
    }
  report_print (rep, opt.format, stdout);
  if (opt.save)
    report_save (rep, opt.save);
  report_free (rep);
  for (i = 0; i < nbuilds; i++)
    failed |= builds[i].state != B_OK;
  return failed;
}
