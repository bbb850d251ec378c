#!/usr/bin/env bats
# Secrets are wiped (issue 11): the whole memory of sfenc, dumped by
# gdb at its last system call (exit_group), holds neither the
# passphrase nor the key derived from it, on success and on the error
# paths.  A dump taken while the key is in use must hold it: that
# shows the search would find a key that was left behind.

load byte-edit

setup () {
  SFENC=${SFENC:-$BATS_TEST_DIRNAME/../g10/sfenc}
  T=$BATS_TEST_TMPDIR
  export GNUPGHOME="$T/gnupg"
  mkdir -p -m 700 "$GNUPGHOME"
  command -v gdb > /dev/null || skip "NOT TESTED: gdb is missing"
  command -v python3 > /dev/null || skip "NOT TESTED: python3 is missing"
  S2K_KEY="python3 $BATS_TEST_DIRNAME/s2k-key.py"
  # A passphrase that occurs nowhere else, given as a file so that it
  # is not in argv.
  head -c 48 /dev/urandom | base64 -w0 | tr -d '/+=' | head -c 40 > "$T/pass"
  echo >> "$T/pass"
  head -c 100000 /dev/urandom > "$T/plain"
  SF=("$SFENC" --batch --passphrase-file "$T/pass" --s2k-count 65536)
  "${SF[@]}" -c -z 0 -o "$T/msg" "$T/plain"
}

# Run the command and dump its memory to $T/core at exit_group.
core_at_exit () {
  rm -f "$T/core"
  gdb -q -batch -ex 'set pagination off' -ex 'catch syscall exit_group' \
    -ex run -ex "gcore $T/core" -ex kill --args "$@" \
    < /dev/null > "$T/gdb.log" 2>&1
  [ -s "$T/core" ] || { cat "$T/gdb.log"; return 1; }
}

# How often the bytes given in hex ($2) occur in file $1.
occurrences () {
  python3 -c 'import sys; print(open(sys.argv[1], "rb").read().count(bytes.fromhex(sys.argv[2])))' "$1" "$2"
}

# Assert that neither the passphrase nor the key of message $1
# derived from passphrase file $2 is in $T/core.
assert_no_secrets () {
  local pass key
  pass=$(head -n1 "$2" | tr -d '\n' | od -An -tx1 | tr -d ' \n')
  key=$($S2K_KEY "$1" "$2")
  echo "passphrase found $(occurrences "$T/core" "$pass") times, key $(occurrences "$T/core" "$key") times"
  [ "$(occurrences "$T/core" "$pass")" -eq 0 ]
  [ "$(occurrences "$T/core" "$key")" -eq 0 ]
  # Half the key, too: an AES-256 key schedule starts with it.
  [ "$(occurrences "$T/core" "${key:0:32}")" -eq 0 ]
}

@test "sfenc-secrets: the search finds the key while it is in use" {
  rm -f "$T/core"
  gdb -q -batch -ex 'set pagination off' -ex 'break sf_cipher_setkey' \
    -ex run -ex finish -ex "gcore $T/core" -ex kill \
    --args "${SF[@]}" -d -o "$T/out" "$T/msg" < /dev/null > "$T/gdb.log" 2>&1
  [ -s "$T/core" ]
  key=$($S2K_KEY "$T/msg" "$T/pass")
  [ "$(occurrences "$T/core" "$key")" -ge 1 ]
}

@test "sfenc-secrets: nothing left after decryption" {
  core_at_exit "${SF[@]}" -d -o "$T/out" "$T/msg"
  cmp "$T/plain" "$T/out"
  assert_no_secrets "$T/msg" "$T/pass"
}

@test "sfenc-secrets: nothing left after encryption" {
  core_at_exit "${SF[@]}" -c -o "$T/msg2" "$T/plain"
  assert_no_secrets "$T/msg2" "$T/pass"
}

@test "sfenc-secrets: nothing left after a wrong passphrase" {
  head -c 30 /dev/urandom | base64 -w0 | tr -d '/+=' | head -c 24 > "$T/wrong"
  echo >> "$T/wrong"
  core_at_exit "$SFENC" --batch --passphrase-file "$T/wrong" -d -o "$T/out" "$T/msg"
  [ ! -e "$T/out" ]
  assert_no_secrets "$T/msg" "$T/wrong"
}

@test "sfenc-secrets: nothing left after a bad MDC" {
  cp "$T/msg" "$T/bad"
  flip_byte "$T/bad" 50000 1
  core_at_exit "${SF[@]}" -d -o "$T/out" "$T/bad"
  [ ! -e "$T/out" ]
  assert_no_secrets "$T/bad" "$T/pass"
}

@test "sfenc-secrets: nothing left with every cipher and with libgcrypt's implementation" {
  for algo in AES AES192 CAST5 BLOWFISH 3DES IDEA TWOFISH; do
    "${SF[@]}" -c -z 0 --cipher-algo "$algo" -o "$T/m-$algo" "$T/plain"
    for impl in "" gcrypt; do
      core_at_exit "${SF[@]}" ${impl:+--cipher-impl $impl} -d -o "$T/out-$algo$impl" "$T/m-$algo"
      echo "$algo ${impl:-default}"
      assert_no_secrets "$T/m-$algo" "$T/pass"
    done
  done
}
