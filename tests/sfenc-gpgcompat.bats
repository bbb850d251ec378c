#!/usr/bin/env bats
# sfenc -d accepts what gpg 2.2 -d accepts and refuses what it refuses
# (issue 15, items 7 and 11).  gpg is the oracle: every message is
# built here, by hand, around what gpg itself writes (gpg -c
# --no-literal encrypts packets made with printf; gpg --store
# --no-literal compresses them), is decrypted by both programs, and
# gpg's verdict is asserted beside sfenc's, so a test shows what gpg
# does as well as what sfenc does.  A refusal by sfenc is one line
# "sfenc: decryption failed: ..." with exit status 2, and with -o FILE
# no file is left behind.

setup () {
  SFENC=${SFENC:-$BATS_TEST_DIRNAME/../g10/sfenc}
  T=$BATS_TEST_TMPDIR
  # Bytes, not characters: names and bodies hold arbitrary bytes.
  export LC_ALL=C
  if ! command -v gpg > /dev/null; then
    skip "gpg (GnuPG) is not installed: these tests compare sfenc -d with gpg -d"
  fi
  export GNUPGHOME="$T/gnupg"
  mkdir -m 700 "$GNUPGHOME"
  GPG=(gpg --batch --quiet --no-tty --pinentry-mode loopback
       --passphrase secret --s2k-count 65536)
  printf 'hello\n' > "$T/plain"
}

# Stop the gpg-agent a test may have started in its throw-away home.
teardown () {
  gpgconf --kill gpg-agent > /dev/null 2>&1 || true
}

# Run sfenc with the passphrase and a time limit, and --quiet as gpg.
sfenc () {
  timeout 60 "$SFENC" --batch --quiet --passphrase secret "$@"
}

# Print the bytes whose decimal values are the arguments.
bytes () {
  local b octal escapes=""
  for b in "$@"; do
    printf -v octal '\\%03o' "$b"
    escapes+=$octal
  done
  # shellcheck disable=SC2059
  printf "$escapes"
}

# Print a packet with tag $1 around the body read from stdin, with a
# new-format five-octet length.
packet () {
  local body n
  body=$(mktemp "$T/body.XXXXXX")
  cat > "$body"
  n=$(stat -c %s "$body")
  bytes $((0xc0 | $1)) 255 $((n >> 24 & 255)) $((n >> 16 & 255)) \
    $((n >> 8 & 255)) $((n & 255))
  cat "$body"
  rm -f "$body"
}

# Print a literal data packet with format byte $1 and the file name
# $2 (printf %b escapes) around the data read from stdin.
literal () {
  printf '%b' "$2" > "$T/name"
  { printf %s "$1"; bytes "$(stat -c %s "$T/name")"; cat "$T/name"
    bytes 0 0 0 0; cat; } | packet 11
}

# Encrypt the packets read from stdin as they are, as gpg -c does.
encrypt_packets () {
  "${GPG[@]}" -c -z 0 --no-literal 2>> "$T/gpg.log"
}

# Compress the packets read from stdin into a compressed packet.
compress_packets () {
  gpg --batch --quiet --store --no-literal --compress-algo zip -z 6 \
    2>> "$T/gpg.log"
}

# A gpg -c message of $T/plain, armored with -a as $1, split into its
# SKESK ($T/skesk) and its encrypted data packet ($T/data).
gpg_message () {
  local skesk_len
  "${GPG[@]}" -c -z 0 < "$T/plain" > "$T/msg"
  "${GPG[@]}" -c -z 0 -a < "$T/plain" > "$T/msg.asc"
  # gpg writes the SKESK with an old-format one-octet length.
  skesk_len=$((2 + $(od -An -tu1 -j1 -N1 "$T/msg")))
  head -c "$skesk_len" "$T/msg" > "$T/skesk"
  tail -c +$((skesk_len + 1)) "$T/msg" > "$T/data"
}

