#!/bin/sh
# Run the C tests again with every hardware feature disabled, so the
# portable implementations are tested on machines that would otherwise
# always pick the accelerated ones (as libgcrypt's basic-disable-all-hwf).
set -e
SFENC_DISABLE_HWF=all
export SFENC_DISABLE_HWF
for t in t-table t-kat t-modes t-diff t-cast5-maint t-sha1 t-aead t-stitch t-ocb; do
  echo "== $t with SFENC_DISABLE_HWF=all"
  ./$t
done
# AES-NI without VAES, and VAES without its 512-bit form (OCB), and
# GHASH without VPCLMULQDQ: the narrower kernels.
for f in vaes avx512,vpclmul; do
  for t in t-modes t-aead t-ocb; do
    echo "== $t with SFENC_DISABLE_HWF=$f"
    SFENC_DISABLE_HWF=$f ./$t
  done
done
# The SHA extensions alone: AES-NI runs, its stitched kernels do not.
echo "== t-stitch with SFENC_DISABLE_HWF=shani"
SFENC_DISABLE_HWF=shani ./t-stitch
