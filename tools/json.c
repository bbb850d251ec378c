/* json.c - a small JSON reader for the benchmarks' own results
 */
#include <config.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "benchutil.h"
#include "json.h"

/* Deeper than any result file; it bounds the recursion.  */
#define MAX_DEPTH 32

/* Largest file read: results are kilobytes.  */
#define MAX_FILE (64 * 1024 * 1024)

struct parser
{
  const char *p, *start, *end;
  int depth;
  char *why;
  size_t whylen;
};

static json_t *parse_value (struct parser *ps);


static json_t *
error_at (struct parser *ps, const char *what)
{
  if (!*ps->why)
    snprintf (ps->why, ps->whylen, "%s at byte %zu", what,
              (size_t)(ps->p - ps->start));
  return NULL;
}


static void
skip_space (struct parser *ps)
{
  while (ps->p < ps->end && strchr (" \t\r\n", *ps->p) && *ps->p)
    ps->p++;
}


static json_t *
new_value (enum json_type type)
{
  json_t *v = bench_xcalloc (1, sizeof *v);

  v->type = type;
  return v;
}


/* Append the UTF-8 form of code point CP to BUF at *LEN.  */
static void
put_utf8 (char *buf, size_t *len, unsigned long cp)
{
  if (cp < 0x80)
    buf[(*len)++] = cp;
  else if (cp < 0x800)
    {
      buf[(*len)++] = 0xc0 | (cp >> 6);
      buf[(*len)++] = 0x80 | (cp & 0x3f);
    }
  else if (cp < 0x10000)
    {
      buf[(*len)++] = 0xe0 | (cp >> 12);
      buf[(*len)++] = 0x80 | ((cp >> 6) & 0x3f);
      buf[(*len)++] = 0x80 | (cp & 0x3f);
    }
  else
    {
      buf[(*len)++] = 0xf0 | (cp >> 18);
      buf[(*len)++] = 0x80 | ((cp >> 12) & 0x3f);
      buf[(*len)++] = 0x80 | ((cp >> 6) & 0x3f);
      buf[(*len)++] = 0x80 | (cp & 0x3f);
    }
}


/* Four hexadecimal digits at P.  */
static long
hex4 (const char *p, const char *end)
{
  char digits[5];
  char *stop;

  if (end - p < 4)
    return -1;
  memcpy (digits, p, 4);
  digits[4] = 0;
  if (strspn (digits, "0123456789abcdefABCDEF") != 4)
    return -1;
  return strtol (digits, &stop, 16);
}


/* The escape after the backslash at PS->P, appended to BUF.  */
static int
parse_escape (struct parser *ps, char *buf, size_t *len)
{
  static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
  const char *e;
  long cp, low;

  if (ps->p >= ps->end)
    return 0;
  if ((e = strchr (from, *ps->p)) && *ps->p)
    {
      buf[(*len)++] = to[e - from];
      ps->p++;
      return 1;
    }
  if (*ps->p != 'u' || (cp = hex4 (ps->p + 1, ps->end)) < 0)
    return 0;
  ps->p += 5;
  if (cp >= 0xd800 && cp < 0xdc00)
    {
      if (ps->end - ps->p < 6 || ps->p[0] != '\\' || ps->p[1] != 'u'
          || (low = hex4 (ps->p + 2, ps->end)) < 0xdc00 || low > 0xdfff)
        return 0;
      cp = 0x10000 + ((cp - 0xd800) << 10) + (low - 0xdc00);
      ps->p += 6;
    }
  else if (cp >= 0xdc00 && cp < 0xe000)
    return 0;
  put_utf8 (buf, len, cp);
  return 1;
}


/* The string that starts at the quote at PS->P.  */
static char *
parse_string_text (struct parser *ps)
{
  /* An escape never makes the text longer: \uXXXX is at most 4 bytes
   * of UTF-8 for 6 bytes of input.  */
  char *buf = bench_xcalloc (ps->end - ps->p + 1, 1);
  size_t len = 0;

  ps->p++;
  while (ps->p < ps->end && *ps->p != '"')
    {
      unsigned char c = *ps->p++;

      if (c < 0x20)
        break;
      if (c != '\\')
        buf[len++] = c;
      else if (!parse_escape (ps, buf, &len))
        {
          free (buf);
          error_at (ps, "bad escape in a string");
          return NULL;
        }
    }
  if (ps->p >= ps->end || *ps->p != '"')
    {
      free (buf);
      error_at (ps, "unterminated string");
      return NULL;
    }
  ps->p++;
  buf[len] = 0;
  return buf;
}


static json_t *
parse_number (struct parser *ps)
{
  char buf[64], *stop;
  size_t n = strspn (ps->p, "+-0123456789.eE");
  json_t *v;

  if (n == 0 || n >= sizeof buf || (size_t)(ps->end - ps->p) < n)
    return error_at (ps, "bad number");
  memcpy (buf, ps->p, n);
  buf[n] = 0;
  v = new_value (JSON_NUMBER);
  errno = 0;
  v->number = strtod (buf, &stop);
  if (*stop || errno)
    {
      free (v);
      return error_at (ps, "bad number");
    }
  ps->p += n;
  return v;
}


