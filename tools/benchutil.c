/* benchutil.c - what sfbench and cipherbench share besides the report
 *
 * See benchutil.h.
 */
#define _GNU_SOURCE 1           /* vasprintf */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>

#include "benchutil.h"

const char *bench_progname = "bench";

static void (*die_cleanup) (void);


void
bench_at_die (void (*fn) (void))
{
  die_cleanup = fn;
}

/* The length of the control character at P: 1 for C0 and DEL, 2 for
 * a C1 control (U+0080 to U+009F) in UTF-8, 0 for anything else.  */
static size_t
control_length (const unsigned char *p)
{
  if (*p < 0x20 || *p == 0x7f)
    return 1;
  return p[0] == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f ? 2 : 0;
}

/* Write S to FP as bench_printable has it; allocates nothing, so that
 * bench_die can use it when memory ran out.  */
static void
put_printable (FILE *fp, const char *s)
{
  const unsigned char *p = (const unsigned char *) s;
  size_t n;

  for (; *p; p += n ? n : 1)
    if ((n = control_length (p)) == 1)
      fprintf (fp, "\\x%02x", p[0]);
    else if (n)
      fprintf (fp, "\\x%02x\\x%02x", p[0], p[1]);
    else
      fputc (*p, fp);
}

void
bench_die (const char *what, const char *why)
{
  void (*fn) (void) = die_cleanup;

  /* A cleanup that fails itself must not recurse.  */
  die_cleanup = NULL;
  if (fn)
    fn ();
  fflush (stdout);
  fprintf (stderr, "%s: ", bench_progname);
  put_printable (stderr, what);
  fputs (": ", stderr);
  put_printable (stderr, why);
  fputc ('\n', stderr);
  exit (2);
}

char *
bench_printable (const char *s)
{
  char *text;
  size_t len;
  FILE *fp = open_memstream (&text, &len);

  if (!fp)
    bench_die ("out of core", strerror (errno));
  put_printable (fp, s);
  if (ferror (fp) | fclose (fp))
    bench_die ("out of core", strerror (errno));
  return text;
}

void *
bench_xcalloc (size_t n, size_t size)
{
  void *p = calloc (n ? n : 1, size ? size : 1);

  if (!p)
    bench_die ("out of core", strerror (errno));
  return p;
}

char *
bench_xstrdup (const char *s)
{
  char *p = strdup (s);

  if (!p)
    bench_die ("out of core", strerror (errno));
  return p;
}

void *
bench_xrealloc (void *p, size_t n, size_t size)
{
  if (size && n > (size_t) -1 / size)
    bench_die ("out of core", "allocation too large");
  p = realloc (p, n && size ? n * size : 1);
  if (!p)
    bench_die ("out of core", strerror (errno));
  return p;
}

char *
bench_xasprintf (const char *fmt, ...)
{
  va_list ap;
  char *s;
  int len;

  va_start (ap, fmt);
  len = vasprintf (&s, fmt, ap);
  va_end (ap);
  if (len < 0)
    bench_die ("out of core", strerror (errno));
  return s;
}

char **
bench_split_list (const char *list, size_t *r_n)
{
  /* The pointers, then the copy of LIST they point into, in one block
   * so that one free releases the list.  */
  size_t nptrs = strlen (list) / 2 + 2;
  char **items = bench_xcalloc (1, nptrs * sizeof *items + strlen (list) + 1);
  char *copy = strcpy ((char *) (items + nptrs), list);
  char *item, *save = NULL;
  size_t n = 0;

  for (item = strtok_r (copy, ",", &save); item;
       item = strtok_r (NULL, ",", &save))
    items[n++] = item;
  if (r_n)
    *r_n = n;
  return items;
}

void
bench_free_strings (char **v, size_t n)
{
  size_t i;

  for (i = 0; i < n; i++)
    free (v[i]);
  free (v);
}

static int
compare_doubles (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return (x > y) - (x < y);
}

double
bench_median (double *v, size_t n)
{
  qsort (v, n, sizeof *v, compare_doubles);
  if (n % 2)
    return v[n / 2];
  return (v[n / 2 - 1] + v[n / 2]) / 2;
}

