/* deflate-check.c - the structure of a raw deflate stream, checked as
 * zlib's inflate checks it (RFC 1951; see deflate-check.h for why)
 *
 * The bytes are kept until a whole item can be read from them: a
 * block header (LOOKAHEAD_MAX bytes hold the largest) or one symbol
 * with its distance (SYMBOL_MAX), so that the walk stops only between
 * items and never has to resume inside one.  The messages are zlib's.
 */
#include <config.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "packet.h"
#include "deflate-check.h"

/* More than the largest block header: 17 + 19 * 3 bits, then 316
 * code lengths of at most 7 + 7 bits each, about 563 bytes.  */
#define LOOKAHEAD_MAX 1024
/* More than the largest symbol: 15 + 5 bits of length, 15 + 13 of
 * distance.  */
#define SYMBOL_MAX 16

/* Codes up to this length are decoded with one table look-up.  */
#define FAST_BITS 12

#define MAX_CODE_BITS 15
#define N_LITLEN 288
#define N_DIST 32

/* A Huffman code: FAST maps the next FAST_BITS bits to an entry made
 * by fast_entry, or to 0 for a longer or invalid code, which is then
 * decoded bit by bit from COUNT and SYMBOL (canonical order).  */
struct huffman
{
  uint32_t fast[1 << FAST_BITS];
  uint16_t count[MAX_CODE_BITS + 1];
  uint16_t symbol[N_LITLEN];
};

/* What zlib's inflate_table checks differs by the kind of code.  */
enum code_kind { CODE_LENGTHS, CODE_LITLEN, CODE_DIST };

enum check_state
  {
    CHECK_HEADER,               /* Before a block header.  */
    CHECK_STORED,               /* In the bytes of a stored block.  */
    CHECK_CODES,                /* In the symbols of a Huffman block.  */
    CHECK_STOPPED               /* The stream ended, or the input.  */
  };

struct deflate_check
{
  enum check_state state;
  int failed;                   /* Stopped before the end of the stream.  */
  int final;                    /* The current block is the last.  */
  uint32_t stored_left;
  uint64_t out_total;           /* What the stream has produced so far.  */
  uint64_t bits;                /* Bits read from BUF, not yet used.  */
  int nbits;
  size_t pos, len;              /* Read position and end in BUF.  */
  struct huffman litlen, dist;
  unsigned char buf[LOOKAHEAD_MAX + CHUNK_SIZE];
};

/* RFC 1951 3.2.5: base and extra bits of length codes 257..285 and of
 * distance codes 0..29.  */
static const uint16_t length_base[29] =
  { 3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51,
    59, 67, 83, 99, 115, 131, 163, 195, 227, 258 };
static const uint8_t length_extra[29] =
  { 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4,
    4, 5, 5, 5, 5, 0 };
static const uint16_t dist_base[30] =
  { 1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385,
    513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385,
    24577 };
static const uint8_t dist_extra[30] =
  { 0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10,
    10, 11, 11, 12, 12, 13, 13 };
/* RFC 1951 3.2.7: the order of the code length code's lengths.  */
static const uint8_t length_order[19] =
  { 16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15 };


/* A FAST entry: the code length in bits 0-3, the symbol in 4-12, and
 * for lengths and distances the number of extra bits in 13-16 and the
 * base in 17-31.  */
#define ENTRY_LEN(e) ((e) & 15)
#define ENTRY_SYM(e) ((e) >> 4 & 511)
#define ENTRY_EXTRA(e) ((e) >> 13 & 15)
#define ENTRY_BASE(e) ((e) >> 17)

static uint32_t
fast_entry (int sym, int len, enum code_kind kind)
{
  uint32_t e = sym << 4 | len;

  if (kind == CODE_LITLEN && sym > 256 && sym < 286)
    e |= (uint32_t)length_extra[sym - 257] << 13
         | (uint32_t)length_base[sym - 257] << 17;
  else if (kind == CODE_DIST && sym < 30)
    e |= (uint32_t)dist_extra[sym] << 13 | (uint32_t)dist_base[sym] << 17;
  return e;
}


