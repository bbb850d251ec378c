/* plot.c - grouped bar charts through gnuplot
 *
 * See plot.h.  The figures go to a data file and the drawing commands
 * to a script, both in a fresh temporary directory, and gnuplot runs
 * the script; its first line of complaint is passed on if it fails.
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "benchutil.h"
#include "plot.h"


static const char *
gnuplot_program (void)
{
  const char *p = getenv ("GNUPLOT");

  return p && *p ? p : "gnuplot";
}

static int
has_suffix (const char *s, const char *suffix)
{
  size_t n = strlen (s), m = strlen (suffix);

  return n > m && !strcmp (s + n - m, suffix);
}

void
plot_check (const char *option, const char *file)
{
  char *path;

  if (!has_suffix (file, ".svg") && !has_suffix (file, ".png"))
    bench_die (option, "a file name ending in .svg or .png expected");
  /* gnuplot reads the name inside single quotes.  */
  if (strchr (file, '\'') || strchr (file, '\n'))
    bench_die (file, "quotes and newlines are not supported in a chart name");
  path = bench_find_program (gnuplot_program ());
  if (!path)
    bench_die (gnuplot_program (),
               "not found; charts need gnuplot (apt-get install gnuplot-nox)");
  free (path);
}

/* Write S for gnuplot's double-quoted strings, without the characters
 * that would need escapes there.  */
static void
put_label (FILE *fp, const char *s)
{
  fputc ('"', fp);
  for (; *s; s++)
    fputc (*s == '"' || *s == '\\' || *s == '\n' ? '_' : *s, fp);
  fputc ('"', fp);
}

void
plot_bars (const char *file, const char *title, const char *ylabel,
           size_t ncats, char *const *cats, size_t nseries,
           char *const *series, const double *values)
{
  char dir[] = "/tmp/sfbench-plot.XXXXXX";
  char data[64], script[64], errors[64], why[256];
  char *argv[3];
  double lo = INFINITY, hi = 0, start;
  struct bench_usage u;
  FILE *fp;
  size_t i, j, width;
  int pid, err_fd;

  if (!mkdtemp (dir))
    bench_die ("mkdtemp", strerror (errno));
  snprintf (data, sizeof data, "%s/data", dir);
  snprintf (script, sizeof script, "%s/plot.gp", dir);
  snprintf (errors, sizeof errors, "%s/errors", dir);

  fp = fopen (data, "w");
  if (!fp)
    bench_die (data, strerror (errno));
  for (i = 0; i < ncats; i++)
    {
      put_label (fp, cats[i]);
      for (j = 0; j < nseries; j++)
        {
          double v = values[i * nseries + j];

          if (isnan (v) || !(v > 0))
            fputs (" ?", fp);
          else
            {
              fprintf (fp, " %.6g", v);
              lo = v < lo ? v : lo;
              hi = v > hi ? v : hi;
            }
        }
      fputc ('\n', fp);
    }
  if (fclose (fp))
    bench_die (data, strerror (errno));

  fp = fopen (script, "w");
  if (!fp)
    bench_die (script, strerror (errno));
  /* Wide enough for every bar to stay visible.  */
  width = 200 + ncats * (nseries + 1) * 12;
  if (width < 1100)
    width = 1100;
  if (has_suffix (file, ".svg"))
    fprintf (fp, "set terminal svg size %zu,560 dynamic"
             " font 'Helvetica,12' background rgb 'white'\n", width);
  else
    fprintf (fp, "set terminal png size %zu,560\n", width);
  fprintf (fp, "set output '%s'\n", file);
  fputs ("set title ", fp);
  put_label (fp, title);
  fputs (" noenhanced\nset ylabel ", fp);
  put_label (fp, ylabel);
  fputs ("\nset datafile missing '?'\n"
         "set style data histogram\n"
         "set style histogram cluster gap 1\n"
         "set style fill solid 0.85 border -1\n"
         "set boxwidth 0.9\n"
         "set grid ytics\n"
         "set key outside right top noenhanced\n"
         "set xtics rotate by 30 right noenhanced nomirror\n", fp);
  /* Figures spanning more than two orders (3DES beside AES-NI) would
   * leave the slow bars invisible on a linear axis.  */
  if (hi > 0 && hi / lo > 100)
    fprintf (fp, "set logscale y\nset yrange [%g:*]\n", lo / 2);
  else
    fputs ("set yrange [0:*]\n", fp);
  fputs ("plot", fp);
  for (j = 0; j < nseries; j++)
    {
      fprintf (fp, "%s '%s' using %zu%s title ", j ? "," : "", data, j + 2,
               j ? "" : ":xtic(1)");
      put_label (fp, series[j]);
    }
  fputc ('\n', fp);
  if (fclose (fp))
    bench_die (script, strerror (errno));

  err_fd = open (errors, O_WRONLY | O_CREAT | O_TRUNC, 0600);
  if (err_fd < 0)
    bench_die (errors, strerror (errno));
  argv[0] = (char *) gnuplot_program ();
  argv[1] = script;
  argv[2] = NULL;
  pid = bench_spawn (argv, -1, -1, err_fd, NULL, &start);
  close (err_fd);
  if (pid < 0)
    bench_die (argv[0], strerror (errno));
  why[0] = 0;
  if (bench_wait (pid, start, &u))
    {
      snprintf (why, sizeof why, "gnuplot failed");
      fp = fopen (errors, "r");
      if (fp)
        {
          /* gnuplot says where before it says what: keep the last
           * non-empty line.  */
          char line[256];

          while (fgets (line, sizeof line, fp))
            if (line[strspn (line, " \t\n")])
              snprintf (why, sizeof why, "%s", line);
          fclose (fp);
        }
      why[strcspn (why, "\n")] = 0;
    }
  unlink (data);
  unlink (script);
  unlink (errors);
  rmdir (dir);
  if (*why)
    bench_die (file, why);
}
