/* fuzz-module.c - the cipher table's checks of a loaded module
 *
 * After dlopen, cipher/dynload.c hands the module's sf_module_t to
 * sf_table_register_module (cipher/table.c), which must refuse, with
 * a one-line reason, whatever is wrong in it and in its specs.  Here
 * the module and its specs are made from the input.  Their code is
 * real: each spec takes its functions from a built-in "donor" of its
 * block size, or from the made-up entries below, and its context is
 * at least the donor's, so that the module keeps the contracts of
 * sfcipher.h the table cannot check; everything else is fuzzed.  A
 * spec built for an older ABI version is allocated only as large as
 * that version's struct, so reading a newer field is a finding.
 *
 * A module is registered whole or not at all, so a malformed spec is
 * added after the fuzzed ones: the table must refuse the module,
 * report why, and be left as it was.
 *
 * Input, read in order, zeros past the end; a "string" is a length
 * byte (255: NULL) and that many bytes:
 *   module: ABI version (byte), name (string), number of specs
 *     (byte: 0-4, 5 and up for a NULL array), size of the buffer for
 *     the reason (byte), then per spec:
 *   ABI version (byte), name (string), aliases (byte: 0-3 strings
 *   follow, else NULL), OpenPGP id (int16), donor (byte), block size
 *   (byte, 0: the donor's), key length (byte, 0: the donor's, else
 *   minus 1), context size (byte: the donor's plus 0-254; 255:
 *   SIZE_MAX minus the uint16 that follows), implementation (string),
 *   priority (int16), hardware feature (string), usable (byte mod 3:
 *   none, yes, no), functions left out (byte: 1 setkey, 2 encrypt,
 *   4 decrypt, 8 bulk), known answers (byte: 1-4 that many made of 3
 *   strings each, 5 NULL, 6 the donor's with a count of 0, else the
 *   donor's), CFB_SHA1 and OCB entries (byte each: 0 NULL, 1 the
 *   donor's, else made up of a hardware feature string, a usable
 *   byte and a byte whose bits 0-1 choose enc and bits 2-3 dec: 0
 *   none, 1 the donor's, 2 or 3 one that is wrong), timing (signed
 *   byte).
 */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "fuzz.h"

#define MAX_SPECS 4
#define MAX_ALIASES 3
#define MAX_KATS 4

/* A hardware feature the fuzzed specs may name that counts as
 * disabled (SFENC_DISABLE_HWF).  */
#define DISABLED_HWF "fuzzhwf"

/* The built-in specs, the donors of code.  */
static const sf_cipher_spec_t *builtin[64];
static size_t n_builtin;

/* Everything allocated for one input.  */
static void *allocs[1024];
static size_t n_allocs;

/* The input still to be read.  */
typedef struct cursor
{
  const uint8_t *p;
  size_t left;
} cursor_t;


static void *
keep (size_t size)
{
  void *p = malloc (size ? size : 1);

  if (!p || n_allocs == sizeof allocs / sizeof *allocs)
    abort ();
  allocs[n_allocs++] = p;
  return p;
}


static void
release_all (void)
{
  while (n_allocs)
    free (allocs[--n_allocs]);
}


static unsigned int
take_byte (cursor_t *c)
{
  if (!c->left)
    return 0;
  c->left--;
  return *c->p++;
}


static unsigned int
take_u16 (cursor_t *c)
{
  unsigned int hi = take_byte (c);

  return hi << 8 | take_byte (c);
}


static int
take_int16 (cursor_t *c)
{
  return (int16_t)take_u16 (c);
}


/* A string of its own exact size, or NULL.  */
static char *
take_string (cursor_t *c)
{
  size_t len = take_byte (c);
  char *s;

  if (len == 255)
    return NULL;
  if (len > c->left)
    len = c->left;
  s = keep (len + 1);
  memcpy (s, c->p, len);
  s[len] = 0;
  c->p += len;
  c->left -= len;
  return s;
}


static int
always (void)
{
  return 1;
}


static int
never (void)
{
  return 0;
}


static int (*take_usable (cursor_t *c)) (void)
{
  switch (take_byte (c) % 3)
    {
    case 1: return always;
    case 2: return never;
    default: return NULL;
    }
}


/* Wrong but harmless: what the table's tests must catch.  Each
 * writes only what its contract lets it write.  */
static void
wrong_cfb_sha1 (const void *ctx, unsigned char *iv, unsigned char *out,
                const unsigned char *in, size_t nblocks,
                uint32_t sha1_state[5])
{
  (void)ctx;
  (void)iv;
  memmove (out, in, nblocks);
  sha1_state[0] ^= 1;
}


