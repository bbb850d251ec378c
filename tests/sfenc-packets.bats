#!/usr/bin/env bats
# Packets and session keys (issue 41): --list-packets, --show-session-key,
# --override-session-key(-fd), --unwrap, --skip-verify, and --list-only
# on messages without MDC or with public-key packets only.  gpg 2.2.40
# is the oracle: each test runs gpg on the same message and compares,
# line for line, where gpg reads the message; for what gpg 2.2 cannot
# read (SKESK v6, SEIPD v2, Argon2) the lines sfenc(1) documents are
# checked.

load public-key
load gpg-2-2-40

setup () {
  SFENC=${SFENC:-$BATS_TEST_DIRNAME/../g10/sfenc}
  T=$BATS_TEST_TMPDIR
  export LC_ALL=C
  export GNUPGHOME="$T/gnupg"
  mkdir -p -m 700 "$GNUPGHOME"
  export SFENC_MODULE_DIR="$T/no-modules"
  printf 'hello packets\n' > "$T/p"
}

teardown () {
  gpgconf --kill gpg-agent > /dev/null 2>&1 || true
}


gpg_c () {
  gpg --batch --yes --pinentry-mode loopback --passphrase pw \
      --s2k-count 65536 "$@"
}

sfenc_c () {
  "$SFENC" --batch --yes --passphrase pw --s2k-count 65536 "$@"
}

# Run --list-packets on $1 with gpg and sfenc (more options in $2...)
# and compare stdout and the exit status.
same_listing () {
  local m=$1 rcg=0 rcs=0
  shift
  gpg --batch --no-symkey-cache --pinentry-mode loopback "$@" --list-packets "$m" \
      > "$T/list-gpg" 2> "$T/err-gpg" || rcg=$?
  "$SFENC" --batch "$@" --list-packets "$m" \
      > "$T/list-sfenc" 2> "$T/err-sfenc" || rcs=$?
  diff "$T/list-gpg" "$T/list-sfenc" \
    || { echo "listings of $m differ"; return 1; }
  [ "$rcg" -eq "$rcs" ] \
    || { echo "$m: gpg exits $rcg, sfenc $rcs"; cat "$T/err-sfenc"; return 1; }
  # Something was listed.
  grep -q '^# off=0 ' "$T/list-sfenc"
}

# $T/pkmsg: $T/p encrypted to a public key (public-key.bash);
# $T/pk-sk.gpg: to the same key and with passphrase pw.
make_pk_messages () {
  cp "$T/p" "$T/in"
  public_key_message
  gpg --homedir "$T/keys" --batch --quiet --trust-model always \
      --pinentry-mode loopback --passphrase pw -e -r bob@example.org -c \
      -o "$T/pk-sk.gpg" "$T/in"
  gpgconf --homedir "$T/keys" --kill gpg-agent > /dev/null 2>&1 || true
}

# The session key $1 with its 11th character changed.
flip_key () {
  printf '%s%s%s' "${1:0:10}" "$(printf '%s' "${1:10:1}" | tr '0-9A-F' '1-9A-F0')" "${1:11}"
}

# The session key sfenc shows for $1 (decrypted with passphrase pw).
sfenc_session_key () {
  "$SFENC" --batch --passphrase pw --show-session-key -d "$1" 2>&1 >/dev/null \
    | sed -n "s/^gpg: session key: '\(.*\)'\$/\1/p"
}

