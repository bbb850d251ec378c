#!/usr/bin/env bats
# gpg's commands and options for armor, literal data and files (issue
# 41): --enarmor, --dearmor, the armor headers (--comment,
# --emit-version), --no-armor, --ignore-crc-error, --max-output.
# gpg 2.2.40 is the oracle: each test runs gpg on the same input and
# compares.

setup () {
  SFENC=${SFENC:-$BATS_TEST_DIRNAME/../g10/sfenc}
  T=$BATS_TEST_TMPDIR
  export LC_ALL=C
  export GNUPGHOME="$T/gnupg"
  mkdir -p -m 700 "$GNUPGHOME"
  export SFENC_MODULE_DIR="$T/no-modules"
  command -v gpg > /dev/null \
    || skip "NOT TESTED: gpg (GnuPG) is not installed, the oracle of these tests"
  SF=("$SFENC" --batch)
  GPG=(gpg --batch --no-tty -q)
  printf 'hello world\n' > "$T/text"
}

teardown () {
  gpgconf --kill gpg-agent > /dev/null 2>&1 || true
}

# Inputs of the lengths that end the base64 in each of its ways, a
# line and more, and 100000 random bytes (two of sfenc's chunks).
make_inputs () {
  local n
  for n in 0 1 2 3 47 48 49 100000; do
    head -c "$n" /dev/urandom > "$T/in$n"
  done
}

@test "armorfiles: --enarmor writes gpg's bytes, from stdin, a file and to -o" {
  make_inputs
  local f
  for f in "$T"/in*; do
    "${GPG[@]}" --enarmor < "$f" > "$T/gpg.asc"
    "${SF[@]}" --enarmor < "$f" > "$T/sf.asc"
    cmp "$T/gpg.asc" "$T/sf.asc"
  done
  # The block and gpg's comment, as gpg writes them.
  head -n 2 "$T/sf.asc" > "$T/head"
  printf -- '-----BEGIN PGP ARMORED FILE-----\nComment: Use "gpg --dearmor" for unpacking\n' |
    cmp - "$T/head"
  [ "$(tail -n 1 "$T/sf.asc")" = "-----END PGP ARMORED FILE-----" ]
  # FILE gives FILE.asc, as in gpg; -o names the output; --armour too.
  "${SF[@]}" --enarmour "$T/in49"
  "${GPG[@]}" --enarmor -o "$T/gpg49.asc" "$T/in49"
  cmp "$T/gpg49.asc" "$T/in49.asc"
  "${SF[@]}" --enarmor -o "$T/o.asc" "$T/in49"
  cmp "$T/gpg49.asc" "$T/o.asc"
  # An existing output is not replaced without --yes.
  run "${SF[@]}" --enarmor "$T/in49"
  [ "$status" -eq 2 ]
  [ "$output" = "sfenc: $T/in49.asc: file exists (use --yes to overwrite)" ]
}

@test "armorfiles: --dearmor gives back gpg's data, and writes FILE.gpg for FILE" {
  make_inputs
  local f
  for f in "$T"/in*; do
    "${GPG[@]}" --enarmor < "$f" > "$T/gpg.asc"
    "${SF[@]}" --dearmor < "$T/gpg.asc" | cmp - "$f"
  done
  # An encrypted message, the way gpg takes it off.
  "${GPG[@]}" --passphrase pw -c -a -o "$T/msg.asc" "$T/in100000"
  "${GPG[@]}" --dearmor -o "$T/gpg.bin" "$T/msg.asc"
  "${SF[@]}" --dearmour "$T/msg.asc"
  cmp "$T/gpg.bin" "$T/msg.asc.gpg"
  "${SF[@]}" --dearmor -o "$T/o.bin" < "$T/msg.asc"
  cmp "$T/gpg.bin" "$T/o.bin"
}

