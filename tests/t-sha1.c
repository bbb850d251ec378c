/* t-sha1.c - sfenc's SHA-1 against NIST's answers and libgcrypt
 *
 * Every implementation that can run here is checked: the portable
 * one, SHA-NI or the ARMv8 SHA-1 instructions when the processor has
 * them, and the one sf_sha1_init picks, both directly and through
 * the dispatching sf_sha1_blocks:
 *   - the NIST CAVP byte-oriented vectors in $srcdir/vectors
 *     (sha1-shortmsg.rsp, sha1-longmsg.rsp), each message hashed in
 *     one write and again in random pieces;
 *   - the FIPS 180 examples: "abc", the 448-bit message and a million
 *     times 'a';
 *   - 10,000 random messages (lengths 0..3000, one in a hundred up to
 *     128 KiB) written in random pieces at random alignments, against
 *     libgcrypt's gcry_md_hash_buffer.
 * Also: sf_sha1_blocks picks SHA-NI, else the ARMv8 one, exactly
 * when the processor has it and SFENC_DISABLE_HWF does not name it
 * ("shani", "arm-sha1"), sf_sha1_final wipes the
 * context, and a call for no block leaves the state as it was.
 */
#include <config.h>

#include "t-common.h"
#include "sha1.h"

#define RANDOM_MESSAGES 10000
#define SHORT_MAXLEN 3000
#define LONG_MAXLEN (128 * 1024)

/* How a message is hashed: through sf_sha1_init when BLOCKS is NULL,
 * else through sf_sha1_init_with (BLOCKS).  */
struct impl
{
  const char *name;
  sf_sha1_blocks_fn *blocks;
};

#define MAX_IMPLS 5
static struct impl impls[MAX_IMPLS];
static size_t n_impls;

static void
add_impl (const char *name, sf_sha1_blocks_fn *blocks)
{
  impls[n_impls].name = name;
  impls[n_impls].blocks = blocks;
  n_impls++;
}

static void
start (const struct impl *impl, sf_sha1_t *ctx)
{
  if (impl->blocks)
    sf_sha1_init_with (ctx, impl->blocks);
  else
    sf_sha1_init (ctx);
}

/* The length of the next write when LEFT bytes remain: now and then
 * nothing, mostly less than two blocks, sometimes anything.  */
static size_t
random_piece (size_t left)
{
  size_t r = prng_below (16);

  if (r == 0)
    return 0;
  if (r < 10)
    return prng_below ((left < 130 ? left : 130) + 1);
  return prng_below (left + 1);
}

/* Hash LEN bytes at MSG with IMPL into DIGEST, in one write or, when
 * SPLIT, in random pieces.  */
static void
hash (const struct impl *impl, const unsigned char *msg, size_t len,
      int split, unsigned char digest[SF_SHA1_DIGEST_LEN])
{
  sf_sha1_t ctx;
  size_t done, n;

  start (impl, &ctx);
  if (!split)
    sf_sha1_write (&ctx, msg, len);
  else
    for (done = 0; done < len; done += n)
      {
        n = random_piece (len - done);
        sf_sha1_write (&ctx, msg + done, n);
      }
  sf_sha1_final (&ctx, digest);
}

/* Hash MSG with every implementation, whole and in pieces; count the
 * results that differ from EXPECTED in BAD, by implementation, and
 * return their number.  */
static unsigned int
hash_all (const unsigned char *msg, size_t len,
          const unsigned char expected[SF_SHA1_DIGEST_LEN],
          unsigned long bad[MAX_IMPLS])
{
  unsigned char digest[SF_SHA1_DIGEST_LEN];
  unsigned int nbad = 0;
  size_t i;
  int split;

  for (i = 0; i < n_impls; i++)
    for (split = 0; split < 2; split++)
      {
        hash (&impls[i], msg, len, split, digest);
        if (memcmp (digest, expected, SF_SHA1_DIGEST_LEN))
          {
            bad[i]++;
            nbad++;
          }
      }
  return nbad;
}


/*
 * NIST CAVP response files: "Len = BITS", "Msg = HEX", "MD = HEX".
 */

static const struct
{
  const char *file;
  unsigned int nvectors;
} rsp_files[] =
  {
    { "sha1-shortmsg.rsp", 65 },
    { "sha1-longmsg.rsp", 64 }
  };

