#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
# What the --html timeline draws, read from Chromium's screenshot: each
# lane's marks (a change's segment, a region's life) in their colour over
# the x extent their times give.  The expected file, written by the test
# from its own figures:
#   span T0 T1             the times at the plot's two ends (ns)
#   track RRGGBB           the lane's background, under translucent marks
#   lane NAME              a lane, top to bottom in drawing order
#   mark T1 T2 RRGGBB A    over [T1, T2) (T2 "end": to the plot's end) the
#                          colour RRGGBB at opacity A/1000 over the track
# The plot's ends are found on the page, not taken from the writer: the
# time axis is the one long grey line (its own stroke, at 50% over white
# where the line falls between two pixel rows); the lanes are the bands
# that are not white just inside its left end, counted up from it.  Then
# every pixel of a lane's middle row from 2 px inside a mark's ends to 2
# px before its next must be the mark's colour (within 12 per channel).
# Usage: timeline-pixels.py SHOT.png EXPECTED
import math
import sys

import pngread

TOL = 12
WHITE = (255, 255, 255)

w, h, rows = pngread.read(sys.argv[1])
span, track, lanes = None, None, []
for line in open(sys.argv[2]):
    f = line.split()
    if not f or f[0].startswith("#"):
        continue
    if f[0] == "span":
        span = (int(f[1]), int(f[2]))
    elif f[0] == "track":
        track = tuple(int(f[1][i:i + 2], 16) for i in (0, 2, 4))
    elif f[0] == "lane":
        lanes.append((" ".join(f[1:]), []))
    elif f[0] == "mark":
        colour = tuple(int(f[3][i:i + 2], 16) for i in (0, 2, 4))
        alpha = int(f[4]) / 1000.0
        want = tuple(round(c * alpha + t * (1 - alpha)) for c, t in zip(colour, track))
        lanes[-1][1].append((int(f[1]), None if f[2] == "end" else int(f[2]), want))
if not span or not track or not lanes:
    sys.exit("%s: no span, track or lanes" % sys.argv[2])


def axis_grey(px):
    return px[0] == px[1] == px[2] and 0x90 <= px[0] <= 0xcc


# the time axis: the topmost row with a grey run of 300 pixels or more
axis = None
for y in range(h):
    x = 0
    while x < w:
        if not axis_grey(rows[y][x]):
            x += 1
            continue
        start = x
        while x < w and axis_grey(rows[y][x]):
            x += 1
        if x - start >= 300 and (axis is None or x - start > axis[2] - axis[1]):
            axis = (y, start, x)
    if axis:
        break
if not axis:
    sys.exit("no time axis (a grey line of 300 pixels) in the screenshot")
y_axis, x0, x1 = axis
scale = (x1 - x0) / (span[1] - span[0])

# the lanes: bands that are not white, counted up from the axis
bands, y = [], y_axis - 1
col = x0 + 2
while y >= 0 and len(bands) < len(lanes):
    while y >= 0 and rows[y][col] == WHITE:
        y -= 1
    bottom = y
    while y >= 0 and rows[y][col] != WHITE:
        y -= 1
    if y < 0:
        break
    bands.append((y + 1, bottom))
bands.reverse()
if len(bands) != len(lanes):
    sys.exit("%d lanes above the axis at x %d, %d expected" % (len(bands), col, len(lanes)))

bad, checked = [], 0
for (name, marks), (top, bottom) in zip(lanes, bands):
    if not 10 <= bottom - top + 1 <= 18:
        bad.append("lane %s: %d pixels high at y %d" % (name, bottom - top + 1, top))
        continue
    row = rows[(top + bottom) // 2]
    for t1, t2, want in marks:
        a = x0 + (t1 - span[0]) * scale
        b = x1 if t2 is None else x0 + (t2 - span[0]) * scale
        xs = range(math.ceil(a) + 2, math.floor(b) - 1)
        if not xs:
            bad.append("lane %s: the mark at %d is under 5 pixels: not checkable" % (name, t1))
            continue
        for x in xs:
            checked += 1
            px = row[x]
            if any(abs(p - q) > TOL for p, q in zip(px, want)):
                bad.append("lane %s: the mark [%d, %s) should be #%02x%02x%02x at x %d "
                           "(%.1f..%.1f), y %d: #%02x%02x%02x" %
                           ((name, t1, t2 if t2 is not None else "end") + want +
                            (x, a, b, (top + bottom) // 2) + px))
                break
if bad:
    for b in bad[:12]:
        print(b)
    sys.exit("%d marks drawn otherwise than their times and colours say" % len(bad))
print("axis at y %d, x %d..%d; %d lanes, %d pixels as their marks say" %
      (y_axis, x0, x1, len(lanes), checked))
