/* progress.h - how much of the input has been read
 *
 * One count of the bytes read from the input feeds two reports: the
 * one-line display on stderr (--progress) and gpg's PROGRESS status
 * lines (--enable-progress-filter with --status-fd).  Counting costs
 * an addition per read(2) of up to 64 KiB; the clock is read only
 * when a report is wanted, and then from the coarse monotonic clock.
 */
#ifndef SFENC_PROGRESS_H
#define SFENC_PROGRESS_H

#include <gpg-error.h>

/* --progress: show the display, on a terminal or not.  */
void progress_enable_display (void);

/* --enable-progress-filter: write PROGRESS status lines.  */
void progress_enable_status (void);

/* Start counting the input read from FD, called NAME in the PROGRESS
 * lines.  Its size is known when FD is a regular file.  */
void progress_start (int fd, const char *name);

/* fd_source, counting what it reads: the input of -c and -d is read
 * through it and nothing else.  */
gpg_error_t progress_source (void *ctx, unsigned char *buf, size_t size,
                             size_t *nread);

/* The operation is over: draw the display's last line, with its
 * newline.  */
void progress_finish (void);

/* End the display's line so that a message can follow on stderr.  */
void progress_break_line (void);

#endif /*SFENC_PROGRESS_H*/
