/* t-kat.c - every official known answer against every implementation
 *
 * Reads every file in $srcdir/vectors (format: see the headers of
 * the files there and doc/modules.md: KEY=, PT=, CT=, optional MODE=
 * and IV=), and the vector files named as arguments (ending in .txt,
 * with a "# Algorithm:" line), and runs each
 * vector, encrypting and decrypting, through every registered
 * implementation of the algorithm the file is for, by way of the
 * generic modes.  Then checks that every usable implementation in the
 * table met at least one vector, so a new module cannot go untested.
 * Arguments name dynamic modules to load first.  An algorithm that no
 * loaded module provides (Camellia, unless its module is given) is
 * reported as not tested, file by file.
 */
#include <config.h>

#include <dirent.h>
#include <strings.h>

#include "t-common.h"

/* Which algorithm a vector file of vectors/ is for.  KEYLEN 0
 * matches any key; AES files pick the algorithm by the key's length.
 * Any other file (a module author's, given as an argument) says it
 * in a comment line "# Algorithm: NAME...", the table's names of the
 * algorithm at each key size it holds vectors for.  */
static const struct
{
  const char *file;
  size_t keylen;
  const char *algo;
} file_algos[] =
  {
    { "aes.txt", 16, "AES" },
    { "aes.txt", 24, "AES192" },
    { "aes.txt", 32, "AES256" },
    { "aes-ofb.txt", 16, "AES" },
    { "aes-ofb.txt", 24, "AES192" },
    { "aes-ofb.txt", 32, "AES256" },
    { "blowfish.txt", 0, "BLOWFISH" },
    { "cast5.txt", 0, "CAST5" },
    { "idea.txt", 0, "IDEA" },
    { "tdes.txt", 0, "3DES" },
    { "twofish.txt", 0, "TWOFISH" },
    { "camellia.txt", 16, "CAMELLIA128" },
    { "camellia.txt", 24, "CAMELLIA192" },
    { "camellia.txt", 32, "CAMELLIA256" }
  };

/* Vectors each implementation has passed, by table index.  */
#define MAX_IMPLS 256
static unsigned int vectors_seen[MAX_IMPLS];

/* The names of a file's "# Algorithm:" line, space separated.  */
#define MAX_HEADER_ALGOS 8
struct header_algos
{
  char line[256];
  const char *name[MAX_HEADER_ALGOS];
  size_t n;
};

/* Take the names of LINE into H when it is a "# Algorithm:" line.  */
static void
parse_header (const char *line, struct header_algos *h)
{
  static const char tag[] = "# Algorithm:";
  char *p, *save = NULL;
  size_t len;

  if (strncmp (line, tag, sizeof tag - 1))
    return;
  line += sizeof tag - 1;
  len = strlen (line) < sizeof h->line ? strlen (line) : sizeof h->line - 1;
  memcpy (h->line, line, len);
  h->line[len] = 0;
  h->n = 0;
  for (p = strtok_r (h->line, " \t\r\n", &save);
       p && h->n < MAX_HEADER_ALGOS; p = strtok_r (NULL, " \t\r\n", &save))
    h->name[h->n++] = p;
}

static const char *
algo_for (const char *file, size_t keylen, const struct header_algos *h)
{
  const sf_cipher_spec_t *spec;
  size_t i;

  for (i = 0; i < sizeof file_algos / sizeof file_algos[0]; i++)
    if (!strcmp (file_algos[i].file, file)
        && (!file_algos[i].keylen || file_algos[i].keylen == keylen))
      return file_algos[i].algo;
  for (i = 0; i < h->n; i++)
    if (h->n == 1 || (!sf_table_find (h->name[i], NULL, &spec)
                      && spec->keylen == keylen))
      return h->name[i];
  return NULL;
}

/* Return the hex value of FIELD= in LINE as bytes, or NULL.  */
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

