#!/usr/bin/env bats
# --status-fd writes the status lines gpg 2.2 writes, and --progress
# shows how much of the input is read.
#
# gpg is the oracle: each case runs gpg and sfenc on the same message
# and compares their status lines, the keywords in order and the
# arguments that must agree.  The differences sfenc(1) documents under
# STATUS are checked as differences, so that they stay true.

load byte-edit

setup () {
  SFENC=${SFENC:-$BATS_TEST_DIRNAME/../g10/sfenc}
  T=$BATS_TEST_TMPDIR
  command -v gpg > /dev/null \
    || skip "NOT TESTED: gpg (GnuPG) is not installed, and it is the oracle of the status lines"
  export GNUPGHOME="$T/gnupg"
  mkdir -p -m 700 "$GNUPGHOME"
  SF=("$SFENC" --batch --passphrase "pass phrase" --s2k-count 65536
      --status-fd 3)
  GPG=(gpg --batch --quiet --no-tty --pinentry-mode loopback
       --passphrase "pass phrase" --s2k-count 65536 --status-fd 3)
  head -c 300000 /dev/urandom > "$T/in"
}

teardown () {
  gpgconf --kill gpg-agent > /dev/null 2>&1 || true
}

# The keywords of the status lines in file $1, PROGRESS left out (the
# number and place of those depend on timing).
keywords () {
  sed -n 's/^\[GNUPG:\] \([A-Z_]*\).*/\1/p' "$1" | grep -v '^PROGRESS$' || true
}

# Run "sfenc ARGS" and "gpg ARGS" with status lines in $T/st-sfenc and
# $T/st-gpg and their exit status in $sfenc_status and $gpg_status.
both () {
  sfenc_status=0 gpg_status=0
  "${SF[@]}" "$@" 3> "$T/st-sfenc" > "$T/out-sfenc" 2> "$T/err-sfenc" \
    || sfenc_status=$?
  "${GPG[@]}" "$@" 3> "$T/st-gpg" > "$T/out-gpg" 2> "$T/err-gpg" \
    || gpg_status=$?
}

# The status lines of both are the same, PROGRESS lines aside.
same_lines () {
  diff <(grep -v ' PROGRESS ' "$T/st-gpg") <(grep -v ' PROGRESS ' "$T/st-sfenc") \
    || { echo "(< gpg, > sfenc)"; return 1; }
}

# The keywords of both are the same and are $@.
keywords_are () {
  local want
  want=$(printf '%s\n' "$@")
  [ "$(keywords "$T/st-gpg")" = "$want" ] \
    || { echo "gpg wrote:"; cat "$T/st-gpg"; return 1; }
  [ "$(keywords "$T/st-sfenc")" = "$want" ] \
    || { echo "sfenc wrote:"; cat "$T/st-sfenc"; return 1; }
}

@test "sfenc-status: encryption writes gpg -c's lines with its arguments" {
  both -z 0 -o "$T/msg.gpg" --yes -c "$T/in"
  [ "$sfenc_status" -eq 0 ] && [ "$gpg_status" -eq 0 ]
  keywords_are NEED_PASSPHRASE_SYM BEGIN_ENCRYPTION END_ENCRYPTION
  same_lines
  grep -qx '\[GNUPG:\] NEED_PASSPHRASE_SYM 9 3 2' "$T/st-sfenc"
  # Other algorithms, S2K mode and hash show in the arguments.
  both --cipher-algo CAST5 --s2k-mode 1 --s2k-digest-algo SHA256 \
    -o "$T/msg.gpg" --yes -c "$T/in"
  same_lines
  grep -qx '\[GNUPG:\] NEED_PASSPHRASE_SYM 3 1 8' "$T/st-sfenc"
  grep -qx '\[GNUPG:\] BEGIN_ENCRYPTION 2 3' "$T/st-sfenc"
}

@test "sfenc-status: decryption writes gpg -d's lines, arguments and all" {
  local m
  "${GPG[@]}" -z 0 -o "$T/gpg.gpg" -c "$T/in" 3> /dev/null
  "${SF[@]}" -o "$T/sfenc.gpg" -c < "$T/in" 3> /dev/null
  for m in gpg sfenc; do
    both -d "$T/$m.gpg"
    [ "$sfenc_status" -eq 0 ] && [ "$gpg_status" -eq 0 ]
    cmp "$T/in" "$T/out-sfenc"
    # gpg gives the length of a file it encrypts; sfenc streams it.
    keywords_are NEED_PASSPHRASE_SYM BEGIN_DECRYPTION DECRYPTION_INFO \
      PLAINTEXT $([ $m = gpg ] && echo PLAINTEXT_LENGTH) \
      DECRYPTION_OKAY GOODMDC END_DECRYPTION
    same_lines
    grep -qx '\[GNUPG:\] DECRYPTION_INFO 2 9 0' "$T/st-sfenc"
  done
  both -d "$T/gpg.gpg"
  grep -qx '\[GNUPG:\] PLAINTEXT_LENGTH 300000' "$T/st-sfenc"
}

