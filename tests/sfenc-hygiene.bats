#!/usr/bin/env bats
# Process and file hygiene (issue 15): output file modes, what a signal
# leaves behind, core dumps, closed standard descriptors, SIGPIPE, and
# the passphrase rules gpg has (no empty passphrase for -c, a CR before
# the line end kept, long passphrases).

load byte-edit

setup () {
  SFENC=${SFENC:-$BATS_TEST_DIRNAME/../g10/sfenc}
  T=$BATS_TEST_TMPDIR
  export GNUPGHOME="$T/gnupg"
  mkdir -p -m 700 "$GNUPGHOME"
  # -q: without the lines of gpg's log that come before an error on
  # -d (tests/sfenc-gpglog.bats).
  SF=("$SFENC" --batch -q --passphrase secret --s2k-count 65536)
  GPG=(gpg --batch --quiet --pinentry-mode loopback --s2k-count 65536)
  head -c 3000000 /dev/urandom > "$T/plain"
  "${SF[@]}" -c -z 0 < "$T/plain" > "$T/msg"
  mkdir "$T/out"
  umask 022
}

teardown () {
  gpgconf --kill gpg-agent > /dev/null 2>&1 || true
}

# The files in the output directory, one line each, dot files too.
out_dir_listing () {
  ls -A "$T/out"
}

# Start sfenc -d writing to $T/out/file from a FIFO that delivers only
# the first 100000 bytes of the message and then stays open, so that
# sfenc is stuck mid-stream with a partial output; its pid goes to
# SFENC_PID.  The output file must not be visible yet.
start_stuck_decryption () {
  if [ -n "${SFENC_MEMCHECK:-}" ]; then
    skip "sfenc under valgrind (make check-memcheck) starts too slowly for the 5 s this test waits"
  fi
  mkfifo "$T/fifo"
  { head -c 100000 "$T/msg"; sleep 30; } > "$T/fifo" &
  WRITER_PID=$!
  "${SF[@]}" -d -o "$T/out/file" "$T/fifo" 2> "$T/stderr" &
  SFENC_PID=$!
  # Wait until sfenc has read the first part and created its output.
  for _ in $(seq 50); do
    [ -e "/proc/$SFENC_PID/fd" ] || break
    if ls -l "/proc/$SFENC_PID/fd" 2> /dev/null | grep -q "$T/out/"; then
      return 0
    fi
    sleep 0.1
  done
  echo "sfenc did not open its output" >&2
  return 1
}

stop_writer () {
  kill "$WRITER_PID" 2> /dev/null || true
  wait "$WRITER_PID" 2> /dev/null || true
}

@test "sfenc-hygiene: --yes keeps the mode of a private file it replaces" {
  echo "old" > "$T/out/secret.txt"
  chmod 600 "$T/out/secret.txt"
  "${SF[@]}" -d --yes -o "$T/out/secret.txt" "$T/msg"
  cmp "$T/plain" "$T/out/secret.txt"
  [ "$(stat -c %a "$T/out/secret.txt")" = 600 ]
  chmod 640 "$T/out/secret.txt"
  "${SF[@]}" -d --yes -o "$T/out/secret.txt" "$T/msg"
  [ "$(stat -c %a "$T/out/secret.txt")" = 640 ]
}

@test "sfenc-hygiene: a new output file gets the mode creat gives it" {
  "${SF[@]}" -d -o "$T/out/new" "$T/msg"
  [ "$(stat -c %a "$T/out/new")" = 644 ]
  (umask 077; "${SF[@]}" -d -o "$T/out/new2" "$T/msg")
  [ "$(stat -c %a "$T/out/new2")" = 600 ]
}

@test "sfenc-hygiene: --yes replaces the file, other hard links keep the old contents" {
  # As documented in sfenc(1): the output is a new file put in place.
  echo "old" > "$T/out/file"
  ln "$T/out/file" "$T/out/link"
  "${SF[@]}" -d --yes -o "$T/out/file" "$T/msg"
  cmp "$T/plain" "$T/out/file"
  [ "$(cat "$T/out/link")" = old ]
}

