/* ocb.c - OCB (RFC 7253) over any 128-bit block cipher
 *
 * Whole blocks go to the spec's OCB entry when it has one (ABI
 * version 3, sfcipher.h): the module then computes the offsets and
 * the checksum beside its rounds, from the L table and the block
 * count kept here.  Otherwise they are processed a chunk at a time so
 * that the cipher sees many independent blocks in one call: the
 * offsets (Offset_i = Offset_(i-1) ^ L_ntz(i)) are XORed in, the chunk
 * goes through the spec's ECB bulk function, and the same offsets,
 * computed again, are XORed out.  The checksum rides along in the
 * pass over the plaintext.  Associated data is hashed the same way,
 * into the running sum.
 *
 * The data of a message may come in several calls, all whole blocks
 * but the last: the partial block P_* is enciphered differently from a
 * whole one, so it can only be the end (aead.h).  Associated data is
 * buffered instead, as it produces no output.
 */
#include <config.h>

#include "aead-internal.h"

/* Blocks of data per bulk cipher call: many times the sixteen VAES
 * keeps in flight, so that the call's own cost is spread thin, and few
 * enough (2 KiB) that the three passes over them stay in L1.  */
#define OCB_CHUNK 128

/* Blocks of associated data per call: they need a buffer, which is
 * wiped after use.  */
#define OCB_AD_CHUNK 32

static int
ocb_taglen_ok (size_t taglen)
{
  return taglen >= 1 && taglen <= AEAD_BLOCK;
}

/* At most 120 bits (RFC 7253 4.2).  */
static int
ocb_noncelen_ok (size_t noncelen)
{
  return noncelen >= 1 && noncelen <= 15;
}

/* Number of trailing zero bits of I, which is not 0.  */
static inline unsigned int
ntz (uint64_t i)
{
  return (unsigned int) __builtin_ctzll (i);
}

static inline void
xor_into (uint64_t r[2], const uint64_t a[2])
{
  r[0] ^= a[0];
  r[1] ^= a[1];
}

/* A block as one 16-byte vector, for the loops over many blocks: the
 * XORs there are then one instruction each where the target has such
 * registers; elsewhere the compiler splits them into words.  (A GCC
 * and Clang extension, as are the builtins.)  */
typedef uint64_t vblock_t __attribute__ ((vector_size (AEAD_BLOCK)));

static inline vblock_t
load_vblock (const void *p)
{
  vblock_t b;

  memcpy (&b, p, sizeof b);
  return b;
}

static inline void
store_vblock (void *p, vblock_t b)
{
  memcpy (p, &b, sizeof b);
}


/* L_* = E (K, 0), L_$ = double (L_*), L_0 = double (L_$), L_i =
 * double (L_(i-1)) (RFC 7253 4.1).  */
static void
ocb_setkey (sf_aead_hd_t hd)
{
  struct ocb_state *s = &hd->u.ocb;
  unsigned char l[AEAD_BLOCK];
  int i;

  s->entry = sf_spec_ocb (hd->spec);
  memset (l, 0, sizeof l);
  aead_encrypt_block (hd, l, l);
  memcpy (s->l_star, l, AEAD_BLOCK);
  aead_double (l, l);
  memcpy (s->l_dollar, l, AEAD_BLOCK);
  for (i = 0; i < 64; i++)
    {
      aead_double (l, l);
      memcpy (s->l[i], l, AEAD_BLOCK);
    }
  sf_wipememory (l, sizeof l);
}


