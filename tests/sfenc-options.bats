#!/usr/bin/env bats
# The command line of sfenc: --help, --version, --list-ciphers, the
# passphrase sources, output naming and the option syntax gpg users
# expect.

load byte-edit

setup () {
  SFENC=${SFENC:-$BATS_TEST_DIRNAME/../g10/sfenc}
  T=$BATS_TEST_TMPDIR
  SF=("$SFENC" --batch --passphrase secret --s2k-count 65536)
  head -c 5000 /dev/urandom > "$T/plain"
}

@test "sfenc-options: --help lists every option of DESIGN.md" {
  run "$SFENC" --help
  [ "$status" -eq 0 ]
  [[ "${lines[0]}" == "Usage: sfenc [options] [FILE]" ]]
  for o in -c,\ --symmetric -d,\ --decrypt --cipher-algo --cipher-impl \
           --digest-algo --s2k-digest-algo --s2k-mode --s2k-count \
           -z,\ --compress-level --compress-algo -a,\ --armor \
           -o,\ --output --yes --passphrase --passphrase-fd \
           --passphrase-file --batch --pinentry-mode --load-extension \
           --list-ciphers --with-colons --version -v,\ --verbose \
           -q,\ --quiet -h,\ --help --ignore-mdc-error --no-auto-modules; do
    echo "$output" | grep -qe "$o" || { echo "missing: $o"; return 1; }
  done
}

@test "sfenc-options: --version is gpg-style with the algorithm lists" {
  run "$SFENC" --version
  [ "$status" -eq 0 ]
  # gpg's interface version first, for the programs that drive gpg
  # (sfenc-gpgiface.bats), then libgcrypt's, then sfenc's own name and
  # version.
  [[ "${lines[0]}" == "gpg (GnuPG) 2.2."* ]]
  [[ "${lines[1]}" == "libgcrypt "* ]]
  [[ "${lines[2]}" == "sfenc $(sed -n 's/^AC_INIT(\[sfenc\], \[\([^]]*\)\].*/\1/p' "${top_srcdir:-$BATS_TEST_DIRNAME/..}/configure.ac") "* ]]
  echo "$output" | grep -q '^Supported algorithms:$'
  echo "$output" | grep -q '^Cipher: .*AES256'
  echo "$output" | grep -q '^Hash: MD5, SHA1, RIPEMD160, SHA256, SHA384, SHA512, SHA224$'
  echo "$output" | grep -q '^Compression: Uncompressed, ZIP, ZLIB, BZIP2$'
}

@test "sfenc-options: --list-ciphers, human and --with-colons" {
  run "$SFENC" --list-ciphers
  [ "$status" -eq 0 ]
  echo "$output" | grep -Eq '^AES256 +RIJNDAEL256 +9 +128 +256 +gcrypt +ok +(default|usable) +unknown +static$'
  echo "$output" | grep -Eq '^AES256 +RIJNDAEL256 +9 +128 +256 +ref +ok +(default|usable) +tables +static$'
  run "$SFENC" --list-ciphers --with-colons
  [ "$status" -eq 0 ]
  echo "$output" | grep -Eq '^cipher:AES256:[^:]*RIJNDAEL256[^:]*:9:128:256:gcrypt:static::ok:(default|usable):unknown:$'
  echo "$output" | grep -Eq '^cipher:AES256:[^:]*:9:128:256:aesni:static::ok:(default|unusable):constant:$'
  echo "$output" | grep -Eq '^cipher:CAST5:[^:]*:3:64:128:'
  # Every line has the same 13 fields, and each algorithm one default.
  [ -z "$(echo "$output" | awk -F: 'NF != 13')" ]
  for algo in $(echo "$output" | cut -d: -f2 | sort -u); do
    [ "$(echo "$output" | grep -c "^cipher:$algo:.*:default:[a-z]*:$")" -eq 1 ]
  done
}

