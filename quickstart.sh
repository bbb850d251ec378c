#!/bin/sh
# quickstart.sh - set up a Debian machine, build sfenc, and run the main
# job (no argument) or the whole test suite ("check").
#
#   ./quickstart.sh          install what is missing, build, pipe benchmark
#   ./quickstart.sh check    install what is missing, build, make check
set -e
cd "$(dirname "$0")"

case "${1:-bench}" in
  bench|check) ;;
  *) echo "usage: $0 [check]" >&2; exit 2 ;;
esac

missing=
for pkg in $(grep -v '^#' tools/debian-packages.txt); do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'ok installed' \
    || missing="$missing $pkg"
done
if [ -n "$missing" ]; then
  echo "quickstart: installing:$missing"
  if [ "$(id -u)" -eq 0 ]; then sudo=; else sudo=sudo; fi
  $sudo apt-get update
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y --no-install-recommends $missing
fi

[ -x configure ] || ./autogen.sh
[ -f Makefile ] || ./configure ${SFENC_CONFIGURE_FLAGS:-}
make -j"$(nproc)"

if [ "${1:-bench}" = check ]; then
  # The suites wait on gpg, rnp and pipes much of the time: one per
  # processor at once.
  make -j"$(nproc)" check
else
  tools/sfbench
fi
