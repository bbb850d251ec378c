/* options.c - the command line: the option table and its parser
 *
 * The option table below is the only list of options: it drives the
 * parser, --help and --dump-options alike.  Parsing follows gpg:
 * long options may be abbreviated to an unambiguous prefix and take
 * their argument after "=" or as the next word, short options may be
 * bundled ("-vz9"), and "--" ends the options.
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "options.h"
#include "algo-names.h"
#include "argon2.h"
#include "clock.h"
#include "compliance.h"
#include "compress.h"
#include "error.h"
#include "inflate-engine.h"
#include "log.h"
#include "options-file.h"
#include "packet.h"
#include "pdeflate.h"
#include "command-fd.h"
#include "progress.h"
#include "s2k.h"
#include "seipd2.h"
#include "special-filename.h"
#include "status.h"

/* gpg's default S2K iteration count (the largest coded one).  */
#define DEFAULT_S2K_COUNT 65011712ul

/* Argon2: RFC 9106's second recommended setting, which RFC 9580
 * 3.7.1.4 names for memory-constrained uses: 3 passes, 4 lanes,
 * 64 MiB.  */
#define DEFAULT_ARGON2_PASSES 3
#define DEFAULT_ARGON2_LANES 4
#define DEFAULT_ARGON2_MEMORY_EXP 16

/* AEAD chunks of 2^18 bytes (256 KiB), as rnp writes them: the 16
 * bytes of tag and the nonce set-up per chunk cost nothing measurable,
 * while a reader, which holds a chunk until its tag is checked, keeps
 * it in the L2 cache and passes plaintext on down a pipe every 256
 * KiB (2^22, the most RFC 9580 allows, was slower through a pipe).  */
#define DEFAULT_CHUNK_SIZE 18

struct options opt;

/* --personal-compress-preferences' first algorithm, -1 for none, and
 * whether --compress-algo, which wins, was given.  */
static int personal_compress = -1;
static int compress_algo_given;

enum opt_id
  {
    O_SYMMETRIC = 1,
    O_DECRYPT,
    O_LIST_CIPHERS,
    O_VERSION,
    O_HELP,
    O_DUMP_OPTIONS,
    O_CIPHER_ALGO,
    O_CIPHER_IMPL,
    O_INFLATE_IMPL,
    O_DIGEST_ALGO,
    O_S2K_DIGEST_ALGO,
    O_S2K_MODE,
    O_S2K_COUNT,
    O_S2K_ARGON2_PASSES,
    O_S2K_ARGON2_PARALLELISM,
    O_S2K_ARGON2_MEMORY,
    O_S2K_ARGON2_MAX_WORK,
    O_AEAD_ALGO,
    O_AEAD_FORMAT,
    O_CHUNK_SIZE,
    O_COMPRESS_LEVEL,
    O_COMPRESS_ALGO,
    O_BZIP2_COMPRESS_LEVEL,
    O_TEXTMODE,
    O_SET_FILENAME,
    O_S2K_CIPHER_ALGO,
    O_LOGGER_FD,
    O_LIST_CONFIG,
    O_HOMEDIR,
    O_KEYS_PUBLIC,              /* A command that needs a public key.  */
    O_KEYS_SECRET,              /* ... a secret key.  */
    O_KEYS_KEYRING,             /* ... a keyring.  */
    O_RECIPIENT,
    O_SIGNER,
    O_COMMAND_FD,
    O_ENABLE_SPECIAL_FILENAMES,
    O_EXIT_ON_STATUS_WRITE_ERROR,
    O_NO_VERBOSE,
    O_GPG_NOOP,                 /* A gpg option that changes nothing.  */
    O_GPG_NOOP_ARG,             /* ... with an argument.  */
    O_THREADS,
    O_ARMOR,
    O_OUTPUT,
    O_YES,
    O_PASSPHRASE,
    O_PASSPHRASE_FD,
    O_PASSPHRASE_FILE,
    O_BATCH,
    O_NO_BATCH,
    O_PINENTRY_MODE,
    O_LOAD_EXTENSION,
    O_NO_AUTO_MODULES,
    O_IGNORE_MDC_ERROR,
    O_WITH_COLONS,
    O_NO_TEXTMODE,
    O_LIST_ONLY,
    O_DRY_RUN,
    O_STATUS_FD,
    O_ENABLE_PROGRESS_FILTER,
    O_PROGRESS,
    O_VERBOSE,
    O_QUIET,
    O_NO_OPTIONS,
    O_OPTIONS,
    O_LOG_FILE,
    O_STATUS_FILE,
    O_COMMAND_FILE,
    /* Issue 41, packets and session keys.  */
    O_LIST_PACKETS,
    O_UNWRAP,
    O_SHOW_SESSION_KEY,
    O_OVERRIDE_SESSION_KEY,
    O_OVERRIDE_SESSION_KEY_FD,
    O_COMPLIANCE,
    O_COMPLIANCE_MODE,          /* --NAME for --compliance=NAME.  */
    O_REQUIRE_COMPLIANCE,
    O_PRINT_MD,
    O_PRINT_MDS,
    O_GEN_RANDOM,
    O_LIST_GCRYPT_CONFIG,
    O_GEN_PRIME,
    O_GPGCONF_LIST,
    O_GPGCONF_TEST,
    O_ANSWER_NO,
    O_PASSPHRASE_REPEAT,
    O_PERSONAL_CIPHER_PREFS,
    O_PERSONAL_COMPRESS_PREFS,
    O_PERSONAL_DIGEST_PREFS,
    O_CERT_DIGEST_ALGO,
    O_DISABLE_CIPHER_ALGO,
    /* Armor, literal data and files (issue 41).  */
    O_ENARMOR,
    O_DEARMOR,
    O_NO_ARMOR,
    O_COMMENT,
    O_NO_COMMENTS,
    O_DEFAULT_COMMENT,
    O_EMIT_VERSION,
    O_NO_EMIT_VERSION,
    O_IGNORE_CRC_ERROR,
    O_MAX_OUTPUT,
    O_FAKED_SYSTEM_TIME,
    O_FOR_YOUR_EYES_ONLY,
    O_NO_FOR_YOUR_EYES_ONLY,
    O_MIMEMODE,
    /* gpg's last options (issue 41).  */
    O_RFC2440_TEXT,
    O_NO_RFC2440_TEXT,
    O_REQUIRE_SECMEM,
    O_NO_REQUIRE_SECMEM,
    O_WARRANTY,
    O_DUMP_OPTION_TABLE,
    O_SERVER,                   /* --server (server.c).  */
    /* gpg's file commands (issue 41).  */
    O_STORE,
    O_DECRYPT_FILES,
    O_ENCRYPT_FILES,
    O_MULTIFILE,
    O_USE_EMBEDDED_FILENAME,
    O_NO_USE_EMBEDDED_FILENAME,
    O_SET_FILESIZE,
    O_NO_LITERAL
  };

/* One option: its id, short and long name, the name of its argument
 * (NULL for none) and the help text.  An entry without names starts
 * a group: its help text is the group's title.  */
struct option_def
{
  enum opt_id id;
  char short_name;
  const char *long_name;
  const char *arg;
  const char *help;
};

