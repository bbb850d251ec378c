/* t-aead.c - OCB, EAX and GCM against published answers and libgcrypt
 *
 *   - the vectors in $srcdir/vectors/aead-{ocb,eax,gcm}.vec (their
 *     sources are in their headers) through every usable
 *     implementation of AES in the table with the vector's key size,
 *     through a copy of each without its bulk functions and OCB entry
 *     (the one-block paths), and through a copy of one with an OCB
 *     entry without that entry (OCB over the ECB bulk function):
 *     encrypted and decrypted in one call and in random pieces, the
 *     tag checked, a tag with one bit flipped refused;
 *   - RFC 7253's iterated OCB test (messages of every length from 0
 *     to 127 bytes in steps of 8), for each key and tag length it
 *     gives, in the same way;
 *   - random keys, nonces, tag lengths, associated data (0..300
 *     bytes) and messages (0..2000 bytes, and a tenth as many of
 *     0..40000 bytes, which the OCB entries take in runs of many
 *     blocks), in random pieces at random alignments, in place or
 *     not, against libgcrypt's OCB, EAX and GCM, for every usable
 *     native implementation of a 128-bit block algorithm libgcrypt
 *     also has (AES, Twofish; Camellia when its module is given as an
 *     argument); a flipped bit is refused;
 *   - OCB messages of every length from 0 to 3072 bytes the same way,
 *     so that every mix of an OCB entry's runs of 32, 16, 8 and 1
 *     blocks and a partial block comes;
 *   - GCM's counter wrapping in its last 32 bits within a message;
 *   - GHASH, portable, PCLMULQDQ, VPCLMULQDQ and PMULL, against the bitwise
 *     algorithm of SP 800-38D, and its choice obeying
 *     SFENC_DISABLE_HWF;
 *   - the calls the API refuses.
 * SFENC_AEAD_ROUNDS sets the random messages per implementation and
 * mode (1000).
 */
#include <config.h>

#include "t-common.h"
#include "aead-internal.h"

#define MAX_MSG 2000
#define MAX_LONG 40000
#define EVERY_LEN_MAX 3072
#define MAX_AD 300
/* RFC 7253's 22,400 bytes of C for 128-bit tags.  */
#define ITERATED_MAX (128 * 3 * 16 + 127 * 128)
#define N_AEAD_MODES 3

static const enum sf_aead_mode aead_modes[N_AEAD_MODES] =
  { SF_AEAD_OCB, SF_AEAD_EAX, SF_AEAD_GCM };


/*
 * Running a message through our API.
 */

/* The length of the next piece when LEFT bytes remain; all of it
 * unless SPLIT.  With WHOLE_BLOCKS (OCB's data) every piece but the
 * last is a multiple of the block size.  Pieces may be empty.  */
static size_t
piece (size_t left, int split, int whole_blocks)
{
  size_t n;

  if (!split)
    return left;
  n = prng_below (left + 1);
  if (whole_blocks && n < left)
    n -= n % AEAD_BLOCK;
  return n;
}

/* One message: NONCE, then AD, then LEN bytes IN to OUT, in one call
 * each or, when SPLIT, in random pieces.  Returns the first error.  */
static gpg_error_t
run_message (sf_aead_hd_t hd, enum sf_aead_mode mode, int encrypting,
             int split, const unsigned char *nonce, size_t noncelen,
             const unsigned char *ad, size_t adlen,
             unsigned char *out, const unsigned char *in, size_t len)
{
  gpg_error_t err = sf_aead_setnonce (hd, nonce, noncelen);
  size_t done, n;

  for (done = 0; !err && done < adlen; done += n)
    {
      n = piece (adlen - done, split, 0);
      err = sf_aead_authenticate (hd, ad + done, n);
    }
  for (done = 0; !err && done < len; done += n)
    {
      n = piece (len - done, split, mode == SF_AEAD_OCB);
      err = encrypting ? sf_aead_encrypt (hd, out + done, in + done, n)
                       : sf_aead_decrypt (hd, out + done, in + done, n);
    }
  return err;
}

static sf_aead_hd_t
open_aead (const sf_cipher_spec_t *spec, enum sf_aead_mode mode,
           size_t taglen, const unsigned char *key, size_t keylen)
{
  sf_aead_hd_t hd;
  gpg_error_t err = sf_aead_open (&hd, spec, mode, taglen, 0);

  if (!err)
    err = sf_aead_setkey (hd, key, keylen);
  if (err)
    {
      fprintf (stderr, "%s: %s %s (%s) taglen %zu: %s\n", test_name,
               sf_aead_mode_name (mode), spec->name, spec->impl, taglen,
               gpg_strerror (err));
      exit (1);
    }
  return hd;
}

/* The same spec without its bulk functions and OCB entry, so that the
 * modes take their one-block paths.  */