deflate_check_t *
deflate_check_new (void)
{
  return calloc (1, sizeof (deflate_check_t));
}


void
deflate_check_release (deflate_check_t *dc)
{
  free (dc);
}


static void
refill (deflate_check_t *dc)
{
  while (dc->nbits <= 56 && dc->pos < dc->len)
    {
      dc->bits |= (uint64_t)dc->buf[dc->pos++] << dc->nbits;
      dc->nbits += 8;
    }
}


/* The bytes left to read, those in BITS included.  */
static size_t
bytes_left (const deflate_check_t *dc)
{
  return dc->len - dc->pos + dc->nbits / 8;
}


/* Read N bits (at most 16) into *V; false when the input ran out.  */
static int
get_bits (deflate_check_t *dc, int n, unsigned int *v)
{
  if (dc->nbits < n)
    refill (dc);
  if (dc->nbits < n)
    return 0;
  *v = dc->bits & ((1u << n) - 1);
  dc->bits >>= n;
  dc->nbits -= n;
  return 1;
}


/* Give the whole bytes of BITS back to BUF, so that the bits left
 * are those of a byte partly read.  */
static void
unread_bytes (deflate_check_t *dc)
{
  int k = dc->nbits / 8;

  dc->pos -= k;
  dc->nbits -= 8 * k;
  dc->bits &= ((uint64_t)1 << dc->nbits) - 1;
}


/* Build H from the N code lengths LENS as zlib's inflate_table would,
 * or say why zlib refuses them: over-subscribed, or incomplete but
 * for a distance or literal/length code of a single one-bit code.  */
static int
build_code (struct huffman *h, const uint8_t *lens, int n,
            enum code_kind kind)
{
  uint16_t offs[MAX_CODE_BITS + 1], next[MAX_CODE_BITS + 1];
  int len, sym, left, max = 0;
  unsigned int code, rev, k, i;

  memset (h->count, 0, sizeof h->count);
  for (sym = 0; sym < n; sym++)
    h->count[lens[sym]]++;
  h->count[0] = 0;
  for (len = 1; len <= MAX_CODE_BITS; len++)
    if (h->count[len])
      max = len;
  left = 1;
  for (len = 1; len <= MAX_CODE_BITS; len++)
    {
      left = 2 * left - h->count[len];
      if (left < 0)
        return 0;
    }
  if (max == 0 ? kind == CODE_LENGTHS
      : left > 0 && (kind == CODE_LENGTHS || max != 1))
    return 0;
  offs[1] = 0;
  code = 0;
  for (len = 1; len <= MAX_CODE_BITS; len++)
    {
      if (len < MAX_CODE_BITS)
        offs[len + 1] = offs[len] + h->count[len];
      code = (code + (len > 1 ? h->count[len - 1] : 0)) << (len > 1);
      next[len] = code;
    }
  memset (h->fast, 0, sizeof h->fast);
  for (sym = 0; sym < n; sym++)
    {
      len = lens[sym];
      if (!len)
        continue;
      h->symbol[offs[len]++] = sym;
      code = next[len]++;
      if (len > FAST_BITS)
        continue;
      for (rev = 0, i = 0; i < (unsigned int)len; i++)
        rev |= (code >> i & 1) << (len - 1 - i);
      for (k = rev; k < 1u << FAST_BITS; k += 1u << len)
        h->fast[k] = fast_entry (sym, len, kind);
    }
  return 1;
}


/* Decode one symbol of H into *SYM: 1, or 0 when the input ran out,
 * or -1 for a code that H does not have.  */
