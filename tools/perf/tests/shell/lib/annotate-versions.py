#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""One symbol's versions in our annotate against stock perf's, one run each.

Usage: annotate-versions.py OURS SYM=PERF[,PERF...] [SYM=PERF[,PERF...]]...

OURS is perf textpoke annotate -n --asm-raw, where SYM is one block per
version with samples, each under a line "# SYM, version K of N: ...".
Each PERF is stock perf annotate -n --asm-raw -s SYM on a snapshot of the
kernel's code taken inside the span of SYM's block of the same rank.  Each
of our blocks must show the instructions (addresses and raw bytes) perf
shows on its snapshot, and perf, which counts every sample of the symbol
on whichever bytes it was given, must have at each address the sum of our
versions' counts there, and in its header the sum of our headers.  Parsed
with regular expressions, sharing nothing with the C code.
"""
import re
import sys

HEADER = re.compile(r"^ Samples \|\tSource code & Disassembly of .+ for .+ "
                    r"\((\d+) samples, percent: [a-z ]+\)$")
INSN = re.compile(r"^ +(\d+) : +([0-9a-f]+):\s+(.*)$")
HEX = re.compile(r"^[0-9a-f]{2}$")


def raw(text):
    """the leading bytes of an --asm-raw line, and whether that is all of it"""
    out = []
    words = text.split(" ")
    for i, w in enumerate(words):
        if not HEX.match(w):
            rest = " ".join(words[i:]).strip()
            return out, not rest
        out.append(w)
    return out, True


def blocks(path, titled=None):
    """[(samples, {addr: (count, bytes)})], for our blocks titled SYM's versions only"""
    out = []
    cur = None
    keep = titled is None
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("# "):
                keep = titled is not None and line.startswith(f"# {titled}, version ")
                continue
            m = HEADER.match(line)
            if m:
                cur = None
                if keep:
                    cur = [int(m.group(1)), {}, None]
                    out.append(cur)
                keep = titled is None
                continue
            m = INSN.match(line)
            if not m or cur is None:
                continue
            addr, count = int(m.group(2), 16), int(m.group(1))
            b, only = raw(m.group(3))
            if only and cur[2] is not None and count == 0:
                # objdump's continuation of a long instruction's bytes
                c, prev = cur[1][cur[2]]
                cur[1][cur[2]] = (c, prev + b)
                continue
            cur[1][addr] = (count, b)
            cur[2] = addr
    return [(b[0], b[1]) for b in out]


def check(ours_path, sym, perf_paths):
    """the differences for one symbol, and what was compared"""
    ours = blocks(ours_path, sym)
    bad = []
    if len(ours) != len(perf_paths):
        return [f"{sym}: {len(ours)} versions of ours, {len(perf_paths)} snapshots"], ""
    total = sum(o[0] for o in ours)
    summed = {}
    for _, insns in ours:
        for addr, (count, _) in insns.items():
            summed[addr] = summed.get(addr, 0) + count
    for k, (path, (_, insns)) in enumerate(zip(perf_paths, ours), 1):
        perf = blocks(path)
        if len(perf) != 1:
            bad.append(f"{path}: {len(perf)} blocks from perf, not 1")
            continue
        n, pins = perf[0]
        if n != total:
            bad.append(f"{path}: perf has {n} samples, our versions {total}")
        for addr in sorted(set(pins) | set(insns)):
            if addr not in pins or addr not in insns:
                bad.append(f"{sym} version {k}: {addr:x} only in "
                           f"{'perf' if addr in pins else 'ours'}")
                continue
            if pins[addr][1] != insns[addr][1]:
                bad.append(f"{sym} version {k}: at {addr:x} perf's bytes "
                           f"{' '.join(pins[addr][1])}, ours {' '.join(insns[addr][1])}")
            if pins[addr][0] != summed.get(addr, 0):
                bad.append(f"{sym} version {k}: at {addr:x} perf counts {pins[addr][0]}, "
                           f"our versions {summed.get(addr, 0)}")
    return bad, (f"ok: {sym}: {len(ours)} versions, {total} samples, "
                 f"{sum(len(i) for _, i in ours)} instructions")


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    bad = []
    for arg in sys.argv[2:]:
        sym, _, paths = arg.partition("=")
        b, ok = check(sys.argv[1], sym, [p for p in paths.split(",") if p])
        bad += b
        if not b:
            print(ok)
    if bad:
        print("\n".join(bad[:20]))
        sys.exit(1)


if __name__ == "__main__":
    main()
