/* extension.h - dynamic cipher modules (extension.c)
 */
#ifndef SFENC_EXTENSION_H
#define SFENC_EXTENSION_H

#include <gpg-error.h>

#include "libsfcipher.h"

/* Load the dynamic cipher module FILE (--load-extension).  */
gpg_error_t extension_load (const char *file);

/* Load the modules of the module directory (skipped with
 * --no-auto-modules).  */
gpg_error_t extension_load_auto (void);

/* Say once per run, unless -q, that SPEC comes from a loaded module
 * although a built-in implementation of its algorithm could run.  */
void extension_note_use (const sf_cipher_spec_t *spec);

/* Warn, unless -q, that a message encrypted with SPEC, whose OpenPGP
 * id is one of those for private use, is readable only by an sfenc
 * with the same cipher at that id, and not by gpg.  */
void extension_warn_private_id (const sf_cipher_spec_t *spec);

#endif /*SFENC_EXTENSION_H*/
