/* openssl-name.c - find OpenSSL's cipher for an algorithm of the table
 *
 * The benchmarks put OpenSSL beside every algorithm OpenSSL has, and
 * a module may add any algorithm.  So instead of a map of names,
 * OpenSSL's own look-up is asked for the table's name and aliases,
 * and the answer is kept only when its key and block sizes agree.
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "openssl-name.h"

#ifdef HAVE_OPENSSL
# include <openssl/evp.h>
# include <openssl/provider.h>

/* OpenSSL's cipher called NAME, or, as most are named with a mode,
 * NAME-CBC; NULL if neither.  */
static EVP_CIPHER *
fetch_either (const char *name)
{
  EVP_CIPHER *cipher = EVP_CIPHER_fetch (NULL, name, NULL);
  char with_mode[80];

  if (cipher)
    return cipher;
  snprintf (with_mode, sizeof with_mode, "%s-CBC", name);
  return EVP_CIPHER_fetch (NULL, with_mode, NULL);
}

/* Copy the name of CIPHER, which OpenSSL gives with its mode when it
 * is CBC or ECB ("CAMELLIA-128-CBC", "DES-EDE3-ECB"), to STEM without
 * it.  */
static void
copy_stem (const EVP_CIPHER *cipher, char *stem, size_t stemlen)
{
  const char *full = EVP_CIPHER_get0_name (cipher);
  const char *dash = strrchr (full, '-');
  int mode = EVP_CIPHER_get_mode (cipher);
  size_t len = strlen (full);

  if (dash && (mode == EVP_CIPH_CBC_MODE || mode == EVP_CIPH_ECB_MODE))
    len = (size_t) (dash - full);
  snprintf (stem, stemlen, "%.*s", (int) len, full);
}

static OSSL_PROVIDER *legacy_provider, *default_provider;
static int providers_loaded;

/* At exit, before OpenSSL's own clean-up (registered earlier, so run
 * later): a provider still loaded then is left behind, leaked.  */
static void
unload_providers (void)
{
  if (legacy_provider)
    OSSL_PROVIDER_unload (legacy_provider);
  if (default_provider)
    OSSL_PROVIDER_unload (default_provider);
}

int
openssl_cipher_stem (const char *name, const char *const *aliases,
                     size_t keylen, size_t blocksize,
                     char *stem, size_t stemlen)
{
  const char *const *alias = aliases;
  const char *candidate = name;

  if (!providers_loaded)
    {
      /* Loading the legacy provider explicitly unloads the implicit
       * default one, so both are named.  */
      legacy_provider = OSSL_PROVIDER_load (NULL, "legacy");
      default_provider = OSSL_PROVIDER_load (NULL, "default");
      atexit (unload_providers);
      providers_loaded = 1;
    }
  while (candidate)
    {
      EVP_CIPHER *cipher = fetch_either (candidate);
      int found = (cipher
                   && (size_t) EVP_CIPHER_get_key_length (cipher) == keylen
                   && (size_t) EVP_CIPHER_get_block_size (cipher) == blocksize);

      if (found)
        copy_stem (cipher, stem, stemlen);
      EVP_CIPHER_free (cipher);
      if (found)
        return 1;
      candidate = alias && *alias ? *alias++ : NULL;
    }
  return 0;
}

#else /*!HAVE_OPENSSL*/

int
openssl_cipher_stem (const char *name, const char *const *aliases,
                     size_t keylen, size_t blocksize,
                     char *stem, size_t stemlen)
{
  (void) name;
  (void) aliases;
  (void) keylen;
  (void) blocksize;
  (void) stem;
  (void) stemlen;
  return 0;
}

#endif /*!HAVE_OPENSSL*/
