#!/bin/sh
# Run the C tests again with every hardware feature disabled, so the
# portable implementations are tested on machines that would otherwise
# always pick the accelerated ones (as libgcrypt's basic-disable-all-hwf),
# then with single features disabled, for the narrower kernels of the
# processor at hand: x86's (aesni) or ARMv8's (armce).
# In a cross build each program runs under SF_EMULATOR (tests/Makefile.am).
set -e
run () {
  prog=$1
  shift
  ${SF_EMULATOR:-} "./$prog" "$@"
}
# The usable implementations, before anything is disabled.
impls=$(run ct-probe --list)
SFENC_DISABLE_HWF=all
export SFENC_DISABLE_HWF
for t in t-table t-kat t-modes t-diff t-cast5-maint t-sha1 t-aead t-stitch t-ocb; do
  echo "== $t with SFENC_DISABLE_HWF=all"
  run "$t"
done

# $1, the feature, and the tests to run with it disabled.
without () {
  f=$1
  shift
  for t in "$@"; do
    echo "== $t with SFENC_DISABLE_HWF=$f"
    SFENC_DISABLE_HWF=$f run "$t"
  done
}

case $impls in
  *" aesni "*)
    # AES-NI without VAES, and VAES without its 512-bit form (OCB),
    # and GHASH without VPCLMULQDQ: the narrower kernels.
    without vaes t-modes t-aead t-ocb
    without avx512,vpclmul t-modes t-aead t-ocb
    # The SHA extensions alone: AES-NI runs, its stitched kernels do
    # not, and the MDC's SHA-1 is the portable one.
    without shani t-stitch t-sha1
    # GCM's GHASH without the carry-less multiplication.
    without pclmul t-aead
    ;;
esac
case $impls in
  *" armce "*)
    # The same for ARMv8: the SHA-1 instructions alone, and PMULL.
    without arm-sha1 t-stitch t-sha1
    without arm-pmull t-aead
    ;;
esac
