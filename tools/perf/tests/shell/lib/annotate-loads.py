#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Compare annotate --stdio blocks by load, whatever the object is called.

Usage: annotate-loads.py PERF OURS [PERF OURS]...

For code that the two sides name differently (a BPF program: its KSYMBOL
name in ours, the ELF object inject --jit wrote in stock perf's), a block
is known by its first address and its event.  A program loaded twice at
one address gives two blocks with one key: the blocks of a key are then
compared as a multiset of (sample count, address -> figure).  Every block
of either side must have its twin on the other: the same header figures,
the same addresses, the same figure at each.  Sibling of
annotate-check.py; parses with regular expressions, sharing nothing with
the C code.
"""
import re
import sys

HEADER = re.compile(r"^ (Percent|Samples) \|\tSource code & Disassembly of (.+) "
                    r"for (.+) \((\d+) samples, percent: ([a-z ]+)\)$")
INSN = re.compile(r"^ +(\d+(?:\.\d+)?) : +([0-9a-f]+):(.*)$")
# objdump --asm-raw's continuation line of a long instruction's bytes
MORE_BYTES = re.compile(r"^\s*([0-9a-f]{2} )*[0-9a-f]{2}\s*$")


def parse(path):
    blocks = []
    cur = None
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            line = line.rstrip("\n")
            m = HEADER.match(line)
            if m:
                cur = {"head": (m.group(1), m.group(3), int(m.group(4)), m.group(5)),
                       "pairs": []}
                blocks.append(cur)
                continue
            m = INSN.match(line)
            if not m or (MORE_BYTES.match(m.group(3)) and float(m.group(1)) == 0):
                continue
            if cur is None:
                sys.exit(f"{path}: an instruction line before any header: {line}")
            cur["pairs"].append((int(m.group(2), 16), m.group(1)))
    out = {}
    for b in blocks:
        if not b["pairs"]:
            sys.exit(f"{path}: a block with no instruction: {b['head']}")
        key = (b["pairs"][0][0], b["head"][1])
        out.setdefault(key, []).append((b["head"], tuple(b["pairs"])))
    return out


def compare(perf_path, ours_path):
    """the differences of one pair of outputs, and what was compared"""
    perf, ours = parse(perf_path), parse(ours_path)
    if not perf:
        return [f"{perf_path}: stock perf printed no block"], ""
    bad = []
    for key in sorted(set(perf) | set(ours)):
        name = f"{ours_path}: the block at {key[0]:x} ({key[1]})"
        p, o = sorted(perf.get(key, [])), sorted(ours.get(key, []))
        if len(p) != len(o):
            bad.append(f"{name}: {len(p)} from perf, {len(o)} from us")
            continue
        for (ph, pp), (oh, op) in zip(p, o):
            if ph != oh:
                bad.append(f"{name}: header {ph} from perf, {oh} from us")
            elif pp != op:
                diff = [f"{a:x}: perf {f}" for a, f in pp if (a, f) not in op][:3]
                diff += [f"{a:x}: ours {f}" for a, f in op if (a, f) not in pp][:3]
                bad.append(f"{name}: figures differ: {diff}")
    n = sum(len(v) for v in perf.values())
    addrs = sum(len(b[1]) for v in perf.values() for b in v)
    return bad, f"ok: {ours_path}: {n} blocks, {addrs} addresses"


def main():
    args = sys.argv[1:]
    if not args or len(args) % 2:
        sys.exit(__doc__)
    bad = []
    for i in range(0, len(args), 2):
        b, ok = compare(args[i], args[i + 1])
        bad += b
        if not b:
            print(ok)
    if bad:
        print("\n".join(bad[:20]))
        sys.exit(1)


if __name__ == "__main__":
    main()