/* Offset_0 from the nonce (RFC 7253 4.2).  */
static void
ocb_setnonce (sf_aead_hd_t hd, const unsigned char *nonce, size_t len)
{
  struct ocb_state *s = &hd->u.ocb;
  unsigned char block[AEAD_BLOCK], stretch[AEAD_BLOCK + 8];
  unsigned int bottom, shift, i;
  size_t skip;

  /* Nonce = num2str (TAGLEN mod 128, 7) || zeros || 1 || N.  */
  memset (block, 0, sizeof block);
  memcpy (block + AEAD_BLOCK - len, nonce, len);
  block[AEAD_BLOCK - 1 - len] |= 1;
  block[0] |= (unsigned char) ((hd->taglen * 8 % 128) << 1);

  /* Ktop from all but the last six bits, which say where the offset
   * starts in Stretch = Ktop || (Ktop[1..64] ^ Ktop[9..72]).  */
  bottom = block[AEAD_BLOCK - 1] & 0x3f;
  block[AEAD_BLOCK - 1] &= 0xc0;
  aead_encrypt_block (hd, stretch, block);
  for (i = 0; i < 8; i++)
    stretch[AEAD_BLOCK + i] = stretch[i] ^ stretch[i + 1];

  /* Offset_0 = Stretch[1+bottom..128+bottom].  */
  skip = bottom / 8;
  shift = bottom % 8;
  for (i = 0; i < AEAD_BLOCK; i++)
    block[i] = (unsigned char) ((stretch[skip + i] << shift)
                                | (stretch[skip + i + 1] >> (8 - shift)));
  memcpy (s->offset, block, AEAD_BLOCK);

  memset (s->checksum, 0, sizeof s->checksum);
  s->nblocks = 0;
  memset (s->ad_offset, 0, sizeof s->ad_offset);
  memset (s->ad_sum, 0, sizeof s->ad_sum);
  s->ad_nblocks = 0;
  s->ad_buflen = 0;
  s->data_ended = 0;
  sf_wipememory (block, sizeof block);
  sf_wipememory (stretch, sizeof stretch);
}


/* Sum ^= E (A_i ^ Offset_i) over NBLOCKS whole blocks of A.  */
static void
ocb_hash_blocks (sf_aead_hd_t hd, const unsigned char *ad, size_t nblocks)
{
  struct ocb_state *s = &hd->u.ocb;
  vblock_t buf[OCB_AD_CHUNK];
  vblock_t offset = load_vblock (s->ad_offset), sum = load_vblock (s->ad_sum);
  size_t n, i;

  for (; nblocks; nblocks -= n, ad += n * AEAD_BLOCK)
    {
      n = nblocks < OCB_AD_CHUNK ? nblocks : OCB_AD_CHUNK;
      for (i = 0; i < n; i++)
        {
          offset ^= load_vblock (s->l[ntz (++s->ad_nblocks)]);
          buf[i] = load_vblock (ad + i * AEAD_BLOCK) ^ offset;
        }
      aead_ecb (hd, 1, (unsigned char *) buf, (unsigned char *) buf, n);
      for (i = 0; i < n; i++)
        sum ^= buf[i];
    }
  store_vblock (s->ad_offset, offset);
  store_vblock (s->ad_sum, sum);
  sf_wipememory (buf, sizeof buf);
  sf_wipememory (&sum, sizeof sum);
}

static void
ocb_authenticate (sf_aead_hd_t hd, const unsigned char *ad, size_t len)
{
  struct ocb_state *s = &hd->u.ocb;
  size_t n;

  if (s->ad_buflen)
    {
      n = AEAD_BLOCK - s->ad_buflen < len ? AEAD_BLOCK - s->ad_buflen : len;
      memcpy (s->ad_buf + s->ad_buflen, ad, n);
      s->ad_buflen += n;
      ad += n;
      len -= n;
      if (s->ad_buflen < AEAD_BLOCK)
        return;
      /* A whole last block of A is hashed like any other.  */
      ocb_hash_blocks (hd, s->ad_buf, 1);
      s->ad_buflen = 0;
    }
  n = len / AEAD_BLOCK;
  if (n)
    ocb_hash_blocks (hd, ad, n);
  memcpy (s->ad_buf, ad + n * AEAD_BLOCK, len % AEAD_BLOCK);
  s->ad_buflen = len % AEAD_BLOCK;
}


/* OUT = IN ^ O for one block; *SUM ^= the output or the input.  */
static inline void
whiten_one (unsigned char *out, const unsigned char *in, vblock_t o,
            vblock_t *sum, int sum_of_output)
{
  vblock_t x = load_vblock (in), y = x ^ o;

  store_vblock (out, y);
  *sum ^= sum_of_output ? y : x;
}

