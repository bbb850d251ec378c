/* status.h - machine-readable status lines (--status-fd)
 *
 * Programs that drive gpg read its status lines, "[GNUPG:] KEYWORD
 * ARGS", from the descriptor given with --status-fd (GnuPG's
 * doc/DETAILS).  sfenc writes the lines gpg 2.2 writes for gpg -c and
 * for decrypting with a passphrase, with the same arguments, at the
 * same events, so that such a program can drive sfenc instead.  The
 * functions below are the events; each writes nothing unless
 * --status-fd was given.  sfenc(1), section STATUS, lists the lines
 * and where they differ from gpg's.
 */
#ifndef SFENC_STATUS_H
#define SFENC_STATUS_H

#include <stdint.h>
#include <gpg-error.h>

#include "iobuf.h"
#include "s2k.h"

/* Write the status lines to the open descriptor FD (--status-fd).  */
gpg_error_t status_set_fd (int fd);

/* True when status lines are written.  */
int status_enabled (void);

/* --exit-on-status-write-error: a status line that cannot be written
 * ends the run at once (exit status 2, no output file left), as it
 * ends gpg; a client cancels an operation by closing the status
 * descriptor.  Without it the lines stop and the work goes on.  */
void status_exit_on_write_error (void);

/* A question on the command descriptor (command-fd.c): TYPE is
 * "GET_HIDDEN" or "GET_BOOL", KEYWORD gpg's name of the question; the
 * answer was read.  */
void status_get (const char *type, const char *keyword);
void status_got_it (void);

/* Passphrases longer than MAXLEN bytes are refused.  */
void status_inquire_maxlen (unsigned int maxlen);

/* The answer to the passphrase question was empty, or the command
 * descriptor ended before an answer.  */
void status_missing_passphrase (void);
void status_canceled_by_user (void);

/* No key for the recipient NAME, or for signing (NAME NULL when none
 * was named): sfenc has no keys (key-command.c).  */
void status_invalid_recipient (const char *name);
void status_invalid_signer (const char *name);
/* -e without -r: no recipient at all.  */
void status_no_recipients (void);

/* One file of --decrypt-files (OPERATION 3) or --encrypt-files (2)
 * starts, and is done, failed or not.  */
void status_file_start (int operation, const char *name);
void status_file_done (void);

/* ENCRYPT of --server had no recipient: NO_RECP 0.  */
void status_no_recipients (void);

/* A passphrase is needed for CIPHER_ALGO (OpenPGP id) and S2K.  */
void status_need_passphrase_sym (int cipher_algo, const s2k_t *s2k);

/* The encrypted data starts: with an MDC, or with AEAD_ALGO (an
 * OpenPGP AEAD id) when it is not 0.  */
void status_begin_encryption (int cipher_algo, int aead_algo);
void status_end_encryption (void);

/* A PKESK packet for the key KEYID (8 bytes) of public-key algorithm
 * ALGO was read: sfenc has no secret key for it, nor for any.  */
void status_enc_to (const unsigned char *keyid, int algo);

/* The encrypted data packet starts.  */
void status_begin_decryption (void);

/* Its key is known: MDC_METHOD is the hash of its MDC (2 for SHA-1,
 * 0 for none), AEAD_ALGO 0 unless it is AEAD encrypted.  */
void status_decryption_info (int mdc_method, int cipher_algo, int aead_algo);

/* --show-session-key: the session key as gpg shows it, "ALGO:HEX".  */
void status_session_key (const char *shown);

/* The literal data packet HDR starts with FIELDS: the format byte,
 * the name's length and name, the four-byte date (RFC 4880 5.9).  */
void status_plaintext (const packet_header_t *hdr,
                       const unsigned char *fields);

/* The MDC was checked: GOOD or not.  Reported at the end of the
 * decryption, as gpg reports it.  */
void status_mdc_checked (int good);

/* The decryption of the data packet ended with ERR.  UNVERIFIED says
 * that its integrity check could not complete (the data ended early
 * or could not be decrypted), which gpg reports as a bad MDC, as it
 * reports a GPG_ERR_BAD_SIGNATURE or GPG_ERR_TRUNCATED of AEAD
 * encrypted data; a GPG_ERR_BAD_KEY is a wrong passphrase.  */
void status_end_decryption (gpg_error_t err, int unverified);

/* END_DECRYPTION of a --list-only run, which decrypted nothing: no
 * DECRYPTION_OKAY, as in gpg.  */
void status_end_listing (void);

/* No armored data was found where --dearmor looked for it.  */
void status_no_armored_data (void);

/* The command named WHERE ("symencrypt", "decrypt") failed with ERR,
 * unless the failure was already reported as DECRYPTION_FAILED.  */
void status_failure (const char *where, gpg_error_t err);

/* ERROR WHERE CODE: a failed check before the FAILURE line.  */
void status_error (const char *where, gpg_error_t err);

/* DECRYPTION_COMPLIANCE_MODE FLAG: the data meets the compliance mode
 * FLAG ("23", de-vs).  */
void status_decryption_compliance (const char *flag);

/* CURRENT of TOTAL bytes of WHAT have been read (TOTAL 0 when the
 * size is unknown).  */
void status_progress (const char *what, uint64_t current, uint64_t total);

#endif /*SFENC_STATUS_H*/
