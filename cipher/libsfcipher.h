/* libsfcipher.h - the cipher table and the generic modes
 *
 * The interface the sfenc program, the tools and the tests use.  Not
 * installed: modules see only sfcipher.h.
 */
#ifndef LIBSFCIPHER_H
#define LIBSFCIPHER_H

#include <stddef.h>
#include "sfcipher.h"
#include "sha1.h"

/*
 * The cipher table.
 */

/* One registered implementation.  ORIGIN is NULL for a module built
 * into the program and the file name for one loaded at run time.  */
typedef struct sf_table_entry
{
  const sf_cipher_spec_t *spec;
  const char *origin;
} sf_table_entry_t;

/* Register every built-in module.  Idempotent.  A built-in spec that
 * is refused (its self-test failed) is reported on stderr and left
 * out; the return value is the first such error, 0 if none.  */
gpg_error_t sf_table_init (void);

/* Register SPEC, which comes from ORIGIN (see above).  Runs the
 * spec's self-test.  A spec from a module (ORIGIN not NULL) must also
 * agree with every built-in implementation of the algorithm it claims
 * (the same canonical name or alias, either way round, or the same
 * OpenPGP id): the same block size and key length, and that
 * implementation's known answers; a standard OpenPGP id that no
 * built-in implementation has must meet the answers libgcrypt's
 * implementation of it gives, and an id OpenPGP does not assign is
 * refused.  A private id (SF_OPENPGP_PRIVATE_FIRST..LAST) belongs to
 * one algorithm in the table.  The self-tests run in a guarded
 * context, so a CONTEXTSIZE too small is refused.  The priority must
 * be within 0..SF_PRIO_ACCEL, so a module at most ties with built-in
 * accelerated code, and a tie goes to the one registered first.  On
 * refusal returns GPG_ERR_UNKNOWN_VERSION (ABI mismatch),
 * GPG_ERR_INV_ARG (malformed spec, a name, alias or IMPL that is not
 * printable ASCII without spaces, priority out of range, an id OpenPGP
 * does not assign, a CONTEXTSIZE too small), GPG_ERR_DUP_NAME (same
 * algorithm and implementation, or a private id, already registered),
 * GPG_ERR_CONFLICT (geometry differs from the claimed algorithm's),
 * GPG_ERR_CIPHER_ALGO (a standard id libgcrypt lacks, so the claim
 * cannot be checked) or GPG_ERR_SELFTEST_FAILED, and writes a one-line
 * explanation to WHY (WHYLEN bytes, may be 0).  Every ABI version
 * from 1 to SF_ABI_VERSION is accepted (GPG_ERR_UNKNOWN_VERSION
 * outside), and a field is read only when the spec's version has it.
 * The self-test includes the stitched CFB + SHA-1 entry and the OCB
 * entry when they are usable (see sf_spec_cfb_sha1, sf_spec_ocb).  */
gpg_error_t sf_table_register (const sf_cipher_spec_t *spec,
                               const char *origin,
                               char *why, size_t whylen);

/* Register every spec of MODULE, as sf_table_register.  A module is
 * taken whole or not at all: on the first refusal the specs already
 * registered from it are removed again.  */
gpg_error_t sf_table_register_module (const sf_module_t *module,
                                      const char *origin,
                                      char *why, size_t whylen);

/* The registered implementations in registration order, which is
 * stable: built-in modules in configure's order, then dynamic ones in
 * load order.  Returns NULL past the end.  */
const sf_table_entry_t *sf_table_nth (size_t idx);

/* Find the implementation IMPL (the default one when IMPL is NULL) of
 * the algorithm named ALGO: a canonical name or an alias, compared
 * case-insensitively, or a decimal OpenPGP id.  Returns 0 and stores
 * the spec at R_SPEC, or GPG_ERR_CIPHER_ALGO (no such algorithm),
 * GPG_ERR_NOT_FOUND (no such implementation of it) or
 * GPG_ERR_NOT_SUPPORTED (it exists but cannot run here).  */
gpg_error_t sf_table_find (const char *algo, const char *impl,
                           const sf_cipher_spec_t **r_spec);

/* As sf_table_find, by OpenPGP algorithm id.  */
gpg_error_t sf_table_find_id (int openpgp_id, const char *impl,
                              const sf_cipher_spec_t **r_spec);

