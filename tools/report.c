/* report.c - benchmark tables as aligned text, Markdown, CSV, JSON or HTML
 *
 * See report.h.  Text is what a person reads in a terminal: notes as
 * "# " lines, then columns padded to the widest cell.  Markdown is the
 * same table for doc/benchmarks.md.  CSV and JSON are for programs:
 * every column, numbers without units, missing cells as "n/a" (CSV)
 * or null (JSON).  HTML is the page a reader would rather look at:
 * what Markdown shows, with the charts inline, readable offline.
 */
#include <config.h>

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "benchutil.h"
#include "provenance.h"
#include "report.h"

#define MAX_COLUMNS 64

struct column
{
  char *key;                    /* Copies of the caller's.  */
  char *header;
  enum report_col_kind kind;
  int decimals;
  unsigned int flags;
};

struct cell
{
  int set;
  char *str;                    /* For REPORT_STR columns; the footnote
                                   mark of a missing cell, or the mark
                                   of a number (report_mark).  */
  double num;
};

struct report_table
{
  const char *name;
  const char *title;
  unsigned int flags;
  struct column cols[MAX_COLUMNS];
  int ncols;
  struct cell *cells;           /* nrows * MAX_COLUMNS.  */
  size_t nrows, allocated;
  struct report_table *next;
};

struct report
{
  const char *tool;
  char **notes;
  size_t nnotes;
  provenance_t prov;
  char **charts;                /* SVG files for the HTML page.  */
  size_t ncharts;
  report_table_t *tables, *last;
};


report_t *
report_new (const char *tool)
{
  report_t *rep = bench_xcalloc (1, sizeof *rep);

  rep->tool = tool;
  return rep;
}

static void
free_table (report_table_t *tab)
{
  size_t i;
  int c;

  for (c = 0; c < tab->ncols; c++)
    {
      free (tab->cols[c].key);
      free (tab->cols[c].header);
    }
  for (i = 0; i < tab->nrows * MAX_COLUMNS; i++)
    free (tab->cells[i].str);
  free (tab->cells);
  free (tab);
}

void
report_free (report_t *rep)
{
  report_table_t *tab, *next;
  size_t i;

  for (tab = rep->tables; tab; tab = next)
    {
      next = tab->next;
      free_table (tab);
    }
  for (i = 0; i < rep->nnotes; i++)
    free (rep->notes[i]);
  free (rep->notes);
  for (i = 0; i < rep->ncharts; i++)
    free (rep->charts[i]);
  free (rep->charts);
  provenance_free (&rep->prov);
  free (rep);
}

void
report_provenance (report_t *rep, int argc, char **argv)
{
  provenance_collect (&rep->prov, argc, argv);
}

void
report_set_provenance (report_t *rep, const char *key, const char *value)
{
  provenance_set (&rep->prov, key, value);
}

void
report_set_program (report_t *rep, const char *file)
{
  provenance_program (&rep->prov, file);
}

/* The provenance field KEY of REP for a person to read.  */
static const char *
prov_text (const report_t *rep, const char *key)
{
  const char *v = provenance_get (&rep->prov, key);

  return v ? v : "unknown";
}

/* Print LINE begun with LEAD, escaped for a terminal, and free it.  */
static void
print_note_line (const char *lead, char *line, FILE *fp)
{
  char *printable = bench_printable (line);

  fprintf (fp, "%s%s\n", lead, printable);
  free (printable);
  free (line);
}

/* The provenance as lines begun with LEAD, in the manner of openssl
 * speed's "built on", "compiler" and "options".  */