static int
decode (deflate_check_t *dc, const struct huffman *h, int *sym)
{
  unsigned int entry, code = 0, first = 0, index = 0, count;
  int len;

  if (dc->nbits < MAX_CODE_BITS)
    refill (dc);
  entry = h->fast[dc->bits & ((1u << FAST_BITS) - 1)];
  if (entry && (int)ENTRY_LEN (entry) <= dc->nbits)
    {
      dc->bits >>= ENTRY_LEN (entry);
      dc->nbits -= ENTRY_LEN (entry);
      *sym = ENTRY_SYM (entry);
      return 1;
    }
  /* Bit by bit in canonical order (RFC 1951 3.2.2).  */
  for (len = 1; len <= MAX_CODE_BITS; len++)
    {
      if (len > dc->nbits)
        return 0;
      code |= dc->bits >> (len - 1) & 1;
      count = h->count[len];
      if (code - first < count)
        {
          dc->bits >>= len;
          dc->nbits -= len;
          *sym = h->symbol[index + code - first];
          return 1;
        }
      index += count;
      first = (first + count) << 1;
      code <<= 1;
    }
  return -1;
}


/* The fixed codes of RFC 1951 3.2.6, with the symbols zlib refuses
 * when they occur (286, 287, distances 30, 31).  */
static void
build_fixed (deflate_check_t *dc)
{
  uint8_t lens[N_LITLEN];
  int i;

  for (i = 0; i < N_LITLEN; i++)
    lens[i] = i < 144 ? 8 : i < 256 ? 9 : i < 280 ? 7 : 8;
  build_code (&dc->litlen, lens, N_LITLEN, CODE_LITLEN);
  memset (lens, 5, N_DIST);
  build_code (&dc->dist, lens, N_DIST, CODE_DIST);
}


/* The header of a dynamic block (RFC 1951 3.2.7), after its first 3
 * bits: NULL, "" when the input ran out, or why zlib refuses it.  */
static const char *
read_dynamic (deflate_check_t *dc)
{
  uint8_t lens[N_LITLEN + N_DIST];
  unsigned int nlen, ndist, ncode, v, i, n, rep;
  int sym;

  memset (lens, 0, sizeof lens);
  if (!get_bits (dc, 5, &nlen) || !get_bits (dc, 5, &ndist)
      || !get_bits (dc, 4, &ncode))
    return "";
  nlen += 257;
  ndist += 1;
  ncode += 4;
  if (nlen > 286 || ndist > 30)
    return "too many length or distance symbols";
  for (i = 0; i < ncode; i++)
    {
      if (!get_bits (dc, 3, &v))
        return "";
      lens[length_order[i]] = v;
    }
  if (!build_code (&dc->litlen, lens, 19, CODE_LENGTHS))
    return "invalid code lengths set";
  memset (lens, 0, 19);
  for (n = 0; n < nlen + ndist; n += rep)
    {
      int got = decode (dc, &dc->litlen, &sym);

      if (got <= 0)
        return "";
      if (sym < 16)
        {
          lens[n] = sym;
          rep = 1;
          continue;
        }
      if (sym == 16 && !n)
        return "invalid bit length repeat";
      if (!get_bits (dc, sym == 16 ? 2 : sym == 17 ? 3 : 7, &v))
        return "";
      rep = v + (sym == 18 ? 11 : 3);
      if (n + rep > nlen + ndist)
        return "invalid bit length repeat";
      memset (lens + n, sym == 16 ? lens[n - 1] : 0, rep);
    }
  if (!lens[256])
    return "invalid code -- missing end-of-block";
  if (!build_code (&dc->litlen, lens, nlen, CODE_LITLEN))
    return "invalid literal/lengths set";
  if (!build_code (&dc->dist, lens + nlen, ndist, CODE_DIST))
    return "invalid distances set";
  return NULL;
}


/* A block header: NULL, "" when the input ran out, or why zlib
 * refuses it.  */
