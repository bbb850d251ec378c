/* t-diff.c - every native implementation against libgcrypt
 *
 * For each usable implementation that is not the gcrypt provider:
 *   - 10,000 random keys, each with a random block, encrypted and
 *     decrypted by the module's own block functions and by libgcrypt's
 *     same algorithm (looked up by name), which must agree;
 *   - every mode, over random lengths fed in random pieces through
 *     the generic modes (and so through the module's bulk functions),
 *     against libgcrypt's own implementation of that mode.
 * SFENC_DIFF_KEYS changes the number of keys (never below 10,000 in
 * make check).  Arguments name dynamic modules to load first, so an
 * out-of-tree module is compared the same way.
 */
#include <config.h>

#include "t-common.h"

#define MAXLEN 4096
#define MODE_ROUNDS 150

static int
gcry_mode_of (enum sf_cipher_mode mode, unsigned int *r_flags)
{
  *r_flags = 0;
  switch (mode)
    {
    case SF_MODE_ECB: return GCRY_CIPHER_MODE_ECB;
    case SF_MODE_CBC: return GCRY_CIPHER_MODE_CBC;
    case SF_MODE_CFB: return GCRY_CIPHER_MODE_CFB;
    case SF_MODE_OPENPGP_CFB:
      *r_flags = GCRY_CIPHER_ENABLE_SYNC;
      return GCRY_CIPHER_MODE_CFB;
    case SF_MODE_CTR: return GCRY_CIPHER_MODE_CTR;
    case SF_MODE_OFB: return GCRY_CIPHER_MODE_OFB;
    }
  return 0;
}

static gcry_cipher_hd_t
open_gcry (const sf_cipher_spec_t *spec, enum sf_cipher_mode mode)
{
  gcry_cipher_hd_t ghd;
  unsigned int flags;
  int gmode = gcry_mode_of (mode, &flags);
  gpg_error_t err;

  err = gcry_cipher_open (&ghd, gcry_cipher_map_name (spec->name), gmode,
                          flags);
  if (!err)
    err = gcry_cipher_ctl (ghd, GCRYCTL_SET_ALLOW_WEAK_KEY, NULL, 1);
  if (err)
    {
      fprintf (stderr, "%s: libgcrypt has no %s %s: %s\n", test_name,
               spec->name, mode_name (mode), gpg_strerror (err));
      exit (1);
    }
  return ghd;
}

static void
diff_blocks (const sf_cipher_spec_t *spec, unsigned long nkeys)
{
  size_t bs = spec->blocksize;
  size_t ctxlen = (spec->contextsize + SF_CONTEXT_ALIGN - 1)
                  / SF_CONTEXT_ALIGN * SF_CONTEXT_ALIGN;
  void *ctx = aligned_alloc (SF_CONTEXT_ALIGN, ctxlen ? ctxlen : 64);
  gcry_cipher_hd_t ghd = open_gcry (spec, SF_MODE_ECB);
  unsigned char key[64], pt[SF_MAX_BLOCKSIZE], ours[SF_MAX_BLOCKSIZE];
  unsigned char theirs[SF_MAX_BLOCKSIZE];
  unsigned long i, bad = 0;

  if (!ctx)
    exit (1);
  for (i = 0; i < nkeys; i++)
    {
      prng_fill (key, spec->keylen);
      prng_fill (pt, bs);
      if (spec->setkey (ctx, key, spec->keylen)
          || gcry_setkey_allow_weak (ghd, key, spec->keylen))
        {
          bad++;
          continue;
        }
      spec->encrypt (ctx, ours, pt);
      gcry_cipher_encrypt (ghd, theirs, bs, pt, bs);
      if (memcmp (ours, theirs, bs))
        bad++;
      spec->decrypt (ctx, ours, pt);
      gcry_cipher_decrypt (ghd, theirs, bs, pt, bs);
      if (memcmp (ours, theirs, bs))
        bad++;
      if (spec->release)
        spec->release (ctx);
    }
  check (!bad, "%s (%s): %lu of %lu random keys disagree with libgcrypt",
         spec->name, spec->impl, bad, nkeys);
  printf ("%s: %s (%s): %lu random keys x blocks, both directions\n",
          test_name, spec->name, spec->impl, nkeys);
  gcry_cipher_close (ghd);
  free (ctx);
}

