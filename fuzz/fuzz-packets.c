/* fuzz-packets.c - the packets inside the encryption, through sfenc -d
 *
 * Fuzzed ciphertext decrypts to noise, and AEAD chunks fail their
 * tags, so fuzz-decrypt hardly ever reaches what lies inside the
 * encrypted data: compressed packets, nested or not, the literal data
 * packet, marker packets, partial body lengths, the chunks after the
 * first.  Here the input is those packets in the clear.  The harness
 * encrypts them under FUZZ_PASSPHRASE (AES-128, S2K mode 1), with
 * sfenc's own SKESK and AEAD writers where it has them, and runs the
 * message through sfenc -d.
 *
 * Input: one byte of flags, then the plaintext packets.
 *   bits 0-1  how the length of the encrypted data packet is written:
 *             0  definite;
 *             1  partial body lengths of 2^K bytes, then a definite
 *                last part of 1 to 2^K bytes;
 *             2  the same, the last part 0 to 2^K - 1 bytes;
 *             3  old format, indeterminate (SED), or new format with
 *                a five-byte length (the other tags have no old
 *                format);
 *   bits 2-3  the container: 0 SEIPD v1 (SKESK v4), 1 legacy SED
 *             (SKESK v4, decrypted with --ignore-mdc-error), 2 SEIPD
 *             v2 (SKESK v6), 3 LibrePGP's AEAD packet (SKESK v5);
 *   bits 4-6  K, 0 to 7; for AEAD also the chunk size octet, and the
 *             algorithm: EAX, OCB or GCM (v2), EAX or OCB (v5); SEIPD
 *             v1 with K = 7 is also decrypted with --ignore-mdc-error,
 *             where a wrong MDC is only warned about;
 *   bit 7     a wrong MDC, or a wrong final authentication tag.
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <gcrypt.h>

#include "fuzz.h"
#include "mdc.h"
#include "skesk.h"
#include "seipd2.h"

#define CIPHER_ID 7             /* AES-128.  */
#define BLOCKSIZE 16
#define PREFIX_LEN (BLOCKSIZE + 2)

/* The most plaintext encrypted; the rest of a longer input is
 * dropped, so that every packet sfenc's AEAD writer makes fits in one
 * of its chunks (CHUNK_SIZE) and has a definite length.  */
#define MAX_PACKETS (CHUNK_SIZE / 2)

#define FLAG_FRAMING 3
#define FLAG_CONTAINER_SHIFT 2
#define FLAG_K_SHIFT 4
#define FLAG_DAMAGED 0x80

enum container { SEIPD1, SED, SEIPD2, AEAD5 };

/* S2K mode 1, SHA-1, a fixed salt.  */
static const s2k_t s2k =
  { .mode = 1, .hash_algo = GCRY_MD_SHA1, .salt = { 1, 2, 3, 4, 5, 6, 7, 8 } };

static const sf_cipher_spec_t *spec;

/* The SKESK packets and session keys of the containers; made once.  */
static skesk_out_t skesk4, skesk5, skesk6;

/* Keyed with SKESK4's key: full-block CFB for SEIPD v1, OpenPGP CFB
 * for SED.  */
static sf_cipher_hd_t cfb, openpgp_cfb;

/* Where an AEAD writer puts the packet.  */
typedef struct memory_sink
{
  unsigned char *buf;
  size_t size;
  size_t len;
} memory_sink_t;


static gpg_error_t
memory_sink_write (void *ctx, const unsigned char *buf, size_t len)
{
  memory_sink_t *ms = ctx;

  if (len > ms->size - ms->len)
    abort ();
  memcpy (ms->buf + ms->len, buf, len);
  ms->len += len;
  return 0;
}


/* The encrypted prefix: a block whose last two bytes are repeated.  */
static void
make_prefix (unsigned char *prefix)
{
  size_t i;

  for (i = 0; i < BLOCKSIZE; i++)
    prefix[i] = (unsigned char)(i * 29 + 3);
  prefix[BLOCKSIZE] = prefix[BLOCKSIZE - 2];
  prefix[BLOCKSIZE + 1] = prefix[BLOCKSIZE - 1];
}


