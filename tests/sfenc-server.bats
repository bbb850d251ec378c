#!/usr/bin/env bats
# sfenc --server (issue 41): gpg 2.2.40's Assuan server on stdin and
# stdout.  Every session runs with gpg --server as well, the same lines
# in, and the answers must be gpg's line for line, the greeting aside
# (its text names the server; libassuan's clients read only its "OK"),
# with gpg's exit status.

load gpg-2-2-40

setup () {
  SFENC=${SFENC:-$BATS_TEST_DIRNAME/../g10/sfenc}
  T=$BATS_TEST_TMPDIR
  export LC_ALL=C
  export GNUPGHOME="$T/gnupg"
  mkdir -p -m 700 "$GNUPGHOME"
  # gpg asks gpg-agent for a passphrase it was not given; a pinentry
  # that fails at once makes that its answer, never a wait.
  echo "pinentry-program /bin/false" > "$GNUPGHOME/gpg-agent.conf"
  export SFENC_MODULE_DIR="$T/no-modules"
  head -c 300000 /dev/urandom > "$T/plain"
  printf 'line one\nline two\n' > "$T/text"
  gpg --batch --passphrase pw --pinentry-mode loopback -c -o "$T/gpg.msg" \
    "$T/plain" 2>/dev/null
  "$SFENC" --batch --passphrase pw -c -a -o "$T/sfenc.msg" "$T/text"
}

teardown () {
  gpgconf --kill gpg-agent > /dev/null 2>&1 || true
}

# run_server NAME PROG INPUT LINES [OPTION...]: PROG --server with
# LINES (printf %b) on stdin, INPUT on descriptor 3 and descriptor 4
# writing $T/NAME.plain; the answers in $T/NAME.out (the greeting
# normalised), stderr in $T/NAME.err with the "gpg:"/"sfenc:" prefix
# as "P:", the exit status in $T/NAME.rc.
run_server () {
  local name=$1 prog=$2 input=$3 lines=$4 rc=0
  shift 4
  printf '%b' "$lines" | timeout 60 "$prog" --batch "$@" --server \
    3<"$input" 4>"$T/$name.plain" > "$T/$name.raw" 2> "$T/$name.rawerr" \
    || rc=$?
  echo "$rc" > "$T/$name.rc"
  sed '1s/^OK .* ready$/OK (greeting)/' "$T/$name.raw" > "$T/$name.out"
  sed -e 's/^gpg: /P: /' -e 's/^sfenc: /P: /' "$T/$name.rawerr" > "$T/$name.err"
}

# both INPUT LINES [OPTION...]: the session with gpg and with sfenc;
# fails unless the answers and the exit statuses are the same.
both () {
  run_server gpg gpg "$@"
  run_server sfenc "$SFENC" "$@"
  diff -u "$T/gpg.out" "$T/sfenc.out" || return 1
  [ "$(cat "$T/gpg.rc")" = "$(cat "$T/sfenc.rc")" ] \
    || { echo "exit status: gpg $(cat "$T/gpg.rc"), sfenc $(cat "$T/sfenc.rc")"; return 1; }
}

# Fail unless stderr of both has the line $1.
both_logged () {
  grep -qxF "$1" "$T/gpg.err" || { echo "gpg did not log: $1"; cat "$T/gpg.err"; return 1; }
  grep -qxF "$1" "$T/sfenc.err" || { echo "sfenc did not log: $1"; cat "$T/sfenc.err"; return 1; }
}

@test "server: the first session of the issue, as gpg answers it" {
  need_gpg_2_2_40
  both /dev/null 'GETINFO version\nOPTION foo=bar\nDECRYPT\nNOP\nHELP\nBYE\n'
  [ "$(sed -n 2p "$T/sfenc.out")" = "D 2.2.40" ]
  grep -qx "# PASSWD <userID>" "$T/sfenc.out"
  [ "$(tail -n 1 "$T/sfenc.out")" = "OK closing connection" ]
  [ "$(cat "$T/sfenc.rc")" -eq 0 ]
  # The greeting is an OK, and says who answers.
  head -n 1 "$T/sfenc.raw" | grep -q "^OK sfenc's OpenPGP server .* ready$"
}

