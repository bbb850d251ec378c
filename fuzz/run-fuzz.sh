#!/bin/sh
# run-fuzz.sh - make fuzz: each harness for a while on its seed corpus
#
# Usage: run-fuzz.sh SRCDIR SECONDS FLAGS HARNESS...
#
# Each harness runs for SECONDS seconds, one job, on a scratch
# copy of its seed corpus and of the inputs of past findings, so that
# what it learns never lands in the source tree.  What it finds (a
# crash, a sanitizer report, a leak, a hang, an input using too much
# memory) goes to findings/NAME/ with the log, and the run fails.
# HARNESS-nohwf runs HARNESS with SFENC_DISABLE_HWF=all, for the
# portable code, its findings in findings/NAME-nohwf/.
# FLAGS are extra libFuzzer flags for every harness.  FUZZ_JOBS
# harnesses (default 1) run at once, each still one libFuzzer job
# with its own SECONDS: CI gives one per processor.
#
# With FUZZ_CORPUS_DIR set, each harness works in FUZZ_CORPUS_DIR/NAME
# instead, seeded as above when it does not exist yet and kept after
# the run, so that the next run goes on from the corpus this one left:
# a record longer than one sitting is made in several runs of the
# same build, their executions added up.
srcdir=$1
seconds=$2
flags=$3
shift 3
parallel=${FUZZ_JOBS:-1}

# The largest input worth trying, per harness: a few times the
# largest seed.
max_len () {
  case $1 in
    aead) echo 64 ;;
    options) echo 1024 ;;
    module|dynload) echo 4096 ;;
    *) echo 16384 ;;
  esac
}

# True when directory $1 holds anything besides the log: libFuzzer
# writes a crash, leak, timeout or OOM input there.
has_artifact () {
  for f in "$1"/*; do
    if [ "$f" != "$1/log" ] && [ -e "$f" ]; then
      return 0
    fi
  done
  return 1
}

# Run one harness; its report (and what it found) is printed at its
# end, whole, so that harnesses running at once do not mix theirs.
run_job () {
  job=$1
  prog=${job%-nohwf}
  name=${job#fuzz-}
  corpus=${prog#fuzz-}
  hwf=
  if [ "$job" != "$prog" ]; then
    hwf="env SFENC_DISABLE_HWF=all"
  fi
  out=findings/$name
  rm -rf "$out"
  mkdir -p "$out"
  scratch=
  if [ -n "$FUZZ_CORPUS_DIR" ]; then
    work=$FUZZ_CORPUS_DIR/$name
  else
    scratch=$(mktemp -d) || exit 1
    work=$scratch/corpus
  fi
  if [ ! -d "$work" ]; then
    mkdir -p "$work" || exit 1
    cp "$srcdir/corpus/$corpus"/* "$work/"
    if [ -d "$srcdir/regress/$corpus" ]; then
      cp "$srcdir/regress/$corpus"/* "$work/"
    fi
  fi
  # shellcheck disable=SC2086 # FLAGS are words for libFuzzer, HWF for env.
  $hwf ./"$prog" -max_total_time="$seconds" -max_len="$(max_len "$corpus")" \
    -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="$out/" $flags "$work" > "$out/log" 2>&1
  rc=$?
  if [ -n "$scratch" ]; then
    rm -rf "$scratch"
  fi
  echo "== $job: $seconds s"
  grep -E '^#[0-9]+[[:space:]]+DONE|^stat::' "$out/log"
  if [ "$rc" -ne 0 ] || has_artifact "$out"; then
    echo "FAIL: $job found something (exit $rc); see $out/" >&2
    tail -n 40 "$out/log" >&2
    return 1
  fi
  return 0
}

status=0
running=
for job in "$@"; do
  run_job "$job" &
  running="$running $!"
  # shellcheck disable=SC2086 # a list of process IDs, split on purpose.
  set -- $running
  if [ $# -ge "$parallel" ]; then
    wait "$1" || status=1
    shift
    running="$*"
  fi
done
for pid in $running; do
  wait "$pid" || status=1
done
exit $status
