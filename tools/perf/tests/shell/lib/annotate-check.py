#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Compare two perf annotate --stdio outputs by what they say, not how.

Usage: annotate-check.py PERF OURS
       annotate-check.py hits OURS SCRIPT DSO
       annotate-check.py nr OURS SCRIPT DSO

perf annotate 6.1 prints, for each symbol, a header
  " Percent |<TAB>Source code & Disassembly of DSO for EVENT (N samples, percent: TYPE)"
and then one line per instruction, "FIGURE :   ADDR:   text".  The text
is objdump's in perf's output and capstone's in ours, so only the header
figures and the address -> figure pairs are compared: the same blocks
(by object, first address and event), the same headers, the same figure at every
address, and the blocks in the same order where perf's order is defined
(by sample count; blocks with equal counts may come in any order).
Parsed here with regular expressions, sharing nothing with the C code.
"""
import re
import sys

HEADER = re.compile(r"^ (Percent|Samples|Period) \|\tSource code & Disassembly of (.+) "
                    r"for (.+) \((\d+) samples, percent: ([a-z ]+)\)$")
INSN = re.compile(r"^ +(\d+(?:\.\d+)?) : +([0-9a-f]+):(.*)$")
# objdump --asm-raw puts the bytes past the 7th of a long instruction on a
# line of their own, which perf prints as if it were an instruction
MORE_BYTES = re.compile(r"^\s*([0-9a-f]{2} )*[0-9a-f]{2}\s*$")
# objdump's symbol line, with the number perf gives it ("5    0000000000001190 <alpha>:")
SYMBOL = re.compile(r"^ +: +(?:\d+ +)?[0-9a-f]+ <(.+)>:$")


def parse(path):
    blocks = []
    cur = None
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            line = line.rstrip("\n")
            m = HEADER.match(line)
            if m:
                cur = {"header": m.groups(), "pairs": {}, "order": []}
                blocks.append(cur)
                continue
            m = INSN.match(line)
            if m and MORE_BYTES.match(m.group(3)) and float(m.group(1)) == 0:
                continue
            m2 = SYMBOL.match(line)
            if m2 and cur is not None and "sym" not in cur:
                cur["sym"] = m2.group(1)
            if m:
                if cur is None:
                    sys.exit(f"{path}: an instruction line before any header: {line}")
                addr = int(m.group(2), 16)
                if addr in cur["pairs"]:
                    sys.exit(f"{path}: address {addr:x} twice in one block")
                cur["pairs"][addr] = m.group(1)
                cur["order"].append(addr)
    out = {}
    keys = []
    for b in blocks:
        if not b["order"]:
            sys.exit(f"{path}: a block with no instruction: {b['header']}")
        key = (b["header"][1], b["order"][0], b["header"][2])
        if key in out:
            sys.exit(f"{path}: the block of {key[0]} at {key[1]:x} for {key[2]} twice")
        out[key] = b
        keys.append(key)
    return out, keys


def hits(ours_path, script_path, dso, counts=False):
    """--percent-type global-hits, where perf 6.1 prints 0.00 at every
    address: our figure at each address of @dso's blocks must be the
    share of all the event's samples that perf script -F sym,symoff,dso
    puts at that symbol offset, and the header's count their sum.
    @counts (-n, "nr"): the figure is that number of samples itself."""
    ours, keys = parse(ours_path)
    at = {}
    total = 0
    line_re = re.compile(r"^\s*[0-9a-f]+ (\S+)\+0x([0-9a-f]+) \((.+)\)$")
    with open(script_path, encoding="utf-8", errors="replace") as f:
        for line in f:
            total += 1
            m = line_re.match(line)
            if m:
                k = (m.group(3).rsplit("/", 1)[-1], m.group(1), int(m.group(2), 16))
                at[k] = at.get(k, 0) + 1
    if not total:
        sys.exit(f"{script_path}: no samples")
    bad = []
    checked = 0
    for key in keys:
        b = ours[key]
        if key[0] != dso:
            continue
        sym = b.get("sym")
        if not sym:
            bad.append(f"{dso} at {key[1]:x}: no symbol line")
            continue
        n = 0
        for addr in b["order"]:
            c = at.get((dso, sym, addr - key[1]), 0)
            n += c
            want = str(c) if counts else f"{100.0 * c / total:.2f}"
            if b["pairs"][addr] != want:
                bad.append(f"{sym}+{addr - key[1]:#x}: {c} of {total} samples, we say "
                           f"{b['pairs'][addr]}, not {want}")
            checked += 1
        if int(b["header"][3]) != n:
            bad.append(f"{sym}: perf script has {n} samples, our header {b['header'][3]}")
    if not checked:
        bad.append(f"no block of {dso} in our output")
    if bad:
        print("\n".join(bad[:20]))
        sys.exit(1)
    print(f"ok: {checked} addresses of {dso} against {total} samples")


def main():
    if len(sys.argv) == 5 and sys.argv[1] in ("hits", "nr"):
        hits(sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[1] == "nr")
        return
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    perf, perf_keys = parse(sys.argv[1])
    ours, our_keys = parse(sys.argv[2])
    bad = []
    if not perf:
        sys.exit("stock perf printed no block")
    for key in perf_keys:
        name = f"{key[0]} at {key[1]:x} ({key[2]})"
        if key not in ours:
            bad.append(f"{name}: perf has this block, we have not")
            continue
        p, o = perf[key], ours[key]
        if p["header"] != o["header"]:
            bad.append(f"{name}: header {p['header']} from perf, {o['header']} from us")
        if set(p["pairs"]) != set(o["pairs"]):
            only_p = sorted(set(p["pairs"]) - set(o["pairs"]))[:4]
            only_o = sorted(set(o["pairs"]) - set(p["pairs"]))[:4]
            bad.append(f"{name}: addresses only perf has {[hex(a) for a in only_p]}, "
                       f"only we have {[hex(a) for a in only_o]}")
        for addr in p["order"]:
            if addr in o["pairs"] and o["pairs"][addr] != p["pairs"][addr]:
                bad.append(f"{name}: at {addr:x} perf says {p['pairs'][addr]}, "
                           f"we say {o['pairs'][addr]}")
    for key in our_keys:
        if key not in perf:
            bad.append(f"{key[0]} at {key[1]:x} ({key[2]}): we have this block, perf has not")
    # the order: perf's, up to blocks with equal sample counts (per event)
    rank = lambda keys, blocks: [(blocks[k]["header"][2], int(blocks[k]["header"][3]))
                                  for k in keys]
    common_p = [k for k in perf_keys if k in ours]
    common_o = [k for k in our_keys if k in perf]
    if rank(common_p, perf) != rank(common_o, ours):
        bad.append("the blocks come in another order: perf "
                   f"{[(k[0], hex(k[1])) for k in common_p[:6]]}, ours "
                   f"{[(k[0], hex(k[1])) for k in common_o[:6]]}")
    if bad:
        print("\n".join(bad[:20]))
        sys.exit(1)
    print(f"ok: {len(perf)} blocks, {sum(len(b['pairs']) for b in perf.values())} addresses")


main()