@test "packets: --list-packets lists gpg's messages as gpg does, line for line" {
  need_gpg_2_2_40
  head -c 300000 /dev/urandom > "$T/big"
  cp "$T/p" "$T/we{ir}d~é.txt"
  gpg_c -c -o "$T/zip.gpg" "$T/p"
  gpg_c -z 0 -c -o "$T/plain.gpg" "$T/p"
  gpg_c --compress-algo zlib --s2k-mode 1 -c -o "$T/zlib.gpg" "$T/p"
  gpg_c -t --compress-algo bzip2 -c -o "$T/bzip2.gpg" "$T/we{ir}d~é.txt"
  gpg_c --s2k-mode 0 --cipher-algo twofish -c -o "$T/simple.gpg" "$T/p" 2>/dev/null
  gpg_c -a -c -o "$T/armored.asc" "$T/p"
  gpg_c -z 0 -c -o "$T/big.gpg" "$T/big"
  gpg_c -z 0 -c -o "$T/partial.gpg" < "$T/big"
  gpg_c -c -o "$T/partial-zip.gpg" < "$T/big"
  # A marker packet before, a padding packet (unknown to gpg 2.2) after.
  { printf '\xca\x03PGP'; cat "$T/big.gpg"; printf '\xd5\x04abcd'; } > "$T/more.gpg"
  local m
  for m in zip.gpg plain.gpg zlib.gpg bzip2.gpg simple.gpg armored.asc \
           big.gpg more.gpg partial.gpg partial-zip.gpg; do
    same_listing "$T/$m" --passphrase pw
  done
  # The lengths and offsets that differ between the cases were seen.
  grep -q 'plen=0 partial new-ctb' "$T/list-sfenc"
  grep -q 'hlen=1 plen=0 indeterminate$' "$T/list-sfenc"
  same_listing "$T/more.gpg" --passphrase pw
  grep -q '^:marker packet: PGP$' "$T/list-sfenc"
  grep -q "^# off=$(($(stat -c %s "$T/big.gpg") + 5)) ctb=d5 tag=21 hlen=2 plen=4 new-ctb$" "$T/list-sfenc"
  grep -q '^dump: 61 62 63 64$' "$T/list-sfenc"
  same_listing "$T/bzip2.gpg" --passphrase pw
  # gpg shows the octets from space to 'z' as they are.
  grep -q '^	mode t (74), created [0-9]*, name="we\\x7bir\\x7dd\\x7e\\xc3\\x[0-9a-f]*.*\.txt",$' "$T/list-sfenc"
}

@test "packets: --list-packets lists sfenc's v4 and LibrePGP AEAD messages as gpg does" {
  need_gpg_2_2_40
  head -c 200000 /dev/urandom > "$T/big"
  sfenc_c -c -o "$T/v4.gpg" "$T/p"
  sfenc_c -c -z 0 -o "$T/v4-big.gpg" "$T/big"
  sfenc_c -c --compress-algo bzip2 -o "$T/v4-bz.gpg" "$T/big"
  sfenc_c -c --aead-algo ocb --aead-format librepgp -o "$T/v5.gpg" "$T/p"
  sfenc_c -c --aead-algo eax --aead-format librepgp -z 0 -o "$T/v5-big.gpg" "$T/big"
  sfenc_c -a -c --aead-algo ocb --aead-format librepgp -o "$T/v5.asc" "$T/p"
  local m
  for m in v4.gpg v4-big.gpg v4-bz.gpg v5.gpg v5-big.gpg v5.asc; do
    same_listing "$T/$m" --passphrase pw
  done
  grep -q '^:aead encrypted packet: cipher=9 aead=2 cb=12$' "$T/list-sfenc"
  grep -q ', encrypted seskey 63 bytes$' "$T/list-sfenc"
}

