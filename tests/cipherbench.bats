#!/usr/bin/env bats
# tools/cipherbench: prints each implementation beside libgcrypt and
# OpenSSL with ratios, in every output format and as a chart, and
# refuses bad arguments with one line and status 2.  Tiny samples: no
# figure is checked for speed, only for shape.

setup () {
  CIPHERBENCH=${CIPHERBENCH:-${top_builddir:-$BATS_TEST_DIRNAME/..}/tools/cipherbench}
  scratch=$(mktemp -d)
}

teardown () {
  rm -rf "$scratch"
}

@test "cipherbench: Blowfish ref beside Blowfish gcrypt with ratios" {
  run "$CIPHERBENCH" --algo blowfish --runs 1 --seconds 0.02
  [ "$status" -eq 0 ]
  echo "$output"
  # libgcrypt's row is the reference: its ratio to itself is exactly 1.00x.
  for mode in cfb-enc cfb-dec; do
    echo "$output" | grep -Eq "^BLOWFISH +128 +gcrypt +$mode +16384 +[0-9.]+ +[0-9.]+ +[0-9.]+ +1\.00x +([0-9.]+x|n/a)\$"
    echo "$output" | grep -Eq "^BLOWFISH +128 +ref +$mode +16384 +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9]+\.[0-9]+x +([0-9.]+x|n/a)\$"
  done
  [ -z "$(echo "$output" | grep '^AES')" ]
  # The summary: one geometric-mean line per implementation, over the
  # two modes and, where the SHA instructions are, the stitched rows.
  local cells=2
  if echo "$output" | grep -q '^# BLOWFISH ref, 16384 bytes: cfb-enc+sha1 (stitched)'; then
    cells=4
  fi
  echo "$output" | grep -Eq "^default +1 +$cells +[0-9.]+ +[0-9.]+x"
  echo "$output" | grep -Eq '^gcrypt +1 +2 +[0-9.]+ +1\.00x'
}

@test "cipherbench: every algorithm of the table appears by default" {
  run "$CIPHERBENCH" --runs 1 --seconds 0.005 --size 1024
  [ "$status" -eq 0 ]
  for algo in IDEA 3DES CAST5 BLOWFISH AES AES192 AES256 TWOFISH; do
    echo "$output" | grep -Eq "^$algo +[0-9]+ +gcrypt +cfb-enc +1024 "
  done
}

@test "cipherbench: every mode and size, CSV with a constant column count" {
  run "$CIPHERBENCH" --algo aes --mode all --size all --runs 1 \
    --seconds 0.001 --format csv
  [ "$status" -eq 0 ]
  # The results block, up to the empty line before the summary.
  results=$(echo "$output" | sed '/^$/q' | sed '/^$/d')
  [ "$(echo "$results" | head -1)" = \
    "algo,bits,impl,mode,bytes,mibs,ns_per_byte,cycles_per_byte,ratio_gcrypt,ratio_openssl" ]
  [ -z "$(echo "$results" | awk -F, 'NF != 10')" ]
  for mode in ecb cbc-enc cbc-dec cfb-enc cfb-dec ctr ofb openpgp-cfb; do
    for size in 16 64 256 1024 8192 16384; do
      echo "$results" | grep -q "^AES,128,gcrypt,$mode,$size,"
    done
  done
  # Figures are positive numbers; OpenSSL has no OpenPGP CFB.
  [ -z "$(echo "$results" | tail -n +2 | awk -F, '!($6 > 0 && $7 > 0 && $8 > 0)')" ]
  [ -z "$(echo "$results" | grep '^AES,128,openssl,openpgp-cfb,')" ]
  echo "$results" | grep -q '^AES,128,gcrypt,openpgp-cfb,16,.*,n/a$'
}

@test "cipherbench: JSON output is valid and has both tables" {
  run "$CIPHERBENCH" --algo cast5,twofish --runs 1 --seconds 0.002 --format json
  [ "$status" -eq 0 ]
  echo "$output" | python3 -m json.tool > /dev/null
  echo "$output" | python3 -c '
import json, sys
d = json.load(sys.stdin)
algos = {r["algo"] for r in d["results"]}
assert algos == {"CAST5", "TWOFISH"}, algos
for r in d["results"]:
    assert r["mibs"] > 0 and r["cycles_per_byte"] > 0, r
    # libgcrypt has no stitched CFB + SHA-1 to compare with.
    if r["mode"] in ("cfb-enc+sha1", "cfb-enc;sha1"):
        assert r["ratio_gcrypt"] is None, r
    else:
        assert r["ratio_gcrypt"] > 0, r
# OpenSSL has no Twofish: n/a is null, never a made-up figure.
assert all(r["ratio_openssl"] is None for r in d["results"] if r["algo"] == "TWOFISH")
assert {s["impl"] for s in d["summary"]} >= {"default", "ref", "gcrypt"}
'
}

