#!/usr/bin/env bats
# Issue 40, part 5: sfenc writes its ZIP streams in independent
# segments (g10/pdeflate.c) and sfenc -d --threads N inflates them in
# parallel (g10/inflate-parallel.c).  Other readers see one ordinary
# deflate stream; sfenc accepts a segment only when it proves its
# start, and reads anything else serially with the same output and the
# same refusals as --threads 1.  The crafted streams are made by
# python3's zlib and wrapped by gpg, as in sfenc-inflate.bats.

setup () {
  SFENC=${SFENC:-$BATS_TEST_DIRNAME/../g10/sfenc}
  T=$BATS_TEST_TMPDIR
  export GNUPGHOME="$T/gnupg"
  mkdir -p -m 700 "$GNUPGHOME"
  SF=("$SFENC" --batch --passphrase "pass phrase" --s2k-count 65536)
  GPG=(gpg --batch --quiet --no-tty --pinentry-mode loopback
       --passphrase "pass phrase" --s2k-count 65536)
  IMPLS=(zlib)
  if "$SFENC" --inflate-impl isal --dump-options > /dev/null 2>&1; then
    IMPLS+=(isal)
  fi
  # 3 MiB of text with the segment mark in the middle of it.
  {
    seq 1 200000
    printf 'mark:\0\0\377\377\0\0\0\377\377:mark\n'
    seq 1 300000 | sed 's/$/ sfenc/'
  } | head -c 3145728 > "$T/plain"
}

teardown () {
  gpgconf --kill gpg-agent > /dev/null 2>&1 || true
}

# Fails when file $2 has a line that matches $1, and shows it.
no_line () {
  ! grep "$1" "$2"
}

need_gpg () {
  command -v gpg > /dev/null || skip "NOT TESTED: gpg is not installed"
}

# Encrypt with gpg a compressed packet (ZIP, or ZLIB with $2 zlib)
# holding the stream that the python3 expression $1 makes of T, the
# literal packet of plain.  seg (data, zdict=None, last=False) deflates data as one
# segment, ended with the mark unless last; stored (data) is a stored
# block; pieces (data, n, last=True) is the list of the segments of n
# bytes of data, the last one ending the stream when last, and segs
# (...) their bytes; MARK is the mark, at m in T.  z (deflated,
# check=adler32 (T)) is the zlib stream around a deflate stream.
crafted_message () {
  need_gpg
  gpg --batch --quiet --store -z 0 < "$T/plain" > "$T/literal"
  python3 - "$T/literal" "$T/packet" "$1" "${2:-zip}" <<'PY'
import sys, zlib
T = open(sys.argv[1], "rb").read()
MARK = b"\0\0\xff\xff\0\0\0\xff\xff"
def seg(data, zdict=None, last=False):
    c = (zlib.compressobj(6, zlib.DEFLATED, -15, zdict=zdict) if zdict
         else zlib.compressobj(6, zlib.DEFLATED, -15))
    out = c.compress(data)
    if last:
        return out + c.flush()
    return out + c.flush(zlib.Z_SYNC_FLUSH) + b"\0\0\0\xff\xff"
def pieces(data, n, last=True):
    return [seg(data[i:i + n], last=last and i + n >= len(data))
            for i in range(0, len(data), n)]
def segs(data, n, last=True):
    return b"".join(pieces(data, n, last))
def stored(data):
    n = len(data)
    return bytes([0, n & 255, n >> 8, ~n & 255, (~n >> 8) & 255]) + data
def z(deflated, check=zlib.adler32(T)):
    return b"\x78\x9c" + deflated + check.to_bytes(4, "big")
m = T.index(MARK)
stream = eval(sys.argv[3])
algo = 2 if sys.argv[4] == "zlib" else 1
open(sys.argv[2], "wb").write(bytes([0xa3, algo]) + stream)
PY
  "${GPG[@]}" -c -z 0 --no-literal < "$T/packet" > "$T/msg"
}

