#!/usr/bin/env bats
# gpg's machine interface for symmetric work (issue 21): --version and
# --list-config as clients parse them, --command-fd with loopback
# pinentry, --enable-special-filenames, --exit-on-status-write-error,
# the commands that need keys, and the options clients send.
#
# gpg is the oracle where it can be one: each case runs gpg and sfenc
# the same way and compares their status lines, the keywords in order.
# tests/sfenc-clients.bats drives sfenc through the real clients.

load public-key

setup () {
  SFENC=${SFENC:-$BATS_TEST_DIRNAME/../g10/sfenc}
  T=$BATS_TEST_TMPDIR
  export LC_ALL=C
  command -v gpg > /dev/null \
    || skip "NOT TESTED: gpg (GnuPG) is not installed, and it is the oracle of this interface"
  # A short home: gpg-agent's socket path must fit in sun_path.
  GH=$(mktemp -d /tmp/sfenc-gh.XXXXXX)
  export GNUPGHOME=$GH
  SF=("$SFENC" --s2k-count 65536 --status-fd 3 --pinentry-mode loopback)
  GPG=(gpg --quiet --no-tty --no-symkey-cache --s2k-count 65536
       --status-fd 3 --pinentry-mode loopback)
  head -c 100000 /dev/urandom > "$T/in"
}

teardown () {
  [ -z "${GH:-}" ] || { gpgconf --kill gpg-agent > /dev/null 2>&1; rm -rf "$GH"; }
}

# The keywords of the status lines in file $1, in order, without
# PROGRESS and INQUIRE_MAXLEN: gpg writes the latter once from itself
# and once for gpg-agent, sfenc once.
keywords () {
  sed -n 's/^\[GNUPG:\] \([A-Z_]*\).*/\1/p' "$1" \
    | grep -v -e '^PROGRESS$' -e '^INQUIRE_MAXLEN$' || true
}

# Run "sfenc ARGS" and "gpg ARGS", each with $T/answers on its command
# descriptor 4 (--command-fd 4 is the caller's), the status lines in
# $T/st-sfenc and $T/st-gpg, the exit status in $sfenc_status and
# $gpg_status; file names ending in "OUT" get the program's name.
both () {
  local prog args a
  sfenc_status=0 gpg_status=0
  for prog in sfenc gpg; do
    args=()
    for a in "$@"; do args+=("${a/%OUT/.$prog}"); done
    if [ $prog = sfenc ]; then
      "${SF[@]}" "${args[@]}" 3> "$T/st-$prog" 4< "$T/answers" \
        > "$T/stdout-$prog" 2> "$T/err-$prog" || sfenc_status=$?
    else
      "${GPG[@]}" "${args[@]}" 3> "$T/st-$prog" 4< "$T/answers" \
        > "$T/stdout-$prog" 2> "$T/err-$prog" || gpg_status=$?
    fi
  done
}

same_keywords () {
  diff <(keywords "$T/st-gpg") <(keywords "$T/st-sfenc") \
    || { echo "(< gpg, > sfenc)"; cat "$T/err-sfenc"; return 1; }
}

one_line_error () {
  # Besides the lines of gpg's log that -d writes first, as gpg
  # (tests/sfenc-gpglog.bats).
  sed -i '/^gpg: /d' "$T/err-sfenc"
  [ "$(wc -l < "$T/err-sfenc")" -eq 1 ] || { cat "$T/err-sfenc"; return 1; }
  grep -q '^sfenc: ' "$T/err-sfenc"
}

@test "gpgiface: --version says gpg's interface version first, as clients parse it" {
  run "$SFENC" --version
  [ "$status" -eq 0 ]
  # python-gnupg 0.4.9 (re.match at the start), duplicity 0.8.22 (the
  # whole line), GPGME (the last word, at least 2.1 for loopback).
  [[ ${lines[0]} =~ ^gpg\ \(GnuPG\)\ ([0-9]+\.[0-9]+\.[0-9]+)$ ]]
  local v=${BASH_REMATCH[1]}
  [ "$(printf '%s\n' 2.1.0 "$v" | sort -V | head -n 1)" = 2.1.0 ]
  # The same version gpg would give, major and minor: the interface.
  [[ $(gpg --version | head -n 1) == "gpg (GnuPG) 2.2."* ]] \
    || skip "NOT TESTED against this gpg: $(gpg --version | head -n 1) is not 2.2"
  [[ $v == 2.2.* ]]
  # And, where gpg has its copyright, what the program really is.
  [[ ${lines[2]} == "sfenc 0."*"not GnuPG"* ]]
}

