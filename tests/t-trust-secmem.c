/* t-trust-secmem.c - the gcrypt provider's key schedules follow the context
 *
 * The provider's context is opaque to the program: it holds handles
 * to libgcrypt objects, and those hold the expanded key.  A context
 * the caller put in secure memory (SF_CIPHER_SECURE) must therefore
 * point into libgcrypt's secure pool once keyed, and one in ordinary
 * memory must not, so as not to drain the small pool.  gcry_is_secure
 * answers for any address without dereferencing it, so every
 * pointer-sized word of the context is asked.
 */
#include <config.h>

#include "t-common.h"

/* Key SPEC in a context in secure memory when SECURE, else in
 * ordinary memory, and return the number of its words that point
 * into secure memory.  */
static size_t
secure_words (const sf_cipher_spec_t *spec, int secure)
{
  size_t len = spec->contextsize + SF_CONTEXT_ALIGN;
  unsigned char *mem = secure ? gcry_calloc_secure (1, len)
                              : gcry_calloc (1, len);
  unsigned char *ctx, key[64];
  size_t off, n = 0;
  gpg_error_t err;

  if (!mem)
    {
      check (0, "%s (gcrypt): out of memory", spec->name);
      return 0;
    }
  ctx = (unsigned char *) (((uintptr_t) mem + SF_CONTEXT_ALIGN - 1)
                           & ~(uintptr_t) (SF_CONTEXT_ALIGN - 1));
  memset (key, 0x5a, sizeof key);
  err = spec->setkey (ctx, key, spec->keylen);
  check (!err, "%s (gcrypt): setkey: %s", spec->name, gpg_strerror (err));
  for (off = 0; !err && off + sizeof (void *) <= spec->contextsize;
       off += sizeof (void *))
    {
      void *word;

      memcpy (&word, ctx + off, sizeof word);
      if (word && gcry_is_secure (word))
        n++;
    }
  if (!err && spec->release)
    spec->release (ctx);
  gcry_free (mem);
  return n;
}


int
main (void)
{
  const sf_table_entry_t *e;
  size_t i, tested = 0;

  test_init ("t-trust-secmem");
  for (i = 0; (e = sf_table_nth (i)); i++)
    {
      if (strcmp (e->spec->impl, "gcrypt"))
        continue;
      check (secure_words (e->spec, 1) > 0,
             "%s (gcrypt): a secure context's key schedule is not in"
             " secure memory", e->spec->name);
      check (secure_words (e->spec, 0) == 0,
             "%s (gcrypt): an ordinary context's key schedule takes"
             " secure memory", e->spec->name);
      tested++;
    }
  check (tested == 8, "the eight gcrypt implementations were tested,"
         " not %zu", tested);
  return test_finish ();
}