@test "sfenc-hygiene: SIGKILL mid-stream leaves no file at all" {
  start_stuck_decryption
  [ -z "$(out_dir_listing)" ]
  kill -KILL "$SFENC_PID"
  wait "$SFENC_PID" || true
  stop_writer
  echo "left: $(out_dir_listing)"
  [ -z "$(out_dir_listing)" ]
}

@test "sfenc-hygiene: SIGQUIT, SIGUSR1 and SIGALRM mid-stream leave no file and no core" {
  for sig in QUIT USR1 ALRM; do
    rm -f "$T/fifo"
    start_stuck_decryption
    kill -"$sig" "$SFENC_PID"
    wait "$SFENC_PID" || true
    stop_writer
    echo "$sig left: $(out_dir_listing)"
    [ -z "$(out_dir_listing)" ]
  done
  [ ! -e core ] && [ ! -e "$T/out/core" ]
}

@test "sfenc-hygiene: core dumps are disabled once running" {
  start_stuck_decryption
  limit=$(awk '/^Max core file size/ { print $5, $6 }' "/proc/$SFENC_PID/limits")
  kill -TERM "$SFENC_PID"
  wait "$SFENC_PID" || true
  stop_writer
  echo "limit: $limit"
  [ "$limit" = "0 0" ]
}

@test "sfenc-hygiene: the file size limit is a write error, not a kill" {
  run bash -c 'ulimit -f 1000; exec "$@"' _ "${SF[@]}" -d -o "$T/out/file" "$T/msg"
  echo "status=$status output=$output"
  [ "$status" -eq 2 ]
  [ "$output" = "sfenc: $T/out/file: write error: File too large" ]
  [ -z "$(out_dir_listing)" ]
}

@test "sfenc-hygiene: with stderr closed no diagnostic goes into the output file" {
  # A modified message decrypted with --ignore-mdc-error warns on
  # stderr, after gpg's log lines and, with -v (which undoes SF's -q),
  # sfenc's; stderr closed, none of them may land in the output.
  cp "$T/msg" "$T/bad"
  flip_byte "$T/bad" 200000 1
  "${SF[@]}" -v -d --ignore-mdc-error -o "$T/out/file" < "$T/bad" 2>&-
  [ "$(stat -c %s "$T/out/file")" -eq 3000000 ]
  run grep -c "sfenc:\|gpg:" "$T/out/file"
  [ "$output" = 0 ]
}

@test "sfenc-hygiene: a reader that goes away is one line and status 2, not SIGPIPE" {
  run bash -c '"$@" | head -c 10 > /dev/null; exit "${PIPESTATUS[0]}"' _ \
    "${SF[@]}" -d "$T/msg"
  echo "status=$status output=$output"
  [ "$status" -eq 2 ]
  [ "$output" = "sfenc: stdout: write error: Broken pipe" ]
}

@test "sfenc-hygiene: -o into a symlink to a device writes in place" {
  ln -s /dev/null "$T/out/sink"
  "${SF[@]}" -d -o "$T/out/sink" "$T/msg"
  [ -L "$T/out/sink" ]
  [ "$(out_dir_listing)" = sink ]
}

@test "sfenc-hygiene: an empty passphrase is refused for -c, in every way it can come" {
  want="sfenc: passphrase: an empty passphrase cannot protect a message"
  run "$SFENC" --batch --passphrase '' -c -o "$T/out/m" "$T/plain"
  [ "$status" -eq 2 ] && [ "$output" = "$want" ]
  run bash -c ': | "$@"' _ "$SFENC" --batch --passphrase-fd 0 -c -o "$T/out/m" "$T/plain"
  [ "$status" -eq 2 ] && [ "$output" = "$want" ]
  : > "$T/empty"
  run "$SFENC" --batch --passphrase-file "$T/empty" -c -o "$T/out/m" "$T/plain"
  [ "$status" -eq 2 ] && [ "$output" = "$want" ]
  [ -z "$(out_dir_listing)" ]
}

