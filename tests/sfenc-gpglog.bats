#!/usr/bin/env bats
# The lines of gpg's log that clients read, and gpg's logging and
# file options (issue 41): "gpg: AES256.CFB encrypted data" and "gpg:
# encrypted with N passphrase" on -d and --list-only, --log-file,
# --logger-file, --status-file, --command-file, --options and the
# home directory's gpg.conf, --temp-directory.  gpg 2.2.40 is the
# oracle: each test runs it beside sfenc and compares.

setup () {
  SFENC=${SFENC:-$BATS_TEST_DIRNAME/../g10/sfenc}
  T=$BATS_TEST_TMPDIR
  export LC_ALL=C
  command -v gpg > /dev/null \
    || skip "NOT TESTED: gpg (GnuPG) is not installed, the oracle here"
  export GNUPGHOME="$T/gnupg"
  mkdir -m 700 "$GNUPGHOME"
  export SFENC_MODULE_DIR="$T/no-modules"
  GPG=(timeout 60 gpg --batch --no-tty --pinentry-mode loopback)
  SF=(timeout 60 "$SFENC" --batch)
  printf 'hello\n' > "$T/plain"
  "${GPG[@]}" --passphrase secret --s2k-count 65536 -c -o "$T/msg" \
    "$T/plain"
}

teardown () {
  gpgconf --kill gpg-agent > /dev/null 2>&1 || true
}

# Print the bytes whose decimal values are the arguments.
bytes () {
  local b octal escapes=""
  for b in "$@"; do
    printf -v octal '\\%03o' "$b"
    escapes+=$octal
  done
  # shellcheck disable=SC2059
  printf "$escapes"
}

# A packet of tag $1 around stdin, with a five-octet length.
packet () {
  local n
  cat > "$T/body"
  n=$(stat -c %s "$T/body")
  bytes $((0xc0 | $1)) 255 $((n >> 24 & 255)) $((n >> 16 & 255)) \
    $((n >> 8 & 255)) $((n & 255))
  cat "$T/body"
}

