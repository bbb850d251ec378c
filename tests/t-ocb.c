/* t-ocb.c - OCB entries (sfcipher.h, sf_ocb_t), and the ABI version 3
 * that brought them
 *
 * The entries: every usable one in the table (modules named on the
 * command line included) against the contract written the slow way,
 * one block at a time through the spec's own ENCRYPT and DECRYPT:
 * random L tables, offsets and checksums, block counts from 0 up to
 * just below 2^64 and just below powers of two (so that every L_i is
 * read), runs of 1 to 700 blocks in random calls, in place or not, at
 * random misalignments; OUT, OFFSET and CHECKSUM must match, both
 * ways.  The aesni and armce implementations must offer an entry
 * exactly when they are usable, so a run that silently took the
 * generic path fails.  (Whole OCB messages through the entries,
 * against RFC 7253 and libgcrypt, are t-aead's.)
 *
 * The table: a model entry written from the contract is accepted and
 * each deliberate flaw in it (data, offset, checksum, either way) is
 * refused by the registration self-test; entries with one function,
 * or on a 64-bit block, are malformed; an entry's HWF is obeyed, in
 * SFENC_DISABLE_HWF's comma list and whatever its case; a
 * spec built for ABI version 2 loads, sitting right before an
 * inaccessible page so that reading the OCB field it lacks would
 * crash, and has no entry.
 */
#include <config.h>

#include <stddef.h>

#include "t-common.h"

#define CASES_PER_SPEC 300
#define MAX_BLOCKS 700
#define BLOCK 16


/*
 * The contract, one block at a time.
 */

/* OUT = OFFSET_i ^ CIPHER (IN ^ OFFSET_i) over NBLOCKS blocks from the
 * block count DONE, as sfcipher.h says, for SPEC keyed in CTX.  */
static void
reference_ocb (const sf_cipher_spec_t *spec, int encrypting, const void *ctx,
               unsigned char *out, const unsigned char *in, size_t nblocks,
               uint64_t done, unsigned char offset[BLOCK],
               unsigned char checksum[BLOCK], const unsigned char *l)
{
  unsigned char x[BLOCK];
  size_t i, j;

  for (i = 0; i < nblocks; i++, in += BLOCK, out += BLOCK)
    {
      const unsigned char *lj = l + BLOCK * __builtin_ctzll (done + i + 1);

      for (j = 0; j < BLOCK; j++)
        {
          offset[j] ^= lj[j];
          x[j] = in[j] ^ offset[j];
          if (encrypting)
            checksum[j] ^= in[j];
        }
      (encrypting ? spec->encrypt : spec->decrypt) (ctx, x, x);
      for (j = 0; j < BLOCK; j++)
        {
          out[j] = x[j] ^ offset[j];
          if (!encrypting)
            checksum[j] ^= out[j];
        }
    }
}


/*
 * Every entry against the contract.
 */

/* A block count to start from: small, just below a power of two from
 * 2^6 to 2^63 (where L_63 is read), or just below 2^64 (leaving room
 * for MAX_BLOCKS).  */
static uint64_t
random_start (void)
{
  switch (prng_below (3))
    {
    case 0:
      return prng_below (100);
    case 1:
      return (UINT64_C (1) << (6 + prng_below (58))) - prng_below (40);
    default:
      return UINT64_MAX - MAX_BLOCKS - prng_below (1000);
    }
}

/* FN over NBLOCKS blocks of IN into OUT from the block count DONE, in
 * random calls.  */
static void
run_entry (sf_ocb_fn_t fn, const void *ctx, unsigned char *out,
           const unsigned char *in, size_t nblocks, uint64_t done,
           unsigned char offset[BLOCK], unsigned char checksum[BLOCK],
           const unsigned char *l)
{
  while (nblocks)
    {
      size_t n = prng_below (2) ? nblocks : 1 + prng_below (nblocks);

      fn (ctx, out, in, n, done, offset, checksum, l);
      in += n * BLOCK;
      out += n * BLOCK;
      done += n;
      nblocks -= n;
    }
}

/* One random case of ENTRY of SPEC keyed in CTX, one way; 0 if the
 * entry meets the contract.  */
static int
entry_case (const sf_cipher_spec_t *spec, const sf_ocb_t *entry,
            const void *ctx, int encrypting)
{
  static unsigned char in[MAX_BLOCKS * BLOCK], want[sizeof in];
  static unsigned char buf[sizeof in + BLOCK], l[64 * BLOCK];
  unsigned char offset[BLOCK], sum[BLOCK], want_offset[BLOCK];
  unsigned char want_sum[BLOCK], *out = buf + prng_below (BLOCK);
  size_t nblocks = 1 + prng_below (MAX_BLOCKS);
  uint64_t done = random_start ();
  const unsigned char *src = in;

  prng_fill (in, nblocks * BLOCK);
  prng_fill (l, sizeof l);
  prng_fill (offset, BLOCK);
  prng_fill (sum, BLOCK);
  memcpy (want_offset, offset, BLOCK);
  memcpy (want_sum, sum, BLOCK);
  reference_ocb (spec, encrypting, ctx, want, in, nblocks, done, want_offset,
                 want_sum, l);
  if (prng_below (2))
    {
      memcpy (out, in, nblocks * BLOCK);
      src = out;
    }
  run_entry (encrypting ? entry->enc : entry->dec, ctx, out, src, nblocks,
             done, offset, sum, l);
  return (memcmp (out, want, nblocks * BLOCK)
          || memcmp (offset, want_offset, BLOCK)
          || memcmp (sum, want_sum, BLOCK));
}

