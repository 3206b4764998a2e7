#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""The oracle of annotate-output.sh's --html part.

Usage: annotate-html-check.py HTML JSON SHOT.png

The expected figures are our --json's of the same run (itself checked
against stock perf by annotate-json-check.py):
 - in the file: one <details class="sym"> per JSON symbol, in order, open,
   holding (so that it folds with it) one <tr class="insn"> per
   instruction with its address, samples and percent, and no <script>,
   no external resource;
 - in headless Chromium's screenshot: the lines with samples drawn as
   bands of red, rgb(255, c, c) with c = 255 - round(200 * sqrt(p / 100))
   (the colour Documentation/perf-textpoke-annotate.txt gives), top to
   bottom in the JSON's order, the hottest line the reddest band; the
   lines without samples white.  Bands are read from the pixels: a row is
   the colour most of its reddish pixels have (r >= 250, g = b < 250;
   anti-aliased text is darker and left out).
"""
import json
import math
import os
import sys
from html.parser import HTMLParser

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                "report-output"))
import pngread  # noqa: E402


class Page(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.syms, self.bad, self.inside = [], [], False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "script" or (tag in ("link", "img", "iframe") or "src" in a):
            self.bad.append(f"<{tag}> in a self-contained page")
        if tag == "details" and "sym" in (a.get("class") or "").split():
            self.syms.append({"name": a.get("data-symbol"), "open": "open" in a,
                              "start": a.get("data-start"), "rows": []})
            self.inside = True
        if tag == "tr" and "insn" in (a.get("class") or "").split():
            # a line outside its symbol's <details> would not fold with it
            if not self.inside:
                self.bad.append(f"line {a.get('data-addr')} outside a symbol's <details>")
                return
            self.syms[-1]["rows"].append((a["data-addr"], int(a["data-samples"]),
                                          float(a["data-percent"]), a.get("style")))


    def handle_endtag(self, tag):
        if tag == "details":
            self.inside = False


def shade(p):
    return 255 - int(math.floor(200 * math.sqrt(min(p, 100) / 100) + 0.5)) if p > 0 else 255


html, doc, shot = sys.argv[1], json.load(open(sys.argv[2])), sys.argv[3]
page = Page()
page.feed(open(html, encoding="utf-8").read())
if page.bad:
    sys.exit("; ".join(page.bad[:3]))
want = [s for ev in doc["events"] for s in ev["symbols"]]
if [(s["name"], s["start"]) for s in page.syms] != [(s["symbol"], s["start"]) for s in want]:
    sys.exit("the page's symbols %s are not the JSON's %s" %
             ([s["name"] for s in page.syms], [s["symbol"] for s in want]))
expect = []
for g, w in zip(page.syms, want):
    if not g["open"]:
        sys.exit(f"{g['name']}: its block is not open")
    rows = [(i["address"], i["samples"], round(i["percent"], 6)) for i in w["instructions"]]
    if [(a, n, round(p, 6)) for a, n, p, _ in g["rows"]] != rows:
        sys.exit(f"{g['name']}: the page's lines are not the JSON's instructions")
    for a, n, p, style in g["rows"]:
        c = shade(p)
        css = f"background:rgb(255,{c},{c})" if c < 255 else None
        if style != css:
            sys.exit(f"{g['name']} at {a}: style {style}, expected {css} for {p}%")
        if c < 250 and (not expect or expect[-1] != c):
            expect.append(c)
if not expect:
    sys.exit("no line hot enough to be seen")

w, h, px = pngread.read(shot)
bands, prev = [], None
for y in range(h):
    count = {}
    for r, g, b in px[y]:
        if r >= 250 and g < 250 and abs(g - b) <= 2:
            count[g] = count.get(g, 0) + 1
    c = max(count, key=count.get) if count and max(count.values()) > w // 4 else None
    if c is not None and (prev is None or abs(prev - c) > 1):
        bands.append(c)
    prev = c
if len(bands) != len(expect) or any(abs(a - b) > 2 for a, b in zip(bands, expect)):
    sys.exit(f"bands drawn (green of rgb(255,c,c)) {bands}, expected {expect}")
print(f"ok: {len(page.syms)} symbols, {sum(len(s['rows']) for s in page.syms)} lines as the "
      f"JSON's; {len(bands)} red bands drawn in order, the hottest rgb(255,{min(bands)},"
      f"{min(bands)})")