@test "sfenc-status: PLAINTEXT escapes the file name as gpg does" {
  local name=$'a b%c\x01d\x7fe:\xc3\xa9f\tg+h\nx'
  printf 'data\n' > "$T/$name"
  "${SF[@]}" -z 0 -o "$T/msg.gpg" -c "$T/$name" 3> /dev/null
  both -d "$T/msg.gpg"
  same_lines
  grep -q "^\[GNUPG:\] PLAINTEXT 62 [0-9]* a%20b%25c%01d%7Fe:"$'\xc3\xa9'"f%09g+h%0Ax\$" "$T/st-sfenc"
  # And an empty name (standard input) leaves the space before it.
  "${SF[@]}" -o "$T/stdin.gpg" -c < "$T/in" 3> /dev/null
  both -d "$T/stdin.gpg"
  same_lines
  grep -qx '\[GNUPG:\] PLAINTEXT 62 [0-9]* ' "$T/st-sfenc"
}

@test "sfenc-status: a wrong passphrase is reported as gpg reports it" {
  "${GPG[@]}" -o "$T/msg.gpg" -c "$T/in" 3> /dev/null
  SF[3]="wrong" GPG[7]="wrong"
  both -d "$T/msg.gpg"
  [ "$sfenc_status" -eq 2 ] && [ "$gpg_status" -eq 2 ]
  keywords_are NEED_PASSPHRASE_SYM BEGIN_DECRYPTION DECRYPTION_INFO ERROR \
    DECRYPTION_FAILED END_DECRYPTION
  same_lines
  grep -qx '\[GNUPG:\] ERROR symkey_decrypt.maybe_error 11_BAD_PASSPHRASE' "$T/st-sfenc"
}

@test "sfenc-status: a modified message gives BADMDC, as in gpg" {
  local size
  "${GPG[@]}" -z 0 -o "$T/msg.gpg" -c "$T/in" 3> /dev/null
  size=$(stat -c %s "$T/msg.gpg")
  # A byte of the literal data, just before the 22 bytes of the MDC
  # packet.
  flip_byte "$T/msg.gpg" $((size - 30)) 1
  both -o - -d "$T/msg.gpg"
  [ "$sfenc_status" -eq 2 ] && [ "$gpg_status" -eq 2 ]
  keywords_are NEED_PASSPHRASE_SYM BEGIN_DECRYPTION DECRYPTION_INFO \
    PLAINTEXT PLAINTEXT_LENGTH BADMDC DECRYPTION_FAILED END_DECRYPTION
  same_lines
  # With --ignore-mdc-error the decryption succeeds, without GOODMDC.
  both --ignore-mdc-error -o - -d "$T/msg.gpg"
  [ "$sfenc_status" -eq 0 ] && [ "$gpg_status" -eq 0 ]
  keywords_are NEED_PASSPHRASE_SYM BEGIN_DECRYPTION DECRYPTION_INFO \
    PLAINTEXT PLAINTEXT_LENGTH DECRYPTION_OKAY END_DECRYPTION
  same_lines
}

@test "sfenc-status: a message cut short in the encrypted data gives BADMDC, as in gpg" {
  local size
  "${GPG[@]}" -z 0 -c < "$T/in" > "$T/msg.gpg" 3> /dev/null
  size=$(stat -c %s "$T/msg.gpg")
  head -c $((size - 1000)) "$T/msg.gpg" > "$T/cut.gpg"
  both -d "$T/cut.gpg"
  [ "$sfenc_status" -eq 2 ] && [ "$gpg_status" -eq 2 ]
  keywords_are NEED_PASSPHRASE_SYM BEGIN_DECRYPTION DECRYPTION_INFO \
    PLAINTEXT BADMDC DECRYPTION_FAILED END_DECRYPTION
  same_lines
}

