/* sfbench.c - sfenc on a pipe, beside gpg, openssl enc and rnp
 *
 * The benchmark people run on gpg itself:
 *
 *   dd if=/dev/zero bs=1M count=N | sfenc -z 0 -c --cipher-algo X >/dev/null
 *
 * for every algorithm.  sfbench forks the producer itself (the "dd"),
 * starts the encrypting process on the other end of the pipe, and
 * takes that process's own user and system time and peak resident
 * set from wait4(), and its wall time from the clock around it, so
 * neither the producer nor sfbench is counted.  Each peer gets the
 * same stream in the same round: gpg with the same options in a fresh
 * GNUPGHOME, "openssl enc" in CFB mode with a raw key (no key
 * derivation, no compression: it sits out compressed runs), and rnp
 * when it is installed.  Decryption reads, through the same kind of
 * pipe, a file that gpg made once, so every OpenPGP tool decrypts the
 * same bytes.  The stream is zeros, random bytes made once, a file,
 * or a corpus of the system's own files (to measure compression).
 *
 * Every OpenPGP call first derives its key from the passphrase (the
 * S2K: by default 65 MB of hashing, twice for keys longer than the
 * hash).  That cost is measured with an empty input, in the same
 * rounds, and the net streaming rate is reported beside the gross one
 * -- unless the fixed cost or the noise of the runs is too large for
 * the difference to mean anything.
 *
 * With --aead NAME, sfenc writes RFC 9580 messages (SEIPD v2) and rnp
 * LibrePGP's AEAD packet with that mode, and each decrypts a message
 * it made itself; gpg 2.2 and openssl enc have no AEAD and stay in
 * CFB, so the rows compare sfenc's AEAD with gpg's CFB and MDC.
 *
 * The restore path is decryption alone (--decrypt-only) of the
 * compressed message gpg made of the corpus, with the algorithm
 * --compress-algo names, and sfenc once per --threads count: its
 * one-thread figure beside the others, in rows of their own.  With
 * --message-by sfenc the message is sfenc's own, which gpg and rnp
 * then decrypt too.
 */
#define _GNU_SOURCE 1           /* strcasestr, pipe2, mkostemp */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>

#include "benchutil.h"
#include "openssl-name.h"
#include "plot.h"
#include "report.h"

#define MIB (1024.0 * 1024.0)
#define CHUNK (1024 * 1024)     /* The producer's write, in bytes.  */
#define MAX_IMPLS 16            /* Implementations of one algorithm.  */
#define MAX_ALGOS 64            /* Algorithms read from sfenc.  */
#define MAX_VARIANTS 16         /* sfenc rows of one algorithm.  */
#define UNRELIABLE "*"          /* Footnote mark of an unreliable figure.  */

/* The tools compared, in column order.  */
enum tool { T_SFENC, T_GPG, T_OPENSSL, T_RNP, N_TOOLS };

static const char *const tool_names[N_TOOLS] =
  { "sfenc", "gpg", "openssl", "rnp" };

enum op { OP_ENC, OP_DEC, N_OPS };

static const char *const op_names[N_OPS] = { "enc", "dec" };

enum input_kind { IN_ZEROS, IN_RANDOM, IN_FILE, IN_CORPUS };

/* What is reported of each run.  */
enum metric { M_WALL, M_USER, M_SYS, M_MAXRSS, N_METRICS };

static const char *const metric_names[N_METRICS] =
  { "wall", "user", "sys", "maxrss" };
static const char *const metric_units[N_METRICS] = { "s", "s", "s", "kib" };
static const int metric_decimals[N_METRICS] = { 3, 3, 3, 0 };

struct options
{
  long size_mib;
  int size_given;
  int runs;
  int zlevel;                   /* -z: 0 is no compression.  */
  enum input_kind input;
  const char *input_file;       /* For IN_FILE.  */
  const char *corpus_dir;       /* NULL: the temporary directory.  */
  char **algos;                 /* NULL: every OpenPGP algorithm.  */
  char **impls;                 /* NULL: the default implementation.  */
  char **threads;               /* --threads: counts, or NULL.  */
  const char *path[N_TOOLS];    /* Program names or paths.  */
  int enabled[N_TOOLS];
  int encrypt, decrypt;
  enum report_format format;
  const char *plot;
  const char *save;
  const char *passphrase;
  const char *aead;             /* --aead: "OCB", "EAX", "GCM" or NULL.  */
  const char *compress_algo;    /* "zip", "zlib", "bzip2" or NULL.  */
  enum tool message_by;         /* Who makes the message to decrypt.  */
};

/* One algorithm as sfenc lists it.  */
struct algo
{
  char *name;
  char **aliases;
  int id;
  int blockbits, keybits;
  char *impls[MAX_IMPLS];
  int usable[MAX_IMPLS];
  int nimpls;
  char *default_impl;
};

/* A stream the producer writes into a measured tool's pipe: BYTES
 * bytes of zeros when FILE is NULL, else the whole of FILE (BYTES
 * long).  */
struct source
{
  const char *file;
  off_t bytes;
};

/* Figures of one tool for one algorithm, implementation and
 * direction: per run, one sample with the input and one with an
 * empty input (the fixed cost).  */
struct figures
{
  int measured;
  struct bench_usage *data, *empty;
};

/* How sfenc is run for one of its rows: implementation IMPL (NULL:
 * the default) with --threads THREADS (NULL: without the option).  */
struct variant
{
  const char *impl, *threads;
};

/* A row of the result: sfenc's implementation IMPL of ALGO in OP, on
 * THREADS threads (NULL: sfenc's default), with every tool's figures.
 * The peers' figures are shared by the rows of the same algorithm and
 * direction.  */
struct row
{
  const struct algo *algo;
  const char *impl, *threads;
  enum op op;
  struct figures *fig[N_TOOLS];
};

static struct options opt;
static char *tool_path[N_TOOLS];           /* NULL: not available.  */
static char tool_why[N_TOOLS][600];        /* Why not.  */
static char *workdir;                       /* Temporary directory.  */
static char *gnupghome_env, *gnupghome, *rnphome;
static char *stderr_file;
static struct source input;                 /* What every tool encrypts.  */
static char zlevel_arg[4];                  /* opt.zlevel, for argv.  */
static int corpus_reused;
static char *corpus_partial;                /* A corpus being written.  */
static unsigned char *zeros, *copy_buf;     /* CHUNK bytes each.  */
static int any_unreliable;                  /* A figure was marked.  */
static pid_t main_pid;
static volatile sig_atomic_t interrupted;
static int show_progress;


static void
usage (FILE *fp)
{
  fputs ("Usage: sfbench [OPTIONS]\n"
         "Encrypt and decrypt N MiB from a pipe with sfenc, and with gpg,\n"
         "openssl enc and rnp in the same rounds; report the wall, user\n"
         "and sys time and the peak RSS of the encrypting process, and\n"
         "the throughput by its user CPU time.\n"
         "\n"
         "  --size MIB          megabytes (MiB) per run (default 64)\n"
         "  --runs N            runs per figure; median, min, max (default 3)\n"
         "  --input WHAT        zeros (default); random (made once per\n"
         "                      sfbench run); corpus (files of /usr/lib and\n"
         "                      /usr/share, for -z); or a FILE, all of it\n"
         "  -z LEVEL            compression level of sfenc, gpg and rnp\n"
         "                      (default 0: none); openssl enc cannot\n"
         "                      compress and sits out runs with -z 1..9\n"
         "  --compress-algo A   with -z 1..9: every OpenPGP tool compresses\n"
         "                      with A, zip, zlib or bzip2 (default: each\n"
         "                      tool's own); gpg's message to decrypt too\n"
         "  --message-by TOOL   gpg (default) or sfenc: the tool that makes\n"
         "                      the message every tool decrypts\n"
         "  --corpus-dir DIR    where the corpus is cached (default\n"
         "                      $TMPDIR, else /tmp)\n"
         "  --algo LIST         algorithms, comma separated (default: every\n"
         "                      algorithm sfenc lists with an OpenPGP id)\n"
         "  --cipher-impl LIST  one row per sfenc implementation in LIST\n"
         "                      (default: the default implementation)\n"
         "  --threads LIST      one row per sfenc thread count in LIST,\n"
         "                      e.g. 1,2: sfenc --threads N (default:\n"
         "                      sfenc without the option)\n"
         "  --aead MODE         sfenc (SEIPD v2) and rnp (LibrePGP) encrypt\n"
         "                      with AEAD MODE, OCB, EAX or GCM (not rnp),\n"
         "                      and decrypt their own messages; gpg and\n"
         "                      openssl enc stay in CFB\n"
         "  --no-decrypt        measure encryption only\n"
         "  --decrypt-only      measure decryption only\n"
         "  --no-gpg, --no-openssl, --no-rnp   leave a peer out (n/a)\n"
         "  --sfenc PATH        sfenc to measure (default: the one built\n"
         "                      beside sfbench, else sfenc in PATH)\n"
         "  --gpg PATH, --openssl PATH, --rnp PATH   the peers' programs\n"
         "  --format FMT        text (default), markdown, csv, json or html\n"
         "  --save PREFIX       also write PREFIX.txt, .md, .csv, .json, .html\n"
         "  --plot FILE         draw a chart, FILE.svg or FILE.png (gnuplot)\n"
         "  --passphrase P      the passphrase (default \"sfbench\")\n"
         "  --help              this text\n", fp);
}

static void
on_signal (int sig)
{
  (void) sig;
  interrupted = 1;
}

static int
remove_entry (const char *path, const struct stat *st, int flag,
              struct FTW *ftw)
{
  (void) st;
  (void) flag;
  (void) ftw;
  remove (path);
  return 0;
}

/* The gpgconf that belongs to gpg (beside it), else the one in PATH.  */
static char *
gpgconf_program (void)
{
  char *dir = bench_xstrdup (tool_path[T_GPG]);
  char *slash = strrchr (dir, '/');
  char *gpgconf = NULL;

  if (slash)
    {
      *slash = 0;
      gpgconf = bench_xasprintf ("%s/gpgconf", dir);
      if (access (gpgconf, X_OK))
        {
          free (gpgconf);
          gpgconf = NULL;
        }
    }
  free (dir);
  return gpgconf ? gpgconf : bench_xstrdup ("gpgconf");
}