static sf_cipher_spec_t
without_bulk (const sf_cipher_spec_t *spec)
{
  sf_cipher_spec_t copy = *spec;

  copy.ecb_enc = copy.ecb_dec = NULL;
  copy.cbc_enc = copy.cbc_dec = NULL;
  copy.cfb_enc = copy.cfb_dec = NULL;
  copy.ofb = copy.ctr = NULL;
  copy.ocb = NULL;
  return copy;
}

/* The same spec without its OCB entry: OCB over its ECB bulk.  */
static sf_cipher_spec_t
without_ocb (const sf_cipher_spec_t *spec)
{
  sf_cipher_spec_t copy = *spec;

  copy.ocb = NULL;
  return copy;
}


/*
 * Known answers.
 */

struct vector
{
  unsigned char *key, *nonce, *ad, *pt, *ct, *tag;
  size_t keylen, noncelen, adlen, ptlen, ctlen, taglen;
};

/* The hex after " NAME=" (or at the line's start) as fresh bytes.  */
static unsigned char *
field (const char *line, const char *name, size_t *r_len)
{
  char key[16];
  const char *p, *end;

  snprintf (key, sizeof key, "%s=", name);
  for (p = line; (p = strstr (p, key)); p++)
    if (p == line || p[-1] == ' ')
      break;
  if (!p)
    return NULL;
  p += strlen (key);
  end = p + strcspn (p, " \r\n");
  return hex_to_bytes (p, end - p, r_len);
}

static int
parse_vector (const char *line, struct vector *v)
{
  v->key = field (line, "KEY", &v->keylen);
  v->nonce = field (line, "NONCE", &v->noncelen);
  v->ad = field (line, "AD", &v->adlen);
  v->pt = field (line, "PT", &v->ptlen);
  v->ct = field (line, "CT", &v->ctlen);
  v->tag = field (line, "TAG", &v->taglen);
  return v->key && v->nonce && v->ad && v->pt && v->ct && v->tag
         && v->ptlen == v->ctlen && v->taglen <= SF_AEAD_MAX_TAGLEN;
}

static void
free_vector (struct vector *v)
{
  free (v->key);
  free (v->nonce);
  free (v->ad);
  free (v->pt);
  free (v->ct);
  free (v->tag);
}

/* V through SPEC in MODE, whole and in pieces; returns the number of
 * wrong results.  */
static unsigned int
check_vector (const sf_cipher_spec_t *spec, enum sf_aead_mode mode,
              const struct vector *v)
{
  sf_aead_hd_t hd = open_aead (spec, mode, v->taglen, v->key, v->keylen);
  unsigned char *out = malloc (v->ptlen + 1);
  unsigned char tag[SF_AEAD_MAX_TAGLEN];
  unsigned int bad = 0;
  int split;

  for (split = 0; split < 2; split++)
    {
      if (run_message (hd, mode, 1, split, v->nonce, v->noncelen, v->ad,
                       v->adlen, out, v->pt, v->ptlen)
          || sf_aead_gettag (hd, tag, v->taglen)
          || memcmp (out, v->ct, v->ctlen) || memcmp (tag, v->tag, v->taglen))
        bad++;
      if (run_message (hd, mode, 0, split, v->nonce, v->noncelen, v->ad,
                       v->adlen, out, v->ct, v->ctlen)
          || sf_aead_checktag (hd, v->tag, v->taglen)
          || memcmp (out, v->pt, v->ptlen))
        bad++;
      memcpy (tag, v->tag, v->taglen);
      tag[prng_below (v->taglen)] ^= 1 << prng_below (8);
      if (run_message (hd, mode, 0, split, v->nonce, v->noncelen, v->ad,
                       v->adlen, out, v->ct, v->ctlen)
          || gpg_err_code (sf_aead_checktag (hd, tag, v->taglen))
             != GPG_ERR_CHECKSUM)
        bad++;
    }
  free (out);
  sf_aead_close (hd);
  return bad;
}

/* The AES algorithm for a key of KEYLEN bytes.  */
static const char *
aes_for (size_t keylen)
{
  return keylen == 16 ? "AES" : keylen == 24 ? "AES192"
         : keylen == 32 ? "AES256" : NULL;
}

/* Vectors met per table entry, to show that each AES implementation
 * was tested.  */
#define MAX_IMPLS 256
static unsigned int vectors_seen[MAX_IMPLS];

/* CHECK_ONE (SPEC, MODE, ARG) for every usable implementation of
 * ALGO, again for each without its bulk functions, and for each with
 * an OCB entry without it.  Returns the number of implementations.  */
