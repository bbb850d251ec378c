/* write-output.c - write a command's output file, armored or not
 *
 * The commands that write one output from start to end (-c, --store,
 * --enarmor, --dearmor) share its steps here: the file of outfile.c,
 * which appears only when complete, with the armor writer of armor.c
 * between it and the body when asked for.  The output of -d is opened
 * apart, as the literal packet may name it.
 */
#include <config.h>

#include "outfile.h"
#include "write-output.h"


gpg_error_t
write_output (const char *name, enum armor_block armor,
              write_output_body_t body, void *ctx)
{
  gpg_error_t err, close_err;
  outfile_t out;
  armor_writer_t *aw = NULL;

  err = outfile_open (&out, name);
  if (err)
    return err;
  if (armor != ARMOR_NONE)
    err = armor_writer_new (&aw, armor, fd_sink, &out.stream);
  if (!err)
    err = body (ctx, aw ? armor_writer_sink : fd_sink,
                aw ? (void *)aw : (void *)&out.stream);
  if (!err && aw)
    err = armor_writer_finish (aw);
  close_err = outfile_close (&out, !err);
  armor_writer_release (aw);
  return err ? err : close_err;
}
