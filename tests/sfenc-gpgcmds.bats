#!/usr/bin/env bats
# gpg's compliance modes and small commands (issue 41), with gpg
# 2.2.40 as the oracle: --compliance and its shorthands, --print-md,
# --print-mds, --gen-random and --list-gcrypt-config.

load gpg-2-2-40

setup () {
  SFENC=${SFENC:-$BATS_TEST_DIRNAME/../g10/sfenc}
  T=$BATS_TEST_TMPDIR
  export LC_ALL=C
  export GNUPGHOME="$T/gnupg"
  mkdir -p -m 700 "$GNUPGHOME"
  export SFENC_MODULE_DIR="$T/no-modules"
  GPG=(gpg --batch --yes --pinentry-mode loopback --passphrase s --s2k-count 65536)
  SF=("$SFENC" --batch --yes --passphrase s --s2k-count 65536)
  cd "$T"
}

teardown () {
  gpgconf --kill gpg-agent > /dev/null 2>&1 || true
}


# Print, for the message $1, the packets as gpg --list-packets shows
# them, without what changes from run to run (salt, dates, lengths)
# or with the framing (sfenc always writes new-format headers).
packets () {
  "${GPG[@]}" --list-packets "$1" 2>/dev/null | grep -v -e '^#' -e '^[[:space:]]*$' \
    | sed -e 's/salt [0-9A-F]*/salt S/' -e 's/created [0-9]*/created D/' \
          -e 's/length: [0-9]*/length: N/' -e 's/data: \[.*//'
}

@test "gpgcmds: --print-md gives gpg's bytes for every hash, file, name length and --with-colons" {
  need_gpg_2_2_40
  local a f c n
  head -c 1000 /dev/urandom > rnd
  printf abc > 'a:b%c d'
  # File names that put the digest at columns 32, 40 and on a line of
  # its own: where gpg wraps and indents differently.
  for n in 30 38 39; do printf x > "$(printf "f%.0s" $(seq $n))"; done
  for a in md5 sha1 ripemd160 sha224 sha256 sha384 sha512 '*' SHA3-256 whirlpool crc32; do
    for c in "" --with-colons; do
      for f in rnd 'a:b%c d' f*; do
        diff <(gpg $c --print-md "$a" "$f") <("$SFENC" $c --print-md "$a" "$f") \
          || { echo "--print-md $a $c $f"; return 1; }
      done
      diff <(gpg $c --print-md "$a" < rnd) <("$SFENC" $c --print-md "$a" < rnd) \
        || { echo "--print-md $a $c from stdin"; return 1; }
      diff <(gpg $c --print-md "$a" rnd f*) <("$SFENC" $c --print-md "$a" rnd f*) \
        || { echo "--print-md $a $c of several files"; return 1; }
    done
  done
}

@test "gpgcmds: --print-mds gives gpg's bytes, from files and stdin" {
  need_gpg_2_2_40
  printf 'hello\n' > h
  diff <(gpg --print-mds h h) <("$SFENC" --print-mds h h)
  diff <(gpg --print-mds < h) <("$SFENC" --print-mds < h)
  diff <(gpg --with-colons --print-mds h) <("$SFENC" --with-colons --print-mds h)
  # A known answer besides gpg: SHA256 of "abc".
  printf abc > abc
  [ "$("$SFENC" --print-md sha256 < abc)" = "BA7816BF 8F01CFEA 414140DE 5DAE2223 B00361A3 96177A9C B410FF61 F20015AD" ]
}

@test "gpgcmds: --print-md refuses what gpg refuses, with exit status 2 and one line" {
  need_gpg_2_2_40
  local args
  printf abc > abc
  for args in "foo abc" "rmd160 abc" "" "sha1 missing abc"; do
    run gpg --print-md $args
    [ "$status" -eq 2 ] || { echo "gpg --print-md $args: $status"; return 1; }
    run "$SFENC" --print-md $args
    [ "$status" -eq 2 ] || { echo "sfenc --print-md $args: $status"; return 1; }
    [[ $output == *"sfenc: "* ]]
  done
  # gpg still hashes the readable file after the missing one.
  run "$SFENC" --print-md sha1 missing abc
  [ "${lines[0]}" = "abc: A999 3E36 4706 816A BA3E  2571 7850 C26C 9CD0 D89D" ]
  [ "${lines[1]}" = "sfenc: missing: No such file or directory" ]
  # A hash without a fixed length: gpg dies of it, sfenc says so.
  run "$SFENC" --print-md shake128 abc
  [ "$status" -eq 2 ]
  [ "$output" = "sfenc: --print-md: shake128 has no fixed digest length" ]
}

