#!/usr/bin/python3
"""Symmetric encryption through python-gnupg, as its users call it.

usage: python-gnupg.py BINARY HOME OPERATION INFILE OUTFILE PASSPHRASE

OPERATION is encrypt, decrypt (the data as bytes: GPG.encrypt and
GPG.decrypt), encrypt_file or decrypt_file (a file object, the output
written by gpg itself with output=).  Prints the result's ok and
status; exits 0 when ok, 1 when not, with the bytes in OUTFILE.
"""
import sys

import gnupg


def main():
    binary, home, operation, infile, outfile, passphrase = sys.argv[1:7]
    gpg = gnupg.GPG(gpgbinary=binary, gnupghome=home)
    if gpg.version is None or gpg.version < (2, 1):
        print("version not recognised: %r" % (gpg.version,))
        return 1
    if operation == "encrypt":
        with open(infile, "rb") as f:
            result = gpg.encrypt(f.read(), None, symmetric="AES256",
                                 passphrase=passphrase, armor=False)
    elif operation == "decrypt":
        with open(infile, "rb") as f:
            result = gpg.decrypt(f.read(), passphrase=passphrase)
    elif operation == "encrypt_file":
        with open(infile, "rb") as f:
            result = gpg.encrypt_file(f, None, symmetric=True,
                                      passphrase=passphrase, armor=True,
                                      output=outfile)
    elif operation == "decrypt_file":
        with open(infile, "rb") as f:
            result = gpg.decrypt_file(f, passphrase=passphrase,
                                      output=outfile)
    else:
        print("unknown operation " + operation)
        return 2
    if operation in ("encrypt", "decrypt"):
        with open(outfile, "wb") as f:
            f.write(result.data)
    print("ok=%s status=%s" % (result.ok, result.status))
    return 0 if result.ok else 1


sys.exit(main())