@test "sfenc-status: AEAD tags are reported as gpg 2.4 reports them, as MDCs" {
  local size m
  # gpg 2.2 reads no AEAD: these lines follow gpg 2.4's rules.
  "${SF[@]}" --aead-algo OCB -z 0 -o "$T/msg.gpg" -c "$T/in" 3> "$T/st"
  [ "$(keywords "$T/st")" = "$(printf '%s\n' NEED_PASSPHRASE_SYM BEGIN_ENCRYPTION END_ENCRYPTION)" ]
  grep -qx '\[GNUPG:\] BEGIN_ENCRYPTION 0 9 2' "$T/st"
  "${SF[@]}" -o /dev/null -d "$T/msg.gpg" 3> "$T/st"
  [ "$(keywords "$T/st")" = "$(printf '%s\n' NEED_PASSPHRASE_SYM BEGIN_DECRYPTION \
        DECRYPTION_INFO PLAINTEXT DECRYPTION_OKAY GOODMDC END_DECRYPTION)" ]
  grep -qx '\[GNUPG:\] DECRYPTION_INFO 0 9 2' "$T/st"
  # A modified chunk, and a message cut short.
  size=$(stat -c %s "$T/msg.gpg")
  cp "$T/msg.gpg" "$T/bad.gpg"
  flip_byte "$T/bad.gpg" $((size - 40)) 1
  head -c $((size - 100)) "$T/msg.gpg" > "$T/cut.gpg"
  for m in bad cut; do
    run "${SF[@]}" -o /dev/null -d "$T/$m.gpg" 3> "$T/st"
    [ "$status" -eq 2 ]
    [ "$(keywords "$T/st")" = "$(printf '%s\n' NEED_PASSPHRASE_SYM BEGIN_DECRYPTION \
          DECRYPTION_INFO PLAINTEXT BADMDC DECRYPTION_FAILED END_DECRYPTION)" ] \
      || { cat "$T/st"; return 1; }
  done
}

@test "sfenc-status: a file that cannot be opened gives gpg's FAILURE line" {
  both -c "$T/no-such-file"
  [ "$sfenc_status" -eq 2 ] && [ "$gpg_status" -eq 2 ]
  same_lines
  grep -qx '\[GNUPG:\] FAILURE symencrypt 33587281' "$T/st-sfenc"
  both -d "$T/no-such-file"
  same_lines
  grep -qx '\[GNUPG:\] FAILURE decrypt 33587281' "$T/st-sfenc"
}

@test "sfenc-status: documented difference: a message without MDC is refused before decryption" {
  "${GPG[@]}" --rfc2440 -o "$T/sed.gpg" -c "$T/in" 3> /dev/null 2>&1
  both -o - -d "$T/sed.gpg"
  [ "$sfenc_status" -eq 2 ] && [ "$gpg_status" -eq 2 ]
  [ "$(keywords "$T/st-sfenc")" = "$(printf '%s\n' NEED_PASSPHRASE_SYM FAILURE)" ]
  keywords "$T/st-gpg" | grep -qx DECRYPTION_FAILED
  # With --ignore-mdc-error both decrypt it, and say that it has no MDC.
  both --ignore-mdc-error -o - -d "$T/sed.gpg"
  [ "$sfenc_status" -eq 0 ] && [ "$gpg_status" -eq 0 ]
  same_lines
  grep -qx '\[GNUPG:\] DECRYPTION_INFO 0 2 0' "$T/st-sfenc"
}

@test "sfenc-status: PROGRESS lines begin and end as gpg's" {
  head -c 3000000 /dev/zero > "$T/big"
  both --enable-progress-filter -z 0 -o "$T/big.gpg" --yes -c "$T/big"
  same_lines
  # The name is cut to 20 bytes; sizes above 1 MiB count in KiB.
  [ "$(grep ' PROGRESS ' "$T/st-sfenc" | head -1)" = "$(grep ' PROGRESS ' "$T/st-gpg" | head -1)" ]
  [ "$(grep ' PROGRESS ' "$T/st-sfenc" | tail -1)" = "$(grep ' PROGRESS ' "$T/st-gpg" | tail -1)" ]
  grep ' PROGRESS ' "$T/st-sfenc" | tail -1 | grep -q ' ? 2929 2929 KiB$'
  # Decryption counts the message; a pipe has no known size.
  both --enable-progress-filter -o /dev/null --yes -d "$T/big.gpg"
  same_lines
  [ "$(grep ' PROGRESS ' "$T/st-sfenc" | head -1)" = "$(grep ' PROGRESS ' "$T/st-gpg" | head -1)" ]
  [ "$(grep ' PROGRESS ' "$T/st-sfenc" | tail -1)" = "$(grep ' PROGRESS ' "$T/st-gpg" | tail -1)" ]
  cat "$T/big" | "${SF[@]}" --enable-progress-filter -z 0 -c 3> "$T/st-sfenc" > /dev/null
  cat "$T/big" | "${GPG[@]}" --enable-progress-filter -z 0 -c 3> "$T/st-gpg" > /dev/null
  [ "$(grep ' PROGRESS ' "$T/st-sfenc" | head -1)" = "[GNUPG:] PROGRESS stdin ? 0 0 B" ]
  [ "$(grep ' PROGRESS ' "$T/st-sfenc" | tail -1)" = "$(grep ' PROGRESS ' "$T/st-gpg" | tail -1)" ]
  # Without --status-fd there are no PROGRESS lines anywhere.
  run "$SFENC" --batch --passphrase x --enable-progress-filter -z 0 -o /dev/null --yes -c "$T/big"
  [ "$status" -eq 0 ] && [ -z "$output" ]
}