static void
print_provenance_lines (const report_t *rep, const char *lead, FILE *fp)
{
  if (!rep->prov.n)
    return;
  print_note_line (lead, bench_xasprintf
                   ("built on: %s (%s), %s cores, %s", prov_text (rep, "cpu"),
                    prov_text (rep, "cpu_flags"), prov_text (rep, "cores"),
                    prov_text (rep, "kernel")), fp);
  print_note_line (lead, bench_xasprintf
                   ("compiler: %s, CFLAGS %s", prov_text (rep, "compiler"),
                    prov_text (rep, "cflags")), fp);
  print_note_line (lead, bench_xasprintf
                   ("versions: sfenc %s, libgcrypt %s, OpenSSL %s, gpg %s,"
                    " rnp %s", prov_text (rep, "sfenc"),
                    prov_text (rep, "libgcrypt"), prov_text (rep, "openssl"),
                    prov_text (rep, "gpg"), prov_text (rep, "rnp")), fp);
  if (provenance_get (&rep->prov, "sfenc_path"))
    print_note_line (lead, bench_xasprintf
                     ("measured sfenc: %s (%s): %s",
                      prov_text (rep, "sfenc_path"),
                      prov_text (rep, "sfenc_file"),
                      prov_text (rep, "sfenc_version")), fp);
  print_note_line (lead, bench_xasprintf
                   ("run: %s, SFENC_DISABLE_HWF %s: %s",
                    prov_text (rep, "date"), prov_text (rep, "disable_hwf"),
                    prov_text (rep, "command")), fp);
}

void
report_add_chart (report_t *rep, const char *file)
{
  rep->charts = bench_xrealloc (rep->charts, rep->ncharts + 1,
                                sizeof *rep->charts);
  rep->charts[rep->ncharts++] = bench_xstrdup (file);
}

void
report_note (report_t *rep, const char *fmt, ...)
{
  va_list ap;
  char *note;
  int len;

  va_start (ap, fmt);
  len = vasprintf (&note, fmt, ap);
  va_end (ap);
  if (len < 0)
    bench_die ("out of core", strerror (errno));
  rep->notes = bench_xrealloc (rep->notes, rep->nnotes + 1,
                               sizeof *rep->notes);
  rep->notes[rep->nnotes++] = note;
}

report_table_t *
report_add_table (report_t *rep, const char *name, const char *title)
{
  report_table_t *tab = bench_xcalloc (1, sizeof *tab);

  tab->name = name;
  tab->title = title;
  if (rep->last)
    rep->last->next = tab;
  else
    rep->tables = tab;
  rep->last = tab;
  return tab;
}

void
report_set_table_flags (report_table_t *tab, unsigned int flags)
{
  tab->flags = flags;
}

int
report_add_column (report_table_t *tab, const char *key, const char *header,
                   enum report_col_kind kind, int decimals,
                   unsigned int flags)
{
  struct column *col;

  if (tab->ncols == MAX_COLUMNS)
    bench_die (key, "too many report columns");
  col = &tab->cols[tab->ncols];
  col->key = bench_xstrdup (key);
  col->header = bench_xstrdup (header);
  col->kind = kind;
  col->decimals = decimals;
  col->flags = flags;
  return tab->ncols++;
}

void
report_add_row (report_table_t *tab)
{
  if (tab->nrows == tab->allocated)
    {
      size_t n = tab->allocated ? 2 * tab->allocated : 16;
      struct cell *cells = bench_xrealloc (tab->cells, n * MAX_COLUMNS,
                                           sizeof *cells);

      memset (cells + tab->allocated * MAX_COLUMNS, 0,
              (n - tab->allocated) * MAX_COLUMNS * sizeof *cells);
      tab->cells = cells;
      tab->allocated = n;
    }
  tab->nrows++;
}

static struct cell *
last_cell (report_table_t *tab, int col)
{
  if (!tab->nrows || col < 0 || col >= tab->ncols)
    bench_die ("report", "cell outside the table");
  return &tab->cells[(tab->nrows - 1) * MAX_COLUMNS + col];
}

void
report_set_str (report_table_t *tab, int col, const char *s)
{
  struct cell *c = last_cell (tab, col);

  free (c->str);
  c->str = s ? bench_xstrdup (s) : NULL;
  c->set = s != NULL;
}

void
report_set_num (report_table_t *tab, int col, double v)
{
  struct cell *c = last_cell (tab, col);

  c->num = v;
  c->set = !isnan (v) && !isinf (v);
}

void
report_set_missing (report_table_t *tab, int col, const char *mark)
{
  struct cell *c = last_cell (tab, col);

  free (c->str);
  c->str = bench_xstrdup (mark);
  c->set = 0;
}

void
report_mark (report_table_t *tab, int col, const char *mark)
{
  struct cell *c = last_cell (tab, col);

  if (tab->cols[col].kind == REPORT_STR || !c->set)
    bench_die ("report", "only a number can be marked");
  free (c->str);
  c->str = bench_xstrdup (mark);
}

