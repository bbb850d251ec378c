/* list-packets.c - sfenc --list-packets: the packets of a message
 */
#include <config.h>

#include <stdio.h>
#include <string.h>
#include <gcrypt.h>

#include "packet.h"
#include "decrypt.h"
#include "error.h"
#include "list-packets.h"
#include "literal.h"
#include "options.h"
#include "passphrase.h"
#include "progress.h"
#include "s2k.h"
#include "seipd2.h"
#include "session-key.h"
#include "skesk.h"
#include "status.h"

#define WHAT "decryption failed"

/* As gpg 2.2 nests compressed packets.  */
#define MAX_COMPRESSED_DEPTH 30

/* What the listing of one message keeps.  */
typedef struct listing
{
  skesk_t sk;                   /* The first SKESK.  */
  int nskesk, npkesk;
  char *pass;
  const packet_header_t *data;  /* The encrypted data packet listed.  */
  uint64_t data_body;           /* The offset of its body.  */
} listing_t;

static gpg_error_t list_layer (listing_t *ls, reader_t *r, uint64_t base,
                               int depth);


/* The "# off=" line of the packet HDR at offset OFF.  */
static void
print_header (uint64_t off, const packet_header_t *hdr)
{
  int open_length = hdr->partial || hdr->to_eof;

  printf ("# off=%llu ctb=%02x tag=%d hlen=%d plen=%llu%s%s\n",
          (unsigned long long)off, hdr->ctb, hdr->tag, hdr->hlen,
          open_length ? 0ull : (unsigned long long)hdr->length,
          !open_length ? "" : hdr->new_format ? " partial" : " indeterminate",
          hdr->new_format ? " new-ctb" : "");
}


static void
print_hex (const unsigned char *p, size_t n)
{
  while (n--)
    printf ("%02X", *p++);
}


/* The S2K of an SKESK: gpg's line for the salted ones; for Argon2,
 * which gpg 2.2 does not know, its salt and parameters.  */
static void
print_s2k (const s2k_t *s2k)
{
  if (s2k->mode == S2K_SIMPLE)
    return;
  printf ("\tsalt ");
  print_hex (s2k->salt, s2k->mode == S2K_ARGON2 ? 16 : 8);
  if (s2k->mode == S2K_ITERSALTED)
    printf (", count %lu (%u)", s2k_decode_count (s2k->count_byte),
            s2k->count_byte);
  else if (s2k->mode == S2K_ARGON2)
    printf (", passes %u, parallelism %u, memory 2^%u KiB",
            s2k->argon2_t, s2k->argon2_p, s2k->argon2_m);
  putchar ('\n');
}


/* An SKESK packet.  gpg counts the IV and the tag of versions 5 and 6
 * in the "encrypted seskey", the algorithm octet of version 4 not in
 * the "seskey".  */
static void
print_skesk (const skesk_t *sk)
{
  printf (":symkey enc packet: version %d, cipher %d, aead %d,s2k %d,"
          " hash %d", sk->version, sk->cipher_algo,
          sk->version == 4 ? 0 : sk->aead_algo, sk->s2k.mode,
          sk->s2k.hash_algo);
  if (sk->version != 4)
    printf (", encrypted seskey %zu bytes",
            aead_nonce_len (sk->version == 5 ? PKT_AEAD_ENCRYPTED
                            : PKT_ENCRYPTED_MDC, sk->aead_algo)
            + sk->esklen);
  else if (sk->esklen)
    printf (", seskey %zu bits", (sk->esklen - 1) * 8);
  putchar ('\n');
  print_s2k (&sk->s2k);
}


/* The encrypted data packet HDR; H is the header of an AEAD packet,
 * NULL for the others.  */
static void
print_encrypted (const packet_header_t *hdr, const aead_header_t *h)
{
  if (hdr->tag == PKT_AEAD_ENCRYPTED)
    printf (":aead encrypted packet:");
  else
    printf (":encrypted data packet:");
  if (hdr->tag == PKT_ENCRYPTED_MDC && h)
    printf (" version 2,");
  if (h)
    printf (" cipher=%d aead=%d cb=%d", h->cipher_algo, h->aead_algo,
            h->chunk_octet);
  if (hdr->partial || hdr->to_eof)
    printf ("\n\tlength: unknown\n");
  else
    printf ("\n\tlength: %llu\n", (unsigned long long)hdr->length);
  if (hdr->tag == PKT_ENCRYPTED_MDC && !h)
    printf ("\tmdc_method: %d\n", GCRY_MD_SHA1);
}


/* The header of the encrypted data packet is read: list it.  */
static gpg_error_t
on_data_header (void *ctx, const aead_header_t *h)
{
  listing_t *ls = ctx;

  print_encrypted (ls->data, h);
  return 0;
}


