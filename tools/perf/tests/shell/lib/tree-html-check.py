#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
# The oracle of report-tree-output.sh's --html part.  The expected trees
# come from our --json of the same report (itself checked against stock
# perf by tree-json-check.py):
#  - in the file, each shown row's tree is one line per JSON node, in
#    the JSON's order, with its depth and period;
#  - in Chromium's screenshot of the page opened at #fold=K (the first
#    row's tree is the one open; line K folded), each line of that tree
#    but K's descendants draws its bar: a run of the bar colour whose
#    length is the frame's share of the event (BAR_W pixels for all of
#    it) and whose start is INDENT pixels per depth in from the top
#    frame's, top to bottom in the JSON's order; the lines below K draw
#    nothing.
# With --hier, the same of --hierarchy's rows: in the file, one row per
# row of the JSON's "hierarchy" (depth and period, in its order); in the
# screenshot opened at #hfold=K (row K folded, every call-graph tree
# closed), each row but those below K draws its bar, its share of the
# event, indented by its level.
# Usage: tree-html-check.py [--hier] HTML JSON SHOT.png K
#        tree-html-check.py [--hier] --fold-line JSON   (prints K: the last
#        line but the top one that has lines below it)
import json
import os
import sys
from html.parser import HTMLParser

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                "report-output"))
import pngread  # noqa: E402

BAR_W, INDENT, BAR = 200, 12, (0x3b, 0x86, 0x86)


class Lines(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.trees = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        cls = (a.get("class") or "").split()
        if HIER:
            if tag == "tr" and "hr" in cls:
                if not self.trees:
                    self.trees.append([])
                self.trees[0].append((int(a["data-depth"]), int(a["data-period"])))
        elif "cg" in cls:
            self.trees.append([])
        elif "cf" in cls:
            self.trees[-1].append((int(a["data-depth"]), int(a["data-period"])))


def tree_lines(entry):
    nodes, depth = entry["callchain"], []
    for n in nodes:
        depth.append(depth[n["parent"]] + 1 if n["parent"] >= 0 else 0)
    return [(d, n["period"]) for d, n in zip(depth, nodes)]


def fold_line(lines):
    """the last line with lines below it (not the top one), -1: none"""
    return next((i for i in range(len(lines) - 2, 0, -1) if lines[i + 1][0] > lines[i][0]), -1)


def hier_lines(ev):
    return [(r["depth"], r["period"]) for r in ev["hierarchy"]]


HIER = sys.argv[1] == "--hier"
if HIER:
    del sys.argv[1]
if sys.argv[1] == "--fold-line":
    ev = json.load(open(sys.argv[2]))["profile"][0]
    print(fold_line(hier_lines(ev) if HIER else tree_lines(ev["entries"][0])))
    sys.exit(0)
html, doc, shot, fold = sys.argv[1], json.load(open(sys.argv[2])), sys.argv[3], int(sys.argv[4])
p = Lines()
p.feed(open(html, encoding="utf-8").read())
ev = doc["profile"][0]
total = ev["total_period"]
want = [hier_lines(ev)] if HIER else [tree_lines(e) for e in ev["entries"]]
got = p.trees[:len(want)]
if len(p.trees) < len(want) and len(p.trees) < 200:
    sys.exit("%d trees in the HTML, %d entries in the JSON" % (len(p.trees), len(want)))
for i, (g, w) in enumerate(zip(got, want)):
    if g != w:
        sys.exit("tree %d: the HTML's lines (depth, period) are not the JSON's nodes" % i)
first = want[0]
if fold < 0 or fold != fold_line(first):
    sys.exit("line %d to fold is not the first tree's last with lines below it" % fold)
if fold >= len(first):
    sys.exit("line %d to fold is past the first tree's %d" % (fold, len(first)))
visible, skip_below = [], None
for i, (d, period) in enumerate(first):
    if skip_below is not None and d > skip_below:
        continue
    skip_below = None
    if i == fold:
        skip_below = d
    visible.append((d, (period * BAR_W + total // 2) // total if total else 0))
expect = [v for v in visible if v[1] > 0]

w, h, rows = pngread.read(shot)


def is_bar(px):
    return all(abs(a - b) <= 6 for a, b in zip(px, BAR))


bars, prev = [], None
for y in range(h):
    runs, x = [], 0
    row = rows[y]
    while x < w:
        if is_bar(row[x]):
            s = x
            while x < w and is_bar(row[x]):
                x += 1
            runs.append((s, x - s))
        x += 1
    # a bar is the same run over consecutive rows; a new one starts after a gap
    if len(runs) > 1:
        sys.exit("screenshot row %d: %d bar runs on one line" % (y, len(runs)))
    cur = runs[0] if runs else None
    if cur and (not prev or prev != cur):
        bars.append(cur)
    prev = cur
if len(bars) != len(expect):
    sys.exit("%d bars drawn, %d lines expected with a bar (fold %d)" % (len(bars), len(expect),
                                                                      fold))
x0 = bars[0][0] - INDENT * expect[0][0]
bad = 0
for i, ((x, bw), (d, ew)) in enumerate(zip(bars, expect)):
    if abs(bw - ew) > 1 or abs(x - x0 - INDENT * d) > 1:
        print("bar %d: drawn at x %d, %d px; expected depth %d (x %d), %d px" %
              (i, x, bw, d, x0 + INDENT * d, ew))
        bad += 1
if bad:
    sys.exit("%d bars not as the tree says" % bad)
print("%d trees as the JSON's; %d bars drawn as the first tree's frames, line %d folded" %
      (len(got), len(bars), fold))
