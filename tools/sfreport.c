/* sfreport.c - benchmark results from several runs, side by side
 *
 * Reads the JSON results of sfbench, cipherbench and buildmatrix, from
 * one machine or several, one tool or several, and prints for each
 * tool one table: the rows are matched by the columns that name them
 * (the algorithm, the mode, ...), and each source gets a column with
 * the figure compared and one with its ratio to the baseline source;
 * a last row gives the geometric means, as Crypto++'s tables do.  A
 * table of the sources says where each comes from (its provenance;
 * "unknown" for a file from an sfenc that did not record it), and a
 * source measured under an emulator is marked wherever it appears.
 * The output is text, Markdown, CSV, JSON or a self-contained HTML
 * page with the tables and a chart per tool.
 *
 * A result file is data from anywhere: its text reaches gnuplot only
 * as quoted strings (plot.c), HTML escaped, and a terminal with its
 * control characters escaped (bench_printable).
 */
#include <config.h>

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "benchutil.h"
#include "plot.h"
#include "report.h"

#define MAX_SOURCES 32
#define MAX_KEYS 16

/* The table, the columns that name a row and the figure compared, by
 * tool, unless --table, --key and --value say otherwise.  */
static const struct
{
  const char *tool, *table, *keys, *value;
} tool_defaults[] =
  {
    { "sfbench", "results", "algo,impl,threads,op", "sfenc_mibs" },
    { "cipherbench", "results", "algo,impl,mode,bytes", "mibs" },
    { "buildmatrix", "builds", "build", "cfb_mibs" }
  };

/* The provenance fields shown in the sources table: the first ones in
 * every format, the others in CSV, JSON and the HTML page.  */
static const char *const source_fields[] =
  {
    "date", "cpu", "cores", "compiler", "sfenc", "disable_hwf",
    "cpu_flags", "kernel", "cflags", "sfenc_path", "sfenc_file",
    "sfenc_version", "libgcrypt", "openssl", "gpg", "rnp", "command"
  };
#define N_SHORT_FIELDS 6

/* What marks the figures of a source measured under an emulator.  */
#define EMULATED_MARK "(emulated)"

struct source
{
  const char *file;
  char *label;
  json_t *doc;
  const char *tool;
  int emulated;
};

static struct
{
  const char *table, *keys, *value, *plot, *save;
  int baseline;
  enum report_format format;
  const char *labels[MAX_SOURCES];
  size_t nlabels;
} opt;

static struct source sources[MAX_SOURCES];
static size_t nsources;

/* The page's charts, drawn into a temporary directory that every exit
 * removes.  */
static char *chart_dir;
static char *charts[MAX_SOURCES];
static size_t ncharts;

/* A signal that ends the run (SIGINT, SIGTERM, SIGHUP) once caught,
 * else 0; and whether charts are being drawn, which defers it.  */
static volatile sig_atomic_t interrupted, drawing;


static void
usage (void)
{
  printf ("Usage: sfreport [OPTIONS] FILE.json...\n"
          "Put the JSON results of sfbench, cipherbench and buildmatrix"
          " side by side:\none table per tool, a column per file, the"
          " ratios to a baseline and the\ngeometric means.\n\n"
          "  --label TEXT    the label of the next FILE (default: its"
          " name without .json)\n"
          "  --baseline N    ratios to the Nth file of each tool"
          " (default 1)\n"
          "  --table NAME    the table to combine (default: the tool's"
          " main one)\n"
          "  --key LIST      the columns that name a row, comma"
          " separated\n"
          "  --value KEY     the figure to compare (default: the"
          " tool's throughput)\n"
          "  --format FMT    text (default), markdown, csv, json or"
          " html\n"
          "  --save PREFIX   also write PREFIX.txt, .md, .csv, .json,"
          " .html\n"
          "  --plot FILE     draw the first tool's chart, FILE.svg or"
          " FILE.png\n"
          "  --help          this text\n");
  exit (0);
}


static void
remove_charts (void)
{
  size_t i;

  /* unlink, not remove: on_signal calls this.  */
  for (i = 0; i < ncharts; i++)
    unlink (charts[i]);
  if (chart_dir)
    rmdir (chart_dir);
}


