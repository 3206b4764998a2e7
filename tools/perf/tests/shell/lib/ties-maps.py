#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
# Writes a perf.data file (PERFILE2, one cpu-clock event, no callchains,
# no header features) byte by byte with lib/perfdata.py, not with perf
# textpoke's writer: one task maps objects of sizes that tie in the
# profile by construction.  Every object takes the same period, so perf
# orders their rows by the next key alone; the objects are mapped in an
# order that is not by size, and two of them have one size (one row for
# --sort dso_size, two for --sort dso_size,dso).  One more sample hits
# no map at all (perf's size 0) with the same period.  A second task
# holds the objects of a larger period, in the same mixed order.  The
# objects do not exist: rows are told apart by map and address only.
# With LIB_A and LIB_B, two copies of one library at two paths of one
# base name, a third task maps both and is sampled in the same function
# of each: perf compares objects by their short names, so that is one
# row of --sort sym,dso.
# Usage: ties-maps.py OUT [LIB_A LIB_B]
import os
import struct
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from perfdata import (ATTR_COMM, SAMPLE_IP, SAMPLE_PERIOD, SAMPLE_TID,  # noqa: E402
                      SAMPLE_TIME, comm, record, write)

# (name, size): mapped in this order, one after another from BASE
OBJECTS = [("ties-c.so", 0x3000), ("ties-a.so", 0x1000), ("ties-e.so", 0x5000),
           ("ties-b.so", 0x2000), ("ties-d.so", 0x4000), ("ties-f.so", 0x2000)]
BASE = 0x7f5600000000
NOWHERE = 0x1000  # below every map


def mmap(pid, path, base, size):
    body = struct.pack("<IIQQQ", pid, pid, base, size, 0)
    raw = path.encode() + b"\0"
    raw += b"\0" * (-(len(body) + len(raw)) % 8)
    return record(1, 2, body + raw)  # PERF_RECORD_MMAP, PERF_RECORD_MISC_USER


def sample(pid, t, ip, period):
    return record(9, 2, struct.pack("<QIIQQ", ip, pid, pid, t, period))


events = []
t = 1000000
for pid, name, period in ((7101, "tiesa", 1000), (7102, "tiesb", 3000)):
    events.append(comm(pid, pid, name))
    base = BASE
    places = []
    for obj, size in OBJECTS:
        events.append(mmap(pid, "/nonexistent/" + obj, base, size))
        places.append(base + 0x10)
        base += size + 0x10000
    places.append(NOWHERE)
    # each place twice, interleaved, so that no place is both first and last
    for ip in places + places:
        events.append(sample(pid, t, ip, period))
        t += 1000
if len(sys.argv) == 4:
    pid = 7103
    events.append(comm(pid, pid, "tiesc"))
    nm = subprocess.run(["nm", "--defined-only", sys.argv[2]], capture_output=True, text=True,
                        check=True).stdout
    leaf = [int(x.split()[0], 16) for x in nm.splitlines() if x.endswith(" alpha_leaf")][0]
    for n, lib in enumerate(sys.argv[2:4]):
        events.append(mmap(pid, lib, BASE + n * 0x1000000, 0x100000))
    for n in range(6):
        # 3 samples in the first copy, 3 in the second, 1000 apart in time
        events.append(sample(pid, t, BASE + (n % 2) * 0x1000000 + leaf + 4, 5000))
        t += 1000
write(sys.argv[1], SAMPLE_IP | SAMPLE_TID | SAMPLE_TIME | SAMPLE_PERIOD, ATTR_COMM,
      b"".join(events))