static const struct option_def options[] =
  {
    /* The groups, their order and their titles are those of the
     * sfenc(1) man page, which follows gpg(1)'s grouping;
     * tests/doc.bats checks that the two agree.  */
    { 0, 0, NULL, NULL, "General commands" },
    { O_VERSION, 0, "version", NULL, "show the version and the algorithms" },
    { O_HELP, 'h', "help", NULL, "show this help" },
    { O_DUMP_OPTIONS, 0, "dump-options", NULL,
      "list every long option, one per line" },
    { O_DUMP_OPTION_TABLE, 0, "dump-option-table", NULL,
      "list the option table as gpg does, a line per option" },
    { O_WARRANTY, 0, "warranty", NULL, "show the warranty" },

    { 0, 0, NULL, NULL, "Commands that select the operation" },
    { O_SYMMETRIC, 'c', "symmetric", NULL,
      "encrypt with a passphrase" },
    { O_DECRYPT, 'd', "decrypt", NULL, "decrypt (the default command)" },
    { O_LIST_CIPHERS, 0, "list-ciphers", NULL,
      "list the cipher implementations and exit" },
    { O_LIST_CONFIG, 0, "list-config", NULL,
      "list the configuration as gpg does (the \"cfg:\" lines)" },
    /* Issue 41, packets and session keys.  */
    { O_LIST_PACKETS, 0, "list-packets", NULL,
      "list the packets of a message, decrypted if it can be" },
    { O_UNWRAP, 0, "unwrap", NULL,
      "decrypt, but write the packets inside the encryption" },
    { O_SERVER, 0, "server", NULL,
      "answer gpg's Assuan protocol on stdin and stdout" },

    /* gpg's small commands beside -c and -d (issue 41).  */
    { O_PRINT_MD, 0, "print-md", NULL,
      "print the digest ALGO (\"*\" for all) of the files, as gpg" },
    { O_PRINT_MDS, 0, "print-mds", NULL,
      "print gpg's seven digests of the files" },
    { O_GEN_RANDOM, 0, "gen-random", NULL,
      "write COUNT random bytes of quality 0, 1 or 2 (args: LEVEL [COUNT])" },
    { O_LIST_GCRYPT_CONFIG, 0, "list-gcrypt-config", NULL,
      "show libgcrypt's configuration" },
    { O_GEN_PRIME, 0, "gen-prime", NULL,
      "refused, as gpg 2.2 refuses it" },
    { O_GPGCONF_LIST, 0, "gpgconf-list", NULL,
      "the defaults gpgconf asks gpg for" },
    { O_GPGCONF_TEST, 0, "gpgconf-test", NULL,
      "read the options file; exit 0 if it lets sfenc start" },

    { 0, 0, NULL, NULL, "Commands that need keys" },
    { O_KEYS_PUBLIC, 'e', "encrypt", NULL, "encrypt to a public key" },
    { O_KEYS_SECRET, 's', "sign", NULL, "make a signature" },
    { O_KEYS_SECRET, 0, "clear-sign", NULL, "make a clear text signature" },
    { O_KEYS_SECRET, 0, "clearsign", NULL, "the same as --clear-sign" },
    { O_KEYS_SECRET, 'b', "detach-sign", NULL, "make a detached signature" },
    { O_KEYS_KEYRING, 0, "verify", NULL, "verify a signature" },
    { O_KEYS_KEYRING, 'k', "list-keys", NULL, "list keys" },
    { O_KEYS_KEYRING, 0, "list-key", NULL, "list keys" },
    { O_KEYS_KEYRING, 0, "list-public-keys", NULL, "list keys" },
    { O_KEYS_KEYRING, 'K', "list-secret-keys", NULL, "list secret keys" },
    { O_KEYS_KEYRING, 0, "list-sigs", NULL, "list keys and signatures" },
    { O_KEYS_KEYRING, 0, "check-sigs", NULL,
      "list and check key signatures" },
    { O_KEYS_KEYRING, 0, "fingerprint", NULL, "list keys and fingerprints" },
    { O_KEYS_KEYRING, 0, "locate-keys", NULL, "locate keys" },
    { O_KEYS_KEYRING, 0, "import", NULL, "import keys" },
    { O_KEYS_KEYRING, 0, "export", NULL, "export keys" },
    { O_KEYS_KEYRING, 0, "export-secret-keys", NULL, "export secret keys" },
    { O_KEYS_KEYRING, 0, "recv-keys", NULL, "import keys from a key server" },
    { O_KEYS_KEYRING, 0, "send-keys", NULL, "send keys to a key server" },
    { O_KEYS_KEYRING, 0, "search-keys", NULL, "search a key server" },
    { O_KEYS_KEYRING, 0, "refresh-keys", NULL,
      "update keys from a key server" },
    { O_KEYS_KEYRING, 0, "delete-keys", NULL, "delete keys" },
    { O_KEYS_KEYRING, 0, "delete-secret-keys", NULL, "delete secret keys" },
    { O_KEYS_KEYRING, 0, "delete-secret-and-public-keys", NULL,
      "delete keys and their secret keys" },
    { O_KEYS_KEYRING, 0, "generate-key", NULL, "generate a key pair" },
    { O_KEYS_KEYRING, 0, "gen-key", NULL, "the same as --generate-key" },
    { O_KEYS_KEYRING, 0, "full-gen-key", NULL,
      "generate a key pair, asking everything" },
    { O_KEYS_KEYRING, 0, "quick-gen-key", NULL, "generate a key pair" },
    { O_KEYS_KEYRING, 0, "quick-add-key", NULL, "add a subkey" },
    { O_KEYS_KEYRING, 0, "quick-add-uid", NULL, "add a user id" },
    { O_KEYS_KEYRING, 0, "edit-key", NULL, "edit a key" },
    { O_KEYS_KEYRING, 0, "sign-key", NULL, "sign a key" },
    { O_KEYS_KEYRING, 0, "gen-revoke", NULL,
      "make a revocation certificate" },
    { O_KEYS_KEYRING, 0, "import-ownertrust", NULL,
      "import owner trust values" },
    { O_KEYS_KEYRING, 0, "export-ownertrust", NULL,
      "export owner trust values" },
    { O_KEYS_KEYRING, 0, "card-status", NULL, "show the smartcard" },
    { O_KEYS_KEYRING, 0, "card-edit", NULL, "edit the smartcard" },
    { O_KEYS_KEYRING, 0, "passwd", NULL, "change a key's passphrase" },
    { O_KEYS_KEYRING, 0, "list-sig", NULL, "list keys and signatures" },
    { O_KEYS_KEYRING, 0, "list-signatures", NULL, "list keys and signatures" },
    { O_KEYS_KEYRING, 0, "check-sig", NULL, "list and check key signatures" },
    { O_KEYS_KEYRING, 0, "check-signatures", NULL,
      "list and check key signatures" },
    { O_KEYS_KEYRING, 0, "show-key", NULL, "show the keys of a file" },
    { O_KEYS_KEYRING, 0, "show-keys", NULL, "show the keys of a file" },
    { O_KEYS_KEYRING, 0, "full-generate-key", NULL,
      "generate a key pair, asking everything" },
    { O_KEYS_KEYRING, 0, "quick-generate-key", NULL, "generate a key pair" },
    { O_KEYS_KEYRING, 0, "quick-addkey", NULL, "add a subkey" },
    { O_KEYS_KEYRING, 0, "quick-adduid", NULL, "add a user id" },
    { O_KEYS_KEYRING, 0, "quick-revoke-uid", NULL, "revoke a user id" },
    { O_KEYS_KEYRING, 0, "quick-revuid", NULL, "revoke a user id" },
    { O_KEYS_KEYRING, 0, "quick-set-expire", NULL,
      "set a key's expiration time" },
    { O_KEYS_KEYRING, 0, "quick-set-primary-uid", NULL,
      "set the primary user id" },
    { O_KEYS_KEYRING, 0, "quick-sign-key", NULL, "sign a key" },
    { O_KEYS_KEYRING, 0, "quick-lsign-key", NULL,
      "sign a key, not exportable" },
    { O_KEYS_KEYRING, 0, "quick-revoke-sig", NULL, "revoke key signatures" },
    { O_KEYS_KEYRING, 0, "lsign-key", NULL, "sign a key, not exportable" },
    { O_KEYS_KEYRING, 0, "key-edit", NULL, "edit a key" },
    { O_KEYS_KEYRING, 0, "change-passphrase", NULL,
      "change a key's passphrase" },
    { O_KEYS_KEYRING, 0, "generate-revocation", NULL,
      "make a revocation certificate" },
    { O_KEYS_KEYRING, 0, "generate-designated-revocation", NULL,
      "make a designated revocation certificate" },
    { O_KEYS_KEYRING, 0, "desig-revoke", NULL,
      "make a designated revocation certificate" },
    { O_KEYS_KEYRING, 0, "receive-keys", NULL,
      "import keys from a key server" },
    { O_KEYS_KEYRING, 0, "fetch-keys", NULL, "import keys from URLs" },
    { O_KEYS_KEYRING, 0, "locate-external-keys", NULL,
      "locate keys, not in the keyring" },
    { O_KEYS_KEYRING, 0, "fast-import", NULL, "import keys" },
    { O_KEYS_KEYRING, 0, "export-secret-subkeys", NULL,
      "export secret subkeys" },
    { O_KEYS_KEYRING, 0, "export-ssh-key", NULL, "export a key for ssh" },
    { O_KEYS_KEYRING, 0, "verify-files", NULL, "verify signatures of files" },
    { O_KEYS_KEYRING, 0, "edit-card", NULL, "edit the smartcard" },
    { O_KEYS_KEYRING, 0, "change-pin", NULL, "change the smartcard's PIN" },
    { O_KEYS_KEYRING, 0, "check-trustdb", NULL, "check the trust database" },
    { O_KEYS_KEYRING, 0, "update-trustdb", NULL, "update the trust database" },
    { O_KEYS_KEYRING, 0, "fix-trustdb", NULL, "repair the trust database" },
    { O_KEYS_KEYRING, 0, "list-trustdb", NULL, "list the trust database" },
    { O_KEYS_KEYRING, 0, "rebuild-keydb-caches", NULL,
      "rebuild the keyring's caches" },
    { O_KEYS_KEYRING, 0, "tofu-policy", NULL, "set the TOFU policy of keys" },

    { 0, 0, NULL, NULL, "Configuration" },
    { O_VERBOSE, 'v', "verbose", NULL, "tell what is being done" },
    { O_QUIET, 'q', "quiet", NULL, "do not print warnings" },
    { O_NO_VERBOSE, 0, "no-verbose", NULL, "forget the -v given before" },
    { O_BATCH, 0, "batch", NULL, "never ask on the terminal" },
    { O_NO_BATCH, 0, "no-batch", NULL, "forget the --batch given before" },
    { O_GPG_NOOP, 0, "no-tty", NULL,
      "accepted for gpg; --batch stops the prompt" },
    { O_PROGRESS, 0, "progress", NULL,
      "show how much of the input is read, on stderr" },
    { O_STATUS_FD, 0, "status-fd", "N",
      "write gpg's status lines to file descriptor N" },
    { O_EXIT_ON_STATUS_WRITE_ERROR, 0, "exit-on-status-write-error", NULL,
      "stop when a status line cannot be written" },
    { O_COMMAND_FD, 0, "command-fd", "N",
      "read the answers to gpg's questions from file descriptor N" },
    { O_ENABLE_PROGRESS_FILTER, 0, "enable-progress-filter", NULL,
      "add PROGRESS lines to the status lines" },
    { O_YES, 0, "yes", NULL, "overwrite existing output files" },
    { O_ANSWER_NO, 0, "no", NULL,
      "keep existing output files, asking nothing" },
    { O_GPG_NOOP, 'i', "interactive", NULL,
      "accepted for gpg; an existing output is asked about anyway" },
    { O_COMPRESS_LEVEL, 'z', "compress-level", "N",
      "compression level N (0 disables compression)" },
    { O_BZIP2_COMPRESS_LEVEL, 0, "bzip2-compress-level", "N",
      "BZIP2 compression level N (1..9)" },
    { O_THREADS, 0, "threads", "N",
      "compress with N threads; decrypt beside decompressing"
      " (default: one per CPU)" },
    { O_LOAD_EXTENSION, 0, "load-extension", "FILE",
      "load the dynamic cipher module FILE" },
    { O_NO_AUTO_MODULES, 0, "no-auto-modules", NULL,
      "do not load the modules of the module directory" },
    { O_HOMEDIR, 0, "homedir", "DIR",
      "gpg's home: its gpg.conf, shown by --version" },
    /* gpg's options file and the files of its log, status lines and
     * command answers (issue 41: logging and file options).  */
    { O_NO_OPTIONS, 0, "no-options", NULL,
      "do not read gpg.conf from the home directory" },
    { O_OPTIONS, 0, "options", "FILE",
      "read options from FILE instead of gpg.conf" },
    { O_LOG_FILE, 0, "log-file", "FILE",
      "append what goes to stderr to FILE instead" },
    { O_LOG_FILE, 0, "logger-file", "FILE", "the same as --log-file" },
    { O_STATUS_FILE, 0, "status-file", "FILE",
      "write gpg's status lines to FILE" },
    { O_COMMAND_FILE, 0, "command-file", "FILE",
      "read the answers to gpg's questions from FILE" },
    { O_GPG_NOOP_ARG, 0, "temp-directory", "DIR",
      "accepted for gpg; sfenc runs no helpers that need it" },
    { O_GPG_NOOP, 0, "no-greeting", NULL,
      "accepted for gpg; sfenc prints no greeting" },
    { O_GPG_NOOP, 0, "no-secmem-warning", NULL,
      "accepted for gpg; sfenc prints no such warning" },
    { O_REQUIRE_SECMEM, 0, "require-secmem", NULL,
      "fail where secure memory cannot be locked" },
    { O_NO_REQUIRE_SECMEM, 0, "no-require-secmem", NULL,
      "run without locked secure memory where there is none (the default)" },

    { 0, 0, NULL, NULL, "Key related options" },
    { O_RECIPIENT, 'r', "recipient", "NAME",
      "encrypt to NAME (with -e, which fails)" },
    { O_RECIPIENT, 'R', "hidden-recipient", "NAME",
      "encrypt to NAME, unnamed (with -e, which fails)" },
    { O_RECIPIENT, 'f', "recipient-file", "FILE",
      "encrypt to the key in FILE (with -e, which fails)" },
    { O_RECIPIENT, 'F', "hidden-recipient-file", "FILE",
      "the same, unnamed (with -e, which fails)" },
    { O_SIGNER, 'u', "local-user", "NAME",
      "sign as NAME (with -s, which fails)" },
    { O_SIGNER, 0, "default-key", "NAME", "the same as --local-user" },
    { O_SIGNER, 0, "sign-with", "NAME", "the same as --local-user" },
    { O_RECIPIENT, 0, "user", "NAME", "the same as --recipient" },
    { O_RECIPIENT, 0, "remote-user", "NAME", "the same as --recipient" },

    { 0, 0, NULL, NULL, "Input and output" },
    { O_ARMOR, 'a', "armor", NULL, "write ASCII armor instead of binary" },
    { O_ARMOR, 0, "armour", NULL, "the same as --armor" },
    { O_OUTPUT, 'o', "output", "FILE", "write the output to FILE" },
    { O_ENABLE_SPECIAL_FILENAMES, 0, "enable-special-filenames", NULL,
      "take a file name -&N as file descriptor N" },
    { O_WITH_COLONS, 0, "with-colons", NULL,
      "machine-readable --list-ciphers output" },
    { O_LIST_ONLY, 0, "list-only", NULL,
      "with -d: tell how the message is encrypted, decrypt nothing" },
    { O_DRY_RUN, 0, "dry-run", NULL,
      "change nothing: -d decrypts as without it; refused with -c" },

    /* Armor, literal data and files (issue 41): gpg's commands and
     * options for armor and for the plaintext written.  */
    { 0, 0, NULL, NULL, "Armor, literal data and files" },
    { O_ENARMOR, 0, "enarmor", NULL,
      "armor any data as gpg's PGP ARMORED FILE" },
    { O_ENARMOR, 0, "enarmour", NULL, "the same as --enarmor" },
    { O_DEARMOR, 0, "dearmor", NULL, "remove the armor of any armored data" },
    { O_DEARMOR, 0, "dearmour", NULL, "the same as --dearmor" },
    { O_NO_ARMOR, 0, "no-armor", NULL, "forget the -a given before" },
    { O_NO_ARMOR, 0, "no-armour", NULL, "the same as --no-armor" },
    { O_COMMENT, 0, "comment", "STRING",
      "add the armor header Comment: STRING (repeatable)" },
    { O_NO_COMMENTS, 0, "no-comments", NULL,
      "forget the --comment given before" },
    { O_DEFAULT_COMMENT, 0, "default-comment", NULL,
      "the same as --no-comments (deprecated in gpg)" },
    { O_EMIT_VERSION, 0, "emit-version", NULL,
      "add the armor header Version: (more of it if repeated)" },
    { O_NO_EMIT_VERSION, 0, "no-emit-version", NULL,
      "write no Version: header (the default)" },
    { O_NO_EMIT_VERSION, 0, "no-version", NULL,
      "the same as --no-emit-version" },
    { O_IGNORE_CRC_ERROR, 0, "ignore-crc-error", NULL,
      "take an armor CRC error as a warning" },
    { O_MAX_OUTPUT, 0, "max-output", "N",
      "fail when the plaintext exceeds N bytes (0: no limit)" },
    { O_FAKED_SYSTEM_TIME, 0, "faked-system-time", "TIME",
      "date the literal data TIME (yyyymmddThhmmss or seconds, ! to freeze)" },
    { O_FOR_YOUR_EYES_ONLY, 0, "for-your-eyes-only", NULL,
      "name the literal data _CONSOLE, for display only" },
    { O_NO_FOR_YOUR_EYES_ONLY, 0, "no-for-your-eyes-only", NULL,
      "forget the --for-your-eyes-only given before" },
    { O_MIMEMODE, 0, "mimemode", NULL,
      "the same as --textmode in gpg 2.2" },
    /* gpg's file commands (issue 41).  */
    { O_STORE, 0, "store", NULL,
      "write a literal data packet, compressed, not encrypted" },
    { O_DECRYPT_FILES, 0, "decrypt-files", NULL,
      "decrypt each FILE.gpg (or the names read from stdin) to FILE" },
    { O_ENCRYPT_FILES, 0, "encrypt-files", NULL,
      "encrypt each file to a public key (fails: no keys)" },
    { O_MULTIFILE, 0, "multifile", NULL,
      "with -d or -e: take several files, as --decrypt-files" },
    { O_USE_EMBEDDED_FILENAME, 0, "use-embedded-filename", NULL,
      "with -d: write to the name in the message (a risk, as in gpg)" },
    { O_NO_USE_EMBEDDED_FILENAME, 0, "no-use-embedded-filename", NULL,
      "forget the --use-embedded-filename given before" },
    { O_SET_FILESIZE, 0, "set-filesize", "N",
      "give stdin's literal data the length N (not for normal use)" },
    { O_NO_LITERAL, 0, "no-literal", NULL,
      "write the data without a literal packet (not for normal use)" },

    { 0, 0, NULL, NULL, "OpenPGP protocol options" },
    { O_TEXTMODE, 't', "textmode", NULL,
      "encrypt the input as text (CR LF line endings)" },
    { O_NO_TEXTMODE, 0, "no-textmode", NULL, "forget the -t given before" },
    { O_RFC2440_TEXT, 0, "rfc2440-text", NULL,
      "with -t, strip spaces and tabs from the ends of lines too" },
    { O_NO_RFC2440_TEXT, 0, "no-rfc2440-text", NULL,
      "with -t, keep them (the default)" },
    { O_GPG_NOOP, 0, "force-mdc", NULL,
      "accepted for gpg; the MDC is always written" },
    /* The compliance modes (compliance.h, issue 41).  */
    { O_COMPLIANCE, 0, "compliance", "NAME",
      "gnupg, openpgp, rfc4880, rfc4880bis, rfc2440, pgp6, pgp7, pgp8"
      " or de-vs" },
    { O_COMPLIANCE_MODE, 0, "gnupg", NULL,
      "--compliance=gnupg (the default)" },
    { O_COMPLIANCE_MODE, 0, "no-pgp2", NULL, "the same as --gnupg" },
    { O_COMPLIANCE_MODE, 0, "no-pgp6", NULL, "the same as --gnupg" },
    { O_COMPLIANCE_MODE, 0, "no-pgp7", NULL, "the same as --gnupg" },
    { O_COMPLIANCE_MODE, 0, "no-pgp8", NULL, "the same as --gnupg" },
    { O_COMPLIANCE_MODE, 0, "openpgp", NULL,
      "RFC 4880 only: 3DES without --cipher-algo, no AEAD or Argon2" },
    { O_COMPLIANCE_MODE, 0, "rfc4880", NULL, "the same as --openpgp" },
    { O_COMPLIANCE_MODE, 0, "rfc4880bis", NULL, "--compliance=rfc4880bis" },
    { O_COMPLIANCE_MODE, 0, "rfc2440", NULL, "--compliance=rfc2440" },
    { O_COMPLIANCE_MODE, 0, "pgp6", NULL, "--compliance=pgp6" },
    { O_COMPLIANCE_MODE, 0, "pgp7", NULL, "--compliance=pgp7" },
    { O_COMPLIANCE_MODE, 0, "pgp8", NULL, "--compliance=pgp8" },
    { O_REQUIRE_COMPLIANCE, 0, "require-compliance", NULL,
      "with --compliance=de-vs: fail -d on data that is not compliant" },
    { O_GPG_NOOP, 0, "override-compliance-check", NULL,
      "accepted for gpg; without effect in gpg 2.2 too" },
    { O_S2K_CIPHER_ALGO, 0, "s2k-cipher-algo", "NAME",
      "cipher when --cipher-algo is not given" },
    { O_S2K_DIGEST_ALGO, 0, "s2k-digest-algo", "NAME",
      "string-to-key hash NAME (default SHA1)" },
    { O_S2K_MODE, 0, "s2k-mode", "N",
      "string-to-key mode 0, 1, 3 or argon2 (default 3)" },
    { O_S2K_COUNT, 0, "s2k-count", "N",
      "string-to-key iteration count (default 65011712)" },
    { O_S2K_ARGON2_PASSES, 0, "s2k-argon2-passes", "N",
      "Argon2 passes (default 3)" },
    { O_S2K_ARGON2_PARALLELISM, 0, "s2k-argon2-parallelism", "N",
      "Argon2 lanes (default 4)" },
    { O_S2K_ARGON2_MEMORY, 0, "s2k-argon2-memory", "N",
      "Argon2 memory of 2^N KiB (default 16: 64 MiB)" },
    { O_S2K_ARGON2_MAX_WORK, 0, "s2k-argon2-max-work", "MIB",
      "most Argon2 work, passes x memory, to accept (default 8192)" },
    { O_AEAD_FORMAT, 0, "aead-format", "NAME",
      "with --aead-algo: rfc9580 (default) or librepgp" },
    { O_CHUNK_SIZE, 0, "chunk-size", "N",
      "AEAD chunks of 2^N bytes (6..22, default 18)" },

    { 0, 0, NULL, NULL, "Algorithms, passphrases and overrides" },
    { O_CIPHER_ALGO, 0, "cipher-algo", "NAME",
      "use cipher NAME (default AES256)" },
    { O_AEAD_ALGO, 0, "aead-algo", "NAME",
      "encrypt with AEAD NAME: OCB, EAX or GCM (RFC 9580)" },
    { O_CIPHER_IMPL, 0, "cipher-impl", "IMPL",
      "use implementation IMPL (ref, aesni, gcrypt, ...)" },
    { O_INFLATE_IMPL, 0, "inflate-impl", "IMPL",
      "read ZIP and ZLIB data with IMPL: isal (default with ISA-L) or zlib" },
    { O_DIGEST_ALGO, 0, "digest-algo", "NAME",
      "string-to-key hash (--s2k-digest-algo wins)" },
    { O_COMPRESS_ALGO, 0, "compress-algo", "NAME",
      "none, zip, zlib or bzip2 (default zip)" },
    { O_COMPRESS_ALGO, 0, "compression-algo", "NAME",
      "the same as --compress-algo" },
    { O_DISABLE_CIPHER_ALGO, 0, "disable-cipher-algo", "NAME",
      "refuse the cipher NAME for -c and -d" },
    /* gpg's preferences for its recipients' keys, of which -c takes
     * the first cipher and compression (issue 41).  */
    { O_PERSONAL_CIPHER_PREFS, 0, "personal-cipher-preferences", "LIST",
      "the first of LIST is the cipher without --cipher-algo" },
    { O_PERSONAL_CIPHER_PREFS, 0, "personal-cipher-prefs", "LIST",
      "the same as --personal-cipher-preferences" },
    { O_PERSONAL_COMPRESS_PREFS, 0, "personal-compress-preferences", "LIST",
      "the first of LIST is the compression without --compress-algo" },
    { O_PERSONAL_COMPRESS_PREFS, 0, "personal-compress-prefs", "LIST",
      "the same as --personal-compress-preferences" },
    { O_PERSONAL_DIGEST_PREFS, 0, "personal-digest-preferences", "LIST",
      "checked as gpg checks it; gpg -c does not use it either" },
    { O_PERSONAL_DIGEST_PREFS, 0, "personal-digest-prefs", "LIST",
      "the same as --personal-digest-preferences" },
    { O_PASSPHRASE_FD, 0, "passphrase-fd", "N",
      "read the passphrase from file descriptor N" },
    { O_PASSPHRASE_FILE, 0, "passphrase-file", "FILE",
      "read the passphrase from FILE" },
    { O_PASSPHRASE, 0, "passphrase", "STRING",
      "use STRING as the passphrase (others can see it)" },
    { O_PASSPHRASE_REPEAT, 0, "passphrase-repeat", "N",
      "with -c, ask for the passphrase N more times (default 1)" },
    { O_PINENTRY_MODE, 0, "pinentry-mode", "MODE",
      "default, ask, loopback, cancel or error (as gpg)" },
    { O_IGNORE_MDC_ERROR, 0, "ignore-mdc-error", NULL,
      "decrypt even without a valid MDC (unsafe)" },
    { O_LOGGER_FD, 0, "logger-fd", "N",
      "write diagnostics to file descriptor N" },
    { O_SET_FILENAME, 0, "set-filename", "NAME",
      "store NAME as the file name in the message" },
    /* Issue 41, packets and session keys.  */
    { O_SHOW_SESSION_KEY, 0, "show-session-key", NULL,
      "with -d: show the message's session key" },
    { O_OVERRIDE_SESSION_KEY, 0, "override-session-key", "STRING",
      "decrypt with the session key STRING, no passphrase" },
    { O_OVERRIDE_SESSION_KEY_FD, 0, "override-session-key-fd", "N",
      "the same, the key read from file descriptor N" },

    /* What clients of gpg send (GPGME, python-gnupg, duplicity, Emacs,
     * GnuPG::Interface) and what sits beside it in gpg(1), for keys,
     * user ids, agents and locks, none of which sfenc has.  */
    { 0, 0, NULL, NULL, "Options of gpg without effect" },
    { O_GPG_NOOP, 0, "fixed-list-mode", NULL, "key listings" },
    { O_GPG_NOOP, 0, "with-fingerprint", NULL, "key listings" },
    { O_GPG_NOOP, 0, "with-keygrip", NULL, "key listings" },
    { O_GPG_NOOP, 0, "with-secret", NULL, "key listings" },
    { O_GPG_NOOP_ARG, 0, "list-options", "OPTS", "key listings" },
    { O_GPG_NOOP, 0, "no-sk-comments", NULL, "secret key listings" },
    { O_GPG_NOOP_ARG, 0, "charset", "NAME", "user ids shown" },
    { O_GPG_NOOP_ARG, 0, "display-charset", "NAME", "user ids shown" },
    { O_GPG_NOOP, 0, "utf8-strings", NULL, "user ids given" },
    { O_GPG_NOOP, 0, "no-utf8-strings", NULL, "user ids given" },
    { O_GPG_NOOP, 0, "always-trust", NULL, "the trust database" },
    { O_GPG_NOOP_ARG, 0, "trust-model", "NAME", "the trust database" },
    { O_GPG_NOOP, 0, "no-auto-check-trustdb", NULL, "the trust database" },
    { O_GPG_NOOP, 0, "no-default-keyring", NULL, "keyrings" },
    { O_GPG_NOOP_ARG, 0, "keyring", "FILE", "keyrings" },
    { O_GPG_NOOP_ARG, 0, "secret-keyring", "FILE", "keyrings" },
    { O_GPG_NOOP, 0, "no-encrypt-to", NULL, "recipients" },
    { O_GPG_NOOP_ARG, 0, "encrypt-to", "NAME", "recipients" },
    { O_GPG_NOOP_ARG, 0, "sender", "ADDR", "signatures" },
    { O_GPG_NOOP_ARG, 0, "auto-key-locate", "MECHS", "key look-up" },
    { O_GPG_NOOP, 0, "auto-key-retrieve", NULL, "key look-up" },
    { O_GPG_NOOP, 0, "no-auto-key-retrieve", NULL, "key look-up" },
    { O_GPG_NOOP_ARG, 0, "keyserver", "NAME", "key look-up" },
    { O_GPG_NOOP_ARG, 0, "keyserver-options", "OPTS", "key look-up" },
    { O_GPG_NOOP, 0, "auto-key-import", NULL, "key import" },
    { O_GPG_NOOP, 0, "no-auto-key-import", NULL, "key import" },
    { O_GPG_NOOP, 0, "include-key-block", NULL, "signatures" },
    { O_GPG_NOOP, 0, "no-include-key-block", NULL, "signatures" },
    { O_GPG_NOOP, 0, "throw-keyids", NULL, "public-key encryption" },
    { O_GPG_NOOP, 0, "no-throw-keyids", NULL, "public-key encryption" },
    { O_GPG_NOOP, 0, "no-keyring", NULL, "keyrings" },
    { O_GPG_NOOP, 0, "disable-dirmngr", NULL, "key look-up" },
    { O_GPG_NOOP_ARG, 0, "input-size-hint", "N",
      "progress: sfenc takes the size of a file from the file" },
    { O_GPG_NOOP_ARG, 0, "import-options", "OPTS", "key import" },
    { O_GPG_NOOP_ARG, 0, "export-options", "OPTS", "key export" },
    { O_GPG_NOOP_ARG, 0, "verify-options", "OPTS", "signatures" },
    { O_GPG_NOOP, 0, "use-agent", NULL, "gpg-agent (obsolete in gpg too)" },
    { O_GPG_NOOP, 0, "no-use-agent", NULL,
      "gpg-agent (obsolete in gpg too)" },
    { O_GPG_NOOP, 0, "no-symkey-cache", NULL,
      "gpg-agent: sfenc caches no passphrase" },
    { O_GPG_NOOP, 0, "no-autostart", NULL, "gpg-agent" },
    { O_GPG_NOOP_ARG, 0, "agent-program", "FILE", "gpg-agent" },
    { O_GPG_NOOP_ARG, 0, "request-origin", "NAME", "gpg-agent" },
    { O_GPG_NOOP_ARG, 0, "ttyname", "NAME", "pinentry" },
    { O_GPG_NOOP_ARG, 0, "ttytype", "NAME", "pinentry" },
    { O_GPG_NOOP_ARG, 0, "display", "NAME", "pinentry" },
    { O_GPG_NOOP_ARG, 0, "lc-ctype", "NAME", "pinentry" },
    { O_GPG_NOOP_ARG, 0, "lc-messages", "NAME", "pinentry" },
    { O_GPG_NOOP, 0, "lock-never", NULL, "keyring locks" },
    { O_GPG_NOOP, 0, "lock-once", NULL, "keyring locks" },
    { O_GPG_NOOP, 0, "lock-multiple", NULL, "keyring locks" },
    { O_GPG_NOOP, 0, "no-permission-warning", NULL,
      "warnings on the home directory" },
    { O_GPG_NOOP, 0, "no-random-seed-file", NULL, "gpg's random seed file" },
    { O_GPG_NOOP, 0, "expert", NULL, "key editing" },
    { O_GPG_NOOP, 0, "no-expert", NULL, "key editing" },
    { O_GPG_NOOP_ARG, 0, "debug", "FLAGS", "gpg's debugging output" },
    { O_GPG_NOOP_ARG, 0, "debug-level", "LEVEL", "gpg's debugging output" },
    /* The rest of gpg 2.2.40's options (tests/gpg-2.2.40-options.txt)
     * that gpg(1) describes as concerning only these things, or that
     * gpg's own option table holds as dummies (issue 41).  */
    { O_GPG_NOOP, 0, "fast-list-mode", NULL, "key listings" },
    { O_GPG_NOOP, 0, "legacy-list-mode", NULL, "key listings" },
    { O_GPG_NOOP, 0, "with-icao-spelling", NULL, "key listings" },
    { O_GPG_NOOP, 0, "with-key-data", NULL, "key listings" },
    { O_GPG_NOOP, 0, "with-key-origin", NULL, "key listings" },
    { O_GPG_NOOP, 0, "with-sig-check", NULL, "key listings" },
    { O_GPG_NOOP, 0, "with-sig-list", NULL, "key listings" },
    { O_GPG_NOOP, 0, "with-subkey-fingerprint", NULL, "key listings" },
    { O_GPG_NOOP, 0, "with-subkey-fingerprints", NULL, "key listings" },
    { O_GPG_NOOP, 0, "with-tofu-info", NULL, "key listings" },
    { O_GPG_NOOP, 0, "with-wkd-hash", NULL, "key listings" },
    { O_GPG_NOOP, 0, "show-keyring", NULL, "key listings" },
    { O_GPG_NOOP_ARG, 0, "attribute-fd", "N", "key listings" },
    { O_GPG_NOOP_ARG, 0, "attribute-file", "FILE", "key listings" },
    { O_GPG_NOOP_ARG, 0, "keyid-format", "FORMAT", "key ids shown" },
    { O_GPG_NOOP, 0, "sk-comments", NULL,
      "secret key listings (a dummy in gpg too)" },
    { O_GPG_NOOP, 0, "show-photos", NULL, "photo ids shown" },
    { O_GPG_NOOP, 0, "no-show-photos", NULL, "photo ids shown" },
    { O_GPG_NOOP_ARG, 0, "photo-viewer", "CMD", "photo ids shown" },
    { O_GPG_NOOP_ARG, 0, "exec-path", "DIRS", "photo ids shown" },
    { O_GPG_NOOP, 0, "show-notation", NULL, "signatures shown" },
    { O_GPG_NOOP, 0, "no-show-notation", NULL, "signatures shown" },
    { O_GPG_NOOP, 0, "show-policy-url", NULL, "signatures shown" },
    { O_GPG_NOOP, 0, "no-show-policy-url", NULL, "signatures shown" },
    { O_GPG_NOOP, 0, "no-sig-cache", NULL, "key signatures" },
    { O_GPG_NOOP, 0, "auto-check-trustdb", NULL, "the trust database" },
    { O_GPG_NOOP, 0, "no-expensive-trust-checks", NULL, "the trust database" },
    { O_GPG_NOOP_ARG, 0, "completes-needed", "N", "the trust database" },
    { O_GPG_NOOP_ARG, 0, "marginals-needed", "N", "the trust database" },
    { O_GPG_NOOP_ARG, 0, "max-cert-depth", "N", "the trust database" },
    { O_GPG_NOOP_ARG, 0, "min-cert-level", "N", "the trust database" },
    { O_GPG_NOOP_ARG, 0, "trustdb-name", "FILE", "the trust database" },
    { O_GPG_NOOP_ARG, 0, "trusted-key", "KEY", "the trust database" },
    { O_GPG_NOOP_ARG, 0, "tofu-default-policy", "POLICY",
      "the trust database" },
    { O_GPG_NOOP_ARG, 0, "tofu-db-format", "FORMAT",
      "the trust database (obsolete in gpg too)" },
    { O_GPG_NOOP_ARG, 0, "primary-keyring", "FILE", "keyrings" },
    { O_GPG_NOOP_ARG, 0, "group", "SPEC", "recipients" },
    { O_GPG_NOOP_ARG, 0, "ungroup", "NAME", "recipients" },
    { O_GPG_NOOP, 0, "no-groups", NULL, "recipients" },
    { O_GPG_NOOP_ARG, 0, "default-recipient", "NAME", "recipients" },
    { O_GPG_NOOP, 0, "default-recipient-self", NULL, "recipients" },
    { O_GPG_NOOP, 0, "no-default-recipient", NULL, "recipients" },
    { O_GPG_NOOP, 0, "encrypt-to-default-key", NULL, "recipients" },
    { O_GPG_NOOP_ARG, 0, "hidden-encrypt-to", "NAME", "recipients" },
    { O_GPG_NOOP, 0, "skip-hidden-recipients", NULL, "public-key decryption" },
    { O_GPG_NOOP, 0, "no-skip-hidden-recipients", NULL,
      "public-key decryption" },
    { O_GPG_NOOP, 0, "try-all-secrets", NULL, "public-key decryption" },
    { O_GPG_NOOP_ARG, 0, "try-secret-key", "NAME", "public-key decryption" },
    { O_GPG_NOOP, 0, "no-auto-key-locate", NULL, "key look-up" },
    { O_GPG_NOOP_ARG, 0, "dirmngr-program", "FILE", "key look-up" },
    { O_GPG_NOOP, 0, "honor-http-proxy", NULL,
      "key look-up (obsolete in gpg too)" },
    { O_GPG_NOOP_ARG, 0, "gpg-agent-info", "INFO",
      "gpg-agent (obsolete in gpg too)" },
    { O_GPG_NOOP_ARG, 0, "xauthority", "FILE", "pinentry" },
    { O_GPG_NOOP_ARG, 0, "reader-port", "PORT",
      "smartcards (obsolete in gpg too)" },
    { O_GPG_NOOP_ARG, 0, "ctapi-driver", "FILE",
      "smartcards (obsolete in gpg too)" },
    { O_GPG_NOOP_ARG, 0, "pcsc-driver", "FILE",
      "smartcards (obsolete in gpg too)" },
    { O_GPG_NOOP, 0, "disable-ccid", NULL,
      "smartcards (obsolete in gpg too)" },
    { O_GPG_NOOP_ARG, 0, "limit-card-insert-tries", "N", "smartcards" },
    { O_CERT_DIGEST_ALGO, 0, "cert-digest-algo", "NAME",
      "key signatures; the name is checked as gpg checks it" },
    { O_GPG_NOOP_ARG, 0, "cert-notation", "NOTATION", "key signatures" },
    { O_GPG_NOOP_ARG, 0, "cert-policy-url", "URL", "key signatures" },
    { O_GPG_NOOP, 0, "ask-cert-expire", NULL, "key signatures" },
    { O_GPG_NOOP, 0, "no-ask-cert-expire", NULL, "key signatures" },
    { O_GPG_NOOP, 0, "ask-cert-level", NULL, "key signatures" },
    { O_GPG_NOOP, 0, "no-ask-cert-level", NULL, "key signatures" },
    { O_GPG_NOOP_ARG, 0, "default-cert-expire", "TIME", "key signatures" },
    { O_GPG_NOOP_ARG, 0, "default-cert-level", "N", "key signatures" },
    { O_GPG_NOOP_ARG, 0, "default-cert-check-level", "N", "key signatures" },
    { O_GPG_NOOP_ARG, 0, "min-rsa-length", "N", "public keys" },
    { O_GPG_NOOP_ARG, 0, "disable-pubkey-algo", "NAME", "public keys" },
    { O_GPG_NOOP_ARG, 0, "sig-notation", "NOTATION", "signatures" },
    { O_GPG_NOOP_ARG, 0, "sig-policy-url", "URL", "signatures" },
    { O_GPG_NOOP_ARG, 0, "set-notation", "NOTATION", "signatures" },
    { O_GPG_NOOP_ARG, 0, "set-policy-url", "URL", "signatures" },
    { O_GPG_NOOP_ARG, 0, "sig-keyserver-url", "URL", "signatures" },
    { O_GPG_NOOP, 0, "ask-sig-expire", NULL, "signatures" },
    { O_GPG_NOOP, 0, "no-ask-sig-expire", NULL, "signatures" },
    { O_GPG_NOOP_ARG, 0, "default-sig-expire", "TIME", "signatures" },
    { O_GPG_NOOP, 0, "enable-dsa2", NULL, "signatures" },
    { O_GPG_NOOP, 0, "disable-dsa2", NULL, "signatures" },
    { O_GPG_NOOP, 0, "disable-signer-uid", NULL, "signatures" },
    { O_GPG_NOOP, 0, "only-sign-text-ids", NULL, "signatures" },
    { O_GPG_NOOP, 0, "force-v3-sigs", NULL,
      "signatures (a dummy in gpg too)" },
    { O_GPG_NOOP, 0, "no-force-v3-sigs", NULL,
      "signatures (a dummy in gpg too)" },
    { O_GPG_NOOP, 0, "force-v4-certs", NULL,
      "signatures (a dummy in gpg too)" },
    { O_GPG_NOOP, 0, "no-force-v4-certs", NULL,
      "signatures (a dummy in gpg too)" },
    { O_GPG_NOOP, 0, "compress-sigs", NULL,
      "signatures (a dummy in gpg too)" },
    { O_GPG_NOOP, 0, "not-dash-escaped", NULL, "clear text signatures" },
    { O_GPG_NOOP, 0, "escape-from-lines", NULL, "clear text signatures" },
    { O_GPG_NOOP, 0, "no-escape-from-lines", NULL, "clear text signatures" },
    { O_GPG_NOOP_ARG, 0, "known-notation", "NAME", "signature checks" },
    { O_GPG_NOOP, 0, "allow-weak-digest-algos", NULL, "signature checks" },
    { O_GPG_NOOP, 0, "allow-weak-key-signatures", NULL, "signature checks" },
    { O_GPG_NOOP_ARG, 0, "weak-digest", "NAME", "signature checks" },
    { O_GPG_NOOP, 0, "allow-multisig-verification", NULL,
      "signature checks (a dummy in gpg too)" },
    { O_GPG_NOOP, 0, "ignore-time-conflict", NULL, "key and signature dates" },
    { O_GPG_NOOP, 0, "ignore-valid-from", NULL, "key and signature dates" },
    { O_GPG_NOOP, 0, "require-cross-certification", NULL, "signing subkeys" },
    { O_GPG_NOOP, 0, "no-require-cross-certification", NULL,
      "signing subkeys" },
    { O_GPG_NOOP, 0, "require-backsigs", NULL, "signing subkeys" },
    { O_GPG_NOOP, 0, "no-require-backsigs", NULL, "signing subkeys" },
    { O_GPG_NOOP, 0, "allow-secret-key-import", NULL,
      "key import (a dummy in gpg too)" },
    { O_GPG_NOOP, 0, "merge-only", NULL, "key import" },
    { O_GPG_NOOP_ARG, 0, "key-origin", "ORIGIN", "key import" },
    { O_GPG_NOOP_ARG, 0, "import-filter", "FILTER", "key import" },
    { O_GPG_NOOP_ARG, 0, "export-filter", "FILTER", "key export" },
    { O_GPG_NOOP, 0, "compress-keys", NULL,
      "key export (a dummy in gpg too)" },
    { O_GPG_NOOP, 0, "allow-freeform-uid", NULL, "user ids" },
    { O_GPG_NOOP, 0, "no-allow-freeform-uid", NULL, "user ids" },
    { O_GPG_NOOP, 0, "allow-non-selfsigned-uid", NULL, "user ids" },
    { O_GPG_NOOP, 0, "no-allow-non-selfsigned-uid", NULL, "user ids" },
    { O_GPG_NOOP_ARG, 0, "default-new-key-algo", "ALGO", "key generation" },
    { O_GPG_NOOP_ARG, 0, "default-preference-list", "PREFS",
      "key generation" },
    { O_GPG_NOOP_ARG, 0, "default-keyserver-url", "URL", "key generation" },
    { O_GPG_NOOP, 0, "enable-large-rsa", NULL, "key generation" },
    { O_GPG_NOOP, 0, "disable-large-rsa", NULL, "key generation" },
    { O_GPG_NOOP, 0, "forbid-gen-key", NULL, "key generation" },
    { O_GPG_NOOP, 0, "no-mdc-warning", NULL, "nothing (a dummy in gpg too)" },
    { O_GPG_NOOP, 0, "no-force-mdc", NULL,
      "nothing: the MDC is always written (a dummy in gpg too)" },
    { O_GPG_NOOP, 0, "disable-mdc", NULL,
      "nothing: the MDC is always written (a dummy in gpg too)" },
    { O_GPG_NOOP, 0, "no-disable-mdc", NULL,
      "nothing: the MDC is always written (a dummy in gpg too)" },
    { O_GPG_NOOP, 0, "allow-multiple-messages", NULL,
      "nothing (a dummy in gpg too)" },
    { O_GPG_NOOP, 0, "no-allow-multiple-messages", NULL,
      "nothing (a dummy in gpg too)" },
    { O_GPG_NOOP, 0, "bzip2-decompress-lowmem", NULL,
      "memory use of gpg's BZIP2 reader" },
    { O_GPG_NOOP, 0, "debug-all", NULL, "gpg's debugging output" },
    { O_GPG_NOOP, 0, "debug-iolbf", NULL, "gpg's debugging output" },
    { O_GPG_NOOP, 0, "preserve-permissions", NULL,
      "the modes of keyring files" },
    { O_GPG_NOOP, 0, "debug-quick-random", NULL,
      "gpg's tests: sfenc's keys always come from strong random" },
    { O_GPG_NOOP_ARG, 0, "force-ownertrust", "TRUST", "the trust database" },
    { O_GPG_NOOP, 0, "force-sign-key", NULL, "key signatures" },
    { O_GPG_NOOP, 0, "use-only-openpgp-card", NULL, "smartcards" },
    { O_GPG_NOOP, 0, "mangle-dos-filenames", NULL,
      "output file names, on Windows only" },
    { O_GPG_NOOP, 0, "no-mangle-dos-filenames", NULL,
      "output file names, on Windows only" },
    /* Issue 41, packets and session keys.  */
    { O_GPG_NOOP, 0, "skip-verify", NULL,
      "signatures: a passphrase message sfenc reads has none to check" }
  };

