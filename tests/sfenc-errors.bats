#!/usr/bin/env bats
# Every bad input of issue 4 gets one line "sfenc: <what>: <why>" on
# stderr and exit status 2, never a crash or a hang; -o FILE is never
# overwritten without --yes and never left holding unauthenticated
# plaintext.

load byte-edit

setup () {
  SFENC=${SFENC:-$BATS_TEST_DIRNAME/../g10/sfenc}
  T=$BATS_TEST_TMPDIR
  export GNUPGHOME="$T/gnupg"
  mkdir -p -m 700 "$GNUPGHOME"
  SF=("$SFENC" --batch --passphrase secret --s2k-count 65536)
  head -c 200000 /dev/urandom > "$T/plain"
  "${SF[@]}" -c -z 0 < "$T/plain" > "$T/msg"
}

# Run sfenc with a time limit, so a hang fails instead of blocking.
# -q: without the lines of gpg's log that come before an error on -d
# (tests/sfenc-gpglog.bats); the tests here read sfenc's own line.
sfenc () {
  timeout 60 "$SFENC" -q "$@"
}

# As sfenc, with the standard output going to file $1.
sfenc_to_file () {
  local out=$1
  shift
  timeout 60 "$SFENC" -q "$@" > "$out"
}

# Assert a failed run: status 2 and exactly the one line $1.
assert_error () {
  echo "status=$status"
  echo "output=$output"
  [ "$status" -eq 2 ]
  [ "${#lines[@]}" -eq 1 ]
  [ "$output" = "$1" ]
}



# Stop the gpg-agent a test may have started in its throw-away home.
teardown () {
  gpgconf --kill gpg-agent > /dev/null 2>&1 || true
}

@test "sfenc-errors: wrong passphrase is reported as such" {
  run sfenc -d --batch --passphrase wrong "$T/msg"
  assert_error "sfenc: decryption failed: wrong passphrase (Bad session key)"
}

@test "sfenc-errors: wrong passphrase on a gpg-made message" {
  command -v gpg > /dev/null || { echo "gpg is not installed" >&2; return 1; }
  gpg --batch --quiet --pinentry-mode loopback --passphrase secret -c \
    < "$T/plain" > "$T/gmsg"
  run sfenc -d --batch --passphrase wrong "$T/gmsg"
  assert_error "sfenc: decryption failed: wrong passphrase (Bad session key)"
}

@test "sfenc-errors: tampered ciphertext fails the MDC, to stdout" {
  flip_byte "$T/msg" 100000 1
  run sfenc_to_file "$T/stdout" -d --batch --passphrase secret "$T/msg"
  assert_error "sfenc: decryption failed: bad MDC: the message was modified; do not trust the plaintext already written"
  # The plaintext before the MDC went out, as it must in a stream.
  [ "$(stat -c %s "$T/stdout")" -eq 200000 ]
}

@test "sfenc-errors: tampered ciphertext with -o leaves no file behind" {
  flip_byte "$T/msg" 100000 1
  run sfenc -d --batch --passphrase secret -o "$T/out" "$T/msg"
  assert_error "sfenc: decryption failed: bad MDC: the message was modified; no output written"
  [ ! -e "$T/out" ]
  [ -z "$(ls "$T" | grep '^out')" ]
}

@test "sfenc-errors: tampered packet headers inside the encryption fail the MDC" {
  # Byte 40 is inside the encrypted literal packet header.
  flip_byte "$T/msg" 40 128
  run sfenc -d --batch --passphrase secret -o "$T/out" "$T/msg"
  assert_error "sfenc: decryption failed: bad MDC: the message was modified; no output written"
  [ ! -e "$T/out" ]
}

@test "sfenc-errors: tampered MDC packet itself" {
  local size
  size=$(stat -c %s "$T/msg")
  flip_byte "$T/msg" $((size - 3)) 4
  run sfenc -d --batch --passphrase secret -o "$T/out" "$T/msg"
  assert_error "sfenc: decryption failed: bad MDC: the message was modified; no output written"
}

@test "sfenc-errors: truncated input, at every kind of place" {
  local size cut
  size=$(stat -c %s "$T/msg")
  for cut in 1 2 5 14 15 16 17 20 36 37 100 65540 65541 100000 $((size - 22)) $((size - 1)); do
    head -c "$cut" "$T/msg" > "$T/cut"
    run sfenc -d --batch --passphrase secret -o "$T/out" "$T/cut"
    echo "cut at $cut: $output"
    [ "$status" -eq 2 ]
    [ "${#lines[@]}" -eq 1 ]
    [[ "$output" == "sfenc: decryption failed: "*"truncated"* ]]
    [ ! -e "$T/out" ]
  done
}