# The lines of --version of "$@" with a list's continuation lines
# joined to it and the lists cut off: each line's field name.
version_layout () {
  "$@" --version | sed -e ':a' -e '$!N;s/,\n  */, /;ta' -e 'P;D' \
    | sed -e 's/^\(Pubkey:\|Cipher:\|Hash:\|Compression:\) .*/\1/'
}

@test "gpgiface: --version is laid out line for line as gpg's, as tomb reads it" {
  [[ $(gpg --version | head -n 1) == "gpg (GnuPG) 2.2.40" ]] \
    || skip "NOT TESTED: the layout is gpg 2.2.40's; installed: $(gpg --version | head -n 1)"
  run version_layout "$SFENC"
  [ "$status" -eq 0 ]
  local ours=("${lines[@]}")
  run version_layout gpg
  [ "${#ours[@]}" -eq "${#lines[@]}" ]
  # Lines 1, 2 and from 7 on are gpg's; 3 to 6 are sfenc's own.
  [ "${ours[0]}" = "${lines[0]}" ]
  [ "${ours[1]}" = "${lines[1]}" ]
  [[ ${ours[2]} == "sfenc "* ]]
  diff <(printf '%s\n' "${ours[@]:6}") <(printf '%s\n' "${lines[@]:6}")
  # tomb prints line 11 as the cipher list: sfenc's ciphers are gpg's.
  [[ $("$SFENC" --version | sed -n 11p) == "Cipher: IDEA, 3DES, CAST5, BLOWFISH, AES, AES192, AES256, TWOFISH"* ]]
  [[ $(gpg --version | sed -n 11p) == "Cipher: IDEA, 3DES, CAST5, BLOWFISH, AES, AES192, AES256, TWOFISH"* ]]
  # Home: follows --homedir as gpg's does.
  [ "$("$SFENC" --homedir "$T/h" --version | sed -n 8p)" = \
    "$(gpg --homedir "$T/h" --version 2>/dev/null | sed -n 8p)" ]
}

@test "gpgiface: --list-config --with-colons has gpg's items, in gpg's order" {
  run "$SFENC" --list-config --with-colons
  [ "$status" -eq 0 ]
  diff <(gpg --list-config --with-colons | cut -d: -f1-2 | grep -v '^cfg:group$') \
       <(echo "$output" | cut -d: -f1-2)
  [ "$(echo "$output" | grep '^cfg:version:')" = \
    "cfg:version:$("$SFENC" --version | head -n 1 | awk '{ print $NF }')" ]
  echo "$output" | grep -qx 'cfg:ciphername:IDEA;3DES;CAST5;BLOWFISH;AES;AES192;AES256;TWOFISH'
  echo "$output" | grep -qx 'cfg:cipher:1;2;3;4;7;8;9;10'
  echo "$output" | grep -qx 'cfg:compress:0;1;2;3'
  # Every cipher and hash sfenc lists, gpg lists under the same id.
  local item
  for item in cipher digest; do
    comm -23 <(echo "$output" | sed -n "s/^cfg:$item://p" | tr ';' '\n' | sort) \
             <(gpg --list-config --with-colons $item | cut -d: -f3 | tr ';' '\n' | sort) \
      | grep -qvx 1 && { echo "$item ids gpg does not have"; return 1; }
  done
  # Without --with-colons gpg prints nothing; sfenc the same lines.
  run "$SFENC" --list-config
  [ "${lines[0]}" = "cfg:version:${lines[0]#cfg:version:}" ]
}

@test "gpgiface: --list-config ITEM... prints those items, and refuses an unknown one as gpg" {
  run "$SFENC" --list-config --with-colons ciphername compress
  [ "$status" -eq 0 ]
  [ "${#lines[@]}" -eq 2 ]
  [[ ${lines[0]} == cfg:ciphername:* ]]
  [ "${lines[1]}" = "cfg:compress:0;1;2;3" ]
  run "$SFENC" --list-config --with-colons nosuchitem
  [ "$status" -eq 2 ]
  [ "$output" = "sfenc: --list-config: unknown configuration item 'nosuchitem'" ]
  run gpg --list-config --with-colons nosuchitem
  [ "$status" -eq 2 ]
}

