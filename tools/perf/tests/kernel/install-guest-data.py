#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""
Trims recordings of a run-pokes.sh run into the tree
(tools/perf/tests/data/kernel-guest/): for each recording named, its
perf.data, its kcore_dir's kallsyms and modules (gzipped, as is the data), and its kcore with only
the pages that hold a poked site kept, gzipped (the only code the pokes
and their verdicts depend on: a poke's check reads the image at its own
site); and
truth-TAG.txt, the site-moments check-pokes.py compares at two moments of
each recording, with the kernel's own bytes.  The tests (tests/shell/kernel-guest-*.sh) read these on every
machine.

Usage: install-guest-data.py DEST TAG RUNDIR REC...   (TAG: kaslr, nokaslr)
"""
import gzip
import importlib.machinery
import os
import shutil
import struct
import sys

here = os.path.dirname(os.path.abspath(__file__))
cp = importlib.machinery.SourceFileLoader("check_pokes",
                                          os.path.join(here, "check-pokes.py")).load_module()
PAGE = 4096


def trim_kcore(src, dst, sites):
    """src with every page that holds no site zeroed, gzipped into dst.

    The layout stays the copy's own (the same segments, offsets and
    sizes): the recorder's kcore_dir has one segment for the kernel's
    text and one per module-area run, and perf textpoke fits the copy's
    moment segment by segment.  Zero pages cost nothing once compressed;
    the tests compare poked sites only, whose pages are all kept."""
    with open(src, "rb") as f:
        blob = f.read()
    if blob[:4] != b"\x7fELF" or blob[4] != 2:
        cp.die("%s: not a 64-bit ELF" % src)
    phoff, = struct.unpack_from("<Q", blob, 32)
    phentsize, phnum = struct.unpack_from("<HH", blob, 54)
    keep = set()
    for a, ln in sites:
        for pg in range(a & ~(PAGE - 1), a + ln, PAGE):
            keep.add(pg)
    out = bytearray(len(blob))
    end = 0
    kept = 0
    for i in range(phnum):
        p_type, _, p_offset, p_vaddr, _, p_filesz, _, _ = \
            struct.unpack_from("<IIQQQQQQ", blob, phoff + i * phentsize)
        end = max(end, phoff + (i + 1) * phentsize)
        if p_type != 1:
            continue
        for pg in keep:
            if p_vaddr <= pg < p_vaddr + p_filesz:
                o = p_offset + (pg - p_vaddr)
                ln = min(PAGE, p_vaddr + p_filesz - pg)
                out[o:o + ln] = blob[o:o + ln]
                kept += 1
    out[:end] = blob[:end]  # the ELF and program headers
    with gzip.GzipFile(dst, "wb", mtime=0) as f:
        f.write(out)
    return kept, len(blob)


def gz(src, dst):
    with open(src, "rb") as f, gzip.GzipFile(dst, "wb", mtime=0) as g:
        shutil.copyfileobj(f, g)


def main():
    if len(sys.argv) < 5:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    dest, tag, rd = sys.argv[1:4]
    recs = sys.argv[4:]
    env = dict(os.environ)
    env.setdefault("HOME", "/nonexistent")
    os.makedirs(dest, exist_ok=True)
    truth = cp.Truth(os.path.join(rd, "truth"))
    sb = {r: cp.side_band("perf", os.path.join(rd, r), env) for r in recs}
    union = sorted(set(s for r in recs for s in cp.sites_of(sb[r][1])))
    replayed = list(truth.replay(union))
    lines = []
    for r in recs:
        details = []
        sites, want, racing = cp.plan(r, sb[r][0], sb[r][1], replayed, details)
        # two moments per recording keep the test under a minute in the
        # ASan build: the first busy one (pokes racing the read) or the
        # first, and the last (after everything was switched back)
        kinds = {n: meta["kind"] for n, meta, _ in replayed}
        ms = sorted(set(n for n, _ in want))
        pick = set(ms[-1:])
        busy = [n for n in ms if kinds.get(n) == "busy"]
        pick.update(busy[:1] or ms[:1])
        want = {k: v for k, v in want.items() if k[0] in pick}
        for d in details:
            print("install-guest-data: " + d, file=sys.stderr)
        name = "%s-%s" % (tag, r)
        out = os.path.join(dest, name)
        shutil.rmtree(out, ignore_errors=True)
        os.makedirs(os.path.join(out, "kcore_dir"))
        gz(os.path.join(rd, r, "data"), os.path.join(out, "data.gz"))
        gz(os.path.join(rd, r, "kcore_dir", "kallsyms"), os.path.join(out, "kcore_dir", "kallsyms.gz"))
        shutil.copyfile(os.path.join(rd, r, "kcore_dir", "modules"),
                        os.path.join(out, "kcore_dir", "modules"))
        npages, nbytes = trim_kcore(os.path.join(rd, r, "kcore_dir", "kcore"),
                                    os.path.join(out, "kcore_dir", "kcore.gz"), sites)
        print("%s: %d sites, %d site-moments (%d raced), kcore: %d pages of %d bytes kept" %
              (name, len(sites), len(want), racing, npages, nbytes))
        for t, items in cp.groups(want):
            lo = items[0][0][0]
            hi = max(s[0] + s[1] for s, _, _ in items)
            lines.append("%s %s %x %d %s\n" % (
                name, cp.fmt_ns(t), lo, hi - lo,
                " ".join("%d:%x:%d:%s" % (n, s[0], s[1], kb if kb == "unmapped" else kb.hex())
                         for s, n, kb in items)))
    path = os.path.join(dest, "truth-%s.txt" % tag)
    with open(path, "w") as f:
        f.write("# recording time lo len, then the sites read at that time: "
                "moment:addr:len:bytes (the guest's /proc/kcore) or unmapped\n")
        f.writelines(lines)
    return 0


if __name__ == "__main__":
    sys.exit(main())