static unsigned int
for_each_impl (const char *algo, enum sf_aead_mode mode, const char *where,
               unsigned int (*check_one) (const sf_cipher_spec_t *,
                                          enum sf_aead_mode, void *),
               void *arg)
{
  const sf_table_entry_t *e;
  unsigned int impls = 0;
  size_t idx;

  for (idx = 0; (e = sf_table_nth (idx)); idx++)
    {
      sf_cipher_spec_t plain, no_ocb;

      if (!sf_spec_has_name (e->spec, algo) || !sf_spec_usable (e->spec))
        continue;
      plain = without_bulk (e->spec);
      no_ocb = without_ocb (e->spec);
      check (!check_one (e->spec, mode, arg), "%s: %s (%s) disagrees",
             where, e->spec->name, e->spec->impl);
      check (!check_one (&plain, mode, arg),
             "%s: %s (%s) without bulk functions disagrees", where,
             e->spec->name, e->spec->impl);
      if (sf_spec_ocb (e->spec))
        check (!check_one (&no_ocb, mode, arg),
               "%s: %s (%s) without its OCB entry disagrees", where,
               e->spec->name, e->spec->impl);
      if (idx < MAX_IMPLS)
        vectors_seen[idx]++;
      impls++;
    }
  return impls;
}

static unsigned int
check_vector_cb (const sf_cipher_spec_t *spec, enum sf_aead_mode mode,
                 void *arg)
{
  return check_vector (spec, mode, arg);
}


/* RFC 7253 Appendix A, the iterated test, with SPEC and TAGLEN.  */
static unsigned int
check_iterated (const sf_cipher_spec_t *spec, enum sf_aead_mode mode,
                void *arg)
{
  const struct vector *v = arg;          /* Only TAG and TAGLEN.  */
  static unsigned char c[ITERATED_MAX];
  unsigned char key[32], nonce[12], zeros[128], tag[SF_AEAD_MAX_TAGLEN];
  size_t taglen = v->taglen, clen = 0, i;
  sf_aead_hd_t hd;

  memset (key, 0, sizeof key);
  key[spec->keylen - 1] = (unsigned char) (taglen * 8);
  memset (zeros, 0, sizeof zeros);
  memset (nonce, 0, sizeof nonce);
  hd = open_aead (spec, mode, taglen, key, spec->keylen);
  /* C ||= OCB-ENCRYPT (K, N, A, P) for (A, P) = (S, S), (-, S), (S, -)
   * with S = zeros (8i) and N = 3i+1, 3i+2, 3i+3.  */
  for (i = 0; i < 3 * 128; i++)
    {
      size_t s = i / 3, alen = i % 3 == 1 ? 0 : s, plen = i % 3 == 2 ? 0 : s;

      nonce[10] = (unsigned char) ((i + 1) >> 8);
      nonce[11] = (unsigned char) (i + 1);
      run_message (hd, mode, 1, 0, nonce, 12, zeros, alen, c + clen, zeros,
                   plen);
      sf_aead_gettag (hd, c + clen + plen, taglen);
      clen += plen + taglen;
    }
  nonce[10] = 385 >> 8;
  nonce[11] = 385 & 0xff;
  run_message (hd, mode, 1, 0, nonce, 12, c, clen, NULL, NULL, 0);
  sf_aead_gettag (hd, tag, taglen);
  sf_aead_close (hd);
  return !!memcmp (tag, v->tag, taglen);
}

/* "ITERATED KEYBITS=n TAGBITS=n OUT=hex".  */
static void
run_iterated_line (const char *line, const char *where)
{
  unsigned int keybits = 0, tagbits = 0;
  const char *p = strstr (line, "OUT=");
  struct vector v;
  const char *algo;

  memset (&v, 0, sizeof v);
  if (sscanf (line, "ITERATED KEYBITS=%u TAGBITS=%u", &keybits, &tagbits) == 2
      && p)
    v.tag = hex_to_bytes (p + 4, strcspn (p + 4, " \r\n"), &v.taglen);
  algo = aes_for (keybits / 8);
  check (v.tag && algo && v.taglen * 8 == tagbits, "%s: malformed", where);
  if (v.tag && algo)
    check (for_each_impl (algo, SF_AEAD_OCB, where, check_iterated, &v),
           "%s: no implementation of %s", where, algo);
  free (v.tag);
}

static void
run_vector_file (const char *srcdir, const char *name, enum sf_aead_mode mode)
{
  char path[4096], where[300], line[8192];
  unsigned int lineno = 0, nvectors = 0;
  FILE *fp;

  snprintf (path, sizeof path, "%s/vectors/%s", srcdir, name);
  fp = fopen (path, "r");
  check (fp != NULL, "cannot open %s", path);
  if (!fp)
    return;
  while (fgets (line, sizeof line, fp))
    {
      struct vector v;

      lineno++;
      if (line[0] == '#' || line[strspn (line, " \r\n")] == 0)
        continue;
      snprintf (where, sizeof where, "%s:%u", name, lineno);
      nvectors++;
      if (!strncmp (line, "ITERATED ", 9))
        {
          run_iterated_line (line, where);
          continue;
        }
      check (parse_vector (line, &v) && aes_for (v.keylen),
             "%s: malformed vector", where);
      if (v.key && aes_for (v.keylen))
        check (for_each_impl (aes_for (v.keylen), mode, where,
                              check_vector_cb, &v),
               "%s: no implementation of %s", where, aes_for (v.keylen));
      free_vector (&v);
    }
  fclose (fp);
  printf ("%s: %s: %u vectors\n", test_name, name, nvectors);
  check (nvectors > 0, "%s holds no vector", name);
}

