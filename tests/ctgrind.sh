#!/bin/sh
# ctgrind.sh - check every implementation's timing claim
#
# Runs ct-probe under valgrind's memcheck for every usable
# implementation, once with the key and once with the plaintext marked
# secret (undefined); memcheck reports every branch and every memory
# address that depends on them.  One line per implementation:
#   ALGO IMPL CLAIM key=clean|N data=clean|N branches=B
# N counts memcheck's distinct reports, B the conditional jumps among
# them, both ways.  An implementation that claims "constant" must come
# out clean both ways; one that claims "tables" must show its lookups
# (else the claim undersells it, or the check is blind) and nothing
# else: a branch on a secret leaks more than a lookup does, and the
# claim does not cover it.  "unknown" is reported only.  The
# table-based AES must claim and show "tables": the check is seen to
# catch a leak.
# Usage: ctgrind.sh [OUTPUT-FILE]   (default: ct-probe.out)
#
# CTGRIND_ONLY="ALGO:IMPL ..." limits the check to those
# implementations (the table-based AES, "AES:ref", must be among them).
# A cross build runs the target's memcheck under qemu-user: SF_VALGRIND
# names the command (tools/cross-check makes it) and OBJCOPY the
# target's objcopy (configure); without SF_VALGRIND it skips.
set -u
out=${1:-ct-probe.out}
valgrind=${SF_VALGRIND:-valgrind}
if [ -n "${SF_EMULATOR:-}" ] && [ -z "${SF_VALGRIND:-}" ]; then
  echo "ctgrind: SKIP: a cross build without SF_VALGRIND: the host's valgrind cannot run its programs (tools/cross-check runs the target's)" >&2
  exit 77
fi
if ! command -v "$valgrind" > /dev/null; then
  echo "ctgrind: FAIL: valgrind is missing (Debian: apt-get install valgrind)" >&2
  exit 1
fi
# Memcheck counts its reports without debug information, and Debian 12's
# valgrind cannot read the DWARF 5 that clang writes by default: run a
# copy without it.
probe=./ct-probe.nodebug
if ! ${OBJCOPY:-objcopy} --strip-debug ./ct-probe "$probe"; then
  echo "ctgrind: FAIL: objcopy could not copy ct-probe" >&2
  exit 1
fi

# Memcheck's reports for one run: "ALL BRANCHES", the count of all of
# them ("clean" for none) and of the conditional jumps among them.
reports () {
  "$valgrind" --tool=memcheck -q --error-limit=no --track-origins=no \
    --log-file=ct-probe.vglog "$probe" "$1" "$2" "$3" > /dev/null 2>&1
  if [ $? -ne 0 ]; then
    echo "probe-failed 0"
    return
  fi
  n=$(grep -c -E '(Conditional jump or move|Use of uninitialised value|Syscall param)' ct-probe.vglog)
  b=$(grep -c 'Conditional jump or move' ct-probe.vglog)
  if [ "$n" -eq 0 ]; then n=clean; fi
  echo "$n $b"
}

${SF_EMULATOR:-} "$probe" --list | while read -r algo impl claim; do
  case " ${CTGRIND_ONLY:-$algo:$impl} " in
    *" $algo:$impl "*) ;;
    *) continue ;;
  esac
  set -- $(reports "$algo" "$impl" key) $(reports "$algo" "$impl" data)
  echo "$algo $impl $claim key=$1 data=$3 branches=$(($2 + $4))"
done > "$out"
rm -f ct-probe.vglog "$probe"
cat "$out"

passed=0
failed=0
while read -r algo impl claim key data branches; do
  case "$claim:$key:$data:$branches" in
    *probe-failed*) ok=no ;;
    constant:key=clean:data=clean:*) ok=yes ;;
    constant:*) ok=no ;;
    tables:key=clean:data=clean:*) ok=no ;;
    tables:*:branches=0) ok=yes ;;
    tables:*) ok=no ;;
    *) ok=yes ;;
  esac
  if [ "$ok" = yes ]; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    echo "ctgrind: FAIL: $algo $impl claims '$claim' but shows $key $data $branches" >&2
  fi
done < "$out"
for only in ${CTGRIND_ONLY:-}; do
  if ! grep -q "^${only%%:*} ${only#*:} " "$out"; then
    failed=$((failed + 1))
    echo "ctgrind: FAIL: $only was asked for and is not usable here" >&2
  fi
done
if grep -q '^AES ref tables key=[0-9]* data=[0-9]* branches=0$' "$out"; then
  passed=$((passed + 1))
else
  failed=$((failed + 1))
  echo "ctgrind: FAIL: the table-based AES shows no leak: the check is blind" >&2
fi
echo "ctgrind: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
