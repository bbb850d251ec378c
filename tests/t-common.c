/* t-common.c - what every C test shares (see t-common.h)  */
#include <config.h>

#include <sys/mman.h>
#include <unistd.h>

#include "t-common.h"

unsigned long test_passed, test_failed;
const char *test_name = "test";


/* Initialise libgcrypt as the program does and fill the cipher table.  */
void
test_init (const char *name)
{
  gpg_error_t err;

  test_name = name;
  if (!gcry_check_version ("1.10.0"))
    {
      fprintf (stderr, "%s: libgcrypt >= 1.10 is needed\n", name);
      exit (1);
    }
  gcry_control (GCRYCTL_DISABLE_SECMEM_WARN);
  gcry_control (GCRYCTL_INIT_SECMEM, 65536, 0);
  gcry_control (GCRYCTL_INITIALIZATION_FINISHED, 0);
  err = sf_table_init ();
  check (!err, "sf_table_init: %s", gpg_strerror (err));
}

int
test_finish (void)
{
  printf ("%s: %lu passed, %lu failed\n", test_name, test_passed,
          test_failed);
  return test_failed ? 1 : 0;
}

/* xorshift64*: fast and reproducible.  The seed comes from
 * SFENC_TEST_SEED when set, else from a nonce, and is printed so
 * that a failure can be replayed.  */
static uint64_t prng_state;

void
prng_seed (void)
{
  const char *s = getenv ("SFENC_TEST_SEED");

  if (s)
    prng_state = strtoull (s, NULL, 0);
  else
    gcry_create_nonce (&prng_state, sizeof prng_state);
  if (!prng_state)
    prng_state = 1;
  printf ("%s: SFENC_TEST_SEED=0x%016llx\n", test_name,
          (unsigned long long) prng_state);
}

uint64_t
prng_next (void)
{
  prng_state ^= prng_state >> 12;
  prng_state ^= prng_state << 25;
  prng_state ^= prng_state >> 27;
  return prng_state * 0x2545F4914F6CDD1DULL;
}

void
prng_fill (void *buf, size_t len)
{
  unsigned char *p = buf;

  while (len)
    {
      uint64_t v = prng_next ();
      size_t n = len < 8 ? len : 8;

      memcpy (p, &v, n);
      p += n;
      len -= n;
    }
}

/* A uniform number in [0, N).  */
size_t
prng_below (size_t n)
{
  return (size_t) (prng_next () % n);
}

/* Decode hex string HEX of HEXLEN characters into a fresh buffer;
 * store the byte count at R_LEN.  NULL on bad input.  */
unsigned char *
hex_to_bytes (const char *hex, size_t hexlen, size_t *r_len)
{
  unsigned char *buf;
  size_t i;

  if (hexlen % 2)
    return NULL;
  buf = malloc (hexlen / 2 + 1);
  if (!buf)
    return NULL;
  for (i = 0; i < hexlen / 2; i++)
    {
      char pair[3] = { hex[2 * i], hex[2 * i + 1], 0 };
      char *end;

      buf[i] = (unsigned char) strtoul (pair, &end, 16);
      if (*end)
        {
          free (buf);
          return NULL;
        }
    }
  *r_len = hexlen / 2;
  return buf;
}

/* Open SPEC in MODE with KEY and IV (NULL: zero), or fail the test.  */
sf_cipher_hd_t
open_keyed (const sf_cipher_spec_t *spec, enum sf_cipher_mode mode,
            const unsigned char *key, size_t keylen,
            const unsigned char *iv)
{
  sf_cipher_hd_t hd;
  gpg_error_t err;

  err = sf_cipher_open (&hd, spec, mode, 0);
  if (!err)
    err = sf_cipher_setkey (hd, key, keylen);
  if (!err && mode != SF_MODE_ECB)
    err = sf_cipher_setiv (hd, iv, spec->blocksize);
  if (err)
    {
      fprintf (stderr, "%s: opening %s (%s) failed: %s\n", test_name,
               spec->name, spec->impl, gpg_strerror (err));
      exit (1);
    }
  return hd;
}

const enum sf_cipher_mode all_modes[N_MODES] =
  {
    SF_MODE_ECB, SF_MODE_CBC, SF_MODE_CFB, SF_MODE_OPENPGP_CFB,
    SF_MODE_CTR, SF_MODE_OFB
  };

gpg_error_t
gcry_setkey_allow_weak (gcry_cipher_hd_t ghd, const unsigned char *key,
                        size_t len)
{
  gpg_error_t err = gcry_cipher_setkey (ghd, key, len);

  return gpg_err_code (err) == GPG_ERR_WEAK_KEY ? 0 : err;
}

const char *
mode_name (enum sf_cipher_mode mode)
{
  switch (mode)
    {
    case SF_MODE_ECB: return "ECB";
    case SF_MODE_CBC: return "CBC";
    case SF_MODE_CFB: return "CFB";
    case SF_MODE_OPENPGP_CFB: return "OpenPGP-CFB";
    case SF_MODE_CTR: return "CTR";
    case SF_MODE_OFB: return "OFB";
    }
  return "?";
}


const char *
test_srcdir (void)
{
  const char *dir = getenv ("srcdir");

  return dir && *dir ? dir : SF_TEST_SRCDIR;
}


void
test_load_modules (int argc, char **argv)
{
  int i;

  for (i = 1; i < argc; i++)
    {
      char why[300];
      gpg_error_t err = sf_module_load (argv[i], why, sizeof why);

      check (!err, "loading %s: %s", argv[i], why);
    }
}


const sf_cipher_spec_t *
guarded_spec (const sf_cipher_spec_t *base, const char *impl,
              unsigned int version, size_t size)
{
  size_t page = (size_t) sysconf (_SC_PAGESIZE);
  sf_cipher_spec_t copy = *base;
  unsigned char *mem;

  mem = mmap (NULL, 2 * page, PROT_READ | PROT_WRITE,
              MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (mem == MAP_FAILED || mprotect (mem + page, page, PROT_NONE))
    {
      fprintf (stderr, "%s: cannot map a guarded page\n", test_name);
      exit (1);
    }
  copy.abi_version = version;
  copy.impl = impl;
  memcpy (mem + page - size, &copy, size);
  return (const sf_cipher_spec_t *) (mem + page - size);
}


void
test_buf_put (struct test_buf *b, const void *data, size_t len)
{
  if (!len)
    return;
  if (b->len + len > b->size)
    {
      b->size = 2 * (b->len + len) + 64;
      b->data = realloc (b->data, b->size);
      if (!b->data)
        abort ();
    }
  memcpy (b->data + b->len, data, len);
  b->len += len;
}
