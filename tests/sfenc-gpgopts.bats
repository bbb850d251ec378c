#!/usr/bin/env bats
# The gpg options that scripts pass (issue 12, items 4 and 6), each
# with gpg's meaning and gpg 2.2 as the oracle: --set-filename,
# -t/--textmode, --s2k-cipher-algo, --logger-fd, the options that ask
# for what sfenc always does, one line naming any option sfenc does not
# know, and no second compression of data that is already compressed.

setup () {
  SFENC=${SFENC:-$BATS_TEST_DIRNAME/../g10/sfenc}
  T=$BATS_TEST_TMPDIR
  export LC_ALL=C
  export GNUPGHOME="$T/gnupg"
  mkdir -p -m 700 "$GNUPGHOME"
  SF=("$SFENC" --batch --yes --passphrase secret --s2k-count 65536)
  GPG=(gpg --batch --yes --quiet --no-tty --pinentry-mode loopback
       --passphrase secret --s2k-count 65536)
  seq 1 20000 > "$T/plain"
}

teardown () {
  gpgconf --kill gpg-agent > /dev/null 2>&1 || true
}

need_gpg () {
  command -v gpg > /dev/null \
    || skip "gpg (GnuPG) is not installed: the gpg oracle of this test is NOT run"
}

# The packets of message $1 as gpg lists them.
gpg_packets () {
  "${GPG[@]}" --list-packets "$1" 2> /dev/null
}

# The data of the new-format literal data packet read from stdin,
# after its format, name and date.
literal_data () {
  perl -e '
    binmode STDIN; binmode STDOUT;
    local $/; my $d = <STDIN>; my ($p, $body) = (0, "");
    die "not a new-format literal data packet\n" unless ord (substr ($d, $p++, 1)) == 0xcb;
    while (1) {
      my ($l, $n, $partial) = (ord (substr ($d, $p++, 1)), 0, 0);
      if ($l < 192) { $n = $l }
      elsif ($l < 224) { $n = (($l - 192) << 8) + ord (substr ($d, $p++, 1)) + 192 }
      elsif ($l == 255) { $n = unpack ("N", substr ($d, $p, 4)); $p += 4 }
      else { $n = 1 << ($l & 31); $partial = 1 }
      $body .= substr ($d, $p, $n); $p += $n;
      last unless $partial;
    }
    print substr ($body, 6 + ord (substr ($body, 1, 1)));'
}

# The literal data of the uncompressed message $1: gpg -d --unwrap
# takes the encryption off and leaves the packets inside.
unwrapped_literal_data () {
  "${GPG[@]}" -d --unwrap "$1" | literal_data
}

# OpenPGP canonical text of stdin as gpg 2.2 makes it: carriage
# returns and NUL bytes before a line feed and at the very end
# removed, LF -> CR LF.
canonical_text () {
  perl -0777 -pe 's/[\r\0]*\n/\r\n/g; s/[\r\0]+\z//'
}

@test "sfenc-gpgopts: --set-filename is the name in the literal packet" {
  need_gpg
  cp "$T/plain" "$T/report.txt"
  "${SF[@]}" -c -o "$T/msg" "$T/report.txt"
  gpg_packets "$T/msg" | grep -q 'name="report.txt"'
  "${SF[@]}" -c --set-filename "other name.doc" -o "$T/msg" "$T/report.txt"
  gpg_packets "$T/msg" | grep -q 'name="other name.doc"'
  "${SF[@]}" -v -d -o "$T/out" "$T/msg" 2>&1 | grep -qx 'sfenc: literal data: mode b, name "other name.doc"'
  cmp "$T/plain" "$T/out"
  # From stdin too, and the empty name removes it.
  "${SF[@]}" -c --set-filename=piped.txt < "$T/plain" > "$T/msg"
  gpg_packets "$T/msg" | grep -q 'name="piped.txt"'
  "${SF[@]}" -c --set-filename "" -o "$T/msg2" "$T/report.txt"
  gpg_packets "$T/msg2" | grep -q 'name=""'
  # gpg stores the same.
  "${GPG[@]}" -c --set-filename "other name.doc" -o "$T/gpg.msg" "$T/report.txt"
  gpg_packets "$T/gpg.msg" | grep -q 'name="other name.doc"'
}

