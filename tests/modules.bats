#!/usr/bin/env bats
# Static and dynamic modules: a build with Twofish made dynamic, the
# out-of-tree template and Camellia modules built against a staged
# install, loading, every refusal, what is checked before a file is
# loaded (its code runs when it is), and Camellia interoperating with
# gpg.
#
# setup_file builds the project once more from its distribution tree
# (--enable-dynamic-ciphers=twofish) and installs it with DESTDIR.

# The make check that runs this file hands its own variables (TEST_LOGS,
# the whole list of its tests, among them) to every make below it
# through MAKEFLAGS: the makes of this file are a user's, without them.
unset MAKEFLAGS MFLAGS MAKELEVEL

setup_file () {
  # sfenc refuses modules and directories writable by group or others.
  umask 022
  export DYN="$BATS_FILE_TMPDIR/dyn"
  export STAGE="$DYN/stage"
  mkdir -p "$DYN"
  # automake's distdir must be relative to the build tree.
  make -s -C "$top_builddir" distdir \
    distdir="$(realpath --relative-to="$top_builddir" "$DYN/src")" >/dev/null
  (cd "$DYN/src" \
     && ./configure -q --prefix=/usr/local --enable-dynamic-ciphers=twofish \
     && make -s -j2 \
     && make -s install DESTDIR="$STAGE") >"$DYN/build.log" 2>&1 \
    || { cat "$DYN/build.log" >&3; return 1; }
  export MODDIR="$STAGE/usr/local/lib/sfenc/modules"
  export DSFENC="$STAGE/usr/local/bin/sfenc"

  # Third-party builds, out of tree, against the staged header and .pc.
  for m in module-template camellia-module; do
    cp -r "$top_srcdir/tools/$m" "$DYN/$m"
    chmod -R u+w "$DYN/$m"
    PKG_CONFIG_PATH="$STAGE/usr/local/lib/pkgconfig" \
    PKG_CONFIG_SYSROOT_DIR="$STAGE" \
      make -s -C "$DYN/$m" >>"$DYN/build.log" 2>&1 \
      || { cat "$DYN/build.log" >&3; return 1; }
  done
  export EXAMPLE_SO="$DYN/module-template/example.so"
  export CAMELLIA_SO="$DYN/camellia-module/camellia.so"
}

setup () {
  umask 022
  SFENC=${SFENC:-$top_builddir/g10/sfenc}
  export SFENC_MODULE_DIR="$MODDIR"
  export GNUPGHOME="$BATS_TEST_TMPDIR/gnupg"
  mkdir -p -m 700 "$GNUPGHOME"
}

# Fields of --list-ciphers --with-colons: cipher:NAME:ALIASES:ID:BLOCK:
# KEY:IMPL:static|dynamic:ORIGIN:SELFTEST:STATUS:TIMING:
impl_line () {  # impl_line NAME IMPL -- print the colon line or nothing
  awk -F: -v n="$1" -v i="$2" '$1 == "cipher" && $2 == n && $7 == i' 
}

@test "modules: installed header and pkg-config file" {
  [ -f "$STAGE/usr/local/include/sfcipher.h" ]
  PKG_CONFIG_PATH="$STAGE/usr/local/lib/pkgconfig" run pkg-config --variable=moduledir sfcipher
  [ "$output" = "/usr/local/lib/sfenc/modules" ]
  [ -f "$MODDIR/twofish.so" ]
  run nm -D --defined-only "$MODDIR/twofish.so"
  [ "$(echo "$output" | awk '{print $3}')" = "sf_module" ]
}

@test "modules: a module made dynamic is absent until loaded" {
  run "$DSFENC" --no-auto-modules --list-ciphers --with-colons
  [ "$status" -eq 0 ]
  [ -z "$(echo "$output" | impl_line TWOFISH ref)" ]
  [ -n "$(echo "$output" | impl_line TWOFISH gcrypt)" ]
  [ -n "$(echo "$output" | impl_line BLOWFISH ref)" ]
  echo "$output" | impl_line BLOWFISH ref | grep -q ':static::'
}

@test "modules: --load-extension with a bare name finds the module directory" {
  run "$DSFENC" --no-auto-modules --load-extension twofish --list-ciphers --with-colons
  [ "$status" -eq 0 ]
  line=$(echo "$output" | impl_line TWOFISH ref)
  [[ "$line" == *":dynamic:$MODDIR/twofish.so:ok:default:"* ]]
}

@test "modules: the module directory is loaded automatically" {
  run "$DSFENC" --list-ciphers --with-colons
  [ "$status" -eq 0 ]
  [ -n "$(echo "$output" | impl_line TWOFISH ref)" ]
  SFENC_MODULE_DIR="$BATS_TEST_TMPDIR/empty" run "$DSFENC" --list-ciphers --with-colons
  [ -z "$(echo "$output" | impl_line TWOFISH ref)" ]
}

@test "modules: a loaded module encrypts, and gpg decrypts it" {
  head -c 100000 /dev/urandom > "$BATS_TEST_TMPDIR/in"
  "$DSFENC" --batch --passphrase pw -c --cipher-algo TWOFISH --cipher-impl ref \
    -o "$BATS_TEST_TMPDIR/in.gpg" "$BATS_TEST_TMPDIR/in"
  gpg --batch -q --passphrase pw --pinentry-mode loopback -d "$BATS_TEST_TMPDIR/in.gpg" > "$BATS_TEST_TMPDIR/out"
  cmp "$BATS_TEST_TMPDIR/in" "$BATS_TEST_TMPDIR/out"
}

@test "modules: the template builds out of tree and loads" {
  run nm -D --defined-only "$EXAMPLE_SO"
  [ "$(echo "$output" | awk '{print $3}')" = "sf_module" ]
  run "$DSFENC" --load-extension "$EXAMPLE_SO" --list-ciphers --with-colons
  [ "$status" -eq 0 ]
  [[ "$(echo "$output" | impl_line EXAMPLE64 ref)" == *":dynamic:$EXAMPLE_SO:ok:default:"* ]]
}

@test "modules: Camellia loads with its OpenPGP ids" {
  run "$DSFENC" --load-extension "$CAMELLIA_SO" --list-ciphers --with-colons
  [ "$status" -eq 0 ]
  [[ "$(echo "$output" | impl_line CAMELLIA128 ref)" == "cipher:CAMELLIA128:"*":11:128:128:ref:dynamic:"* ]]
  [[ "$(echo "$output" | impl_line CAMELLIA192 ref)" == "cipher:CAMELLIA192:"*":12:128:192:ref:dynamic:"* ]]
  [[ "$(echo "$output" | impl_line CAMELLIA256 ref)" == "cipher:CAMELLIA256:"*":13:128:256:ref:dynamic:"* ]]
}

@test "modules: Camellia meets the RFC 3713 and NTT known answers" {
  run env srcdir="$top_srcdir/tests" "$top_builddir/tests/t-kat" "$CAMELLIA_SO"
  echo "$output"
  [ "$status" -eq 0 ]
  echo "$output" | grep -q "CAMELLIA128 (ref): [1-9][0-9]* vectors"
  echo "$output" | grep -q "CAMELLIA256 (ref): [1-9][0-9]* vectors"
  ! echo "$output" | grep -q "NOT TESTED"
}

@test "modules: Camellia against libgcrypt (10,000 keys, every mode)" {
  run env srcdir="$top_srcdir/tests" "$top_builddir/tests/t-diff" "$CAMELLIA_SO"
  echo "$output"
  [ "$status" -eq 0 ]
  echo "$output" | grep -q "CAMELLIA256 (ref): 10000 random keys"
}

