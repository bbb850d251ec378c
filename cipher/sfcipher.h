/* sfcipher.h - the sfenc block-cipher module ABI
 *
 * This header is the whole contract between a cipher module and the
 * program that uses it.  It is installed, so third parties can build
 * modules out of tree (pkg-config --cflags sfcipher); it therefore
 * holds only what a module needs and nothing of the cipher table's
 * internals.
 *
 * A module is one C file exporting one or more specs.  A spec
 * describes one implementation of one algorithm at one key size:
 *
 *   - who it is: canonical NAME ("AES", "CAST5", ...), a NULL
 *     terminated list of ALIASES ("RIJNDAEL", "CAST-128", ...), the
 *     OpenPGP algorithm id (RFC 4880 9.2, 0 for none; a standard id
 *     is a claim the table checks against that cipher's known
 *     answers, and one OpenPGP does not assign is refused), and the name
 *     of the implementation IMPL ("ref", "aesni", "gcrypt", ...);
 *     names are printable ASCII without spaces;
 *
 *   - its geometry: BLOCKSIZE and KEYLEN in bytes; CONTEXTSIZE, the
 *     number of bytes the caller allocates for the key schedule (at
 *     most SF_MAX_CONTEXTSIZE);
 *
 *   - its code: SETKEY, and ENCRYPT / DECRYPT of a single block,
 *     plus optional bulk functions that the generic modes call when
 *     present (NULL otherwise, never required for correctness);
 *
 *   - optionally (ABI version 2), CFB_SHA1: CFB stitched with the
 *     SHA-1 of the plaintext, for OpenPGP's MDC (see sf_cfb_sha1_t);
 *
 *   - what it claims about its timing (ABI version 2), TIMING: one of
 *     SF_TIMING_*, shown by sfenc --list-ciphers and checked by the
 *     test suite, which runs every implementation with its key and
 *     its data marked secret under valgrind (tests/ctgrind.sh);
 *
 *   - optionally (ABI version 3), OCB: the whole blocks of OCB (RFC
 *     7253) with the offsets and the checksum kept beside the cipher
 *     rounds (see sf_ocb_t);
 *
 *   - how it checks itself: known-answer vectors as hex strings.
 *     The cipher table runs them, in both directions, when the spec
 *     is registered, and also checks that 1000 encryptions followed
 *     by 1000 decryptions of a zero block return to zero, and that a
 *     usable CFB_SHA1 entry gives what the spec's own CFB and the
 *     portable SHA-1 give on a fixed message, and a usable OCB entry
 *     what the spec's own ENCRYPT and DECRYPT give.  They run in a
 *     context followed by a guard, so that a CONTEXTSIZE smaller than
 *     what SETKEY writes is seen.  A spec that fails is refused.
 *
 * Contracts the table relies on and does not check:
 *
 *   - the context handed to every function is CONTEXTSIZE bytes,
 *     aligned to SF_CONTEXT_ALIGN, and is wiped by the caller after
 *     RELEASE (if any) has run; a module never keeps pointers to it
 *     elsewhere;
 *   - ENCRYPT, DECRYPT and the bulk functions never modify the
 *     context, so one keyed context may be shared by several modes;
 *   - IN and OUT are either identical or do not overlap; neither has
 *     any alignment guarantee;
 *   - SETKEY returns GPG_ERR_INV_KEYLEN for a key length the
 *     algorithm does not support, and may return GPG_ERR_WEAK_KEY.
 *
 * Choosing between implementations: a spec whose HWF names a hardware
 * feature (for example "aesni") is unusable when SFENC_DISABLE_HWF
 * contains that name or "all"; otherwise USABLE (when not NULL) is
 * asked.  Among the usable implementations of an algorithm the
 * default is the one with the highest PRIORITY, the first registered
 * on a tie.  The conventions are SF_PRIO_ACCEL for code using special
 * instructions, SF_PRIO_REF for portable native code and SF_PRIO_PEER
 * for the libgcrypt-backed reference provider.  A module that chooses
 * among code paths of its own (AES-NI with or without VAES) asks
 * sf_hwf_disabled, in SETKEY, for the features no HWF names.
 */
