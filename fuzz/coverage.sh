#!/bin/sh
# coverage.sh - make fuzz-coverage: the lines of g10/ and cipher/ that
# the seed corpora and the past findings reach
#
# Usage: coverage.sh SRCDIR DIR HARNESS...
#
# Configures and builds sfenc in DIR/build with clang's source-based
# coverage (-fprofile-instr-generate -fcoverage-mapping) and with
# FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION, as the fuzz build has it,
# the harnesses linked with driver.c; runs each HARNESS on its inputs
# as make check does (run-inputs.sh, with the SFENC_DISABLE_HWF=all
# runs that nohwf_harnesses asks for), each process writing its own
# raw profile; merges them with llvm-profdata into DIR/NAME.profdata
# per harness and DIR/all.profdata for all; and writes DIR/report.txt,
# llvm-cov's report for every file of g10/ and cipher/ over the union
# of the harnesses, and DIR/lines.txt, its lines reached per file.  DIR/show/ holds each source file with the count of every
# line (llvm-cov show).  The build is kept for the next run.
#
# COVERAGE_CC, LLVM_PROFDATA and LLVM_COV name the tools, clang-14,
# llvm-profdata-14 and llvm-cov-14 by default; MAKE the make to build
# with.
set -eu

if [ $# -lt 3 ]; then
  echo "usage: $0 SRCDIR DIR HARNESS..." >&2
  exit 2
fi
srcdir=$1
out=$2
shift 2
cc=${COVERAGE_CC:-clang-14}
profdata=${LLVM_PROFDATA:-llvm-profdata-14}
cov=${LLVM_COV:-llvm-cov-14}
make=${MAKE:-make}

# configure refuses a second build from a source tree configured in
# place: say so before building anything.
if [ -f "$srcdir/config.status" ] && [ ! -f "$out/build/config.status" ]; then
  echo "coverage.sh: $srcdir is configured in place; build the fuzz" \
    "harnesses out of tree or run make distclean there first" >&2
  exit 2
fi
mkdir -p "$out/build"
cd "$out/build"
if [ ! -f config.status ]; then
  echo "== configure in $out/build (CC=$cc, coverage)"
  "$srcdir/configure" CC="$cc" \
    CFLAGS="-O1 -g -fprofile-instr-generate -fcoverage-mapping" \
    CPPFLAGS=-DFUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION > configure.log
fi
echo "== build"
$make -C cipher all > build.log
$make -C g10 libsfenc.la >> build.log
$make -C fuzz "$@" >> build.log

rm -rf "$out/profraw" "$out/show"
mkdir "$out/profraw"
cd fuzz
fuzz_src=$srcdir/fuzz
objects=
for prog in "$@"; do
  LLVM_PROFILE_FILE="$out/profraw/$prog.%p.profraw" srcdir=$fuzz_src \
    sh "$fuzz_src/run-inputs.sh" "./$prog" > "$out/$prog.log" 2>&1 \
    || { echo "FAIL: $prog (see $out/$prog.log)" >&2; exit 1; }
  "$profdata" merge -sparse -o "$out/$prog.profdata" \
    "$out/profraw/$prog".*.profraw
  grep 'inputs run$' "$out/$prog.log"
  objects="$objects -object ./$prog"
done
"$profdata" merge -sparse -o "$out/all.profdata" "$out"/profraw/*.profraw

# Every harness holds the code of g10/ and cipher/: llvm-cov joins the
# counts of each function across them.
# shellcheck disable=SC2086 # OBJECTS are words, the programs' names.
"$cov" report "./$1" $objects -instr-profile="$out/all.profdata" \
  "$srcdir/g10" "$srcdir/cipher" > "$out/report.txt"
# shellcheck disable=SC2086
"$cov" show "./$1" $objects -instr-profile="$out/all.profdata" \
  -format=text -output-dir="$out/show" "$srcdir/g10" "$srcdir/cipher"
# File, lines, lines reached, line coverage, from columns 1 and 8 to
# 10 of the report; files without code left out.
{
  printf '%-28s %6s %7s %8s\n' file lines reached cover
  awk -v src="$srcdir/" '$1 ~ /\.[ch]$/ && $8 > 0 {
      f = $1; sub (src, "", f)
      printf "%-28s %6d %7d %8s\n", f, $8, $8 - $9, $10 }' \
    "$out/report.txt" | sort
  awk '$1 == "TOTAL" { printf "%-28s %6d %7d %8s\n", "total", $8, $8 - $9, $10 }' \
    "$out/report.txt"
} > "$out/lines.txt"
cat "$out/lines.txt"
echo "coverage: $out/report.txt, $out/lines.txt, $out/show/"