@test "modules: sfenc -c --cipher-algo CAMELLIA256 decrypts with gpg" {
  head -c 70001 /dev/urandom > "$BATS_TEST_TMPDIR/in"
  "$DSFENC" --batch --passphrase pw --load-extension "$CAMELLIA_SO" -c \
    --cipher-algo CAMELLIA256 -o "$BATS_TEST_TMPDIR/in.gpg" "$BATS_TEST_TMPDIR/in"
  gpg --batch --passphrase pw --pinentry-mode loopback -d \
    "$BATS_TEST_TMPDIR/in.gpg" > "$BATS_TEST_TMPDIR/out" 2>"$BATS_TEST_TMPDIR/err"
  grep -q "CAMELLIA256" "$BATS_TEST_TMPDIR/err"
  cmp "$BATS_TEST_TMPDIR/in" "$BATS_TEST_TMPDIR/out"
}

@test "modules: gpg -c --cipher-algo CAMELLIA128 decrypts with sfenc" {
  head -c 70001 /dev/urandom > "$BATS_TEST_TMPDIR/in"
  gpg --batch --passphrase pw --pinentry-mode loopback -c --cipher-algo CAMELLIA128 \
    -o "$BATS_TEST_TMPDIR/in.gpg" "$BATS_TEST_TMPDIR/in"
  "$DSFENC" --batch --passphrase pw --load-extension "$CAMELLIA_SO" -d \
    -o "$BATS_TEST_TMPDIR/out" "$BATS_TEST_TMPDIR/in.gpg"
  cmp "$BATS_TEST_TMPDIR/in" "$BATS_TEST_TMPDIR/out"
  # Without the module, CAMELLIA128 is unknown: a clear error, status 2.
  run "$DSFENC" --batch -q --passphrase pw --no-auto-modules -d "$BATS_TEST_TMPDIR/in.gpg"
  [ "$status" -eq 2 ]
  [[ "$output" == sfenc:* ]]
}

# --- refusals: one line naming the file, status 2 ------------------------

refused () {  # refused FILE PATTERN
  run "$DSFENC" --no-auto-modules --load-extension "$1" --list-ciphers
  echo "$output"
  [ "$status" -eq 2 ]
  [ "${#lines[@]}" -eq 1 ]
  [[ "${lines[0]}" == "sfenc: $1: "*$2* ]]
}

@test "modules: refuses a missing file" {
  refused "$BATS_TEST_TMPDIR/nosuch.so" "No such file"
}

@test "modules: refuses a file that is not a shared object" {
  echo "not an ELF file" > "$BATS_TEST_TMPDIR/text.so"
  refused "$BATS_TEST_TMPDIR/text.so" "not a loadable shared object"
}

@test "modules: refuses a shared object that is not an sfenc module" {
  echo 'int answer (void) { return 42; }' > "$BATS_TEST_TMPDIR/other.c"
  cc -shared -fPIC -o "$BATS_TEST_TMPDIR/other.so" "$BATS_TEST_TMPDIR/other.c"
  refused "$BATS_TEST_TMPDIR/other.so" "not an sfenc cipher module"
}

@test "modules: refuses a module built for another ABI version" {
  cat > "$BATS_TEST_TMPDIR/future.c" <<'C'
#include <sfcipher.h>
static const sf_cipher_spec_t *const none[] = { NULL };
__attribute__ ((visibility ("default")))
const sf_module_t sf_module = { SF_ABI_VERSION + 1, "future", none };
C
  cc -shared -fPIC -I"$STAGE/usr/local/include" -o "$BATS_TEST_TMPDIR/future.so" "$BATS_TEST_TMPDIR/future.c"
  refused "$BATS_TEST_TMPDIR/future.so" "module ABI version 4, this program supports 1 to 3"
}

@test "modules: modules built for ABI version 1 still load, and encrypt" {
  # tests/sfcipher-v1.h is the header as it was at version 1, frozen.
  v1="$BATS_TEST_TMPDIR/v1"
  mkdir "$v1"
  cp "$top_srcdir/tests/sfcipher-v1.h" "$v1/sfcipher.h"
  [ "$(sed -n 's/^#define SF_ABI_VERSION //p' "$v1/sfcipher.h")" = 1 ]
  [ "$(sed -n 's/^#define SF_ABI_VERSION //p' "$STAGE/usr/local/include/sfcipher.h")" -gt 1 ]
  # The template, as a third party built it then.
  cp -r "$DYN/module-template" "$BATS_TEST_TMPDIR/tmpl"
  # Two runs: under make -j, one "clean all" may clean after building.
  make -s -C "$BATS_TEST_TMPDIR/tmpl" clean
  make -s -C "$BATS_TEST_TMPDIR/tmpl" all SFCIPHER_CFLAGS=-I"$v1"
  run "$DSFENC" --no-auto-modules --load-extension "$BATS_TEST_TMPDIR/tmpl/example.so" --list-ciphers --with-colons
  echo "$output"
  [ "$status" -eq 0 ]
  [[ "$(echo "$output" | impl_line EXAMPLE64 ref)" == *":dynamic:$BATS_TEST_TMPDIR/tmpl/example.so:ok:default:"* ]]
  # IDEA's own source, as implementation "v1", encrypts for gpg and
  # decrypts again.  Its "sfcipher.h" is the one beside it.
  # Version 1 had no timing claim: that line goes.
  sed -e 's/\.impl = "ref"/.impl = "v1"/' -e '/\.timing = /d' \
    "$DYN/src/cipher/idea.c" > "$v1/idea-v1.c"
  cc -O2 -shared -fPIC -fvisibility=hidden -DSF_DYNAMIC_MODULE -I"$DYN/src" \
    -o "$v1/idea-v1.so" "$v1/idea-v1.c"
  ext=(--no-auto-modules --load-extension "$v1/idea-v1.so" --batch --passphrase pw)
  head -c 70001 /dev/urandom > "$BATS_TEST_TMPDIR/in"
  "$DSFENC" "${ext[@]}" -c --cipher-algo IDEA --cipher-impl v1 \
    -o "$BATS_TEST_TMPDIR/in.gpg" "$BATS_TEST_TMPDIR/in"
  gpg --batch -q --passphrase pw --pinentry-mode loopback -d "$BATS_TEST_TMPDIR/in.gpg" > "$BATS_TEST_TMPDIR/out"
  cmp "$BATS_TEST_TMPDIR/in" "$BATS_TEST_TMPDIR/out"
  "$DSFENC" "${ext[@]}" -d --cipher-impl v1 -o "$BATS_TEST_TMPDIR/back" "$BATS_TEST_TMPDIR/in.gpg"
  cmp "$BATS_TEST_TMPDIR/in" "$BATS_TEST_TMPDIR/back"
}

