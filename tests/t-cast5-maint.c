/* t-cast5-maint.c - RFC 2144 B.2, the CAST-128 maintenance test
 *
 * a = b = 0123456712345678234567893456789A; a million times:
 * a = E(a) under key b, then b = E(b) under key a, each 16 bytes as
 * two ECB blocks.  The RFC gives a and b at the end (also recorded in
 * vectors/cast5.txt).  Run on every native CAST5 implementation: it
 * exercises about four million key schedules and so every S-box
 * entry, which the B.1 known answers alone do not.
 */
#include <config.h>

#include "t-common.h"

#define ITERATIONS 1000000

static const unsigned char start[16] =
  { 0x01, 0x23, 0x45, 0x67, 0x12, 0x34, 0x56, 0x78,
    0x23, 0x45, 0x67, 0x89, 0x34, 0x56, 0x78, 0x9A };
static const unsigned char expect_a[16] =
  { 0xEE, 0xA9, 0xD0, 0xA2, 0x49, 0xFD, 0x3B, 0xA6,
    0xB3, 0x43, 0x6F, 0xB8, 0x9D, 0x6D, 0xCA, 0x92 };
static const unsigned char expect_b[16] =
  { 0xB2, 0xC9, 0x5E, 0xB0, 0x0C, 0x31, 0xAD, 0x71,
    0x80, 0xAC, 0x05, 0xB8, 0xE8, 0x3D, 0x69, 0x6E };

static void
maintenance (const sf_cipher_spec_t *spec)
{
  void *ctx = aligned_alloc (SF_CONTEXT_ALIGN,
                             (spec->contextsize + 63) / 64 * 64);
  unsigned char a[16], b[16];
  long i;

  if (!ctx)
    exit (1);
  memcpy (a, start, 16);
  memcpy (b, start, 16);
  for (i = 0; i < ITERATIONS; i++)
    {
      spec->setkey (ctx, b, 16);
      spec->encrypt (ctx, a, a);
      spec->encrypt (ctx, a + 8, a + 8);
      spec->setkey (ctx, a, 16);
      spec->encrypt (ctx, b, b);
      spec->encrypt (ctx, b + 8, b + 8);
    }
  check (!memcmp (a, expect_a, 16) && !memcmp (b, expect_b, 16),
         "%s (%s): RFC 2144 B.2 maintenance test", spec->name, spec->impl);
  printf ("%s: %s (%s): %d iterations\n", test_name, spec->name,
          spec->impl, ITERATIONS);
  free (ctx);
}

int
main (void)
{
  const sf_table_entry_t *e;
  size_t i, n = 0;

  test_init ("t-cast5-maint");
  for (i = 0; (e = sf_table_nth (i)); i++)
    if (sf_spec_has_name (e->spec, "CAST5") && strcmp (e->spec->impl, "gcrypt")
        && sf_spec_usable (e->spec))
      {
        maintenance (e->spec);
        n++;
      }
  check (n > 0, "no native CAST5 implementation");
  return test_finish ();
}