/* OUT_i = IN_i ^ Offset_(COUNT+1+i) for N blocks, *OFFSET advancing
 * from Offset_COUNT; returns the XOR of the outputs or of the inputs.
 * In each four blocks from a multiple of four, ntz is 0, 1, 0 and
 * then something else, so three of the four L come from registers.  */
static inline vblock_t
whiten (const struct ocb_state *s, unsigned char *out, const unsigned char *in,
        size_t n, uint64_t count, vblock_t *offset, int sum_of_output)
{
  vblock_t l0 = load_vblock (s->l[0]), l1 = load_vblock (s->l[1]);
  vblock_t o = *offset, o1, o2, o3, sum = { 0, 0 };
  size_t i = 0;

  for (; i < n && (count + i) % 4; i++)
    {
      o ^= load_vblock (s->l[ntz (count + i + 1)]);
      whiten_one (out + i * AEAD_BLOCK, in + i * AEAD_BLOCK, o, &sum,
                  sum_of_output);
    }
  for (; i + 4 <= n; i += 4)
    {
      o1 = o ^ l0;
      o2 = o1 ^ l1;
      o3 = o2 ^ l0;
      o = o3 ^ load_vblock (s->l[ntz (count + i + 4)]);
      whiten_one (out + i * AEAD_BLOCK, in + i * AEAD_BLOCK, o1, &sum,
                  sum_of_output);
      whiten_one (out + (i + 1) * AEAD_BLOCK, in + (i + 1) * AEAD_BLOCK, o2,
                  &sum, sum_of_output);
      whiten_one (out + (i + 2) * AEAD_BLOCK, in + (i + 2) * AEAD_BLOCK, o3,
                  &sum, sum_of_output);
      whiten_one (out + (i + 3) * AEAD_BLOCK, in + (i + 3) * AEAD_BLOCK, o,
                  &sum, sum_of_output);
    }
  for (; i < n; i++)
    {
      o ^= load_vblock (s->l[ntz (count + i + 1)]);
      whiten_one (out + i * AEAD_BLOCK, in + i * AEAD_BLOCK, o, &sum,
                  sum_of_output);
    }
  *offset = o;
  return sum;
}

/* C_i = Offset_i ^ E (P_i ^ Offset_i) and Checksum ^= P_i over NBLOCKS
 * whole blocks, or the inverse when decrypting, without an OCB entry.
 * The offsets are computed twice, before and after the cipher, rather
 * than kept: that costs less than storing them and wiping them
 * afterwards.  */
static void
ocb_crypt_generic (sf_aead_hd_t hd, int encrypting, unsigned char *out,
                   const unsigned char *in, size_t nblocks)
{
  struct ocb_state *s = &hd->u.ocb;
  vblock_t offset = load_vblock (s->offset), again, in_sum, out_sum;
  vblock_t checksum = load_vblock (s->checksum);
  size_t n;

  for (; nblocks; nblocks -= n, in += n * AEAD_BLOCK, out += n * AEAD_BLOCK)
    {
      n = nblocks < OCB_CHUNK ? nblocks : OCB_CHUNK;
      /* The cipher works on OUT in place; IN may be OUT, and each
       * block is read before it is written.  */
      again = offset;
      in_sum = whiten (s, out, in, n, s->nblocks, &offset, 0);
      aead_ecb (hd, encrypting, out, out, n);
      out_sum = whiten (s, out, out, n, s->nblocks, &again, 1);
      checksum ^= encrypting ? in_sum : out_sum;
      s->nblocks += n;
    }
  store_vblock (s->offset, offset);
  store_vblock (s->checksum, checksum);
  sf_wipememory (&in_sum, sizeof in_sum);
  sf_wipememory (&out_sum, sizeof out_sum);
  sf_wipememory (&checksum, sizeof checksum);
}