static void
check_every_aes_met_vectors (void)
{
  const sf_table_entry_t *e;
  size_t idx;

  for (idx = 0; (e = sf_table_nth (idx)) && idx < MAX_IMPLS; idx++)
    if (aes_for (e->spec->keylen) && sf_spec_has_name (e->spec,
                                                       aes_for (e->spec->keylen))
        && sf_spec_usable (e->spec))
      {
        printf ("%s: %s (%s): %u AEAD vectors\n", test_name, e->spec->name,
                e->spec->impl, vectors_seen[idx]);
        check (vectors_seen[idx] > 0, "%s (%s) met no AEAD vector",
               e->spec->name, e->spec->impl);
      }
}


/*
 * Against libgcrypt.
 */

struct message
{
  enum sf_aead_mode mode;
  unsigned char key[32], nonce[64];
  size_t noncelen, taglen, adlen, len;
  unsigned char ad[MAX_AD], pt[MAX_LONG];
};

/* A random message for MODE and SPEC of at most MAXLEN bytes, with
 * lengths libgcrypt takes.  */
static void
random_message (struct message *m, enum sf_aead_mode mode,
                const sf_cipher_spec_t *spec, size_t maxlen)
{
  static const size_t ocb_tags[] = { 8, 12, 16 };
  static const size_t gcm_tags[] = { 4, 8, 12, 13, 14, 15, 16 };

  m->mode = mode;
  prng_fill (m->key, spec->keylen);
  switch (mode)
    {
    case SF_AEAD_OCB:
      /* libgcrypt takes 8..15 bytes where RFC 7253 allows 1..15.  */
      m->noncelen = 8 + prng_below (8);
      m->taglen = ocb_tags[prng_below (3)];
      break;
    case SF_AEAD_EAX:
      m->noncelen = prng_below (33);
      m->taglen = 1 + prng_below (16);
      break;
    case SF_AEAD_GCM:
      m->noncelen = prng_below (2) ? 12 : 1 + prng_below (64);
      m->taglen = gcm_tags[prng_below (7)];
      break;
    }
  prng_fill (m->nonce, m->noncelen);
  m->adlen = prng_below (MAX_AD + 1);
  m->len = prng_below (maxlen + 1);
  prng_fill (m->ad, m->adlen);
  prng_fill (m->pt, m->len);
}

static int
gcry_mode_of (enum sf_aead_mode mode)
{
  return mode == SF_AEAD_OCB ? GCRY_CIPHER_MODE_OCB
         : mode == SF_AEAD_EAX ? GCRY_CIPHER_MODE_EAX : GCRY_CIPHER_MODE_GCM;
}

/* libgcrypt's ciphertext and tag of M, in one call each.  */
static int
gcry_encrypt_message (int algo, const struct message *m, size_t keylen,
                      unsigned char *ct, unsigned char *tag)
{
  unsigned char full[AEAD_BLOCK];
  gcry_cipher_hd_t ghd;
  int taglen = (int) m->taglen;
  gpg_error_t err;

  err = gcry_cipher_open (&ghd, algo, gcry_mode_of (m->mode), 0);
  if (!err)
    err = gcry_cipher_setkey (ghd, m->key, keylen);
  if (!err && m->mode == SF_AEAD_OCB)
    err = gcry_cipher_ctl (ghd, GCRYCTL_SET_TAGLEN, &taglen, sizeof taglen);
  if (!err)
    err = gcry_cipher_setiv (ghd, m->nonce, m->noncelen);
  if (!err)
    err = gcry_cipher_authenticate (ghd, m->ad, m->adlen);
  if (!err && m->mode == SF_AEAD_OCB)
    err = gcry_cipher_final (ghd);
  if (!err)
    err = gcry_cipher_encrypt (ghd, ct, m->len, m->pt, m->len);
  /* EAX and GCM tags are truncations of the full one.  */
  if (!err)
    err = gcry_cipher_gettag (ghd, full, m->mode == SF_AEAD_OCB ? m->taglen
                                                                : sizeof full);
  if (!err)
    memcpy (tag, full, m->taglen);
  gcry_cipher_close (ghd);
  if (err)
    fprintf (stderr, "%s: libgcrypt refused a message: %s\n", test_name,
             gpg_strerror (err));
  return !err;
}

/* Ours, encrypting (or decrypting) IN to a random offset in BUF, in
 * place half the time, in random pieces; the result is at *R_OUT.  */
