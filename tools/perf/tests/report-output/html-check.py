#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
# The oracle of the --html tests: Python's HTML parser over the file or
# over the DOM headless Chromium dumped.  Each expected line is
#   has CLASS key=HEX ...     some element of class CLASS has these attributes
#   count N CLASS key=HEX ... exactly N such elements
#   max N CLASS key=HEX ...   at most N
#   tags TAG N                exactly N <TAG> elements
#   text CLASS HEX            some element of class CLASS has the text HEX
#                             before its first child element
# where key is an attribute name and HEX the hex of its UTF-8 value.
# Usage: html-check.py HTML EXPECTED
import sys
from html.parser import HTMLParser


class Collect(HTMLParser):
    VOID = {"meta", "br", "hr", "img", "input", "link", "col", "area", "base", "wbr"}

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.elems = []
        self.texts = []
        self.tags = {}
        self.open = []  # (tag, index into elems) of the elements not yet closed

    def add(self, tag, attrs):
        self.tags[tag] = self.tags.get(tag, 0) + 1
        a = {k: (v or "") for k, v in attrs}
        self.elems.append((a.get("class", "").split(), a))
        self.texts.append("")
        return len(self.elems) - 1

    def handle_starttag(self, tag, attrs):
        i = self.add(tag, attrs)
        if tag not in self.VOID:
            self.open.append((tag, i))

    def handle_startendtag(self, tag, attrs):
        self.add(tag, attrs)

    def handle_endtag(self, tag):
        for k in range(len(self.open) - 1, -1, -1):
            if self.open[k][0] == tag:
                del self.open[k:]
                break

    def handle_data(self, data):
        if self.open:
            self.texts[self.open[-1][1]] += data


def matches(cls, want):
    n = 0
    for classes, attrs in P.elems:
        if cls not in classes:
            continue
        if all(attrs.get(k) == v for k, v in want.items()):
            n += 1
    return n


with open(sys.argv[1], "rb") as f:
    text = f.read().decode("utf-8")
P = Collect()
P.feed(text)
P.close()
bad = 0
with open(sys.argv[2]) as f:
    for line in f:
        w = line.split()
        if not w:
            continue
        if w[0] == "tags":
            got = P.tags.get(w[1], 0)
            if got != int(w[2]):
                print("%d <%s> elements, want %s" % (got, w[1], w[2]))
                bad += 1
            continue
        if w[0] == "text":
            want = bytes.fromhex(w[2]).decode("utf-8") if len(w) > 2 else ""
            if not any(w[1] in c and t == want for (c, _), t in zip(P.elems, P.texts)):
                print("no %s element with the text %r" % (w[1], want))
                bad += 1
            continue
        if w[0] == "has":
            op, n, cls, kv = "min", 1, w[1], w[2:]
        else:
            op, n, cls, kv = w[0], int(w[1]), w[2], w[3:]
        want = {}
        for x in kv:
            k, v = x.split("=", 1)
            want[k] = bytes.fromhex(v).decode("utf-8")
        got = matches(cls, want)
        if (op == "min" and got < n) or (op == "count" and got != n) or (op == "max" and got > n):
            print("%s %d, got %d: %s %s" % (op, n, got, cls, want))
            bad += 1
if bad:
    sys.exit(1)
