#!/usr/bin/python3
"""Symmetric encryption through GPGME (its Python binding, python3-gpg).

usage: gpgme.py BINARY HOME OPERATION INFILE OUTFILE PASSPHRASE [callback]

OPERATION is encrypt (armored), decrypt, or keylist (INFILE and
OUTFILE unused), which needs keys that sfenc does not have.  The engine is BINARY with
the home directory HOME (gpgme_set_engine_info); the passphrase goes
through GPGME's passphrase= argument, or with "callback" through a
loopback passphrase callback; a PASSPHRASE of "CANCEL" makes the
callback cancel.  Prints the engine version and GPGME's error, if any;
exits 0 on success, 1 on a GPGME error.
"""
import sys

import gpg


def main():
    binary, home, operation, infile, outfile, passphrase = sys.argv[1:7]
    use_callback = sys.argv[7:] == ["callback"]
    ctx = gpg.Context(armor=True,
                      pinentry_mode=gpg.constants.PINENTRY_MODE_LOOPBACK)
    ctx.set_engine_info(gpg.constants.protocol.OpenPGP, file_name=binary,
                        home_dir=home)
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
            data = f.read()
        if operation == "encrypt":
            out, _, _ = ctx.encrypt(data, recipients=[], sign=False,
                                    passphrase=given)
        else:
            out, _, _ = ctx.decrypt(data, passphrase=given, verify=False)
    except gpg.errors.GPGMEError as e:
        print("GPGME error: %s" % e)
        return 1
    with open(outfile, "wb") as f:
        f.write(out)
    return 0


sys.exit(main())
