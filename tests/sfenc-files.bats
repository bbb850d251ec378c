#!/usr/bin/env bats
# gpg's file commands (issue 41): --store, --decrypt-files,
# --encrypt-files, --multifile, --use-embedded-filename, --set-filesize
# and --no-literal.  gpg 2.2.40 is the oracle: each test runs gpg on
# the same input and compares.

load gpg-2-2-40

# The date of every literal packet written here, so that outputs can
# be compared byte for byte.
FAKED="--faked-system-time=20200101T000000!"

setup () {
  SFENC=${SFENC:-$BATS_TEST_DIRNAME/../g10/sfenc}
  T=$BATS_TEST_TMPDIR
  export LC_ALL=C
  export GNUPGHOME="$T/gnupg"
  mkdir -p -m 700 "$GNUPGHOME"
  export SFENC_MODULE_DIR="$T/no-modules"
  need_gpg_2_2_40
  SF=("$SFENC" --batch)
  GPG=(gpg --batch --no-tty -q)
  PASS=(--pinentry-mode loopback --passphrase s --s2k-count 65536)
}

teardown () {
  gpgconf --kill gpg-agent > /dev/null 2>&1 || true
}

# Inputs around gpg's framing: empty, under and over its 512-byte
# least chunk, over its 8 KiB buffer, text of many lines, and random
# bytes of more than one of sfenc's 64 KiB chunks.
make_inputs () {
  : > "$T/in0"
  head -c 100 /dev/urandom > "$T/in100"
  head -c 511 /dev/urandom > "$T/in511"
  head -c 20000 /dev/urandom > "$T/in20000"
  head -c 200000 /dev/urandom > "$T/in200000"
  seq 1 40000 > "$T/text"
  gzip -c "$T/text" > "$T/text.gz"
}

@test "files: --store writes gpg's bytes, from a file and from stdin" {
  make_inputs
  local f args n=0
  for f in "$T"/in* "$T/text" "$T/text.gz"; do
    for args in "" "-z 0" "-a" "-z 1" "-z 9" "--compress-algo zlib" \
                "--compress-algo bzip2" "--set-filename x.y" \
                "--for-your-eyes-only"; do
      rm -f "$T/g" "$T/s"
      # shellcheck disable=SC2086
      "${GPG[@]}" $FAKED $args --store -o "$T/g" "$f"
      # shellcheck disable=SC2086
      "${SF[@]}" $FAKED $args --store -o "$T/s" "$f" 2> /dev/null
      cmp "$T/g" "$T/s" || { echo "file $f, $args"; return 1; }
      rm "$T/g" "$T/s"
      # shellcheck disable=SC2086
      "${GPG[@]}" $FAKED $args --store < "$f" > "$T/g"
      # shellcheck disable=SC2086
      "${SF[@]}" $FAKED $args --store < "$f" > "$T/s" 2> /dev/null
      cmp "$T/g" "$T/s" || { echo "stdin $f, $args"; return 1; }
      n=$((n + 1))
    done
  done
  [ "$n" -eq 63 ]
  # -t on text: gpg's CR LF, and partial lengths for a file too.
  rm "$T/g" "$T/s"
  "${GPG[@]}" $FAKED -t --store -o "$T/g" "$T/text"
  "${SF[@]}" $FAKED -t --store -o "$T/s" "$T/text" 2> /dev/null
  cmp "$T/g" "$T/s"
  # The packets are those gpg lists: a compressed packet of
  # indeterminate length around the literal packet.
  gpg --list-packets "$T/s" > "$T/list"
  grep -q '^# off=0 ctb=a3 tag=8 hlen=1 plen=0 indeterminate$' "$T/list"
  grep -q 'mode t (74), created 1577836800, name="text",' "$T/list"
}

@test "files: --store FILE writes FILE.gpg, FILE.asc with -a, and keeps an existing one" {
  printf 'hello\n' > "$T/p"
  "${SF[@]}" $FAKED --store "$T/p" 2> /dev/null
  "${GPG[@]}" $FAKED --store -o "$T/g.gpg" "$T/p"
  cmp "$T/g.gpg" "$T/p.gpg"
  "${SF[@]}" $FAKED -a --store "$T/p" 2> /dev/null
  "${GPG[@]}" $FAKED -a --store -o "$T/g.asc" "$T/p"
  cmp "$T/g.asc" "$T/p.asc"
  run "${SF[@]}" --store "$T/p"
  [ "$status" -eq 2 ]
  [ "$output" = "sfenc: $T/p.gpg: file exists (use --yes to overwrite)" ]
  cmp "$T/g.gpg" "$T/p.gpg"
}