static enum sf_cipher_mode
mode_of (const char *line)
{
  const char *p = strstr (line, "MODE=");

  if (!p)
    return SF_MODE_ECB;
  p += 5;
  if (!strncmp (p, "ECB", 3)) return SF_MODE_ECB;
  if (!strncmp (p, "CBC", 3)) return SF_MODE_CBC;
  if (!strncmp (p, "CFB", 3)) return SF_MODE_CFB;
  if (!strncmp (p, "CTR", 3)) return SF_MODE_CTR;
  if (!strncmp (p, "OFB", 3)) return SF_MODE_OFB;
  return 0;
}

/* Run one vector through implementation number IDX.  */
static void
run_vector (size_t idx, const char *where, enum sf_cipher_mode mode,
            const unsigned char *key, size_t keylen,
            const unsigned char *iv, size_t ivlen,
            const unsigned char *pt, const unsigned char *ct, size_t len)
{
  const sf_cipher_spec_t *spec = sf_table_nth (idx)->spec;
  unsigned char *buf = malloc (len + 1);
  sf_cipher_hd_t hd;
  gpg_error_t err;

  if (!buf)
    exit (1);
  err = sf_cipher_open (&hd, spec, mode, 0);
  if (!err)
    err = sf_cipher_setkey (hd, key, keylen);
  if (gpg_err_code (err) == GPG_ERR_INV_KEYLEN)
    {
      /* Stated, never silent: the implementation takes fewer key
       * sizes than the standard; counted as a failure for native
       * modules, which must take them all.  */
      fprintf (stderr, "%s: %s: %s (%s) does not take %zu-byte keys\n",
               test_name, where, spec->name, spec->impl, keylen);
      check (!strcmp (spec->impl, "gcrypt"),
             "%s (%s) refuses a %zu-byte key", spec->name, spec->impl,
             keylen);
      sf_cipher_close (hd);
      free (buf);
      return;
    }
  check (!err, "%s: %s (%s) setkey: %s", where, spec->name, spec->impl,
         gpg_strerror (err));
  if (!err && mode != SF_MODE_ECB)
    {
      err = sf_cipher_setiv (hd, iv, ivlen);
      check (!err, "%s: setiv: %s", where, gpg_strerror (err));
    }
  if (!err)
    {
      err = sf_cipher_encrypt (hd, buf, pt, len);
      check (!err && !memcmp (buf, ct, len), "%s: %s (%s) %s encrypt",
             where, spec->name, spec->impl, mode_name (mode));
      if (mode != SF_MODE_ECB)
        sf_cipher_setiv (hd, iv, ivlen);
      err = sf_cipher_decrypt (hd, buf, ct, len);
      check (!err && !memcmp (buf, pt, len), "%s: %s (%s) %s decrypt",
             where, spec->name, spec->impl, mode_name (mode));
      vectors_seen[idx]++;
    }
  sf_cipher_close (hd);
  free (buf);
}