@test "armorfiles: --dearmor reads the blocks gpg reads, and only those" {
  local kind rc
  printf 'some\ndata\001\377' > "$T/data"
  "${GPG[@]}" --enarmor < "$T/data" > "$T/file.asc"
  for kind in "MESSAGE" "PUBLIC KEY BLOCK" "SIGNATURE" "PRIVATE KEY BLOCK" \
              "SECRET KEY BLOCK" "FOO" "SIGNED MESSAGE" "MESSAGE, PART 1"; do
    sed "1s/ARMORED FILE/$kind/" "$T/file.asc" > "$T/kind.asc"
    rc=0
    "${GPG[@]}" --dearmor < "$T/kind.asc" > "$T/gpg.out" 2> /dev/null || rc=$?
    rm -f "$T/sf.out"
    run "${SF[@]}" --dearmor -o "$T/sf.out" "$T/kind.asc"
    [ "$status" -eq "$rc" ] || { echo "$kind: sfenc $status, gpg $rc"; return 1; }
    if [ "$rc" -eq 0 ]; then
      cmp "$T/data" "$T/sf.out"
      cmp "$T/data" "$T/gpg.out"
    else
      [ "$output" = "sfenc: dearmoring failed: no valid OpenPGP data found" ]
      [ ! -e "$T/sf.out" ]
    fi
  done
  # The decryption reads those blocks too, as gpg's does.
  "${GPG[@]}" --passphrase pw -c -a -o "$T/msg.asc" "$T/text"
  sed 's/PGP MESSAGE/PGP ARMORED FILE/' "$T/msg.asc" > "$T/af.asc"
  "${GPG[@]}" --passphrase pw -d "$T/af.asc" | cmp - "$T/text"
  "${SF[@]}" --passphrase pw -d "$T/af.asc" | cmp - "$T/text"
}

# Run gpg and sfenc --dearmor on $1: both must fail with status 2, and
# sfenc with the one line $2 and no output file.
assert_both_refuse_armor () {
  run "${GPG[@]}" --dearmor -o - "$1"
  [ "$status" -eq 2 ] || { echo "gpg: $status"; return 1; }
  rm -f "$T/out"
  run "${SF[@]}" --dearmor -o "$T/out" "$1"
  [ "$status" -eq 2 ]
  [ "$output" = "$2" ] || { echo "got: $output"; return 1; }
  [ ! -e "$T/out" ]
}

@test "armorfiles: --dearmor passes binary OpenPGP data on as gpg, by its first two bytes" {
  local first second rc
  # Every first byte, with a second byte of a definite length and one
  # of a partial one (new format), after which comes no armor.
  for first in $(seq 128 255); do
    for second in 1 224; do
      printf "$(printf '\\x%02x\\x%02x' "$first" "$second")rest" > "$T/start"
      rc=0
      "${GPG[@]}" --dearmor < "$T/start" > "$T/gpg.out" 2> /dev/null || rc=$?
      run "${SF[@]}" --dearmor -o - "$T/start"
      [ "$status" -eq "$rc" ] || { echo "$first $second: sfenc $status, gpg $rc"; return 1; }
      [ "$rc" -ne 0 ] || cmp "$T/start" "$T/gpg.out"
    done
  done
  "${SF[@]}" --dearmor -o "$T/out" "$T/start"
  cmp "$T/start" "$T/out"
  # A whole message, which gpg passes on too.
  "${GPG[@]}" --passphrase pw -c -o "$T/msg.gpg" "$T/text"
  "${SF[@]}" --dearmor < "$T/msg.gpg" | cmp - "$T/msg.gpg"
  # A single byte is too little to decide: gpg finds no data.
  printf '\xa3' > "$T/one"
  run "${GPG[@]}" --dearmor "$T/one"
  [ "$status" -eq 2 ]
  run "${SF[@]}" --dearmor "$T/one"
  [ "$status" -eq 2 ]
}

