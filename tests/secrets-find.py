#!/usr/bin/env python3
"""secrets-find.py - look for a message's secrets in memory dumps

Usage: secrets-find.py MATERIAL PLAN

Each line of PLAN is a case, "CASE MESSAGE IMPL PASSFILE DUMP...":
the secrets of MESSAGE with the passphrase of PASSFILE, and the key
schedules of implementation IMPL ("-" for the default one), are those
tests/s2k-key.py computes (MATERIAL is tests/key-material), and each
DUMP is a memory dump to check, in one of two ways:

  DUMP            no secret may occur in it;
  DUMP=PATTERNS   each secret whose name matches one of the
                  comma-separated shell patterns must occur in it, and
                  each pattern must match a secret: a control that the
                  search finds what is there.

One line is printed per dump, "CASE DUMP ok DETAILS" or "CASE DUMP
FAIL DETAILS" (DUMP without its directory), and "CASE secrets FAIL
WHY" when the secrets cannot be computed.  A missing dump fails.  The
exit status is 1 if any line says FAIL.
"""
import fnmatch
import importlib.util
import mmap
import os
import sys

PAGE = 4096


def load_s2k_key():
    """tests/s2k-key.py as a module."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                        "s2k-key.py")
    spec = importlib.util.spec_from_file_location("s2k_key", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def compact(data):
    """DATA with each series of pages of zeros (4096-octet blocks at
    multiples of 4096) cut to one: a string shorter than a page that is
    not all zeros occurs as often in one as in the other.  Most of a
    dump can be such pages (a thread's untouched stack and heap), which
    then cost no time."""
    zero_page = bytes(PAGE)
    pages = []
    after_zeros = False
    for offset in range(0, len(data), PAGE):
        page = data[offset:offset + PAGE]
        is_zero = page == zero_page
        if not (is_zero and after_zeros):
            pages.append(page)
        after_zeros = is_zero
    return b"".join(pages)


def check(secrets, dump, patterns):
    """The verdict on DUMP: "ok ..." or "FAIL ..."."""
    if not os.path.exists(dump):
        return "FAIL the dump was not taken"
    with open(dump, "rb") as f, \
            mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as whole:
        data = compact(whole)
    if not patterns:
        found = ["%s x%d" % (s, data.count(v)) for s, v in secrets
                 if v in data]
        if found:
            return "FAIL found: " + ", ".join(found)
        return "ok none of %d secrets" % len(secrets)
    wanted = [(s, v) for s, v in secrets
              if any(fnmatch.fnmatchcase(s, p) for p in patterns)]
    unmatched = ["no secret named " + p for p in patterns
                 if not any(fnmatch.fnmatchcase(s, p) for s, _ in secrets)]
    missing = [s for s, v in wanted if v not in data]
    if unmatched or missing:
        return "FAIL missing: " + ", ".join(missing + unmatched)
    return "ok found all %d: %s" % (len(wanted),
                                     " ".join(s for s, _ in wanted))


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    s2k_key = load_s2k_key()
    computed = {}
    failed = False
    with open(sys.argv[2], encoding="utf-8") as plan:
        cases = [line.split() for line in plan if line.strip()]
    for name, message, impl, passfile, *dumps in cases:
        key = (message, impl, passfile)
        if key not in computed:
            try:
                computed[key] = s2k_key.secrets(
                    message, passfile,
                    s2k_key.Material(sys.argv[1], impl.strip("-")))
            except SystemExit as e:
                computed[key] = str(e)
        if isinstance(computed[key], str):
            print(name, "secrets FAIL", computed[key])
            failed = True
            continue
        for arg in dumps:
            dump, _, patterns = arg.partition("=")
            verdict = check(computed[key], dump,
                            [p for p in patterns.split(",") if p])
            failed |= verdict.startswith("FAIL")
            print(name, os.path.basename(dump), verdict)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