static void
check_entry (const sf_cipher_spec_t *spec, const sf_ocb_t *entry)
{
  size_t ctxlen = (spec->contextsize + SF_CONTEXT_ALIGN - 1)
                  / SF_CONTEXT_ALIGN * SF_CONTEXT_ALIGN;
  void *ctx = aligned_alloc (SF_CONTEXT_ALIGN, ctxlen ? ctxlen
                                                      : SF_CONTEXT_ALIGN);
  unsigned char key[64];
  unsigned long bad[2] = { 0, 0 };
  int i;

  if (!ctx)
    exit (1);
  for (i = 0; i < CASES_PER_SPEC; i++)
    {
      prng_fill (key, spec->keylen);
      check (!spec->setkey (ctx, key, spec->keylen), "%s (%s): setkey",
             spec->name, spec->impl);
      bad[0] += entry_case (spec, entry, ctx, 1);
      bad[1] += entry_case (spec, entry, ctx, 0);
      if (spec->release)
        spec->release (ctx);
    }
  free (ctx);
  check (!bad[0] && !bad[1], "%s (%s): %lu encryptions and %lu decryptions"
         " of %d break the OCB entry's contract", spec->name, spec->impl,
         bad[0], bad[1], CASES_PER_SPEC);
  printf ("%s: %s (%s): OCB entry, %d random cases each way\n", test_name,
          spec->name, spec->impl, CASES_PER_SPEC);
}

/* Every usable entry; the aesni and armce ones must be there when
 * they can.  */
static void
check_all_entries (void)
{
  const sf_table_entry_t *e;
  unsigned int n = 0;
  size_t i;

  for (i = 0; (e = sf_table_nth (i)); i++)
    {
      const sf_cipher_spec_t *spec = e->spec;
      const sf_ocb_t *entry = sf_spec_ocb (spec);

      if (!strcmp (spec->impl, "aesni") || !strcmp (spec->impl, "armce"))
        check (!entry == !sf_spec_usable (spec), "%s (%s): OCB entry %s"
               " though the implementation is %susable", spec->name,
               spec->impl, entry ? "present" : "missing",
               entry ? "not " : "");
      if (!entry)
        continue;
      check_entry (spec, entry);
      n++;
    }
  if (!n)
    printf ("%s: no usable OCB entry on this machine: only the table's"
            " checks were run\n", test_name);
}


/*
 * The model entry, over libgcrypt's AES, and the table.
 */

enum flaw
  {
    FLAW_NONE,
    FLAW_DATA, FLAW_OFFSET, FLAW_CHECKSUM,
    N_FLAWS
  };

static const char *const flaw_names[N_FLAWS] =
  { "none", "a data bit", "the offset", "the checksum" };

static const sf_cipher_spec_t *model_base;
static enum flaw model_flaw;
static int model_flaw_decrypting;

static void
model_crypt (int encrypting, const void *ctx, unsigned char *out,
             const unsigned char *in, size_t nblocks, uint64_t done,
             unsigned char offset[16], unsigned char checksum[16],
             const unsigned char l[64 * 16])
{
  reference_ocb (model_base, encrypting, ctx, out, in, nblocks, done, offset,
                 checksum, l);
  if (model_flaw_decrypting == !encrypting)
    switch (model_flaw)
      {
      case FLAW_DATA: out[0] ^= 0x10; break;
      case FLAW_OFFSET: offset[15] ^= 1; break;
      case FLAW_CHECKSUM: checksum[3] ^= 0x80; break;
      default: break;
      }
}

static void
model_enc (const void *ctx, unsigned char *out, const unsigned char *in,
           size_t nblocks, uint64_t done, unsigned char offset[16],
           unsigned char checksum[16], const unsigned char l[64 * 16])
{
  model_crypt (1, ctx, out, in, nblocks, done, offset, checksum, l);
}

static void
model_dec (const void *ctx, unsigned char *out, const unsigned char *in,
           size_t nblocks, uint64_t done, unsigned char offset[16],
           unsigned char checksum[16], const unsigned char l[64 * 16])
{
  model_crypt (0, ctx, out, in, nblocks, done, offset, checksum, l);
}

static const sf_ocb_t model_entry =
  { .hwf = NULL, .usable = NULL, .enc = model_enc, .dec = model_dec };
static const sf_ocb_t hwf_entry =
  { .hwf = "ocbmodel", .usable = NULL, .enc = model_enc, .dec = model_dec };
static const sf_ocb_t half_entry =
  { .hwf = NULL, .usable = NULL, .enc = model_enc, .dec = NULL };