#define N_OPTIONS (sizeof options / sizeof *options)


void
options_set_defaults (void)
{
  memset (&opt, 0, sizeof opt);
  opt.s2k_mode = 3;
  opt.s2k_count = DEFAULT_S2K_COUNT;
  opt.argon2_t = DEFAULT_ARGON2_PASSES;
  opt.argon2_p = DEFAULT_ARGON2_LANES;
  opt.argon2_m = DEFAULT_ARGON2_MEMORY_EXP;
  opt.argon2_max_work_mib = ARGON2_DEFAULT_MAX_WORK_MIB;
  opt.aead_skesk_version = 6;
  opt.chunk_octet = DEFAULT_CHUNK_SIZE - 6;
  opt.compress_level = -1;
  opt.bzip2_compress_level = -1;
  opt.compress_algo = COMPRESS_ZIP;
  opt.inflate_impl = INFLATE_IMPL_DEFAULT;
  opt.passphrase_fd = -1;
  opt.override_session_key_fd = -1;
  opt.passphrase_repeat = 1;
}


void
show_help (void)
{
  size_t i;
  char left[64];

  printf ("Usage: sfenc [options] [FILE]\n"
          "Encrypt and decrypt with a passphrase, compatible with"
          " gpg -c and gpg -d.\n"
          "FILE defaults to stdin; -c FILE writes FILE.gpg"
          " (FILE.asc with -a).\n");
  for (i = 0; i < N_OPTIONS; i++)
    {
      const struct option_def *o = &options[i];

      if (!o->long_name)
        {
          printf ("\n%s:\n", o->help);
          continue;
        }
      if (o->short_name)
        snprintf (left, sizeof left, "-%c, --%s%s%s", o->short_name,
                  o->long_name, o->arg ? " " : "", o->arg ? o->arg : "");
      else
        snprintf (left, sizeof left, "    --%s%s%s", o->long_name,
                  o->arg ? " " : "", o->arg ? o->arg : "");
      if (strlen (left) > 27)
        printf (" %s\n %-29s%s\n", left, "", o->help);
      else
        printf (" %-29s%s\n", left, o->help);
    }
  printf ("\nSee sfenc(1) for the details.\n");
}


