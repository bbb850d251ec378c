#!/usr/bin/env bats
# tools/sfreport, and where every JSON result comes from (issue 25):
# results of two runs make one table and one page; a file of an older
# sfenc, without provenance, is read and its sources labelled unknown;
# the HTML page, as headless Chromium shows it, is not blank, has its
# tables and its chart, and shows the figures of the JSON.  And what
# issues 43 and 44 found: hostile text in a result file or on the
# command line runs no command and is escaped in the page and on the
# terminal; a key that names two rows, a misspelt --key or --value and
# an empty --key are refused; small ratios keep their digits; emulated
# runs are marked; SFENC_DISABLE_HWF and the sfenc sfbench ran are
# recorded; the page is written without gnuplot; a failing run leaves
# nothing in TMPDIR, nor does one that a signal ends.
#
# The runs are real: cipherbench on this machine, once as it is and
# once with SFENC_DISABLE_HWF=all, short enough for the test suite.

setup () {
  SFREPORT=${SFREPORT:-$BATS_TEST_DIRNAME/../tools/sfreport}
  CIPHERBENCH=${CIPHERBENCH:-$BATS_TEST_DIRNAME/../tools/cipherbench}
  SFBENCH=${SFBENCH:-$BATS_TEST_DIRNAME/../tools/sfbench}
  HERE=$BATS_TEST_DIRNAME/report
  T=$BATS_TEST_TMPDIR
  export LC_ALL=C
  command -v python3 > /dev/null || skip "NOT TESTED: python3 is not installed"
}

# Two short cipherbench runs, $T/hw.json and $T/nohw.json.
two_runs () {
  local args=(--algo CAST5,AES --mode cfb-enc --seconds 0.01 --runs 1)
  "$CIPHERBENCH" "${args[@]}" --save "$T/hw" > /dev/null
  SFENC_DISABLE_HWF=all "$CIPHERBENCH" "${args[@]}" --save "$T/nohw" > /dev/null
}

# The value of $2 (a Python expression over the JSON "j") in file $1.
py_json () {
  python3 -c 'import json, sys; j = json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"
}

@test "sfreport: every tool's JSON says where it comes from" {
  two_runs
  local f k
  "$SFBENCH" --size 1 --runs 1 --algo cast5 --no-decrypt --no-rnp --no-gpg \
    --no-openssl --format json > "$T/sfbench.json"
  "${top_builddir:-$BATS_TEST_DIRNAME/..}/tools/buildmatrix" --list \
    --format json > "$T/buildmatrix.json"
  for f in hw sfbench buildmatrix; do
    for k in date command cpu cpu_flags cores kernel compiler cflags sfenc \
             libgcrypt openssl gpg rnp; do
      [ -n "$(py_json "$T/$f.json" "j['provenance']['$k']")" ] \
        || { echo "$f: no $k"; return 1; }
    done
  done
  [ "$(py_json "$T/hw.json" "j['provenance']['cores']")" = "$(nproc)" ]
  [ "$(py_json "$T/hw.json" "j['provenance']['kernel']")" = "$(uname -srm)" ]
  [[ $(py_json "$T/hw.json" "j['provenance']['command']") == *"--seconds 0.01"* ]]
  [ "$(py_json "$T/hw.json" "j['provenance']['gpg']")" = "$(gpg --version | head -n 1 | awk '{ print $NF }')" ]
  # And the text says it as openssl speed does.
  "$CIPHERBENCH" --algo CAST5 --mode cfb-enc --seconds 0.01 --runs 1 > "$T/text"
  grep -q '^# built on: ' "$T/text"
  grep -q '^# compiler: ' "$T/text"
}