/* The standard OpenPGP cipher id gpg 2.2 reads NAME as: "S" and the
 * id ("S9"), or a name libgcrypt knows one of the registry's ciphers
 * by, aliases included ("AES-256"); 0 when gpg reads none.  The
 * cipher need not be registered here (CAMELLIA128).  */
int sf_openpgp_cipher_id (const char *name);

/* True when ID is one of OpenPGP's private and experimental cipher
 * ids, SF_OPENPGP_PRIVATE_FIRST to SF_OPENPGP_PRIVATE_LAST.  */
int sf_openpgp_id_private (int id);

/* The origin of the registered SPEC: NULL when it is built in (or not
 * registered), else the file it was loaded from.  */
const char *sf_table_origin (const sf_cipher_spec_t *spec);

/* For SPEC from a loaded module, the built-in implementation of the
 * same algorithm that would be the default without modules: the
 * usable one with the highest priority.  NULL when SPEC is built in
 * or no built-in implementation of its algorithm can run here.  */
const sf_cipher_spec_t *sf_table_builtin_default (const sf_cipher_spec_t *spec);

/* sf_hwf_disabled (FEATURE), whether SFENC_DISABLE_HWF turns a
 * hardware feature off, is in sfcipher.h: modules use it too.  */

/* True when SPEC can run here: its hardware feature is not disabled
 * by SFENC_DISABLE_HWF and its usable() probe agrees.  */
int sf_spec_usable (const sf_cipher_spec_t *spec);

/* The stitched CFB + SHA-1 entry of SPEC when SPEC has one (ABI
 * version 2 or later) and it can run here: SPEC is usable, the
 * entry's hardware feature is not disabled by SFENC_DISABLE_HWF and
 * its usable() probe agrees.  NULL otherwise.  */
const sf_cfb_sha1_t *sf_spec_cfb_sha1 (const sf_cipher_spec_t *spec);

/* The OCB entry of SPEC when SPEC has one (ABI version 3 or later)
 * and it can run here, as for sf_spec_cfb_sha1.  NULL otherwise.  */
const sf_ocb_t *sf_spec_ocb (const sf_cipher_spec_t *spec);

/* What SPEC claims about its timing: SF_TIMING_UNKNOWN for a spec
 * built for ABI version 1.  */
int sf_spec_timing (const sf_cipher_spec_t *spec);

/* "constant", "tables" or "unknown", for SF_TIMING_*.  */
const char *sf_timing_name (int timing);

/* True when NAME is the canonical name or an alias of SPEC.  */
int sf_spec_has_name (const sf_cipher_spec_t *spec, const char *name);

/* Run the self-test of SPEC: its known answers, the round trip, and
 * its stitched CFB + SHA-1 and OCB entries when usable.  Returns 0 or
 * GPG_ERR_SELFTEST_FAILED with a one-line explanation in WHY.  */
gpg_error_t sf_spec_selftest (const sf_cipher_spec_t *spec,
                              char *why, size_t whylen);

/*
 * Dynamic modules (dynload.c).
 */

/* The directory searched for modules: SFENC_MODULE_DIR when set, else
 * the one chosen at configure time ($(pkglibdir)/modules).  A
 * privileged process (see sf_module_load) ignores SFENC_MODULE_DIR.  */
const char *sf_module_dir (void);

/* Load the module FILE and register its specs.  A FILE without a
 * slash is looked up in the module directory, with ".so" appended if
 * needed.  Loading runs the file's code (its constructors) before
 * anything in it can be checked, so first, without loading, FILE and
 * the directory holding it (both as named and after symbolic links)
 * must be owned by root or by the real user and writable by nobody
 * else, and FILE must be a regular file starting with the ELF header
 * of a shared object.  A file already loaded (the same file after
 * symbolic links) is not loaded again, and that is not an error.
 * Refuses, with a one-line explanation in WHY: a
 * file that does not exist or is not a shared object
 * (GPG_ERR_ENOENT, GPG_ERR_INV_OBJ), unsafe ownership or permissions
 * (GPG_ERR_EPERM), a shared object without the sf_module symbol
 * (GPG_ERR_NOT_FOUND: not an sfenc module), and everything
 * sf_table_register_module refuses.  Loading is refused altogether in
 * a privileged process: setuid, setgid, or granted capabilities by
 * its file (AT_SECURE), GPG_ERR_EPERM.  */
gpg_error_t sf_module_load (const char *file, char *why, size_t whylen);