/* As gpg --dump-options does: for completion scripts and for the
 * documentation test.  */
void
dump_options (void)
{
  size_t i;

  for (i = 0; i < N_OPTIONS; i++)
    if (options[i].long_name)
      printf ("--%s\n", options[i].long_name);
}


/* gpg's flags of an option in --dump-option-table: its argument's
 * type, and whether it is a command.  */
#define OPT_TABLE_INT 1
#define OPT_TABLE_STRING 2
#define OPT_TABLE_COMMAND 128

/* Whether the group titled TITLE holds commands.  */
static int
is_command_group (const char *title)
{
  return !strncmp (title, "Commands", 8) || !strcmp (title, "General commands");
}


/* The type gpg gives the argument named ARG: the numbers are
 * integers.  */
static int
argument_type (const char *arg)
{
  if (!arg)
    return 0;
  return !strcmp (arg, "N") || !strcmp (arg, "LEVEL") || !strcmp (arg, "MIB")
         ? OPT_TABLE_INT : OPT_TABLE_STRING;
}


/* The id of a long option without a short one in
 * --dump-option-table: above every character, as in gpg.  */
#define OPT_TABLE_LONG_ID 256

/* As gpg --dump-option-table does, a line an option:
 * "NAME:ID:FLAGS:HELP:", the id being the short option's character
 * where there is one.  A colon in HELP is written "\x3a", as in gpg's
 * colon listings.  */
