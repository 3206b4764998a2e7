#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
# Writes a perf.data file (PERFILE2, one cpu-clock event, no header
# features) byte by byte from the format's definition, not with perf
# textpoke's writer: a task that maps one executable (non-PIE, at its link
# address) and is sampled K+1 times at the K-th address given, so every
# instruction has a figure of its own.
# Usage: annotate-samples.py OUT EXE ADDR...
import os
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from perfdata import (ATTR_COMM, SAMPLE_IP, SAMPLE_PERIOD, SAMPLE_TID,  # noqa: E402
                      SAMPLE_TIME, comm, record, write)

PID = 7373
BASE = 0x400000


def mmap(path):
    body = struct.pack("<IIQQQ", PID, PID, BASE, os.path.getsize(path), 0)
    raw = path.encode() + b"\0"
    raw += b"\0" * (-(len(body) + len(raw)) % 8)
    return record(1, 2, body + raw)  # PERF_RECORD_MMAP, PERF_RECORD_MISC_USER


out, exe = sys.argv[1:3]
addrs = [int(a, 16) for a in sys.argv[3:]]
events = [comm(PID, PID, "evex"), mmap(exe)]
t = 1000000
for k, ip in enumerate(addrs):
    for _ in range(k + 1):
        events.append(record(9, 2, struct.pack("<QIIQQ", ip, PID, PID, t, 10000)))
        t += 1000
write(out, SAMPLE_IP | SAMPLE_TID | SAMPLE_TIME | SAMPLE_PERIOD, ATTR_COMM, b"".join(events))
