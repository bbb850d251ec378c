#!/usr/bin/env bats
# Limits (issue 11, item 5): hostile shapes of input are either read
# in bounded memory and reasonable time or refused with one line
# "sfenc: ..." and exit status 2, leaving no file behind with -o.
# Every input is generated here, at run time.  gpg 2.2 is the oracle
# where it is installed; doc/security.md has the figures and the
# choices.  SFENC_LIMITS_GIB (default 1) sets the size of the long
# streams: SFENC_LIMITS_GIB=10 is the long run.

load emulator

setup () {
  SFENC=${SFENC:-$BATS_TEST_DIRNAME/../g10/sfenc}
  T=$BATS_TEST_TMPDIR
  export LC_ALL=C
  export GNUPGHOME="$T/gnupg"
  mkdir -p -m 700 "$GNUPGHOME"
  # -q: without the lines of gpg's log that come before an error on
  # -d (tests/sfenc-gpglog.bats).
  SF=("$SFENC" --batch -q --passphrase secret --s2k-count 65536)
  GPG=(gpg --batch --quiet --no-tty --pinentry-mode loopback
       --passphrase secret --s2k-count 65536)
  GIB=${SFENC_LIMITS_GIB:-1}
  # Peak memory is the point of most tests here.
  if [ -n "${SFENC_SANITIZER:-}${SFENC_MEMCHECK:-}" ]; then
    skip "sfenc runs under a sanitizer or valgrind: RSS and time are meaningless"
  fi
  [ -x /usr/bin/time ] || { echo "/usr/bin/time is missing (Debian package 'time')" >&2; return 1; }
  command -v python3 > /dev/null || { echo "python3 is missing: it builds the inputs" >&2; return 1; }
}

teardown () {
  gpgconf --kill gpg-agent > /dev/null 2>&1 || true
}

need_gpg () {
  command -v gpg > /dev/null ||
    skip "NOT TESTED: gpg is missing; it encrypts the hand-made packets"
}

# Run sfenc with the arguments under /usr/bin/time and a time limit;
# the peak RSS in KiB goes to $T/rss, the seconds elapsed to $T/secs
# and the CPU seconds to $T/cpu.
measured () {
  timeout 300 /usr/bin/time -f '%M %e %U %S' -o "$T/time" "${SF[@]}" "$@"
  local status=$?
  tail -n 1 "$T/time" | awk -v dir="$T" \
    '{ print $1 > (dir "/rss"); print $2 > (dir "/secs"); print $3 + $4 > (dir "/cpu") }'
  return $status
}

# Assert that the peak RSS of the last measured run is below 16 MiB.
assert_small_rss () {
  echo "peak RSS $(cat "$T/rss") KiB, $(cat "$T/secs") s, CPU $(cat "$T/cpu") s"
  [ "$(cat "$T/rss")" -lt "$(rss_limit 16384)" ]
}

# sfenc -d refuses $1 with status 2 and the one line $2, and with -o
# leaves no file behind.
assert_refused () {
  run "${SF[@]}" -d "$1"
  echo "status=$status output=$output"
  [ "$status" -eq 2 ]
  [ "$output" = "$2" ]
  run "${SF[@]}" -d -o "$T/out" "$1"
  [ "$status" -eq 2 ]
  [ "$output" = "$2" ]
  [ ! -e "$T/out" ]
  [ -z "$(find "$T" -maxdepth 1 -name 'out*')" ]
}

# Print, from stdin, compressed packets (ZIP) nested $2 deep around a
# literal packet of $1 GiB of zeros.  The innermost deflate stream
# repeats the sync-flushed block of one MiB of zeros, so that it costs
# no time to make; each outer layer deflates the one inside.
deflate_bomb () {
  python3 - "$1" "$2" <<'EOF'
import sys, zlib
gib, depth = int(sys.argv[1]), int(sys.argv[2])
MIB = bytes(1 << 20)

def packet(tag, body):
    return bytes([0xc0 | tag, 255]) + len(body).to_bytes(4, "big") + body

def zip_packet(data):
    z = zlib.compressobj(9, zlib.DEFLATED, -15)
    return packet(8, b"\1" + z.compress(data) + z.flush())

z = zlib.compressobj(9, zlib.DEFLATED, -15)
# An old-format literal packet of indeterminate length: up to the end
# of the deflate stream.
head = z.compress(bytes([0x80 | 11 << 2 | 3]) + b"b\0\0\0\0\0") + \
       z.compress(MIB) + z.flush(zlib.Z_SYNC_FLUSH)
block = z.compress(MIB) + z.flush(zlib.Z_SYNC_FLUSH)
if block != z.compress(MIB) + z.flush(zlib.Z_SYNC_FLUSH):
    sys.exit("deflate_bomb: zlib does not repeat the block")
stream = head + block * (gib * 1024 - 1) + z.flush()
data = packet(8, b"\1" + stream)
for _ in range(depth - 1):
    data = zip_packet(data)
sys.stdout.buffer.write(data)
EOF
}

