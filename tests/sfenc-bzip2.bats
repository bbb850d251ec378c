#!/usr/bin/env bats
# BZIP2 compressed packets (issue 12, item 1): sfenc writes them and
# reads them, gpg and rnp read sfenc's and sfenc reads theirs, the
# algorithm names and levels are gpg's, bad bzip2 data inside a message
# is one line and exit status 2, and a stream that expands a
# millionfold is decompressed in constant memory.

load byte-edit
load emulator

setup () {
  SFENC=${SFENC:-$BATS_TEST_DIRNAME/../g10/sfenc}
  T=$BATS_TEST_TMPDIR
  export GNUPGHOME="$T/gnupg"
  mkdir -p -m 700 "$GNUPGHOME"
  SF=("$SFENC" --batch --passphrase "pass phrase" --s2k-count 65536)
  GPG=(gpg --batch --quiet --no-tty --pinentry-mode loopback
       --passphrase "pass phrase" --s2k-count 65536)
  head -c 0 /dev/zero > "$T/in-0"
  printf 'x' > "$T/in-1"
  head -c 3000000 /dev/urandom > "$T/in-big"
  yes "sfenc bzip2 line" | head -c 2500000 > "$T/in-text"
}

# Stop the gpg-agent a test may have started in its throw-away home.
teardown () {
  gpgconf --kill gpg-agent > /dev/null 2>&1 || true
}

need_gpg () {
  command -v gpg > /dev/null \
    || skip "gpg (GnuPG) is not installed: BZIP2 interoperability with gpg NOT tested"
}

need_rnp () {
  command -v rnp > /dev/null \
    || skip "rnp is not installed: BZIP2 interoperability with rnp NOT tested"
}

# The compression algorithm of message $1 as gpg lists it ("algo=3").
gpg_compress_algo () {
  "${GPG[@]}" --list-packets "$1" 2> /dev/null | sed -n 's/^:compressed packet: //p'
}

@test "sfenc-bzip2: sfenc -c --compress-algo bzip2 | sfenc -d, every size" {
  local size
  for size in 0 1 big text; do
    "${SF[@]}" -v -c --compress-algo bzip2 < "$T/in-$size" > "$T/msg" 2> "$T/enc.err"
    grep -qx 'sfenc: BZIP2 compression, level 6 (libbz2), 1 thread' "$T/enc.err"
    "${SF[@]}" -v -d "$T/msg" > "$T/out" 2> "$T/dec.err"
    grep -qx 'sfenc: BZIP2 compressed data' "$T/dec.err"
    cmp "$T/in-$size" "$T/out"
  done
  # Compressed it is: the text shrinks to a small fraction.
  "${SF[@]}" -c --compress-algo bzip2 < "$T/in-text" > "$T/msg"
  [ "$(stat -c %s "$T/msg")" -lt 10000 ]
}

@test "sfenc-bzip2: --threads does not change BZIP2, which runs on one thread" {
  "${SF[@]}" -v --threads 4 -c --compress-algo bzip2 < "$T/in-text" > "$T/msg" 2> "$T/err"
  grep -qx 'sfenc: BZIP2 compression, level 6 (libbz2), 1 thread' "$T/err"
  "${SF[@]}" -d "$T/msg" | cmp - "$T/in-text"
}

@test "sfenc-bzip2: the algorithm names gpg takes, and those it refuses" {
  local name
  need_gpg
  for name in bzip2 BZIP2 Bzip2 3 z3 Z3; do
    "${GPG[@]}" -c --compress-algo "$name" < "$T/in-text" > "$T/gpg.msg"
    [ "$(gpg_compress_algo "$T/gpg.msg")" = "algo=3" ]
    "${SF[@]}" -c --compress-algo "$name" < "$T/in-text" > "$T/msg"
    [ "$(gpg_compress_algo "$T/msg")" = "algo=3" ] \
      || { echo "--compress-algo $name is not BZIP2"; return 1; }
  done
  for name in bzip bz2 4 z4 03 Z; do
    run "${GPG[@]}" -c --compress-algo "$name" < "$T/in-1"
    [ "$status" -eq 2 ] || { echo "gpg takes --compress-algo $name"; return 1; }
    run "${SF[@]}" -c --compress-algo "$name" < "$T/in-1"
    [ "$status" -eq 2 ]
    [ "$output" = "sfenc: --compress-algo: unknown compression algorithm '$name' (none, zip, zlib, bzip2)" ]
  done
}