/* Stop the gpg-agent gpg started in our GNUPGHOME, remove the
 * temporary directory and a corpus left half written.  */
static void
cleanup (void)
{
  if (corpus_partial)
    unlink (corpus_partial);
  /* The rest is the main process's, not a child's of in_child.  */
  if (!workdir || getpid () != main_pid)
    return;
  if (tool_path[T_GPG])
    {
      char *gpgconf = gpgconf_program ();
      char *argv[] = { gpgconf, "--homedir", gnupghome, "--kill",
                       "gpg-agent", NULL };
      double start;
      struct bench_usage u;
      int pid;

      pid = bench_spawn (argv, -1, -1, -1, NULL, &start);
      if (pid > 0)
        bench_wait (pid, start, &u);
      free (gpgconf);
    }
  nftw (workdir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
  free (workdir);
  workdir = NULL;
}

static char *
workfile (const char *name)
{
  return bench_xasprintf ("%s/%s", workdir, name);
}

/* $TMPDIR, else /tmp.  */
static const char *
temp_dir (void)
{
  const char *tmp = getenv ("TMPDIR");

  return tmp && *tmp ? tmp : "/tmp";
}

static int
open_or_die (const char *file, int flags)
{
  int fd = open (file, flags | O_CLOEXEC, 0600);

  if (fd < 0)
    bench_die (file, strerror (errno));
  return fd;
}

/* Say on the terminal what is being measured, over the last such
 * line.  */
static void __attribute__ ((format (printf, 1, 2)))
progress (const char *fmt, ...)
{
  va_list ap;

  if (!show_progress)
    return;
  fputs ("\r\033[K", stderr);
  va_start (ap, fmt);
  vfprintf (stderr, fmt, ap);
  va_end (ap);
  fflush (stderr);
}

static void
progress_done (void)
{
  if (show_progress)
    fputs ("\r\033[K", stderr);
}

/* What the last child said on stderr about its failure: the first
 * line that sounds like an error, else the last non-empty line (the
 * tools print notices before their complaint, and usage hints after
 * it).  */
static const char *
child_complaint (void)
{
  static const char *const words[] =
    { "error", "unknown", "fail", "invalid", "not supported", "bad " };
  static char why[256];
  char line[256];
  FILE *fp = fopen (stderr_file, "r");
  int found = 0;
  size_t i;

  why[0] = 0;
  if (!fp)
    return why;
  while (!found && fgets (line, sizeof line, fp))
    {
      if (!line[strspn (line, " \t\n")])
        continue;
      snprintf (why, sizeof why, "%s", line);
      for (i = 0; i < sizeof words / sizeof *words; i++)
        if (strcasestr (line, words[i]))
          found = 1;
    }
  fclose (fp);
  why[strcspn (why, "\n")] = 0;
  return why;
}

/* The reason a child failed, as one line.  */
static const char *
failure (const struct bench_usage *u)
{
  static char why[300];
  const char *said = child_complaint ();

  if (WIFSIGNALED (u->status))
    snprintf (why, sizeof why, "killed by signal %d", WTERMSIG (u->status));
  else if (*said)
    snprintf (why, sizeof why, "%s", said);
  else
    snprintf (why, sizeof why, "exit status %d", WEXITSTATUS (u->status));
  return why;
}

static void
stop_if_interrupted (void)
{
  if (interrupted)
    bench_die ("interrupted", "stopped by a signal");
}

/* Write LEN bytes at BUF to FD.  Returns 0, or -1 with errno set.  */
static int
write_all (int fd, const unsigned char *buf, size_t len)
{
  while (len)
    {
      ssize_t n = write (fd, buf, len);

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        return -1;
      buf += n;
      len -= n;
    }
  return 0;
}

/* Copy from FROM to TO until the end of FROM or LIMIT bytes.  Returns
 * the number of bytes copied, or -1 with errno set.  */
static off_t
copy_fd (int from, int to, off_t limit)
{
  off_t done = 0;

  while (done < limit)
    {
      size_t want = limit - done < CHUNK ? (size_t) (limit - done) : CHUNK;
      ssize_t n = read (from, copy_buf, want);

      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        return -1;
      if (!n)
        break;
      if (write_all (to, copy_buf, n))
        return -1;
      done += n;
    }
  return done;
}

/* In the producer: write SRC into FD, as dd would, and exit; with a
 * status of 1 when SRC could not be written whole.  */
static void __attribute__ ((noreturn))
produce (int fd, const struct source *src)
{
  off_t left;

  signal (SIGPIPE, SIG_DFL);
  if (src->file)
    {
      int in = open (src->file, O_RDONLY);

      _exit (in < 0 || copy_fd (in, fd, src->bytes) != src->bytes);
    }
  for (left = src->bytes; left > 0; left -= CHUNK)
    if (write_all (fd, zeros, left < CHUNK ? (size_t) left : CHUNK))
      _exit (1);
  _exit (0);
}

/* Fork the producer of SRC on the pipe FDS.  */
static int
start_producer (const int fds[2], const struct source *src)
{
  int pid;

  fflush (NULL);
  pid = fork ();
  if (pid < 0)
    bench_die ("fork", strerror (errno));
  if (!pid)
    {
      /* Else a reader that quits early would leave it blocked.  */
      close (fds[0]);
      produce (fds[1], src);
    }
  return pid;
}

/* Run ARGV once.  Its standard input is SRC through a pipe (NULL:
 * /dev/null), its output goes to OUTPUT (NULL: /dev/null).  Returns 0
 * and fills *U, or -1 with *WHY set.  */
static int
run_once (char *const *argv, const char *setenv_pair,
          const struct source *src, const char *output,
          struct bench_usage *u, const char **why)
{
  int in_fd = -1, out_fd = -1, err_fd, fds[2];
  int producer = -1, pid, rc = 0;
  struct bench_usage pu;
  double start;

  err_fd = open_or_die (stderr_file, O_WRONLY | O_CREAT | O_TRUNC);
  if (output)
    out_fd = open_or_die (output, O_WRONLY | O_CREAT | O_TRUNC);
  if (src)
    {
      /* Both ends close on exec, so the measured tool holds only its
       * standard input and sees the end of the stream.  */
      if (pipe2 (fds, O_CLOEXEC))
        bench_die ("pipe", strerror (errno));
      producer = start_producer (fds, src);
      close (fds[1]);
      in_fd = fds[0];
    }
  pid = bench_spawn (argv, in_fd, out_fd, err_fd, setenv_pair, &start);
  if (pid < 0)
    {
      *why = strerror (errno);
      rc = -1;
    }
  else if (bench_wait (pid, start, u))
    {
      *why = failure (u);
      rc = -1;
    }
  if (in_fd >= 0)
    close (in_fd);
  if (out_fd >= 0)
    close (out_fd);
  close (err_fd);
  if (producer > 0 && bench_wait (producer, start, &pu) && !rc)
    bench_die (argv[0], "its input did not reach it whole (it quit early,"
               " or the input could not be read)");
  stop_if_interrupted ();
  return rc;
}

/* Run sfenc with ARGS (NULL-terminated) and return its standard
 * output.  */
static char *
capture_sfenc (char *const *args)
{
  char *out_file = workfile ("list.out");
  char *argv[16];
  struct bench_usage u;
  const char *why;
  char *text;
  FILE *fp;
  long len;
  int n = 0;

  argv[n++] = tool_path[T_SFENC];
  while (*args && n < 15)
    argv[n++] = *args++;
  argv[n] = NULL;
  if (run_once (argv, NULL, NULL, out_file, &u, &why))
    bench_die (tool_path[T_SFENC], why);
  fp = fopen (out_file, "r");
  if (!fp)
    bench_die (out_file, strerror (errno));
  fseek (fp, 0, SEEK_END);
  len = ftell (fp);
  rewind (fp);
  text = bench_xcalloc (len + 1, 1);
  if (fread (text, 1, len, fp) != (size_t) len)
    bench_die (out_file, "short read");
  fclose (fp);
  unlink (out_file);
  free (out_file);
  return text;
}

/* Field N (0-based) of the colon-separated LINE, as a new string.  */
static char *
field (const char *line, int n)
{
  const char *p = line, *end;
  char *s;

  while (n-- > 0)
    {
      p = strchr (p, ':');
      if (!p)
        return bench_xstrdup ("");
      p++;
    }
  end = strchr (p, ':');
  if (!end)
    end = p + strlen (p);
  s = bench_xcalloc (end - p + 1, 1);
  memcpy (s, p, end - p);
  return s;
}

/* Field N (0-based) of the colon-separated LINE, as a number.  */
static int
number_field (const char *line, int n)
{
  char *s = field (line, n);
  int v = atoi (s);

  free (s);
  return v;
}

/* Add the algorithm of LINE, an entry of sfenc --list-ciphers
 * --with-colons called NAME, to A.  */
static void
add_algorithm (struct algo *a, const char *line, char *name, int id)
{
  char *aliases = field (line, 2);

  a->name = name;
  a->aliases = bench_split_list (aliases, NULL);
  free (aliases);
  a->id = id;
  a->blockbits = number_field (line, 4);
  a->keybits = number_field (line, 5);
}

/* Add the implementation of LINE to A, unless A has MAX_IMPLS.  */
static void
add_implementation (struct algo *a, const char *line)
{
  char *status;

  if (a->nimpls == MAX_IMPLS)
    return;
  status = field (line, 10);
  a->impls[a->nimpls] = field (line, 6);
  a->usable[a->nimpls] = (!strcmp (status, "default")
                          || !strcmp (status, "usable"));
  if (!strcmp (status, "default"))
    a->default_impl = a->impls[a->nimpls];
  a->nimpls++;
  free (status);
}

/* Read the algorithms sfenc offers: those with an OpenPGP id, each
 * with its implementations, in the order sfenc lists them.  */
static struct algo *
list_algorithms (size_t *r_n)
{
  char *args[] = { "--list-ciphers", "--with-colons", NULL };
  char *text = capture_sfenc (args);
  struct algo *algos = bench_xcalloc (MAX_ALGOS, sizeof *algos);
  char *line, *save = NULL;
  size_t n = 0, i;

  for (line = strtok_r (text, "\n", &save); line;
       line = strtok_r (NULL, "\n", &save))
    {
      char *name;
      int id;

      if (strncmp (line, "cipher:", 7) || (id = number_field (line, 3)) <= 0)
        continue;
      name = field (line, 1);
      for (i = 0; i < n && strcmp (algos[i].name, name); i++)
        ;
      if (i < n)
        free (name);
      else if (n == MAX_ALGOS)
        {
          free (name);
          break;
        }
      else
        add_algorithm (&algos[n++], line, name, id);
      add_implementation (&algos[i], line);
    }
  free (text);
  if (!n)
    bench_die (tool_path[T_SFENC], "lists no cipher with an OpenPGP id");
  *r_n = n;
  return algos;
}

static void
free_algorithms (struct algo *algos, size_t n)
{
  size_t i;
  int j;

  for (i = 0; i < n; i++)
    {
      free (algos[i].name);
      free (algos[i].aliases);
      for (j = 0; j < algos[i].nimpls; j++)
        free (algos[i].impls[j]);
    }
  free (algos);
}

static int
algo_has_name (const struct algo *a, const char *name)
{
  char **p;

  if (!strcasecmp (a->name, name)
      || (name[strspn (name, "0123456789")] == 0 && atoi (name) == a->id))
    return 1;
  for (p = a->aliases; *p; p++)
    if (!strcasecmp (*p, name))
      return 1;
  return 0;
}

/* rnp's name for the algorithm.  */
static const char *
rnp_name (const char *name)
{
  if (!strcmp (name, "AES"))
    return "AES128";
  if (!strcmp (name, "3DES"))
    return "TRIPLEDES";
  return name;
}

/* The argument vectors, per tool and direction.  */
struct command
{
  char *argv[24];
  const char *env;
  int usable;                 /* 0 once the tool failed on this algorithm.  */
  char why[sizeof tool_why[0]];
  char cipher[64], key_hex[65], iv_hex[33];   /* openssl's arguments.  */
  char aead_arg[16];                         /* rnp's --aead=.  */
  char compress_arg[16];                     /* rnp's --zip, ...  */
  int own_input;              /* Decrypts its own message, not SRC's.  */
  struct source own_data, own_empty;
};

/* Append sfenc's and gpg's compression options to C's argv at N;
 * returns the new N.  */
static int
add_compression (struct command *c, int n)
{
  c->argv[n++] = "-z";
  c->argv[n++] = zlevel_arg;
  if (opt.compress_algo)
    {
      c->argv[n++] = "--compress-algo";
      c->argv[n++] = (char *) opt.compress_algo;
    }
  return n;
}

/* The command of tool T for OP on algorithm A; sfenc's is run as V
 * says (NULL: its defaults).  */
static void
build_command (struct command *c, enum tool t, enum op op,
               const struct algo *a, const struct variant *v,
               int openssl_legacy)
{
  char ossl_stem[48];
  const char *ossl = openssl_cipher_stem (a->name,
                                          (const char *const *) a->aliases,
                                          a->keybits / 8, a->blockbits / 8,
                                          ossl_stem, sizeof ossl_stem)
                     ? ossl_stem : NULL;
  int n = 0;

  memset (c, 0, sizeof *c);
  c->usable = tool_path[t] != NULL;
  if (!c->usable)
    snprintf (c->why, sizeof c->why, "%s", tool_why[t]);
  c->argv[n++] = tool_path[t];
  switch (t)
    {
    case T_SFENC:
      c->argv[n++] = "--batch";
      c->argv[n++] = "--passphrase";
      c->argv[n++] = (char *) opt.passphrase;
      if (op == OP_ENC)
        {
          n = add_compression (c, n);
          c->argv[n++] = "-c";
          c->argv[n++] = "--cipher-algo";
          c->argv[n++] = a->name;
          if (opt.aead)
            {
              c->argv[n++] = "--aead-algo";
              c->argv[n++] = (char *) opt.aead;
            }
        }
      else
        c->argv[n++] = "-d";
      if (v && v->impl)
        {
          c->argv[n++] = "--cipher-impl";
          c->argv[n++] = (char *) v->impl;
        }
      if (v && v->threads)
        {
          c->argv[n++] = "--threads";
          c->argv[n++] = (char *) v->threads;
        }
      break;
    case T_GPG:
      c->env = gnupghome_env;
      c->argv[n++] = "--batch";
      c->argv[n++] = "--pinentry-mode";
      c->argv[n++] = "loopback";
      c->argv[n++] = "--passphrase";
      c->argv[n++] = (char *) opt.passphrase;
      if (op == OP_ENC)
        {
          n = add_compression (c, n);
          c->argv[n++] = "-c";
          c->argv[n++] = "--cipher-algo";
          c->argv[n++] = a->name;
        }
      else
        c->argv[n++] = "-d";
      break;
    case T_OPENSSL:
      if (!ossl && c->usable)
        {
          c->usable = 0;
          snprintf (c->why, sizeof c->why, "openssl has no %s", a->name);
        }
      /* A fixed raw key and IV: "openssl enc" has no OpenPGP S2K, and
       * its own key derivation would not compare to one anyway.  */
      memset (c->key_hex, '5', a->keybits / 4);
      memset (c->iv_hex, 'a', a->blockbits / 4);
      snprintf (c->cipher, sizeof c->cipher, "-%s-cfb", ossl ? ossl : "none");
      c->argv[n++] = "enc";
      c->argv[n++] = op == OP_ENC ? "-e" : "-d";
      c->argv[n++] = c->cipher;
      if (openssl_legacy)
        {
          /* OpenSSL 3 keeps Blowfish, CAST5 and IDEA in the legacy
           * provider.  */
          c->argv[n++] = "-provider";
          c->argv[n++] = "legacy";
          c->argv[n++] = "-provider";
          c->argv[n++] = "default";
        }
      c->argv[n++] = "-K";
      c->argv[n++] = c->key_hex;
      c->argv[n++] = "-iv";
      c->argv[n++] = c->iv_hex;
      break;
    case T_RNP:
      c->argv[n++] = "--homedir";
      c->argv[n++] = rnphome;
      c->argv[n++] = "--password";
      c->argv[n++] = (char *) opt.passphrase;
      if (op == OP_ENC)
        {
          c->argv[n++] = "-z";
          c->argv[n++] = zlevel_arg;
          if (opt.compress_algo)
            {
              /* rnp names the algorithm as an option of its own:
               * --zip, --zlib, --bzip2.  */
              snprintf (c->compress_arg, sizeof c->compress_arg, "--%s",
                        opt.compress_algo);
              c->argv[n++] = c->compress_arg;
            }
          c->argv[n++] = "-c";
          c->argv[n++] = "--cipher";
          c->argv[n++] = (char *) rnp_name (a->name);
          if (opt.aead && strcmp (opt.aead, "GCM"))
            {
              snprintf (c->aead_arg, sizeof c->aead_arg, "--aead=%s",
                        opt.aead);
              c->argv[n++] = c->aead_arg;
            }
          else if (opt.aead && c->usable)
            {
              c->usable = 0;
              snprintf (c->why, sizeof c->why, "rnp has no GCM");
            }
        }
      else
        c->argv[n++] = "-d";
      break;
    default:
      break;
    }
  c->argv[n] = NULL;
}


static struct figures *
new_figures (void)
{
  struct figures *f = bench_xcalloc (1, sizeof *f);

  f->data = bench_xcalloc (opt.runs, sizeof *f->data);
  f->empty = bench_xcalloc (opt.runs, sizeof *f->empty);
  return f;
}

static void
free_figures (struct figures *f)
{
  if (!f)
    return;
  free (f->data);
  free (f->empty);
  free (f);
}

/* Measure ALGO in OP with NCMD commands (sfenc's implementations,
 * then the peers), round after round, and fill FIGS.  DATA is the
 * input, EMPTY the empty input (NULL: none at all).  */
static void
measure (const struct algo *a, struct command *cmds, struct figures **figs,
         const char **labels, int ncmd, const struct source *data,
         const struct source *empty)
{
  int r, i;

  for (r = 0; r < opt.runs; r++)
    for (i = 0; i < ncmd; i++)
      {
        struct command *c = &cmds[i];
        const struct source *d = c->own_input ? &c->own_data : data;
        const struct source *e = c->own_input ? &c->own_empty : empty;
        const char *why;

        if (!c->usable)
          continue;
        progress ("sfbench: %s: %s, run %d of %d", a->name, labels[i], r + 1,
                  opt.runs);
        /* The empty input first: it is also the probe that tells
         * whether the tool can do this algorithm at all.  */
        if (run_once (c->argv, c->env, e, NULL, &figs[i]->empty[r], &why))
          {
            if (i == 0 || r > 0)
              bench_die (labels[i], why);
            c->usable = 0;
            snprintf (c->why, sizeof c->why, "%s", why);
            continue;
          }
        if (run_once (c->argv, c->env, d, NULL, &figs[i]->data[r], &why))
          bench_die (labels[i], why);
        figs[i]->measured = 1;
      }
  progress_done ();
}

/* FILE as a source, all of it.  */
static struct source
file_source (const char *file)
{
  struct source src;
  struct stat st;

  if (stat (file, &st))
    bench_die (file, strerror (errno));
  if (!S_ISREG (st.st_mode))
    bench_die (file, "not a regular file");
  src.file = file;
  src.bytes = st.st_size;
  return src;
}

/* Make the files decryption reads: the input and an empty input,
 * encrypted by the tool of --message-by when it can, else by sfenc.
 * Returns the name of the tool that made them.  */
static const char *
make_ciphertexts (const struct algo *a, const char *data, const char *empty)
{
  struct command c;
  struct bench_usage u;
  const char *why;
  enum tool t = opt.message_by;

  build_command (&c, t, OP_ENC, a, NULL, 0);
  if (!c.usable || run_once (c.argv, c.env, NULL, empty, &u, &why))
    {
      t = T_SFENC;
      build_command (&c, T_SFENC, OP_ENC, a, NULL, 0);
      if (run_once (c.argv, c.env, NULL, empty, &u, &why))
        bench_die (tool_names[t], why);
    }
  progress ("sfbench: %s: making the input to decrypt", a->name);
  if (run_once (c.argv, c.env, &input, data, &u, &why))
    bench_die (tool_names[t], why);
  return tool_names[t];
}

/* With --aead, let tool T encrypt the input and an empty input into
 * its own files, which the decrypting command C then reads (sfenc and
 * rnp read AEAD messages, gpg's is CFB).  Returns the files' names for
 * removal, at FILES[0] and [1].  */
static void
make_own_ciphertexts (struct command *c, enum tool t, const struct algo *a,
                      char *files[2])
{
  struct command enc;
  struct bench_usage u;
  const char *why;

  files[0] = bench_xasprintf ("%s/data-%s.gpg", workdir, tool_names[t]);
  files[1] = bench_xasprintf ("%s/empty-%s.gpg", workdir, tool_names[t]);
  build_command (&enc, t, OP_ENC, a, NULL, 0);
  if (!enc.usable || !c->usable)
    return;
  progress ("sfbench: %s: %s makes its AEAD input to decrypt", a->name,
            tool_names[t]);
  if (run_once (enc.argv, enc.env, NULL, files[1], &u, &why)
      || run_once (enc.argv, enc.env, &input, files[0], &u, &why))
    {
      c->usable = 0;
      snprintf (c->why, sizeof c->why, "%s", why);
      return;
    }
  c->own_input = 1;
  c->own_data = file_source (files[0]);
  c->own_empty = file_source (files[1]);
}

/* Fill FILE with opt.size_mib MiB from the kernel's random
 * generator.  */
static void
make_random_input (const char *file)
{
  int fd = open_or_die (file, O_WRONLY | O_CREAT | O_TRUNC);
  long i;

  for (i = 0; i < opt.size_mib; i++)
    {
      size_t done = 0;

      while (done < CHUNK)
        {
          ssize_t n = getrandom (copy_buf + done, CHUNK - done, 0);

          if (n < 0 && errno != EINTR)
            bench_die ("getrandom", strerror (errno));
          done += n > 0 ? (size_t) n : 0;
        }
      if (write_all (fd, copy_buf, CHUNK))
        bench_die (file, strerror (errno));
      stop_if_interrupted ();
    }
  close (fd);
}

/* The corpus is made of files every Debian system has: binaries and
 * libraries under /usr/lib, text and data under /usr/share, each tree
 * in sorted path order (bytewise, whatever the locale), so it is the
 * same on every run.  Half comes from each tree, so that a small
 * corpus has both kinds; /usr/lib, first in path order, makes up what
 * /usr/share lacks.  */
static const char *const corpus_trees[2] = { "/usr/lib", "/usr/share" };

/* Already compressed files would measure the compressor on data that
 * looks random, which --input random does; they are left out.  */
static const char *const compressed_suffixes[] =
  { ".gz", ".xz", ".bz2", ".zst", ".lz4", ".lzma", ".zip", ".jar", ".deb",
    ".png", ".jpg", ".gif", ".woff", ".woff2" };

struct file_list
{
  char **paths;
  size_t n, allocated;
  off_t bytes;                  /* Their total size.  */
};

static struct file_list *collecting;        /* For nftw's callback.  */

static int
is_compressed (const char *path)
{
  size_t len = strlen (path), i;

  for (i = 0; i < sizeof compressed_suffixes / sizeof *compressed_suffixes;
       i++)
    {
      size_t n = strlen (compressed_suffixes[i]);

      if (len > n && !strcmp (path + len - n, compressed_suffixes[i]))
        return 1;
    }
  return 0;
}

static int
collect_file (const char *path, const struct stat *st, int flag,
              struct FTW *ftw)
{
  struct file_list *l = collecting;

  (void) ftw;
  if (flag != FTW_F || !S_ISREG (st->st_mode) || is_compressed (path))
    return 0;
  if (l->n == l->allocated)
    {
      l->allocated = l->allocated ? 2 * l->allocated : 1024;
      l->paths = bench_xrealloc (l->paths, l->allocated, sizeof *l->paths);
    }
  l->paths[l->n++] = bench_xstrdup (path);
  l->bytes += st->st_size;
  return 0;
}

static int
compare_paths (const void *a, const void *b)
{
  return strcmp (*(char *const *) a, *(char *const *) b);
}

/* The regular files under ROOT, sorted; none when ROOT is missing.  */
static void
list_tree (const char *root, struct file_list *l)
{
  memset (l, 0, sizeof *l);
  collecting = l;
  nftw (root, collect_file, 32, FTW_PHYS);
  collecting = NULL;
  /* qsort's array must not be NULL, even when empty (C11 7.22.5).  */
  if (l->n)
    qsort (l->paths, l->n, sizeof *l->paths, compare_paths);
}

static void
free_list (struct file_list *l)
{
  size_t i;

  for (i = 0; i < l->n; i++)
    free (l->paths[i]);
  free (l->paths);
}

/* Append the files of L to FD (the file OUT), in order, up to QUOTA
 * bytes; skip those we may not read.  Returns the bytes appended.  */
static off_t
append_files (int fd, const char *out, const struct file_list *l,
              off_t quota)
{
  off_t done = 0, n;
  size_t i;

  for (i = 0; i < l->n && done < quota; i++)
    {
      int in;

      stop_if_interrupted ();
      in = open (l->paths[i], O_RDONLY | O_CLOEXEC);
      if (in < 0)
        continue;
      n = copy_fd (in, fd, quota - done);
      close (in);
      if (n < 0)
        bench_die (bench_xasprintf ("%s to %s", l->paths[i], out),
                   strerror (errno));
      done += n;
    }
  return done;
}

/* Write the corpus of opt.size_mib MiB into PATH, through a
 * temporary file renamed at the end, so that PATH never holds a
 * partial corpus.  */
static void
build_corpus (const char *path)
{
  off_t want = (off_t) opt.size_mib * CHUNK;
  struct file_list lib, share;
  off_t share_part, done;
  int fd;

  progress ("sfbench: building the corpus %s", path);
  list_tree (corpus_trees[0], &lib);
  list_tree (corpus_trees[1], &share);
  share_part = share.bytes < want / 2 ? share.bytes : want / 2;
  corpus_partial = bench_xasprintf ("%s.XXXXXX", path);
  fd = mkostemp (corpus_partial, O_CLOEXEC);
  if (fd < 0)
    bench_die (corpus_partial, strerror (errno));
  done = append_files (fd, corpus_partial, &lib, want - share_part);
  done += append_files (fd, corpus_partial, &share, want - done);
  if (done < want)
    bench_die ("--input corpus", bench_xasprintf
               ("/usr/lib and /usr/share hold only %lld MiB of files that"
                " are not compressed; use a smaller --size",
                (long long) (done / CHUNK)));
  if (close (fd) || rename (corpus_partial, path))
    bench_die (path, strerror (errno));
  free (corpus_partial);
  corpus_partial = NULL;
  free_list (&lib);
  free_list (&share);
  progress_done ();
}

/* Run FN (ARG) in a child process and wait for it.  Every tool is
 * forked from sfbench, and the kernel counts the pages a process had
 * before exec in its peak RSS: what makes the input (a walk of 100000
 * file names) must not grow sfbench itself.  */
static void
in_child (void (*fn) (const char *), const char *arg)
{
  struct bench_usage u;
  int pid;

  fflush (NULL);
  pid = fork ();
  if (pid < 0)
    bench_die ("fork", strerror (errno));
  if (!pid)
    {
      fn (arg);
      exit (0);
    }
  if (bench_wait (pid, bench_now (), &u))
    exit (2);                   /* It said why.  */
}

/* The name of the corpus of opt.size_mib MiB, built unless the cache
 * holds one of the right size.  */
static char *
corpus (void)
{
  char *path = bench_xasprintf ("%s/sfbench-corpus-%ldMiB",
                                opt.corpus_dir ? opt.corpus_dir
                                : temp_dir (), opt.size_mib);
  struct stat st;

  corpus_reused = !stat (path, &st) && S_ISREG (st.st_mode)
    && st.st_size == (off_t) opt.size_mib * CHUNK;
  if (!corpus_reused)
    in_child (build_corpus, path);
  return path;
}

/* Make the input the options ask for, once: every tool reads the
 * same bytes.  */
static void
prepare_input (void)
{
  char *file;

  if (opt.input == IN_ZEROS)
    {
      input.bytes = (off_t) opt.size_mib * CHUNK;
      return;
    }
  if (opt.input == IN_RANDOM)
    {
      file = workfile ("random.in");
      in_child (make_random_input, file);
      input = file_source (file);
    }
  else if (opt.input == IN_CORPUS)
    input = file_source (corpus ());
  else
    input = file_source (opt.input_file);
  if (!input.bytes)
    bench_die (input.file, "is empty");
}

/* The input in a few words.  */
static const char *
input_label (void)
{
  static char text[300];

  if (opt.input == IN_FILE)
    snprintf (text, sizeof text, "%s (%lld bytes)", input.file,
              (long long) input.bytes);
  else
    snprintf (text, sizeof text, "%ld MiB of %s", opt.size_mib,
              opt.input == IN_ZEROS ? "zeros"
              : opt.input == IN_RANDOM ? "random bytes" : "the corpus");
  return text;
}

/* The compression options, as the notes and the chart name them:
 * "-z 6", or "-z 6 --compress-algo bzip2".  */
static const char *
compression_label (void)
{
  static char text[64];

  snprintf (text, sizeof text, "-z %d%s%s", opt.zlevel,
            opt.compress_algo ? " --compress-algo " : "",
            opt.compress_algo ? opt.compress_algo : "");
  return text;
}

static double
metric_value (const struct bench_usage *u, enum metric m)
{
  switch (m)
    {
    case M_WALL:
      return u->wall;
    case M_USER:
      return u->user;
    case M_SYS:
      return u->sys;
    default:
      return u->maxrss_kib;
    }
}

/* Median and range of metric M over the runs at U.  */
static struct bench_range
metric_range (const struct bench_usage *u, enum metric m)
{
  double *v = bench_xcalloc (opt.runs, sizeof *v);
  struct bench_range r;
  int i;

  for (i = 0; i < opt.runs; i++)
    v[i] = metric_value (&u[i], m);
  r = bench_range (v, opt.runs);
  free (v);
  return r;
}

/* Throughput of one tool in MiB/s of its user time: median and range
 * over the runs, and the net rate once the fixed cost (the user time
 * with an empty input) is subtracted.  The net rate is a difference
 * of two times; it is NaN and not RELIABLE when the fixed cost is
 * more than half of a run, or when the runs disagree by more than the
 * difference itself.  */
struct rate
{
  int measured;
  double median, min, max, net;
  int reliable;
};

static double
per_second (double mib, double seconds)
{
  return seconds > 0 ? mib / seconds : NAN;
}

static struct rate
rate_of (const struct figures *f)
{
  struct rate r = { 0, NAN, NAN, NAN, NAN, 0 };
  struct bench_range user, fixed;
  double mib = input.bytes / MIB, net_time, spread;

  if (!f || !f->measured)
    return r;
  user = metric_range (f->data, M_USER);
  fixed = metric_range (f->empty, M_USER);
  r.measured = 1;
  r.median = per_second (mib, user.median);
  r.min = per_second (mib, user.max);
  r.max = per_second (mib, user.min);
  net_time = user.median - fixed.median;
  spread = (user.max - user.min) + (fixed.max - fixed.min);
  r.reliable = 2 * fixed.median <= user.median && spread < net_time;
  if (r.reliable)
    r.net = per_second (mib, net_time);
  return r;
}

static double
mbits (double mibs)
{
  return mibs * MIB * 8 / 1e6;
}

/* The columns every table starts with; THREADS only with --threads
 * (else -1), so that the tables stay as they were without it.  */
struct key_cols
{
  int algo, bits, impl, threads, op;
};

static void
add_key_columns (report_table_t *tab, struct key_cols *k)
{
  k->algo = report_add_column (tab, "algo", "ALGO", REPORT_STR, 0, 0);
  k->bits = report_add_column (tab, "bits", "BITS", REPORT_NUM, 0, 0);
  k->impl = report_add_column (tab, "impl", "IMPL", REPORT_STR, 0, 0);
  k->threads = opt.threads ? report_add_column (tab, "threads", "THREADS",
                                                REPORT_STR, 0, 0) : -1;
  k->op = report_add_column (tab, "op", "OP", REPORT_STR, 0, 0);
}

/* Add a row of tool T's to TAB and set its key cells from ROW; only
 * sfenc has a thread count, a peer "-".  */
static void
start_row (report_table_t *tab, const struct key_cols *k,
           const struct row *row, enum tool t)
{
  report_add_row (tab);
  report_set_str (tab, k->algo, row->algo->name);
  report_set_num (tab, k->bits, row->algo->keybits);
  report_set_str (tab, k->impl, row->impl);
  if (k->threads >= 0)
    report_set_str (tab, k->threads,
                    t == T_SFENC && row->threads ? row->threads : "-");
  report_set_str (tab, k->op, op_names[row->op]);
}

/* The results table: one row per algorithm, implementation and
 * direction, every tool's rates and their ratios to sfenc's.  */
struct rate_cols
{
  struct key_cols key;
  int mibs[N_TOOLS], mbits[N_TOOLS], min[N_TOOLS], max[N_TOOLS];
  int net[N_TOOLS], net_ok[N_TOOLS];
  int ratio[N_TOOLS], ratio_net[N_TOOLS], ratio_net_ok[N_TOOLS];
};

/* report_add_column with KEY made by bench_xasprintf, freed here.  */
static int
add_made_column (report_table_t *tab, char *key, const char *header,
                 enum report_col_kind kind, int decimals, unsigned int flags)
{
  int col = report_add_column (tab, key, header, kind, decimals, flags);

  free (key);
  return col;
}

static void
add_rate_columns (report_table_t *tab, struct rate_cols *k)
{
  int t;

  add_key_columns (tab, &k->key);
  for (t = 0; t < N_TOOLS; t++)
    {
      const char *n = tool_names[t];
      unsigned int peer = t == T_SFENC ? 0 : REPORT_DETAIL;
      unsigned int ossl = t == T_OPENSSL ? REPORT_DETAIL : 0;
      char net[40], ratio[40], ratio_net[40];

      snprintf (net, sizeof net, "%s-net", n);
      snprintf (ratio, sizeof ratio, "x%s", n);
      snprintf (ratio_net, sizeof ratio_net, "x%s-net", n);
      k->mibs[t] = add_made_column (tab, bench_xasprintf ("%s_mibs", n),
                                    n, REPORT_NUM, 1, 0);
      k->mbits[t] = add_made_column (tab, bench_xasprintf ("%s_mbits", n),
                                     "Mbit/s", REPORT_NUM, 0, peer);
      k->min[t] = add_made_column (tab, bench_xasprintf ("%s_min_mibs", n),
                                   "min", REPORT_NUM, 1, peer);
      k->max[t] = add_made_column (tab, bench_xasprintf ("%s_max_mibs", n),
                                   "max", REPORT_NUM, 1, peer);
      k->net[t] = add_made_column (tab, bench_xasprintf ("%s_net_mibs", n),
                                   t ? net : "net", REPORT_NUM, 1, ossl);
      k->net_ok[t] = add_made_column
        (tab, bench_xasprintf ("%s_net_reliable", n), "reliable",
         REPORT_BOOL, 0, REPORT_DETAIL);
      if (t == T_SFENC)
        continue;
      k->ratio[t] = add_made_column (tab, bench_xasprintf ("ratio_%s", n),
                                     ratio, REPORT_RATIO, 2, 0);
      k->ratio_net[t] = add_made_column
        (tab, bench_xasprintf ("ratio_%s_net", n), ratio_net, REPORT_RATIO,
         2, ossl);
      k->ratio_net_ok[t] = add_made_column
        (tab, bench_xasprintf ("ratio_%s_net_reliable", n), "reliable",
         REPORT_BOOL, 0, REPORT_DETAIL);
    }
}

/* Set a net figure V in COL and whether it is RELIABLE in OK_COL;
 * an unreliable figure of a tool that was MEASURED is marked.  */
static void
set_net (report_table_t *tab, int col, int ok_col, int measured,
         int reliable, double v)
{
  if (!measured)
    return;
  report_set_num (tab, ok_col, reliable);
  if (reliable)
    report_set_num (tab, col, v);
  else
    {
      report_set_missing (tab, col, UNRELIABLE);
      any_unreliable = 1;
    }
}

static void
add_rate_row (report_table_t *tab, const struct rate_cols *k,
              const struct row *row)
{
  struct rate r[N_TOOLS];
  int t;

  start_row (tab, &k->key, row, T_SFENC);
  for (t = 0; t < N_TOOLS; t++)
    r[t] = rate_of (row->fig[t]);
  for (t = 0; t < N_TOOLS; t++)
    {
      report_set_num (tab, k->mibs[t], r[t].median);
      report_set_num (tab, k->mbits[t], mbits (r[t].median));
      report_set_num (tab, k->min[t], r[t].min);
      report_set_num (tab, k->max[t], r[t].max);
      set_net (tab, k->net[t], k->net_ok[t], r[t].measured, r[t].reliable,
               r[t].net);
      if (t == T_SFENC)
        continue;
      report_set_num (tab, k->ratio[t], r[T_SFENC].median / r[t].median);
      set_net (tab, k->ratio_net[t], k->ratio_net_ok[t], r[t].measured,
               r[T_SFENC].reliable && r[t].reliable,
               r[T_SFENC].net / r[t].net);
    }
}

/* The usage table: one row per tool of each results row, with the
 * median, min and max of every metric, and the tool's median over
 * sfenc's.  */
struct usage_cols
{
  struct key_cols key;
  int tool;
  int median[N_METRICS], min[N_METRICS], max[N_METRICS];
  int fixed, ratio[N_METRICS];
};

static void
add_usage_columns (report_table_t *tab, struct usage_cols *k)
{
  int m;

  add_key_columns (tab, &k->key);
  k->tool = report_add_column (tab, "tool", "TOOL", REPORT_STR, 0, 0);
  for (m = 0; m < N_METRICS; m++)
    {
      const char *n = metric_names[m], *u = metric_units[m];
      int d = metric_decimals[m];

      k->median[m] = add_made_column
        (tab, bench_xasprintf ("%s_median_%s", n, u), n, REPORT_NUM, d, 0);
      k->min[m] = add_made_column
        (tab, bench_xasprintf ("%s_min_%s", n, u), "min", REPORT_NUM, d, 0);
      k->max[m] = add_made_column
        (tab, bench_xasprintf ("%s_max_%s", n, u), "max", REPORT_NUM, d, 0);
    }
  k->fixed = report_add_column (tab, "fixed_user_s", "fixed", REPORT_NUM, 3,
                                0);
  for (m = 0; m < N_METRICS; m++)
    {
      char ratio[40];

      snprintf (ratio, sizeof ratio, "x%s", metric_names[m]);
      k->ratio[m] = add_made_column
        (tab, bench_xasprintf ("ratio_%s", metric_names[m]), ratio,
         REPORT_RATIO, 2, 0);
    }
}

static void
add_usage_rows (report_table_t *tab, const struct usage_cols *k,
                const struct row *row)
{
  struct bench_range sfenc[N_METRICS];
  int t, m;

  for (m = 0; m < N_METRICS; m++)
    sfenc[m] = metric_range (row->fig[T_SFENC]->data, m);
  for (t = 0; t < N_TOOLS; t++)
    {
      const struct figures *f = row->fig[t];

      if (!f || !f->measured)
        continue;
      start_row (tab, &k->key, row, t);
      report_set_str (tab, k->tool, tool_names[t]);
      for (m = 0; m < N_METRICS; m++)
        {
          struct bench_range r = metric_range (f->data, m);

          report_set_num (tab, k->median[m], r.median);
          report_set_num (tab, k->min[m], r.min);
          report_set_num (tab, k->max[m], r.max);
          if (t != T_SFENC)
            report_set_num (tab, k->ratio[m], r.median / sfenc[m].median);
        }
      report_set_num (tab, k->fixed, metric_range (f->empty, M_USER).median);
    }
}

/* The runs table (CSV and JSON only): every sample of every tool.  */
struct run_cols
{
  struct key_cols key;
  int tool, run, input, value[N_METRICS];
};

static void
add_run_columns (report_table_t *tab, struct run_cols *k)
{
  int m;

  add_key_columns (tab, &k->key);
  k->tool = report_add_column (tab, "tool", "TOOL", REPORT_STR, 0, 0);
  k->run = report_add_column (tab, "run", "RUN", REPORT_NUM, 0, 0);
  k->input = report_add_column (tab, "input", "INPUT", REPORT_STR, 0, 0);
  for (m = 0; m < N_METRICS; m++)
    k->value[m] = add_made_column
      (tab, bench_xasprintf ("%s_%s", metric_names[m], metric_units[m]),
       metric_names[m], REPORT_NUM, m == M_MAXRSS ? 0 : 6, 0);
}

/* The samples of tool T in ROW; a peer's have no implementation.  */
static void
add_run_rows (report_table_t *tab, const struct run_cols *k,
              const struct row *row, int t)
{
  const struct figures *f = row->fig[t];
  int r, m, empty;

  for (r = 0; r < opt.runs; r++)
    for (empty = 0; empty < 2; empty++)
      {
        const struct bench_usage *u = empty ? &f->empty[r] : &f->data[r];

        start_row (tab, &k->key, row, t);
        if (t != T_SFENC)
          report_set_str (tab, k->key.impl, NULL);
        report_set_str (tab, k->tool, tool_names[t]);
        report_set_num (tab, k->run, r + 1);
        report_set_str (tab, k->input, empty ? "empty" : "data");
        for (m = 0; m < N_METRICS; m++)
          report_set_num (tab, k->value[m], metric_value (u, m));
      }
}

/* What was measured, how, and with which programs.  */
static void
add_notes (report_t *rep, const char *maker)
{
  int t;

  report_note (rep, "sfbench: %s through a pipe, %s; wall, user and sys"
               " time and max RSS of the %s process alone; median of %d"
               " runs, interleaved", input_label (), compression_label (),
               opt.encrypt ? "encrypting" : "decrypting", opt.runs);
  if (opt.input == IN_RANDOM)
    report_note (rep, "random: made once, the same bytes for every tool");
  if (opt.input == IN_CORPUS)
    report_note (rep, "corpus: %s (%s), files of /usr/lib and /usr/share"
                 " in sorted path order, compressed ones left out",
                 input.file, corpus_reused ? "reused" : "built now");
  if (opt.zlevel && !opt.compress_algo)
    report_note (rep, "-z %d: each OpenPGP tool's default compression at"
                 " level %d; rates count the uncompressed bytes",
                 opt.zlevel, opt.zlevel);
  if (opt.compress_algo)
    report_note (rep, "%s: every OpenPGP tool compresses with %s at level"
                 " %d (rnp: --%s); rates count the uncompressed bytes",
                 compression_label (), opt.compress_algo, opt.zlevel,
                 opt.compress_algo);
  if (opt.threads)
    report_note (rep, "THREADS: one sfenc row per count N, sfenc run with"
                 " --threads N; user and sys time are those of all its"
                 " threads; \"-\": a peer, run as it is");
  report_note (rep, "MiB/s by user CPU time (Mbit/s = 10^6 bit/s); min/max:"
               " range over the runs; net: after subtracting the fixed cost"
               " (S2K, start-up) measured with an empty input");
  report_note (rep, "xPEER = sfenc MiB/s / PEER MiB/s, and in the usage table"
               " PEER's figure / sfenc's: above 1, sfenc is faster (or"
               " smaller)%s", opt.zlevel ? ""
               : "; openssl enc: CFB with a raw -K/-iv key, no S2K");
  if (any_unreliable)
    report_note (rep, "n/a" UNRELIABLE ": net figure unreliable: the fixed"
                 " cost is more than half of the run, or the runs' spread"
                 " (max - min, with and without input) exceeds the net"
                 " time; measure with a larger --size%s",
                 opt.runs > 1 ? "" : " (one run: no spread to judge by)");
  if (opt.aead)
    report_note (rep, "--aead %s: sfenc writes SEIPD v2 (RFC 9580) and rnp"
                 " the LibrePGP AEAD packet with %s; gpg 2.2 and openssl"
                 " enc have no AEAD and stay in CFB (gpg with its MDC)%s",
                 opt.aead, opt.aead, maker ? "; dec: sfenc and rnp decrypt"
                 " AEAD messages they made themselves" : "");
  if (maker)
    report_note (rep, "dec: %s the same file, made once per algorithm"
                 " by %s%s%s", opt.aead ? "gpg and openssl decrypt"
                 : "every tool decrypts", maker,
                 opt.compress_algo ? " with --compress-algo " : "",
                 opt.compress_algo ? opt.compress_algo : "");
  report_note (rep, "sfenc: %s", tool_path[T_SFENC]);
  for (t = T_GPG; t < N_TOOLS; t++)
    {
      if (tool_path[t] && !*tool_why[t])
        report_note (rep, "%s: %s", tool_names[t], tool_path[t]);
      else if (tool_path[t])
        report_note (rep, "%s: %s; n/a for %s", tool_names[t], tool_path[t],
                     tool_why[t]);
      else
        report_note (rep, "%s: n/a (%s)", tool_names[t], tool_why[t]);
    }
}

/* The report: results, usage and runs tables, encryption rows before
 * decryption rows, then the notes (which print first).  */
static report_t *
build_report (const struct row *rows, size_t nrows, const char *maker)
{
  report_t *rep = report_new ("sfbench");
  report_table_t *results = report_add_table (rep, "results", NULL);
  report_table_t *usage = report_add_table
    (rep, "usage", "wall, user, sys: seconds; maxrss: KiB; median, min and"
     " max over the runs; fixed: user seconds with an empty input;"
     " xMETRIC = TOOL's median / sfenc's");
  report_table_t *runs = report_add_table (rep, "runs", NULL);
  struct rate_cols rk;
  struct usage_cols uk;
  struct run_cols xk;
  const struct row *prev = NULL;
  size_t i;
  int op, t;

  report_set_table_flags (runs, REPORT_DETAIL);
  add_rate_columns (results, &rk);
  add_usage_columns (usage, &uk);
  add_run_columns (runs, &xk);
  for (op = 0; op < N_OPS; op++)
    for (i = 0; i < nrows; i++)
      if (rows[i].op == (enum op) op)
        {
          add_rate_row (results, &rk, &rows[i]);
          add_usage_rows (usage, &uk, &rows[i]);
          /* The peers' samples once for the rows that share them.  */
          for (t = 0; t < N_TOOLS; t++)
            if (rows[i].fig[t] && rows[i].fig[t]->measured
                && (t == T_SFENC || !prev || prev->fig[t] != rows[i].fig[t]))
              add_run_rows (runs, &xk, &rows[i], t);
          prev = &rows[i];
        }
  add_notes (rep, maker);
  return rep;
}

/* Look for the sfenc built beside this program: in the same directory
 * once installed, in ../g10 in the build tree.  */
static char *
default_sfenc (const char *argv0)
{
  static const char *const relative[] = { "sfenc", "../g10/sfenc" };
  char self[4096], *slash, *path;
  ssize_t n = readlink ("/proc/self/exe", self, sizeof self - 1);
  size_t i;

  if (n <= 0)
    {
      snprintf (self, sizeof self, "%s", argv0);
      n = strlen (self);
    }
  self[n] = 0;
  slash = strrchr (self, '/');
  if (slash)
    for (i = 0; i < sizeof relative / sizeof *relative; i++)
      {
        char file[4200];

        *slash = 0;
        snprintf (file, sizeof file, "%s/%s", self, relative[i]);
        *slash = '/';
        path = bench_find_program (file);
        if (path)
          return path;
      }
  return bench_find_program ("sfenc");
}

/* A whole number in [LO, HI] from S, or die naming OPTION and
 * EXPECTED.  */
static long
parse_whole (const char *option, const char *s, long lo, long hi,
             const char *expected)
{
  double v = bench_parse_number (option, s, lo, hi, expected);

  if (v != (long) v)
    bench_die (option, expected);
  return (long) v;
}

static void
parse_input (const char *val)
{
  if (!strcmp (val, "zeros"))
    opt.input = IN_ZEROS;
  else if (!strcmp (val, "random"))
    opt.input = IN_RANDOM;
  else if (!strcmp (val, "corpus"))
    opt.input = IN_CORPUS;
  else
    {
      opt.input = IN_FILE;
      opt.input_file = val;
    }
}

/* The tool T when ARG is PREFIX followed by its name, else -1.  */
static int
tool_option (const char *arg, const char *prefix)
{
  size_t len = strlen (prefix);
  int t;

  for (t = 0; t < N_TOOLS; t++)
    if (!strncmp (arg, prefix, len) && !strcmp (arg + len, tool_names[t]))
      return t;
  return -1;
}

/* The canonical name of the AEAD mode VAL of option ARG.  */
static const char *
parse_aead (const char *arg, const char *val)
{
  static const char *const modes[] = { "OCB", "EAX", "GCM" };
  size_t j;

  for (j = 0; j < sizeof modes / sizeof *modes; j++)
    if (!strcasecmp (val, modes[j]))
      return modes[j];
  bench_die (arg, "OCB, EAX or GCM expected");
  return NULL;
}

/* The compression algorithm VAL of option ARG, in lower case: its
 * name for sfenc and gpg, and rnp's option without the "--".  */
static const char *
parse_compress_algo (const char *arg, const char *val)
{
  static const char *const algos[] = { "zip", "zlib", "bzip2" };
  size_t j;

  for (j = 0; j < sizeof algos / sizeof *algos; j++)
    if (!strcasecmp (val, algos[j]))
      return algos[j];
  bench_die (arg, "zip, zlib or bzip2 expected");
  return NULL;
}

/* The tool VAL of option ARG that makes the message to decrypt.  */
static enum tool
parse_message_by (const char *arg, const char *val)
{
  if (strcmp (val, tool_names[T_GPG]) && strcmp (val, tool_names[T_SFENC]))
    bench_die (arg, "gpg or sfenc expected");
  return strcmp (val, tool_names[T_GPG]) ? T_SFENC : T_GPG;
}

/* The thread counts of the list VAL of option ARG, each as a whole
 * number from 1 to 64, the range of sfenc --threads.  */
static char **
parse_threads (const char *arg, const char *val)
{
  static const char expected[] = "thread counts from 1 to 64, comma"
    " separated, expected";
  size_t n, j;
  char **list = bench_split_list (val, &n);

  if (!n)
    bench_die (arg, expected);
  for (j = 0; j < n; j++)
    list[j] = bench_xasprintf ("%ld", parse_whole (arg, list[j], 1, 64,
                                                   expected));
  return list;
}

/* The sfenc rows a list option makes: one per name in LIST, one when
 * LIST is NULL (the option not given).  */
static size_t
list_rows (char **list)
{
  size_t n = 0;

  while (list && list[n])
    n++;
  return list ? n : 1;
}

/* Set the option ARG, which takes a value, to VAL.  */
static void
set_option (const char *arg, const char *val)
{
  int t = tool_option (arg, "--");

  if (t >= 0)
    opt.path[t] = val;
  else if (!strcmp (arg, "--size"))
    {
      opt.size_mib = parse_whole (arg, val, 1, 65536, "a whole number of"
                                  " MiB from 1 to 65536 expected");
      opt.size_given = 1;
    }
  else if (!strcmp (arg, "--runs"))
    opt.runs = parse_whole (arg, val, 1, 101, "a count from 1 to 101"
                            " expected");
  else if (!strcmp (arg, "-z"))
    opt.zlevel = parse_whole (arg, val, 0, 9, "a compression level from 0"
                              " to 9 expected");
  else if (!strcmp (arg, "--input"))
    parse_input (val);
  else if (!strcmp (arg, "--corpus-dir"))
    opt.corpus_dir = val;
  else if (!strcmp (arg, "--algo"))
    opt.algos = bench_split_list (val, NULL);
  else if (!strcmp (arg, "--cipher-impl"))
    opt.impls = bench_split_list (val, NULL);
  else if (!strcmp (arg, "--format"))
    opt.format = report_parse_format (arg, val);
  else if (!strcmp (arg, "--plot"))
    opt.plot = val;
  else if (!strcmp (arg, "--save"))
    opt.save = val;
  else if (!strcmp (arg, "--aead"))
    opt.aead = parse_aead (arg, val);
  else if (!strcmp (arg, "--compress-algo"))
    opt.compress_algo = parse_compress_algo (arg, val);
  else if (!strcmp (arg, "--threads"))
    opt.threads = parse_threads (arg, val);
  else if (!strcmp (arg, "--message-by"))
    opt.message_by = parse_message_by (arg, val);
  else
    opt.passphrase = val;
}

/* Whether ARG is an option that takes a value.  */
static int
takes_value (const char *arg)
{
  static const char *const with_value[] =
    { "--size", "--runs", "-z", "--input", "--corpus-dir", "--algo",
      "--cipher-impl", "--format", "--plot", "--save", "--passphrase",
      "--aead", "--compress-algo", "--threads", "--message-by" };
  size_t j;

  for (j = 0; j < sizeof with_value / sizeof *with_value; j++)
    if (!strcmp (arg, with_value[j]))
      return 1;
  return tool_option (arg, "--") >= 0;
}

static void
parse_args (int argc, char **argv)
{
  int i;

  for (i = 1; i < argc; i++)
    {
      const char *arg = argv[i];
      int t;

      if (!strcmp (arg, "--help"))
        {
          usage (stdout);
          exit (0);
        }
      if (!strcmp (arg, "--no-decrypt"))
        {
          opt.decrypt = 0;
          continue;
        }
      if (!strcmp (arg, "--decrypt-only"))
        {
          opt.encrypt = 0;
          continue;
        }
      t = tool_option (arg, "--no-");
      if (t > T_SFENC)
        {
          opt.enabled[t] = 0;
          continue;
        }
      if (!takes_value (arg))
        bench_die (arg, "unknown option (try --help)");
      if (i + 1 == argc)
        bench_die (arg, "missing argument");
      set_option (arg, argv[++i]);
    }
  if (opt.input == IN_FILE && opt.size_given)
    bench_die ("--size", "--input FILE is measured whole; leave --size out");
  if (!opt.encrypt && !opt.decrypt)
    bench_die ("--decrypt-only", "with --no-decrypt, nothing is left to"
               " measure");
  if (opt.compress_algo && !opt.zlevel)
    bench_die ("--compress-algo", "needs -z 1 to 9 (with -z 0 nothing is"
               " compressed)");
  if (opt.threads
      && list_rows (opt.impls) * list_rows (opt.threads) > MAX_VARIANTS)
    bench_die ("--threads", bench_xasprintf
               ("at most %d sfenc rows per algorithm (--cipher-impl times"
                " --threads)", MAX_VARIANTS));
  if (opt.plot)
    plot_check ("--plot", opt.plot);
}

/* Find the peers, and start gpg once so that its first-call work
 * (the keybox, the agent) is not measured.  */
static void
find_tools (const char *argv0)
{
  char *real;
  int t;

  tool_path[T_SFENC] = opt.path[T_SFENC]
    ? bench_find_program (opt.path[T_SFENC]) : default_sfenc (argv0);
  if (!tool_path[T_SFENC])
    bench_die (opt.path[T_SFENC] ? opt.path[T_SFENC] : "sfenc",
               "not found (build it, or name it with --sfenc)");
  real = realpath (tool_path[T_SFENC], NULL);
  if (real)
    {
      free (tool_path[T_SFENC]);
      tool_path[T_SFENC] = real;
    }
  for (t = T_GPG; t < N_TOOLS; t++)
    {
      const char *name = opt.path[t] ? opt.path[t] : tool_names[t];

      if (!opt.enabled[t])
        snprintf (tool_why[t], sizeof tool_why[t], "left out (--no-%s)",
                  tool_names[t]);
      else if (t == T_OPENSSL && opt.zlevel)
        snprintf (tool_why[t], sizeof tool_why[t], "openssl enc has no"
                  " compression: left out of -z %d runs", opt.zlevel);
      else if (!(tool_path[t] = bench_find_program (name)))
        snprintf (tool_why[t], sizeof tool_why[t], "%s: not found", name);
    }
  if (tool_path[T_GPG])
    {
      char *argv[] = { tool_path[T_GPG], "--batch", "--pinentry-mode",
                       "loopback", "--passphrase", (char *) opt.passphrase,
                       "-c", NULL };
      struct bench_usage u;
      const char *why;

      if (run_once (argv, gnupghome_env, NULL, NULL, &u, &why))
        {
          snprintf (tool_why[T_GPG], sizeof tool_why[T_GPG], "%s: %s",
                    tool_path[T_GPG], why);
          free (tool_path[T_GPG]);
          tool_path[T_GPG] = NULL;
        }
    }
}

static void
make_workdir (void)
{
  workdir = bench_xasprintf ("%s/sfbench.XXXXXX", temp_dir ());
  if (!mkdtemp (workdir))
    bench_die ("mkdtemp", strerror (errno));
  gnupghome = workfile ("gnupg");
  rnphome = workfile ("rnp");
  stderr_file = workfile ("stderr");
  if (mkdir (gnupghome, 0700) || mkdir (rnphome, 0700))
    bench_die (workdir, strerror (errno));
  gnupghome_env = bench_xasprintf ("GNUPGHOME=%s", gnupghome);
}

/* The ways sfenc is run on algorithm A, one row each: every usable
 * implementation --cipher-impl selects (NULL: the default), each with
 * every --threads count (NULL: no option).  Fills V and returns their
 * number, at most MAX_VARIANTS.  */
static int
select_variants (const struct algo *a, struct variant *v)
{
  const char *impls[MAX_IMPLS];
  int nimpl = 0, nvar = 0, m, j;
  size_t k;

  if (!opt.impls)
    impls[nimpl++] = NULL;
  else
    for (j = 0; opt.impls[j]; j++)
      for (m = 0; m < a->nimpls && nimpl < MAX_IMPLS; m++)
        if (!strcasecmp (a->impls[m], opt.impls[j]) && a->usable[m])
          impls[nimpl++] = a->impls[m];
  for (m = 0; m < nimpl; m++)
    for (k = 0; k < list_rows (opt.threads) && nvar < MAX_VARIANTS; k++)
      {
        v[nvar].impl = impls[m];
        v[nvar].threads = opt.threads ? opt.threads[k] : NULL;
        nvar++;
      }
  return nvar;
}

/* Measure algorithm A: encryption, then decryption of a file made
 * once, for each way sfenc is run (select_variants) and every peer.
 * Fills ROWS and returns their number; *MAKER gets the tool that made
 * the file to decrypt.  */
static size_t
bench_algorithm (const struct algo *a, struct row *rows, const char **maker)
{
  struct command cmds[MAX_VARIANTS + N_TOOLS];
  const char *labels[MAX_VARIANTS + N_TOOLS];
  char label_buf[MAX_VARIANTS][80];
  struct variant variants[MAX_VARIANTS];
  int failed[N_TOOLS] = { 0 };
  int nvar, m, t, op, legacy;
  size_t nrows = 0;
  char *data, *empty, *own_files[4] = { NULL, NULL, NULL, NULL };

  nvar = select_variants (a, variants);
  if (!nvar)
    return 0;

  data = workfile ("data.gpg");
  empty = workfile ("empty.gpg");
  for (op = 0; op < N_OPS; op++)
    {
      struct figures *figs[MAX_VARIANTS + N_TOOLS];
      struct command *ossl = &cmds[nvar + T_OPENSSL - 1];
      struct source ciphertext, empty_ciphertext;
      const struct source *data_src = &input, *empty_src = NULL;
      int ncmd = 0;

      if ((op == OP_ENC && !opt.encrypt) || (op == OP_DEC && !opt.decrypt))
        continue;
      if (op == OP_DEC)
        {
          *maker = make_ciphertexts (a, data, empty);
          ciphertext = file_source (data);
          empty_ciphertext = file_source (empty);
          data_src = &ciphertext;
          empty_src = &empty_ciphertext;
        }
      for (m = 0; m < nvar; m++)
        {
          build_command (&cmds[ncmd], T_SFENC, op, a, &variants[m], 0);
          snprintf (label_buf[m], sizeof label_buf[m], "sfenc %s%s%s",
                    variants[m].impl ? variants[m].impl : a->default_impl,
                    variants[m].threads ? " --threads " : "",
                    variants[m].threads ? variants[m].threads : "");
          labels[ncmd] = label_buf[m];
          figs[ncmd++] = new_figures ();
        }
      for (t = T_GPG; t < N_TOOLS; t++)
        {
          build_command (&cmds[ncmd], t, op, a, NULL, 0);
          labels[ncmd] = tool_names[t];
          figs[ncmd++] = new_figures ();
        }
      if (op == OP_DEC && opt.aead)
        {
          /* One message of sfenc's, for every row of sfenc's.  */
          make_own_ciphertexts (&cmds[0], T_SFENC, a, own_files);
          for (m = 1; m < nvar; m++)
            {
              cmds[m].own_input = cmds[0].own_input;
              cmds[m].own_data = cmds[0].own_data;
              cmds[m].own_empty = cmds[0].own_empty;
            }
          make_own_ciphertexts (&cmds[nvar + T_RNP - 1], T_RNP, a,
                                own_files + 2);
        }
      /* openssl: the default providers, else the legacy one too.  */
      for (legacy = 0; legacy < 2; legacy++)
        {
          struct bench_usage u;
          const char *why;

          build_command (ossl, T_OPENSSL, op, a, NULL, legacy);
          if (!ossl->usable
              || !run_once (ossl->argv, NULL, empty_src, NULL, &u, &why))
            break;
          snprintf (ossl->why, sizeof ossl->why, "%s", why);
          ossl->usable = 0;
        }
      measure (a, cmds, figs, labels, ncmd, data_src, empty_src);
      for (m = 0; m < nvar; m++)
        {
          struct row *row = &rows[nrows++];

          row->algo = a;
          row->impl = variants[m].impl ? variants[m].impl : a->default_impl;
          row->threads = variants[m].threads;
          if (opt.aead)
            row->impl = bench_xasprintf ("%s+%s", row->impl, opt.aead);
          row->op = op;
          row->fig[T_SFENC] = figs[m];
          for (t = T_GPG; t < N_TOOLS; t++)
            row->fig[t] = cmds[nvar + t - 1].usable
              ? figs[nvar + t - 1] : NULL;
        }
      for (t = T_GPG; t < N_TOOLS; t++)
        if (!cmds[nvar + t - 1].usable)
          free_figures (figs[nvar + t - 1]);
      /* Say once per algorithm why a peer could not do it.  */
      for (t = T_GPG; t < N_TOOLS; t++)
        if (!cmds[nvar + t - 1].usable && tool_path[t] && !failed[t])
          {
            size_t len = strlen (tool_why[t]);

            failed[t] = 1;
            snprintf (tool_why[t] + len, sizeof tool_why[t] - len,
                      "%s%s (%s)", len ? "; " : "", a->name,
                      cmds[nvar + t - 1].why);
          }
    }
  unlink (data);
  unlink (empty);
  free (data);
  free (empty);
  for (t = 0; t < 4; t++)
    if (own_files[t])
      {
        unlink (own_files[t]);
        free (own_files[t]);
      }
  return nrows;
}

/* Free NROWS ROWS with their figures; those of a peer are shared by
 * the rows of one algorithm and direction, which are adjacent.  */
static void
free_rows (struct row *rows, size_t nrows)
{
  size_t i;
  int t;

  for (i = 0; i < nrows; i++)
    {
      free_figures (rows[i].fig[T_SFENC]);
      for (t = T_GPG; t < N_TOOLS; t++)
        if (!i || rows[i - 1].fig[t] != rows[i].fig[t])
          free_figures (rows[i].fig[t]);
      if (opt.aead)
        free ((char *) rows[i].impl);
    }
  free (rows);
}

/* The chart: one group per algorithm and direction, one bar per tool,
 * gross MiB/s.  */
static void
draw (const struct row *rows, size_t nrows)
{
  char **cats = bench_xcalloc (nrows, sizeof *cats);
  char *series[N_TOOLS];
  double *values = bench_xcalloc (nrows * N_TOOLS, sizeof *values);
  size_t n = 0, i;
  char title[200];
  int t, op;

  for (t = 0; t < N_TOOLS; t++)
    series[t] = (char *) tool_names[t];
  for (op = 0; op < N_OPS; op++)
    for (i = 0; i < nrows; i++)
      {
        char label[80];

        if (rows[i].op != (enum op) op)
          continue;
        snprintf (label, sizeof label, "%s%s%s%s%s%s", rows[i].algo->name,
                  opt.impls ? "/" : "", opt.impls ? rows[i].impl : "",
                  rows[i].threads ? " t" : "",
                  rows[i].threads ? rows[i].threads : "",
                  op == OP_DEC ? " -d" : "");
        cats[n] = bench_xstrdup (label);
        for (t = 0; t < N_TOOLS; t++)
          values[n * N_TOOLS + t] = rate_of (rows[i].fig[t]).median;
        n++;
      }
  snprintf (title, sizeof title, "sfbench: %s through a pipe, %s,"
            " user CPU time, median of %d runs", input_label (),
            compression_label (), opt.runs);
  plot_bars (opt.plot, title, "MiB/s", n, cats, N_TOOLS, series, values);
  bench_free_strings (cats, n);
  free (values);
}

/* Whether --algo selects A (with no --algo, every algorithm).  */
static int
selected (const struct algo *a)
{
  size_t j;

  for (j = 0; opt.algos && opt.algos[j]; j++)
    if (algo_has_name (a, opt.algos[j]))
      return 1;
  return !opt.algos;
}

/* Die unless every name in --algo and --cipher-impl is one of the
 * NALGOS ALGOS sfenc lists.  */
static void
check_selection (const struct algo *algos, size_t nalgos)
{
  size_t i, j;
  int m, found;

  for (j = 0; opt.algos && opt.algos[j]; j++)
    {
      for (i = 0; i < nalgos && !algo_has_name (&algos[i], opt.algos[j]); i++)
        ;
      if (i == nalgos)
        bench_die (opt.algos[j],
                   "unknown cipher algorithm (see sfenc --list-ciphers)");
    }
  for (j = 0; opt.impls && opt.impls[j]; j++)
    {
      for (found = 0, i = 0; i < nalgos; i++)
        for (m = 0; m < algos[i].nimpls; m++)
          found |= !strcasecmp (algos[i].impls[m], opt.impls[j]);
      if (!found)
        bench_die (opt.impls[j], "no such implementation (see sfenc"
                   " --list-ciphers)");
    }
}

int
main (int argc, char **argv)
{
  struct algo *algos;
  size_t nalgos, i, nrows = 0;
  struct row *rows;
  report_t *rep;
  const char *maker = NULL;
  int t;

  bench_progname = "sfbench";
  opt.size_mib = 64;
  opt.runs = 3;
  opt.message_by = T_GPG;
  opt.encrypt = 1;
  opt.decrypt = 1;
  opt.passphrase = "sfbench";
  for (t = 0; t < N_TOOLS; t++)
    opt.enabled[t] = 1;
  parse_args (argc, argv);
  snprintf (zlevel_arg, sizeof zlevel_arg, "%d", opt.zlevel);

  signal (SIGINT, on_signal);
  signal (SIGTERM, on_signal);
  signal (SIGHUP, on_signal);
  signal (SIGPIPE, SIG_IGN);
  show_progress = isatty (2);
  zeros = bench_xcalloc (1, CHUNK);
  copy_buf = bench_xcalloc (1, CHUNK);
  main_pid = getpid ();
  make_workdir ();
  bench_at_die (cleanup);
  atexit (cleanup);
  prepare_input ();
  find_tools (argv[0]);

  algos = list_algorithms (&nalgos);
  check_selection (algos, nalgos);
  rows = bench_xcalloc (nalgos * MAX_VARIANTS * N_OPS, sizeof *rows);
  for (i = 0; i < nalgos; i++)
    if (selected (&algos[i]))
      nrows += bench_algorithm (&algos[i], rows + nrows, &maker);
  if (!nrows)
    bench_die ("nothing to measure",
               "no implementation matches --algo and --cipher-impl");

  rep = build_report (rows, nrows, maker);
  report_provenance (rep, argc, argv);
  report_set_program (rep, tool_path[T_SFENC]);
  if (opt.plot)
    {
      draw (rows, nrows);
      report_add_chart (rep, opt.plot);
    }
  report_print (rep, opt.format, stdout);
  if (opt.save)
    report_save (rep, opt.save);
  report_free (rep);
  free_rows (rows, nrows);
  free_algorithms (algos, nalgos);
  return 0;
}
