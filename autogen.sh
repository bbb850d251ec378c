#!/bin/sh
# Generate configure and the Makefile.in files from a git checkout.
# Needs autoconf, automake, libtool and pkg-config (Debian: apt-get
# install autoconf automake libtool pkg-config).
set -e
cd "$(dirname "$0")"
for tool in autoreconf aclocal libtoolize pkg-config; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "autogen.sh: $tool not found: apt-get install autoconf automake libtool pkg-config" >&2
    exit 2
  fi
done
autoreconf --install --force