# Encrypt file $1 with -c -t -z 0 and the options after it, with gpg
# to $T/gpg.msg and with sfenc to $T/msg; fail unless their literal
# data are the same, left in $T/lit.
same_text_as_gpg () {
  local file=$1
  shift
  "${GPG[@]}" -c -t -z 0 "$@" -o "$T/gpg.msg" "$file"
  "${SF[@]}" -c -t -z 0 "$@" -o "$T/msg" "$file"
  unwrapped_literal_data "$T/gpg.msg" > "$T/gpg.lit"
  unwrapped_literal_data "$T/msg" > "$T/lit"
  cmp "$T/gpg.lit" "$T/lit" \
    || { echo "${file##*/} $*: not gpg's text"; od -c "$T/lit" | head; return 1; }
}

@test "sfenc-gpgopts: -t makes the literal data gpg -t makes, line endings included" {
  local case
  need_gpg
  # Line endings gpg 2.2 treats each in its own way.
  printf 'a\nb\n' > "$T/t1"
  printf 'a\r\nb' > "$T/t2"
  printf 'blanks stay \t\nx\r\r\ny\r' > "$T/t3"
  printf 'inner\rcr\n\n\r\ntwo\r\rcrs\n\r' > "$T/t4"
  printf '' > "$T/t5"
  # Long, with CR LF lines of every length up to 400 bytes.
  head -c 150000 /dev/urandom | base64 -w 0 |
    perl -ne 'my $n = 0; while (length) { print substr ($_, 0, $n, ""), "\r\n"; $n = ($n + 7) % 400 }' > "$T/t6"
  for case in t1 t2 t3 t4 t5 t6; do
    same_text_as_gpg "$T/$case"
    gpg_packets "$T/msg" | grep -q "mode t (74), created [0-9]*, name=\"$case\""
    canonical_text < "$T/$case" | cmp - "$T/lit"
    # Both read it back alike: gpg and sfenc drop every CR of text.
    "${GPG[@]}" -d "$T/msg" > "$T/gpg.out"
    "${SF[@]}" -d "$T/msg" > "$T/out"
    cmp "$T/gpg.out" "$T/out"
  done
  # LF text comes back unchanged, compressed or not, from stdin too.
  "${SF[@]}" -c --textmode < "$T/plain" > "$T/msg"
  "${SF[@]}" -d "$T/msg" | cmp - "$T/plain"
  "${GPG[@]}" -d "$T/msg" | cmp - "$T/plain"
}

# The same with --rfc2440-text: spaces and tabs go with the carriage
# returns at the end of every line, the last one included.
rfc2440_text () {
  perl -0777 -pe 's/[ \t\r\0]*\n/\r\n/g; s/[ \t\r\0]+\z//'
}

@test "sfenc-gpgopts: --rfc2440-text strips blanks at line ends as gpg does, and only it" {
  local case opts
  need_gpg
  printf 'a  \t\nb \r\nc\t \n  d' > "$T/r1"
  printf 'x\r\r\n  d \t' > "$T/r2"
  printf 'a \r b  \r\n\t\n \n\t x \t y\t\r \r\n' > "$T/r3"
  for case in r1 r2 r3; do
    # gpg's order: --rfc2440-text, undone by --no-rfc2440-text, by a
    # later --openpgp, but not by --pgp8.
    for opts in "--rfc2440-text" "--rfc2440-text --pgp8" "" \
                "--rfc2440-text --no-rfc2440-text" "--rfc2440-text --openpgp"; do
      same_text_as_gpg "$T/$case" $opts
    done
    "${SF[@]}" -c -t -z 0 --rfc2440-text -o "$T/msg" "$T/$case"
    unwrapped_literal_data "$T/msg" | cmp - <(rfc2440_text < "$T/$case")
  done
  # Blanks across the pipeline's buffers, longer than gpg's lines, and
  # blanks that turn out to be inside a line.
  { head -c 70000 /dev/zero | tr '\0' ' '; printf 'x\n'
    head -c 70000 /dev/zero | tr '\0' '\t'; printf '\r\n'
    head -c 66000 /dev/zero | tr '\0' ' '; } > "$T/blanks"
  cat "$T/blanks" | "${SF[@]}" -c -t -z 0 --rfc2440-text > "$T/msg"
  unwrapped_literal_data "$T/msg" | cmp - <(rfc2440_text < "$T/blanks")
  # Blanks that alternate in one place of a line are taken as long as
  # gpg takes the line; more than 19993 runs are refused, as gpg
  # refuses such a line.
  for case in 129 9000 10000; do
    { printf 'a'; perl -e "print \" \t\" x $case"; printf 'b\n'; } > "$T/alt"
    rm -f "$T/msg"
    run "${SF[@]}" -c -t -z 0 --rfc2440-text -o "$T/msg" "$T/alt"
    if [ "$case" != 10000 ]; then
      [ "$status" -eq 0 ]
      unwrapped_literal_data "$T/msg" | cmp - <(rfc2440_text < "$T/alt")
    else
      [ "$status" -eq 2 ]
      [ "${#lines[@]}" -eq 1 ]
      [ "$output" = "sfenc: -t: more than 19993 runs of NULs, CRs, spaces and tabs in one place of a line" ]
      [ ! -e "$T/msg" ]
    fi
  done
}