@test "files: a stored message decrypts both ways, with gpg's status lines and no passphrase" {
  make_inputs
  local args
  for args in "" "-z 0" "-a" "--compress-algo bzip2"; do
    # shellcheck disable=SC2086
    "${SF[@]}" $args --store -o "$T/s" "$T/text" 2> /dev/null
    "${GPG[@]}" --status-fd 3 -d "$T/s" 3> "$T/gst" > "$T/gout"
    cmp "$T/text" "$T/gout"
    # shellcheck disable=SC2086
    "${GPG[@]}" $args --store -o "$T/g" "$T/text"
    "${SF[@]}" --status-fd 3 -d "$T/g" 3> "$T/sst" > "$T/sout"
    cmp "$T/text" "$T/sout"
    "${GPG[@]}" --status-fd 3 -d "$T/g" 3> "$T/gst" > /dev/null
    # PLAINTEXT and PLAINTEXT_LENGTH alone: nothing was decrypted.
    diff "$T/gst" "$T/sst"
    [ "$(wc -l < "$T/sst")" -eq 2 ]
    rm "$T/s" "$T/g"
  done
  # --max-output bounds it as it bounds decrypted data, and gpg's.
  "${GPG[@]}" --store -o "$T/g" "$T/text"
  "${GPG[@]}" --max-output 100 -d "$T/g" > "$T/gout" 2> /dev/null && return 1
  run "${SF[@]}" --max-output 100 -d -o "$T/out" "$T/g"
  [ "$status" -eq 2 ]
  [ "$output" = "sfenc: $T/out: exceeded --max-output limit (100 bytes)" ]
  [ ! -e "$T/out" ] && [ ! -s "$T/gout" ]
  rm "$T/g"
  # A stored message cut short fails, exit status 2.
  "${GPG[@]}" --store -o "$T/g" "$T/text"
  head -c 2000 "$T/g" > "$T/cut"
  run "${SF[@]}" -d -o "$T/out" "$T/cut"
  [ "$status" -eq 2 ]
  [ "$output" = "sfenc: decryption failed: compressed data truncated" ]
  [ ! -e "$T/out" ]
}

# $T/d: a.gpg, b.asc and c.gpg, "a", "b" and "c" encrypted by gpg with
# passphrase "s"; bad.gpg, c.gpg with a bit of its MDC flipped (a bit
# of the compressed data may make gpg's inflate fail, which ends gpg's
# whole run); cut.gpg, its first 30 bytes.
make_messages () {
  mkdir "$T/d"
  local x
  for x in a b c; do
    echo "$x" > "$T/d/$x"
  done
  "${GPG[@]}" "${PASS[@]}" -c "$T/d/a"
  "${GPG[@]}" "${PASS[@]}" -a -c "$T/d/b"
  "${GPG[@]}" "${PASS[@]}" -c "$T/d/c"
  rm "$T/d/a" "$T/d/b" "$T/d/c"
  python3 -c '
import sys
d = bytearray(open(sys.argv[1], "rb").read())
d[-1] ^= 1
open(sys.argv[2], "wb").write(d)' "$T/d/c.gpg" "$T/d/bad.gpg"
  head -c 30 "$T/d/c.gpg" > "$T/d/cut.gpg"
}

# The status lines of --decrypt-files that frame each file, and the
# outcome of each.
file_lines () {
  grep -E '^\[GNUPG:\] (FILE_START|FILE_DONE|PLAINTEXT |DECRYPTION_OKAY|DECRYPTION_FAILED)' "$1"
}

@test "files: --decrypt-files reports each file as gpg, goes on after a failure, exits 2" {
  make_messages
  local names=(a.gpg b.asc bad.gpg cut.gpg missing.gpg c.gpg) x
  cp -r "$T/d" "$T/g"
  (cd "$T/g" && gpg --batch --no-tty "${PASS[@]}" --status-fd 3 \
     --decrypt-files "${names[@]}" 3> "$T/gst" 2> /dev/null) && return 1
  cp -r "$T/d" "$T/s"
  run bash -c 'cd "$1" && shift && "$@"' _ "$T/s" "${SF[@]}" "${PASS[@]}" \
      --status-fd 3 --decrypt-files "${names[@]}" 3> "$T/sst"
  [ "$status" -eq 2 ]
  diff <(file_lines "$T/gst") <(file_lines "$T/sst")
  # The passphrase is asked for once, as gpg's agent keeps it.
  [ "$(grep -c NEED_PASSPHRASE_SYM "$T/sst")" -eq 1 ]
  [ "$(grep -c NEED_PASSPHRASE_SYM "$T/gst")" -eq 1 ]
  # The same files are written, with the same contents, but for the
  # one whose MDC is bad: gpg keeps what it wrote, sfenc's -d never
  # leaves a file that failed its check.
  [ -e "$T/g/bad" ] && [ ! -e "$T/s/bad" ]
  rm "$T/g/bad"
  diff <(cd "$T/g" && ls) <(cd "$T/s" && ls)
  for x in a b c; do
    [ "$(cat "$T/s/$x")" = "$x" ]
  done
  # Each failure has its own line.
  [[ $output == *"sfenc: decryption failed: bad MDC"* ]]
  [[ $output == *"sfenc: decryption failed: input truncated"* ]]
  [[ $output == *"sfenc: missing.gpg: No such file or directory"* ]]
}