@test "gpgiface: --command-fd passphrase when encrypting, as gpg asks it" {
  printf 'pass phrase\n' > "$T/answers"
  both --batch --command-fd 4 -c -o "$T/msgOUT" "$T/in"
  [ "$gpg_status" -eq 0 ]
  [ "$sfenc_status" -eq 0 ]
  same_keywords
  grep -qx '\[GNUPG:\] GET_HIDDEN passphrase.enter' "$T/st-sfenc"
  gpg --batch --quiet --pinentry-mode loopback --passphrase "pass phrase" \
    -d "$T/msg.sfenc" > "$T/out"
  cmp "$T/in" "$T/out"
}

@test "gpgiface: --command-fd passphrase when decrypting, as gpg asks it" {
  "$SFENC" --batch --passphrase "pass phrase" -c -o "$T/msg" "$T/in"
  printf 'pass phrase\n' > "$T/answers"
  both --batch --command-fd 4 -d -o "$T/outOUT" "$T/msg"
  [ "$gpg_status" -eq 0 ]
  [ "$sfenc_status" -eq 0 ]
  same_keywords
  cmp "$T/in" "$T/out.sfenc"
}

@test "gpgiface: the data may follow the answer on the command descriptor (Emacs's way)" {
  { printf 'pass phrase\n'; cat "$T/in"; } \
    | "$SFENC" --command-fd 0 --status-fd 3 --yes -c -o "$T/msg" 3> "$T/st"
  grep -qx '\[GNUPG:\] GOT_IT' "$T/st"
  # Decrypting, the message is read before the question is asked, so
  # it comes from a file, as Emacs passes it (and as gpg needs it).
  printf 'pass phrase\n' | "$SFENC" --command-fd 0 -d "$T/msg" > "$T/out"
  cmp "$T/in" "$T/out"
}

@test "gpgiface: a wrong passphrase on the command descriptor fails as in gpg" {
  "$SFENC" --batch --passphrase "pass phrase" -c -o "$T/msg" "$T/in"
  printf 'wrong\n' > "$T/answers"
  both --batch --command-fd 4 -d -o "$T/outOUT" "$T/msg"
  [ "$gpg_status" -eq 2 ]
  [ "$sfenc_status" -eq 2 ]
  same_keywords
  one_line_error
  [ ! -e "$T/out.sfenc" ]
}

@test "gpgiface: an empty answer is no passphrase, as in gpg" {
  printf '\n' > "$T/answers"
  both --batch --command-fd 4 -c -o "$T/msgOUT" "$T/in"
  [ "$gpg_status" -eq 2 ]
  [ "$sfenc_status" -eq 2 ]
  same_keywords
  one_line_error
  [ ! -e "$T/msg.sfenc" ]
  "$SFENC" --batch --passphrase "pass phrase" -c -o "$T/msg" "$T/in"
  both --batch --command-fd 4 -d -o "$T/outOUT" "$T/msg"
  [ "$sfenc_status" -eq 2 ]
  # gpg writes MISSING_PASSPHRASE twice, from itself and from gpg-agent.
  diff <(keywords "$T/st-gpg" | uniq) <(keywords "$T/st-sfenc")
  [ ! -e "$T/out.sfenc" ]
}

# With $T/answers on the command descriptor, -c and -d cancel as in
# gpg: exit status 2, CANCELED_BY_USER and no output file.
answers_cancel () {
  both --batch --command-fd 4 -c -o "$T/msgOUT" "$T/in"
  [ "$gpg_status" -eq 2 ]
  [ "$sfenc_status" -eq 2 ]
  same_keywords
  grep -qx '\[GNUPG:\] CANCELED_BY_USER' "$T/st-sfenc"
  grep -qx '\[GNUPG:\] FAILURE symencrypt 33554531' "$T/st-sfenc"
  [ ! -e "$T/msg.sfenc" ]
  one_line_error
  "$SFENC" --batch --passphrase "pass phrase" -c -o "$T/msg" "$T/in"
  both --batch --command-fd 4 -d -o "$T/outOUT" "$T/msg"
  [ "$gpg_status" -eq 2 ]
  [ "$sfenc_status" -eq 2 ]
  same_keywords
  grep -qx '\[GNUPG:\] CANCELED_BY_USER' "$T/st-sfenc"
  grep -q '^\[GNUPG:\] END_DECRYPTION' "$T/st-sfenc"
  [ ! -e "$T/out.sfenc" ]
  one_line_error
}

@test "gpgiface: a command descriptor that ends cancels, as in gpg" {
  : > "$T/answers"
  answers_cancel
}

