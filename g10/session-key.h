/* session-key.h - --show-session-key and --override-session-key
 *
 * gpg writes a message's session key as "ALGO:HEX": the OpenPGP id of
 * the data's cipher in decimal, a colon and the key in hexadecimal
 * (upper case when shown); for LibrePGP's AEAD packet (tag 20) as
 * "ALGO.AEAD:HEX", AEAD being the id of the AEAD algorithm.  An SEIPD
 * v2 packet names both algorithms itself, so its key is shown as
 * "ALGO:HEX", as RFC 9580 tools (sq, the SOP interface) write it.
 * Either form is accepted back, and with it no passphrase is asked
 * for: the SKESKs are not used, and none need be there.
 */
#ifndef SFENC_SESSION_KEY_H
#define SFENC_SESSION_KEY_H

#include <stddef.h>
#include <gpg-error.h>

/* Read the key of --override-session-key or --override-session-key-fd
 * into secure memory and wipe the option's string; nothing without
 * either option.  Called once, before the message is read.  */
gpg_error_t session_key_load (void);

/* True when a session key was given: decrypt with it, ask for no
 * passphrase.  */
int session_key_overridden (void);

/* Copy the given session key to KEY (secure memory of SIZE bytes):
 * its length at *R_KEYLEN and its cipher at *R_ALGO.  DATA_ALGO is the
 * cipher the data packet names, 0 for SEIPD v1 and SED: a key for
 * another cipher is refused.  */
gpg_error_t session_key_take (int data_algo, unsigned char *key, size_t size,
                              size_t *r_keylen, int *r_algo);

/* With --show-session-key: write the session KEY of KEYLEN bytes for
 * the cipher ALGO (and AEAD_ALGO of a tag 20 packet, else 0) as gpg
 * does, on stderr and as the SESSION_KEY status line.  */
void session_key_show (int algo, int aead_algo, const unsigned char *key,
                       size_t keylen);

/* Wipe and free the given session key.  */
void session_key_release (void);

#endif /*SFENC_SESSION_KEY_H*/
