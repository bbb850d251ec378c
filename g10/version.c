/* version.c - who sfenc says it is: --version and --list-config
 *
 * Programs that drive gpg run "gpg --version" first and refuse to go
 * on unless its first line reads like gpg's: python-gnupg matches
 * "gpg (GnuPG) X.Y.Z" at its start, duplicity the whole line, GPGME
 * takes its last word as the version and leaves out loopback pinentry
 * below 2.1.  So that line names the gpg interface sfenc implements,
 * always, whatever name sfenc was run under.  Others take a field by
 * its line number (tomb prints line 11 as the cipher list), so the
 * lines that follow are laid out line for line as gpg 2.2.40's; sfenc
 * says that it is sfenc, in which version, and with which libraries
 * on the four lines where gpg has its copyright and licence, which no
 * client reads.
 */
#include <config.h>

#include <stdio.h>
#include <string.h>
#include <gcrypt.h>
#include <zlib.h>

#include "libsfcipher.h"
#include "compliance.h"
#include "compress.h"
#include "compress-bzip2.h"
#include "deflate-engine.h"
#include "error.h"
#include "options.h"
#include "options-file.h"
#include "packet.h"
#include "s2k.h"
#include "version.h"

/* The OpenPGP ids are octets.  */
#define MAX_ALGO_ID 255

/* The width past which gpg's --version goes on with a list on the
 * next line.  */
#define GPG_LIST_WRAP 60

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


/* The line "TITLE" and the names of LIST, as gpg's --version writes
 * it: a line longer than GPG_LIST_WRAP goes on, after the comma, on
 * the next one, indented by the title's width.  */
static void
print_version_list (const char *title, enum algo_list list)
{
  const char *name;
  size_t column;
  int id;

  fputs (title, stdout);
  column = strlen (title);
  for (id = 0; id <= MAX_ALGO_ID; id++)
    {
      name = algo_name (list, id);
      if (!name)
        continue;
      if (column > GPG_LIST_WRAP)
        {
          printf (",\n%*s", (int) strlen (title), "");
          column = strlen (title);
        }
      else if (column > strlen (title))
        {
          fputs (", ", stdout);
          column += 2;
        }
      fputs (name, stdout);
      column += strlen (name);
    }
  putchar ('\n');
}


/* gpg's home directory, as gpg finds it.  */
static void
print_home (void)
{
  printf ("Home: %s\n", options_home_dir (opt.homedir));
}


void
show_version (void)
{
  printf ("gpg (GnuPG) %s\n"
          "libgcrypt %s\n"
          "%s %s (not GnuPG: line 1 names the gpg interface it"
          " implements for symmetric encryption)\n"
          "zlib %s\n"
          "libbz2 %s\n", GPG_INTERFACE_VERSION, gcry_check_version (NULL),
          PACKAGE_NAME, PACKAGE_VERSION, zlibVersion (),
          bzip2_library_version ());
  if (deflate_engine_isal_version ())
    printf ("ISA-L %s (igzip: compression levels 1-3, and inflate)\n",
            deflate_engine_isal_version ());
  else
    fputs ("ISA-L none (not built in)\n", stdout);
  putchar ('\n');
  print_home ();
  fputs ("Supported algorithms:\n", stdout);
  print_version_list ("Pubkey: ", LIST_PUBKEY);
  print_version_list ("Cipher: ", LIST_CIPHER);
  print_version_list ("Hash: ", LIST_DIGEST);
  print_version_list ("Compression: ", LIST_COMPRESS);
}


void
show_warranty (void)
{
  printf ("%s %s comes with NO WARRANTY, to the extent permitted by law.\n",
          PACKAGE_NAME, PACKAGE_VERSION);
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


gpg_error_t
list_gcrypt_config (void)
{
  char *config = gcry_get_config (0, NULL);

  if (!config)
    return fail (gpg_error_from_syserror (), "libgcrypt",
                 "no configuration");
  fputs (config, stdout);
  gcry_free (config);
  return 0;
}


gpg_error_t
gpgconf_list (void)
{
  /* gpgconf's flag 16 marks a default; '"' starts a string.  gpg
   * 2.2.40 lists its key generation default too, which gpgconf
   * shows for gpg: it is kept so that the list is gpg's.  */
  printf ("debug-level:16:\"none:\n"
          "compliance:16:\"gnupg:\n"
          "default_pubkey_algo:16:\"rsa3072/cert,sign+rsa3072/encr:\n"
          "compliance_de_vs:16:%d:\n", compliance_de_vs_active ());
  return 0;
}