size_t
report_nrows (const report_table_t *tab)
{
  return tab->nrows;
}

/* The digits after the point of figure V in a column of DECIMALS: a
 * figure below 1 keeps two significant digits, 0.0042x and not 0.00x.  */
static int
figure_decimals (double v, int decimals)
{
  int needed;

  if (v == 0 || fabs (v) >= 1)
    return decimals;
  needed = 1 - (int) floor (log10 (fabs (v)));
  return needed > decimals ? needed : decimals;
}

/* Cell (ROW, COL) of TAB as FORMAT shows it, in a new string; *R_SET
 * (if not NULL) gets 0 for a missing cell, which shows as "n/a".  Text
 * and Markdown, read on a terminal, get their control characters
 * escaped.  */
static char *
format_cell (const report_table_t *tab, size_t row, int col,
             enum report_format format, int *r_set)
{
  const struct cell *c = &tab->cells[row * MAX_COLUMNS + col];
  const struct column *k = &tab->cols[col];
  char *text;

  if (r_set)
    *r_set = c->set;
  if (!c->set)
    text = bench_xasprintf ("n/a%s", c->str ? c->str : "");
  else if (k->kind == REPORT_STR)
    text = bench_xstrdup (c->str);
  else if (k->kind == REPORT_BOOL)
    text = bench_xstrdup (c->num ? "true" : "false");
  else
    {
      int for_people = format == REPORT_TEXT || format == REPORT_MARKDOWN
                       || format == REPORT_HTML;

      text = bench_xasprintf ("%.*f%s%s",
                              figure_decimals (c->num, k->decimals), c->num,
                              k->kind == REPORT_RATIO && for_people ? "x" : "",
                              c->str && for_people ? c->str : "");
    }
  if (format == REPORT_TEXT || format == REPORT_MARKDOWN)
    {
      char *escaped = bench_printable (text);

      free (text);
      text = escaped;
    }
  return text;
}

/* Whether an item with FLAGS appears in FORMAT.  */
static int
shown (unsigned int flags, enum report_format format)
{
  return !(flags & REPORT_DETAIL)
    || format == REPORT_CSV || format == REPORT_JSON
    || (format == REPORT_HTML && (flags & REPORT_PAGE));
}

/* Print TEXT as cell or header of column C of TAB, padded to WIDTH
 * unless it is the LAST column shown; FIRST: no separator before it.  */
static void
print_text_cell (const report_table_t *tab, int c, int last, int first,
                 size_t width, const char *text, FILE *fp)
{
  /* Headers align as their figures do; the last column is not
   * padded, so lines end without blanks.  */
  if (tab->cols[c].kind == REPORT_STR)
    fprintf (fp, "%s%-*s", first ? "" : "  ", c == last ? 0 : (int) width,
             text);
  else
    fprintf (fp, "%s%*s", first ? "" : "  ", (int) width, text);
}

static void
print_text_table (const report_table_t *tab, FILE *fp)
{
  size_t width[MAX_COLUMNS];
  char *text, **headers = bench_xcalloc (tab->ncols, sizeof *headers);
  size_t r;
  int c, first, last = 0;

  for (c = 0; c < tab->ncols; c++)
    {
      if (shown (tab->cols[c].flags, REPORT_TEXT))
        last = c;
      headers[c] = bench_printable (tab->cols[c].header);
      width[c] = strlen (headers[c]);
      for (r = 0; r < tab->nrows; r++)
        {
          text = format_cell (tab, r, c, REPORT_TEXT, NULL);
          if (strlen (text) > width[c])
            width[c] = strlen (text);
          free (text);
        }
    }
  if (tab->title)
    {
      text = bench_printable (tab->title);
      fprintf (fp, "# %s\n", text);
      free (text);
    }
  for (first = 1, c = 0; c < tab->ncols; c++)
    if (shown (tab->cols[c].flags, REPORT_TEXT))
      {
        print_text_cell (tab, c, last, first, width[c], headers[c], fp);
        first = 0;
      }
  fputc ('\n', fp);
  for (r = 0; r < tab->nrows; r++)
    {
      for (first = 1, c = 0; c < tab->ncols; c++)
        {
          if (!shown (tab->cols[c].flags, REPORT_TEXT))
            continue;
          text = format_cell (tab, r, c, REPORT_TEXT, NULL);
          print_text_cell (tab, c, last, first, width[c], text, fp);
          free (text);
          first = 0;
        }
      fputc ('\n', fp);
    }
  for (c = 0; c < tab->ncols; c++)
    free (headers[c]);
  free (headers);
}

