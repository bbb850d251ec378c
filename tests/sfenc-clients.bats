#!/usr/bin/env bats
# The real programs that drive gpg, pointed at sfenc instead (issue
# 21): duplicity (--gpg-binary), python-gnupg (gpgbinary=), GPGME
# through python3-gpg (gpgme_set_engine_info), Emacs's EasyPG
# (epg-gpg-program), Perl's GnuPG::Interface (call) and gpgtar (--gpg);
# and (issue 41) Vim's gnupg plugin (g:GPGExecutable), driven in a
# tmux pseudo-terminal with the passphrase typed at the prompt, and
# tomb (a program named gpg first on its PATH), git-annex's encrypted
# special remotes (gpg.program), s3cmd's encrypted transfers
# (gpg_command, through its own functions: tests/clients/s3cmd-gpg.py,
# no S3 endpoint needed) and cryptsetup's keyscript decrypt_gnupg
# (its /usr/bin/gpg bound to sfenc in a private mount namespace).  Each
# works both ways
# with gpg, and each fails on a wrong passphrase with its own error,
# in bounded time: every step runs under timeout, every wait for a
# screen is bounded.
#
# The clients are Debian packages (.ci/run and quickstart.sh install
# them); one that is missing is skipped with a loud NOT TESTED, never
# passed.  Their scripts are in tests/clients/.

load public-key

setup () {
  SFENC=${SFENC:-$BATS_TEST_DIRNAME/../g10/sfenc}
  CLIENTS=$BATS_TEST_DIRNAME/clients
  T=$BATS_TEST_TMPDIR
  export LC_ALL=C
  command -v gpg > /dev/null || skip "NOT TESTED: gpg (GnuPG) is not installed"
  # A short home: gpg-agent's socket path must fit in sun_path.
  GH=$(mktemp -d /tmp/sfenc-gh.XXXXXX)
  export GNUPGHOME=$GH
  PASS="correct horse battery"
  GPG=$(command -v gpg)
  # The clients' modules are Debian's, for Debian's python3.
  PY=/usr/bin/python3
  head -c 300000 /dev/urandom > "$T/in"
}

teardown () {
  [ -z "${GH:-}" ] || {
    tmux -S "$GH/tmux" kill-server > /dev/null 2>&1
    gpgconf --kill gpg-agent > /dev/null 2>&1
    rm -rf "$GH"
  }
}

# Skip, loudly, unless the client $1 can be run: $2... is its check.
need () {
  local what=$1
  shift
  "$@" > /dev/null 2>&1 \
    || skip "NOT TESTED: $what is not installed (see tools/debian-packages.txt)"
}

gpg_decrypt () {
  "$GPG" --batch --quiet --no-tty --pinentry-mode loopback \
    --passphrase "$PASS" -d "$@"
}

# duplicity, with the passphrase in the environment as its users give
# it, the archive directory of this test, and the gpg program $1.
dup () {
  local gpg=$1
  shift
  PASSPHRASE=$DUP_PASS timeout 120 duplicity "$@" --gpg-binary "$gpg" \
    --archive-dir "$T/cache" --name t --no-print-statistics
}

make_tree () {
  mkdir -p "$1/sub"
  echo one > "$1/a"
  head -c 200000 /dev/urandom > "$1/sub/b"
  ln -s a "$1/link"
}