@test "sfreport: two runs make one table, with the ratios to the baseline and the geometric mean" {
  two_runs
  "$SFREPORT" --label hw "$T/hw.json" --label nohw "$T/nohw.json" --format json > "$T/r.json"
  python3 - "$T/hw.json" "$T/nohw.json" "$T/r.json" <<'PY'
import json, math, sys
hw, nohw, r = (json.load(open(f)) for f in sys.argv[1:4])
# The key columns are text in the combined table.
key = lambda row: (row["algo"], row["impl"], row["mode"], str(row["bytes"]))
a = {key(x): x["mibs"] for x in hw["results"]}
b = {key(x): x["mibs"] for x in nohw["results"]}
rows = r["cipherbench_results"]
assert [x["label"] for x in r["sources"]] == ["hw", "nohw"], r["sources"]
logs = []
for row in rows[:-1]:
    k = key(row)
    assert row["hw"] == a.get(k) and row["nohw"] == b.get(k), (row, k)
    if k in a and k in b:
        assert abs(row["ratio_nohw"] - b[k] / a[k]) <= 0.005, row
        logs.append(math.log(b[k] / a[k]))
    else:
        assert row["ratio_nohw"] is None, row
assert set(key(x) for x in rows[:-1]) == set(a) | set(b)
assert rows[-1]["algo"] == "geomean"
assert abs(rows[-1]["ratio_nohw"] - math.exp(sum(logs) / len(logs))) <= 0.005
# The rows only the accelerated run has: aesni.
assert any(x["impl"] == "aesni" and x["nohw"] is None for x in rows)
PY
  # The text has the same table, a column per source.
  run "$SFREPORT" --label hw "$T/hw.json" --label nohw "$T/nohw.json"
  [ "$status" -eq 0 ]
  echo "$output" | grep -Eq '^algo +impl +mode +bytes +hw +nohw +xnohw$'
  echo "$output" | grep -Eq '^geomean +[0-9.]+ +[0-9.]+ +[0-9.]+x$'
  # --baseline 2: the ratios are to the second file.
  run "$SFREPORT" "$T/hw.json" "$T/nohw.json" --baseline 2
  echo "$output" | grep -Eq '^algo +impl +mode +bytes +hw +xhw +nohw$'
}

@test "sfreport: a file of an older sfenc, without provenance, is read and labelled unknown" {
  two_runs
  python3 -c 'import json, sys; j = json.load(open(sys.argv[1])); del j["provenance"]; json.dump(j, open(sys.argv[2], "w"))' \
    "$T/nohw.json" "$T/old.json"
  run "$SFREPORT" --format json "$T/hw.json" "$T/old.json"
  [ "$status" -eq 0 ]
  echo "$output" > "$T/r.json"
  [ "$(py_json "$T/r.json" "j['sources'][1]['cpu']")" = unknown ]
  [ "$(py_json "$T/r.json" "j['sources'][1]['compiler']")" = unknown ]
  [ "$(py_json "$T/r.json" "j['sources'][0]['cpu']")" != unknown ]
  [ "$(py_json "$T/r.json" "len(j['cipherbench_results'])")" -gt 5 ]
}

