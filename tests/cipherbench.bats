#!/usr/bin/env bats
# tools/cipherbench: prints each implementation beside libgcrypt with a
# ratio, and refuses bad arguments with one line and status 2.

setup () {
  CIPHERBENCH=${CIPHERBENCH:-$BATS_TEST_DIRNAME/../tools/cipherbench}
}

@test "cipherbench: Blowfish ref beside Blowfish gcrypt with ratios" {
  run "$CIPHERBENCH" --algo blowfish --runs 1 --seconds 0.02
  [ "$status" -eq 0 ]
  echo "$output"
  # libgcrypt's row is the reference: its ratios are exactly 1.00x.
  echo "$output" | grep -Eq '^BLOWFISH +128 +gcrypt +[0-9.]+ +[0-9.]+ +1\.00x +[0-9.]+ +[0-9.]+ +1\.00x$'
  echo "$output" | grep -Eq '^BLOWFISH +128 +ref +[0-9.]+ +[0-9.]+ +[0-9]+\.[0-9]+x +[0-9.]+ +[0-9.]+ +[0-9]+\.[0-9]+x$'
  ! echo "$output" | grep -q '^AES'
}

@test "cipherbench: every algorithm of the table appears by default" {
  run "$CIPHERBENCH" --runs 1 --seconds 0.005 --size 1024
  [ "$status" -eq 0 ]
  for algo in IDEA 3DES CAST5 BLOWFISH AES AES192 AES256 TWOFISH; do
    echo "$output" | grep -Eq "^$algo +[0-9]+ +gcrypt "
  done
}

@test "cipherbench: an unknown algorithm is one clear error, status 2" {
  run "$CIPHERBENCH" --algo NOSUCH
  [ "$status" -eq 2 ]
  [ "${#lines[@]}" -eq 1 ]
  [[ "$output" == "cipherbench: NOSUCH: unknown cipher algorithm"* ]]
}

@test "cipherbench: bad option values are refused with status 2" {
  run "$CIPHERBENCH" --size 17
  [ "$status" -eq 2 ]
  [[ "$output" == "cipherbench: --size: "* ]]
  run "$CIPHERBENCH" --runs 0
  [ "$status" -eq 2 ]
  run "$CIPHERBENCH" --bogus
  [ "$status" -eq 2 ]
  [[ "$output" == *"unknown option"* ]]
}