/* Register a copy of COPY as built in; the table keeps the pointer.  */
static gpg_error_t
register_copy (const sf_cipher_spec_t *copy, char *why, size_t whylen)
{
  sf_cipher_spec_t *keep = malloc (sizeof *keep);
  gpg_error_t err;

  if (!keep)
    exit (1);
  *keep = *copy;
  err = sf_table_register (keep, NULL, why, whylen);
  if (err)
    free (keep);
  return err;
}

/* Each flaw of the model, either way, is refused at registration.  */
static void
check_flaws_refused (sf_cipher_spec_t copy)
{
  char why[300] = "";
  gpg_error_t err;
  int flaw, decrypting;

  copy.impl = "flawed";
  for (decrypting = 0; decrypting < 2; decrypting++)
    for (flaw = FLAW_DATA; flaw < N_FLAWS; flaw++)
      {
        model_flaw = flaw;
        model_flaw_decrypting = decrypting;
        err = register_copy (&copy, why, sizeof why);
        check (gpg_err_code (err) == GPG_ERR_SELFTEST_FAILED
               && strstr (why, decrypting ? "OCB decryption differs"
                                          : "OCB encryption differs"),
               "flaw in %s (%s) not refused: %s", flaw_names[flaw],
               decrypting ? "decryption" : "encryption", why);
      }
  model_flaw = FLAW_NONE;
}

/* The entry of FOUND is offered unless SFENC_DISABLE_HWF names its
 * HWF, which leaves the spec usable.  */
static void
check_entry_hwf (const sf_cipher_spec_t *found)
{
  const char *was = getenv ("SFENC_DISABLE_HWF");
  char *saved = was ? strdup (was) : NULL;

  check (!sf_spec_ocb (found) == !!sf_hwf_disabled ("ocbmodel"),
         "the entry's HWF is not obeyed");
  setenv ("SFENC_DISABLE_HWF", "sse2,OCBMODEL", 1);
  check (!sf_spec_ocb (found) && sf_spec_usable (found),
         "SFENC_DISABLE_HWF=sse2,OCBMODEL does not turn the entry off");
  if (saved)
    setenv ("SFENC_DISABLE_HWF", saved, 1);
  else
    unsetenv ("SFENC_DISABLE_HWF");
  free (saved);
}

static void
check_registration (void)
{
  sf_cipher_spec_t copy = *model_base;
  const sf_cipher_spec_t *found, *blowfish;
  char why[300] = "";
  gpg_error_t err;

  copy.ocb = &model_entry;
  check_flaws_refused (copy);
  copy.impl = "model";
  err = register_copy (&copy, why, sizeof why);
  check (!err, "the model entry is refused: %s", why);
  check (!sf_table_find ("AES", "model", &found) && sf_spec_ocb (found)
         == &model_entry, "the model's entry is not offered");
  copy.impl = "modelhwf";
  copy.ocb = &hwf_entry;
  err = register_copy (&copy, why, sizeof why);
  check (!err && !sf_table_find ("AES", "modelhwf", &found),
         "the model entry with a HWF is refused: %s", why);
  if (!err)
    check_entry_hwf (found);

  copy.impl = "half";
  copy.ocb = &half_entry;
  err = register_copy (&copy, why, sizeof why);
  check (gpg_err_code (err) == GPG_ERR_INV_ARG,
         "an entry without DEC is malformed: %s", gpg_strerror (err));
  if (sf_table_find ("BLOWFISH", "ref", &blowfish))
    return;
  copy = *blowfish;
  copy.impl = "model64";
  copy.ocb = &model_entry;
  err = register_copy (&copy, why, sizeof why);
  check (gpg_err_code (err) == GPG_ERR_INV_ARG,
         "an OCB entry on a 64-bit block is malformed: %s",
         gpg_strerror (err));
}

/* A spec built for ABI version 2 (ending before OCB) loads and has no
 * entry; so does one of version 1.  */
static void
check_older_versions (void)
{
  const sf_cipher_spec_t *v2, *v1, *found;
  char why[300] = "";
  gpg_error_t err;

  v2 = guarded_spec (model_base, "v2", 2, offsetof (sf_cipher_spec_t, ocb));
  err = sf_table_register (v2, NULL, why, sizeof why);
  check (!err, "a version 2 spec is refused: %s", why);
  check (!sf_spec_ocb (v2), "a version 2 spec has an OCB entry");
  check (!sf_table_find ("AES", "v2", &found) && found == v2,
         "the version 2 spec is not in the table");
  v1 = guarded_spec (model_base, "v1ocb", 1,
                     offsetof (sf_cipher_spec_t, cfb_sha1));
  err = sf_table_register (v1, NULL, why, sizeof why);
  check (!err && !sf_spec_ocb (v1), "a version 1 spec: %s", why);
}


int
main (int argc, char **argv)
{
  test_init ("t-ocb");
  test_load_modules (argc, argv);
  prng_seed ();
  if (sf_table_find ("AES", "gcrypt", &model_base))
    {
      check (0, "no gcrypt AES to build the model on");
      return test_finish ();
    }
  check_all_entries ();
  check_registration ();
  check_older_versions ();
  return test_finish ();
}
