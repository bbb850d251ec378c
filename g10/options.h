/* options.h - the command line: the options of a run and its command
 *
 * options.c holds the one table of options, which drives the parser,
 * --help and --dump-options alike.  The stages read the options from
 * OPT; the few that belong to another part of the program
 * (--status-fd, --threads, --progress, --enable-progress-filter,
 * --logger-fd) are handed to it while parsing.
 */
#ifndef SFENC_OPTIONS_H
#define SFENC_OPTIONS_H

#include <stddef.h>
#include <gpg-error.h>

#include "key-command.h"

/* Room for the names of a list option given more than once.  */
#define MAX_LIST_OPTION 32

/* The options of one run, filled in by the command line parser.  */
struct options
{
  int verbose;
  int quiet;
  int batch;
  int armor;
  int yes;
  int ignore_mdc_error;
  int with_colons;
  int list_only;                /* -d --list-only: report, decrypt nothing.  */
  int dry_run;                  /* --dry-run: -d ignores it, as gpg.  */
  int no_auto_modules;
  const char *cipher_algo;
  const char *cipher_impl;
  int inflate_impl;             /* enum inflate_impl.  */
  const char *digest_algo;
  const char *s2k_digest_algo;
  int s2k_mode;
  unsigned long s2k_count;
  int argon2_t, argon2_p, argon2_m;     /* --s2k-argon2-*.  */
  unsigned long argon2_max_work_mib;    /* --s2k-argon2-max-work.  */
  int aead_algo;                /* --aead-algo: 0 writes SEIPD v1.  */
  int aead_skesk_version;       /* --aead-format: 6 RFC 9580, 5 LibrePGP.  */
  int chunk_octet;              /* --chunk-size minus 6.  */
  int compress_level;           /* -1 when not given.  */
  int bzip2_compress_level;     /* -1 when not given.  */
  int compress_algo;
  int textmode;                 /* -t: literal data as text.  */
  const char *set_filename;     /* The name in the literal packet.  */
  const char *s2k_cipher_algo;
  const char *output;
  const char *passphrase;
  int passphrase_fd;
  const char *passphrase_file;
  int pinentry_no_ask;          /* --pinentry-mode cancel or error.  */
  const char *homedir;          /* --homedir: for gpg.conf, --version.  */
  /* Issue 41, packets and session keys.  */
  int show_session_key;
  const char *override_session_key;     /* Wiped once read.  */
  int override_session_key_fd;
  int unwrap;                   /* -d writes the packets inside.  */
  int answer_no;                /* --no: an existing output is kept.  */
  char personal_cipher[32];     /* First of --personal-cipher-prefs.  */
  int passphrase_repeat;        /* -c asks again this many times.  */
  /* Armor, literal data and files (issue 41).  */
  const char *comments[MAX_LIST_OPTION];  /* --comment: armor headers.  */
  size_t n_comments;
  int emit_version;             /* --emit-version: its count, 0 for none.  */
  int ignore_crc_error;         /* An armor CRC error is a warning.  */
  unsigned long max_output;     /* --max-output: most plaintext, 0 any.  */
  int for_your_eyes_only;       /* The literal data is named _CONSOLE.  */
  int rfc2440_text;             /* -t strips blanks at line ends.  */
  int require_secmem;           /* Fail without locked secure memory.  */
  /* gpg's file commands (issue 41: --store, --decrypt-files).  */
  int use_embedded_filename;    /* -d writes to the literal packet's name.  */
  int multifile;                /* -d and -e take several files.  */
  unsigned long set_filesize;   /* The literal length of stdin, 0 none.  */
  int no_literal;               /* --store and -c write the bare data.  */
};

extern struct options opt;

/* The commands; without one, sfenc decrypts, as gpg does.  */
enum cmd
  {
    CMD_NONE,
    CMD_SYMMETRIC,
    CMD_DECRYPT,
    CMD_LIST_CIPHERS,
    CMD_LIST_CONFIG,
    CMD_KEYS,                   /* A gpg command that needs keys.  */
    CMD_VERSION,
    CMD_HELP,
    CMD_DUMP_OPTIONS,
    CMD_DUMP_OPTION_TABLE,
    CMD_WARRANTY,
    CMD_LIST_PACKETS,
    CMD_PRINT_MD,
    CMD_PRINT_MDS,
    CMD_GEN_RANDOM,
    CMD_LIST_GCRYPT_CONFIG,
    CMD_GEN_PRIME,
    CMD_GPGCONF_LIST,
    CMD_GPGCONF_TEST,
    CMD_ENARMOR,                /* --enarmor (dearmor.c).  */
    CMD_DEARMOR,                /* --dearmor (dearmor.c).  */
    CMD_SERVER,                 /* --server (server.c).  */
    /* gpg's file commands (issue 41).  */
    CMD_STORE,                  /* --store (store.c).  */
    CMD_DECRYPT_FILES,          /* --decrypt-files (multifile.c).  */
    CMD_ENCRYPT_FILES           /* --encrypt-files (multifile.c).  */
  };

/* What the command line asked for besides the options.  */
struct command_line
{
  enum cmd cmd;
  char cmd_option[32];          /* The option that gave CMD.  */
  enum key_need key_need;       /* What CMD_KEYS needs.  */
  const char *key_command;      /* Its long name, as "list-keys".  */
  const char *extensions[MAX_LIST_OPTION];   /* --load-extension.  */
  size_t n_extensions;
  const char *recipients[MAX_LIST_OPTION];   /* -r, -R.  */
  size_t n_recipients;
  const char *signer;           /* -u, --default-key.  */
  const char *args[MAX_LIST_OPTION];   /* The words that are no options.  */
  size_t n_args;
  int symmetric;                /* -c, also where -e wins (multifile.c).  */
};

/* Set OPT to the defaults of a run.  */
void options_set_defaults (void);

/* Parse ARGV (ARGC entries, ARGV[0] the program) as gpg does: options
 * into OPT, the rest into CL.  A bad option or argument records its
 * message (error.h) and ends the parsing.  */
gpg_error_t parse_command_line (int argc, char **argv,
                                struct command_line *cl);

/* For an options file (options-file.c): whether the option of long
 * name NAME, whole, takes an argument (1) or not (0), or -1 when
 * there is none.  */
int option_takes_argument (const char *name);

/* Apply the option of long name NAME, which exists, with ARG (NULL
 * when it takes none); WHERE names it in messages.  */
gpg_error_t option_apply_named (struct command_line *cl, const char *name,
                                const char *arg, const char *where);

/* Open the files that the options parsed name: --log-file,
 * --status-file, --command-file.  */
gpg_error_t options_open_files (void);

/* Once the modules are loaded: refuse the names of --cipher-algo and
 * --s2k-cipher-algo that neither gpg reads nor the cipher table has,
 * whatever the command, as gpg refuses them.  */
gpg_error_t options_check_ciphers (void);

/* --help: the usage and the options, by group.  */
void show_help (void);

/* --dump-options: every long option, one per line.  */
void dump_options (void);

/* --dump-option-table: the table as gpg prints its own.  */
void dump_option_table (void);

#endif /*SFENC_OPTIONS_H*/
