# emulator.bash - what the emulator of a cross build adds to what a
# test measures, for the bats suites that bound sfenc's memory
# (load emulator).
#
# In a cross build sfenc runs under qemu-user (SF_EMULATOR; see
# tests/emulate-sfenc.in), and the emulator's own code and translation
# cache are part of the process: about 14 MiB of peak RSS that the
# program itself does not use, the same for sfenc --version as for a
# 512 MiB stream.

# $1 KiB of peak RSS allowed to sfenc, plus, in a cross build, the peak
# RSS of sfenc --version under the same emulator.
rss_limit () {
  local base
  if [ -z "${SF_EMULATOR:-}" ]; then
    echo "$1"
    return
  fi
  base=$(/usr/bin/time -f %M "$SFENC" --version 2>&1 > /dev/null | tail -n 1)
  echo $(($1 + base))
}
