#!/usr/bin/env bats
# tools/sfbench: sfenc on a pipe beside gpg, openssl and rnp.  Tiny
# sizes, one run: the outputs must parse, name every requested
# algorithm, carry wall, user and sys time and max RSS for every tool,
# show n/a for a missing peer and n/a* for a net figure the fixed cost
# swamps, feed every tool the same bytes, and draw a chart; --threads,
# --compress-algo and --decrypt-only must reach the tools and show in
# every format; --message-by sfenc has sfenc make the message every
# tool decrypts.  No figure is checked for speed.

setup () {
  SFBENCH=${SFBENCH:-${top_builddir:-$BATS_TEST_DIRNAME/..}/tools/sfbench}
  SFENC=${SFENC:-${top_builddir:-$BATS_TEST_DIRNAME/..}/g10/sfenc}
  scratch=$(mktemp -d)
}

teardown () {
  rm -rf "$scratch"
}

# spy TOOL [PROGRAM]: make a stand-in for TOOL (PROGRAM, by default
# TOOL in PATH) that logs to $scratch/log the size and SHA-256 of its
# input and its arguments, then runs PROGRAM on that input; the last
# input that was not empty is kept in $scratch/last-TOOL.
spy () {
  local real
  real=$(command -v "${2:-$1}")
  [ -x "$real" ]
  cat > "$scratch/spy-$1" <<EOF
#!/bin/sh
in=\$(mktemp "$scratch/in.XXXXXX")
cat > "\$in"
"$real" "\$@" < "\$in"
status=\$?
if [ -s "\$in" ]; then cp "\$in" "$scratch/last-$1"; fi
echo "$1 \$(wc -c < "\$in") \$(sha256sum < "\$in" | cut -d' ' -f1) \$*" >> "$scratch/log"
rm -f "\$in"
exit \$status
EOF
  chmod +x "$scratch/spy-$1"
}

# The lines of the spies' log for TOOL's runs with some input.
fed () {
  awk -v tool="$1" '$1 == tool && $2 > 0' "$scratch/log"
}