@test "sfreport: several tools, one table each; bad files are one line and exit status 2" {
  two_runs
  "$SFBENCH" --size 1 --runs 1 --algo cast5 --no-decrypt --no-rnp --no-gpg \
    --no-openssl --format json > "$T/sfbench.json"
  run "$SFREPORT" --format json "$T/hw.json" "$T/sfbench.json" "$T/nohw.json"
  [ "$status" -eq 0 ]
  echo "$output" > "$T/r.json"
  [ "$(py_json "$T/r.json" "sorted(k for k in j if k.endswith('_results'))")" = \
    "['cipherbench_results', 'sfbench_results']" ]
  [ "$(py_json "$T/r.json" "j['sfbench_results'][0]['sfbench']")" = \
    "$(py_json "$T/sfbench.json" "j['results'][0]['sfenc_mibs']")" ]
  # The rows of each thread count stay apart.
  "$SFBENCH" --size 1 --runs 1 --algo cast5 --threads 1,2 --no-decrypt \
    --no-rnp --no-gpg --no-openssl --format json > "$T/t12.json"
  run "$SFREPORT" --format json "$T/t12.json"
  [ "$status" -eq 0 ]
  echo "$output" > "$T/t.json"
  [ "$(py_json "$T/t.json" "sorted(r['threads'] for r in j['sfbench_results'] if r['algo'] == 'CAST5')")" = \
    "['1', '2']" ]
  # A label that would name two columns of a table.
  cp "$T/t12.json" "$T/threads.json"
  run "$SFREPORT" "$T/threads.json"
  [ "$status" -eq 2 ]
  [ "${#lines[@]}" -eq 1 ]
  [[ $output == *"threads: a file's label is also a column"* ]]
  run "$SFREPORT" "$T/hw.json" --label hw "$T/nohw.json"
  [ "$status" -eq 2 ]
  [ "${#lines[@]}" -eq 1 ]
  [[ $output == *"hw: two files of one tool have this label"* ]]
  printf '{"tool": "cipherbench", "results": [' > "$T/broken.json"
  run "$SFREPORT" "$T/broken.json"
  [ "$status" -eq 2 ]
  [ "${#lines[@]}" -eq 1 ]
  [[ $output == *broken.json* ]]
  echo '{"no": "tool"}' > "$T/other.json"
  run "$SFREPORT" "$T/other.json"
  [ "$status" -eq 2 ]
  [ "${#lines[@]}" -eq 1 ]
}

@test "sfreport: the HTML page, in headless Chromium, shows its tables, its chart and the JSON's figures" {
  local chromium
  chromium=$(command -v chromium || command -v chromium-browser) \
    || skip "NOT TESTED: chromium is not installed (apt-get install chromium), the page was not looked at"
  command -v gnuplot > /dev/null || skip "NOT TESTED: gnuplot is not installed"
  two_runs
  "$SFREPORT" --label hw "$T/hw.json" --label nohw "$T/nohw.json" --save "$T/page" > /dev/null
  [ -s "$T/page.html" ]
  # Self-contained: nothing is fetched (gnuplot's SVG refers to its
  # own elements by fragment, href='#...').
  grep -Eq "(src|href)=[\"'][^#]" "$T/page.html" && return 1
  local ch=("$chromium" --headless --no-sandbox --disable-gpu --disable-quic
            --no-first-run --disable-background-networking
            --disable-component-update --disable-sync
            --user-data-dir="$T/profile")
  timeout 120 "${ch[@]}" --window-size=1200,1600 --screenshot="$T/page.png" \
    "file://$T/page.html" 2> "$T/chromium.log" \
    || { cat "$T/chromium.log"; return 1; }
  read -r width height colours share < <(python3 "$HERE/png-stats.py" "$T/page.png")
  [ "$width" -eq 1200 ] && [ "$height" -eq 1600 ]
  # Not blank: many colours (text, table rules, the chart's bars) and a
  # good share of the page drawn on.
  [ "$colours" -gt 50 ] || { echo "colours: $colours"; return 1; }
  python3 -c "import sys; sys.exit(not float(sys.argv[1]) > 0.02)" "$share" \
    || { echo "share drawn: $share"; return 1; }
  # What the browser parsed: the tables, the chart, and in every cell
  # the figure of the JSON.
  timeout 120 "${ch[@]}" --dump-dom "file://$T/page.html" > "$T/dom.html" 2>> "$T/chromium.log"
  grep -q '<table data-table="cipherbench_results">' "$T/dom.html"
  grep -q '<table data-table="sources">' "$T/dom.html"
  grep -q '<svg' "$T/dom.html"
  grep -q '<rect' "$T/dom.html"
  cells=$(python3 "$HERE/page-check.py" "$T/dom.html" "$T/page.json")
  [ "$cells" -gt 50 ]
}