@test "armorfiles: --dearmor refuses what is no armor or bad armor, as gpg" {
  head -c 100 /dev/urandom > "$T/bin"
  "${GPG[@]}" --enarmor < "$T/bin" > "$T/good.asc"
  : > "$T/empty"
  assert_both_refuse_armor "$T/empty" \
    "sfenc: dearmoring failed: no valid OpenPGP data found"
  assert_both_refuse_armor "$T/text" \
    "sfenc: dearmoring failed: no valid OpenPGP data found"
  # Binary data that is no OpenPGP packet (tag 0, old format).
  { printf '\x80\x01'; cat "$T/bin"; } > "$T/notpacket"
  assert_both_refuse_armor "$T/notpacket" \
    "sfenc: dearmoring failed: no valid OpenPGP data found"
  # The CRC of other data, reported with both values, as gpg does.
  sed '/^=/c =AAAA' "$T/good.asc" > "$T/crc.asc"
  assert_both_refuse_armor "$T/crc.asc" \
    "sfenc: invalid armor: $("${GPG[@]}" --dearmor -o - "$T/crc.asc" 2>&1 >/dev/null | sed -n 's/^gpg: //p')"
  # Cut after the first base64 line.
  head -n 4 "$T/good.asc" > "$T/cut.asc"
  assert_both_refuse_armor "$T/cut.asc" \
    "sfenc: invalid armor: input truncated before the END line"
  # A character that is no base64.
  sed '4s/^./!/' "$T/good.asc" > "$T/char.asc"
  assert_both_refuse_armor "$T/char.asc" \
    "sfenc: invalid armor: invalid character (0x21) in the armored data"
  # gpg's status line for no armored data.
  run "${SF[@]}" --status-fd 1 --dearmor "$T/text"
  [ "$status" -eq 2 ]
  [ "${lines[0]}" = "[GNUPG:] NODATA 1" ]
  "${GPG[@]}" --status-fd 3 --dearmor "$T/text" 3> "$T/gpg.status" 2> /dev/null \
    && return 1
  grep -qx '\[GNUPG:\] NODATA 1' "$T/gpg.status"
  # A file that cannot be opened: gpg's FAILURE line.
  run "${SF[@]}" --status-fd 1 --enarmor "$T/nonexistent"
  [ "$status" -eq 2 ]
  [ "${lines[0]}" = "[GNUPG:] FAILURE enarmor 33587281" ]
  "${GPG[@]}" --status-fd 3 --enarmor "$T/nonexistent" 3> "$T/gpg.status" 2> /dev/null \
    && return 1
  grep -qx '\[GNUPG:\] FAILURE enarmor 33587281' "$T/gpg.status"
}

@test "armorfiles: --ignore-crc-error takes a bad CRC as a warning, as gpg" {
  head -c 100 /dev/urandom > "$T/bin"
  "${GPG[@]}" --enarmor < "$T/bin" | sed '/^=/c =AAAA' > "$T/crc.asc"
  "${GPG[@]}" --ignore-crc-error --dearmor < "$T/crc.asc" 2> /dev/null | cmp - "$T/bin"
  run "${SF[@]}" --ignore-crc-error --dearmor -o "$T/out" "$T/crc.asc"
  [ "$status" -eq 0 ]
  [[ $output == "sfenc: CRC error; "*" (--ignore-crc-error)" ]]
  cmp "$T/bin" "$T/out"
  # In a message too.
  "${GPG[@]}" --passphrase pw -c -a -o - "$T/text" | sed '/^=/c =AAAA' > "$T/msg.asc"
  run "${SF[@]}" --passphrase pw -d "$T/msg.asc"
  [ "$status" -eq 2 ]
  "${GPG[@]}" --passphrase pw --ignore-crc-error -d "$T/msg.asc" 2> /dev/null | cmp - "$T/text"
  "${SF[@]}" -q --passphrase pw --ignore-crc-error -d "$T/msg.asc" | cmp - "$T/text"
}

@test "armorfiles: --comment, --no-comments and --default-comment write gpg's headers" {
  local args
  for args in "--comment hi" "--comment one --comment two" \
              "--comment a --no-comments --comment b" \
              "--comment a --default-comment" "--comment ''" \
              "--comment a --comment '' --comment b" \
              "--comment $'a\nb\rc\vd\te\001f\303\244'"; do
    eval "\"\${GPG[@]}\" --enarmor $args" < "$T/text" > "$T/gpg.asc" 2> /dev/null
    eval "\"\${SF[@]}\" --enarmor $args" < "$T/text" > "$T/sf.asc" 2> /dev/null
    cmp "$T/gpg.asc" "$T/sf.asc" || { echo "differ with $args"; return 1; }
  done
  # An encrypted message has the same headers as gpg's.
  "${GPG[@]}" --passphrase pw -c -a --comment one --comment two -o - "$T/text" |
    sed -n '1,/^$/p' > "$T/gpg.head"
  "${SF[@]}" --passphrase pw -c -a --comment one --comment two -o - "$T/text" |
    sed -n '1,/^$/p' > "$T/sf.head"
  cmp "$T/gpg.head" "$T/sf.head"
  [ "$(sed -n 2p "$T/sf.head")" = "Comment: one" ]
  # gpg's warning on the deprecated option, in one line.
  run "${SF[@]}" --default-comment --enarmor "$T/text" -o /dev/null
  [ "$status" -eq 0 ]
  [ "$output" = 'sfenc: WARNING: "--default-comment" is a deprecated option; use "--no-comments" instead' ]
}

