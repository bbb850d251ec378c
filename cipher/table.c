/* table.c - the cipher table: registration, self-tests and look-up
 *
 * Every implementation the program can use is registered here, built
 * in or loaded at run time.  Registration validates a spec, runs its
 * known answers, runs those of the built-in implementations of the
 * same algorithm on a loaded one, and refuses duplicates, so
 * everything in the table can be trusted by the modes and the program
 * alike.  The known answers themselves live with the implementations,
 * never here.
 */
#include <config.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <gcrypt.h>

#include "libsfcipher.h"
#include "static-modules.h"

/* The oldest ABI version whose specs and modules still load.  */
#define OLDEST_ABI_VERSION 1

static sf_table_entry_t *table;
static size_t table_len;
static size_t table_size;
static int table_initialised;

int
sf_spec_usable (const sf_cipher_spec_t *spec)
{
  if (spec->hwf && sf_hwf_disabled (spec->hwf))
    return 0;
  return !spec->usable || spec->usable ();
}


/* The CFB_SHA1 field of SPEC, never read in a spec built for ABI
 * version 1, whose struct ends before it.  */
static const sf_cfb_sha1_t *
cfb_sha1_field (const sf_cipher_spec_t *spec)
{
  return spec->abi_version >= 2 ? spec->cfb_sha1 : NULL;
}


int
sf_spec_timing (const sf_cipher_spec_t *spec)
{
  return spec->abi_version >= 2 ? spec->timing : SF_TIMING_UNKNOWN;
}


const char *
sf_timing_name (int timing)
{
  switch (timing)
    {
    case SF_TIMING_CONSTANT: return "constant";
    case SF_TIMING_TABLES: return "tables";
    default: return "unknown";
    }
}


const sf_cfb_sha1_t *
sf_spec_cfb_sha1 (const sf_cipher_spec_t *spec)
{
  const sf_cfb_sha1_t *entry = cfb_sha1_field (spec);

  if (!entry || !sf_spec_usable (spec)
      || (entry->hwf && sf_hwf_disabled (entry->hwf))
      || (entry->usable && !entry->usable ()))
    return NULL;
  return entry;
}


/* The OCB field of SPEC, never read in a spec built for ABI version 1
 * or 2, whose struct ends before it.  */
static const sf_ocb_t *
ocb_field (const sf_cipher_spec_t *spec)
{
  return spec->abi_version >= 3 ? spec->ocb : NULL;
}


const sf_ocb_t *
sf_spec_ocb (const sf_cipher_spec_t *spec)
{
  const sf_ocb_t *entry = ocb_field (spec);

  if (!entry || !sf_spec_usable (spec)
      || (entry->hwf && sf_hwf_disabled (entry->hwf))
      || (entry->usable && !entry->usable ()))
    return NULL;
  return entry;
}


int
sf_spec_has_name (const sf_cipher_spec_t *spec, const char *name)
{
  const char *const *alias;

  if (!strcasecmp (spec->name, name))
    return 1;
  for (alias = spec->aliases; alias && *alias; alias++)
    if (!strcasecmp (*alias, name))
      return 1;
  return 0;
}


/* Decode the hex string HEX into at most MAXLEN bytes at BUF.  Returns
 * the number of bytes or -1 when HEX is not an even-length hex string
 * that fits, or is NULL (a module's malformed known answer).  */
static long
hex_decode (const char *hex, unsigned char *buf, size_t maxlen)
{
  size_t len, i;

  if (!hex)
    return -1;
  len = strlen (hex);
  if (len % 2 || len / 2 > maxlen)
    return -1;
  for (i = 0; i < len / 2; i++)
    {
      unsigned int byte;

      if (sscanf (hex + 2 * i, "%2x", &byte) != 1
          || !strchr ("0123456789abcdefABCDEF", hex[2 * i + 1]))
        return -1;
      buf[i] = byte;
    }
  return (long) (len / 2);
}


/* Largest KAT the self-test decodes: a 64-byte key (Blowfish takes
 * up to 56) and 64 bytes of data.  */
#define KAT_MAX_KEY  64
#define KAT_MAX_DATA 64

/* Run known answer KAT, number IDX in its list, on SPEC in the
 * context CTX.  */
static gpg_error_t
run_one_kat (const sf_cipher_spec_t *spec, void *ctx, const sf_kat_t *kat,
             size_t idx, char *why, size_t whylen)
{
  unsigned char key[KAT_MAX_KEY];
  unsigned char pt[KAT_MAX_DATA], ct[KAT_MAX_DATA], buf[KAT_MAX_DATA];
  long keylen, ptlen, ctlen, off;
  gpg_error_t err;

  keylen = hex_decode (kat->key, key, sizeof key);
  ptlen = hex_decode (kat->plaintext, pt, sizeof pt);
  ctlen = hex_decode (kat->ciphertext, ct, sizeof ct);
  if (keylen <= 0 || ptlen <= 0 || ptlen != ctlen
      || ptlen % spec->blocksize)
    {
      snprintf (why, whylen, "known answer %zu is malformed", idx + 1);
      return gpg_error (GPG_ERR_INV_ARG);
    }

  err = spec->setkey (ctx, key, keylen);
  sf_wipememory (key, sizeof key);
  if (err)
    {
      snprintf (why, whylen, "known answer %zu: setkey failed: %s",
                idx + 1, gpg_strerror (err));
      return gpg_error (GPG_ERR_SELFTEST_FAILED);
    }

  for (off = 0; off < ptlen; off += spec->blocksize)
    spec->encrypt (ctx, buf + off, pt + off);
  if (memcmp (buf, ct, ctlen))
    {
      snprintf (why, whylen, "known answer %zu: encryption mismatch", idx + 1);
      err = gpg_error (GPG_ERR_SELFTEST_FAILED);
    }
  else
    {
      for (off = 0; off < ctlen; off += spec->blocksize)
        spec->decrypt (ctx, buf + off, ct + off);
      if (memcmp (buf, pt, ptlen))
        {
          snprintf (why, whylen, "known answer %zu: decryption mismatch",
                    idx + 1);
          err = gpg_error (GPG_ERR_SELFTEST_FAILED);
        }
    }
  if (spec->release)
    spec->release (ctx);
  return err;
}


