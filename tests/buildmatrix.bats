#!/usr/bin/env bats
# tools/buildmatrix: the matrix it plans from the compilers in PATH,
# what it refuses, and one real run (made once for the file) of a
# compiler wrapper around gcc that cannot do PGO and miscompiles
# Blowfish when asked: configure's error and the failed known-answer
# tests are reported, the good builds are measured side by side.
# Tiny samples: no figure is checked for speed, only for shape.

bats_require_minimum_version 1.5.0

setup_file () {
  local top=${top_builddir:-$BATS_TEST_DIRNAME/..}
  local src=${top_srcdir:-$BATS_TEST_DIRNAME/..}
  export BUILDMATRIX=${BUILDMATRIX:-$top/tools/buildmatrix}
  local run=$BATS_FILE_TMPDIR/run

  # gcc without profile-guided optimisation which, given
  # -fmiscompile-blowfish, compiles Blowfish with one bit of a table
  # flipped (as tests/corrupt-table.pl does for the t-corrupt-* tests).
  mkdir -p "$run/bin"
  { echo '#!/bin/sh'
    echo "corrupt_table='$src/tests/corrupt-table.pl'"
    cat <<'EOF'
case " $* " in *" -fmiscompile-blowfish "*) miscompile=yes ;; *) miscompile=no ;; esac
for arg do
  shift
  case $arg in
    -fprofile*)
      echo "testcc: error: unrecognized command-line option '$arg'" >&2
      exit 1 ;;
    -fmiscompile-blowfish) ;;
    */blowfish.c)
      if [ $miscompile = yes ]; then
        perl "$corrupt_table" "$arg" > miscompiled-blowfish.c || exit 1
        set -- "$@" -I"${arg%/*}" miscompiled-blowfish.c
      else
        set -- "$@" "$arg"
      fi ;;
    *) set -- "$@" "$arg" ;;
  esac
done
exec gcc "$@"
EOF
  } > "$run/bin/testcc"
  chmod +x "$run/bin/testcc"

  "$BUILDMATRIX" --no-discover --cc "$run/bin/testcc" --variants O2,pgo \
    --cflags "-g -O1" --cflags "-g -O2 -fmiscompile-blowfish" \
    --algo blowfish --runs 2 --seconds 0.01 --pipe-seconds 0.02 --sizes 16 \
    --dir "$run/dir" --save "$run/report" --plot "$run/chart.svg" \
    > "$run/stdout" 2> "$run/stderr" && echo 0 > "$run/status" \
    || echo $? > "$run/status"
}

setup () {
  run_dir=$BATS_FILE_TMPDIR/run
  scratch=$(mktemp -d)
}

teardown () {
  rm -rf "$scratch"
}

# A C compiler that only answers the question buildmatrix asks first
# (-E -dM: which compiler and version), as FAMILY MAJOR.
fake_compiler () {
  local file=$scratch/bin/$1 family=$2 major=$3
  mkdir -p "$scratch/bin"
  if [ "$family" = clang ]; then
    printf '#!/bin/sh\nprintf "#define __STDC__ 1\\n#define __GNUC__ 4\\n#define __clang__ 1\\n#define __clang_major__ %s\\n#define __clang_minor__ 0\\n#define __clang_patchlevel__ 1\\n"\n' "$major" > "$file"
  else
    printf '#!/bin/sh\nprintf "#define __STDC__ 1\\n#define __GNUC__ %s\\n#define __GNUC_MINOR__ 2\\n#define __GNUC_PATCHLEVEL__ 0\\n"\n' "$major" > "$file"
  fi
  chmod +x "$file"
}

# The BUILD column of --list, one build a line.
listed_builds () {
  # After the "# " lines (where the list comes from) and the header.
  echo "$output" | grep -v '^# ' | tail -n +2 | awk '{ print $1 }' | tr '\n' ' '
}

@test "buildmatrix: --list: every gcc-N and clang-N in PATH once, four variants, the default compiler first" {
  fake_compiler gcc-11 gcc 11
  fake_compiler gcc-12 gcc 12
  fake_compiler clang-16 clang 16
  # What ./configure picks (gcc) comes first; a second name for one
  # compiler and names that are not compilers are left out.
  ln -s gcc-12 "$scratch/bin/gcc"
  ln -s clang-16 "$scratch/bin/clang-99"
  fake_compiler gcc-ar-12 gcc 12
  fake_compiler clang-format-16 clang 16
  PATH=$scratch/bin run "$BUILDMATRIX" --list
  [ "$status" -eq 0 ]
  echo "$output"
  [ "$(listed_builds)" = "gcc-12-O2 gcc-12-native gcc-12-lto gcc-12-pgo gcc-11-O2 gcc-11-native gcc-11-lto gcc-11-pgo clang-16-O2 clang-16-native clang-16-lto clang-16-pgo " ]
  echo "$output" | grep -Eq '^gcc-12-native +gcc 12\.2\.0 +-g -O3 -march=native +planned$'
  echo "$output" | grep -Eq '^gcc-12-pgo +gcc 12\.2\.0 +-g -O2 +--enable-pgo +planned$'
  echo "$output" | grep -Eq '^clang-16-lto +clang 16\.0\.1 +-g -O2 +--enable-lto +planned$'
}

