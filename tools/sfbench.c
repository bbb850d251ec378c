/* sfbench.c - sfenc on a pipe, beside gpg, openssl enc and rnp
 *
 * The benchmark people run on gpg itself:
 *
 *   dd if=/dev/zero bs=1M count=N | sfenc -z 0 -c --cipher-algo X >/dev/null
 *
 * for every algorithm, counting the user CPU time of the encrypting
 * process alone.  sfbench forks the zero producer itself (the "dd"),
 * starts the encryptor on the other end of the pipe and collects the
 * encryptor's own resource usage with wait4(), so neither the producer
 * nor sfbench is counted.  Each peer gets the same stream in the same
 * round: gpg with the same options in a fresh GNUPGHOME, "openssl enc"
 * in CFB mode with a raw key (no key derivation), and rnp when it is
 * installed.  Decryption reads a file that gpg made once, so every
 * OpenPGP tool decrypts the same bytes.
 *
 * Every OpenPGP call first derives its key from the passphrase (the
 * S2K: by default 65 MB of hashing, twice for keys longer than the
 * hash).  That cost is measured with an empty input, in the same
 * rounds, and the net streaming rate is reported beside the gross one.
 */
#define _GNU_SOURCE 1           /* strcasestr */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>

#include "benchutil.h"
#include "plot.h"
#include "report.h"

#define MIB (1024.0 * 1024.0)
#define MAX_IMPLS 16            /* Implementations of one algorithm.  */

/* The tools compared, in column order.  */
enum tool { T_SFENC, T_GPG, T_OPENSSL, T_RNP, N_TOOLS };

static const char *const tool_names[N_TOOLS] =
  { "sfenc", "gpg", "openssl", "rnp" };

enum op { OP_ENC, OP_DEC, N_OPS };

static const char *const op_names[N_OPS] = { "enc", "dec" };