/* Print TEXT, escaped for a terminal, with Markdown's table separator
 * "|" escaped too.  */
static void
print_markdown_text (const char *text, FILE *fp)
{
  char *printable = bench_printable (text), *p;

  for (p = printable; *p; p++)
    {
      if (*p == '|')
        fputc ('\\', fp);
      fputc (*p, fp);
    }
  free (printable);
}

static void
print_markdown_table (const report_table_t *tab, FILE *fp)
{
  char *text;
  size_t r;
  int c;

  if (tab->title)
    {
      fputs ("**", fp);
      print_markdown_text (tab->title, fp);
      fputs ("**\n\n", fp);
    }
  for (c = 0; c < tab->ncols; c++)
    if (shown (tab->cols[c].flags, REPORT_MARKDOWN))
      {
        fputs ("| ", fp);
        print_markdown_text (tab->cols[c].header, fp);
        fputc (' ', fp);
      }
  fputs ("|\n", fp);
  for (c = 0; c < tab->ncols; c++)
    if (shown (tab->cols[c].flags, REPORT_MARKDOWN))
      fputs (tab->cols[c].kind == REPORT_STR ? "|---" : "|---:", fp);
  fputs ("|\n", fp);
  for (r = 0; r < tab->nrows; r++)
    {
      for (c = 0; c < tab->ncols; c++)
        if (shown (tab->cols[c].flags, REPORT_MARKDOWN))
          {
            text = format_cell (tab, r, c, REPORT_MARKDOWN, NULL);
            fputs ("| ", fp);
            print_markdown_text (text, fp);
            fputc (' ', fp);
            free (text);
          }
      fputs ("|\n", fp);
    }
}

static void
print_csv_field (const char *s, FILE *fp)
{
  if (!strpbrk (s, ",\"\n"))
    {
      fputs (s, fp);
      return;
    }
  fputc ('"', fp);
  for (; *s; s++)
    {
      if (*s == '"')
        fputc ('"', fp);
      fputc (*s, fp);
    }
  fputc ('"', fp);
}

static void
print_csv_table (const report_table_t *tab, FILE *fp)
{
  char *text;
  size_t r;
  int c;

  for (c = 0; c < tab->ncols; c++)
    {
      if (c)
        fputc (',', fp);
      print_csv_field (tab->cols[c].key, fp);
    }
  fputc ('\n', fp);
  for (r = 0; r < tab->nrows; r++)
    {
      for (c = 0; c < tab->ncols; c++)
        {
          if (c)
            fputc (',', fp);
          text = format_cell (tab, r, c, REPORT_CSV, NULL);
          print_csv_field (text, fp);
          free (text);
        }
      fputc ('\n', fp);
    }
}

static void
print_json_string (const char *s, FILE *fp)
{
  fputc ('"', fp);
  for (; *s; s++)
    {
      unsigned char ch = (unsigned char) *s;

      if (ch == '"' || ch == '\\')
        fprintf (fp, "\\%c", ch);
      else if (ch < 0x20)
        fprintf (fp, "\\u%04x", ch);
      else
        fputc (ch, fp);
    }
  fputc ('"', fp);
}

static void
print_json_table (const report_table_t *tab, FILE *fp)
{
  char *text;
  size_t r;
  int c, set;

  fputs ("  ", fp);
  print_json_string (tab->name, fp);
  fputs (": [", fp);
  for (r = 0; r < tab->nrows; r++)
    {
      fputs (r ? ",\n    {" : "\n    {", fp);
      for (c = 0; c < tab->ncols; c++)
        {
          if (c)
            fputs (", ", fp);
          print_json_string (tab->cols[c].key, fp);
          fputs (": ", fp);
          text = format_cell (tab, r, c, REPORT_JSON, &set);
          if (!set)
            fputs ("null", fp);
          else if (tab->cols[c].kind == REPORT_STR)
            print_json_string (text, fp);
          else
            fputs (text, fp);
          free (text);
        }
      fputc ('}', fp);
    }
  fputs (tab->nrows ? "\n  ]" : "]", fp);
}

