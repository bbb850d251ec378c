#!/usr/bin/env python3
"""s2k-key.py - every secret of a passphrase-only OpenPGP message

Prints one line "NAME HEX" for each secret that MESSAGE and the first
line of PASSFILE give, for tests/sfenc-secrets.bats, which searches
sfenc's memory for them.  Derived here from the packets alone, without
sfenc's code:

  passphrase    the passphrase
  s2k-key       the S2K output (RFC 9580 3.7.1: simple, salted, iterated
                and salted, Argon2); for a v4 SKESK without an
                encrypted session key, the session key
  kek           v6 SKESK: HKDF-SHA256 of s2k-key (RFC 9580 5.3.2); a v5
                SKESK and a v4 one with a session key use s2k-key
  kek-prk       the pseudorandom key of that HKDF (RFC 5869 2.2), from
                which kek is expanded
  session-key   the session key the SKESK holds encrypted (v4 in CFB
                mode, v5 and v6 with AEAD)
  message-key   SEIPD v2: HKDF-SHA256 of the session key and the
                packet's salt (RFC 9580 5.13.2); LibrePGP's AEAD packet
                uses the session key itself
  message-key-prk  the pseudorandom key of that HKDF

and of each of these longer than 16 octets, NAME.first16 and
NAME.last16, its first and last 16 octets, for a half left behind
(a 128-bit block of it, a copy cut short);

and for each of these keys that keys AEAD (KEY.), what the mode
derives from the key and keeps (RFC 7253 4.1; EAX's OMAC; SP 800-38D):

  KEY.ocb-l-star, KEY.ocb-l-dollar, KEY.ocb-l0    OCB's L_*, L_$, L_0
  KEY.eax-k1, KEY.eax-k2                          EAX's OMAC subkeys
  KEY.eax-l, KEY.gcm-h     E(K, 0), from which EAX's subkeys and GCM's
                           hash key come, kept by neither

The S2K of modes 0, 1 and 3, HKDF and the doubling are computed here;
Argon2, the block cipher and the AEAD decryption of a session key by
PROGRAM (tests/key-material) through libgcrypt alone.  PROGRAM also
gives, as sfenc lays them out in memory (sfenc's own code):

  KEY.schedule@WHERE    windows of the key schedule of each key a cipher
                        is keyed with, for --impl IMPL (default: the
                        default implementation)
  KEY.ghash@WHERE       windows of GCM's hash key

A wrong passphrase opens no session key of a v5 or v6 SKESK: the
secrets before it are printed.  Binary messages, the SKESK first and
the encrypted data packet next, as sfenc writes them.

With --wrap-into OUT, nothing is printed: OUT is written, MESSAGE (a
v4 SKESK without an encrypted session key, whose S2K output is thus
the session key) with that SKESK replaced by one that holds the session
key encrypted (RFC 4880 5.3), which sfenc reads but does not write:
the cipher's id and the key, in CFB mode with a zero IV under the key
an iterated and salted SHA-256 S2K with a new salt derives from the
same passphrase.

Usage: s2k-key.py [--material PROGRAM [--impl IMPL]] [--wrap-into OUT]
                  MESSAGE PASSFILE
"""
import argparse
import hashlib
import hmac
import os
import subprocess
import sys

HASHES = {1: "md5", 2: "sha1", 3: "ripemd160", 8: "sha256", 9: "sha384",
          10: "sha512", 11: "sha224"}
KEYLEN = {1: 16, 2: 24, 3: 16, 4: 16, 7: 16, 8: 24, 9: 32, 10: 32}
AEAD_MODES = {1: "eax", 2: "ocb", 3: "gcm"}
# Nonce length of each AEAD mode (RFC 9580 9.6).
NONCE_LEN = {"eax": 16, "ocb": 15, "gcm": 12}
# Octets of the S2K specifier of each type, the type octet included.
S2K_LEN = {0: 2, 1: 10, 3: 11, 4: 20}
PKT_SKESK, PKT_SEIPD, PKT_AEAD = 3, 18, 20