/* Key CTX with a fixed key of SPEC's length, for the tests beyond the
 * known answers.  */
static gpg_error_t
set_test_key (const sf_cipher_spec_t *spec, void *ctx,
              char *why, size_t whylen)
{
  unsigned char key[KAT_MAX_KEY];
  gpg_error_t err;
  size_t i;

  for (i = 0; i < spec->keylen && i < sizeof key; i++)
    key[i] = (unsigned char) (i * 37 + 11);
  err = spec->setkey (ctx, key, spec->keylen);
  sf_wipememory (key, sizeof key);
  if (err)
    {
      snprintf (why, whylen, "setkey with a %zu-byte key failed: %s",
                spec->keylen, gpg_strerror (err));
      return gpg_error (GPG_ERR_SELFTEST_FAILED);
    }
  return 0;
}


/* Encrypt a zero block 1000 times, decrypt 1000 times and expect
 * zero again: catches a decrypt that is not the inverse of encrypt
 * on data the known answers do not reach.  */
static gpg_error_t
run_round_trip (const sf_cipher_spec_t *spec, void *ctx,
                char *why, size_t whylen)
{
  static const unsigned char zero[SF_MAX_BLOCKSIZE];
  unsigned char block[SF_MAX_BLOCKSIZE];
  gpg_error_t err;
  size_t i;

  err = set_test_key (spec, ctx, why, whylen);
  if (err)
    return err;
  memset (block, 0, sizeof block);
  for (i = 0; i < 1000; i++)
    spec->encrypt (ctx, block, block);
  for (i = 0; i < 1000; i++)
    spec->decrypt (ctx, block, block);
  if (spec->release)
    spec->release (ctx);
  if (memcmp (block, zero, spec->blocksize))
    {
      snprintf (why, whylen, "1000 encryptions and 1000 decryptions"
                " did not return to zero");
      return gpg_error (GPG_ERR_SELFTEST_FAILED);
    }
  return 0;
}


/* The stitched test message: 14 SHA-1 blocks, given to the entry as
 * one block and then thirteen, so that a kernel's main loop and its
 * tail (if it has one) both run, and the IV and the hash state must
 * carry over from one call to the next.  */
#define STITCH_FIRST 64
#define STITCH_LEN (14 * 64)

/* Run the stitched function FN of SPEC in two calls over DATA
 * (STITCH_LEN bytes, in place) from the register IV and SHA-1's
 * initial hash value; true when DATA, IV and the hash state then
 * are WANT_DATA, the last block of CT and WANT_STATE.  */
static int
stitched_ok (const sf_cipher_spec_t *spec, sf_cfb_sha1_fn_t fn, void *ctx,
             unsigned char *data, const unsigned char *want_data,
             const unsigned char *ct, unsigned char *iv,
             const uint32_t *want_state)
{
  size_t bs = spec->blocksize;
  uint32_t state[5];
  sf_sha1_t md;

  sf_sha1_init_with (&md, sf_sha1_blocks_ref);
  memcpy (state, md.state, sizeof state);
  fn (ctx, iv, data, data, STITCH_FIRST / bs, state);
  fn (ctx, iv, data + STITCH_FIRST, data + STITCH_FIRST,
      (STITCH_LEN - STITCH_FIRST) / bs, state);
  return (!memcmp (data, want_data, STITCH_LEN)
          && !memcmp (iv, ct + STITCH_LEN - bs, bs)
          && !memcmp (state, want_state, sizeof state));
}

/* The fixed message PT, the register REG, and what they stand for:
 * CT, the spec's own CFB one block at a time, and STATE, the
 * portable SHA-1 compression of PT from the initial hash value.  */
static void
stitched_reference (const sf_cipher_spec_t *spec, void *ctx,
                    unsigned char *pt, unsigned char *ct,
                    unsigned char *reg, uint32_t state[5])
{
  size_t bs = spec->blocksize, i, j;
  sf_sha1_t md;

  for (i = 0; i < STITCH_LEN; i++)
    pt[i] = (unsigned char) (i * 73 + (i >> 8) + 5);
  for (i = 0; i < bs; i++)
    reg[i] = (unsigned char) (i * 19 + 200);
  for (i = 0; i < STITCH_LEN; i += bs)
    {
      spec->encrypt (ctx, ct + i, i ? ct + i - bs : reg);
      for (j = 0; j < bs; j++)
        ct[i + j] ^= pt[i + j];
    }
  sf_sha1_init_with (&md, sf_sha1_blocks_ref);
  sf_sha1_blocks_ref (md.state, pt, STITCH_LEN / SF_SHA1_BLOCK_LEN);
  memcpy (state, md.state, 5 * sizeof *state);
  sf_wipememory (&md, sizeof md);
}

/* Check SPEC's usable stitched entry against what it stands for, on
 * a fixed message, in both directions.  */