/* NBLOCKS whole blocks, by the spec's OCB entry when it has one.  */
static void
ocb_crypt_blocks (sf_aead_hd_t hd, int encrypting, unsigned char *out,
                  const unsigned char *in, size_t nblocks)
{
  struct ocb_state *s = &hd->u.ocb;

  if (!s->entry)
    {
      ocb_crypt_generic (hd, encrypting, out, in, nblocks);
      return;
    }
  (encrypting ? s->entry->enc : s->entry->dec)
    (hd->ctx, out, in, nblocks, s->nblocks, (unsigned char *) s->offset,
     (unsigned char *) s->checksum, (const unsigned char *) s->l);
  s->nblocks += nblocks;
}

/* The partial last block P_* of LEN bytes: Offset_* = Offset_m ^ L_*,
 * C_* = P_* ^ E (Offset_*), Checksum ^= P_* || 1 || zeros.  */
static void
ocb_crypt_last (sf_aead_hd_t hd, int encrypting, unsigned char *out,
                const unsigned char *in, size_t len)
{
  struct ocb_state *s = &hd->u.ocb;
  unsigned char pad[AEAD_BLOCK], plain[AEAD_BLOCK];

  xor_into (s->offset, s->l_star);
  aead_encrypt_block (hd, pad, (unsigned char *) s->offset);
  memset (plain, 0, sizeof plain);
  if (encrypting)
    memcpy (plain, in, len);            /* IN may be OUT.  */
  aead_xor (out, in, pad, len);
  if (!encrypting)
    memcpy (plain, out, len);
  plain[len] = 0x80;
  aead_xor ((unsigned char *) s->checksum, (unsigned char *) s->checksum,
            plain, AEAD_BLOCK);
  sf_wipememory (pad, sizeof pad);
  sf_wipememory (plain, sizeof plain);
}

static gpg_error_t
ocb_crypt (sf_aead_hd_t hd, int encrypting, unsigned char *out,
           const unsigned char *in, size_t len)
{
  struct ocb_state *s = &hd->u.ocb;
  size_t nblocks = len / AEAD_BLOCK;

  if (s->data_ended && len)
    return gpg_error (GPG_ERR_INV_STATE);
  if (nblocks)
    ocb_crypt_blocks (hd, encrypting, out, in, nblocks);
  if (len % AEAD_BLOCK)
    {
      ocb_crypt_last (hd, encrypting, out + nblocks * AEAD_BLOCK,
                      in + nblocks * AEAD_BLOCK, len % AEAD_BLOCK);
      s->data_ended = 1;
    }
  return 0;
}


/* Tag = E (K, Checksum ^ Offset ^ L_$) ^ HASH (K, A), where HASH ends
 * with the padded partial block of A, if any, under Offset_*.  */
static void
ocb_final (sf_aead_hd_t hd, unsigned char tag[AEAD_BLOCK])
{
  struct ocb_state *s = &hd->u.ocb;
  uint64_t x[2];

  if (s->ad_buflen)
    {
      memset (s->ad_buf + s->ad_buflen, 0, AEAD_BLOCK - s->ad_buflen);
      s->ad_buf[s->ad_buflen] = 0x80;
      xor_into (s->ad_offset, s->l_star);
      memcpy (x, s->ad_buf, AEAD_BLOCK);
      xor_into (x, s->ad_offset);
      aead_encrypt_block (hd, (unsigned char *) x, (unsigned char *) x);
      xor_into (s->ad_sum, x);
    }
  memcpy (x, s->checksum, AEAD_BLOCK);
  xor_into (x, s->offset);
  xor_into (x, s->l_dollar);
  aead_encrypt_block (hd, (unsigned char *) x, (unsigned char *) x);
  xor_into (x, s->ad_sum);
  memcpy (tag, x, AEAD_BLOCK);
  sf_wipememory (x, sizeof x);
}

const struct aead_mode_ops sf_aead_ocb_ops =
  {
    .taglen_ok = ocb_taglen_ok,
    .noncelen_ok = ocb_noncelen_ok,
    .setkey = ocb_setkey,
    .setnonce = ocb_setnonce,
    .authenticate = ocb_authenticate,
    .crypt = ocb_crypt,
    .final = ocb_final
  };
