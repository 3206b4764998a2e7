#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
# The oracle of report-keys-output.sh and report-group-output.sh: a
# report --stdio (stock perf's, or ours where perf 6.1 has no answer)
# against our --json and --html of the same recording and options.  The
# text's blocks ("# Samples: ... of event 'NAME'"), columns (cut where
# the dots line under the header puts them; the last one takes the rest
# of the line) and rows are read (a call-graph tree's line has no
# percentage in the first column).  Each row must be the JSON entry and
# the HTML table row at its place, for the columns both carry: Children,
# Self/Overhead, Samples, Period (a token per group member, as the text
# prints them side by side) and the keys comm, dso, sym, dso_size,
# symoff, srcline, srcfile, parent.  The JSON's percentages are made
# here from its periods and totals, as C's double arithmetic makes the
# text's, and its own percentages checked against them.
# Usage: keys-output-check.py TEXT JSON HTML
import json
import re
import sys
from html.parser import HTMLParser

KEYS = {
    "DSO size": "dso_size",
    "Symbol Offset": "symoff",
    "Source:Line": "srcline",
    "Source File": "srcfile",
    "Parent symbol": "parent",
    "Command": "comm",
    "Shared Object": "dso",
    "Symbol": "sym",
}
VALUES = ("Children", "Self", "Overhead", "Samples", "Period")


def fail(msg):
    sys.exit("keys-output-check: " + msg)


def text_blocks(path):
    blocks, cur, header, cuts = [], None, None, None
    for line in open(path):
        line = line.rstrip("\n")
        m = re.match(r"^# Samples: \S+ +of events? '(.*)'", line)
        if m:
            cur = {"event": m.group(1), "rows": []}
            blocks.append(cur)
            header = cuts = None
            continue
        if cur is None:
            continue
        if re.match(r"^# \.", line):
            cuts = [m.start() for m in re.finditer(r"\.+", line)]
            names = [header[c:n].strip() for c, n in zip(cuts, cuts[1:] + [len(header)])]
            cur["names"] = names
            continue
        if line.startswith("#"):
            header = line
            continue
        if not line or cuts is None:
            continue
        cells = [line[c:n] for c, n in zip(cuts, cuts[1:] + [len(line)])]
        # a call-graph tree's line (an unknown frame's "0000..." too): no
        # percentages in the first column, which the reports compared start with
        if not re.match(r"^[\d.]+%( +[\d.]+%)*$", cells[0].strip()):
            continue
        cells[-1] = line[cuts[-1]:]
        cur["rows"].append(dict(zip(cur["names"], cells)))
    return blocks


def pct(part, total):
    return "%.2f%%" % (100.0 * part / total if total else 0.0)


def json_cell(ev, e, name):
    if name in KEYS:
        v = e.get(KEYS[name], KeyError)
        if v is KeyError:
            fail("%s: entry without %s: %r" % (ev["event"], KEYS[name], e))
        if name == "Shared Object":
            return v or "[unknown]"
        if name == "Symbol":
            level = "[k] " if e["level"] == "kernel" else "[.] "
            if v is None:
                # C's "%#.16llx": no "0x" before a zero
                ip = int(e["ip"], 16)
                return level + ("0x" if ip else "") + "%016x" % ip
            return level + v + (" (inlined)" if e["inlined"] else "")
        return "unknown" if v is None else str(v)
    members = e.get("members")
    totals = [m["total_period"] for m in ev.get("members", [])]
    if members is None:
        members, totals = [e], [ev["total_period"]]
    elif any(e[k] != members[0][k] for k in ("overhead", "period", "nr_samples")):
        fail("%s: an entry's own values are not its leader's: %r" % (ev["event"], e))
    if len(members) != len(totals):
        fail("%s: %d member values, %d member totals" % (ev["event"], len(members), len(totals)))
    out = []
    for m, t in zip(members, totals):
        # the JSON's own percentages: of the same periods and totals
        for key, part in (("overhead", "period"), ("children_overhead", "children")):
            if key in m and abs(m[key] - (100.0 * m[part] / t if t else 0.0)) > 1e-6:
                fail("%s: %s %r is not %s of %d" % (ev["event"], key, m[key], part, t))
        if name == "Children":
            out.append(pct(m["children"], t))
        elif name in ("Self", "Overhead"):
            out.append(pct(m["period"], t))
        elif name == "Samples":
            out.append(str(m["nr_samples"]))
        else:
            out.append(str(m["period"]))
    return " ".join(out)


