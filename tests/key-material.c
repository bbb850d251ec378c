/* key-material.c - secrets as sfenc derives and holds them, for
 * tests/sfenc-secrets.bats
 *
 * tests/s2k-key.py computes every secret of a message from its packets
 * and the passphrase.  What Python's standard library cannot compute
 * comes from here, in two kinds:
 *
 *   - through libgcrypt alone, the oracle independent of sfenc's code:
 *     Argon2id, a block cipher in ECB or CFB mode, and the AEAD
 *     decryption (OCB, EAX, GCM) of an encrypted session key;
 *   - through sfenc's own code, because what is searched for is how
 *     sfenc lays key material out in memory: a cipher context keyed by
 *     the module's own setkey, and a GHASH key.
 *
 * For the second kind the program prints 16-byte windows of the keyed
 * memory that depend on the key and on nothing else: a second context
 * keyed with the same key holds the same bytes there (so nothing in a
 * window is an address, a count or left over), and a third, keyed
 * with another key, differs in at least half of them.  Windows with
 * fewer than six distinct byte values are left out, such as a 16-bit
 * subkey repeated across the lanes of a vector: memory is full of
 * such patterns, and a search for one could find it by chance.  Of
 * the windows that vary the most, at most four, spread over the
 * memory, are printed.
 *
 * Usage (all values in hex, ALGO an OpenPGP cipher id, which
 * libgcrypt's ids equal):
 *   key-material argon2 PASS SALT T P M KEYLEN    Argon2id, 2^M KiB
 *   key-material encrypt ALGO ecb|cfb KEY IV DATA
 *   key-material decrypt ALGO ecb|cfb KEY IV DATA
 *   key-material aead-decrypt ALGO ocb|eax|gcm KEY NONCE AD DATA
 *       DATA is the ciphertext followed by its 16-byte tag; a tag that
 *       does not match (a wrong passphrase) exits with status 2.
 *   key-material schedule ALGO IMPL KEY           IMPL "-": the default
 *   key-material ghash H
 * The first four print the result; the last two print one line
 * "WHERE WINDOW" per window, WHERE being REGION+OFFSET: region 0 is
 * the context, region N the memory its Nth pointer into libgcrypt's
 * secure pool leads to (the gcrypt implementations' handles).
 */
#include <config.h>

#include <stdarg.h>

#include "t-common.h"
#include "aead-internal.h"

#define WINDOW 16
#define MAX_WINDOWS 4
#define MIN_DISTINCT 6
/* Bytes read where a context points into the secure pool: the start
 * of a libgcrypt handle, which holds the key schedule.  */
#define POINTED_SPAN 4096
#define MAX_REGIONS 16
#define TAGLEN 16

/* Keyed memory copied out: the context and what it points to.  */
struct snapshot
{
  size_t nregions;
  unsigned char *bytes[MAX_REGIONS];
  size_t len[MAX_REGIONS];
};

struct window
{
  size_t region, offset;
  unsigned int varying;         /* Bytes that differ with another key.  */
};


static void __attribute__ ((noreturn, format (printf, 1, 2)))
die (const char *fmt, ...)
{
  va_list ap;

  va_start (ap, fmt);
  fprintf (stderr, "key-material: ");
  vfprintf (stderr, fmt, ap);
  fputc ('\n', stderr);
  va_end (ap);
  exit (1);
}

static unsigned char *
unhex (const char *hex, size_t *r_len)
{
  unsigned char *buf = hex_to_bytes (hex, strlen (hex), r_len);

  if (!buf)
    die ("not a hex string: '%s'", hex);
  return buf;
}

static unsigned long
number (const char *s)
{
  char *end;
  unsigned long n = strtoul (s, &end, 10);

  if (!*s || *end)
    die ("not a number: '%s'", s);
  return n;
}

static void
print_hex (const unsigned char *p, size_t len)
{
  size_t i;

  for (i = 0; i < len; i++)
    printf ("%02x", p[i]);
  putchar ('\n');
}

static void
check_gcry (gpg_error_t err, const char *what)
{
  if (err)
    die ("%s: %s", what, gpg_strerror (err));
}


/*
 * libgcrypt, the oracle.
 */

