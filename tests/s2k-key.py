#!/usr/bin/env python3
"""s2k-key.py - the session key of a passphrase-only OpenPGP message

Prints, in hex, the key that the first SKESK v4 packet of MESSAGE
derives from the first line of PASSFILE (RFC 4880 3.7.1, S2K modes 0,
1 and 3, no encrypted session key), for tests that look for that key
where it must not be.  Binary messages with a new-format SKESK header,
as sfenc writes them.

Usage: s2k-key.py MESSAGE PASSFILE
"""
import hashlib
import sys

HASHES = {1: "md5", 2: "sha1", 3: "ripemd160", 8: "sha256", 9: "sha384",
          10: "sha512", 11: "sha224"}
KEYLEN = {2: 24, 3: 16, 4: 16, 7: 16, 8: 24, 9: 32, 10: 32, 1: 16}


def derive(hash_name, mode, salt, count, passphrase, keylen):
    unit = salt + passphrase
    if mode == 3:
        n = max(count, len(unit))
        data = (unit * (n // len(unit) + 1))[:n]
    else:
        data = unit
    key = b""
    zeros = 0
    while len(key) < keylen:
        h = hashlib.new(hash_name)
        h.update(b"\0" * zeros + data)
        key += h.digest()
        zeros += 1
    return key[:keylen]


def main():
    message = open(sys.argv[1], "rb").read()
    passphrase = open(sys.argv[2], "rb").read().split(b"\n")[0]
    if message[0] != 0xC3:
        sys.exit("s2k-key: the message does not start with a SKESK packet")
    body = message[2:2 + message[1]]
    version, algo, mode, hash_id = body[:4]
    if version != 4 or mode not in (0, 1, 3):
        sys.exit("s2k-key: unsupported SKESK")
    salt = body[4:12] if mode else b""
    count = 0
    if mode == 3:
        c = body[12]
        count = (16 + (c & 15)) << ((c >> 4) + 6)
    print(derive(HASHES[hash_id], mode, salt, count, passphrase,
                 KEYLEN[algo]).hex())


main()