void
dump_option_table (void)
{
  int commands = 0;
  const char *c;
  size_t i;

  for (i = 0; i < N_OPTIONS; i++)
    {
      const struct option_def *o = &options[i];

      if (!o->long_name)
        {
          commands = is_command_group (o->help);
          continue;
        }
      printf ("%s:%d:%d:", o->long_name,
              o->short_name ? (int)(unsigned char)o->short_name
              : OPT_TABLE_LONG_ID + (int)o->id,
              argument_type (o->arg) | (commands ? OPT_TABLE_COMMAND : 0));
      for (c = o->help; *c; c++)
        if (*c == ':')
          fputs ("\\x3a", stdout);
        else
          putchar (*c);
      fputs (":\n", stdout);
    }
}


static gpg_error_t
usage_error (const char *what, const char *fmt, ...)
  __attribute__ ((format (printf, 2, 3)));

static gpg_error_t
usage_error (const char *what, const char *fmt, ...)
{
  char why[256];
  va_list ap;

  va_start (ap, fmt);
  vsnprintf (why, sizeof why, fmt, ap);
  va_end (ap);
  return fail (gpg_error (GPG_ERR_INV_ARG), what, "%s", why);
}


/* Parse the decimal number ARG of option NAME into *R_VALUE, which must
 * lie in MIN..MAX.  */