# Rewrite the binary message $1 as $2 with the body of its encrypted
# data packet (after the SKESK) cut into one-byte partial lengths.
one_byte_chunks () {
  python3 - "$1" "$2" <<'EOF'
import sys
m = open(sys.argv[1], "rb").read()
skesk = 2 + m[1]
assert m[0] == 0xc3 and m[skesk] == 0xd2, "not an sfenc message"
body, p = bytearray(), skesk + 1
while True:
    b = m[p]
    if b < 192:
        n, p, last = b, p + 1, True
    elif b < 224:
        n, p, last = ((b - 192) << 8) + m[p + 1] + 192, p + 2, True
    elif b == 255:
        n, p, last = int.from_bytes(m[p + 1:p + 5], "big"), p + 5, True
    else:
        n, p, last = 1 << (b & 0x1f), p + 1, False
    body += m[p:p + n]
    p += n
    if last:
        break
out = bytearray(2 * len(body))
out[0::2] = b"\xe0" * len(body)
out[1::2] = body
open(sys.argv[2], "wb").write(m[:skesk + 1] + out + b"\0")
EOF
}

# Armor the binary file $1 as $2 with all the base64 on one line.
armor_one_line () {
  { echo "-----BEGIN PGP MESSAGE-----"; echo
    base64 -w0 "$1"; echo
    echo "-----END PGP MESSAGE-----"; } > "$2"
}


@test "sfenc-limits: a deflate bomb of SFENC_LIMITS_GIB GiB in a few KiB streams at bounded memory" {
  need_gpg
  deflate_bomb "$GIB" 2 | "${GPG[@]}" -c -z 0 --no-literal 2> /dev/null > "$T/bomb"
  echo "message: $(stat -c %s "$T/bomb") bytes"
  [ "$(stat -c %s "$T/bomb")" -lt $((32 * 1024 * GIB)) ]
  measured -d "$T/bomb" | cmp - <(head -c "${GIB}G" /dev/zero)
  assert_small_rss
  measured -d -o /dev/null "$T/bomb"
  assert_small_rss
}

@test "sfenc-limits: a bomb nested 31 deep is refused before it expands" {
  need_gpg
  deflate_bomb 10 31 | "${GPG[@]}" -c -z 0 --no-literal 2> /dev/null > "$T/bomb"
  echo "message: $(stat -c %s "$T/bomb") bytes"
  assert_refused "$T/bomb" \
    "sfenc: decryption failed: compressed packets nested more than 30 deep"
  # Inflating the bomb would take many seconds of CPU.
  run measured -d -o /dev/null "$T/bomb"
  [ "$status" -eq 2 ]
  echo "refused after $(cat "$T/cpu") s of CPU"
  [ "$(cut -d. -f1 "$T/cpu")" -lt 3 ]
  # 30 deep is read, each layer with its own buffers.
  deflate_bomb 1 30 | "${GPG[@]}" -c -z 0 --no-literal 2> /dev/null > "$T/bomb"
  measured -d "$T/bomb" | cmp - <(head -c 1G /dev/zero)
  assert_small_rss
}

@test "sfenc-limits: a 100 MiB base64 line is read at bounded memory (gpg 2.2 refuses it)" {
  head -c $((75 * 1024 * 1024)) /dev/urandom > "$T/plain"
  "${SF[@]}" -c -z 0 -o "$T/msg" "$T/plain"
  armor_one_line "$T/msg" "$T/msg.asc"
  measured -d -o "$T/out" "$T/msg.asc"
  cmp "$T/plain" "$T/out"
  assert_small_rss
  if command -v gpg > /dev/null; then
    run "${GPG[@]}" -d -o /dev/null "$T/msg.asc"
    echo "gpg -d: status $status: $output"
  fi
}

@test "sfenc-limits: a 10 MiB armor header line and a 10 MiB line before the armor are read at bounded memory" {
  head -c 100000 /dev/urandom > "$T/plain"
  "${SF[@]}" -c -z 0 -a -o "$T/msg.asc" "$T/plain"
  { head -n 1 "$T/msg.asc"
    printf 'Comment: '; head -c $((10 * 1024 * 1024)) /dev/zero | tr '\0' x; echo
    tail -n +2 "$T/msg.asc"; } > "$T/long-header.asc"
  measured -d -o "$T/out" "$T/long-header.asc"
  cmp "$T/plain" "$T/out"
  assert_small_rss
  if command -v gpg > /dev/null; then
    "${GPG[@]}" -d -o "$T/gpg.out" "$T/long-header.asc"
    cmp "$T/plain" "$T/gpg.out"
  fi
  # Text before the BEGIN line is skipped, whatever its length; gpg
  # 2.2 takes such input for binary and fails.
  { head -c $((10 * 1024 * 1024)) /dev/zero | tr '\0' y; echo
    cat "$T/msg.asc"; } > "$T/long-text.asc"
  rm "$T/out"
  measured -d -o "$T/out" "$T/long-text.asc"
  cmp "$T/plain" "$T/out"
  assert_small_rss
}

