#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
# report-tree-m32.sh's oracle: the chains our own script prints (-F
# period,ip,sym: a line with the period, then a frame a line, innermost
# first) summed per path, against report -g folded,0,ORDER,period
# --no-children --sort comm, whose lines under the one row are "PERIOD
# frame;frame;...".  A frame without a symbol is printed by script at its
# object-relative address and by the folded tree at its absolute one:
# both are read as "?".
# Usage: tree-script-check.py SCRIPT.txt FOLDED.txt caller|callee
import re
import sys
from collections import Counter

order = sys.argv[3]
chains = Counter()
period, frames = None, []


def flush():
    if period is not None and frames:
        path = frames if order == "callee" else list(reversed(frames))
        chains[";".join(path)] += period


for line in open(sys.argv[1]):
    line = line.rstrip("\n")
    if not line.strip():
        continue
    if not line.startswith("\t"):
        flush()
        period, frames = int(line.split()[0]), []
        continue
    m = re.match(r"^\t\s*[0-9a-f]+ (.*)$", line)
    if not m:
        sys.exit("script: not a frame line: %r" % line)
    name = m.group(1)
    frames.append("?" if name == "[unknown]" else name)
flush()

folded = Counter()
for line in open(sys.argv[2]):
    m = re.match(r"^(\d+) (.*)$", line.rstrip("\n"))
    if not m:
        continue
    path = ";".join("?" if re.match(r"^0x[0-9a-f]+$", f) else f for f in m.group(2).split(";"))
    folded[path] += int(m.group(1))
if not folded:
    sys.exit("no folded line in the report")
if folded != chains:
    for p in sorted(set(folded) | set(chains)):
        if folded[p] != chains[p]:
            print("report %d, script %d: %s" % (folded[p], chains[p], p))
    sys.exit("the report's chains are not the script's")
print("%d chains, %d paths, equal to the script's" % (sum(chains.values()), len(chains)))