@test "sfenc-errors: truncated armored input" {
  "${SF[@]}" -c -a < "$T/plain" > "$T/msg.asc"
  head -n 20 "$T/msg.asc" > "$T/cut.asc"
  run sfenc -d --batch --passphrase secret "$T/cut.asc"
  [ "$status" -eq 2 ]
  [ "${#lines[@]}" -eq 1 ]
  [[ "$output" == "sfenc: "*"truncated"* ]]
}

@test "sfenc-errors: armor with a bad CRC" {
  "${SF[@]}" -c -a < "$T/plain" > "$T/msg.asc"
  # Change one character of the CRC line ("=" and four characters).
  awk '/^=....$/ { c = substr($0, 2, 1); $0 = "=" (c == "A" ? "B" : "A") substr($0, 3) } { print }' \
    "$T/msg.asc" > "$T/bad.asc"
  cmp -s "$T/msg.asc" "$T/bad.asc" && return 1
  run sfenc -d --batch --passphrase secret -o "$T/out" "$T/bad.asc"
  echo "$output"
  [ "$status" -eq 2 ]
  [ "${#lines[@]}" -eq 1 ]
  [[ "$output" == "sfenc: invalid armor: CRC error; "* ]]
  [ ! -e "$T/out" ]
}

@test "sfenc-errors: armor with changed data" {
  "${SF[@]}" -c -a < "$T/plain" > "$T/msg.asc"
  awk 'NR == 5 { c = substr($0, 1, 1); $0 = (c == "A" ? "B" : "A") substr($0, 2) } { print }' \
    "$T/msg.asc" > "$T/bad.asc"
  run sfenc -d --batch --passphrase secret -o "$T/out" "$T/bad.asc"
  echo "$output"
  [ "$status" -eq 2 ]
  [ "${#lines[@]}" -eq 1 ]
  [[ "$output" == "sfenc: "* ]]
  [ ! -e "$T/out" ]
}

@test "sfenc-errors: armor with a bad character" {
  "${SF[@]}" -c -a < "$T/plain" > "$T/msg.asc"
  sed -i '5s/^./*/' "$T/msg.asc"
  run sfenc -d --batch --passphrase secret "$T/msg.asc"
  assert_error "sfenc: invalid armor: invalid character (0x2a) in the armored data"
}

@test "sfenc-errors: binary garbage" {
  # A byte with the high bit set, then random bytes: looks like a
  # packet header, is not one sfenc can use.
  printf '\377' > "$T/garbage"
  head -c 10000 /dev/urandom >> "$T/garbage"
  run sfenc -d --batch --passphrase secret "$T/garbage"
  echo "$output"
  [ "$status" -eq 2 ]
  [ "${#lines[@]}" -eq 1 ]
  [[ "$output" == "sfenc: decryption failed: "* ]]
}

# Random bytes are refused, except the few that happen to be a message
# without encryption (gpg --store's form; about 1 input in 300 starts
# with an old-format literal packet header such as 0xaf).  Those are
# decrypted as gpg decrypts them: gpg is the oracle there.
@test "sfenc-errors: random garbage of many kinds never crashes" {
  command -v gpg > /dev/null || { echo "gpg is not installed" >&2; return 1; }
  local i
  for i in $(seq 1 40); do
    head -c $((i * 37)) /dev/urandom > "$T/garbage"
    run sfenc_to_file "$T/out" -d --batch --passphrase secret "$T/garbage"
    if [ "$status" -eq 0 ]; then
      gpg --batch --quiet --passphrase secret -d "$T/garbage" > "$T/gpg.out"
      cmp "$T/out" "$T/gpg.out"
      continue
    fi
    [ "$status" -eq 2 ]
    [ "${#lines[@]}" -eq 1 ]
    [[ "$output" == "sfenc: "* ]]
  done
  # The accepted kind, made on purpose so that this branch always runs.
  printf '\257' > "$T/garbage"
  head -c 400 /dev/urandom >> "$T/garbage"
  run sfenc_to_file "$T/out" -d --batch --passphrase secret "$T/garbage"
  [ "$status" -eq 0 ]
  gpg --batch --quiet --passphrase secret -d "$T/garbage" > "$T/gpg.out"
  cmp "$T/out" "$T/gpg.out"
}

@test "sfenc-errors: text garbage" {
  run sfenc -d --batch --passphrase secret <<< "this is not an OpenPGP message"
  assert_error "sfenc: decryption failed: no OpenPGP data found"
}

