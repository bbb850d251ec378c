#!/bin/sh
# make-corpus.sh - regenerate the seed corpora of the fuzz harnesses
#
# Usage: fuzz/make-corpus.sh SFENC
#
# SFENC is a built sfenc program (g10/sfenc of any build).  Writes
# fuzz/corpus/NAME/ beside this script, for each harness fuzz-NAME,
# replacing what was there; the output is committed.  Needs gpg, rnp,
# openssl and python3 (all in tools/debian-packages.txt).
#
# Every message is encrypted with the harnesses' passphrase (fuzz.h,
# FUZZ_PASSPHRASE) and cheap S2K settings (mode 0, 1, or 3 with the
# smallest count), so that the decrypt harness spends its time on the
# parsing, not on the key derivation.  rnp has no option for the S2K
# count and takes a large one; its messages are given new SKESK
# packets (S2K mode 1, the session key encrypted under it) in front
# of rnp's own encrypted data.  The harnesses that see what is inside
# the encryption (packets, inflate) get it decrypted from these
# messages, so it is what gpg, rnp and sfenc write.  The option,
# module, AEAD framing and module loading corpora are written here,
# and so are shapes no tool writes (nested too deep, cut where a
# length is due, ...), each for a refusal that no other seed reaches.
set -eu

if [ $# -ne 1 ] || [ ! -x "$1" ]; then
  echo "usage: $0 SFENC   (a built g10/sfenc)" >&2
  exit 2
fi
sfenc=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
here=$(cd "$(dirname "$0")" && pwd)
pass='sfenc fuzz'
work=$(mktemp -d)
export GNUPGHOME="$work/gnupg"
trap 'gpgconf --kill gpg-agent 2>/dev/null; rm -rf "$work"' EXIT
cd "$work"

mkdir -m 700 "$GNUPGHOME"
gpg_c () {
  gpg --batch --quiet --pinentry-mode loopback --passphrase "$pass" \
    --compress-level 6 "$@" 2>/dev/null
}
rnp_c () {
  rnp --homedir "$work/rnp" --notty --password "$pass" -c "$@" >/dev/null 2>&1
}
sfenc_c () {
  "$sfenc" --no-auto-modules --batch --passphrase "$pass" -c "$@"
}

# Plaintexts: short, text with CR LF line ends, compressible, binary.
printf 'hello, fuzzer\n' > short.txt
printf 'line one\r\nline two\r\n\r\nlast line without a line end' > crlf.txt
i=0
while [ $i -lt 40 ]; do echo "repeated line $i of the compressible text"; i=$((i + 1)); done > long.txt
python3 -c 'import sys; sys.stdout.buffer.write(bytes((i * 89 + 7) % 256 for i in range(300)))' > binary.bin

mkdir -p m
# gpg: every S2K mode (gpg takes --s2k-count 1024 for its default,
# 2048 is its smallest), several ciphers, compression algorithms and
# levels, text mode, armor, no MDC (SED), and public-key packets
# (PKESK, RSA and ECDH) before the SKESK (composed below).
gpg_c -c --s2k-mode 1 --cipher-algo AES128 --compress-algo zip -o m/gpg-aes128-zip short.txt
gpg_c -c --s2k-mode 3 --s2k-count 2048 --cipher-algo AES256 --compress-algo zlib -t -o m/gpg-aes256-zlib-text crlf.txt
gpg_c -c --s2k-mode 0 --cipher-algo AES192 -z 0 -o m/gpg-aes192-s2k0 binary.bin
gpg_c -c --s2k-mode 1 --cipher-algo AES128 --compress-algo bzip2 -o m/gpg-aes128-bzip2 long.txt
gpg_c -c --s2k-mode 1 --cipher-algo CAST5 --s2k-digest-algo SHA256 -o m/gpg-cast5 short.txt
gpg_c -c --s2k-mode 1 --cipher-algo TWOFISH -a -o m/gpg-twofish.asc long.txt
gpg_c -c --rfc2440 --s2k-mode 1 --cipher-algo 3DES -o m/gpg-3des-sed short.txt
# The largest S2K count, 65011712 bytes of hashing, which a fuzz build
# caps at 65536 (g10/s2k.c): there the passphrase is wrong.
gpg_c -c --s2k-mode 3 --s2k-count 65011712 -o m/gpg-s2k-count-max short.txt
gpg_key () {
  gpg --batch --quiet --pinentry-mode loopback --passphrase '' "$@" 2>/dev/null
}
gpg_key --quick-gen-key 'fuzz rsa' rsa1024 sign never
gpg_key --quick-add-key "$(gpg --list-keys --with-colons 'fuzz rsa' 2>/dev/null \
  | awk -F: '/^fpr/ { print $10; exit }')" rsa1024 encr never
gpg_key --quick-gen-key 'fuzz ecc' future-default default never
gpg_c -e --trust-model always -r 'fuzz rsa' -r 'fuzz ecc' -o pkesk short.txt

# sfenc itself.
sfenc_c --s2k-mode 1 --cipher-algo AES128 -o m/sfenc-aes128-zip short.txt
sfenc_c --s2k-mode 3 --s2k-count 1024 --compress-algo zlib -a -o m/sfenc-aes256-zlib.asc long.txt
sfenc_c --s2k-mode 0 -z 0 --cipher-algo AES256 -o m/sfenc-aes256-s2k0 binary.bin
sfenc_c --s2k-mode 1 --cipher-algo BLOWFISH -o m/sfenc-blowfish crlf.txt
sfenc_c --s2k-mode 1 --aead-algo OCB --chunk-size 6 -o m/sfenc-ocb long.txt
sfenc_c --s2k-mode 1 --aead-algo EAX --aead-format librepgp --chunk-size 7 \
  -o m/sfenc-eax-librepgp short.txt
sfenc_c --s2k-mode 1 --aead-algo GCM -a -o m/sfenc-gcm.asc short.txt
sfenc_c --s2k-mode argon2 --s2k-argon2-passes 1 --s2k-argon2-parallelism 1 \
  --s2k-argon2-memory 3 -o m/sfenc-argon2 short.txt

# rnp, with its S2K replaced (below): two passphrases, ZLIB, BZIP2, no
# literal packet; and armored AEAD (draft format), for the armor corpus
# only, as its S2K cannot be replaced here.
rnp_c --zlib --output r-zlib long.txt
rnp_c --passwords 2 --password "$pass" --output r-two short.txt
rnp_c --bzip --output r-bzip2 crlf.txt
rnp_c --no-wrap -z 0 --output r-nowrap binary.bin
rnp_c --aead=OCB --armor --output rnp-aead.asc short.txt
rnp_c --armor --output rnp.asc long.txt

"$sfenc" --dump-options > options.txt
python3 - "$pass" "$here/corpus" "$sfenc" <<'PY'
"""Rekey rnp's messages, take the packets out of the encryption, and
write the corpora."""
import bz2, hashlib, os, shutil, subprocess, sys

pw = sys.argv[1].encode()
out = sys.argv[2]
OPENSSL = {7: "aes-128-cfb", 8: "aes-192-cfb", 9: "aes-256-cfb"}
KEYLEN = {7: 16, 8: 24, 9: 32}
HASHES = {1: "md5", 2: "sha1", 8: "sha256", 9: "sha384", 10: "sha512",
          11: "sha224"}


def packets(data):
    """(tag, whole packet, body) of each packet; partial bodies joined."""
    pos, result = 0, []
    while pos < len(data):
        start, ctb = pos, data[pos]
        pos += 1
        if ctb & 0x40:
            tag, body = ctb & 0x3f, b""
            while True:
                b0 = data[pos]
                if b0 < 192:
                    n, pos = b0, pos + 1
                elif b0 < 224:
                    n, pos = ((b0 - 192) << 8) + data[pos + 1] + 192, pos + 2
                elif b0 == 255:
                    n, pos = int.from_bytes(data[pos + 1:pos + 5], "big"), pos + 5
                else:
                    n, pos = 1 << (b0 & 0x1f), pos + 1
                    body += data[pos:pos + n]
                    pos += n
                    continue
                body += data[pos:pos + n]
                pos += n
                break
        else:
            tag, lt = (ctb >> 2) & 15, ctb & 3
            if lt == 3:
                n = len(data) - pos
            else:
                size = (1, 2, 4)[lt]
                n = int.from_bytes(data[pos:pos + size], "big")
                pos += size
            body = data[pos:pos + n]
            pos += n
        result.append((tag, data[start:pos], body))
    return result


def header(tag, n):
    if n < 192:
        return bytes([0xc0 | tag, n])
    if n < 8384:
        return bytes([0xc0 | tag, ((n - 192) >> 8) + 192, (n - 192) & 0xff])
    return bytes([0xc0 | tag, 255]) + n.to_bytes(4, "big")


def s2k(body, keylen):
    mode, hash_id = body[2], body[3]
    salt = body[4:12] if mode else b""
    unit = salt + pw
    count = len(unit)
    if mode == 3:
        c = body[12]
        count = max((16 + (c & 15)) << ((c >> 4) + 6), len(unit))
    key, preload = b"", 0
    while len(key) < keylen:
        h = hashlib.new(HASHES[hash_id])
        h.update(b"\0" * preload)
        whole, rest = divmod(count, len(unit))
        h.update(unit * whole + unit[:rest])
        key += h.digest()
        preload += 1
    return key[:keylen]


def cfb(algo, key, data, decrypt):
    cmd = ["openssl", "enc", "-" + OPENSSL[algo], "-K", key.hex(),
           "-iv", "00" * 16, "-nopad"] + (["-d"] if decrypt else [])
    return subprocess.run(cmd, input=data, capture_output=True,
                          check=True).stdout


def session_key(skesk):
    algo = skesk[1]
    key = s2k(skesk, KEYLEN[algo])
    esk = skesk[13 if skesk[2] == 3 else 12 if skesk[2] else 4:]
    if not esk:
        return algo, key
    plain = cfb(algo, key, esk, True)
    return plain[0], plain[1:]


def rekey(data):
    """Replace the SKESKs by S2K mode 1 ones with the session key."""
    pkts = packets(data)
    algo, key = session_key(pkts[0][2])
    new = b""
    for i, (tag, raw, body) in enumerate(pkts):
        if tag != 3:
            new += raw
            continue
        salt = bytes([i + 1] * 8)
        skesk = bytes([4, 9, 1, 2]) + salt
        kek = s2k(skesk, 32)
        new += header(3, len(skesk) + 1 + len(key))
        new += skesk + cfb(9, kek, bytes([algo]) + key, False)
    return new


def inside(data):
    """The packets inside the SEIPD packet of a message."""
    pkts = packets(data)
    algo, key = session_key(pkts[0][2])
    seipd = [body for tag, raw, body in pkts if tag == 18][0]
    plain = cfb(algo, key, seipd[1:], True)
    return plain[18:-22]


def write(corpus, name, data):
    os.makedirs(os.path.join(out, corpus), exist_ok=True)
    with open(os.path.join(out, corpus, name), "wb") as f:
        f.write(data)


for corpus in ("armor", "decrypt", "packets", "inflate", "options", "module",
               "aead", "dynload", "passphrase", "bunzip2"):
    shutil.rmtree(os.path.join(out, corpus), ignore_errors=True)

for name in ("r-zlib", "r-two", "r-bzip2", "r-nowrap"):
    with open(name, "rb") as f:
        write("decrypt", "rnp-" + name[2:], rekey(f.read()))
for name in sorted(os.listdir("m")):
    with open(os.path.join("m", name), "rb") as f:
        write("decrypt", name, f.read())
# gpg -c -e under a passphrase given in batch mode is unreliable in
# gpg 2.2 (its SKESK then needs another passphrase): the PKESK packets
# of gpg -e, then gpg -c's message.
with open("pkesk", "rb") as f:
    pkesks = b"".join(raw for tag, raw, body in packets(f.read()) if tag == 1)
with open("m/gpg-aes128-zip", "rb") as f:
    write("decrypt", "gpg-pkesk", pkesks + f.read())

# Inside the encryption: packets for fuzz-packets (after its flag
# byte), compressed packet bodies for fuzz-inflate.
# The flag byte (fuzz-packets.c): framing | container << 2 | K << 4,
# 0x80 for a damaged MDC or tag.
flags = {"gpg-aes128-zip": 0x00, "gpg-aes256-zlib-text": 0x01 | 4 << 4,
         "gpg-aes192-s2k0": 0x02 | 7 << 4, "gpg-aes128-bzip2": 0x03,
         "sfenc-aes128-zip": 0x07, "sfenc-aes256-s2k0": 0x08,
         "rnp-zlib": 0x09 | 1 << 4, "rnp-two": 0x0c, "rnp-nowrap": 0x80,
         "rnp-bzip2": 0x0e | 1 << 4}
for name, flag in sorted(flags.items()):
    with open(os.path.join(out, "decrypt", name), "rb") as f:
        inner = inside(f.read())
    write("packets", name, bytes([flag]) + inner)
    ctb = inner[0]
    if ctb & 0x80 and (ctb & 0x3f if ctb & 0x40 else ctb >> 2 & 15) == 8:
        write("inflate", name, packets(inner)[0][2])

# Armor: as gpg, rnp and sfenc write it, and reshaped: CR LF line
# ends, no CRC line, headers, text around it, two messages.
armored = {}
for path in ("m/gpg-twofish.asc", "m/sfenc-aes256-zlib.asc", "rnp.asc",
             "rnp-aead.asc"):
    with open(path, "rb") as f:
        armored[os.path.basename(path)] = f.read()
for name, data in armored.items():
    write("armor", name, data)
lines = armored["gpg-twofish.asc"].split(b"\n")
write("armor", "crlf", b"\r\n".join(lines))
write("armor", "no-crc", b"\n".join(l for l in lines if not l.startswith(b"=")))
write("armor", "headers", armored["sfenc-aes256-zlib.asc"].replace(
    b"-----\n\n", b"-----\nVersion: fuzz\nComment: two headers\n\n", 1))
write("armor", "two-messages", b"text before it\n" + armored["rnp.asc"]
      + b"between\n" + armored["sfenc-aes256-zlib.asc"] + b"and after\n")

# Command lines, NUL separated.
args = [
    ["-c", "--cipher-algo", "AES128", "--s2k-mode", "1", "file.txt"],
    ["-d", "--passphrase=x", "--output", "out", "--yes", "-v", "-q"],
    ["-caz9", "--compress-algo=zlib", "--threads", "4", "--", "-file"],
    ["--s2k-count", "1024", "--s2k-digest-algo", "SHA256",
     "--pinentry-mode", "loopback", "--passphrase-fd", "0"],
    ["--sym", "--decr", "--list-ciphers", "--with-colons"],
    ["--load-extension", "camellia", "--no-auto-modules",
     "--cipher-impl", "ref", "--ignore-mdc-error", "--batch"],
]
with open("options.txt", "rb") as f:
    args.append(f.read().split())
# What programs that drive gpg send (tests/sfenc-clients.bats).
args += [
    ["--enable-special-filenames", "--pinentry-mode=loopback",
     "--no-sk-comments", "--homedir", "/nonexistent", "--status-fd", "1",
     "--no-tty", "--charset", "utf8", "--enable-progress-filter",
     "--exit-on-status-write-error", "--logger-fd", "2", "--command-fd", "0",
     "--symmetric", "--armor", "--output", "-", "--", "-&0"],
    ["--status-fd", "2", "--no-verbose", "--fixed-list-mode", "--batch",
     "--with-colons", "-e", "-r", "bob", "-u", "alice", "--sign",
     "--list-config", "cipher", "digestname", "-&3"],
]
for i, a in enumerate(args):
    write("options", "args-%d" % (i + 1), b"\0".join(x if isinstance(x, bytes)
                                                     else x.encode() for x in a))

# Modules, in the format of fuzz-module.c.
def string(s):
    return b"\xff" if s is None else bytes([len(s)]) + s


def spec(version=3, name=b"FUZZ", aliases=(), pgp_id=0, donor=0,
         blocksize=16, keylen=0, extra=0, impl=b"fuzz", priority=100,
         hwf=None, usable=0, drop=0, kats=b"\0", cfb_sha1=b"\0",
         ocb=b"\0", timing=1):
    return (bytes([version]) + string(name) + bytes([len(aliases)])
            + b"".join(string(a) for a in aliases)
            + pgp_id.to_bytes(2, "big", signed=True)
            + bytes([donor, blocksize, keylen, extra]) + string(impl)
            + priority.to_bytes(2, "big", signed=True) + string(hwf)
            + bytes([usable, drop]) + kats + cfb_sha1 + ocb
            + bytes([timing & 0xff]))


def module(specs, version=3, name=b"fuzz", whylen=200):
    return (bytes([version]) + string(name) + bytes([len(specs), whylen])
            + b"".join(specs))


kat = (b"\x01" + string(b"000102030405060708090a0b0c0d0e0f")
       + string(b"00112233445566778899aabbccddeeff")
       + string(b"69c4e0d86a7b0430d8cdb78070b4c55a"))
write("module", "one-spec", module([spec()]))
write("module", "v1-two-specs", module([
    spec(version=1, blocksize=8, aliases=(b"FUZZ-64",)),
    spec(version=2, name=b"FUZZ2", blocksize=16, usable=1,
         cfb_sha1=b"\x02" + string(b"fuzzhwf") + b"\0\x05")])),
write("module", "claims-aes128", module([
    spec(name=b"AES", aliases=(b"AES128",), pgp_id=7, kats=kat,
         ocb=b"\x02" + string(None) + b"\x01\x0a")]))
write("module", "refused", module([
    spec(priority=300, hwf=b"aesni", drop=8, kats=b"\x05")],
    version=4, whylen=0))
write("module", "no-specs", module([]))

# Shapes no message above has, each for a refusal of its own.
# Packets (after fuzz-packets' flag byte): 31 compressed packets
# (algorithm 0, uncompressed) nested around a literal packet, one more
# than gpg and sfenc read; and a wrong MDC under --ignore-mdc-error
# (SEIPD v1 with K = 7).
literal = header(11, 6 + 5) + b"b\0\0\0\0\0hello"
nested = literal
for i in range(31):
    nested = header(8, 1 + len(nested)) + b"\0" + nested
write("packets", "nested-31", b"\x00" + nested)
write("packets", "bad-mdc-ignored", bytes([0x80 | 7 << 4]) + literal)

# Armor: a header line and a line before BEGIN longer than the 1023
# characters kept; the input ending after the CRC line, before END.
asc = armored["sfenc-aes256-zlib.asc"]
write("armor", "long-lines", b"x" * 3000 + b"\n" + asc.replace(
    b"-----\n\n", b"-----\nComment: " + b"y" * 3000 + b"\n\n", 1))
write("armor", "no-end-line", asc[:asc.index(b"\n-----END")])

# sfenc -d: the encrypted data in partial lengths of 16 bytes, ending
# where a length is due.
with open("m/sfenc-aes128-zip", "rb") as f:
    msg = f.read()
skesk, seipd = [raw for tag, raw, body in packets(msg)]
body = packets(msg)[1][2]
cut = b""
while len(body) >= 16:
    cut += b"\xe4" + body[:16]
    body = body[16:]
write("decrypt", "partial-cut", skesk + b"\xd2" + cut)

# The passphrase (fuzz-passphrase.c): the source byte, then its line
# and the message.
for name, data in (
        ("fd", b"\0sfenc fuzz\n" + msg),
        ("file", b"\1sfenc fuzz\n" + msg),
        ("fd-crlf", b"\0sfenc fuzz\r\n" + msg),
        ("fd-long-line", b"\0" + b"z" * 1000 + b"\n" + msg),
        ("file-no-line-end", b"\1sfenc fuzz"),
        ("directory", b"\2sfenc fuzz\n" + msg),
        ("missing", b"\3sfenc fuzz\n" + msg)):
    write("passphrase", name, data)

# AEAD framing (fuzz-aead.c): the fields, then the edits.
EDITS = {"cut-before": 1, "cut-in-tag": 2, "drop": 3, "duplicate": 4,
         "swap": 5, "chunk-octet": 6, "cipher": 7, "aead": 8, "version": 9,
         "append": 10, "flip": 11, "cut-at": 12}


def aead(v5=0, cipher=0, algo=2, framing=0, octet=0, shift=0, n=200,
         edits=()):
    return (bytes([v5 | cipher << 1 | algo << 3 | framing << 5, octet, shift,
                   n >> 8, n & 0xff]) + bytes(range(32, 64))
            + b"".join(bytes([EDITS[e], a, b]) for e, a, b in edits))


for name, data in (
        ("v2-ocb", aead()),
        ("v2-eax-aes256-partial", aead(cipher=2, algo=1, octet=1, framing=1,
                                       shift=5, n=1000)),
        ("v2-gcm-twofish-whole-chunks", aead(cipher=3, algo=3, n=192 - 9)),
        ("v5-eax-partial", aead(v5=1, algo=1, framing=2, shift=6, n=300)),
        ("v5-ocb-aes192-five-octets", aead(v5=1, cipher=1, octet=2,
                                           framing=3, n=700)),
        ("v5-gcm", aead(v5=1, algo=3)),
        ("algo-0", aead(algo=0)),
        ("chunk-octet-16", aead(octet=16, n=100)),
        ("chunk-octet-17", aead(octet=17)),
        ("empty", aead(n=0)),
        ("partial-cut", aead(framing=4, shift=5)),
        ("cut-before-final-tag", aead(edits=[("cut-before", 4, 0)])),
        ("cut-in-tag", aead(edits=[("cut-in-tag", 1, 7)])),
        ("last-chunk-short", aead(n=1, edits=[("cut-before", 1, 0)])),
        ("drop", aead(edits=[("drop", 1, 0)])),
        ("duplicate", aead(edits=[("duplicate", 0, 0)])),
        ("duplicate-then-drop", aead(edits=[("duplicate", 2, 0),
                                            ("drop", 3, 0)])),
        ("swap", aead(v5=1, edits=[("swap", 1, 0)])),
        ("chunk-octet-after", aead(edits=[("chunk-octet", 0, 1)])),
        ("session-key-length", aead(edits=[("cipher", 0, 9)])),
        ("cipher-64-bit", aead(edits=[("cipher", 0, 3)])),
        ("cipher-unknown", aead(v5=1, edits=[("cipher", 0, 99)])),
        ("aead-after", aead(edits=[("aead", 0, 1)])),
        ("version-after", aead(v5=1, edits=[("version", 0, 2)])),
        ("append", aead(edits=[("append", 0, 15)])),
        ("flip-salt", aead(edits=[("flip", 0, 9)])),
        ("cut-at", aead(v5=1, edits=[("cut-at", 0, 100)]))):
    write("aead", name, data)


# Module loading (fuzz-dynload.c): kind, mode, owner, the directories
# a/ and b/, how it is named, then the contents.
with open(sys.argv[3], "rb") as f:
    elf = f.read(64)


def dynload(kind=0, mode=0o755, owner=0, dir_a=0, dir_b=0, name=0,
            contents=elf):
    return bytes([kind, mode >> 8, mode & 0xff, owner, dir_a, dir_b,
                  name]) + contents


elf32 = elf[:4] + b"\1" + elf[5:]
for name, data in (
        ("shared-object", dynload()),
        ("elf32", dynload(contents=elf32)),
        ("text", dynload(contents=b"not a module\n")),
        ("short", dynload(contents=elf[:20])),
        ("writable", dynload(mode=0o666)),
        ("mode-4000", dynload(mode=0o4000)),
        ("other-owner", dynload(owner=1)),
        ("directory-writable", dynload(dir_a=0o22)),
        ("directory-other-owner", dynload(dir_a=0x40)),
        ("directory", dynload(kind=1)),
        ("link", dynload(kind=2)),
        ("link-unsafe-target-directory", dynload(kind=2, dir_b=0o02)),
        ("link-to-directory", dynload(kind=3)),
        ("dangling-link", dynload(kind=4)),
        ("link-loop", dynload(kind=5)),
        ("fifo", dynload(kind=6, mode=0o644)),
        ("link-outside", dynload(kind=7)),
        ("hard-link", dynload(kind=8)),
        ("nothing", dynload(kind=9)),
        ("bare-name", dynload(name=1)),
        ("bare-name-no-so", dynload(name=2)),
        ("nothing-bare-name-no-so", dynload(kind=9, name=2)),
        ("directory-load", dynload(name=3)),
        ("dotdot", dynload(name=4))):
    write("dynload", name, data)

# fuzz-bunzip2: a byte for the thread count (bit 0: 2 or 3), then a
# bzip2 stream: short and empty ones, several blocks of zeros, blocks
# that hold a false block or end magic (their map of used bytes
# spells it), libbz2's at level 9, damaged CRCs, cut ones, and data
# after the stream.
def spelling(magic, n):
    chars = [i for i in range(48) if magic >> (47 - i) & 1]
    return bytes(chars[(i * 7 + i // len(chars)) % len(chars)]
                 for i in range(n))
def flipped(data, pos):
    return data[:pos] + bytes([data[pos] ^ 1]) + data[pos + 1:]
long_text = open("long.txt", "rb").read()
zeros = bz2.compress(bytes(12 * 1024 * 1024), 1)
for name, stream in (
        ("empty", bz2.compress(b"")),
        ("short", bz2.compress(b"hello, fuzzer\n", 1)),
        ("text-9", bz2.compress(long_text * 40, 9)),
        ("zeros-3-blocks", zeros),
        ("false-block-magic", bz2.compress(spelling(0x314159265359, 1500), 1)),
        ("false-end-magic", bz2.compress(spelling(0x177245385090, 1500), 1)),
        ("block-crc", flipped(zeros, 12)),
        ("combined-crc", flipped(zeros, len(zeros) - 2)),
        ("cut", zeros[:len(zeros) // 2]),
        ("trailing", bz2.compress(long_text, 1) + b"BZh91AY&SY")):
    write("bunzip2", name + "-2", b"\0" + stream)
    write("bunzip2", name + "-3", b"\1" + stream)
PY

echo "seed corpora written to $here/corpus:"
for d in "$here"/corpus/*; do
  echo "  $(basename "$d"): $(ls "$d" | wc -l) files, $(cat "$d"/* | wc -c) bytes"
done
