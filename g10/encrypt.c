/* encrypt.c - writing a passphrase-protected message (sfenc -c)
 *
 * RFC 4880: an SKESK v4 packet (5.3) holding the S2K parameters, the
 * S2K-derived key being the session key; then an SEIPD v1 packet
 * (5.13): the cipher in CFB mode with a zero IV over a random block
 * whose last two bytes are repeated, the (optionally compressed,
 * 5.6) literal data packet (5.9) and the MDC packet (5.14), the
 * SHA-1 of everything before the MDC's hash.  With --aead-algo, an
 * SKESK v6 and an SEIPD v2 packet (RFC 9580 5.3.2, 5.13.2) instead,
 * or LibrePGP's SKESK v5 and AEAD packet (--aead-format librepgp):
 * skesk.c and seipd2.c.
 *
 * The stages are sinks pushed into from the input: literal packet
 * writer -> compressor (optional) -> hash and encrypt -> SEIPD packet
 * writer -> armor (optional) -> output.  Input is read straight into
 * the literal packet's chunk buffer (through plaintext.c, which looks
 * for compressed formats and makes -t's text), and each slice is hashed
 * and encrypted while it is in the L1 cache.
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include <gcrypt.h>

#include "libsfcipher.h"
#include "packet.h"
#include "armor.h"
#include "clock.h"
#include "encrypt.h"
#include "error.h"
#include "iobuf.h"
#include "log.h"
#include "options.h"
#include "s2k.h"
#include "compliance.h"
#include "compress.h"
#include "outfile.h"
#include "passphrase.h"
#include "extension.h"
#include "mdc.h"
#include "argon2.h"
#include "plaintext.h"
#include "progress.h"
#include "special-filename.h"
#include "status.h"
#include "skesk.h"
#include "seipd2.h"
#include "write-output.h"

#define WHAT "encryption failed"

/* The SEIPD stage: hash with SHA-1 for the MDC, encrypt, frame.  */
typedef struct seipd_writer
{
  sf_cipher_hd_t cipher;
  mdc_t *mdc;
  packet_writer_t packet;
} seipd_writer_t;


static gpg_error_t
seipd_sink (void *ctx, const unsigned char *buf, size_t len)
{
  seipd_writer_t *sw = ctx;
  gpg_error_t err;
  unsigned char *out;
  size_t n;

  while (len)
    {
      n = packet_writer_space (&sw->packet, &out);
      if (n > len)
        n = len;
      err = mdc_encrypt (sw->mdc, out, buf, n);
      if (err)
        return fail (err, WHAT, "cipher: %s", gpg_strerror (err));
      err = packet_writer_commit (&sw->packet, n);
      if (err)
        return err;
      buf += n;
      len -= n;
    }
  return 0;
}


/* Encrypt the MDC packet: its two header bytes are hashed, the hash
 * itself of course not.  */
static gpg_error_t
seipd_finish (seipd_writer_t *sw)
{
  gpg_error_t err;
  unsigned char mdc[MDC_PACKET_LEN];

  mdc[0] = 0xd3;
  mdc[1] = 0x14;
  err = mdc_encrypt (sw->mdc, mdc, mdc, 2);
  if (!err)
    {
      mdc_final (sw->mdc, mdc + 2);
      err = sf_cipher_encrypt (sw->cipher, mdc + 2, mdc + 2,
                               sizeof mdc - 2);
    }
  if (err)
    return fail (err, WHAT, "cipher: %s", gpg_strerror (err));
  err = packet_writer_sink (&sw->packet, mdc, sizeof mdc);
  if (!err)
    err = packet_writer_finish (&sw->packet);
  return err;
}


