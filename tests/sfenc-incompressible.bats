#!/usr/bin/env bats
# Blocks that do not compress are stored (issue 22): random bytes, a
# tar of .gz files, and text and random runs alternating across the
# 128 KiB block boundaries, each encrypted at 1, 2 and 3 threads, are
# read back byte for byte by gpg, rnp and sfenc; the compressed packet
# is the same at every thread count; -v counts the blocks stored:
# all of random bytes, none of text, some of the mixed data.  A tar of
# many small .gz files, where tar's zeros are all that compresses, is
# stored but for its runs of zeros.  Which block is stored, looked at
# in the deflate stream itself, is tests/t-deflate.c's part, and how
# the runs of zeros are written tests/t-deflate-sparse.c's.

setup () {
  SFENC=${SFENC:-$BATS_TEST_DIRNAME/../g10/sfenc}
  T=$BATS_TEST_TMPDIR
  export GNUPGHOME="$T/gnupg"
  mkdir -p -m 700 "$GNUPGHOME"
  SF=("$SFENC" --batch --passphrase secret --s2k-count 1024)
  GPG=(gpg --batch --quiet --pinentry-mode loopback --passphrase secret)
  head -c 700000 /dev/urandom > "$T/random"
  seq 1 200000 > "$T/text"
  # Runs of about 66 KiB of text and 260 KiB of random bytes.
  for i in 1 2 3 4; do
    seq $((i * 100000)) $((i * 100000 + 11000))
    head -c 266000 /dev/urandom
  done > "$T/mixed"
  # .gz files of random bytes (deflate stores them) and of text, in a tar.
  mkdir "$T/gz"
  for i in 1 2 3; do
    head -c $((150000 * i)) /dev/urandom | gzip -n > "$T/gz/r$i.gz"
  done
  gzip -n < "$T/text" > "$T/gz/text.gz"
  tar -C "$T" -cf "$T/gz.tar" gz
  # 600 man-page-sized .gz files, 300 to 3300 bytes of random data each.
  python3 - "$T/small" <<'PY'
import gzip, os, random, sys
os.mkdir(sys.argv[1])
for i in range(600):
    with open(os.path.join(sys.argv[1], "f%d.gz" % i), "wb") as f:
        f.write(gzip.compress(os.urandom(random.randrange(300, 3300)), mtime=0))
PY
  tar -C "$T" -cf "$T/small.tar" small
}

teardown () {
  gpgconf --kill gpg-agent > /dev/null 2>&1 || true
}

need_gpg () {
  command -v gpg > /dev/null ||
    { echo "gpg (GnuPG) is not installed: this test needs it as the reader" >&2; return 1; }
}

# The counts -v gives for encrypting $1 at $2 threads:
# "STORED BLOCKS SPARSE", SPARSE the blocks stored but for their runs
# of zeros.
stored_counts () {
  "${SF[@]}" -v -c --threads "$2" -o "$T/msg" --yes "$T/$1" 2> "$T/err"
  echo $(sed -n 's/^sfenc: \([0-9]*\) of \([0-9]*\) blocks stored, incompressible$/\1 \2/p' "$T/err") \
    $(sed -n 's/^sfenc: \([0-9]*\) of [0-9]* blocks incompressible but for runs of zeros, stored around them$/\1/p' "$T/err")
}

@test "sfenc-incompressible: gpg and sfenc read random, .gz tars and mixed input at 1, 2 and 3 threads" {
  need_gpg
  for input in random gz.tar mixed small.tar; do
    for threads in 1 2 3; do
      "${SF[@]}" -c --threads $threads -o "$T/msg" --yes "$T/$input"
      "${GPG[@]}" -d < "$T/msg" > "$T/out" ||
        { echo "gpg -d failed: $input, --threads $threads"; return 1; }
      cmp "$T/$input" "$T/out" || { echo "gpg: $input, --threads $threads"; return 1; }
      "${SF[@]}" -d < "$T/msg" > "$T/out"
      cmp "$T/$input" "$T/out" || { echo "sfenc: $input, --threads $threads"; return 1; }
    done
  done
}