@test "armorfiles: --emit-version writes a Version: header in gpg's steps, naming sfenc" {
  local n args="" v
  v=$("$SFENC" --version | sed -n 's/^sfenc \([0-9.]*\) .*/\1/p')
  [ -n "$v" ]
  for n in 1 2 3 4 5; do
    args+=" --emit-version"
    "${GPG[@]}" --enarmor $args < "$T/text" > "$T/gpg.asc"
    "${SF[@]}" --enarmor $args < "$T/text" > "$T/sf.asc"
    # Only the Version: line differs from gpg's.
    diff <(sed 2d "$T/gpg.asc") <(sed 2d "$T/sf.asc")
    sed -n 2p "$T/gpg.asc" > "$T/gpg.version"
    sed -n 2p "$T/sf.asc" > "$T/sf.version"
    case $n in
      1) grep -qx 'Version: GnuPG v2' "$T/gpg.version"
         grep -qx "Version: sfenc v${v%%.*}" "$T/sf.version" ;;
      2) grep -qx 'Version: GnuPG v2\.2' "$T/gpg.version"
         grep -qx "Version: sfenc v${v%.*}" "$T/sf.version" ;;
      3) grep -qx 'Version: GnuPG v2\.2\.[0-9]*' "$T/gpg.version"
         grep -qx "Version: sfenc v$v" "$T/sf.version" ;;
      *) grep -qx 'Version: GnuPG v2\.2\.[0-9]* (.*)' "$T/gpg.version"
         grep -qx "Version: sfenc v$v ($(uname -s))" "$T/sf.version" ;;
    esac
  done
  # --no-emit-version and --no-version take it back, as in gpg.
  for args in --no-emit-version --no-version; do
    "${GPG[@]}" --enarmor --emit-version $args < "$T/text" > "$T/gpg.asc"
    "${SF[@]}" --enarmor --emit-version $args < "$T/text" > "$T/sf.asc"
    cmp "$T/gpg.asc" "$T/sf.asc"
  done
  # Version comes before the comments.
  "${SF[@]}" -c -a --passphrase pw --comment c --emit-version -o - "$T/text" |
    sed -n 2,3p > "$T/head"
  printf 'Version: sfenc v%s\nComment: c\n' "${v%%.*}" | cmp - "$T/head"
}

