#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Check annotate's source lines, sharing nothing with the C code.

Usage: annotate-source-check.py perf PERF OURS
       annotate-source-check.py table OURS DECODEDLINE SRCDIR HEADER

perf: stock perf annotate --stdio and ours print the same lines in the
same order, but for the instruction text (objdump's against capstone's:
only the figure, the address and -l's " // file:line" mark are kept) and
the numbers of source lines, which perf 6.1 gets wrong (it numbers them
from the last line objdump names, so the context lines objdump prints
before a line take that line's number and the ones after it).  Its
numbers of the other lines (the section's, the symbol's, "fn():") are
compared.  perf's --asm-raw lines of a long instruction's further bytes
are left out: they are no instruction, and we print the bytes on one line.

table: against the line table (objdump --dwarf=decodedline, saved in
DECODEDLINE), for our output OURS: before each instruction, the last
source line printed is the line the table gives its address, and every
source line printed there is that line of its file in SRCDIR, by number
and text (blanks trimmed, tabs expanded); every -l mark " // file:line"
is the table's line at its address, "??:0" where the table has none.  An inlined function of HEADER is
named ("fn():") before an instruction the table puts in HEADER.
"""
import os
import re
import sys

INSN = re.compile(r"^ +(\d+(?:\.\d+)?) : +([0-9a-f]+):(.*)$")
MARK = re.compile(r" // (\S+)$")
MORE_BYTES = re.compile(r"^\s*([0-9a-f]{2} )*[0-9a-f]{2}\s*$")
TEXT = re.compile(r"^ +: (\d+) +(.*)$")
BLANK = re.compile(r"^ +:$")
HEADER = re.compile(r"^ (Percent|Samples) \|\tSource code & Disassembly of ")
# the lines objdump writes that are not source: perf's numbers of them are kept
OTHER = re.compile(r"^(Disassembly of section \S+:|[0-9a-f]{16} <.+>:|[A-Za-z_][\w.]*\(\):)$")


def die(msg):
    """the reason on stdout, which the test quotes"""
    print(msg)
    sys.exit(1)


def norm(path):
    out = []
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            line = line.rstrip("\n")
            m = INSN.match(line)
            if m:
                mark = MARK.search(m.group(3))
                if MORE_BYTES.match(m.group(3)):
                    continue
                out.append(f"{m.group(1)} : {m.group(2)}" + (f" // {mark.group(1)}" if mark else ""))
                continue
            m = TEXT.match(line)
            if m and not OTHER.match(m.group(2)):
                out.append(f"# {m.group(2)}")
                continue
            out.append(line)
    return out


def compare(perf_path, ours_path):
    p, o = norm(perf_path), norm(ours_path)
    if not p:
        die("stock perf printed nothing")
    for i, (a, b) in enumerate(zip(p, o)):
        if a != b:
            die(f"line {i + 1}: perf '{a}', ours '{b}'")
    if len(p) != len(o):
        die(f"perf prints {len(p)} lines, we print {len(o)}")
    src = sum(1 for x in p if x.startswith("# "))
    print(f"ok: {len(p)} lines, {src} source lines")


def table_rows(path):
    """(address, file base name, line) of each row, in the dump's order;
    line None for a sequence's end ("-")"""
    rows = []
    row = re.compile(r"^(\S+)\s+(\d+|-)\s+(0x[0-9a-f]+)(\s|$)")
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            m = row.match(line)
            if m:
                nr = None if m.group(2) == "-" else int(m.group(2))
                rows.append((int(m.group(3), 16), os.path.basename(m.group(1)), nr))
    if not rows:
        die(f"{path}: no row")
    return rows


def line_at(rows, addr):
    """the row in effect at addr: the last one listed at the highest address
    not above it; None past a sequence's end (code without a line)"""
    best = None
    for r in rows:
        if r[0] <= addr and (best is None or r[0] >= best[0]):
            best = r
    return best if best and best[2] is not None else None


def expand(text):
    out = ""
    for c in text:
        out += " " * (8 - len(out) % 8) if c == "\t" else c
    return out


def table(ours_path, dump, srcdir, header):
    rows = table_rows(dump)
    files = {}
    for name in os.listdir(srcdir):
        if name.endswith((".c", ".h")):
            with open(os.path.join(srcdir, name), encoding="utf-8") as f:
                files[name] = f.read().split("\n")
    bad = []
    pending, fn = [], None
    checked = marks = inlined = 0
    with open(ours_path, encoding="utf-8", errors="replace") as f:
        for line in f:
            line = line.rstrip("\n")
            if HEADER.match(line):
                pending, fn = [], None
                continue
            m = INSN.match(line)
            if m:
                addr = int(m.group(2), 16)
                r = line_at(rows, addr)
                mark = MARK.search(m.group(3))
                if r and mark:
                    marks += 1
                    if mark.group(1) != f"{r[1]}:{r[2]}":
                        bad.append(f"{addr:x}: marked {mark.group(1)}, the table says {r[1]}:{r[2]}")
                elif mark:
                    # no line: addr2line's "??:?", perf's "??:0"
                    marks += 1
                    if mark.group(1) != "??:0":
                        bad.append(f"{addr:x}: marked {mark.group(1)}, the table has no line there")
                if r and pending:
                    if pending[-1][0] != r[2]:
                        bad.append(f"{addr:x}: the last source line is {pending[-1][0]}, "
                                   f"the table says {r[1]}:{r[2]}")
                    text = files.get(r[1])
                    for nr, got in pending:
                        want = expand(text[nr - 1].strip()) if text and nr <= len(text) else None
                        if got != want:
                            bad.append(f"{addr:x}: line {nr} of {r[1]} is '{want}', we print '{got}'")
                        checked += 1
                if r and fn and r[1] == header:
                    inlined += 1
                pending, fn = [], None
                continue
            m = TEXT.match(line)
            if m:
                if re.match(r"^[A-Za-z_]\w*\(\):$", m.group(2)):
                    fn = m.group(2)[:-3]
                    pending = []
                elif not OTHER.match(m.group(2)):
                    pending.append((int(m.group(1)), m.group(2)))
    if checked < 5:
        bad.append(f"only {checked} source lines checked")
    if not inlined:
        bad.append(f"no function of {header} named before its code")
    if bad:
        print("\n".join(bad[:20]))
        sys.exit(1)
    print(f"ok: {checked} source lines, {marks} marks, {inlined} inlined blocks of {header}")


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "perf":
        compare(sys.argv[2], sys.argv[3])
    elif len(sys.argv) == 6 and sys.argv[1] == "table":
        table(*sys.argv[2:])
    else:
        sys.exit(__doc__)


main()