gpg_error_t
encrypt_open_input (encrypt_input_t *in, const char *infile)
{
  memset (in, 0, sizeof *in);
  in->fd.fd = 0;
  in->fd.name = "stdin";
  in->litname = "";
  if (special_filename_fd (infile) >= 0)
    {
      in->fd.fd = special_filename_fd (infile);
      in->fd.name = infile;
    }
  else if (!is_stream_name (infile))
    {
      const char *slash = strrchr (infile, '/');

      in->litname = slash ? slash + 1 : infile;
      in->named_file = 1;
      in->fd.name = infile;
      in->fd.fd = open (infile, O_RDONLY);
      if (in->fd.fd < 0)
        return fail (gpg_error_from_syserror (), infile, "%s",
                     strerror (errno));
    }
  if (opt.set_filename)
    in->litname = opt.set_filename;
  /* gpg's name for data to be shown, not saved (RFC 4880 5.9).  */
  if (opt.for_your_eyes_only)
    in->litname = "_CONSOLE";
  /* gpg's notes on its expert options.  */
  if (opt.set_filesize)
    log_warning ("Note: --set-filesize is not for normal use!");
  if (opt.no_literal)
    log_warning ("Note: --no-literal is not for normal use!");
  progress_start (in->fd.fd, in->fd.name);
  return 0;
}


void
encrypt_close_input (encrypt_input_t *in)
{
  if (in->fd.fd > 0)
    close (in->fd.fd);
  in->fd.fd = 0;
}


/* Look up the cipher of the options: as gpg, the first of
 * --personal-cipher-preferences when --cipher-algo is not given, and
 * --s2k-cipher-algo without either.  */
static gpg_error_t
find_cipher (const sf_cipher_spec_t **r_spec)
{
  const char *option = opt.cipher_algo ? "--cipher-algo"
                       : *opt.personal_cipher ? "--personal-cipher-prefs"
                       : opt.s2k_cipher_algo ? "--s2k-cipher-algo"
                       : "--cipher-algo";
  const char *algo = opt.cipher_algo ? opt.cipher_algo
                     : *opt.personal_cipher ? opt.personal_cipher
                     : opt.s2k_cipher_algo ? opt.s2k_cipher_algo : "AES256";
  gpg_error_t err;
  int id;

  err = sf_table_find (algo, opt.cipher_impl, r_spec);
  /* gpg's names the table has not: "S9", libgcrypt's aliases.  */
  id = gpg_err_code (err) == GPG_ERR_CIPHER_ALGO
       ? sf_openpgp_cipher_id (algo) : 0;
  if (id)
    err = sf_table_find_id (id, opt.cipher_impl, r_spec);
  if (id && gpg_err_code (err) == GPG_ERR_CIPHER_ALGO)
    return fail (err, option, "%s is OpenPGP's cipher %d, which no module"
                 " here has (see --list-ciphers)", algo, id);
  switch (gpg_err_code (err))
    {
    case 0:
      if (compliance_cipher_disabled (*r_spec))
        return fail (gpg_error (GPG_ERR_CIPHER_ALGO), option,
                     "%s is disabled with --disable-cipher-algo",
                     (*r_spec)->name);
      /* Id 0 would be written into the message, which nothing could
       * then read, not even sfenc.  */
      if (!(*r_spec)->openpgp_id)
        return fail (gpg_error (GPG_ERR_CIPHER_ALGO), option,
                     "%s has no OpenPGP algorithm id, so no OpenPGP"
                     " message can use it (its module can give it a"
                     " private one, %d-%d: see doc/modules.md)",
                     (*r_spec)->name, SF_OPENPGP_PRIVATE_FIRST,
                     SF_OPENPGP_PRIVATE_LAST);
      return 0;
    case GPG_ERR_CIPHER_ALGO:
      return fail (err, option, "unknown cipher algorithm '%s'"
                   " (see --list-ciphers)", algo);
    case GPG_ERR_NOT_FOUND:
      return fail (err, "--cipher-impl", "no implementation '%s' of %s"
                   " (see --list-ciphers)", opt.cipher_impl, algo);
    case GPG_ERR_NOT_SUPPORTED:
      return fail (err, "--cipher-impl", "%s%s%s cannot run on this machine",
                   algo, opt.cipher_impl ? "/" : "",
                   opt.cipher_impl ? opt.cipher_impl : "");
    default:
      return fail (err, option, "%s: %s", algo, gpg_strerror (err));
    }
}


