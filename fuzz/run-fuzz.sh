#!/bin/sh
# run-fuzz.sh - make fuzz: each harness for a while on its seed corpus
#
# Usage: run-fuzz.sh SRCDIR SECONDS FLAGS HARNESS...
#
# Each harness runs alone for SECONDS seconds, one job, on a scratch
# copy of its seed corpus and of the inputs of past findings, so that
# what it learns never lands in the source tree.  What it finds (a
# crash, a sanitizer report, a leak, a hang, an input using too much
# memory) goes to findings/NAME/ with the log, and the run fails.
# FLAGS are extra libFuzzer flags for every harness.
srcdir=$1
seconds=$2
flags=$3
shift 3

# The largest input worth trying, per harness: a few times the
# largest seed.
max_len () {
  case $1 in
    options) echo 1024 ;;
    module) echo 4096 ;;
    *) echo 16384 ;;
  esac
}

status=0
for prog in "$@"; do
  name=${prog#fuzz-}
  out=findings/$name
  rm -rf "$out"
  mkdir -p "$out"
  scratch=$(mktemp -d) || exit 1
  mkdir "$scratch/corpus"
  cp "$srcdir/corpus/$name"/* "$scratch/corpus/"
  if [ -d "$srcdir/regress/$name" ]; then
    cp "$srcdir/regress/$name"/* "$scratch/corpus/"
  fi
  echo "== $prog: $seconds s"
  # shellcheck disable=SC2086 # FLAGS are words for libFuzzer.
  ./"$prog" -max_total_time="$seconds" -max_len="$(max_len "$name")" \
    -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="$out/" $flags "$scratch/corpus" > "$out/log" 2>&1
  rc=$?
  rm -rf "$scratch"
  grep -E '^#[0-9]+[[:space:]]+DONE|^stat::' "$out/log"
  if [ "$rc" -ne 0 ] || ls "$out" | grep -qv '^log$'; then
    echo "FAIL: $prog found something (exit $rc); see $out/" >&2
    tail -n 40 "$out/log" >&2
    status=1
  fi
done
exit $status
