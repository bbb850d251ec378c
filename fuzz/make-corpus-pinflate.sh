#!/bin/sh
# make-corpus-pinflate.sh - regenerate the seed corpus of fuzz-pinflate
# (fuzz/corpus/pinflate/)
#
# Usage: fuzz/make-corpus-pinflate.sh
#
# Raw deflate streams in segments as sfenc writes them (a sync flush
# and an empty stored block end each segment, none refers back across
# one), and their faults: a reference across a mark, a mark inside a
# stored block, a stream that ends at a mark or inside a segment, a
# bad block type in a segment, bytes after the end; each also in the
# zlib format, and there with a bad header, a bad Adler-32 and a
# trailer cut short.  Each file is the harness's flag byte (bit 0:
# ISA-L, bit 1: 3 threads, bits 2 to 6: whether the source has bytes
# ready, all as from a file or now and then as from a pipe that
# stalls, bit 7: the zlib format) and the stream.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
out=$here/corpus/pinflate
rm -rf "$out"
mkdir -p "$out"
python3 - "$out" <<'PY'
import os, sys, zlib

out = sys.argv[1]
MARK = b"\0\0\xff\xff\0\0\0\xff\xff"
text = b"".join(b"line %d of the text in segments\n" % i for i in range(1200))
text = text[:15000] + b"mark:" + MARK + b":mark" + text[15000:]
m = text.index(MARK)

def seg(data, zdict=None, last=False):
    c = (zlib.compressobj(6, zlib.DEFLATED, -15, zdict=zdict) if zdict
         else zlib.compressobj(6, zlib.DEFLATED, -15))
    body = c.compress(data)
    if last:
        return body + c.flush()
    return body + c.flush(zlib.Z_SYNC_FLUSH) + b"\0\0\0\xff\xff"

def pieces(data, n, last=True):
    return [seg(data[i:i + n], last=last and i + n >= len(data))
            for i in range(0, len(data), n)]

def stored(data):
    n = len(data)
    return bytes([0, n & 255, n >> 8, ~n & 255, (~n >> 8) & 255]) + data

s = pieces(text, 5000)
streams = {
    "segments": b"".join(s),
    "one-segment": seg(text, last=True),
    "small-segments": b"".join(pieces(text, 500)),
    "back-reference": b"".join(pieces(text[:10000], 5000, last=False))
        + seg(text[10000:15000], zdict=text[:10000])
        + b"".join(pieces(text[15000:], 5000)),
    "mark-in-stored": b"".join(pieces(text[:m - 100], 5000, last=False))
        + stored(text[m - 100:m + 100])
        + b"".join(pieces(text[m + 100:], 5000)),
    "ends-at-mark": b"".join(pieces(text, 5000, last=False)),
    "cut-in-segment": b"".join(s)[:len(s[0]) + len(s[1]) // 2],
    "bad-block": s[0] + b"\x07" + b"".join(s[1:])[1:],
    "after-end": b"".join(s) + MARK + b"after the end" + MARK,
}
def zlib_framed(stream):
    d = zlib.decompressobj(-15)
    try:
        data = d.decompress(stream)
    except zlib.error:
        data = b""
    tail = d.unused_data if d.eof else b""
    body = stream[:len(stream) - len(tail)]
    return b"\x78\x9c" + body + zlib.adler32(data).to_bytes(4, "big") + tail

seeds = {(name, 0): stream for name, stream in streams.items()}
seeds.update({(name, 1): zlib_framed(stream)
              for name, stream in streams.items()})
good = seeds[("segments", 1)]
seeds[("bad-header", 1)] = b"\x78\x9d" + good[2:]
seeds[("bad-adler", 1)] = good[:-1] + bytes([good[-1] ^ 1])
seeds[("cut-in-adler", 1)] = good[:-2]
for (name, zlib_format), stream in sorted(seeds.items()):
    for flag in range(4):
        for ready, how in ((0x1f, "file"), (0x05, "pipe")):
            path = os.path.join(out, "%s%s-%d-%s"
                                % (name, "-zlib" if zlib_format else "",
                                   flag, how))
            with open(path, "wb") as f:
                f.write(bytes([flag | ready << 2 | zlib_format << 7])
                        + stream)
PY