/* Write S with HTML's special characters escaped.  */
static void
print_html_text (const char *s, FILE *fp)
{
  for (; *s; s++)
    switch (*s)
      {
      case '<': fputs ("&lt;", fp); break;
      case '>': fputs ("&gt;", fp); break;
      case '&': fputs ("&amp;", fp); break;
      case '"': fputs ("&quot;", fp); break;
      default: fputc (*s, fp);
      }
}

/* A table as HTML: its name in data-table and each cell's column key
 * in data-key, so that a script (or a test) finds the figures.  */
static void
print_html_table (const report_table_t *tab, FILE *fp)
{
  char *text;
  size_t r;
  int c;

  fputs ("<table data-table=\"", fp);
  print_html_text (tab->name, fp);
  fputs ("\">\n<caption>", fp);
  print_html_text (tab->title ? tab->title : tab->name, fp);
  fputs ("</caption>\n<thead><tr>", fp);
  for (c = 0; c < tab->ncols; c++)
    if (shown (tab->cols[c].flags, REPORT_HTML))
      {
        fputs ("<th>", fp);
        print_html_text (tab->cols[c].header, fp);
        fputs ("</th>", fp);
      }
  fputs ("</tr></thead>\n<tbody>\n", fp);
  for (r = 0; r < tab->nrows; r++)
    {
      fputs ("<tr>", fp);
      for (c = 0; c < tab->ncols; c++)
        if (shown (tab->cols[c].flags, REPORT_HTML))
          {
            text = format_cell (tab, r, c, REPORT_HTML, NULL);
            fprintf (fp, "<td%s data-key=\"",
                     tab->cols[c].kind == REPORT_STR ? "" : " class=\"num\"");
            print_html_text (tab->cols[c].key, fp);
            fputs ("\">", fp);
            print_html_text (text, fp);
            fputs ("</td>", fp);
            free (text);
          }
      fputs ("</tr>\n", fp);
    }
  fputs ("</tbody>\n</table>\n", fp);
}

/* Copy the SVG file NAME into the page, without its XML declaration,
 * which may only begin a document.  */
static void
print_html_chart (const char *name, FILE *fp)
{
  size_t len = strlen (name);
  char line[4096];
  FILE *in;

  if (len < 4 || strcmp (name + len - 4, ".svg"))
    return;
  in = fopen (name, "r");
  if (!in)
    bench_die (name, strerror (errno));
  fputs ("<figure>\n", fp);
  while (fgets (line, sizeof line, in))
    if (strncmp (line, "<?xml", 5))
      fputs (line, fp);
  if (ferror (in))
    bench_die (name, strerror (errno));
  fclose (in);
  fputs ("</figure>\n", fp);
}

static void
print_html (const report_t *rep, FILE *fp)
{
  const report_table_t *tab;
  size_t i;

  fputs ("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
         "<meta charset=\"utf-8\">\n<title>", fp);
  print_html_text (rep->tool, fp);
  fputs ("</title>\n<style>\n"
         "body { font-family: sans-serif; margin: 2em; color: #222; }\n"
         "table { border-collapse: collapse; margin: 1em 0; }\n"
         "th, td { border: 1px solid #bbb; padding: 0.2em 0.6em; }\n"
         "th { background: #eee; }\n"
         "td.num { text-align: right; font-variant-numeric: tabular-nums; }\n"
         "caption { text-align: left; font-weight: bold; }\n"
         "</style>\n</head>\n<body>\n<h1>", fp);
  print_html_text (rep->tool, fp);
  fputs ("</h1>\n<ul>\n", fp);
  for (i = 0; i < rep->nnotes; i++)
    {
      fputs ("<li>", fp);
      print_html_text (rep->notes[i], fp);
      fputs ("</li>\n", fp);
    }
  fputs ("</ul>\n", fp);
  if (rep->prov.n)
    {
      fputs ("<table data-table=\"provenance\">\n<caption>provenance"
             "</caption>\n<tbody>\n", fp);
      for (i = 0; i < rep->prov.n; i++)
        {
          fputs ("<tr><th>", fp);
          print_html_text (rep->prov.keys[i], fp);
          fputs ("</th><td>", fp);
          print_html_text (rep->prov.values[i], fp);
          fputs ("</td></tr>\n", fp);
        }
      fputs ("</tbody>\n</table>\n", fp);
    }
  for (tab = rep->tables; tab; tab = tab->next)
    if (shown (tab->flags, REPORT_HTML))
      print_html_table (tab, fp);
  for (i = 0; i < rep->ncharts; i++)
    print_html_chart (rep->charts[i], fp);
  fputs ("</body>\n</html>\n", fp);
}