# $T/msg with a second SKESK after its own: AES-128 (id 7) with a
# salt of its own, or with $1 as its bytes.
two_skesks () {
  local len body=("$@")
  [ $# -gt 0 ] || body=(4 7 3 2 1 2 3 4 5 6 7 8 96)
  len=$((2 + $(od -An -tu1 -j1 -N1 "$T/msg")))
  head -c "$len" "$T/msg"
  bytes "${body[@]}" | packet 3
  tail -c +$((len + 1)) "$T/msg"
}

# Run "$@" (a program and its options) to decrypt $T/msg with the
# passphrase $PASS into $T/out, its stderr in $T/err and its status in
# $rc.
decrypt_with () {
  rc=0
  "$@" --passphrase "${PASS:-secret}" -d "$T/msg" > "$T/out" 2> "$T/err" \
    || rc=$?
}


@test "gpglog: -d writes gpg's two lines on stderr, with gpg's prefix, as gpg" {
  decrypt_with "${GPG[@]}"
  cp "$T/err" "$T/err.gpg"
  decrypt_with "${SF[@]}"
  cat "$T/err.gpg" "$T/err"
  [ "$rc" -eq 0 ]
  cmp "$T/out" "$T/plain"
  [ "$(cat "$T/err.gpg")" = "gpg: AES256.CFB encrypted data
gpg: encrypted with 1 passphrase" ]
  cmp "$T/err.gpg" "$T/err"
}

@test "gpglog: -q writes neither, as gpg" {
  decrypt_with "${GPG[@]}" -q
  [ ! -s "$T/err" ]
  decrypt_with "${SF[@]}" -q
  [ "$rc" -eq 0 ]
  [ ! -s "$T/err" ]
}

@test "gpglog: a wrong passphrase: gpg's two lines, then sfenc's own error" {
  PASS=wrong decrypt_with "${GPG[@]}"
  [ "$rc" -eq 2 ]
  head -n 2 "$T/err" > "$T/err.gpg"
  PASS=wrong decrypt_with "${SF[@]}"
  cat "$T/err"
  [ "$rc" -eq 2 ]
  [ "$(wc -l < "$T/err")" -eq 3 ]
  head -n 2 "$T/err" | cmp - "$T/err.gpg"
  [ "$(tail -n 1 "$T/err")" = \
    "sfenc: decryption failed: wrong passphrase (Bad session key)" ]
}

@test "gpglog: the lines come where gpg writes them among the status lines" {
  decrypt_with "${GPG[@]}" --status-fd 2
  grep -v '^\[GNUPG:\] PLAINTEXT' "$T/err" > "$T/err.gpg"
  decrypt_with "${SF[@]}" --status-fd 2
  grep -v '^\[GNUPG:\] PLAINTEXT' "$T/err" | diff "$T/err.gpg" -
  # The cipher line before NEED_PASSPHRASE_SYM, the count before
  # BEGIN_DECRYPTION.
  [ "$(head -n 4 "$T/err" | cut -c1-20 | tr '\n' '|')" = \
    "gpg: AES256.CFB encr|[GNUPG:] NEED_PASSPH|gpg: encrypted with |[GNUPG:] BEGIN_DECRY|" ]
}

@test "gpglog: --logger-fd 1 and --list-only, as Vim's gnupg plugin runs them" {
  local args=(--verbose --decrypt --list-only --dry-run --no-use-agent
              --logger-fd 1)
  "${GPG[@]}" "${args[@]}" "$T/msg" > "$T/out.gpg" 2> /dev/null
  "${SF[@]}" "${args[@]}" "$T/msg" > "$T/out" 2> "$T/err"
  cat "$T/out.gpg" "$T/out"
  [ ! -s "$T/err" ]
  cmp "$T/out.gpg" "$T/out"
  grep -q '^gpg: encrypted with [0-9]* passphrase' "$T/out"
}

@test "gpglog: several SKESKs: -d names the one used, --list-only each, as gpg" {
  two_skesks > "$T/two"
  two_skesks 4 99 3 77 1 2 3 4 5 6 7 8 96 > "$T/unknown"
  for m in two unknown; do
    for mode in --decrypt --list-only; do
      # Listing a SKESK of an unknown algorithm, gpg exits with 2,
      # sfenc with 0: only the lines are compared.
      "${GPG[@]}" --passphrase secret -d $mode "$T/$m" 2> "$T/err.gpg" \
        > /dev/null || true
      "${SF[@]}" --passphrase secret -d $mode "$T/$m" 2> "$T/err" > /dev/null
      echo "$m $mode:"; cat "$T/err.gpg" "$T/err"
      cmp "$T/err.gpg" "$T/err"
    done
  done
  grep -qx 'gpg: encrypted with 2 passphrases' "$T/err"
  grep -qx 'gpg: encrypted with unknown algorithm 99' "$T/err"
}

@test "gpglog: other ciphers and an AEAD message are named as gpg names them" {
  local algo
  for algo in AES AES192 CAST5 3DES BLOWFISH TWOFISH; do
    "${GPG[@]}" --passphrase secret --s2k-count 65536 --cipher-algo "$algo" \
      -c -o "$T/m-$algo" "$T/plain" 2> /dev/null
    "${GPG[@]}" --list-only -d "$T/m-$algo" 2> "$T/err.gpg"
    "${SF[@]}" --list-only -d "$T/m-$algo" 2> "$T/err"
    cat "$T/err"
    cmp "$T/err.gpg" "$T/err"
  done
  # LibrePGP's OCB message, which gpg 2.2 reads: its SKESK (v5) holds
  # the session key.
  "${SF[@]}" --passphrase secret --s2k-count 65536 --aead-algo OCB \
    --aead-format librepgp -c -o "$T/ocb" "$T/plain"
  "${GPG[@]}" --passphrase secret -d "$T/ocb" 2> "$T/err.gpg" > /dev/null
  "${SF[@]}" --passphrase secret -d "$T/ocb" 2> "$T/err" > /dev/null
  cat "$T/err"
  grep -qx 'gpg: AES256.OCB encrypted session key' "$T/err"
  cmp "$T/err.gpg" "$T/err"
}

@test "gpglog: --log-file and --logger-file append the log there, as gpg's" {
  echo "first line" > "$T/log"
  cp "$T/log" "$T/log.gpg"
  PASS=wrong decrypt_with "${GPG[@]}" --log-file "$T/log.gpg"
  decrypt_with "${GPG[@]}" --logger-file "$T/log.gpg"
  PASS=wrong decrypt_with "${SF[@]}" --log-file "$T/log"
  [ "$rc" -eq 2 ]
  [ ! -s "$T/err" ]
  decrypt_with "${SF[@]}" --logger-file "$T/log"
  [ "$rc" -eq 0 ]
  [ ! -s "$T/err" ]
  cat "$T/log.gpg" "$T/log"
  # gpg's log file has its date, time and pid where sfenc keeps the
  # prefixes; the rest is gpg's but for the wording of the failure.
  sed 's/^[0-9-]* [0-9:]* gpg\[[0-9]*\] //' "$T/log.gpg" \
    | grep -v 'decryption failed' > "$T/want"
  sed 's/^gpg: //' "$T/log" | grep -v 'decryption failed' | diff "$T/want" -
  [ "$(head -n 1 "$T/log")" = "first line" ]
  [ "$(grep -c '^sfenc: decryption failed: wrong passphrase' "$T/log")" -eq 1 ]
}

@test "gpglog: a log file that cannot be opened is refused in one line" {
  run "${SF[@]}" --passphrase secret --log-file "$T/no/such/dir/log" -d "$T/msg"
  [ "$status" -eq 2 ]
  [ "$output" = "sfenc: --log-file: $T/no/such/dir/log: No such file or directory" ]
}

@test "gpglog: --status-file writes what --status-fd writes, the file emptied first, as gpg" {
  echo "old content, longer than nothing" > "$T/st.gpg"
  cp "$T/st.gpg" "$T/st"
  decrypt_with "${GPG[@]}" --status-file "$T/st.gpg"
  decrypt_with "${SF[@]}" --status-file "$T/st"
  [ "$rc" -eq 0 ]
  cat "$T/st"
  decrypt_with "${SF[@]}" --status-fd 1
  grep '^\[GNUPG:\]' "$T/out" | cmp - "$T/st"
  grep -v PLAINTEXT "$T/st.gpg" > "$T/want"
  grep -v PLAINTEXT "$T/st" | diff "$T/want" -
  run "${SF[@]}" --passphrase secret --status-file "$T/no/st" -d "$T/msg"
  [ "$status" -eq 2 ]
  [ "$output" = "sfenc: --status-file: $T/no/st: No such file or directory" ]
}

@test "gpglog: --command-file answers the passphrase question, as gpg" {
  printf 'secret\n' > "$T/answers"
  "${GPG[@]}" --command-file "$T/answers" --status-fd 3 -d "$T/msg" \
    3> "$T/st.gpg" > "$T/out.gpg" 2> /dev/null
  "${SF[@]}" --command-file "$T/answers" --status-fd 3 -d "$T/msg" \
    3> "$T/st" > "$T/out" 2> /dev/null
  cmp "$T/out" "$T/plain"
  cmp "$T/out.gpg" "$T/plain"
  grep -q '^\[GNUPG:\] GET_HIDDEN passphrase.enter' "$T/st"
  grep 'GET_HIDDEN\|GOT_IT' "$T/st.gpg" | diff - <(grep 'GET_HIDDEN\|GOT_IT' "$T/st")
  printf 'wrong\n' > "$T/answers"
  run "${SF[@]}" -q --command-file "$T/answers" -d "$T/msg"
  [ "$status" -eq 2 ]
  [ "$output" = "sfenc: decryption failed: wrong passphrase (Bad session key)" ]
}

# Encrypt $T/plain with "$@" (a program and options) to $T/enc, and
# print the cipher line of gpg's listing of it.
cipher_of () {
  "$@" --passphrase secret --s2k-count 65536 -c -o "$T/enc" --yes \
    "$T/plain" 2> /dev/null
  "${GPG[@]}" --list-only -d "$T/enc" 2>&1 | head -n 1
}

@test "gpglog: --options FILE: gpg's syntax, the command line after it" {
  printf '# a comment\n\n   cipher-algo   "CAST5"  \narmor\n' > "$T/opts"
  [ "$(cipher_of "${GPG[@]}" --options "$T/opts")" = "gpg: CAST5.CFB encrypted data" ]
  [ "$(cipher_of "${SF[@]}" --options "$T/opts")" = "gpg: CAST5.CFB encrypted data" ]
  [ "$(head -n 1 "$T/enc")" = "-----BEGIN PGP MESSAGE-----" ]
  [ "$(cipher_of "${SF[@]}" --options "$T/opts" --cipher-algo TWOFISH)" = \
    "gpg: TWOFISH.CFB encrypted data" ]
  # --options=FILE, abbreviated, and after an option's argument.
  [ "$(cipher_of "${SF[@]}" -o "$T/x" --optio="$T/opts")" = "gpg: CAST5.CFB encrypted data" ]
}

@test "gpglog: --options FILE: a line gpg cannot take is reported and skipped, as gpg" {
  printf 'no-such-option\ncipher-algo\narmor yes\ncipher-al CAST5\n--armor\narmor=1\n' \
    > "$T/opts"
  decrypt_with "${GPG[@]}" -q --options "$T/opts"
  [ "$rc" -eq 0 ]
  cp "$T/err" "$T/err.gpg"
  decrypt_with "${SF[@]}" -q --options "$T/opts"
  cat "$T/err"
  [ "$rc" -eq 0 ]
  cmp "$T/out" "$T/plain"
  cmp "$T/err.gpg" "$T/err"
  [ "$(head -n 1 "$T/err")" = "$T/opts:1: invalid option" ]
  # A bad value is refused as on the command line, and so is a file
  # that is not there.
  printf 's2k-mode 2\n' > "$T/opts"
  run "${SF[@]}" --options "$T/opts" -c "$T/plain"
  [ "$status" -eq 2 ]
  [ "$output" = "sfenc: $T/opts:1: s2k-mode: S2K mode 2 is reserved (use 0, 1, 3 or argon2)" ]
  run "${GPG[@]}" --options "$T/none" -d "$T/msg"
  [ "$status" -eq 2 ]
  run "${SF[@]}" --options "$T/none" -d "$T/msg"
  [ "$status" -eq 2 ]
  [ "$output" = "sfenc: --options: option file '$T/none': No such file or directory" ]
  # A file without line ends is refused, not read into memory.
  run timeout 20 "$SFENC" --options /dev/zero -d "$T/msg"
  [ "$status" -eq 2 ]
  [ "$output" = "sfenc: /dev/zero: line 1 is longer than 4095 bytes" ]
}

@test "gpglog: gpg.conf of the home directory is read unless --no-options, as gpg" {
  printf 'cipher-algo CAST5\n' > "$GNUPGHOME/gpg.conf"
  [ "$(cipher_of "${GPG[@]}")" = "gpg: CAST5.CFB encrypted data" ]
  [ "$(cipher_of "${SF[@]}")" = "gpg: CAST5.CFB encrypted data" ]
  [ "$(cipher_of "${GPG[@]}" --no-options)" = "gpg: AES256.CFB encrypted data" ]
  [ "$(cipher_of "${SF[@]}" --no-options)" = "gpg: AES256.CFB encrypted data" ]
  # gpg.conf-2.2 comes first; --homedir names the directory.
  printf 'cipher-algo TWOFISH\n' > "$GNUPGHOME/gpg.conf-2.2"
  [ "$(cipher_of "${GPG[@]}")" = "gpg: TWOFISH.CFB encrypted data" ]
  [ "$(cipher_of "${SF[@]}")" = "gpg: TWOFISH.CFB encrypted data" ]
  mkdir -m 700 "$T/home2"
  printf 'cipher-algo BLOWFISH\n' > "$T/home2/gpg.conf"
  [ "$(cipher_of "${SF[@]}" --homedir "$T/home2")" = \
    "gpg: BLOWFISH.CFB encrypted data" ]
  [ "$(cipher_of "${GPG[@]}" --homedir "$T/home2")" = \
    "gpg: BLOWFISH.CFB encrypted data" ]
}

@test "gpglog: --temp-directory changes nothing" {
  decrypt_with "${SF[@]}" -q --temp-directory "$T/no/such/dir"
  [ "$rc" -eq 0 ]
  cmp "$T/out" "$T/plain"
  [ ! -e "$T/no" ]
  "${SF[@]}" --passphrase secret --temp-directory "$T/no/such/dir" -c \
    -o "$T/enc" "$T/plain"
  "${GPG[@]}" -q --passphrase secret -d "$T/enc" | cmp - "$T/plain"
}
