# gpg-2-2-40.bash - for the suites whose expectations are gpg 2.2.40's
# own output, read off the installed gpg (bats "load").

# Skip, loudly, unless the installed gpg is 2.2.40.
need_gpg_2_2_40 () {
  command -v gpg > /dev/null \
    || skip "NOT TESTED: gpg (GnuPG) is not installed, the oracle of these checks"
  local v
  v=$(gpg --version | sed -n '1s/^gpg (GnuPG) //p')
  [ "$v" = 2.2.40 ] \
    || skip "NOT TESTED: the installed gpg is $v; the expectations are gpg 2.2.40's"
}