@test "gpgcmds: --gen-random writes COUNT bytes of each level, base64 on one line with -a, as gpg" {
  need_gpg_2_2_40
  local level n
  for level in 0 1 2; do
    for n in 1 5 99 100 1000; do
      [ "$("$SFENC" --gen-random $level $n | wc -c)" -eq $n ]
      [ "$("$SFENC" -a --gen-random $level $n | wc -c)" -eq "$(gpg -a --gen-random $level $n | wc -c)" ]
      [ "$("$SFENC" -a --gen-random $level $n | wc -l)" -eq 1 ]
      [ "$("$SFENC" -a --gen-random $level $n | base64 -d | wc -c)" -eq $n ]
    done
  done
  # Not the same bytes twice.
  [ "$("$SFENC" --gen-random 1 32 | od -An -tx1)" != "$("$SFENC" --gen-random 1 32 | od -An -tx1)" ]
}

@test "gpgcmds: --gen-random without COUNT or with 0 does not end, and stops when the reader does" {
  local n rc
  n=$(timeout 20 "$SFENC" --gen-random 0 | head -c 300000 | wc -c)
  [ "$n" -eq 300000 ]
  n=$(timeout 20 "$SFENC" -a --gen-random 1 0 | head -c 300000 | tr -d 'A-Za-z0-9+/' | wc -c)
  [ "$n" -eq 0 ]
  # sfenc ends with one line on a closed pipe; gpg writes on for ever.
  rc=0
  timeout 20 "$SFENC" --gen-random 0 0 2> err | head -c 10 > /dev/null || rc=$?
  [ "$(cat err)" = "sfenc: stdout: write error: Broken pipe" ]
}

@test "gpgcmds: --gen-random refuses bad levels and counts with gpg's usage, exit status 2" {
  need_gpg_2_2_40
  local args
  for args in "" "3 1" "1 2 3"; do
    run gpg --gen-random $args
    [ "$status" -eq 2 ]
    run "$SFENC" --gen-random $args
    [ "$status" -eq 2 ]
    [ "$output" = "sfenc: usage: sfenc [options] --gen-random 0|1|2 [count]" ]
  done
  # gpg takes "x" as 0; sfenc refuses what is not a number.
  run "$SFENC" --gen-random x 5
  [ "$status" -eq 2 ]
  [ "${#lines[@]}" -eq 1 ]
}

@test "gpgcmds: --list-gcrypt-config prints what gpg prints" {
  need_gpg_2_2_40
  diff <(gpg --list-gcrypt-config) <("$SFENC" --list-gcrypt-config)
}

@test "gpgcmds: each compliance mode writes gpg's packets and gpg's warnings" {
  need_gpg_2_2_40
  local m
  echo hello > p
  for m in "" --gnupg --openpgp --rfc4880 --rfc4880bis --pgp6 --pgp7 --pgp8 \
           --no-pgp2 --no-pgp6 --no-pgp7 --no-pgp8 \
           --compliance=gnupg --compliance=OpenPGP --compliance=rfc4880 \
           --compliance=rfc4880bis --compliance=pgp6 --compliance=pgp7 --compliance=pgp8 \
           "--openpgp --gnupg" "--rfc4880bis --pgp8" "--compliance=openpgp --compliance=gnupg" \
           "--pgp6 --cipher-algo twofish" "--pgp6 --cipher-algo aes256" "--pgp6 --cipher-algo 3des" \
           "--pgp7 --cipher-algo aes256" "--pgp7 --cipher-algo idea" "--pgp6 --s2k-cipher-algo aes256" \
           "--pgp8 --cipher-algo twofish" "--openpgp --cipher-algo aes128"; do
    "${GPG[@]}" $m -c -o g.gpg p 2> g.err
    "${SF[@]}" $m -c -o s.gpg p 2> s.err
    diff <(packets g.gpg) <(packets s.gpg) || { echo "packets differ: $m"; return 1; }
    diff <(sed -e '/keybox .* created/d' -e 's/^gpg: //' g.err) <(sed 's/^sfenc: //' s.err) \
      || { echo "messages differ: $m"; return 1; }
  done
  # The RFC modes' 3DES, so that the loop above cannot pass on defaults.
  "${SF[@]}" --compliance=rfc4880bis --gnupg -c -o s.gpg p 2> /dev/null
  packets s.gpg | grep -q 'cipher 2,'
  "${SF[@]}" --pgp8 -c -o s.gpg p
  packets s.gpg | grep -q 'cipher 9,'
}