/* The hex after "NAME = " in LINE as fresh bytes, or NULL.  */
static unsigned char *
rsp_field (const char *line, const char *name, size_t *r_len)
{
  size_t nlen = strlen (name);
  const char *hex;

  if (strncmp (line, name, nlen) || strncmp (line + nlen, " = ", 3))
    return NULL;
  hex = line + nlen + 3;
  return hex_to_bytes (hex, strcspn (hex, " \r\n"), r_len);
}

static void
run_rsp_file (const char *srcdir, const char *file, unsigned int expected)
{
  char path[4096];
  char *line = NULL;
  size_t linesize = 0;
  unsigned long bits = 0, bad[MAX_IMPLS] = { 0 };
  unsigned char *msg = NULL, *md;
  size_t msglen = 0, mdlen, i;
  unsigned int lineno = 0, nvectors = 0;
  int have_len = 0;
  FILE *fp;

  snprintf (path, sizeof path, "%s/vectors/%s", srcdir, file);
  fp = fopen (path, "r");
  check (fp != NULL, "cannot open %s", path);
  if (!fp)
    return;
  while (getline (&line, &linesize, fp) != -1)
    {
      lineno++;
      if (!strncmp (line, "Len = ", 6))
        {
          bits = strtoul (line + 6, NULL, 10);
          have_len = 1;
        }
      else if (!strncmp (line, "Msg = ", 6))
        {
          free (msg);
          msg = rsp_field (line, "Msg", &msglen);
          check (msg != NULL, "%s:%u: bad Msg", file, lineno);
        }
      else if ((md = rsp_field (line, "MD", &mdlen)))
        {
          int wellformed = have_len && msg && bits % 8 == 0
                           && msglen >= bits / 8
                           && mdlen == SF_SHA1_DIGEST_LEN;

          check (wellformed, "%s:%u: malformed vector", file, lineno);
          if (wellformed && hash_all (msg, bits / 8, md, bad))
            fprintf (stderr, "%s: %s:%u: Len = %lu: wrong digest\n",
                     test_name, file, lineno, bits);
          nvectors++;
          free (md);
          have_len = 0;
        }
    }
  free (line);
  free (msg);
  fclose (fp);
  check (nvectors == expected, "%s: %u vectors, expected %u", file,
         nvectors, expected);
  for (i = 0; i < n_impls; i++)
    check (!bad[i], "%s: %s: %lu wrong digests", file, impls[i].name,
           bad[i]);
  printf ("%s: %s: %u vectors\n", test_name, file, nvectors);
}


/*
 * The FIPS 180 examples (FIPS 180-2 Appendix A; NIST's "Examples with
 * intermediate values", SHA1.pdf, for FIPS 180-4).
 */

static void
run_fips_examples (void)
{
  static const struct
  {
    const char *msg;
    const char *md;
  } examples[] =
    {
      { "abc", "a9993e364706816aba3e25717850c26c9cd0d89d" },
      { "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
        "84983e441c3bd26ebaae4aa1f95129e5e54670f1" }
    };
  const size_t million = 1000000;
  unsigned long bad[MAX_IMPLS] = { 0 };
  unsigned char *a = malloc (million), *md;
  size_t i, mdlen;

  if (!a)
    exit (1);
  for (i = 0; i < sizeof examples / sizeof examples[0]; i++)
    {
      md = hex_to_bytes (examples[i].md, strlen (examples[i].md), &mdlen);
      if (!md)
        exit (1);
      hash_all ((const unsigned char *)examples[i].msg,
                strlen (examples[i].msg), md, bad);
      free (md);
    }
  md = hex_to_bytes ("34aa973cd4c4daa4f61eeb2bdbad27316534016f", 40, &mdlen);
  if (!md)
    exit (1);
  memset (a, 'a', million);
  hash_all (a, million, md, bad);
  free (md);
  free (a);
  for (i = 0; i < n_impls; i++)
    check (!bad[i], "FIPS 180 examples: %s: %lu wrong digests",
           impls[i].name, bad[i]);
}


/*
 * The interface's promises.
 */