@test "files: --decrypt-files reads the names from stdin, strips gpg's suffixes, skips others" {
  make_messages
  cp "$T/d/a.gpg" "$T/d/x.sig"
  cp "$T/d/a.gpg" "$T/d/y.pgp"
  echo plain > "$T/d/plain.txt"
  cd "$T/d"
  run "${SF[@]}" "${PASS[@]}" -d --multifile <<< $'a.gpg\nx.sig\ny.pgp\nplain.txt\nc.gpg'
  [ "$status" -eq 0 ]
  [[ $output == *"sfenc: plain.txt: unknown suffix"* ]]
  [ "$(cat a)" = a ] && [ "$(cat x)" = a ] && [ "$(cat y)" = a ] && [ "$(cat c)" = c ]
  # gpg: a name without a suffix is no failure either.
  gpg --batch --no-tty "${PASS[@]}" --decrypt-files plain.txt 2> /dev/null
  # --progress: each file is counted on its own (a.gpg and c.gpg are
  # of one size).
  run "${SF[@]}" "${PASS[@]}" --yes --progress --decrypt-files a.gpg c.gpg
  [ "$status" -eq 0 ]
  tr -d '\r' <<< "$output" | grep '^sfenc: read ' | sed 's/ in .*//' > "$T/reads"
  [ "$(wc -l < "$T/reads")" -eq 2 ]
  [ "$(sort -u "$T/reads" | wc -l)" -eq 1 ]
  [ "$(head -n 1 "$T/reads")" = "sfenc: read $(stat -c %s a.gpg) B" ]
}

@test "files: --decrypt-files refuses -o and keeps existing files without --yes, as gpg" {
  make_messages
  cd "$T/d"
  run "${SF[@]}" "${PASS[@]}" --status-fd 3 -o out --decrypt-files a.gpg 3> "$T/sst"
  [ "$status" -eq 2 ]
  [ "$output" = "sfenc: --output: does not work for this command" ]
  [ ! -e out ]
  # No status line, as gpg.
  gpg --batch --no-tty "${PASS[@]}" --status-fd 3 -o out --decrypt-files a.gpg \
      3> "$T/gst" 2> /dev/null && return 1
  [ ! -s "$T/gst" ] && [ ! -s "$T/sst" ]
  echo old > a
  run "${SF[@]}" "${PASS[@]}" --decrypt-files a.gpg
  [ "$status" -eq 2 ]
  [ "$(cat a)" = old ]
  gpg --batch --no-tty "${PASS[@]}" --decrypt-files a.gpg 2> /dev/null && return 1
  [ "$(cat a)" = old ]
  "${SF[@]}" "${PASS[@]}" --yes --decrypt-files a.gpg 2> /dev/null
  [ "$(cat a)" = a ]
}

@test "files: --encrypt-files and -c --multifile fail as gpg's do without keys" {
  echo e > "$T/e"
  local cmd
  for cmd in "--encrypt-files" "-r bob --encrypt-files" "-r bob -e --multifile"; do
    # shellcheck disable=SC2086
    gpg --batch --no-tty --status-fd 3 $cmd "$T/e" 3> "$T/gst" 2> /dev/null && return 1
    # shellcheck disable=SC2086
    run "${SF[@]}" --status-fd 3 $cmd "$T/e" 3> "$T/sst"
    [ "$status" -eq 2 ]
    diff "$T/gst" "$T/sst"
  done
  [ ! -e "$T/e.gpg" ]
  gpg --batch --no-tty --status-fd 3 -c --multifile "$T/e" 3> "$T/gst" 2> /dev/null \
    && return 1
  run "${SF[@]}" --status-fd 3 -c --multifile "$T/e" 3> "$T/sst"
  [ "$status" -eq 2 ]
  [ "$output" = "sfenc: --multifile: --symmetric does not yet work with --multifile" ]
  diff "$T/gst" "$T/sst"
  gpg --batch --no-tty --status-fd 3 --encrypt-files -c "$T/e" 3> "$T/gst" 2> /dev/null \
    && return 1
  run "${SF[@]}" --status-fd 3 --encrypt-files -c "$T/e" 3> "$T/sst"
  [ "$status" -eq 2 ]
  [ "$output" = "sfenc: --multifile: --symmetric --encrypt does not yet work with --multifile" ]
  diff "$T/gst" "$T/sst"
  # Without -d or -e, --multifile takes one file, as in gpg.
  gpg --batch --no-tty --multifile "$T/e" "$T/e" 2> /dev/null && return 1
  run "${SF[@]}" --multifile "$T/e" "$T/e"
  [ "$status" -eq 2 ]
  [ "$output" = "sfenc: $T/e: only one input file may be given" ]
}