/* Check the Argon2 options for a message sfenc can read back.  */
static gpg_error_t
check_argon2_options (void)
{
  if (opt.argon2_m < (int)argon2_min_memory_exp (opt.argon2_p))
    return fail (gpg_error (GPG_ERR_INV_ARG), "--s2k-argon2-memory",
                 "%d lanes need at least 2^%u KiB", opt.argon2_p,
                 argon2_min_memory_exp (opt.argon2_p));
  if (!argon2_work_allowed (opt.argon2_t, opt.argon2_m))
    return fail (gpg_error (GPG_ERR_TOO_LARGE), "--s2k-argon2-passes",
                 "%d passes over 2^%d KiB are %llu MiB of work, more than"
                 " --s2k-argon2-max-work %lu", opt.argon2_t, opt.argon2_m,
                 argon2_work_kib (opt.argon2_t, opt.argon2_m) >> 10,
                 opt.argon2_max_work_mib);
  return 0;
}


/* Simple S2K hashes the passphrase unsalted: RFC 9580 3.7.3 forbids
 * writing it, so its messages (SKESK v6) refuse it, and the others
 * warn as gpg does.  */
static gpg_error_t
check_simple_s2k (void)
{
  if (opt.aead_algo && opt.aead_skesk_version == 6)
    return fail (gpg_error (GPG_ERR_INV_ARG), "--s2k-mode",
                 "RFC 9580 forbids simple S2K (mode 0) in its messages;"
                 " use 1, 3 or argon2");
  log_warning ("WARNING: simple S2K mode (0) is strongly discouraged");
  return 0;
}


/* Choose the S2K of the options and make the salt.  */
static gpg_error_t
make_s2k (s2k_t *s2k)
{
  const char *name = opt.s2k_digest_algo ? opt.s2k_digest_algo
                     : opt.digest_algo;
  gpg_error_t err = 0;

  memset (s2k, 0, sizeof *s2k);
  s2k->mode = opt.s2k_mode;
  s2k->hash_algo = name ? digest_algo_from_name (name) : GCRY_MD_SHA1;
  if (!s2k->hash_algo)
    return fail (gpg_error (GPG_ERR_DIGEST_ALGO),
                 opt.s2k_digest_algo ? "--s2k-digest-algo" : "--digest-algo",
                 "unknown digest algorithm '%s'", name);
  s2k->count_byte = s2k_encode_count (opt.s2k_count);
  s2k->argon2_t = opt.argon2_t;
  s2k->argon2_p = opt.argon2_p;
  s2k->argon2_m = opt.argon2_m;
  if (s2k->mode == S2K_ARGON2)
    err = check_argon2_options ();
  else if (s2k->mode == S2K_SIMPLE)
    err = check_simple_s2k ();
  if (err)
    return err;
  gcry_create_nonce (s2k->salt, sizeof s2k->salt);
  return 0;
}


/* Check that the cipher SPEC can be used with --aead-algo.  */
static gpg_error_t
check_aead (const sf_cipher_spec_t *spec)
{
  if (!opt.aead_algo)
    return 0;
  if (spec->blocksize != SF_AEAD_BLOCKSIZE)
    return fail (gpg_error (GPG_ERR_INV_CIPHER_MODE), "--aead-algo",
                 "%s needs a cipher with 128-bit blocks; %s has %u-bit"
                 " blocks", aead_algo_name (opt.aead_algo), spec->name,
                 (unsigned int)spec->blocksize * 8);
  if (opt.aead_skesk_version == 5
      && !aead_nonce_len (PKT_AEAD_ENCRYPTED, opt.aead_algo))
    return fail (gpg_error (GPG_ERR_NOT_SUPPORTED), "--aead-format",
                 "LibrePGP messages use OCB or EAX, not %s",
                 aead_algo_name (opt.aead_algo));
  return 0;
}


/* Ask for the passphrase and make the SKESK and the session key.  */
static gpg_error_t
make_session_key (skesk_out_t *skesk, const sf_cipher_spec_t *spec,
                  const s2k_t *s2k)
{
  gpg_error_t err;
  char *pass;

  status_need_passphrase_sym (spec->openpgp_id, s2k);
  err = passphrase_get (&pass, 1);
  if (err)
    return err;
  err = skesk_make (skesk, opt.aead_algo ? opt.aead_skesk_version : 4, spec,
                    opt.aead_algo, s2k, pass);
  passphrase_release (pass);
  return err;
}


