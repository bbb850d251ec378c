#!/usr/bin/env bats
# --threads (issue 10): gpg reads what every thread count writes, at
# every level and with both deflate formats; bad input and failed
# output end every thread with the one-line error and status 2, and
# -o leaves no file; a 1 GiB stream stays within 64 MiB resident at
# the default thread count.  That the compressed stream is the same
# for every thread count is checked inside, by tests/t-deflate.c.

load byte-edit

setup () {
  SFENC=${SFENC:-$BATS_TEST_DIRNAME/../g10/sfenc}
  T=$BATS_TEST_TMPDIR
  export GNUPGHOME="$T/gnupg"
  mkdir -p -m 700 "$GNUPGHOME"
  SF=("$SFENC" --batch --passphrase secret --s2k-count 1024)
  # Several blocks of 128 KiB, text and random bytes, and a tail.
  { head -c 300000 "$BATS_TEST_FILENAME"; seq 1 60000; head -c 200000 /dev/urandom; } > "$T/plain"
}

teardown () {
  gpgconf --kill gpg-agent > /dev/null 2>&1 || true
}

need_gpg () {
  command -v gpg > /dev/null ||
    { echo "gpg (GnuPG) is not installed: this test needs it as the reader" >&2; return 1; }
}

# Assert a failed run: status 2 and one line, "sfenc: " then $1.
assert_error () {
  echo "status=$status output=$output"
  # After the lines of gpg's log that -d writes first
  # (tests/sfenc-gpglog.bats).
  output=$(grep -v '^gpg: ' <<< "$output" || true)
  mapfile -t lines <<< "$output"
  [ "$status" -eq 2 ]
  [ "${#lines[@]}" -eq 1 ]
  [[ "$output" == "sfenc: $1"* ]]
}

@test "sfenc-threads: gpg reads -z 1, 6, 9, ZIP and ZLIB, at 1, 2 and 4 threads" {
  need_gpg
  for threads in 1 2 4; do
    for level in 1 6 9; do
      for algo in zip zlib; do
        "${SF[@]}" -c --threads $threads -z $level --compress-algo $algo < "$T/plain" > "$T/msg"
        gpg --batch --quiet --pinentry-mode loopback --passphrase secret -d < "$T/msg" > "$T/out" ||
          { echo "gpg -d failed: --threads $threads -z $level $algo"; return 1; }
        cmp "$T/plain" "$T/out" || { echo "differs: --threads $threads -z $level $algo"; return 1; }
      done
    done
  done
}

@test "sfenc-threads: sfenc reads its own output at every thread count, armored too" {
  for threads in 1 2 4; do
    "${SF[@]}" -c -a --threads $threads < "$T/plain" | "${SF[@]}" -d > "$T/out"
    cmp "$T/plain" "$T/out"
  done
}

@test "sfenc-threads: -v tells the library and the thread count" {
  run "${SF[@]}" -v -c --threads 3 -z 6 -o "$T/msg" "$T/plain"
  echo "$output"
  [ "$status" -eq 0 ]
  [[ "$output" == *"ZIP compression, level 6 (zlib), 3 threads"* ]]
  # The default is one thread per online processor.
  run "${SF[@]}" -v -c -o "$T/msg2" "$T/plain"
  [[ "$output" == *"level 6 (zlib), $(getconf _NPROCESSORS_ONLN) thread"* ]]
}

@test "sfenc-threads: --threads outside 1..64 is refused" {
  for bad in 0 65 -1 two; do
    run "${SF[@]}" -c --threads $bad -o "$T/msg" "$T/plain"
    assert_error "--threads: "
    [ ! -e "$T/msg" ]
  done
}

@test "sfenc-threads: truncated and tampered messages, compressed or not, at 1, 2 and 4 threads" {
  for z in 0 6; do
    "${SF[@]}" -c -z $z < "$T/plain" > "$T/msg"
    size=$(stat -c %s "$T/msg")
    head -c $((size / 2)) "$T/msg" > "$T/truncated"
    cp "$T/msg" "$T/tampered"
    flip_byte "$T/tampered" $((size / 3)) 1
    for bad in truncated tampered; do
      run "${SF[@]}" -d --threads 1 -o "$T/out" "$T/$bad"
      assert_error "decryption failed: "
      first=$output
      for threads in 1 2 4; do
        run "${SF[@]}" -d --threads $threads -o "$T/out" "$T/$bad"
        assert_error "decryption failed: "
        [ "$output" = "$first" ]
        [ ! -e "$T/out" ]
        [ -z "$(ls "$T" | grep '^out')" ]
      done
    done
  done
}

@test "sfenc-threads: read and write errors in the middle stop every thread" {
  head -c 20000000 /dev/urandom > "$T/big"
  mkdir "$T/dir"
  for threads in 1 2 4; do
    run "${SF[@]}" -c --threads $threads -o "$T/dir.gpg" "$T/dir"
    assert_error "$T/dir: read error: Is a directory"
    [ ! -e "$T/dir.gpg" ]
    run "${SF[@]}" -c --threads $threads -z 1 -o /dev/full "$T/big"
    assert_error "/dev/full: write error: No space left on device"
    # The reader goes away after 100 bytes: a broken pipe.
    rm -f "$T/status"
    { "${SF[@]}" -c --threads $threads -z 6 < "$T/big" 2> "$T/err" || echo $? > "$T/status"; } |
      head -c 100 > /dev/null
    cat "$T/status" "$T/err"
    [ "$(cat "$T/status")" = 2 ]
    [ "$(cat "$T/err")" = "sfenc: stdout: write error: Broken pipe" ]
  done
}

# Peak resident set size in KiB from a /usr/bin/time -v report.
peak_kib () {
  sed -n 's/.*Maximum resident set size (kbytes): //p' "$1"
}

@test "sfenc-threads: 1 GiB through -z 6 and -z 0 at the default thread count stays under 64 MiB" {
  if [ -n "${SFENC_SANITIZER:-}" ]; then
    skip "built with the $SFENC_SANITIZER sanitizer, whose shadow memory makes RSS meaningless"
  fi
  [ -x /usr/bin/time ] || { echo "/usr/bin/time is missing (Debian package 'time')" >&2; return 1; }
  for z in 6 0; do
    head -c 1G /dev/zero |
      /usr/bin/time -v -o "$T/enc.time" "${SF[@]}" -c -z $z |
      /usr/bin/time -v -o "$T/dec.time" "${SF[@]}" -d |
      cmp - <(head -c 1G /dev/zero)
    echo "-z $z peak RSS: encrypt $(peak_kib "$T/enc.time") KiB, decrypt $(peak_kib "$T/dec.time") KiB"
    [ "$(peak_kib "$T/enc.time")" -lt 65536 ]
    [ "$(peak_kib "$T/dec.time")" -lt 65536 ]
  done
}
