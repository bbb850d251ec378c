/* benchutil.h - what sfbench and cipherbench share besides the report
 *
 * Error exits, comma-separated lists, medians and geometric means, and
 * the names OpenSSL gives the algorithms of the cipher table.
 */
#ifndef BENCHUTIL_H
#define BENCHUTIL_H

#include <stddef.h>

/* The program name bench_die prints, set once by main.  */
extern const char *bench_progname;

/* Print "PROGNAME: WHAT: WHY" on stderr, their control characters
 * escaped as bench_printable does, and exit with status 2.  The
 * cleanup function registered with bench_at_die runs first.  */
void bench_die (const char *what, const char *why)
  __attribute__ ((noreturn));

/* S in a new string with its control characters (C0, DEL and C1 in
 * UTF-8) written as \xHH, so that text read from a result file or a
 * file name cannot drive the terminal it is printed on.  */
char *bench_printable (const char *s);

/* Run FN (once) before bench_die exits.  */
void bench_at_die (void (*fn) (void));

/* calloc, realloc (of N items of SIZE bytes), strdup and a printf
 * into a new string, that die when memory runs out.  */
void *bench_xcalloc (size_t n, size_t size);
void *bench_xrealloc (void *p, size_t n, size_t size);
char *bench_xstrdup (const char *s);
char *bench_xasprintf (const char *fmt, ...)
  __attribute__ ((format (printf, 1, 2)));

/* Split the comma-separated LIST into a NULL-terminated array of
 * non-empty items; *R_N (if not NULL) gets the count.  One free of
 * the array releases it and the items.  */
char **bench_split_list (const char *list, size_t *r_n);

/* Free the N strings of V, and V.  */
void bench_free_strings (char **v, size_t n);

/* The median of the N values at V (N >= 1); sorts V.  */
double bench_median (double *v, size_t n);

/* A figure over several runs: the median and the range.  */
struct bench_range
{
  double median, min, max;
};

/* The median, min and max of the N values at V (N >= 1); V is left
 * as it is.  */
struct bench_range bench_range (const double *v, size_t n);

/* Accumulates a geometric mean of positive values.  */
struct bench_geomean
{
  double log_sum;
  size_t n;
};

void bench_geomean_add (struct bench_geomean *g, double v);
/* The mean, or NAN when nothing was added.  */
double bench_geomean (const struct bench_geomean *g);

/* Parse a decimal number in [LO, HI] from S, or die naming OPTION
 * and EXPECTED.  */
double bench_parse_number (const char *option, const char *s,
                           double lo, double hi, const char *expected);

/* The file to execute for PROGRAM: PROGRAM itself when it holds a
 * slash, else the first match in PATH; NULL (errno set) when there is
 * no executable file.  Free the result.  */
char *bench_find_program (const char *program);

/* Resources one finished child used.  */
struct bench_usage
{
  double user, sys;     /* CPU seconds of the child (and its reaped children).  */
  double wall;          /* Seconds from bench_spawn to its end.  */
  long maxrss_kib;      /* Peak resident set in KiB, as wait4 says: it
                           counts what the child had before exec, too.  */
  int status;           /* As from waitpid.  */
};

/* Start ARGV[0] (looked up as bench_find_program does) with standard
 * input, output and error on IN_FD, OUT_FD and ERR_FD (-1: /dev/null)
 * and, when SETENV is not NULL, the variable "NAME=VALUE" it holds
 * set.  Returns the process id, or -1 with errno set when the program
 * cannot be executed.  *R_START gets the time it was started.  */
int bench_spawn (char *const *argv, int in_fd, int out_fd, int err_fd,
                 const char *setenv_pair, double *r_start);

/* Wait for PID, started at START, and fill *U.  Returns 0 when it
 * exited with status 0.  */
int bench_wait (int pid, double start, struct bench_usage *u);

/* Monotonic seconds.  */
double bench_now (void);

/* Where temporary files go: $TMPDIR, else /tmp.  */
const char *bench_temp_dir (void);

#endif /*BENCHUTIL_H*/