@test "sfenc-bzip2: --bzip2-compress-level sets the block size, -z too, --compress-level not" {
  local level
  # 500 kB of random bytes made of a 250 kB half repeated: blocks of
  # 100 kB (level 1) cannot see the repetition, blocks of 600 kB (the
  # default, 6) and more hold both halves and store the second almost
  # for free.
  head -c 250000 /dev/urandom > "$T/half"
  cat "$T/half" "$T/half" > "$T/rep"
  # Encrypt with options $@ into $T/msg$@ (without blanks), print the size.
  size_at () {
    local options="$*"
    local msg="$T/msg${options// /}"
    "${SF[@]}" -c --compress-algo bzip2 "$@" < "$T/rep" > "$msg"
    stat -c %s "$msg"
  }
  [ "$(size_at --bzip2-compress-level 1)" -gt 450000 ]
  [ "$(size_at -z 1)" -gt 450000 ]
  [ "$(size_at --bzip2-compress-level 6)" -lt 350000 ]
  [ "$(size_at --bzip2-compress-level 9)" -lt 350000 ]
  # --compress-level is ZIP's and ZLIB's: BZIP2 keeps its default.
  [ "$(size_at --compress-level 1)" -lt 350000 ]
  "${SF[@]}" -d "$T/msg--bzip2-compress-level1" | cmp - "$T/rep"
  "${SF[@]}" -d "$T/msg--bzip2-compress-level9" | cmp - "$T/rep"
  for level in 1 9; do
    "${SF[@]}" -v -c --compress-algo bzip2 --bzip2-compress-level "$level" \
      < "$T/in-1" 2>&1 > /dev/null | grep -qx "sfenc: BZIP2 compression, level $level (libbz2), 1 thread"
  done
  # 0 disables compression for every algorithm, as in gpg.
  "${SF[@]}" -v -c --compress-algo bzip2 --compress-level 0 < "$T/in-text" 2> "$T/err" > "$T/msg"
  run grep -c compression "$T/err"
  [ "$output" = 0 ]
  [ "$(stat -c %s "$T/msg")" -gt 2500000 ]
  for level in 0 10 x; do
    run "${SF[@]}" -c --bzip2-compress-level "$level" < "$T/in-1"
    [ "$status" -eq 2 ]
    [ "${#lines[@]}" -eq 1 ]
    [[ "$output" == "sfenc: --bzip2-compress-level: "* ]]
  done
}

@test "sfenc-bzip2: gpg decrypts sfenc's BZIP2 and sfenc decrypts gpg's" {
  local size armor level
  need_gpg
  for size in 0 1 big text; do
    for armor in "" "-a"; do
      # shellcheck disable=SC2086
      "${SF[@]}" -c $armor --compress-algo bzip2 < "$T/in-$size" > "$T/msg"
      [ "$(gpg_compress_algo "$T/msg")" = "algo=3" ]
      "${GPG[@]}" -d "$T/msg" > "$T/out"
      cmp "$T/in-$size" "$T/out" || { echo "gpg -d differs: $size $armor"; return 1; }
      # shellcheck disable=SC2086
      "${GPG[@]}" -c $armor --compress-algo bzip2 < "$T/in-$size" > "$T/msg"
      [ "$(gpg_compress_algo "$T/msg")" = "algo=3" ]
      "${SF[@]}" -d "$T/msg" > "$T/out"
      cmp "$T/in-$size" "$T/out" || { echo "sfenc -d differs: $size $armor"; return 1; }
    done
  done
  for level in 1 9; do
    "${GPG[@]}" -c --compress-algo bzip2 --bzip2-compress-level "$level" < "$T/in-text" > "$T/msg"
    "${SF[@]}" -d "$T/msg" | cmp - "$T/in-text"
    "${SF[@]}" -c --compress-algo bzip2 --bzip2-compress-level "$level" < "$T/in-text" > "$T/msg"
    "${GPG[@]}" -d "$T/msg" | cmp - "$T/in-text"
  done
}

