#!/bin/sh
# ctgrind.sh - which implementations branch or index memory on secrets
#
# Runs ct-probe under valgrind's memcheck for every usable
# implementation, once with the key and once with the plaintext marked
# secret (undefined), and prints one line per implementation:
#   ALGO IMPL key=clean|N data=clean|N
# where N counts memcheck's reports (secret-dependent branches and
# addresses).  Table-driven ciphers are expected to leak through their
# S-box lookups; AES-NI and the bitsliced AES must come out clean, and
# the table-based AES must not (it shows the check can see a leak).
# Usage: ctgrind.sh [OUTPUT-FILE]   (default: ct-probe.out)
set -u
out=${1:-ct-probe.out}
probe=./ct-probe
if ! command -v valgrind > /dev/null; then
  echo "ctgrind: FAIL: valgrind is missing (Debian: apt-get install valgrind)" >&2
  exit 1
fi

# Count memcheck's errors for one run.
errors () {
  valgrind --tool=memcheck -q --error-limit=no --track-origins=no \
    --log-file=ct-probe.vglog "$probe" "$1" "$2" "$3" > /dev/null 2>&1
  status=$?
  if [ "$status" -ne 0 ]; then
    echo "probe-failed"
    return
  fi
  n=$(grep -c -E '(Conditional jump or move|Use of uninitialised value|Syscall param)' ct-probe.vglog)
  if [ "$n" -eq 0 ]; then echo clean; else echo "$n"; fi
}

: > "$out"
failed=0
passed=0
"$probe" --list | while read -r algo impl; do
  k=$(errors "$algo" "$impl" key)
  d=$(errors "$algo" "$impl" data)
  echo "$algo $impl key=$k data=$d"
done > "$out"
cat "$out"

# What the implementations promise, checked.
check () {
  if grep -Eq "$1" "$out"; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    echo "ctgrind: FAIL: expected a line matching '$1'" >&2
  fi
}
forbid () {
  if grep -Eq "$1" "$out"; then
    failed=$((failed + 1))
    echo "ctgrind: FAIL: unexpected line matching '$1':" >&2
    grep -E "$1" "$out" >&2
  else
    passed=$((passed + 1))
  fi
}
forbid 'probe-failed'
check '^AES ref key=[0-9]+ data=[0-9]+$'
forbid '^AES(192|256)? (aesni|ct) key=[^c]'
forbid '^AES(192|256)? (aesni|ct) key=clean data=[^c]'
rm -f ct-probe.vglog
echo "ctgrind: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
