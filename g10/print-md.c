/* print-md.c - gpg's --print-md and --print-mds: digests of files
 */
#include <config.h>

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <gcrypt.h>

#include "error.h"
#include "options.h"
#include "print-md.h"

/* The hashes of "--print-md *" and --print-mds, in gpg's order.  */
static const int all_algos[] =
  {
    GCRY_MD_MD5, GCRY_MD_SHA1, GCRY_MD_RMD160, GCRY_MD_SHA224,
    GCRY_MD_SHA256, GCRY_MD_SHA384, GCRY_MD_SHA512
  };

#define N_ALL_ALGOS (sizeof all_algos / sizeof *all_algos)

/* gpg's layout is made for 80 columns: a group of hex digits goes on
 * the next line when it would pass column 79.  */
#define LAST_COLUMN 79

/* A file name longer than this puts the digest on a line of its
 * own.  */
#define MAX_NAME_INDENT 40


/* Print N spaces, but at least one, as gpg's continuation lines
 * start; return N.  */
static int
print_indent (int n)
{
  printf ("%*s", n ? n : 1, "");
  return n;
}


/* Print the LEN bytes of digest D from column COL as gpg does,
 * continuation lines at column INDENT: a 16-byte digest in single
 * bytes with a wider gap in the middle, a 20-byte one in pairs with a
 * wider gap in the middle, any other in groups of four.  */
static void
print_digest_hex (const unsigned char *d, size_t len, int indent, int col)
{
  size_t group = len == 16 ? 1 : len == 20 ? 2 : 4;
  size_t middle = len == 16 || len == 20 ? len / 2 : 0;
  size_t i;

  col += printf ("%02X", d[0]);
  for (i = 1; i < len; i++)
    {
      if (!(i % group))
        {
          if (col + 2 * (int)group > LAST_COLUMN)
            {
              putchar ('\n');
              col = print_indent (indent);
            }
          else
            col += printf (" ");
        }
      if (middle && !(i % middle))
        col += printf (" ");
      col += printf ("%02X", d[i]);
    }
  putchar ('\n');
}


/* Print digest ALGO of MD for FNAME (NULL for stdin); NAMED to put
 * the name of the hash before it, as for more than one hash.  */
static void
print_human (gcry_md_hd_t md, int algo, const char *fname, int named)
{
  int indent = 0;

  if (fname)
    indent = printf ("%s: ", fname);
  if (indent > MAX_NAME_INDENT)
    {
      putchar ('\n');
      indent = 0;
    }
  if (named)
    indent += printf ("%6s = ", algo == GCRY_MD_RMD160
                      ? "RMD160" : gcry_md_algo_name (algo));
  print_digest_hex (gcry_md_read (md, algo), gcry_md_get_algo_dlen (algo),
                    indent, indent);
}


/* --with-colons: "FILE:ALGO:HEX:", the file name's blanks, controls,
 * non-ASCII bytes, ':' and '%' as %XX.  */
static void
print_colons (gcry_md_hd_t md, int algo, const char *fname)
{
  const unsigned char *p;
  size_t i, len = gcry_md_get_algo_dlen (algo);

  for (p = (const unsigned char *)fname; p && *p; p++)
    if (*p <= ' ' || *p > 127 || *p == ':' || *p == '%')
      printf ("%%%02X", *p);
    else
      putchar (*p);
  printf (":%d:", algo);
  p = gcry_md_read (md, algo);
  for (i = 0; i < len; i++)
    printf ("%02X", p[i]);
  printf (":\n");
}


/* Hash all of FP into MD.  */
static gpg_error_t
hash_stream (gcry_md_hd_t md, FILE *fp, const char *fname)
{
  unsigned char buf[8192];
  size_t n;

  while ((n = fread (buf, 1, sizeof buf, fp)))
    gcry_md_write (md, buf, n);
  if (ferror (fp))
    return fail (gpg_error_from_syserror (), fname ? fname : "[stdin]",
                 "%s", strerror (errno));
  return 0;
}


/* Open *R_MD for ALGO, or gpg's seven when ALGO is 0.  */
static gpg_error_t
open_digests (gcry_md_hd_t *r_md, int algo)
{
  gpg_error_t err;
  size_t i;

  err = gcry_md_open (r_md, algo, 0);
  for (i = 0; !err && !algo && i < N_ALL_ALGOS; i++)
    err = gcry_md_enable (*r_md, all_algos[i]);
  return err ? fail (err, "libgcrypt", NULL) : 0;
}


/* Hash FNAME (stdin when NULL) with ALGO, or gpg's seven when ALGO is
 * 0, and print the digests.  */
static gpg_error_t
print_file (const char *fname, int algo)
{
  gcry_md_hd_t md;
  gpg_error_t err;
  FILE *fp = fname ? fopen (fname, "rb") : stdin;
  size_t i;

  if (!fp)
    return fail (gpg_error_from_syserror (), fname, "%s", strerror (errno));
  err = open_digests (&md, algo);
  if (!err)
    err = hash_stream (md, fp, fname);
  for (i = 0; !err && i < (algo ? 1 : N_ALL_ALGOS); i++)
    if (opt.with_colons)
      print_colons (md, algo ? algo : all_algos[i], fname);
    else
      print_human (md, algo ? algo : all_algos[i], fname, !algo);
  gcry_md_close (md);
  if (fp != stdin)
    fclose (fp);
  return err;
}


/* The libgcrypt hash named NAME, which must have a fixed length, or 0
 * for "*".  */
static gpg_error_t
algo_from_arg (const char *name, int *r_algo)
{
  *r_algo = 0;
  if (!strcmp (name, "*"))
    return 0;
  *r_algo = gcry_md_map_name (name);
  if (!*r_algo)
    return fail (gpg_error (GPG_ERR_DIGEST_ALGO), "--print-md",
                 "invalid hash algorithm '%s'", name);
  if (!gcry_md_get_algo_dlen (*r_algo))
    return fail (gpg_error (GPG_ERR_DIGEST_ALGO), "--print-md",
                 "%s has no fixed digest length", name);
  return 0;
}


gpg_error_t
print_md_command (const char *const *args, size_t n_args, int all)
{
  gpg_error_t err = 0, file_err;
  int algo = 0;
  size_t i;

  if (!all)
    {
      if (!n_args)
        return fail (gpg_error (GPG_ERR_INV_ARG), "usage",
                     "sfenc [options] --print-md algo [files]");
      err = algo_from_arg (args[0], &algo);
      if (err)
        return err;
      args++;
      n_args--;
    }
  if (!n_args)
    return print_file (NULL, algo);
  /* As gpg, go on after a file that cannot be read, and fail in the
   * end: the message comes after the digests of the others.  */
  for (i = 0; i < n_args; i++)
    {
      file_err = print_file (args[i], algo);
      if (!err)
        err = file_err;
    }
  fflush (stdout);
  return err;
}