# Decrypt $1 with gpg and with sfenc, keeping their exit statuses in
# gpg_status and sf_status and their outputs in $T/gpg.out, $T/sf.out,
# $T/gpg.err and $T/sf.err.
decrypt_both () {
  gpg_status=0
  "${GPG[@]}" -d "$1" > "$T/gpg.out" 2> "$T/gpg.err" || gpg_status=$?
  sf_status=0
  sfenc -d "$1" > "$T/sf.out" 2> "$T/sf.err" || sf_status=$?
  echo "gpg -d: status $gpg_status: $(cat "$T/gpg.err")"
  echo "sfenc -d: status $sf_status: $(cat "$T/sf.err")"
}

# Both programs decrypt $1 to the same plaintext, $2 if given.
assert_both_accept () {
  decrypt_both "$1"
  [ "$gpg_status" -eq 0 ]
  [ "$sf_status" -eq 0 ]
  [ ! -s "$T/sf.err" ]
  cmp "$T/gpg.out" "$T/sf.out"
  [ -z "${2:-}" ] || cmp "$2" "$T/sf.out"
}

# Both programs refuse $1, sfenc with the one line $2; with -o it
# leaves no file behind, under any name.
assert_both_refuse () {
  local left
  decrypt_both "$1"
  [ "$gpg_status" -eq 2 ]
  [ "$sf_status" -eq 2 ]
  [ "$(cat "$T/sf.err")" = "$2" ]
  rm -f "$T/out"
  run sfenc -d -o "$T/out" "$1"
  [ "$status" -eq 2 ]
  [ "$output" = "$2" ]
  for left in "$T"/out*; do
    [ ! -e "$left" ]
  done
}


@test "sfenc-gpgcompat: -v shows the literal file name escaped as gpg -v does" {
  local name='a\nb\033[2J\033[31mc\r\0d\x7f\x01\t\x1b]0;title\a\\e"f\xc3\xa9'
  literal b "$name" < "$T/plain" | encrypt_packets > "$T/msg"
  run sfenc -v -d -o "$T/out" "$T/msg"
  echo "$output"
  [ "$status" -eq 0 ]
  cmp "$T/plain" "$T/out"
  # One line, no control character of the name reaches the terminal.
  [ "$(grep -c 'literal data' <<< "$output")" -eq 1 ]
  [ "$(grep -c $'[\x01-\x08\x0b-\x1f\x7f]' <<< "$output")" -eq 0 ]
  [[ "$output" == *'sfenc: literal data: mode b, name "a\nb\x1b[2J\x1b[31mc\r\0d\x7f\x01\x09\x1b]0;title\x07\e"f'$'\xc3\xa9''"'* ]]
  # The very escapes of gpg -v.
  "${GPG[@]}" -v -d -o /dev/null "$T/msg" 2> "$T/gpg.err"
  grep -a "original file name=" "$T/gpg.err" |
    sed "s/^gpg: original file name='\\(.*\\)'\$/\\1/" > "$T/gpg.name"
  grep -a "literal data:" <<< "$output" |
    sed 's/^sfenc: literal data: mode b, name "\(.*\)"$/\1/' > "$T/sf.name"
  cat "$T/gpg.name" "$T/sf.name"
  [ -s "$T/gpg.name" ]
  cmp "$T/gpg.name" "$T/sf.name"
}

@test "sfenc-gpgcompat: -v shows every byte of a name as gpg -v does" {
  local i all=""
  for i in $(seq 0 255); do all+=$(printf '\\x%02x' "$i"); done
  # Two names: a length byte holds at most 255.
  literal b "${all:0:512}" < "$T/plain" | encrypt_packets > "$T/low"
  literal b "${all:512}" < "$T/plain" | encrypt_packets > "$T/high"
  for i in low high; do
    "${GPG[@]}" -v -d -o /dev/null "$T/$i" 2> "$T/gpg.err"
    grep -a "original file name=" "$T/gpg.err" |
      sed "s/^gpg: original file name='\\(.*\\)'\$/\\1/" > "$T/gpg.name"
    sfenc -v -d -o /dev/null "$T/$i" 2> "$T/sf.err"
    grep -a "literal data:" "$T/sf.err" |
      sed 's/^sfenc: literal data: mode b, name "\(.*\)"$/\1/' > "$T/sf.name"
    cat -v "$T/gpg.name" "$T/sf.name"
    [ "$(grep -c $'[\x01-\x08\x0b-\x1f\x7f]' "$T/sf.err")" -eq 0 ]
    [ -s "$T/gpg.name" ]
    cmp "$T/gpg.name" "$T/sf.name"
  done
}