static gpg_error_t
our_message (sf_aead_hd_t hd, const struct message *m, int encrypting,
             const unsigned char *in, unsigned char *buf,
             unsigned char **r_out)
{
  unsigned char *out = buf + prng_below (16);
  const unsigned char *src = in;

  if (prng_below (2))
    {
      memcpy (out, in, m->len);
      src = out;
    }
  *r_out = out;
  return run_message (hd, m->mode, encrypting, 1, m->nonce, m->noncelen,
                      m->ad, m->adlen, out, src, m->len);
}

/* Message M through SPEC and libgcrypt's ALGO; 0 if all agree, and a
 * flipped bit anywhere is refused.  M's AD may be changed.  */
static int
diff_message (const sf_cipher_spec_t *spec, struct message *m, int algo)
{
  static unsigned char theirs[MAX_LONG], buf[MAX_LONG + 16];
  unsigned char tag[AEAD_BLOCK], their_tag[AEAD_BLOCK], *out;
  sf_aead_hd_t hd;
  int ok;

  if (!gcry_encrypt_message (algo, m, spec->keylen, theirs, their_tag))
    return 1;
  hd = open_aead (spec, m->mode, m->taglen, m->key, spec->keylen);
  ok = !our_message (hd, m, 1, m->pt, buf, &out)
       && !sf_aead_gettag (hd, tag, m->taglen)
       && !memcmp (out, theirs, m->len)
       && !memcmp (tag, their_tag, m->taglen);
  ok = ok && !our_message (hd, m, 0, theirs, buf, &out)
       && !sf_aead_checktag (hd, their_tag, m->taglen)
       && !memcmp (out, m->pt, m->len);

  /* One bit flipped in the ciphertext, or else the AD, or else the
   * tag; in the tag too when it is so short (EAX allows one byte)
   * that a forgery would pass now and then.  */
  if (m->len && m->taglen >= 8)
    theirs[prng_below (m->len)] ^= 1 << prng_below (8);
  else if (m->adlen && m->taglen >= 8)
    m->ad[prng_below (m->adlen)] ^= 1 << prng_below (8);
  else
    their_tag[prng_below (m->taglen)] ^= 1 << prng_below (8);
  ok = ok && !our_message (hd, m, 0, theirs, buf, &out)
       && gpg_err_code (sf_aead_checktag (hd, their_tag, m->taglen))
          == GPG_ERR_CHECKSUM;
  sf_aead_close (hd);
  return !ok;
}

/* ROUNDS random messages of at most MAXLEN bytes in MODE through
 * SPEC and libgcrypt's ALGO.  */
static void
diff_random (const sf_cipher_spec_t *spec, enum sf_aead_mode mode, int algo,
             unsigned long rounds, size_t maxlen)
{
  static struct message m;
  unsigned long bad, i;

  for (bad = i = 0; i < rounds; i++)
    {
      random_message (&m, mode, spec, maxlen);
      bad += diff_message (spec, &m, algo);
    }
  check (!bad, "%s (%s) %s: %lu of %lu random messages up to %zu bytes"
         " disagree with libgcrypt", spec->name, spec->impl,
         sf_aead_mode_name (mode), bad, rounds, maxlen);
}

/* OCB messages of every length from 0 to EVERY_LEN_MAX bytes through
 * SPEC and libgcrypt's ALGO, the rest of each message random.  */
static void
diff_every_length (const sf_cipher_spec_t *spec, int algo)
{
  static struct message m;
  unsigned long bad = 0;
  size_t len;

  for (len = 0; len <= EVERY_LEN_MAX; len++)
    {
      random_message (&m, SF_AEAD_OCB, spec, 0);
      m.len = len;
      prng_fill (m.pt, len);
      bad += diff_message (spec, &m, algo);
    }
  check (!bad, "%s (%s) OCB: %lu of the lengths 0..%d disagree with"
         " libgcrypt", spec->name, spec->impl, bad, EVERY_LEN_MAX);
}

static void
diff_impl (const sf_cipher_spec_t *spec, unsigned long rounds)
{
  int algo = gcry_cipher_map_name (spec->name);
  size_t m;

  for (m = 0; m < N_AEAD_MODES; m++)
    {
      diff_random (spec, aead_modes[m], algo, rounds, MAX_MSG);
      diff_random (spec, aead_modes[m], algo, rounds / 10, MAX_LONG);
    }
  diff_every_length (spec, algo);
  printf ("%s: %s (%s): %lu random messages per mode and %lu long ones,"
          " and OCB's lengths 0..%d, against libgcrypt\n", test_name,
          spec->name, spec->impl, rounds, rounds / 10, EVERY_LEN_MAX);
}