# Write result file $1 of tool $2: its table "results" has the rows
# ALGO=FIGURE of the other arguments, the figure in column "mibs", and
# its provenance every field of the sources table set to $PROV_TEXT
# (default "p"), "cpu" to $PROV_CPU (default "test cpu").
result_file () {
  python3 - "$@" <<'PY'
import json, os, sys
file, tool, rows = sys.argv[1], sys.argv[2], sys.argv[3:]
text = os.environ.get("PROV_TEXT", "p")
prov = {k: text for k in ("date", "cores", "compiler", "sfenc", "disable_hwf",
                          "cpu_flags", "kernel", "cflags", "sfenc_path",
                          "sfenc_file", "sfenc_version", "libgcrypt",
                          "openssl", "gpg", "rnp", "command")}
prov["cpu"] = os.environ.get("PROV_CPU", "test cpu")
value = os.environ.get("VALUE_COLUMN", "mibs")
results = []
for r in rows:
    algo, figure = r.rsplit("=", 1)
    results.append({"algo": algo, value: float(figure)})
json.dump({"tool": tool, "provenance": prov, "results": results},
          open(file, "w"))
PY
}

# Hostile text for field $1: it makes the file ran-$1 in the current
# directory if anything hands it to a shell or to gnuplot's backquote
# substitution, and holds both quotes, a backslash, a line end, an HTML
# element and ESC; no slash, so that it can be a file name.
hostile () {
  printf '%s' "\`touch ran-$1\` \$(touch ran-$1) '\" \\ \\\` x
<i id=\"$1\">&amp; "$'\e'"[31m$1"
}

@test "sfreport: hostile text in every field runs nothing, and the page and the text escape it" {
  command -v gnuplot > /dev/null || skip "NOT TESTED: gnuplot is not installed, the charts were not drawn"
  local f field
  # The tool, the table, a key column's values, the figure's column,
  # the provenance (from the file); the label, the file name and the
  # chart's name (from the command line).
  local tool table algo value prov label name
  tool=$(hostile tool) table=$(hostile table) algo=$(hostile algo)
  value=$(hostile value) prov=$(hostile prov) label=$(hostile label)
  name="$T/$(hostile name).json"
  VALUE_COLUMN=$value PROV_TEXT=$prov PROV_CPU=$prov \
    result_file "$T/a.json" "$tool" "$algo=10" "AES=20"
  python3 -c 'import json, sys; j = json.load(open(sys.argv[1])); j[sys.argv[3]] = j.pop("results"); json.dump(j, open(sys.argv[2], "w"))' \
    "$T/a.json" "$T/table.json" "$table"
  cp "$T/table.json" "$name"
  cd "$T"
  run "$SFREPORT" --table "$table" --key algo --value "$value" \
    --label "$label" "$T/table.json" "$name" --save "$T/page" \
    --plot "$T/chart \`touch ran-plot\` it's.svg"
  cd - > /dev/null
  [ "$status" -eq 0 ] || { echo "$output"; return 1; }
  mv "$T/chart \`touch ran-plot\` it's.svg" "$T/chart.svg"
  for field in tool table algo value prov label name plot; do
    [ ! -e "$T/ran-$field" ] || { echo "$field: a command ran"; return 1; }
  done
  # gnuplot drew the text, HTML-escaped by itself.
  grep -q 'algo">&amp;amp;' "$T/chart.svg"
  grep -q '&lt;i id="label">' "$T/chart.svg"
  # The page: no element of the text, every field there, escaped.
  for field in tool table algo value prov label name; do
    ! grep -q "<i id=\"$field\"" "$T/page.html" || { echo "$field: not escaped"; return 1; }
    grep -q "&lt;i id=&quot;$field&quot;&gt;&amp;amp; " "$T/page.html" \
      || { echo "$field: not in the page"; return 1; }
  done
  # The text, for a terminal: no ESC, no line end inside a line.
  for f in "$T/page.txt" "$T/page.md"; do
    ! grep -q $'\e' "$f" || { echo "$f: a raw ESC"; return 1; }
    for field in tool algo value prov label name; do
      grep -Fq "&amp; \\x1b[31m$field" "$f" || { echo "$f: no $field"; return 1; }
    done
  done
  ! grep -q "^<i id=" "$T/page.txt"
}