/* Die by SIG, as the signal's default action: the shell that ran us
 * sees the signal, not an exit status.  */
static void
die_by_signal (int sig)
{
  signal (sig, SIG_DFL);
  raise (sig);
}


/* Every exit through bench_die: no temporary file is left, and a run
 * a signal ended dies by that signal, with no other complaint.  */
static void
on_die (void)
{
  remove_charts ();
  if (interrupted)
    die_by_signal (interrupted);
}


/* Stop here if a signal came, as bench_die would.  */
static void
stop_if_interrupted (void)
{
  if (interrupted)
    on_die ();
}


/* While charts are drawn, the signal is only noted (charts[] grows,
 * plot.c has files of its own and a gnuplot running): the run stops
 * through on_die once the chart at hand is done, or when drawing
 * fails (as gnuplot does when a terminal's Ctrl-C reaches it too).
 * Afterwards the list of charts no longer changes, and the handler
 * removes them itself, with async-signal-safe calls only, so that a
 * run blocked on its output still ends.  */
static void
on_signal (int sig)
{
  interrupted = sig;
  if (!drawing)
    {
      remove_charts ();
      die_by_signal (sig);
    }
}


/* Catch the signals that end a run, from the first temporary file
 * on; one ignored when we started stays ignored.  */
static void
catch_signals (void)
{
  static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
  struct sigaction sa, old;
  size_t i;

  drawing = 1;
  memset (&sa, 0, sizeof sa);
  sa.sa_handler = on_signal;
  sa.sa_flags = SA_RESTART;
  sigemptyset (&sa.sa_mask);
  for (i = 0; i < sizeof sigs / sizeof *sigs; i++)
    if (!sigaction (sigs[i], NULL, &old) && old.sa_handler != SIG_IGN)
      sigaction (sigs[i], &sa, NULL);
}


/* The charts are drawn: from now on on_signal removes them.  */
static void
charts_done (void)
{
  /* charts[] is complete before the handler may read it.  */
  atomic_signal_fence (memory_order_seq_cst);
  drawing = 0;
  stop_if_interrupted ();
}


/* The label of FILE: its base name without ".json".  */
static char *
default_label (const char *file)
{
  const char *base = strrchr (file, '/');
  char *label = bench_xstrdup (base ? base + 1 : file);
  size_t n = strlen (label);

  if (n > 5 && !strcmp (label + n - 5, ".json"))
    label[n - 5] = 0;
  return label;
}


static void
parse_args (int argc, char **argv)
{
  int i;

  opt.baseline = 1;
  opt.format = REPORT_TEXT;
  for (i = 1; i < argc; i++)
    {
      const char *a = argv[i];
      const char *v = i + 1 < argc ? argv[i + 1] : NULL;

      if (!strcmp (a, "--help"))
        usage ();
      if (a[0] != '-' || !a[1])
        {
          if (nsources == MAX_SOURCES)
            bench_die (a, "too many files");
          sources[nsources].file = a;
          sources[nsources].label = nsources < opt.nlabels
            ? bench_xstrdup (opt.labels[nsources]) : default_label (a);
          nsources++;
          continue;
        }
      if (!v)
        bench_die (a, "unknown option, or its argument is missing");
      if (!strcmp (a, "--label"))
        {
          if (opt.nlabels < nsources)
            opt.nlabels = nsources;
          if (opt.nlabels == MAX_SOURCES)
            bench_die (a, "too many labels");
          opt.labels[opt.nlabels++] = v;
        }
      else if (!strcmp (a, "--baseline"))
        opt.baseline = (int) bench_parse_number (a, v, 1, MAX_SOURCES,
                                                 "a file number");
      else if (!strcmp (a, "--table"))
        opt.table = v;
      else if (!strcmp (a, "--key"))
        opt.keys = v;
      else if (!strcmp (a, "--value"))
        opt.value = v;
      else if (!strcmp (a, "--format"))
        opt.format = report_parse_format (a, v);
      else if (!strcmp (a, "--save"))
        opt.save = v;
      else if (!strcmp (a, "--plot"))
        {
          plot_check (a, v);
          opt.plot = v;
        }
      else
        bench_die (a, "unknown option (see --help)");
      i++;
    }
  if (!nsources)
    bench_die ("sfreport", "no result file given (see --help)");
}