static gpg_error_t
parse_number (const char *name, const char *arg, long min, long max,
              long *r_value)
{
  char *end;
  long v;

  errno = 0;
  v = strtol (arg, &end, 10);
  if (!*arg || *end || errno)
    return usage_error (name, "invalid number '%s'", arg);
  if (v < min || v > max)
    return usage_error (name, "%ld is out of range (%ld..%ld)", v, min, max);
  *r_value = v;
  return 0;
}


/* Parse the argument ARG of option NAME, a number in MIN..MAX, into
 * *R_VALUE.  */
static gpg_error_t
set_int (int *r_value, const char *name, const char *arg, long min,
         long max)
{
  gpg_error_t err;
  long v;

  err = parse_number (name, arg, min, max, &v);
  if (!err)
    *r_value = v;
  return err;
}


static gpg_error_t
set_command (struct command_line *cl, enum cmd cmd, const char *name)
{
  /* gpg combines -c with -e or -s, and a listing with another (as
   * --list-keys --fingerprint); sfenc has none of those, and the
   * first command that needs keys is the one to fail.  */
  if (cl->cmd == CMD_KEYS)
    return 0;
  if (cl->cmd != CMD_NONE && cl->cmd != cmd && cmd != CMD_KEYS)
    return usage_error (name, "conflicting commands (%s and %s)",
                        cl->cmd_option, name);
  cl->cmd = cmd;
  snprintf (cl->cmd_option, sizeof cl->cmd_option, "%s", name);
  return 0;
}


/* Set the command of option O, written NAME, that NEEDS keys.  */
static gpg_error_t
set_key_command (struct command_line *cl, enum key_need needs,
                 const struct option_def *o, const char *name)
{
  if (cl->cmd != CMD_KEYS)
    {
      cl->key_need = needs;
      cl->key_command = o->long_name;
    }
  return set_command (cl, CMD_KEYS, name);
}


/* --logger-fd: from now on, what goes to stderr goes to FD, as gpg's
 * log does.  */
static gpg_error_t
set_logger_fd (const char *name, long fd)
{
  if (fd != STDERR_FILENO && dup2 (fd, STDERR_FILENO) < 0)
    return usage_error (name, "file descriptor %ld: %s", fd,
                        strerror (errno));
  return 0;
}


/* Logging and option files (issue 41): --log-file, --status-file and
 * --command-file are noted while parsing and opened after it, as gpg
 * opens its log once its options are read, so that parsing opens no
 * file; --options, --no-options and --homedir are looked for before
 * the rest of the command line (find_options_file).  */
static struct
{
  const char *log;              /* --log-file, --logger-file.  */
  const char *status;           /* --status-file.  */
  const char *command;          /* --command-file.  */
} files;


/* The file FILE of option NAME opened with FLAGS, handed to SET_FD.  */
static gpg_error_t
open_fd_file (const char *name, const char *file, int flags,
              gpg_error_t (*set_fd) (int fd))
{
  gpg_error_t err;
  int fd;

  fd = open (file, flags | O_CLOEXEC, 0666);
  if (fd < 0)
    return usage_error (name, "%s: %s", file, strerror (errno));
  err = set_fd (fd);
  if (err)
    close (fd);
  return err;
}


/* --log-file: what goes to stderr from now on goes to FD instead.  */
static gpg_error_t
set_log_fd (int fd)
{
  gpg_error_t err = set_logger_fd ("--log-file", fd);

  close (fd);
  return err;
}


gpg_error_t
options_check_ciphers (void)
{
  gpg_error_t err = 0;

  if (opt.cipher_algo)
    err = algo_check_cipher_name ("--cipher-algo", opt.cipher_algo);
  if (!err && opt.s2k_cipher_algo)
    err = algo_check_cipher_name ("--s2k-cipher-algo", opt.s2k_cipher_algo);
  return err;
}


gpg_error_t
options_open_files (void)
{
  gpg_error_t err = 0;

  /* gpg appends to its log file, and empties its status file.  */
  if (files.log)
    err = open_fd_file ("--log-file", files.log,
                        O_WRONLY | O_APPEND | O_CREAT, set_log_fd);
  if (!err && files.status)
    err = open_fd_file ("--status-file", files.status,
                        O_WRONLY | O_CREAT | O_TRUNC, status_set_fd);
  if (!err && files.command)
    err = open_fd_file ("--command-file", files.command, O_RDONLY,
                        command_fd_set);
  return err;
}


/* --digest-algo and --s2k-digest-algo: store the name ARG at *R_NAME
 * once it is known to name a hash.  */
static gpg_error_t
set_digest_algo (const char **r_name, const char *name, const char *arg)
{
  if (!digest_algo_from_name (arg))
    return usage_error (name, "unknown digest algorithm '%s'"
                        " (MD5, SHA1, RIPEMD160, SHA224, SHA256,"
                        " SHA384, SHA512)", arg);
  *r_name = arg;
  return 0;
}


static gpg_error_t
set_s2k_mode (const char *name, const char *arg)
{
  gpg_error_t err;
  long v;

  if (!strcasecmp (arg, "argon2"))
    {
      opt.s2k_mode = S2K_ARGON2;
      return 0;
    }
  err = parse_number (name, arg, 0, S2K_ARGON2, &v);
  if (err)
    return err;
  if (v == 2)
    return usage_error (name, "S2K mode 2 is reserved"
                        " (use 0, 1, 3 or argon2)");
  opt.s2k_mode = v;
  return 0;
}


static gpg_error_t
set_aead_format (const char *name, const char *arg)
{
  if (!strcasecmp (arg, "rfc9580"))
    opt.aead_skesk_version = 6;
  else if (!strcasecmp (arg, "librepgp"))
    opt.aead_skesk_version = 5;
  else
    return usage_error (name, "unknown format '%s' (rfc9580, librepgp)",
                        arg);
  return 0;
}


/* -z and --compress-level.  As in gpg, -z sets the BZIP2 level too;
 * its 0 is left out, as gpg does not take it for BZIP2.  */
static gpg_error_t
set_compress_level (const char *name, const char *arg)
{
  gpg_error_t err;
  long v;

  err = parse_number (name, arg, 0, 9, &v);
  if (err)
    return err;
  opt.compress_level = v;
  if (v && name[1] != '-')
    opt.bzip2_compress_level = v;
  return 0;
}


static gpg_error_t
set_pinentry_mode (const char *name, const char *arg)
{
  if (!strcmp (arg, "cancel") || !strcmp (arg, "error"))
    opt.pinentry_no_ask = 1;
  else if (!strcmp (arg, "default") || !strcmp (arg, "ask")
           || !strcmp (arg, "loopback"))
    opt.pinentry_no_ask = 0;
  else
    return usage_error (name, "invalid mode '%s' (default, ask, loopback,"
                        " cancel, error)", arg);
  return 0;
}


/* --personal-cipher-preferences: gpg -c encrypts with the first
 * cipher of the list, kept as gpg writes its id ("S9").  */
static gpg_error_t
set_personal_cipher (const char *name, const char *list)
{
  gpg_error_t err;
  int id;

  err = algo_prefs_first (name, list, PREF_CIPHER, &id);
  if (err)
    return err;
  *opt.personal_cipher = 0;
  if (id > 0)
    snprintf (opt.personal_cipher, sizeof opt.personal_cipher, "S%d", id);
  return 0;
}


/* --personal-digest-preferences (ID) and --cert-digest-algo: nothing
 * here hashes by them, but gpg refuses a name it cannot read.  */
static gpg_error_t
check_digest_option (enum opt_id id, const char *name, const char *arg)
{
  const char *digest;
  int first;

  if (id == O_PERSONAL_DIGEST_PREFS)
    return algo_prefs_first (name, arg, PREF_DIGEST, &first);
  return set_digest_algo (&digest, name, arg);
}


/* --personal-compress-preferences: gpg -c compresses with the first
 * algorithm of the list unless --compress-algo is given.  */
static gpg_error_t
set_personal_compress (const char *name, const char *list)
{
  gpg_error_t err;
  int id;

  err = algo_prefs_first (name, list, PREF_COMPRESS, &id);
  if (!err && id >= 0)
    personal_compress = id;
  return err;
}


/* Append VALUE of option NAME to LIST of *N entries.  */
static gpg_error_t
add_to_list (const char **list, size_t *n, const char *name,
             const char *value)
{
  if (*n == MAX_LIST_OPTION)
    return usage_error (name, "given more than %d times", MAX_LIST_OPTION);
  list[(*n)++] = value;
  return 0;
}


/*
 * Armor, literal data and files (issue 41).
 */

