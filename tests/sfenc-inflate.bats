#!/usr/bin/env bats
# --inflate-impl (issues 22 and 40): sfenc -d reads ZIP and ZLIB
# packets through ISA-L (the default where the build has it) or zlib
# (g10/inflate-engine.c), and both give the same output for gpg's,
# rnp's and sfenc's messages (--threads 1 and 2), and a one-line
# refusal, exit status 2 and no output file for bad compressed data.
# Where ISA-L is more lenient than zlib (an incomplete Huffman code),
# the MDC still decides: a good one gives ISA-L's output, a bad one
# the same failure as ever.

setup () {
  SFENC=${SFENC:-$BATS_TEST_DIRNAME/../g10/sfenc}
  T=$BATS_TEST_TMPDIR
  export GNUPGHOME="$T/gnupg"
  mkdir -p -m 700 "$GNUPGHOME"
  # -q: without the lines of gpg's log that come before an error on
  # -d (tests/sfenc-gpglog.bats); -v, after it, undoes it.
  SF=("$SFENC" --batch -q --passphrase "pass phrase" --s2k-count 65536)
  GPG=(gpg --batch --quiet --no-tty --pinentry-mode loopback
       --passphrase "pass phrase" --s2k-count 65536)
  yes "sfenc inflate line" | head -c 700000 > "$T/in-text"
  head -c 300000 /dev/urandom > "$T/in-random"
  : > "$T/in-empty"
  IMPLS=(zlib)
  RUNS=("zlib 1" "zlib 2")
  if "$SFENC" --inflate-impl isal --dump-options > /dev/null 2>&1; then
    IMPLS+=(isal)
    RUNS+=("isal 1" "isal 2")
  fi
}

teardown () {
  gpgconf --kill gpg-agent > /dev/null 2>&1 || true
}

need_isal () {
  [ "${#IMPLS[@]}" -eq 2 ] \
    || skip "NOT TESTED: built without ISA-L (--without-isal), zlib is the only inflate"
}

# Decrypt message $1 with each implementation at 1 and 2 threads, -v:
# the output must be file $2 and the log must name the implementation.
same_output () {
  local run impl threads
  for run in "${RUNS[@]}"; do
    read -r impl threads <<< "$run"
    "${SF[@]}" -v -d --yes --inflate-impl "$impl" --threads "$threads" \
      -o "$T/out-$impl" "$1" 2> "$T/err-$impl" \
      || { cat "$T/err-$impl"; return 1; }
    grep -Eq "^sfenc: (ZIP|ZLIB) decompression through $impl\$" "$T/err-$impl" \
      || { echo "$1: no '$impl' in the log:"; cat "$T/err-$impl"; return 1; }
    cmp "$2" "$T/out-$impl" \
      || { echo "$1 through $impl at $threads threads differs"; return 1; }
  done
}

@test "sfenc-inflate: the default is isal (zlib without ISA-L), --inflate-impl zlib chooses zlib, -v says which" {
  local default=zlib
  [ "${#IMPLS[@]}" -eq 2 ] && default=isal
  "${SF[@]}" -c < "$T/in-text" > "$T/msg"
  "${SF[@]}" -v -d -o "$T/out" "$T/msg" 2> "$T/err"
  grep -qx "sfenc: ZIP decompression through $default" "$T/err"
  cmp "$T/in-text" "$T/out"
  "${SF[@]}" -v -d --inflate-impl zlib -o "$T/out2" "$T/msg" 2> "$T/err"
  grep -qx 'sfenc: ZIP decompression through zlib' "$T/err"
  cmp "$T/in-text" "$T/out2"
  need_isal
}

@test "sfenc-inflate: --inflate-impl refuses an unknown name" {
  run "${SF[@]}" -d --inflate-impl nosuch /dev/null
  [ "$status" -eq 2 ]
  [ "${#lines[@]}" -eq 1 ]
  [[ "$output" == "sfenc: --inflate-impl: unknown inflate implementation 'nosuch' (zlib"* ]]
}