@test "sfenc-hygiene: Enter twice at the terminal is refused for -c" {
  command -v script > /dev/null || skip "NOT TESTED: script(1) is missing"
  run bash -c 'printf "\n\n" | script -qec "$1 -c -o $2 $3" /dev/null' _ \
    "$SFENC" "$T/out/m" "$T/plain"
  echo "status=$status output=$output"
  [ "$status" -eq 2 ]
  [[ "$output" == *"sfenc: passphrase: an empty passphrase cannot protect a message"* ]]
  [ -z "$(out_dir_listing)" ]
}

@test "sfenc-hygiene: a CR before the line end belongs to the passphrase, as in gpg" {
  printf 'pass\r\n' > "$T/crlf"
  printf 'pass\n' > "$T/lf"
  "${GPG[@]}" --passphrase-file "$T/crlf" -c < "$T/plain" > "$T/gmsg"
  "$SFENC" --batch --passphrase-file "$T/crlf" -d "$T/gmsg" > "$T/got"
  cmp "$T/plain" "$T/got"
  run "$SFENC" --batch -q --passphrase-file "$T/lf" -d "$T/gmsg"
  [ "$status" -eq 2 ]
  [ "$output" = "sfenc: decryption failed: wrong passphrase (Bad session key)" ]
}

@test "sfenc-hygiene: a 1500-byte and a 16 KiB passphrase work both ways with gpg" {
  for n in 1500 16384; do
    head -c $((n * 2)) /dev/urandom | base64 -w0 | head -c "$n" > "$T/pass"
    "${GPG[@]}" --passphrase-file "$T/pass" -c < "$T/plain" > "$T/gmsg"
    "$SFENC" --batch --passphrase-file "$T/pass" -d "$T/gmsg" > "$T/got"
    cmp "$T/plain" "$T/got"
    "$SFENC" --batch --passphrase-file "$T/pass" --s2k-count 65536 -c \
      < "$T/plain" > "$T/smsg"
    "${GPG[@]}" --passphrase-file "$T/pass" -d "$T/smsg" > "$T/got"
    cmp "$T/plain" "$T/got"
  done
}

@test "sfenc-hygiene: a passphrase over the documented limit is one line" {
  head -c 65537 /dev/zero | tr '\0' a > "$T/pass"
  run "$SFENC" --batch -q --passphrase-file "$T/pass" -d "$T/msg"
  [ "$status" -eq 2 ]
  [ "$output" = "sfenc: $T/pass: passphrase longer than 65536 bytes" ]
  head -c 65536 /dev/zero | tr '\0' a > "$T/pass"
  run "$SFENC" --batch -q --passphrase-file "$T/pass" -d "$T/msg"
  [ "$output" = "sfenc: decryption failed: wrong passphrase (Bad session key)" ]
}

@test "sfenc-hygiene: a device path swapped for a file is not written into in place" {
  # sfenc decides on what it opened, not on an earlier stat: strace
  # holds every system call on the path for 1.5 s, and meanwhile the
  # symlink to a device is pointed at a regular file.
  command -v strace > /dev/null || skip "NOT TESTED: strace is missing"
  strace -o /dev/null true 2> /dev/null || skip "NOT TESTED: strace cannot trace here"
  echo "victim contents" > "$T/out/victim"
  ln -s /dev/zero "$T/out/path"
  { sleep 0.5; ln -sfn victim "$T/out/path"; } &
  # LeakSanitizer cannot run under ptrace: it stops with a fatal error.
  ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
    strace -f -o /dev/null -P "$T/out/path" -e inject=all:delay_exit=1500000 \
      "${SF[@]}" -d --yes -o "$T/out/path" "$T/msg" < /dev/null 2> /dev/null
  wait
  [ "$(cat "$T/out/victim")" = "victim contents" ]
}