struct bench_range
bench_range (const double *v, size_t n)
{
  double *copy = bench_xcalloc (n, sizeof *copy);
  struct bench_range r;

  memcpy (copy, v, n * sizeof *copy);
  r.median = bench_median (copy, n);
  /* Sorted now.  */
  r.min = copy[0];
  r.max = copy[n - 1];
  free (copy);
  return r;
}

void
bench_geomean_add (struct bench_geomean *g, double v)
{
  if (!(v > 0) || isinf (v))
    return;
  g->log_sum += log (v);
  g->n++;
}

double
bench_geomean (const struct bench_geomean *g)
{
  return g->n ? exp (g->log_sum / g->n) : NAN;
}

double
bench_parse_number (const char *option, const char *s, double lo, double hi,
                    const char *expected)
{
  char *end;
  double v;

  errno = 0;
  v = strtod (s, &end);
  if (end == s || *end || errno || !(v >= lo && v <= hi))
    bench_die (option, expected);
  return v;
}

char *
bench_find_program (const char *program)
{
  const char *path = getenv ("PATH");
  char *copy, *dir, *save = NULL;
  struct stat st;

  if (strchr (program, '/'))
    {
      if (stat (program, &st) || !S_ISREG (st.st_mode)
          || access (program, X_OK))
        return NULL;
      return bench_xstrdup (program);
    }
  copy = bench_xstrdup (path ? path : "/usr/bin:/bin");
  for (dir = strtok_r (copy, ":", &save); dir;
       dir = strtok_r (NULL, ":", &save))
    {
      size_t len = strlen (dir) + strlen (program) + 2;
      char *file = bench_xcalloc (len, 1);

      snprintf (file, len, "%s/%s", dir, program);
      if (!stat (file, &st) && S_ISREG (st.st_mode) && !access (file, X_OK))
        {
          free (copy);
          return file;
        }
      free (file);
    }
  free (copy);
  errno = ENOENT;
  return NULL;
}

double
bench_now (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* In the child: make FD (or /dev/null when -1) descriptor TARGET.  */
static int
child_redirect (int fd, int target, int flags)
{
  if (fd < 0)
    {
      fd = open ("/dev/null", flags);
      if (fd < 0)
        return -1;
    }
  if (fd != target && dup2 (fd, target) < 0)
    return -1;
  return 0;
}

int
bench_spawn (char *const *argv, int in_fd, int out_fd, int err_fd,
             const char *setenv_pair, double *r_start)
{
  char *file = bench_find_program (argv[0]);
  int report[2];
  int child_errno, pid;
  ssize_t n;

  if (!file)
    return -1;
  /* The child reports a failed exec through a pipe that a successful
   * exec closes.  */
  if (pipe (report))
    bench_die ("pipe", strerror (errno));
  fcntl (report[1], F_SETFD, FD_CLOEXEC);
  fflush (NULL);
  *r_start = bench_now ();
  pid = fork ();
  if (pid < 0)
    bench_die ("fork", strerror (errno));
  if (!pid)
    {
      close (report[0]);
      if (child_redirect (in_fd, 0, O_RDONLY)
          || child_redirect (out_fd, 1, O_WRONLY)
          || child_redirect (err_fd, 2, O_WRONLY)
          || (setenv_pair && putenv ((char *) setenv_pair)))
        child_errno = errno;
      else
        {
          execv (file, argv);
          child_errno = errno;
        }
      n = write (report[1], &child_errno, sizeof child_errno);
      (void) n;
      _exit (127);
    }
  free (file);
  close (report[1]);
  n = read (report[0], &child_errno, sizeof child_errno);
  close (report[0]);
  if (n == sizeof child_errno)
    {
      waitpid (pid, NULL, 0);
      errno = child_errno;
      return -1;
    }
  return pid;
}

int
bench_wait (int pid, double start, struct bench_usage *u)
{
  struct rusage ru;

  while (wait4 (pid, &u->status, 0, &ru) < 0)
    if (errno != EINTR)
      bench_die ("wait4", strerror (errno));
  u->wall = bench_now () - start;
  u->user = ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6;
  u->sys = ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
  u->maxrss_kib = ru.ru_maxrss;
  return !(WIFEXITED (u->status) && WEXITSTATUS (u->status) == 0);
}

const char *
bench_temp_dir (void)
{
  const char *tmp = getenv ("TMPDIR");

  return tmp && *tmp ? tmp : "/tmp";
}