@test "packets: --list-packets lists v6 SKESK, SEIPD v2 and Argon2 in gpg's structure" {
  sfenc_c -c -z 0 --aead-algo ocb --set-filename n -o "$T/v6.gpg" "$T/p"
  run "$SFENC" --batch --passphrase pw --list-packets "$T/v6.gpg"
  [ "$status" -eq 0 ]
  [ "${lines[0]}" = "# off=0 ctb=c3 tag=3 hlen=2 plen=79 new-ctb" ]
  [ "${lines[1]}" = ":symkey enc packet: version 6, cipher 9, aead 2,s2k 3, hash 2, encrypted seskey 63 bytes" ]
  [[ ${lines[2]} =~ ^$'\t'salt\ [0-9A-F]{16},\ count\ 65536\ \(96\)$ ]]
  # SEIPD v2: version, algorithms, chunk octet and 32-byte salt, then
  # the literal packet at 81 + 2 + 36.
  [ "${lines[3]}" = "# off=81 ctb=d2 tag=18 hlen=2 plen=91 new-ctb" ]
  [ "${lines[4]}" = ":encrypted data packet: version 2, cipher=9 aead=2 cb=12" ]
  [ "${lines[5]}" = $'\tlength: 91' ]
  [ "${lines[6]}" = "# off=119 ctb=cb tag=11 hlen=2 plen=21 new-ctb" ]
  [ "${lines[7]}" = ":literal data packet:" ]
  [[ ${lines[8]} =~ ^$'\t'mode\ b\ \(62\),\ created\ [0-9]+,\ name=\"n\",$ ]]
  [ "${lines[9]}" = $'\traw data: 14 bytes' ]
  [ "${#lines[@]}" -eq 10 ]
  sfenc_c -c --aead-algo gcm --s2k-mode argon2 --s2k-argon2-passes 1 \
      --s2k-argon2-parallelism 1 --s2k-argon2-memory 10 -o "$T/argon2.gpg" "$T/p"
  run "$SFENC" --batch --passphrase pw --list-packets "$T/argon2.gpg"
  [ "$status" -eq 0 ]
  [ "${lines[1]}" = ":symkey enc packet: version 6, cipher 9, aead 3,s2k 4, hash 0, encrypted seskey 60 bytes" ]
  [[ ${lines[2]} =~ ^$'\t'salt\ [0-9A-F]{32},\ passes\ 1,\ parallelism\ 1,\ memory\ 2\^10\ KiB$ ]]
  [[ $output == *":compressed packet: algo=1"* ]]
}

@test "packets: --list-packets without the passphrase, or with a wrong one, lists the packets before and fails as gpg" {
  need_gpg_2_2_40
  gpg_c -c -o "$T/m.gpg" "$T/p"
  sfenc_c -c --aead-algo ocb --aead-format librepgp -o "$T/v5.gpg" "$T/p"
  local m
  # The status lines are gpg's.
  gpg --batch --no-symkey-cache --pinentry-mode loopback --passphrase pw \
      --status-fd 3 --list-packets "$T/m.gpg" 3> "$T/st-gpg" > /dev/null 2>&1
  "$SFENC" --batch --passphrase pw --status-fd 3 \
      --list-packets "$T/m.gpg" 3> "$T/st-sfenc" > /dev/null
  diff "$T/st-gpg" "$T/st-sfenc"
  grep -q NEED_PASSPHRASE_SYM "$T/st-sfenc"
  for m in m.gpg v5.gpg; do
    same_listing "$T/$m" --pinentry-mode error
    [ "$(grep -c '^# off=' "$T/list-sfenc")" -eq 2 ]
    # As -d ends without a passphrase.
    "$SFENC" --batch --status-fd 3 --list-packets "$T/$m" 3> "$T/st-sfenc" \
        > /dev/null 2>&1 && return 1
    [ "$(tail -n 2 "$T/st-sfenc")" = $'[GNUPG:] DECRYPTION_FAILED\n[GNUPG:] END_DECRYPTION' ]
    same_listing "$T/$m" --passphrase wrong
    [ "$(grep -c '^# off=' "$T/list-sfenc")" -eq 2 ]
    [ "$(wc -l < "$T/err-sfenc")" -eq 1 ]
  done
  # Truncated: one line, exit 2, as gpg.
  head -c 40 "$T/m.gpg" > "$T/cut.gpg"
  run "$SFENC" --batch --passphrase pw --list-packets "$T/cut.gpg"
  [ "$status" -eq 2 ]
  [[ ${lines[-1]} == "sfenc: "* ]]
}

@test "packets: --list-packets of public-key packets and of SED is gpg's" {
  need_gpg_2_2_40
  make_pk_messages
  gpg_c --rfc2440 --cipher-algo cast5 -c -o "$T/sed.gpg" "$T/p" 2>/dev/null
  # In a home without the secret key, as sfenc is.
  same_listing "$T/pkmsg" --passphrase pw
  grep -q '^:pubkey enc packet: version 3, algo 18, keyid [0-9A-F]\{16\}$' "$T/list-sfenc"
  grep -q '^	data: \[' "$T/list-sfenc"
  same_listing "$T/pk-sk.gpg" --passphrase pw
  grep -q ', seskey 256 bits$' "$T/list-sfenc"
  grep -q '^:literal data packet:$' "$T/list-sfenc"
  # SED: listed inside, then refused for its missing MDC, exit 2.
  same_listing "$T/sed.gpg" --passphrase pw
  grep -q '^:literal data packet:$' "$T/list-sfenc"
  grep -q 'no MDC' "$T/err-sfenc"
}

@test "packets: --show-session-key shows what gpg shows, on stderr and as SESSION_KEY" {
  need_gpg_2_2_40
  gpg_c -c -o "$T/m.gpg" "$T/p"
  sfenc_c -c --aead-algo ocb --aead-format librepgp -o "$T/v5.gpg" "$T/p"
  local m
  for m in m.gpg v5.gpg; do
    gpg --batch --pinentry-mode loopback --passphrase pw --show-session-key \
        --status-fd 3 -d "$T/$m" 3> "$T/st-gpg" 2> "$T/err-gpg" > "$T/out-gpg"
    "$SFENC" --batch --passphrase pw --show-session-key \
        --status-fd 3 -d "$T/$m" 3> "$T/st-sfenc" 2> "$T/err-sfenc" > "$T/out-sfenc"
    # gpg's log lines (tests/sfenc-gpglog.bats), then the key.
    grep -v "^gpg: keybox " "$T/err-gpg" > "$T/key-gpg"
    diff "$T/key-gpg" "$T/err-sfenc"
    grep -q "^\[GNUPG:\] SESSION_KEY [0-9.]*:[0-9A-F]\{64\}$" "$T/st-sfenc"
    diff <(grep SESSION_KEY "$T/st-gpg") <(grep SESSION_KEY "$T/st-sfenc")
    cmp "$T/out-gpg" "$T/out-sfenc"
  done
  grep -q "SESSION_KEY 9.2:" "$T/st-sfenc"
  # SEIPD v2: the cipher, a colon, the key.
  sfenc_c -c --aead-algo ocb -o "$T/v6.gpg" "$T/p"
  [[ $(sfenc_session_key "$T/v6.gpg") =~ ^9:[0-9A-F]{64}$ ]]
  # Without the option nothing is shown.
  run "$SFENC" --batch --passphrase pw --status-fd 1 -d "$T/m.gpg"
  [[ $output != *SESSION_KEY* ]]
}

@test "packets: --override-session-key decrypts gpg's messages and gpg decrypts sfenc's, no passphrase asked" {
  need_gpg_2_2_40
  gpg_c -c -o "$T/m.gpg" "$T/p"
  sfenc_c -c -o "$T/s4.gpg" "$T/p"
  sfenc_c -c --aead-algo ocb --aead-format librepgp -o "$T/s5.gpg" "$T/p"
  sfenc_c -c --aead-algo eax -o "$T/s6.gpg" "$T/p"
  local key m
  key=$(gpg --batch --pinentry-mode loopback --passphrase pw --show-session-key \
            -d "$T/m.gpg" 2>&1 >/dev/null | sed -n "s/^gpg: session key: '\(.*\)'\$/\1/p")
  [ -n "$key" ]
  # No passphrase is given and none is asked for: no NEED_PASSPHRASE_SYM.
  run "$SFENC" --batch --status-fd 1 --override-session-key "$key" -d "$T/m.gpg"
  [ "$status" -eq 0 ]
  [[ $output == *"hello packets"* ]]
  [[ $output != *NEED_PASSPHRASE* ]]
  for m in s4.gpg s5.gpg; do
    key=$(sfenc_session_key "$T/$m")
    gpg --batch --override-session-key "$key" -d "$T/$m" 2>/dev/null > "$T/out"
    cmp "$T/p" "$T/out"
    printf '%s\n' "$key" \
      | "$SFENC" --batch --override-session-key-fd 3 -d "$T/$m" 3<&0 < /dev/null > "$T/out"
    cmp "$T/p" "$T/out"
  done
  key=$(sfenc_session_key "$T/s6.gpg")
  "$SFENC" --batch --override-session-key "$key" -d "$T/s6.gpg" > "$T/out"
  cmp "$T/p" "$T/out"
  # --list-packets lists the inside with the key too.
  run "$SFENC" --batch --override-session-key "$key" --list-packets "$T/s6.gpg"
  [ "$status" -eq 0 ]
  [[ $output == *":literal data packet:"* ]]
}

@test "packets: --override-session-key reads a message encrypted to a public key only" {
  need_gpg_2_2_40
  local key
  make_pk_messages
  key=$(gpg --homedir "$T/keys" --batch --show-session-key -d "$T/pkmsg" 2>&1 >/dev/null \
          | sed -n "s/^gpg: session key: '\(.*\)'\$/\1/p")
  gpgconf --homedir "$T/keys" --kill gpg-agent > /dev/null 2>&1 || true
  [ -n "$key" ]
  "$SFENC" --batch --override-session-key "$key" -d "$T/pkmsg" > "$T/out"
  cmp "$T/p" "$T/out"
  # Without it the message is refused, as before.
  run "$SFENC" --batch --passphrase pw -d "$T/pkmsg"
  [ "$status" -eq 2 ]
}

@test "packets: a wrong or malformed session key fails in one line, exit 2, nothing written, as gpg fails" {
  need_gpg_2_2_40
  gpg_c -c -o "$T/m.gpg" "$T/p"
  sfenc_c -c --aead-algo ocb -o "$T/s6.gpg" "$T/p"
  local good bad
  good=$(sfenc_session_key "$T/m.gpg")
  bad=$(flip_key "$good")
  [ "$bad" != "$good" ]
  run gpg --batch --override-session-key "$bad" -o "$T/out-gpg" -d "$T/m.gpg"
  [ "$status" -eq 2 ]
  run "$SFENC" -q --batch --override-session-key "$bad" -o "$T/out" -d "$T/m.gpg"
  [ "$status" -eq 2 ]
  [ "${#lines[@]}" -eq 1 ]
  [[ ${lines[0]} == "sfenc: "*"wrong session key"* ]]
  [ ! -e "$T/out" ]
  bad=$(flip_key "$(sfenc_session_key "$T/s6.gpg")")
  run "$SFENC" -q --batch --override-session-key "$bad" -o "$T/out" -d "$T/s6.gpg"
  [ "$status" -eq 2 ]
  [ "${#lines[@]}" -eq 1 ]
  [ ! -e "$T/out" ]
  run "$SFENC" -q --batch --override-session-key "7:${good#9:}" -o "$T/out" -d "$T/s6.gpg"
  [ "$status" -eq 2 ]
  [ "${#lines[@]}" -eq 1 ]
  [ ! -e "$T/out" ]
  # Not a session key: gpg's status lines, one line on stderr, exit 2.
  gpg --batch --status-fd 3 --override-session-key garbage -d "$T/m.gpg" \
      3> "$T/st-gpg" 2>/dev/null && return 1
  run "$SFENC" --batch --status-fd 3 --override-session-key garbage -d "$T/m.gpg" 3> "$T/st-sfenc"
  [ "$status" -eq 2 ]
  [ "${#lines[@]}" -eq 1 ]
  diff "$T/st-gpg" "$T/st-sfenc"
  run "$SFENC" -q --batch --override-session-key-fd 3 -d "$T/m.gpg" 3< /dev/null
  [ "$status" -eq 2 ]
  [ "${#lines[@]}" -eq 1 ]
}

@test "packets: the --override-session-key string is wiped from the command line once read" {
  sfenc_c -c -o "$T/m.gpg" "$T/p"
  local key pid
  key=$(sfenc_session_key "$T/m.gpg")
  mkfifo "$T/fifo"
  "$SFENC" --batch --override-session-key "$key" -o "$T/out" -d "$T/fifo" &
  pid=$!
  # sfenc opens the FIFO and waits on it after the key is read: the
  # key is gone from its command line by then.
  exec 4> "$T/fifo"
  sleep 0.5
  tr '\0' ' ' < "/proc/$pid/cmdline" > "$T/cmdline"
  cat "$T/m.gpg" >&4
  exec 4>&-
  wait "$pid"
  cmp "$T/p" "$T/out"
  grep -q -- '--override-session-key' "$T/cmdline"
  grep -q "${key:2:16}" "$T/cmdline" && return 1
  true
}

@test "packets: --unwrap writes the packets inside the encryption, as gpg does" {
  need_gpg_2_2_40
  gpg_c -c -o "$T/m.gpg" "$T/p"
  sfenc_c -c --aead-algo ocb --aead-format librepgp -o "$T/s5.gpg" "$T/p"
  local m
  for m in m.gpg s5.gpg; do
    gpg --batch --yes --pinentry-mode loopback --passphrase pw --unwrap \
        -o "$T/u-gpg" "$T/$m" 2>/dev/null
    "$SFENC" --batch --yes --passphrase pw --unwrap -o "$T/u-sfenc" "$T/$m"
    cmp "$T/u-gpg" "$T/u-sfenc"
  done
  # What it wrote is a message without encryption that gpg reads.
  gpg --list-packets "$T/u-sfenc" > "$T/list"
  grep -q '^:literal data packet:$' "$T/list"
}

@test "packets: --skip-verify changes nothing for a passphrase message" {
  need_gpg_2_2_40
  gpg_c -c -o "$T/m.gpg" "$T/p"
  "$SFENC" --batch --passphrase pw --skip-verify -d "$T/m.gpg" > "$T/out"
  cmp "$T/p" "$T/out"
  gpg --batch --pinentry-mode loopback --passphrase pw --skip-verify -d "$T/m.gpg" 2>/dev/null > "$T/out"
  cmp "$T/p" "$T/out"
}

@test "packets: --list-only reports SED and public-key messages as gpg does" {
  need_gpg_2_2_40
  local m rcg rcs
  make_pk_messages
  gpg_c --rfc2440 --cipher-algo cast5 -c -o "$T/sed.gpg" "$T/p" 2>/dev/null
  sfenc_c -c --aead-algo ocb --aead-format librepgp -o "$T/s5.gpg" "$T/p"
  for m in pkmsg pk-sk.gpg sed.gpg s5.gpg; do
    rcg=0 rcs=0
    gpg --batch --status-fd 3 --list-only -d "$T/$m" 3> "$T/st-gpg" 2> "$T/err-gpg" > /dev/null || rcg=$?
    "$SFENC" --batch --status-fd 3 --list-only -d "$T/$m" 3> "$T/st-sfenc" 2> "$T/err-sfenc" > /dev/null || rcs=$?
    diff "$T/err-gpg" "$T/err-sfenc"
    diff "$T/st-gpg" "$T/st-sfenc"
    [ "$rcg" -eq 0 ] && [ "$rcs" -eq 0 ]
  done
  # A public-key message has just gpg's line for its key.
  [[ $("$SFENC" --batch --list-only -d "$T/pkmsg" 2>&1) =~ ^"gpg: encrypted with ECDH key, ID "[0-9A-F]{16}$ ]]
}