@test "buildmatrix: --list --quick: the default compiler -O2 and PGO, the newest of the other family -O2" {
  fake_compiler gcc-12 gcc 12
  fake_compiler clang-14 clang 14
  fake_compiler clang-16 clang 16
  ln -s gcc-12 "$scratch/bin/gcc"
  PATH=$scratch/bin run "$BUILDMATRIX" --list --quick
  [ "$status" -eq 0 ]
  [ "$(listed_builds)" = "gcc-12-O2 gcc-12-pgo clang-16-O2 " ]
}

@test "buildmatrix: --list: --no-discover, --cc, --variants and --cflags choose the builds" {
  fake_compiler gcc-12 gcc 12
  fake_compiler mycc clang 17
  PATH=$scratch/bin run "$BUILDMATRIX" --list --no-discover \
    --cc "$scratch/bin/mycc" --variants lto --cflags "-O1 -fno-inline" \
    --format csv
  [ "$status" -eq 0 ]
  [ "${lines[0]}" = "build,compiler,cflags,option,status" ]
  [ "${lines[1]}" = "mycc-lto,clang 17.0.1,-g -O2,--enable-lto,planned" ]
  [ "${lines[2]}" = "mycc-cflags1,clang 17.0.1,-O1 -fno-inline,,planned" ]
  [ "${#lines[@]}" -eq 3 ]
}

@test "buildmatrix: bad options, compilers and directories: one line, status 2, nothing touched" {
  run "$BUILDMATRIX" --variants fast
  [ "$status" -eq 2 ]
  [ "$output" = "buildmatrix: --variants: O2, native, lto, pgo or all expected" ]
  run "$BUILDMATRIX" --frobnicate
  [ "$status" -eq 2 ]
  [ "$output" = "buildmatrix: --frobnicate: unknown option (try --help)" ]
  printf '#!/bin/sh\nexit 0\n' > "$scratch/notacc"
  chmod +x "$scratch/notacc"
  run "$BUILDMATRIX" --cc "$scratch/notacc" --list
  [ "$status" -eq 2 ]
  [ "$output" = "buildmatrix: $scratch/notacc: --cc: not a working C compiler" ]
  # A directory buildmatrix did not make is not emptied.
  mkdir "$scratch/mine"
  echo keep > "$scratch/mine/notes.txt"
  run "$BUILDMATRIX" --dir "$scratch/mine" --variants O2
  [ "$status" -eq 2 ]
  [[ "$output" == "buildmatrix: "*"/mine: not empty and not made by buildmatrix; give another --dir" ]]
  [ "$(cat "$scratch/mine/notes.txt")" = keep ]
  run "$BUILDMATRIX" --dir "$scratch/new" --measure-only
  [ "$status" -eq 2 ]
  [[ "$output" == *"/new: --measure-only: no earlier run here" ]]
  # An unknown algorithm is refused before anything is built.
  run "$BUILDMATRIX" --dir "$scratch/never" --algo NOSUCH
  [ "$status" -eq 2 ]
  [ "$output" = "buildmatrix: NOSUCH: --algo: unknown algorithm (see sfenc --list-ciphers)" ]
  [ ! -e "$scratch/never" ]
}

@test "buildmatrix: a build that fails its known-answer tests is reported, never measured" {
  cat "$run_dir/stderr"
  cat "$run_dir/stdout"
  # Status 1: the report is complete, and a build failed.
  [ "$(cat "$run_dir/status")" -eq 1 ]
  grep -Eq '^testcc-cflags2 +gcc [0-9.]+ +-g -O2 -fmiscompile-blowfish +KAT failed +[0-9]+( +n/a){5}$' "$run_dir/report.txt"
  # The note names the tests and what the first of them saw: the
  # corrupted module refused by its own self-test.
  grep -q '^# testcc-cflags2: KAT failed: t-kat .*(t-kat: .*BLOWFISH (ref): self-test failed' "$run_dir/report.txt"
  python3 - "$run_dir/report.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
for r in d["cipherbench"] + d["pipe"]:
    assert r["testcc-cflags2"] is None, r
EOF
}

@test "buildmatrix: a compiler that cannot do PGO gets configure's error, reported" {
  grep -Eq '^testcc-pgo +gcc [0-9.]+ +-g -O2 +--enable-pgo +configure failed ' "$run_dir/report.txt"
  grep -q "^# testcc-pgo: configure failed: configure: error: --enable-pgo: $run_dir/bin/testcc does not accept -fprofile-generate=" "$run_dir/report.txt"
  # No PGO build, so no PGO table.
  python3 -c 'import json, sys; assert "pgo" not in json.load(open(sys.argv[1]))' "$run_dir/report.json"
}