@test "modules: modules built for ABI version 2 still load, and encrypt" {
  # tests/sfcipher-v2.h is the header as it was at version 2, frozen:
  # it has the stitched CFB + SHA-1 entry and the timing claim, not
  # the OCB entry of version 3.
  v2="$BATS_TEST_TMPDIR/v2"
  mkdir "$v2"
  cp "$top_srcdir/tests/sfcipher-v2.h" "$v2/sfcipher.h"
  [ "$(sed -n 's/^#define SF_ABI_VERSION //p' "$v2/sfcipher.h")" = 2 ]
  [ "$(sed -n 's/^#define SF_ABI_VERSION //p' "$STAGE/usr/local/include/sfcipher.h")" -gt 2 ]
  grep -q "sf_ocb" "$v2/sfcipher.h" && return 1
  cp -r "$DYN/module-template" "$BATS_TEST_TMPDIR/tmpl2"
  make -s -C "$BATS_TEST_TMPDIR/tmpl2" clean
  make -s -C "$BATS_TEST_TMPDIR/tmpl2" all SFCIPHER_CFLAGS=-I"$v2"
  run "$DSFENC" --no-auto-modules --load-extension "$BATS_TEST_TMPDIR/tmpl2/example.so" --list-ciphers --with-colons
  echo "$output"
  [ "$status" -eq 0 ]
  [[ "$(echo "$output" | impl_line EXAMPLE64 ref)" == *":dynamic:$BATS_TEST_TMPDIR/tmpl2/example.so:ok:default:"* ]]
  # Twofish's own source, as implementation "v2", with its timing
  # claim and its stitched CFB + SHA-1 entry, encrypts for gpg and
  # decrypts again.
  sed -e 's/\.impl = "ref"/.impl = "v2"/' \
    "$DYN/src/cipher/twofish.c" > "$v2/twofish-v2.c"
  cc -O2 -shared -fPIC -fvisibility=hidden -DSF_DYNAMIC_MODULE -I"$DYN/src" \
    -I"$DYN/src/cipher" -o "$v2/twofish-v2.so" "$v2/twofish-v2.c"
  ext=(--no-auto-modules --load-extension "$v2/twofish-v2.so" --batch --passphrase pw)
  run "$DSFENC" "${ext[@]}" --list-ciphers --with-colons
  [[ "$(echo "$output" | impl_line TWOFISH v2)" == *":dynamic:$v2/twofish-v2.so:ok:"*":tables:"* ]]
  head -c 70001 /dev/urandom > "$BATS_TEST_TMPDIR/in"
  run "$DSFENC" "${ext[@]}" -v -c --cipher-algo TWOFISH --cipher-impl v2 \
    -o "$BATS_TEST_TMPDIR/in.gpg" "$BATS_TEST_TMPDIR/in"
  [ "$status" -eq 0 ]
  if grep -qw sha_ni /proc/cpuinfo; then
    [[ "$output" == *"MDC: SHA-1 (shani, stitched with v2)"* ]]
  else
    echo "# no SHA instructions here: the stitched path of the v2 module is not run" >&3
  fi
  gpg --batch -q --passphrase pw --pinentry-mode loopback -d "$BATS_TEST_TMPDIR/in.gpg" > "$BATS_TEST_TMPDIR/out"
  cmp "$BATS_TEST_TMPDIR/in" "$BATS_TEST_TMPDIR/out"
  "$DSFENC" "${ext[@]}" -d --cipher-impl v2 -o "$BATS_TEST_TMPDIR/back" "$BATS_TEST_TMPDIR/in.gpg"
  cmp "$BATS_TEST_TMPDIR/in" "$BATS_TEST_TMPDIR/back"
}

@test "modules: refuses a module whose self-test fails" {
  cp -r "$DYN/module-template" "$BATS_TEST_TMPDIR/bad"
  sed -i 's/"B7BE650297A6B1EB"/"B7BE650297A6B1EA"/' "$BATS_TEST_TMPDIR/bad/example.c"
  make -s -C "$BATS_TEST_TMPDIR/bad" clean
  make -s -C "$BATS_TEST_TMPDIR/bad" all SFCIPHER_CFLAGS=-I"$STAGE/usr/local/include"
  refused "$BATS_TEST_TMPDIR/bad/example.so" "EXAMPLE64 (ref): self-test failed: known answer 1"
}

# build_template DIR SED -- the template, edited by the sed script SED,
# built in DIR against the staged header.
build_template () {
  cp -r "$DYN/module-template" "$1"
  sed -i "$2" "$1/example.c"
  make -s -C "$1" clean
  make -s -C "$1" all SFCIPHER_CFLAGS=-I"$STAGE/usr/local/include"
}

@test "modules: refuses a module whose contextsize is too small, without corrupting the heap" {
  # The template's context is 16 round keys, 64 bytes; it says 4.
  build_template "$BATS_TEST_TMPDIR/small" 's/\.contextsize = sizeof (example_ctx_t)/.contextsize = 4/'
  grep -q '\.contextsize = 4,' "$BATS_TEST_TMPDIR/small/example.c"
  refused "$BATS_TEST_TMPDIR/small/example.so" \
    "EXAMPLE64 (ref): self-test failed: contextsize 4 is too small: the self-test wrote 60 bytes past it"
}

# --- the module author's checks -------------------------------------------

@test "modules: the test programs run by hand from anywhere, without srcdir" {
  cd "$BATS_TEST_TMPDIR"
  run env -u srcdir "$top_builddir/tests/t-aead"
  [ "$status" -eq 0 ]
  [[ "$output" == *" 0 failed"* ]]
  run env -u srcdir "$top_builddir/tests/t-kat" "$CAMELLIA_SO"
  [ "$status" -eq 0 ]
  [[ "$output" == *"camellia.txt: 24 vectors"* ]]
}

@test "modules: make check-module runs KAT, diff, modes, AEAD and timing checks on a module file" {
  if [ -n "${SFENC_SANITIZER:-}" ]; then
    # Its timing check runs ct-probe under valgrind, which cannot run
    # a program built with a sanitizer.
    skip "NOT TESTED under the $SFENC_SANITIZER sanitizer: check-module's timing check needs valgrind"
  fi
  build_template "$BATS_TEST_TMPDIR/pid" 's/\.openpgp_id = 0/.openpgp_id = 100/'
  # The template's own known answers, in the vector file format.
  cat > "$BATS_TEST_TMPDIR/example.txt" <<'V'
# Algorithm: EXAMPLE64
KEY=00000000000000000000000000000000 PT=0000000000000000 CT=B7BE650297A6B1EB
KEY=000102030405060708090A0B0C0D0E0F PT=0123456789ABCDEF CT=B6943DA46CF27CDC
V
  run make -s -C "$top_builddir/tests" check-module MODULE="$BATS_TEST_TMPDIR/pid/example.so" \
    VECTORS="$BATS_TEST_TMPDIR/example.txt"
  echo "$output"
  [ "$status" -eq 0 ]
  [[ "$output" == *"t-kat: example.txt: 2 vectors"* ]]
  [[ "$output" == *"t-kat: EXAMPLE64 (ref): 2 vectors"* ]]
  [[ "$output" == *"t-diff: EXAMPLE64 (ref): NOT TESTED: libgcrypt has no EXAMPLE64"* ]]
  [[ "$output" == *"t-modes: EXAMPLE64 (ref): OpenPGP CFB against RFC 4880 alone"* ]]
  [[ "$output" == *"t-aead: EXAMPLE64 (ref): NOT TESTED: AEAD needs a 128-bit block"* ]]
  [[ "$output" == *"EXAMPLE64 ref unknown key="* ]]
  [[ "$output" == *"ctgrind: 4 passed, 0 failed"* ]]
  # Without its vectors the module meets none, and the check fails.
  run make -s -C "$top_builddir/tests" check-module MODULE="$BATS_TEST_TMPDIR/pid/example.so"
  [ "$status" -ne 0 ]
  [[ "$output" == *"EXAMPLE64 (ref) met no vector"* ]]
  # A wrong answer in the file is caught.
  sed -i 's/B6943DA46CF27CDC/B6943DA46CF27CDD/' "$BATS_TEST_TMPDIR/example.txt"
  run "$top_builddir/tests/t-kat" "$BATS_TEST_TMPDIR/pid/example.so" "$BATS_TEST_TMPDIR/example.txt"
  [ "$status" -ne 0 ]
  [[ "$output" == *"example.txt:3: EXAMPLE64 (ref) ECB encrypt"* ]]
}

# --- a new cipher from the template alone, as doc/modules.md walks it ------