static void
run_contract (void)
{
  static const unsigned char empty_md[SF_SHA1_DIGEST_LEN] =
    {
      0xda, 0x39, 0xa3, 0xee, 0x5e, 0x6b, 0x4b, 0x0d, 0x32, 0x55,
      0xbf, 0xef, 0x95, 0x60, 0x18, 0x90, 0xaf, 0xd8, 0x07, 0x09
    };
  static const sf_sha1_t wiped;
  const char *expected_impl;
  unsigned char digest[SF_SHA1_DIGEST_LEN], block[SF_SHA1_BLOCK_LEN] = { 0 };
  uint32_t state[5], before[5];
  sf_sha1_t ctx;
  size_t i;

  if (sf_sha1_shani_usable () && !sf_hwf_disabled ("shani"))
    expected_impl = "shani";
  else if (sf_sha1_armce_usable () && !sf_hwf_disabled ("arm-sha1"))
    expected_impl = "armce";
  else
    expected_impl = "ref";
  check (!strcmp (sf_sha1_impl_name (), expected_impl),
         "sf_sha1_blocks uses %s, expected %s", sf_sha1_impl_name (),
         expected_impl);

  for (i = 0; i < n_impls; i++)
    {
      start (&impls[i], &ctx);
      sf_sha1_write (&ctx, NULL, 0);
      sf_sha1_final (&ctx, digest);
      check (!memcmp (digest, empty_md, sizeof digest),
             "%s: empty message from a NULL write", impls[i].name);
      check (!memcmp (&ctx, &wiped, sizeof ctx),
             "%s: sf_sha1_final leaves the context unwiped",
             impls[i].name);

      if (!impls[i].blocks)
        continue;
      prng_fill (state, sizeof state);
      memcpy (before, state, sizeof state);
      impls[i].blocks (state, block, 0);
      check (!memcmp (state, before, sizeof state),
             "%s: zero blocks change the state", impls[i].name);
    }
}


/*
 * Random messages against libgcrypt.
 */

static void
run_differential (void)
{
  unsigned char *buf = malloc (LONG_MAXLEN + 16);
  unsigned char expected[SF_SHA1_DIGEST_LEN];
  unsigned long bad[MAX_IMPLS] = { 0 };
  unsigned long n, reported = 0;
  size_t i;

  if (!buf)
    exit (1);
  for (n = 0; n < RANDOM_MESSAGES; n++)
    {
      size_t len = prng_below (100) ? prng_below (SHORT_MAXLEN + 1)
                                    : prng_below (LONG_MAXLEN + 1);
      unsigned char *msg = buf + prng_below (16);

      prng_fill (msg, len);
      gcry_md_hash_buffer (GCRY_MD_SHA1, expected, msg, len);
      if (hash_all (msg, len, expected, bad) && reported++ < 10)
        fprintf (stderr, "%s: message %lu (%zu bytes) disagrees with"
                 " libgcrypt\n", test_name, n, len);
    }
  free (buf);
  for (i = 0; i < n_impls; i++)
    {
      check (!bad[i], "%s: %lu of %d random messages disagree with"
             " libgcrypt", impls[i].name, bad[i], 2 * RANDOM_MESSAGES);
      printf ("%s: %s: %d random messages, whole and in pieces,"
              " against libgcrypt\n", test_name, impls[i].name,
              RANDOM_MESSAGES);
    }
}


int
main (void)
{
  size_t i;

  test_init ("t-sha1");
  prng_seed ();

  add_impl ("ref", sf_sha1_blocks_ref);
  if (sf_sha1_shani_usable ())
    add_impl ("shani", sf_sha1_blocks_shani);
  else
    printf ("%s: shani: UNAVAILABLE on this machine, not tested\n",
            test_name);
  if (sf_sha1_armce_usable ())
    add_impl ("armce", sf_sha1_blocks_armce);
  else
    printf ("%s: armce: UNAVAILABLE on this machine, not tested\n",
            test_name);
  add_impl ("sf_sha1_init", NULL);
  add_impl ("sf_sha1_blocks", sf_sha1_blocks);
  printf ("%s: sf_sha1_blocks uses %s\n", test_name, sf_sha1_impl_name ());

  run_contract ();
  for (i = 0; i < sizeof rsp_files / sizeof rsp_files[0]; i++)
    run_rsp_file (test_srcdir (), rsp_files[i].file,
                  rsp_files[i].nvectors);
  run_fips_examples ();
  run_differential ();
  return test_finish ();
}