@test "sfreport: a key that names two rows, a misspelt --value or --key, an empty --key: one line and exit status 2" {
  result_file "$T/a.json" cipherbench "AES=10" "CAST5=20" "AES=30"
  run "$SFREPORT" --key algo "$T/a.json"
  [ "$status" -eq 2 ]
  [ "${#lines[@]}" -eq 1 ]
  [[ $output == "sfreport: $T/a.json: two rows have the key algo=AES; give --key the columns that tell them apart" ]]
  result_file "$T/b.json" cipherbench "AES=10" "CAST5=20"
  run "$SFREPORT" --key algo --value mbs "$T/b.json"
  [ "$status" -eq 2 ]
  [ "${#lines[@]}" -eq 1 ]
  [[ $output == "sfreport: --value: cipherbench's table \"results\" has no figure \"mbs\"; its figures: mibs" ]]
  # A column of text is no figure either.
  run "$SFREPORT" --key algo --value algo "$T/b.json"
  [ "$status" -eq 2 ]
  [[ $output == *'has no figure "algo"; its figures: mibs' ]]
  run "$SFREPORT" --key algo,mode "$T/b.json"
  [ "$status" -eq 2 ]
  [ "${#lines[@]}" -eq 1 ]
  [[ $output == "sfreport: --key: cipherbench's table \"results\" has no column \"mode\"; its columns: algo, mibs" ]]
  local key
  for key in , '' ,,; do
    run "$SFREPORT" --key "$key" "$T/b.json"
    [ "$status" -eq 2 ]
    [ "${#lines[@]}" -eq 1 ]
    [[ $output == "sfreport: --key: no column named"* ]]
  done
  # A message that quotes a file escapes its control characters.
  result_file "$T/c.json" $'evil\e[2J\ntool' "AES=10"
  run "$SFREPORT" "$T/c.json"
  [ "$status" -eq 2 ]
  [ "${#lines[@]}" -eq 1 ]
  [ "$output" = 'sfreport: evil\x1b[2J\x0atool: an unknown tool: give --table, --key and --value' ]
  # The real thing: a cipherbench file read with too few key columns.
  two_runs
  run "$SFREPORT" --key algo,impl "$T/hw.json"
  [ "$status" -eq 2 ]
  [ "${#lines[@]}" -eq 1 ]
  [[ $output == "sfreport: $T/hw.json: two rows have the key algo="* ]]
}

@test "sfreport: small ratios keep two significant digits" {
  result_file "$T/fast.json" cipherbench "AES=1000" "CAST5=100"
  result_file "$T/slow.json" cipherbench "AES=4.2" "CAST5=0.5"
  run "$SFREPORT" --key algo "$T/fast.json" "$T/slow.json"
  [ "$status" -eq 0 ]
  echo "$output" | grep -Eq '^AES +1000\.0 +4\.2 +0\.0042x$'
  echo "$output" | grep -Eq '^CAST5 +100\.0 +0\.50 +0\.0050x$'
  run "$SFREPORT" --key algo --format json "$T/fast.json" "$T/slow.json"
  echo "$output" > "$T/r.json"
  [ "$(py_json "$T/r.json" "j['cipherbench_results'][0]['ratio_slow']")" = 0.0042 ]
}