static void
diff_all (unsigned long rounds)
{
  const sf_table_entry_t *e;
  size_t idx, n = 0;

  for (idx = 0; (e = sf_table_nth (idx)); idx++)
    {
      if (e->spec->blocksize != AEAD_BLOCK || !strcmp (e->spec->impl, "gcrypt")
          || !gcry_cipher_map_name (e->spec->name))
        {
          /* Stated, never silent, for a module a user named.  */
          if (e->origin)
            printf ("%s: %s (%s): NOT TESTED: %s\n", test_name,
                    e->spec->name, e->spec->impl,
                    e->spec->blocksize != AEAD_BLOCK
                    ? "AEAD needs a 128-bit block"
                    : "libgcrypt has no such cipher to compare with");
          continue;
        }
      if (!sf_spec_usable (e->spec))
        {
          printf ("%s: %s (%s): UNAVAILABLE on this machine, not tested\n",
                  test_name, e->spec->name, e->spec->impl);
          continue;
        }
      diff_impl (e->spec, rounds);
      n++;
    }
  check (n > 0, "no native 128-bit block implementation to compare");
}


/*
 * GHASH and GCM's counter.
 */

/* Z = X * Y in GF(2^128), bit by bit (SP 800-38D 6.3, Algorithm 1).  */
static void
ref_gf_mul (unsigned char z[16], const unsigned char x[16],
            const unsigned char y[16])
{
  unsigned char v[16], r[16];
  int i, j, lsb;

  memcpy (v, y, 16);
  memset (r, 0, 16);
  for (i = 0; i < 128; i++)
    {
      if ((x[i / 8] >> (7 - i % 8)) & 1)
        for (j = 0; j < 16; j++)
          r[j] ^= v[j];
      lsb = v[15] & 1;
      for (j = 15; j > 0; j--)
        v[j] = (unsigned char) ((v[j] >> 1) | (v[j - 1] << 7));
      v[0] >>= 1;
      if (lsb)
        v[0] ^= 0xe1;
    }
  memcpy (z, r, 16);
}

static void
ref_ghash (const unsigned char h[16], unsigned char y[16],
           const unsigned char *data, size_t nblocks)
{
  int j;

  for (; nblocks; nblocks--, data += 16)
    {
      for (j = 0; j < 16; j++)
        y[j] ^= data[j];
      ref_gf_mul (y, y, h);
    }
}

/* A^-1 = A^(2^128 - 2).  */
static void
ref_gf_inverse (unsigned char out[16], const unsigned char a[16])
{
  unsigned char r[16];
  int i;

  memcpy (r, a, 16);
  for (i = 0; i < 126; i++)
    {
      ref_gf_mul (r, r, r);
      ref_gf_mul (r, r, a);
    }
  ref_gf_mul (out, r, r);
}

static void
check_ghash_impl (const char *name, void (*setkey) (sf_ghash_key_t *,
                                                     const unsigned char *))
{
  static unsigned char data[40 * 16];
  unsigned char h[16], y0[16], want[16], got[16];
  sf_ghash_key_t key;
  unsigned long bad = 0;
  int round;

  for (round = 0; round < 2000; round++)
    {
      size_t n = prng_below (41), cut = prng_below (n + 1);

      prng_fill (h, 16);
      prng_fill (y0, 16);
      prng_fill (data, n * 16);
      memcpy (want, y0, 16);
      ref_ghash (h, want, data, n);
      setkey (&key, h);
      memcpy (got, y0, 16);
      sf_ghash_blocks (&key, got, data, cut);
      sf_ghash_blocks (&key, got, data + cut * 16, n - cut);
      bad += !!memcmp (got, want, 16);
    }
  check (!bad, "GHASH (%s): %lu of 2000 random runs differ from SP 800-38D's"
         " algorithm", name, bad);
  printf ("%s: GHASH (%s): 2000 random runs\n", test_name, name);
}

/* What sf_ghash_setkey should choose here.  */
static const char *
expected_ghash (void)
{
  if (!sf_ghash_pclmul_usable () || sf_hwf_disabled ("pclmul"))
    return sf_ghash_pmull_usable () && !sf_hwf_disabled ("arm-pmull")
           ? "pmull" : "ref";
  if (!sf_ghash_vpclmul_usable () || sf_hwf_disabled ("vpclmul"))
    return "pclmul";
  return "vpclmul";
}

static void
check_ghash (void)
{
  check_ghash_impl ("ref", sf_ghash_setkey_ref);
  if (sf_ghash_pclmul_usable ())
    check_ghash_impl ("pclmul", sf_ghash_setkey_pclmul);
  else
    printf ("%s: GHASH (pclmul): UNAVAILABLE on this machine, not tested\n",
            test_name);
  if (sf_ghash_vpclmul_usable ())
    check_ghash_impl ("vpclmul", sf_ghash_setkey_vpclmul);
  else
    printf ("%s: GHASH (vpclmul): UNAVAILABLE on this machine, not tested\n",
            test_name);
  if (sf_ghash_pmull_usable ())
    check_ghash_impl ("pmull", sf_ghash_setkey_pmull);
  else
    printf ("%s: GHASH (pmull): UNAVAILABLE on this machine, not tested\n",
            test_name);
  check (!strcmp (sf_ghash_impl_name (), expected_ghash ()),
         "GHASH chose %s, not %s", sf_ghash_impl_name (), expected_ghash ());
}