@test "sfenc-gpgcompat: compression algorithm 0 (uncompressed) is read as gpg reads it" {
  { bytes 0; literal b name < "$T/plain"; } | packet 8 | encrypt_packets > "$T/msg"
  assert_both_accept "$T/msg" "$T/plain"
}

@test "sfenc-gpgcompat: nested compressed packets, up to gpg's 30" {
  local level
  head -c 100000 /dev/urandom > "$T/big"
  literal b name < "$T/big" > "$T/nest0"
  for level in $(seq 1 31); do
    compress_packets < "$T/nest$((level - 1))" > "$T/nest$level"
  done
  # Uncompressed layers count as well.
  { bytes 0; cat "$T/nest1"; } | packet 8 > "$T/nest1-in-0"
  for level in 2 1-in-0 30; do
    encrypt_packets < "$T/nest$level" > "$T/msg"
    assert_both_accept "$T/msg" "$T/big"
  done
  encrypt_packets < "$T/nest31" > "$T/msg"
  assert_both_refuse "$T/msg" \
    "sfenc: decryption failed: compressed packets nested more than 30 deep"
}

@test "sfenc-gpgcompat: a marker packet must hold \"PGP\"" {
  local body
  gpg_message
  for body in XYZ PGPX PG ''; do
    { printf %s "$body" | packet 10; cat "$T/msg"; } > "$T/marked"
    assert_both_refuse "$T/marked" \
      'sfenc: decryption failed: invalid marker packet (not "PGP")'
  done
  # The valid one, in new and in old format, is skipped.
  { printf PGP | packet 10; bytes $((0x80 | 10 << 2)) 3; printf PGP
    cat "$T/msg"; } > "$T/marked"
  assert_both_accept "$T/marked" "$T/plain"
}

@test "sfenc-gpgcompat: marker packets after and inside the encrypted data are skipped" {
  gpg_message
  printf PGP | packet 10 > "$T/marker"
  # After the encrypted data: accepted, not refused once the plaintext
  # is out.
  cat "$T/msg" "$T/marker" "$T/marker" > "$T/after"
  assert_both_accept "$T/after" "$T/plain"
  # Inside it, before and after the literal packet, and inside a
  # compressed packet.
  literal b name < "$T/plain" > "$T/lit"
  cat "$T/marker" "$T/lit" "$T/marker" | encrypt_packets > "$T/inside"
  assert_both_accept "$T/inside" "$T/plain"
  cat "$T/marker" "$T/lit" | compress_packets | encrypt_packets > "$T/inside"
  assert_both_accept "$T/inside" "$T/plain"
  # An invalid one after the data fails both, as late as it comes.
  { cat "$T/msg"; printf XYZ | packet 10; } > "$T/bad"
  assert_both_refuse "$T/bad" \
    'sfenc: decryption failed: invalid marker packet (not "PGP")'
}

@test "sfenc-gpgcompat: a marker packet with partial body lengths is refused" {
  gpg_message
  # "P" in a one-byte partial chunk, then "GP".
  { bytes $((0xc0 | 10)) 224; printf P; bytes 2; printf GP; cat "$T/msg"; } \
    > "$T/partial"
  assert_both_refuse "$T/partial" \
    "sfenc: decryption failed: partial body length on a packet that is not a data packet (tag 10)"
  # After the data, in old format with an indeterminate length.
  { cat "$T/msg"; bytes $((0x80 | 10 << 2 | 3)); printf PGP; } > "$T/partial"
  assert_both_refuse "$T/partial" \
    "sfenc: decryption failed: indeterminate length on a packet that is not a data packet (tag 10)"
}

