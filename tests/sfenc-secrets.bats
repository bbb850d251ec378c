#!/usr/bin/env bats
# Secrets are wiped when no longer needed (issue 11).  Each case runs
# sfenc under gdb, which dumps its whole memory (gcore) at several
# stops, in the order sfenc reaches them:
#
#   - controls, where a secret is certainly in use: right after the
#     passphrase is read, at the start of the HKDF that reads the S2K
#     output (v6 SKESK), in each HKDF once its pseudorandom key is the
#     HMAC key (g10/hkdf.c's second gcry_md_setkey), and when each
#     cipher or AEAD key has been set.  The search must find there
#     every secret in use;
#   - "closed": when the output file has been closed, after its last
#     byte: nothing is needed any more, and no secret may be left;
#   - "exit": at the last system call (exit_group); no secret either.
#
# The secrets of a message, computed from the message alone by
# tests/s2k-key.py (through libgcrypt, tests/key-material, where
# Python cannot): the passphrase, the S2K output, the key-encryption
# key, the session key, the SEIPD v2 message key, the pseudorandom key
# of each HKDF (v6 SKESK, SEIPD v2), the halves of each,
# what OCB, EAX and GCM derive from each key they are keyed with, and
# windows of each key schedule as the module itself lays it out
# (tests/key-material, with the module's own setkey).
# tests/secrets-find.py searches the dumps.
#
# The cases of a group run in one gdb session, once, for the first of
# the group's three tests; each test then reads the verdicts of its
# kind of dump.

load byte-edit

ALGOS="AES AES192 AES256 CAST5 BLOWFISH 3DES IDEA TWOFISH"
# The ciphers with 128-bit blocks, which the AEAD modes take.
AEAD_ALGOS="AES AES192 AES256 TWOFISH"
# Argon2 small enough to be quick: one pass, two lanes, 256 KiB.
ARGON2="--s2k-mode argon2 --s2k-argon2-passes 1 --s2k-argon2-parallelism 2
  --s2k-argon2-memory 8"

setup_file () {
  export SFENC=${SFENC:-$BATS_TEST_DIRNAME/../g10/sfenc}
  export MATERIAL=${top_builddir:-$(dirname "$SFENC")/..}/tests/key-material
  export W=$BATS_FILE_TMPDIR
  # One malloc arena: each of sfenc's Argon2 threads would otherwise
  # reserve a heap of 64 MiB, which every dump would carry.
  export MALLOC_ARENA_MAX=1
  # The interpreter itself: a wrapper in front of it (pyenv's) would
  # cost more than the work.
  if command -v python3 > /dev/null; then
    PY=$(python3 -c 'import sys; print(sys.executable)')
    export PY
  fi
  # A passphrase that occurs nowhere else, given as a file so that it
  # is not in argv; and a wrong one.
  head -c 48 /dev/urandom | base64 -w0 | tr -d '/+=' | head -c 40 > "$W/pass"
  echo >> "$W/pass"
  head -c 30 /dev/urandom | base64 -w0 | tr -d '/+=' | head -c 24 > "$W/wrong"
  echo >> "$W/wrong"
  # Longer than what sfenc -d --threads 2 reads before it starts the
  # decrypting thread (g10/source-thread.c), so that it starts.
  head -c 300000 /dev/urandom > "$W/plain"
}

setup () {
  [ -z "${SF_EMULATOR-}" ] || skip "NOT TESTED: gdb cannot debug sfenc under the emulator $SF_EMULATOR"
  # gcore would dump the sanitizer's shadow memory too: terabytes of
  # address space, which fill the disk.
  [ -z "${SFENC_SANITIZER-}" ] || skip "NOT TESTED under the $SFENC_SANITIZER sanitizer: gcore would dump its shadow memory"
  command -v gdb > /dev/null || skip "NOT TESTED: gdb is missing"
  [ -n "${PY-}" ] || skip "NOT TESTED: python3 is missing"
  [ -x "$MATERIAL" ] || skip "NOT TESTED: $MATERIAL is not built (make -C tests key-material)"
  SF=("$SFENC" --batch --no-auto-modules --passphrase-file "$W/pass"
      --s2k-count 65536 -z 0)
  GDB_EX=()
  OUTPUTS=()
}

