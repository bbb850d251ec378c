#!/usr/bin/env bats
# The restore path (issue 22): with --threads above 1, sfenc -d
# decrypts on one thread and decompresses and writes on another
# (g10/source-thread.c).  Whatever the thread count, every message
# gives the same output and the same status lines, and every bad one
# the same one-line error, exit status 2 and no output file; a failure
# on the output ends the run even while the reading thread waits for
# input that does not come, through either inflate.

load byte-edit

setup () {
  SFENC=${SFENC:-$BATS_TEST_DIRNAME/../g10/sfenc}
  T=$BATS_TEST_TMPDIR
  export GNUPGHOME="$T/gnupg"
  mkdir -p -m 700 "$GNUPGHOME"
  # -q: without the lines of gpg's log that come before an error on
  # -d (tests/sfenc-gpglog.bats); -v, after it, undoes it.
  SF=("$SFENC" --batch -q --passphrase "pass phrase" --s2k-count 65536)
  GPG=(gpg --batch --quiet --no-tty --pinentry-mode loopback
       --passphrase "pass phrase" --s2k-count 65536)
  # Compressible and not: text, then random bytes, then text; several
  # 64 KiB buffers of each, so that both threads have work in flight.
  { seq 1 150000; head -c 600000 /dev/urandom; seq 1 100000; } > "$T/plain"
}

# Stop the gpg-agent a test may have started in its throw-away home.
teardown () {
  gpgconf --kill gpg-agent > /dev/null 2>&1 || true
}

need_gpg () {
  command -v gpg > /dev/null \
    || skip "gpg (GnuPG) is not installed: gpg's messages NOT tested"
}

# Decrypt message $1 with --threads $2, the output to $T/out.$2, the
# status lines to $T/status.$2, stderr to $T/err.$2 and the exit status
# to $T/rc.$2; a run over 60 seconds counts as a hang.
decrypt_with () {
  local rc=0
  timeout 60 "${SF[@]}" --threads "$2" --status-fd 3 -d "$1" \
    > "$T/out.$2" 2> "$T/err.$2" 3> "$T/status.$2" || rc=$?
  echo "$rc" > "$T/rc.$2"
}

# Decrypt message $1 at 1, 2 and 4 threads and assert the same exit
# status, stderr, output bytes and status lines.
assert_same_at_every_thread_count () {
  local threads
  for threads in 1 2 4; do
    decrypt_with "$1" $threads
  done
  for threads in 2 4; do
    echo "$1 at $threads threads: status $(cat "$T/rc.$threads"): $(cat "$T/err.$threads")"
    cmp "$T/rc.1" "$T/rc.$threads"
    cmp "$T/err.1" "$T/err.$threads"
    cmp "$T/out.1" "$T/out.$threads"
    cmp "$T/status.1" "$T/status.$threads"
  done
}

@test "sfenc-restore: every kind of message decrypts the same at 1, 2 and 4 threads" {
  local kind
  need_gpg
  "${GPG[@]}" -c -o "$T/gpg-zip" "$T/plain"
  "${GPG[@]}" -c --compress-algo zlib -o "$T/gpg-zlib" "$T/plain"
  "${GPG[@]}" -c --compress-algo bzip2 -o "$T/gpg-bzip2" "$T/plain"
  "${GPG[@]}" -c -z 0 -o "$T/gpg-none" "$T/plain"
  "${GPG[@]}" -c -a -o "$T/gpg-armor" "$T/plain"
  "${SF[@]}" -c -o "$T/sfenc-zip" "$T/plain"
  "${SF[@]}" -c --aead-algo OCB -o "$T/sfenc-ocb" "$T/plain"
  "${SF[@]}" -c --aead-algo EAX --chunk-size 6 -o "$T/sfenc-eax" "$T/plain"
  "${SF[@]}" -c --aead-algo GCM -z 0 -o "$T/sfenc-gcm" "$T/plain"
  "${SF[@]}" -c --aead-algo OCB --aead-format librepgp -o "$T/sfenc-librepgp" "$T/plain"
  for kind in gpg-zip gpg-zlib gpg-bzip2 gpg-none gpg-armor \
              sfenc-zip sfenc-ocb sfenc-eax sfenc-gcm sfenc-librepgp; do
    assert_same_at_every_thread_count "$T/$kind"
    [ "$(cat "$T/rc.2")" = 0 ]
    cmp "$T/plain" "$T/out.2"
    grep -q '^\[GNUPG:\] DECRYPTION_OKAY' "$T/status.2"
  done
}

@test "sfenc-restore: every damaged message fails the same at 1, 2 and 4 threads" {
  local kind size at
  "${SF[@]}" -c -o "$T/zip" "$T/plain"
  "${SF[@]}" -c -z 0 -o "$T/none" "$T/plain"
  "${SF[@]}" -c --aead-algo OCB --chunk-size 6 -o "$T/ocb" "$T/plain"
  for kind in zip none ocb; do
    size=$(stat -c %s "$T/$kind")
    for at in 40 200 70000 $((size / 2)) $((size - 30)) $((size - 3)); do
      cp "$T/$kind" "$T/bad"
      flip_byte "$T/bad" "$at" 4
      assert_same_at_every_thread_count "$T/bad"
      [ "$(cat "$T/rc.2")" = 2 ]
      [ "$(wc -l < "$T/err.2")" = 1 ]
    done
    for at in 100 70000 $((size / 2)) $((size - 22)) $((size - 1)); do
      head -c "$at" "$T/$kind" > "$T/bad"
      assert_same_at_every_thread_count "$T/bad"
      [ "$(cat "$T/rc.2")" = 2 ]
      grep -q 'truncated' "$T/err.2"
      run timeout 60 "${SF[@]}" --threads 2 -d -o "$T/file" "$T/bad"
      [ "$status" -eq 2 ]
      [ ! -e "$T/file" ]
    done
  done
}

