#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
# jitdump-reorder.py IN OUT: IN (a perf.data file) copied to OUT with the
# first //anon MMAP/MMAP2 of a process that comes after its jitdump's MMAP
# moved to just before that MMAP, its bytes (and time) unchanged.  On a
# machine with several CPUs this is what perf record writes when the JIT's
# code pages are mapped on one CPU just after the jitdump on another whose
# buffer is read later: file order then disagrees with time order.  Read
# from the format's definition (perf.data header, record headers), not
# with perf textpoke's reader.  Exits 1 when IN has no such pair.
import struct
import sys

MMAP, MMAP2 = 1, 10


def name_of(rec):
    rtype, _, size = struct.unpack_from("<IHH", rec, 0)
    off = 40 if rtype == MMAP else 72
    raw = rec[off:size]
    return raw[:raw.index(b"\0")].decode(errors="replace") if b"\0" in raw else ""


def main():
    src, dst = sys.argv[1], sys.argv[2]
    buf = bytearray(open(src, "rb").read())
    if buf[:8] != b"PERFILE2":
        sys.exit(f"{src}: not a PERFILE2 file")
    data_off, data_size = struct.unpack_from("<QQ", buf, 40)
    recs, pos, end = [], data_off, data_off + data_size
    while pos + 8 <= end:
        rtype, _, size = struct.unpack_from("<IHH", buf, pos)
        if size < 8 or pos + size > end:
            sys.exit(f"{src}: bad record at {pos:#x}")
        recs.append((pos, size, rtype))
        pos += size
    marker = None
    for i, (pos, size, rtype) in enumerate(recs):
        if rtype not in (MMAP, MMAP2):
            continue
        rec = buf[pos:pos + size]
        pid = struct.unpack_from("<I", rec, 8)[0]
        name = name_of(rec)
        if marker is None:
            if "/jit-" in name and name.endswith(".dump"):
                marker = (i, pid)
        elif pid == marker[1] and name.startswith("//anon"):
            m = recs[marker[0]][0]
            moved = bytes(rec)
            buf[m + size:pos + size] = buf[m:pos]
            buf[m:m + size] = moved
            open(dst, "wb").write(buf)
            print(f"moved the //anon MMAP at {pos:#x} before the jitdump's at {m:#x}")
            return
    sys.exit(f"{src}: no jitdump MMAP followed by an //anon one of its process")


main()
