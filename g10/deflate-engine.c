/* deflate-engine.c - one block of a parallel deflate stream, through
 * zlib or ISA-L's igzip
 *
 * Both libraries are used the same way: reset, preset the history
 * with the dictionary, compress the whole block in one call into a
 * buffer that always has room, then a sync flush or the end of the
 * stream.  Nothing is carried from one block to the next, so an
 * engine can take any block of any stream next.
 */
#include <config.h>

#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#ifdef HAVE_ISAL
# include <isa-l/igzip_lib.h>
#endif

#include "deflate-engine.h"

/* zlib's default, as gpg and deflateInit use.  */
#define ZLIB_MEM_LEVEL 8

#ifdef HAVE_ISAL
/* Levels up to this one go to igzip, each to igzip's level of the
 * same number (see deflate-engine.h for why).  */
# define IGZIP_LEVEL_MAX ISAL_DEF_MAX_LEVEL

/* igzip's suggested working memory for each of its levels.  */
static const size_t igzip_level_buf_size[] =
  {
    ISAL_DEF_LVL0_DEFAULT, ISAL_DEF_LVL1_DEFAULT,
    ISAL_DEF_LVL2_DEFAULT, ISAL_DEF_LVL3_DEFAULT
  };
#else
# define IGZIP_LEVEL_MAX 0
#endif

struct deflate_engine
{
  int level;
  int window_bits;
  z_stream zs;                  /* For zlib levels.  */
#ifdef HAVE_ISAL
  struct isal_zstream *is;      /* For igzip levels.  */
  unsigned char *level_buf;
#endif
};


static int
uses_igzip (int level)
{
  return level <= IGZIP_LEVEL_MAX;
}


const char *
deflate_engine_library (int level)
{
  return uses_igzip (level) ? "igzip" : "zlib";
}


const char *
deflate_engine_isal_version (void)
{
#ifdef HAVE_ISAL
  return ISAL_VERSION;
#else
  return NULL;
#endif
}


gpg_error_t
deflate_engine_new (deflate_engine_t **r_engine, int level, int window_bits)
{
  deflate_engine_t *e;

  *r_engine = NULL;
  e = calloc (1, sizeof *e);
  if (!e)
    return gpg_error_from_syserror ();
  e->level = level;
  e->window_bits = window_bits;
#ifdef HAVE_ISAL
  if (uses_igzip (level))
    {
      e->is = malloc (sizeof *e->is);
      e->level_buf = malloc (igzip_level_buf_size[level]);
      if (!e->is || !e->level_buf)
        {
          gpg_error_t err = gpg_error_from_syserror ();

          deflate_engine_release (e);
          return err;
        }
      *r_engine = e;
      return 0;
    }
#endif
  /* Negative window bits: raw deflate, the framing is the caller's.  */
  if (deflateInit2 (&e->zs, level, Z_DEFLATED, -window_bits, ZLIB_MEM_LEVEL,
                    Z_DEFAULT_STRATEGY) != Z_OK)
    {
      free (e);
      return gpg_error (GPG_ERR_ENOMEM);
    }
  *r_engine = e;
  return 0;
}


#ifdef HAVE_ISAL
static gpg_error_t
run_igzip (deflate_engine_t *e, const unsigned char *dict, size_t dictlen,
           const unsigned char *in, size_t len, int last,
           unsigned char *out, size_t *r_outlen)
{
  struct isal_zstream *is = e->is;

  isal_deflate_init (is);
  is->level = e->level;
  is->level_buf = e->level_buf;
  is->level_buf_size = igzip_level_buf_size[e->level];
  is->hist_bits = e->window_bits;
  is->gzip_flag = IGZIP_DEFLATE;
  if (dictlen && isal_deflate_set_dict (is, (unsigned char *)dict, dictlen))
    return gpg_error (GPG_ERR_COMPR_ALGO);
  is->next_in = (unsigned char *)in;
  is->avail_in = len;
  is->next_out = out;
  is->avail_out = DEFLATE_OUT_MAX;
  is->end_of_stream = last;
  is->flush = last ? NO_FLUSH : SYNC_FLUSH;
  if (isal_deflate (is) != COMP_OK || is->avail_in
      || is->internal_state.state != (last ? ZSTATE_END : ZSTATE_NEW_HDR))
    return gpg_error (GPG_ERR_COMPR_ALGO);
  *r_outlen = DEFLATE_OUT_MAX - is->avail_out;
  return 0;
}
#endif


static gpg_error_t
run_zlib (deflate_engine_t *e, const unsigned char *dict, size_t dictlen,
          const unsigned char *in, size_t len, int last,
          unsigned char *out, size_t *r_outlen)
{
  z_stream *zs = &e->zs;
  int zrc;

  if (deflateReset (zs) != Z_OK
      || (dictlen && deflateSetDictionary (zs, dict, dictlen) != Z_OK))
    return gpg_error (GPG_ERR_COMPR_ALGO);
  zs->next_in = (unsigned char *)in;
  zs->avail_in = len;
  zs->next_out = out;
  zs->avail_out = DEFLATE_OUT_MAX;
  zrc = deflate (zs, last ? Z_FINISH : Z_SYNC_FLUSH);
  /* A sync flush is complete when deflate left room in the output.  */
  if (last ? zrc != Z_STREAM_END
      : zrc != Z_OK || zs->avail_in || !zs->avail_out)
    return gpg_error (GPG_ERR_COMPR_ALGO);
  *r_outlen = DEFLATE_OUT_MAX - zs->avail_out;
  return 0;
}


gpg_error_t
deflate_engine_run (deflate_engine_t *engine, const unsigned char *dict,
                    size_t dictlen, const unsigned char *in, size_t len,
                    int last, unsigned char *out, size_t *r_outlen)
{
#ifdef HAVE_ISAL
  if (uses_igzip (engine->level))
    return run_igzip (engine, dict, dictlen, in, len, last, out, r_outlen);
#endif
  return run_zlib (engine, dict, dictlen, in, len, last, out, r_outlen);
}


void
deflate_engine_release (deflate_engine_t *engine)
{
  if (!engine)
    return;
#ifdef HAVE_ISAL
  free (engine->is);
  free (engine->level_buf);
#endif
  if (!uses_igzip (engine->level))
    deflateEnd (&engine->zs);
  free (engine);
}
