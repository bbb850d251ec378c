/* sfenc.h - declarations shared by the parts of the sfenc program
 *
 * sfenc reads and writes RFC 4880 messages protected by a passphrase
 * (SKESK v4, SEIPD v1 with MDC, optional compressed packet, literal
 * packet), as gpg -c writes them, and with --aead-algo RFC 9580's
 * (SKESK v6, SEIPD v2; LibrePGP's too).  The program is built as a chain
 * of streaming stages: sources that are pulled from when reading and
 * sinks that are pushed into when writing, each with a buffer of
 * constant size, so memory never depends on the size of the input.
 */
#ifndef SFENC_H
#define SFENC_H

#include <stddef.h>
#include <stdint.h>
#include <gpg-error.h>

#include "libsfcipher.h"

/* OpenPGP packet tags (RFC 4880 4.3, RFC 9580 5).  */
enum
  {
    PKT_PUBKEY_ENC = 1,
    PKT_SYMKEY_ENC = 3,
    PKT_COMPRESSED = 8,
    PKT_ENCRYPTED = 9,
    PKT_MARKER = 10,
    PKT_PLAINTEXT = 11,
    PKT_ENCRYPTED_MDC = 18,
    PKT_MDC = 19,
    PKT_AEAD_ENCRYPTED = 20,
    PKT_PADDING = 21
  };

/* Compression algorithm ids (RFC 4880 9.3).  */
enum
  {
    COMPRESS_NONE = 0,
    COMPRESS_ZIP = 1,
    COMPRESS_ZLIB = 2,
    COMPRESS_BZIP2 = 3
  };

/* Size of the partial body chunks sfenc writes (a power of two, at
 * least 512 as RFC 4880 4.2.2.4 requires) and of the buffers of the
 * reading chain.  Large enough to make system calls and per-call
 * overhead negligible, small enough to stay in the L2 cache.  */
#define CHUNK_LOG2 16
#define CHUNK_SIZE ((size_t)1 << CHUNK_LOG2)

/* Bytes hashed and en/decrypted together, so that the second pass
 * over the data finds it in the L1 cache.  */
#define CRYPT_SLICE 16384

/* The 22 bytes of the MDC packet: tag 19, length 20, SHA-1 digest.  */
#define MDC_PACKET_LEN 22

/* Largest block size of any OpenPGP cipher.  */
#define MAX_BLOCKSIZE SF_MAX_BLOCKSIZE


/*-- sfenc.c --*/

/* The options of one run, filled in by the command line parser.  */
struct options
{
  int verbose;
  int quiet;
  int batch;
  int armor;
  int yes;
  int ignore_mdc_error;
  int with_colons;
  int no_auto_modules;
  const char *cipher_algo;
  const char *cipher_impl;
  const char *digest_algo;
  const char *s2k_digest_algo;
  int s2k_mode;
  unsigned long s2k_count;
  int argon2_t, argon2_p, argon2_m;     /* --s2k-argon2-*.  */
  int aead_algo;                /* --aead-algo: 0 writes SEIPD v1.  */
  int aead_skesk_version;       /* --aead-format: 6 RFC 9580, 5 LibrePGP.  */
  int chunk_octet;              /* --chunk-size minus 6.  */
  int compress_level;           /* -1 when not given.  */
  int bzip2_compress_level;     /* -1 when not given.  */
  int compress_algo;
  int textmode;                 /* -t: literal data as text.  */
  const char *set_filename;     /* The name in the literal packet.  */
  const char *s2k_cipher_algo;
  const char *output;
  const char *passphrase;
  int passphrase_fd;
  const char *passphrase_file;
  int pinentry_no_ask;          /* --pinentry-mode cancel or error.  */
};

extern struct options opt;

/* Print a verbose (-v) message.  */
void log_info (const char *fmt, ...) __attribute__ ((format (printf, 1, 2)));

/* Print a warning unless -q.  */
void log_warning (const char *fmt, ...)
  __attribute__ ((format (printf, 1, 2)));


/*-- error.c --*/