# Write file $1 to stdout in bursts of 16 KiB, 5 ms apart, as a slow
# pipe gives it: the reader often finds no bytes ready.
trickle () {
  python3 - "$1" <<'PY'
import sys, time
data = open(sys.argv[1], "rb").read()
for i in range(0, len(data), 16384):
    sys.stdout.buffer.write(data[i:i + 16384])
    sys.stdout.buffer.flush()
    time.sleep(0.005)
PY
}

# Decrypt msg with each implementation at --threads 1 and 2 and -v:
# the output must be plain every time, and at 2 threads the log must
# say $1: "parallel" (segments inflated on threads, no fallback) or
# "serial from N" (the serial path from segment N on).  At 2 threads
# through a slow pipe too, where the reading thread inflates pieces
# itself as their bytes come: the same output, the same fallback.
reads_as () {
  local impl threads
  for impl in "${IMPLS[@]}"; do
    trickle "$T/msg" | "${SF[@]}" -v -d --inflate-impl "$impl" \
      --threads 2 > "$T/out" 2> "$T/err" || { cat "$T/err"; return 1; }
    cmp "$T/plain" "$T/out" \
      || { echo "$impl through a slow pipe differs"; return 1; }
    case $1 in
      serial\ from\ *)
        grep -qx "sfenc: no independent segments from segment ${1#serial from } on: inflating on one thread" "$T/err" \
          || { echo "$impl through a slow pipe: expected $1"; cat "$T/err"; return 1; } ;;
      *)
        no_line 'no independent segments' "$T/err" ;;
    esac
    for threads in 1 2; do
      "${SF[@]}" -v -d --yes --inflate-impl "$impl" --threads "$threads" \
        -o "$T/out" "$T/msg" 2> "$T/err" || { cat "$T/err"; return 1; }
      cmp "$T/plain" "$T/out" \
        || { echo "$impl at $threads threads differs"; return 1; }
      [ "$threads" -eq 2 ] || continue
      case $1 in
        parallel)
          grep -qx 'sfenc: inflating independent segments on 2 threads' "$T/err"
          no_line 'no independent segments' "$T/err" ;;
        serial\ from\ *)
          grep -qx "sfenc: no independent segments from segment ${1#serial from } on: inflating on one thread" "$T/err" \
            || { echo "$impl: expected $1"; cat "$T/err"; return 1; } ;;
      esac
    done
  done
}

# msg is refused by each implementation at --threads 1, 2 and 4 with
# the one line that it gives at --threads 1, status 2, and no output
# file.
refused_as_serial () {
  local impl threads first
  for impl in "${IMPLS[@]}"; do
    # Each library words its refusal its own way.
    first=
    for threads in 1 2 4; do
      # -q: sfenc's one line, without gpg's log lines before it.
      run timeout 60 "${SF[@]}" -q -d --inflate-impl "$impl" \
        --threads "$threads" -o "$T/out" "$T/msg"
      echo "$impl at $threads threads: $status: $output"
      [ "$status" -eq 2 ]
      [ "${#lines[@]}" -eq 1 ]
      [ ! -e "$T/out" ]
      [ -n "$first" ] || first=$output
      [ "$output" = "$first" ]
    done
  done
}

@test "sfenc-pinflate: gpg and rnp read sfenc's segmented message, sfenc reads it on threads" {
  need_gpg
  "${SF[@]}" -c --threads 2 < "$T/plain" > "$T/msg"
  "${GPG[@]}" -d "$T/msg" > "$T/out-gpg"
  cmp "$T/plain" "$T/out-gpg"
  if command -v rnp > /dev/null; then
    mkdir -p -m 700 "$T/rnp"
    rnp --homedir "$T/rnp" --password "pass phrase" -d "$T/msg" \
      --output "$T/out-rnp" 2> "$T/rnp.err" || { cat "$T/rnp.err"; return 1; }
    cmp "$T/plain" "$T/out-rnp"
  else
    echo "# NOT TESTED: rnp is not installed" >&3
  fi
  reads_as parallel
}

