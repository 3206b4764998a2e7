#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""
The host side of the text-poke experiments (run-pokes.sh): for every
poked site of every recording in a run, and every moment at which the
guest read its own code from /proc/kcore (kcore-truth), what `perf
textpoke code --time T` says against what the kernel held.  Prints one
table row per recording and base (kcore fitted, anchored at start or end,
none, and with --vmlinux the vmlinux at boot on boots without KASLR), and
the verdict `perf textpoke report` gives each.

The oracle is the guest's truth (kcore-truth's pages, replayed here) and
stock perf's own reading of the recording (`perf script --ns
--show-task-events --show-text-poke-events`: the moments' COMM markers
and the pokes); nothing here reads a recording with our code.

A site's truth at moment N is the bytes of the chunk that held it, read
between the COMM records "truth:N.K" and the next marker.  When a poke
of that site falls inside that window, the read may hold the bytes from
before or after it: such a site-moment is counted as racing and not
compared.  Otherwise the code at the end of the window is what was read.

Usage: check-pokes.py [--textpoke BIN] [--perf BIN] [--bases fit,start,end,none]
                      [--stock-insn] [--only NAME] [--vmlinux FILE] [-j N] RUNDIR...
(install-guest-data.py writes the compared site-moments into the tree.)
Samples on poked sites: `perf textpoke script -F time,ip,insn` (and with
--stock-insn stock perf's) against the truth moment with no poke of the
site between it and the sample; ours must be equal.
Samples inside BPF KSYMBOLs (programs, trampolines; stock perf's
KSYMBOL records give their lives): `perf textpoke script -F sym` must
name the one live there then, and its insn bytes equal a truth moment
inside the same life (none shown: counted, not failed).
Mutation caught: comparing each byte against the kernel's next one
(kb[(a - s[0] + 1) % s[1]]) made it "1 bytes equal, 13 wrong", exit 1.
Mutation caught: report's consistency.nr_unmapped_module_space left 0
(stock perf's recording of a module load "not trusted: 1 poke outside
every map") made it "clean, but not trusted: kaslr module.stock".
Verdicts: the fitted one must be "trusted" on every recording stock perf
counts no PERF_RECORD_LOST in (perf report --stats), "not trusted" on
the others.

Exit status: 0 when every compared byte is equal and no byte is shown
where nothing was mapped, 1 otherwise (the table says which), 2 on a
usage or input error.
"""
import argparse
import concurrent.futures
import os
import re
import struct
import subprocess
import sys

PAGE = 4096
# stock perf -F insn at poked sites, over every recording: equal, wrong
STOCK_INSN = [0, 0]
# perf textpoke script -F insn at poked sites, over every recording: equal, wrong
OUR_INSN = [0, 0]
# our samples inside BPF KSYMBOLs (programs, trampolines), over every
# recording: named as the live KSYMBOL, named otherwise; insn bytes equal,
# wrong; samples with no insn shown, with bytes but no truth moment in
# their KSYMBOL's life
BPF_SAMPLES = [0, 0, 0, 0, 0, 0]


def die(msg):
    print("check-pokes: " + msg, file=sys.stderr)
    sys.exit(2)


class Truth:
    """kcore-truth's moments of one boot, replayed in order."""

    def __init__(self, tdir):
        self.dir = tdir
        ns = sorted(int(f[:-4]) for f in os.listdir(tdir) if f.endswith(".idx"))
        if not ns or ns[0] != 0 or ns != list(range(len(ns))):
            die("%s: moments are not 0..N without gaps: %s" % (tdir, ns[:10]))
        self.moments = ns
        self.layout = None
        self.meta = {}

    def _idx(self, n):
        m = {"chunks": [], "mapped": [], "flux": [], "kind": None}
        cur = None
        with open(os.path.join(self.dir, "%d.idx" % n)) as f:
            for line in f:
                w = line.split()
                if not w:
                    continue
                if w[0] == "moment":
                    m["kind"] = w[2]
                elif w[0] == "layout":
                    m["layout"] = tuple(int(x, 16) for x in w[1:5])
                elif w[0] == "chunk":
                    cur = int(w[1])
                elif w[0] == "range":
                    m["chunks"].append((int(w[1], 16), int(w[2], 16), cur))
                elif w[0] in ("mapped", "flux"):
                    m[w[0]].append((int(w[1], 16), int(w[2], 16)))
        return m

    def replay(self, sites):
        """Yields (n, meta, {site: bytes | "unmapped" | "flux"}) for every moment."""
        text = None
        mod = {}
        for n in self.moments:
            meta = self._idx(n)
            lay = meta.get("layout")
            if not lay:
                die("%s/%d.idx: no layout line" % (self.dir, n))
            stext, etext, mstart, mend = lay
            if text is None:
                text = bytearray(etext - stext)
                self.layout = lay
            with open(os.path.join(self.dir, "%d.pages" % n), "rb") as f:
                while True:
                    hdr = f.read(8)
                    if not hdr:
                        break
                    if len(hdr) != 8:
                        die("%s/%d.pages: cut short" % (self.dir, n))
                    (a,) = struct.unpack("<Q", hdr)
                    page = f.read(PAGE)
                    if len(page) != PAGE:
                        die("%s/%d.pages: cut short at %#x" % (self.dir, n, a))
                    if stext <= a < etext:
                        ln = min(PAGE, etext - a)
                        text[a - stext:a - stext + ln] = page[:ln]
                    else:
                        mod[a] = page
            got = {}
            for addr, ln in sites:
                if stext <= addr and addr + ln <= etext:
                    got[(addr, ln)] = bytes(text[addr - stext:addr - stext + ln])
                    continue
                if any(s < addr + ln and addr < e for s, e in meta["flux"]):
                    got[(addr, ln)] = "flux"
                    continue
                mapped = [any(s <= a < e for s, e in meta["mapped"]) for a in range(addr, addr + ln)]
                if not any(mapped):
                    got[(addr, ln)] = "unmapped"
                elif not all(mapped):
                    got[(addr, ln)] = "flux"
                else:
                    b = bytearray()
                    for a in range(addr, addr + ln):
                        pg = mod.get(a & ~(PAGE - 1))
                        if pg is None:
                            die("%s/%d: mapped %#x was never read" % (self.dir, n, a))
                        b.append(pg[a & (PAGE - 1)])
                    got[(addr, ln)] = bytes(b)
            yield n, meta, got


def run(cmd, env):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
                       universal_newlines=True)
    return p.returncode, p.stdout, p.stderr


def ns_of(s):
    sec, frac = s.split(".")
    return int(sec) * 1000000000 + int((frac + "000000000")[:9])


def fmt_ns(t):
    return "%d.%09d" % (t // 1000000000, t % 1000000000)


POKE_RE = re.compile(r"^\s*\S.*?\s+(\d+\.\d+):\s+PERF_RECORD_TEXT_POKE\s+([0-9a-f]+)\s.*"
                     r"old len (\d+) new len (\d+)")
MARK_RE = re.compile(r"(\d+\.\d+):\s+PERF_RECORD_COMM:\s+truth:(\d+)\.(\w+):")


def side_band(perf, rec, env):
    """Stock perf's reading: the truth markers and the pokes of a recording."""
    rc, out, err = run([perf, "script", "-i", rec, "--ns", "--show-task-events",
                        "--show-text-poke-events", "-F", "comm,tid,time,event,ip"], env)
    if rc:
        die("%s: perf script failed: %s" % (rec, err.strip()[:300]))
    marks = {}
    pokes = []
    for line in out.splitlines():
        m = MARK_RE.search(line)
        if m:
            marks.setdefault(int(m.group(2)), []).append((m.group(3), ns_of(m.group(1))))
            continue
        m = POKE_RE.match(line)
        if m:
            pokes.append((ns_of(m.group(1)), int(m.group(2), 16), int(m.group(3)),
                          int(m.group(4))))
    return marks, pokes


KSYM_RE = re.compile(r"(\d+\.\d+):\s+PERF_RECORD_KSYMBOL addr ([0-9a-f]+) len (\d+) "
                     r"type 1 flags (0x[0-9a-f]+) name (\S+)")
SAMPLE_RE = re.compile(r"^\s*(\d+\.\d+):\s+([0-9a-f]+)\s+(\S+)(?:\s+insn:((?: [0-9a-f]{2})*))?")


def bpf_lives(perf, rec, env):
    """Stock perf's KSYMBOL records of type BPF, as lives: [start, end,
    name, register time, unregister time (None: to the end)]."""
    rc, out, err = run([perf, "script", "-i", rec, "--ns", "--show-bpf-events", "-F", "time"],
                       env)
    if rc:
        die("%s: perf script --show-bpf-events failed: %s" % (rec, err.strip()[:300]))
    lives = []
    for line in out.splitlines():
        m = KSYM_RE.search(line)
        if not m:
            continue
        t, a, ln, name = ns_of(m.group(1)), int(m.group(2), 16), int(m.group(3)), m.group(5)
        if not int(m.group(4), 16) & 1:
            lives.append([a, a + max(ln, 1), name, t, None])
            continue
        for lv in reversed(lives):
            if lv[0] == a and lv[4] is None:
                lv[4] = t
                break
    return lives


def bpf_samples(args, rec, lives, env, details):
    """Our `script -F time,ip,sym,insn` samples inside a live BPF
    KSYMBOL: [(time, ip, sym, insn bytes or None, life)]."""
    rc, out, err = run([args.textpoke, "script", "-i", rec, "--ns", "-F", "time,ip,sym,insn"],
                       env)
    if rc:
        details.append("%s: perf textpoke script -F time,ip,sym,insn failed: %s" %
                       (rec, err.strip()[:200]))
        BPF_SAMPLES[1] += 1
        return []
    found = []
    for line in out.splitlines():
        m = SAMPLE_RE.match(line)
        if not m:
            continue
        t, ip = ns_of(m.group(1)), int(m.group(2), 16)
        live = [lv for lv in lives if lv[0] <= ip < lv[1] and lv[3] <= t and
                (lv[4] is None or t < lv[4])]
        if not live:
            continue
        ins = m.group(4)
        ins = bytes(int(x, 16) for x in ins.split()) if ins and ins.strip() else None
        found.append((t, ip, m.group(3), ins, max(live, key=lambda lv: lv[3])))
    return found


def check_bpf_samples(rec, samples, marks, pokes, replayed, details):
    """Each sample's symbol against the KSYMBOL live there then (stock
    perf's reading), and its insn bytes against a truth moment inside the
    same KSYMBOL life, with no poke of those bytes in between."""
    c = [0] * 6
    examples = []
    for t, ip, sym, ins, lv in samples:
        if sym == lv[2]:
            c[0] += 1
        else:
            c[1] += 1
            if len(examples) < 3:
                examples.append("%s %#x named %s, the KSYMBOL there is %s" %
                                (fmt_ns(t), ip, sym, lv[2]))
        if ins is None:
            c[4] += 1
            continue
        s = (ip, len(ins))
        for n, meta, got in replayed:
            w = windows(marks[n], meta) if n in marks and n else None
            if not w or not isinstance(got.get(s), bytes):
                continue
            t0, t1 = min(x[0] for x in w.values()), max(x[1] for x in w.values())
            if t0 < lv[3] or (lv[4] is not None and t1 >= lv[4]):
                continue
            lo, hi = min(t, t0), max(t, t1)
            if any(lo <= pt <= hi and a < ip + len(ins) and ip < a + max(o, nl)
                   for pt, a, o, nl in pokes):
                continue
            kb = got[s]
            for i, b in enumerate(ins):
                c[2 if b == kb[i] else 3] += 1
            if ins != kb and len(examples) < 3:
                examples.append("%s %#x (%s): shown %s, kernel at moment %d: %s" %
                                (fmt_ns(t), ip, sym, ins.hex(" "), n, kb.hex(" ")))
            break
        else:
            c[5] += 1
    details.append("%s: samples in BPF KSYMBOLs: %d named as the live one, %d not; insn %d "
                   "bytes equal, %d wrong; %d with no insn shown, %d with no truth moment in "
                   "their life" % ((rec,) + tuple(c)))
    for e in examples:
        details.append("%s: sample in a BPF KSYMBOL wrong: %s" % (rec, e))
    for i in range(6):
        BPF_SAMPLES[i] += c[i]


def windows(marks, meta):
    """{chunk: (start, end)} of one moment, from its markers in order."""
    seq = marks
    w = {}
    for i, (name, t) in enumerate(seq):
        if name == "end":
            break
        if i + 1 >= len(seq):
            return None
        w[int(name)] = (t, seq[i + 1][1])
    if not seq or seq[-1][0] != "end":
        return None
    return w


def chunk_of(meta, a):
    for s, e, k in meta["chunks"]:
        if s <= a < e:
            return k
    return None


LINE_RE = re.compile(r"^\s*([0-9a-f]+):  (.*)$")
HEXB = re.compile(r"^([0-9a-f]{2}|\?\?)$")


def parse_code(out):
    """{addr: byte or None} from a listing of `perf textpoke code`."""
    got = {}
    for line in out.splitlines():
        if line.startswith("#"):
            continue
        m = LINE_RE.match(line)
        if not m:
            continue
        a = int(m.group(1), 16)
        rest = m.group(2)
        u = re.match(r"^\?\? x (\d+) \(unknown\)", rest)
        if u:
            for i in range(int(u.group(1))):
                got[a + i] = None
            continue
        for tok in rest.split():
            if not HEXB.match(tok):
                break
            got[a] = None if tok == "??" else int(tok, 16)
            a += 1
    return got


BASES = {"fit": [], "start": ["--kcore-time", "start"], "end": ["--kcore-time", "end"],
         "none": ["--no-kcore"]}


def sites_of(pokes):
    """Poked sites, overlapping ones merged: [(addr, len)]."""
    iv = sorted((a, a + max(o, n)) for _, a, o, n in pokes if max(o, n))
    out = []
    for s, e in iv:
        if out and s < out[-1][1]:
            out[-1][1] = max(out[-1][1], e)
        else:
            out.append([s, e])
    return [(s, e - s) for s, e in out]


LOST_RE = re.compile(r"^\s*LOST events:\s+(\d+)", re.M)


def lost_records(perf, rec, env):
    """Stock perf's count of PERF_RECORD_LOST records (perf report --stats):
    a recording with none is clean, and its verdict must be "trusted"."""
    rc, out, err = run([perf, "report", "-i", rec, "--stats"], env)
    if rc:
        die("%s: perf report --stats failed: %s" % (rec, err.strip()[:300]))
    m = LOST_RE.search(out)
    return int(m.group(1)) if m else 0


def verdict(textpoke, rec, base, env):
    rc, out, err = run([textpoke, "report", "-i", rec, "--no-children"] + BASES[base], env)
    if rc:
        return "report failed: " + err.strip().splitlines()[-1][:60] if err.strip() else "report failed"
    v = [l for l in out.splitlines() if l.startswith("#   verdict:")]
    p = [l for l in out.splitlines() if l.startswith("#   pokes:")]
    short = v[0].split(":", 1)[1].strip().split(":")[0] if v else "?"
    counts = ""
    if p:
        m = re.findall(r"(\d+) (verified|pre-applied|mismatch|unknown)", p[0])
        d = {k: c for c, k in m}
        counts = "%s/%s/%s/%s" % (d.get("verified", "?"), d.get("pre-applied", "?"),
                                  d.get("mismatch", "?"), d.get("unknown", "?"))
    return "%s %s" % (short, counts)


def plan(rec, marks, pokes, replayed, details):
    """The site-moments of one recording that can be compared: {(n, site):
    (time to ask at, the kernel's bytes or "unmapped")}, and how many raced."""
    sites = sites_of(pokes)
    per_site_pokes = {s: sorted(t for t, a, o, n in pokes
                                if a < s[0] + s[1] and s[0] < a + max(o, n)) for s in sites}
    want, racing = {}, 0
    for n, meta, got in replayed:
        if n not in marks or not n:
            continue
        w = windows(marks[n], meta)
        if w is None:
            details.append("%s: moment %d: markers incomplete: %s" % (rec, n, marks[n]))
            continue
        for s in sites:
            kb = got[s]
            if kb == "flux":
                racing += 1
                continue
            if kb == "unmapped":
                # the module area: no chunk held it; the whole moment is
                # its window
                t0, t1 = min(x[0] for x in w.values()), max(x[1] for x in w.values())
            else:
                k0, k1 = chunk_of(meta, s[0]), chunk_of(meta, s[0] + s[1] - 1)
                if k0 not in w or k1 not in w:
                    details.append("%s: moment %d: site %#x in no chunk" % (rec, n, s[0]))
                    continue
                t0, t1 = w[k0][0], w[k1][1]
            if any(t0 <= t <= t1 for t in per_site_pokes[s]):
                racing += 1
                continue
            want[(n, s)] = (t1, kb)
    return sites, want, racing


def groups(want):
    """Site-moments asked at the same time and lying close, one `code` each."""
    by_t = {}
    for (n, s), (t, kb) in want.items():
        by_t.setdefault(t, []).append((s, n, kb))
    for t, items in sorted(by_t.items()):
        items.sort()
        cur = []
        for it in items:
            if cur and it[0][0] + it[0][1] - cur[0][0][0] > 16384:
                yield t, cur
                cur = []
            cur.append(it)
        if cur:
            yield t, cur


def check_recording(args, rec, marks, pokes, replayed, env, rows, details, bases, edges=()):
    lost = lost_records(args.perf, rec, env)
    sites, want, racing = plan(rec, marks, pokes, replayed, details)
    moments = sorted(n for n in marks if n)
    if not moments:
        details.append("%s: no truth moment inside the recording" % rec)
    for base in bases:
        c = {"equal": 0, "wrong": 0, "unmapped_shown": 0, "unknown": 0, "unmapped_ok": 0}
        examples = []
        todo = list(groups(want))

        def ask(g):
            t, items = g
            lo = items[0][0][0]
            hi = max(s[0] + s[1] for s, _, _ in items)
            return run([args.textpoke, "code", "-i", rec, "--time", fmt_ns(t)] +
                       BASES[base] + ["%x" % lo, str(hi - lo)], env)

        with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
            answers = list(pool.map(ask, todo))
        for (t, items), (rc, out, err) in zip(todo, answers):
            lo = items[0][0][0]
            if rc:
                details.append("%s [%s]: code --time %s %#x failed: %s" %
                               (rec, base, fmt_ns(t), lo, err.strip()[:200]))
                shown = {}
            else:
                shown = parse_code(out)
            for s, n, kb in items:
                for i in range(s[1]):
                    b = shown.get(s[0] + i)
                    if kb == "unmapped":
                        if b is None:
                            c["unmapped_ok"] += 1
                        else:
                            c["unmapped_shown"] += 1
                            if len(examples) < 3:
                                examples.append("moment %d %#x: shows %02x where nothing "
                                                "was mapped" % (n, s[0] + i, b))
                    elif b is None:
                        c["unknown"] += 1
                    elif b == kb[i]:
                        c["equal"] += 1
                    else:
                        c["wrong"] += 1
                        if len(examples) < 3 and i == min(j for j in range(s[1])
                                                          if shown.get(s[0] + j) is not None
                                                          and shown[s[0] + j] != kb[j]):
                            examples.append(
                                "moment %d %#x (%d B): kernel %s, shown %s" %
                                (n, s[0], s[1], kb.hex(" "),
                                 " ".join("??" if shown.get(s[0] + j) is None else
                                          "%02x" % shown[s[0] + j] for j in range(s[1]))))
        v = verdict(args.textpoke, rec, base, env)
        rows.append((os.path.basename(os.path.dirname(os.path.abspath(rec))),
                     os.path.basename(rec), base, len(sites), len(moments), len(want),
                     racing, c["equal"], c["wrong"], c["unmapped_shown"],
                     c["unknown"], v, lost))
        for e in examples:
            details.append("%s [%s]: %s" % (rec, base, e))
    if args.stock_insn:
        stock_insn(args, rec, pokes, sites, want, env, details, edges)
    our_insn(args, rec, pokes, sites, want, env, details, edges)


def insn_at_sites(out, pokes, sites, want, examples=None, edges=()):
    """Bytes of `-F time,ip,insn` lines (a script's output) at samples on
    poked sites, where a truth moment holds for the sample's time (no poke
    of the site between the two, no BPF KSYMBOL over it registered or
    unregistered: @edges, (time, start, end)): [equal, wrong].  Our insn
    field tags a kprobed instruction " [kprobed]" or " [kprobed,
    optimized]" after its bytes: the tag is not a byte."""
    eq = wrong = 0
    for line in out.splitlines():
        line = re.sub(r" \[kprobed(?:, optimized)?\]\s*$", "", line)
        m = re.match(r"^\s*(\d+\.\d+):\s+([0-9a-f]+)\s+insn:((?: [0-9a-f]{2})*)", line)
        if not m:
            continue
        t, ip = ns_of(m.group(1)), int(m.group(2), 16)
        ins = bytes(int(x, 16) for x in m.group(3).split())
        for s in sites:
            if not (ip < s[0] + s[1] and s[0] < ip + len(ins)):
                continue
            st = sorted(pt for pt, a, o, n in pokes if a < s[0] + s[1] and s[0] < a + max(o, n))
            # a BPF KSYMBOL coming or going there changes the code without a poke
            st += [et for et, ea, ee in edges if ea < s[0] + s[1] and s[0] < ee]
            for (n, ws), (tm, kb) in want.items():
                if ws != s or kb == "unmapped":
                    continue
                lo, hi = min(t, tm), max(t, tm)
                if any(lo <= pt <= hi for pt in st):
                    continue
                bad = False
                for i, b in enumerate(ins):
                    a = ip + i
                    if s[0] <= a < s[0] + s[1]:
                        if b == kb[a - s[0]]:
                            eq += 1
                        else:
                            wrong += 1
                            bad = True
                if bad and examples is not None and len(examples) < 3:
                    examples.append("%s %#x: shown%s, kernel at moment %d: %s" %
                                    (fmt_ns(t), ip, m.group(3), n, " ".join(
                                        "%02x" % kb[ip + i - s[0]] if s[0] <= ip + i < s[0] + s[1]
                                        else "(off site)" for i in range(len(ins)))))
                break
    return [eq, wrong]


def stock_insn(args, rec, pokes, sites, want, env, details, edges=()):
    """Stock perf's -F insn at samples on poked sites, where a truth moment
    holds for the sample's time (no poke of the site between the two)."""
    rc, out, err = run([args.perf, "script", "-i", rec, "--ns", "-F", "time,ip,insn"], env)
    if rc:
        details.append("%s: stock perf script -F insn failed: %s" % (rec, err.strip()[:200]))
        return
    eq, wrong = insn_at_sites(out, pokes, sites, want, None, edges)
    details.append("%s: stock perf -F insn at poked sites: %d bytes equal, %d wrong" %
                   (rec, eq, wrong))
    STOCK_INSN[0] += eq
    STOCK_INSN[1] += wrong


def our_insn(args, rec, pokes, sites, want, env, details, edges=()):
    """The same for `perf textpoke script -F insn` (default base): what must
    hold is every byte equal.  A failed script counts as one wrong."""
    rc, out, err = run([args.textpoke, "script", "-i", rec, "--ns", "-F", "time,ip,insn"], env)
    if rc:
        details.append("%s: perf textpoke script -F insn failed: %s" % (rec, err.strip()[:200]))
        OUR_INSN[1] += 1
        return
    examples = []
    eq, wrong = insn_at_sites(out, pokes, sites, want, examples, edges)
    details.append("%s: perf textpoke script -F insn at poked sites: %d bytes equal, %d wrong" %
                   (rec, eq, wrong))
    for e in examples:
        details.append("%s: perf textpoke script -F insn wrong: %s" % (rec, e))
    OUR_INSN[0] += eq
    OUR_INSN[1] += wrong


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--textpoke", default=os.environ.get("TEXTPOKE", "perf-textpoke"))
    ap.add_argument("--perf", default="perf")
    ap.add_argument("--bases", default="fit,start,end,none")
    ap.add_argument("--stock-insn", action="store_true")
    ap.add_argument("--vmlinux", help="also a vmlinux base (extract-vmlinux.py), on nokaslr boots")
    ap.add_argument("-j", "--jobs", type=int, default=2, help="code calls at once (2)")
    ap.add_argument("--only", default="", help="recordings whose name contains this")
    ap.add_argument("runs", nargs="+")
    args = ap.parse_args()
    args.bases = args.bases.split(",")
    if args.vmlinux:
        # the code at boot, no kcore: boot-time patching differs from it
        BASES["vmlinux"] = ["--no-kcore", "-k", args.vmlinux]
    for b in args.bases:
        if b not in BASES:
            die("--bases: %s is not one of %s" % (b, ",".join(BASES)))
    env = dict(os.environ)
    env.setdefault("HOME", "/nonexistent")
    rows, details = [], []
    for rd in args.runs:
        if not os.path.isdir(os.path.join(rd, "truth")):
            die("%s: no truth/ directory" % rd)
        truth = Truth(os.path.join(rd, "truth"))
        recs = sorted(d for d in os.listdir(rd)
                      if re.search(r"\.(ours|stock)$", d) and args.only in d)
        sb = {r: side_band(args.perf, os.path.join(rd, r), env) for r in recs}
        # a vmlinux is the code at its link addresses: a base for boots
        # without KASLR only
        bases = list(args.bases)
        try:
            with open(os.path.join(rd, "cmdline")) as f:
                nokaslr = "nokaslr" in f.read().split()
        except OSError:
            nokaslr = False
        if args.vmlinux and nokaslr:
            bases.append("vmlinux")
        bs, edges = {}, {}
        for r in recs:
            lives = bpf_lives(args.perf, os.path.join(rd, r), env)
            bs[r] = bpf_samples(args, os.path.join(rd, r), lives, env, details)
            edges[r] = [(t, lv[0], lv[1]) for lv in lives for t in (lv[3], lv[4])
                        if t is not None]
        union = sorted(set(s for r in recs for s in sites_of(sb[r][1])) |
                       set((x[1], len(x[3])) for r in recs for x in bs[r] if x[3]))
        replayed = list(truth.replay(union))
        for r in recs:
            check_recording(args, os.path.join(rd, r), sb[r][0], sb[r][1], replayed, env,
                            rows, details, bases, edges[r])
            if bs[r]:
                check_bpf_samples(os.path.join(rd, r), bs[r], sb[r][0], sb[r][1], replayed,
                                  details)
    hdr = ("run", "recording", "base", "sites", "moments", "site-moments", "racing",
           "equal", "wrong", "unmapped-shown", "unknown", "verdict (verified/pre-applied/mismatch/unknown)",
           "lost (perf)")
    widths = [max(len(str(r[i])) for r in rows + [hdr]) for i in range(len(hdr))]
    for r in [hdr] + rows:
        print("  ".join(str(x).ljust(w) if i in (0, 1, 2, 11) else str(x).rjust(w)
                        for i, (x, w) in enumerate(zip(r, widths))).rstrip())
    # the vmlinux is the code before boot-time patching (alternatives,
    # static calls inlined at boot): its differences are expected, said
    # in its rows, and not counted against the recordings
    tot = [sum(r[i] for r in rows if r[2] != "vmlinux") for i in (7, 8, 9, 10)]
    print("total (kcore bases and none): %d bytes equal, %d wrong, %d shown where nothing "
          "was mapped, %d unknown" % tuple(tot))
    for d in details:
        print("  " + d)
    # What must hold (issue 21): no wrong byte anywhere; on our recordings
    # no byte shown where nothing was mapped.  Stock perf's recordings
    # hold no module events: a module's life is unknown there, its bytes
    # outlive its unload.  The default (fitted) verdict is "trusted" on
    # every clean recording, ours and stock perf's (no PERF_RECORD_LOST by
    # stock perf's own count: torn copies and module loads are no fault),
    # and "not trusted" on one that lost records (stock perf copies kcore
    # without reading its buffers: a toggler running meanwhile fills them).
    ours = [r for r in rows if r[1].endswith(".ours") and r[2] != "vmlinux"]
    stock_unmapped = sum(r[9] for r in rows if r[1].endswith(".stock") and r[2] != "vmlinux")
    untrusted = ["%s %s" % (r[0], r[1]) for r in rows
                 if r[2] == "fit" and not r[12] and not r[11].startswith("trusted")]
    trusted_lossy = ["%s %s" % (r[0], r[1]) for r in rows
                     if r[2] == "fit" and r[12] and not r[11].startswith("not trusted")]
    ours_unmapped = sum(r[9] for r in ours)
    print("stock perf's recordings: %d bytes shown where nothing was mapped (no module "
          "events: a module's life is unknown there)" % stock_unmapped)
    print("stock perf -F insn at poked sites: %d bytes equal, %d wrong" %
          (STOCK_INSN[0], STOCK_INSN[1]))
    print("perf textpoke script -F insn at poked sites: %d bytes equal, %d wrong" %
          (OUR_INSN[0], OUR_INSN[1]))
    print("our samples in BPF KSYMBOLs: %d named as the live one, %d not; insn %d bytes "
          "equal, %d wrong; %d with no insn shown, %d with no truth moment in their life" %
          tuple(BPF_SAMPLES))
    bad = []
    if BPF_SAMPLES[1] or BPF_SAMPLES[3]:
        bad.append("%d samples in BPF KSYMBOLs misnamed, %d insn bytes wrong there" %
                   (BPF_SAMPLES[1], BPF_SAMPLES[3]))
    if OUR_INSN[1]:
        bad.append("%d wrong bytes in perf textpoke script -F insn" % OUR_INSN[1])
    if tot[1]:
        bad.append("%d wrong bytes" % tot[1])
    if ours_unmapped:
        bad.append("%d bytes shown where nothing was mapped on our recordings" % ours_unmapped)
    if untrusted:
        bad.append("clean, but not trusted: " + ", ".join(untrusted))
    if trusted_lossy:
        bad.append("records lost, but trusted: " + ", ".join(trusted_lossy))
    print("check-kernel: " + ("; ".join(bad) if bad else
                              "every byte equal, none shown unmapped on ours, every clean "
                              "recording trusted"))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
