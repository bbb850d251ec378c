#!/bin/sh
# pgo-train.sh BUILDDIR - the training run of ./configure --enable-pgo
#
# Runs the instrumented programs of BUILDDIR on what the profile should
# describe: tools/cipherbench over every algorithm, implementation, mode
# and buffer size (short samples: the counts matter, not the times), and
# sfenc encrypting and decrypting a stream through every algorithm, as
# the pipe benchmark does, plus one compressed message.  Every message
# must decrypt to its input, so a broken instrumented build stops here.
# The profile goes where the compiler flags say (gcc: -fprofile-generate;
# clang: $LLVM_PROFILE_FILE).
set -eu
top=${1:?usage: pgo-train.sh BUILDDIR}
srcdir=$(cd "$(dirname "$0")/.." && pwd)
sfenc=$top/g10/sfenc
work=$(mktemp -d "${TMPDIR:-/tmp}/sfenc-pgo.XXXXXX")
trap 'rm -rf "$work"' EXIT

"$top/tools/cipherbench" --mode all --size all --runs 1 --seconds 0.005 \
  --no-openssl --no-auto-modules > /dev/null

# sfenc: the same passphrase and options for every run; -z 0 as the
# benchmark, then the default compression on text (the tree's sources).
run_sfenc () {
  "$sfenc" --batch --yes --no-auto-modules --passphrase pgo-train "$@"
}
round_trip () {
  input=$1
  shift
  run_sfenc -c -o "$work/msg" "$@" < "$input"
  run_sfenc -d -o "$work/back" "$work/msg"
  cmp -s "$input" "$work/back" || {
    echo "pgo-train.sh: sfenc $*: the message does not decrypt to its input" >&2
    exit 1
  }
}

head -c 4194304 /dev/zero > "$work/zeros"
# Every algorithm with an OpenPGP id (field 4), once.
for algo in $("$sfenc" --list-ciphers --with-colons \
                | awk -F: '$4 != "" && !seen[$2]++ { print $2 }'); do
  round_trip "$work/zeros" -z 0 --cipher-algo "$algo"
done
cat "$srcdir"/cipher/*.c "$srcdir"/g10/*.c > "$work/text"
round_trip "$work/text"
