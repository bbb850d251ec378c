#!/usr/bin/env bats
# gpg's whole command line (issue 41): every option of gpg 2.2.40, as
# its --dump-options lists them in tests/gpg-2.2.40-options.txt, gets
# an answer from sfenc other than "unknown option", but for the few
# that gpg refuses itself.
#
# An option is tried as "sfenc --batch OPTION" with nothing after it,
# in an empty directory with no input: the parser answers first, with
# "unknown option" for a name it does not know and "missing argument"
# for one that takes an argument, so no argument is needed and none
# can be mistaken for a file or a passphrase.

# The options gpg 2.2.40 lists but refuses itself ("invalid option"):
# its argparse group titles, and two options whose replacement it
# names.  sfenc refuses them too.
GPG_REFUSES=(--Configuration --ImportExport --Input --Keylist --Monitor
             --Output --Security --print-dane-records --print-pka-records)

load gpg-2-2-40

setup () {
  SFENC=${SFENC:-$BATS_TEST_DIRNAME/../g10/sfenc}
  LIST=$BATS_TEST_DIRNAME/gpg-2.2.40-options.txt
  T=$BATS_TEST_TMPDIR
  export LC_ALL=C
  export GNUPGHOME="$T/gnupg"
  mkdir -p -m 700 "$GNUPGHOME" "$T/cwd"
  # No module of an installed sfenc may change what is tried.
  export SFENC_MODULE_DIR="$T/no-modules"
}

teardown () {
  gpgconf --kill gpg-agent > /dev/null 2>&1 || true
}

# gpg's options, without the list's header comment.
gpg_options () {
  grep -v '^#' "$LIST"
}


# Print "unknown", "arg" or "flag": how sfenc answers option $1.  An
# option that the parser takes only as the abbreviation of a longer
# one of its own is unknown too.
sfenc_answer () {
  local err rc=0
  err=$(cd "$T/cwd" && timeout 20 "$SFENC" --batch "$1" </dev/null 2>&1 >/dev/null) || rc=$?
  [ $rc -ne 124 ] || { echo hangs; return; }
  case $err in
    *"unknown option"*|*"ambiguous option"*) echo unknown ;;
    *)
      if ! grep -qx -e "$1" <<<"$SFENC_OPTIONS"; then
        echo unknown
      elif [[ $err == *"missing argument"* ]]; then
        echo arg
      else
        echo flag
      fi ;;
  esac
}

# Print "invalid", "arg" or "flag": how gpg answers option $1.  Only
# for options that in gpg, too, do nothing without a command: the
# command that gpg guesses reads the empty stdin and fails.
gpg_answer () {
  local err
  err=$(cd "$T/cwd" && timeout 20 gpg --batch --no-tty "$1" </dev/null 2>&1 >/dev/null) || true
  case $err in
    *"invalid option"*) echo invalid ;;
    *"missing argument"*) echo arg ;;
    *) echo flag ;;
  esac
}

@test "gpgsurface: the list is the installed gpg 2.2.40's --dump-options" {
  need_gpg_2_2_40
  [ "$(gpg_options | wc -l)" -eq 408 ]
  diff <(gpg_options) <(gpg --dump-options)
}

