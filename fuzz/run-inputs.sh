#!/bin/sh
# run-inputs.sh - make check: run a harness once on each file of its
# seed corpus (corpus/NAME/) and of past findings (regress/NAME/).
#
# Usage: srcdir=DIR nohwf_harnesses=LIST run-inputs.sh ./fuzz-NAME
# The harness is built with driver.c or with libFuzzer; both run the
# files they are given once each and fail on a crash or a sanitizer
# report.  When LIST (Makefile.am's) names fuzz-NAME-nohwf, they run
# a second time with SFENC_DISABLE_HWF=all, for the portable code, as
# make fuzz runs them (run-fuzz.sh).
prog=$1
name=$(basename "$prog")
name=${name#fuzz-}
name=${name%.exe}
set -- "$srcdir/corpus/$name"/*
if [ ! -f "$1" ]; then
  echo "run-inputs.sh: no seed corpus in $srcdir/corpus/$name" >&2
  exit 1
fi
if [ -d "$srcdir/regress/$name" ]; then
  set -- "$@" "$srcdir/regress/$name"/*
fi
echo "$prog: $# inputs"
"$prog" "$@" || exit
case " ${nohwf_harnesses-} " in
  *" fuzz-$name-nohwf "*)
    echo "$prog: $# inputs with SFENC_DISABLE_HWF=all"
    SFENC_DISABLE_HWF=all "$prog" "$@"
    ;;
esac