def fail(message):
    sys.exit("s2k-key: " + message)


class Material:
    """tests/key-material, when given."""

    def __init__(self, program, impl):
        self.program = program
        self.impl = impl or "-"

    def run(self, *args, tag_may_fail=False):
        """What key-material prints for ARGS (bytes given as hex); None
        when TAG_MAY_FAIL and an AEAD tag did not match."""
        if not self.program:
            fail("this message needs --material (tests/key-material)"
                 " for " + args[0])
        argv = [self.program] + [a.hex() if isinstance(a, bytes) else str(a)
                                 for a in args]
        done = subprocess.run(argv, capture_output=True, text=True,
                              check=False)
        if done.returncode == 2 and tag_may_fail:
            return None
        if done.returncode:
            fail("key-material %s: %s" % (args[0], done.stderr.strip()))
        return done.stdout

    def compute(self, *args, tag_may_fail=False):
        """The one value key-material prints for ARGS."""
        out = self.run(*args, tag_may_fail=tag_may_fail)
        return None if out is None else bytes.fromhex(out.strip())

    def windows(self, *args):
        """(WHERE, HEX) of each window key-material prints."""
        if not self.program:
            return []
        return [line.split() for line in self.run(*args).splitlines()]


def packet_header(data, pos):
    """The tag of the packet at POS, where its body starts, and the
    length of the body (of its first part, for a partial length)."""
    if pos >= len(data) or not data[pos] & 0x80:
        fail("no OpenPGP packet at offset %d" % pos)
    ctb = data[pos]
    if not ctb & 0x40:
        size = {0: 1, 1: 2, 2: 4, 3: 0}[ctb & 3]
        length = int.from_bytes(data[pos + 1:pos + 1 + size], "big")
        return (ctb >> 2) & 15, pos + 1 + size, length
    first = data[pos + 1]
    if first < 192:
        return ctb & 63, pos + 2, first
    if first < 224:
        return ctb & 63, pos + 3, ((first - 192) << 8) + data[pos + 2] + 192
    if first == 255:
        return ctb & 63, pos + 6, int.from_bytes(data[pos + 2:pos + 6], "big")
    return ctb & 63, pos + 2, 1 << (first & 31)


def parse_s2k(spec):
    """The S2K specifier at the start of SPEC as a dict."""
    mode = spec[0]
    if mode not in S2K_LEN or len(spec) < S2K_LEN[mode]:
        fail("unsupported or short S2K specifier")
    if mode == 4:
        return {"mode": 4, "salt": spec[1:17], "t": spec[17], "p": spec[18],
                "m": spec[19], "length": 20}
    s2k = {"mode": mode, "hash": HASHES[spec[1]], "salt": b"", "count": 0,
           "length": S2K_LEN[mode]}
    if mode != 0:
        s2k["salt"] = spec[2:10]
    if mode == 3:
        c = spec[10]
        s2k["count"] = (16 + (c & 15)) << ((c >> 4) + 6)
    return s2k