# Every string of up to $1 characters from NUL, CR, LF, space and
# tab, one a line, each with and without a letter before and
# after it and with and without a line feed after that.
line_end_table () {
  perl -e '
    my @s = ("");
    for (1 .. $ARGV[0]) { @s = map { my $p = $_; map { "$p$_" } "\0", "\r", "\n", " ", "\t" } @s; }
    for my $s (grep { length } @s) {
      for my $pre ("", "a") { for my $post ("", "b", "\n", "b\n") { print "x$pre$s$post\n" } }
    }' "$1"
}

@test "sfenc-gpgopts: -t strips NUL bytes at line ends with the CRs as gpg does" {
  local case opts e
  need_gpg
  # gpg strips the end of a line with strchr, which finds the NUL that
  # ends its set of characters: NULs count as line-end characters.
  printf 'a\0\nb\n' > "$T/n1"
  printf '\0\n' > "$T/n2"
  printf 'a\0b\r\nx\0 \n\0\0\0y\0\r\0\r\n' > "$T/n3"
  printf 'last\r\0\r' > "$T/n4"
  printf 'b \t\0\r\n\0 \0\n' > "$T/n5"
  line_end_table 3 > "$T/n6"
  for case in n1 n2 n3 n4 n5 n6; do
    for opts in "" "--rfc2440-text"; do
      same_text_as_gpg "$T/$case" $opts
      if [ -z "$opts" ]; then canonical_text; else rfc2440_text; fi < "$T/$case" | cmp - "$T/lit"
    done
  done
  # The first case as the literal data gpg writes for it.
  "${SF[@]}" -c -t -z 0 -o "$T/msg" "$T/n1"
  unwrapped_literal_data "$T/msg" | cmp - <(printf 'a\r\nb\r\n')
  # Armored and compressed, as gpg reads them back: without their
  # CRs, but a NUL too many or too few shows.
  for opts in "-a -z 0" "-z 6" "--compress-algo bzip2 --rfc2440-text" "-a --compress-algo zlib"; do
    "${GPG[@]}" -c -t $opts -o "$T/gpg.msg" "$T/n6"
    "${SF[@]}" -c -t $opts -o "$T/msg" "$T/n6"
    "${GPG[@]}" -d "$T/gpg.msg" > "$T/gpg.out"
    "${GPG[@]}" -d "$T/msg" > "$T/out"
    cmp "$T/gpg.out" "$T/out" || { echo "$opts: not gpg's text"; return 1; }
  done
  # Every line end of up to two such characters at the end of the
  # input, without a line feed after it.
  for e in 00 0d 0a 20 09 0000 000d 000a 0020 0009 0d00 0d0d 0d0a 0d20 0d09 \
           0a00 0a0d 0a0a 0a20 0a09 2000 200d 200a 2020 2009 0900 090d 090a 0920 0909; do
    { printf 'a'; perl -e 'print pack ("H*", $ARGV[0])' "$e"; } > "$T/a$e"
    same_text_as_gpg "$T/a$e"
    same_text_as_gpg "$T/a$e" --rfc2440-text
  done
  # NULs and CRs that alternate in one place of a line are taken as
  # gpg takes them, up to its line length; past it both refuse.
  for case in 129 9000 10000; do
    { printf 'a'; perl -e "print \"\\0\\r\" x $case"; printf 'b\n'; } > "$T/alt"
    rm -f "$T/msg" "$T/gpg.msg"
    if [ "$case" != 10000 ]; then
      "${GPG[@]}" -c -t -z 0 -o "$T/gpg.msg" "$T/alt"
      "${SF[@]}" -c -t -z 0 -o "$T/msg" "$T/alt"
      unwrapped_literal_data "$T/msg" | cmp - <(unwrapped_literal_data "$T/gpg.msg")
    else
      run "${GPG[@]}" -c -t -z 0 -o "$T/gpg.msg" "$T/alt"
      [ "$status" -ne 0 ]
      run "${SF[@]}" -c -t -z 0 -o "$T/msg" "$T/alt"
      [ "$status" -eq 2 ]
      [ "$output" = "sfenc: -t: more than 19993 runs of NULs and CRs in one place of a line" ]
      [ ! -e "$T/msg" ]
    fi
  done
}