static const char *
read_header (deflate_check_t *dc)
{
  unsigned int v, len, nlen;

  if (!get_bits (dc, 3, &v))
    return "";
  dc->final = v & 1;
  switch (v >> 1)
    {
    case 0:
      get_bits (dc, dc->nbits % 8, &v);
      if (!get_bits (dc, 16, &len) || !get_bits (dc, 16, &nlen))
        return "";
      if (len != (~nlen & 0xffff))
        return "invalid stored block lengths";
      unread_bytes (dc);
      dc->stored_left = len;
      dc->out_total += len;
      dc->state = CHECK_STORED;
      return NULL;
    case 1:
      build_fixed (dc);
      dc->state = CHECK_CODES;
      return NULL;
    case 2:
      dc->state = CHECK_CODES;
      return read_dynamic (dc);
    default:
      return "invalid block type";
    }
}


/* Eight bytes at P, the first in the lowest bits.  */
static uint64_t
load_le64 (const unsigned char *p)
{
  uint64_t v;

  memcpy (&v, p, 8);
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
  v = __builtin_bswap64 (v);
#endif
  return v;
}


/* Decode a symbol of H whose FAST entry was 0 (a long code, or none)
 * bit by bit, with BITS, NBITS and P handed over to DC and back.  */
static int
decode_slow (deflate_check_t *dc, const struct huffman *h, uint64_t *bits,
             int *nbits, const unsigned char **p, uint32_t *entry)
{
  int sym, got;

  dc->bits = *bits & (((uint64_t)1 << *nbits) - 1);
  dc->nbits = *nbits;
  dc->pos = *p - dc->buf;
  got = decode (dc, h, &sym);
  *bits = dc->bits;
  *nbits = dc->nbits;
  *p = dc->buf + dc->pos;
  if (got > 0)
    *entry = fast_entry (sym, 0, h == &dc->litlen ? CODE_LITLEN : CODE_DIST);
  return got;
}


/* The symbols of a Huffman block while more than SYMBOL_MAX bytes are
 * left, the hot loop: the bits come eight bytes at a time, each
 * iteration has room for a whole length and distance (48 bits), and
 * nothing is written but the count of the output.  NULL, or why zlib
 * refuses the symbols.  */
static const char *
walk_symbols (deflate_check_t *dc)
{
  const unsigned char *p = dc->buf + dc->pos;
  const unsigned char *limit = dc->buf + dc->len - SYMBOL_MAX;
  const uint32_t *lit = dc->litlen.fast, *dist = dc->dist.fast;
  uint64_t bits = dc->bits, out = dc->out_total;
  int nbits = dc->nbits;
  const char *why = NULL;
  unsigned int length, distance;
  uint32_t e;

  while (p < limit)
    {
      bits |= load_le64 (p) << nbits;
      p += (63 - nbits) >> 3;
      nbits |= 56;
      e = lit[bits & ((1u << FAST_BITS) - 1)];
      if (!e && decode_slow (dc, &dc->litlen, &bits, &nbits, &p, &e) <= 0)
        {
          why = "invalid literal/length code";
          break;
        }
      bits >>= ENTRY_LEN (e);
      nbits -= ENTRY_LEN (e);
      if (ENTRY_SYM (e) < 256)
        {
          out++;
          continue;
        }
      if (ENTRY_SYM (e) == 256)
        {
          dc->state = dc->final ? CHECK_STOPPED : CHECK_HEADER;
          break;
        }
      if (ENTRY_SYM (e) > 285)
        {
          why = "invalid literal/length code";
          break;
        }
      length = ENTRY_BASE (e) + (bits & ((1u << ENTRY_EXTRA (e)) - 1));
      bits >>= ENTRY_EXTRA (e);
      nbits -= ENTRY_EXTRA (e);
      e = dist[bits & ((1u << FAST_BITS) - 1)];
      if ((!e && decode_slow (dc, &dc->dist, &bits, &nbits, &p, &e) <= 0)
          || ENTRY_SYM (e) > 29)
        {
          why = "invalid distance code";
          break;
        }
      bits >>= ENTRY_LEN (e);
      nbits -= ENTRY_LEN (e);
      distance = ENTRY_BASE (e) + (bits & ((1u << ENTRY_EXTRA (e)) - 1));
      bits >>= ENTRY_EXTRA (e);
      nbits -= ENTRY_EXTRA (e);
      if (distance > out)
        {
          why = "invalid distance too far back";
          break;
        }
      out += length;
    }
  /* The bits beyond NBITS are those of the byte at P, read again.  */
  dc->bits = bits & (((uint64_t)1 << nbits) - 1);
  dc->nbits = nbits;
  dc->pos = p - dc->buf;
  dc->out_total = out;
  return why;
}