@test "gpgiface: an answer that the command descriptor ends before its line end cancels, as in gpg" {
  # Issue 44: the unfinished answer was taken as the passphrase, a
  # truncated one when encrypting.
  printf 'pass phrase' > "$T/answers"
  answers_cancel
  # On standard input too, as the review ran it.
  run bash -c 'printf "pass phrase" | "$1" --batch --command-fd 0 --status-fd 1 -d "$2"' \
    _ "$SFENC" "$T/msg"
  [ "$status" -eq 2 ]
  [[ $output == *'[GNUPG:] CANCELED_BY_USER'* ]]
  [[ $output != *DECRYPTION_OKAY* ]]
  # With its line end the same answer decrypts.
  printf 'pass phrase\n' | "$SFENC" --batch --command-fd 0 -d -o "$T/out" "$T/msg"
  cmp "$T/in" "$T/out"
}

@test "gpgiface: Control-D in an answer cancels, as in gpg" {
  printf 'pass\004phrase\n' > "$T/answers"
  answers_cancel
  rm -f "$T"/msg*
  printf 'pass phrase\004\n' > "$T/answers"
  answers_cancel
}

@test "gpgiface: --passphrase-fd takes a passphrase that ends without a line end, as gpg does" {
  printf 'pass phrase' > "$T/answers"
  both --batch --passphrase-fd 4 -c -o "$T/msgOUT" "$T/in"
  [ "$gpg_status" -eq 0 ]
  [ "$sfenc_status" -eq 0 ]
  # Each decrypts the other's message with the whole passphrase.
  "${GPG[@]}" --batch --passphrase "pass phrase" -d -o "$T/out.gpg" "$T/msg.sfenc" 3> /dev/null
  "$SFENC" --batch --passphrase "pass phrase" -d -o "$T/out.sfenc" "$T/msg.gpg"
  cmp "$T/in" "$T/out.gpg"
  cmp "$T/in" "$T/out.sfenc"
}

@test "gpgiface: overwriting a file is asked on the command descriptor, after the passphrase" {
  "$SFENC" --batch --passphrase "pass phrase" -c -o "$T/msg" "$T/in"
  echo old > "$T/out"
  # No: the file stays.  (gpg asks the same, but only with a terminal
  # to print "File exists" on, so it cannot be the oracle here.)
  printf 'pass phrase\nn\n' | "${SF[@]}" -q --command-fd 0 -o "$T/out" -d "$T/msg" \
    3> "$T/st" 2> "$T/err" && return 1
  [ "$(cat "$T/out")" = old ]
  [ "$(wc -l < "$T/err")" -eq 1 ]
  [ "$(sed -n 's/^\[GNUPG:\] \(GET_[A-Z]*\|GOT_IT\)/\1/p' "$T/st" | tr '\n' ' ')" = \
    "GET_HIDDEN passphrase.enter GOT_IT GET_BOOL openfile.overwrite.okay GOT_IT " ]
  # Yes: replaced.
  printf 'pass phrase\ny\n' | "${SF[@]}" --command-fd 0 -o "$T/out" -d "$T/msg" 3> /dev/null
  cmp "$T/in" "$T/out"
  # No answer: refused.
  echo old > "$T/out"
  printf 'pass phrase\n' | "${SF[@]}" --command-fd 0 -o "$T/out" -d "$T/msg" \
    3> /dev/null 2> /dev/null && return 1
  [ "$(cat "$T/out")" = old ]
  # --batch: refused without a question, as gpg does.
  printf 'pass phrase\ny\n' > "$T/answers"
  both --batch --command-fd 4 -o "$T/out" -d "$T/msg"
  [ "$gpg_status" -eq 2 ]
  [ "$sfenc_status" -eq 2 ]
  grep -q GET_BOOL "$T/st-sfenc" && return 1
  [ "$(cat "$T/out")" = old ]
}

@test "gpgiface: -&N is descriptor N with --enable-special-filenames, a file name without" {
  "$SFENC" --batch --passphrase "pass phrase" --enable-special-filenames \
    -c -o '-&5' -- '-&6' 5> "$T/msg" 6< "$T/in"
  "$SFENC" --batch --passphrase "pass phrase" --enable-special-filenames \
    -d -o '-&5' -- '-&6' 5> "$T/out" 6< "$T/msg"
  cmp "$T/in" "$T/out"
  gpg --batch --quiet --pinentry-mode loopback --passphrase "pass phrase" \
    --enable-special-filenames -c -o '-&5' -- '-&6' 5> "$T/gmsg" 6< "$T/in"
  "$SFENC" --batch --passphrase "pass phrase" --enable-special-filenames \
    -d -- '-&6' 6< "$T/gmsg" > "$T/out"
  cmp "$T/in" "$T/out"
  # Without the option, as in gpg, "-&6" is a file that does not exist.
  cd "$T"
  run "$SFENC" --batch --passphrase "pass phrase" -d -- '-&6' 6< "$T/msg"
  [ "$status" -eq 2 ]
  [ "$output" = "sfenc: -&6: No such file or directory" ]
}