@test "sfenc-limits: garbage between armor lines is refused" {
  head -c 100000 /dev/urandom > "$T/plain"
  "${SF[@]}" -c -z 0 -a -o "$T/msg.asc" "$T/plain"
  sed '10a !!garbage!!' "$T/msg.asc" > "$T/bad.asc"
  assert_refused "$T/bad.asc" \
    "sfenc: invalid armor: invalid character (0x21) in the armored data"
  { sed -n 1,9p "$T/msg.asc"; head -c 5000 /dev/zero; sed -n '10,$p' "$T/msg.asc"; } > "$T/bad.asc"
  assert_refused "$T/bad.asc" \
    "sfenc: invalid armor: invalid character (0x00) in the armored data"
  if command -v gpg > /dev/null; then
    run "${GPG[@]}" -d -o /dev/null "$T/bad.asc"
    echo "gpg -d: status $status"
    [ "$status" -eq 2 ]
  fi
}

@test "sfenc-limits: 8 MiB in one-byte partial body lengths, outside and inside the encryption" {
  head -c $((8 * 1024 * 1024)) /dev/urandom > "$T/plain"
  "${SF[@]}" -c -z 0 -o "$T/msg" "$T/plain"
  one_byte_chunks "$T/msg" "$T/chunked"
  echo "message: $(stat -c %s "$T/chunked") bytes"
  measured -d -o "$T/out" "$T/chunked"
  cmp "$T/plain" "$T/out"
  assert_small_rss
  [ "$(cut -d. -f1 "$T/cpu")" -lt 20 ]
  need_gpg
  "${GPG[@]}" -d -o "$T/gpg.out" "$T/chunked"
  cmp "$T/plain" "$T/gpg.out"
  # A literal packet in one-byte partial lengths, encrypted by gpg.
  python3 - "$T/plain" "$T/literal" <<'EOF'
import sys
body = b"b\0\0\0\0\0" + open(sys.argv[1], "rb").read()
out = bytearray(2 * len(body))
out[0::2] = b"\xe0" * len(body)
out[1::2] = body
open(sys.argv[2], "wb").write(b"\xcb" + out + b"\0")
EOF
  "${GPG[@]}" -c -z 0 --no-literal -o "$T/inner" "$T/literal" 2> /dev/null
  rm "$T/out"
  measured -d -o "$T/out" "$T/inner"
  cmp "$T/plain" "$T/out"
  assert_small_rss
}

@test "sfenc-limits: broken chains of partial body lengths are refused" {
  head -c 10000 /dev/urandom > "$T/plain"
  "${SF[@]}" -c -z 0 -o "$T/msg" "$T/plain"
  one_byte_chunks "$T/msg" "$T/chunked"
  # SKESK, the encrypted data packet's tag, then 1000 one-byte parts.
  cut=$(( $(od -An -tu1 -j1 -N1 "$T/msg") + 3 + 2000 ))
  head -c "$cut" "$T/chunked" > "$T/bad"
  assert_refused "$T/bad" \
    "sfenc: decryption failed: input truncated (in a partial length header)"
  { head -c "$cut" "$T/chunked"; printf '\377\000'; } > "$T/bad"
  assert_refused "$T/bad" \
    "sfenc: decryption failed: input truncated (in a partial length header)"
  { head -c "$cut" "$T/chunked"; printf '\020abcdefgh'; } > "$T/bad"
  assert_refused "$T/bad" \
    "sfenc: decryption failed: input truncated (8 more bytes expected in this packet)"
  # A part of 1 GiB announced, and nothing after it.
  { head -c "$cut" "$T/chunked"; printf '\376'; } > "$T/bad"
  assert_refused "$T/bad" \
    "sfenc: decryption failed: input truncated (1073741824 more bytes expected in this packet)"
  if command -v gpg > /dev/null; then
    run "${GPG[@]}" -d -o /dev/null "$T/bad"
    echo "gpg -d: status $status"
    [ "$status" -eq 2 ]
  fi
}

@test "sfenc-limits: a message of SFENC_LIMITS_GIB GiB, armored, both ways at bounded memory" {
  head -c "${GIB}G" /dev/zero |
    /usr/bin/time -f '%M KiB, %e s, CPU %U + %S s' -o "$T/enc.time" "${SF[@]}" -c -z 0 -a |
    /usr/bin/time -f '%M KiB, %e s, CPU %U + %S s' -o "$T/dec.time" "${SF[@]}" -d |
    cmp - <(head -c "${GIB}G" /dev/zero)
  echo "encrypt: peak RSS $(tail -n 1 "$T/enc.time")"
  echo "decrypt: peak RSS $(tail -n 1 "$T/dec.time")"
  [ "$(tail -n 1 "$T/enc.time" | cut -d' ' -f1)" -lt 16384 ]
  [ "$(tail -n 1 "$T/dec.time" | cut -d' ' -f1)" -lt 16384 ]
}
