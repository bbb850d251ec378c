#!/usr/bin/env bats
# A long stream (512 MiB, generated on the fly, never stored) through
# "sfenc -c | sfenc -d": the bytes come back unchanged and both
# processes stay well below 32 MiB resident whatever the size.

load emulator

setup () {
  SFENC=${SFENC:-$BATS_TEST_DIRNAME/../g10/sfenc}
  T=$BATS_TEST_TMPDIR
  if [ ! -x /usr/bin/time ]; then
    echo "/usr/bin/time is missing (Debian package 'time'): cannot measure peak memory" >&2
    return 1
  fi
}

# 512 MiB of reproducible, incompressible bytes: AES-CTR of zeros.
generate () {
  openssl enc -aes-128-ctr -nosalt -pass pass:sfenc-stream-test \
    -pbkdf2 -iter 1 < /dev/zero 2> /dev/null | head -c $((512 * 1024 * 1024))
}

# Skip the rest of a test, its memory limits, when a sanitizer's
# shadow memory and quarantine are in sfenc's resident set.
skip_memory_limit_if_sanitized () {
  if [ -n "${SFENC_SANITIZER:-}" ]; then
    skip "NOT TESTED under the $SFENC_SANITIZER sanitizer: the memory limit (the bytes were checked)"
  fi
}

# Peak resident set size in KiB from a /usr/bin/time -v report.
peak_kib () {
  sed -n 's/.*Maximum resident set size (kbytes): //p' "$1"
}

@test "sfenc-stream: 512 MiB through sfenc -c | sfenc -d, bytes and memory" {
  command -v openssl > /dev/null || { echo "openssl is needed to generate the stream" >&2; return 1; }
  generate | sha256sum > "$T/want"
  generate |
    /usr/bin/time -v -o "$T/enc.time" "$SFENC" --batch --passphrase stream -z 0 -c |
    /usr/bin/time -v -o "$T/dec.time" "$SFENC" --batch --passphrase stream -d |
    sha256sum > "$T/got"
  cat "$T/want" "$T/got"
  [ -s "$T/want" ]
  cmp "$T/want" "$T/got"
  echo "peak RSS: encrypt $(peak_kib "$T/enc.time") KiB, decrypt $(peak_kib "$T/dec.time") KiB"
  skip_memory_limit_if_sanitized
  [ "$(peak_kib "$T/enc.time")" -lt "$(rss_limit 16384)" ]
  [ "$(peak_kib "$T/dec.time")" -lt "$(rss_limit 16384)" ]
}

@test "sfenc-stream: 512 MiB compressed and armored stays in constant memory" {
  command -v openssl > /dev/null || { echo "openssl is needed to generate the stream" >&2; return 1; }
  # Compressible input so deflate runs at full speed; the armor path
  # and inflate are exercised on a long stream too.
  yes "sfenc long stream line" | head -c $((512 * 1024 * 1024)) | sha256sum > "$T/want"
  yes "sfenc long stream line" | head -c $((512 * 1024 * 1024)) |
    /usr/bin/time -v -o "$T/enc.time" "$SFENC" --batch --passphrase stream -z 1 --compress-algo zlib -a -c |
    /usr/bin/time -v -o "$T/dec.time" "$SFENC" --batch --passphrase stream -d |
    sha256sum > "$T/got"
  cmp "$T/want" "$T/got"
  echo "peak RSS: encrypt $(peak_kib "$T/enc.time") KiB, decrypt $(peak_kib "$T/dec.time") KiB"
  skip_memory_limit_if_sanitized
  [ "$(peak_kib "$T/enc.time")" -lt "$(rss_limit 16384)" ]
  [ "$(peak_kib "$T/dec.time")" -lt "$(rss_limit 16384)" ]
}