@test "server: every command of gpg's server, and its errors, as gpg answers them without keys" {
  need_gpg_2_2_40
  local lines
  lines='NOP\nNOP x\nnop\nCANCEL\nAUTH\nRESET\nEND\nEND x\n'
  lines+='HELP NOP\nHELP FOO\nHELP passwd\nHELP  PASSWD x\n'
  lines+='SIGNER\nSIGNER foo\nVERIFY\nSIGN\nSIGN --detached\nIMPORT\n'
  lines+='EXPORT foo\nLISTKEYS\nLISTSECRETKEYS\nGENKEY\nDELKEYS x\nPASSWD\n'
  lines+='INPUT\nINPUT FD\nINPUT FD=x\nINPUT FD= 3\nINPUT FILE=/x\nINPUT fd=3\n'
  lines+='INPUT FD=3x\nINPUT FD=99999999999\nOUTPUT\nOUTPUT FD=4 --armor\n'
  lines+='MESSAGE\nMESSAGE FD=9\n'
  lines+='GETINFO\nGETINFO pid x\nGETINFO VERSION\nGETINFO version x\n'
  lines+='GETINFO version \nGETINFO  version\n'
  lines+='OPTION\nOPTION =x\nOPTION -\nOPTION --\nOPTION -display\n'
  lines+='OPTION display=\nOPTION display =  \nOPTION display=:0\n'
  lines+='OPTION --display=:0\nOPTION display :0\nOPTION display = :0\n'
  lines+='OPTION ttyname=/dev/tty\nOPTION ttytype=xterm\nOPTION lc-ctype=C\n'
  lines+='OPTION lc-messages=C\nOPTION xauthority=x\nOPTION pinentry_user_data=x\n'
  lines+='OPTION list-mode=1\nOPTION allow-pinentry-notify\nOPTION lc-ctype\n'
  lines+='OPTION pinentry-user-data=x\nOPTION DISPLAY=x\nOPTION include-certs=1\n'
  lines+='OPTION putenv=A=b\nOPTION offline\n'
  lines+='\n# a comment\n  NOP\nNOP  \nNOP\r\nD foo\nD \nD\nd foo\n'
  lines+='OK\nERR 1\nS foo\nINQUIRE x\nCAN\nFOO\nBYE x\nNOP\n'
  both /dev/null "$lines"
  # Every line but the empty one, the comment and those after BYE was
  # answered.
  [ "$(grep -c '^\(OK\|ERR\)' "$T/sfenc.out")" -ge 80 ]
  [ "$(tail -n 1 "$T/sfenc.out")" = "OK closing connection" ]
}

@test "server: DECRYPT of gpg's message from INPUT to OUTPUT, the plaintext byte for byte" {
  need_gpg_2_2_40
  both "$T/gpg.msg" 'INPUT FD=3\nOUTPUT FD=4\nDECRYPT\nBYE\n' --passphrase pw
  [ "$(cat "$T/sfenc.rc")" -eq 0 ]
  cmp "$T/plain" "$T/gpg.plain"
  cmp "$T/plain" "$T/sfenc.plain"
  both_logged "P: encrypted with 1 passphrase"
}

@test "server: DECRYPT of sfenc's armored message, the passphrase from a file, twice in a session" {
  need_gpg_2_2_40
  echo pw > "$T/pass"
  # gpg closes INPUT and OUTPUT after DECRYPT: the second finds none.
  both "$T/sfenc.msg" 'INPUT FD=3\nOUTPUT FD=4\nDECRYPT\nDECRYPT\nBYE\n' \
    --passphrase-file "$T/pass"
  grep -qx "ERR 33554710 No input source for IPC <GnuPG>" "$T/sfenc.out"
  cmp "$T/text" "$T/gpg.plain"
  cmp "$T/text" "$T/sfenc.plain"
}

@test "server: DECRYPT's status lines on --status-fd, as gpg's, none on the Assuan channel" {
  need_gpg_2_2_40
  both "$T/gpg.msg" 'INPUT FD=3\nOUTPUT FD=4\nDECRYPT\nBYE\n' --passphrase pw \
    --status-fd 2
  grep -q '^\[GNUPG:\] DECRYPTION_OKAY$' "$T/sfenc.err"
  diff <(grep '^\[GNUPG:\]' "$T/gpg.err") <(grep '^\[GNUPG:\]' "$T/sfenc.err")
  grep -q '^S ' "$T/sfenc.out" && return 1
  grep -q '^S ' "$T/gpg.out" && return 1
  true
}

@test "server: a wrong passphrase is gpg's ERR, the session goes on, exit status 2" {
  need_gpg_2_2_40
  both "$T/gpg.msg" 'INPUT FD=3\nOUTPUT FD=4\nDECRYPT\nNOP\nBYE\n' --passphrase wrong
  grep -qx "ERR 33554451 Bad session key <GnuPG>" "$T/sfenc.out"
  [ "$(sed -n 5p "$T/sfenc.out")" = OK ]
  [ "$(cat "$T/sfenc.rc")" -eq 2 ]
  both_logged "P: command 'DECRYPT' failed: Bad session key"
  [ ! -s "$T/sfenc.plain" ]
}

@test "server: DECRYPT with no passphrase given is gpg's No secret key, nothing asked" {
  need_gpg_2_2_40
  both "$T/gpg.msg" 'INPUT FD=3\nOUTPUT FD=4\nDECRYPT\nBYE\n'
  grep -qx "ERR 17 No secret key <Unspecified source>" "$T/sfenc.out"
  [ "$(cat "$T/sfenc.rc")" -eq 2 ]
  both_logged "P: command 'DECRYPT' failed: No secret key"
}