@test "sfenc-incompressible: rnp reads random, .gz tars and mixed input at 1, 2 and 3 threads" {
  command -v rnp > /dev/null ||
    skip "NOT TESTED: rnp is not installed (Debian package 'rnp')"
  mkdir -p "$T/rnp"
  for input in random gz.tar mixed small.tar; do
    for threads in 1 2 3; do
      "${SF[@]}" -c --threads $threads -o "$T/msg" --yes "$T/$input"
      rnp --homedir "$T/rnp" --notty -d --password secret --output "$T/out" \
        --overwrite "$T/msg" ||
        { echo "rnp -d failed: $input, --threads $threads"; return 1; }
      cmp "$T/$input" "$T/out" || { echo "rnp: $input, --threads $threads"; return 1; }
    done
  done
}

@test "sfenc-incompressible: the compressed packet is the same at 1, 2 and 3 threads" {
  need_gpg
  for input in random gz.tar mixed small.tar; do
    # The literal packet inside holds the time of encryption: encrypt
    # again until all three fall in the same second.
    for attempt in 1 2 3 4 5; do
      for threads in 1 2 3; do
        "${SF[@]}" -c --threads $threads -o "$T/msg$threads" --yes "$T/$input"
      done
      for threads in 1 2 3; do
        "${GPG[@]}" --list-packets "$T/msg$threads" |
          sed -n 's/^[[:space:]]*mode .*, created \([0-9]*\),.*/\1/p'
      done > "$T/dates"
      [ "$(sort -u "$T/dates" | wc -l)" -eq 1 ] && break
    done
    [ "$(sort -u "$T/dates" | wc -l)" -eq 1 ] ||
      { echo "no three runs in the same second: $(cat "$T/dates")"; return 1; }
    for threads in 1 2 3; do
      "${GPG[@]}" -d --unwrap < "$T/msg$threads" > "$T/packet$threads"
    done
    # A compressed packet (tag 8), then the same bytes at every count.
    [ "$(head -c 1 "$T/packet1" | od -An -tx1 | tr -d ' ')" = c8 ]
    cmp "$T/packet1" "$T/packet2" || { echo "$input: 1 and 2 threads differ"; return 1; }
    cmp "$T/packet1" "$T/packet3" || { echo "$input: 1 and 3 threads differ"; return 1; }
  done
}

@test "sfenc-incompressible: random bytes are stored, text is deflated, mixed input is both" {
  need_gpg
  for threads in 1 3; do
    read stored blocks sparse < <(stored_counts random $threads)
    echo "random, $threads threads: $stored of $blocks stored"
    [ "$blocks" -ge 6 ] && [ "$stored" -eq "$blocks" ]
    # Stored blocks cost 5 bytes per 64 KiB, and the packet's header.
    "${GPG[@]}" -d --unwrap < "$T/msg" > "$T/packet"
    [ "$(stat -c %s "$T/packet")" -lt $((700000 + 200)) ]

    read stored blocks sparse < <(stored_counts text $threads)
    echo "text, $threads threads: $stored of $blocks stored, $sparse sparse"
    [ "$blocks" -ge 9 ] && [ "$stored" -eq 0 ] && [ "$sparse" -eq 0 ]
    "${GPG[@]}" -d --unwrap < "$T/msg" > "$T/packet"
    [ "$(stat -c %s "$T/packet")" -lt $(($(stat -c %s "$T/text") / 3)) ]

    read stored blocks sparse < <(stored_counts mixed $threads)
    echo "mixed, $threads threads: $stored of $blocks stored"
    [ "$stored" -ge 4 ] && [ "$stored" -lt "$blocks" ]

    read stored blocks sparse < <(stored_counts gz.tar $threads)
    echo "gz.tar, $threads threads: $stored of $blocks stored"
    [ "$stored" -ge 4 ]
  done
}

@test "sfenc-incompressible: a tar of small .gz files is stored but for its runs of zeros" {
  need_gpg
  local size
  size=$(stat -c %s "$T/small.tar")
  for threads in 1 3; do
    read stored blocks sparse < <(stored_counts small.tar $threads)
    echo "small.tar, $threads threads: $stored of $blocks stored, $sparse sparse"
    # All its full blocks but perhaps one or two are sparse; the last,
    # shorter than a sample, is deflated at the level asked for.
    [ "$blocks" -ge 9 ] && [ "$sparse" -ge $((blocks - 3)) ]
    "${GPG[@]}" -d --unwrap < "$T/msg" > "$T/packet"
    # 600 headers of 512 bytes and the padding to 512: about 450 kB
    # of zeros and names, of which a few bytes are left for each run
    # of zeros, the names stored.
    echo "packet $(stat -c %s "$T/packet") bytes, tar $size"
    [ "$(stat -c %s "$T/packet")" -lt $((size - 300000)) ]
  done
}