/* The symbols walk_symbols leaves: while SYMBOL_MAX bytes are left,
 * or at the end of the input up to its end, one bit read at a time
 * where needed: NULL, "" when the input ran out, or why zlib refuses
 * them.  At the end of the block, the state moves on.  */
static const char *
read_symbols (deflate_check_t *dc, int eof)
{
  unsigned int v, length;
  int sym, got;

  while (eof || bytes_left (dc) >= SYMBOL_MAX)
    {
      got = decode (dc, &dc->litlen, &sym);
      if (!got)
        return "";
      if (got < 0)
        return "invalid literal/length code";
      if (sym < 256)
        {
          dc->out_total++;
          continue;
        }
      if (sym == 256)
        {
          dc->state = dc->final ? CHECK_STOPPED : CHECK_HEADER;
          return NULL;
        }
      if (sym > 285)
        return "invalid literal/length code";
      sym -= 257;
      if (!get_bits (dc, length_extra[sym], &v))
        return "";
      length = length_base[sym] + v;
      got = decode (dc, &dc->dist, &sym);
      if (!got)
        return "";
      if (got < 0 || sym > 29)
        return "invalid distance code";
      if (!get_bits (dc, dist_extra[sym], &v))
        return "";
      if (dist_base[sym] + v > dc->out_total)
        return "invalid distance too far back";
      dc->out_total += length;
    }
  return NULL;
}


const char *
deflate_check_feed (deflate_check_t *dc, const unsigned char *data,
                    size_t len, int eof)
{
  const char *why = NULL;
  size_t n;

  if (dc->state == CHECK_STOPPED)
    return NULL;
  memmove (dc->buf, dc->buf + dc->pos, dc->len - dc->pos);
  dc->len -= dc->pos;
  dc->pos = 0;
  if (len)
    memcpy (dc->buf + dc->len, data, len);
  dc->len += len;
  while (!why && dc->state != CHECK_STOPPED)
    {
      if (dc->state == CHECK_HEADER)
        {
          if (!eof && bytes_left (dc) < LOOKAHEAD_MAX)
            break;
          why = read_header (dc);
        }
      else if (dc->state == CHECK_STORED)
        {
          n = dc->len - dc->pos;
          if (n > dc->stored_left)
            n = dc->stored_left;
          dc->pos += n;
          dc->stored_left -= n;
          if (dc->stored_left)
            break;
          dc->state = dc->final ? CHECK_STOPPED : CHECK_HEADER;
        }
      else
        {
          why = walk_symbols (dc);
          if (!why && dc->state == CHECK_CODES)
            why = read_symbols (dc, eof);
          if (!why && dc->state == CHECK_CODES)
            break;
        }
    }
  if (why)
    {
      dc->state = CHECK_STOPPED;
      dc->failed = 1;
      /* Running out of input is the inflater's to report.  */
      return *why ? why : NULL;
    }
  unread_bytes (dc);
  return NULL;
}


int
deflate_check_ended (const deflate_check_t *dc, size_t *r_after)
{
  if (dc->state != CHECK_STOPPED || dc->failed)
    return 0;
  /* unread_bytes left in BITS only the bits of the last byte.  */
  *r_after = dc->len - dc->pos;
  return 1;
}
