/* packet.h - OpenPGP packet tags, compression ids and chunk sizes
 *
 * sfenc reads and writes RFC 4880 messages protected by a passphrase
 * (SKESK v4, SEIPD v1 with MDC, optional compressed packet, literal
 * packet), as gpg -c writes them, and with --aead-algo RFC 9580's
 * (SKESK v6, SEIPD v2; LibrePGP's too).  These are the numbers and
 * sizes every stage of that chain shares.
 */
#ifndef SFENC_PACKET_H
#define SFENC_PACKET_H

#include <stddef.h>

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

#endif /*SFENC_PACKET_H*/