@test "sfenc-pinflate: messages written on 1 or 3 threads are read on threads" {
  local threads
  for threads in 1 3; do
    "${SF[@]}" -v -c --threads "$threads" < "$T/plain" > "$T/msg"
    "${SF[@]}" -v -d --yes --threads 2 -o "$T/out" "$T/msg" 2> "$T/err"
    cmp "$T/plain" "$T/out"
    grep -qx 'sfenc: inflating independent segments on 2 threads' "$T/err"
    no_line 'no independent segments' "$T/err"
  done
}

@test "sfenc-pinflate: sfenc reads gpg's message, which has no marks, serially" {
  need_gpg
  "${GPG[@]}" -c --compress-algo zip < "$T/plain" > "$T/msg"
  reads_as "serial from 0"
}

@test "sfenc-pinflate: a small message starts no threads" {
  "${SF[@]}" -c < /etc/os-release > "$T/msg"
  "${SF[@]}" -v -d --threads 4 -o "$T/out" "$T/msg" 2> "$T/err"
  cmp /etc/os-release "$T/out"
  no_line 'inflating independent segments on' "$T/err"
}

@test "sfenc-pinflate: true boundaries of a crafted stream are inflated on threads" {
  crafted_message "segs(T, 400000)"
  reads_as parallel
}

@test "sfenc-pinflate: a back-reference across a mark is read serially from there" {
  crafted_message "segs(T[:800000], 400000, last=False) + seg(T[800000:1200000], zdict=T[800000 - 32768:800000]) + segs(T[1200000:], 400000)"
  reads_as "serial from 2"
}

@test "sfenc-pinflate: the mark inside a stored block is no boundary" {
  crafted_message "segs(T[:m - 1000], 400000, last=False) + stored(T[m - 1000:m + 1000]) + segs(T[m + 1000:], 400000)"
  # The segments before the stored block are 0 to 3.
  reads_as "serial from 4"
}

@test "sfenc-pinflate: a stream that ends at a mark is refused as truncated" {
  crafted_message "seg(T[:400000]) + seg(T[400000:])"
  refused_as_serial
  [ "$output" = "sfenc: decryption failed: compressed data truncated" ]
}

@test "sfenc-pinflate: truncation in the first, a middle and the last of 8 segments is refused as --threads 1 refuses it" {
  local i
  for i in 0 3 7; do
    crafted_message "(lambda s: b''.join(s)[:sum(map(len, s[:$i])) + len(s[$i]) // 2])(pieces(T, 400000))"
    refused_as_serial
    [ "$output" = "sfenc: decryption failed: compressed data truncated" ]
  done
}

@test "sfenc-pinflate: a bad block in the first, a middle and the last of 8 segments is refused as --threads 1 refuses it" {
  local i
  for i in 0 3 7; do
    crafted_message "(lambda s: b''.join(s[:$i]) + b'\\x07' + b''.join(s[$i:])[1:])(pieces(T, 400000))"
    refused_as_serial
    # The last library's wording: ISA-L's where the build has it.
    [[ $output == "sfenc: decryption failed: invalid compressed data (invalid block"* ]]
  done
}

@test "sfenc-pinflate: data after the end of the stream is dropped, as serially" {
  crafted_message "segs(T, 400000) + MARK + b'after the end' + MARK"
  reads_as parallel
}

# Decrypt msg with --inflate-impl $1 and --threads $2 through a pipe
# whose writer sends the first $3 bytes, then stalls until the test
# lets it go on; the output to out, the log to err.  Fail unless out
# holds $4 bytes before the stall ends (waiting for them up to 30 s),
# and unless the whole output is plain.
output_before_stall_ends () {
  local impl=$1 threads=$2 cut=$3 floor=$4 sfenc i n=0
  rm -f "$T/go"
  { head -c "$cut" "$T/msg"
    timeout 60 sh -c 'while [ ! -e "$1" ]; do sleep 0.1; done' wait "$T/go"
    tail -c +$((cut + 1)) "$T/msg"
  } | timeout 90 "${SF[@]}" -v -d --inflate-impl "$impl" \
        --threads "$threads" > "$T/out" 2> "$T/err" &
  sfenc=$!
  for i in $(seq 300); do
    n=$(stat -c %s "$T/out")
    [ "$n" -ge "$floor" ] && break
    sleep 0.1
  done
  touch "$T/go"
  wait "$sfenc" || { cat "$T/err"; return 1; }
  echo "$impl, --threads $threads, stalled after $cut bytes: $n bytes out before it went on, $floor wanted"
  [ "$n" -ge "$floor" ]
  cmp "$T/plain" "$T/out"
}

