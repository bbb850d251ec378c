/* cipherbench.c - in-process cipher throughput, beside libgcrypt
 *
 * For each algorithm in the cipher table, every usable implementation
 * encrypts and decrypts a buffer in CFB mode (full-block feedback, as
 * OpenPGP uses it) through the generic modes.  The implementation
 * "gcrypt" is libgcrypt's own code for the same algorithm and mode, so
 * its row is libgcrypt's figure, and every other row carries its ratio
 * to it: above 1 is faster than libgcrypt.
 *
 * Time is the process's CPU time.  Each sample repeats the buffer
 * until at least --seconds of CPU time have passed; the implementations
 * of one algorithm are sampled in turn, --runs times, and the median
 * sample is reported, so that drift on a shared machine hits all of
 * them alike.
 */
#include <config.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <gcrypt.h>

#include "libsfcipher.h"

#define MAX_IMPLS_PER_ALGO 8

struct options
{
  char **algos;               /* Names, or NULL for all.  */
  char **impls;               /* Names, or NULL for all.  */
  size_t bufsize;
  double seconds;
  int runs;
  int auto_modules;           /* Load the module directory.  */
  char **extensions;          /* Modules to load, NULL-terminated.  */
  int n_extensions;
};

/* One measured implementation: median MiB/s for each direction.  */
struct row
{
  const sf_cipher_spec_t *spec;
  double enc, dec;
};


static void
die (const char *what, const char *why)
{
  fprintf (stderr, "cipherbench: %s: %s\n", what, why);
  exit (2);
}

static void
usage (FILE *fp)
{
  fputs ("Usage: cipherbench [OPTIONS]\n"
         "Measure CFB encryption and decryption of every implementation in\n"
         "the cipher table beside libgcrypt (implementation \"gcrypt\").\n"
         "\n"
         "  --algo LIST     algorithms to measure, comma separated (default all)\n"
         "  --impl LIST     implementations to measure besides gcrypt\n"
         "  --size BYTES    buffer size (default 16384)\n"
         "  --seconds S     CPU seconds per sample (default 0.2)\n"
         "  --runs N        samples per figure, median reported (default 5)\n"
         "  --load-extension FILE  load a dynamic cipher module (repeatable)\n"
         "  --no-auto-modules      do not load the module directory\n"
         "  --help          this text\n", fp);
}

/* Split the comma-separated LIST into a NULL-terminated array.  */
static char **
split_list (const char *list)
{
  char *copy = strdup (list);
  char **items = calloc (strlen (list) + 2, sizeof *items);
  char *item, *save = NULL;
  size_t n = 0;

  if (!copy || !items)
    die ("out of core", strerror (errno));
  for (item = strtok_r (copy, ",", &save); item;
       item = strtok_r (NULL, ",", &save))
    items[n++] = item;
  return items;
}

/* True when SPEC's algorithm is named (or aliased) in ITEMS.  */
static int
algo_selected (const sf_cipher_spec_t *spec, char **items)
{
  for (; *items; items++)
    if (sf_spec_has_name (spec, *items))
      return 1;
  return 0;
}

/* True when SPEC's implementation is in ITEMS.  */
static int
impl_selected (const sf_cipher_spec_t *spec, char **items)
{
  for (; *items; items++)
    if (!strcasecmp (spec->impl, *items))
      return 1;
  return 0;
}