/* The string member KEY of OBJ, or NULL.  */
static const char *
member_string (const json_t *obj, const char *key)
{
  return json_string_value (json_object_get (obj, key));
}


static void
read_sources (void)
{
  json_error_t err;
  const char *cpu;
  size_t i;

  for (i = 0; i < nsources; i++)
    {
      struct source *s = &sources[i];

      s->doc = json_load_file (s->file, JSON_REJECT_DUPLICATES, &err);
      if (!s->doc)
        bench_die (s->file, err.line > 0
                       ? bench_xasprintf ("line %d, column %d: %s",
                                          err.line, err.column, err.text)
                       : err.text);
      s->tool = member_string (s->doc, "tool");
      if (!s->tool)
        bench_die (s->file, "not a result file (no \"tool\")");
      cpu = member_string (json_object_get (s->doc, "provenance"), "cpu");
      s->emulated = cpu && !strncmp (cpu, "emulated", 8);
    }
}


/* The label of source S as a column header or a chart's series.  */
static char *
shown_label (const struct source *s)
{
  return s->emulated ? bench_xasprintf ("%s " EMULATED_MARK, s->label)
                     : bench_xstrdup (s->label);
}


/* The sources table: a row per file and where it comes from.  */
static void
add_sources_table (report_t *rep)
{
  report_table_t *tab = report_add_table
    (rep, "sources", "sources: where each file comes from");
  int col[sizeof source_fields / sizeof *source_fields];
  size_t i, f;
  int c_label, c_tool, c_emulated, c_file;

  c_label = report_add_column (tab, "label", "SOURCE", REPORT_STR, 0, 0);
  c_tool = report_add_column (tab, "tool", "TOOL", REPORT_STR, 0, 0);
  c_emulated = report_add_column (tab, "emulated", "emulated", REPORT_BOOL,
                                  0, 0);
  for (f = 0; f < sizeof source_fields / sizeof *source_fields; f++)
    col[f] = report_add_column (tab, source_fields[f], source_fields[f],
                                REPORT_STR, 0, f < N_SHORT_FIELDS
                                ? 0 : REPORT_DETAIL | REPORT_PAGE);
  c_file = report_add_column (tab, "file", "file", REPORT_STR, 0,
                              REPORT_DETAIL | REPORT_PAGE);
  for (i = 0; i < nsources; i++)
    {
      const json_t *prov = json_object_get (sources[i].doc, "provenance");

      report_add_row (tab);
      report_set_str (tab, c_label, sources[i].label);
      report_set_str (tab, c_tool, sources[i].tool);
      report_set_num (tab, c_emulated, sources[i].emulated);
      for (f = 0; f < sizeof source_fields / sizeof *source_fields; f++)
        {
          const char *v = member_string (prov, source_fields[f]);

          report_set_str (tab, col[f], v ? v : "unknown");
        }
      report_set_str (tab, c_file, sources[i].file);
    }
}


/* Between the key values of a row's name: no result has it.  */
#define KEY_SEPARATOR "\x1f"

/* The value of column KEY of ROW, in FILE, as text.  */
static char *
key_text (const json_t *row, const char *key, const char *file)
{
  const json_t *v = json_object_get (row, key);

  if (!v || json_is_null (v))
    return bench_xstrdup ("-");
  if (json_is_string (v))
    return bench_xstrdup (json_string_value (v));
  if (json_is_integer (v))
    return bench_xasprintf ("%" JSON_INTEGER_FORMAT, json_integer_value (v));
  if (json_is_real (v))
    return bench_xasprintf ("%g", json_real_value (v));
  if (json_is_boolean (v))
    return bench_xstrdup (json_is_true (v) ? "true" : "false");
  bench_die (file, bench_xasprintf ("column \"%s\" of a row is an array"
                                        " or an object, not a name", key));
}


/* What one tool's table is made of.  */
struct combination
{
  const char *tool, *table, *value;
  char **keys;
  size_t nkeys;
  size_t src[MAX_SOURCES];      /* Indexes into sources[].  */
  size_t nsrc, base;            /* BASE indexes SRC.  */
  char **names;                 /* The rows, in first-seen order: the
                                   key values joined by KEY_SEPARATOR.  */
  char **keyvals;               /* nnames * nkeys: the key values.  */
  size_t nnames;
  double *values;               /* nnames * MAX_SOURCES; NAN when
                                   missing.  */
  unsigned char *seen;          /* nnames * MAX_SOURCES: the source has
                                   the row.  */
};