@test "server: DECRYPT of what is no OpenPGP message, or of a closed descriptor, is gpg's -1" {
  need_gpg_2_2_40
  both /etc/hostname 'INPUT FD=3\nOUTPUT FD=4\nDECRYPT\nINPUT FD=9\nOUTPUT FD=4\nDECRYPT\nBYE\n' \
    --passphrase pw
  [ "$(grep -c '^ERR -1 Unknown system error <Unknown source>$' "$T/sfenc.out")" -eq 2 ]
  [ "$(cat "$T/sfenc.rc")" -eq 2 ]
}

@test "server: ENCRYPT without a recipient, and RECIPIENT, as gpg without keys" {
  need_gpg_2_2_40
  both "$T/plain" 'RECIPIENT\nRECIPIENT alice\nINPUT FD=3\nOUTPUT FD=4\nENCRYPT\nDECRYPT\nBYE\n' \
    --status-fd 2
  grep -qx "ERR 33554448 No user ID <GnuPG>" "$T/sfenc.out"
  grep -qx "ERR 9 No public key <Unspecified source>" "$T/sfenc.out"
  [ "$(cat "$T/sfenc.rc")" -eq 2 ]
  both_logged "P: command 'ENCRYPT' failed: No user ID"
  both_logged "P: alice: skipped: No public key"
  both_logged "P: command 'RECIPIENT' failed: Invalid user ID"
  both_logged "[GNUPG:] INV_RECP 1 alice"
  both_logged "[GNUPG:] NO_RECP 0"
  [ ! -s "$T/sfenc.plain" ]
}

@test "server: an unknown command is gpg's ERR, exit status 0" {
  need_gpg_2_2_40
  both /dev/null 'FROBNICATE now\nNOP\nBYE\n'
  [ "$(sed -n 2p "$T/sfenc.out")" = "ERR 33554707 Unknown IPC command <GnuPG>" ]
  [ "$(cat "$T/sfenc.rc")" -eq 0 ]
}

@test "server: a line over libassuan's 1002 bytes ends the session as it ends gpg's" {
  need_gpg_2_2_40
  local fits long
  fits=$(printf 'N%.0s' {1..1001})      # 1001 bytes and the LF: 1002
  long=$(printf 'N%.0s' {1..1002})
  both /dev/null "$fits\nNOP\n$long\nNOP\nBYE\n"
  [ "$(cat "$T/sfenc.out")" = "$(printf 'OK (greeting)\nERR 33554707 Unknown IPC command <GnuPG>\nOK')" ]
  [ "$(cat "$T/sfenc.rc")" -eq 0 ]
  both_logged "P: Assuan processing failed: Line passed to IPC too long"
  # With a CR the line is one byte shorter.
  both /dev/null "${fits%N}\r\nNOP\n$fits\r\nNOP\n"
  [ "$(grep -c '^OK$' "$T/sfenc.out")" -eq 1 ]
}

@test "server: the end of stdin without BYE ends the server, exit status 0" {
  need_gpg_2_2_40
  both /dev/null 'NOP\nGETINFO version\n'
  [ "$(tail -n 1 "$T/sfenc.out")" = OK ]
  [ "$(cat "$T/sfenc.rc")" -eq 0 ]
  both /dev/null ''
  [ "$(cat "$T/sfenc.out")" = "OK (greeting)" ]
  # A last line without its LF is not run.
  both /dev/null 'NOP'
  both_logged "P: Assuan processing failed: Incomplete line passed to IPC"
}

@test "server: each DECRYPT takes the next line of --passphrase-fd" {
  # gpg 2.2.40 reads the descriptor once and fails its second DECRYPT
  # ("multiple plaintexts seen"): this one is sfenc's own.
  printf 'INPUT FD=3\nOUTPUT FD=4\nDECRYPT\nINPUT FD=5\nOUTPUT FD=6\nDECRYPT\nBYE\n' \
    | timeout 60 "$SFENC" --batch --passphrase-fd 7 --server 3<"$T/gpg.msg" \
        4>"$T/one" 5<"$T/sfenc.msg" 6>"$T/two" 7< <(printf 'pw\npw\n') \
        > "$T/out"
  [ "$(grep -c '^OK$' "$T/out")" -eq 6 ]
  cmp "$T/plain" "$T/one"
  cmp "$T/text" "$T/two"
}

@test "server: INPUT and OUTPUT refuse the protocol's own descriptors with libassuan's ERR" {
  # libassuan refuses its channel's descriptors; gpg's are duplicates
  # at numbers of their own, sfenc's are 0 and 1, which DECRYPT would
  # close.
  printf 'INPUT FD=0\nOUTPUT FD=1\nDECRYPT\nNOP\nBYE\n' \
    | timeout 60 "$SFENC" --batch --passphrase pw --server > "$T/out"
  [ "$(sed -n 2p "$T/out")" = "ERR 33554712 IPC parameter error <GnuPG> - fd same as inbound fd" ]
  [ "$(sed -n 3p "$T/out")" = "ERR 33554712 IPC parameter error <GnuPG> - fd same as outbound fd" ]
  [ "$(sed -n 4p "$T/out")" = "ERR 33554710 No input source for IPC <GnuPG>" ]
  [ "$(sed -n 6p "$T/out")" = "OK closing connection" ]
}