@test "files: --use-embedded-filename writes to the literal packet's name, as gpg" {
  local n
  mkdir "$T/g" "$T/s"
  for n in emb.txt _CONSOLE; do
    echo data | "${GPG[@]}" "${PASS[@]}" --set-filename "$n" -c > "$T/m-$n.gpg"
    (cd "$T/g" && "${GPG[@]}" "${PASS[@]}" --use-embedded-filename -d "$T/m-$n.gpg" \
       > "$T/g/stdout" 2> /dev/null)
    (cd "$T/s" && "${SF[@]}" "${PASS[@]}" --use-embedded-filename -d "$T/m-$n.gpg" \
       > "$T/s/stdout" 2> /dev/null)
  done
  diff <(cd "$T/g" && ls) <(cd "$T/s" && ls)
  [ "$(cat "$T/s/emb.txt")" = data ]
  # _CONSOLE is for the eyes only: nothing saved, nothing on stdout.
  [ ! -s "$T/s/stdout" ] && [ ! -e "$T/s/_CONSOLE" ]
  # An existing file is kept without --yes; -o wins; the option can be
  # taken back.
  cd "$T/s"
  run "${SF[@]}" "${PASS[@]}" --use-embedded-filename -d "$T/m-emb.txt.gpg"
  [ "$status" -eq 2 ]
  [[ $output == *"sfenc: emb.txt: file exists (use --yes to overwrite)" ]]
  "${SF[@]}" "${PASS[@]}" --use-embedded-filename -o out -d "$T/m-emb.txt.gpg" 2> /dev/null
  [ "$(cat out)" = data ]
  run "${SF[@]}" "${PASS[@]}" --use-embedded-filename --no-use-embedded-filename \
      -d "$T/m-emb.txt.gpg"
  [ "$status" -eq 0 ]
  [[ $output == *data ]]
  # A stored message too, with no passphrase.
  "${GPG[@]}" --store --set-filename stored.txt -o "$T/st.gpg" "$T/m-emb.txt.gpg"
  "${SF[@]}" --use-embedded-filename -d "$T/st.gpg"
  cmp stored.txt "$T/m-emb.txt.gpg"
}

@test "files: --set-filesize and --no-literal write what gpg writes" {
  printf 'hello world\nline2\n' > "$T/p"
  local n grc src
  for n in 5 18 30; do
    "${GPG[@]}" $FAKED -z 0 --set-filesize "$n" --store < "$T/p" > "$T/g" 2> /dev/null \
      && grc=0 || grc=$?
    "${SF[@]}" $FAKED -z 0 --set-filesize "$n" --store < "$T/p" > "$T/s" 2> "$T/err" \
      && src=0 || src=$?
    cmp "$T/g" "$T/s"
    [ "$src" -eq "$grc" ]
  done
  output=$(cat "$T/err")
  # The last run gave 30 for 18 bytes: gpg's check, in sfenc's words.
  [[ $output == *"sfenc: literal data: wrote 18 bytes but expected 30 bytes" ]]
  [[ $output == *"Note: --set-filesize is not for normal use!"* ]]
  # A file has its own size: --set-filesize changes nothing.
  rm "$T/g" "$T/s"
  "${GPG[@]}" $FAKED --set-filesize 5 --store -o "$T/g" "$T/p" 2> /dev/null
  "${SF[@]}" $FAKED --set-filesize 5 --store -o "$T/s" "$T/p" 2> /dev/null
  cmp "$T/g" "$T/s"
  # --no-literal: the bare data, compressed or not.
  for n in "-z 0" "" "-a"; do
    # shellcheck disable=SC2086
    "${GPG[@]}" $n --no-literal --store < "$T/p" > "$T/g" 2> /dev/null
    # shellcheck disable=SC2086
    "${SF[@]}" $n --no-literal --store < "$T/p" > "$T/s" 2> /dev/null
    cmp "$T/g" "$T/s"
  done
  "${SF[@]}" -z 0 --no-literal --store < "$T/p" 2> /dev/null | cmp - "$T/p"
}