@test "sfenc-pinflate: from a pipe that stalls, the output its bytes allow comes out before the stall ends, on threads as on one" {
  local impl threads cut floor
  # Text that compresses evenly, so that the output the first bytes of
  # the message allow is their share of the plaintext; less what the
  # buffers on the way may hold (the output's 64 KiB, a half-filled
  # buffer of the decrypting thread, a deflate block): 256 KiB, half a
  # segment.  Held back till the next mark, it would miss it.
  head -c 3000000 /dev/urandom | base64 > "$T/plain"
  "${SF[@]}" -c < "$T/plain" > "$T/msg"
  # After the first 256 KiB, read on the calling thread, and further on.
  for cut in 700000 2000000; do
    floor=$(( cut * $(stat -c %s "$T/plain") / $(stat -c %s "$T/msg")
              - 262144 ))
    for impl in "${IMPLS[@]}"; do
      for threads in 1 2 4; do
        output_before_stall_ends "$impl" "$threads" "$cut" "$floor"
        # Whether workers took pieces depends on how fast the bytes
        # came (under ThreadSanitizer the reading thread may inflate
        # them all); the segments are true, so no fallback.
        no_line 'no independent segments' "$T/err"
      done
    done
  done
}

@test "sfenc-pinflate: ZLIB too: gpg reads sfenc's segmented ZLIB message, sfenc reads it on threads" {
  need_gpg
  "${SF[@]}" -c --compress-algo zlib --threads 2 < "$T/plain" > "$T/msg"
  "${GPG[@]}" -d "$T/msg" > "$T/out-gpg"
  cmp "$T/plain" "$T/out-gpg"
  "${GPG[@]}" --list-packets "$T/msg" | grep -q 'compressed packet: algo=2'
  reads_as parallel
}

@test "sfenc-pinflate: ZLIB: true boundaries on threads, a back-reference across a mark serially, data after the Adler-32 dropped" {
  crafted_message "z(segs(T, 400000))" zlib
  reads_as parallel
  crafted_message "z(segs(T[:800000], 400000, last=False) + seg(T[800000:1200000], zdict=T[800000 - 32768:800000]) + segs(T[1200000:], 400000))" zlib
  reads_as "serial from 2"
  crafted_message "z(segs(T, 400000)) + MARK + b'after the end' + MARK" zlib
  reads_as parallel
}

@test "sfenc-pinflate: ZLIB: a bad Adler-32 is refused as --threads 1 refuses it, on threads and after a fallback" {
  crafted_message "z(segs(T, 400000), check=zlib.adler32(T) ^ 1)" zlib
  refused_as_serial
  [ "$output" = "sfenc: decryption failed: invalid compressed data (incorrect data check)" ]
  crafted_message "z(seg(T[:400000]) + seg(T[400000:], zdict=T[400000 - 32768:400000], last=True), check=zlib.adler32(T) ^ 0x10000)" zlib
  refused_as_serial
  [ "$output" = "sfenc: decryption failed: invalid compressed data (incorrect data check)" ]
}

@test "sfenc-pinflate: ZLIB: a cut Adler-32 or a bad header is refused as --threads 1 refuses it" {
  local cut
  for cut in 1 4; do
    crafted_message "z(segs(T, 400000))[:-$cut]" zlib
    refused_as_serial
    [ "$output" = "sfenc: decryption failed: compressed data truncated" ]
  done
  crafted_message "z(seg(T[:400000]) + seg(T[400000:], zdict=T[400000 - 32768:400000], last=True))[:-2]" zlib
  refused_as_serial
  [ "$output" = "sfenc: decryption failed: compressed data truncated" ]
  crafted_message "b'\\x78\\x9d' + z(segs(T, 400000))[2:]" zlib
  refused_as_serial
  [ "$output" = "sfenc: decryption failed: invalid compressed data (incorrect header check)" ]
}
