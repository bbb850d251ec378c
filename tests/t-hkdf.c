/* t-hkdf.c - HKDF (g10/hkdf.c) against RFC 5869's test vectors
 *
 *   - the seven test cases of RFC 5869 Appendix A (SHA-256: A.1-A.3,
 *     SHA-1: A.4-A.7), the output compared in full and as a prefix
 *     (a shorter output is the start of the longer one);
 *   - the output written over the input (OKM == IKM), as skesk.c
 *     derives a v6 SKESK's key-encryption key;
 *   - more than 255 blocks of output refused.
 */
#include <config.h>

#include "t-common.h"
#include "hkdf.h"

struct vector
{
  const char *name;
  int algo;
  const char *ikm, *salt, *info;   /* Hex; "" is empty.  */
  const char *okm;
};

#define SEQ_00_4F "000102030405060708090a0b0c0d0e0f" \
  "101112131415161718191a1b1c1d1e1f202122232425262728292a2b2c2d2e2f" \
  "303132333435363738393a3b3c3d3e3f404142434445464748494a4b4c4d4e4f"
#define SEQ_60_AF "606162636465666768696a6b6c6d6e6f" \
  "707172737475767778797a7b7c7d7e7f808182838485868788898a8b8c8d8e8f" \
  "909192939495969798999a9b9c9d9e9fa0a1a2a3a4a5a6a7a8a9aaabacadaeaf"
#define SEQ_B0_FF "b0b1b2b3b4b5b6b7b8b9babbbcbdbebf" \
  "c0c1c2c3c4c5c6c7c8c9cacbcccdcecfd0d1d2d3d4d5d6d7d8d9dadbdcdddedf" \
  "e0e1e2e3e4e5e6e7e8e9eaebecedeeeff0f1f2f3f4f5f6f7f8f9fafbfcfdfeff"

static const struct vector vectors[] =
  {
    { "A.1", GCRY_MD_SHA256, "0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b",
      "000102030405060708090a0b0c", "f0f1f2f3f4f5f6f7f8f9",
      "3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf"
      "34007208d5b887185865" },
    { "A.2", GCRY_MD_SHA256, SEQ_00_4F, SEQ_60_AF, SEQ_B0_FF,
      "b11e398dc80327a1c8e7f78c596a49344f012eda2d4efad8a050cc4c19afa97c"
      "59045a99cac7827271cb41c65e590e09da3275600c2f09b8367793a9aca3db71"
      "cc30c58179ec3e87c14c01d5c1f3434f1d87" },
    { "A.3", GCRY_MD_SHA256, "0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b",
      "", "",
      "8da4e775a563c18f715f802a063c5a31b8a11f5c5ee1879ec3454e5f3c738d2d"
      "9d201395faa4b61a96c8" },
    { "A.4", GCRY_MD_SHA1, "0b0b0b0b0b0b0b0b0b0b0b",
      "000102030405060708090a0b0c", "f0f1f2f3f4f5f6f7f8f9",
      "085a01ea1b10f36933068b56efa5ad81a4f14b822f5b091568a9cdd4f155fda2"
      "c22e422478d305f3f896" },
    { "A.5", GCRY_MD_SHA1, SEQ_00_4F, SEQ_60_AF, SEQ_B0_FF,
      "0bd770a74d1160f7c9f12cd5912a06ebff6adcae899d92191fe4305673ba2ffe"
      "8fa3f1a4e5ad79f3f334b3b202b2173c486ea37ce3d397ed034c7f9dfeb15c5e"
      "927336d0441f4c4300e2cff0d0900b52d3b4" },
    { "A.6", GCRY_MD_SHA1, "0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b",
      "", "",
      "0ac1af7002b3d761d1e55298da9d0506b9ae52057220a306e07b6b87e8df21d0"
      "ea00033de03984d34918" },
    /* Salt not provided: HashLen zero octets.  */
    { "A.7", GCRY_MD_SHA1, "0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c",
      NULL, "",
      "2c91117204d745f3500d636a62f64f0ab3bae548aa53d423b0d1f27ebba6f5e5"
      "673a081d70cce7acfc48" }
  };

#define N_VECTORS (sizeof vectors / sizeof *vectors)


static unsigned char *
unhex (const char *hex, size_t *r_len)
{
  unsigned char *buf;

  *r_len = 0;
  if (!hex)
    return NULL;
  buf = hex_to_bytes (hex, strlen (hex), r_len);
  if (!buf)
    {
      fprintf (stderr, "%s: bad hex in the test: %s\n", test_name, hex);
      exit (1);
    }
  return buf;
}


static void
check_vector (const struct vector *v)
{
  unsigned char *ikm, *salt, *info, *okm, out[128];
  size_t ikmlen, saltlen, infolen, okmlen;
  gpg_error_t err;

  ikm = unhex (v->ikm, &ikmlen);
  salt = unhex (v->salt, &saltlen);
  info = unhex (v->info, &infolen);
  okm = unhex (v->okm, &okmlen);

  err = hkdf (v->algo, salt, saltlen, ikm, ikmlen, info, infolen,
              out, okmlen);
  check (!err && !memcmp (out, okm, okmlen), "RFC 5869 %s: %s", v->name,
         err ? gpg_strerror (err) : "wrong OKM");
  /* Fewer bytes are the first bytes of the same output.  */
  memset (out, 0, sizeof out);
  err = hkdf (v->algo, salt, saltlen, ikm, ikmlen, info, infolen,
              out, okmlen / 3);
  check (!err && !memcmp (out, okm, okmlen / 3) && !out[okmlen / 3],
         "RFC 5869 %s, %zu bytes: not the prefix", v->name, okmlen / 3);
  /* Output over the input, when it is not longer.  */
  if (okmlen >= ikmlen)
    {
      unsigned char *inout = malloc (okmlen);

      memcpy (inout, ikm, ikmlen);
      err = hkdf (v->algo, salt, saltlen, inout, ikmlen, info, infolen,
                  inout, ikmlen);
      check (!err && !memcmp (inout, okm, ikmlen),
             "RFC 5869 %s in place: wrong OKM", v->name);
      free (inout);
    }
  free (ikm);
  free (salt);
  free (info);
  free (okm);
}


int
main (void)
{
  unsigned char *big;
  size_t i;
  gpg_error_t err;

  test_init ("t-hkdf");
  for (i = 0; i < N_VECTORS; i++)
    check_vector (&vectors[i]);

  /* RFC 5869 2.3: L <= 255 * HashLen.  */
  big = malloc (255 * 32 + 1);
  err = hkdf (GCRY_MD_SHA256, NULL, 0, "k", 1, NULL, 0, big, 255 * 32);
  check (!err, "255 blocks: %s", gpg_strerror (err));
  err = hkdf (GCRY_MD_SHA256, NULL, 0, "k", 1, NULL, 0, big, 255 * 32 + 1);
  check (gpg_err_code (err) == GPG_ERR_INV_LENGTH,
         "256 blocks not refused: %s", gpg_strerror (err));
  free (big);
  return test_finish ();
}
