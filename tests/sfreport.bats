#!/usr/bin/env bats
# tools/sfreport, and where every JSON result comes from (issue 25):
# results of two runs make one table and one page; a file of an older
# sfenc, without provenance, is read and its sources labelled unknown;
# the HTML page, as headless Chromium shows it, is not blank, has its
# tables and its chart, and shows the figures of the JSON.
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
  # Self-contained: nothing is fetched.
  ! grep -Eq '(src|href)=' "$T/page.html"
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