/* Load every "*.so" file in DIR, in name order, as sf_module_load
 * (so skipping files that are already loaded).  A missing directory
 * is not an error; one with unsafe ownership or permissions (as for
 * sf_module_load) is reported on stderr as "sfenc: DIR: WHY" and
 * nothing in it is loaded.  Each refused file is reported on stderr as
 * "sfenc: FILE: WHY"; the return value is the first error.  */
gpg_error_t sf_module_load_dir (const char *dir);

/*
 * Generic modes, written once over any spec.
 */

enum sf_cipher_mode
  {
    SF_MODE_ECB = 1,
    SF_MODE_CBC,
    SF_MODE_CFB,          /* Full-block feedback (SP 800-38A CFB128/64).  */
    SF_MODE_OPENPGP_CFB,  /* CFB with sf_cipher_sync (RFC 4880 13.9).  */
    SF_MODE_CTR,
    SF_MODE_OFB
  };

/* Flags for sf_cipher_open.  */
#define SF_CIPHER_SECURE 1   /* Key schedule in libgcrypt secure memory.  */

typedef struct sf_cipher_hd *sf_cipher_hd_t;

/* Overwrite the stack below the caller and clear the vector
 * registers, where key setup and bulk functions leave round keys.
 * The handles call it when a key is set and when they are closed.  */
void sf_burn_key_traces (void);

/* Open a handle for SPEC in MODE.  */
gpg_error_t sf_cipher_open (sf_cipher_hd_t *r_hd,
                            const sf_cipher_spec_t *spec,
                            enum sf_cipher_mode mode, unsigned int flags);

/* Wipe and free HD.  NULL is allowed.  */
void sf_cipher_close (sf_cipher_hd_t hd);

gpg_error_t sf_cipher_setkey (sf_cipher_hd_t hd,
                              const void *key, size_t keylen);

/* Set the IV (CBC, CFB, OFB) or the initial counter block (CTR).
 * IVLEN must be the block size; IV NULL means all zeroes.  Also
 * discards any partial block state.  */
gpg_error_t sf_cipher_setiv (sf_cipher_hd_t hd,
                             const void *iv, size_t ivlen);

/* Encrypt or decrypt LEN bytes from IN to OUT (IN == OUT allowed).
 * ECB and CBC need LEN to be a multiple of the block size; the other
 * modes take any length and continue across calls.  */
gpg_error_t sf_cipher_encrypt (sf_cipher_hd_t hd, void *out,
                               const void *in, size_t len);
gpg_error_t sf_cipher_decrypt (sf_cipher_hd_t hd, void *out,
                               const void *in, size_t len);

/* OpenPGP CFB resynchronisation (RFC 4880 13.9, step 9): when the
 * last call stopped inside a block, the feedback register is set to
 * the last BLOCKSIZE bytes of ciphertext and the next byte starts a
 * fresh block.  Only in SF_MODE_OPENPGP_CFB.  */
gpg_error_t sf_cipher_sync (sf_cipher_hd_t hd);

const sf_cipher_spec_t *sf_cipher_get_spec (sf_cipher_hd_t hd);

/* CFB and SHA-1 together, for OpenPGP's MDC: hash the plaintext
 * (IN) into MD and encrypt LEN bytes from IN to OUT, or decrypt
 * them and hash the plaintext (OUT); IN == OUT allowed.  The same
 * bytes, digest and state as sf_sha1_write and sf_cipher_encrypt
 * (sf_cipher_decrypt then sf_sha1_write) in series, for any lengths
 * and splits.  Wherever the CFB position and MD's both stand at a
 * 64-byte boundary, as they do when the hash and the cipher stream
 * start together, the spec's stitched entry (sf_spec_cfb_sha1, taken
 * when HD was opened) does the whole 64-byte blocks in one pass.
 * Only in SF_MODE_CFB, else GPG_ERR_INV_CIPHER_MODE.  */
gpg_error_t sf_cipher_encrypt_sha1 (sf_cipher_hd_t hd, void *out,
                                    const void *in, size_t len,
                                    sf_sha1_t *md);
gpg_error_t sf_cipher_decrypt_sha1 (sf_cipher_hd_t hd, void *out,
                                    const void *in, size_t len,
                                    sf_sha1_t *md);

/* The stitched entry HD uses in sf_cipher_encrypt_sha1 and
 * sf_cipher_decrypt_sha1, or NULL when they run CFB and SHA-1 in
 * series.  */
const sf_cfb_sha1_t *sf_cipher_cfb_sha1 (sf_cipher_hd_t hd);

#endif /*LIBSFCIPHER_H*/