static void
wrong_ocb (const void *ctx, unsigned char *out, const unsigned char *in,
           size_t nblocks, uint64_t blocks_done, unsigned char offset[16],
           unsigned char checksum[16], const unsigned char l[64 * 16])
{
  (void)ctx;
  (void)blocks_done;
  (void)l;
  memmove (out, in, nblocks * 16);
  offset[0] ^= checksum[0];
}


/* The donor: a built-in spec of block size BLOCKSIZE if it is one of
 * theirs, else any.  */
static const sf_cipher_spec_t *
choose_donor (unsigned int pick, size_t blocksize)
{
  size_t i, n = 0;

  for (i = 0; i < n_builtin; i++)
    n += builtin[i]->blocksize == blocksize;
  if (!n)
    return builtin[pick % n_builtin];
  pick %= n;
  for (i = 0; ; i++)
    if (builtin[i]->blocksize == blocksize && !pick--)
      return builtin[i];
}


static const sf_kat_t *
take_kats (cursor_t *c, const sf_cipher_spec_t *donor, size_t *r_n)
{
  unsigned int choice = take_byte (c);
  sf_kat_t *kats;
  size_t i;

  *r_n = donor->n_kats;
  if (choice == MAX_KATS + 1)
    return NULL;
  if (choice == MAX_KATS + 2)
    {
      *r_n = 0;
      return donor->kats;
    }
  if (choice == 0 || choice > MAX_KATS)
    return donor->kats;
  kats = keep (choice * sizeof *kats);
  for (i = 0; i < choice; i++)
    {
      kats[i].key = take_string (c);
      kats[i].plaintext = take_string (c);
      kats[i].ciphertext = take_string (c);
    }
  *r_n = choice;
  return kats;
}


/* ENC or DEC of a made-up entry: 2 bits of CHOICE.  */
#define PICK_FN(choice, shift, donor_fn, wrong_fn)                      \
  (((choice) >> (shift) & 3) == 1 ? (donor_fn)                          \
   : ((choice) >> (shift) & 3) >= 2 ? (wrong_fn) : NULL)

static const sf_cfb_sha1_t *
take_cfb_sha1 (cursor_t *c, const sf_cipher_spec_t *donor)
{
  const sf_cfb_sha1_t *own = donor->cfb_sha1;
  sf_cfb_sha1_t *entry;
  unsigned int choice;

  switch (take_byte (c))
    {
    case 0: return NULL;
    case 1: return own;
    default: break;
    }
  entry = keep (sizeof *entry);
  entry->hwf = take_string (c);
  entry->usable = take_usable (c);
  choice = take_byte (c);
  entry->enc = PICK_FN (choice, 0, own ? own->enc : NULL, wrong_cfb_sha1);
  entry->dec = PICK_FN (choice, 2, own ? own->dec : NULL, wrong_cfb_sha1);
  return entry;
}


static const sf_ocb_t *
take_ocb (cursor_t *c, const sf_cipher_spec_t *donor)
{
  const sf_ocb_t *own = donor->ocb;
  sf_ocb_t *entry;
  unsigned int choice;

  switch (take_byte (c))
    {
    case 0: return NULL;
    case 1: return own;
    default: break;
    }
  entry = keep (sizeof *entry);
  entry->hwf = take_string (c);
  entry->usable = take_usable (c);
  choice = take_byte (c);
  /* The entries work on 16-byte blocks; the table takes one only
   * for a spec of that block size.  */
  entry->enc = PICK_FN (choice, 0, own ? own->enc : NULL, wrong_ocb);
  entry->dec = PICK_FN (choice, 2, own ? own->dec : NULL, wrong_ocb);
  return entry;
}


/* The size of the spec struct of ABI VERSION: the fields a version
 * does not have lie beyond it.  */
static size_t
spec_size (unsigned int version)
{
  if (version == 1)
    return offsetof (sf_cipher_spec_t, cfb_sha1);
  if (version == 2)
    return offsetof (sf_cipher_spec_t, ocb);
  return sizeof (sf_cipher_spec_t);
}


