#!/bin/sh
# ctgrind.sh - check every implementation's timing claim
#
# Runs ct-probe under valgrind's memcheck for everything it can probe
# (the usable cipher implementations, each GHASH implementation, HKDF),
# once with the key and once with the data marked secret (undefined);
# memcheck reports every branch and every memory address that depends
# on them.  One line per implementation:
#   ALGO IMPL CLAIM key=clean|N data=clean|N branches=B
# N counts memcheck's distinct reports, B the conditional jumps among
# them, both ways.  An implementation that claims "constant" must come
# out clean both ways; one that claims "tables" must show its lookups
# (else the claim undersells it, or the check is blind) and nothing
# else: a branch on a secret leaks more than a lookup does, and the
# claim does not cover it.  "unknown" is reported only.  Two controls
# show that the check catches a leak: the table-based AES must claim
# and show "tables", and "AES ct-leak", the bitsliced AES with one
# secret-indexed load added (ct-leak.pl), must show reports although
# it claims "constant".
# Usage: ctgrind.sh [--module FILE]... [OUTPUT-FILE]
#   (default: ct-probe.out; run in the directory holding ct-probe)
#
# CTGRIND_ONLY="ALGO:IMPL ..." limits the check to those
# implementations and the two controls, which always run.
# --module FILE, a module author's check, loads the dynamic module FILE
# (a path without spaces) into ct-probe and, unless CTGRIND_ONLY says
# otherwise, checks its implementations alone, beside the controls.
# What the native run of ct-probe can probe and valgrind's cannot (its
# guest lacks the instructions: GHASH vpclmul) is listed as not checked.
# A cross build runs the target's memcheck under qemu-user: SF_VALGRIND
# names the command (tools/cross-check makes it) and OBJCOPY the
# target's objcopy (configure); without SF_VALGRIND it skips.
set -u
load=
while [ "${1:-}" = --module ] && [ $# -ge 2 ]; do
  load="$load --load-extension $2"
  shift 2
done
out=${1:-ct-probe.out}
valgrind=${SF_VALGRIND:-valgrind}
controls="AES:ref AES:ct-leak"
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
if [ -n "$load" ] && [ -z "${CTGRIND_ONLY:-}" ]; then
  CTGRIND_ONLY=$(${SF_EMULATOR:-} ./ct-probe $load --list-loaded | awk '{ printf "%s:%s ", $1, $2 }')
  if [ -z "$CTGRIND_ONLY" ]; then
    echo "ctgrind: FAIL: ct-probe loaded no usable implementation with$load" >&2
    exit 1
  fi
fi

# Valgrind's translator normally brings the guest registers up to date
# at a memory access only as far as unwinding the stack needs.  An
# audit saw a build of the bitsliced AES with one table load indexed by
# its state pass memcheck that way with no report, and fail with 24 to
# 28 reports with every register up to date at every memory access, as
# here.  (The builds tried since flag such a load either way; the
# setting costs about 1% of the run.  --vex-iropt-level=0 is not used:
# it also reports branches on public values, false alarms.)
vex=--vex-iropt-register-updates=allregs-at-mem-access

# Memcheck's reports for one run: "ALL BRANCHES", the count of all of
# them ("clean" for none) and of the conditional jumps among them.
reports () {
  "$valgrind" --tool=memcheck "$vex" -q --error-limit=no --track-origins=no \
    --log-file=ct-probe.vglog "$probe" $load "$1" "$2" "$3" > /dev/null 2>&1
  if [ $? -ne 0 ]; then
    echo "probe-failed 0"
    return
  fi
  n=$(grep -c -E '(Conditional jump or move|Use of uninitialised value|Syscall param)' ct-probe.vglog)
  b=$(grep -c 'Conditional jump or move' ct-probe.vglog)
  if [ "$n" -eq 0 ]; then n=clean; fi
  echo "$n $b"
}

# What valgrind's guest can run, and what only the processor can.
if ! list=$("$valgrind" --tool=memcheck "$vex" -q "$probe" $load --list 2> /dev/null); then
  echo "ctgrind: FAIL: ct-probe --list failed under valgrind" >&2
  exit 1
fi
${SF_EMULATOR:-} "$probe" $load --list | while read -r algo impl claim; do
  if ! echo "$list" | grep -q -x -F "$algo $impl $claim"; then
    echo "ctgrind: NOT CHECKED: $algo $impl ($claim): valgrind's guest cannot run it"
  fi
done

echo "$list" | while read -r algo impl claim; do
  case " ${CTGRIND_ONLY:-$algo:$impl} $controls " in
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
  case "$algo:$impl:$claim:$key:$data:$branches" in
    *probe-failed*) ok=no ;;
    # The second control: its reports are checked below.
    AES:ct-leak:*) continue ;;
    *:constant:key=clean:data=clean:*) ok=yes ;;
    *:constant:*) ok=no ;;
    *:tables:key=clean:data=clean:*) ok=no ;;
    *:tables:*:branches=0) ok=yes ;;
    *:tables:*) ok=no ;;
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
if grep -q -E '^AES ref tables key=[0-9]+ data=[0-9]+ ' "$out"; then
  passed=$((passed + 1))
else
  failed=$((failed + 1))
  echo "ctgrind: FAIL: the table-based AES shows no leak: the check is blind" >&2
fi
if grep -q -E '^AES ct-leak constant (key=[0-9]+ |key=clean data=[0-9]+ )' "$out"; then
  passed=$((passed + 1))
else
  failed=$((failed + 1))
  echo "ctgrind: FAIL: AES ct-leak, the bitsliced AES with one secret-indexed load, shows no report: the check misses such a load" >&2
fi
echo "ctgrind: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