static gpg_error_t
run_stitched_test (const sf_cipher_spec_t *spec, void *ctx,
                   char *why, size_t whylen)
{
  const sf_cfb_sha1_t *entry = sf_spec_cfb_sha1 (spec);
  size_t bs = spec->blocksize;
  unsigned char pt[STITCH_LEN], ct[STITCH_LEN], buf[STITCH_LEN];
  unsigned char reg[SF_MAX_BLOCKSIZE], iv[SF_MAX_BLOCKSIZE];
  uint32_t want[5];
  const char *failed = NULL;
  gpg_error_t err;

  if (!entry)
    return 0;
  err = set_test_key (spec, ctx, why, whylen);
  if (err)
    return err;
  stitched_reference (spec, ctx, pt, ct, reg, want);
  memcpy (buf, pt, STITCH_LEN);
  memcpy (iv, reg, bs);
  if (entry->enc && !stitched_ok (spec, entry->enc, ctx, buf, ct, ct, iv,
                                  want))
    failed = "encryption";
  memcpy (buf, ct, STITCH_LEN);
  memcpy (iv, reg, bs);
  if (!failed && entry->dec
      && !stitched_ok (spec, entry->dec, ctx, buf, pt, ct, iv, want))
    failed = "decryption";
  if (spec->release)
    spec->release (ctx);
  if (failed)
    {
      snprintf (why, whylen, "stitched CFB + SHA-1 %s differs from CFB"
                " and SHA-1 in series", failed);
      return gpg_error (GPG_ERR_SELFTEST_FAILED);
    }
  return 0;
}


/* The OCB test message: OCB_TEST_BLOCKS blocks given to the entry in
 * the calls of OCB_TEST_CALLS, from a block count just below 2^36, so
 * that a kernel's runs of 32, 16, 8 and 1 blocks all come (its widest
 * even if it waits for 200 blocks), from counts of every alignment (16
 * blocks from a count that is 8 mod 16, which a kernel must not take
 * as aligned), and the offsets cross a multiple of a high power of
 * two, where L_36 is read.  The number of calls is odd, so that a flaw
 * made in every call cannot cancel out in the checksum.  */
#define OCB_TEST_BLOCKS 256
#define OCB_TEST_START ((UINT64_C (1) << 36) - 9)
#define OCB_BLOCK 16
static const size_t ocb_test_calls[] = { 1, 16, 207, 31, 1 };

/* The fixed message PT and L table.  */
static void
ocb_test_inputs (unsigned char *pt, unsigned char *l)
{
  size_t i;

  for (i = 0; i < OCB_TEST_BLOCKS * OCB_BLOCK; i++)
    pt[i] = (unsigned char) (i * 29 + (i >> 7) + 3);
  for (i = 0; i < 64 * OCB_BLOCK; i++)
    l[i] = (unsigned char) (i * 151 + (i >> 4) + 77);
}

/* The fixed starting offset and checksum.  */
static void
ocb_test_start (unsigned char offset[OCB_BLOCK],
                unsigned char checksum[OCB_BLOCK])
{
  size_t i;

  for (i = 0; i < OCB_BLOCK; i++)
    {
      offset[i] = (unsigned char) (i * 41 + 9);
      checksum[i] = (unsigned char) (i * 13 + 100);
    }
}

/* What OCB encryption of PT to CT gives by the formulas of sfcipher.h,
 * one block at a time through SPEC's own ENCRYPT.  */
static void
ocb_reference (const sf_cipher_spec_t *spec, void *ctx,
               const unsigned char *pt, unsigned char *ct,
               const unsigned char *l, unsigned char offset[OCB_BLOCK],
               unsigned char checksum[OCB_BLOCK])
{
  size_t i, j;

  for (i = 0; i < OCB_TEST_BLOCKS; i++)
    {
      const unsigned char *lj = l + OCB_BLOCK
        * (size_t) __builtin_ctzll (OCB_TEST_START + i + 1);
      unsigned char *c = ct + i * OCB_BLOCK;

      for (j = 0; j < OCB_BLOCK; j++)
        {
          offset[j] ^= lj[j];
          c[j] = pt[i * OCB_BLOCK + j] ^ offset[j];
          checksum[j] ^= pt[i * OCB_BLOCK + j];
        }
      spec->encrypt (ctx, c, c);
      for (j = 0; j < OCB_BLOCK; j++)
        c[j] ^= offset[j];
    }
}

/* Run FN over DATA in place in the calls of OCB_TEST_CALLS, from the
 * starting offset and checksum; true when DATA, the offset and the
 * checksum then are WANT, WANT_OFFSET and WANT_SUM.  */
static int
ocb_entry_ok (sf_ocb_fn_t fn, void *ctx, unsigned char *data,
              const unsigned char *want, const unsigned char *l,
              const unsigned char want_offset[OCB_BLOCK],
              const unsigned char want_sum[OCB_BLOCK])
{
  unsigned char offset[OCB_BLOCK], sum[OCB_BLOCK];
  uint64_t done = OCB_TEST_START;
  size_t i;

  ocb_test_start (offset, sum);
  for (i = 0; i < sizeof ocb_test_calls / sizeof *ocb_test_calls; i++)
    {
      unsigned char *p = data + (done - OCB_TEST_START) * OCB_BLOCK;

      fn (ctx, p, p, ocb_test_calls[i], done, offset, sum, l);
      done += ocb_test_calls[i];
    }
  return (!memcmp (data, want, OCB_TEST_BLOCKS * OCB_BLOCK)
          && !memcmp (offset, want_offset, OCB_BLOCK)
          && !memcmp (sum, want_sum, OCB_BLOCK));
}

/* Check SPEC's usable OCB entry against the formulas, both ways.  */
static gpg_error_t
run_ocb_test (const sf_cipher_spec_t *spec, void *ctx,
              char *why, size_t whylen)
{
  const sf_ocb_t *entry = sf_spec_ocb (spec);
  unsigned char pt[OCB_TEST_BLOCKS * OCB_BLOCK], ct[sizeof pt];
  unsigned char buf[sizeof pt], l[64 * OCB_BLOCK];
  unsigned char offset[OCB_BLOCK], sum[OCB_BLOCK];
  const char *failed = NULL;
  gpg_error_t err;

  if (!entry)
    return 0;
  err = set_test_key (spec, ctx, why, whylen);
  if (err)
    return err;
  ocb_test_inputs (pt, l);
  ocb_test_start (offset, sum);
  ocb_reference (spec, ctx, pt, ct, l, offset, sum);
  memcpy (buf, pt, sizeof buf);
  if (!ocb_entry_ok (entry->enc, ctx, buf, ct, l, offset, sum))
    failed = "encryption";
  memcpy (buf, ct, sizeof buf);
  if (!failed && !ocb_entry_ok (entry->dec, ctx, buf, pt, l, offset, sum))
    failed = "decryption";
  if (spec->release)
    spec->release (ctx);
  if (failed)
    {
      snprintf (why, whylen, "OCB %s differs from the block cipher's",
                failed);
      return gpg_error (GPG_ERR_SELFTEST_FAILED);
    }
  return 0;
}