@test "sfenc-status: a line is written when its event happens, not later" {
  local line
  mkfifo "$T/st" "$T/pw"
  "$SFENC" --batch --status-fd 3 --passphrase-fd 4 -o "$T/msg.gpg" -c "$T/in" \
    3> "$T/st" 4< "$T/pw" &
  exec 5< "$T/st" 6> "$T/pw"
  # The passphrase is not given yet: the line must already be there.
  read -r -t 10 line <&5 || { kill %1; echo "no status line before the passphrase"; return 1; }
  [ "$line" = "[GNUPG:] NEED_PASSPHRASE_SYM 9 3 2" ]
  echo "pass phrase" >&6
  exec 6>&-
  cat <&5 > "$T/rest"
  exec 5<&-
  wait %1
  [ "$(keywords "$T/rest")" = "$(printf '%s\n' BEGIN_ENCRYPTION END_ENCRYPTION)" ]
}

@test "sfenc-status: --status-fd needs an open descriptor" {
  run "$SFENC" --batch --status-fd 9 -c "$T/in"
  [ "$status" -eq 2 ]
  [ "$output" = "sfenc: --status-fd: 9: Bad file descriptor" ]
  [ ! -e "$T/in.gpg" ]
}

@test "sfenc-status: --progress draws one line on stderr and ends it" {
  run bash -c '"$0" --batch --passphrase x --s2k-count 65536 --progress -z 0 \
                 -o "$1/out.gpg" -c "$1/in" 2>&1' "$SFENC" "$T"
  [ "$status" -eq 0 ]
  # One line, redrawn after carriage returns, ended by a newline.
  [ "${#lines[@]}" -eq 1 ]
  [[ $output == $'\r'* ]]
  [[ $output == *$'\r'"sfenc: read 293.0 KiB in "[0-9]*.[0-9]" s"* ]]
  # The data is unchanged by it.
  "$SFENC" --batch --passphrase x -o "$T/back" -d "$T/out.gpg"
  cmp "$T/in" "$T/back"
  # Nothing without the option, not even with -v.
  run bash -c '"$0" --batch --passphrase x -v -z 0 -o "$1/out2.gpg" -c "$1/in" 2>&1' \
    "$SFENC" "$T"
  [ "$status" -eq 0 ]
  [[ $output != *$'\r'* ]] && [[ $output != *"sfenc: read "* ]]
}

@test "sfenc-status: --progress shows the share read and the time left of a file" {
  if [ -n "${SFENC_MEMCHECK:-}" ]; then
    skip "sfenc under valgrind reads too slowly for the 0.6 s this test is timed on"
  fi
  head -c 3000000 /dev/zero > "$T/big"
  # The output is taken only after 0.6 s, so the reads stop after the
  # first chunks and the next one, drawn, knows a rate.
  run bash -c '"$0" --batch --passphrase x --s2k-count 65536 --progress -z 0 -c "$1/big" \
                 -o - 2> "$1/progress" | { sleep 0.6; cat > /dev/null; }' "$SFENC" "$T"
  [ "$status" -eq 0 ]
  run cat "$T/progress"
  [[ $output == $'\r'"sfenc: read "*" of 2.9 MiB ("[0-9]*"%), "*"/s, "[0-9]*:[0-5][0-9]" left"* ]]
  [[ $output == *$'\r'"sfenc: read 2.9 MiB in "* ]]
}

@test "sfenc-status: --progress redraws at most four times a second" {
  local start end redraws
  start=$(date +%s%N)
  run bash -c 'for i in 1 2 3 4 5 6 7 8 9 10 11 12; do head -c 100000 /dev/zero; sleep 0.1; done |
                 "$0" --batch --passphrase x --s2k-count 65536 --progress -z 0 -c 2>&1 >/dev/null' \
    "$SFENC"
  end=$(date +%s%N)
  [ "$status" -eq 0 ]
  # Without a size: the count and the rate.
  [[ $output == *$'\r'"sfenc: read "*" KiB, "*"/s"$'\r'* ]]
  redraws=$(printf '%s' "$output" | tr -cd '\r' | wc -c)
  [ "$redraws" -ge 3 ]
  [ "$redraws" -le $(( (end - start) / 250000000 + 2 )) ]
}