# The template's known answers (example.c), in the vector file format,
# for the algorithm NAME.
template_vectors () {
  cat <<V
# Algorithm: $1
KEY=00000000000000000000000000000000 PT=0000000000000000 CT=B7BE650297A6B1EB
KEY=000102030405060708090A0B0C0D0E0F PT=0123456789ABCDEF CT=B6943DA46CF27CDC
KEY=FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF PT=FFFFFFFFFFFFFFFF CT=F8E154E6A5812EFC
V
}

@test "modules: newcomer, out of tree: the template becomes a cipher that goes through the pipe, the benchmarks and the checks" {
  # "A dynamic module (out of tree)", step by step.
  my="$BATS_TEST_TMPDIR/mycipher"
  cp -r "$top_srcdir/tools/module-template" "$my"
  chmod -R u+w "$my"
  mv "$my/example.c" "$my/mycipher.c"
  sed -i -e 's/example/mycipher/g' -e 's/EXAMPLE/MYCIPHER/g' \
    -e 's/\.openpgp_id = 0/.openpgp_id = 105/' "$my/mycipher.c"
  PKG_CONFIG_PATH="$STAGE/usr/local/lib/pkgconfig" PKG_CONFIG_SYSROOT_DIR="$STAGE" \
    make -s -C "$my" MODULE=mycipher
  template_vectors MYCIPHER64 > "$my/mycipher.txt"
  ext=(--no-auto-modules --load-extension "$my/mycipher.so")
  run "$DSFENC" "${ext[@]}" --list-ciphers --with-colons
  [[ "$(echo "$output" | impl_line MYCIPHER64 ref)" == "cipher:MYCIPHER64::105:64:128:ref:dynamic:$my/mycipher.so:ok:default:"* ]]
  # The pipe the project measures ciphers with.
  run bash -c 'dd if=/dev/zero bs=1M count=4 2>/dev/null | "$0" "$@" --batch --passphrase pw -c --cipher-algo MYCIPHER64 > "'"$my"'/z.gpg"' \
    "$DSFENC" "${ext[@]}"
  [ "$status" -eq 0 ]
  [[ "$output" == "sfenc: warning: MYCIPHER64 has the private OpenPGP id 105:"* ]]
  [ "$("$DSFENC" "${ext[@]}" -q --batch --passphrase pw -d "$my/z.gpg" | wc -c)" -eq 4194304 ]
  # cipherbench: the module's rows; libgcrypt and OpenSSL have no such
  # toy cipher, which the table shows as n/a.
  run "$top_builddir/tools/cipherbench" "${ext[@]}" --algo mycipher64 --runs 1 --seconds 0.005
  echo "$output"
  [ "$status" -eq 0 ]
  echo "$output" | grep -Eq "^MYCIPHER64 +128 +ref +cfb-enc +16384 +[0-9.]+ .* n/a +n/a\$"
  # sfbench, through sfenc's module directory.
  mkdir "$my/mods"
  cp "$my/mycipher.so" "$my/mods/"
  SFENC_MODULE_DIR="$my/mods" run "$top_builddir/tools/sfbench" --sfenc "$DSFENC" \
    --size 1 --runs 1 --algo MYCIPHER64 --no-rnp --no-decrypt
  echo "$output"
  [ "$status" -eq 0 ]
  echo "$output" | grep -Eq "^MYCIPHER64 +128 +ref +enc +[0-9.]+ "
  # The author's checks; their timing check runs ct-probe under
  # valgrind, which cannot run a program built with a sanitizer.
  if [ -n "${SFENC_SANITIZER:-}" ]; then
    skip "NOT TESTED under the $SFENC_SANITIZER sanitizer: check-module (valgrind); the pipe and the benchmarks were"
  fi
  run make -s -C "$top_builddir/tests" check-module MODULE="$my/mycipher.so" VECTORS="$my/mycipher.txt"
  echo "$output"
  [ "$status" -eq 0 ]
  [[ "$output" == *"t-kat: MYCIPHER64 (ref): 3 vectors"* ]]
  [[ "$output" == *"ctgrind: 4 passed, 0 failed"* ]]
}

@test "modules: the template's make install refuses without a module directory, and installs into MODULEDIR" {
  # Built against the staged header with no sfcipher.pc to ask, the
  # module directory is empty: install must not write into DESTDIR's root.
  my="$BATS_TEST_TMPDIR/inst"
  cp -r "$top_srcdir/tools/module-template" "$my"
  chmod -R u+w "$my"
  mk=(make -s -C "$my" PKG_CONFIG=false SFCIPHER_CFLAGS=-I"$STAGE/usr/local/include")
  "${mk[@]}"
  run "${mk[@]}" install DESTDIR="$my/root"
  [ "$status" -eq 2 ]
  [[ "$output" == *"make install: no module directory: pkg-config has no sfcipher; give MODULEDIR=DIR"* ]]
  [ ! -e "$my/root" ]
  "${mk[@]}" install DESTDIR="$my/root" MODULEDIR=/mods
  [ -f "$my/root/mods/example.so" ]
  [ "$(find "$my/root" -type f | wc -l)" -eq 1 ]
}

@test "modules: newcomer, in tree: the template built in by the documented steps passes the tests" {
  # "A static module (built into sfenc)", step by step, in a copy of
  # the tree.
  tree="$BATS_TEST_TMPDIR/tree"
  make -s -C "$top_builddir" distdir distdir="$(realpath --relative-to="$top_builddir" "$tree")" >/dev/null
  # 1. the file, with a private id;
  sed -e 's/example/mycipher/g' -e 's/EXAMPLE/MYCIPHER/g' -e 's/\.openpgp_id = 0/.openpgp_id = 101/' \
    "$tree/tools/module-template/example.c" > "$tree/cipher/mycipher.c"
  # 2. the list in configure.ac;
  sed -i 's/^  \[\(blowfish .*\)\])$/  [\1 mycipher])/' "$tree/configure.ac"
  grep -q ' mycipher])$' "$tree/configure.ac"
  # 3. cipher/Makefile.am;
  sed -i -e 's/^\(EXTRA_libsfcipher_la_SOURCES = .*\)$/\1 mycipher.c/' \
    -e 's/^\(EXTRA_LTLIBRARIES = .*\)$/\1 mycipher.la/' "$tree/cipher/Makefile.am"
  printf '%s\n' 'mycipher_la_SOURCES = mycipher.c' 'mycipher_la_CPPFLAGS = $(module_cppflags)' \
    'mycipher_la_CFLAGS = $(module_cflags)' 'mycipher_la_LDFLAGS = $(module_ldflags)' \
    >> "$tree/cipher/Makefile.am"
  # 4. the vectors (5: the template has no constant table).
  template_vectors MYCIPHER64 > "$tree/tests/vectors/mycipher.txt"
  (cd "$tree" && ./autogen.sh && ./configure -q --enable-werror && make -s -j2) \
    > "$BATS_TEST_TMPDIR/build.log" 2>&1 || { tail -30 "$BATS_TEST_TMPDIR/build.log"; false; }
  "$tree/configure" --help | tr -s ' \n' ' ' | grep -q 'rijndael-ct twofish mycipher)'
  run "$tree/g10/sfenc" --no-auto-modules --list-ciphers --with-colons
  [[ "$(echo "$output" | impl_line MYCIPHER64 ref)" == "cipher:MYCIPHER64::101:64:128:ref:static::ok:default:"* ]]
  run bash -c 'dd if=/dev/zero bs=1M count=2 2>/dev/null | "$0" --no-auto-modules -q --batch --passphrase pw -c --cipher-algo MYCIPHER64 | "$0" --no-auto-modules -q --batch --passphrase pw -d | wc -c' \
    "$tree/g10/sfenc"
  [ "$status" -eq 0 ]
  [ "$output" -eq 2097152 ]
  # The tests that walk the table, and the one that round-trips every
  # entry through the pipe.
  # (No module directory: the staged one's Twofish would clash.)
  SFENC_MODULE_DIR="$BATS_TEST_TMPDIR/none" \
    run make -s -C "$tree/tests" check TESTS="t-kat t-modes t-diff t-table sfenc-options.bats"
  echo "$output"
  [ "$status" -eq 0 ] || cat "$tree/tests/sfenc-options.log"
  [ "$status" -eq 0 ]
  grep -q "MYCIPHER64 (ref): 3 vectors" "$tree/tests/t-kat.log"
}

