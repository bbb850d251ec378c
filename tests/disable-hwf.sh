#!/bin/sh
# Run the C tests again with every hardware feature disabled, so the
# portable implementations are tested on machines that would otherwise
# always pick the accelerated ones (as libgcrypt's basic-disable-all-hwf).
set -e
SFENC_DISABLE_HWF=all
export SFENC_DISABLE_HWF
for t in t-table t-kat t-modes t-diff t-cast5-maint t-sha1 t-aead t-stitch; do
  echo "== $t with SFENC_DISABLE_HWF=all"
  ./$t
done
# The SHA extensions alone: AES-NI runs, its stitched kernels do not.
echo "== t-stitch with SFENC_DISABLE_HWF=shani"
SFENC_DISABLE_HWF=shani ./t-stitch
