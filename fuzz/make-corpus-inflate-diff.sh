#!/bin/sh
# make-corpus-inflate-diff.sh - regenerate the seed corpus of
# fuzz-inflate-diff (fuzz/corpus/inflate-diff/)
#
# Usage: fuzz/make-corpus-inflate-diff.sh BUILDDIR
#
# BUILDDIR is a build whose tests/t-inflate is built: it writes its
# streams (zlib levels 0 to 9 and windows 9 to 15, sfenc's pdeflate on
# 2 threads, the zlib format's faults, blocks written bit by bit).
# Added here: python3's zlib at every level and window, raw and zlib,
# with a preset dictionary, and the ZIP and ZLIB packet bodies of the
# inflate corpus (what gpg, rnp and sfenc write).  Each file is the
# harness's flag byte (bit 0: 0 raw, 1 zlib; the piece and read sizes
# vary from seed to seed) and the stream.
set -eu

if [ $# -ne 1 ] || [ ! -x "$1/tests/t-inflate" ]; then
  echo "usage: $0 BUILDDIR   (with tests/t-inflate built)" >&2
  exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)
out=$here/corpus/inflate-diff
rm -rf "$out"
mkdir -p "$out"
"$1/tests/t-inflate" "$out" > /dev/null
python3 - "$out" "$here/corpus/inflate" <<'PY'
import os, sys, zlib

out, inflate = sys.argv[1], sys.argv[2]
text = b"".join(b"line %d of the text that the seeds compress\n" % i
                for i in range(120))

count = 0

def write(name, framing, stream):
    """The harness's flag: FRAMING (0 raw, 1 zlib), and piece and read
    sizes that vary from seed to seed."""
    global count
    flag = framing | (count % 8) << 1 | (count // 8 % 8) << 4
    count += 1
    with open(os.path.join(out, name), "wb") as f:
        f.write(bytes([flag]) + stream)

for level in range(10):
    for bits in range(9, 16):
        for flag, wbits in ((0, -bits), (1, bits)):
            c = zlib.compressobj(level, zlib.DEFLATED, wbits)
            write("py-l%d-w%d-%s" % (level, bits, "zlib" if flag else "raw"),
                  flag, c.compress(text) + c.flush())
c = zlib.compressobj(6, zlib.DEFLATED, 15, zdict=b"line of the text")
write("py-dict", 1, c.compress(text) + c.flush())
# Sync-flushed pieces, as pdeflate.c joins its blocks.
c = zlib.compressobj(6, zlib.DEFLATED, -15)
pieces = [c.compress(text[i:i + 1000]) + c.flush(zlib.Z_SYNC_FLUSH)
          for i in range(0, len(text), 1000)]
write("py-sync-flush", 0, b"".join(pieces) + c.flush())
for name in sorted(os.listdir(inflate)):
    with open(os.path.join(inflate, name), "rb") as f:
        body = f.read()
    if body[:1] in (b"\x01", b"\x02"):
        write("packet-" + name, body[0] - 1, body[1:])
PY
echo "$(ls "$out" | wc -l) seeds in $out"