@test "sfenc-gpgopts: -t across the buffers of the pipeline, from a file and a pipe" {
  local at shift
  need_gpg
  # Runs of CRs before a LF, or not, that straddle the first 8 bytes
  # (read ahead for the magic numbers), the 64 KiB reads after them,
  # and the first chunk of the literal packet (64 KiB less the 8
  # bytes of its header fields).
  for at in 8 $((8 + 65536)) $((65536 - 8)); do
    for shift in -2 -1 0 1; do
      { head -c $((at + shift - 1)) /dev/zero | tr '\0' x; printf '\r\r\nab\r\rcd\r\n'
        head -c 70000 /dev/zero | tr '\0' y; printf '\r\r'; } > "$T/in"
      canonical_text < "$T/in" > "$T/want"
      "${SF[@]}" -c -t -z 0 --set-filename ab -o "$T/msg" "$T/in"
      unwrapped_literal_data "$T/msg" | cmp - "$T/want"
      cat "$T/in" | "${SF[@]}" -c -t -z 0 --set-filename ab > "$T/msg"
      unwrapped_literal_data "$T/msg" | cmp - "$T/want"
    done
  done
}

@test "sfenc-gpgopts: -t takes lines of gpg's 19995 bytes and more" {
  need_gpg
  { head -c 30000 /dev/zero | tr '\0' a; printf '\r\nend\n'; } > "$T/long"
  run "${GPG[@]}" -c -t -o "$T/gpg.msg" "$T/long"
  [ "$status" -ne 0 ]
  [[ "$output" == *"can't handle text lines longer than 19995 characters"* ]]
  # Where gpg's limit lies, as sfenc(1) gives it: 19995 bytes with the
  # line feed are refused, one fewer is read.
  { head -c 19994 /dev/zero | tr '\0' a; echo; } > "$T/at-limit"
  run "${GPG[@]}" -c -t -o "$T/gpg.msg2" "$T/at-limit"
  [ "$status" -ne 0 ]
  { head -c 19993 /dev/zero | tr '\0' a; echo; } > "$T/below-limit"
  "${GPG[@]}" -c -t -o "$T/gpg.msg3" "$T/below-limit"
  # A last line without a line feed: 19994 bytes are refused, 19993
  # read; sfenc takes both, NULs that all end their line.
  head -c 19994 /dev/zero > "$T/at-limit"
  run "${GPG[@]}" -c -t -o "$T/gpg.msg2" "$T/at-limit"
  [ "$status" -ne 0 ]
  "${SF[@]}" -c -t -z 0 -o "$T/msg" "$T/at-limit"
  [ -z "$(unwrapped_literal_data "$T/msg")" ]
  head -c 19993 /dev/zero > "$T/below-limit"
  "${GPG[@]}" -c -t -z 0 -o "$T/gpg.msg3" "$T/below-limit"
  [ -z "$(unwrapped_literal_data "$T/gpg.msg3")" ]
  "${SF[@]}" -c -t -z 0 -o "$T/msg" "$T/long"
  unwrapped_literal_data "$T/msg" > "$T/lit"
  canonical_text < "$T/long" | cmp - "$T/lit"
}