@test "gpgsurface: sfenc calls none of gpg's options unknown" {
  local o answer unknown=() hangs=()
  SFENC_OPTIONS=$("$SFENC" --dump-options)
  while read -r o; do
    answer=$(sfenc_answer "$o")
    [ "$answer" != hangs ] || hangs+=("$o")
    if printf '%s\n' "${GPG_REFUSES[@]}" | grep -qx -e "$o"; then
      [ "$answer" = unknown ] || { echo "gpg refuses $o, sfenc answers: $answer"; return 1; }
    elif [ "$answer" = unknown ]; then
      unknown+=("$o")
    fi
  done < <(gpg_options)
  [ ${#hangs[@]} -eq 0 ] || { echo "hang:" "${hangs[@]}"; return 1; }
  [ "${#unknown[@]}" -eq 0 ] \
    || { echo "${#unknown[@]} of gpg's options unknown to sfenc:" "${unknown[@]}"; return 1; }
}

@test "gpgsurface: gpg refuses GPG_REFUSES itself" {
  need_gpg_2_2_40
  local o
  for o in "${GPG_REFUSES[@]}"; do
    [ "$(gpg_answer "$o")" = invalid ] || { echo "gpg accepts $o"; return 1; }
  done
}

@test "gpgsurface: each option accepted without effect takes an argument exactly when gpg's does" {
  need_gpg_2_2_40
  local o n=0
  SFENC_OPTIONS=$("$SFENC" --dump-options)
  # The options of --help's group of gpg options without effect.
  while read -r o; do
    grep -qx -e "$o" < <(gpg_options) || continue
    [ "$(sfenc_answer "$o")" = "$(gpg_answer "$o")" ] \
      || { echo "$o: sfenc $(sfenc_answer "$o"), gpg $(gpg_answer "$o")"; return 1; }
    n=$((n + 1))
  done < <("$SFENC" --help | sed -n '/^Options of gpg without effect:$/,/^$/p' \
             | grep -o -e '^ *--[a-z0-9-]*' | tr -d ' ')
  # The group was found and holds the options added for issue 41.
  [ "$n" -gt 150 ]
}

# $T/m.gpg, $T/m.asc: "hello" encrypted by gpg with passphrase "s";
# $T/m-ocb.gpg: by sfenc with OCB.
make_messages () {
  echo hello > "$T/p"
  gpg --batch --yes --pinentry-mode loopback --passphrase s --s2k-count 65536 \
      -c -o "$T/m.gpg" "$T/p"
  gpg --batch --yes --pinentry-mode loopback --passphrase s --s2k-count 65536 \
      -a -c -o "$T/m.asc" "$T/p"
  "$SFENC" --batch --passphrase s --s2k-count 65536 --aead-algo ocb \
      -o "$T/m-ocb.gpg" -c "$T/p"
}

@test "gpgsurface: Vim's gnupg plugin's --list-only run gives gpg's lines, status lines and exit status" {
  need_gpg_2_2_40
  make_messages
  local m
  for m in m.gpg m.asc; do
    # The plugin's command; no passphrase is given, none is asked for.
    run gpg --decrypt --list-only --dry-run --logger-fd 1 "$T/$m" </dev/null
    [ "$status" -eq 0 ]
    local want=$output
    run "$SFENC" --decrypt --list-only --dry-run --logger-fd 1 "$T/$m" </dev/null
    [ "$status" -eq 0 ]
    [ "$output" = "$want" ]
    [[ $output == *"gpg: encrypted with 1 passphrase" ]]
    # On stderr without --logger-fd, nothing on stdout; gpg's status lines.
    gpg --batch --status-fd 3 --list-only -d "$T/$m" 3>"$T/st-gpg" 2>"$T/err-gpg" >"$T/out-gpg"
    "$SFENC" --batch --status-fd 3 --list-only -d "$T/$m" 3>"$T/st-sfenc" 2>"$T/err-sfenc" >"$T/out-sfenc"
    diff "$T/st-gpg" "$T/st-sfenc"
    diff "$T/err-gpg" "$T/err-sfenc"
    [ ! -s "$T/out-sfenc" ] && [ ! -s "$T/out-gpg" ]
  done
  run "$SFENC" --list-only -d "$T/m-ocb.gpg" </dev/null
  [ "$status" -eq 0 ]
  # Its SKESK holds the session key: gpg says so (tests/sfenc-gpglog.bats).
  [ "$output" = $'gpg: AES256.OCB encrypted session key\ngpg: encrypted with 1 passphrase' ]
  # Input that is no message is an error, as in gpg.
  run "$SFENC" --list-only -d "$T/p" </dev/null
  [ "$status" -eq 2 ]
}

@test "gpgsurface: --dry-run: -d decrypts as gpg's does" {
  need_gpg_2_2_40
  make_messages
  run gpg --batch --pinentry-mode loopback --passphrase s --dry-run -d "$T/m.gpg"
  [ "$status" -eq 0 ]
  [[ $output == *hello* ]]
  run "$SFENC" --batch -q --passphrase s --dry-run -d "$T/m.gpg"
  [ "$status" -eq 0 ]
  [ "$output" = hello ]
}

# Run $1 (gpg or sfenc) with --dry-run and the rest: its status lines
# to dry.status, its standard output to dry.out.
dry_run () {
  local prog=$1
  shift
  if [ "$prog" = gpg ]; then
    gpg --batch --pinentry-mode loopback --passphrase s --dry-run \
      --status-file "$T/dry.status" "$@" > "$T/dry.out" 2> /dev/null
  else
    "$SFENC" --batch --passphrase s --dry-run \
      --status-file "$T/dry.status" "$@" > "$T/dry.out" 2> /dev/null
  fi
}

@test "gpgsurface: --dry-run with -c, --store, --enarmor and --dearmor makes and replaces no file, as gpg's" {
  need_gpg_2_2_40
  make_messages
  local prog cmd in
  for prog in gpg sfenc; do
    for cmd in -c --store --enarmor --dearmor; do
      in=$T/p
      [ "$cmd" = --dearmor ] && in=$T/m.asc
      # The file it would write, and -o FILE: none is made, and one
      # that exists is neither replaced nor refused.
      rm -f "$in.gpg" "$in.asc" "$T/o.out"
      dry_run "$prog" "$cmd" "$in" || { echo "$prog $cmd FILE failed"; return 1; }
      [ ! -e "$in.gpg" ] && [ ! -e "$in.asc" ] && [ ! -s "$T/dry.out" ]
      echo precious > "$T/o.out"
      dry_run "$prog" "$cmd" -o "$T/o.out" "$in" || { echo "$prog $cmd -o failed"; return 1; }
      [ "$(cat "$T/o.out")" = precious ]
      # From the standard input, to the standard output: written,
      # unless -o - says so.
      dry_run "$prog" "$cmd" < "$in"
      [ -s "$T/dry.out" ] || { echo "$prog $cmd: nothing on stdout"; return 1; }
      dry_run "$prog" "$cmd" -o - < "$in"
      [ ! -s "$T/dry.out" ] || { echo "$prog $cmd -o -: wrote stdout"; return 1; }
    done
    # -c asks for the passphrase and reports the encryption.
    dry_run "$prog" -c "$T/p"
    grep -v '^\[GNUPG:\] KEY_CONSIDERED' "$T/dry.status" > "$T/status.$prog"
  done
  diff "$T/status.gpg" "$T/status.sfenc"
  grep -q '^\[GNUPG:\] END_ENCRYPTION' "$T/status.sfenc"
}

@test "gpgsurface: tomb's --no-mdc-warning changes nothing, as in gpg" {
  need_gpg_2_2_40
  make_messages
  run "$SFENC" --batch -q --passphrase s --no-mdc-warning -d "$T/m.gpg"
  [ "$status" -eq 0 ]
  [ "$output" = hello ]
  run gpg --batch --pinentry-mode loopback --passphrase s --no-mdc-warning -d "$T/m.gpg"
  [ "$status" -eq 0 ]
}

# The SKESK's cipher and hash and the literal packet's mode of message
# $1, as gpg --list-packets shows them.
packet_summary () {
  gpg --batch --pinentry-mode loopback --passphrase s --list-packets "$1" 2>/dev/null \
    | grep -o -e 'cipher [0-9]*, aead [0-9]*,s2k [0-9]*, hash [0-9]*' -e 'mode [a-z]'
}

@test "gpgsurface: --openpgp and --rfc4880 choose the cipher as gpg's do; AEAD and Argon2 are refused" {
  need_gpg_2_2_40
  local GPG=(gpg --batch --yes --pinentry-mode loopback --passphrase s --s2k-count 65536)
  local SF=("$SFENC" --batch --yes --passphrase s --s2k-count 65536)
  local args
  echo hello > "$T/p"
  # tomb's options, then cipher options on either side of --openpgp.
  for args in "--openpgp" "--rfc4880" "--cipher-algo AES256 --s2k-digest-algo SHA512 --openpgp" \
              "--openpgp --s2k-cipher-algo AES128" "--s2k-cipher-algo TWOFISH --rfc4880"; do
    "${GPG[@]}" $args -c -o "$T/g.gpg" "$T/p"
    "${SF[@]}" $args -c -o "$T/s.gpg" "$T/p"
    [ "$(packet_summary "$T/s.gpg")" = "$(packet_summary "$T/g.gpg")" ] \
      || { echo "$args: sfenc $(packet_summary "$T/s.gpg"), gpg $(packet_summary "$T/g.gpg")"; return 1; }
  done
  # Without it: AES256, not 3DES.
  "${SF[@]}" -c -o "$T/s.gpg" "$T/p"
  [[ $(packet_summary "$T/s.gpg") == "cipher 9,"* ]]
  run "${SF[@]}" --openpgp --aead-algo ocb -c -o "$T/a.gpg" "$T/p"
  [ "$status" -eq 2 ]
  [ "$output" = "sfenc: --aead-algo: RFC 4880 (--openpgp) has no AEAD" ]
  run "${SF[@]}" --s2k-mode argon2 --rfc4880 -c -o "$T/a.gpg" "$T/p"
  [ "$status" -eq 2 ]
  [ "${#lines[@]}" -eq 1 ]
  [ ! -e "$T/a.gpg" ]
}

@test "gpgsurface: --no-textmode takes back -t, as gpg's does" {
  need_gpg_2_2_40
  echo hello > "$T/p"
  gpg --batch --yes --pinentry-mode loopback --passphrase s -t --no-textmode -c -o "$T/g.gpg" "$T/p"
  "$SFENC" --batch --yes --passphrase s -t --no-textmode -c -o "$T/s.gpg" "$T/p"
  [ "$(packet_summary "$T/s.gpg" | tail -n 1)" = "mode b" ]
  [ "$(packet_summary "$T/g.gpg" | tail -n 1)" = "mode b" ]
  "$SFENC" --batch --yes --passphrase s --no-textmode -t -c -o "$T/s.gpg" "$T/p"
  [ "$(packet_summary "$T/s.gpg" | tail -n 1)" = "mode t" ]
}

@test "gpgsurface: --armour is --armor, as in gpg" {
  echo hello > "$T/p"
  "$SFENC" --batch --yes --passphrase s --s2k-count 65536 --armour -c -o "$T/s.asc" "$T/p"
  [ "$(head -n 1 "$T/s.asc")" = "-----BEGIN PGP MESSAGE-----" ]
  run "$SFENC" --batch -q --passphrase s -d "$T/s.asc"
  [ "$status" -eq 0 ]
  [ "$output" = hello ]
}

@test "gpgsurface: --no-batch takes back --batch, as gpg's does" {
  echo hello > "$T/p"
  # Without a terminal: --batch forbids asking; after --no-batch sfenc
  # tries the terminal, as without --batch.
  run setsid "$SFENC" --batch -c -o "$T/s.gpg" "$T/p" </dev/null
  [ "$status" -eq 2 ]
  [[ $output == *"--batch forbids asking"* ]]
  run setsid "$SFENC" --batch --no-batch -c -o "$T/s.gpg" "$T/p" </dev/null
  [ "$status" -eq 2 ]
  [[ $output == *"cannot ask for it: /dev/tty"* ]]
}

@test "gpgsurface: --user and --remote-user name a recipient, --sign-with a signer, as in gpg" {
  need_gpg_2_2_40
  echo hello > "$T/p"
  local args
  for args in "-e --user foo" "-e --remote-user foo" "-s --sign-with foo"; do
    gpg --batch --status-fd 3 $args -o "$T/g.out" "$T/p" 3>"$T/st-gpg" 2>/dev/null || true
    run "$SFENC" --batch --status-fd 3 $args -o "$T/s.out" "$T/p" 3>"$T/st-sfenc"
    [ "$status" -eq 2 ]
    [ "${#lines[@]}" -eq 1 ]
    # The INV_RECP or INV_SGNR line naming foo, and the FAILURE
    # location, as gpg's.
    diff <(grep -o -e '^\[GNUPG:\] INV_[A-Z]* [0-9]* foo$' -e '^\[GNUPG:\] FAILURE [a-z]*' "$T/st-gpg") \
         <(grep -o -e '^\[GNUPG:\] INV_[A-Z]* [0-9]* foo$' -e '^\[GNUPG:\] FAILURE [a-z]*' "$T/st-sfenc")
    grep -q ' foo$' "$T/st-sfenc"
  done
}

@test "gpgsurface: --compression-algo is --compress-algo, as in gpg" {
  need_gpg_2_2_40
  echo hello > "$T/p"
  gpg --batch --yes --pinentry-mode loopback --passphrase s --compression-algo bzip2 -c -o "$T/g.gpg" "$T/p"
  "$SFENC" --batch --yes --passphrase s --s2k-count 65536 --compression-algo bzip2 -c -o "$T/s.gpg" "$T/p"
  local want
  want=$(gpg --batch --pinentry-mode loopback --passphrase s --list-packets "$T/g.gpg" 2>/dev/null | grep '^:compressed')
  [ "$want" = ":compressed packet: algo=3" ]
  [ "$(gpg --batch --pinentry-mode loopback --passphrase s --list-packets "$T/s.gpg" 2>/dev/null | grep '^:compressed')" = "$want" ]
}

@test "gpgsurface: --dump-option-table has gpg's fields and flags, a line per option" {
  need_gpg_2_2_40
  "$SFENC" --dump-option-table > "$T/table"
  # NAME:ID:FLAGS:HELP: on every line, for every option of the table.
  grep -vE '^[a-z0-9-]+:[0-9]+:[0-9]+:[^:]*:$' "$T/table" && return 1
  diff <(cut -d: -f1 "$T/table" | sed 's/^/--/') <("$SFENC" --dump-options)
  # The id of a short option is its character; the flags say the
  # argument's type and whether it is a command, as gpg's do.
  gpg --dump-option-table > "$T/gpg-table"
  local name
  for name in armor output symmetric decrypt compress-level s2k-count \
              textmode cipher-algo passphrase-fd list-packets; do
    diff <(grep "^$name:" "$T/gpg-table" | cut -d: -f1,3) \
         <(grep "^$name:" "$T/table" | cut -d: -f1,3)
  done
  [ "$(grep '^armor:' "$T/table" | cut -d: -f2)" -eq 97 ]
}

@test "gpgsurface: --warranty says there is none, and exits 0" {
  run "$SFENC" --warranty
  [ "$status" -eq 0 ]
  [[ "$output" == *"NO WARRANTY"* ]]
  gpg --warranty | grep -q "WITHOUT ANY WARRANTY" \
    || echo "NOT TESTED: gpg --warranty, the oracle of the exit status" >&3
}

# Run the rest of the line where memory cannot be locked: no lockable
# memory, and as root without the capability to lock it anyway.
without_mlock () {
  if [ "$(id -u)" -eq 0 ]; then
    prlimit --memlock=0:0 setpriv --bounding-set -ipc_lock "$@"
  else
    prlimit --memlock=0:0 "$@"
  fi
}

@test "gpgsurface: --require-secmem refuses to run where memory cannot be locked, as gpg" {
  if [ "${SFENC_SANITIZER:-}" = address ]; then
    # AddressSanitizer's mlock(2) locks nothing and returns 0, so
    # libgcrypt's secure memory never meets the refusal.
    skip "NOT TESTED under AddressSanitizer: its mlock(2) succeeds without locking"
  fi
  need_gpg_2_2_40
  without_mlock true \
    || skip "NOT TESTED: this process may not drop its right to lock memory (prlimit, setpriv)"
  echo hello > "$T/p"
  local args=(--batch --status-fd 3 --passphrase s --pinentry-mode loopback -c)
  without_mlock gpg "${args[@]}" --require-secmem -o "$T/g.gpg" "$T/p" \
    3> "$T/st-gpg" 2> /dev/null && return 1
  grep -q '^\[GNUPG:\] FAILURE option-checking 33554433$' "$T/st-gpg"
  run without_mlock "$SFENC" "${args[@]}" --require-secmem -o "$T/s.gpg" "$T/p" 3> "$T/st-sfenc"
  [ "$status" -eq 2 ]
  [ "${#lines[@]}" -eq 1 ]
  [[ "$output" == *"--require-secmem: will not run with insecure memory" ]]
  diff <(grep FAILURE "$T/st-gpg") <(grep FAILURE "$T/st-sfenc")
  [ ! -e "$T/s.gpg" ]
  # --no-require-secmem takes it back; where memory can be locked it
  # is no obstacle.
  without_mlock "$SFENC" "${args[@]}" --require-secmem --no-require-secmem \
    -o "$T/s.gpg" "$T/p" 3> /dev/null
  "$SFENC" "${args[@]}" --require-secmem --yes -o "$T/s.gpg" "$T/p" 3> /dev/null
  gpg --batch --passphrase s --pinentry-mode loopback -d "$T/s.gpg" 2> /dev/null | cmp - "$T/p"
}

@test "gpgsurface: --preserve-permissions is accepted: sfenc writes no keyring" {
  echo hello > "$T/p"
  "$SFENC" --batch --passphrase s --preserve-permissions -c -o "$T/s.gpg" "$T/p"
  "$SFENC" --batch --passphrase s -d "$T/s.gpg" 2> /dev/null | cmp - "$T/p"
}

# The ids gpg --list-packets shows for message $1: the SKESK's cipher
# and the compression algorithm, if any.
cipher_and_compression () {
  gpg --batch --pinentry-mode loopback --passphrase s --list-packets "$1" \
    2> /dev/null | grep -o 'cipher [0-9]*\|compressed packet: algo=[0-9]' \
    | tr '\n' ' '
}

@test "gpgsurface: algorithm names and preference strings are read, and refused, as gpg reads them" {
  need_gpg_2_2_40
  make_messages
  local case prog gpg_status cmd
  while IFS= read -r case; do
    [ -n "$case" ] || continue
    # shellcheck disable=SC2086
    set -- $case
    # Decrypting: gpg refuses a name it cannot read with any command.
    gpg_status=0
    gpg --batch --pinentry-mode loopback --passphrase s "$@" \
      -d "$T/m.gpg" > /dev/null 2>&1 || gpg_status=$?
    run "$SFENC" --batch -q --passphrase s "$@" -d "$T/m.gpg"
    echo "$case: -d: gpg $gpg_status, sfenc $status: $output"
    if [ "$gpg_status" -ne 0 ]; then
      [ "$status" -eq 2 ]
      [ "${#lines[@]}" -eq 1 ]
      [[ $output == "sfenc: --"* ]]
      continue
    fi
    [ "$status" -eq 0 ]
    # Encrypting: the same cipher and compression as gpg's.
    for prog in gpg sfenc; do
      if [ "$prog" = gpg ]; then
        cmd=(gpg --batch --pinentry-mode loopback)
      else
        cmd=("$SFENC" --batch)
      fi
      "${cmd[@]}" --passphrase s "$@" -c -o "$T/c.$prog" --yes "$T/p" \
        2> /dev/null
    done
    [ "$(cipher_and_compression "$T/c.gpg")" = "$(cipher_and_compression "$T/c.sfenc")" ] \
      || { echo "$case: gpg $(cipher_and_compression "$T/c.gpg"), sfenc $(cipher_and_compression "$T/c.sfenc")"; return 1; }
  done <<'CASES'
--cipher-algo NOPE
--cipher-algo S9
--cipher-algo s3
--cipher-algo AES-256
--cipher-algo RIJNDAEL
--cipher-algo 3des
--cipher-algo TWOFISH128
--cipher-algo S5
--s2k-cipher-algo NOPE
--s2k-cipher-algo AES128
--s2k-digest-algo H8
--s2k-digest-algo h2
--s2k-digest-algo SHA-256
--s2k-digest-algo 8
--s2k-digest-algo RMD160
--cert-digest-algo NOPE
--cert-digest-algo SHA512
--personal-cipher-preferences NOPE
--personal-cipher-preferences S9,S7
--personal-cipher-preferences Z1,AES128
--personal-cipher-preferences AES256,AES256
--personal-cipher-preferences TWOFISH128
--personal-cipher-preferences none
--personal-cipher-preferences aead
--personal-compress-preferences S9,Z2
--personal-compress-preferences zip,NOPE
--personal-compress-preferences uncompressed,zip
--personal-compress-preferences Z4
--personal-digest-preferences NOPE
--personal-digest-preferences Z1,S9,H8,mdc,no-ks-modify
CASES
}