/* Open the cipher in CFB mode with the session KEY.  */
static gpg_error_t
open_cipher (sf_cipher_hd_t *r_hd, const sf_cipher_spec_t *spec,
             const unsigned char *key)
{
  gpg_error_t err;

  err = sf_cipher_open (r_hd, spec, SF_MODE_CFB, SF_CIPHER_SECURE);
  if (!err)
    err = sf_cipher_setkey (*r_hd, key, spec->keylen);
  if (!err)
    err = sf_cipher_setiv (*r_hd, NULL, spec->blocksize);
  if (err)
    {
      sf_cipher_close (*r_hd);
      *r_hd = NULL;
      return fail (err, WHAT, "%s/%s: %s", spec->name, spec->impl,
                   gpg_strerror (err));
    }
  return 0;
}


/* Say what encrypts: cipher, mode, S2K.  */
static void
log_encryption (const sf_cipher_spec_t *spec, const s2k_t *s2k)
{
  char how[80];

  if (s2k->mode == S2K_ARGON2)
    snprintf (how, sizeof how, "Argon2 with %u passes, %u lanes, 2^%u KiB",
              s2k->argon2_t, s2k->argon2_p, s2k->argon2_m);
  else
    snprintf (how, sizeof how, "mode %d with %s", s2k->mode,
              digest_algo_name (s2k->hash_algo));
  if (opt.aead_algo)
    log_info ("%s/%s.%s encryption (%s, chunks of %zu bytes), S2K %s",
              spec->name, spec->impl, aead_algo_name (opt.aead_algo),
              opt.aead_skesk_version == 5 ? "LibrePGP" : "SEIPD v2",
              (size_t)1 << (opt.chunk_octet + 6), how);
  else
    log_info ("%s/%s.CFB encryption, S2K %s", spec->name, spec->impl, how);
}


/* The length of the literal data that gpg 2.2 writes into the packet's
 * header, 0 for none (partial lengths): a file's size (unless -t
 * changes it, or it is empty or too large for the 32 bits of the
 * packet), else --set-filesize's.  */
static uint64_t
literal_data_length (const fd_stream_t *in, int named_file)
{
  struct stat st;

  if (!named_file)
    return opt.set_filesize;
  if (opt.textmode || fstat (in->fd, &st) || !S_ISREG (st.st_mode))
    return 0;
  /* gpg's limit, room kept for the headers.  */
  if ((uint64_t)st.st_size >= 0xffffffffull - 65535)
    return 0;
  return st.st_size;
}


/* Copy IN into the packet writer W, read straight into its buffer;
 * count the bytes in *R_COUNT.  */
static gpg_error_t
copy_input (packet_writer_t *w, plaintext_t *in, uint64_t *r_count)
{
  gpg_error_t err = 0;
  unsigned char *space;
  size_t n;

  while (!err)
    {
      size_t room = packet_writer_space (w, &space);

      err = plaintext_source (in, space, room, &n);
      if (err || !n)
        break;
      *r_count += n;
      err = packet_writer_commit (w, n);
    }
  return err;
}


/* Write the literal packet: its header fields, then the input read
 * straight into the chunk buffer.  A header that holds the length
 * (LENGTH not 0) must be right, as gpg checks.  */
static gpg_error_t
write_literal (packet_writer_t *lit, plaintext_t *in, const char *name,
               uint64_t length)
{
  gpg_error_t err;
  unsigned char *space;
  size_t namelen = strlen (name);
  uint32_t now = (uint32_t)clock_now ();
  uint64_t count = 0;

  if (namelen > 255)
    namelen = 255;
  if (length)
    packet_writer_set_framing (lit, FRAME_OLD_LENGTH, 6 + namelen + length);
  packet_writer_space (lit, &space);
  space[0] = opt.textmode ? 't' : 'b';
  space[1] = namelen;
  memcpy (space + 2, name, namelen);
  space[2 + namelen] = now >> 24;
  space[3 + namelen] = now >> 16;
  space[4 + namelen] = now >> 8;
  space[5 + namelen] = now;
  err = packet_writer_commit (lit, 6 + namelen);
  if (!err)
    err = copy_input (lit, in, &count);
  if (!err)
    err = packet_writer_finish (lit);
  if (!err && length && count != length)
    err = fail (gpg_error (GPG_ERR_EIO), "literal data",
                "wrote %llu bytes but expected %llu bytes",
                (unsigned long long)count, (unsigned long long)length);
  return err;
}