/* A 16-byte IV that makes GCM's J0 under SPEC and KEY end in the 32
 * bits LOW: IV = (J0 H^-1 ^ L) H^-1, L the length block of a 128-bit
 * IV, since J0 = ((IV H) ^ L) H.  Checked with the reference GHASH.  */
static int
iv_for_counter (const sf_cipher_spec_t *spec, const unsigned char *key,
                uint32_t low, unsigned char iv[16])
{
  sf_cipher_hd_t ecb = open_keyed (spec, SF_MODE_ECB, key, spec->keylen, NULL);
  unsigned char h[16], hinv[16], j0[16], len_block[16], y[16];
  int i;

  memset (h, 0, 16);
  sf_cipher_encrypt (ecb, h, h, 16);
  sf_cipher_close (ecb);
  ref_gf_inverse (hinv, h);
  prng_fill (j0, 12);
  for (i = 0; i < 4; i++)
    j0[12 + i] = (unsigned char) (low >> (24 - 8 * i));
  memset (len_block, 0, 16);
  len_block[15] = 128;
  ref_gf_mul (iv, j0, hinv);
  for (i = 0; i < 16; i++)
    iv[i] ^= len_block[i];
  ref_gf_mul (iv, iv, hinv);

  memset (y, 0, 16);
  ref_ghash (h, y, iv, 1);
  ref_ghash (h, y, len_block, 1);
  return !memcmp (y, j0, 16);
}

/* Messages whose counter wraps from ffffffff to 0 in its last 32 bits
 * early, and within a bulk call, against libgcrypt.  */
static unsigned int
check_counter_wrap (const sf_cipher_spec_t *spec, enum sf_aead_mode mode,
                    void *arg)
{
  static const uint32_t lows[] = { 0xfffffff8, 0xffffffff, 0xfffffff0 };
  struct message *m = arg;
  unsigned char theirs[MAX_MSG], tag[AEAD_BLOCK], *out;
  static unsigned char buf[MAX_MSG + 16];
  unsigned int bad = 0;
  size_t i;

  for (i = 0; i < sizeof lows / sizeof *lows; i++)
    {
      sf_aead_hd_t hd;

      prng_fill (m->key, spec->keylen);
      if (!iv_for_counter (spec, m->key, lows[i], m->nonce)
          || !gcry_encrypt_message (gcry_cipher_map_name (spec->name), m,
                                    spec->keylen, theirs, tag))
        {
          bad++;
          continue;
        }
      hd = open_aead (spec, mode, m->taglen, m->key, spec->keylen);
      bad += our_message (hd, m, 1, m->pt, buf, &out)
             || sf_aead_checktag (hd, tag, m->taglen)
             || memcmp (out, theirs, m->len);
      sf_aead_close (hd);
    }
  return bad;
}

static void
check_gcm_counter_wrap (void)
{
  static struct message m;

  m.mode = SF_AEAD_GCM;
  m.noncelen = 16;
  m.taglen = 16;
  m.adlen = 5;
  m.len = 40 * 16 + 5;
  prng_fill (m.ad, m.adlen);
  prng_fill (m.pt, m.len);
  check (for_each_impl ("AES", SF_AEAD_GCM, "GCM counter wrap",
                        check_counter_wrap, &m) > 0,
         "GCM counter wrap: no AES");
}


/*
 * What the API refuses.
 */