static int
cipher_mode (const char *name)
{
  static const struct { const char *name; int mode; } modes[] =
    {
      { "ecb", GCRY_CIPHER_MODE_ECB }, { "cfb", GCRY_CIPHER_MODE_CFB },
      { "ocb", GCRY_CIPHER_MODE_OCB }, { "eax", GCRY_CIPHER_MODE_EAX },
      { "gcm", GCRY_CIPHER_MODE_GCM }
    };
  size_t i;

  for (i = 0; i < sizeof modes / sizeof *modes; i++)
    if (!strcmp (name, modes[i].name))
      return modes[i].mode;
  die ("unknown mode '%s'", name);
}

/* A libgcrypt handle for ALGO in MODE keyed with KEY (hex), IV (hex)
 * set unless empty.  */
static gcry_cipher_hd_t
open_gcry (const char *algo, const char *mode, const char *key,
           const char *iv)
{
  gcry_cipher_hd_t hd;
  unsigned char *kb, *ivb;
  size_t klen, ivlen;

  kb = unhex (key, &klen);
  ivb = unhex (iv, &ivlen);
  check_gcry (gcry_cipher_open (&hd, number (algo), cipher_mode (mode), 0),
              "gcry_cipher_open");
  check_gcry (gcry_cipher_ctl (hd, GCRYCTL_SET_ALLOW_WEAK_KEY, NULL, 1),
              "allowing weak keys");
  check_gcry (gcry_setkey_allow_weak (hd, kb, klen), "gcry_cipher_setkey");
  if (ivlen)
    check_gcry (gcry_cipher_setiv (hd, ivb, ivlen), "gcry_cipher_setiv");
  free (kb);
  free (ivb);
  return hd;
}

static void
run_cipher (int encrypting, char **argv)
{
  gcry_cipher_hd_t hd = open_gcry (argv[0], argv[1], argv[2], argv[3]);
  size_t len;
  unsigned char *data = unhex (argv[4], &len);

  check_gcry (encrypting ? gcry_cipher_encrypt (hd, data, len, NULL, 0)
              : gcry_cipher_decrypt (hd, data, len, NULL, 0),
              encrypting ? "encrypting" : "decrypting");
  print_hex (data, len);
  gcry_cipher_close (hd);
  free (data);
}

static void
cmd_encrypt (char **argv)
{
  run_cipher (1, argv);
}

static void
cmd_decrypt (char **argv)
{
  run_cipher (0, argv);
}

static void
cmd_aead_decrypt (char **argv)
{
  gcry_cipher_hd_t hd = open_gcry (argv[0], argv[1], argv[2], argv[3]);
  size_t adlen, len;
  unsigned char *ad = unhex (argv[4], &adlen), *data = unhex (argv[5], &len);

  if (len < TAGLEN)
    die ("'%s' is shorter than a tag", argv[5]);
  len -= TAGLEN;
  check_gcry (gcry_cipher_authenticate (hd, ad, adlen), "authenticating");
  /* OCB must be told which call is the last.  */
  check_gcry (gcry_cipher_final (hd), "gcry_cipher_final");
  check_gcry (gcry_cipher_decrypt (hd, data, len, NULL, 0), "decrypting");
  if (gcry_cipher_checktag (hd, data + len, TAGLEN))
    {
      fprintf (stderr, "key-material: the tag does not match\n");
      exit (2);
    }
  print_hex (data, len);
  gcry_cipher_close (hd);
  free (ad);
  free (data);
}

static void
cmd_argon2 (char **argv)
{
  gcry_kdf_hd_t hd;
  size_t passlen, saltlen, keylen = number (argv[5]);
  unsigned char *pass = unhex (argv[0], &passlen);
  unsigned char *salt = unhex (argv[1], &saltlen);
  unsigned char *key = malloc (keylen);
  const unsigned long param[4] =
    { keylen, number (argv[2]), 1ul << number (argv[4]), number (argv[3]) };

  if (!key)
    die ("out of memory");
  check_gcry (gcry_kdf_open (&hd, GCRY_KDF_ARGON2, GCRY_KDF_ARGON2ID, param,
                             4, pass, passlen, salt, saltlen, NULL, 0,
                             NULL, 0), "gcry_kdf_open");
  check_gcry (gcry_kdf_compute (hd, NULL), "gcry_kdf_compute");
  check_gcry (gcry_kdf_final (hd, keylen, key), "gcry_kdf_final");
  gcry_kdf_close (hd);
  print_hex (key, keylen);
  free (pass);
  free (salt);
  free (key);
}