/* --no-literal: the bare input into the packet writer W, which has no
 * header of its own then (gpg's option, "not for normal use").  */
static gpg_error_t
write_bare (packet_writer_t *w, plaintext_t *in)
{
  uint64_t count = 0;
  gpg_error_t err;

  packet_writer_set_framing (w, FRAME_BARE, 0);
  err = copy_input (w, in, &count);
  if (!err)
    err = packet_writer_finish (w);
  return err;
}


/* The compression level for the input PT named INNAME: 0 for none,
 * -1 for the default.  As in gpg, encrypted data already compressed
 * is stored as it is, but here unless a level was given for the
 * algorithm; gpg's --store (AS_GPG) compresses it all the same.  */
static int
compression_level (const plaintext_t *pt, const char *inname, int as_gpg)
{
  int level = opt.compress_algo == COMPRESS_BZIP2
              ? opt.bzip2_compress_level : opt.compress_level;
  const char *format;

  if (!opt.compress_level || opt.compress_algo == COMPRESS_NONE)
    return 0;
  if (!as_gpg && level < 0 && (format = plaintext_compressed_format (pt)))
    {
      log_info ("%s: already compressed (%s), not compressed again",
                inname, format);
      return 0;
    }
  return level;
}


gpg_error_t
encrypt_write_plaintext (encrypt_input_t *in, int as_gpg, sink_fn_t sink,
                         void *sink_ctx)
{
  gpg_error_t err;
  compress_writer_t *cw = NULL;
  packet_writer_t lit;
  plaintext_t pt;
  int level = 0;
  uint64_t length = literal_data_length (&in->fd, in->named_file);

  memset (&lit, 0, sizeof lit);
  memset (&pt, 0, sizeof pt);
  err = plaintext_open (&pt, progress_source, &in->fd,
                        !opt.textmode ? TEXT_NONE
                        : opt.rfc2440_text ? TEXT_RFC2440 : TEXT_CANONICAL);
  if (!err)
    level = compression_level (&pt, in->fd.name, as_gpg);
  if (!err && level)
    err = (as_gpg ? compress_writer_new_gpg : compress_writer_new)
          (&cw, opt.compress_algo, level, sink, sink_ctx);
  if (!err)
    err = packet_writer_init (&lit, PKT_PLAINTEXT,
                              cw ? compress_writer_sink : sink,
                              cw ? (void *)cw : sink_ctx);
  if (!err && as_gpg)
    packet_writer_set_framing (&lit, FRAME_GPG_PARTIAL, 0);
  /* -c keeps its own framing, partial lengths, but for the length
   * that --set-filesize asks for.  */
  if (!as_gpg && in->named_file)
    length = 0;
  if (!err && opt.no_literal)
    err = write_bare (&lit, &pt);
  else if (!err)
    err = write_literal (&lit, &pt, in->litname, length);
  if (!err && cw)
    err = compress_writer_finish (cw);
  plaintext_close (&pt);
  packet_writer_release (&lit);
  compress_writer_release (cw);
  return err;
}


/* Encrypt IN into an SEIPD v1 packet written into SINK.  */
static gpg_error_t
encrypt_seipd1 (encrypt_input_t *in, sink_fn_t sink, void *sink_ctx,
                const sf_cipher_spec_t *spec, sf_cipher_hd_t cipher)
{
  gpg_error_t err;
  seipd_writer_t sw;
  unsigned char prefix[MAX_BLOCKSIZE + 2];
  size_t bs = spec->blocksize;

  memset (&sw, 0, sizeof sw);
  sw.cipher = cipher;
  err = packet_writer_init (&sw.packet, PKT_ENCRYPTED_MDC, sink, sink_ctx);
  if (!err)
    err = mdc_open (&sw.mdc, sw.cipher);
  if (!err)
    {
      /* The version byte is not encrypted.  */
      prefix[0] = 1;
      err = packet_writer_sink (&sw.packet, prefix, 1);
    }
  gcry_randomize (prefix, bs, GCRY_STRONG_RANDOM);
  prefix[bs] = prefix[bs - 2];
  prefix[bs + 1] = prefix[bs - 1];
  if (!err)
    err = seipd_sink (&sw, prefix, bs + 2);
  if (!err)
    err = encrypt_write_plaintext (in, 0, seipd_sink, &sw);
  if (!err)
    err = seipd_finish (&sw);
  packet_writer_release (&sw.packet);
  mdc_close (sw.mdc);
  return err;
}


