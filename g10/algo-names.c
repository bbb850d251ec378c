/* algo-names.c - algorithm names in options, read as gpg 2.2 reads
 * them
 *
 * What gpg takes and refuses here was found by running gpg 2.2.40;
 * tests/sfenc-gpgsurface.bats runs both over the same names.
 */
#include <config.h>

#include <string.h>
#include <strings.h>

#include "libsfcipher.h"
#include "error.h"
#include "compress.h"
#include "s2k.h"
#include "algo-names.h"

/* The longest item looked at; gpg refuses longer ones too.  */
#define ITEM_MAX 63

/* The most items of a list, as many as gpg keeps of each kind and
 * more.  */
#define ITEMS_MAX 64

/* The flags of key preferences, which gpg takes in any list.  */
static const char *const pref_flags[] =
  { "mdc", "no-mdc", "ks-modify", "no-ks-modify" };

/* An item of a list, once read.  */
struct pref_item
{
  int kind;                     /* An enum pref_kind, or -1 for a flag.  */
  int id;                       /* Or the flag's index.  */
};


/* Read ITEM as gpg does into *R.  */
static int
read_item (const char *item, struct pref_item *r)
{
  size_t i;

  r->kind = PREF_CIPHER;
  r->id = sf_openpgp_cipher_id (item);
  if (r->id)
    return 1;
  r->kind = PREF_DIGEST;
  r->id = digest_algo_from_name (item);
  if (r->id)
    return 1;
  r->kind = PREF_COMPRESS;
  r->id = compress_algo_from_name (item);
  if (r->id >= 0 && strcasecmp (item, "none"))
    return 1;
  r->kind = -1;
  for (i = 0; i < sizeof pref_flags / sizeof *pref_flags; i++)
    if (!strcasecmp (item, pref_flags[i]))
      {
        r->id = i;
        return 1;
      }
  return 0;
}


/* Read the next item of *LIST into ITEM, past its separators; 0 at
 * the end.  */
static size_t
next_item (const char **list, char item[ITEM_MAX + 1])
{
  size_t len;

  *list += strspn (*list, " ,");
  len = strcspn (*list, " ,");
  if (len > ITEM_MAX)
    len = ITEM_MAX;
  memcpy (item, *list, len);
  item[len] = 0;
  *list += strcspn (*list, " ,");
  return len;
}


gpg_error_t
algo_prefs_first (const char *option, const char *list, enum pref_kind kind,
                  int *r_first)
{
  struct pref_item items[ITEMS_MAX];
  char item[ITEM_MAX + 1];
  size_t n = 0, i;

  *r_first = -1;
  if (!strcasecmp (list, "none"))
    return 0;
  while (next_item (&list, item))
    {
      if (n == ITEMS_MAX || !read_item (item, &items[n]))
        return fail (gpg_error (GPG_ERR_INV_VALUE), option,
                     "invalid item '%s' in preference string", item);
      for (i = 0; i < n; i++)
        if (items[i].kind == items[n].kind && items[i].id == items[n].id)
          return fail (gpg_error (GPG_ERR_INV_VALUE), option,
                       "preference '%s' duplicated", item);
      if (items[n].kind == (int)kind && *r_first < 0)
        *r_first = items[n].id;
      n++;
    }
  return 0;
}


gpg_error_t
algo_check_cipher_name (const char *option, const char *name)
{
  const sf_cipher_spec_t *spec;

  if (sf_openpgp_cipher_id (name)
      || gpg_err_code (sf_table_find (name, NULL, &spec))
         != GPG_ERR_CIPHER_ALGO)
    return 0;
  return fail (gpg_error (GPG_ERR_CIPHER_ALGO), option,
               "unknown cipher algorithm '%s' (see --list-ciphers)", name);
}