static void
run_file (const char *dir, const char *file)
{
  char *path = malloc (strlen (dir) + strlen (file) + 2);
  char line[8192];
  unsigned int lineno = 0, nvectors = 0;
  const sf_cipher_spec_t *absent;
  struct header_algos header = { .n = 0 };
  int absent_reported = 0;
  FILE *fp;

  if (!path)
    exit (1);
  sprintf (path, "%s/%s", dir, file);
  fp = fopen (path, "r");
  free (path);
  check (fp != NULL, "cannot open %s in %s", file, dir);
  if (!fp)
    return;
  while (fgets (line, sizeof line, fp))
    {
      unsigned char *key, *pt, *ct, *iv;
      size_t keylen = 0, ptlen = 0, ctlen = 0, ivlen = 0;
      enum sf_cipher_mode mode;
      const char *algo;
      char where[300];
      size_t idx;
      int impls = 0;

      lineno++;
      parse_header (line, &header);
      if (line[0] == '#' || line[strspn (line, " \r\n")] == 0)
        continue;
      snprintf (where, sizeof where, "%.200s:%u", file, lineno);
      key = field (line, "KEY", &keylen);
      pt = field (line, "PT", &ptlen);
      ct = field (line, "CT", &ctlen);
      iv = field (line, "IV", &ivlen);
      mode = mode_of (line);
      algo = key ? algo_for (file, keylen, &header) : NULL;
      check (key && pt && ct && ptlen == ctlen && mode
             && (mode == SF_MODE_ECB || iv) && algo,
             "%s: malformed vector or unknown algorithm", where);
      if (algo && gpg_err_code (sf_table_find (algo, NULL, &absent))
                  == GPG_ERR_CIPHER_ALGO)
        {
          if (!absent_reported)
            printf ("%s: %s: NOT TESTED: no %s in the cipher table"
                    " (give its module as an argument)\n",
                    test_name, file, algo);
          absent_reported = 1;
        }
      else if (key && pt && ct && ptlen == ctlen && mode
               && (mode == SF_MODE_ECB || iv) && algo)
        {
          for (idx = 0; sf_table_nth (idx); idx++)
            {
              const sf_cipher_spec_t *spec = sf_table_nth (idx)->spec;

              if (!sf_spec_has_name (spec, algo) || !sf_spec_usable (spec))
                continue;
              impls++;
              run_vector (idx, where, mode, key, keylen, iv, ivlen,
                          pt, ct, ptlen);
            }
          check (impls > 0, "%s: no implementation of %s", where, algo);
          nvectors++;
        }
      free (key);
      free (pt);
      free (ct);
      free (iv);
    }
  fclose (fp);
  printf ("%s: %s: %u vectors\n", test_name, file, nvectors);
  check (nvectors > 0 || absent_reported, "%s holds no vector", file);
}

/* run_file on the file at PATH.  */
static void
run_path (const char *path)
{
  char *dir = strdup (path);
  char *slash = dir ? strrchr (dir, '/') : NULL;

  if (!dir)
    exit (1);
  if (slash)
    {
      *slash = 0;
      run_file (slash == dir ? "/" : dir, slash + 1);
    }
  else
    run_file (".", path);
  free (dir);
}


static int
ends_with_txt (const char *name)
{
  size_t len = strlen (name);

  return len > 4 && !strcmp (name + len - 4, ".txt");
}


int
main (int argc, char **argv)
{
  char dir[4096];
  struct dirent *de;
  DIR *d;
  size_t idx;

  int i, nmodules = 1;

  test_init ("t-kat");
  /* Arguments ending in ".txt" are vector files, the others modules.  */
  for (i = 1; i < argc; i++)
    if (!ends_with_txt (argv[i]))
      argv[nmodules++] = argv[i];
  test_load_modules (nmodules, argv);
  for (i = 1; i < argc; i++)
    if (ends_with_txt (argv[i]))
      run_path (argv[i]);
  snprintf (dir, sizeof dir, "%s/vectors", test_srcdir ());
  d = opendir (dir);
  check (d != NULL, "cannot open %s", dir);
  if (!d)
    return test_finish ();
  while ((de = readdir (d)))
    {
      if (ends_with_txt (de->d_name))
        run_file (dir, de->d_name);
    }
  closedir (d);

  for (idx = 0; sf_table_nth (idx) && idx < MAX_IMPLS; idx++)
    {
      const sf_cipher_spec_t *spec = sf_table_nth (idx)->spec;

      if (!sf_spec_usable (spec))
        {
          printf ("%s: %s (%s): UNAVAILABLE on this machine, not tested\n",
                  test_name, spec->name, spec->impl);
          continue;
        }
      printf ("%s: %s (%s): %u vectors\n", test_name, spec->name,
              spec->impl, vectors_seen[idx]);
      check (vectors_seen[idx] > 0, "%s (%s) met no vector",
             spec->name, spec->impl);
    }
  return test_finish ();
}