static struct combination cbs[MAX_SOURCES];
static size_t ncbs;


static void
set_defaults (struct combination *cb)
{
  size_t i;
  const char *keys = opt.keys;

  cb->table = opt.table;
  cb->value = opt.value;
  for (i = 0; i < sizeof tool_defaults / sizeof *tool_defaults; i++)
    if (!strcmp (cb->tool, tool_defaults[i].tool))
      {
        cb->table = cb->table ? cb->table : tool_defaults[i].table;
        cb->value = cb->value ? cb->value : tool_defaults[i].value;
        keys = keys ? keys : tool_defaults[i].keys;
      }
  if (!cb->table || !cb->value || !keys)
    bench_die (cb->tool, "an unknown tool: give --table, --key and --value");
  cb->keys = bench_split_list (keys, &cb->nkeys);
  if (!cb->nkeys)
    bench_die ("--key", "no column named: give the columns that name a"
               " row, comma separated");
  if (cb->nkeys > MAX_KEYS)
    bench_die ("--key", "too many columns");
}


/* The rows of CB's table in source S; dies unless it is an array of
 * objects.  */
static const json_t *
table_rows (const struct combination *cb, const struct source *s)
{
  const json_t *rows = json_object_get (s->doc, cb->table);
  size_t r;

  if (!json_is_array (rows))
    bench_die (s->file, bench_xasprintf ("no table \"%s\"", cb->table));
  for (r = 0; r < json_array_size (rows); r++)
    if (!json_is_object (json_array_get (rows, r)))
      bench_die (s->file, bench_xasprintf ("a row of table \"%s\" is"
                                               " not an object", cb->table));
  return rows;
}


/* The columns of CB's table over all its sources, comma separated, in
 * first-seen order; only those holding a number when FIGURES.  */
static char *
column_list (const struct combination *cb, int figures)
{
  char *list = bench_xstrdup (""), **names = NULL;
  size_t nnames = 0, j, r, n;

  for (j = 0; j < cb->nsrc; j++)
    {
      const json_t *rows = table_rows (cb, &sources[cb->src[j]]);

      for (r = 0; r < json_array_size (rows); r++)
        {
          const char *key;
          json_t *v;

          json_object_foreach (json_array_get (rows, r), key, v)
            {
              char *longer;

              for (n = 0; n < nnames && strcmp (names[n], key); n++)
                ;
              if (n < nnames || (figures && !json_is_number (v)))
                continue;
              names = bench_xrealloc (names, nnames + 1, sizeof *names);
              names[nnames++] = (char *) key;
              longer = bench_xasprintf ("%s%s%s", list, *list ? ", " : "",
                                        key);
              free (list);
              list = longer;
            }
        }
    }
  free (names);
  return list;
}


/* Whether some row of CB's table, in any source, has column KEY; when
 * FIGURE, whether it has it, and every row that has it holds a number
 * or null there.  */
static int
has_column (const struct combination *cb, const char *key, int figure)
{
  size_t j, r;
  int found = 0;

  for (j = 0; j < cb->nsrc; j++)
    {
      const json_t *rows = table_rows (cb, &sources[cb->src[j]]);

      for (r = 0; r < json_array_size (rows); r++)
        {
          const json_t *v = json_object_get (json_array_get (rows, r), key);

          if (v && figure && !json_is_number (v) && !json_is_null (v))
            return 0;
          found |= v != NULL;
        }
    }
  return found;
}


/* Die: CB's table has no column NAME (when FIGURE, no column of
 * numbers), which OPTION gave; say which it has.  */
static void __attribute__ ((noreturn))
die_no_column (const struct combination *cb, const char *option,
               const char *name, int figure)
{
  char *columns = column_list (cb, figure);
  char *why = bench_xasprintf ("%s's table \"%s\" has no %s \"%s\"; its"
                               " %s: %s", cb->tool, cb->table,
                               figure ? "figure" : "column", name,
                               figure ? "figures" : "columns", columns);

  free (columns);
  bench_die (option, why);
}