@test "gpgcmds: --compliance refuses an unknown value and 'help' in one line, exit status 2" {
  need_gpg_2_2_40
  local v
  echo hello > p
  for v in foo help; do
    run gpg --compliance $v --print-md md5 p
    [ "$status" -ne 0 ]
    run "${SF[@]}" --compliance $v -c -o s.gpg p
    [ "$status" -eq 2 ]
    [ "${#lines[@]}" -eq 1 ]
    [[ $output == *"gnupg, openpgp, rfc4880bis, rfc4880, rfc2440, pgp6, pgp7, pgp8, de-vs"* ]]
    [ ! -e s.gpg ]
  done
}

@test "gpgcmds: --rfc2440: -c is refused (gpg writes no MDC), -d decrypts; AEAD is refused" {
  need_gpg_2_2_40
  echo hello > p
  "${GPG[@]}" --rfc2440 -c -o g.gpg p 2> /dev/null
  # gpg's own message has no MDC in this mode.
  packets g.gpg | grep -q mdc_method && return 1
  run "${SF[@]}" --rfc2440 -c -o s.gpg p
  [ "$status" -eq 2 ]
  [ "${#lines[@]}" -eq 1 ]
  [ ! -e s.gpg ]
  "${SF[@]}" -c -o s.gpg p
  [ "$("${SF[@]}" --rfc2440 -d s.gpg)" = hello ]
  run "${SF[@]}" --compliance rfc2440 --aead-algo ocb -c -o s2.gpg p
  [ "$status" -eq 2 ]
  [ "$output" = "sfenc: --aead-algo: RFC 2440 (--rfc2440) has no AEAD" ]
}

# Whether the installed libgcrypt claims de-vs compliance, as gpg asks.
libgcrypt_de_vs () {
  gpg --list-gcrypt-config | grep -q '^compliance:.*de-vs'
}

@test "gpgcmds: --compliance=de-vs: -c fails as gpg's does, with its status lines" {
  need_gpg_2_2_40
  libgcrypt_de_vs \
    && skip "NOT TESTED: this libgcrypt claims de-vs compliance; the test expects gpg's refusal without it"
  echo hello > p
  run "${GPG[@]}" --compliance=de-vs --status-fd 1 -c -o g.gpg p
  [ "$status" -eq 2 ]
  local g_status=$(grep '^\[GNUPG:\]' <<<"$output")
  run "${SF[@]}" --compliance=de-vs --status-fd 1 -c -o s.gpg p
  [ "$status" -eq 2 ]
  [ "$(grep '^\[GNUPG:\]' <<<"$output")" = "$g_status" ]
  [ "${lines[2]}" = "sfenc: --compliance=de-vs: RNG is not compliant with --compliance=de-vs mode" ]
  [ ! -e s.gpg ]
  [ ! -e g.gpg ]
  # A cipher outside de-vs is refused before that.
  run "${SF[@]}" --compliance=de-vs --cipher-algo twofish -c -o s.gpg p
  [ "$status" -eq 2 ]
  [ "$output" = "sfenc: --compliance=de-vs: cipher algorithm 'TWOFISH' may not be used in --compliance=de-vs mode" ]
  run "${GPG[@]}" --compliance=de-vs --cipher-algo twofish -c -o g.gpg p
  [ "$status" -eq 2 ]
  [[ $output == *"cipher algorithm 'TWOFISH' may not be used in --compliance=de-vs mode"* ]]
}