@test "buildmatrix: the good builds side by side: MiB/s, the best of each row marked, geomean, ratios" {
  local txt=$run_dir/report.txt
  # The reference is the first good build: the default compiler is not here.
  grep -q '^# xdefault: the build.s geometric mean / testcc-O2.s (the first good build' "$txt"
  grep -Eq '^testcc-O2 +gcc [0-9.]+ +-g -O2 +ok +[0-9]+ +[0-9.]+ +1\.000x +[0-9.]+ +1\.000x +1\.000x$' "$txt"
  grep -Eq '^testcc-cflags1 +gcc [0-9.]+ +-g -O1 +ok +[0-9]+ +[0-9.]+ +[0-9.]+x +[0-9.]+ +[0-9.]+x +[0-9.]+x$' "$txt"
  # Columns: O2, pgo, cflags1, cflags2; one figure marked in each row
  # where two builds have one.
  for mode in cfb-enc cfb-dec; do
    grep -Eq "^BLOWFISH +ref +$mode +[0-9.]+\*? +n/a +[0-9.]+\*? +n/a\$" "$txt"
    [ "$(grep -E "^BLOWFISH +ref +$mode " "$txt" | tr -cd '*')" = '*' ]
  done
  grep -Eq '^geomean +[0-9.]+\*? +n/a +[0-9.]+\*? +n/a$' "$txt"
  grep -Eq '^control +gcrypt +[0-9.]+ +n/a +[0-9.]+ +n/a$' "$txt"
  grep -Eq '^BLOWFISH +ref +[0-9.]+\*? +n/a +[0-9.]+\*? +n/a$' "$txt"
  # Markdown marks alike; CSV and JSON keep bare numbers.
  grep -Eq '^\| BLOWFISH \| ref \| cfb-enc \| [0-9.]+\*? \| n/a \| [0-9.]+\*? \| n/a \|$' "$run_dir/report.md"
  grep -q '^algo,impl,mode,testcc-O2,testcc-pgo,testcc-cflags1,testcc-cflags2$' "$run_dir/report.csv"
  [ -z "$(grep '\*' "$run_dir/report.csv")" ]
  python3 - "$run_dir/report.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
assert [b["build"] for b in d["builds"]] == ["testcc-O2", "testcc-pgo", "testcc-cflags1", "testcc-cflags2"]
assert [b["status"] for b in d["builds"]] == ["ok", "configure failed", "ok", "KAT failed"]
rows = [r for r in d["cipherbench"] if r["algo"] == "BLOWFISH"]
modes = {(r["impl"], r["mode"]) for r in rows}
# The stitched rows come where the processor has the SHA instructions.
stitched = {("ref", "cfb-enc+sha1"), ("ref", "cfb-enc;sha1")}
assert modes - stitched == {("ref", "cfb-enc"), ("ref", "cfb-dec")}, rows
assert not modes & stitched or modes >= stitched, rows
for r in rows + d["pipe"]:
    assert r["testcc-O2"] > 0 and r["testcc-cflags1"] > 0, r
    assert r["testcc-pgo"] is None, r
EOF
  grep -q '<svg' "$run_dir/chart.svg"
  grep -q 'testcc-cflags1' "$run_dir/chart.svg"
  # The progress went to stderr, a line a step off a terminal.
  grep -q '^buildmatrix: \[4/4\] testcc-cflags2: known-answer tests$' "$run_dir/stderr"
  grep -q '^buildmatrix: BLOWFISH (1/1), round 2/2: testcc-cflags1$' "$run_dir/stderr"
  # Each build is out of tree, from one copy of the sources.
  [ -x "$run_dir/dir/src/configure" ]
  grep -qx "abs_top_srcdir = $run_dir/dir/src" "$run_dir/dir/testcc-O2/Makefile"
  grep -qx "abs_top_builddir = $run_dir/dir/testcc-O2" "$run_dir/dir/testcc-O2/Makefile"
}

@test "buildmatrix: --measure-only measures the builds of an earlier run again, without building" {
  local sfenc=$run_dir/dir/testcc-O2/g10/sfenc
  local before=$(stat -c %Y "$sfenc")
  run --separate-stderr "$BUILDMATRIX" --measure-only --no-discover \
    --cc "$run_dir/bin/testcc" --variants O2,pgo \
    --cflags "-g -O1" --cflags "-g -O2 -fmiscompile-blowfish" \
    --algo blowfish --runs 1 --seconds 0.01 --pipe-seconds 0.02 \
    --dir "$run_dir/dir" --format csv
  [ "$status" -eq 1 ]
  [ "$(stat -c %Y "$sfenc")" = "$before" ]
  [ -z "$(echo "$stderr" | grep -E 'configure|make|known-answer')" ]
  echo "$output" | grep -Eq '^testcc-O2,gcc [0-9.]+,-g -O2,,ok,[0-9]+,[0-9.]+,1\.000,'
  echo "$output" | grep -Eq '^testcc-cflags2,gcc [0-9.]+,-g -O2 -fmiscompile-blowfish,,KAT failed,'
  echo "$output" | grep -Eq '^BLOWFISH,ref,cfb-dec,[0-9.]+,n/a,[0-9.]+,n/a$'
}