/* Die unless CB's figure and the key columns --key names are columns
 * of its table, so that a misspelt name is not taken for a column of
 * n/a.  (A default key column may be absent: sfbench writes "threads"
 * only when --threads is given.)  */
static void
check_columns (const struct combination *cb)
{
  size_t k;

  for (k = 0; opt.keys && k < cb->nkeys; k++)
    if (!has_column (cb, cb->keys[k], 0))
      die_no_column (cb, "--key", cb->keys[k], 0);
  if (!has_column (cb, cb->value, 1))
    die_no_column (cb, "--value", cb->value, 1);
}


/* The index of the row that ROW of a result names, a new one (all
 * its figures missing) if no source had it yet.  */
static size_t
find_or_add_row (struct combination *cb, const json_t *row, const char *file)
{
  char **vals = bench_xcalloc (cb->nkeys, sizeof *vals);
  char *name = bench_xstrdup ("");
  size_t i, k;

  for (k = 0; k < cb->nkeys; k++)
    {
      char *joined;

      vals[k] = key_text (row, cb->keys[k], file);
      joined = bench_xasprintf ("%s%s%s", name, k ? KEY_SEPARATOR : "",
                                vals[k]);
      free (name);
      name = joined;
    }
  for (i = 0; i < cb->nnames; i++)
    if (!strcmp (cb->names[i], name))
      {
        for (k = 0; k < cb->nkeys; k++)
          free (vals[k]);
        free (vals);
        free (name);
        return i;
      }
  cb->names = bench_xrealloc (cb->names, cb->nnames + 1, sizeof *cb->names);
  cb->names[cb->nnames] = name;
  cb->keyvals = bench_xrealloc (cb->keyvals, (cb->nnames + 1) * cb->nkeys,
                                sizeof *cb->keyvals);
  memcpy (cb->keyvals + cb->nnames * cb->nkeys, vals,
          cb->nkeys * sizeof *vals);
  free (vals);
  cb->values = bench_xrealloc (cb->values, (cb->nnames + 1) * MAX_SOURCES,
                               sizeof *cb->values);
  cb->seen = bench_xrealloc (cb->seen, (cb->nnames + 1) * MAX_SOURCES,
                             sizeof *cb->seen);
  for (k = 0; k < MAX_SOURCES; k++)
    {
      cb->values[cb->nnames * MAX_SOURCES + k] = NAN;
      cb->seen[cb->nnames * MAX_SOURCES + k] = 0;
    }
  return cb->nnames++;
}


/* Die: two rows of source S name row I of CB.  */
static void __attribute__ ((noreturn))
die_duplicate (const struct combination *cb, const struct source *s,
               size_t i)
{
  char *name = bench_xstrdup ("");
  size_t k;

  for (k = 0; k < cb->nkeys; k++)
    {
      char *longer = bench_xasprintf ("%s%s%s=%s", name, k ? ", " : "",
                                      cb->keys[k],
                                      cb->keyvals[i * cb->nkeys + k]);

      free (name);
      name = longer;
    }
  bench_die (s->file, bench_xasprintf
                 ("two rows have the key %s; give --key the columns that"
                  " tell them apart", name));
}


/* Collect the figures of source S, the Jth of CB.  */
static void
collect (struct combination *cb, size_t j, const struct source *s)
{
  const json_t *rows = table_rows (cb, s);
  size_t r, i;

  for (r = 0; r < json_array_size (rows); r++)
    {
      const json_t *row = json_array_get (rows, r);
      const json_t *v = json_object_get (row, cb->value);

      i = find_or_add_row (cb, row, s->file);
      if (cb->seen[i * MAX_SOURCES + j])
        die_duplicate (cb, s, i);
      cb->seen[i * MAX_SOURCES + j] = 1;
      if (json_is_number (v))
        cb->values[i * MAX_SOURCES + j] = json_number_value (v);
    }
}


/* Die unless the label of CB's source J names a column of its own:
 * not a key column, not the label of an earlier source.  */