@test "gpgcmds: -d writes DECRYPTION_COMPLIANCE_MODE when gpg does; --require-compliance fails when gpg's does" {
  need_gpg_2_2_40
  local c m
  echo hello > p
  for c in aes256 aes128 3des twofish cast5; do
    "${GPG[@]}" --cipher-algo $c -c -o g.gpg p
    for m in "" --compliance=de-vs; do
      diff <("${GPG[@]}" $m --status-fd 1 -d g.gpg 2> /dev/null | grep -e COMPLIANCE -e '^hello') \
           <("${SF[@]}" $m --status-fd 1 -d g.gpg 2> /dev/null | grep -e COMPLIANCE -e '^hello') \
        || { echo "$c $m"; return 1; }
    done
    run "${GPG[@]}" --compliance=de-vs --require-compliance -d g.gpg
    local g_status=$status
    run "${SF[@]}" --compliance=de-vs --require-compliance -d g.gpg
    [ "$status" -eq "$g_status" ] || { echo "$c: gpg $g_status, sfenc $status"; return 1; }
    # Outside de-vs it changes nothing, as in gpg.
    [ "$("${SF[@]}" --require-compliance -d g.gpg 2> /dev/null)" = hello ]
  done
  libgcrypt_de_vs \
    || echo "# NOT TESTED: DECRYPTION_COMPLIANCE_MODE itself: this libgcrypt does not claim de-vs compliance, so neither gpg nor sfenc writes it" >&3
}

@test "gpgcmds: --gpgconf-list prints gpg's lines, --gpgconf-test succeeds, --gen-prime is refused, as gpg's" {
  need_gpg_2_2_40
  diff <(gpg --gpgconf-list) <("$SFENC" --gpgconf-list)
  run gpg --gpgconf-test
  [ "$status" -eq 0 ]
  run "$SFENC" --gpgconf-test
  [ "$status" -eq 0 ]
  [ -z "$output" ]
  run gpg --gen-prime 1 64
  [ "$status" -eq 2 ]
  run "$SFENC" --gen-prime 1 64
  [ "$status" -eq 2 ]
  [ "$output" = "sfenc: --gen-prime: not supported, as in gpg 2.2" ]
}

@test "gpgcmds: --list-key is --list-keys; -f and -F name recipients; the key-only options change nothing for -c" {
  need_gpg_2_2_40
  echo hello > p
  run "$SFENC" --batch --status-fd 1 --list-key
  [ "$status" -eq 2 ]
  [ "${lines[0]}" = "[GNUPG:] FAILURE list-key 33554492" ]
  # -c with these encrypts as without them, in gpg too.
  local o
  for o in "-f r.asc" "-F r.asc" "--recipient-file r.asc" "--hidden-recipient-file r.asc" \
           "--force-sign-key" "--use-only-openpgp-card" "--force-ownertrust ultimate" \
           "-i" "--interactive" "--no" "--passphrase-repeat 0" "--passphrase-repeat 3" \
           "--no-require-secmem" "--debug-quick-random"; do
    "${GPG[@]}" $o -c -o g.gpg p 2> /dev/null
    "${SF[@]}" $o -c -o s.gpg p
    diff <(packets g.gpg) <(packets s.gpg) || { echo "$o"; return 1; }
    [ "$("${SF[@]}" -d s.gpg)" = hello ]
    rm s.gpg
  done
  run "${SF[@]}" --passphrase-repeat 10 -c -o s.gpg p
  [ "$status" -eq 2 ]
  [ ! -e s.gpg ]
}

@test "gpgcmds: --no keeps an existing output without asking on --command-fd" {
  echo hello > p
  echo old > s.gpg
  run bash -c "echo y | '$SFENC' --passphrase s --no --command-fd 0 --status-fd 1 -c -o s.gpg p"
  [ "$status" -eq 2 ]
  [[ $output != *GET_BOOL* ]]
  [ "$(cat s.gpg)" = old ]
  # Without --no the question is asked, and the answer replaces it.
  run bash -c "echo y | '$SFENC' --passphrase s --command-fd 0 --status-fd 1 -c -o s.gpg p"
  [ "$status" -eq 0 ]
  [[ $output == *"GET_BOOL openfile.overwrite.okay"* ]]
  [ "$(cat s.gpg)" != old ]
}

