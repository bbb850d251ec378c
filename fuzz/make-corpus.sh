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
# messages, so it is what gpg, rnp and sfenc write.  The option and
# module corpora are written here.
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
python3 - "$pass" "$here/corpus" <<'PY'
"""Rekey rnp's messages, take the packets out of the encryption, and
write the corpora."""
import hashlib, os, shutil, subprocess, sys

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


for corpus in ("armor", "decrypt", "packets", "inflate", "options", "module"):
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
PY

echo "seed corpora written to $here/corpus:"
for d in "$here"/corpus/*; do
  echo "  $(basename "$d"): $(ls "$d" | wc -l) files, $(cat "$d"/* | wc -c) bytes"
done