static void
check_order (const sf_cipher_spec_t *aes, enum sf_aead_mode mode)
{
  unsigned char key[16] = { 1 }, nonce[12] = { 2 }, data[32] = { 3 };
  unsigned char tag[16], tag2[16];
  sf_aead_hd_t hd;
  gpg_error_t err;

  err = sf_aead_open (&hd, aes, mode, 16, 0);
  check (!err, "open: %s", gpg_strerror (err));
  if (err)
    return;
  check (gpg_err_code (sf_aead_setnonce (hd, nonce, 12)) == GPG_ERR_MISSING_KEY,
         "%s: nonce before key", sf_aead_mode_name (mode));
  check (gpg_err_code (sf_aead_encrypt (hd, data, data, 16))
         == GPG_ERR_MISSING_KEY, "%s: data before key",
         sf_aead_mode_name (mode));
  check (gpg_err_code (sf_aead_setkey (hd, key, 15)) == GPG_ERR_INV_KEYLEN,
         "%s: a 15-byte AES key", sf_aead_mode_name (mode));
  sf_aead_setkey (hd, key, 16);
  check (gpg_err_code (sf_aead_encrypt (hd, data, data, 16))
         == GPG_ERR_INV_STATE, "%s: data before nonce",
         sf_aead_mode_name (mode));
  sf_aead_setnonce (hd, nonce, 12);
  check (!sf_aead_encrypt (hd, NULL, NULL, 0), "%s: empty data",
         sf_aead_mode_name (mode));
  check (gpg_err_code (sf_aead_authenticate (hd, data, 1)) == GPG_ERR_INV_STATE,
         "%s: AD after data", sf_aead_mode_name (mode));
  check (!sf_aead_encrypt (hd, data, data, 5), "%s: 5 bytes",
         sf_aead_mode_name (mode));
  err = sf_aead_encrypt (hd, data, data, 16);
  check (mode == SF_AEAD_OCB ? gpg_err_code (err) == GPG_ERR_INV_STATE : !err,
         "%s: data after a partial block: %s", sf_aead_mode_name (mode),
         gpg_strerror (err));
  check (gpg_err_code (sf_aead_gettag (hd, tag, 15)) == GPG_ERR_INV_LENGTH,
         "%s: a short tag", sf_aead_mode_name (mode));
  check (!sf_aead_gettag (hd, tag, 16) && !sf_aead_gettag (hd, tag2, 16)
         && !memcmp (tag, tag2, 16) && !sf_aead_checktag (hd, tag, 16),
         "%s: the tag again", sf_aead_mode_name (mode));
  check (gpg_err_code (sf_aead_encrypt (hd, data, data, 16))
         == GPG_ERR_INV_STATE, "%s: data after the tag",
         sf_aead_mode_name (mode));
  sf_aead_close (hd);
}

static void
check_refusals (void)
{
  const sf_cipher_spec_t *aes, *blowfish;
  sf_aead_hd_t hd;
  unsigned char key[16] = { 0 }, nonce[16] = { 0 };
  size_t m;

  if (sf_table_find ("AES", NULL, &aes) || sf_table_find ("BLOWFISH", NULL,
                                                           &blowfish))
    {
      check (0, "no AES or Blowfish in the table");
      return;
    }
  for (m = 0; m < N_AEAD_MODES; m++)
    {
      check (gpg_err_code (sf_aead_open (&hd, blowfish, aead_modes[m], 16, 0))
             == GPG_ERR_INV_CIPHER_MODE && !hd,
             "%s over a 64-bit block", sf_aead_mode_name (aead_modes[m]));
      check (gpg_err_code (sf_aead_open (&hd, aes, aead_modes[m], 17, 0))
             == GPG_ERR_INV_LENGTH, "%s: a 17-byte tag",
             sf_aead_mode_name (aead_modes[m]));
      check_order (aes, aead_modes[m]);
    }
  check (gpg_err_code (sf_aead_open (&hd, aes, 0, 16, 0))
         == GPG_ERR_INV_CIPHER_MODE, "mode 0");
  check (gpg_err_code (sf_aead_open (&hd, aes, SF_AEAD_GCM, 5, 0))
         == GPG_ERR_INV_LENGTH, "GCM: a 5-byte tag");
  check (gpg_err_code (sf_aead_open (&hd, aes, SF_AEAD_GCM, 16, 2))
         == GPG_ERR_INV_FLAG, "an unknown flag");

  hd = open_aead (aes, SF_AEAD_OCB, 16, key, 16);
  check (gpg_err_code (sf_aead_setnonce (hd, nonce, 16)) == GPG_ERR_INV_LENGTH
         && gpg_err_code (sf_aead_setnonce (hd, nonce, 0)) == GPG_ERR_INV_LENGTH
         && !sf_aead_setnonce (hd, nonce, 15), "OCB: nonce lengths");
  sf_aead_close (hd);
  hd = open_aead (aes, SF_AEAD_GCM, 4, key, 16);
  check (gpg_err_code (sf_aead_setnonce (hd, nonce, 0)) == GPG_ERR_INV_LENGTH,
         "GCM: an empty nonce");
  sf_aead_close (hd);

  check (!sf_aead_open (&hd, aes, SF_AEAD_EAX, 16, SF_CIPHER_SECURE)
         && gcry_is_secure (hd), "SF_CIPHER_SECURE: not in secure memory");
  sf_aead_close (hd);
}


int
main (int argc, char **argv)
{
  const char *srcdir = test_srcdir ();
  const char *s = getenv ("SFENC_AEAD_ROUNDS");
  unsigned long rounds = s ? strtoul (s, NULL, 10) : 1000;

  test_init ("t-aead");
  prng_seed ();
  test_load_modules (argc, argv);

  run_vector_file (srcdir, "aead-ocb.vec", SF_AEAD_OCB);
  run_vector_file (srcdir, "aead-eax.vec", SF_AEAD_EAX);
  run_vector_file (srcdir, "aead-gcm.vec", SF_AEAD_GCM);
  check_every_aes_met_vectors ();
  check_ghash ();
  check_gcm_counter_wrap ();
  check_refusals ();
  diff_all (rounds);
  return test_finish ();
}
