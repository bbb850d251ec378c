#!/usr/bin/env python3
"""bzip2-long-block.py - a valid BZIP2 packet with an overlong block

    bzip2-long-block.py PLAIN PACKET LONG

Writes to PLAIN about 150 kB of text and to PACKET an OpenPGP
compressed packet (BZIP2) of a literal packet of it.  The bzip2 stream
is at level 1 and has three blocks; block LONG (0, 1 or 2) is longer
than any encoder writes (BLOCK_BITS_MAX in g10/bunzip2-parallel.c): its first
code length is followed by 700,000 steps of +1 and -1, which change
nothing but which libbz2 reads all the same.  The stream is checked
with libbz2 (Python's bz2) before it is written.
"""
import bz2
import random
import sys

BLOCK_MAGIC = 0x314159265359
END_MAGIC = 0x177245385090
STEPS = 700000
# BLOCK_BITS_MAX (1) of g10/bunzip2-parallel.c.
BLOCK_BITS_MAX_1 = (105 + 272 + 18 + 32767 * 6 + 6 * (5 + 258 * 41)
                    + (100000 * 1 + 1) * 20)


def bits_of(data):
    return "".join(format(b, "08b") for b in data)


def field(bits, pos, n):
    return int(bits[pos:pos + n], 2)


def only_block(stream):
    """The bits of the one block of the one-block STREAM."""
    bits = bits_of(stream)
    crc = field(bits, 32 + 48, 32)
    # The stream ends with the end magic, the combined CRC (the block's
    # own) and fewer than 8 zero bits.
    for pad in range(8):
        end = len(bits) - pad - 80
        if field(bits, end, 48) == END_MAGIC and field(bits, end + 48, 32) == crc:
            return bits[32:end], crc
    sys.exit("bzip2-long-block.py: no end magic where libbz2 puts it")


def lengthen(block):
    """BLOCK with STEPS pairs of +1, -1 after its first code length."""
    assert field(block, 0, 48) == BLOCK_MAGIC
    pos = 48 + 32 + 1 + 24
    used = bin(field(block, pos, 16)).count("1")
    pos += 16 + 16 * used
    selectors = field(block, pos + 3, 15)
    pos += 18
    for _ in range(selectors):
        pos = block.index("0", pos) + 1
    first_length = field(block, pos, 5)
    # libbz2 takes code lengths of 1 to 20 at every step.
    assert 1 <= first_length < 20
    pos += 5
    return block[:pos] + "1011" * STEPS + block[pos:]


def packet(tag, body):
    return bytes([0xc0 | tag, 255]) + len(body).to_bytes(4, "big") + body


def main():
    plain_name, packet_name, long = sys.argv[1], sys.argv[2], int(sys.argv[3])
    rng = random.Random(44)
    words = [bytes(rng.choice(b"abcdefghijklmnopqrstuvwxyz")
                   for _ in range(rng.randint(2, 9))) for _ in range(500)]
    plain = bytearray()
    while len(plain) < 150000:
        plain += rng.choice(words) + (b"\n" if rng.random() < 0.1 else b" ")
    literal = packet(11, b"b\0\0\0\0\0" + bytes(plain))
    chunks = [literal[i:i + 60000] for i in range(0, len(literal), 60000)]
    assert len(chunks) == 3
    blocks, combined = [], 0
    for chunk in chunks:
        block, crc = only_block(bz2.compress(chunk, 1))
        blocks.append(block)
        combined = (((combined << 1) | (combined >> 31)) & 0xffffffff) ^ crc
    blocks[long] = lengthen(blocks[long])
    assert len(blocks[long]) > BLOCK_BITS_MAX_1
    bits = (bits_of(b"BZh1") + "".join(blocks) + format(END_MAGIC, "048b")
            + format(combined, "032b"))
    bits += "0" * (-len(bits) % 8)
    stream = int(bits, 2).to_bytes(len(bits) // 8, "big")
    if bz2.decompress(stream) != literal:
        sys.exit("bzip2-long-block.py: libbz2 does not read the stream back")
    with open(plain_name, "wb") as f:
        f.write(plain)
    with open(packet_name, "wb") as f:
        f.write(packet(8, b"\3" + stream))


main()