@test "sfreport: a file measured under an emulator is marked in the tables and the chart" {
  command -v gnuplot > /dev/null || skip "NOT TESTED: gnuplot is not installed, the chart was not drawn"
  result_file "$T/native.json" cipherbench "AES=100" "CAST5=50"
  PROV_CPU="emulated (host: test cpu)" \
    result_file "$T/qemu.json" cipherbench "AES=10" "CAST5=5"
  run "$SFREPORT" --key algo "$T/native.json" "$T/qemu.json" --plot "$T/chart.svg"
  [ "$status" -eq 0 ]
  echo "$output" | grep -q '^# (emulated): a file whose figures were measured under an emulator'
  echo "$output" | grep -Eq '^algo +native +qemu \(emulated\) +xqemu \(emulated\)$'
  echo "$output" | grep -Eq '^qemu +cipherbench +true '
  echo "$output" | grep -Eq '^native +cipherbench +false '
  grep -q '<text>qemu (emulated)</text>' "$T/chart.svg"
  grep -q '<text>native (emulated)</text>' "$T/chart.svg" && return 1
  # The JSON keeps the label as the column's name, and says it.
  run "$SFREPORT" --key algo --format json "$T/native.json" "$T/qemu.json"
  echo "$output" > "$T/r.json"
  [ "$(py_json "$T/r.json" "j['cipherbench_results'][0]['qemu']")" = 10.0 ]
  [ "$(py_json "$T/r.json" "[s['emulated'] for s in j['sources']]")" = "[False, True]" ]
}

@test "sfreport: SFENC_DISABLE_HWF, the CFLAGS, the CPU's flags, the kernel and the versions are in the page" {
  two_runs
  [ "$(py_json "$T/hw.json" "j['provenance']['disable_hwf']")" = "not set" ]
  [ "$(py_json "$T/nohw.json" "j['provenance']['disable_hwf']")" = all ]
  GNUPLOT=/nonexistent/gnuplot "$SFREPORT" --label hw "$T/hw.json" \
    --label nohw "$T/nohw.json" --format html > "$T/page.html" 2> /dev/null
  "$SFREPORT" "$T/hw.json" "$T/nohw.json" --format json > "$T/r.json"
  local k v i
  for i in 0 1; do
    for k in disable_hwf cflags cpu_flags kernel compiler sfenc libgcrypt \
             openssl gpg rnp command; do
      v=$(py_json "$T/r.json" "j['sources'][$i]['$k']")
      [ "$v" != unknown ] || { echo "source $i: $k unknown"; return 1; }
      grep -Fq "<td data-key=\"$k\">$(python3 -c 'import html, sys; print(html.escape(sys.argv[1], quote=True).replace("&#x27;", "'"'"'"))' "$v")</td>" "$T/page.html" \
        || { echo "source $i: $k ($v) not in the page"; return 1; }
    done
  done
  grep -q '<td data-key="disable_hwf">all</td>' "$T/page.html"
  # And cipherbench's text says it.
  SFENC_DISABLE_HWF=aesni "$CIPHERBENCH" --algo AES --mode cfb-enc --seconds 0.01 --runs 1 > "$T/text"
  grep -q '^# run: .*, SFENC_DISABLE_HWF aesni: ' "$T/text"
}

