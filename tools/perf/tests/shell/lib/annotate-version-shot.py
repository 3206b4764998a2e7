#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""A version block of annotate --html as headless Chromium draws it.

Usage: annotate-version-shot.py SHOT.png

SHOT is the top of the page of annotate-kernel-versions' --html, whose first
block is a version of a poked kernel function.  Top to bottom, the pixels
must show its summary (the band of rgb(232,232,244) the page's style gives
a summary), then its version line (text in the style's #335,
rgb(51,51,85), a line of it as wide as a title, not a glyph), then the
table with the hot line's red band (r 255, g = b < 250) below: the
version is drawn where a reader looks for it, not hidden or misplaced.
Reads the PNG with pngread.py (zlib only), shares nothing with the C code.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                "report-output"))
import pngread  # noqa: E402

SUMMARY = (232, 232, 244)
TITLE = (51, 51, 85)


def main():
    w, h, px = pngread.read(sys.argv[1])
    summary, title, red = [], [], []
    left, right = w, 0
    for y in range(h):
        row = px[y]
        if sum(1 for p in row if p == SUMMARY) > w // 2:
            summary.append(y)
        xs = [x for x, p in enumerate(row) if p == TITLE]
        if xs:
            title.append(y)
            left, right = min(left, xs[0]), max(right, xs[-1])
        if sum(1 for r, g, b in row if r == 255 and g == b and g < 250) > w // 2:
            red.append(y)
    if not summary or not title or not red:
        sys.exit("drawn: %d summary rows, %d version-line rows, %d red rows" %
                 (len(summary), len(title), len(red)))
    # the first block: its summary (the first band), then its version line, then its hot line
    summary = [y for i, y in enumerate(summary) if y == summary[0] + i]
    first_title = [y for y in title if y > summary[0]]
    if not first_title or not summary[-1] < first_title[0] or \
       not first_title[-1] < red[0] or right - left < w // 3:
        sys.exit("summary rows %d-%d, version line rows %s, its width %d px, red from %d: "
                 "not a version line drawn between summary and table" %
                 (summary[0], summary[-1], title[:3], right - left, red[0]))
    print("drawn: summary at y %d-%d, version line at y %d-%d (%d px wide), hot line at y %d" %
          (summary[0], summary[-1], first_title[0], first_title[-1], right - left, red[0]))


if __name__ == "__main__":
    main()