@test "sfenc-inflate: gpg's ZIP and ZLIB messages, both implementations" {
  local algo in level
  command -v gpg > /dev/null || skip "NOT TESTED: gpg is not installed"
  for algo in zip zlib; do
    for in in text random empty; do
      for level in 1 6 9; do
        "${GPG[@]}" -c --compress-algo "$algo" -z "$level" -o "$T/msg" --yes "$T/in-$in"
        same_output "$T/msg" "$T/in-$in"
      done
    done
  done
}

@test "sfenc-inflate: rnp's ZIP and ZLIB messages, both implementations" {
  local algo in
  command -v rnp > /dev/null || skip "NOT TESTED: rnp is not installed"
  mkdir -p "$T/rnp"
  for algo in --zip --zlib; do
    for in in text random empty; do
      rnp --homedir "$T/rnp" --password "pass phrase" -c "$algo" --overwrite \
        --output "$T/msg" "$T/in-$in" 2> "$T/rnp.err" || { cat "$T/rnp.err"; return 1; }
      same_output "$T/msg" "$T/in-$in"
    done
  done
}

@test "sfenc-inflate: sfenc's ZIP and ZLIB messages, --threads 1 and 2" {
  local algo in threads level
  for algo in zip zlib; do
    for in in text random empty; do
      for threads in 1 2; do
        for level in 1 6; do
          "${SF[@]}" -c --compress-algo "$algo" -z "$level" --threads "$threads" \
            < "$T/in-$in" > "$T/msg"
          same_output "$T/msg" "$T/in-$in"
        done
      done
    done
  done
}

# A message whose compressed packet holds the stream python3 makes:
# $1 the algorithm (1 ZIP, 2 ZLIB), $2 the python expression of the
# stream from T, the compressed literal packet, and zlib; the literal
# data is seq 1 $3 (20000 when not given).
bad_message () {
  command -v gpg > /dev/null || skip "NOT TESTED: gpg is not installed"
  seq 1 "${3:-20000}" > "$T/plain"
  gpg --batch --quiet --store -z 0 < "$T/plain" > "$T/literal"
  python3 - "$T/literal" "$T/packet" "$1" "$2" <<'PY'
import sys, zlib
T = open(sys.argv[1], "rb").read()
algo = int(sys.argv[3])
stream = eval(sys.argv[4])
# An old-format compressed packet of indeterminate length.
open(sys.argv[2], "wb").write(bytes([0xa3, algo]) + stream)
PY
  "${GPG[@]}" -c -z 0 --no-literal < "$T/packet" > "$T/bad.msg"
}

# Both implementations, at 1 and 2 threads, refuse bad.msg with one
# line, status 2, and no output file; $1 is zlib's line, $2 ISA-L's
# (its own words where they differ from zlib's; $1 when not given).
both_refuse () {
  local run impl threads
  for run in "${RUNS[@]}"; do
    read -r impl threads <<< "$run"
    run timeout 60 "${SF[@]}" -d --inflate-impl "$impl" --threads "$threads" \
      -o "$T/out" "$T/bad.msg"
    echo "$impl at $threads threads: $output"
    [ "$status" -eq 2 ]
    [ "${#lines[@]}" -eq 1 ]
    if [ "$impl" = zlib ]; then
      [ "$output" = "$1" ]
    else
      [ "$output" = "${2:-$1}" ]
    fi
    [ ! -e "$T/out" ]
  done
}

@test "sfenc-inflate: the good stream of the bad-stream tests is read by both" {
  bad_message 2 "zlib.compress(T)"
  same_output "$T/bad.msg" "$T/plain"
}

@test "sfenc-inflate: a bad Adler-32 is refused by both" {
  bad_message 2 "zlib.compress(T)[:-1] + bytes([zlib.compress(T)[-1] ^ 1])"
  both_refuse "sfenc: decryption failed: invalid compressed data (incorrect data check)"
}