@test "sfreport: sfbench --sfenc OTHER records OTHER, not sfbench's own build" {
  local sfenc=${SFENC:-$BATS_TEST_DIRNAME/../g10/sfenc}
  # Another sfenc: this one, behind a script with a version of its own.
  cat > "$T/other-sfenc" <<EOS
#!/bin/sh
if [ "\$1" = --version ]; then
  echo "sfenc 9.8.7-other (a test's sfenc)"
  echo "libgcrypt 0.0.1"
  echo
  echo "not a version line"
  exit 0
fi
exec "$sfenc" "\$@"
EOS
  chmod +x "$T/other-sfenc"
  local args=(--size 1 --runs 1 --algo cast5 --no-decrypt --no-rnp --no-gpg
              --no-openssl --format json)
  "$SFBENCH" "${args[@]}" --sfenc "$T/other-sfenc" > "$T/other.json"
  [ "$(py_json "$T/other.json" "j['provenance']['sfenc']")" = 9.8.7-other ]
  [ "$(py_json "$T/other.json" "j['provenance']['libgcrypt']")" = 0.0.1 ]
  [ "$(py_json "$T/other.json" "j['provenance']['sfenc_path']")" = "$(realpath "$T/other-sfenc")" ]
  [ "$(py_json "$T/other.json" "j['provenance']['sfenc_file']")" = "a script, #!/bin/sh" ]
  [ "$(py_json "$T/other.json" "j['provenance']['sfenc_version']")" = \
    "sfenc 9.8.7-other (a test's sfenc); libgcrypt 0.0.1" ]
  # sfbench's compiler and CFLAGS say nothing of that program.
  [ "$(py_json "$T/other.json" "j['provenance']['compiler']")" = unknown ]
  [ "$(py_json "$T/other.json" "j['provenance']['cflags']")" = unknown ]
  # Its own build's sfenc: what that sfenc says, and the build's flags.
  if [ -z "${SF_EMULATOR:-}" ] && [ "${SFENC_MEMCHECK:-}" = "" ]; then
    "$SFBENCH" "${args[@]}" > "$T/own.json"
    [ "$(py_json "$T/own.json" "j['provenance']['sfenc_file']")" = "ELF, e_machine $(python3 -c 'import sys; d = open(sys.argv[1], "rb").read(20); print(int.from_bytes(d[18:20], "little"))' /proc/self/exe)" ]
    [ "$(py_json "$T/own.json" "j['provenance']['sfenc_version']")" = \
      "$("$sfenc" --version | sed '/^$/,$d' | paste -sd ';' | sed 's/;/; /g')" ]
    [ "$(py_json "$T/own.json" "j['provenance']['compiler']")" != unknown ]
  fi
  # And the sources table shows them.
  "$SFREPORT" --format json "$T/other.json" > "$T/r.json"
  [ "$(py_json "$T/r.json" "j['sources'][0]['sfenc']")" = 9.8.7-other ]
}

@test "sfreport: without gnuplot, --save writes the tables and the page and says the charts are left out" {
  result_file "$T/a.json" cipherbench "AES=100" "CAST5=50"
  run env GNUPLOT=/nonexistent/gnuplot "$SFREPORT" --key algo "$T/a.json" --save "$T/page"
  [ "$status" -eq 0 ]
  [[ $output == *"sfreport: gnuplot not found: the page has no charts (apt-get install gnuplot-nox)"* ]]
  local ext
  for ext in txt md csv json html; do
    [ -s "$T/page.$ext" ] || { echo "no page.$ext"; return 1; }
  done
  grep -q '<table data-table="cipherbench_results">' "$T/page.html"
  grep -q '<svg' "$T/page.html" && return 1
  # --plot asks for a chart: without gnuplot, that is an error.
  run env GNUPLOT=/nonexistent/gnuplot "$SFREPORT" --key algo "$T/a.json" --plot "$T/c.svg"
  [ "$status" -eq 2 ]
  [ "${#lines[@]}" -eq 1 ]
  [[ $output == "sfreport: /nonexistent/gnuplot: not found;"* ]]
}

