#!/usr/bin/env bats
# The documentation matches the program: every option sfenc accepts is
# described in the man page (doc/sfenc.1) and in --help, in the same
# group, with the same short form and the same argument, and neither
# names an option sfenc rejects; the page renders without warnings.
#
# What the program accepts comes from the program itself: the long
# options from --dump-options (each one then tried on the parser, so
# the list cannot lie), the short ones by trying every letter and
# digit.  An option is tried as "sfenc --batch OPTION" with no input:
# the parser runs first and says "unknown option" for a name it does
# not know and "missing argument" for one that needs an argument.
#
# In the man page an option is described by the tag line after .TP
# (its other spelling after .TQ); the group is the .SS above it.  In
# --help an option line starts with " -x, --name" or "     --name";
# a group starts with a line "Title:".

setup () {
  SFENC=${SFENC:-$BATS_TEST_DIRNAME/../g10/sfenc}
  PAGE=${top_srcdir:-$BATS_TEST_DIRNAME/..}/doc/sfenc.1
  T=$BATS_TEST_TMPDIR
  # Byte order for sort and comm, ASCII ranges for the patterns.
  export LC_ALL=C
  # No module of an installed sfenc may change what is tried.
  export SFENC_MODULE_DIR="$T/no-modules"
  [ -f "$PAGE" ]
}

# Print "rejected", "arg" or "flag" for the option $1.
probe () {
  local err
  err=$("$SFENC" --batch "$1" </dev/null 2>&1 >/dev/null)
  case $err in
    *"unknown option"*|*"ambiguous option"*) echo rejected ;;
    *"missing argument"*) echo arg ;;
    *) echo flag ;;
  esac
}

# The man page as plain lines: escapes that only affect typesetting
# removed, \- turned into -.
page_text () {
  sed -e 's/\\%//g; s/\\&//g; s/\\-/-/g; s/\\f[BIRP]//g' "$PAGE"
}