/* Write the SEIPD v1 body of DATA (SIZE bytes) to BODY; return its
 * length, 1 + PREFIX_LEN + SIZE + MDC_PACKET_LEN.  */
static size_t
seipd1_body (unsigned char *body, const uint8_t *data, size_t size,
             int damaged)
{
  static const unsigned char mdc_header[2] = { 0xd3, 0x14 };
  unsigned char *p = body;
  mdc_t *mdc;

  *p++ = 1;
  make_prefix (p);
  if (sf_cipher_setiv (cfb, NULL, BLOCKSIZE) || mdc_open (&mdc, cfb))
    abort ();
  if (mdc_encrypt (mdc, p, p, PREFIX_LEN)
      || mdc_encrypt (mdc, p + PREFIX_LEN, data, size))
    abort ();
  p += PREFIX_LEN + size;
  if (mdc_encrypt (mdc, p, mdc_header, 2))
    abort ();
  mdc_final (mdc, p + 2);
  mdc_close (mdc);
  p[2] ^= damaged;
  if (sf_cipher_encrypt (cfb, p + 2, p + 2, SF_SHA1_DIGEST_LEN))
    abort ();
  return p + MDC_PACKET_LEN - body;
}


/* Write the SED body of DATA (SIZE bytes) to BODY; return its length,
 * PREFIX_LEN + SIZE.  */
static size_t
sed_body (unsigned char *body, const uint8_t *data, size_t size)
{
  make_prefix (body);
  if (sf_cipher_setiv (openpgp_cfb, NULL, BLOCKSIZE)
      || sf_cipher_encrypt (openpgp_cfb, body, body, PREFIX_LEN)
      || sf_cipher_sync (openpgp_cfb)
      || sf_cipher_encrypt (openpgp_cfb, body + PREFIX_LEN, data, size))
    abort ();
  return PREFIX_LEN + size;
}


/* Write the body of an AEAD packet TAG of DATA (SIZE bytes), made by
 * sfenc's writer, to BODY (BODYSIZE bytes); return its length.  */
static size_t
aead_body (unsigned char *body, size_t bodysize, int tag, int algo,
           int chunk_octet, const unsigned char *key, const uint8_t *data,
           size_t size, int damaged)
{
  memory_sink_t ms = { body, bodysize, 0 };
  aead_writer_t *aw;
  size_t hdrlen;

  if (aead_writer_open (&aw, tag, spec, algo, chunk_octet, key,
                        memory_sink_write, &ms)
      || aead_writer_sink (aw, data, size) || aead_writer_finish (aw))
    abort ();
  aead_writer_close (aw);
  /* Shorter than a chunk of the packet writer (MAX_PACKETS): one
   * new-format header with a definite length.  */
  if (body[0] != (0xc0 | tag) || (body[1] >= 224 && body[1] != 255))
    abort ();
  hdrlen = body[1] < 192 ? 2 : body[1] < 224 ? 3 : 6;
  memmove (body, body + hdrlen, ms.len - hdrlen);
  body[ms.len - hdrlen - 1] ^= damaged;
  return ms.len - hdrlen;
}


/* Write to BODY (BODYSIZE bytes) the body of the encrypted data
 * packet of DATA (SIZE bytes) that FLAGS ask for; return its length
 * and set *R_TAG and *R_SKESK.  */
static size_t
encrypt (unsigned char *body, size_t bodysize, unsigned int flags,
         const uint8_t *data, size_t size, int *r_tag,
         const skesk_out_t **r_skesk)
{
  int k = (flags >> FLAG_K_SHIFT) & 7, damaged = !!(flags & FLAG_DAMAGED);

  switch ((flags >> FLAG_CONTAINER_SHIFT) & 3)
    {
    case SEIPD1:
      *r_tag = PKT_ENCRYPTED_MDC;
      *r_skesk = &skesk4;
      return seipd1_body (body, data, size, damaged);
    case SED:
      *r_tag = PKT_ENCRYPTED;
      *r_skesk = &skesk4;
      return sed_body (body, data, size);
    case SEIPD2:
      *r_tag = PKT_ENCRYPTED_MDC;
      *r_skesk = &skesk6;
      return aead_body (body, bodysize, *r_tag, AEAD_ALGO_EAX + k % 3, k,
                        skesk6.key, data, size, damaged);
    default:
      *r_tag = PKT_AEAD_ENCRYPTED;
      *r_skesk = &skesk5;
      return aead_body (body, bodysize, *r_tag, AEAD_ALGO_EAX + k % 2, k,
                        skesk5.key, data, size, damaged);
    }
}