@test "sfenc-errors: empty input to -d" {
  run sfenc -d --batch --passphrase secret < /dev/null
  assert_error "sfenc: decryption failed: no OpenPGP data found: the input is empty"
}

@test "sfenc-errors: a packet length larger than the input" {
  # The SEIPD header (offset 15) gets a 5-octet length of 2^31 - 1.
  head -c 15 "$T/msg" > "$T/long"
  printf '\322\377\177\377\377\377' >> "$T/long"
  tail -c +18 "$T/msg" | head -c 1000 >> "$T/long"
  run sfenc -d --batch --passphrase secret "$T/long"
  assert_error "sfenc: decryption failed: input truncated (2147482647 more bytes expected in this packet)"
}

@test "sfenc-errors: an SKESK packet with an absurd length" {
  printf '\303\377\177\377\377\377\004\011\003\002' > "$T/skesk"
  run sfenc -d --batch --passphrase secret "$T/skesk"
  assert_error "sfenc: decryption failed: invalid SKESK packet (length 2147483647)"
}

@test "sfenc-errors: unknown cipher algorithm in a message" {
  set_byte "$T/msg" 3 99
  run sfenc -d --batch --passphrase secret "$T/msg"
  assert_error "sfenc: decryption failed: unknown cipher algorithm 99"
}

@test "sfenc-errors: unknown S2K hash in a message" {
  set_byte "$T/msg" 5 77
  run sfenc -d --batch --passphrase secret "$T/msg"
  assert_error "sfenc: decryption failed: unknown S2K digest algorithm 77"
}

@test "sfenc-errors: unknown cipher algorithm option" {
  run sfenc -c --batch --passphrase secret --cipher-algo NOSUCH < "$T/plain"
  assert_error "sfenc: --cipher-algo: unknown cipher algorithm 'NOSUCH' (see --list-ciphers)"
}

@test "sfenc-errors: unknown cipher implementation" {
  run sfenc -c --batch --passphrase secret --cipher-impl nosuch < "$T/plain"
  assert_error "sfenc: --cipher-impl: no implementation 'nosuch' of AES256 (see --list-ciphers)"
}

@test "sfenc-errors: unknown hash algorithm options" {
  run sfenc -c --batch --passphrase secret --s2k-digest-algo SHA3 < "$T/plain"
  assert_error "sfenc: --s2k-digest-algo: unknown digest algorithm 'SHA3' (MD5, SHA1, RIPEMD160, SHA224, SHA256, SHA384, SHA512)"
  run sfenc -c --batch --passphrase secret --digest-algo WHIRLPOOL < "$T/plain"
  assert_error "sfenc: --digest-algo: unknown digest algorithm 'WHIRLPOOL' (MD5, SHA1, RIPEMD160, SHA224, SHA256, SHA384, SHA512)"
}

@test "sfenc-errors: unknown compression algorithm option" {
  run sfenc -c --batch --passphrase secret --compress-algo lzma < "$T/plain"
  assert_error "sfenc: --compress-algo: unknown compression algorithm 'lzma' (none, zip, zlib, bzip2)"
}

@test "sfenc-errors: unknown option" {
  run sfenc --frobnicate
  assert_error "sfenc: --frobnicate: unknown option (see --help)"
  run sfenc -Q
  assert_error "sfenc: -Q: unknown option (see --help)"
}

@test "sfenc-errors: bad option values" {
  run sfenc -c --s2k-mode 2
  assert_error "sfenc: --s2k-mode: S2K mode 2 is reserved (use 0, 1, 3 or argon2)"
  run sfenc -c --s2k-mode x
  assert_error "sfenc: --s2k-mode: invalid number 'x'"
  run sfenc -c -z 10
  assert_error "sfenc: -z: 10 is out of range (0..9)"
  run sfenc -c --s2k-count 100
  assert_error "sfenc: --s2k-count: 100 is out of range (1024..65011712)"
  run sfenc -c --cipher-algo
  assert_error "sfenc: --cipher-algo: missing argument NAME"
  run sfenc -c -d
  assert_error "sfenc: -d: conflicting commands (-c and -d)"
  run sfenc -d a b
  assert_error "sfenc: b: only one input file may be given"
}