@test "sfenc-inflate: a bad zlib header check is refused by both" {
  bad_message 2 "b'\\x78\\x9d' + zlib.compress(T)[2:]"
  both_refuse "sfenc: decryption failed: invalid compressed data (incorrect header check)"
}

@test "sfenc-inflate: a preset dictionary (FDICT) is refused by both" {
  bad_message 2 "(lambda c: c.compress(T) + c.flush())(zlib.compressobj(6, zlib.DEFLATED, 15, zdict=b'1 2 3'))"
  both_refuse "sfenc: decryption failed: invalid compressed data (preset dictionary)"
}

@test "sfenc-inflate: a truncated stream is refused by both" {
  bad_message 1 "zlib.compress(T)[2:-4][:5000]"
  both_refuse "sfenc: decryption failed: compressed data truncated"
}

@test "sfenc-inflate: block type 3 is refused by both" {
  bad_message 1 "b'\\x07' + zlib.compress(T)[2:-4]"
  both_refuse "sfenc: decryption failed: invalid compressed data (invalid block type)" \
    "sfenc: decryption failed: invalid compressed data (invalid block)"
}

@test "sfenc-inflate: a stored block with a bad NLEN is refused by both" {
  bad_message 1 "b'\\x01\\x05\\x00\\xfa\\xfe' + b'hello'"
  both_refuse "sfenc: decryption failed: invalid compressed data (invalid stored block lengths)" \
    "sfenc: decryption failed: invalid compressed data (invalid block)"
}

@test "sfenc-inflate: data after the end of the stream is dropped by both" {
  bad_message 1 "zlib.compress(T)[2:-4] + b'after the end'"
  same_output "$T/bad.msg" "$T/plain"
}

@test "sfenc-inflate: a bad block 3 MB into the stream is refused by both" {
  # Good blocks ending on a byte (a full flush), then block type 3,
  # past the buffers read before the decrypting thread starts.
  bad_message 1 "(lambda c: c.compress(T) + c.flush(zlib.Z_FULL_FLUSH))(zlib.compressobj(6, zlib.DEFLATED, -15)) + b'\\x07'" 500000
  both_refuse "sfenc: decryption failed: invalid compressed data (invalid block type)" \
    "sfenc: decryption failed: invalid compressed data (invalid block)"
}

@test "sfenc-inflate: a bad Adler-32 after 3 MB is refused by both" {
  bad_message 2 "zlib.compress(T)[:-1] + bytes([zlib.compress(T)[-1] ^ 1])" 500000
  both_refuse "sfenc: decryption failed: invalid compressed data (incorrect data check)"
}

@test "sfenc-inflate: nested compressed packets, each through isal" {
  local layers
  command -v gpg > /dev/null || skip "NOT TESTED: gpg is not installed"
  need_isal
  seq 1 20000 > "$T/plain"
  gpg --batch --quiet --store -z 0 < "$T/plain" > "$T/packet"
  # Each layer an old-format ZIP packet of indeterminate length around
  # the one before.
  python3 - "$T/packet" <<'PY'
import sys, zlib
p = open(sys.argv[1], "rb").read()
for _ in range(8):
    c = zlib.compressobj(6, zlib.DEFLATED, -15)
    p = bytes([0xa3, 1]) + c.compress(p) + c.flush()
open(sys.argv[1], "wb").write(p)
PY
  "${GPG[@]}" -c -z 0 --no-literal < "$T/packet" > "$T/nested.msg"
  "${SF[@]}" -v -d --threads 2 -o "$T/out" "$T/nested.msg" 2> "$T/err"
  cmp "$T/plain" "$T/out"
  layers=$(grep -c '^sfenc: ZIP decompression through isal$' "$T/err")
  echo "layers: $layers"; cat "$T/err"
  [ "$layers" -eq 8 ]
}

