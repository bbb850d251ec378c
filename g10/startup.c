/* startup.c - the process and libgcrypt made ready for a passphrase
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <gcrypt.h>

#include "startup.h"
#include "error.h"
#include "passphrase.h"

/* The oldest libgcrypt configure accepts.  */
#define NEED_LIBGCRYPT_VERSION "1.10.0"

/* Secure memory for passphrases (twice at the prompt), the S2K buffer
 * of passphrase repetitions, keys and key schedules.  */
#define SECMEM_SIZE (4 * MAX_PASSPHRASE)


/* Called before anything else: as gpg, no core dump can carry the
 * passphrase away, and a closed standard descriptor is reopened on
 * /dev/null so that no file opened later takes its number (stderr
 * would then write diagnostics into the output file).  A failed write
 * to a pipe or past the file size limit is reported as a write error,
 * with the output file removed, instead of a silent death by
 * signal.  */
int
harden_process (void)
{
  struct rlimit no_core = { 0, 0 };
  int fd;

  setrlimit (RLIMIT_CORE, &no_core);
  for (fd = 0; fd <= 2; fd++)
    if (fcntl (fd, F_GETFD) == -1 && errno == EBADF
        && open ("/dev/null", fd ? O_WRONLY : O_RDONLY) != fd)
      return 0;
  signal (SIGPIPE, SIG_IGN);
  signal (SIGXFSZ, SIG_IGN);
  return 1;
}


gpg_error_t
init_libgcrypt (int require_secmem)
{
  gpg_error_t err = 0;

  if (!gcry_check_version (NEED_LIBGCRYPT_VERSION))
    return fail (gpg_error (GPG_ERR_NOT_SUPPORTED), "libgcrypt",
                 "version %s is too old (need %s)",
                 gcry_check_version (NULL), NEED_LIBGCRYPT_VERSION);
  /* Without the privilege to lock memory the pool still works, just
   * unlocked; libgcrypt's multi-line warning would break our one-line
   * error contract, so it stays quiet.  */
  gcry_control (GCRYCTL_DISABLE_SECMEM_WARN);
  /* The random pool holds the bytes of the session keys it made until
   * its next request (skesk.c): in secure memory, as gpg keeps it.  */
  gcry_control (GCRYCTL_USE_SECURE_RNDPOOL);
  /* libgcrypt answers an error when it could not lock the pool.  */
  if (gcry_control (GCRYCTL_INIT_SECMEM, SECMEM_SIZE, 0) && require_secmem)
    err = fail (gpg_error (GPG_ERR_GENERAL), "--require-secmem",
                "will not run with insecure memory");
  gcry_control (GCRYCTL_INITIALIZATION_FINISHED, 0);
  return err;
}
