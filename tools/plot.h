/* plot.h - grouped bar charts through gnuplot
 *
 * One group of bars per category (an algorithm), one bar per series
 * (sfenc and its peers, or the implementations), written as SVG or
 * PNG according to the file name.  gnuplot is run as a program: the
 * environment variable GNUPLOT names it, "gnuplot" by default.  Its
 * temporary files go to $TMPDIR, else /tmp.
 */
#ifndef PLOT_H
#define PLOT_H

#include <stddef.h>

/* Whether gnuplot can be run.  */
int plot_available (void);

/* Die unless FILE ends in ".svg" or ".png" and gnuplot can be run.
 * Called before measuring, so that a missing gnuplot costs nothing.  */
void plot_check (const char *option, const char *file);

/* Draw VALUES (NCATS rows of NSERIES figures; NaN for missing) into
 * FILE.  The y axis is logarithmic when the figures span more than
 * two decimal orders.  Dies on error.  */
void plot_bars (const char *file, const char *title, const char *ylabel,
                size_t ncats, char *const *cats,
                size_t nseries, char *const *series,
                const double *values);

#endif /*PLOT_H*/
