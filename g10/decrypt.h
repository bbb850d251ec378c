/* decrypt.h - reading a passphrase-protected message (sfenc -d)
 *
 * Besides decrypt_file, the steps that --list-packets (list-packets.c)
 * takes through a message as well: the input, the encrypted data
 * packet handed to a plaintext handler, and compressed layers.
 */
#ifndef SFENC_DECRYPT_H
#define SFENC_DECRYPT_H

#include <gpg-error.h>

#include "armor.h"
#include "compress.h"
#include "iobuf.h"
#include "seipd2.h"
#include "skesk.h"

/* Decrypt the message in INFILE (stdin when NULL or "-"), binary or
 * armored, into -o, else stdout; with --unwrap the packets inside the
 * encryption instead of the literal data.  */
gpg_error_t decrypt_file (const char *infile);

/* Load the session key given with --override-session-key, or else
 * read the passphrase when it is not asked for on a terminal (with
 * --passphrase-fd 0 it precedes the message on stdin): into *R_PASS,
 * NULL when it is to be asked for later.  */
gpg_error_t decrypt_get_key (char **r_pass);

/* The input: a file or stdin, binary or armored.  */
typedef struct input
{
  fd_stream_t fd;
  reader_t raw;
  armor_reader_t *armor;
  reader_t dearmored;
  reader_t *packets;    /* RAW, or DEARMORED for armored input.  */
} input_t;

/* Open INFILE, or stdin when it is NULL or "-", or the descriptor a
 * special file name names.  */
gpg_error_t input_open (input_t *in, const char *infile);
/* Start reading IN: input that does not start with a packet tag is
 * armored.  */
gpg_error_t input_start (input_t *in);
void input_close (input_t *in);

/* What is done with the plaintext of an encrypted data packet: FN
 * reads the packets inside from PLAIN, which starts HEADER_LEN octets
 * into the packet's body (after the version, the prefix or the AEAD
 * header).  ON_HEADER, if not NULL, is called first, once the packet's
 * header is read and before its key is needed, with the header of an
 * AEAD packet, NULL for the others.  IN_PLACE says that the output
 * cannot be taken back.  */
typedef struct plaintext_handler
{
  gpg_error_t (*fn) (void *ctx, reader_t *plain, size_t header_len);
  gpg_error_t (*on_header) (void *ctx, const aead_header_t *h);
  void *ctx;
  int in_place;
} plaintext_handler_t;

/* Refuse the encrypted data packet HDR when no SKESK (of NSKESK)
 * came before it and no session key was given, or when it has no MDC
 * and --ignore-mdc-error was not given; NPKESK says whether
 * public-key packets came instead.  */
gpg_error_t check_data_packet (const packet_header_t *hdr, int nskesk,
                               int npkesk);

/* Decrypt the encrypted data packet HDR read from IN with SK (NULL
 * with --override-session-key and no SKESK) and the passphrase *PASS
 * (released once the key is known) for HANDLER, between the status
 * lines BEGIN_DECRYPTION and END_DECRYPTION.  */
gpg_error_t decrypt_packet (reader_t *in, const packet_header_t *hdr,
                            const skesk_t *sk, char **pass,
                            const plaintext_handler_t *handler);

/* Read the body of the marker packet HDR from R: "PGP", or refused.  */
gpg_error_t marker_read (reader_t *r, const packet_header_t *hdr);

/* A PKESK packet (RFC 4880 5.1), as gpg checks it.  The encrypted
 * session key is one MPI for RSA, two for Elgamal, an MPI and a key of
 * a length octet's size for ECDH; gpg only skips it for another
 * algorithm.  */
typedef struct pkesk
{
  int version;
  unsigned char keyid[8];
  int algo;
  int nparts;                   /* The parts of the encrypted key, */
  unsigned int bits[2];         /* and their sizes (ECDH's key's as
                                   gpg counts it: its length octet
                                   included).  */
} pkesk_t;

/* Read and check the PKESK packet HDR from IN into PK.  */
gpg_error_t pkesk_read (reader_t *in, const packet_header_t *hdr,
                        pkesk_t *pk);

/* One compressed packet being unpacked.  */
typedef struct compressed_layer
{
  packet_body_t body;
  int algo;
  inflate_source_t *inflater;   /* NULL for algorithm 0, uncompressed.  */
  reader_t contents;            /* The packets inside.  */
} compressed_layer_t;

/* Start unpacking the compressed packet HDR read from IN.  */
gpg_error_t open_layer (compressed_layer_t *layer, reader_t *in,
                        const packet_header_t *hdr);
void close_layer (compressed_layer_t *layer);

#endif /*SFENC_DECRYPT_H*/
