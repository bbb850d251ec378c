/* plot.c - grouped bar charts through gnuplot
 *
 * See plot.h.  The figures go to a data file and the drawing commands
 * to a script, both in a fresh temporary directory, and gnuplot runs
 * the script; its first line of complaint is passed on if it fails.
 *
 * The text of a chart (its title, the categories, the series) comes
 * from the command line and from result files, which anyone may have
 * written: it reaches gnuplot only as single-quoted strings of the
 * script (put_string), never in the data file, whose strings gnuplot
 * reads by other rules.
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

int
plot_available (void)
{
  char *path = bench_find_program (gnuplot_program ());

  free (path);
  return path != NULL;
}

void
plot_check (const char *option, const char *file)
{
  if (!has_suffix (file, ".svg") && !has_suffix (file, ".png"))
    bench_die (option, "a file name ending in .svg or .png expected");
  /* No gnuplot string can hold a line end.  */
  if (strchr (file, '\n'))
    bench_die (option, "a line end is not supported in a chart name");
  if (!plot_available ())
    bench_die (gnuplot_program (),
               "not found; charts need gnuplot (apt-get install gnuplot-nox)");
}

/* Write S as a gnuplot string constant.  Single-quoted: there gnuplot
 * runs no backquoted command and reads no backslash escape, and only
 * a doubled quote is special.  A control character (a line end would
 * end the command) becomes a question mark.  */
static void
put_string (FILE *fp, const char *s)
{
  fputc ('\'', fp);
  for (; *s; s++)
    {
      unsigned char ch = (unsigned char) *s;

      if (ch == '\'')
        fputs ("''", fp);
      else
        fputc (ch < 0x20 || ch == 0x7f ? '?' : ch, fp);
    }
  fputc ('\'', fp);
}

/* The temporary directory of a chart and its files.  */
struct plot_files
{
  char *dir, *data, *script, *errors;
};

static void
remove_plot_files (const struct plot_files *pf)
{
  unlink (pf->data);
  unlink (pf->script);
  unlink (pf->errors);
  rmdir (pf->dir);
}

/* Remove PF, then die with WHAT and WHY.  */
static void __attribute__ ((noreturn))
plot_die (const struct plot_files *pf, const char *what, const char *why)
{
  remove_plot_files (pf);
  bench_die (what, why);
}

/* Write the figures, NCATS lines of NSERIES columns ("?" for missing),
 * into PF's data file; *R_LO and *R_HI get the smallest and largest.  */
static void
write_data (const struct plot_files *pf, size_t ncats, size_t nseries,
            const double *values, double *r_lo, double *r_hi)
{
  double lo = INFINITY, hi = 0;
  FILE *fp = fopen (pf->data, "w");
  size_t i, j;

  if (!fp)
    plot_die (pf, pf->data, strerror (errno));
  for (i = 0; i < ncats; i++)
    {
      for (j = 0; j < nseries; j++)
        {
          double v = values[i * nseries + j];

          if (isnan (v) || !(v > 0))
            fputs (j ? " ?" : "?", fp);
          else
            {
              fprintf (fp, j ? " %.6g" : "%.6g", v);
              lo = v < lo ? v : lo;
              hi = v > hi ? v : hi;
            }
        }
      fputc ('\n', fp);
    }
  if (ferror (fp) | fclose (fp))
    plot_die (pf, pf->data, strerror (errno));
  *r_lo = lo;
  *r_hi = hi;
}

void
plot_bars (const char *file, const char *title, const char *ylabel,
           size_t ncats, char *const *cats, size_t nseries,
           char *const *series, const double *values)
{
  struct plot_files pf;
  char why[256];
  char *argv[3];
  double lo, hi, start;
  struct bench_usage u;
  FILE *fp;
  size_t i, j, width;
  int pid, err_fd;

  pf.dir = bench_xasprintf ("%s/sfbench-plot.XXXXXX", bench_temp_dir ());
  if (!mkdtemp (pf.dir))
    bench_die (pf.dir, strerror (errno));
  pf.data = bench_xasprintf ("%s/data", pf.dir);
  pf.script = bench_xasprintf ("%s/plot.gp", pf.dir);
  pf.errors = bench_xasprintf ("%s/errors", pf.dir);
  write_data (&pf, ncats, nseries, values, &lo, &hi);

  fp = fopen (pf.script, "w");
  if (!fp)
    plot_die (&pf, pf.script, strerror (errno));
  /* Wide enough for every bar to stay visible.  */
  width = 200 + ncats * (nseries + 1) * 12;
  if (width < 1100)
    width = 1100;
  if (has_suffix (file, ".svg"))
    fprintf (fp, "set terminal svg size %zu,560 dynamic"
             " font 'Helvetica,12' background rgb 'white'\n", width);
  else
    fprintf (fp, "set terminal png size %zu,560\n", width);
  fputs ("set output ", fp);
  put_string (fp, file);
  fputs ("\nset title ", fp);
  put_string (fp, title);
  fputs (" noenhanced\nset ylabel ", fp);
  put_string (fp, ylabel);
  fputs (" noenhanced\nset datafile missing '?'\n"
         "set style data histogram\n"
         "set style histogram cluster gap 1\n"
         "set style fill solid 0.85 border -1\n"
         "set boxwidth 0.9\n"
         "set grid ytics\n"
         "set key outside right top noenhanced\n"
         "set xtics rotate by 30 right noenhanced nomirror (", fp);
  /* The categories are the tics at 0, 1, ...: the clusters' places.  */
  for (i = 0; i < ncats; i++)
    {
      fputs (i ? ", " : "", fp);
      put_string (fp, cats[i]);
      fprintf (fp, " %zu", i);
    }
  fputs (")\n", fp);
  /* Figures spanning more than two orders (3DES beside AES-NI) would
   * leave the slow bars invisible on a linear axis.  */
  if (hi > 0 && hi / lo > 100)
    fprintf (fp, "set logscale y\nset yrange [%g:*]\n", lo / 2);
  else
    fputs ("set yrange [0:*]\n", fp);
  fputs ("plot", fp);
  for (j = 0; j < nseries; j++)
    {
      fputs (j ? ", " : " ", fp);
      put_string (fp, pf.data);
      fprintf (fp, " using %zu title ", j + 1);
      put_string (fp, series[j]);
    }
  fputc ('\n', fp);
  if (ferror (fp) | fclose (fp))
    plot_die (&pf, pf.script, strerror (errno));

  err_fd = open (pf.errors, O_WRONLY | O_CREAT | O_TRUNC, 0600);
  if (err_fd < 0)
    plot_die (&pf, pf.errors, strerror (errno));
  argv[0] = (char *) gnuplot_program ();
  argv[1] = pf.script;
  argv[2] = NULL;
  pid = bench_spawn (argv, -1, -1, err_fd, NULL, &start);
  close (err_fd);
  if (pid < 0)
    plot_die (&pf, argv[0], strerror (errno));
  why[0] = 0;
  if (bench_wait (pid, start, &u))
    {
      snprintf (why, sizeof why, "gnuplot failed");
      fp = fopen (pf.errors, "r");
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
      plot_die (&pf, file, why);
    }
  remove_plot_files (&pf);
  free (pf.dir);
  free (pf.data);
  free (pf.script);
  free (pf.errors);
}