/* The packets inside the encryption.  */
static gpg_error_t
list_plaintext (void *ctx, reader_t *plain, size_t header_len)
{
  listing_t *ls = ctx;

  return list_layer (ls, plain, ls->data_body + header_len, 0);
}


/* An encrypted data packet that will not be decrypted: listed from
 * its own header, then skipped.  */
static gpg_error_t
list_encrypted_only (reader_t *r, const packet_header_t *hdr)
{
  gpg_error_t err = 0;
  packet_body_t body;
  unsigned char version = 1;
  aead_header_t h;

  packet_body_init (&body, r, hdr);
  if (hdr->tag == PKT_ENCRYPTED_MDC)
    err = packet_body_read_exact (&body, &version, 1, "encrypted data");
  if (!err && (version == 2 || hdr->tag == PKT_AEAD_ENCRYPTED))
    {
      err = aead_header_read (&body, hdr->tag, &h);
      if (!err)
        print_encrypted (hdr, &h);
    }
  else if (!err)
    print_encrypted (hdr, NULL);
  if (!err)
    err = packet_body_skip (&body);
  return err;
}


/* The encrypted data packet HDR at offset OFF: listed and decrypted,
 * the packets inside listed, when there is a key for it.  */
static gpg_error_t
list_encrypted (listing_t *ls, reader_t *r, const packet_header_t *hdr,
                uint64_t off)
{
  gpg_error_t err, err2 = 0;
  plaintext_handler_t handler = { list_plaintext, on_data_header, ls, 0 };
  int decrypt;

  err = check_data_packet (hdr, ls->nskesk, ls->npkesk);
  /* gpg lists what a SED packet holds, then fails for its lack of an
   * MDC; the error says so as -d says it.  */
  decrypt = !err || (hdr->tag == PKT_ENCRYPTED && ls->nskesk);
  /* The passphrase is asked for here, once the packets before are
   * listed, as gpg asks for it; without one it fails as -d does.  */
  if (decrypt && !ls->pass && !session_key_overridden ())
    err2 = passphrase_get (&ls->pass, 0);
  if (err2)
    {
      status_begin_decryption ();
      status_end_decryption (err2, 0);
    }
  if (!decrypt || err2)
    {
      err = err ? err : err2;
      err2 = list_encrypted_only (r, hdr);
      return err2 ? err2 : err;
    }
  ls->data = hdr;
  ls->data_body = off + hdr->hlen;
  err2 = decrypt_packet (r, hdr, ls->nskesk ? &ls->sk : NULL, &ls->pass,
                         &handler);
  return err ? err : err2;
}


/* A literal data packet: its fields as gpg shows them (the name's
 * octets from space to 'z' as they are, the others as \xNN), its data
 * read and dropped.  */
static gpg_error_t
list_literal (reader_t *r, const packet_header_t *hdr)
{
  gpg_error_t err;
  packet_body_t body;
  unsigned char fields[LITERAL_FIELDS_MAX], *date;
  int i, mode;

  err = literal_read_fields (r, hdr, &body, fields);
  if (err)
    return err;
  mode = fields[0];
  date = fields + 2 + fields[1];
  printf (":literal data packet:\n\tmode %c (%X), created %lu, name=\"",
          mode >= ' ' && mode < 'z' ? mode : '?', mode,
          (unsigned long)date[0] << 24 | (unsigned long)date[1] << 16
          | (unsigned long)date[2] << 8 | date[3]);
  for (i = 0; i < fields[1]; i++)
    if (fields[2 + i] >= ' ' && fields[2 + i] <= 'z')
      putchar (fields[2 + i]);
    else
      printf ("\\x%02x", fields[2 + i]);
  if (hdr->partial || hdr->to_eof)
    printf ("\",\n\traw data: unknown length\n");
  else
    printf ("\",\n\traw data: %llu bytes\n",
            (unsigned long long)hdr->length - 6 - fields[1]);
  return packet_body_skip (&body);
}


/* The compressed packet HDR at offset OFF, at DEPTH: the packets
 * inside listed with offsets that run on after its algorithm octet.  */
static gpg_error_t
list_compressed (listing_t *ls, reader_t *r, const packet_header_t *hdr,
                 uint64_t off, int depth)
{
  gpg_error_t err;
  compressed_layer_t layer;

  if (depth == MAX_COMPRESSED_DEPTH)
    return fail (gpg_error (GPG_ERR_INV_PACKET), WHAT,
                 "compressed packets nested more than %d deep",
                 MAX_COMPRESSED_DEPTH);
  err = open_layer (&layer, r, hdr);
  if (!err)
    {
      printf (":compressed packet: algo=%d\n", layer.algo);
      err = list_layer (ls, &layer.contents, off + hdr->hlen + 1, depth + 1);
    }
  if (!err)
    err = packet_body_skip (&layer.body);
  close_layer (&layer);
  return err;
}


