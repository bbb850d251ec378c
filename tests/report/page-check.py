#!/usr/bin/env python3
"""Check that the tables of an HTML page of sfreport show the figures
of its JSON result: every cell of every table the page shows, as the
browser parsed it (Chromium's --dump-dom), against the same cell of
the JSON; numbers to the decimals shown, ratios without their "x".

usage: page-check.py DOM.html RESULT.json
Prints the number of cells compared; exits 1 on the first mismatch.
"""
import json
import sys
from html.parser import HTMLParser


class Tables(HTMLParser):
    """The cells of each table: {name: [[(key, text), ...], ...]}."""

    def __init__(self):
        super().__init__()
        self.tables, self.table, self.row, self.cell = {}, None, None, None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "table":
            self.table = self.tables.setdefault(attrs.get("data-table"), [])
        elif tag == "tr" and self.table is not None:
            self.row = []
        elif tag == "td" and self.row is not None and "data-key" in attrs:
            self.cell = [attrs["data-key"], ""]

    def handle_endtag(self, tag):
        if tag == "td" and self.cell is not None:
            self.row.append(tuple(self.cell))
            self.cell = None
        elif tag == "tr" and self.row:
            self.table.append(self.row)
            self.row = None
        elif tag == "table":
            self.table = None

    def handle_data(self, data):
        if self.cell is not None:
            self.cell[1] += data


def same(shown, value):
    if value is None:
        return shown.startswith("n/a")
    if isinstance(value, bool):
        return shown == ("true" if value else "false")
    if isinstance(value, str):
        return shown == value
    text = shown.rstrip("x*")
    decimals = len(text.split(".")[1]) if "." in text else 0
    return abs(float(text) - value) <= 0.5 * 10 ** -decimals + 1e-9


def main():
    page = Tables()
    page.feed(open(sys.argv[1], encoding="utf-8").read())
    result = json.load(open(sys.argv[2], encoding="utf-8"))
    compared = 0
    for name, rows in page.tables.items():
        if name == "provenance" or not rows:
            continue
        if len(rows) != len(result[name]):
            raise SystemExit("%s: %d rows in the page, %d in the JSON"
                             % (name, len(rows), len(result[name])))
        for row, expected in zip(rows, result[name]):
            for key, shown in row:
                if not same(shown.strip(), expected[key]):
                    raise SystemExit("%s: %s is %r in the page, %r in the"
                                     " JSON" % (name, key, shown,
                                                expected[key]))
                compared += 1
    print(compared)


main()