static void
diff_mode (const sf_cipher_spec_t *spec, enum sf_cipher_mode mode)
{
  size_t bs = spec->blocksize;
  int whole_blocks = mode == SF_MODE_ECB || mode == SF_MODE_CBC;
  static unsigned char pt[MAXLEN], ours[MAXLEN + 8], theirs[MAXLEN];
  unsigned char key[64], iv[SF_MAX_BLOCKSIZE];
  gcry_cipher_hd_t ghd = open_gcry (spec, mode);
  unsigned long bad = 0;
  int round;

  for (round = 0; round < MODE_ROUNDS; round++)
    {
      size_t len = prng_below (MAXLEN + 1);
      size_t off = prng_below (8);
      size_t done, n;
      sf_cipher_hd_t hd;
      int sync = mode == SF_MODE_OPENPGP_CFB && len > bs + 2;

      if (whole_blocks)
        len -= len % bs;
      prng_fill (key, spec->keylen);
      prng_fill (iv, bs);
      prng_fill (pt, len);

      if (gcry_setkey_allow_weak (ghd, key, spec->keylen))
        {
          bad++;
          continue;
        }
      if (mode == SF_MODE_CTR)
        gcry_cipher_setctr (ghd, iv, bs);
      else if (mode != SF_MODE_ECB)
        gcry_cipher_setiv (ghd, iv, bs);
      if (sync)
        {
          gcry_cipher_encrypt (ghd, theirs, bs + 2, pt, bs + 2);
          gcry_cipher_sync (ghd);
          gcry_cipher_encrypt (ghd, theirs + bs + 2, len - bs - 2,
                               pt + bs + 2, len - bs - 2);
        }
      else
        gcry_cipher_encrypt (ghd, theirs, len, pt, len);

      /* Ours, in random pieces, at a misaligned address.  */
      hd = open_keyed (spec, mode, key, spec->keylen, iv);
      for (done = 0; done < len; done += n)
        {
          n = prng_below (len - done + 1);
          if (whole_blocks)
            n -= n % bs;
          if (!n)
            n = whole_blocks ? bs : 1;
          if (sync && done < bs + 2 && done + n > bs + 2)
            n = bs + 2 - done;
          sf_cipher_encrypt (hd, ours + off + done, pt + done, n);
          if (sync && done + n == bs + 2)
            sf_cipher_sync (hd);
        }
      if (memcmp (ours + off, theirs, len))
        bad++;

      /* Back again, in one call per direction of the resync.  */
      sf_cipher_setiv (hd, mode == SF_MODE_ECB ? NULL : iv, bs);
      if (sync)
        {
          sf_cipher_decrypt (hd, ours + off, theirs, bs + 2);
          sf_cipher_sync (hd);
          sf_cipher_decrypt (hd, ours + off + bs + 2, theirs + bs + 2,
                             len - bs - 2);
        }
      else
        sf_cipher_decrypt (hd, ours + off, theirs, len);
      if (memcmp (ours + off, pt, len))
        bad++;
      sf_cipher_close (hd);
    }
  check (!bad, "%s (%s) %s: %lu of %d rounds disagree with libgcrypt",
         spec->name, spec->impl, mode_name (mode), bad, MODE_ROUNDS);
  gcry_cipher_close (ghd);
}

int
main (int argc, char **argv)
{
  const char *s = getenv ("SFENC_DIFF_KEYS");
  unsigned long nkeys = s ? strtoul (s, NULL, 10) : 10000;
  const sf_table_entry_t *e;
  size_t i, m, n = 0;

  test_init ("t-diff");
  prng_seed ();
  test_load_modules (argc, argv);
  for (i = 0; (e = sf_table_nth (i)); i++)
    {
      if (!strcmp (e->spec->impl, "gcrypt"))
        continue;
      if (!sf_spec_usable (e->spec))
        {
          printf ("%s: %s (%s): UNAVAILABLE on this machine, not tested\n",
                  test_name, e->spec->name, e->spec->impl);
          continue;
        }
      /* Stated, never silent: a module's algorithm libgcrypt lacks.  */
      if (!gcry_cipher_map_name (e->spec->name))
        {
          printf ("%s: %s (%s): NOT TESTED: libgcrypt has no %s\n",
                  test_name, e->spec->name, e->spec->impl, e->spec->name);
          continue;
        }
      diff_blocks (e->spec, nkeys);
      for (m = 0; m < N_MODES; m++)
        diff_mode (e->spec, all_modes[m]);
      n++;
    }
  printf ("%s: %zu native implementations compared with libgcrypt\n",
          test_name, n);
  check (n > 0, "no native implementation to compare");
  return test_finish ();
}