@test "sfreport: a failing run leaves nothing in TMPDIR, and its errors say sfreport" {
  command -v gnuplot > /dev/null || skip "NOT TESTED: gnuplot is not installed, no chart was begun"
  result_file "$T/a.json" cipherbench "AES=100" "CAST5=50"
  mkdir "$T/tmp"
  # A gnuplot that says where its script is: in TMPDIR.
  printf '#!/bin/sh\necho "$1" >> "%s/scripts"\nexec gnuplot "$@"\n' "$T" \
    > "$T/gnuplot"
  chmod +x "$T/gnuplot"
  # After the charts are drawn: the page cannot be saved.
  run bash -c '"$@" > /dev/null' - env TMPDIR="$T/tmp" GNUPLOT="$T/gnuplot" \
    "$SFREPORT" --key algo "$T/a.json" --save "$T/no/such/dir/page"
  [ "$status" -eq 2 ]
  [ "${#lines[@]}" -eq 1 ]
  [[ $output == "sfreport: $T/no/such/dir/page.txt: No such file or directory" ]]
  [[ $(cat "$T/scripts") == "$T/tmp/sfbench-plot."*/plot.gp ]]
  [ -z "$(ls -A "$T/tmp")" ] || { ls -la "$T/tmp"; return 1; }
  # While a chart is drawn: gnuplot fails.
  printf '#!/bin/sh\necho "gnuplot broke" >&2\nexit 1\n' > "$T/bad-gnuplot"
  chmod +x "$T/bad-gnuplot"
  run env TMPDIR="$T/tmp" GNUPLOT="$T/bad-gnuplot" "$SFREPORT" --key algo "$T/a.json" --format html
  [ "$status" -eq 2 ]
  [[ ${lines[-1]} == "sfreport: $T/tmp/sfreport."*"/0.svg: gnuplot broke" ]]
  [ -z "$(ls -A "$T/tmp")" ] || { ls -la "$T/tmp"; return 1; }
}

@test "sfreport: SIGTERM, SIGHUP or SIGINT while a chart is drawn leaves nothing in TMPDIR and kills it by that signal" {
  command -v gnuplot > /dev/null || skip "NOT TESTED: gnuplot is not installed, no chart is drawn"
  result_file "$T/a.json" cipherbench "AES=100" "CAST5=50"
  # A gnuplot that notes what TMPDIR holds, then signals sfreport, its
  # parent: TERM and HUP while it goes on drawing; INT to itself too,
  # as a terminal's Ctrl-C reaches both, so that it fails.
  local sig num
  for sig in TERM:15 HUP:1 INT:2; do
    num=${sig#*:}
    sig=${sig%:*}
    mkdir "$T/tmp-$sig"
    if [ "$sig" = INT ]; then
      printf '#!/bin/sh\nls "$TMPDIR" > "%s/seen"\nkill -INT $PPID $$\n' "$T"
    else
      printf '#!/bin/sh\nls "$TMPDIR" > "%s/seen"\nkill -%s $PPID\nexec gnuplot "$@"\n' "$T" "$sig"
    fi > "$T/gnuplot"
    chmod +x "$T/gnuplot"
    # Python's return code tells death by a signal (-N) from an exit.
    run env TMPDIR="$T/tmp-$sig" GNUPLOT="$T/gnuplot" python3 -c \
      'import subprocess, sys; print(subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL).returncode)' \
      "$SFREPORT" --key algo "$T/a.json" --format html
    echo "$sig: $output"
    [ "$output" = "-$num" ]
    grep -qx 'sfreport\..*' "$T/seen"
    grep -qx 'sfbench-plot\..*' "$T/seen"
    [ -z "$(ls -A "$T/tmp-$sig")" ] || { ls -laR "$T/tmp-$sig"; return 1; }
  done
}

@test "sfreport: SIGTERM while the page waits on a full pipe ends it at once, nothing left in TMPDIR" {
  command -v gnuplot > /dev/null || skip "NOT TESTED: gnuplot is not installed, no chart is drawn"
  # 200 rows: a page larger than a pipe holds.
  result_file "$T/a.json" cipherbench $(seq 200 | sed 's/.*/A&=&/')
  mkdir "$T/tmp"
  # The page's first bytes come once the charts are drawn; nothing more
  # is read, so the writing blocks.
  run env TMPDIR="$T/tmp" python3 -c '
import select, signal, subprocess, sys, time
p = subprocess.Popen(sys.argv[1:], stdout=subprocess.PIPE)
select.select([p.stdout], [], [])
time.sleep(0.3)
p.send_signal(signal.SIGTERM)
print(p.wait(timeout=10))' "$SFREPORT" --key algo "$T/a.json" --format html
  [ "$output" = "-15" ]
  [ -z "$(ls -A "$T/tmp")" ] || { ls -laR "$T/tmp"; return 1; }
}