static void
check_label (const struct combination *cb, size_t j)
{
  const char *label = sources[cb->src[j]].label;
  size_t k;

  for (k = 0; k < cb->nkeys; k++)
    if (!strcmp (label, cb->keys[k]))
      bench_die (label, "a file's label is also a column of its table;"
                 " give the file another with --label");
  for (k = 0; k < j; k++)
    if (!strcmp (label, sources[cb->src[k]].label))
      bench_die (label, "two files of one tool have this label;"
                 " give one of them another with --label");
}


/* The table of CB: the key columns, then a value and a ratio column
 * per source (no ratio for the baseline), then the geometric means.  */
static void
add_combined_table (report_t *rep, struct combination *cb)
{
  char *base = shown_label (&sources[cb->src[cb->base]]);
  report_table_t *tab = report_add_table
    (rep, bench_xasprintf ("%s_%s", cb->tool, cb->table),
     bench_xasprintf ("%s: %s, and xSOURCE = SOURCE / %s", cb->tool,
                      cb->value, base));
  int c_key[MAX_KEYS], c_val[MAX_SOURCES], c_ratio[MAX_SOURCES];
  struct bench_geomean gval[MAX_SOURCES], gratio[MAX_SOURCES];
  size_t i, j, k;

  free (base);

  for (k = 0; k < cb->nkeys; k++)
    c_key[k] = report_add_column (tab, cb->keys[k], cb->keys[k], REPORT_STR,
                                  0, 0);
  for (j = 0; j < cb->nsrc; j++)
    {
      const struct source *s = &sources[cb->src[j]];
      char *header = shown_label (s);

      check_label (cb, j);
      c_val[j] = report_add_column (tab, s->label, header, REPORT_NUM, 1, 0);
      if (j != cb->base)
        {
          char *key = bench_xasprintf ("ratio_%s", s->label);
          char *ratio_header = bench_xasprintf ("x%s", header);

          c_ratio[j] = report_add_column (tab, key, ratio_header,
                                          REPORT_RATIO, 2, 0);
          free (key);
          free (ratio_header);
        }
      free (header);
    }
  memset (gval, 0, sizeof gval);
  memset (gratio, 0, sizeof gratio);
  for (i = 0; i < cb->nnames; i++)
    {
      const double *v = cb->values + i * MAX_SOURCES;
      int complete = 1;

      report_add_row (tab);
      for (k = 0; k < cb->nkeys; k++)
        report_set_str (tab, c_key[k], cb->keyvals[i * cb->nkeys + k]);
      for (j = 0; j < cb->nsrc; j++)
        {
          complete &= v[j] > 0;
          report_set_num (tab, c_val[j], v[j]);
          if (j == cb->base)
            continue;
          report_set_num (tab, c_ratio[j], v[j] / v[cb->base]);
          if (v[j] > 0 && v[cb->base] > 0)
            bench_geomean_add (&gratio[j], v[j] / v[cb->base]);
        }
      /* The means of the figures are over the same rows for every
       * source, or they would not compare.  */
      for (j = 0; complete && j < cb->nsrc; j++)
        bench_geomean_add (&gval[j], v[j]);
    }
  report_add_row (tab);
  report_set_str (tab, c_key[0], "geomean");
  for (k = 1; k < cb->nkeys; k++)
    report_set_str (tab, c_key[k], "");
  for (j = 0; j < cb->nsrc; j++)
    {
      report_set_num (tab, c_val[j], bench_geomean (&gval[j]));
      if (j != cb->base)
        report_set_num (tab, c_ratio[j], bench_geomean (&gratio[j]));
    }
}


