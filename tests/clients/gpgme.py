#!/usr/bin/python3
"""Symmetric encryption through GPGME (its Python binding, python3-gpg).

usage: gpgme.py BINARY HOME OPERATION INFILE OUTFILE PASSPHRASE [WORD...]

OPERATION is encrypt (armored), decrypt, or keylist (INFILE and
OUTFILE unused), which needs keys that sfenc does not have.  The engine is BINARY with
the home directory HOME (gpgme_set_engine_info); the passphrase goes
through GPGME's passphrase= argument, or with the word "callback"
through a loopback passphrase callback; a PASSPHRASE of "CANCEL"
makes the callback cancel.  The word "flags" sets every context flag
that changes gpg's command line (offline, no-symkey-cache, ...),
encrypts without compression and names the data, so that GPGME sends
all the options it has for symmetric work.  Prints the engine version and GPGME's error, if any;
exits 0 on success, 1 on a GPGME error.
"""
import sys

import gpg


def main():
    binary, home, operation, infile, outfile, passphrase = sys.argv[1:7]
    use_callback = "callback" in sys.argv[7:]
    all_flags = "flags" in sys.argv[7:]
    ctx = gpg.Context(armor=True, offline=all_flags,
                      pinentry_mode=gpg.constants.PINENTRY_MODE_LOOPBACK)
    ctx.set_engine_info(gpg.constants.protocol.OpenPGP, file_name=binary,
                        home_dir=home)
    if all_flags:
        for name, value in [("no-symkey-cache", "1"),
                            ("request-origin", "remote"),
                            ("trust-model", "always"),
                            ("auto-key-locate", "local"),
                            ("ignore-mdc-error", "1"),
                            ("auto-key-import", "1"),
                            ("include-key-block", "1")]:
            ctx.set_ctx_flag(name, value)
    print("engine %s" % ctx.engine_info.version)
    given = None
    if use_callback:
        def answer(hint, desc, prev_bad, hook=None):
            if passphrase == "CANCEL":
                raise gpg.errors.GPGMEError.fromSyserror()
            return passphrase
        ctx.set_passphrase_cb(answer)
    else:
        given = passphrase
    try:
        if operation == "keylist":
            print("keys %d" % len(list(ctx.keylist())))
            return 0
        with open(infile, "rb") as f:
            data = gpg.Data(f.read())
        if all_flags:
            data.set_file_name("named.txt")
        if operation == "encrypt":
            out, _, _ = ctx.encrypt(data, recipients=[], sign=False,
                                    passphrase=given, compress=not all_flags,
                                    always_trust=all_flags)
        else:
            out, _, _ = ctx.decrypt(data, passphrase=given, verify=False)
    except gpg.errors.GPGMEError as e:
        print("GPGME error: %s" % e)
        return 1
    with open(outfile, "wb") as f:
        f.write(out)
    return 0


sys.exit(main())