# --- a cipher OpenPGP has no id for: a private id, 100-110 ---------------

@test "modules: a cipher with a private OpenPGP id goes through the pipe, and only sfenc reads it" {
  build_template "$BATS_TEST_TMPDIR/pid" 's/\.openpgp_id = 0/.openpgp_id = 100/'
  ext=(--no-auto-modules --load-extension "$BATS_TEST_TMPDIR/pid/example.so" --batch --passphrase pw)
  warning="sfenc: warning: EXAMPLE64 has the private OpenPGP id 100: only sfenc with the module $BATS_TEST_TMPDIR/pid/example.so reads this message, and gpg does not"
  # The pipe the benchmarks measure.
  run bash -c 'dd if=/dev/zero bs=1M count=2 2>/dev/null | "$0" "$@" -c --cipher-algo EXAMPLE64 > /dev/null' \
    "$DSFENC" "${ext[@]}"
  [ "$status" -eq 0 ]
  [ "$output" = "$warning" ]
  head -c 100000 /dev/urandom > "$BATS_TEST_TMPDIR/in"
  run "$DSFENC" "${ext[@]}" -c --cipher-algo EXAMPLE64 -o "$BATS_TEST_TMPDIR/in.gpg" "$BATS_TEST_TMPDIR/in"
  [ "$status" -eq 0 ]
  [ "$output" = "$warning" ]
  run "$DSFENC" "${ext[@]}" -q -c --cipher-algo EXAMPLE64 -o "$BATS_TEST_TMPDIR/q.gpg" "$BATS_TEST_TMPDIR/in"
  [ "$status" -eq 0 ]
  [ -z "$output" ]
  # The id is in the message (the SKESK's cipher octet; gpg prints it),
  # and sfenc with the module reads it back.
  run gpg --list-packets "$BATS_TEST_TMPDIR/in.gpg"
  [[ "$output" == *"symkey enc packet: version 4, cipher 100,"* ]]
  run "$DSFENC" "${ext[@]}" -d -o "$BATS_TEST_TMPDIR/out" "$BATS_TEST_TMPDIR/in.gpg"
  [ "$status" -eq 0 ]
  cmp "$BATS_TEST_TMPDIR/in" "$BATS_TEST_TMPDIR/out"
  # gpg refuses it as it refuses any algorithm it does not know.
  run gpg --batch --passphrase pw --pinentry-mode loopback -d "$BATS_TEST_TMPDIR/in.gpg"
  [ "$status" -ne 0 ]
  [[ "$output" == *"unknown algorithm 100"* ]]
  # Without the module, sfenc cannot either.
  run "$DSFENC" --no-auto-modules --batch -q --passphrase pw -d "$BATS_TEST_TMPDIR/in.gpg"
  [ "$status" -eq 2 ]
  [ "$output" = "sfenc: decryption failed: unknown cipher algorithm 100" ]
}

@test "modules: a 128-bit cipher with a private id goes through OCB, EAX and GCM" {
  # Camellia, renamed and given ids 101-103 as a cipher OpenPGP lacked would be.
  sed -e 's/"CAMELLIA\([0-9]*\)"/"MYCAM\1"/g' -e 's/"CAMELLIA"/"MYCAM"/' \
    -e 's/, 11, 16,/, 101, 16,/' -e 's/, 12, 24,/, 102, 24,/' -e 's/, 13, 32,/, 103, 32,/' \
    "$DYN/camellia-module/camellia.c" > "$BATS_TEST_TMPDIR/mycam.c"
  cc -O2 -shared -fPIC -fvisibility=hidden -DSF_DYNAMIC_MODULE -I"$STAGE/usr/local/include" \
    -o "$BATS_TEST_TMPDIR/mycam.so" "$BATS_TEST_TMPDIR/mycam.c"
  ext=(--no-auto-modules --load-extension "$BATS_TEST_TMPDIR/mycam.so" --batch --passphrase pw)
  run "$DSFENC" "${ext[@]}" --list-ciphers --with-colons
  [[ "$(echo "$output" | impl_line MYCAM256 ref)" == "cipher:MYCAM256:"*":103:128:256:ref:dynamic:"* ]]
  head -c 100000 /dev/urandom > "$BATS_TEST_TMPDIR/in"
  for mode in OCB EAX GCM; do
    run "$DSFENC" "${ext[@]}" -c --cipher-algo MYCAM256 --aead-algo $mode \
      -o "$BATS_TEST_TMPDIR/$mode.gpg" "$BATS_TEST_TMPDIR/in"
    [ "$status" -eq 0 ]
    [[ "$output" == "sfenc: warning: MYCAM256 has the private OpenPGP id 103: only sfenc with the module"* ]]
    "$DSFENC" "${ext[@]}" -q -d -o "$BATS_TEST_TMPDIR/$mode.out" "$BATS_TEST_TMPDIR/$mode.gpg"
    cmp "$BATS_TEST_TMPDIR/in" "$BATS_TEST_TMPDIR/$mode.out"
  done
}

@test "modules: another cipher under the same private id reads nothing" {
  build_template "$BATS_TEST_TMPDIR/pid" 's/\.openpgp_id = 0/.openpgp_id = 100/'
  build_identity_so "$BATS_TEST_TMPDIR/sm4.so" SM4 100 16
  head -c 10000 /dev/urandom > "$BATS_TEST_TMPDIR/in"
  "$DSFENC" --no-auto-modules --load-extension "$BATS_TEST_TMPDIR/pid/example.so" --batch --passphrase pw \
    -q -c --cipher-algo EXAMPLE64 -o "$BATS_TEST_TMPDIR/in.gpg" "$BATS_TEST_TMPDIR/in"
  # Another sfenc, whose id 100 is SM4: refused, and nothing written.
  run "$DSFENC" --no-auto-modules --load-extension "$BATS_TEST_TMPDIR/sm4.so" --batch --passphrase pw \
    -q -d -o "$BATS_TEST_TMPDIR/out" "$BATS_TEST_TMPDIR/in.gpg"
  [ "$status" -eq 2 ]
  [ "$output" = "sfenc: decryption failed: wrong passphrase (Bad session key), or the message's private cipher id 100 is not SM4" ]
  [ ! -e "$BATS_TEST_TMPDIR/out" ]
  # In one sfenc a private id is one cipher.
  run "$DSFENC" --no-auto-modules --load-extension "$BATS_TEST_TMPDIR/pid/example.so" \
    --load-extension "$BATS_TEST_TMPDIR/sm4.so" --list-ciphers
  [ "$status" -eq 2 ]
  [ "${#lines[@]}" -eq 1 ]
  [ "${lines[0]}" = "sfenc: $BATS_TEST_TMPDIR/sm4.so: SM4 (identity): private OpenPGP id 100 already belongs to EXAMPLE64 from $BATS_TEST_TMPDIR/pid/example.so" ]
}