def s2k_derive(s2k, passphrase, keylen, material):
    """The key of KEYLEN octets S2K derives from PASSPHRASE."""
    if s2k["mode"] == 4:
        return material.compute("argon2", passphrase, s2k["salt"],
                                s2k["t"], s2k["p"], s2k["m"], keylen)
    unit = s2k["salt"] + passphrase
    data = unit
    if s2k["mode"] == 3:
        n = max(s2k["count"], len(unit))
        data = (unit * (n // len(unit) + 1))[:n]
    key = b""
    while len(key) < keylen:
        # Further hash contexts are preloaded with 1, 2, ... zeros.
        h = hashlib.new(s2k["hash"])
        h.update(bytes(len(key) // h.digest_size) + data)
        key += h.digest()
    return key[:keylen]


def hkdf_sha256(salt, ikm, info, length):
    """RFC 5869: the pseudorandom key and the LENGTH octets expanded
    from it; an empty salt is HashLen zeros."""
    prk = hmac.new(salt or bytes(32), ikm, hashlib.sha256).digest()
    out, block, counter = b"", b"", 1
    while len(out) < length:
        block = hmac.new(prk, block + info + bytes([counter]),
                         hashlib.sha256).digest()
        out += block
        counter += 1
    return prk, out[:length]


def double(block):
    """Multiplication by x in GF(2^128), as OCB and OMAC define it."""
    v = int.from_bytes(block, "big") << 1
    if v >> 128:
        v ^= (1 << 128) | 0x87
    return v.to_bytes(16, "big")


class Message:
    """The secrets of a message: (name, value) in order, and the keys a
    cipher is keyed with: (name, cipher id, AEAD mode or None)."""

    def __init__(self, data, passphrase, material):
        self.material = material
        self.secrets = [("passphrase", passphrase)]
        self.keyed = []
        tag, start, length = packet_header(data, 0)
        if tag != PKT_SKESK:
            fail("the message does not start with a SKESK packet")
        body = data[start:start + length]
        dtag, dstart, _ = packet_header(data, start + length)
        self.data_tag, self.data_head = dtag, data[dstart:dstart + 64]
        if dtag not in (PKT_SEIPD, PKT_AEAD):
            fail("no encrypted data packet after the SKESK")
        version = body[0]
        if version == 4:
            self.skesk_v4(body, passphrase)
        elif version in (5, 6):
            self.skesk_aead(body, passphrase)
        else:
            fail("SKESK version %d" % version)

    def add(self, name, value):
        self.secrets.append((name, value))
        return value

    def skesk_v4(self, body, passphrase):
        algo = body[1]
        s2k = parse_s2k(body[2:])
        esk = body[2 + s2k["length"]:]
        key = self.add("s2k-key", s2k_derive(s2k, passphrase, KEYLEN[algo],
                                             self.material))
        self.keyed.append(("s2k-key", algo, None))
        if not esk:
            return
        # CFB with a zero IV, libgcrypt's default (RFC 4880 5.3).
        plain = self.material.compute("decrypt", algo, "cfb", key, b"", esk)
        self.add("session-key", plain[1:])
        self.keyed.append(("session-key", plain[0], None))

    def skesk_aead(self, body, passphrase):
        version = body[0]
        # v6 has an octet count after the version and one before the S2K.
        fields = body[1:] if version == 5 else body[2:]
        algo, aead = fields[0], AEAD_MODES[fields[1]]
        s2k_at = 2 if version == 5 else 3
        s2k = parse_s2k(fields[s2k_at:])
        rest = fields[s2k_at + s2k["length"]:]
        nonce, esk = rest[:NONCE_LEN[aead]], rest[NONCE_LEN[aead]:]
        ad = bytes([0xc0 | PKT_SKESK, version, algo, fields[1]])
        kek = self.add("s2k-key", s2k_derive(s2k, passphrase, KEYLEN[algo],
                                             self.material))
        kek_name = "s2k-key"
        if version == 6:
            prk, kek = hkdf_sha256(b"", kek, ad, KEYLEN[algo])
            self.add("kek-prk", prk)
            self.add("kek", kek)
            kek_name = "kek"
        self.keyed.append((kek_name, algo, aead))
        session = self.material.compute("aead-decrypt", algo, aead, kek,
                                        nonce, ad, esk, tag_may_fail=True)
        if session is None:
            print("s2k-key: the encrypted session key does not open (a wrong"
                  " passphrase): no session key", file=sys.stderr)
            return
        self.add("session-key", session)
        head = self.data_head
        if self.data_tag == PKT_AEAD:
            self.keyed.append(("session-key", head[1], AEAD_MODES[head[2]]))
            return
        # SEIPD v2: version, cipher, AEAD, chunk size octet, salt.
        dalgo, daead = head[1], AEAD_MODES[head[2]]
        prk, okm = hkdf_sha256(head[4:36], session,
                               bytes([0xc0 | PKT_SEIPD]) + head[:4],
                               KEYLEN[dalgo])
        self.add("message-key-prk", prk)
        self.add("message-key", okm)
        self.keyed.append(("message-key", dalgo, daead))

    def key_material(self):
        """The halves of the secrets so far, and the secrets derived from
        each keyed key."""
        values = dict(self.secrets)
        for name, value in list(self.secrets):
            if len(value) > 16:
                self.add(name + ".first16", value[:16])
                self.add(name + ".last16", value[-16:])
        for name, algo, aead in self.keyed:
            key = values[name]
            if aead:
                e0 = self.material.compute("encrypt", algo, "ecb", key,
                                           b"", bytes(16))
                if aead == "ocb":
                    self.add(name + ".ocb-l-star", e0)
                    self.add(name + ".ocb-l-dollar", double(e0))
                    self.add(name + ".ocb-l0", double(double(e0)))
                elif aead == "eax":
                    self.add(name + ".eax-l", e0)
                    self.add(name + ".eax-k1", double(e0))
                    self.add(name + ".eax-k2", double(double(e0)))
                else:
                    self.add(name + ".gcm-h", e0)
                    for where, window in self.material.windows("ghash", e0):
                        self.add(name + ".ghash@" + where,
                                 bytes.fromhex(window))
            for where, window in self.material.windows(
                    "schedule", algo, self.material.impl, key):
                self.add(name + ".schedule@" + where, bytes.fromhex(window))


def read_inputs(message, passfile):
    """The bytes of file MESSAGE, and the first line of PASSFILE."""
    with open(message, "rb") as f:
        data = f.read()
    with open(passfile, "rb") as f:
        return data, f.read().split(b"\n")[0]


def secrets(message, passfile, material):
    """Every (name, value) of the message in file MESSAGE with the
    passphrase in PASSFILE."""
    found = Message(*read_inputs(message, passfile), material)
    found.key_material()
    return found.secrets


def wrap_session_key(data, passphrase, material):
    """DATA with its v4 SKESK replaced by one with an encrypted session
    key (see --wrap-into)."""
    tag, start, length = packet_header(data, 0)
    body = data[start:start + length]
    if tag != PKT_SKESK or body[0] != 4:
        fail("the message does not start with a v4 SKESK")
    algo, keylen = body[1], KEYLEN[body[1]]
    s2k = parse_s2k(body[2:])
    if len(body) != 2 + s2k["length"]:
        fail("the SKESK already holds a session key")
    session_key = s2k_derive(s2k, passphrase, keylen, material)
    # Type 3, SHA-256, the salt, count octet 0x60 (65536 octets).
    spec = bytes([3, 8]) + os.urandom(8) + bytes([0x60])
    kek = s2k_derive(parse_s2k(spec), passphrase, keylen, material)
    esk = material.compute("encrypt", algo, "cfb", kek, b"",
                           bytes([algo]) + session_key)
    new_body = bytes([4, algo]) + spec + esk
    return (bytes([0xc0 | PKT_SKESK, len(new_body)]) + new_body
            + data[start + length:])


def main():
    parser = argparse.ArgumentParser(
        description="Print every secret of a passphrase-only OpenPGP"
        " message, one 'NAME HEX' line each.")
    parser.add_argument("--material", help="tests/key-material")
    parser.add_argument("--impl", help="the cipher implementation whose"
                        " key schedule to print (default: the default)")
    parser.add_argument("--wrap-into", metavar="OUT", help="write OUT, the"
                        " message with its session key encrypted")
    parser.add_argument("message")
    parser.add_argument("passfile")
    args = parser.parse_args()
    material = Material(args.material, args.impl)
    if args.wrap_into:
        wrapped = wrap_session_key(*read_inputs(args.message, args.passfile),
                                   material)
        with open(args.wrap_into, "wb") as f:
            f.write(wrapped)
        return
    for name, value in secrets(args.message, args.passfile, material):
        print(name, value.hex())


if __name__ == "__main__":
    main()