static double
cpu_seconds (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int
compare_doubles (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return (x > y) - (x < y);
}

/* One sample: MiB/s of SPEC in CFB over BUF, ENCRYPTING or not.  */
static double
sample (const sf_cipher_spec_t *spec, int encrypting, unsigned char *buf,
        const struct options *opt)
{
  unsigned char key[64];
  sf_cipher_hd_t hd;
  unsigned long reps = 0;
  double start, elapsed;
  gpg_error_t err;
  size_t i;

  /* Any fixed key without weak parts will do.  */
  for (i = 0; i < sizeof key; i++)
    key[i] = (unsigned char) (i * 0x9d + 0x35);
  err = sf_cipher_open (&hd, spec, SF_MODE_CFB, 0);
  if (!err)
    err = sf_cipher_setkey (hd, key, spec->keylen);
  if (err)
    die (spec->name, gpg_strerror (err));

  start = cpu_seconds ();
  do
    {
      if (encrypting)
        sf_cipher_encrypt (hd, buf, buf, opt->bufsize);
      else
        sf_cipher_decrypt (hd, buf, buf, opt->bufsize);
      reps++;
      elapsed = cpu_seconds () - start;
    }
  while (elapsed < opt->seconds);
  sf_cipher_close (hd);
  return reps * (double) opt->bufsize / elapsed / (1024.0 * 1024.0);
}

/* Measure every row, interleaved, and keep the medians.  */
static void
measure (struct row *rows, int nrows, const struct options *opt)
{
  double *enc = calloc ((size_t) nrows * opt->runs, sizeof *enc);
  double *dec = calloc ((size_t) nrows * opt->runs, sizeof *dec);
  unsigned char *buf = malloc (opt->bufsize + 64);
  int r, i;

  if (!enc || !dec || !buf)
    die ("out of core", strerror (errno));
  memset (buf, 0x5a, opt->bufsize);
  for (r = 0; r < opt->runs; r++)
    for (i = 0; i < nrows; i++)
      {
        enc[i * opt->runs + r] = sample (rows[i].spec, 1, buf, opt);
        dec[i * opt->runs + r] = sample (rows[i].spec, 0, buf, opt);
      }
  for (i = 0; i < nrows; i++)
    {
      qsort (enc + i * opt->runs, opt->runs, sizeof *enc, compare_doubles);
      qsort (dec + i * opt->runs, opt->runs, sizeof *dec, compare_doubles);
      rows[i].enc = enc[i * opt->runs + opt->runs / 2];
      rows[i].dec = dec[i * opt->runs + opt->runs / 2];
    }
  free (enc);
  free (dec);
  free (buf);
}

static double
ns_per_byte (double mibs)
{
  return 1e9 / (mibs * 1024.0 * 1024.0);
}

static void
print_rows (const struct row *rows, int nrows)
{
  const struct row *peer = NULL;
  int i;

  for (i = 0; i < nrows; i++)
    if (!strcmp (rows[i].spec->impl, "gcrypt"))
      peer = &rows[i];
  for (i = 0; i < nrows; i++)
    {
      const struct row *row = &rows[i];

      printf ("%-9s %4zu  %-7s %10.1f %7.2f", row->spec->name,
              row->spec->keylen * 8, row->spec->impl, row->enc,
              ns_per_byte (row->enc));
      if (peer)
        printf (" %6.2fx", row->enc / peer->enc);
      else
        printf (" %7s", "n/a");
      printf (" %10.1f %7.2f", row->dec, ns_per_byte (row->dec));
      if (peer)
        printf (" %6.2fx", row->dec / peer->dec);
      else
        printf (" %7s", "n/a");
      putchar ('\n');
    }
  fflush (stdout);
}

static void
parse_args (int argc, char **argv, struct options *opt)
{
  int i;

  for (i = 1; i < argc; i++)
    {
      const char *arg = argv[i];
      const char *val = i + 1 < argc ? argv[i + 1] : NULL;
      char *end;

      if (!strcmp (arg, "--help"))
        {
          usage (stdout);
          exit (0);
        }
      if (!strcmp (arg, "--no-auto-modules"))
        {
          opt->auto_modules = 0;
          continue;
        }
      if (strcmp (arg, "--algo") && strcmp (arg, "--impl")
          && strcmp (arg, "--size") && strcmp (arg, "--seconds")
          && strcmp (arg, "--runs") && strcmp (arg, "--load-extension"))
        die (arg, "unknown option (try --help)");
      if (!val)
        die (arg, "missing argument");
      i++;
      errno = 0;
      if (!strcmp (arg, "--algo"))
        opt->algos = split_list (val);
      else if (!strcmp (arg, "--load-extension"))
        opt->extensions[opt->n_extensions++] = (char *) val;
      else if (!strcmp (arg, "--impl"))
        opt->impls = split_list (val);
      else if (!strcmp (arg, "--size"))
        {
          unsigned long n = strtoul (val, &end, 10);

          if (*end || errno || n < 16 || n > (1UL << 26) || n % 16)
            die (arg, "a multiple of 16 between 16 and 67108864 expected");
          opt->bufsize = n;
        }
      else if (!strcmp (arg, "--seconds"))
        {
          opt->seconds = strtod (val, &end);
          if (*end || errno || !(opt->seconds > 0 && opt->seconds <= 60))
            die (arg, "a number of seconds above 0 and up to 60 expected");
        }
      else
        {
          long n = strtol (val, &end, 10);

          if (*end || errno || n < 1 || n > 101)
            die (arg, "a count from 1 to 101 expected");
          opt->runs = (int) n;
        }
    }
}

int
main (int argc, char **argv)
{
  struct options opt = { NULL, NULL, 16384, 0.2, 5, 1, NULL, 0 };
  const sf_table_entry_t *e;
  size_t i, j;
  int matched = 0;

  opt.extensions = calloc (argc, sizeof *opt.extensions);
  if (!opt.extensions)
    die ("out of core", strerror (errno));
  parse_args (argc, argv, &opt);
  if (!gcry_check_version ("1.10.0"))
    die ("libgcrypt", "version 1.10 or later is needed");
  gcry_control (GCRYCTL_INITIALIZATION_FINISHED, 0);
  sf_table_init ();
  if (opt.auto_modules)
    sf_module_load_dir (sf_module_dir ());
  for (i = 0; i < (size_t) opt.n_extensions; i++)
    {
      char why[300];

      if (sf_module_load (opt.extensions[i], why, sizeof why))
        die (opt.extensions[i], why);
    }

  /* Refuse a name the table does not know rather than print an
   * empty table.  */
  for (i = 0; opt.algos && opt.algos[i]; i++)
    {
      const sf_cipher_spec_t *spec;

      if (gpg_err_code (sf_table_find (opt.algos[i], NULL, &spec))
          == GPG_ERR_CIPHER_ALGO)
        die (opt.algos[i],
             "unknown cipher algorithm (see sfenc --list-ciphers)");
    }

  printf ("# CFB on %zu-byte buffers, CPU time, median of %d samples of"
          " %g s;\n# ratio = implementation / libgcrypt (gcrypt)"
          " in the same run\n", opt.bufsize, opt.runs, opt.seconds);
  printf ("%-9s %4s  %-7s %10s %7s %7s %10s %7s %7s\n", "ALGO", "BITS",
          "IMPL", "ENC MiB/s", "ns/B", "ratio", "DEC MiB/s", "ns/B",
          "ratio");

  /* One group per algorithm, in table order of first appearance.  */
  for (i = 0; (e = sf_table_nth (i)); i++)
    {
      struct row rows[MAX_IMPLS_PER_ALGO];
      int nrows = 0, seen_before = 0;

      for (j = 0; j < i; j++)
        if (!strcmp (sf_table_nth (j)->spec->name, e->spec->name))
          seen_before = 1;
      if (seen_before)
        continue;
      if (opt.algos && !algo_selected (e->spec, opt.algos))
        continue;

      for (j = i; sf_table_nth (j) && nrows < MAX_IMPLS_PER_ALGO; j++)
        {
          const sf_cipher_spec_t *spec = sf_table_nth (j)->spec;

          if (strcmp (spec->name, e->spec->name))
            continue;
          if (opt.impls && strcmp (spec->impl, "gcrypt")
              && !impl_selected (spec, opt.impls))
            continue;
          if (!sf_spec_usable (spec))
            {
              printf ("%-9s %4zu  %-7s UNAVAILABLE on this machine\n",
                      spec->name, spec->keylen * 8, spec->impl);
              continue;
            }
          rows[nrows].spec = spec;
          nrows++;
        }
      if (!nrows)
        continue;
      matched++;
      measure (rows, nrows, &opt);
      print_rows (rows, nrows);
    }
  if (!matched)
    die ("nothing to measure", "no implementation matches --algo/--impl");
  return 0;
}