#ifndef SFCIPHER_H
#define SFCIPHER_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <gpg-error.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The version of struct sf_cipher_spec and struct sf_module a module
 * is built for.  Fields are only ever added at the end of the spec,
 * so the program reads a field only when the spec's version has it,
 * and modules built for an older version keep loading; a module built
 * for a newer version than the program's is refused.
 *   1  the original spec;
 *   2  adds CFB_SHA1 and TIMING;
 *   3  adds OCB.  */
#define SF_ABI_VERSION 3

/* Alignment the caller guarantees for a module's context.  */
#define SF_CONTEXT_ALIGN 64

/* Largest block size the modes support, in bytes.  */
#define SF_MAX_BLOCKSIZE 16

/* Largest CONTEXTSIZE the table accepts: far above any key schedule
 * (the largest built in, Twofish's, takes about 4 KiB).  */
#define SF_MAX_CONTEXTSIZE (64 * 1024)

/* The OpenPGP cipher ids RFC 4880 (9.2) and RFC 9580 (9.3) leave for
 * private and experimental use: the id of a cipher OpenPGP has no id
 * for (see doc/modules.md).  */
#define SF_OPENPGP_PRIVATE_FIRST 100
#define SF_OPENPGP_PRIVATE_LAST  110

#define SF_PRIO_PEER   10
#define SF_PRIO_REF    100
#define SF_PRIO_ACCEL  200

/* Timing claims.  CONSTANT: no branch and no memory address depends on
 * the key or the data.  TABLES: table lookups (S-boxes) are indexed by
 * key- or data-dependent values, so cache timing can reveal them, but
 * no branch depends on the key or the data.  UNKNOWN: not said (every
 * ABI version 1 module), or depends on code outside the module, as for
 * the libgcrypt provider.  */
#define SF_TIMING_UNKNOWN   0
#define SF_TIMING_CONSTANT  1
#define SF_TIMING_TABLES    2

/* One known answer: E(KEY, PLAINTEXT) = CIPHERTEXT in ECB mode.  All
 * three are hex strings; PLAINTEXT and CIPHERTEXT hold one or more
 * whole blocks, KEY any length SETKEY accepts.  */
typedef struct sf_kat
{
  const char *key;
  const char *plaintext;
  const char *ciphertext;
} sf_kat_t;

/* Bulk functions: process NBLOCKS whole blocks (at least one) from IN
 * to OUT.  IV
 * is the chaining value (CBC, CFB, OFB) or the big-endian counter
 * (CTR); on return it holds the value for the next call.  */
typedef void (*sf_bulk_ecb_t) (const void *ctx, unsigned char *out,
                               const unsigned char *in, size_t nblocks);
typedef void (*sf_bulk_iv_t) (const void *ctx, unsigned char *iv,
                              unsigned char *out, const unsigned char *in,
                              size_t nblocks);

/* CFB stitched with SHA-1 (ABI version 2).  OpenPGP's SEIPD packet
 * (RFC 4880 5.13) encrypts with CFB and hashes the plaintext with
 * SHA-1 for its MDC.  CFB encryption is one chain of dependent block
 * encryptions and SHA-1 another of dependent rounds; an
 * implementation that can run both in one pass, each on execution
 * units the other leaves idle, offers it here.
 *
 * ENC encrypts NBLOCKS whole blocks from IN to OUT in full-block CFB,
 * exactly as CFB_ENC does (IV is the chaining value on entry and on
 * return), and applies the SHA-1 compression function of FIPS 180-4
 * 6.1.2 to the plaintext IN, as NBLOCKS * BLOCKSIZE / 64 consecutive
 * 64-byte message blocks, updating SHA1_STATE.  DEC decrypts likewise
 * and compresses the plaintext it writes to OUT.  The contract:
 *
 *   - NBLOCKS * BLOCKSIZE is a positive multiple of 64: the caller
 *     brings the cipher and the hash to block boundaries first;
 *   - SHA1_STATE is the intermediate hash value H0..H4 as host-order
 *     integers; no padding, no length: the caller finishes the hash;
 *   - IN and OUT are identical or do not overlap, with no alignment;
 *     the context is not modified (as for every function here);
 *   - the result, OUT, IV and SHA1_STATE, is bit for bit what CFB
 *     and SHA-1 in series give.  The table checks that when it
 *     registers the spec, and refuses the spec if not.
 *
 * Either function may be NULL, not both.  HWF and USABLE are as in
 * the spec, for what the entry needs beyond the spec itself (the SHA
 * instructions: "shani" on x86, "arm-sha1" on ARMv8); the entry is
 * used only when the spec and the entry are both usable, and only for
 * full-block CFB.  */