@test "sfenc-gpgcompat: text after the armor END line is ignored, a second message is not" {
  gpg_message
  { cat "$T/msg.asc"; printf 'trailing text\n\001\377 binary\n'; } > "$T/text.asc"
  assert_both_accept "$T/text.asc" "$T/plain"
  # A second armored message continues the packets of the first: its
  # SKESK then follows the encrypted data.
  { cat "$T/msg.asc"; echo "between"; cat "$T/msg.asc"; } > "$T/two.asc"
  assert_both_refuse "$T/two.asc" \
    "sfenc: decryption failed: unexpected packet (tag 3) after the encrypted data"
  # A second block that holds only a marker packet is harmless.
  { cat "$T/msg.asc"; printf PGP | packet 10 | gpg --enarmor 2>> "$T/gpg.log" |
      sed 's/ARMORED FILE/MESSAGE/'; } > "$T/marker.asc"
  assert_both_accept "$T/marker.asc" "$T/plain"
}

@test "sfenc-gpgcompat: the BEGIN line must be exactly the BEGIN line" {
  gpg_message
  sed '1s/$/XYZ/' "$T/msg.asc" > "$T/suffix.asc"
  assert_both_refuse "$T/suffix.asc" "sfenc: decryption failed: no OpenPGP data found"
  # Trailing white space is not part of the line.
  sed '1s/$/ \t/' "$T/msg.asc" > "$T/space.asc"
  assert_both_accept "$T/space.asc" "$T/plain"
}

# Print armor $1 without its CRC line and END line.
armor_body () {
  grep -v -e '^=' -e '^-----END' "$1"
}

@test "sfenc-gpgcompat: a CRC line after the first END line is text, not armor" {
  local text padded=0
  # Three lengths of plaintext: the base64 ends in "=" padding for two
  # of them, not for the third.
  for text in 'hello\n' 'hello!\n' 'hello!!\n'; do
    printf '%b' "$text" > "$T/plain"
    gpg_message
    { armor_body "$T/msg.asc"
      echo "-----END PGP MESSAGE-----"; echo "=AAAA"
      echo "-----END PGP MESSAGE-----"; } > "$T/late.asc"
    if armor_body "$T/msg.asc" | tail -n 1 | grep -q '=$'; then
      # gpg checks no CRC there, a wrong one included: what follows
      # the END line is not part of the armor.
      assert_both_accept "$T/late.asc" "$T/plain"
      padded=$((padded + 1))
    else
      # Without padding gpg 2.2 reads an END line that no CRC line
      # precedes as more base64 and fails, as it fails on any such
      # armor without CRC; sfenc reads it as rnp does (RFC 9580 makes
      # the CRC optional).
      sfenc -d "$T/late.asc" > "$T/out"
      cmp "$T/plain" "$T/out"
    fi
  done
  [ "$padded" -eq 2 ]
  # In its place the CRC is checked.
  { armor_body "$T/msg.asc"
    echo "=AAAA"; echo "-----END PGP MESSAGE-----"; } > "$T/bad.asc"
  decrypt_both "$T/bad.asc"
  [ "$gpg_status" -eq 2 ]
  [ "$sf_status" -eq 2 ]
  [[ "$(cat "$T/sf.err")" == "sfenc: invalid armor: CRC error; "* ]]
}

