#!/usr/bin/env bats
# tools/sfbench: sfenc on a pipe beside gpg, openssl and rnp.  Tiny
# sizes, one run: the outputs must parse, name every requested
# algorithm, show n/a for a missing peer, and draw a chart.  No figure
# is checked for speed.

setup () {
  SFBENCH=${SFBENCH:-${top_builddir:-$BATS_TEST_DIRNAME/..}/tools/sfbench}
  scratch=$(mktemp -d)
}

teardown () {
  rm -rf "$scratch"
}

@test "sfbench: text table, encryption and decryption, beside gpg" {
  mkdir "$scratch/tmp"
  TMPDIR=$scratch/tmp run "$SFBENCH" --size 1 --runs 1 --algo blowfish,aes \
    --no-rnp
  [ "$status" -eq 0 ]
  echo "$output"
  echo "$output" | grep -Eq '^ALGO +BITS +IMPL +OP +sfenc +Mbit/s +min +max +net +gpg +gpg-net +xgpg '
  for algo in BLOWFISH AES; do
    for op in enc dec; do
      echo "$output" | grep -Eq "^$algo +128 +[a-z]+ +$op +[0-9.]+ +[0-9]+ +[0-9.]+ +[0-9.]+ +([0-9.]+|n/a) +[0-9.]+ "
    done
  done
  echo "$output" | grep -q '^# dec: every tool decrypts the same file, made once per algorithm by gpg'
  echo "$output" | grep -q '^# rnp: n/a (left out (--no-rnp))'
  # Neither the temporary directory nor gpg's agent is left behind.
  [ -z "$(ls -A "$scratch/tmp")" ]
  for cmdline in /proc/[0-9]*/cmdline; do
    # A process may end between the glob and the read.
    tr '\0' ' ' 2>/dev/null < "$cmdline" || true
    echo
  done > "$scratch/processes"
  [ -z "$(grep "[g]pg-agent --homedir $scratch/tmp" "$scratch/processes")" ]
}

@test "sfbench: CSV has the same column count on every line" {
  run "$SFBENCH" --size 1 --runs 1 --algo cast5 --no-decrypt --no-rnp \
    --format csv
  [ "$status" -eq 0 ]
  [ "${#lines[@]}" -eq 2 ]
  [[ "${lines[0]}" == algo,bits,impl,op,sfenc_mibs,* ]]
  [ -z "$(echo "$output" | awk -F, 'NF != 46')" ]
  echo "${lines[1]}" | awk -F, '$1 == "CAST5" && $4 == "enc" && $5 > 0 && $14 > 0 { ok = 1 } END { exit !ok }'
}

@test "sfbench: JSON is valid, positive, with every requested algorithm" {
  run "$SFBENCH" --size 1 --runs 1 --algo 3des,twofish,aes256 --no-decrypt \
    --no-gpg --no-rnp --format json
  [ "$status" -eq 0 ]
  echo "$output" | python3 -m json.tool > /dev/null
  echo "$output" | python3 -c '
import json, sys
d = json.load(sys.stdin)
rows = d["results"]
assert {r["algo"] for r in rows} == {"3DES", "TWOFISH", "AES256"}, rows
for r in rows:
    for k, v in r.items():
        if isinstance(v, (int, float)) and not k.endswith("_s"):
            assert v > 0, (k, v)
    assert r["sfenc_mibs"] > 0 and r["sfenc_fixed_s"] >= 0
    # gpg was left out: n/a (null), never dropped.
    assert r["gpg_mibs"] is None and r["ratio_gpg"] is None
    assert "gpg_mibs" in r and "rnp_mibs" in r
# OpenSSL has no Twofish.
assert [r["openssl_mibs"] for r in rows if r["algo"] == "TWOFISH"] == [None]
'
}

@test "sfbench: a missing openssl is n/a, not an error" {
  run "$SFBENCH" --size 1 --runs 1 --algo idea --no-decrypt --no-gpg \
    --no-rnp --openssl "$scratch/no-such-openssl"
  [ "$status" -eq 0 ]
  echo "$output"
  echo "$output" | grep -q "^# openssl: n/a ($scratch/no-such-openssl: not found)"
  echo "$output" | grep -Eq '^IDEA +128 +ref +enc +[0-9.]+ .* n/a +n/a +n/a +n/a +n/a +n/a +n/a +n/a +n/a +n/a$'
}

@test "sfbench: --cipher-impl gives one row per implementation" {
  run "$SFBENCH" --size 1 --runs 1 --algo aes --cipher-impl ref,gcrypt \
    --no-decrypt --no-gpg --no-openssl --no-rnp
  [ "$status" -eq 0 ]
  echo "$output" | grep -Eq '^AES +128 +ref +enc +[0-9.]+ '
  echo "$output" | grep -Eq '^AES +128 +gcrypt +enc +[0-9.]+ '
}

@test "sfbench: --plot draws an SVG chart, --save writes every format" {
  run "$SFBENCH" --size 1 --runs 1 --algo aes --no-decrypt --no-rnp \
    --plot "$scratch/pipe.svg" --save "$scratch/pipe" --format markdown
  [ "$status" -eq 0 ]
  echo "$output" | grep -q '^| ALGO | BITS | IMPL | OP | sfenc |'
  grep -q '<svg' "$scratch/pipe.svg"
  grep -q 'gpg' "$scratch/pipe.svg"
  for ext in txt md csv json; do
    [ -s "$scratch/pipe.$ext" ]
  done
  python3 -m json.tool "$scratch/pipe.json" > /dev/null
}

@test "sfbench: errors are one line and status 2" {
  run "$SFBENCH" --algo NOSUCH --no-gpg
  [ "$status" -eq 2 ]
  [ "${#lines[@]}" -eq 1 ]
  [[ "$output" == "sfbench: NOSUCH: unknown cipher algorithm"* ]]
  run "$SFBENCH" --size 0
  [ "$status" -eq 2 ]
  [[ "$output" == "sfbench: --size: "* ]]
  run "$SFBENCH" --runs x
  [ "$status" -eq 2 ]
  run "$SFBENCH" --format yaml
  [ "$status" -eq 2 ]
  run "$SFBENCH" --bogus
  [ "$status" -eq 2 ]
  [[ "$output" == *"unknown option"* ]]
  run "$SFBENCH" --sfenc "$scratch/no-such-sfenc"
  [ "$status" -eq 2 ]
  [[ "$output" == "sfbench: $scratch/no-such-sfenc: not found"* ]]
  run "$SFBENCH" --cipher-impl nosuch --no-gpg
  [ "$status" -eq 2 ]
  [[ "$output" == "sfbench: nosuch: no such implementation"* ]]
  GNUPLOT=/nonexistent/gnuplot run "$SFBENCH" --plot "$scratch/x.svg"
  [ "$status" -eq 2 ]
  [ "${#lines[@]}" -eq 1 ]
  [[ "$output" == *"charts need gnuplot"* ]]
}
