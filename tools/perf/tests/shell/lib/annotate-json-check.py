#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""The oracle of annotate-output.sh's --json part.

Usage: annotate-json-check.py JSON PERF PERF_N OURS

JSON is perf textpoke annotate --json (default percent type, local
period); PERF and PERF_N stock perf annotate --stdio on the same
recording, without and with -n; OURS our --stdio.  Checked, with Python's
parser and regular expressions (nothing shared with the C code):
 - the schema of Documentation/annotate-json.md: its keys and types,
   "version" null (user code);
 - each symbol's instructions tile [start, end) (address = start +
   offset, each one's bytes up to the next), their samples and periods
   sum to the symbol's, and percent is 100 * period / the symbol's period;
 - at every address of every block of perf's text: the same addresses,
   the JSON's percent printed %.2f is perf's figure and ours, and its
   samples perf -n's; the symbol's samples the header's.
"""
import json
import re
import sys

HEADER = re.compile(r"^ (Percent|Samples) \|\tSource code & Disassembly of (.+) "
                    r"for (.+) \((\d+) samples, percent: ([a-z ]+)\)$")
INSN = re.compile(r"^ +(\d+(?:\.\d+)?) : +([0-9a-f]+):(.*)$")
MORE_BYTES = re.compile(r"^\s*([0-9a-f]{2} )*[0-9a-f]{2}\s*$")


def stdio(path):
    """{first address: (header samples, {address: figure})}"""
    blocks, cur = {}, None
    for line in open(path, encoding="utf-8", errors="replace"):
        line = line.rstrip("\n")
        m = HEADER.match(line)
        if m:
            cur = [int(m.group(4)), {}]
            continue
        m = INSN.match(line)
        if m and cur is not None and not (MORE_BYTES.match(m.group(3))
                                          and float(m.group(1)) == 0):
            addr = int(m.group(2), 16)
            if not cur[1]:
                blocks[addr] = cur
            cur[1][addr] = m.group(1)
    return blocks


def keys(obj, want, where):
    for k, t in want.items():
        if k not in obj:
            sys.exit(f"{where}: no key {k}")
        if not isinstance(obj[k], t):
            sys.exit(f"{where}: {k} is {type(obj[k]).__name__}, not {t}")


doc = json.load(open(sys.argv[1]))
perf, perf_n, ours = stdio(sys.argv[2]), stdio(sys.argv[3]), stdio(sys.argv[4])
keys(doc, {"schema": str, "schema_version": int, "input": str, "percent_type": str,
           "events": list}, "document")
if doc["schema"] != "perf-textpoke-annotate" or doc["schema_version"] != 1:
    sys.exit(f"schema {doc['schema']} version {doc['schema_version']}")
if doc["percent_type"] != "local-period":
    sys.exit(f"percent_type {doc['percent_type']}")
bad, nr_addrs, seen = [], 0, set()
for ev in doc["events"]:
    keys(ev, {"event": str, "total_samples": int, "total_period": int, "symbols": list}, "event")
    for s in ev["symbols"]:
        keys(s, {"symbol": str, "object": str, "object_short": str, "start": str, "end": str,
                 "samples": int, "period": int, "percent_type": str, "instructions": list},
             "symbol")
        name = s["symbol"]
        if s.get("version", 0) is not None:
            bad.append(f"{name}: version is {s.get('version', 'missing')}, not null")
        start, end = int(s["start"], 16), int(s["end"], 16)
        at, n, period = start, 0, 0
        fig = {}
        for i in s["instructions"]:
            keys(i, {"address": str, "offset": int, "bytes": str, "text": str, "samples": int,
                     "period": int, "percent": (int, float)}, f"{name} instruction")
            addr = int(i["address"], 16)
            if addr != at or i["offset"] != addr - start:
                bad.append(f"{name}: instruction at {addr:x} (offset {i['offset']}), "
                           f"expected at {at:x}")
            at = addr + len(i["bytes"].split())
            n += i["samples"]
            period += i["period"]
            want = 100.0 * i["period"] / s["period"] if s["period"] else 0.0
            if abs(i["percent"] - want) > 1e-5:
                bad.append(f"{name}+{i['offset']:#x}: percent {i['percent']}, "
                           f"period {i['period']} of {s['period']} is {want}")
            fig[addr] = ("%.2f" % i["percent"], str(i["samples"]))
        if at != end:
            bad.append(f"{name}: instructions end at {at:x}, the symbol at {end:x}")
        if n != s["samples"] or period != s["period"]:
            bad.append(f"{name}: instructions sum to {n} samples {period} period, "
                       f"the symbol says {s['samples']} {s['period']}")
        seen.add(start)
        for what, text, col in (("perf", perf, 0), ("perf -n", perf_n, 1), ("ours", ours, 0)):
            if start not in text:
                bad.append(f"{name} at {start:x}: no block in {what}'s text")
                continue
            hdr, pairs = text[start]
            if hdr != s["samples"]:
                bad.append(f"{name}: {what}'s header has {hdr} samples, the JSON {s['samples']}")
            if set(pairs) != set(fig):
                bad.append(f"{name}: addresses differ from {what}'s: only there "
                           f"{[hex(a) for a in sorted(set(pairs) - set(fig))][:4]}, only here "
                           f"{[hex(a) for a in sorted(set(fig) - set(pairs))][:4]}")
            for addr, v in pairs.items():
                if addr in fig and fig[addr][col] != v:
                    bad.append(f"{name} at {addr:x}: {what} says {v}, the JSON {fig[addr][col]}")
                nr_addrs += what == "perf"
for what, text in (("perf", perf), ("ours", ours)):
    for start in set(text) - seen:
        bad.append(f"{what} has a block at {start:x} that the JSON has not")
if not seen:
    bad.append("no symbol in the JSON")
if bad:
    print("\n".join(bad[:20]))
    sys.exit(1)
print(f"ok: {len(seen)} symbols, {nr_addrs} addresses as perf's and our text")
