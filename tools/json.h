/* json.h - a small JSON reader for the benchmarks' own results
 *
 * Enough JSON (RFC 8259) to read back what report.c writes, and what
 * an older sfenc wrote: objects keep their members in order, numbers
 * are doubles, strings are UTF-8 (\u escapes included).  Nesting is
 * limited, and errors name the byte offset.
 */
#ifndef JSON_H
#define JSON_H

#include <stddef.h>

enum json_type
  {
    JSON_NULL,
    JSON_FALSE,
    JSON_TRUE,
    JSON_NUMBER,
    JSON_STRING,
    JSON_ARRAY,
    JSON_OBJECT
  };

typedef struct json json_t;
struct json
{
  enum json_type type;
  double number;
  char *string;                 /* JSON_STRING.  */
  size_t n;                     /* Elements or members.  */
  json_t **items;               /* JSON_ARRAY and JSON_OBJECT.  */
  char **keys;                  /* JSON_OBJECT.  */
};

/* Parse the LEN bytes of TEXT.  Returns NULL with a message in WHY
 * (WHYLEN bytes) on error.  */
json_t *json_parse (const char *text, size_t len, char *why, size_t whylen);

/* Read and parse the file NAME; dies with a message naming it on
 * error.  */
json_t *json_read_file (const char *name);

/* The member KEY of OBJ, or NULL when OBJ is no object or has none.  */
const json_t *json_get (const json_t *obj, const char *key);

/* The string member KEY of OBJ, or NULL.  */
const char *json_get_string (const json_t *obj, const char *key);

void json_free (json_t *v);

#endif /*JSON_H*/
