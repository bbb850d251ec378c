/* extension.h - what encryption and decryption ask of extension.c  */
#ifndef EXTENSION_H
#define EXTENSION_H

#include "sfenc.h"

/* Say once per run, unless -q, that SPEC comes from a loaded module
 * although a built-in implementation of its algorithm could run.  */
void extension_note_use (const sf_cipher_spec_t *spec);

#endif /*EXTENSION_H*/
