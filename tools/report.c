/* report.c - benchmark tables as aligned text, Markdown, CSV or JSON
 *
 * See report.h.  Text is what a person reads in a terminal: notes as
 * "# " lines, then columns padded to the widest cell.  Markdown is the
 * same table for doc/benchmarks.md.  CSV and JSON are for programs:
 * every column, numbers without units, missing cells as "n/a" (CSV)
 * or null (JSON).
 */
#include <config.h>

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "benchutil.h"
#include "report.h"

#define MAX_COLUMNS 64

struct column
{
  const char *key;
  const char *header;
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
  report_table_t *tables, *last;
};


report_t *
report_new (const char *tool)
{
  report_t *rep = bench_xcalloc (1, sizeof *rep);

  rep->tool = tool;
  return rep;
}

void
report_note (report_t *rep, const char *fmt, ...)
{
  char buf[1024];
  va_list ap;

  va_start (ap, fmt);
  vsnprintf (buf, sizeof buf, fmt, ap);
  va_end (ap);
  rep->notes = bench_xrealloc (rep->notes, rep->nnotes + 1,
                               sizeof *rep->notes);
  rep->notes[rep->nnotes++] = bench_xstrdup (buf);
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
  col->key = key;
  col->header = header;
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

/* Format cell (ROW, COL) of TAB into BUF as FORMAT shows it.  Returns
 * 0 for a missing cell (BUF then holds "n/a").  */
static int
format_cell (const report_table_t *tab, size_t row, int col,
             enum report_format format, char *buf, size_t buflen)
{
  const struct cell *c = &tab->cells[row * MAX_COLUMNS + col];
  const struct column *k = &tab->cols[col];

  if (!c->set)
    {
      snprintf (buf, buflen, "n/a%s", c->str ? c->str : "");
      return 0;
    }
  if (k->kind == REPORT_STR)
    snprintf (buf, buflen, "%s", c->str);
  else if (k->kind == REPORT_BOOL)
    snprintf (buf, buflen, "%s", c->num ? "true" : "false");
  else
    {
      int for_people = format == REPORT_TEXT || format == REPORT_MARKDOWN;

      snprintf (buf, buflen, "%.*f%s%s", k->decimals, c->num,
                k->kind == REPORT_RATIO && for_people ? "x" : "",
                c->str && for_people ? c->str : "");
    }
  return 1;
}

/* Whether an item with FLAGS appears in FORMAT.  */
static int
shown (unsigned int flags, enum report_format format)
{
  return !(flags & REPORT_DETAIL)
    || format == REPORT_CSV || format == REPORT_JSON;
}

static void
print_text_table (const report_table_t *tab, FILE *fp)
{
  size_t width[MAX_COLUMNS];
  char buf[256];
  size_t r;
  int c, first, last = 0;

  for (c = 0; c < tab->ncols; c++)
    {
      if (shown (tab->cols[c].flags, REPORT_TEXT))
        last = c;
      width[c] = strlen (tab->cols[c].header);
      for (r = 0; r < tab->nrows; r++)
        {
          format_cell (tab, r, c, REPORT_TEXT, buf, sizeof buf);
          if (strlen (buf) > width[c])
            width[c] = strlen (buf);
        }
    }
  if (tab->title)
    fprintf (fp, "# %s\n", tab->title);
  for (first = 1, c = 0; c < tab->ncols; c++)
    if (shown (tab->cols[c].flags, REPORT_TEXT))
      {
        /* Headers align as their figures do; the last column is not
         * padded, so lines end without blanks.  */
        if (tab->cols[c].kind == REPORT_STR)
          fprintf (fp, "%s%-*s", first ? "" : "  ",
                   c == last ? 0 : (int) width[c], tab->cols[c].header);
        else
          fprintf (fp, "%s%*s", first ? "" : "  ", (int) width[c],
                   tab->cols[c].header);
        first = 0;
      }
  fputc ('\n', fp);
  for (r = 0; r < tab->nrows; r++)
    {
      for (first = 1, c = 0; c < tab->ncols; c++)
        {
          if (!shown (tab->cols[c].flags, REPORT_TEXT))
            continue;
          format_cell (tab, r, c, REPORT_TEXT, buf, sizeof buf);
          if (tab->cols[c].kind == REPORT_STR)
            fprintf (fp, "%s%-*s", first ? "" : "  ",
                     c == last ? 0 : (int) width[c], buf);
          else
            fprintf (fp, "%s%*s", first ? "" : "  ", (int) width[c], buf);
          first = 0;
        }
      fputc ('\n', fp);
    }
}

static void
print_markdown_table (const report_table_t *tab, FILE *fp)
{
  char buf[256];
  size_t r;
  int c;

  if (tab->title)
    fprintf (fp, "**%s**\n\n", tab->title);
  for (c = 0; c < tab->ncols; c++)
    if (shown (tab->cols[c].flags, REPORT_MARKDOWN))
      fprintf (fp, "| %s ", tab->cols[c].header);
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
            format_cell (tab, r, c, REPORT_MARKDOWN, buf, sizeof buf);
            fprintf (fp, "| %s ", buf);
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
  char buf[256];
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
          format_cell (tab, r, c, REPORT_CSV, buf, sizeof buf);
          print_csv_field (buf, fp);
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
  char buf[256];
  size_t r;
  int c;

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
          if (!format_cell (tab, r, c, REPORT_JSON, buf, sizeof buf))
            fputs ("null", fp);
          else if (tab->cols[c].kind == REPORT_STR)
            print_json_string (buf, fp);
          else
            fputs (buf, fp);
        }
      fputc ('}', fp);
    }
  fputs (tab->nrows ? "\n  ]" : "]", fp);
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
        fprintf (fp, "# %s\n", rep->notes[i]);
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
        fprintf (fp, "- %s\n", rep->notes[i]);
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
      { ".csv", REPORT_CSV }, { ".json", REPORT_JSON }
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
  bench_die (option, "text, markdown, csv or json expected");
}