@test "sfenc-bzip2: rnp decrypts sfenc's BZIP2 and sfenc decrypts rnp's" {
  local size
  need_rnp
  mkdir -p "$T/rnp"
  RNP=(rnp --homedir "$T/rnp" --password "pass phrase")
  for size in 0 1 big text; do
    "${RNP[@]}" -c --bzip --overwrite --output "$T/rnp.msg" "$T/in-$size" 2> "$T/rnp.err"
    "${SF[@]}" -v -d "$T/rnp.msg" > "$T/out" 2> "$T/err"
    grep -qx 'sfenc: BZIP2 compressed data' "$T/err"
    cmp "$T/in-$size" "$T/out" || { echo "sfenc -d of rnp's differs: $size"; return 1; }
    "${SF[@]}" -c --compress-algo bzip2 < "$T/in-$size" > "$T/msg"
    "${RNP[@]}" -d --overwrite --output "$T/out" "$T/msg" 2> "$T/rnp.err" \
      || { cat "$T/rnp.err"; return 1; }
    cmp "$T/in-$size" "$T/out" || { echo "rnp -d of sfenc's differs: $size"; return 1; }
  done
}


@test "sfenc-bzip2: bad BZIP2 data in a message is one line and exit status 2" {
  local kind
  need_gpg
  # A literal packet, compressed by gpg into a BZIP2 packet (an
  # old-format header of indeterminate length, the algorithm byte 3,
  # then "BZh6", the block magic 0x314159265359 and the block's CRC),
  # then spoiled and encrypted as it is.
  seq 1 3000 > "$T/plain"
  gpg --batch --quiet --store -z 0 < "$T/plain" > "$T/literal"
  gpg --batch --quiet --store --no-literal --compress-algo bzip2 < "$T/literal" \
    > "$T/good" 2> /dev/null
  [ "$(od -An -tx1 -N12 "$T/good" | tr -d ' ')" = a303425a6836314159265359 ]
  cp "$T/good" "$T/magic"; set_byte "$T/magic" 2 88
  # A wrong block CRC: the data decodes, and does not match it.
  cp "$T/good" "$T/data"
  flip_byte "$T/data" 12 1
  head -c 1900 "$T/good" > "$T/truncated"
  for kind in good magic data truncated; do
    "${GPG[@]}" -c -z 0 --no-literal < "$T/$kind" > "$T/$kind.msg" 2> /dev/null
  done
  "${SF[@]}" -d "$T/good.msg" | cmp - "$T/plain"
  for kind in magic data truncated; do
    # gpg refuses each of them too.
    run "${GPG[@]}" -d "$T/$kind.msg"
    [ "$status" -eq 2 ]
    run timeout 60 "${SF[@]}" -d -o "$T/out" "$T/$kind.msg"
    echo "$kind: $output"
    [ "$status" -eq 2 ]
    [ "${#lines[@]}" -eq 1 ]
    case $kind in
      magic) [ "$output" = "sfenc: decryption failed: invalid compressed data (not a bzip2 stream)" ] ;;
      data) [ "$output" = "sfenc: decryption failed: invalid compressed data (bzip2 data corrupted)" ] ;;
      truncated) [ "$output" = "sfenc: decryption failed: compressed data truncated" ] ;;
    esac
    [ ! -e "$T/out" ]
  done
}