/* The self-tests run in a context followed by a guard as large as
 * the largest context the table accepts, so that a module whose
 * CONTEXTSIZE is smaller than what its SETKEY writes is caught here,
 * with its name, rather than corrupting the heap: its writes land in
 * the guard, and the guard is checked afterwards.  */
#define CONTEXT_GUARD SF_MAX_CONTEXTSIZE

/* The guard's contents: a pattern, so that a module writing zeros or
 * copies of its key past its context is seen.  */
static unsigned char
guard_byte (size_t i)
{
  return (unsigned char) (i * 7 + 0xa5);
}

/* How many bytes of the guard at GUARD were written, counted up to
 * the last one that differs from the pattern; 0 if none.  */
static size_t
guard_overrun (const unsigned char *guard)
{
  size_t i = CONTEXT_GUARD;

  while (i && guard[i - 1] == guard_byte (i - 1))
    i--;
  return i;
}

/* Run the N_KATS known answers KATS on SPEC, which need not be the
 * spec they come from, and then, when OWN (SPEC's own self-test),
 * the round trip and the stitched and OCB entries.  */
static gpg_error_t
run_selftest (const sf_cipher_spec_t *spec, const sf_kat_t *kats,
              size_t n_kats, int own, char *why, size_t whylen)
{
  size_t ctxalloc, overrun;
  unsigned char *ctx, *guard;
  gpg_error_t err = 0;
  size_t i;

  ctxalloc = (spec->contextsize + CONTEXT_GUARD + SF_CONTEXT_ALIGN - 1)
             / SF_CONTEXT_ALIGN * SF_CONTEXT_ALIGN;
  ctx = aligned_alloc (SF_CONTEXT_ALIGN, ctxalloc);
  if (!ctx)
    {
      err = gpg_error_from_syserror ();
      snprintf (why, whylen, "no memory for a context of %zu bytes",
                spec->contextsize);
      return err;
    }
  guard = ctx + spec->contextsize;
  for (i = 0; i < CONTEXT_GUARD; i++)
    guard[i] = guard_byte (i);

  for (i = 0; !err && i < n_kats; i++)
    err = run_one_kat (spec, ctx, &kats[i], i, why, whylen);
  if (!err && own)
    err = run_round_trip (spec, ctx, why, whylen);
  if (!err && own)
    err = run_stitched_test (spec, ctx, why, whylen);
  if (!err && own)
    err = run_ocb_test (spec, ctx, why, whylen);

  /* An overrun explains whatever else failed.  */
  overrun = guard_overrun (guard);
  if (overrun)
    {
      snprintf (why, whylen, "contextsize %zu is too small: the self-test"
                " wrote %zu bytes past it", spec->contextsize, overrun);
      err = gpg_error (GPG_ERR_INV_ARG);
    }
  sf_wipememory (ctx, ctxalloc);
  free (ctx);
  return err;
}


gpg_error_t
sf_spec_selftest (const sf_cipher_spec_t *spec, char *why, size_t whylen)
{
  if (!spec->kats || !spec->n_kats)
    {
      snprintf (why, whylen, "it has no known answers");
      return gpg_error (GPG_ERR_SELFTEST_FAILED);
    }
  return run_selftest (spec, spec->kats, spec->n_kats, 1, why, whylen);
}


/* True when a spec or module built for ABI VERSION can be loaded;
 * else says why in WHY.  */
static int
abi_version_supported (unsigned int version, char *why, size_t whylen)
{
  if (version >= OLDEST_ABI_VERSION && version <= SF_ABI_VERSION)
    return 1;
  if (!version)
    snprintf (why, whylen, "module ABI version 0: is '.abi_version ="
              " SF_ABI_VERSION' missing from a spec? (this program supports"
              " %u to %u)", OLDEST_ABI_VERSION, SF_ABI_VERSION);
  else
    snprintf (why, whylen, "module ABI version %u, this program supports"
              " %u to %u", version, OLDEST_ABI_VERSION, SF_ABI_VERSION);
  return 0;
}


/* True when NAME can stand in a one-line message or a listing:
 * printable ASCII without spaces.  */
static int
is_plain_name (const char *name)
{
  if (!name || !*name)
    return 0;
  for (; *name; name++)
    if ((unsigned char)*name <= ' ' || (unsigned char)*name > '~')
      return 0;
  return 1;
}


/* True when the names, aliases and implementation name of SPEC are
 * plain (a module's names end up in messages).  */
static int
names_are_plain (const sf_cipher_spec_t *spec)
{
  const char *const *alias;

  if (!is_plain_name (spec->name) || !is_plain_name (spec->impl))
    return 0;
  for (alias = spec->aliases; alias && *alias; alias++)
    if (!is_plain_name (*alias))
      return 0;
  return 1;
}