# The raw deflate stream of T (python, for bad_message) in one dynamic
# block whose literal/length code is incomplete: the 256 literals of 9
# bits and end-of-block of 2 leave a quarter of the code unused.  zlib
# refuses it ("invalid literal/lengths set"); ISA-L decodes it, and it
# gives T.
incomplete_code_stream () {
  cat > "$T/incomplete.py" <<'PY'
def incomplete(T):
    out, acc, n = bytearray(), 0, 0
    def put(v, k):
        nonlocal acc, n
        for i in range(k):
            acc |= (v >> i & 1) << n
            n += 1
            if n == 8:
                out.append(acc); acc = 0; n = 0
    def huff(code, k):
        for i in reversed(range(k)):
            put(code >> i & 1, 1)
    def canonical(lens):
        codes, code = {}, 0
        for k in range(1, 16):
            for s in sorted(x for x in lens if lens[x] == k):
                codes[s] = (code, k); code += 1
            code <<= 1
        return codes
    lit = {s: 9 for s in range(256)}; lit[256] = 2
    cl = {9: 1, 2: 2, 1: 2}
    order = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]
    put(1, 1); put(2, 2); put(0, 5); put(1, 5); put(15, 4)
    for s in order:
        put(cl.get(s, 0), 3)
    clc, litc = canonical(cl), canonical(lit)
    for length in [lit[s] for s in range(257)] + [1, 1]:
        huff(*clc[length])
    for b in T:
        huff(*litc[b])
    huff(*litc[256])
    if n:
        out.append(acc)
    return bytes(out)
PY
  bad_message 1 "__import__('runpy').run_path('$T/incomplete.py')['incomplete'](T)"
}

@test "sfenc-inflate: an incomplete Huffman code under a good MDC: zlib refuses, isal decodes it" {
  incomplete_code_stream
  run "${SF[@]}" -d --inflate-impl zlib -o "$T/out" "$T/bad.msg"
  echo "zlib: $output"
  [ "$status" -eq 2 ]
  [ "$output" = "sfenc: decryption failed: invalid compressed data (invalid literal/lengths set)" ]
  [ ! -e "$T/out" ]
  # gpg inflates through zlib, and refuses it too.
  run "${GPG[@]}" -d -o "$T/out" "$T/bad.msg"
  echo "gpg: $output"
  [ "$status" -ne 0 ]
  rm -f "$T/out"
  need_isal
  for threads in 1 2; do
    "${SF[@]}" -d --threads "$threads" -o "$T/out" "$T/bad.msg"
    cmp "$T/plain" "$T/out"
    rm "$T/out"
  done
}

@test "sfenc-inflate: an incomplete Huffman code under a bad MDC fails as with zlib" {
  local impl threads len
  load byte-edit
  incomplete_code_stream
  len=$(stat -c %s "$T/bad.msg")
  # The last byte of the message: the MDC's digest, still encrypted.
  flip_byte "$T/bad.msg" $((len - 1)) 1
  for impl in "${IMPLS[@]}"; do
    for threads in 1 2; do
      run "${SF[@]}" -d --inflate-impl "$impl" --threads "$threads" \
        --status-fd 3 -o "$T/out" "$T/bad.msg" 3> "$T/status-$impl-$threads"
      echo "$impl, $threads threads: $output"
      [ "$status" -eq 2 ]
      [ "${#lines[@]}" -eq 1 ]
      [ "$output" = "sfenc: decryption failed: bad MDC: the message was modified; no output written" ]
      [ ! -e "$T/out" ]
      # The same status lines, but that ISA-L, which reads the literal
      # packet, reports it (PLAINTEXT) before BADMDC, as gpg does for a
      # modified message whose compressed data it can read.
      grep -v '^\[GNUPG:\] PLAINTEXT ' "$T/status-$impl-$threads" \
        | diff "$T/status-zlib-1" -
      [ "$impl" = zlib ] \
        || grep -q '^\[GNUPG:\] PLAINTEXT 62 ' "$T/status-$impl-$threads"
    done
  done
  grep -qx '\[GNUPG:\] BADMDC' "$T/status-zlib-1"
  grep -qx '\[GNUPG:\] DECRYPTION_FAILED' "$T/status-zlib-1"
}
