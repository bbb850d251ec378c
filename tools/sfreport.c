/* sfreport.c - benchmark results from several runs, side by side
 *
 * Reads the JSON results of sfbench, cipherbench and buildmatrix, from
 * one machine or several, one tool or several, and prints for each
 * tool one table: the rows are matched by the columns that name them
 * (the algorithm, the mode, ...), and each source gets a column with
 * the figure compared and one with its ratio to the baseline source;
 * a last row gives the geometric means, as Crypto++'s tables do.  A
 * table of the sources says where each comes from (its provenance;
 * "unknown" for a file from an sfenc that did not record it).  The
 * output is text, Markdown, CSV, JSON or a self-contained HTML page
 * with the tables and a chart per tool.
 */
#include <config.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "benchutil.h"
#include "json.h"
#include "plot.h"
#include "report.h"

#define MAX_SOURCES 32

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

/* The provenance fields shown in the sources table; the first ones in
 * every format, the others only in CSV, JSON and... HTML too.  */
static const char *const source_fields[] =
  {
    "date", "cpu", "cores", "compiler", "sfenc", "cpu_flags", "kernel",
    "cflags", "libgcrypt", "openssl", "gpg", "rnp", "command"
  };
#define N_SHORT_FIELDS 5

struct source
{
  const char *file;
  char *label;
  json_t *doc;
  const char *tool;
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


static void
read_sources (void)
{
  size_t i;

  for (i = 0; i < nsources; i++)
    {
      sources[i].doc = json_read_file (sources[i].file);
      sources[i].tool = json_get_string (sources[i].doc, "tool");
      if (!sources[i].tool)
        bench_die (sources[i].file, "not a result file (no \"tool\")");
    }
}


/* The sources table: a row per file and where it comes from.  */
static void
add_sources_table (report_t *rep)
{
  report_table_t *tab = report_add_table (rep, "sources", NULL);
  int col[sizeof source_fields / sizeof *source_fields];
  size_t i, f;
  int c_label, c_tool, c_file;

  c_label = report_add_column (tab, "label", "SOURCE", REPORT_STR, 0, 0);
  c_tool = report_add_column (tab, "tool", "TOOL", REPORT_STR, 0, 0);
  for (f = 0; f < sizeof source_fields / sizeof *source_fields; f++)
    col[f] = report_add_column (tab, source_fields[f], source_fields[f],
                                REPORT_STR, 0,
                                f < N_SHORT_FIELDS ? 0 : REPORT_DETAIL);
  c_file = report_add_column (tab, "file", "file", REPORT_STR, 0,
                              REPORT_DETAIL);
  for (i = 0; i < nsources; i++)
    {
      const json_t *prov = json_get (sources[i].doc, "provenance");

      report_add_row (tab);
      report_set_str (tab, c_label, sources[i].label);
      report_set_str (tab, c_tool, sources[i].tool);
      for (f = 0; f < sizeof source_fields / sizeof *source_fields; f++)
        {
          const char *v = json_get_string (prov, source_fields[f]);

          report_set_str (tab, col[f], v ? v : "unknown");
        }
      report_set_str (tab, c_file, sources[i].file);
    }
}


/* Between the key values of a row's name: no result has it.  */
#define KEY_SEPARATOR "\x1f"

/* The value of column KEY of ROW as text.  */
static char *
key_text (const json_t *row, const char *key)
{
  const json_t *v = json_get (row, key);

  if (!v || v->type == JSON_NULL)
    return bench_xstrdup ("-");
  if (v->type == JSON_STRING)
    return bench_xstrdup (v->string);
  if (v->type == JSON_NUMBER)
    return bench_xasprintf ("%g", v->number);
  return bench_xstrdup (v->type == JSON_TRUE ? "true" : "false");
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
  double *values;               /* nnames * nsrc; NAN when missing.  */
};


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
}


/* The index of the row that ROW of a result names, a new one (all
 * its figures missing) if no source had it yet.  */