# Encrypt with SFENC_DISABLE_HWF=$1; ERR is what sfenc printed on
# stderr.
encrypt_disabling () {
  SFENC_DISABLE_HWF=$1 "${SF[@]}" --yes -c -o "$T/msg" "$T/plain" \
    2> "$T/err"
  ERR=$(cat "$T/err")
  cmp "$T/plain" <("${SF[@]}" -d "$T/msg" 2> /dev/null)
}

@test "sfenc-options: SFENC_DISABLE_HWF names an unknown feature or uses a wrong separator: one line, once" {
  local list item

  for list in xyz 'aesni;pclmul' 'aesni pclmul' 'aesni, pclmul' 'all,sha-ni'; do
    case $list in
      *,*) item=${list#*,} ;;
      *) item=$list ;;
    esac
    encrypt_disabling "$list"
    echo "$list: $ERR"
    [ "$(wc -l < "$T/err")" -eq 1 ]
    [[ "$ERR" == "sfenc: SFENC_DISABLE_HWF: no such feature: '$item' (known here, separated by commas: all, "*", aesni, "*", pclmul, "*")" ]]
  done
}

@test "sfenc-options: SFENC_DISABLE_HWF with known features says nothing" {
  local list

  for list in all ALL aesni 'AESNI,' 'aesni,pclmul' shani,vaes,avx512,vpclmul \
              arm-aes,arm-sha1,arm-pmull ''; do
    encrypt_disabling "$list"
    echo "$list: $ERR"
    [ -z "$ERR" ]
  done
}