@test "gpgiface: --exit-on-status-write-error stops at a status line that cannot be written" {
  run "${SF[@]}" --batch --passphrase "pass phrase" --exit-on-status-write-error \
    -c -o "$T/msg" "$T/in" 3> /dev/full
  [ "$status" -eq 2 ]
  [[ $output == "sfenc: --status-fd: write error: No space left on device"* ]]
  [ "${#lines[@]}" -eq 1 ]
  [ ! -e "$T/msg" ]
  [ -z "$(ls "$T" | grep -v '^in$')" ]
  # Without it the lines stop and the work goes on, as in gpg.
  "${SF[@]}" --batch --passphrase "pass phrase" -c -o "$T/msg" "$T/in" 3> /dev/full
  [ -s "$T/msg" ]
  # While decrypting, a status line that fails ends the run before
  # any output is in place.
  run "${SF[@]}" --batch --passphrase "pass phrase" --exit-on-status-write-error \
    -d -o "$T/out" "$T/msg" 3> /dev/full
  [ "$status" -eq 2 ]
  [ ! -e "$T/out" ]
}

@test "gpgiface: -e -r NAME fails with gpg's status lines, one line, exit 2" {
  : > "$T/answers"
  both --batch -e -r nobody -o "$T/msgOUT" "$T/in"
  [ "$gpg_status" -eq 2 ]
  [ "$sfenc_status" -eq 2 ]
  same_keywords
  grep -qx '\[GNUPG:\] INV_RECP 1 nobody' "$T/st-sfenc"
  one_line_error
  [ ! -e "$T/msg.sfenc" ]
  # -c with -e, as gpg allows: the public-key part fails (gpg asks
  # for the passphrase first, sfenc does not).
  both --batch --passphrase x -c -e -r nobody -o "$T/msgOUT" "$T/in"
  [ "$gpg_status" -eq 2 ]
  [ "$sfenc_status" -eq 2 ]
  diff <(keywords "$T/st-gpg" | grep -v NEED_PASSPHRASE_SYM) <(keywords "$T/st-sfenc")
  [ ! -e "$T/msg.sfenc" ]
}

@test "gpgiface: signing fails with gpg's status lines, one line, exit 2" {
  : > "$T/answers"
  both --batch --sign -o "$T/sigOUT" "$T/in"
  [ "$gpg_status" -eq 2 ]
  [ "$sfenc_status" -eq 2 ]
  same_keywords
  one_line_error
}

@test "gpgiface: every command that needs keys fails at once, with a FAILURE line" {
  local cmd
  for cmd in $("$SFENC" --help | sed -n '/^Commands that need keys/,/^$/p' \
                 | grep -o -e '--[a-z-]*'); do
    run timeout 10 "$SFENC" --batch --status-fd 1 "$cmd" < /dev/null
    [ "$status" -eq 2 ] || { echo "$cmd: $status"; return 1; }
    [[ ${lines[-1]} == sfenc:\ * ]] || { echo "$cmd: $output"; return 1; }
    [ "$(echo "$output" | grep -c '^sfenc: ')" -eq 1 ]
    echo "$output" | grep -q '^\[GNUPG:\] FAILURE [a-z-]\+ [0-9]\+$' \
      || { echo "$cmd: $output"; return 1; }
  done
  [ -n "$cmd" ]
}