/* Parse the members (IS_OBJECT) or elements of the container V, whose
 * opening bracket was read, up to CLOSE.  */
static json_t *
parse_container (struct parser *ps, json_t *v, int is_object, char close)
{
  for (;;)
    {
      json_t *item;
      char *key = NULL;

      skip_space (ps);
      if (ps->p < ps->end && *ps->p == close && v->n == 0)
        break;
      if (is_object)
        {
          if (ps->p >= ps->end || *ps->p != '"'
              || !(key = parse_string_text (ps)))
            return error_at (ps, "member name expected");
          skip_space (ps);
          if (ps->p >= ps->end || *ps->p++ != ':')
            {
              free (key);
              return error_at (ps, "':' expected");
            }
        }
      item = parse_value (ps);
      if (!item)
        {
          free (key);
          return NULL;
        }
      v->items = bench_xrealloc (v->items, v->n + 1, sizeof *v->items);
      if (is_object)
        {
          v->keys = bench_xrealloc (v->keys, v->n + 1, sizeof *v->keys);
          v->keys[v->n] = key;
        }
      v->items[v->n++] = item;
      skip_space (ps);
      if (ps->p < ps->end && *ps->p == ',')
        {
          ps->p++;
          continue;
        }
      if (ps->p < ps->end && *ps->p == close)
        break;
      return error_at (ps, is_object ? "',' or '}' expected"
                       : "',' or ']' expected");
    }
  ps->p++;
  return v;
}


static json_t *
parse_word (struct parser *ps, const char *word, enum json_type type)
{
  size_t len = strlen (word);

  if ((size_t)(ps->end - ps->p) < len || memcmp (ps->p, word, len))
    return error_at (ps, "unexpected character");
  ps->p += len;
  return new_value (type);
}


static json_t *
parse_value (struct parser *ps)
{
  json_t *v, *done;

  skip_space (ps);
  if (ps->p >= ps->end)
    return error_at (ps, "value expected");
  switch (*ps->p)
    {
    case '{':
    case '[':
      if (++ps->depth > MAX_DEPTH)
        return error_at (ps, "nested too deeply");
      v = new_value (*ps->p == '{' ? JSON_OBJECT : JSON_ARRAY);
      ps->p++;
      done = parse_container (ps, v, v->type == JSON_OBJECT,
                              v->type == JSON_OBJECT ? '}' : ']');
      ps->depth--;
      if (!done)
        json_free (v);
      return done;
    case '"':
      v = new_value (JSON_STRING);
      v->string = parse_string_text (ps);
      if (!v->string)
        {
          free (v);
          return NULL;
        }
      return v;
    case 't': return parse_word (ps, "true", JSON_TRUE);
    case 'f': return parse_word (ps, "false", JSON_FALSE);
    case 'n': return parse_word (ps, "null", JSON_NULL);
    default: return parse_number (ps);
    }
}


json_t *
json_parse (const char *text, size_t len, char *why, size_t whylen)
{
  struct parser ps = { text, text, text + len, 0, why, whylen };
  json_t *v;

  *why = 0;
  v = parse_value (&ps);
  if (!v)
    return NULL;
  skip_space (&ps);
  if (ps.p != ps.end)
    {
      json_free (v);
      return error_at (&ps, "text after the value");
    }
  return v;
}


json_t *
json_read_file (const char *name)
{
  char why[256], *text;
  size_t len = 0, n;
  FILE *fp = fopen (name, "rb");
  json_t *v;

  if (!fp)
    bench_die (name, strerror (errno));
  text = bench_xcalloc (MAX_FILE + 1, 1);
  while ((n = fread (text + len, 1, MAX_FILE + 1 - len, fp)) > 0)
    len += n;
  if (ferror (fp))
    bench_die (name, strerror (errno));
  fclose (fp);
  if (len > MAX_FILE)
    bench_die (name, "too large for a result file");
  v = json_parse (text, len, why, sizeof why);
  free (text);
  if (!v)
    bench_die (name, why);
  return v;
}


const json_t *
json_get (const json_t *obj, const char *key)
{
  size_t i;

  if (!obj || obj->type != JSON_OBJECT)
    return NULL;
  for (i = 0; i < obj->n; i++)
    if (!strcmp (obj->keys[i], key))
      return obj->items[i];
  return NULL;
}


const char *
json_get_string (const json_t *obj, const char *key)
{
  const json_t *v = json_get (obj, key);

  return v && v->type == JSON_STRING ? v->string : NULL;
}


void
json_free (json_t *v)
{
  size_t i;

  if (!v)
    return;
  for (i = 0; i < v->n; i++)
    {
      json_free (v->items[i]);
      if (v->keys)
        free (v->keys[i]);
    }
  free (v->items);
  free (v->keys);
  free (v->string);
  free (v);
}