/* Record the error message "WHAT: WHY" of the first failure of a run
 * and return ERR so a caller can write "return fail (err, ...)".
 * WHY is formatted from FMT, or is gpg_strerror (ERR) when FMT is
 * NULL.  Later calls do not replace the first message, so the stage
 * that saw the problem names it, not the ones that pass it along.  */
gpg_error_t fail (gpg_error_t err, const char *what, const char *fmt, ...)
  __attribute__ ((format (printf, 3, 4)));

/* Room for a recorded message.  */
#define FAIL_MESSAGE_MAX 512

/* Move the recorded message to SAVE (SAVELEN bytes) and forget it, to
 * see whether further work records another one.  */
void fail_push (char *save, size_t savelen);

/* Restore a message moved away by fail_push.  */
void fail_pop (const char *save);

/* Print the recorded message, or "WHAT: gpg_strerror (ERR)" when
 * none was recorded, as one line on stderr.  */
void fail_print (gpg_error_t err, const char *what);


/*-- iobuf.c --*/

/* A source fills BUF with at most SIZE bytes and stores the number at
 * NREAD; 0 bytes means the end of the data.  */
typedef gpg_error_t (*source_fn_t) (void *ctx, unsigned char *buf,
                                    size_t size, size_t *nread);

/* A sink consumes LEN bytes.  */
typedef gpg_error_t (*sink_fn_t) (void *ctx, const unsigned char *buf,
                                  size_t len);

/* A buffered reader over a source, as stdio is over read(2): small
 * reads are served from its buffer, large ones go straight into the
 * caller's memory.  */
typedef struct reader
{
  source_fn_t source;
  void *ctx;
  unsigned char *buf;
  size_t size;
  size_t pos;
  size_t len;
  int eof;
} reader_t;

gpg_error_t reader_init (reader_t *r, source_fn_t source, void *ctx);
void reader_release (reader_t *r);
/* Read up to SIZE bytes; *NREAD is 0 only at the end of the data.  */
gpg_error_t reader_read (reader_t *r, unsigned char *buf, size_t size,
                         size_t *nread);
/* Read exactly SIZE bytes; fewer is GPG_ERR_TRUNCATED.  */
gpg_error_t reader_read_exact (reader_t *r, unsigned char *buf,
                               size_t size);
/* Store the next byte at *BYTE without consuming it; -1 at the end.  */
gpg_error_t reader_peek (reader_t *r, int *byte);

/* The reader as a source, for stacking.  */
gpg_error_t reader_source (void *ctx, unsigned char *buf, size_t size,
                           size_t *nread);

/* A file descriptor as a source or as a sink.  NAME is used in error
 * messages.  */
typedef struct fd_stream
{
  int fd;
  const char *name;
} fd_stream_t;

gpg_error_t fd_source (void *ctx, unsigned char *buf, size_t size,
                       size_t *nread);
gpg_error_t fd_sink (void *ctx, const unsigned char *buf, size_t len);

/* The body of one packet, definite, partial or up to the end of the
 * data (old format, indeterminate length), read as a source.  */
typedef struct packet_body
{
  reader_t *in;
  uint64_t remaining;
  int partial;          /* More chunks follow the current one.  */
  int to_eof;
} packet_body_t;

/* A parsed packet header.  */
typedef struct packet_header
{
  int tag;
  int new_format;
  uint64_t length;      /* Of the definite body or of the first chunk.  */
  int partial;
  int to_eof;
} packet_header_t;

/* Read a packet header from R.  *HDR->TAG is 0 at the end of the data.
 * WHAT names the data in error messages.  */
gpg_error_t packet_read_header (reader_t *r, packet_header_t *hdr,
                                const char *what);
void packet_body_init (packet_body_t *body, reader_t *in,
                       const packet_header_t *hdr);
gpg_error_t packet_body_source (void *ctx, unsigned char *buf, size_t size,
                                size_t *nread);
/* Read exactly SIZE bytes of BODY; a shorter body is "WHAT packet
 * too short".  */
gpg_error_t packet_body_read_exact (packet_body_t *body, unsigned char *buf,
                                    size_t size, const char *what);