@test "clients: duplicity full, incremental, verify and restore through sfenc" {
  need duplicity duplicity --version
  DUP_PASS=$PASS
  make_tree "$T/src"
  dup "$SFENC" full "$T/src" "file://$T/target"
  echo two > "$T/src/c"
  head -c 50000 /dev/urandom >> "$T/src/sub/b"
  # duplicity sees a change by its time, in seconds.
  touch -d '+1 hour' "$T/src/sub/b"
  dup "$SFENC" incremental "$T/src" "file://$T/target"
  dup "$SFENC" verify "file://$T/target" "$T/src"
  dup "$SFENC" restore "file://$T/target" "$T/restored"
  diff -r "$T/src" "$T/restored"
  # Every volume, manifest and signature file is one gpg reads.
  local f n=0
  for f in "$T"/target/*.gpg; do
    gpg_decrypt "$f" > /dev/null || { echo "gpg cannot read $f"; return 1; }
    n=$((n + 1))
  done
  [ "$n" -ge 6 ]
}

@test "clients: duplicity restores gpg's backup through sfenc, and a wrong passphrase fails" {
  need duplicity duplicity --version
  DUP_PASS=$PASS
  make_tree "$T/src"
  dup "$GPG" full "$T/src" "file://$T/target"
  rm -rf "$T/cache"
  dup "$SFENC" restore "file://$T/target" "$T/restored"
  diff -r "$T/src" "$T/restored"
  rm -rf "$T/cache"
  DUP_PASS=wrong
  run dup "$SFENC" restore "file://$T/target" "$T/restored2"
  [ "$status" -ne 0 ] && [ "$status" -ne 124 ]
  [[ $output == *GPGError* ]] || { echo "$output"; return 1; }
  [ ! -e "$T/restored2/a" ]
}

# python-gnupg: operation $1 with binary $2 on $3, output to $4.
pygnupg () {
  timeout 60 "$PY" "$CLIENTS/python-gnupg.py" "$2" "$GH" "$1" "$3" "$4" \
    "${PASS_GIVEN:-$PASS}"
}

@test "clients: python-gnupg encrypt and decrypt, symmetric, both ways with gpg" {
  need python3-gnupg "$PY" -c 'import gnupg'
  run pygnupg encrypt "$SFENC" "$T/in" "$T/msg"
  [ "$status" -eq 0 ]
  [ "$output" = "ok=True status=encryption ok" ]
  run pygnupg decrypt "$SFENC" "$T/msg" "$T/out"
  [ "$output" = "ok=True status=decryption ok" ]
  cmp "$T/in" "$T/out"
  gpg_decrypt "$T/msg" | cmp - "$T/in"
  run pygnupg encrypt "$GPG" "$T/in" "$T/gmsg"
  [ "$status" -eq 0 ]
  run pygnupg decrypt "$SFENC" "$T/gmsg" "$T/out2"
  [ "$output" = "ok=True status=decryption ok" ]
  cmp "$T/in" "$T/out2"
}

@test "clients: python-gnupg encrypt_file and decrypt_file to an output file" {
  need python3-gnupg "$PY" -c 'import gnupg'
  run pygnupg encrypt_file "$SFENC" "$T/in" "$T/msg.asc"
  [ "$output" = "ok=True status=encryption ok" ]
  head -n 1 "$T/msg.asc" | grep -qx -e '-----BEGIN PGP MESSAGE-----'
  gpg_decrypt "$T/msg.asc" | cmp - "$T/in"
  # An output that exists: python-gnupg adds --yes.
  echo old > "$T/out"
  run pygnupg decrypt_file "$SFENC" "$T/msg.asc" "$T/out"
  [ "$output" = "ok=True status=decryption ok" ]
  cmp "$T/in" "$T/out"
}

@test "clients: python-gnupg with a wrong passphrase fails with its own status" {
  need python3-gnupg "$PY" -c 'import gnupg'
  pygnupg encrypt "$SFENC" "$T/in" "$T/msg"
  PASS_GIVEN=wrong run pygnupg decrypt "$SFENC" "$T/msg" "$T/out"
  [ "$status" -eq 1 ]
  [ "$output" = "ok=False status=decryption failed" ]
  # The same as gpg gives.
  PASS_GIVEN=wrong run pygnupg decrypt "$GPG" "$T/msg" "$T/out"
  [ "$output" = "ok=False status=decryption failed" ]
}

# GPGME: operation $1 with engine $2 on $3, output to $4, the
# passphrase ${PASS_GIVEN:-$PASS}, then the words of $5 (callback,
# flags) if given.
gpgme () {
  timeout 60 "$PY" "$CLIENTS/gpgme.py" "$2" "$GH" "$1" "$3" "$4" \
    "${PASS_GIVEN:-$PASS}" ${5:-}
}

@test "clients: GPGME symmetric encrypt and decrypt, passphrase= and callback, both ways with gpg" {
  need python3-gpg "$PY" -c 'import gpg'
  head -c 3000000 /dev/urandom > "$T/big"
  local how
  for how in "" callback; do
    run gpgme encrypt "$SFENC" "$T/big" "$T/msg" $how
    [ "$status" -eq 0 ] || { echo "$output"; return 1; }
    # GPGME takes the engine's version from the first line of --version.
    [ "${lines[0]}" = "engine $("$SFENC" --version | head -n 1 | awk '{ print $NF }')" ]
    head -n 1 "$T/msg" | grep -qx -e '-----BEGIN PGP MESSAGE-----'
    gpgme decrypt "$SFENC" "$T/msg" "$T/out" $how
    cmp "$T/big" "$T/out"
    gpgme decrypt "$GPG" "$T/msg" "$T/out2" $how
    cmp "$T/big" "$T/out2"
    gpgme encrypt "$GPG" "$T/big" "$T/gmsg" $how
    gpgme decrypt "$SFENC" "$T/gmsg" "$T/out3" $how
    cmp "$T/big" "$T/out3"
    rm -f "$T/out" "$T/out2" "$T/out3"
  done
}

@test "clients: GPGME with every context flag that changes gpg's command line" {
  need python3-gpg "$PY" -c 'import gpg'
  gpgme encrypt "$SFENC" "$T/in" "$T/msg" "callback flags"
  gpgme decrypt "$GPG" "$T/msg" "$T/out" callback
  cmp "$T/in" "$T/out"
  # Not compressed (--compress-algo=none), and the name given.
  gpg --batch --quiet --pinentry-mode loopback --passphrase "$PASS" \
    --list-packets "$T/msg" > "$T/packets" 2>&1 || true
  grep -q 'compressed packet' "$T/packets" && return 1
  grep -q 'name="named.txt"' "$T/packets"
  gpgme decrypt "$SFENC" "$T/msg" "$T/out2" "callback flags"
  cmp "$T/in" "$T/out2"
}

@test "clients: GPGME errors from sfenc are GPGME's errors, as with gpg, and nothing hangs" {
  need python3-gpg "$PY" -c 'import gpg'
  head -c 3000000 /dev/urandom > "$T/big"
  gpgme encrypt "$SFENC" "$T/big" "$T/msg"
  public_key_message
  local engine
  for engine in "$SFENC" "$GPG"; do
    PASS_GIVEN=wrong run gpgme decrypt "$engine" "$T/msg" "$T/out" callback
    [ "$status" -eq 1 ]
    [[ $output == *"GPGME error: "*"Bad passphrase" ]] || { echo "$output"; return 1; }
    PASS_GIVEN=wrong run gpgme decrypt "$engine" "$T/msg" "$T/out"
    [[ $output == *"Bad passphrase" ]]
    # The callback cancels: GPGME closes the command descriptor.
    PASS_GIVEN=CANCEL run gpgme decrypt "$engine" "$T/msg" "$T/out" callback
    [ "$status" -eq 1 ]
    PASS_GIVEN=CANCEL run gpgme encrypt "$engine" "$T/big" "$T/out" callback
    [ "$status" -eq 1 ]
    # Not a message: 3 MB of noise.
    run gpgme decrypt "$engine" "$T/big" "$T/out"
    [ "$status" -eq 1 ]
    [[ $output == *"No data" ]] || { echo "$output"; return 1; }
    # What needs keys ends too: a message for a public key, and a
    # key listing.
    run gpgme decrypt "$engine" "$T/pkmsg" "$T/out"
    [ "$status" -eq 1 ]
    [[ $output == *"No secret key" ]] || { echo "$output"; return 1; }
    run gpgme keylist "$engine" - -
    [ "$status" -eq 0 ]
    [ "${lines[1]}" = "keys 0" ]
  done
}

# Emacs's EasyPG: operation $1 with program $2 on $3, output to $4.
epg () {
  GPG_PROGRAM=$2 TEST_PASSPHRASE=${PASS_GIVEN:-$PASS} \
    timeout 60 emacs --batch -Q -l "$CLIENTS/epg.el" "$1" "$3" "$4"
}

@test "clients: Emacs EasyPG encrypts and decrypts through sfenc, both ways with gpg" {
  need emacs emacs --batch -Q --eval '(require (quote epg))'
  epg encrypt "$SFENC" "$T/in" "$T/msg.asc"
  head -n 1 "$T/msg.asc" | grep -qx -e '-----BEGIN PGP MESSAGE-----'
  epg decrypt "$GPG" "$T/msg.asc" "$T/out"
  cmp "$T/in" "$T/out"
  epg encrypt "$GPG" "$T/in" "$T/gmsg.asc"
  epg decrypt "$SFENC" "$T/gmsg.asc" "$T/out2"
  cmp "$T/in" "$T/out2"
  PASS_GIVEN=wrong run epg decrypt "$SFENC" "$T/msg.asc" "$T/out3"
  [ "$status" -eq 1 ]
  [[ $output == *"EasyPG error: GPG error: \"Decryption failed\""* ]] || { echo "$output"; return 1; }
  [ ! -e "$T/out3" ]
}

# GnuPG::Interface: operation $1 with program $2 on $3, output to $4.
gnupg_interface () {
  timeout 60 perl "$CLIENTS/gnupg-interface.pl" "$2" "$GH" "$1" "$3" "$4" \
    "${PASS_GIVEN:-$PASS}"
}

@test "clients: Perl GnuPG::Interface encrypts and decrypts through sfenc, both ways with gpg" {
  need libgnupg-interface-perl perl -MGnuPG::Interface -e 1
  # The script writes all its input before it reads: small data only.
  head -c 20000 /dev/urandom > "$T/in"
  run gnupg_interface encrypt "$SFENC" "$T/in" "$T/msg.asc"
  [ "$status" -eq 0 ]
  [ "${lines[-1]}" = "[GNUPG:] END_ENCRYPTION" ]
  gpg_decrypt "$T/msg.asc" | cmp - "$T/in"
  gnupg_interface encrypt "$GPG" "$T/in" "$T/gmsg.asc" > /dev/null
  run gnupg_interface decrypt "$SFENC" "$T/gmsg.asc" "$T/out"
  [ "$status" -eq 0 ]
  echo "$output" | grep -qx '\[GNUPG:\] DECRYPTION_OKAY'
  cmp "$T/in" "$T/out"
  PASS_GIVEN=wrong run gnupg_interface decrypt "$SFENC" "$T/gmsg.asc" "$T/out"
  [ "$status" -eq 2 ]
  echo "$output" | grep -qx '\[GNUPG:\] DECRYPTION_FAILED'
}

@test "clients: gpgtar --symmetric and --decrypt through sfenc, both ways with gpg" {
  need gpgtar gpgtar --version
  make_tree "$T/src"
  rm "$T/src/link"              # gpgtar skips symbolic links
  # gpgtar splits its --gpg-args at spaces, and the passphrase has some.
  printf '%s\n' "$PASS" > "$T/pass"
  local args="--batch --passphrase-file=$T/pass --pinentry-mode=loopback"
  (cd "$T" && timeout 60 gpgtar --gpg "$SFENC" --gpg-args "$args" \
     --symmetric --output sfenc.gpgtar src)
  mkdir "$T/out" "$T/out2"
  timeout 60 gpgtar --gpg "$GPG" --gpg-args "$args" --decrypt \
    --directory "$T/out" "$T/sfenc.gpgtar"
  diff -r "$T/src" "$T/out/src"
  (cd "$T" && timeout 60 gpgtar --gpg "$GPG" --gpg-args "$args" \
     --symmetric --output gpg.gpgtar src)
  timeout 60 gpgtar --gpg "$SFENC" --gpg-args "$args" --decrypt \
    --directory "$T/out2" "$T/gpg.gpgtar"
  diff -r "$T/src" "$T/out2/src"
}

# Vim with the gnupg plugin, run by gpg program line $1 (g:GPGExecutable)
# on file $2, in a tmux server of this test (its socket in $GH, where
# the path is short enough), on a terminal of 100 x 30.
vim_start () {
  cat > "$T/vimrc" <<EOF
set nocompatible
set packpath=/usr/share/vim/vimfiles
packadd gnupg
let g:GPGExecutable = "$1"
let g:GPGPreferSymmetric = 1
EOF
  tmux -S "$GH/tmux" new-session -d -s vim -x 100 -y 30 \
    "timeout 120 vim -u $T/vimrc -i NONE -n $2"
}

vim_screen () {
  tmux -S "$GH/tmux" capture-pane -p -t vim
}

vim_keys () {
  tmux -S "$GH/tmux" send-keys -t vim "$@"
}

# Wait, at most 30 s, until Vim's screen shows the text $1.
vim_wait () {
  local i
  for ((i = 0; i < 300; i++)); do
    vim_screen 2> /dev/null | grep -qF -- "$1" && return 0
    sleep 0.1
  done
  echo "waited 30 s for \"$1\"; the screen:"
  vim_screen
  return 1
}

# Wait, at most 30 s, until Vim has ended.
vim_wait_end () {
  local i
  for ((i = 0; i < 300; i++)); do
    tmux -S "$GH/tmux" has-session -t vim 2> /dev/null || return 0
    sleep 0.1
  done
  echo "Vim did not end; the screen:"
  vim_screen
  return 1
}

need_vim_gnupg () {
  need vim vim --version
  need tmux tmux -V
  need "Vim's gnupg plugin (vim-scripts)" \
    test -f /usr/share/vim/vimfiles/pack/dist-bundle/opt/gnupg/plugin/gnupg.vim
}

# Open $2 in Vim through gpg program line $1, wait for the prompt $5,
# type the passphrase $3, and wait for the screen to show $4.
vim_open () {
  vim_start "$1" "$2"
  vim_wait "$5"
  vim_keys "$3" Enter
  vim_wait "$4"
}

@test "clients: Vim's gnupg plugin opens gpg's file through sfenc and writes one gpg reads" {
  need_vim_gnupg
  printf 'first line of the note\n' > "$T/note"
  local gpg_batch=("$GPG" --batch --quiet --pinentry-mode loopback)
  "${gpg_batch[@]}" --passphrase "$PASS" -c -o "$T/note.gpg" "$T/note"
  # The plugin runs "--decrypt --list-only --logger-fd 1" and reads
  # "gpg: encrypted with 1 passphrase" before it asks for anything;
  # sfenc then asks for the passphrase on the terminal.
  vim_open "$SFENC --trust-model always --s2k-count 65536" "$T/note.gpg" \
    "$PASS" "first line of the note" "Enter passphrase:"
  # Not "File is not encrypted": the plugin saw the line.
  vim_screen | grep -q 'not encrypted' && return 1
  # Change it and write it: sfenc -c asks twice.
  vim_keys 'ggdGisecond version, written by Vim' Escape ':w' Enter
  vim_wait "Enter passphrase:"
  vim_keys "$PASS" Enter
  vim_wait "Repeat passphrase:"
  vim_keys "$PASS" Enter
  vim_keys ':q' Enter
  vim_wait_end
  [ "$("${gpg_batch[@]}" --passphrase "$PASS" -d "$T/note.gpg")" = \
    "second version, written by Vim" ]
}

@test "clients: Vim's gnupg plugin reads the same file through gpg, the oracle" {
  need_vim_gnupg
  need pinentry-curses test -x /usr/bin/pinentry-curses
  printf 'first line of the note\n' > "$T/note"
  "$GPG" --batch --quiet --pinentry-mode loopback --passphrase "$PASS" \
    -c -o "$T/note.gpg" "$T/note"
  echo "pinentry-program /usr/bin/pinentry-curses" > "$GH/gpg-agent.conf"
  gpgconf --kill gpg-agent
  vim_open "$GPG --no-symkey-cache --trust-model always" "$T/note.gpg" \
    "$PASS" "first line of the note" "Passphrase:"
  vim_screen | grep -q 'not encrypted' && return 1
  vim_keys ':q' Enter
  vim_wait_end
  # A wrong passphrase: the plugin says so and opens nothing.
  vim_open "$GPG --no-symkey-cache --trust-model always" "$T/note.gpg" \
    wrong "Message could not be decrypted!" "Passphrase:"
  vim_keys Enter ':q!' Enter
  vim_wait_end
}

@test "clients: Vim's gnupg plugin with sfenc and a wrong passphrase says so, the file kept" {
  need_vim_gnupg
  printf 'first line of the note\n' > "$T/note"
  "$SFENC" --batch --quiet --passphrase "$PASS" --s2k-count 65536 \
    -c -o "$T/note.gpg" "$T/note"
  cp "$T/note.gpg" "$T/note.orig"
  vim_open "$SFENC --trust-model always" "$T/note.gpg" wrong \
    "Message could not be decrypted!" "Enter passphrase:"
  vim_screen | grep -q 'first line' && return 1
  vim_keys Enter ':q!' Enter
  vim_wait_end
  cmp "$T/note.gpg" "$T/note.orig"
}

# tomb with the program $1 as its gpg (a link named gpg first on
# PATH: tomb has no option for it), its passwords given on the command
# line (--unsafe), as its own tests give them.
tomb_with () {
  local gpg=$1 bin
  shift
  bin="$T/bin-$(basename "$gpg")"
  mkdir -p "$bin"
  ln -sf "$gpg" "$bin/gpg"
  PATH="$bin:$PATH" timeout 120 tomb "$@" --unsafe --ignore-swap -f
}

need_tomb () {
  need tomb tomb -h
}

# The secret inside tomb key $1, as gpg decrypts it with password $2.
tomb_secret () {
  "$GPG" --batch --quiet --pinentry-mode loopback --passphrase "$2" -d "$1"
}

@test "clients: tomb forges a key through sfenc, gpg opens it, and back" {
  need_tomb
  # tomb forge writes a gpg -c --openpgp message of a random secret.
  tomb_with "$SFENC" forge -k "$T/s.key" --tomb-pwd "$PASS"
  tomb_secret "$T/s.key" "$PASS" > "$T/secret"
  [ "$(stat -c %s "$T/secret")" -gt 0 ]
  "$SFENC" --batch --quiet --passphrase "$PASS" -d "$T/s.key" \
    | cmp - "$T/secret"
  # tomb passwd through gpg reads sfenc's key and writes its own ...
  tomb_with "$GPG" passwd -k "$T/s.key" --tomb-old-pwd "$PASS" \
    --tomb-pwd second
  tomb_secret "$T/s.key" second | cmp - "$T/secret"
  # ... which sfenc reads, writing one gpg reads again.
  run tomb_with "$SFENC" passwd -k "$T/s.key" --tomb-old-pwd second \
    --tomb-pwd third
  echo "$output"
  [ "$status" -eq 0 ]
  [[ $output == *"Password OK."* ]]
  tomb_secret "$T/s.key" third | cmp - "$T/secret"
}

@test "clients: tomb opens gpg's key through sfenc; a wrong password is refused as with gpg" {
  need_tomb
  tomb_with "$GPG" forge -k "$T/g.key" --tomb-pwd "$PASS"
  tomb_secret "$T/g.key" "$PASS" > "$T/secret"
  cp "$T/g.key" "$T/g.orig"
  local prog
  for prog in "$GPG" "$SFENC"; do
    run tomb_with "$prog" passwd -k "$T/g.key" --tomb-old-pwd wrong \
      --tomb-pwd other
    echo "$prog: $output"
    [ "$status" -eq 1 ]
    [[ $output == *"No valid password supplied."* ]]
    cmp "$T/g.key" "$T/g.orig"
  done
  run tomb_with "$SFENC" passwd -k "$T/g.key" --tomb-old-pwd "$PASS" \
    --tomb-pwd second
  [ "$status" -eq 0 ]
  tomb_secret "$T/g.key" second | cmp - "$T/secret"
}

# s3cmd's encryption of an upload, and decryption of a download in
# place, through its own functions and command lines
# (tests/clients/s3cmd-gpg.py), with gpg program $1.
s3cmd_gpg () {
  TMP=$T timeout 60 "$PY" "$CLIENTS/s3cmd-gpg.py" /usr/bin/s3cmd "$@"
}

need_s3cmd () {
  need s3cmd test -x /usr/bin/s3cmd
}

@test "clients: s3cmd encrypts an upload through sfenc that gpg decrypts, and back" {
  need_s3cmd
  local enc
  enc=$(s3cmd_gpg "$SFENC" encrypt "$T/in" "$PASS")
  gpg_decrypt "$enc" | cmp - "$T/in"
  s3cmd_gpg "$SFENC" decrypt "$enc" "$PASS"
  cmp "$enc" "$T/in"
  enc=$(s3cmd_gpg "$GPG" encrypt "$T/in" "$PASS")
  s3cmd_gpg "$SFENC" decrypt "$enc" "$PASS"
  cmp "$enc" "$T/in"
}

@test "clients: s3cmd's download with a wrong passphrase fails through sfenc as through gpg, the file kept" {
  need_s3cmd
  local enc prog
  enc=$(s3cmd_gpg "$GPG" encrypt "$T/in" "$PASS")
  cp "$enc" "$T/enc.orig"
  for prog in "$GPG" "$SFENC"; do
    run s3cmd_gpg "$prog" decrypt "$enc" wrong
    echo "$prog: $output"
    [ "$status" -eq 2 ]
    cmp "$enc" "$T/enc.orig"
  done
}

need_git_annex () {
  need git-annex git annex version
}

# git-annex in repository $T/repo, with gpg program $1.
annex () {
  local gpg=$1
  shift
  timeout 120 git -C "$T/repo" -c gpg.program="$gpg" annex "$@"
}

# A repository with the encrypted special remote "enc", a directory,
# made through gpg program $1.  With encryption=shared git-annex makes
# a cipher with --gen-random and keeps it in git; each object is then
# gpg -c encrypted with it as the passphrase, on --passphrase-fd.
annex_with_remote () {
  git init -q "$T/repo"
  git -C "$T/repo" config user.email test@example.org
  git -C "$T/repo" config user.name test
  annex "$1" init -q test
  mkdir "$T/store"
  # The cipher comes from --gen-random 2.  libgcrypt 1.10.1 leaks 128
  # KiB, inside its own frames, the first time it gives bytes of that
  # level (a five-line program calling gcry_random_bytes shows it), so
  # LeakSanitizer is told to look away for this one step only.
  ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
    annex "$1" initremote enc type=directory directory="$T/store" \
    encryption=shared > /dev/null
}

# Add $T/in to the repository as $2, and copy it to the remote, through
# gpg program $1.
annex_store () {
  cp "$T/in" "$T/repo/$2"
  annex "$1" add -q "$2"
  git -C "$T/repo" commit -q -m "$2"
  annex "$1" copy -q --to enc "$2"
  annex "$1" drop -q --force "$2"
  [ ! -e "$T/repo/$2" ]
}

@test "clients: git-annex's encrypted remote through sfenc: gpg gets what sfenc stored, and back" {
  need_git_annex
  annex_with_remote "$SFENC"
  annex_store "$SFENC" by-sfenc
  annex "$GPG" get -q --from enc by-sfenc
  cmp "$T/repo/by-sfenc" "$T/in"
  annex "$GPG" fsck -q --from enc by-sfenc
  annex_store "$GPG" by-gpg
  annex "$SFENC" get -q --from enc by-gpg
  cmp "$T/repo/by-gpg" "$T/in"
  annex "$SFENC" fsck -q --from enc by-gpg
}

@test "clients: git-annex refuses a modified object through sfenc as through gpg" {
  need_git_annex
  annex_with_remote "$GPG"
  annex_store "$GPG" f
  local object prog
  object=$(find "$T/store" -type f | head -n 1)
  chmod u+w "$object" "$(dirname "$object")"
  printf '\001' | dd of="$object" bs=1 seek=1000 conv=notrunc status=none
  for prog in "$GPG" "$SFENC"; do
    run annex "$prog" get -q --from enc f
    echo "$prog: $output"
    [ "$status" -eq 1 ]
    [ ! -e "$T/repo/f" ]
    # The failure is the integrity check's, not a refused option.
    [[ $output == *"exited 2)"*"get: 1 failed"* ]]
    [[ $output != *"unknown option"* ]]
  done
}

need_decrypt_gnupg () {
  need "cryptsetup's keyscript decrypt_gnupg" test -x /lib/cryptsetup/scripts/decrypt_gnupg
  need "a private mount namespace (unshare -m, as root)" unshare -m true
}

# Run cryptsetup's keyscript decrypt_gnupg, which boot runs to unlock a
# LUKS device with a gpg -c key file, on key file $2: in a private
# mount namespace where /usr/bin/gpg, which the script names, is $1,
# and cryptsetup's askpass, its prompt, answers $3.
decrypt_gnupg_with () {
  printf '#!/bin/sh\nprintf "%%s" "$ASKPASS_ANSWER"\n' > "$T/askpass"
  chmod +x "$T/askpass"
  ASKPASS_ANSWER=$3 timeout 60 unshare -m sh -c '
    mount --bind "$1" /usr/bin/gpg &&
    mount --bind "$2" /lib/cryptsetup/askpass &&
    exec /lib/cryptsetup/scripts/decrypt_gnupg "$3"' sh "$1" "$T/askpass" "$2"
}

# The key file of cryptsetup's README.gnupg, made by gpg program $1
# from stdin, the passphrase given on the command line instead of at a
# pinentry.
make_luks_key () {
  "$1" --no-options --no-random-seed-file --no-default-keyring \
    --keyring /dev/null --secret-keyring /dev/null --trustdb-name /dev/null \
    --batch --pinentry-mode loopback --passphrase "$PASS" \
    --symmetric --output "$2"
}

@test "clients: cryptsetup's decrypt_gnupg unlocks sfenc's key file with gpg, and gpg's with sfenc" {
  need_decrypt_gnupg
  head -c 256 /dev/urandom > "$T/key"
  make_luks_key "$SFENC" "$T/s.gpg" < "$T/key"
  make_luks_key "$GPG" "$T/g.gpg" < "$T/key"
  # In the namespace, the script's /usr/bin/gpg is sfenc.
  unshare -m sh -c 'mount --bind "$1" /usr/bin/gpg && /usr/bin/gpg --version' \
    sh "$SFENC" | grep -q '^sfenc '
  local prog file
  for prog in "$GPG" "$SFENC"; do
    for file in s.gpg g.gpg; do
      decrypt_gnupg_with "$prog" "$T/$file" "$PASS" > "$T/out" 2> "$T/err"
      cmp "$T/out" "$T/key" || { echo "$prog $file"; cat "$T/err"; return 1; }
    done
  done
}

@test "clients: cryptsetup's decrypt_gnupg with a wrong passphrase fails through sfenc as through gpg" {
  need_decrypt_gnupg
  head -c 256 /dev/urandom | make_luks_key "$GPG" "$T/g.gpg"
  local prog
  for prog in "$GPG" "$SFENC"; do
    run decrypt_gnupg_with "$prog" "$T/g.gpg" wrong
    echo "$prog: $output"
    [ "$status" -eq 1 ]
    [[ $output == "Performing GPG symmetric decryption ..."* ]]
    [ "$(decrypt_gnupg_with "$prog" "$T/g.gpg" wrong 2> /dev/null | wc -c)" -eq 0 ]
  done
}