/* Apply the switch ID of this group; NAME is how it was written.  */
static gpg_error_t
apply_armorfiles_switch (struct command_line *cl, enum opt_id id,
                         const char *name)
{
  switch (id)
    {
    case O_ENARMOR: return set_command (cl, CMD_ENARMOR, name);
    case O_DEARMOR: return set_command (cl, CMD_DEARMOR, name);
    case O_NO_ARMOR: opt.armor = 0; break;
    case O_DEFAULT_COMMENT:
      log_warning ("WARNING: \"%s\" is a deprecated option;"
                   " use \"--no-comments\" instead", name);
      opt.n_comments = 0;
      break;
    case O_NO_COMMENTS: opt.n_comments = 0; break;
    case O_EMIT_VERSION: opt.emit_version++; break;
    case O_NO_EMIT_VERSION: opt.emit_version = 0; break;
    case O_IGNORE_CRC_ERROR: opt.ignore_crc_error = 1; break;
    case O_FOR_YOUR_EYES_ONLY: opt.for_your_eyes_only = 1; break;
    case O_NO_FOR_YOUR_EYES_ONLY: opt.for_your_eyes_only = 0; break;
    /* gpg 2.2 writes a MIME message as text: mode 't', not 'm'.  */
    case O_MIMEMODE: opt.textmode = 1; break;
    default:
      abort ();
    }
  return 0;
}


/* Apply the option ID of this group with its argument ARG.  */
static gpg_error_t
apply_armorfiles_argument (enum opt_id id, const char *name, const char *arg)
{
  gpg_error_t err;
  long v;

  switch (id)
    {
    case O_COMMENT:
      /* gpg skips an empty one: "--comment ''" alone writes none.  */
      if (!*arg)
        return 0;
      return add_to_list (opt.comments, &opt.n_comments, name, arg);
    case O_MAX_OUTPUT:
      err = parse_number (name, arg, 0, LONG_MAX, &v);
      if (!err)
        opt.max_output = v;
      return err;
    case O_FAKED_SYSTEM_TIME:
      clock_fake (arg);
      return 0;
    default:
      abort ();
    }
}


/* Apply option O, which takes no argument; NAME is how it was
 * written.  */
static gpg_error_t
apply_switch (struct command_line *cl, const struct option_def *o,
              const char *name)
{
  switch (o->id)
    {
    case O_SYMMETRIC:
      cl->symmetric = 1;
      return set_command (cl, CMD_SYMMETRIC, name);
    case O_DECRYPT: return set_command (cl, CMD_DECRYPT, name);
    case O_LIST_CIPHERS: return set_command (cl, CMD_LIST_CIPHERS, name);
    case O_LIST_CONFIG: return set_command (cl, CMD_LIST_CONFIG, name);
    case O_KEYS_PUBLIC:
      return set_key_command (cl, NEEDS_PUBLIC_KEY, o, name);
    case O_KEYS_SECRET:
      return set_key_command (cl, NEEDS_SECRET_KEY, o, name);
    case O_KEYS_KEYRING:
      return set_key_command (cl, NEEDS_KEYRING, o, name);
    case O_VERSION: return set_command (cl, CMD_VERSION, name);
    case O_HELP: return set_command (cl, CMD_HELP, name);
    case O_DUMP_OPTIONS: return set_command (cl, CMD_DUMP_OPTIONS, name);
    case O_DUMP_OPTION_TABLE:
      return set_command (cl, CMD_DUMP_OPTION_TABLE, name);
    case O_WARRANTY: return set_command (cl, CMD_WARRANTY, name);
    case O_RFC2440_TEXT: opt.rfc2440_text = 1; break;
    case O_NO_RFC2440_TEXT: opt.rfc2440_text = 0; break;
    case O_REQUIRE_SECMEM: opt.require_secmem = 1; break;
    case O_NO_REQUIRE_SECMEM: opt.require_secmem = 0; break;
    case O_VERBOSE: opt.verbose++; opt.quiet = 0; break;
    case O_NO_VERBOSE: opt.verbose = 0; break;
    case O_QUIET: opt.quiet = 1; opt.verbose = 0; break;
    case O_BATCH: opt.batch = 1; break;
    case O_NO_BATCH: opt.batch = 0; break;
    case O_YES: opt.yes = 1; break;
    case O_ARMOR: opt.armor = 1; break;
    case O_TEXTMODE: opt.textmode = 1; break;
    case O_NO_TEXTMODE: opt.textmode = 0; break;
    case O_COMPLIANCE_MODE:
      /* --no-pgp2 .. --no-pgp8 are gpg's old names of --gnupg.  */
      return compliance_set_name (strncmp (o->long_name, "no-", 3)
                                  ? o->long_name : "gnupg");
    case O_REQUIRE_COMPLIANCE: compliance_require (); break;
    case O_PRINT_MD: return set_command (cl, CMD_PRINT_MD, name);
    case O_PRINT_MDS: return set_command (cl, CMD_PRINT_MDS, name);
    case O_GEN_RANDOM: return set_command (cl, CMD_GEN_RANDOM, name);
    case O_LIST_GCRYPT_CONFIG:
      return set_command (cl, CMD_LIST_GCRYPT_CONFIG, name);
    case O_GEN_PRIME: return set_command (cl, CMD_GEN_PRIME, name);
    case O_GPGCONF_LIST: return set_command (cl, CMD_GPGCONF_LIST, name);
    case O_GPGCONF_TEST: return set_command (cl, CMD_GPGCONF_TEST, name);
    case O_ANSWER_NO: opt.answer_no = 1; break;
    case O_WITH_COLONS: opt.with_colons = 1; break;
    case O_LIST_ONLY: opt.list_only = 1; break;
    case O_DRY_RUN: opt.dry_run = 1; break;
    case O_NO_AUTO_MODULES: opt.no_auto_modules = 1; break;
    case O_IGNORE_MDC_ERROR: opt.ignore_mdc_error = 1; break;
    case O_PROGRESS: progress_enable_display (); break;
    case O_ENABLE_PROGRESS_FILTER: progress_enable_status (); break;
    case O_ENABLE_SPECIAL_FILENAMES: special_filenames_enable (); break;
    case O_EXIT_ON_STATUS_WRITE_ERROR: status_exit_on_write_error (); break;
    case O_GPG_NOOP: break;
    case O_NO_OPTIONS: break;
    /* Issue 41, packets and session keys.  */
    case O_LIST_PACKETS: return set_command (cl, CMD_LIST_PACKETS, name);
    case O_SERVER: return set_command (cl, CMD_SERVER, name);
    case O_UNWRAP: opt.unwrap = 1; break;
    case O_SHOW_SESSION_KEY: opt.show_session_key = 1; break;
    /* gpg's file commands (issue 41).  */
    case O_STORE: return set_command (cl, CMD_STORE, name);
    /* -d --multifile and -e --multifile, which multifile.c resolves.  */
    case O_DECRYPT_FILES:
      opt.multifile = 1;
      return set_command (cl, CMD_DECRYPT, name);
    case O_ENCRYPT_FILES:
      opt.multifile = 1;
      return set_key_command (cl, NEEDS_PUBLIC_KEY, o, name);
    case O_MULTIFILE: opt.multifile = 1; break;
    case O_USE_EMBEDDED_FILENAME: opt.use_embedded_filename = 1; break;
    case O_NO_USE_EMBEDDED_FILENAME: opt.use_embedded_filename = 0; break;
    case O_NO_LITERAL: opt.no_literal = 1; break;
    case O_ENARMOR: case O_DEARMOR: case O_NO_ARMOR: case O_NO_COMMENTS:
    case O_DEFAULT_COMMENT: case O_EMIT_VERSION: case O_NO_EMIT_VERSION:
    case O_IGNORE_CRC_ERROR: case O_FOR_YOUR_EYES_ONLY:
    case O_NO_FOR_YOUR_EYES_ONLY: case O_MIMEMODE:
      return apply_armorfiles_switch (cl, o->id, name);
    default:
      /* A switch of options[] without its case here.  */
      abort ();
    }
  return 0;
}


/* Apply option ID, whose argument ARG is a number; NAME is how it was
 * written.  */
static gpg_error_t
apply_number (enum opt_id id, const char *name, const char *arg)
{
  gpg_error_t err = 0;
  long v;

  switch (id)
    {
    case O_S2K_COUNT:
      err = parse_number (name, arg, 1024, DEFAULT_S2K_COUNT, &v);
      if (!err)
        opt.s2k_count = v;
      break;
    /* RFC 9580 allows 1..255 passes and lanes.  */
    case O_S2K_ARGON2_PASSES:
      return set_int (&opt.argon2_t, name, arg, 1, 255);
    case O_S2K_ARGON2_PARALLELISM:
      return set_int (&opt.argon2_p, name, arg, 1, 255);
    case O_S2K_ARGON2_MEMORY:
      return set_int (&opt.argon2_m, name, arg, argon2_min_memory_exp (1),
                      ARGON2_MAX_MEMORY_EXP);
    case O_S2K_ARGON2_MAX_WORK:
      err = parse_number (name, arg, 1, ARGON2_MAX_WORK_MIB, &v);
      if (!err)
        opt.argon2_max_work_mib = v;
      break;
    case O_CHUNK_SIZE:
      err = parse_number (name, arg, 6, AEAD_MAX_CHUNK_OCTET + 6, &v);
      if (!err)
        opt.chunk_octet = v - 6;
      break;
    case O_COMPRESS_LEVEL:
      return set_compress_level (name, arg);
    case O_BZIP2_COMPRESS_LEVEL:
      return set_int (&opt.bzip2_compress_level, name, arg, 1, 9);
    case O_THREADS:
      err = parse_number (name, arg, 1, PDEFLATE_THREADS_MAX, &v);
      if (!err)
        compress_set_threads (v);
      break;
    case O_PASSPHRASE_FD:
      return set_int (&opt.passphrase_fd, name, arg, 0, INT_MAX);
    case O_PASSPHRASE_REPEAT:
      return set_int (&opt.passphrase_repeat, name, arg, 0, 9);
    case O_LOGGER_FD:
      err = parse_number (name, arg, 0, INT_MAX, &v);
      if (!err)
        err = set_logger_fd (name, v);
      break;
    case O_STATUS_FD:
      err = parse_number (name, arg, 0, INT_MAX, &v);
      if (!err)
        err = status_set_fd (v);
      break;
    case O_COMMAND_FD:
      err = parse_number (name, arg, 0, INT_MAX, &v);
      if (!err)
        err = command_fd_set (v);
      break;
    /* gpg's file commands (issue 41): the length is 32 bits.  */
    case O_SET_FILESIZE:
      err = parse_number (name, arg, 0, 0xffffffffL, &v);
      if (!err)
        opt.set_filesize = v;
      break;
    /* Issue 41, packets and session keys.  */
    case O_OVERRIDE_SESSION_KEY_FD:
      return set_int (&opt.override_session_key_fd, name, arg, 0, INT_MAX);
    default:
      /* An option of options[] with an argument but without its case
       * here or in apply_argument.  */
      abort ();
    }
  return err;
}


/* Apply option ID with its argument ARG; NAME is how it was
 * written.  */