@test "modules: a cipher without an OpenPGP id is refused by the pipe with what to do" {
  run "$DSFENC" --no-auto-modules --load-extension "$EXAMPLE_SO" --batch --passphrase pw \
    -c --cipher-algo EXAMPLE64 -o "$BATS_TEST_TMPDIR/x.gpg" /dev/null
  [ "$status" -eq 2 ]
  [ "$output" = "sfenc: --cipher-algo: EXAMPLE64 has no OpenPGP algorithm id, so no OpenPGP message can use it (its module can give it a private one, 100-110: see doc/modules.md)" ]
}

@test "modules: sfbench measures a cipher with a private id" {
  mkdir "$BATS_TEST_TMPDIR/mods"
  build_template "$BATS_TEST_TMPDIR/pid" 's/\.openpgp_id = 0/.openpgp_id = 100/'
  cp "$BATS_TEST_TMPDIR/pid/example.so" "$BATS_TEST_TMPDIR/mods/"
  SFENC_MODULE_DIR="$BATS_TEST_TMPDIR/mods" run "$top_builddir/tools/sfbench" --sfenc "$DSFENC" \
    --size 1 --runs 1 --algo example64 --no-rnp
  echo "$output"
  [ "$status" -eq 0 ]
  echo "$output" | grep -q "^# gpg: .*n/a for EXAMPLE64"
  echo "$output" | grep -q "^# openssl: .*n/a for EXAMPLE64 (openssl has no EXAMPLE64)"
  echo "$output" | grep -Eq "^EXAMPLE64 +128 +ref +enc +[0-9.]+ "
  echo "$output" | grep -Eq "^EXAMPLE64 +128 +ref +dec +[0-9.]+ "
}

@test "modules: refuses a duplicate algorithm and implementation" {
  mkdir "$BATS_TEST_TMPDIR/copy"
  cp "$MODDIR/twofish.so" "$BATS_TEST_TMPDIR/copy/"
  run "$DSFENC" --no-auto-modules --load-extension twofish --load-extension "$BATS_TEST_TMPDIR/copy/twofish.so" --list-ciphers
  [ "$status" -eq 2 ]
  [ "${#lines[@]}" -eq 1 ]
  [[ "${lines[0]}" == "sfenc: $BATS_TEST_TMPDIR/copy/twofish.so: TWOFISH implementation 'ref' is already registered by $MODDIR/twofish.so" ]]
}

@test "modules: a module named twice is loaded once" {
  ln -s "$MODDIR/twofish.so" "$BATS_TEST_TMPDIR/link.so"
  run "$DSFENC" --no-auto-modules --load-extension twofish --load-extension "$MODDIR/twofish.so" \
    --load-extension "$BATS_TEST_TMPDIR/link.so" --list-ciphers --with-colons
  echo "$output"
  [ "$status" -eq 0 ]
  [ "$(echo "$output" | impl_line TWOFISH ref | wc -l)" -eq 1 ]
  [[ "$output" != *sfenc:* ]]
}

@test "modules: --load-extension comes before the module directory" {
  # The same module from elsewhere, named on the command line, is
  # registered first; the directory's copy is then the duplicate.
  mkdir "$BATS_TEST_TMPDIR/copy"
  cp "$MODDIR/twofish.so" "$BATS_TEST_TMPDIR/copy/"
  run "$DSFENC" --load-extension "$BATS_TEST_TMPDIR/copy/twofish.so" --list-ciphers --with-colons
  [ "$status" -eq 0 ]
  [[ "$(echo "$output" | impl_line TWOFISH ref)" == *":dynamic:$BATS_TEST_TMPDIR/copy/twofish.so:"* ]]
  [[ "$output" == *"sfenc: $MODDIR/twofish.so: TWOFISH implementation 'ref' is already registered by $BATS_TEST_TMPDIR/copy/twofish.so"* ]]
}

@test "modules: an alias that clashes is named as the alias" {
  build_template "$BATS_TEST_TMPDIR/alias" \
    's/\.aliases = NULL/.aliases = (const char *const []) { "MY64", "AES", NULL }/'
  refused "$BATS_TEST_TMPDIR/alias/example.so" \
    "EXAMPLE64 (ref): alias 'AES' already names AES implementation 'ref' (built in)"
}

@test "modules: a spec without .abi_version is told the field is missing" {
  build_template "$BATS_TEST_TMPDIR/noabi" '/\.abi_version = SF_ABI_VERSION,/d'
  ! grep -q abi_version "$BATS_TEST_TMPDIR/noabi/example.c"
  refused "$BATS_TEST_TMPDIR/noabi/example.so" \
    "module ABI version 0: is '.abi_version = SF_ABI_VERSION' missing from a spec? (this program supports 1 to 3)"
}

