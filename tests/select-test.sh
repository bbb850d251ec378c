#!/bin/sh
# select-test.sh - run one test of make check, unless SFENC_CHECK_ONLY
# names others
#
#   select-test.sh [RUNNER ...] TEST
#
# The log compilers of tests/Makefile.am run every test through this.
# With SFENC_CHECK_ONLY unset or empty it runs RUNNER TEST.  Otherwise
# a TEST whose file name is not among its words is reported as skipped
# (exit status 77), with the reason in its log.  Unlike make's TESTS,
# an environment variable reaches the tests of make distcheck's build
# without touching fuzz/'s: .ci/run's sanitizer distcheck uses it.

for test; do :; done
if [ -n "${SFENC_CHECK_ONLY:-}" ]; then
  case " $(echo $SFENC_CHECK_ONLY) " in
    *" ${test##*/} "*) ;;
    *) echo "SKIP: ${test##*/} is not in SFENC_CHECK_ONLY"; exit 77 ;;
  esac
fi
exec "$@"