# STOPS: the stops of a case of format $1, v1 (v4 SKESK, SEIPD v1),
# esk (the same with an encrypted session key), v6 (SEIPD v2) or v5
# (LibrePGP), with AEAD mode $2 (ocb, eax or gcm).  A wrong passphrase
# ($3 = wrong) keys no AEAD with a session key.  A stop is "NAME
# FUNCTION CALL entry|return [PATTERN...]": dump NAME at the entry to,
# or the return from, the CALLth call of FUNCTION; "NAME" alone, the
# last, at the exit_group system call.  The PATTERNs name the secrets
# NAME must hold; without any, it may hold none.
set_stops () {
  local kept

  case ${2-} in
    ocb) kept='ocb-*' ;;
    eax) kept='eax-k?' ;;
    gcm) kept='ghash@*' ;;
  esac
  STOPS=("pass passphrase_get 1 return passphrase")
  case $1 in
    v1) STOPS+=("keyed sf_cipher_setkey 1 return s2k-key s2k-key.schedule@*") ;;
    esk) STOPS+=("keyed1 sf_cipher_setkey 1 return s2k-key s2k-key.schedule@*"
                 "keyed2 sf_cipher_setkey 2 return session-key session-key.schedule@*") ;;
    v5) STOPS+=("keyed1 sf_aead_setkey 1 return s2k-key s2k-key.schedule@* s2k-key.$kept")
        [ "${3-}" = wrong ] ||
          STOPS+=("keyed2 sf_aead_setkey 2 return session-key session-key.schedule@* session-key.$kept") ;;
    v6) STOPS+=("s2k hkdf 1 entry s2k-key"
                "kek-prk gcry_md_setkey 2 return kek-prk*"
                "keyed1 sf_aead_setkey 1 return kek kek.schedule@* kek.$kept")
        [ "${3-}" = wrong ] ||
          STOPS+=("message-prk gcry_md_setkey 4 return message-key-prk*"
                  "keyed2 sf_aead_setkey 2 return session-key message-key message-key.schedule@* message-key.$kept") ;;
  esac
  STOPS+=("closed outfile_close 1 return" "exit")
}