@test "sfenc-errors: names and values with control characters stay on one line" {
  # Whoever names a file must not add a line of their choosing.
  run sfenc -d "$(printf 'no\nsfenc: decryption okay')"
  assert_error 'sfenc: no\nsfenc: decryption okay: No such file or directory'
  run sfenc -d --batch --passphrase-file "$(printf 'pass\r\033[2Kfile')" "$T/msg"
  assert_error 'sfenc: pass\r\x1b[2Kfile: No such file or directory'
  run sfenc -c --cipher-algo "$(printf 'AES\nsfenc: ok')"
  assert_error "sfenc: --cipher-algo: unknown cipher algorithm 'AES\nsfenc: ok' (see --list-ciphers)"
  run sfenc -c -z "$(printf '1\t\n2')"
  assert_error "sfenc: -z: invalid number '1\x09\n2'"
  run sfenc "$(printf -- '--frob\nnicate')"
  assert_error 'sfenc: --frob\nnicate: unknown option (see --help)'
  out=$(printf '%s/out\nput' "$T")
  : > "$out"
  run sfenc -d --batch --passphrase secret -o "$out" "$T/msg"
  [ "$status" -eq 2 ]
  [ "${#lines[@]}" -eq 1 ]
  [[ "$output" == "sfenc: $T/out\\nput: "* ]]
}

@test "sfenc-errors: missing passphrase with --batch, encrypting" {
  run sfenc -c --batch < "$T/plain"
  assert_error "sfenc: passphrase: none given and --batch forbids asking (use --passphrase, --passphrase-fd or --passphrase-file)"
}

@test "sfenc-errors: missing passphrase with --batch, decrypting" {
  run sfenc -d --batch -o "$T/out" "$T/msg"
  assert_error "sfenc: passphrase: none given and --batch forbids asking (use --passphrase, --passphrase-fd or --passphrase-file)"
  [ ! -e "$T/out" ]
}

@test "sfenc-errors: missing passphrase file" {
  run sfenc -d --passphrase-file "$T/nosuch" "$T/msg"
  assert_error "sfenc: $T/nosuch: No such file or directory"
}

@test "sfenc-errors: missing input file" {
  run sfenc -d --batch --passphrase secret "$T/nosuch"
  assert_error "sfenc: $T/nosuch: No such file or directory"
}

@test "sfenc-errors: -o never overwrites an existing file without --yes" {
  echo precious > "$T/out"
  run sfenc -c --batch --passphrase secret -o "$T/out" < "$T/plain"
  assert_error "sfenc: $T/out: file exists (use --yes to overwrite)"
  [ "$(cat "$T/out")" = precious ]
  run sfenc -d --batch --passphrase secret -o "$T/out" "$T/msg"
  assert_error "sfenc: $T/out: file exists (use --yes to overwrite)"
  [ "$(cat "$T/out")" = precious ]
  # -c FILE writes FILE.gpg, which is protected the same way.
  cp "$T/plain" "$T/doc"
  echo precious > "$T/doc.gpg"
  run sfenc -c --batch --passphrase secret "$T/doc"
  assert_error "sfenc: $T/doc.gpg: file exists (use --yes to overwrite)"
  [ "$(cat "$T/doc.gpg")" = precious ]
  # With --yes it is replaced.
  sfenc -d --batch --passphrase secret --yes -o "$T/out" "$T/msg"
  cmp "$T/plain" "$T/out"
}

@test "sfenc-errors: failed decryption with --yes keeps the old file" {
  echo precious > "$T/out"
  run sfenc -d --batch --passphrase wrong --yes -o "$T/out" "$T/msg"
  assert_error "sfenc: decryption failed: wrong passphrase (Bad session key)"
  [ "$(cat "$T/out")" = precious ]
  [ "$(ls "$T" | grep -c '^out')" -eq 1 ]
}

@test "sfenc-errors: message without encrypted data" {
  head -c 15 "$T/msg" > "$T/skesk-only"
  run sfenc -d --batch --passphrase secret "$T/skesk-only"
  assert_error "sfenc: decryption failed: input truncated (no encrypted data packet)"
}

@test "sfenc-errors: --load-extension of a missing file" {
  run sfenc --load-extension /nonexistent/module.so --list-ciphers
  assert_error "sfenc: /nonexistent/module.so: No such file or directory"
}

@test "sfenc-errors: write error on the output" {
  if [ ! -w /dev/full ]; then
    skip "/dev/full is not available"
  fi
  run sfenc -c --batch --passphrase secret -o /dev/full --yes < "$T/plain"
  [ "$status" -eq 2 ]
  run bash -c '"$1" -q -d --batch --passphrase secret "$2" > /dev/full' _ "$SFENC" "$T/msg"
  assert_error "sfenc: stdout: write error: No space left on device"
}