/* Check the fields the modes and the table rely on.  */
static int
spec_is_wellformed (const sf_cipher_spec_t *spec)
{
  const sf_cfb_sha1_t *stitched = cfb_sha1_field (spec);
  const sf_ocb_t *ocb = ocb_field (spec);

  return (names_are_plain (spec)
          && (spec->blocksize == 8 || spec->blocksize == 16)
          && spec->keylen && spec->keylen <= KAT_MAX_KEY
          && spec->contextsize <= SF_MAX_CONTEXTSIZE
          && spec->setkey && spec->encrypt && spec->decrypt
          && spec->openpgp_id >= 0 && spec->openpgp_id < 256
          && (!stitched || stitched->enc || stitched->dec)
          && (!ocb || (spec->blocksize == OCB_BLOCK && ocb->enc && ocb->dec))
          && sf_spec_timing (spec) >= SF_TIMING_UNKNOWN
          && sf_spec_timing (spec) <= SF_TIMING_TABLES);
}


/* True when a name or alias of A is a name or alias of B.  */
static int
same_name (const sf_cipher_spec_t *a, const sf_cipher_spec_t *b)
{
  const char *const *alias;

  if (sf_spec_has_name (b, a->name))
    return 1;
  for (alias = a->aliases; alias && *alias; alias++)
    if (sf_spec_has_name (b, *alias))
      return 1;
  return 0;
}


/* True when A and B implement the same algorithm: they share a name
 * or an OpenPGP id.  */
static int
same_algorithm (const sf_cipher_spec_t *a, const sf_cipher_spec_t *b)
{
  return (a->openpgp_id && a->openpgp_id == b->openpgp_id)
         || same_name (a, b);
}


/* The ciphers of the OpenPGP registry (RFC 9580 9.3), by the names
 * libgcrypt knows them under.  Ids 5 and 6 are reserved, and 100 to
 * 110 are for private and experimental use.  */
static const struct
{
  int id;
  const char *gcry_name;
} openpgp_ciphers[] =
  {
    { 1, "IDEA" }, { 2, "3DES" }, { 3, "CAST5" }, { 4, "BLOWFISH" },
    { 7, "AES" }, { 8, "AES192" }, { 9, "AES256" }, { 10, "TWOFISH" },
    { 11, "CAMELLIA128" }, { 12, "CAMELLIA192" }, { 13, "CAMELLIA256" }
  };

int
sf_openpgp_id_private (int id)
{
  return id >= SF_OPENPGP_PRIVATE_FIRST && id <= SF_OPENPGP_PRIVATE_LAST;
}


/* libgcrypt's name for the standard OpenPGP cipher ID, or NULL when
 * OpenPGP assigns no cipher to ID.  */
static const char *
openpgp_gcry_name (int id)
{
  size_t i;

  for (i = 0; i < sizeof openpgp_ciphers / sizeof *openpgp_ciphers; i++)
    if (openpgp_ciphers[i].id == id)
      return openpgp_ciphers[i].gcry_name;
  return NULL;
}


int
sf_openpgp_cipher_id (const char *name)
{
  char *end;
  long id;
  int algo;
  size_t i;

  if ((name[0] == 'S' || name[0] == 's') && name[1] >= '0'
      && name[1] <= '9')
    {
      id = strtol (name + 1, &end, 10);
      return !*end && id < 1000 && openpgp_gcry_name (id) ? id : 0;
    }
  algo = gcry_cipher_map_name (name);
  for (i = 0; algo && i < sizeof openpgp_ciphers / sizeof *openpgp_ciphers;
       i++)
    if (gcry_cipher_map_name (openpgp_ciphers[i].gcry_name) == algo)
      return openpgp_ciphers[i].id;
  return 0;
}


/* Refuse SPEC when its block and key lengths are not BLOCKSIZE and
 * KEYLEN, those of CLAIM, the algorithm it claims to be.  */
static gpg_error_t
check_geometry (const sf_cipher_spec_t *spec, const char *claim,
                size_t blocksize, size_t keylen, char *why, size_t whylen)
{
  if (spec->blocksize == blocksize && spec->keylen == keylen)
    return 0;
  snprintf (why, whylen, "%s (%s): claims %s but its block and key are"
            " %zu and %zu bytes, not %zu and %zu", spec->name, spec->impl,
            claim, spec->blocksize, spec->keylen, blocksize, keylen);
  return gpg_error (GPG_ERR_CONFLICT);
}


/* Known answers libgcrypt gives for the claim checks: this many keys,
 * two blocks each.  */
#define GCRYPT_KATS 3
#define GCRYPT_KAT_BLOCKS 2

/* Write the LEN bytes at BUF as a hex string to HEX.  */
static void
hex_encode (const unsigned char *buf, size_t len, char *hex)
{
  size_t i;

  for (i = 0; i < len; i++)
    sprintf (hex + 2 * i, "%02x", buf[i]);
}

/* SPEC, from a module, claims the standard OpenPGP id that libgcrypt
 * knows as GCRY_NAME and no built-in implementation has: it must meet
 * the known answers libgcrypt's implementation gives.  */