/*
 * sfenc's layout: keyed memory, compared between keys.
 */

static void
add_region (struct snapshot *snap, const unsigned char *p, size_t len)
{
  unsigned char *copy = malloc (len ? len : 1);

  if (!copy || snap->nregions == MAX_REGIONS)
    die ("too many regions or out of memory");
  memcpy (copy, p, len);
  snap->bytes[snap->nregions] = copy;
  snap->len[snap->nregions++] = len;
}

static void
free_snapshot (struct snapshot *snap)
{
  while (snap->nregions)
    free (snap->bytes[--snap->nregions]);
}

/* Bytes from P on that lie in the secure pool, up to POINTED_SPAN.  */
static size_t
secure_span (const unsigned char *p)
{
  size_t n = 0;

  while (n < POINTED_SPAN && gcry_is_secure (p + n))
    n++;
  return n;
}

/* Key SPEC's context in secure memory, as sfenc does, with KEY, and
 * copy out the context and what it points to in the secure pool.  */
static void
snapshot_context (const sf_cipher_spec_t *spec, const unsigned char *key,
                  struct snapshot *snap)
{
  size_t len = spec->contextsize + SF_CONTEXT_ALIGN, off;
  unsigned char *mem = gcry_calloc_secure (1, len), *ctx;
  const unsigned char *p;

  if (!mem)
    die ("out of secure memory");
  ctx = (unsigned char *) (((uintptr_t) mem + SF_CONTEXT_ALIGN - 1)
                           & ~(uintptr_t) (SF_CONTEXT_ALIGN - 1));
  check_gcry (spec->setkey (ctx, key, spec->keylen), "setkey");
  add_region (snap, ctx, spec->contextsize);
  for (off = 0; off + sizeof p <= spec->contextsize; off += sizeof p)
    {
      memcpy (&p, ctx + off, sizeof p);
      if (p && gcry_is_secure (p))
        add_region (snap, p, secure_span (p));
    }
  if (spec->release)
    spec->release (ctx);
  sf_wipememory (mem, len);
  gcry_free (mem);
}

static void
snapshot_ghash (const unsigned char h[AEAD_BLOCK], struct snapshot *snap)
{
  sf_ghash_key_t key;

  sf_ghash_setkey (&key, h);
  add_region (snap, (const unsigned char *) key.words, sizeof key.words);
}

static unsigned int
distinct_values (const unsigned char *p)
{
  unsigned char seen[256] = { 0 };
  unsigned int i, n = 0;

  for (i = 0; i < WINDOW; i++)
    if (!seen[p[i]]++)
      n++;
  return n;
}

static int
same_window (const struct snapshot *s, const struct window *a,
             const struct window *b)
{
  return !memcmp (s->bytes[a->region] + a->offset,
                  s->bytes[b->region] + b->offset, WINDOW);
}

/* Print the windows of KEYED that depend on the key alone: AGAIN was
 * keyed with the same key, OTHER with another.  */