@test "sfenc-bzip2: 1 kB that expands to 512 MiB is decompressed in constant memory" {
  if [ -n "${SFENC_SANITIZER:-}${SFENC_MEMCHECK:-}" ]; then
    skip "sfenc runs under a sanitizer or valgrind: its peak memory is the tool's"
  fi
  need_gpg
  [ -x /usr/bin/time ] || { echo "/usr/bin/time is missing (Debian package 'time'): cannot measure peak memory" >&2; return 1; }
  # gpg makes the bomb: 512 MiB of zeros in one BZIP2 stream.
  head -c $((512 * 1024 * 1024)) /dev/zero |
    "${GPG[@]}" -c --compress-algo bzip2 --bzip2-compress-level 9 > "$T/bomb"
  [ "$(stat -c %s "$T/bomb")" -lt 4096 ]
  /usr/bin/time -f %M -o "$T/rss" "${SF[@]}" -d "$T/bomb" | wc -c > "$T/count"
  echo "message $(stat -c %s "$T/bomb") bytes, output $(cat "$T/count") bytes, peak RSS $(cat "$T/rss") KiB"
  [ "$(cat "$T/count")" -eq $((512 * 1024 * 1024)) ]
  [ "$(cat "$T/rss")" -lt "$(rss_limit 16384)" ]
}

@test "sfenc-bzip2: 30 nested layers of full blocks hold only a few layers' blocks at once" {
  if [ -n "${SFENC_SANITIZER:-}${SFENC_MEMCHECK:-}" ]; then
    skip "sfenc runs under a sanitizer or valgrind: its peak memory is the tool's"
  fi
  need_gpg
  [ -x /usr/bin/time ] || { echo "/usr/bin/time is missing (Debian package 'time'): cannot measure peak memory" >&2; return 1; }
  # Each layer is a BZIP2 compressed packet of the one inside, 2 MiB
  # of random bytes at the core, so every layer decodes three full
  # 900 kB blocks (3.6 MiB of libbz2 arrays each).  A layer whose
  # stream has ended must give its arrays back at once: kept to the
  # end of the message, the 30 layers took 116 MiB.
  head -c $((2 * 1024 * 1024)) /dev/urandom > "$T/core"
  python3 - "$T/core" > "$T/nested" <<'PY'
import bz2, sys
def packet(tag, body):
    return bytes([0xc0 | tag, 255]) + len(body).to_bytes(4, "big") + body
data = packet(11, b"b\0\0\0\0\0" + open(sys.argv[1], "rb").read())
for _ in range(30):
    data = packet(8, b"\3" + bz2.compress(data, 9))
sys.stdout.buffer.write(data)
PY
  "${GPG[@]}" -c -z 0 --no-literal < "$T/nested" > "$T/msg"
  /usr/bin/time -f %M -o "$T/rss" "${SF[@]}" -d -o "$T/out" "$T/msg"
  cmp "$T/core" "$T/out"
  /usr/bin/time -f %M -o "$T/gpg-rss" "${GPG[@]}" -d -o "$T/gpg-out" "$T/msg"
  cmp "$T/core" "$T/gpg-out"
  echo "peak RSS: sfenc $(cat "$T/rss") KiB, gpg $(cat "$T/gpg-rss") KiB"
  [ "$(cat "$T/rss")" -lt "$(rss_limit $((40 * 1024)))" ]
}

@test "sfenc-bzip2: BZIP2 at level 9 compresses in constant memory" {
  if [ -n "${SFENC_SANITIZER:-}${SFENC_MEMCHECK:-}" ]; then
    skip "sfenc runs under a sanitizer or valgrind: its peak memory is the tool's"
  fi
  [ -x /usr/bin/time ] || { echo "/usr/bin/time is missing (Debian package 'time'): cannot measure peak memory" >&2; return 1; }
  yes "sfenc bzip2 memory line" | head -c $((64 * 1024 * 1024)) |
    /usr/bin/time -f %M -o "$T/rss" \
      "${SF[@]}" -c --compress-algo bzip2 --bzip2-compress-level 9 > "$T/msg"
  echo "peak RSS $(cat "$T/rss") KiB"
  [ "$(cat "$T/rss")" -lt "$(rss_limit 16384)" ]
  "${SF[@]}" -d "$T/msg" | cmp - <(yes "sfenc bzip2 memory line" | head -c $((64 * 1024 * 1024)))
}