static size_t
find_or_add_row (struct combination *cb, const json_t *row)
{
  char **vals = bench_xcalloc (cb->nkeys, sizeof *vals);
  char *name = bench_xstrdup ("");
  size_t i, k;

  for (k = 0; k < cb->nkeys; k++)
    {
      char *joined;

      vals[k] = key_text (row, cb->keys[k]);
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
  for (k = 0; k < MAX_SOURCES; k++)
    cb->values[cb->nnames * MAX_SOURCES + k] = NAN;
  return cb->nnames++;
}


/* Collect the figures of source S, the Jth of CB.  */
static void
collect (struct combination *cb, size_t j, const struct source *s)
{
  const json_t *rows = json_get (s->doc, cb->table);
  size_t r, i;

  if (!rows || rows->type != JSON_ARRAY)
    bench_die (s->file, bench_xasprintf ("no table \"%s\"", cb->table));
  for (r = 0; r < rows->n; r++)
    {
      const json_t *v = json_get (rows->items[r], cb->value);

      i = find_or_add_row (cb, rows->items[r]);
      if (v && v->type == JSON_NUMBER)
        cb->values[i * MAX_SOURCES + j] = v->number;
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
  report_table_t *tab = report_add_table
    (rep, bench_xasprintf ("%s_%s", cb->tool, cb->table),
     bench_xasprintf ("%s: %s, and xSOURCE = SOURCE / %s", cb->tool,
                      cb->value, sources[cb->src[cb->base]].label));
  int c_key[16], c_val[MAX_SOURCES], c_ratio[MAX_SOURCES];
  struct bench_geomean gval[MAX_SOURCES], gratio[MAX_SOURCES];
  size_t i, j, k;

  if (cb->nkeys > sizeof c_key / sizeof *c_key)
    bench_die ("--key", "too many columns");
  for (k = 0; k < cb->nkeys; k++)
    c_key[k] = report_add_column (tab, cb->keys[k], cb->keys[k], REPORT_STR,
                                  0, 0);
  for (j = 0; j < cb->nsrc; j++)
    {
      const char *label = sources[cb->src[j]].label;

      check_label (cb, j);
      c_val[j] = report_add_column (tab, label, label, REPORT_NUM, 1, 0);
      if (j != cb->base)
        c_ratio[j] = report_add_column
          (tab, bench_xasprintf ("ratio_%s", label),
           bench_xasprintf ("x%s", label), REPORT_RATIO, 2, 0);
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
  char *label, *p;
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
    series[j] = sources[cb->src[j]].label;
  /* gnuplot would take an underscore for a subscript.  */
  label = bench_xstrdup (cb->value);
  for (p = label; (p = strchr (p, '_')); )
    *p = ' ';
  plot_bars (file, bench_xasprintf ("%s: %s", cb->tool, label), label,
             cb->nnames, cats, cb->nsrc, series, values);
  free (label);
  for (i = 0; i < cb->nnames; i++)
    free (cats[i]);
  free (cats);
  free (series);
  free (values);
}


/* The combinations, one per tool in the order the tools come.  */
static size_t
make_combinations (struct combination *cbs)
{
  size_t i, c, ncbs = 0;

  for (i = 0; i < nsources; i++)
    {
      for (c = 0; c < ncbs; c++)
        if (!strcmp (cbs[c].tool, sources[i].tool))
          break;
      if (c == ncbs)
        {
          memset (&cbs[c], 0, sizeof cbs[c]);
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
      for (i = 0; i < cbs[c].nsrc; i++)
        collect (&cbs[c], i, &sources[cbs[c].src[i]]);
    }
  return ncbs;
}


int
main (int argc, char **argv)
{
  struct combination cbs[MAX_SOURCES];
  char *chart;
  size_t ncbs, c;
  report_t *rep;
  char tmpdir[] = "/tmp/sfreport.XXXXXX";

  parse_args (argc, argv);
  read_sources ();
  ncbs = make_combinations (cbs);
  rep = report_new ("sfreport");
  report_provenance (rep, argc, argv);
  report_note (rep, "%zu result files from %zu tool%s; each tool's table"
               " compares one figure, and its ratios are to that tool's"
               " file number %d", nsources, ncbs, ncbs == 1 ? "" : "s",
               opt.baseline);
  report_note (rep, "geomean: the geometric mean of the figures over the"
               " rows every file has, and of the ratios over the rows"
               " that have both figures");
  add_sources_table (rep);
  for (c = 0; c < ncbs; c++)
    add_combined_table (rep, &cbs[c]);
  if (opt.plot)
    plot_combination (&cbs[0], opt.plot);
  /* The page shows a chart per tool, drawn in a directory of its own.  */
  if (opt.format == REPORT_HTML || opt.save)
    {
      plot_check ("sfreport", "chart.svg");
      if (!mkdtemp (tmpdir))
        bench_die (tmpdir, "cannot make a temporary directory");
      for (c = 0; c < ncbs; c++)
        {
          chart = bench_xasprintf ("%s/%zu.svg", tmpdir, c);
          plot_combination (&cbs[c], chart);
          report_add_chart (rep, chart);
        }
    }
  report_print (rep, opt.format, stdout);
  if (opt.save)
    report_save (rep, opt.save);
  if (opt.format == REPORT_HTML || opt.save)
    {
      for (c = 0; c < ncbs; c++)
        remove (bench_xasprintf ("%s/%zu.svg", tmpdir, c));
      remove (tmpdir);
    }
  return 0;
}