static gpg_error_t
check_claim_with_gcrypt (const sf_cipher_spec_t *spec, const char *gcry_name,
                         char *why, size_t whylen)
{
  int algo = gcry_cipher_map_name (gcry_name);
  char claim[100], reason[200];
  char keyhex[GCRYPT_KATS][2 * KAT_MAX_KEY + 1];
  char pthex[GCRYPT_KATS][2 * KAT_MAX_DATA + 1];
  char cthex[GCRYPT_KATS][2 * KAT_MAX_DATA + 1];
  unsigned char key[KAT_MAX_KEY], pt[KAT_MAX_DATA], ct[KAT_MAX_DATA];
  sf_kat_t kats[GCRYPT_KATS];
  gcry_cipher_hd_t hd = NULL;
  size_t datalen, i, k;
  gpg_error_t err;

  snprintf (claim, sizeof claim, "%s (OpenPGP id %d)", gcry_name,
            spec->openpgp_id);
  if (!algo || gcry_cipher_open (&hd, algo, GCRY_CIPHER_MODE_ECB, 0))
    {
      snprintf (why, whylen, "%s (%s): claims %s, which this libgcrypt"
                " lacks, so the claim cannot be checked", spec->name,
                spec->impl, claim);
      return gpg_error (GPG_ERR_CIPHER_ALGO);
    }
  err = check_geometry (spec, claim, gcry_cipher_get_algo_blklen (algo),
                        gcry_cipher_get_algo_keylen (algo), why, whylen);
  datalen = GCRYPT_KAT_BLOCKS * spec->blocksize;
  for (k = 0; !err && k < GCRYPT_KATS; k++)
    {
      for (i = 0; i < spec->keylen; i++)
        key[i] = (unsigned char) (k * 101 + i * 59 + 7);
      for (i = 0; i < datalen; i++)
        pt[i] = (unsigned char) (k * 13 + i * 89 + 1);
      err = gcry_cipher_setkey (hd, key, spec->keylen);
      if (gpg_err_code (err) == GPG_ERR_WEAK_KEY)
        err = 0;
      if (!err)
        err = gcry_cipher_encrypt (hd, ct, datalen, pt, datalen);
      if (err)
        snprintf (why, whylen, "%s (%s): libgcrypt's %s fails: %s",
                  spec->name, spec->impl, gcry_name, gpg_strerror (err));
      hex_encode (key, spec->keylen, keyhex[k]);
      hex_encode (pt, datalen, pthex[k]);
      hex_encode (ct, datalen, cthex[k]);
      kats[k].key = keyhex[k];
      kats[k].plaintext = pthex[k];
      kats[k].ciphertext = cthex[k];
    }
  gcry_cipher_close (hd);
  sf_wipememory (key, sizeof key);
  if (!err && sf_spec_usable (spec))
    {
      err = run_selftest (spec, kats, GCRYPT_KATS, 0, reason, sizeof reason);
      if (err)
        snprintf (why, whylen, "%s (%s): claims %s but fails the known"
                  " answers of libgcrypt's %s: %s", spec->name, spec->impl,
                  claim, gcry_name, reason);
    }
  return err;
}


/* A module's own known answers only show that it agrees with itself:
 * check SPEC, which comes from a module, against every built-in
 * implementation of the algorithm it claims to be.  Each must have
 * the same geometry, and SPEC must meet its known answers.  A
 * standard OpenPGP id that no built-in implementation has is checked
 * against libgcrypt's implementation of it: an id is a claim too.  */
static gpg_error_t
check_claim (const sf_cipher_spec_t *spec, char *why, size_t whylen)
{
  const char *gcry_name = openpgp_gcry_name (spec->openpgp_id);
  int id_checked = 0;
  size_t i;

  for (i = 0; i < table_len; i++)
    {
      const sf_cipher_spec_t *builtin = table[i].spec;
      char claim[100], reason[200];
      gpg_error_t err;

      if (table[i].origin || !same_algorithm (spec, builtin))
        continue;
      if (builtin->openpgp_id)
        snprintf (claim, sizeof claim, "%s (OpenPGP id %d)",
                  builtin->name, builtin->openpgp_id);
      else
        snprintf (claim, sizeof claim, "%s", builtin->name);
      id_checked |= spec->openpgp_id == builtin->openpgp_id;

      err = check_geometry (spec, claim, builtin->blocksize,
                            builtin->keylen, why, whylen);
      if (err)
        return err;
      if (!sf_spec_usable (spec))
        continue;
      err = run_selftest (spec, builtin->kats, builtin->n_kats, 0,
                          reason, sizeof reason);
      if (err)
        {
          snprintf (why, whylen, "%s (%s): claims %s but fails the table's"
                    " known answers for it (those of '%s': %s)", spec->name,
                    spec->impl, claim, builtin->impl, reason);
          return gpg_error (GPG_ERR_SELFTEST_FAILED);
        }
    }
  if (gcry_name && !id_checked)
    return check_claim_with_gcrypt (spec, gcry_name, why, whylen);
  return 0;
}


/* Return the entry of an implementation IMPL of an algorithm that is
 * called NAME or has the OpenPGP id ID, or NULL.  */
static const sf_table_entry_t *
find_entry (const char *name, int id, const char *impl)
{
  size_t i;

  for (i = 0; i < table_len; i++)
    {
      const sf_cipher_spec_t *spec = table[i].spec;

      if (strcasecmp (spec->impl, impl))
        continue;
      if ((name && sf_spec_has_name (spec, name))
          || (id && spec->openpgp_id == id))
        return &table[i];
    }
  return NULL;
}