typedef void (*sf_cfb_sha1_fn_t) (const void *ctx, unsigned char *iv,
                                  unsigned char *out,
                                  const unsigned char *in, size_t nblocks,
                                  uint32_t sha1_state[5]);

typedef struct sf_cfb_sha1
{
  const char *hwf;              /* Hardware feature needed, or NULL.  */
  int (*usable) (void);         /* NULL means always usable.  */
  sf_cfb_sha1_fn_t enc;
  sf_cfb_sha1_fn_t dec;
} sf_cfb_sha1_t;

/* OCB's whole blocks (ABI version 3).  OCB (RFC 7253) enciphers
 * block i of a message as C_i = Offset_i ^ E (P_i ^ Offset_i), with
 * Offset_i = Offset_(i-1) ^ L_ntz(i), and sums the plaintext into
 * Checksum.  The blocks are independent, so the cipher can keep many
 * in flight, but the offsets and the sum cost as much again unless
 * they are computed beside the rounds, in registers.  An
 * implementation that can do that offers it here; the mode keeps the
 * rest of OCB (the nonce, the L table, the associated data, the last
 * partial block, the tag).
 *
 * ENC does, for i = 1 .. NBLOCKS, with n = BLOCKS_DONE + i:
 *
 *   OFFSET ^= L[ntz (n)];  OUT_i = OFFSET ^ E (IN_i ^ OFFSET);
 *   CHECKSUM ^= IN_i;
 *
 * and DEC the same with D for E and CHECKSUM ^= OUT_i, the plaintext.
 * The contract:
 *
 *   - BLOCKS_DONE is the number of the message's blocks before IN
 *     (a message may come in several calls); ntz (n) is the number of
 *     trailing zero bits of n, which is never 0;
 *   - L holds L_0 .. L_63 of RFC 7253 4.1 as 16-byte blocks, L_j at
 *     L + 16 * j; an entry reads them there and derives nothing from
 *     them by itself;
 *   - OFFSET (Offset_BLOCKS_DONE on entry) and CHECKSUM are 16-byte
 *     blocks, updated in place;
 *   - NBLOCKS is at least 1; IN and OUT are identical or do not
 *     overlap; nothing is aligned; the context is not modified;
 *   - the block count is public, so which L an entry reads may depend
 *     on it; under SF_TIMING_CONSTANT, nothing else may;
 *   - the result, OUT, OFFSET and CHECKSUM, is bit for bit what the
 *     formulas give with the spec's ENCRYPT and DECRYPT.  The table
 *     checks that when it registers the spec, and refuses it if not.
 *
 * Only for a 128-bit block; ENC and DEC both.  HWF and USABLE are as
 * for sf_cfb_sha1_t: what the entry needs beyond the spec itself.  */
typedef void (*sf_ocb_fn_t) (const void *ctx, unsigned char *out,
                             const unsigned char *in, size_t nblocks,
                             uint64_t blocks_done, unsigned char offset[16],
                             unsigned char checksum[16],
                             const unsigned char l[64 * 16]);

typedef struct sf_ocb
{
  const char *hwf;              /* Hardware feature needed, or NULL.  */
  int (*usable) (void);         /* NULL means always usable.  */
  sf_ocb_fn_t enc;
  sf_ocb_fn_t dec;
} sf_ocb_t;