/* Draw CB's figures, a group of bars per row, one bar per source.  */
static void
plot_combination (const struct combination *cb, const char *file)
{
  char **cats = bench_xcalloc (cb->nnames, sizeof *cats);
  char **series = bench_xcalloc (cb->nsrc, sizeof *series);
  double *values = bench_xcalloc (cb->nnames * cb->nsrc, sizeof *values);
  char *title;
  size_t i, j, k;

  for (i = 0; i < cb->nnames; i++)
    {
      cats[i] = bench_xstrdup (cb->keyvals[i * cb->nkeys]);
      for (k = 1; k < cb->nkeys; k++)
        {
          char *c = bench_xasprintf ("%s %s", cats[i],
                                     cb->keyvals[i * cb->nkeys + k]);

          free (cats[i]);
          cats[i] = c;
        }
      for (j = 0; j < cb->nsrc; j++)
        values[i * cb->nsrc + j] = cb->values[i * MAX_SOURCES + j];
    }
  for (j = 0; j < cb->nsrc; j++)
    series[j] = shown_label (&sources[cb->src[j]]);
  title = bench_xasprintf ("%s: %s", cb->tool, cb->value);
  plot_bars (file, title, cb->value, cb->nnames, cats, cb->nsrc, series,
             values);
  free (title);
  bench_free_strings (cats, cb->nnames);
  bench_free_strings (series, cb->nsrc);
  free (values);
  stop_if_interrupted ();
}


/* The combinations, one per tool in the order the tools come.  */
static void
make_combinations (void)
{
  size_t i, c;

  for (i = 0; i < nsources; i++)
    {
      for (c = 0; c < ncbs; c++)
        if (!strcmp (cbs[c].tool, sources[i].tool))
          break;
      if (c == ncbs)
        {
          cbs[c].tool = sources[i].tool;
          set_defaults (&cbs[c]);
          ncbs++;
        }
      cbs[c].src[cbs[c].nsrc++] = i;
    }
  for (c = 0; c < ncbs; c++)
    {
      if ((size_t) opt.baseline > cbs[c].nsrc)
        bench_die ("--baseline", bench_xasprintf
                       ("%s has only %zu files", cbs[c].tool, cbs[c].nsrc));
      cbs[c].base = opt.baseline - 1;
      check_columns (&cbs[c]);
      for (i = 0; i < cbs[c].nsrc; i++)
        collect (&cbs[c], i, &sources[cbs[c].src[i]]);
    }
}


/* Draw a chart per tool for the page, when gnuplot is there.  */
static void
draw_page_charts (report_t *rep)
{
  size_t c;

  if (!plot_available ())
    {
      fprintf (stderr, "%s: gnuplot not found: the page has no charts"
               " (apt-get install gnuplot-nox)\n", bench_progname);
      return;
    }
  chart_dir = bench_xasprintf ("%s/sfreport.XXXXXX", bench_temp_dir ());
  if (!mkdtemp (chart_dir))
    {
      char *why = strerror (errno);

      free (chart_dir);
      chart_dir = NULL;
      bench_die (bench_temp_dir (), why);
    }
  for (c = 0; c < ncbs; c++)
    {
      charts[ncharts] = bench_xasprintf ("%s/%zu.svg", chart_dir, c);
      ncharts++;
      plot_combination (&cbs[c], charts[c]);
      report_add_chart (rep, charts[c]);
    }
}


int
main (int argc, char **argv)
{
  static report_t *rep;
  size_t c, i;

  bench_progname = "sfreport";
  bench_at_die (on_die);
  parse_args (argc, argv);
  read_sources ();
  make_combinations ();
  rep = report_new ("sfreport");
  report_provenance (rep, argc, argv);
  report_note (rep, "%zu result files from %zu tool%s; each tool's table"
               " compares one figure, and its ratios are to that tool's"
               " file number %d", nsources, ncbs, ncbs == 1 ? "" : "s",
               opt.baseline);
  report_note (rep, "geomean: the geometric mean of the figures over the"
               " rows every file has, and of the ratios over the rows"
               " that have both figures");
  for (i = 0; i < nsources && !sources[i].emulated; i++)
    ;
  if (i < nsources)
    report_note (rep, EMULATED_MARK ": a file whose figures were measured"
                 " under an emulator (qemu-user); they measure the emulator,"
                 " not a machine");
  add_sources_table (rep);
  for (c = 0; c < ncbs; c++)
    add_combined_table (rep, &cbs[c]);
  catch_signals ();
  if (opt.plot)
    plot_combination (&cbs[0], opt.plot);
  if (opt.format == REPORT_HTML || opt.save)
    draw_page_charts (rep);
  charts_done ();
  report_print (rep, opt.format, stdout);
  if (opt.save)
    report_save (rep, opt.save);
  if (fflush (stdout) || ferror (stdout))
    bench_die ("standard output", strerror (errno));
  remove_charts ();
  return 0;
}