# The page's option descriptions: "group<TAB>tag<TAB>name<TAB>arg"
# where tag numbers the .TP entries and arg is 1 when the tag line
# shows an argument.
page_options () {
  page_text | awk '
    /^\.SH/ { group = "" }
    /^\.SS/ { group = $0; sub(/^\.SS[ \t]+/, "", group); gsub(/"/, "", group); next }
    /^\.TP/ { tag++; want = 1; next }
    /^\.TQ/ { want = 1; next }
    want {
      want = 0
      line = $0
      gsub(/"/, " ", line)
      n = split(line, w, /[ \t]+/)
      if (w[1] ~ /^\.[BIR]+$/ && w[2] ~ /^-/)
        printf "%s\t%d\t%s\t%d\n", group, tag, w[2], (n > 2 && w[3] != "")
    }'
}

# --help's option lines: "group<TAB>short<TAB>long<TAB>arg", short
# empty when there is none and arg 1 when the line shows an argument.
help_options () {
  "$SFENC" --help | awk '
    /^[A-Z][^:]*:$/ { group = substr($0, 1, length($0) - 1); next }
    /^ +--[a-z0-9]/ || /^ -[A-Za-z0-9], --[a-z0-9]/ {
      short = ""; rest = $0
      if (match(rest, /^ -[A-Za-z0-9], /)) { short = substr(rest, 2, 2); rest = substr(rest, RLENGTH + 1) }
      sub(/^ +/, "", rest)
      n = split(rest, w, / /)
      printf "%s\t%s\t%s\t%d\n", group, short, w[1], (w[2] ~ /^[A-Z]+$/)
    }'
}

# Print the lines of $1 that are not in $2 (both one item per line).
missing_from () {
  comm -23 <(sort -u <<<"$1") <(sort -u <<<"$2")
}

@test "doc: the man page renders without warnings (groff -ww)" {
  command -v groff >/dev/null \
    || { echo "groff not found: apt-get install groff-base"; return 1; }
  run groff -man -Tutf8 -ww -z "$PAGE"
  [ "$status" -eq 0 ]
  [ -z "$output" ] || { echo "$output"; return 1; }
}

@test "doc: --dump-options lists the long options the parser accepts" {
  local o
  run "$SFENC" --dump-options
  [ "$status" -eq 0 ]
  [ "${#lines[@]}" -gt 20 ]
  for o in "${lines[@]}"; do
    [[ $o == --[a-z0-9]* ]] || { echo "not an option: $o"; return 1; }
    [ "$(probe "$o")" != rejected ] || { echo "dumped but rejected: $o"; return 1; }
  done
  # The probe does tell a rejected option.
  [ "$(probe --no-such-option)" = rejected ]
  [ "$(probe -Q)" = rejected ]
}

@test "doc: every long option is in the man page and --help, and no other" {
  local prog page help bad
  prog=$("$SFENC" --dump-options)
  page=$(page_options | cut -f3 | grep -e '^--')
  help=$(help_options | cut -f3)
  bad=$(missing_from "$prog" "$page"); [ -z "$bad" ] || { echo "not in the man page:" $bad; return 1; }
  bad=$(missing_from "$prog" "$help"); [ -z "$bad" ] || { echo "not in --help:" $bad; return 1; }
  bad=$(missing_from "$page" "$prog"); [ -z "$bad" ] || { echo "man page describes unknown options:" $bad; return 1; }
  bad=$(missing_from "$help" "$prog"); [ -z "$bad" ] || { echo "--help lists unknown options:" $bad; return 1; }
  # Each is described once.
  bad=$(page_options | cut -f3 | sort | uniq -d); [ -z "$bad" ] || { echo "described twice in the man page:" $bad; return 1; }
  bad=$(help_options | cut -f3 | sort | uniq -d); [ -z "$bad" ] || { echo "listed twice in --help:" $bad; return 1; }
}

@test "doc: every short option is in the man page and --help, and no other" {
  local c prog="" page help bad
  for c in {a..z} {A..Z} {0..9}; do
    [ "$(probe "-$c")" = rejected ] || prog+="-$c"$'\n'
  done
  [ -n "$prog" ]
  page=$(page_options | cut -f3 | grep -v -e '^--')
  help=$(help_options | cut -f2 | grep .)
  bad=$(missing_from "$prog" "$page"); [ -z "$bad" ] || { echo "not in the man page:" $bad; return 1; }
  bad=$(missing_from "$prog" "$help"); [ -z "$bad" ] || { echo "not in --help:" $bad; return 1; }
  bad=$(missing_from "$page" "$prog"); [ -z "$bad" ] || { echo "man page describes unknown options:" $bad; return 1; }
  bad=$(missing_from "$help" "$prog"); [ -z "$bad" ] || { echo "--help lists unknown options:" $bad; return 1; }
}

@test "doc: short and long forms are paired alike in the man page and --help" {
  local short long tag_s tag_l
  while IFS=$'\t' read -r short long; do
    tag_s=$(page_options | awk -F'\t' -v o="$short" '$3 == o { print $2 }')
    tag_l=$(page_options | awk -F'\t' -v o="$long" '$3 == o { print $2 }')
    [ -n "$tag_s" ] && [ "$tag_s" = "$tag_l" ] \
      || { echo "--help pairs $short with $long, the man page does not"; return 1; }
  done < <(help_options | awk -F'\t' '$2 != "" { print $2 "\t" $3 }')
  # And the other way: a man page entry with two spellings is one
  # --help line.
  while IFS=$'\t' read -r short long; do
    help_options | awk -F'\t' -v s="$short" -v l="$long" '$2 == s && $3 == l { f = 1 } END { exit !f }' \
      || { echo "the man page pairs $short with $long, --help does not"; return 1; }
  done < <(page_options | awk -F'\t' '{ if ($3 ~ /^--/) l[$2] = $3; else s[$2] = $3 }
                                      END { for (t in s) print s[t] "\t" l[t] }')
}

@test "doc: an option shows an argument in both documents exactly when it takes one" {
  local o kind page help
  for o in $("$SFENC" --dump-options); do
    kind=$(probe "$o")
    page=$(page_options | awk -F'\t' -v o="$o" '$3 == o { print $4 }')
    help=$(help_options | awk -F'\t' -v o="$o" '$3 == o { print $4 }')
    if [ "$kind" = arg ]; then
      [ "$page" = 1 ] || { echo "man page: $o takes an argument"; return 1; }
      [ "$help" = 1 ] || { echo "--help: $o takes an argument"; return 1; }
    else
      [ "$page" = 0 ] || { echo "man page: $o takes no argument"; return 1; }
      [ "$help" = 0 ] || { echo "--help: $o takes no argument"; return 1; }
    fi
  done
}

@test "doc: options are grouped alike, in the same order, in the man page and --help" {
  local page help
  page=$(page_options | awk -F'\t' '$3 ~ /^--/ { print $1 "\t" $3 }')
  help=$(help_options | awk -F'\t' '{ print $1 "\t" $3 }')
  diff <(echo "$page") <(echo "$help") \
    || { echo "(< man page, > --help)"; return 1; }
}

@test "doc: every long option named in the man page or --help exists" {
  local prog named bad
  prog=$("$SFENC" --dump-options)
  # The page also names other programs' options, configure's (--prefix)
  # and those of the clients of gpg (duplicity's --gpg-binary), always
  # on a line that names the program.
  named=$(page_text | grep -v -e '^\.\\"' -e configure -e '(duplicity)' -e '(gpgtar)' \
            | grep -o -e '--[a-z0-9][a-z0-9-]*' | sort -u)
  bad=$(missing_from "$named" "$prog"); [ -z "$bad" ] || { echo "man page names unknown options:" $bad; return 1; }
  named=$("$SFENC" --help | grep -o -e '--[a-z0-9][a-z0-9-]*' | sort -u)
  bad=$(missing_from "$named" "$prog"); [ -z "$bad" ] || { echo "--help names unknown options:" $bad; return 1; }
}