gpg_error_t
sf_table_register (const sf_cipher_spec_t *spec, const char *origin,
                   char *why, size_t whylen)
{
  const sf_table_entry_t *dup;
  const char *const *alias, *clash = NULL;
  int id_clash = 0;
  gpg_error_t err;
  size_t i;

  if (!abi_version_supported (spec->abi_version, why, whylen))
    return gpg_error (GPG_ERR_UNKNOWN_VERSION);
  if (!spec_is_wellformed (spec))
    {
      snprintf (why, whylen, "malformed cipher spec%s%s",
                is_plain_name (spec->name) ? " " : "",
                is_plain_name (spec->name) ? spec->name : "");
      return gpg_error (GPG_ERR_INV_ARG);
    }
  /* Unbounded, a module could outrank every built-in implementation;
   * at SF_PRIO_ACCEL it ties with built-in accelerated code and loses,
   * being registered later.  */
  if (spec->priority < 0 || spec->priority > SF_PRIO_ACCEL)
    {
      snprintf (why, whylen, "%s (%s): priority %d is outside 0..%d",
                spec->name, spec->impl, spec->priority, SF_PRIO_ACCEL);
      return gpg_error (GPG_ERR_INV_ARG);
    }

  if (spec->openpgp_id && !openpgp_gcry_name (spec->openpgp_id)
      && !sf_openpgp_id_private (spec->openpgp_id))
    {
      snprintf (why, whylen, "%s (%s): %d is not an OpenPGP cipher id"
                " (1-4, 7-13, or %d-%d for private use; 0 for none)",
                spec->name, spec->impl, spec->openpgp_id,
                SF_OPENPGP_PRIVATE_FIRST, SF_OPENPGP_PRIVATE_LAST);
      return gpg_error (GPG_ERR_INV_ARG);
    }

  /* A private id stands for one algorithm in a table; the message
   * holds nothing else that would say which.  */
  if (sf_openpgp_id_private (spec->openpgp_id))
    for (i = 0; i < table_len; i++)
      if (table[i].spec->openpgp_id == spec->openpgp_id
          && !same_name (spec, table[i].spec))
        {
          snprintf (why, whylen, "%s (%s): private OpenPGP id %d already"
                    " belongs to %s%s%s", spec->name, spec->impl,
                    spec->openpgp_id, table[i].spec->name,
                    table[i].origin ? " from " : " (built in)",
                    table[i].origin ? table[i].origin : "");
          return gpg_error (GPG_ERR_DUP_NAME);
        }

  /* An implementation is identified by its algorithm and its name; an
   * alias or id that already belongs to the same implementation name
   * would make look-ups ambiguous just the same.  The message names
   * what clashes.  */
  dup = find_entry (spec->name, 0, spec->impl);
  for (alias = spec->aliases; !dup && alias && *alias; alias++)
    if ((dup = find_entry (*alias, 0, spec->impl)))
      clash = *alias;
  if (!dup && (dup = find_entry (NULL, spec->openpgp_id, spec->impl)))
    id_clash = 1;
  if (dup)
    {
      const char *by = dup->origin ? " by " : " (built in)";
      const char *file = dup->origin ? dup->origin : "";

      if (clash)
        snprintf (why, whylen, "%s (%s): alias '%s' already names %s"
                  " implementation '%s'%s%s", spec->name, spec->impl, clash,
                  dup->spec->name, dup->spec->impl, by, file);
      else if (id_clash)
        snprintf (why, whylen, "%s (%s): OpenPGP id %d already belongs to"
                  " %s implementation '%s'%s%s", spec->name, spec->impl,
                  spec->openpgp_id, dup->spec->name, dup->spec->impl, by,
                  file);
      else
        snprintf (why, whylen, "%s implementation '%s' is already"
                  " registered%s%s", spec->name, spec->impl, by, file);
      return gpg_error (GPG_ERR_DUP_NAME);
    }

  /* An implementation that cannot run here cannot test itself either;
   * it is registered so that it can be listed, and refused when it is
   * asked for.  */
  if (sf_spec_usable (spec))
    {
      char reason[200];

      err = sf_spec_selftest (spec, reason, sizeof reason);
      if (err)
        {
          snprintf (why, whylen, "%s (%s): self-test failed: %s",
                    spec->name, spec->impl, reason);
          return gpg_error (GPG_ERR_SELFTEST_FAILED);
        }
    }
  if (origin)
    {
      err = check_claim (spec, why, whylen);
      if (err)
        return err;
    }

  if (table_len == table_size)
    {
      size_t newsize = table_size ? 2 * table_size : 32;
      sf_table_entry_t *newtable;

      newtable = realloc (table, newsize * sizeof *newtable);
      if (!newtable)
        return gpg_error_from_syserror ();
      table = newtable;
      table_size = newsize;
    }
  table[table_len].spec = spec;
  table[table_len].origin = origin;
  table_len++;
  return 0;
}


gpg_error_t
sf_table_register_module (const sf_module_t *module, const char *origin,
                          char *why, size_t whylen)
{
  const sf_cipher_spec_t *const *spec;
  size_t saved_len = table_len;
  gpg_error_t err;

  if (!abi_version_supported (module->abi_version, why, whylen))
    return gpg_error (GPG_ERR_UNKNOWN_VERSION);
  if (!module->specs || !module->specs[0])
    {
      snprintf (why, whylen, "module exports no cipher");
      return gpg_error (GPG_ERR_INV_ARG);
    }
  for (spec = module->specs; *spec; spec++)
    {
      err = sf_table_register (*spec, origin, why, whylen);
      if (err)
        {
          /* All or nothing: a module is refused whole.  */
          table_len = saved_len;
          return err;
        }
    }
  return 0;
}


/* The features the code asks sf_hwf_disabled about besides the HWFs of
 * the table's entries: SHA-1's and GHASH's choices (cipher/sha1.c,
 * cipher/ghash.c) and AES-NI's wider paths (cipher/rijndael-aesni.c).  */
static const char *const internal_hwf_names[] =
  { "vaes", "avx512", "shani", "arm-sha1", "pclmul", "vpclmul", "arm-pmull" };
#define N_INTERNAL_HWF_NAMES \
  (sizeof internal_hwf_names / sizeof *internal_hwf_names)

/* Room for the distinct feature names, ten in the built-in code.  */
#define MAX_HWF_NAMES 64

/* Add NAME to NAMES[*N], unless NULL or there already.  */
static void
add_hwf_name (const char **names, size_t *n, const char *name)
{
  size_t i;

  if (!name || *n == MAX_HWF_NAMES)
    return;
  for (i = 0; i < *n; i++)
    if (!strcasecmp (names[i], name))
      return;
  names[(*n)++] = name;
}

/* Whether NAMES[N] holds the LEN bytes at ITEM, case aside.  */
static int
hwf_name_known (const char *const *names, size_t n, const char *item,
                size_t len)
{
  size_t i;

  for (i = 0; i < n; i++)
    if (strlen (names[i]) == len && !strncasecmp (names[i], item, len))
      return 1;
  return 0;
}

/* Print the LEN bytes at ITEM in quotes, a byte that is not printable
 * ASCII in hex, so that the message stays one line.  */