class Tables(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.blocks, self.cell, self.in_h2, self.row, self.table = [], None, False, None, False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "h2":
            self.in_h2 = True
            self.blocks.append({"event": "", "names": [], "rows": []})
        elif tag == "table" and "hist" in (a.get("class") or "").split():
            self.table = True
        elif tag == "tr" and "row" in (a.get("class") or "").split():
            self.row = []
            self.blocks[-1]["rows"].append(self.row)
        elif tag in ("td", "th"):
            self.cell = ""

    def handle_endtag(self, tag):
        if tag == "h2":
            self.in_h2 = False
        elif tag == "th" and self.cell is not None:
            if self.table:
                self.blocks[-1]["names"].append(self.cell)
            self.cell = None
        elif tag == "td" and self.cell is not None:
            if self.row is not None:
                self.row.append(self.cell)
            self.cell = None
        elif tag == "tr":
            self.row = None
        elif tag == "table":
            self.table = False

    def handle_data(self, data):
        if self.in_h2:
            self.blocks[-1]["event"] += data
        elif self.cell is not None:
            self.cell += data


def same(what, want, got):
    if what[1] in KEYS:
        ok = want.strip() == got.strip()
    else:
        ok = want.split() == got.split()
    if not ok:
        fail("%s row %d %s: the text says %r, %s says %r" % (what[0], what[2], what[1],
                                                             want.strip(), what[3], got.strip()))


text = text_blocks(sys.argv[1])
doc = json.load(open(sys.argv[2]))
parser = Tables()
parser.feed(open(sys.argv[3], encoding="utf-8").read())
# as the text, an event without samples has no block
events = [ev for ev in doc["profile"] if ev["nr_samples"]]
htmls = [b for b in parser.blocks if b["names"]]
if [b["event"] for b in text] != [ev["event"] for ev in events]:
    fail("blocks: the text has %r, the JSON %r" % ([b["event"] for b in text],
                                                   [ev["event"] for ev in events]))
if [b["event"] for b in text] != [b["event"] for b in htmls]:
    fail("blocks: the text has %r, the HTML %r" % ([b["event"] for b in text],
                                                   [b["event"] for b in htmls]))
nr_rows = nr_cells = 0
for tb, ev, hb in zip(text, events, htmls):
    names = [n for n in tb["names"] if n in KEYS or n in VALUES]
    if not any(n in KEYS for n in names):
        fail("%s: no key column in the text" % tb["event"])
    if len(tb["rows"]) != len(ev["entries"]):
        fail("%s: %d rows in the text, %d entries in the JSON" % (tb["event"], len(tb["rows"]),
                                                                  len(ev["entries"])))
    # the HTML shows 200 rows at most
    if len(hb["rows"]) != min(len(tb["rows"]), 200):
        fail("%s: %d rows in the text, %d in the HTML" % (tb["event"], len(tb["rows"]),
                                                          len(hb["rows"])))
    # the HTML has no Period column
    for n in names:
        if n not in hb["names"] and n != "Period":
            fail("%s: the HTML has no column %r (it has %r)" % (tb["event"], n, hb["names"]))
    for i, row in enumerate(tb["rows"]):
        for n in names:
            same((tb["event"], n, i, "the JSON"), row[n], json_cell(ev, ev["entries"][i], n))
            if i < len(hb["rows"]) and n in hb["names"]:
                same((tb["event"], n, i, "the HTML"), row[n], hb["rows"][i][hb["names"].index(n)])
                nr_cells += 1
            nr_cells += 1
        nr_rows += 1
if not nr_rows:
    fail("no rows compared")
print("%d blocks, %d rows, %d cells equal (%s)" % (len(text), nr_rows, nr_cells, ", ".join(
    sorted({n for b in text for n in b["names"] if n in KEYS or n in VALUES}))))
