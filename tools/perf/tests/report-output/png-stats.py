#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
# Is a screenshot blank?  Prints "WIDTH HEIGHT DISTINCT_COLOURS
# PERMILLE_NOT_WHITE" of a PNG (decoded by pngread.py, zlib alone).
# Usage: png-stats.py FILE.png
import sys

import pngread

w, h, rows = pngread.read(sys.argv[1])
colours, not_white = set(), 0
for row in rows:
    for px in row:
        colours.add(px)
        if px != (255, 255, 255):
            not_white += 1
print(w, h, len(colours), not_white * 1000 // (w * h))