/* Read and drop the rest of BODY.  */
gpg_error_t packet_body_skip (packet_body_t *body);

/* A packet writer: frames what is written into it as the body of one
 * new-format packet with partial body lengths, passing whole chunks
 * to the next sink, and writes the last part with a definite length
 * when finished.  Its buffer is exposed so a producer can fill it in
 * place instead of copying.  */
typedef struct packet_writer
{
  sink_fn_t sink;
  void *sink_ctx;
  unsigned char *mem;
  unsigned char *data;
  size_t len;
  int tag;
  int started;
} packet_writer_t;

gpg_error_t packet_writer_init (packet_writer_t *w, int tag,
                                sink_fn_t sink, void *sink_ctx);
void packet_writer_release (packet_writer_t *w);
/* The free space of the buffer: *R_PTR, returned size at least 1.  */
size_t packet_writer_space (packet_writer_t *w, unsigned char **r_ptr);
/* Account for N bytes stored in the space, passing a full chunk on.  */
gpg_error_t packet_writer_commit (packet_writer_t *w, size_t n);
gpg_error_t packet_writer_sink (void *ctx, const unsigned char *buf,
                                size_t len);
gpg_error_t packet_writer_finish (packet_writer_t *w);

/* Append to BUF the header of a packet with tag TAG and the definite
 * LENGTH in new format; returns the number of bytes (at most 6).  */
size_t packet_header_put (unsigned char *buf, int tag, uint64_t length);


/*-- armor.c --*/

typedef struct armor_writer armor_writer_t;

gpg_error_t armor_writer_new (armor_writer_t **r_aw, sink_fn_t sink,
                              void *sink_ctx);
gpg_error_t armor_writer_sink (void *ctx, const unsigned char *buf,
                               size_t len);
gpg_error_t armor_writer_finish (armor_writer_t *aw);
void armor_writer_release (armor_writer_t *aw);

typedef struct armor_reader armor_reader_t;

/* Decode the armored message read from IN; the caller has checked
 * that it does not start with a packet tag.  */
gpg_error_t armor_reader_new (armor_reader_t **r_ar, reader_t *in);
gpg_error_t armor_reader_source (void *ctx, unsigned char *buf, size_t size,
                                 size_t *nread);
void armor_reader_release (armor_reader_t *ar);


/*-- s2k.c --*/

/* S2K specifier types (RFC 9580 3.7.1).  */
enum
  {
    S2K_SIMPLE = 0,
    S2K_SALTED = 1,
    S2K_ITERSALTED = 3,
    S2K_ARGON2 = 4
  };

typedef struct s2k
{
  int mode;                     /* One of the S2K types above.  */
  int hash_algo;                /* OpenPGP id = libgcrypt id.  */
  unsigned char salt[16];       /* 8 bytes, 16 for Argon2.  */
  unsigned char count_byte;
  /* Argon2: passes, lanes, memory as the exponent of 2^M KiB.  */
  unsigned char argon2_t, argon2_p, argon2_m;
} s2k_t;

/* Map a hash name (or OpenPGP id in decimal) to its id; 0 if unknown.  */
int digest_algo_from_name (const char *name);
const char *digest_algo_name (int algo);
/* True for the hashes the S2K may use here.  */
int digest_algo_supported (int algo);
unsigned char s2k_encode_count (unsigned long count);
unsigned long s2k_decode_count (unsigned char c);
/* Derive KEYLEN bytes of KEY from the passphrase.  */
gpg_error_t s2k_derive (const s2k_t *s2k, const char *passphrase,
                        unsigned char *key, size_t keylen);


/*-- encrypt.c --*/

gpg_error_t encrypt_file (const char *infile);


/*-- decrypt.c --*/

gpg_error_t decrypt_file (const char *infile);


/*-- extension.c --*/

/* Load the dynamic cipher module FILE (--load-extension).  */
gpg_error_t extension_load (const char *file);
/* Load the modules of the module directory (skipped with
 * --no-auto-modules).  */
gpg_error_t extension_load_auto (void);

#endif /*SFENC_H*/