typedef struct sf_cipher_spec
{
  /* SF_ABI_VERSION; read before anything else.  */
  unsigned int abi_version;

  const char *name;
  const char *const *aliases;   /* NULL-terminated, or NULL.  */
  int openpgp_id;               /* 0 if OpenPGP has no id for it.  */
  size_t blocksize;             /* Bytes: 8 or 16.  */
  size_t keylen;                /* Bytes, the OpenPGP key length.  */
  size_t contextsize;           /* Bytes.  */

  const char *impl;
  int priority;
  const char *hwf;              /* Hardware feature needed, or NULL.  */
  int (*usable) (void);         /* NULL means always usable.  */

  gpg_error_t (*setkey) (void *ctx, const unsigned char *key, size_t keylen);
  void (*encrypt) (const void *ctx, unsigned char *out,
                   const unsigned char *in);
  void (*decrypt) (const void *ctx, unsigned char *out,
                   const unsigned char *in);
  /* Frees what SETKEY acquired besides the context memory itself
   * (the gcrypt provider's handles).  Optional.  */
  void (*release) (void *ctx);

  /* Optional bulk functions.  */
  sf_bulk_ecb_t ecb_enc;
  sf_bulk_ecb_t ecb_dec;
  sf_bulk_iv_t cbc_enc;
  sf_bulk_iv_t cbc_dec;
  sf_bulk_iv_t cfb_enc;
  sf_bulk_iv_t cfb_dec;
  sf_bulk_iv_t ofb;
  sf_bulk_iv_t ctr;

  const sf_kat_t *kats;
  size_t n_kats;

  /* ABI version 2.  Optional: CFB stitched with SHA-1.  */
  const sf_cfb_sha1_t *cfb_sha1;
  /* ABI version 2.  SF_TIMING_*.  */
  int timing;

  /* ABI version 3.  Optional: OCB's whole blocks.  */
  const sf_ocb_t *ocb;
} sf_cipher_spec_t;

/* What a module file exports: its ABI version and its specs, as a
 * NULL-terminated array.  */
typedef struct sf_module
{
  unsigned int abi_version;
  const char *name;
  const sf_cipher_spec_t *const *specs;
} sf_module_t;

/* Wipe N bytes at P in a way the compiler cannot drop as a dead
 * store.  For key material left in a module's stack temporaries.  */
static inline void
sf_wipememory (void *p, size_t n)
{
#if defined(__GNUC__) || defined(__clang__)
  /* memset at full speed; the asm, which may read all memory at P,
   * keeps the compiler from dropping it.  */
  memset (p, 0, n);
  __asm__ volatile ("" : : "r" (p) : "memory");
#else
  volatile unsigned char *vp = (volatile unsigned char *) p;

  while (n--)
    *vp++ = 0;
#endif
}

/* True when the hardware feature FEATURE ("aesni", "vaes", ...) is
 * turned off by SFENC_DISABLE_HWF, a comma separated list of feature
 * names compared case-insensitively, or when that list holds "all".
 * The table asks it for every HWF; a module asks it for code paths
 * of its own that no HWF names.  sf_table_init reports, once, the
 * names in the list that neither an HWF of the built-in modules nor
 * the program's own code knows.  */
static inline int
sf_hwf_disabled (const char *feature)
{
  const char *p = getenv ("SFENC_DISABLE_HWF");

  while (p && *p)
    {
      const char *f = feature, *all = "all";

      /* Walk one list item against both names; ASCII case folding.  */
      for (; *p && *p != ','; p++)
        {
          unsigned char c = (unsigned char) *p | 0x20;

          f = f && *f && (unsigned char) (*f | 0x20) == c ? f + 1 : NULL;
          all = all && *all && *all == c ? all + 1 : NULL;
        }
      if ((f && !*f) || (all && !*all))
        return 1;
      if (*p)
        p++;
    }
  return 0;
}

/* The symbol a dynamic module exports.  */
#define SF_MODULE_SYMBOL "sf_module"

/* SF_MODULE (NAME, &spec1, &spec2, ...) ends every module file.  The
 * same source builds either into the program (the table finds it as
 * sf_module_NAME through the list configure generates) or, compiled
 * with SF_DYNAMIC_MODULE defined, into a shared object exporting the
 * single symbol "sf_module".  */
#define SF_MODULE_SPECS_(name) sf_module_specs_ ## name
#ifdef SF_DYNAMIC_MODULE
# define SF_MODULE_OBJECT_(name) sf_module
# define SF_MODULE_EXPORT_ __attribute__ ((visibility ("default")))
#else
# define SF_MODULE_OBJECT_(name) sf_module_ ## name
# define SF_MODULE_EXPORT_
#endif
#define SF_MODULE(name, ...)                                            \
  static const sf_cipher_spec_t *const SF_MODULE_SPECS_ (name)[] =      \
    { __VA_ARGS__, NULL };                                              \
  extern SF_MODULE_EXPORT_ const sf_module_t SF_MODULE_OBJECT_ (name);  \
  SF_MODULE_EXPORT_ const sf_module_t SF_MODULE_OBJECT_ (name) =        \
    { SF_ABI_VERSION, #name, SF_MODULE_SPECS_ (name) }

#ifdef __cplusplus
}
#endif
#endif /*SFCIPHER_H*/