@test "sfenc-gpgopts: --s2k-cipher-algo is the cipher when --cipher-algo is not given" {
  need_gpg
  "${SF[@]}" -c --s2k-cipher-algo CAST5 < "$T/plain" > "$T/msg"
  gpg_packets "$T/msg" | grep -q '^:symkey enc packet: version 4, cipher 3,'
  "${GPG[@]}" -c --s2k-cipher-algo CAST5 < "$T/plain" > "$T/gpg.msg"
  gpg_packets "$T/gpg.msg" | grep -q '^:symkey enc packet: version 4, cipher 3,'
  "${SF[@]}" -d "$T/msg" | cmp - "$T/plain"
  # --cipher-algo wins, in either order.
  "${SF[@]}" -c --cipher-algo TWOFISH --s2k-cipher-algo CAST5 < "$T/plain" > "$T/msg"
  gpg_packets "$T/msg" | grep -q '^:symkey enc packet: version 4, cipher 10,'
  "${SF[@]}" -c --s2k-cipher-algo CAST5 --cipher-algo TWOFISH < "$T/plain" > "$T/msg"
  gpg_packets "$T/msg" | grep -q '^:symkey enc packet: version 4, cipher 10,'
  run "${SF[@]}" -c --s2k-cipher-algo NOSUCH < "$T/plain"
  [ "$status" -eq 2 ]
  [ "$output" = "sfenc: --s2k-cipher-algo: unknown cipher algorithm 'NOSUCH' (see --list-ciphers)" ]
}

@test "sfenc-gpgopts: --logger-fd sends the diagnostics to another descriptor" {
  "${SF[@]}" -v --logger-fd 3 -c < "$T/plain" > "$T/msg" 2> "$T/stderr" 3> "$T/log"
  [ ! -s "$T/stderr" ]
  grep -q '^sfenc: .*CFB encryption' "$T/log"
  # Errors too, as one line.
  run "${SF[@]}" --logger-fd 3 -d "$T/no-such-file" 3> "$T/log"
  [ "$status" -eq 2 ]
  [ -z "$output" ]
  [ "$(wc -l < "$T/log")" -eq 1 ]
  grep -q "^sfenc: $T/no-such-file: " "$T/log"
  # A descriptor that is not open is refused on stderr.
  run "${SF[@]}" --logger-fd 9 -c < "$T/plain"
  [ "$status" -eq 2 ]
  [ "$output" = "sfenc: --logger-fd: file descriptor 9: Bad file descriptor" ]
}

@test "sfenc-gpgopts: gpg options that ask for what sfenc does anyway are accepted" {
  "${SF[@]}" --no-tty --no-greeting --no-secmem-warning --no-options \
    --homedir "$T/nowhere" --force-mdc -c < "$T/plain" > "$T/msg" 2> "$T/err"
  [ ! -s "$T/err" ]
  [ ! -e "$T/nowhere" ]
  "${SF[@]}" -q --no-tty --homedir="$T/nowhere" -d "$T/msg" 2> "$T/err" | cmp - "$T/plain"
  [ ! -s "$T/err" ]
  # gpg's own command line, as GPGME-style scripts write it.
  "$SFENC" --batch --no-tty --no-greeting --yes --homedir "$T/nowhere" \
    --pinentry-mode loopback --passphrase secret --s2k-count 65536 \
    --force-mdc --compress-algo zlib -t --set-filename x.txt \
    -o "$T/msg" -c "$T/plain"
  "${SF[@]}" -d "$T/msg" | cmp - "$T/plain"
}

@test "sfenc-gpgopts: an option sfenc does not know is one line naming it" {
  local o
  # Names gpg does not know either (sfenc-gpgsurface.bats walks all
  # of gpg's).
  for o in --no-such-option --print-pka-records; do
    run "${SF[@]}" "$o" < "$T/plain"
    [ "$status" -eq 2 ]
    [ "$output" = "sfenc: $o: unknown option (see --help)" ]
  done
  # The value after = is not shown: it may be a passphrase.
  run "$SFENC" --passphrse="my secret" -c < "$T/plain"
  [ "$status" -eq 2 ]
  [ "$output" = "sfenc: --passphrse: unknown option (see --help)" ]
  run "$SFENC" --armor=yes -c < "$T/plain"
  [ "$status" -eq 2 ]
  [ "$output" = "sfenc: --armor: option takes no argument" ]
  run "$SFENC" -J bob -c < "$T/plain"
  [ "$status" -eq 2 ]
  [ "$output" = "sfenc: -J: unknown option (see --help)" ]
}