@test "sfenc-gpgcompat: every SKESK is checked, not only the one used" {
  gpg_message
  cat "$T/skesk" > "$T/msg2"
  printf '' | packet 3 >> "$T/msg2"
  cat "$T/data" >> "$T/msg2"
  assert_both_refuse "$T/msg2" "sfenc: decryption failed: invalid SKESK packet (length 0)"
  { cat "$T/skesk"; bytes 9 9 3 2 1 2 3 4 5 6 7 8 96 | packet 3; cat "$T/data"; } > "$T/msg2"
  assert_both_refuse "$T/msg2" "sfenc: decryption failed: SKESK version 9 is not supported"
  # gpg writes the plaintext, then fails; sfenc fails first.
  { cat "$T/skesk"; bytes 4 9 7 2 1 2 3 4 5 6 7 8 96 | packet 3; cat "$T/data"; } > "$T/msg2"
  assert_both_refuse "$T/msg2" "sfenc: decryption failed: S2K type 7 is not supported"
  { cat "$T/skesk"; bytes 4 9 3 2 1 2 3 | packet 3; cat "$T/data"; } > "$T/msg2"
  assert_both_refuse "$T/msg2" "sfenc: decryption failed: SKESK packet too short"
  # Well formed, with an algorithm neither uses: skipped by both.
  { cat "$T/skesk"; bytes 4 99 3 77 1 2 3 4 5 6 7 8 96 | packet 3; cat "$T/data"; } > "$T/msg2"
  assert_both_accept "$T/msg2" "$T/plain"
}

@test "sfenc-gpgcompat: a PKESK is checked as gpg checks it, then skipped" {
  gpg_message
  # Version 3, key id, algorithm, encrypted session key.
  { bytes 7 1 2 3 4 5 6 7 8 1 0 8 255 | packet 1; cat "$T/msg"; } > "$T/pk"
  assert_both_refuse "$T/pk" "sfenc: decryption failed: unsupported PKESK version 7"
  { printf '' | packet 1; cat "$T/msg"; } > "$T/pk"
  assert_both_refuse "$T/pk" "sfenc: decryption failed: PKESK packet too short"
  # An RSA MPI of 200 bits in a packet too short for it.
  { bytes 3 1 2 3 4 5 6 7 8 1 0 200 255 | packet 1; cat "$T/msg"; } > "$T/pk"
  assert_both_refuse "$T/pk" "sfenc: decryption failed: PKESK packet too short"
  # Elgamal has two MPIs.
  { bytes 3 1 2 3 4 5 6 7 8 16 0 8 255 | packet 1; cat "$T/msg"; } > "$T/pk"
  assert_both_refuse "$T/pk" "sfenc: decryption failed: PKESK packet too short"
  # shellcheck disable=SC2046
  { bytes 3 1 2 3 4 5 6 7 8 1 64 1 $(yes 1 | head -n 2050) | packet 1
    cat "$T/msg"; } > "$T/pk"
  assert_both_refuse "$T/pk" \
    "sfenc: decryption failed: MPI of 16385 bits in the PKESK packet is too large"
  # Well formed: skipped, the SKESK is used.
  for pkesk in "3 1 2 3 4 5 6 7 8 1 0 8 255" "2 1 2 3 4 5 6 7 8 16 0 8 255 0 1 1" \
               "3 1 2 3 4 5 6 7 8 18 0 8 255 3 1 2 3" "3 1 2 3 4 5 6 7 8 99 9 9"; do
    # shellcheck disable=SC2086
    { bytes $pkesk | packet 1; cat "$T/msg"; } > "$T/pk"
    assert_both_accept "$T/pk" "$T/plain"
  done
}

@test "sfenc-gpgcompat: text mode literal data is written without carriage returns, as gpg does" {
  local mode
  # Dense CR and LF in every combination, CRs at buffer ends included.
  head -c 400000 /dev/urandom | tr '\000-\377' '[a*64][b*64][\r*64][\n*64]' > "$T/text"
  printf '\r\r\n\r' >> "$T/text"
  tr -d '\r' < "$T/text" > "$T/want"
  for mode in t u; do
    literal "$mode" name < "$T/text" | encrypt_packets > "$T/msg"
    assert_both_accept "$T/msg" "$T/want"
  done
  # gpg's own text mode message: partial body lengths, compressed.
  "${GPG[@]}" -c --textmode < "$T/text" > "$T/msg"
  assert_both_accept "$T/msg" "$T/want"
  # Binary, and any other format byte, is written as it is.
  for mode in b m x; do
    literal "$mode" name < "$T/text" | encrypt_packets > "$T/msg"
    assert_both_accept "$T/msg" "$T/text"
  done
}