static gpg_error_t
apply_argument (struct command_line *cl, enum opt_id id, const char *name,
                const char *arg)
{
  switch (id)
    {
    case O_CIPHER_ALGO: opt.cipher_algo = arg; break;
    case O_CIPHER_IMPL: opt.cipher_impl = arg; break;
    case O_S2K_CIPHER_ALGO: opt.s2k_cipher_algo = arg; break;
    case O_SET_FILENAME: opt.set_filename = arg; break;
    case O_OUTPUT: opt.output = arg; break;
    case O_PASSPHRASE: opt.passphrase = arg; break;
    case O_PASSPHRASE_FILE: opt.passphrase_file = arg; break;
    case O_HOMEDIR: opt.homedir = arg; break;
    case O_GPG_NOOP_ARG: break;
    case O_RECIPIENT:
      return add_to_list (cl->recipients, &cl->n_recipients, name, arg);
    case O_SIGNER: cl->signer = arg; break;
    case O_DIGEST_ALGO:
      return set_digest_algo (&opt.digest_algo, name, arg);
    case O_S2K_DIGEST_ALGO:
      return set_digest_algo (&opt.s2k_digest_algo, name, arg);
    case O_S2K_MODE:
      return set_s2k_mode (name, arg);
    case O_AEAD_ALGO:
      opt.aead_algo = aead_algo_from_name (arg);
      if (!opt.aead_algo)
        return usage_error (name, "unknown AEAD algorithm '%s'"
                            " (OCB, EAX, GCM)", arg);
      break;
    case O_AEAD_FORMAT:
      return set_aead_format (name, arg);
    case O_DISABLE_CIPHER_ALGO:
      return compliance_disable_cipher (arg);
    case O_PERSONAL_CIPHER_PREFS:
      return set_personal_cipher (name, arg);
    case O_PERSONAL_COMPRESS_PREFS:
      return set_personal_compress (name, arg);
    case O_PERSONAL_DIGEST_PREFS:
    case O_CERT_DIGEST_ALGO:
      return check_digest_option (id, name, arg);
    case O_COMPRESS_ALGO:
      compress_algo_given = 1;
      opt.compress_algo = compress_algo_from_name (arg);
      if (opt.compress_algo < 0)
        return usage_error (name, "unknown compression algorithm '%s'"
                            " (none, zip, zlib, bzip2)", arg);
      break;
    case O_PINENTRY_MODE:
      return set_pinentry_mode (name, arg);
    case O_COMPLIANCE:
      return compliance_set_name (arg);
    case O_INFLATE_IMPL:
      opt.inflate_impl = inflate_impl_from_name (arg);
      if (opt.inflate_impl < 0)
        return usage_error (name, "unknown inflate implementation '%s' (%s)",
                            arg, inflate_impl_names ());
      break;
    case O_LOAD_EXTENSION:
      return add_to_list (cl->extensions, &cl->n_extensions, name, arg);
    case O_OPTIONS: break;
    case O_LOG_FILE: files.log = arg; break;
    case O_STATUS_FILE: files.status = arg; break;
    case O_COMMAND_FILE: files.command = arg; break;
    /* Issue 41, packets and session keys.  */
    case O_OVERRIDE_SESSION_KEY: opt.override_session_key = arg; break;
    case O_COMMENT: case O_MAX_OUTPUT: case O_FAKED_SYSTEM_TIME:
      return apply_armorfiles_argument (id, name, arg);
    default:
      return apply_number (id, name, arg);
    }
  return 0;
}


/* Apply option O with argument ARG (NULL when O takes none); NAME is
 * how it was written.  An option without an argument has its case in
 * apply_switch; one with an argument in apply_argument, or, when that
 * is a number, in apply_number.  */
static gpg_error_t
apply_option (struct command_line *cl, const struct option_def *o,
              const char *name, const char *arg)
{
  if (!o->arg)
    return apply_switch (cl, o, name);
  return apply_argument (cl, o->id, name, arg);
}


/* Whether A and B are names of one gpg option or command, which an
 * abbreviation of both may then name, as gpg takes "--list-k" for
 * --list-keys and --list-key: in the table, the same id and the same
 * help, but not among the options without effect, whose help is only
 * what they are about.  */
static int
same_option (const struct option_def *a, const struct option_def *b)
{
  return a->id == b->id && a->id != O_GPG_NOOP && a->id != O_GPG_NOOP_ARG
         && !strcmp (a->help, b->help);
}


/* Find the long option NAME (LEN bytes): exact, or, as gpg allows, a
 * prefix of one option only; of several names of one option, the
 * first.  */
static const struct option_def *
find_long (const char *name, size_t len, int *r_ambiguous)
{
  const struct option_def *found = NULL;
  size_t i;

  *r_ambiguous = 0;
  for (i = 0; i < N_OPTIONS; i++)
    {
      const char *ln = options[i].long_name;

      if (!ln || strncmp (ln, name, len))
        continue;
      if (!ln[len])
        return &options[i];
      if (found && !same_option (found, &options[i]))
        *r_ambiguous = 1;
      if (!found)
        found = &options[i];
    }
  return *r_ambiguous ? NULL : found;
}


static const struct option_def *
find_short (char c)
{
  size_t i;

  for (i = 0; i < N_OPTIONS; i++)
    if (options[i].short_name == c)
      return &options[i];
  return NULL;
}


/* Parse the long option ARGV[*I], "--NAME" or "--NAME=ARG"; an
 * argument not given after "=" is the next word, and *I moves on to
 * it.  */
static gpg_error_t
parse_long_option (struct command_line *cl, int argc, char **argv, int *i)
{
  const char *a = argv[*i];
  const char *eq = strchr (a + 2, '=');
  size_t len = eq ? (size_t)(eq - a - 2) : strlen (a + 2);
  const struct option_def *o;
  const char *arg = NULL;
  int ambiguous;
  char name[128];

  /* Messages name the option without its "=value", which may be a
   * passphrase.  */
  snprintf (name, sizeof name, "%.*s", (int)(len + 2), a);
  o = find_long (a + 2, len, &ambiguous);
  if (!o)
    return fail (gpg_error (GPG_ERR_UNKNOWN_OPTION), name,
                 ambiguous ? "ambiguous option" : "unknown option"
                 " (see --help)");
  if (o->arg)
    {
      if (eq)
        arg = eq + 1;
      else if (*i + 1 < argc)
        arg = argv[++*i];
      else
        return fail (gpg_error (GPG_ERR_MISSING_VALUE), name,
                     "missing argument %s", o->arg);
    }
  else if (eq)
    return usage_error (name, "option takes no argument");
  return apply_option (cl, o, name, arg);
}


/* Parse the short options of ARGV[*I], such as "-v", "-vz9" or "-o":
 * an option with an argument takes the rest of the word, or else the
 * next word, and *I moves on to it.  */
static gpg_error_t
parse_short_options (struct command_line *cl, int argc, char **argv, int *i)
{
  const char *a;
  gpg_error_t err;

  for (a = argv[*i] + 1; *a; a++)
    {
      const struct option_def *o = find_short (*a);
      char name[3] = { '-', *a, 0 };
      const char *arg = NULL;

      if (!o)
        return fail (gpg_error (GPG_ERR_UNKNOWN_OPTION), name,
                     "unknown option (see --help)");
      if (o->arg)
        {
          if (a[1])
            arg = a + 1;
          else if (*i + 1 < argc)
            arg = argv[++*i];
          else
            return fail (gpg_error (GPG_ERR_MISSING_VALUE), name,
                         "missing argument %s", o->arg);
        }
      err = apply_option (cl, o, name, arg);
      if (err || arg)
        return err;
    }
  return 0;
}


/* The option of long name NAME, whole, or NULL.  */
static const struct option_def *
find_exact (const char *name)
{
  int ambiguous;
  const struct option_def *o = find_long (name, strlen (name), &ambiguous);

  return o && !strcmp (o->long_name, name) ? o : NULL;
}


int
option_takes_argument (const char *name)
{
  const struct option_def *o = find_exact (name);

  return !o ? -1 : o->arg != NULL;
}


gpg_error_t
option_apply_named (struct command_line *cl, const char *name,
                    const char *arg, const char *where)
{
  return apply_option (cl, find_exact (name), where, arg);
}


/* Note in *R_FILE, *R_NO_OPTIONS and *R_HOMEDIR the options of ARGV
 * that say which options file to read: gpg reads it before its
 * command line.  The words are walked as parse_command_line walks
 * them; what is wrong in them is left to it.  */
static void
find_options_file (int argc, char **argv, const char **r_file,
                   int *r_no_options, const char **r_homedir)
{
  const struct option_def *o;
  const char *a, *eq, *arg;
  int i, ambiguous;

  for (i = 1; i < argc && strcmp (argv[i], "--"); i++)
    {
      a = argv[i];
      if (a[0] != '-' || !a[1])
        continue;
      if (a[1] != '-')
        {
          /* Short options: only the word after one with an argument
           * matters here, which is that argument.  */
          for (a++; *a && !((o = find_short (*a)) && o->arg); a++)
            ;
          if (*a && !a[1])
            i++;
          continue;
        }
      eq = strchr (a + 2, '=');
      o = find_long (a + 2, eq ? (size_t)(eq - a - 2) : strlen (a + 2),
                     &ambiguous);
      if (!o)
        continue;
      arg = eq ? eq + 1 : NULL;
      if (o->arg && !eq && i + 1 < argc)
        arg = argv[++i];
      if (o->id == O_OPTIONS)
        *r_file = arg;
      else if (o->id == O_NO_OPTIONS)
        *r_no_options = 1;
      else if (o->id == O_HOMEDIR)
        *r_homedir = arg;
    }
}


/* Whether the words after the options of command CMD may be more than
 * one file: the items of --list-config, the arguments of a command.  */
static int
takes_words (enum cmd cmd)
{
  switch (cmd)
    {
    case CMD_LIST_CONFIG: case CMD_KEYS: case CMD_PRINT_MD:
    case CMD_PRINT_MDS: case CMD_GEN_RANDOM: case CMD_GEN_PRIME:
      return 1;
    default:
      return 0;
    }
}


/* Read the options file the command line ARGV names, or gpg.conf.  */
static gpg_error_t
read_options_file (struct command_line *cl, int argc, char **argv)
{
  const char *file = NULL, *homedir = NULL;
  int no_options = 0;

  find_options_file (argc, argv, &file, &no_options, &homedir);
  if (!file && no_options)
    return 0;
  return options_file_read (cl, file, homedir);
}


gpg_error_t
parse_command_line (int argc, char **argv, struct command_line *cl)
{
  gpg_error_t err = 0;
  int i, only_files = 0;

  memset (cl, 0, sizeof *cl);
  memset (&files, 0, sizeof files);
  err = read_options_file (cl, argc, argv);
  for (i = 1; i < argc && !err; i++)
    {
      const char *a = argv[i];

      if (only_files || a[0] != '-' || !a[1])
        err = add_to_list (cl->args, &cl->n_args, a, a);
      else if (!strcmp (a, "--"))
        only_files = 1;
      else if (a[1] == '-')
        err = parse_long_option (cl, argc, argv, &i);
      else
        err = parse_short_options (cl, argc, argv, &i);
    }
  if (!err && personal_compress >= 0 && !compress_algo_given)
    opt.compress_algo = personal_compress;
  if (!err)
    err = compliance_apply ();
  if (!err && cl->n_args > 1 && !takes_words (cl->cmd)
      && !(opt.multifile && cl->cmd == CMD_DECRYPT))
    err = usage_error (cl->args[1], "only one input file may be given");
  return err;
}