@test "armorfiles: --no-armor takes back -a, as gpg" {
  local prog first
  for prog in gpg sfenc; do
    if [ $prog = gpg ]; then set -- "${GPG[@]}"; else set -- "${SF[@]}"; fi
    "$@" --passphrase pw -c -a --no-armor -o "$T/$prog.1" "$T/text"
    "$@" --passphrase pw -c --no-armour -a -o "$T/$prog.2" "$T/text"
    first=$(head -c 1 "$T/$prog.1" | od -An -tx1)
    [ $((0x${first// /} & 0x80)) -ne 0 ] || { echo "$prog: armored"; return 1; }
    head -n 1 "$T/$prog.2" | grep -qx -- '-----BEGIN PGP MESSAGE-----'
  done
  "${SF[@]}" --passphrase pw -d "$T/gpg.1" | cmp - "$T/text"
}

@test "armorfiles: --max-output stops the plaintext at the limit, as gpg" {
  local n rc
  head -c 100000 /dev/urandom > "$T/big"
  "${GPG[@]}" --passphrase pw -c -o "$T/big.gpg" "$T/big"
  for n in 1000 70000 99999 100000 0; do
    rc=0
    "${GPG[@]}" --passphrase pw --max-output $n -d "$T/big.gpg" \
      > "$T/gpg.out" 2> /dev/null || rc=$?
    run sh -c '"$@" 2>&1 > "$0"' "$T/sf.out" "${SF[@]}" -q --passphrase pw \
      --max-output $n -d "$T/big.gpg"
    [ "$status" -eq "$rc" ] || { echo "$n: sfenc $status, gpg $rc"; return 1; }
    if [ "$rc" -eq 0 ]; then
      cmp "$T/big" "$T/sf.out"
    else
      [ "$output" = "sfenc: stdout: exceeded --max-output limit ($n bytes)" ]
      # No more than the limit, and the start of the plaintext.
      [ "$(wc -c < "$T/sf.out")" -le "$n" ]
      cmp -n "$(wc -c < "$T/sf.out")" "$T/big" "$T/sf.out"
      # An -o file does not appear.
      run "${SF[@]}" -q --passphrase pw --max-output $n -o "$T/o" -d "$T/big.gpg"
      [ "$status" -eq 2 ]
      [ "$output" = "sfenc: $T/o: exceeded --max-output limit ($n bytes)" ]
      [ ! -e "$T/o" ]
    fi
  done
  # Compressed and armored, with the status lines of a failure.
  "${GPG[@]}" --passphrase pw -c -a -z 9 -o "$T/big.asc" "$T/big"
  run "${SF[@]}" -q --passphrase pw --status-fd 3 --max-output 50000 -d "$T/big.asc" 3> "$T/status"
  [ "$status" -eq 2 ]
  grep -qx '\[GNUPG:\] DECRYPTION_FAILED' "$T/status"
  run "${SF[@]}" --max-output 1k -d "$T/big.asc"
  [ "$status" -eq 2 ]
  [ "$output" = "sfenc: --max-output: invalid number '1k'" ] || { echo "$output"; return 1; }
}

# The PLAINTEXT status line gpg writes when it decrypts message $1.
plaintext_line () {
  gpg --batch --no-tty --passphrase pw --status-fd 1 -d "$1" 2> /dev/null |
    grep '^\[GNUPG:\] PLAINTEXT '
}

@test "armorfiles: --faked-system-time, --for-your-eyes-only and --mimemode write gpg's literal data" {
  local args
  for args in "--faked-system-time 20201231T235959!" \
              "--faked-system-time 1609459199!" \
              "--faked-system-time bogus!" \
              "--faked-system-time 1609459199! --for-your-eyes-only --set-filename x" \
              "--faked-system-time 1609459199! --for-your-eyes-only --no-for-your-eyes-only" \
              "--faked-system-time 1609459199! --mimemode" \
              "--faked-system-time 1609459199! --mimemode --no-textmode"; do
    "${GPG[@]}" --passphrase pw $args -c -o "$T/gpg.gpg" "$T/text" 2> /dev/null
    "${SF[@]}" --passphrase pw $args -c -o "$T/sf.gpg" "$T/text" 2> /dev/null
    [ "$(plaintext_line "$T/gpg.gpg")" = "$(plaintext_line "$T/sf.gpg")" ] \
      || { echo "differ with $args"; return 1; }
    rm "$T/gpg.gpg" "$T/sf.gpg"
  done
  # The values, as gpg decodes them.
  "${SF[@]}" --passphrase pw --faked-system-time '20201231T235959!' \
    --for-your-eyes-only --mimemode -c -o "$T/sf.gpg" "$T/text" 2> /dev/null
  [ "$(plaintext_line "$T/sf.gpg")" = "[GNUPG:] PLAINTEXT 74 1609459199 _CONSOLE" ]
  # gpg's warning, in one line; a clock that runs on runs from there.
  run "${SF[@]}" --passphrase pw --faked-system-time 20201231T235959 -c -o "$T/run.gpg" "$T/text"
  [ "$status" -eq 0 ]
  [ "$output" = "sfenc: WARNING: running with faked system time: 2020-12-31 23:59:59" ]
  set -- $(plaintext_line "$T/run.gpg")
  [ "$3" = 62 ] && [ "$5" = text ]
  [ "$4" -ge 1609459199 ] && [ "$4" -lt 1609459299 ]
}