struct options
{
  long size_mib;
  int runs;
  char **algos;                 /* NULL: every OpenPGP algorithm.  */
  char **impls;                 /* NULL: the default implementation.  */
  const char *path[N_TOOLS];    /* Program names or paths.  */
  int enabled[N_TOOLS];
  int decrypt;
  enum report_format format;
  const char *plot;
  const char *save;
  const char *passphrase;
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

/* Figures of one tool for one algorithm, implementation and
 * direction.  Times are seconds of user CPU.  */
struct figures
{
  int measured;
  double *user, *sys, *wall;    /* One per run.  */
  double *fixed;                /* User time with an empty input.  */
};

/* A row of the result: sfenc's implementation IMPL of ALGO in OP,
 * with every tool's figures.  The peers' figures are shared by the
 * rows of the same algorithm and direction.  */
struct row
{
  const struct algo *algo;
  const char *impl;
  enum op op;
  struct figures *fig[N_TOOLS];
};

static struct options opt;
static char *tool_path[N_TOOLS];           /* NULL: not available.  */
static char tool_why[N_TOOLS][600];        /* Why not.  */
static char *workdir;                       /* Temporary directory.  */
static char *gnupghome_env, *gnupghome, *rnphome;
static char *stderr_file;
static unsigned char *zeros;                /* One MiB.  */
static volatile sig_atomic_t interrupted;
static int show_progress;


static void
usage (FILE *fp)
{
  fputs ("Usage: sfbench [OPTIONS]\n"
         "Encrypt and decrypt N MiB of zeros from a pipe with sfenc, and\n"
         "with gpg, openssl enc and rnp in the same rounds; report the\n"
         "throughput by user CPU time of the encrypting process.\n"
         "\n"
         "  --size MIB          megabytes (MiB) per run (default 64)\n"
         "  --runs N            runs per figure; median, min, max (default 3)\n"
         "  --algo LIST         algorithms, comma separated (default: every\n"
         "                      algorithm sfenc lists with an OpenPGP id)\n"
         "  --cipher-impl LIST  one row per sfenc implementation in LIST\n"
         "                      (default: the default implementation)\n"
         "  --no-decrypt        measure encryption only\n"
         "  --no-gpg, --no-openssl, --no-rnp   leave a peer out (n/a)\n"
         "  --sfenc PATH        sfenc to measure (default: the one built\n"
         "                      beside sfbench, else sfenc in PATH)\n"
         "  --gpg PATH, --openssl PATH, --rnp PATH   the peers' programs\n"
         "  --format FMT        text (default), markdown, csv or json\n"
         "  --save PREFIX       also write PREFIX.txt, .md, .csv and .json\n"
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

/* Stop the gpg-agent gpg started in our GNUPGHOME and remove the
 * temporary directory.  */
static void
cleanup (void)
{
  if (!workdir)
    return;
  if (tool_path[T_GPG])
    {
      char *argv[] = { "gpgconf", "--homedir", gnupghome, "--kill",
                       "gpg-agent", NULL };
      char *dir = bench_xstrdup (tool_path[T_GPG]);
      char *slash = strrchr (dir, '/');
      char gpgconf[4096];
      double start;
      struct bench_usage u;
      int pid;

      /* The gpgconf that belongs to this gpg, else the one in PATH.  */
      if (slash)
        {
          *slash = 0;
          snprintf (gpgconf, sizeof gpgconf, "%s/gpgconf", dir);
          if (!access (gpgconf, X_OK))
            argv[0] = gpgconf;
        }
      pid = bench_spawn (argv, -1, -1, -1, NULL, &start);
      if (pid > 0)
        bench_wait (pid, start, &u);
      free (dir);
    }
  nftw (workdir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
  free (workdir);
  workdir = NULL;
}

static char *
workfile (const char *name)
{
  size_t len = strlen (workdir) + strlen (name) + 2;
  char *p = bench_xcalloc (len, 1);

  snprintf (p, len, "%s/%s", workdir, name);
  return p;
}

static void
progress (const char *fmt, const char *algo, const char *what, int run)
{
  if (!show_progress)
    return;
  fputs ("\r\033[K", stderr);
  if (fmt)
    {
      fprintf (stderr, fmt, algo, what, run, opt.runs);
      fflush (stderr);
    }
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

/* Fork the producer: MIB MiB of zeros into FD, as dd would.  */
static int
start_producer (int fd, long mib)
{
  int pid;

  fflush (NULL);
  pid = fork ();
  if (pid < 0)
    bench_die ("fork", strerror (errno));
  if (!pid)
    {
      long i;

      signal (SIGPIPE, SIG_DFL);
      for (i = 0; i < mib; i++)
        {
          size_t done = 0;

          while (done < MIB)
            {
              ssize_t n = write (fd, zeros + done, (size_t) MIB - done);

              if (n < 0 && errno == EINTR)
                continue;
              if (n <= 0)
                _exit (1);
              done += n;
            }
        }
      _exit (0);
    }
  return pid;
}

/* Run ARGV once.  Its input is MIB MiB of zeros on a pipe when INPUT
 * is NULL (none at all when MIB is 0), else the file INPUT; its output
 * goes to OUTPUT (NULL: /dev/null).  Returns 0 and fills *U, or -1
 * with *WHY set.  */
static int
run_once (char *const *argv, const char *setenv_pair, long mib,
          const char *input, const char *output, struct bench_usage *u,
          const char **why)
{
  int in_fd = -1, out_fd = -1, err_fd, fds[2] = { -1, -1 };
  int producer = -1, pid, rc;
  double start;

  err_fd = open (stderr_file, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (err_fd < 0)
    bench_die (stderr_file, strerror (errno));
  if (output)
    {
      out_fd = open (output, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
      if (out_fd < 0)
        bench_die (output, strerror (errno));
    }
  if (input)
    {
      in_fd = open (input, O_RDONLY | O_CLOEXEC);
      if (in_fd < 0)
        bench_die (input, strerror (errno));
    }
  else if (mib)
    {
      /* Both ends close on exec, so the encryptor holds only its
       * standard input and sees the end of the stream.  */
      if (pipe (fds))
        bench_die ("pipe", strerror (errno));
      fcntl (fds[0], F_SETFD, FD_CLOEXEC);
      fcntl (fds[1], F_SETFD, FD_CLOEXEC);
      producer = start_producer (fds[1], mib);
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
  else
    rc = 0;
  if (in_fd >= 0)
    close (in_fd);
  if (out_fd >= 0)
    close (out_fd);
  close (err_fd);
  if (producer > 0)
    {
      struct bench_usage pu;

      bench_wait (producer, start, &pu);
    }
  if (interrupted)
    bench_die ("interrupted", "stopped by a signal");
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
  if (run_once (argv, NULL, 0, NULL, out_file, &u, &why))
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

/* Read the algorithms sfenc offers: those with an OpenPGP id, each
 * with its implementations, in the order sfenc lists them.  */
static struct algo *
list_algorithms (size_t *r_n)
{
  char *args[] = { "--list-ciphers", "--with-colons", NULL };
  char *text = capture_sfenc (args);
  struct algo *algos = bench_xcalloc (64, sizeof *algos);
  char *line, *save = NULL;
  size_t n = 0, i;

  for (line = strtok_r (text, "\n", &save); line;
       line = strtok_r (NULL, "\n", &save))
    {
      char *name, *impl, *status;
      int id;

      if (strncmp (line, "cipher:", 7))
        continue;
      name = field (line, 1);
      id = atoi (field (line, 3));
      impl = field (line, 6);
      status = field (line, 10);
      if (id <= 0)
        continue;
      for (i = 0; i < n && strcmp (algos[i].name, name); i++)
        ;
      if (i == n)
        {
          if (n == 64)
            break;
          algos[n].name = name;
          algos[n].aliases = bench_split_list (field (line, 2), NULL);
          algos[n].id = id;
          algos[n].blockbits = atoi (field (line, 4));
          algos[n].keybits = atoi (field (line, 5));
          n++;
        }
      if (algos[i].nimpls < MAX_IMPLS)
        {
          algos[i].impls[algos[i].nimpls] = impl;
          algos[i].usable[algos[i].nimpls] = (!strcmp (status, "default")
                                              || !strcmp (status, "usable"));
          algos[i].nimpls++;
        }
      if (!strcmp (status, "default"))
        algos[i].default_impl = impl;
    }
  if (!n)
    bench_die (tool_path[T_SFENC], "lists no cipher with an OpenPGP id");
  *r_n = n;
  return algos;
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
  char why[200];
  char cipher[64], key_hex[65], iv_hex[33];   /* openssl's arguments.  */
};

static void
build_command (struct command *c, enum tool t, enum op op,
               const struct algo *a, const char *impl, int openssl_legacy)
{
  const char *ossl = bench_openssl_name (a->name);
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
          c->argv[n++] = "-z";
          c->argv[n++] = "0";
          c->argv[n++] = "-c";
          c->argv[n++] = "--cipher-algo";
          c->argv[n++] = a->name;
        }
      else
        c->argv[n++] = "-d";
      if (impl)
        {
          c->argv[n++] = "--cipher-impl";
          c->argv[n++] = (char *) impl;
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
          c->argv[n++] = "-z";
          c->argv[n++] = "0";
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
          c->argv[n++] = "0";
          c->argv[n++] = "-c";
          c->argv[n++] = "--cipher";
          c->argv[n++] = (char *) rnp_name (a->name);
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

  f->user = bench_xcalloc (opt.runs, sizeof *f->user);
  f->sys = bench_xcalloc (opt.runs, sizeof *f->sys);
  f->wall = bench_xcalloc (opt.runs, sizeof *f->wall);
  f->fixed = bench_xcalloc (opt.runs, sizeof *f->fixed);
  return f;
}

/* Measure ALGO in OP with NCMD commands (sfenc's implementations,
 * then the peers), round after round, and fill FIGS.  DATA and EMPTY
 * are the input files for decryption.  */
static void
measure (const struct algo *a, enum op op, struct command *cmds,
         struct figures **figs, const char **labels, int ncmd,
         const char *data, const char *empty)
{
  int r, i;

  for (r = 0; r < opt.runs; r++)
    for (i = 0; i < ncmd; i++)
      {
        struct command *c = &cmds[i];
        struct bench_usage u;
        const char *why;

        if (!c->usable)
          continue;
        progress ("sfbench: %s: %s, run %d of %d", a->name, labels[i], r + 1);
        /* The empty input first: it is also the probe that tells
         * whether the tool can do this algorithm at all.  */
        if (run_once (c->argv, c->env, 0, op == OP_DEC ? empty : NULL, NULL,
                      &u, &why))
          {
            if (i == 0 || r > 0)
              bench_die (labels[i], why);
            c->usable = 0;
            snprintf (c->why, sizeof c->why, "%s", why);
            continue;
          }
        figs[i]->fixed[r] = u.user;
        if (run_once (c->argv, c->env, opt.size_mib,
                      op == OP_DEC ? data : NULL, NULL, &u, &why))
          bench_die (labels[i], why);
        figs[i]->user[r] = u.user;
        figs[i]->sys[r] = u.sys;
        figs[i]->wall[r] = u.wall;
        figs[i]->measured = 1;
      }
  progress (NULL, NULL, NULL, 0);
}

/* Make the files decryption reads: MIB MiB of zeros and an empty
 * input, encrypted by gpg when it can, else by sfenc.  Returns the
 * name of the tool that made them.  */
static const char *
make_ciphertexts (const struct algo *a, const char *data, const char *empty)
{
  struct command c;
  struct bench_usage u;
  const char *why;
  enum tool t = T_GPG;

  build_command (&c, T_GPG, OP_ENC, a, NULL, 0);
  if (!c.usable || run_once (c.argv, c.env, 0, NULL, empty, &u, &why))
    {
      t = T_SFENC;
      build_command (&c, T_SFENC, OP_ENC, a, NULL, 0);
      if (run_once (c.argv, c.env, 0, NULL, empty, &u, &why))
        bench_die (tool_names[t], why);
    }
  progress ("sfbench: %s: %s, run %d of %d", a->name, "making the input", 1);
  if (run_once (c.argv, c.env, opt.size_mib, NULL, data, &u, &why))
    bench_die (tool_names[t], why);
  return tool_names[t];
}

/* Median MiB/s over the runs of F, and the range.  */
static void
rates (const struct figures *f, double *median, double *min, double *max,
       double *fixed, double *net)
{
  double *mibs = bench_xcalloc (opt.runs, sizeof *mibs);
  double *user = bench_xcalloc (opt.runs, sizeof *user);
  double *fx = bench_xcalloc (opt.runs, sizeof *fx);
  double t;
  int r;

  *median = *min = *max = *fixed = *net = NAN;
  if (f && f->measured)
    {
      for (r = 0; r < opt.runs; r++)
        {
          mibs[r] = f->user[r] > 0 ? opt.size_mib / f->user[r] : NAN;
          user[r] = f->user[r];
          fx[r] = f->fixed[r];
        }
      t = bench_median (user, opt.runs);
      *fixed = bench_median (fx, opt.runs);
      *median = t > 0 ? opt.size_mib / t : NAN;
      *min = bench_min (mibs, opt.runs);
      *max = bench_max (mibs, opt.runs);
      *net = t > *fixed ? opt.size_mib / (t - *fixed) : NAN;
    }
  free (mibs);
  free (user);
  free (fx);
}

static double
median_of (const double *v)
{
  double *copy = bench_xcalloc (opt.runs, sizeof *copy);
  double m;

  memcpy (copy, v, opt.runs * sizeof *copy);
  m = bench_median (copy, opt.runs);
  free (copy);
  return m;
}

static double
mbits (double mibs)
{
  return mibs * MIB * 8 / 1e6;
}

/* Column indexes of the result table.  */
struct cols
{
  int algo, bits, impl, op;
  int mibs[N_TOOLS], mbit[N_TOOLS], min[N_TOOLS], max[N_TOOLS];
  int user[N_TOOLS], sys[N_TOOLS], wall[N_TOOLS], fixed[N_TOOLS];
  int net[N_TOOLS], ratio[N_TOOLS], ratio_net[N_TOOLS];
};

static void
add_columns (report_table_t *tab, struct cols *k)
{
  static char keys[N_TOOLS][11][32], headers[N_TOOLS][4][32];
  int t;

  k->algo = report_add_column (tab, "algo", "ALGO", REPORT_STR, 0, 0);
  k->bits = report_add_column (tab, "bits", "BITS", REPORT_NUM, 0, 0);
  k->impl = report_add_column (tab, "impl", "IMPL", REPORT_STR, 0, 0);
  k->op = report_add_column (tab, "op", "OP", REPORT_STR, 0, 0);
  for (t = 0; t < N_TOOLS; t++)
    {
      const char *n = tool_names[t];
      unsigned int detail = REPORT_DETAIL;
      int i = 0;

      snprintf (keys[t][i], 32, "%s_mibs", n);
      k->mibs[t] = report_add_column (tab, keys[t][i++], n, REPORT_NUM, 1, 0);
      snprintf (keys[t][i], 32, "%s_mbits", n);
      k->mbit[t] = report_add_column (tab, keys[t][i++], "Mbit/s",
                                      REPORT_NUM, 0, t ? detail : 0);
      snprintf (keys[t][i], 32, "%s_min_mibs", n);
      k->min[t] = report_add_column (tab, keys[t][i++], "min", REPORT_NUM, 1,
                                     t ? detail : 0);
      snprintf (keys[t][i], 32, "%s_max_mibs", n);
      k->max[t] = report_add_column (tab, keys[t][i++], "max", REPORT_NUM, 1,
                                     t ? detail : 0);
      snprintf (keys[t][i], 32, "%s_user_s", n);
      k->user[t] = report_add_column (tab, keys[t][i++], "user", REPORT_NUM,
                                      3, detail);
      snprintf (keys[t][i], 32, "%s_sys_s", n);
      k->sys[t] = report_add_column (tab, keys[t][i++], "sys", REPORT_NUM, 3,
                                     detail);
      snprintf (keys[t][i], 32, "%s_wall_s", n);
      k->wall[t] = report_add_column (tab, keys[t][i++], "wall", REPORT_NUM,
                                      3, detail);
      snprintf (keys[t][i], 32, "%s_fixed_s", n);
      k->fixed[t] = report_add_column (tab, keys[t][i++], "fixed",
                                       REPORT_NUM, 3, detail);
      snprintf (keys[t][i], 32, "%s_net_mibs", n);
      snprintf (headers[t][0], 32, "%s-net", n);
      k->net[t] = report_add_column (tab, keys[t][i++],
                                     t ? headers[t][0] : "net", REPORT_NUM, 1,
                                     t == T_OPENSSL ? detail : 0);
      if (t == T_SFENC)
        continue;
      snprintf (keys[t][i], 32, "ratio_%s", n);
      snprintf (headers[t][1], 32, "x%s", n);
      k->ratio[t] = report_add_column (tab, keys[t][i++], headers[t][1],
                                       REPORT_RATIO, 2, 0);
      snprintf (keys[t][i], 32, "ratio_%s_net", n);
      snprintf (headers[t][2], 32, "x%s-net", n);
      k->ratio_net[t] = report_add_column (tab, keys[t][i++], headers[t][2],
                                           REPORT_RATIO, 2,
                                           t == T_OPENSSL ? detail : 0);
    }
}

static void
add_row (report_table_t *tab, const struct cols *k, const struct row *row)
{
  double med[N_TOOLS], net[N_TOOLS];
  int t;

  report_add_row (tab);
  report_set_str (tab, k->algo, row->algo->name);
  report_set_num (tab, k->bits, row->algo->keybits);
  report_set_str (tab, k->impl, row->impl);
  report_set_str (tab, k->op, op_names[row->op]);
  for (t = 0; t < N_TOOLS; t++)
    {
      const struct figures *f = row->fig[t];
      double min, max, fixed;

      rates (f, &med[t], &min, &max, &fixed, &net[t]);
      report_set_num (tab, k->mibs[t], med[t]);
      report_set_num (tab, k->mbit[t], mbits (med[t]));
      report_set_num (tab, k->min[t], min);
      report_set_num (tab, k->max[t], max);
      report_set_num (tab, k->fixed[t], fixed);
      report_set_num (tab, k->net[t], net[t]);
      if (f && f->measured)
        {
          report_set_num (tab, k->user[t], median_of (f->user));
          report_set_num (tab, k->sys[t], median_of (f->sys));
          report_set_num (tab, k->wall[t], median_of (f->wall));
        }
      if (t != T_SFENC)
        {
          report_set_num (tab, k->ratio[t], med[T_SFENC] / med[t]);
          report_set_num (tab, k->ratio_net[t], net[T_SFENC] / net[t]);
        }
    }
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

static void
parse_args (int argc, char **argv)
{
  int i;

  for (i = 1; i < argc; i++)
    {
      const char *arg = argv[i];
      const char *val = i + 1 < argc ? argv[i + 1] : NULL;
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
      for (t = T_GPG; t < N_TOOLS; t++)
        if (!strncmp (arg, "--no-", 5) && !strcmp (arg + 5, tool_names[t]))
          break;
      if (t < N_TOOLS)
        {
          opt.enabled[t] = 0;
          continue;
        }
      for (t = 0; t < N_TOOLS; t++)
        if (!strncmp (arg, "--", 2) && !strcmp (arg + 2, tool_names[t]))
          break;
      if (t == N_TOOLS
          && strcmp (arg, "--size") && strcmp (arg, "--runs")
          && strcmp (arg, "--algo") && strcmp (arg, "--cipher-impl")
          && strcmp (arg, "--format") && strcmp (arg, "--plot")
          && strcmp (arg, "--save") && strcmp (arg, "--passphrase"))
        bench_die (arg, "unknown option (try --help)");
      if (!val)
        bench_die (arg, "missing argument");
      i++;
      if (t < N_TOOLS)
        opt.path[t] = val;
      else if (!strcmp (arg, "--size"))
        opt.size_mib = (long) bench_parse_number
          (arg, val, 1, 65536, "a whole number of MiB from 1 to 65536 expected");
      else if (!strcmp (arg, "--runs"))
        opt.runs = (int) bench_parse_number
          (arg, val, 1, 101, "a count from 1 to 101 expected");
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
      else
        opt.passphrase = val;
      if (!strcmp (arg, "--size") && strchr (val, '.'))
        bench_die (arg, "a whole number of MiB from 1 to 65536 expected");
    }
  if (opt.plot)
    plot_check ("--plot", opt.plot);
}

/* Find the peers, and start gpg once so that its first-call work
 * (the keybox, the agent) is not measured.  */
static void
find_tools (const char *argv0)
{
  int t;

  char *real;

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
      if (!opt.enabled[t])
        {
          snprintf (tool_why[t], sizeof tool_why[t], "left out (--no-%s)",
                    tool_names[t]);
          continue;
        }
      tool_path[t] = bench_find_program (opt.path[t] ? opt.path[t]
                                         : tool_names[t]);
      if (!tool_path[t])
        snprintf (tool_why[t], sizeof tool_why[t], "%s: not found",
                  opt.path[t] ? opt.path[t] : tool_names[t]);
    }
  if (tool_path[T_GPG])
    {
      char *argv[] = { tool_path[T_GPG], "--batch", "--pinentry-mode",
                       "loopback", "--passphrase", (char *) opt.passphrase,
                       "-c", NULL };
      struct bench_usage u;
      const char *why;

      if (run_once (argv, gnupghome_env, 0, NULL, NULL, &u, &why))
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
  const char *tmp = getenv ("TMPDIR");
  size_t len;

  len = strlen (tmp && *tmp ? tmp : "/tmp") + 32;
  workdir = bench_xcalloc (len, 1);
  snprintf (workdir, len, "%s/sfbench.XXXXXX", tmp && *tmp ? tmp : "/tmp");
  if (!mkdtemp (workdir))
    bench_die ("mkdtemp", strerror (errno));
  gnupghome = workfile ("gnupg");
  rnphome = workfile ("rnp");
  stderr_file = workfile ("stderr");
  if (mkdir (gnupghome, 0700) || mkdir (rnphome, 0700))
    bench_die (workdir, strerror (errno));
  len = strlen (gnupghome) + 16;
  gnupghome_env = bench_xcalloc (len, 1);
  snprintf (gnupghome_env, len, "GNUPGHOME=%s", gnupghome);
}

/* Measure algorithm A: encryption, then decryption of a file made
 * once, for each selected sfenc implementation and every peer.  Fills
 * ROWS and returns their number; *MAKER gets the tool that made the
 * file to decrypt.  */
static size_t
bench_algorithm (const struct algo *a, struct row *rows, const char **maker)
{
  struct command cmds[MAX_IMPLS + N_TOOLS];
  const char *labels[MAX_IMPLS + N_TOOLS];
  char label_buf[MAX_IMPLS][64];
  const char *impls[MAX_IMPLS];
  int failed[N_TOOLS] = { 0 };
  int nimpl = 0, m, j, t, op, legacy;
  size_t nrows = 0;
  char *data, *empty;

  if (!opt.impls)
    impls[nimpl++] = NULL;
  else
    for (j = 0; opt.impls[j]; j++)
      for (m = 0; m < a->nimpls && nimpl < MAX_IMPLS; m++)
        if (!strcasecmp (a->impls[m], opt.impls[j]) && a->usable[m])
          impls[nimpl++] = a->impls[m];
  if (!nimpl)
    return 0;

  data = workfile ("data.gpg");
  empty = workfile ("empty.gpg");
  for (op = 0; op < N_OPS; op++)
    {
      struct figures *figs[MAX_IMPLS + N_TOOLS];
      struct command *ossl = &cmds[nimpl + T_OPENSSL - 1];
      int ncmd = 0;

      if (op == OP_DEC && !opt.decrypt)
        break;
      if (op == OP_DEC)
        *maker = make_ciphertexts (a, data, empty);
      for (m = 0; m < nimpl; m++)
        {
          build_command (&cmds[ncmd], T_SFENC, op, a, impls[m], 0);
          snprintf (label_buf[m], sizeof label_buf[m], "sfenc %s",
                    impls[m] ? impls[m] : a->default_impl);
          labels[ncmd] = label_buf[m];
          figs[ncmd++] = new_figures ();
        }
      for (t = T_GPG; t < N_TOOLS; t++)
        {
          build_command (&cmds[ncmd], t, op, a, NULL, 0);
          labels[ncmd] = tool_names[t];
          figs[ncmd++] = new_figures ();
        }
      /* openssl: the default providers, else the legacy one too.  */
      for (legacy = 0; legacy < 2; legacy++)
        {
          struct bench_usage u;
          const char *why;

          build_command (ossl, T_OPENSSL, op, a, NULL, legacy);
          if (!ossl->usable
              || !run_once (ossl->argv, NULL, 0, op == OP_DEC ? empty : NULL,
                            NULL, &u, &why))
            break;
          snprintf (ossl->why, sizeof ossl->why, "%s", why);
          ossl->usable = 0;
        }
      measure (a, op, cmds, figs, labels, ncmd, data, empty);
      for (m = 0; m < nimpl; m++)
        {
          struct row *row = &rows[nrows++];

          row->algo = a;
          row->impl = impls[m] ? impls[m] : a->default_impl;
          row->op = op;
          row->fig[T_SFENC] = figs[m];
          for (t = T_GPG; t < N_TOOLS; t++)
            row->fig[t] = cmds[nimpl + t - 1].usable
              ? figs[nimpl + t - 1] : NULL;
        }
      /* Say once per algorithm why a peer could not do it.  */
      for (t = T_GPG; t < N_TOOLS; t++)
        if (!cmds[nimpl + t - 1].usable && tool_path[t] && !failed[t])
          {
            size_t len = strlen (tool_why[t]);

            failed[t] = 1;
            snprintf (tool_why[t] + len, sizeof tool_why[t] - len,
                      "%s%s (%s)", len ? "; " : "", a->name,
                      cmds[nimpl + t - 1].why);
          }
    }
  unlink (data);
  unlink (empty);
  free (data);
  free (empty);
  return nrows;
}

/* What was measured, how, and with which programs.  */
static void
add_notes (report_t *rep, const char *maker)
{
  int t;

  report_note (rep, "sfbench: %ld MiB of zeros through a pipe, -z 0;"
               " user CPU time of the encrypting process alone;"
               " median of %d runs, interleaved", opt.size_mib, opt.runs);
  report_note (rep, "MiB/s (Mbit/s = 10^6 bit/s); min/max: range over the"
               " runs; net: after subtracting the fixed cost (S2K, start-up)"
               " measured with an empty input");
  report_note (rep, "xPEER = sfenc / PEER (above 1: sfenc is faster);"
               " openssl enc: CFB with a raw -K/-iv key, no S2K");
  if (maker)
    report_note (rep, "dec: every tool decrypts the same file, made once per"
                 " algorithm by %s", maker);
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
        double min, max, fixed, net;
        char label[64];

        if (rows[i].op != (enum op) op)
          continue;
        snprintf (label, sizeof label, "%s%s%s%s", rows[i].algo->name,
                  opt.impls ? "/" : "", opt.impls ? rows[i].impl : "",
                  op == OP_DEC ? " -d" : "");
        cats[n] = bench_xstrdup (label);
        for (t = 0; t < N_TOOLS; t++)
          rates (rows[i].fig[t], &values[n * N_TOOLS + t], &min, &max,
                 &fixed, &net);
        n++;
      }
  snprintf (title, sizeof title, "sfbench: %ld MiB through a pipe,"
            " user CPU time, median of %d runs", opt.size_mib, opt.runs);
  plot_bars (opt.plot, title, "MiB/s", n, cats, N_TOOLS, series, values);
}

int
main (int argc, char **argv)
{
  struct algo *algos;
  size_t nalgos, i, nrows = 0;
  struct row *rows;
  report_t *rep;
  report_table_t *tab;
  struct cols k;
  const char *maker = NULL;
  int t, op;
  size_t j;

  bench_progname = "sfbench";
  opt.size_mib = 64;
  opt.runs = 3;
  opt.decrypt = 1;
  opt.passphrase = "sfbench";
  for (t = 0; t < N_TOOLS; t++)
    opt.enabled[t] = 1;
  parse_args (argc, argv);

  signal (SIGINT, on_signal);
  signal (SIGTERM, on_signal);
  signal (SIGHUP, on_signal);
  signal (SIGPIPE, SIG_IGN);
  show_progress = isatty (2);
  zeros = bench_xcalloc (1, (size_t) MIB);
  make_workdir ();
  bench_at_die (cleanup);
  atexit (cleanup);
  find_tools (argv[0]);

  algos = list_algorithms (&nalgos);
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
      int found = 0;

      for (i = 0; i < nalgos; i++)
        {
          int m;

          for (m = 0; m < algos[i].nimpls; m++)
            found |= !strcasecmp (algos[i].impls[m], opt.impls[j]);
        }
      if (!found)
        bench_die (opt.impls[j], "no such implementation (see sfenc"
                   " --list-ciphers)");
    }

  rows = bench_xcalloc (nalgos * MAX_IMPLS * N_OPS, sizeof *rows);
  for (i = 0; i < nalgos; i++)
    {
      if (opt.algos)
        {
          for (j = 0; opt.algos[j] && !algo_has_name (&algos[i], opt.algos[j]);
               j++)
            ;
          if (!opt.algos[j])
            continue;
        }
      nrows += bench_algorithm (&algos[i], rows + nrows, &maker);
    }
  if (!nrows)
    bench_die ("nothing to measure",
               "no implementation matches --algo and --cipher-impl");

  rep = report_new ("sfbench");
  add_notes (rep, maker);
  tab = report_add_table (rep, "results", NULL);
  add_columns (tab, &k);
  for (op = 0; op < N_OPS; op++)
    for (i = 0; i < nrows; i++)
      if (rows[i].op == (enum op) op)
        add_row (tab, &k, &rows[i]);
  report_print (rep, opt.format, stdout);
  if (opt.save)
    report_save (rep, opt.save);
  if (opt.plot)
    draw (rows, nrows);
  return 0;
}