# Case $1: queue a run of sfenc (the arguments after "--", $SFENC
# first) in GDB_EX, the commands of the group's gdb session, which
# dumps its memory into directory $DUMPS/$1 at each stop of STOPS; and add
# to $RESULTS.plan what secrets-find.py is to check in the dumps: the
# secrets of message $2 (written by this very run when it encrypts)
# for implementation $3 ("-" for the default one) and passphrase file
# $4.  The plan is split at white space, which file names here lack.
queue_case () {
  local name=$1 msg=$2 impl=$3 pass=$4 dir=$DUMPS/$1 stop stop_name fn call
  local when patterns args resume
  local -a find=() steps=()

  shift 5
  [ "$1" = "$SFENC" ]
  shift
  printf -v args ' %q' "$@"
  resume="run$args"
  mkdir -p "$dir"
  # A stop of the case before that was never reached must not stop
  # this one.
  GDB_EX+=(-ex delete -ex 'catch syscall exit_group')
  for stop in "${STOPS[@]}"; do
    read -r stop_name fn call when patterns <<< "$stop"
    patterns=${patterns// /,}
    find+=("$dir/$stop_name${patterns:+=$patterns}")
    if [ -n "$fn" ]; then
      GDB_EX+=(-ex "tbreak $fn")
      if [ "$call" -gt 1 ]; then
        GDB_EX+=(-ex "ignore \$bpnum $((call - 1))")
      fi
    fi
    steps+=(-ex "$resume")
    if [ "$when" = return ]; then
      steps+=(-ex finish)
    fi
    steps+=(-ex "gcore $dir/$stop_name")
    resume='continue'
  done
  GDB_EX+=("${steps[@]}" -ex kill)
  echo "$name $msg $impl $pass ${find[*]}" >> "$RESULTS.plan"
}

# Run the queued cases in one gdb session: the cost of gdb's start is
# then paid once.
run_queued () {
  local program

  printf -v program %q "$SFENC"
  gdb -nx -q -batch -iex 'set debuginfod enabled off' \
    -ex 'set pagination off' -ex "file $program" "${GDB_EX[@]}" \
    < /dev/null >> "$RESULTS.gdb.log" 2>&1 || true
  GDB_EX=()
}

# Queue the check, after the session, that case $1 wrote the plaintext
# to $2 (or, with $3 = none, wrote no file at all).
expect_output () {
  OUTPUTS+=("$1 $2 ${3-plain}")
}

# Record in $RESULTS.part the verdicts on the queued outputs, as
# secrets-find.py records its own: "CASE WHAT ok|FAIL DETAILS".
check_outputs () {
  local name out expected

  for out in "${OUTPUTS[@]}"; do
    read -r name out expected <<< "$out"
    if [ "$expected" = none ]; then
      if [ -e "$out" ]; then
        echo "$name output FAIL a failed decryption left $out"
      else
        echo "$name output ok no file"
      fi
    elif cmp -s "$W/plain" "$out"; then
      echo "$name output ok the plaintext"
    else
      echo "$name output FAIL $out is not the plaintext"
    fi
  done >> "$RESULTS.part"
  OUTPUTS=()
}

# Cases $1-enc, $1-dec-default and $1-dec-gcrypt, with the stops of
# STOPS and the sfenc options $2 (split into words): encrypt with the
# default implementation, decrypt with it and with libgcrypt's.  The
# default implementation decrypts on a second thread (--threads 2,
# whose stack must not keep what it held), libgcrypt's on one.
enc_dec_cases () {
  local name=$1 opts=$2 out

  # shellcheck disable=SC2086
  queue_case "$name-enc" "$W/$name.msg" - "$W/pass" -- \
    "${SF[@]}" $opts -c -o "$W/$name.msg" "$W/plain"
  out=$W/$name-default.out
  queue_case "$name-dec-default" "$W/$name.msg" - "$W/pass" -- \
    "${SF[@]}" --threads 2 -d -o "$out" "$W/$name.msg"
  expect_output "$name-dec-default" "$out"
  out=$W/$name-gcrypt.out
  queue_case "$name-dec-gcrypt" "$W/$name.msg" gcrypt "$W/pass" -- \
    "${SF[@]}" --threads 1 --cipher-impl gcrypt -d -o "$out" "$W/$name.msg"
  expect_output "$name-dec-gcrypt" "$out"
}

group_seipd1 () {
  local algo

  set_stops v1
  for algo in $ALGOS; do
    enc_dec_cases "v1-$algo" "--cipher-algo $algo"
  done
}

# A v4 SKESK with an encrypted session key: sfenc reads it but does not
# write it, so s2k-key.py makes one from sfenc's message.
group_esk () {
  local algo base msg out

  set_stops esk
  for algo in $ALGOS; do
    base=$W/esk-$algo.base
    msg=$W/esk-$algo.msg
    "${SF[@]}" --cipher-algo "$algo" -c -o "$base" "$W/plain"
    "$PY" "$BATS_TEST_DIRNAME/s2k-key.py" --material "$MATERIAL" \
      --wrap-into "$msg" "$base" "$W/pass"
    out=$W/esk-$algo-default.out
    queue_case "esk-$algo-dec-default" "$msg" - "$W/pass" -- \
      "${SF[@]}" --threads 2 -d -o "$out" "$msg"
    expect_output "esk-$algo-dec-default" "$out"
    out=$W/esk-$algo-gcrypt.out
    queue_case "esk-$algo-dec-gcrypt" "$msg" gcrypt "$W/pass" -- \
      "${SF[@]}" --threads 1 --cipher-impl gcrypt -d -o "$out" "$msg"
    expect_output "esk-$algo-dec-gcrypt" "$out"
  done
}

group_seipd2 () {
  local algo mode

  for mode in ocb eax gcm; do
    set_stops v6 "$mode"
    for algo in $AEAD_ALGOS; do
      enc_dec_cases "v6-$mode-$algo" "--cipher-algo $algo --aead-algo $mode"
    done
  done
}

group_librepgp () {
  local algo mode

  for mode in ocb eax; do
    set_stops v5 "$mode"
    for algo in $AEAD_ALGOS; do
      enc_dec_cases "v5-$mode-$algo" \
        "--cipher-algo $algo --aead-algo $mode --aead-format librepgp"
    done
  done
}

group_argon2 () {
  set_stops v1
  enc_dec_cases argon2-v1-AES256 "--cipher-algo AES256 $ARGON2"
  set_stops v6 ocb
  enc_dec_cases argon2-v6-ocb-AES256 \
    "--cipher-algo AES256 --aead-algo ocb $ARGON2"
}

# Case $1: decrypt message $2 with passphrase file $3 and stops STOPS,
# which must fail and write nothing.
failing_case () {
  local out=$W/$1.out

  queue_case "$1" "$2" - "$3" -- \
    "$SFENC" --batch --no-auto-modules --passphrase-file "$3" -d -o "$out" "$2"
  expect_output "$1" "$out" none
}

group_errors () {
  local version format

  "${SF[@]}" -c -o "$W/err-v1.msg" "$W/plain"
  set_stops v1
  failing_case wrong-passphrase-v1 "$W/err-v1.msg" "$W/wrong"
  cp "$W/err-v1.msg" "$W/bad-mdc-v1.msg"
  flip_byte "$W/bad-mdc-v1.msg" 50000 1
  failing_case bad-mdc-v1 "$W/bad-mdc-v1.msg" "$W/pass"
  for version in v6 v5; do
    format=rfc9580
    [ "$version" = v6 ] || format=librepgp
    "${SF[@]}" -c --aead-algo ocb --aead-format "$format" \
      -o "$W/err-$version.msg" "$W/plain"
    set_stops "$version" ocb wrong
    failing_case "wrong-passphrase-$version-ocb" "$W/err-$version.msg" \
      "$W/wrong"
    cp "$W/err-$version.msg" "$W/tampered-$version.msg"
    flip_byte "$W/tampered-$version.msg" 50000 1
    set_stops "$version" ocb
    failing_case "tampered-chunk-$version-ocb" "$W/tampered-$version.msg" \
      "$W/pass"
  done
}

# Run group $1 unless it has run, and check the verdicts of kind $2:
# "control" (every dump but closed and exit, and the outputs), "closed"
# or "exit".  Each verdict is printed; a FAIL fails the test.  The
# dumps, some 3 MiB each, go once they are judged.
check_group () {
  local group=$1 kind=$2 lines failed

  RESULTS=$W/$group.results
  DUMPS=$W/dumps-$group
  if [ ! -s "$RESULTS" ]; then
    rm -rf "$RESULTS".* "$DUMPS"
    "group_$group"
    run_queued
    check_outputs
    "$PY" "$BATS_TEST_DIRNAME/secrets-find.py" "$MATERIAL" "$RESULTS.plan" \
      >> "$RESULTS.part" || true
    rm -rf "$DUMPS"
    mv "$RESULTS.part" "$RESULTS"
  fi
  lines=$(awk -v kind="$kind" '
    kind == "control" ? ($2 != "closed" && $2 != "exit") : $2 == kind' \
    "$RESULTS")
  echo "$lines"
  failed=$(awk '$3 == "FAIL"' <<< "$lines" | wc -l)
  [ -n "$lines" ]
  [ "$failed" -eq 0 ]
}

@test "sfenc-secrets: SEIPD v1, every cipher: the controls find every secret in use" {
  check_group seipd1 control
}

@test "sfenc-secrets: SEIPD v1, every cipher: nothing left at exit" {
  check_group seipd1 exit
}

@test "sfenc-secrets: SEIPD v1, every cipher: nothing left once the output is closed" {
  check_group seipd1 closed
}

@test "sfenc-secrets: v4 SKESK with an encrypted session key: the controls find every secret in use" {
  check_group esk control
}

@test "sfenc-secrets: v4 SKESK with an encrypted session key: nothing left at exit" {
  check_group esk exit
}

@test "sfenc-secrets: v4 SKESK with an encrypted session key: nothing left once the output is closed" {
  check_group esk closed
}

@test "sfenc-secrets: SEIPD v2, OCB, EAX and GCM: the controls find every secret in use" {
  check_group seipd2 control
}

@test "sfenc-secrets: SEIPD v2, OCB, EAX and GCM: nothing left at exit" {
  check_group seipd2 exit
}

@test "sfenc-secrets: SEIPD v2, OCB, EAX and GCM: nothing left once the output is closed" {
  check_group seipd2 closed
}

@test "sfenc-secrets: LibrePGP, OCB and EAX: the controls find every secret in use" {
  check_group librepgp control
}

@test "sfenc-secrets: LibrePGP, OCB and EAX: nothing left at exit" {
  check_group librepgp exit
}

@test "sfenc-secrets: LibrePGP, OCB and EAX: nothing left once the output is closed" {
  check_group librepgp closed
}

@test "sfenc-secrets: Argon2 S2K: the controls find every secret in use" {
  check_group argon2 control
}

@test "sfenc-secrets: Argon2 S2K: nothing left at exit" {
  check_group argon2 exit
}

@test "sfenc-secrets: Argon2 S2K: nothing left once the output is closed" {
  check_group argon2 closed
}

@test "sfenc-secrets: wrong passphrases, a bad MDC, tampered chunks: the controls find every secret in use" {
  check_group errors control
}

@test "sfenc-secrets: wrong passphrases, a bad MDC, tampered chunks: nothing left at exit" {
  check_group errors exit
}

@test "sfenc-secrets: wrong passphrases, a bad MDC, tampered chunks: nothing left once the output is closed" {
  check_group errors closed
}
