#!/bin/sh
# tools/cross-sysroot.sh ARCH DIR - the libraries sfenc needs, for the
# Debian architecture ARCH (arm64, s390x), unpacked into DIR.
#
# Debian 12's -dev packages of libgcrypt, libgpg-error and libisal are
# not co-installable across architectures (each conflicts with its
# other-architecture self), so installing the target's would remove
# the host's.  Instead the target's packages are downloaded and
# unpacked into a directory of their own: the headers, the libraries
# and their pkg-config files for the cross compiler, and, for
# qemu-user (-L DIR), the target's C library and dynamic loader.
# Nothing is installed on the host.  Needs root the first time, to add
# the architecture to dpkg's list for apt-get download.
set -eu

[ $# -eq 2 ] || { echo "usage: $0 ARCH DIR" >&2; exit 2; }
arch=$1
dir=$2

case $arch in
  arm64|s390x) ;;
  *) echo "cross-sysroot: unknown architecture '$arch' (arm64 or s390x)" >&2
     exit 2 ;;
esac

# Runtime and development packages; the C library is the target's own
# loader and libc for running under qemu-user (the cross compiler
# links against its own copy, libc6-dev-ARCH-cross, of the same
# version); the target's valgrind, with the C library's symbols it
# needs, for the constant-time check (tests/ctgrind.sh).
packages="libc6 libgcc-s1 valgrind libc6-dbg
libgcrypt20 libgcrypt20-dev
libgpg-error0 libgpg-error-dev
zlib1g zlib1g-dev
libbz2-1.0 libbz2-dev
libisal2 libisal-dev
libjansson4 libjansson-dev"

stamp=$dir/.sfenc-sysroot
want=$(echo $packages)
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
  exit 0
fi

if ! dpkg --print-foreign-architectures | grep -qx "$arch"; then
  dpkg --add-architecture "$arch"
  apt-get update
fi

debs=$(mktemp -d)
# apt downloads as the user _apt where it can.
chmod 0777 "$debs"
trap 'rm -rf "$debs"' EXIT
(cd "$debs" && apt-get download $(for p in $packages; do echo "$p:$arch"; done))

rm -rf "$dir"
mkdir -p "$dir"
for deb in "$debs"/*.deb; do
  dpkg-deb -x "$deb" "$dir"
done

# The -dev packages' .so links are absolute on some packages; make
# every link inside the tree point into it.
find "$dir" -type l | while read -r link; do
  target=$(readlink "$link")
  case $target in
    /*) ln -sf "$dir$target" "$link" ;;
  esac
done

echo "$want" > "$stamp"
echo "cross-sysroot: $arch libraries in $dir"