void
report_print (const report_t *rep, enum report_format format, FILE *fp)
{
  const report_table_t *tab;
  size_t i;

  switch (format)
    {
    case REPORT_TEXT:
      for (i = 0; i < rep->nnotes; i++)
        print_note_line ("# ", bench_xstrdup (rep->notes[i]), fp);
      print_provenance_lines (rep, "# ", fp);
      for (i = 0, tab = rep->tables; tab; tab = tab->next)
        if (shown (tab->flags, REPORT_TEXT))
          {
            if (i++)
              fputc ('\n', fp);
            print_text_table (tab, fp);
          }
      break;
    case REPORT_MARKDOWN:
      for (i = 0; i < rep->nnotes; i++)
        print_note_line ("- ", bench_xstrdup (rep->notes[i]), fp);
      print_provenance_lines (rep, "- ", fp);
      for (tab = rep->tables; tab; tab = tab->next)
        if (shown (tab->flags, REPORT_MARKDOWN))
          {
            fputc ('\n', fp);
            print_markdown_table (tab, fp);
          }
      break;
    case REPORT_CSV:
      for (tab = rep->tables; tab; tab = tab->next)
        {
          if (tab != rep->tables)
            fputc ('\n', fp);
          print_csv_table (tab, fp);
        }
      break;
    case REPORT_JSON:
      fputs ("{\n  \"tool\": ", fp);
      print_json_string (rep->tool, fp);
      fputs (",\n  \"provenance\": {", fp);
      for (i = 0; i < rep->prov.n; i++)
        {
          fputs (i ? ",\n    " : "\n    ", fp);
          print_json_string (rep->prov.keys[i], fp);
          fputs (": ", fp);
          print_json_string (rep->prov.values[i], fp);
        }
      fputs (rep->prov.n ? "\n  }" : "}", fp);
      fputs (",\n  \"notes\": [", fp);
      for (i = 0; i < rep->nnotes; i++)
        {
          fputs (i ? ",\n    " : "\n    ", fp);
          print_json_string (rep->notes[i], fp);
        }
      fputs (rep->nnotes ? "\n  ]" : "]", fp);
      for (tab = rep->tables; tab; tab = tab->next)
        {
          fputs (",\n", fp);
          print_json_table (tab, fp);
        }
      fputs ("\n}\n", fp);
      break;
    case REPORT_HTML:
      print_html (rep, fp);
      break;
    }
  fflush (fp);
}

void
report_save (const report_t *rep, const char *prefix)
{
  static const struct
  {
    const char *suffix;
    enum report_format format;
  } files[] =
    {
      { ".txt", REPORT_TEXT }, { ".md", REPORT_MARKDOWN },
      { ".csv", REPORT_CSV }, { ".json", REPORT_JSON },
      { ".html", REPORT_HTML }
    };
  size_t i;

  for (i = 0; i < sizeof files / sizeof *files; i++)
    {
      char *name = bench_xasprintf ("%s%s", prefix, files[i].suffix);
      FILE *fp;

      fp = fopen (name, "w");
      if (!fp)
        bench_die (name, strerror (errno));
      report_print (rep, files[i].format, fp);
      if (ferror (fp) | fclose (fp))
        bench_die (name, strerror (errno));
      free (name);
    }
}

enum report_format
report_parse_format (const char *option, const char *s)
{
  if (!strcmp (s, "text"))
    return REPORT_TEXT;
  if (!strcmp (s, "markdown") || !strcmp (s, "md"))
    return REPORT_MARKDOWN;
  if (!strcmp (s, "csv"))
    return REPORT_CSV;
  if (!strcmp (s, "json"))
    return REPORT_JSON;
  if (!strcmp (s, "html"))
    return REPORT_HTML;
  bench_die (option, "text, markdown, csv, json or html expected");
}
