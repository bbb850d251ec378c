/* version.c - who sfenc says it is: --version and --list-config
 *
 * Programs that drive gpg run "gpg --version" first and refuse to go
 * on unless its first line reads like gpg's: python-gnupg matches
 * "gpg (GnuPG) X.Y.Z" at its start, duplicity the whole line, GPGME
 * takes its last word as the version and leaves out loopback pinentry
 * below 2.1.  So that line names the gpg interface sfenc implements,
 * always, whatever name sfenc was run under, and the next line says
 * that this is sfenc and which version: no client reads it.
 */
#include <config.h>

#include <stdio.h>
#include <string.h>
#include <gcrypt.h>
#include <zlib.h>

#include "libsfcipher.h"
#include "compress.h"
#include "compress-bzip2.h"
#include "deflate-engine.h"
#include "error.h"
#include "packet.h"
#include "s2k.h"
#include "version.h"

/* The OpenPGP ids are octets.  */
#define MAX_ALGO_ID 255

/* The algorithm lists: what --list-config gives the ids and the names
 * of, and --version the names.  */
enum algo_list
  {
    LIST_PUBKEY,
    LIST_CIPHER,
    LIST_DIGEST,
    LIST_COMPRESS,
    N_LISTS
  };


/* The name of algorithm ID of LIST, or NULL when sfenc has none by
 * that id (or none that can run here).  */
static const char *
algo_name (enum algo_list list, int id)
{
  const sf_cipher_spec_t *spec;

  switch (list)
    {
    case LIST_CIPHER:
      return sf_table_find_id (id, NULL, &spec) ? NULL : spec->name;
    case LIST_DIGEST:
      return digest_algo_supported (id) ? digest_algo_name (id) : NULL;
    case LIST_COMPRESS:
      return id <= COMPRESS_BZIP2 ? compress_algo_name (id) : NULL;
    default:
      return NULL;      /* sfenc has no public-key algorithms.  */
    }
}


/* Print the ids (NAMES false) or the names of LIST in id order, as
 * gpg lists them, each followed by SEP but the last.  */
static void
print_algo_list (enum algo_list list, int names, const char *sep)
{
  const char *name;
  int id, first = 1;

  for (id = 0; id <= MAX_ALGO_ID; id++)
    {
      name = algo_name (list, id);
      if (!name)
        continue;
      if (!first)
        fputs (sep, stdout);
      if (names)
        fputs (name, stdout);
      else
        printf ("%d", id);
      first = 0;
    }
}


void
show_version (void)
{
  printf ("gpg (GnuPG) %s\n"
          "%s %s (not GnuPG: the line above names the gpg interface"
          " it implements for symmetric encryption)\n"
          "libgcrypt %s\n"
          "zlib %s\n"
          "libbz2 %s\n", GPG_INTERFACE_VERSION, PACKAGE_NAME,
          PACKAGE_VERSION, gcry_check_version (NULL), zlibVersion (),
          bzip2_library_version ());
  if (deflate_engine_isal_version ())
    printf ("ISA-L %s (igzip, compression levels 1-3)\n",
            deflate_engine_isal_version ());
  fputs ("\nSupported algorithms:\nCipher: ", stdout);
  print_algo_list (LIST_CIPHER, 1, ", ");
  fputs ("\nHash: ", stdout);
  print_algo_list (LIST_DIGEST, 1, ", ");
  fputs ("\nCompression: ", stdout);
  print_algo_list (LIST_COMPRESS, 1, ", ");
  putchar ('\n');
}


/* The items of gpg's --list-config, in gpg's order.  */
static const struct
{
  const char *name;
  enum algo_list list;          /* N_LISTS for "version".  */
  int names;
} config_items[] =
  {
    { "version", N_LISTS, 0 },
    { "pubkey", LIST_PUBKEY, 0 },
    { "pubkeyname", LIST_PUBKEY, 1 },
    { "cipher", LIST_CIPHER, 0 },
    { "ciphername", LIST_CIPHER, 1 },
    { "digest", LIST_DIGEST, 0 },
    { "digestname", LIST_DIGEST, 1 },
    { "compress", LIST_COMPRESS, 0 },
    { "compressname", LIST_COMPRESS, 1 },
    { "curve", LIST_PUBKEY, 1 }
  };

#define N_CONFIG_ITEMS (sizeof config_items / sizeof *config_items)


static void
print_config_item (size_t i)
{
  printf ("cfg:%s:", config_items[i].name);
  if (config_items[i].list == N_LISTS)
    fputs (GPG_INTERFACE_VERSION, stdout);
  else
    print_algo_list (config_items[i].list, config_items[i].names, ";");
  putchar ('\n');
}


gpg_error_t
list_config (const char *const *items, size_t n_items)
{
  size_t i, j;

  if (!n_items)
    for (i = 0; i < N_CONFIG_ITEMS; i++)
      print_config_item (i);
  for (j = 0; j < n_items; j++)
    {
      for (i = 0; i < N_CONFIG_ITEMS; i++)
        if (!strcmp (items[j], config_items[i].name))
          break;
      if (i == N_CONFIG_ITEMS)
        return fail (gpg_error (GPG_ERR_INV_NAME), "--list-config",
                     "unknown configuration item '%s'", items[j]);
      print_config_item (i);
    }
  return 0;
}
