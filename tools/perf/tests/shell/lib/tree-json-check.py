#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
# The oracle of report-tree-output.sh: our report --json's call-graph
# trees against stock perf report --stdio -g folded,0,ORDER,period on the
# same recording.  perf's folded form prints, under each row, one line
# per tree node that chains end in: "PERIOD frame;frame;...".  From the
# JSON, the same lines are made from the nodes whose "self" is not 0, the
# path read up the "parent" links; each entry's lines must be perf's, as
# a multiset, and the entries come in perf's row order.  The JSON is also
# checked on its own: each node's period is its self plus its children's
# (threshold 0 leaves nothing out), and an entry's top nodes add up to no
# more than its Children (or its Self with --no-children): a sample
# without a chain gives its period to the entry and nothing to the tree.
# Usage: tree-json-check.py OURS.json PERF.txt
import json
import re
import sys

ours = json.load(open(sys.argv[1]))
rows = []
for line in open(sys.argv[2]):
    line = line.rstrip("\n")
    if not line or line.startswith("#"):
        continue
    m = re.match(r"^(\d+) (.*)$", line)
    if m:
        if not rows:
            sys.exit("perf: a folded line before any row: %r" % line)
        rows[-1][1].append((int(m.group(1)), m.group(2)))
        continue
    m = re.search(r"\[[.k]\] (.*?)\s*$", line)
    if not m:
        sys.exit("perf: not a row nor a folded line: %r" % line)
    rows.append((m.group(1), []))


def hexc(v, width=0):
    # C's "%#llx" (and "%-#.16llx"): no "0x" before a zero
    return ("0x" if v else "") + ("%0*x" % (width, v))


def name(n):
    if n["sym"] is None:
        return hexc(int(n["ip"], 16))
    return n["sym"] + (" (inlined)" if n.get("inlined") else "")


bad = 0
entries = [e for ev in ours["profile"] for e in ev["entries"]]
hists = [ev for ev in ours["profile"] for e in ev["entries"]]
if len(entries) != len(rows):
    sys.exit("%d entries in the JSON, %d rows in perf's" % (len(entries), len(rows)))
nodes_seen = 0
for e, ev, (sym, folded) in zip(entries, hists, rows):
    esym = e["sym"] if e["sym"] is not None else hexc(int(e["ip"], 16), 16)
    if e.get("inlined"):
        esym += " (inlined)"
    if esym != sym:
        print("entry %s, perf's row %s" % (esym, sym))
        bad += 1
        continue
    nodes = e.get("callchain")
    if nodes is None:
        sys.exit("entry %s: no callchain in the JSON" % esym)
    nodes_seen += len(nodes)
    kids = [0] * len(nodes)
    lines = []
    top = 0
    for i, n in enumerate(nodes):
        p = n["parent"]
        if p >= i or p < -1:
            sys.exit("entry %s: node %d's parent %d is not before it" % (esym, i, p))
        if p >= 0:
            kids[p] += n["period"]
        else:
            top += n["period"]
        if n["self"]:
            path, k = [], i
            while k >= 0:
                path.append(name(nodes[k]))
                k = nodes[k]["parent"]
            lines.append((n["self"], ";".join(reversed(path))))
    for i, n in enumerate(nodes):
        if n["period"] != n["self"] + kids[i]:
            print("entry %s: node %d (%s) period %d, self %d + children %d" %
                  (esym, i, name(n), n["period"], n["self"], kids[i]))
            bad += 1
    want = e["children"] if ev["children"] else e["period"]
    # a sample without a chain adds to the entry and not to its tree
    if top > want:
        print("entry %s: top nodes add up to %d, the entry has only %d" % (esym, top, want))
        bad += 1
    if sorted(lines) != sorted(folded):
        print("entry %s: chains differ from perf's folded lines" % esym)
        for x in sorted(set(lines) ^ set(folded))[:6]:
            print("  %s %d %s" % ("ours" if x in lines else "perf", x[0], x[1][:160]))
        bad += 1
if bad:
    sys.exit("%d differences" % bad)
print("%d entries, %d tree nodes, equal to perf's folded chains" % (len(entries), nodes_seen))
