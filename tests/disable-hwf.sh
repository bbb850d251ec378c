#!/bin/sh
# Run the C tests again with every hardware feature disabled, so the
# portable implementations are tested on machines that would otherwise
# always pick the accelerated ones (as libgcrypt's basic-disable-all-hwf).
# In a cross build each program runs under SF_EMULATOR (tests/Makefile.am).
set -e
run () {
  ${SF_EMULATOR:-} "./$1"
}
SFENC_DISABLE_HWF=all
export SFENC_DISABLE_HWF
for t in t-table t-kat t-modes t-diff t-cast5-maint t-sha1 t-aead t-stitch t-ocb; do
  echo "== $t with SFENC_DISABLE_HWF=all"
  run "$t"
done
# AES-NI without VAES, and VAES without its 512-bit form (OCB), and
# GHASH without VPCLMULQDQ: the narrower kernels.
for f in vaes avx512,vpclmul; do
  for t in t-modes t-aead t-ocb; do
    echo "== $t with SFENC_DISABLE_HWF=$f"
    SFENC_DISABLE_HWF=$f run "$t"
  done
done
# The SHA-1 instructions alone (x86's SHA extensions, ARMv8's SHA-1):
# the AES instructions run, their stitched kernels do not, and the
# MDC's SHA-1 is the portable one.
for f in shani arm-sha1; do
  for t in t-stitch t-sha1; do
    echo "== $t with SFENC_DISABLE_HWF=$f"
    SFENC_DISABLE_HWF=$f run "$t"
  done
done
# GCM's GHASH without the carry-less multiplication (x86's, ARMv8's),
# beside the accelerated AES.
for f in pclmul arm-pmull; do
  echo "== t-aead with SFENC_DISABLE_HWF=$f"
  SFENC_DISABLE_HWF=$f run t-aead
done