@test "sfbench: text tables, encryption and decryption, beside gpg" {
  mkdir "$scratch/tmp"
  TMPDIR=$scratch/tmp run "$SFBENCH" --size 1 --runs 1 --algo blowfish,aes \
    --no-rnp
  [ "$status" -eq 0 ]
  echo "$output"
  echo "$output" | grep -Eq '^ALGO +BITS +IMPL +OP +sfenc +Mbit/s +min +max +net +gpg +gpg-net +xgpg +xgpg-net +openssl +xopenssl +rnp +rnp-net +xrnp +xrnp-net$'
  echo "$output" | grep -Eq '^ALGO +BITS +IMPL +OP +TOOL +wall +min +max +user +min +max +sys +min +max +maxrss +min +max +fixed +xwall +xuser +xsys +xmaxrss$'
  num='[0-9]+\.[0-9]+'
  for algo in BLOWFISH AES; do
    for op in enc dec; do
      echo "$output" | grep -Eq "^$algo +128 +[a-z]+ +$op +$num +[0-9]+ +$num +$num +($num|n/a\*?) +$num "
      # sfenc has no ratios to itself; every peer has all four.
      echo "$output" | grep -Eq "^$algo +128 +[a-z]+ +$op +sfenc +($num +){9}[0-9]+ +[0-9]+ +[0-9]+ +$num +n/a +n/a +n/a +n/a$"
      for peer in gpg openssl; do
        echo "$output" | grep -Eq "^$algo +128 +[a-z]+ +$op +$peer +($num +){9}[0-9]+ +[0-9]+ +[0-9]+ +$num +${num}x +${num}x +($num|n/a)x? +${num}x$"
      done
    done
  done
  [ -z "$(echo "$output" | grep -E '^[A-Z0-9]+ .* rnp +[0-9]')" ]
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

@test "sfbench: CSV has three tables, each with one column count" {
  run "$SFBENCH" --size 1 --runs 2 --algo cast5 --no-decrypt --no-rnp \
    --format csv
  [ "$status" -eq 0 ]
  echo "$output" > "$scratch/out.csv"
  # Tables are separated by one empty line.
  awk -v RS= '{ print > ("'"$scratch"'/table" NR) }' "$scratch/out.csv"
  [ ! -e "$scratch/table4" ]
  head -1 "$scratch/table1" | grep -q '^algo,bits,impl,op,sfenc_mibs,.*,sfenc_net_mibs,sfenc_net_reliable,'
  head -1 "$scratch/table2" | grep -q '^algo,bits,impl,op,tool,wall_median_s,wall_min_s,wall_max_s,user_median_s,'
  head -1 "$scratch/table3" | grep -q '^algo,bits,impl,op,tool,run,input,wall_s,user_s,sys_s,maxrss_kib$'
  for n in 1 2 3; do
    [ -z "$(awk -F, 'NR == 1 { n = NF } NF != n' "$scratch/table$n")" ]
  done
  [ "$(wc -l < "$scratch/table1")" -eq 2 ]
  # One line per tool: sfenc, gpg, openssl.
  [ "$(wc -l < "$scratch/table2")" -eq 4 ]
  # Per tool, 2 runs each with the input and with an empty one.
  [ "$(wc -l < "$scratch/table3")" -eq 13 ]
  awk -F, 'NR == 2 && $1 == "CAST5" && $4 == "enc" && $5 > 0 { ok = 1 } END { exit !ok }' "$scratch/table1"
  awk -F, '$5 == "gpg" && $6 > 0 && $9 > 0 && $15 > 0 { ok = 1 } END { exit !ok }' "$scratch/table2"
}

@test "sfbench: JSON has every figure of every tool, and every run" {
  run "$SFBENCH" --size 1 --runs 3 --algo 3des,twofish,aes256 --no-decrypt \
    --no-gpg --no-rnp --format json
  [ "$status" -eq 0 ]
  echo "$output" | python3 -c '
import json, sys
d = json.load(sys.stdin)
rows = d["results"]
assert {r["algo"] for r in rows} == {"3DES", "TWOFISH", "AES256"}, rows
for r in rows:
    for k, v in r.items():
        if type(v) in (int, float):
            assert v > 0, (k, v)
    assert r["sfenc_mibs"] > 0
    assert r["sfenc_min_mibs"] <= r["sfenc_mibs"] <= r["sfenc_max_mibs"]
    # gpg was left out: n/a (null), never dropped.
    assert r["gpg_mibs"] is None and r["ratio_gpg"] is None
    assert "gpg_mibs" in r and "rnp_mibs" in r
# OpenSSL has no Twofish.
assert [r["openssl_mibs"] for r in rows if r["algo"] == "TWOFISH"] == [None]
usage = d["usage"]
assert sorted((u["algo"], u["tool"]) for u in usage) == [
    ("3DES", "openssl"), ("3DES", "sfenc"), ("AES256", "openssl"),
    ("AES256", "sfenc"), ("TWOFISH", "sfenc")], usage
for u in usage:
    for m, unit in (("wall", "s"), ("user", "s"), ("sys", "s"),
                    ("maxrss", "kib")):
        lo, med, hi = (u["%s_%s_%s" % (m, s, unit)]
                       for s in ("min", "median", "max"))
        assert 0 <= lo <= med <= hi, (u, m)
    assert u["wall_median_s"] > 0 and u["maxrss_median_kib"] > 100
    assert u["fixed_user_s"] >= 0
    ratios = [u["ratio_" + m] for m in ("wall", "user", "sys", "maxrss")]
    if u["tool"] == "sfenc":
        assert ratios == [None] * 4, u
    else:
        assert u["ratio_wall"] > 0 and u["ratio_maxrss"] > 0, u
runs = d["runs"]
assert len(runs) == 5 * 3 * 2, len(runs)
for u in usage:
    mine = [r for r in runs if r["algo"] == u["algo"]
            and r["tool"] == u["tool"] and r["input"] == "data"]
    assert sorted(r["run"] for r in mine) == [1, 2, 3]
    walls = sorted(r["wall_s"] for r in mine)
    assert abs(walls[1] - u["wall_median_s"]) < 0.0006, (walls, u)
    assert [r["impl"] is None for r in mine] == [u["tool"] != "sfenc"] * 3
'
}

@test "sfbench: a net figure the fixed cost swamps is n/a*, not a ratio" {
  # At 1 MiB, the S2K of the default count is most of every run.
  run "$SFBENCH" --size 1 --runs 1 --algo aes --no-decrypt --no-openssl \
    --no-rnp
  [ "$status" -eq 0 ]
  echo "$output"
  echo "$output" | grep -Eq '^AES +128 +[a-z]+ +enc +[0-9.]+ +[0-9]+ +[0-9.]+ +[0-9.]+ +n/a\* +[0-9.]+ +n/a\* +[0-9.]+x +n/a\* '
  echo "$output" | grep -q '^# n/a\*: net figure unreliable: the fixed cost is more than half of the run'
  run "$SFBENCH" --size 1 --runs 1 --algo aes --no-decrypt --no-openssl \
    --no-rnp --format json
  [ "$status" -eq 0 ]
  echo "$output" | python3 -c '
import json, sys
r, = json.load(sys.stdin)["results"]
assert r["sfenc_net_reliable"] is False and r["sfenc_net_mibs"] is None, r
assert r["gpg_net_reliable"] is False and r["gpg_net_mibs"] is None, r
assert r["ratio_gpg_net_reliable"] is False and r["ratio_gpg_net"] is None
assert r["sfenc_mibs"] > 0 and r["ratio_gpg"] > 0
# A net figure is there exactly when it is reliable; n/a peers have neither.
for k in r:
    if k.endswith("_net_reliable"):
        net = k[:-len("_reliable")] + ("" if k.startswith("ratio") else "_mibs")
        assert (r[k] is True) == (r[net] is not None), (k, r)
assert r["rnp_net_reliable"] is None and r["rnp_net_mibs"] is None
'
  run "$SFBENCH" --size 1 --runs 1 --algo aes --no-decrypt --no-openssl \
    --no-rnp --format csv
  [ "$status" -eq 0 ]
  echo "${lines[1]}" | grep -q '^AES,128,[a-z]*,enc,[0-9.]*,[0-9]*,[0-9.]*,[0-9.]*,n/a\*,false,'
}

@test "sfbench: --input random feeds every tool the same random bytes, -z 0" {
  spy sfenc "$SFENC"
  spy gpg
  spy openssl
  run "$SFBENCH" --size 2 --runs 1 --algo cast5 --no-decrypt --no-rnp \
    --input random --sfenc "$scratch/spy-sfenc" --gpg "$scratch/spy-gpg" \
    --openssl "$scratch/spy-openssl"
  [ "$status" -eq 0 ]
  echo "$output" | grep -q '^# sfbench: 2 MiB of random bytes through a pipe, -z 0;'
  echo "$output" | grep -q '^# random: made once, the same bytes for every tool'
  cat "$scratch/log"
  zeros=$(head -c 2097152 /dev/zero | sha256sum | cut -d' ' -f1)
  for tool in sfenc gpg openssl; do
    [ "$(fed $tool | wc -l)" -eq 1 ]
    [ "$(fed $tool | cut -d' ' -f2)" -eq 2097152 ]
  done
  [ "$(fed sfenc | cut -d' ' -f3)" != "$zeros" ]
  [ "$(fed sfenc | cut -d' ' -f3)" = "$(fed gpg | cut -d' ' -f3)" ]
  [ "$(fed sfenc | cut -d' ' -f3)" = "$(fed openssl | cut -d' ' -f3)" ]
  fed sfenc | grep -q ' -z 0 -c --cipher-algo CAST5$'
  fed gpg | grep -q ' -z 0 -c --cipher-algo CAST5$'
}

@test "sfbench: --input FILE is measured whole, on both directions" {
  seq 1 200000 > "$scratch/input"
  size=$(stat -c %s "$scratch/input")
  spy sfenc "$SFENC"
  spy gpg
  run "$SFBENCH" --runs 1 --algo idea --no-openssl --no-rnp \
    --input "$scratch/input" --sfenc "$scratch/spy-sfenc" --gpg "$scratch/spy-gpg"
  [ "$status" -eq 0 ]
  echo "$output" | grep -q "^# sfbench: $scratch/input ($size bytes) through a pipe"
  cat "$scratch/log"
  want=$(sha256sum < "$scratch/input" | cut -d' ' -f1)
  # sfenc and gpg encrypt it; gpg also encrypts it once for decryption.
  [ "$(fed sfenc | grep -c -- ' -c ')" -eq 1 ]
  [ "$(fed gpg | grep -c -- ' -c ')" -eq 2 ]
  [ -z "$(fed sfenc | grep -- ' -c ' | grep -v " $size $want ")" ]
  [ -z "$(fed gpg | grep -- ' -c ' | grep -v " $size $want ")" ]
  # Both decrypt the same ciphertext.
  [ "$(fed sfenc | grep -- ' -d$' | cut -d' ' -f2,3)" = \
    "$(fed gpg | grep -- ' -d$' | cut -d' ' -f2,3)" ]
  echo "$output" | grep -Eq '^IDEA +128 +ref +dec +[0-9.]+ '
}

@test "sfbench: -z 6 compresses in sfenc and gpg, and leaves openssl out" {
  spy sfenc "$SFENC"
  spy gpg
  run "$SFBENCH" --size 1 --runs 1 --algo aes --no-rnp -z 6 \
    --sfenc "$scratch/spy-sfenc" --gpg "$scratch/spy-gpg"
  [ "$status" -eq 0 ]
  echo "$output"
  cat "$scratch/log"
  fed sfenc | grep -q ' -z 6 -c --cipher-algo AES$'
  fed gpg | grep -q ' -z 6 -c --cipher-algo AES$'
  [ -z "$(grep -- '-z 0' "$scratch/log")" ]
  echo "$output" | grep -q '^# openssl: n/a (openssl enc has no compression: left out of -z 6 runs)$'
  echo "$output" | grep -q '^# -z 6: each OpenPGP tool.s default compression at level 6'
  echo "$output" | grep -Eq '^AES +128 +[a-z]+ +enc +[0-9.]+ .* n/a +n/a +n/a +n/a +n/a +n/a$'
  [ -z "$(echo "$output" | grep -E '^AES .* openssl ')" ]
  echo "$output" | grep -Eq '^AES +128 +[a-z]+ +dec +gpg +[0-9.]+ '
}

@test "sfbench: the corpus is deterministic, in sorted path order, cached" {
  mkdir "$scratch/a" "$scratch/b"
  for dir in a b; do
    run "$SFBENCH" --size 1 --runs 1 --algo aes --no-decrypt --no-gpg \
      --no-openssl --no-rnp -z 6 --input corpus --corpus-dir "$scratch/$dir"
    [ "$status" -eq 0 ]
    echo "$output" | grep -q "^# corpus: $scratch/$dir/sfbench-corpus-1MiB (built now), files of /usr/lib and /usr/share"
  done
  corpus=$scratch/a/sfbench-corpus-1MiB
  [ "$(stat -c %s "$corpus")" -eq 1048576 ]
  [ "$(sha256sum < "$corpus")" = "$(sha256sum < "$scratch/b/sfbench-corpus-1MiB")" ]
  [ "$(ls "$scratch/a")" = sfbench-corpus-1MiB ]
  # Half from each tree, each in bytewise path order; already
  # compressed files are left out.
  for part in "0 /usr/lib" "1 /usr/share"; do
    set -- $part
    find "$2" -type f ! -name '*.gz' ! -name '*.xz' ! -name '*.bz2' \
      ! -name '*.zst' ! -name '*.lz4' ! -name '*.lzma' ! -name '*.zip' \
      ! -name '*.jar' ! -name '*.deb' ! -name '*.png' ! -name '*.jpg' \
      ! -name '*.gif' ! -name '*.woff' ! -name '*.woff2' -print0 \
      | LC_ALL=C sort -z | xargs -0 cat 2>/dev/null | head -c 524288 \
      > "$scratch/expected"
    tail -c +$(($1 * 524288 + 1)) "$corpus" | head -c 524288 \
      | cmp - "$scratch/expected"
  done
  # Reused when it has the right size, rebuilt when not.
  touch -d '2001-01-01' "$corpus"
  truncate -s 1000 "$scratch/b/sfbench-corpus-1MiB"
  for dir in a b; do
    run "$SFBENCH" --size 1 --runs 1 --algo aes --no-decrypt --no-gpg \
      --no-openssl --no-rnp -z 6 --input corpus --corpus-dir "$scratch/$dir"
    [ "$status" -eq 0 ]
    echo "$output" | grep '^# corpus: ' > "$scratch/said.$dir"
  done
  grep -q '(reused)' "$scratch/said.a"
  grep -q '(built now)' "$scratch/said.b"
  [ "$(stat -c %Y "$corpus")" = "$(date -d 2001-01-01 +%s)" ]
  cmp "$corpus" "$scratch/b/sfbench-corpus-1MiB"
}

@test "sfbench: a missing openssl is n/a, not an error" {
  run "$SFBENCH" --size 1 --runs 1 --algo idea --no-decrypt --no-gpg \
    --no-rnp --openssl "$scratch/no-such-openssl"
  [ "$status" -eq 0 ]
  echo "$output"
  echo "$output" | grep -q "^# openssl: n/a ($scratch/no-such-openssl: not found)"
  echo "$output" | grep -Eq '^IDEA +128 +ref +enc +[0-9.]+ .* n/a +n/a +n/a +n/a +n/a +n/a +n/a +n/a +n/a +n/a$'
  [ -z "$(echo "$output" | grep -E '^IDEA .* (openssl|gpg|rnp) ')" ]
}

@test "sfbench: --cipher-impl gives one row per implementation" {
  run "$SFBENCH" --size 1 --runs 1 --algo aes --cipher-impl ref,gcrypt \
    --no-decrypt --no-gpg --no-openssl --no-rnp
  [ "$status" -eq 0 ]
  echo "$output" | grep -Eq '^AES +128 +ref +enc +[0-9.]+ '
  echo "$output" | grep -Eq '^AES +128 +gcrypt +enc +[0-9.]+ '
  echo "$output" | grep -Eq '^AES +128 +ref +enc +sfenc +[0-9.]+ '
  echo "$output" | grep -Eq '^AES +128 +gcrypt +enc +sfenc +[0-9.]+ '
}

# restore_run ARGS: the restore path of 1 MiB of the corpus on 1 and 2
# threads, every OpenPGP tool a spy, with ARGS; skips without rnp.
restore_run () {
  command -v rnp > /dev/null \
    || skip "NOT TESTED: rnp is not installed, and the restore path is measured beside rnp -d"
  spy sfenc "$SFENC"
  spy gpg
  spy rnp
  run "$SFBENCH" --size 1 --runs 1 --algo aes256 --input corpus \
    --corpus-dir "$scratch" -z 6 --decrypt-only --threads 1,2 "$@" \
    --sfenc "$scratch/spy-sfenc" --gpg "$scratch/spy-gpg" \
    --rnp "$scratch/spy-rnp"
}

@test "sfbench: the restore path: --decrypt-only --threads 1,2 of gpg's BZIP2 message" {
  restore_run --compress-algo bzip2
  [ "$status" -eq 0 ]
  echo "$output"
  cat "$scratch/log"
  echo "$output" | grep -q '^# sfbench: 1 MiB of the corpus through a pipe, -z 6 --compress-algo bzip2; wall, user and sys time and max RSS of the decrypting process alone;'
  echo "$output" | grep -q '^# -z 6 --compress-algo bzip2: every OpenPGP tool compresses with bzip2 at level 6 (rnp: --bzip2)'
  echo "$output" | grep -q '^# THREADS: one sfenc row per count N, sfenc run with --threads N;'
  echo "$output" | grep -q '^# dec: every tool decrypts the same file, made once per algorithm by gpg with --compress-algo bzip2$'
  echo "$output" | grep -Eq '^ALGO +BITS +IMPL +THREADS +OP +sfenc +Mbit/s +min +max +net +gpg '
  echo "$output" | grep -Eq '^ALGO +BITS +IMPL +THREADS +OP +TOOL +wall +min +max +user '
  # One results row per thread count, each with its ratios to gpg and
  # rnp; in the usage table, sfenc's rows carry the count, the peers' -.
  num='[0-9]+\.[0-9]+'
  [ "$(echo "$output" | grep -Ec '^AES256 +256 +[a-z]+ ')" -eq 8 ]
  [ -z "$(echo "$output" | grep -E '^AES256 .* enc ')" ]
  for n in 1 2; do
    echo "$output" | grep -Eq "^AES256 +256 +[a-z]+ +$n +dec +$num +[0-9]+ +$num +$num +($num|n/a\*?) +$num +($num|n/a\*?) +${num}x +(${num}x|n/a\*) +n/a +n/a +$num +($num|n/a\*?) +${num}x +(${num}x|n/a\*)$"
    echo "$output" | grep -Eq "^AES256 +256 +[a-z]+ +$n +dec +sfenc +$num "
  done
  [ "$(echo "$output" | grep -Ec '^AES256 +256 +[a-z]+ +- +dec +gpg +[0-9]')" -eq 2 ]
  [ "$(echo "$output" | grep -Ec '^AES256 +256 +[a-z]+ +- +dec +rnp +[0-9]')" -eq 2 ]
  # gpg made the one message to decrypt, with BZIP2, and nothing else
  # was encrypted.
  [ "$(grep -c -- ' -c --cipher' "$scratch/log")" -eq 2 ]
  [ "$(fed gpg | grep -c -- ' -z 6 --compress-algo bzip2 -c --cipher-algo AES256$')" -eq 1 ]
  "$SFENC" --batch --passphrase sfbench -d -v "$scratch/last-sfenc" \
    2>&1 > /dev/null | grep -q 'BZIP2 compressed data'
  # sfenc decrypted it once per count, gpg and rnp once each: the same
  # bytes (besides the message of an empty input, for the fixed cost).
  size=$(stat -c %s "$scratch/last-sfenc")
  [ "$size" -gt 1000 ] && [ "$size" -lt 1048576 ]
  for n in 1 2; do
    [ "$(fed sfenc | grep -c -- "^sfenc $size .* -d --threads $n$")" -eq 1 ]
  done
  [ "$(fed sfenc | grep -c "^sfenc $size ")" -eq 2 ]
  for tool in gpg rnp; do
    [ "$(fed $tool | grep -c -- "^$tool $size .* -d$")" -eq 1 ]
  done
  [ "$(grep -- ' -d' "$scratch/log" | awk -v n="$size" '$2 == n { print $3 }' \
    | sort -u | wc -l)" -eq 1 ]
}

@test "sfbench: the restore path of sfenc's own ZIP message: --message-by sfenc" {
  restore_run --compress-algo zip --message-by sfenc
  [ "$status" -eq 0 ]
  echo "$output"
  cat "$scratch/log"
  echo "$output" | grep -q '^# dec: every tool decrypts the same file, made once per algorithm by sfenc with --compress-algo zip$'
  num='[0-9]+\.[0-9]+'
  for n in 1 2; do
    echo "$output" | grep -Eq "^AES256 +256 +[a-z]+ +$n +dec +sfenc +$num "
  done
  [ "$(echo "$output" | grep -Ec '^AES256 +256 +[a-z]+ +- +dec +gpg +[0-9]')" -eq 2 ]
  [ "$(echo "$output" | grep -Ec '^AES256 +256 +[a-z]+ +- +dec +rnp +[0-9]')" -eq 2 ]
  # sfenc made the message, with its default thread count, and gpg
  # encrypted nothing.
  [ "$(fed sfenc | grep -c -- ' -z 6 --compress-algo zip -c --cipher-algo AES256')" -eq 1 ]
  [ "$(fed sfenc | grep -c -- ' -c .*--threads')" -eq 0 ]
  [ "$(grep -c '^gpg .* -c ' "$scratch/log")" -eq 0 ]
  "$SFENC" --batch --passphrase sfbench -d -v "$scratch/last-sfenc" \
    2>&1 > /dev/null | grep -q 'ZIP compressed data'
  # Every tool decrypted those bytes: sfenc once per count.
  size=$(stat -c %s "$scratch/last-sfenc")
  for n in 1 2; do
    [ "$(fed sfenc | grep -c -- "^sfenc $size .* -d --threads $n$")" -eq 1 ]
  done
  for tool in gpg rnp; do
    [ "$(fed $tool | grep -c -- "^$tool $size .* -d$")" -eq 1 ]
  done
  [ "$(grep -- ' -d' "$scratch/log" | awk -v n="$size" '$2 == n { print $3 }' \
    | sort -u | wc -l)" -eq 1 ]
  run "$SFBENCH" --message-by rnp
  [ "$status" -eq 2 ]
  [ "$output" = "sfbench: --message-by: gpg or sfenc expected" ]
}

@test "sfbench: --compress-algo zlib reaches every OpenPGP tool; --threads in every format" {
  command -v rnp > /dev/null \
    || skip "NOT TESTED: rnp is not installed, and --compress-algo reaches it as --zlib"
  spy sfenc "$SFENC"
  spy gpg
  spy rnp
  run "$SFBENCH" --size 1 --runs 1 --algo cast5 -z 6 --compress-algo ZLIB \
    --no-decrypt --threads 2 --sfenc "$scratch/spy-sfenc" \
    --gpg "$scratch/spy-gpg" --rnp "$scratch/spy-rnp" --save "$scratch/out" \
    --format csv
  [ "$status" -eq 0 ]
  cat "$scratch/log"
  fed sfenc | grep -q ' -z 6 --compress-algo zlib -c --cipher-algo CAST5 --threads 2$'
  fed gpg | grep -q ' -z 6 --compress-algo zlib -c --cipher-algo CAST5$'
  fed rnp | grep -q ' -z 6 --zlib -c --cipher CAST5$'
  # CSV: three tables, each with the threads column after impl and one
  # column count; the peers' rows have "-" there.
  awk -v RS= '{ print > ("'"$scratch"'/table" NR) }' "$scratch/out.csv"
  [ ! -e "$scratch/table4" ]
  for n in 1 2 3; do
    head -1 "$scratch/table$n" | grep -q '^algo,bits,impl,threads,op,'
    [ -z "$(awk -F, 'NR == 1 { n = NF } NF != n' "$scratch/table$n")" ]
  done
  [ "$(wc -l < "$scratch/table1")" -eq 2 ]
  grep -q '^CAST5,128,[a-z]*,2,enc,[0-9.]*,' "$scratch/table1"
  grep -q '^CAST5,128,[a-z]*,2,enc,sfenc,' "$scratch/table2"
  grep -q '^CAST5,128,[a-z]*,-,enc,gpg,' "$scratch/table2"
  grep -q '^CAST5,128,[a-z]*,-,enc,rnp,' "$scratch/table2"
  [ "$(grep -c '^CAST5,128,[a-z]*,2,enc,sfenc,1,' "$scratch/table3")" -eq 2 ]
  [ "$(grep -c '^CAST5,128,n/a,-,enc,gpg,1,' "$scratch/table3")" -eq 2 ]
  python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
r, = d["results"]
assert r["threads"] == "2" and r["op"] == "enc", r
assert r["sfenc_mibs"] > 0 and r["ratio_gpg"] > 0 and r["ratio_rnp"] > 0, r
assert sorted((u["tool"], u["threads"]) for u in d["usage"]) == [
    ("gpg", "-"), ("rnp", "-"), ("sfenc", "2")], d["usage"]
assert {(x["tool"], x["threads"]) for x in d["runs"]} == {
    ("gpg", "-"), ("rnp", "-"), ("sfenc", "2")}, d["runs"]
assert any(n.startswith("-z 6 --compress-algo zlib: every OpenPGP tool")
           for n in d["notes"]), d["notes"]
' "$scratch/out.json"
  grep -Eq '^ALGO +BITS +IMPL +THREADS +OP +sfenc ' "$scratch/out.txt"
  grep -Eq '^CAST5 +128 +[a-z]+ +2 +enc +[0-9.]+ ' "$scratch/out.txt"
  grep -q '^| ALGO | BITS | IMPL | THREADS | OP | sfenc |' "$scratch/out.md"
  grep -q '^| CAST5 | 128 | [a-z]* | 2 | enc | [0-9.]* |' "$scratch/out.md"
  grep -q '^| CAST5 | 128 | [a-z]* | - | enc | gpg |' "$scratch/out.md"
  grep -q '<th>THREADS</th>' "$scratch/out.html"
  grep -q '<td data-key="threads">2</td>' "$scratch/out.html"
  grep -q '<td data-key="threads">-</td>' "$scratch/out.html"
  # Without --threads the tables have no such column.
  run "$SFBENCH" --size 1 --runs 1 --algo cast5 --no-decrypt --no-gpg \
    --no-openssl --no-rnp --format csv
  [ "$status" -eq 0 ]
  [ -z "$(echo "$output" | grep threads)" ]
  echo "${lines[0]}" | grep -q '^algo,bits,impl,op,sfenc_mibs,'
}

@test "sfbench: --plot draws an SVG chart, --save writes every format" {
  run "$SFBENCH" --size 1 --runs 1 --algo aes --no-decrypt --no-rnp \
    --plot "$scratch/pipe.svg" --save "$scratch/pipe" --format markdown
  [ "$status" -eq 0 ]
  echo "$output" | grep -q '^| ALGO | BITS | IMPL | OP | sfenc |'
  echo "$output" | grep -q '^| ALGO | BITS | IMPL | OP | TOOL | wall | min | max | user |'
  grep -q '<svg' "$scratch/pipe.svg"
  grep -q 'gpg' "$scratch/pipe.svg"
  for ext in txt md csv json; do
    [ -s "$scratch/pipe.$ext" ]
  done
  python3 -m json.tool "$scratch/pipe.json" > /dev/null
  # The runs are in CSV and JSON only.
  grep -q '^algo,bits,impl,op,tool,run,input,' "$scratch/pipe.csv"
  [ "$(grep -c '^ALGO ' "$scratch/pipe.txt")" -eq 2 ]
  [ "$(grep -c '^| ALGO ' "$scratch/pipe.md")" -eq 2 ]
}

@test "sfbench: errors are one line and status 2" {
  run "$SFBENCH" --algo NOSUCH --no-gpg
  [ "$status" -eq 2 ]
  [ "${#lines[@]}" -eq 1 ]
  [[ "$output" == "sfbench: NOSUCH: unknown cipher algorithm"* ]]
  run "$SFBENCH" --size 0
  [ "$status" -eq 2 ]
  [[ "$output" == "sfbench: --size: "* ]]
  run "$SFBENCH" --size 1.5
  [ "$status" -eq 2 ]
  [[ "$output" == "sfbench: --size: "* ]]
  run "$SFBENCH" --runs x
  [ "$status" -eq 2 ]
  run "$SFBENCH" --format yaml
  [ "$status" -eq 2 ]
  run "$SFBENCH" -z 10
  [ "$status" -eq 2 ]
  [ "$output" = "sfbench: -z: a compression level from 0 to 9 expected" ]
  run "$SFBENCH" --bogus
  [ "$status" -eq 2 ]
  [[ "$output" == *"unknown option"* ]]
  run "$SFBENCH" --input "$scratch/no-such-input"
  [ "$status" -eq 2 ]
  [ "$output" = "sfbench: $scratch/no-such-input: No such file or directory" ]
  : > "$scratch/empty"
  run "$SFBENCH" --input "$scratch/empty"
  [ "$status" -eq 2 ]
  [ "$output" = "sfbench: $scratch/empty: is empty" ]
  run "$SFBENCH" --input "$scratch/empty" --size 2
  [ "$status" -eq 2 ]
  [[ "$output" == "sfbench: --size: --input FILE is measured whole"* ]]
  run "$SFBENCH" --sfenc "$scratch/no-such-sfenc"
  [ "$status" -eq 2 ]
  [[ "$output" == "sfbench: $scratch/no-such-sfenc: not found"* ]]
  run "$SFBENCH" --cipher-impl nosuch --no-gpg
  [ "$status" -eq 2 ]
  [[ "$output" == "sfbench: nosuch: no such implementation"* ]]
  run "$SFBENCH" --compress-algo bzip2
  [ "$status" -eq 2 ]
  [ "$output" = "sfbench: --compress-algo: needs -z 1 to 9 (with -z 0 nothing is compressed)" ]
  run "$SFBENCH" -z 6 --compress-algo lzma
  [ "$status" -eq 2 ]
  [ "$output" = "sfbench: --compress-algo: zip, zlib or bzip2 expected" ]
  run "$SFBENCH" --decrypt-only --no-decrypt
  [ "$status" -eq 2 ]
  [ "$output" = "sfbench: --decrypt-only: with --no-decrypt, nothing is left to measure" ]
  for bad in 0 65 1,x 1.5 , ''; do
    run "$SFBENCH" --threads "$bad"
    [ "$status" -eq 2 ]
    [ "$output" = "sfbench: --threads: thread counts from 1 to 64, comma separated, expected" ]
  done
  run "$SFBENCH" --threads 1,2,3,4,5,6,7,8,9 --cipher-impl ref,gcrypt
  [ "$status" -eq 2 ]
  [ "$output" = "sfbench: --threads: at most 16 sfenc rows per algorithm (--cipher-impl times --threads)" ]
  GNUPLOT=/nonexistent/gnuplot run "$SFBENCH" --plot "$scratch/x.svg"
  [ "$status" -eq 2 ]
  [ "${#lines[@]}" -eq 1 ]
  [[ "$output" == *"charts need gnuplot"* ]]
}

@test "sfbench: a module's algorithm gets openssl's column, found by name" {
  umask 022
  mkdir "$scratch/mods"
  ${SF_MODULE_CC:-cc} -O2 -shared -fPIC -fvisibility=hidden -DSF_DYNAMIC_MODULE \
    -I"$top_srcdir/cipher" -o "$scratch/mods/camellia.so" "$top_srcdir/tools/camellia-module/camellia.c"
  grep -q '^#define HAVE_OPENSSL 1' "$top_builddir/config.h" \
    || skip "NOT TESTED: sfbench built without libcrypto finds no OpenSSL names"
  SFENC_MODULE_DIR="$scratch/mods" run "$SFBENCH" --sfenc "$SFENC" --size 1 --runs 1 \
    --algo camellia256 --no-decrypt --no-rnp
  echo "$output"
  [ "$status" -eq 0 ]
  ! echo "$output" | grep -q "openssl has no"
  # sfenc, gpg and openssl figures, and the ratios to both.
  echo "$output" | grep -Eq "^CAMELLIA256 +256 +ref +enc +[0-9.]+ +[0-9]+ +[0-9.]+ +[0-9.]+ +[0-9.n/a*]+ +[0-9.]+ +[0-9.n/a*]+ +[0-9.]+x +[0-9.n/a*x]+ +[0-9.]+ +[0-9.]+x "
}