@test "sfenc-options: every feature name the sources ask about is known to the SFENC_DISABLE_HWF check" {
  # cipher/table.c keeps its own list of the names the code asks
  # sf_hwf_disabled about; a name added to the code alone would be
  # reported as unknown.
  local top=${top_srcdir:-$BATS_TEST_DIRNAME/..} names name
  names=$(grep -hoE 'sf_hwf_disabled \("[a-z0-9-]+"\)|\.hwf = "[a-z0-9-]+"' \
            "$top"/cipher/*.c | sed 's/.*"\(.*\)".*/\1/' | sort -u)
  [ "$(echo "$names" | wc -w)" -ge 8 ]
  for name in $names; do
    encrypt_disabling "$name"
    echo "$name: $ERR"
    [ -z "$ERR" ]
  done
}

@test "sfenc-options: every implementation of every algorithm round-trips" {
  local line algo impl status
  while IFS=: read -r _ algo _ _ _ _ impl _ _ _ status _; do
    [ "$status" = unusable ] && continue
    "${SF[@]}" -c --cipher-algo "$algo" --cipher-impl "$impl" < "$T/plain" > "$T/msg"
    # Decrypt with every implementation of the same algorithm.
    "$SFENC" --list-ciphers --with-colons | grep "^cipher:$algo:" |
      grep -v ":unusable:[a-z]*:$" | cut -d: -f7 > "$T/impls"
    while read -r other; do
      "${SF[@]}" -d --cipher-impl "$other" < "$T/msg" > "$T/out"
      cmp "$T/plain" "$T/out" || { echo "$algo: $impl -> $other differs"; return 1; }
    done < "$T/impls"
  done < <("$SFENC" --list-ciphers --with-colons)
}

@test "sfenc-options: passphrase from --passphrase-fd and --passphrase-file" {
  "${SF[@]}" -c < "$T/plain" > "$T/msg"
  echo secret > "$T/pass"
  "$SFENC" --batch --passphrase-file "$T/pass" -d "$T/msg" > "$T/out"
  cmp "$T/plain" "$T/out"
  "$SFENC" --batch --passphrase-fd 3 -d "$T/msg" 3< "$T/pass" > "$T/out"
  cmp "$T/plain" "$T/out"
  # The passphrase line and the data share stdin, as with gpg.
  { echo secret; cat "$T/plain"; } |
    "$SFENC" --batch --passphrase-fd 0 --s2k-count 65536 -c > "$T/msg2"
  "${SF[@]}" -d "$T/msg2" > "$T/out"
  cmp "$T/plain" "$T/out"
  { echo secret; cat "$T/msg2"; } | "$SFENC" --batch --passphrase-fd 0 -d > "$T/out"
  cmp "$T/plain" "$T/out"
}

@test "sfenc-options: --pinentry-mode loopback is accepted, error forbids asking" {
  "${SF[@]}" --pinentry-mode loopback -c < "$T/plain" > "$T/msg"
  run "$SFENC" --pinentry-mode error -d "$T/msg"
  [ "$status" -eq 2 ]
  # After gpg's lines on the message, read first, as gpg reads it.
  [[ "$output" == *$'\nsfenc: passphrase: none given'* ]]
  run "$SFENC" --pinentry-mode sideways -d "$T/msg"
  [ "$status" -eq 2 ]
  [ "$output" = "sfenc: --pinentry-mode: invalid mode 'sideways' (default, ask, loopback, cancel, error)" ]
}

@test "sfenc-options: -c FILE writes FILE.gpg, with -a FILE.asc" {
  cp "$T/plain" "$T/doc"
  "${SF[@]}" -c "$T/doc"
  "${SF[@]}" -c -a "$T/doc"
  [ -s "$T/doc.gpg" ]
  head -n 1 "$T/doc.asc" | grep -qx -- '-----BEGIN PGP MESSAGE-----'
  "${SF[@]}" -d "$T/doc.gpg" > "$T/out1"
  "${SF[@]}" -d < "$T/doc.asc" > "$T/out2"
  cmp "$T/plain" "$T/out1"
  cmp "$T/plain" "$T/out2"
}

@test "sfenc-options: -o -, -o FILE and -o /dev/null" {
  "${SF[@]}" -c -o - < "$T/plain" > "$T/msg"
  "${SF[@]}" -d -o "$T/out" "$T/msg"
  cmp "$T/plain" "$T/out"
  "${SF[@]}" -d -o /dev/null "$T/msg"
  # No temporary files are left beside the output.
  [ "$(ls "$T" | grep -c 'tmp')" -eq 0 ]
}

@test "sfenc-options: option syntax: --opt=value, abbreviations, bundles" {
  "$SFENC" --batch --passphrase=secret --s2k-count=65536 --cipher-algo=cast5 \
    -acz0 < "$T/plain" > "$T/msg"
  head -n 1 "$T/msg" | grep -qx -- '-----BEGIN PGP MESSAGE-----'
  "$SFENC" --batc --passphrase secret --decrypt < "$T/msg" > "$T/out"
  cmp "$T/plain" "$T/out"
  run "$SFENC" --pass secret -d "$T/msg"
  [ "$status" -eq 2 ]
  [ "$output" = "sfenc: --pass: ambiguous option" ]
  # --decrypt and --decrypt-files, in gpg 2.2.40 too.
  run "$SFENC" --batc --passphrase secret --decr "$T/msg"
  [ "$status" -eq 2 ]
  [ "$output" = "sfenc: --decr: ambiguous option" ]
  "${SF[@]}" -d -- "$T/msg" > "$T/out"
  cmp "$T/plain" "$T/out"
}

@test "sfenc-options: -d is the default command, as in gpg" {
  "${SF[@]}" -c < "$T/plain" > "$T/msg"
  "$SFENC" --batch --passphrase secret < "$T/msg" > "$T/out"
  cmp "$T/plain" "$T/out"
}

@test "sfenc-options: armored input is found after leading text and CRLF lines" {
  "${SF[@]}" -c -a < "$T/plain" > "$T/msg.asc"
  { echo "Some mail text"; echo; sed 's/$/\r/' "$T/msg.asc"; echo "trailer"; } > "$T/mail"
  "${SF[@]}" -d "$T/mail" > "$T/out"
  cmp "$T/plain" "$T/out"
}

@test "sfenc-options: -v tells the algorithms" {
  "${SF[@]}" -c --cipher-algo TWOFISH < "$T/plain" > "$T/msg"
  run "${SF[@]}" -v -d -o "$T/out" "$T/msg"
  [ "$status" -eq 0 ]
  echo "$output" | grep -q '^sfenc: TWOFISH/.*\.CFB encrypted data$'
  echo "$output" | grep -q '^sfenc: ZIP compressed data$'
}

@test "sfenc-options: --ignore-mdc-error decrypts a tampered message with a warning, -q silences it" {
  "${SF[@]}" -c -z 0 < "$T/plain" > "$T/msg"
  local size
  size=$(stat -c %s "$T/msg")
  # Flip one bit of the MDC packet only.
  flip_byte "$T/msg" $((size - 1)) 1
  run "${SF[@]}" -d -o "$T/out" "$T/msg"
  [ "$status" -eq 2 ]
  "${SF[@]}" -d --ignore-mdc-error -o "$T/out2" "$T/msg" 2> "$T/err"
  cmp "$T/plain" "$T/out2"
  grep -q 'WARNING: the message was modified (bad MDC)' "$T/err"
  "${SF[@]}" -q -d --ignore-mdc-error -o "$T/out3" "$T/msg" 2> "$T/err3"
  cmp "$T/plain" "$T/out3"
  [ ! -s "$T/err3" ]
}

# Run sfenc arguments $2... on a pseudo terminal fed with the lines of
# $1, as a user typing at the prompts would.
on_terminal () {
  local typed=$1
  shift
  { sleep 1; printf '%s' "$typed"; sleep 2; } |
    timeout 60 script -qec "$(printf '%q ' "$@")" /dev/null
}

@test "sfenc-options: without a passphrase, asks twice on the terminal" {
  command -v script > /dev/null || skip "script (util-linux) is not installed: terminal prompts NOT tested"
  run on_terminal $'tty secret\ntty secret\n' "$SFENC" --s2k-count 65536 -c -o "$T/msg" "$T/plain"
  echo "$output"
  [ "$status" -eq 0 ]
  [[ "$output" == *"Enter passphrase:"*"Repeat passphrase:"* ]]
  "$SFENC" --batch --passphrase "tty secret" -d -o "$T/out" "$T/msg"
  cmp "$T/plain" "$T/out"
  # Decryption asks once.
  run on_terminal $'tty secret\n' "$SFENC" -d -o "$T/out2" "$T/msg"
  [ "$status" -eq 0 ]
  [[ "$output" == *"Enter passphrase:"* ]]
  [[ "$output" != *"Repeat passphrase:"* ]]
  cmp "$T/plain" "$T/out2"
}

@test "sfenc-options: different passphrases at the two prompts are refused" {
  command -v script > /dev/null || skip "script (util-linux) is not installed: terminal prompts NOT tested"
  run on_terminal $'one\ntwo\n' "$SFENC" --s2k-count 65536 -c -o "$T/msg" "$T/plain"
  echo "$output"
  [ "$status" -eq 2 ]
  [[ "$output" == *"sfenc: passphrase: the two passphrases do not match"* ]]
  [ ! -e "$T/msg" ]
}

@test "sfenc-options: every option of --help has its handler" {
  # An option in the table without its case in g10/options.c aborts
  # (exit status 134); every option runs once here, with "1" as its
  # argument when it takes one, and must end in success or a one-line
  # error.
  local name arg count=0
  # --log-file 1 and the like write their file "1" here, not in tests/.
  cd "$BATS_TEST_TMPDIR"
  while read -r name arg; do
    # Not the loop's stdin: --encrypt-files reads names from it.
    run "$SFENC" --batch "$name" ${arg:+1} --list-ciphers < /dev/null
    echo "$name ${arg:+1}: status $status"
    [ "$status" -eq 0 ] || [ "$status" -eq 2 ]
    count=$((count + 1))
  done < <("$SFENC" --help |
             sed -n 's/^ \{1,\}\(-., \)\{0,1\}\(--[a-z0-9-]*\)\( [A-Z][A-Z]*\)\{0,1\}.*/\2\3/p')
  echo "$count options"
  [ "$count" -eq "$("$SFENC" --dump-options | wc -l)" ]
}