static void
print_hwf_item (const char *item, size_t len)
{
  size_t i;

  fputc ('\'', stderr);
  for (i = 0; i < len; i++)
    {
      unsigned char c = (unsigned char) item[i];

      if (c >= 0x20 && c < 0x7f)
        fputc (c, stderr);
      else
        fprintf (stderr, "\\x%02x", c);
    }
  fputc ('\'', stderr);
}

/* Report, in one line, the items of SFENC_DISABLE_HWF that name no
 * feature known here: sf_hwf_disabled passes over them, so a misspelt
 * name or a wrong separator would silently disable nothing.  Checked
 * once, when the built-in modules are in the table, rather than in
 * sf_hwf_disabled, which every look-up runs.  */
static void
check_disable_hwf (void)
{
  const char *list = getenv ("SFENC_DISABLE_HWF"), *p, *end;
  const char *names[MAX_HWF_NAMES];
  size_t n = 0, i, unknown = 0;

  if (!list)
    return;
  add_hwf_name (names, &n, "all");
  for (i = 0; i < table_len; i++)
    {
      const sf_cipher_spec_t *spec = table[i].spec;
      const sf_cfb_sha1_t *cfb_sha1 = cfb_sha1_field (spec);
      const sf_ocb_t *ocb = ocb_field (spec);

      add_hwf_name (names, &n, spec->hwf);
      add_hwf_name (names, &n, cfb_sha1 ? cfb_sha1->hwf : NULL);
      add_hwf_name (names, &n, ocb ? ocb->hwf : NULL);
    }
  for (i = 0; i < N_INTERNAL_HWF_NAMES; i++)
    add_hwf_name (names, &n, internal_hwf_names[i]);
  for (p = list; *p; p = *end ? end + 1 : end)
    {
      end = p + strcspn (p, ",");
      if (end == p || hwf_name_known (names, n, p, end - p))
        continue;
      fputs (unknown++ ? ", " : "sfenc: SFENC_DISABLE_HWF: no such feature: ",
             stderr);
      print_hwf_item (p, end - p);
    }
  if (!unknown)
    return;
  fputs (" (known here, separated by commas: ", stderr);
  for (i = 0; i < n; i++)
    fprintf (stderr, "%s%s", i ? ", " : "", names[i]);
  fputs (")\n", stderr);
}


gpg_error_t
sf_table_init (void)
{
  gpg_error_t first_err = 0;
  size_t i;

  if (table_initialised)
    return 0;
  table_initialised = 1;

  for (i = 0; sf_static_modules[i]; i++)
    {
      char why[256];
      gpg_error_t err;

      err = sf_table_register_module (sf_static_modules[i], NULL,
                                      why, sizeof why);
      if (err)
        {
          fprintf (stderr, "sfenc: built-in module %s refused: %s\n",
                   sf_static_modules[i]->name, why);
          if (!first_err)
            first_err = err;
        }
    }
  check_disable_hwf ();
  return first_err;
}


const sf_table_entry_t *
sf_table_nth (size_t idx)
{
  return idx < table_len ? &table[idx] : NULL;
}


/* The look-up behind sf_table_find and sf_table_find_id: NAME or ID
 * names the algorithm.  */
static gpg_error_t
find_spec (const char *name, int id, const char *impl,
           const sf_cipher_spec_t **r_spec)
{
  const sf_cipher_spec_t *best = NULL;
  int known_algo = 0, known_impl = 0;
  size_t i;

  *r_spec = NULL;
  for (i = 0; i < table_len; i++)
    {
      const sf_cipher_spec_t *spec = table[i].spec;

      if (name ? !sf_spec_has_name (spec, name)
               : !(id && spec->openpgp_id == id))
        continue;
      known_algo = 1;
      if (impl && strcasecmp (spec->impl, impl))
        continue;
      known_impl = 1;
      if (!sf_spec_usable (spec))
        continue;
      if (!best || spec->priority > best->priority)
        best = spec;
    }

  if (best)
    {
      *r_spec = best;
      return 0;
    }
  if (!known_algo)
    return gpg_error (GPG_ERR_CIPHER_ALGO);
  if (!known_impl)
    return gpg_error (GPG_ERR_NOT_FOUND);
  return gpg_error (GPG_ERR_NOT_SUPPORTED);
}


gpg_error_t
sf_table_find (const char *algo, const char *impl,
               const sf_cipher_spec_t **r_spec)
{
  char *end;
  long id;

  errno = 0;
  id = strtol (algo, &end, 10);
  if (*algo && !*end && !errno && id > 0 && id < 256)
    return find_spec (NULL, (int) id, impl, r_spec);
  return find_spec (algo, 0, impl, r_spec);
}


gpg_error_t
sf_table_find_id (int openpgp_id, const char *impl,
                  const sf_cipher_spec_t **r_spec)
{
  if (openpgp_id <= 0)
    {
      *r_spec = NULL;
      return gpg_error (GPG_ERR_CIPHER_ALGO);
    }
  return find_spec (NULL, openpgp_id, impl, r_spec);
}


const char *
sf_table_origin (const sf_cipher_spec_t *spec)
{
  size_t i;

  for (i = 0; i < table_len; i++)
    if (table[i].spec == spec)
      return table[i].origin;
  return NULL;
}


const sf_cipher_spec_t *
sf_table_builtin_default (const sf_cipher_spec_t *spec)
{
  const sf_cipher_spec_t *best = NULL;
  size_t i;

  if (!sf_table_origin (spec))
    return NULL;
  /* The choice find_spec would make without the loaded modules.  */
  for (i = 0; i < table_len; i++)
    {
      const sf_cipher_spec_t *builtin = table[i].spec;

      if (table[i].origin || !same_algorithm (spec, builtin)
          || !sf_spec_usable (builtin))
        continue;
      if (!best || builtin->priority > best->priority)
        best = builtin;
    }
  return best;
}