@test "modules: configure --help lists every built-in module file" {
  # The modules are the files of cipher/ that end in SF_MODULE, but for
  # the libgcrypt provider, which is always built in.
  want=$(grep -l '^SF_MODULE (' "$top_srcdir"/cipher/*.c | xargs -n1 basename \
         | sed 's/\.c$//' | grep -vx gcrypt-provider | sort | tr '\n' ' ')
  got=$("$top_srcdir/configure" --help | sed -n '/--enable-ciphers=/,/--enable-dynamic-ciphers/p' \
        | tr -s ' \n' ' ' | sed 's/.*default: all of: \([^)]*\)).*/\1/' | tr ' ' '\n' | sort | tr '\n' ' ')
  echo "want: $want"
  echo "got:  $got"
  [ -n "$want" ]
  [ "$got" = "$want" ]
}

@test "modules: a refused file in the module directory does not stop sfenc" {
  mkdir -p "$BATS_TEST_TMPDIR/mods"
  cp "$MODDIR/twofish.so" "$BATS_TEST_TMPDIR/mods/"
  echo junk > "$BATS_TEST_TMPDIR/mods/broken.so"
  SFENC_MODULE_DIR="$BATS_TEST_TMPDIR/mods" run "$DSFENC" --list-ciphers --with-colons
  [ "$status" -eq 0 ]
  [[ "$output" == *"sfenc: $BATS_TEST_TMPDIR/mods/broken.so: not a loadable shared object"* ]]
  [ -n "$(echo "$output" | impl_line TWOFISH ref)" ]
}

@test "modules: a new implementation of a known algorithm is selectable" {
  # Twofish's own source, renamed to implementation "alt", built as a
  # module and loaded beside the built-in Twofish of the main build.
  sed 's/\.impl = "ref"/.impl = "alt"/' "$DYN/src/cipher/twofish.c" > "$BATS_TEST_TMPDIR/twofish-alt.c"
  cc -O2 -shared -fPIC -fvisibility=hidden -DSF_DYNAMIC_MODULE -I"$DYN/src" -I"$DYN/src/cipher" \
    -o "$BATS_TEST_TMPDIR/twofish-alt.so" "$BATS_TEST_TMPDIR/twofish-alt.c"
  run "$SFENC" --no-auto-modules --load-extension "$BATS_TEST_TMPDIR/twofish-alt.so" --list-ciphers --with-colons
  [ "$status" -eq 0 ]
  [[ "$(echo "$output" | impl_line TWOFISH alt)" == *":dynamic:$BATS_TEST_TMPDIR/twofish-alt.so:ok:usable:"* ]]
  [[ "$(echo "$output" | impl_line TWOFISH ref)" == *":static::ok:default:"* ]]
  head -c 5000 /dev/urandom > "$BATS_TEST_TMPDIR/p"
  "$SFENC" --no-auto-modules --load-extension "$BATS_TEST_TMPDIR/twofish-alt.so" --batch --passphrase pw \
    -c --cipher-algo TWOFISH --cipher-impl alt -o "$BATS_TEST_TMPDIR/p.gpg" "$BATS_TEST_TMPDIR/p"
  gpg --batch -q --passphrase pw --pinentry-mode loopback -d "$BATS_TEST_TMPDIR/p.gpg" > "$BATS_TEST_TMPDIR/q"
  cmp "$BATS_TEST_TMPDIR/p" "$BATS_TEST_TMPDIR/q"
}


@test "modules: sfenc notes once when a loaded module, not a built-in, does the work" {
  head -c 3000 /dev/urandom > "$BATS_TEST_TMPDIR/in"
  # TWOFISH's built-in implementation in this build is libgcrypt's; the
  # module's 'ref' outranks it.
  run "$DSFENC" --batch --passphrase pw -c --cipher-algo TWOFISH \
    -o "$BATS_TEST_TMPDIR/in.gpg" "$BATS_TEST_TMPDIR/in"
  [ "$status" -eq 0 ]
  [ "$output" = "sfenc: note: using TWOFISH implementation 'ref' from $MODDIR/twofish.so instead of the built-in 'gcrypt'" ]
  run "$DSFENC" --batch --passphrase pw -d -o "$BATS_TEST_TMPDIR/out" "$BATS_TEST_TMPDIR/in.gpg"
  [ "$status" -eq 0 ]
  # After gpg's log lines (tests/sfenc-gpglog.bats).
  [ "$output" = "gpg: TWOFISH.CFB encrypted data
gpg: encrypted with 1 passphrase
sfenc: note: using TWOFISH implementation 'ref' from $MODDIR/twofish.so instead of the built-in 'gcrypt'" ]
  cmp "$BATS_TEST_TMPDIR/in" "$BATS_TEST_TMPDIR/out"
  run "$DSFENC" -q --yes --batch --passphrase pw -d -o "$BATS_TEST_TMPDIR/out" "$BATS_TEST_TMPDIR/in.gpg"
  [ "$status" -eq 0 ]
  [ -z "$output" ]
  # A built-in implementation gets no note.
  run "$DSFENC" --batch --passphrase pw -c --cipher-algo TWOFISH --cipher-impl gcrypt \
    -o "$BATS_TEST_TMPDIR/gc.gpg" "$BATS_TEST_TMPDIR/in"
  [ "$status" -eq 0 ]
  [ -z "$output" ]
}

# --- what is checked before a module runs any code ------------------------

# build_identity_so SO [NAME ID KEYLEN] -- a module claiming NAME
# (AES256 by default) with OpenPGP id ID (9) and a KEYLEN-byte key (32),
# whose "cipher" copies its input, with known answers that agree with it.
build_identity_so () {
  cat > "$BATS_TEST_TMPDIR/identity.c" <<'C'
#include <string.h>
#include <sfcipher.h>

static gpg_error_t
identity_setkey (void *ctx, const unsigned char *key, size_t keylen)
{
  (void) ctx;
  (void) key;
  return keylen == 16 || keylen == 24 || keylen == 32 ? 0 : GPG_ERR_INV_KEYLEN;
}

static void
identity_crypt (const void *ctx, unsigned char *out, const unsigned char *in)
{
  (void) ctx;
  memmove (out, in, 16);
}

static const sf_kat_t identity_kats[] =
  { { "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
      "00112233445566778899aabbccddeeff",
      "00112233445566778899aabbccddeeff" } };
#ifdef ALIAS
static const char *const identity_aliases[] = { ALIAS, NULL };
#else
static const char *const *const identity_aliases = NULL;
#endif

static const sf_cipher_spec_t identity =
  {
    .abi_version = SF_ABI_VERSION,
    .name = NAME, .aliases = identity_aliases, .openpgp_id = ID,
    .blocksize = 16, .keylen = KEYLEN, .contextsize = 1,
    .impl = "identity", .priority = SF_PRIO_ACCEL,
    .setkey = identity_setkey,
    .encrypt = identity_crypt, .decrypt = identity_crypt,
    .kats = identity_kats, .n_kats = 1
  };

SF_MODULE (identity, &identity);
C
  local alias=()
  [ "${2:-AES256}" != AES256 ] || alias=(-DALIAS='"RIJNDAEL256"')
  cc -shared -fPIC -fvisibility=hidden -DSF_DYNAMIC_MODULE -I"$STAGE/usr/local/include" \
    -DNAME="\"${2:-AES256}\"" -DID="${3:-9}" -DKEYLEN="${4:-32}" "${alias[@]}" \
    -o "$1" "$BATS_TEST_TMPDIR/identity.c"
}

# build_marker_so SO MARKER -- a shared object that is no sfenc module;
# its constructor creates the file MARKER, so a test sees whether
# anything in it ran.
build_marker_so () {
  cat > "$BATS_TEST_TMPDIR/marker.c" <<C
#include <stdio.h>

__attribute__ ((constructor)) static void
mark (void)
{
  FILE *f = fopen ("$2", "w");

  if (f)
    fclose (f);
}
C
  cc -shared -fPIC -o "$1" "$BATS_TEST_TMPDIR/marker.c"
}

@test "modules: refuses a module whose AES256 is the identity, though it meets its own answers" {
  build_identity_so "$BATS_TEST_TMPDIR/identity.so"
  refused "$BATS_TEST_TMPDIR/identity.so" \
    "AES256 (identity): claims AES256 (OpenPGP id 9) but fails the table's known answers for it"
}

@test "modules: refuses a module claiming Camellia's OpenPGP id without Camellia's answers" {
  # No built-in Camellia: the claim is checked against libgcrypt's.
  build_identity_so "$BATS_TEST_TMPDIR/sm4.so" SM4 11 16
  refused "$BATS_TEST_TMPDIR/sm4.so" \
    "SM4 (identity): claims CAMELLIA128 (OpenPGP id 11) but fails the known answers of libgcrypt's CAMELLIA128: known answer 1: encryption mismatch"
  build_identity_so "$BATS_TEST_TMPDIR/sm4-12.so" SM4 12 16
  refused "$BATS_TEST_TMPDIR/sm4-12.so" \
    "SM4 (identity): claims CAMELLIA192 (OpenPGP id 12) but its block and key are 16 and 16 bytes, not 16 and 24"
}

@test "modules: the real Camellia is accepted under its ids, whatever it calls itself" {
  # The claim is the id: Camellia renamed still meets libgcrypt's answers.
  sed 's/"CAMELLIA\([0-9]*\)"/"MYCAM\1"/g' "$DYN/camellia-module/camellia.c" \
    > "$BATS_TEST_TMPDIR/mycam.c"
  cc -O2 -shared -fPIC -fvisibility=hidden -DSF_DYNAMIC_MODULE -I"$STAGE/usr/local/include" \
    -o "$BATS_TEST_TMPDIR/mycam.so" "$BATS_TEST_TMPDIR/mycam.c"
  run "$DSFENC" --no-auto-modules --load-extension "$BATS_TEST_TMPDIR/mycam.so" --list-ciphers --with-colons
  echo "$output"
  [ "$status" -eq 0 ]
  [[ "$(echo "$output" | impl_line MYCAM128 ref)" == "cipher:MYCAM128:"*":11:128:128:ref:dynamic:"*":ok:default:"* ]]
  [[ "$(echo "$output" | impl_line MYCAM256 ref)" == "cipher:MYCAM256:"*":13:128:256:ref:dynamic:"*":ok:default:"* ]]
}

@test "modules: refuses an OpenPGP id that OpenPGP does not assign" {
  build_identity_so "$BATS_TEST_TMPDIR/id42.so" SM4 42 16
  refused "$BATS_TEST_TMPDIR/id42.so" \
    "SM4 (identity): 42 is not an OpenPGP cipher id (1-4, 7-13, or 100-110 for private use; 0 for none)"
}

@test "modules: with that module in the module directory, sfenc -c still writes real AES256" {
  mkdir "$BATS_TEST_TMPDIR/mods"
  build_identity_so "$BATS_TEST_TMPDIR/mods/identity.so"
  head -c 20000 /dev/urandom > "$BATS_TEST_TMPDIR/in"
  # Without hardware AES its priority would have made it the default.
  SFENC_DISABLE_HWF=all SFENC_MODULE_DIR="$BATS_TEST_TMPDIR/mods" \
    run "$DSFENC" --batch --passphrase pw -z 0 -c -o "$BATS_TEST_TMPDIR/in.gpg" "$BATS_TEST_TMPDIR/in"
  [ "$status" -eq 0 ]
  [ "${#lines[@]}" -eq 1 ]
  [[ "${lines[0]}" == "sfenc: $BATS_TEST_TMPDIR/mods/identity.so: AES256 (identity): claims AES256 (OpenPGP id 9) but fails"* ]]
  gpg --batch --passphrase pw --pinentry-mode loopback -d "$BATS_TEST_TMPDIR/in.gpg" \
    > "$BATS_TEST_TMPDIR/out" 2>"$BATS_TEST_TMPDIR/err"
  grep -q "AES256" "$BATS_TEST_TMPDIR/err"
  cmp "$BATS_TEST_TMPDIR/in" "$BATS_TEST_TMPDIR/out"
}

@test "modules: nothing in a module directory writable by others runs, even for --version" {
  mods="$BATS_TEST_TMPDIR/mods"
  mkdir "$mods"
  cp "$MODDIR/twofish.so" "$mods/"
  build_marker_so "$mods/marker.so" "$BATS_TEST_TMPDIR/ran"
  # From a safe directory, the marker's code runs: loading a file runs it.
  SFENC_MODULE_DIR="$mods" run "$DSFENC" --version
  [ "$status" -eq 0 ]
  [[ "$output" == *"sfenc: $mods/marker.so: not an sfenc cipher module"* ]]
  [ -e "$BATS_TEST_TMPDIR/ran" ]
  for mode in 0777 1777 0775; do
    rm -f "$BATS_TEST_TMPDIR/ran"
    chmod "$mode" "$mods"
    SFENC_MODULE_DIR="$mods" run "$DSFENC" --version
    [ "$status" -eq 0 ]
    [ ! -e "$BATS_TEST_TMPDIR/ran" ]
    [[ "$output" == *"sfenc: $mods: unsafe permissions (mode $mode: writable by group or others); no module loaded from it"* ]]
    [[ "$output" != *"$mods/"* ]]
  done
  SFENC_MODULE_DIR="$mods" run "$DSFENC" --list-ciphers --with-colons
  [ -z "$(echo "$output" | impl_line TWOFISH ref)" ]
}

@test "modules: a module file writable by group or others is not loaded" {
  mods="$BATS_TEST_TMPDIR/mods"
  mkdir "$mods"
  build_marker_so "$mods/marker.so" "$BATS_TEST_TMPDIR/ran"
  for mode in 0666 0775; do
    chmod "$mode" "$mods/marker.so"
    SFENC_MODULE_DIR="$mods" run "$DSFENC" --version
    [ "$status" -eq 0 ]
    [ ! -e "$BATS_TEST_TMPDIR/ran" ]
    [[ "$output" == *"sfenc: $mods/marker.so: unsafe permissions (mode $mode: writable by group or others)"* ]]
  done
}

@test "modules: --load-extension checks the file and its directory, through symbolic links" {
  open="$BATS_TEST_TMPDIR/open"
  mkdir "$open" "$BATS_TEST_TMPDIR/safe"
  build_marker_so "$open/marker.so" "$BATS_TEST_TMPDIR/ran"
  chmod 1777 "$open"
  refused "$open/marker.so" "directory $open: unsafe permissions (mode 1777: writable by group or others)"
  [ ! -e "$BATS_TEST_TMPDIR/ran" ]
  ln -s "$open/marker.so" "$BATS_TEST_TMPDIR/safe/link.so"
  refused "$BATS_TEST_TMPDIR/safe/link.so" "directory $(realpath "$open"): unsafe permissions (mode 1777"
  [ ! -e "$BATS_TEST_TMPDIR/ran" ]
  chmod 0755 "$open"
  chmod 0646 "$open/marker.so"
  refused "$open/marker.so" "unsafe permissions (mode 0646: writable by group or others)"
  [ ! -e "$BATS_TEST_TMPDIR/ran" ]
}

@test "modules: a module or module directory owned by another user is not loaded" {
  [ "$(id -u)" -eq 0 ] || skip "NOT TESTED: needs root to give a file to another user"
  mods="$BATS_TEST_TMPDIR/mods"
  mkdir "$mods"
  build_marker_so "$mods/marker.so" "$BATS_TEST_TMPDIR/ran"
  chown 65534 "$mods/marker.so"
  SFENC_MODULE_DIR="$mods" run "$DSFENC" --version
  [ ! -e "$BATS_TEST_TMPDIR/ran" ]
  [[ "$output" == *"sfenc: $mods/marker.so: unsafe ownership (owned by uid 65534, neither root nor uid 0)"* ]]
  chown 0 "$mods/marker.so"
  chown 65534 "$mods"
  SFENC_MODULE_DIR="$mods" run "$DSFENC" --version
  [ ! -e "$BATS_TEST_TMPDIR/ran" ]
  [[ "$output" == *"sfenc: $mods: unsafe ownership (owned by uid 65534, neither root nor uid 0); no module loaded from it"* ]]
  refused "$mods/marker.so" "directory $mods: unsafe ownership"
  [ ! -e "$BATS_TEST_TMPDIR/ran" ]
}

@test "modules: a process given file capabilities loads no module and ignores SFENC_MODULE_DIR" {
  # AT_SECURE without a change of ids needs a file capability and a
  # user other than root to run it.
  [ "$(id -u)" -eq 0 ] || skip "NOT TESTED: needs root to set file capabilities and to run as another user"
  command -v setcap >/dev/null && command -v setpriv >/dev/null || skip "NOT TESTED: needs setcap and setpriv"
  # Outside the test's private directories, for the other user.
  dir=$(mktemp -d /tmp/sfenc-caps.XXXXXX)
  chmod 755 "$dir"
  mkdir "$dir/mods"
  cp "$MODDIR/twofish.so" "$dir/mods/"
  cp "$DSFENC" "$dir/sfenc-plain"
  cp "$DSFENC" "$dir/sfenc-caps"
  if ! setcap cap_net_bind_service=ep "$dir/sfenc-caps"; then
    rm -rf "$dir"
    skip "NOT TESTED: this file system has no file capabilities"
  fi
  # A home of its own: nobody may not read root's gpg.conf.
  as_nobody () { setpriv --reuid=65534 --regid=65534 --clear-groups env SFENC_MODULE_DIR="$dir/mods" GNUPGHOME="$dir/gnupg" "$@"; }
  # The control: the same program without the capability loads the module.
  run as_nobody "$dir/sfenc-plain" --list-ciphers --with-colons
  plain="$output"
  run as_nobody "$dir/sfenc-caps" --list-ciphers --with-colons
  caps_status=$status caps="$output"
  run as_nobody "$dir/sfenc-caps" --no-auto-modules --load-extension "$dir/mods/twofish.so" --list-ciphers
  rm -rf "$dir"
  [ -n "$(echo "$plain" | impl_line TWOFISH ref)" ]
  [ "$caps_status" -eq 0 ]
  [ -z "$(echo "$caps" | impl_line TWOFISH ref)" ]
  [[ "$caps" != *"$dir/mods"* ]]
  [ "$status" -eq 2 ]
  [[ "$output" == "sfenc: $dir/mods/twofish.so: loading modules is not allowed in a privileged process"* ]]
}
