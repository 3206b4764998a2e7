#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""annotate --json on the writer's kernel against the text and the model.

Usage: annotate-json-versions.py TEXT JSON EXPECTED [HTML]

TEXT is perf textpoke annotate -n --asm-raw --stdio, JSON the --json document
of the same run, EXPECTED the fixture's model ("<ns> <hex ip> <hex bytes>..."
per sample).  The document must hold the text's blocks in the text's order,
each with its symbol, samples, version (index, count, span; a BPF program's
id and load times) as the line above the text's block says, and at each
address the text prints the same samples and bytes (the document's extra
addresses, the nops the text drops at a symbol's end, have none).  Every
model sample must be on one block whose version was live at its time, at
an instruction whose bytes start with the model's, and every instruction's
samples must be the model's count there.  HTML, the --html page of the
same run, must hold a <details class="sym"> per block in the same order,
its data-version-* attributes the version's, the text's title line (its
"# " dropped) under its summary, and a row per instruction with the
document's samples.  Parsed with regular expressions, Python's json module
and html.parser, sharing nothing with the C code.
"""
import collections
import json
import re
import sys
from html.parser import HTMLParser

TIME = r"(\d+\.\d{9})"
TITLE_V = re.compile(r"^# (.+), version (\d+) of (\d+): (start|%s) to (end|%s)" % (TIME, TIME))
TITLE_B = re.compile(r"^# (.+): BPF program (\d+), loaded at %s, "
                     r"(?:still loaded at the end|unloaded at %s)$" % (TIME, TIME))
HEADER = re.compile(r"^ Samples \|\tSource code & Disassembly of .+ \((\d+) samples, ")
SYMLINE = re.compile(r"^ +:\s+[0-9a-f]{16} <(.+)>:$")
INSN = re.compile(r"^ +(\d+) : +([0-9a-f]+):\s+(.*)$")
HEX = re.compile(r"^[0-9a-f]{2}$")


def ns(s):
    """"1.000002000" -> 1000002000; "start"/"end"/None -> None"""
    if s is None or s in ("start", "end"):
        return None
    sec, frac = s.split(".")
    return int(sec) * 10**9 + int(frac)


def text_blocks(path):
    blocks, title, line_of = [], None, [None]
    for line in open(path, encoding="utf-8", errors="replace"):
        line = line.rstrip("\n")
        m = TITLE_V.match(line)
        if m:
            line_of[0] = line
            title = {"kind": "version", "sym": m.group(1), "index": int(m.group(2)) - 1,
                     "count": int(m.group(3)), "start": ns(m.group(4)), "end": ns(m.group(6))}
            continue
        m = TITLE_B.match(line)
        if m:
            line_of[0] = line
            title = {"kind": "bpf", "sym": m.group(1), "id": int(m.group(2)),
                     "start": ns(m.group(3)), "end": ns(m.group(4))}
            continue
        m = HEADER.match(line)
        if m:
            blocks.append({"title": title, "samples": int(m.group(1)), "sym": None,
                           "lines": {}, "line": line_of[0] if title else None})
            title = None
            continue
        m = SYMLINE.match(line)
        if m and blocks and blocks[-1]["sym"] is None:
            blocks[-1]["sym"] = m.group(1)
            continue
        m = INSN.match(line)
        if m and blocks:
            raw = []
            for w in m.group(3).split():
                if not HEX.match(w):
                    break
                raw.append(w)
            blocks[-1]["lines"][int(m.group(2), 16)] = (int(m.group(1)), " ".join(raw))
    return blocks


class Page(HTMLParser):
    """the page's blocks: their attributes, title line and rows' samples"""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.blocks, self.in_title = [], False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        cls = (a.get("class") or "").split()
        if tag == "details" and "sym" in cls:
            self.blocks.append({"attrs": a, "title": None, "rows": []})
        elif tag == "p" and "version" in cls and self.blocks:
            self.blocks[-1]["title"] = ""
            self.in_title = True
        elif tag == "tr" and "insn" in cls and self.blocks:
            self.blocks[-1]["rows"].append((a.get("data-addr"), int(a.get("data-samples"))))

    def handle_data(self, data):
        if self.in_title:
            self.blocks[-1]["title"] += data

    def handle_endtag(self, tag):
        if tag == "p":
            self.in_title = False


def check_html(path, jb, titles, bad):
    page = Page()
    page.feed(open(path, encoding="utf-8").read())
    if len(page.blocks) != len(jb):
        bad.append("%d blocks on the page, %d in the document" % (len(page.blocks), len(jb)))
    for i, (g, j) in enumerate(zip(page.blocks, jb)):
        a, v = g["attrs"], j["version"]
        where = "page block %d (%s)" % (i, a.get("data-symbol"))
        want = {"data-symbol": j["symbol"], "data-start": j["start"]}
        if v is not None:
            want["data-version"] = str(v["index"])
            want["data-versions"] = str(v["count"])
            want["data-version-start"] = str(v["start_ns"]) if v["start_ns"] else "-"
            want["data-version-end"] = str(v["end_ns"]) if v["end_ns"] else "-"
        got = {k: a.get(k) for k in want}
        if got != want or (v is None and "data-version" in a):
            bad.append("%s: %r, the document's %r" % (where, got, want))
        if (g["title"] or None) != (titles[i][2:] if titles[i] else None):
            bad.append("%s: title %r, the text's %r" % (where, g["title"], titles[i]))
        rows = [(x["address"], x["samples"]) for x in j["instructions"]]
        if g["rows"] != rows:
            bad.append("%s: its rows are not the document's instructions" % where)
    return len(page.blocks)


def main():
    text, doc, expected = sys.argv[1:4]
    bad = []
    tb = text_blocks(text)
    d = json.load(open(doc, encoding="utf-8"))
    jb = [s for ev in d["events"] for s in ev["symbols"]]
    if len(tb) != len(jb):
        bad.append("%d blocks in the text, %d in the document" % (len(tb), len(jb)))
    nr_versions = 0
    for i, (t, j) in enumerate(zip(tb, jb)):
        where = "block %d (%s)" % (i, j["symbol"])
        if t["sym"] != j["symbol"] or t["samples"] != j["samples"]:
            bad.append("%s: the text has %s with %d samples, the document %s with %d" %
                       (where, t["sym"], t["samples"], j["symbol"], j["samples"]))
        v, ti = j["version"], t["title"]
        if (v is None) != (ti is None):
            bad.append("%s: version %r, the text's title %r" % (where, v, ti))
        elif v is not None:
            nr_versions += 1
            if ti["kind"] == "bpf":
                b = v.get("bpf") or {}
                if (b.get("id"), b.get("load_time_ns"), b.get("unload_time_ns")) != \
                        (ti["id"], ti["start"], ti["end"]) or v["poke"] is not None:
                    bad.append("%s: bpf %r, the text says %r" % (where, b, ti))
            else:
                if (v["index"], v["count"], v["start_ns"], v["end_ns"]) != \
                        (ti["index"], ti["count"], ti["start"], ti["end"]) or v["bpf"]:
                    bad.append("%s: version %r, the text says %r" % (where, v, ti))
                p = v["poke"]
                if (p is None) != (v["index"] == 0):
                    bad.append("%s: poke %r in version %d" % (where, p, v["index"]))
                elif p is not None and (p["time_ns"] != v["start_ns"] or
                                        len(p["new_bytes"].split()) != p["new_len"] or
                                        len(p["old_bytes"].split()) != p["old_len"] or
                                        (not p["code_load"] and not
                                         (p["old"] and p["new"] and p["verdict"]))):
                    bad.append("%s: poke %r does not start version %r" % (where, p, v))
        insns = {int(x["address"], 16): x for x in j["instructions"]}
        for addr, (nr, raw) in t["lines"].items():
            x = insns.get(addr)
            if x is None or x["samples"] != nr or x["bytes"] != raw:
                bad.append("%s: %x: the text has %d (%s), the document %r" %
                           (where, addr, nr, raw, x))
        extra = sum(x["samples"] for a, x in insns.items() if a not in t["lines"])
        if extra or sum(x["samples"] for x in j["instructions"]) != j["samples"]:
            bad.append("%s: instructions' samples do not add up to %d" % (where, j["samples"]))

    # the model: each sample on one live version's instruction, with its bytes
    count = collections.Counter()
    nr = 0
    for line in open(expected):
        f = line.split()
        if not f or f[0].startswith("#"):
            continue
        t, ip, raw = int(f[0]), int(f[1], 16), " ".join(f[2:])
        nr += 1
        hits = []
        for i, j in enumerate(jb):
            v = j["version"]
            if v is not None and ((v["start_ns"] is not None and t < v["start_ns"]) or
                                  (v["end_ns"] is not None and t >= v["end_ns"])):
                continue
            x = next((x for x in j["instructions"] if int(x["address"], 16) == ip), None)
            if x is not None:
                hits.append((i, x))
        if len(hits) != 1:
            bad.append("model sample %x at %d: on %d blocks" % (ip, t, len(hits)))
            continue
        i, x = hits[0]
        if not x["bytes"].startswith(raw):
            bad.append("model sample %x at %d: bytes %s, the model's %s" %
                       (ip, t, x["bytes"], raw))
        count[(i, ip)] += 1
    for i, j in enumerate(jb):
        for x in j["instructions"]:
            a = int(x["address"], 16)
            if x["samples"] != count[(i, a)]:
                bad.append("block %d (%s) %x: %d samples, the model %d" %
                           (i, j["symbol"], a, x["samples"], count[(i, a)]))
    nr_page = None
    if len(sys.argv) > 4:
        nr_page = check_html(sys.argv[4], jb, [t["line"] for t in tb] + [None] * len(jb), bad)
    for b in bad[:20]:
        print(b)
    if bad:
        print("%d differences" % len(bad))
        return 1
    print("--json: %d blocks (%d versions or loads) as the text, %d model samples%s" %
          (len(jb), nr_versions, nr,
           "" if nr_page is None else "; --html: %d blocks as the document's" % nr_page))
    return 0


if __name__ == "__main__":
    sys.exit(main())
