/* report.h - benchmark tables as aligned text, Markdown, CSV, JSON or HTML
 *
 * A report is a list of notes (what was measured and how) and one or
 * more named tables.  A table has typed columns; a cell is a string, a
 * number, a truth value or missing, and a missing cell prints as "n/a"
 * (null in JSON), optionally followed by a footnote mark.  Detail
 * columns and detail tables appear only in CSV and JSON (and in HTML
 * when so flagged), so the text, Markdown and HTML output stays narrow
 * and short enough to read.  Text and Markdown escape control
 * characters (bench_printable), HTML its own special characters.  The HTML page
 * is self-contained: its charts are inline SVG.
 */
#ifndef REPORT_H
#define REPORT_H

#include <stdio.h>

enum report_format
  {
    REPORT_TEXT,
    REPORT_MARKDOWN,
    REPORT_CSV,
    REPORT_JSON,
    REPORT_HTML
  };

enum report_col_kind
  {
    REPORT_STR,         /* Left-aligned text.  */
    REPORT_NUM,         /* Right-aligned number.  */
    REPORT_RATIO,       /* A number, "1.23x" in text and Markdown.  */
    REPORT_BOOL         /* true or false.  */
  };

/* Column and table flag: only in CSV and JSON.  */
#define REPORT_DETAIL 1
/* Column flag: a REPORT_DETAIL column that the HTML page shows too.  */
#define REPORT_PAGE 2

typedef struct report report_t;
typedef struct report_table report_table_t;

report_t *report_new (const char *tool);

/* Free REP, its tables and everything they hold.  */
void report_free (report_t *rep);

/* Record where the results come from (provenance.h) for the command
 * ARGV of ARGC words; printed in every format but CSV.  */
void report_provenance (report_t *rep, int argc, char **argv);

/* Set one field of it that the tool knows better ("libgcrypt").  */
void report_set_provenance (report_t *rep, const char *key,
                            const char *value);

/* Record that the figures are those of the sfenc FILE, which the tool
 * runs (provenance_program).  */
void report_set_program (report_t *rep, const char *file);

/* Show the chart in FILE (plot.h) in the HTML page, inline, when it is
 * SVG (a PNG chart is left out); the file is read when the page is
 * printed.  */
void report_add_chart (report_t *rep, const char *file);

/* Add a note line (printf format).  */
void report_note (report_t *rep, const char *fmt, ...)
  __attribute__ ((format (printf, 2, 3)));

/* Add a table called NAME ("results", "summary") with an optional
 * TITLE printed above it.  */
report_table_t *report_add_table (report_t *rep, const char *name,
                                  const char *title);

/* Set the flags of TAB (REPORT_DETAIL).  */
void report_set_table_flags (report_table_t *tab, unsigned int flags);

/* Add a column: KEY names it in CSV and JSON, HEADER in text and
 * Markdown (both copied); numbers print with DECIMALS digits after
 * the point.  Returns its index.  */
int report_add_column (report_table_t *tab, const char *key,
                       const char *header, enum report_col_kind kind,
                       int decimals, unsigned int flags);

/* Start a new row; its cells are missing until set.  */
void report_add_row (report_table_t *tab);

/* Set a cell of the last row.  A NaN or infinite number is missing.
 * A REPORT_BOOL cell is set with report_set_num: 0 is false.  */
void report_set_str (report_table_t *tab, int col, const char *s);
void report_set_num (report_table_t *tab, int col, double v);

/* Make a cell of the last row missing with a footnote MARK: "n/a*"
 * for "*" in text, Markdown and CSV, null in JSON.  */
void report_set_missing (report_table_t *tab, int col, const char *mark);

/* Follow the number in cell COL of the last row with MARK ("*") in
 * text and Markdown, to single it out (the best of a row); CSV and
 * JSON keep the bare number.  */
void report_mark (report_table_t *tab, int col, const char *mark);

/* Number of rows so far.  */
size_t report_nrows (const report_table_t *tab);

/* Print REP in FORMAT to FP.  CSV holds the tables one after the
 * other, each with its own header line, separated by an empty line.  */
void report_print (const report_t *rep, enum report_format format, FILE *fp);

/* Write PREFIX.txt, PREFIX.md, PREFIX.csv, PREFIX.json and
 * PREFIX.html; dies on error.  */
void report_save (const report_t *rep, const char *prefix);

/* Parse "text", "markdown", "csv", "json" or "html"; dies on anything
 * else.  */
enum report_format report_parse_format (const char *option, const char *s);

#endif /*REPORT_H*/
