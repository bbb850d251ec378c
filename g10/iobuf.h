/* iobuf.h - sources, sinks, and the packet reader and writer (iobuf.c)
 *
 * sfenc is built as a chain of streaming stages: sources that are
 * pulled from when reading and sinks that are pushed into when
 * writing, each with a buffer of constant size, so memory never
 * depends on the size of the input.  This file has the two function
 * types every stage speaks, the buffered reader, file descriptors as
 * either end of a chain, and the framing of packets.
 */
#ifndef SFENC_IOBUF_H
#define SFENC_IOBUF_H

#include <stddef.h>
#include <stdint.h>
#include <gpg-error.h>

/* A source fills BUF with at most SIZE bytes and stores the number at
 * NREAD; 0 bytes means the end of the data.  */
typedef gpg_error_t (*source_fn_t) (void *ctx, unsigned char *buf,
                                    size_t size, size_t *nread);

/* Read SIZE bytes from SOURCE into BUF, in as many reads as it takes:
 * *NREAD is less only where the source ends.  */
gpg_error_t source_read_full (source_fn_t source, void *ctx,
                              unsigned char *buf, size_t size,
                              size_t *nread);

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
  uint64_t consumed;    /* Bytes read from it so far.  */
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

/* Make the next N bytes (at most CHUNK_SIZE) readable at *R_BYTES
 * without consuming them; *R_LEN is N, or less at the end of the
 * data.  */
gpg_error_t reader_peek_bytes (reader_t *r, size_t n,
                               const unsigned char **r_bytes, size_t *r_len);

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
  int ctb;              /* The first octet.  */
  int hlen;             /* Octets of the header, ctb and length.  */
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

/* How a packet writer frames the packet.  The last three are gpg
 * 2.2's framings, so that --store writes gpg's bytes: its partial
 * lengths (chunks of 8 KiB; at the end, powers of two down to 512,
 * then the rest with a definite length), an old-format header with
 * the length given beforehand, and an old-format header of
 * indeterminate length (the packet runs to the end of the data).
 * FRAME_BARE passes the body on without a header (--no-literal).  */
enum packet_framing
  {
    FRAME_PARTIAL,              /* New format, chunks of CHUNK_SIZE.  */
    FRAME_GPG_PARTIAL,
    FRAME_OLD_LENGTH,
    FRAME_OLD_TO_END,
    FRAME_BARE                  /* No header: the body alone.  */
  };

/* A packet writer: frames what is written into it as the body of one
 * packet, by default new-format with partial body lengths, passing
 * whole chunks to the next sink, and writes the last part with a
 * definite length when finished.  Its buffer is exposed so a producer
 * can fill it in place instead of copying.  */
typedef struct packet_writer
{
  sink_fn_t sink;
  void *sink_ctx;
  unsigned char *mem;
  unsigned char *data;
  size_t len;
  int tag;
  int started;
  enum packet_framing framing;
  size_t chunk;                 /* Bytes passed on at a time.  */
  uint64_t length;              /* FRAME_OLD_LENGTH's length.  */
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
/* Frame W's packet as FRAMING says, before anything is written into
 * it; LENGTH is the length of FRAME_OLD_LENGTH, which the writer
 * trusts: the producer checks what it wrote.  */
void packet_writer_set_framing (packet_writer_t *w,
                                enum packet_framing framing,
                                uint64_t length);

/* Append to BUF the header of a packet with tag TAG and the definite
 * LENGTH in new format; returns the number of bytes (at most 6).  */
size_t packet_header_put (unsigned char *buf, int tag, uint64_t length);

#endif /*SFENC_IOBUF_H*/