/* A PKESK packet: version, algorithm, key id, and the size of each
 * part of the encrypted session key, for the algorithms gpg knows.  */
static gpg_error_t
list_pkesk (reader_t *r, const packet_header_t *hdr)
{
  gpg_error_t err;
  pkesk_t pk;
  int i;

  err = pkesk_read (r, hdr, &pk);
  if (err)
    return err;
  printf (":pubkey enc packet: version %d, algo %d, keyid ", pk.version,
          pk.algo);
  print_hex (pk.keyid, sizeof pk.keyid);
  putchar ('\n');
  if (!pk.nparts)
    printf ("\tunsupported algorithm %d\n", pk.algo);
  for (i = 0; i < pk.nparts; i++)
    printf ("\tdata: [%u bits]\n", pk.bits[i]);
  return 0;
}


/* Any other packet: its octets in gpg's hex dump, 24 to a line.  */
static gpg_error_t
list_unknown (reader_t *r, const packet_header_t *hdr)
{
  gpg_error_t err;
  packet_body_t body;
  unsigned char buf[256];
  size_t n, j;
  unsigned long i = 0;

  printf (":unknown packet: type %2d, length %llu\ndump:", hdr->tag,
          hdr->partial || hdr->to_eof ? 0ull
          : (unsigned long long)hdr->length);
  packet_body_init (&body, r, hdr);
  do
    {
      err = packet_body_source (&body, buf, sizeof buf, &n);
      for (j = 0; !err && j < n; j++, i++)
        {
          if (i && !(i % 24))
            printf ("\n%4lu:", i);
          else if (i && !(i % 8))
            putchar (' ');
          printf (" %02x", buf[j]);
        }
    }
  while (!err && n);
  putchar ('\n');
  return err;
}


/* The packet HDR read from R at offset OFF, in a layer at DEPTH.  */
static gpg_error_t
list_packet (listing_t *ls, reader_t *r, const packet_header_t *hdr,
             uint64_t off, int depth)
{
  gpg_error_t err;
  skesk_t other;

  switch (hdr->tag)
    {
    case PKT_SYMKEY_ENC:
      err = skesk_parse (r, hdr, ls->nskesk ? &other : &ls->sk);
      if (!err)
        print_skesk (ls->nskesk ? &other : &ls->sk);
      if (!err && !ls->nskesk && !session_key_overridden ())
        status_need_passphrase_sym (ls->sk.cipher_algo, &ls->sk.s2k);
      ls->nskesk++;
      return err;
    case PKT_PUBKEY_ENC:
      ls->npkesk++;
      return list_pkesk (r, hdr);
    case PKT_MARKER:
      err = marker_read (r, hdr);
      if (!err)
        printf (":marker packet: PGP\n");
      return err;
    case PKT_ENCRYPTED:
    case PKT_ENCRYPTED_MDC:
    case PKT_AEAD_ENCRYPTED:
      return list_encrypted (ls, r, hdr, off);
    case PKT_COMPRESSED:
      return list_compressed (ls, r, hdr, off, depth);
    case PKT_PLAINTEXT:
      return list_literal (r, hdr);
    default:
      return list_unknown (r, hdr);
    }
}


/* List the packets read from R, the first at offset BASE, in a layer
 * of compressed packets DEPTH deep.  */
static gpg_error_t
list_layer (listing_t *ls, reader_t *r, uint64_t base, int depth)
{
  gpg_error_t err;
  packet_header_t hdr;
  uint64_t off;

  for (;;)
    {
      off = base + r->consumed;
      err = packet_read_header (r, &hdr, WHAT);
      if (err || !hdr.tag)
        return err;
      print_header (off, &hdr);
      err = list_packet (ls, r, &hdr, off, depth);
      fflush (stdout);
      if (err)
        return err;
    }
}


gpg_error_t
list_packets_file (const char *infile)
{
  gpg_error_t err;
  input_t in;
  listing_t ls;

  memset (&ls, 0, sizeof ls);
  err = input_open (&in, infile);
  if (err)
    return err;
  progress_start (in.fd.fd, in.fd.name);
  /* A passphrase given by an option is read first, as for -d; one to
   * be asked for, or none at all, only at the encrypted data, once
   * the packets before it are listed, as gpg does.  */
  if (opt.passphrase || opt.passphrase_fd >= 0 || opt.passphrase_file
      || opt.override_session_key || opt.override_session_key_fd >= 0)
    err = decrypt_get_key (&ls.pass);
  if (!err)
    err = input_start (&in);
  if (!err)
    err = list_layer (&ls, in.packets, 0, 0);
  passphrase_release (ls.pass);
  session_key_release ();
  input_close (&in);
  return err;
}