@test "gpgcmds: -c takes the first of the personal cipher and compression preferences, as gpg -c does" {
  need_gpg_2_2_40
  local o
  echo hello > p
  for o in "--personal-cipher-prefs twofish" "--personal-cipher-preferences twofish,aes" \
           "--s2k-cipher-algo aes128 --personal-cipher-prefs twofish" \
           "--openpgp --personal-cipher-prefs S10" "--personal-cipher-prefs twofish --cipher-algo aes128" \
           "--personal-cipher-prefs none" "--personal-cipher-prefs aes --personal-cipher-prefs 3des" \
           "--personal-compress-prefs zlib" "--personal-compress-preferences Z3" \
           "--personal-compress-prefs uncompressed" "--personal-compress-prefs zlib --compress-algo bzip2" \
           "--personal-digest-prefs sha512" "--personal-digest-preferences sha256"; do
    "${GPG[@]}" $o -c -o g.gpg p
    "${SF[@]}" $o -c -o s.gpg p
    diff <(packets g.gpg) <(packets s.gpg) || { echo "$o"; return 1; }
  done
  # So that the loop cannot pass on defaults: TWOFISH is id 10, ZLIB 2.
  "${SF[@]}" --personal-cipher-prefs twofish --personal-compress-prefs zlib -c -o s.gpg p
  packets s.gpg | grep -q 'cipher 10,'
  packets s.gpg | grep -q 'algo=2'
  run "${SF[@]}" --personal-compress-prefs foo -c -o x.gpg p
  [ "$status" -eq 2 ]
  [ "$output" = "sfenc: --personal-compress-prefs: invalid item 'foo' in preference string" ]
  run "${SF[@]}" --personal-cipher-prefs foo -c -o x.gpg p
  [ "$status" -eq 2 ]
  [ ! -e x.gpg ]
}

@test "gpgcmds: --disable-cipher-algo refuses the cipher for -c and -d as gpg does; an unknown name is ignored" {
  need_gpg_2_2_40
  echo hello > p
  "${GPG[@]}" -c -o g.gpg p
  run "${GPG[@]}" --disable-cipher-algo aes256 -d g.gpg
  [ "$status" -eq 2 ]
  run "${SF[@]}" -q --disable-cipher-algo aes256 -d g.gpg
  [ "$status" -eq 2 ]
  [ "$output" = "sfenc: decryption failed: encrypted with AES256, which --disable-cipher-algo disables" ]
  [ "$("${GPG[@]}" --disable-cipher-algo foo -d g.gpg 2> /dev/null)" = hello ]
  [ "$("${SF[@]}" --disable-cipher-algo foo -d g.gpg)" = hello ]
  run "${GPG[@]}" --disable-cipher-algo twofish --cipher-algo twofish -c -o g2.gpg p
  [ "$status" -eq 2 ]
  run "${SF[@]}" --disable-cipher-algo twofish --cipher-algo twofish -c -o s.gpg p
  [ "$status" -eq 2 ]
  [ "$output" = "sfenc: --cipher-algo: TWOFISH is disabled with --disable-cipher-algo" ]
  [ ! -e s.gpg ]
  # gpg aborts here ("this is a bug"); sfenc refuses in one line.
  run "${SF[@]}" --disable-cipher-algo 3des --openpgp -c -o s.gpg p
  [ "$status" -eq 2 ]
  [ "${#lines[@]}" -eq 1 ]
  # "AES" is AES128, in gpg too: the default AES256 stays.
  "${SF[@]}" --disable-cipher-algo AES -c -o s.gpg p
  packets s.gpg | grep -q 'cipher 9,'
}

@test "gpgcmds: an abbreviation of several names of one command is that command, as gpg's parser takes it" {
  need_gpg_2_2_40
  # --list-k: --list-keys and --list-key; --quick-gen: two names of
  # one command, in gpg too.
  run "$SFENC" --batch --status-fd 1 --list-k
  [ "$status" -eq 2 ]
  [ "${lines[0]}" = "[GNUPG:] FAILURE list-keys 33554492" ]
  run "$SFENC" --batch --status-fd 1 --quick-gen
  [ "${lines[0]}" = "[GNUPG:] FAILURE quick-gen-key 33554492" ]
  # Abbreviations of different commands stay ambiguous, in gpg too.
  local o
  for o in --list-s --with-s --print-m; do
    run gpg --batch "$o"
    [[ $output == *"is ambiguous"* ]] || { echo "gpg $o: $output"; return 1; }
    run "$SFENC" --batch "$o"
    [ "$status" -eq 2 ]
    [ "$output" = "sfenc: $o: ambiguous option" ]
  done
}