@test "cipherbench: --no-openssl leaves OpenSSL out, shown as n/a" {
  run "$CIPHERBENCH" --algo aes --runs 1 --seconds 0.002 --no-openssl
  [ "$status" -eq 0 ]
  [ -z "$(echo "$output" | grep '^AES .* openssl ')" ]
  echo "$output" | grep -Eq '^AES +128 +gcrypt +cfb-enc +16384 .* 1\.00x +n/a$'
}

@test "cipherbench: Markdown table and --save writes every format" {
  run "$CIPHERBENCH" --algo idea --runs 1 --seconds 0.002 --format markdown \
    --save "$scratch/cb"
  [ "$status" -eq 0 ]
  echo "$output" | grep -q '^| ALGO | BITS | IMPL | MODE | BYTES |'
  echo "$output" | grep -q '^| IDEA | 128 | gcrypt | cfb-enc | 16384 |'
  for ext in txt md csv json; do
    [ -s "$scratch/cb.$ext" ]
  done
  python3 -m json.tool "$scratch/cb.json" > /dev/null
}

@test "cipherbench: --plot draws an SVG and a PNG chart" {
  run "$CIPHERBENCH" --algo blowfish,aes --runs 1 --seconds 0.002 \
    --plot "$scratch/chart.svg"
  [ "$status" -eq 0 ]
  grep -q '<svg' "$scratch/chart.svg"
  grep -q 'gcrypt' "$scratch/chart.svg"
  run "$CIPHERBENCH" --algo blowfish --runs 1 --seconds 0.002 \
    --plot "$scratch/chart.png"
  [ "$status" -eq 0 ]
  [ "$(head -c 4 "$scratch/chart.png" | od -An -c | tr -d ' ')" = '211PNG' ]
}

@test "cipherbench: a missing gnuplot is one clear error before measuring" {
  GNUPLOT=/nonexistent/gnuplot run "$CIPHERBENCH" --plot "$scratch/x.svg"
  [ "$status" -eq 2 ]
  [ "${#lines[@]}" -eq 1 ]
  [[ "$output" == "cipherbench: /nonexistent/gnuplot: not found; charts need gnuplot"* ]]
  run "$CIPHERBENCH" --plot "$scratch/x.pdf"
  [ "$status" -eq 2 ]
  [[ "$output" == "cipherbench: --plot: "* ]]
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
  run "$CIPHERBENCH" --size 16,17
  [ "$status" -eq 2 ]
  run "$CIPHERBENCH" --mode xts
  [ "$status" -eq 2 ]
  [[ "$output" == "cipherbench: --mode: "* ]]
  run "$CIPHERBENCH" --format yaml
  [ "$status" -eq 2 ]
  run "$CIPHERBENCH" --runs 0
  [ "$status" -eq 2 ]
  run "$CIPHERBENCH" --bogus
  [ "$status" -eq 2 ]
  [[ "$output" == *"unknown option"* ]]
}

@test "cipherbench: a module's algorithm gets libgcrypt's and OpenSSL's columns, found by name" {
  # Camellia is in neither the table nor a map of names: the peers are
  # found through gcry_cipher_map_name and EVP_CIPHER_fetch.
  umask 022
  ${SF_MODULE_CC:-cc} -O2 -shared -fPIC -fvisibility=hidden -DSF_DYNAMIC_MODULE \
    -I"$top_srcdir/cipher" -o "$scratch/camellia.so" "$top_srcdir/tools/camellia-module/camellia.c"
  run "$CIPHERBENCH" --no-auto-modules --load-extension "$scratch/camellia.so" \
    --algo camellia128,camellia256 --mode cfb-enc,ctr,ocb-enc --runs 1 --seconds 0.005
  echo "$output"
  [ "$status" -eq 0 ]
  for algo in "CAMELLIA128 +128" "CAMELLIA256 +256"; do
    for mode in cfb-enc ctr ocb-enc; do
      echo "$output" | grep -Eq "^$algo +gcrypt +$mode +16384 +[0-9.]+ +[0-9.]+ +[0-9.]+ +1\.00x "
      echo "$output" | grep -Eq "^$algo +ref +$mode +16384 +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9]+\.[0-9]+x "
    done
    if grep -q '^#define HAVE_OPENSSL 1' "$top_builddir/config.h"; then
      for mode in cfb-enc ctr; do
        echo "$output" | grep -Eq "^$algo +openssl +$mode +16384 +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9]+\.[0-9]+x +1\.00x\$"
        echo "$output" | grep -Eq "^$algo +ref +$mode +16384 +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9]+\.[0-9]+x +[0-9]+\.[0-9]+x\$"
      done
    else
      echo "# NOT TESTED: built without OpenSSL, no openssl column" >&3
    fi
  done
}