@test "sfenc-restore: bad deflate data under a good MDC is reported as such at every thread count" {
  need_gpg
  # A literal packet deflated by gpg (a compressed packet of
  # indeterminate length), cut in the middle of the deflate stream, and
  # encrypted as it is: the MDC is good, so the error is the
  # inflater's, found after both threads have run ahead.
  "${GPG[@]}" --store -z 0 < "$T/plain" > "$T/literal"
  "${GPG[@]}" --store --no-literal --compress-algo zip < "$T/literal" > "$T/zip"
  head -c $(( $(stat -c %s "$T/zip") / 2 )) "$T/zip" > "$T/cut"
  "${GPG[@]}" -c -z 0 --no-literal -o "$T/bad" < "$T/cut" 2> /dev/null
  assert_same_at_every_thread_count "$T/bad"
  [ "$(cat "$T/rc.2")" = 2 ]
  [ "$(cat "$T/err.2")" = "sfenc: decryption failed: compressed data truncated" ]
  grep -q '^\[GNUPG:\] DECRYPTION_FAILED' "$T/status.2"
}

# Assert that an output error ends sfenc -d $@ while the input pipe
# stays open, at 1 and 2 threads.
output_error_ends_run () {
  if [ "${SFENC_SANITIZER:-}" = address ]; then
    # The reading thread is cancelled in read(2); ASan leaves the
    # poison of the unwound frames behind and then reports its own
    # sigaltstack call at the thread's exit (google/sanitizers#1399).
    skip "NOT TESTED under AddressSanitizer: it reports a cancelled thread's exit (a known false positive)"
  fi
  local writer start elapsed threads size
  head -c 3000000 /dev/urandom > "$T/big"
  "${SF[@]}" -c -z 1 -o "$T/msg" "$T/big"
  # The output fails after 500 KiB (a file size limit), so that the
  # reading thread, which starts after the first 256 KiB, is running:
  # with 1 MB of the message it then waits in read(2) for the rest;
  # the whole message fills its buffers first.
  for size in 1000000 3000000; do
    for threads in 1 2; do
      # The start of the message, then a writer that keeps the pipe
      # open for 50 s.
      rm -f "$T/fifo"
      mkfifo "$T/fifo"
      { head -c $size "$T/msg"; sleep 50; } > "$T/fifo" &
      writer=$!
      start=$SECONDS
      run bash -c 'ulimit -f 500; exec "$@"' limit timeout 40 "${SF[@]}" "$@" \
        --threads $threads -d -o "$T/out" < "$T/fifo"
      elapsed=$((SECONDS - start))
      pkill -P "$writer" 2> /dev/null || true
      kill "$writer" 2> /dev/null || true
      wait "$writer" 2> /dev/null || true
      echo "$size bytes, $threads threads: status $status after ${elapsed}s: $output"
      [ "$status" -eq 2 ]
      [ "$output" = "sfenc: $T/out: write error: File too large" ]
      [ ! -e "$T/out" ]
      [ "$elapsed" -lt 20 ]
    done
  done
}

@test "sfenc-restore: an output error ends the run while the input pipe stays open" {
  output_error_ends_run
}

@test "sfenc-restore: the same through zlib's inflate" {
  output_error_ends_run --inflate-impl zlib
}

@test "sfenc-restore: -v says whether decryption runs on a thread of its own" {
  "${SF[@]}" -c -o "$T/msg" "$T/plain"
  "${SF[@]}" -v --threads 2 -d -o /dev/null "$T/msg" 2> "$T/err"
  grep -qx 'sfenc: decrypting on a second thread' "$T/err"
  "${SF[@]}" -v --threads 1 -d -o /dev/null "$T/msg" 2> "$T/err"
  ! grep -q 'second thread' "$T/err"
}

@test "sfenc-restore: --progress and its status lines come from the reading thread, -v from the other" {
  # Under ThreadSanitizer this is the test of the meter's lock: the
  # thread that reads updates it while the other logs.
  head -c 30000000 /dev/urandom > "$T/random"
  "${SF[@]}" -c -o "$T/msg" "$T/random"
  "${SF[@]}" -v --progress --enable-progress-filter --status-fd 3 \
    --threads 2 -d -o "$T/out" "$T/msg" 2> "$T/err" 3> "$T/status"
  cmp "$T/random" "$T/out"
  grep -q 'sfenc: read [0-9.]* MiB in [0-9.]* s' "$T/err"
  grep -qx 'sfenc: decrypting on a second thread' "$T/err"
  grep -q '^\[GNUPG:\] PROGRESS ' "$T/status"
  grep -q '^\[GNUPG:\] DECRYPTION_OKAY' "$T/status"
}