/* Encrypt the packets DATA (SIZE bytes) as FLAGS say and decrypt
 * the message with sfenc -d.  */
static gpg_error_t
encrypt_and_decrypt (unsigned int flags, const uint8_t *data, size_t size)
{
  /* Room for the prefix, the MDC or the AEAD header, and a tag of
   * every 64-byte chunk.  */
  size_t bodysize = 2 * size + 256;
  const skesk_out_t *skesk;
  unsigned char *body, *msg;
  size_t bodylen, msglen;
  int tag;
  gpg_error_t err;

  body = malloc (bodysize);
  msg = malloc (MAX_SKESK + 8 + 2 * bodysize + 8);
  if (!body || !msg)
    abort ();
  bodylen = encrypt (body, bodysize, flags, data, size, &tag, &skesk);
  memcpy (msg, skesk->packet, skesk->len);
  msglen = skesk->len + fuzz_frame (msg + skesk->len, tag, body, bodylen,
                                     flags & FLAG_FRAMING,
                                     (flags >> FLAG_K_SHIFT) & 7);
  opt.ignore_mdc_error = (tag == PKT_ENCRYPTED
                          || (skesk == &skesk4
                              && ((flags >> FLAG_K_SHIFT) & 7) == 7));
  err = fuzz_decrypt (msg, msglen);
  opt.ignore_mdc_error = 0;
  free (msg);
  free (body);
  return err;
}


/* Make the SKESK packets and key the ciphers.  */
static gpg_error_t
make_keys (void)
{
  gpg_error_t err;

  err = sf_table_find_id (CIPHER_ID, NULL, &spec);
  if (!err)
    err = skesk_make (&skesk4, 4, spec, 0, &s2k, FUZZ_PASSPHRASE);
  if (!err)
    err = skesk_make (&skesk5, 5, spec, AEAD_ALGO_EAX, &s2k, FUZZ_PASSPHRASE);
  if (!err)
    err = skesk_make (&skesk6, 6, spec, AEAD_ALGO_OCB, &s2k, FUZZ_PASSPHRASE);
  if (!err)
    err = sf_cipher_open (&cfb, spec, SF_MODE_CFB, 0);
  if (!err)
    err = sf_cipher_setkey (cfb, skesk4.key, spec->keylen);
  if (!err)
    err = sf_cipher_open (&openpgp_cfb, spec, SF_MODE_OPENPGP_CFB, 0);
  if (!err)
    err = sf_cipher_setkey (openpgp_cfb, skesk4.key, spec->keylen);
  return err;
}


/* Check that the messages made here decrypt: an empty literal data
 * packet in every container and framing.  */
static void
start (void)
{
  static const uint8_t empty_literal[] = { 0xcb, 6, 'b', 0, 0, 0, 0, 0 };
  unsigned int flags;
  gpg_error_t err;

  fuzz_start ();
  if (spec)
    return;
  err = make_keys ();
  if (err)
    {
      fail_print (err, "fuzz-packets start-up");
      exit (2);
    }
  for (flags = 0; flags < 16; flags++)
    if (encrypt_and_decrypt (flags | 2 << FLAG_K_SHIFT, empty_literal,
                             sizeof empty_literal))
      {
        fprintf (stderr, "fuzz-packets: a message made with flags 0x%02x"
                 " does not decrypt\n", flags | 2 << FLAG_K_SHIFT);
        exit (2);
      }
}


int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  start ();
  if (size)
    encrypt_and_decrypt (data[0], data + 1,
                         size - 1 < MAX_PACKETS ? size - 1 : MAX_PACKETS);
  return 0;
}