/* Encrypt IN into the output sink: the SKESK, then the encrypted data
 * packet, SEIPD v1 with CIPHER or AEAD with the session key, which is
 * wiped as soon as the AEAD writer is keyed.  */
static gpg_error_t
encrypt_stream (encrypt_input_t *in, sink_fn_t sink, void *sink_ctx,
                const sf_cipher_spec_t *spec, skesk_out_t *skesk,
                sf_cipher_hd_t cipher)
{
  gpg_error_t err;
  aead_writer_t *aw = NULL;

  status_begin_encryption (spec->openpgp_id, opt.aead_algo);
  err = sink (sink_ctx, skesk->packet, skesk->len);
  if (err || !opt.aead_algo)
    return err ? err : encrypt_seipd1 (in, sink, sink_ctx, spec, cipher);
  err = aead_writer_open (&aw, opt.aead_skesk_version == 5
                          ? PKT_AEAD_ENCRYPTED : PKT_ENCRYPTED_MDC,
                          spec, opt.aead_algo, opt.chunk_octet, skesk->key,
                          sink, sink_ctx);
  skesk_out_release (skesk);
  if (!err)
    err = encrypt_write_plaintext (in, 0, aead_writer_sink, aw);
  if (!err)
    err = aead_writer_finish (aw);
  aead_writer_close (aw);
  return err;
}


/* What the body of -c's output is made of.  */
struct encrypt_body
{
  encrypt_input_t *in;
  const sf_cipher_spec_t *spec;
  skesk_out_t *skesk;
  sf_cipher_hd_t cipher;
};


/* The body of the output: the encrypted message of the encrypt_body
 * CTX.  */
static gpg_error_t
write_encrypted (void *ctx, sink_fn_t sink, void *sink_ctx)
{
  struct encrypt_body *body = ctx;
  gpg_error_t err;

  err = encrypt_stream (body->in, sink, sink_ctx, body->spec, body->skesk,
                        body->cipher);
  /* Every byte is encrypted: the key schedule goes before the output
   * is closed, not at exit.  */
  sf_cipher_close (body->cipher);
  body->cipher = NULL;
  return err;
}


gpg_error_t
encrypt_file (const char *infile)
{
  gpg_error_t err;
  s2k_t s2k;
  skesk_out_t skesk;
  encrypt_input_t in;
  struct encrypt_body body = { &in, NULL, &skesk, NULL };
  char *outname = NULL;

  memset (&skesk, 0, sizeof skesk);
  err = encrypt_open_input (&in, infile);
  if (err)
    return err;
  err = outfile_name (infile, opt.armor ? ".asc" : ".gpg", &outname);
  if (!err)
    err = find_cipher (&body.spec);
  if (!err)
    err = check_aead (body.spec);
  if (!err)
    err = compliance_check_encryption (body.spec);
  if (!err)
    {
      extension_note_use (body.spec);
      extension_warn_private_id (body.spec);
      err = make_s2k (&s2k);
    }
  if (!err)
    err = outfile_check (outname);
  if (!err)
    err = make_session_key (&skesk, body.spec, &s2k);
  if (!err && !opt.aead_algo)
    {
      /* The cipher's key schedule is all that is needed from here.  */
      err = open_cipher (&body.cipher, body.spec, skesk.key);
      skesk_out_release (&skesk);
    }
  if (!err)
    {
      log_encryption (body.spec, &s2k);
      err = write_output (outname, opt.armor ? ARMOR_MESSAGE : ARMOR_NONE,
                          write_encrypted, &body);
    }
  if (!err)
    status_end_encryption ();
  sf_cipher_close (body.cipher);
  skesk_out_release (&skesk);
  free (outname);
  encrypt_close_input (&in);
  return err;
}