# Print the file for compressed format $1: its magic number, then 100
# kB of zeros, which deflate would squeeze to almost nothing.
magic_file () {
  local magic
  case $1 in
    gzip) magic='\x1f\x8b\x08' ;;
    bzip2) magic='BZh9' ;;
    xz) magic='\xfd7zXZ\x00' ;;
    zstd) magic='\x28\xb5\x2f\xfd' ;;
    zip) magic='PK\x03\x04' ;;
    7z) magic='7z\xbc\xaf\x27\x1c' ;;
    JPEG) magic='\xff\xd8\xff\xe0' ;;
    PNG) magic='\x89PNG\r\n\x1a\n' ;;
  esac
  printf '%b' "$magic"
  head -c 100000 /dev/zero
}

# The compression sfenc -v -d finds in message $1: "ZIP", "BZIP2", ...
# or "none".
compression_of () {
  local found
  found=$("${SF[@]}" -v -d -o /dev/null "$1" 2>&1 | sed -n 's/^sfenc: \(.*\) compressed data$/\1/p')
  echo "${found:-none}"
}

@test "sfenc-gpgopts: data already compressed is not compressed again" {
  local format
  for format in gzip bzip2 xz zstd zip 7z JPEG PNG; do
    magic_file "$format" > "$T/$format"
    # A file and a pipe alike; -v says why.
    "${SF[@]}" -v -c -o "$T/msg" "$T/$format" 2> "$T/err"
    grep -qx "sfenc: $T/$format: already compressed ($format), not compressed again" "$T/err"
    [ "$(compression_of "$T/msg")" = none ]
    [ "$(stat -c %s "$T/msg")" -gt 100000 ]
    "${SF[@]}" -d "$T/msg" | cmp - "$T/$format"
    "${SF[@]}" -v -c < "$T/$format" > "$T/msg" 2> "$T/err"
    grep -qx "sfenc: stdin: already compressed ($format), not compressed again" "$T/err"
    [ "$(compression_of "$T/msg")" = none ]
    # Unless a level is given for the algorithm in use.
    "${SF[@]}" -c -z 6 < "$T/$format" > "$T/msg"
    [ "$(compression_of "$T/msg")" = ZIP ]
    [ "$(stat -c %s "$T/msg")" -lt 1000 ]
    "${SF[@]}" -c --compress-level 1 --compress-algo zlib < "$T/$format" > "$T/msg"
    [ "$(compression_of "$T/msg")" = ZLIB ]
    "${SF[@]}" -c --compress-algo bzip2 --bzip2-compress-level 1 < "$T/$format" > "$T/msg"
    [ "$(compression_of "$T/msg")" = BZIP2 ]
    "${SF[@]}" -d "$T/msg" | cmp - "$T/$format"
    "${SF[@]}" -c --compress-algo bzip2 --compress-level 9 < "$T/$format" > "$T/msg"
    [ "$(compression_of "$T/msg")" = none ]
  done
  # Almost a magic number is no magic number: gzip's method 7, a PNG
  # signature cut short, fewer bytes than the magic.
  for format in gzip7 png7 short; do
    case $format in
      gzip7) printf '\x1f\x8b\x07' ;;
      png7) printf '\x89PNG\r\n\x1a' ;;
      short) printf '\x28\xb5\x2f' ;;
    esac > "$T/$format"
    head -c 100000 /dev/zero >> "$T/$format"
    "${SF[@]}" -c < "$T/$format" > "$T/msg"
    [ "$(compression_of "$T/msg")" = ZIP ]
    "${SF[@]}" -d "$T/msg" | cmp - "$T/$format"
  done
  printf '\x28\xb5\x2f' > "$T/tiny"
  "${SF[@]}" -c < "$T/tiny" > "$T/msg"
  "${SF[@]}" -d "$T/msg" | cmp - "$T/tiny"
}

@test "sfenc-gpgopts: gpg 2.2 leaves the same files uncompressed, named files only" {
  local format
  need_gpg
  for format in gzip bzip2 zip; do
    magic_file "$format" > "$T/$format"
    "${GPG[@]}" -c -o "$T/gpg.msg" "$T/$format"
    [ "$(compression_of "$T/gpg.msg")" = none ]
    "${SF[@]}" -c -o "$T/msg" "$T/$format"
    [ "$(compression_of "$T/msg")" = none ]
    # gpg does not look at standard input; sfenc does.
    "${GPG[@]}" -c < "$T/$format" > "$T/gpg.msg"
    [ "$(compression_of "$T/gpg.msg")" = ZIP ]
  done
}