static void
print_windows (const struct snapshot *keyed, const struct snapshot *again,
               const struct snapshot *other)
{
  struct window *w = NULL, *kept;
  size_t n = 0, nkept = 0, r, off, i, j, size = 0;
  unsigned int best = 0;

  if (keyed->nregions != again->nregions
      || keyed->nregions != other->nregions)
    die ("the keyed memory differs in shape between keys");
  for (r = 0; r < keyed->nregions; r++)
    {
      const unsigned char *a = keyed->bytes[r], *b = again->bytes[r];
      const unsigned char *c = other->bytes[r];
      size_t len = keyed->len[r];

      len = again->len[r] < len ? again->len[r] : len;
      len = other->len[r] < len ? other->len[r] : len;
      for (off = 0; off + WINDOW <= len; off += WINDOW)
        {
          unsigned int varying = 0;

          if (memcmp (a + off, b + off, WINDOW)
              || distinct_values (a + off) < MIN_DISTINCT)
            continue;
          for (i = 0; i < WINDOW; i++)
            varying += a[off + i] != c[off + i];
          if (varying < WINDOW / 2)
            continue;
          if (n == size)
            {
              size = size ? 2 * size : 64;
              w = realloc (w, size * sizeof *w);
              if (!w)
                die ("out of memory");
            }
          w[n].region = r;
          w[n].offset = off;
          w[n++].varying = varying;
          if (varying > best)
            best = varying;
        }
    }
  if (!n)
    die ("no window of the keyed memory depends on the key");
  /* The windows that vary the most (one byte may repeat by chance),
   * each content once, in place in W.  */
  kept = w;
  for (i = 0; i < n; i++)
    {
      if (w[i].varying + 1 < best)
        continue;
      for (j = 0; j < nkept && !same_window (keyed, &kept[j], &w[i]); j++)
        ;
      if (j == nkept)
        kept[nkept++] = w[i];
    }
  for (i = 0; i < MAX_WINDOWS && i < nkept; i++)
    {
      const struct window *pick
        = &kept[nkept <= MAX_WINDOWS ? i
                : i * (nkept - 1) / (MAX_WINDOWS - 1)];

      printf ("%zu+%#zx ", pick->region, pick->offset);
      print_hex (keyed->bytes[pick->region] + pick->offset, WINDOW);
    }
  free (w);
}

/* KEY with every byte changed, high and low bits alike (DES ignores
 * the lowest).  */
static void
other_key (unsigned char *key, size_t len)
{
  while (len--)
    key[len] ^= 0xa5;
}

static void
cmd_schedule (char **argv)
{
  const sf_cipher_spec_t *spec;
  struct snapshot keyed = { 0 }, again = { 0 }, other = { 0 };
  size_t keylen;
  unsigned char *key = unhex (argv[2], &keylen);
  const char *impl = strcmp (argv[1], "-") ? argv[1] : NULL;

  check_gcry (sf_table_find_id (number (argv[0]), impl, &spec), argv[0]);
  if (keylen != spec->keylen)
    die ("the key does not have the length of cipher %s", argv[0]);
  snapshot_context (spec, key, &keyed);
  snapshot_context (spec, key, &again);
  other_key (key, keylen);
  snapshot_context (spec, key, &other);
  print_windows (&keyed, &again, &other);
  free_snapshot (&keyed);
  free_snapshot (&again);
  free_snapshot (&other);
  free (key);
}

static void
cmd_ghash (char **argv)
{
  struct snapshot keyed = { 0 }, again = { 0 }, other = { 0 };
  size_t len;
  unsigned char *h = unhex (argv[0], &len);

  if (len != AEAD_BLOCK)
    die ("H must be 16 bytes, not '%s'", argv[0]);
  snapshot_ghash (h, &keyed);
  snapshot_ghash (h, &again);
  other_key (h, len);
  snapshot_ghash (h, &other);
  print_windows (&keyed, &again, &other);
  free_snapshot (&keyed);
  free_snapshot (&again);
  free_snapshot (&other);
  free (h);
}


int
main (int argc, char **argv)
{
  static const struct
  {
    const char *name;
    int nargs;
    void (*run) (char **argv);
  } commands[] =
    {
      { "argon2", 6, cmd_argon2 }, { "encrypt", 5, cmd_encrypt },
      { "decrypt", 5, cmd_decrypt }, { "aead-decrypt", 6, cmd_aead_decrypt },
      { "schedule", 3, cmd_schedule }, { "ghash", 1, cmd_ghash }
    };
  size_t i;

  test_init ("key-material");
  if (test_failed)
    return 1;
  for (i = 0; i < sizeof commands / sizeof *commands; i++)
    if (argc > 1 && !strcmp (argv[1], commands[i].name))
      break;
  if (i == sizeof commands / sizeof *commands
      || argc != 2 + commands[i].nargs)
    die ("usage: see the head of tests/key-material.c");
  commands[i].run (argv + 2);
  return 0;
}