@test "gpgiface: a FAILURE line names the command by its long name, however it was given" {
  # Issue 44: -k and -K gave an empty location, and an abbreviation
  # itself.  gpg lists an empty keyring and writes no FAILURE, so the
  # location is the command's name as the long option spells it.
  local given want
  while read -r given want; do
    run "$SFENC" --batch --status-fd 1 $given < /dev/null
    [ "$status" -eq 2 ]
    [ "${lines[0]}" = "[GNUPG:] FAILURE $want 33554492" ] \
      || { echo "$given: $output"; return 1; }
  done <<'EOF'
-k list-keys
--list-keys list-keys
--list-k list-keys
-K list-secret-keys
--list-sec list-secret-keys
--fing fingerprint
--import import
--export-ownertrust export-ownertrust
EOF
  # The signing and encrypting commands keep gpg's own locations.
  run "$SFENC" --batch --status-fd 1 -b < /dev/null
  [ "$status" -eq 2 ]
  [[ $output == *'[GNUPG:] FAILURE sign 33554449'* ]]
  run "$SFENC" --batch --status-fd 1 -e -r x < /dev/null
  [ "$status" -eq 2 ]
  [[ $output == *'[GNUPG:] FAILURE encrypt 33554441'* ]]
}

@test "gpgiface: a message for a public key ends with gpg's lines for a missing secret key" {
  public_key_message
  # Not --quiet: gpg leaves NO_SECKEY out with the message it goes with.
  run gpg --batch --no-tty --passphrase x --status-fd 3 -d -o "$T/out.gpg" \
    "$T/pkmsg" 3> "$T/st-gpg"
  [ "$status" -eq 2 ]
  sfenc_status=0
  "$SFENC" --batch --passphrase x --status-fd 3 -d -o "$T/out.sfenc" \
    "$T/pkmsg" 3> "$T/st-sfenc" 2> "$T/err-sfenc" || sfenc_status=$?
  [ "$sfenc_status" -eq 2 ]
  # The same lines, the key id included.
  diff "$T/st-gpg" "$T/st-sfenc"
  grep -q '^\[GNUPG:\] NO_SECKEY [0-9A-F]\{16\}$' "$T/st-sfenc"
  one_line_error
}

@test "gpgiface: a bad option gives gpg's FAILURE line" {
  : > "$T/answers"
  both --no-such-option
  [ "$gpg_status" -eq 2 ]
  [ "$sfenc_status" -eq 2 ]
  diff "$T/st-gpg" "$T/st-sfenc"
}

@test "gpgiface: the options GPGME, python-gnupg, duplicity, Emacs and GnuPG::Interface send are taken" {
  # Their command lines for symmetric work, as traced from the clients
  # themselves with gpg 2.2.40.
  printf 'pass phrase\n' > "$T/answers"
  "$SFENC" --enable-special-filenames --pinentry-mode=loopback --no-sk-comments \
    --homedir "$GH" --status-fd 3 --no-tty --charset utf8 --enable-progress-filter \
    --exit-on-status-write-error --logger-fd 2 --command-fd 4 --symmetric --armor \
    --output - -- '-&5' 3> "$T/st" 4< "$T/answers" 5< "$T/in" > "$T/msg.asc"
  grep -q '^\[GNUPG:\] END_ENCRYPTION' "$T/st"
  "$SFENC" --status-fd 2 --no-tty --no-verbose --pinentry-mode loopback \
    --fixed-list-mode --batch --with-colons --homedir "$GH" --passphrase-fd 0 \
    --decrypt < <(printf 'pass phrase\n'; cat "$T/msg.asc") > "$T/out" 2> /dev/null
  cmp "$T/in" "$T/out"
  "$SFENC" --passphrase-fd 4 --logger-fd 2 --batch --no-tty --no-secmem-warning \
    --ignore-mdc-error --pinentry-mode=loopback --force-mdc --symmetric \
    < "$T/in" 4< "$T/answers" > /dev/null
  "$SFENC" --batch --no-tty --homedir "$GH" --armor --status-fd 3 --passphrase-fd 4 \
    --ignore-mdc-error --pinentry-mode loopback --symmetric \
    < "$T/in" 3> /dev/null 4< "$T/answers" > /dev/null
  "$SFENC" --no-tty --status-fd 3 --yes --homedir "$GH" --command-fd 4 --armor \
    --output "$T/msg2" --pinentry-mode loopback --symmetric < "$T/in" \
    3> /dev/null 4< "$T/answers"
  "$SFENC" --use-agent --no-use-agent --lock-never --no-permission-warning \
    --no-auto-check-trustdb --utf8-strings --display-charset utf-8 --always-trust \
    --list-config > /dev/null
}

@test "gpgiface: --no-verbose takes back -v, as in gpg" {
  "$SFENC" -v --no-verbose --batch --passphrase x -c -o "$T/msg" "$T/in" 2> "$T/err"
  [ ! -s "$T/err" ]
  "$SFENC" -v --batch --passphrase x -c -o "$T/msg2" "$T/in" 2> "$T/err"
  [ -s "$T/err" ]
}