/* The geometry and the code of SPEC, from its donor.  */
static const sf_cipher_spec_t *
take_code (cursor_t *c, sf_cipher_spec_t *spec)
{
  const sf_cipher_spec_t *donor;
  unsigned int pick = take_byte (c), blocksize = take_byte (c);
  unsigned int keylen = take_byte (c), extra = take_byte (c);

  donor = choose_donor (pick, blocksize);
  spec->blocksize = blocksize ? blocksize : donor->blocksize;
  spec->keylen = keylen ? keylen - 1 : donor->keylen;
  spec->contextsize = extra == 255 ? SIZE_MAX - take_u16 (c)
                                   : donor->contextsize + extra;
  spec->setkey = donor->setkey;
  spec->encrypt = donor->encrypt;
  spec->decrypt = donor->decrypt;
  spec->release = donor->release;
  spec->ecb_enc = donor->ecb_enc;
  spec->ecb_dec = donor->ecb_dec;
  spec->cbc_enc = donor->cbc_enc;
  spec->cbc_dec = donor->cbc_dec;
  spec->cfb_enc = donor->cfb_enc;
  spec->cfb_dec = donor->cfb_dec;
  spec->ofb = donor->ofb;
  spec->ctr = donor->ctr;
  return donor;
}


/* Leave out the functions the byte read says.  */
static void
drop_functions (cursor_t *c, sf_cipher_spec_t *spec)
{
  unsigned int drop = take_byte (c);

  if (drop & 1)
    spec->setkey = NULL;
  if (drop & 2)
    spec->encrypt = NULL;
  if (drop & 4)
    spec->decrypt = NULL;
  if (drop & 8)
    {
      spec->ecb_enc = spec->ecb_dec = NULL;
      spec->cbc_enc = spec->cbc_dec = NULL;
      spec->cfb_enc = spec->cfb_dec = NULL;
      spec->ofb = spec->ctr = NULL;
    }
}


static const char *const *
take_aliases (cursor_t *c)
{
  unsigned int n = take_byte (c), i;
  const char **aliases;

  if (n > MAX_ALIASES)
    return NULL;
  aliases = keep ((n + 1) * sizeof *aliases);
  for (i = 0; i < n; i++)
    aliases[i] = take_string (c);
  aliases[n] = NULL;
  return aliases;
}


static const sf_cipher_spec_t *
take_spec (cursor_t *c)
{
  sf_cipher_spec_t spec, *copy;
  const sf_cipher_spec_t *donor;

  memset (&spec, 0, sizeof spec);
  spec.abi_version = take_byte (c);
  spec.name = take_string (c);
  spec.aliases = take_aliases (c);
  spec.openpgp_id = take_int16 (c);
  donor = take_code (c, &spec);
  spec.impl = take_string (c);
  spec.priority = take_int16 (c);
  spec.hwf = take_string (c);
  spec.usable = take_usable (c);
  drop_functions (c, &spec);
  spec.kats = take_kats (c, donor, &spec.n_kats);
  spec.cfb_sha1 = take_cfb_sha1 (c, donor);
  spec.ocb = take_ocb (c, donor);
  spec.timing = (signed char)take_byte (c);
  copy = keep (spec_size (spec.abi_version));
  memcpy (copy, &spec, spec_size (spec.abi_version));
  return copy;
}


static void
start (void)
{
  const sf_table_entry_t *e;

  fuzz_start ();
  if (n_builtin)
    return;
  setenv ("SFENC_DISABLE_HWF", DISABLED_HWF, 1);
  while ((e = sf_table_nth (n_builtin))
         && n_builtin < sizeof builtin / sizeof *builtin)
    builtin[n_builtin++] = e->spec;
}


/* What the table must do with the module: refuse it, say why in one
 * line, and stay as it was.  */
static void
check_refusal (gpg_error_t err, const char *why, size_t whylen)
{
  if (!err || sf_table_nth (n_builtin))
    abort ();
  if (whylen && (!memchr (why, 0, whylen) || (whylen > 1 && !*why)
                 || strchr (why, '\n')))
    abort ();
}


int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  /* Refused for its ABI version, whatever the rest says.  */
  static const sf_cipher_spec_t malformed = { 0 };
  cursor_t c = { data, size };
  sf_module_t module;
  const sf_cipher_spec_t **specs = NULL;
  unsigned int n, i;
  size_t whylen;
  char *why;
  gpg_error_t err;

  start ();
  module.abi_version = take_byte (&c);
  module.name = take_string (&c);
  n = take_byte (&c);
  whylen = take_byte (&c);
  why = keep (whylen);
  if (n <= MAX_SPECS)
    {
      specs = keep ((n + 2) * sizeof *specs);
      for (i = 0; i < n; i++)
        specs[i] = take_spec (&c);
      specs[n] = n ? &malformed : NULL;
      specs[n + 1] = NULL;
    }
  module.specs = specs;
  err = sf_table_register_module (&module, "fuzz-module", why, whylen);
  check_refusal (err, why, whylen);
  release_all ();
  return 0;
}
