#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
# Writes a perf.data file (PERFILE2, one cpu-clock event, no header
# features), written here byte by byte from the format's definition and
# not by perf textpoke's writer, whose samples carry user callchains
# through frames outside every map at addresses spread over the whole
# 64-bit space: the frames perf report 6.1 compares by the difference of
# their addresses taken as signed, which orders 0x2000 before
# 0x6c6f6b6d5f6f696c before 0xabcdd5ca7247dffe before 0x2000 again.
# Every such frame gets the same period, so the order of their rows is
# left to perf's trees alone.
# Usage: wrap-chains.py OUT
import os
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from perfdata import (ATTR_COMM, PERF_CONTEXT_USER, SAMPLE_CALLCHAIN, SAMPLE_IP,  # noqa: E402
                      SAMPLE_PERIOD, SAMPLE_TID, SAMPLE_TIME, comm, record, write)

ADDRS = [0x2000, 0x6c6f6b6d5f6f696c, 0xabcdd5ca7247dffe, 0xdfdfdfdf00000003,
         0x65722d656b6f7074, 0xffffffff82256388, 0x0000560c7a031a40, 0x00007fa39ee74ef5,
         0x1, 0x8000000000000000, 0x7fffffffffffffff, 0xdf00000000000000,
         0x0000d8ec81485355, 0xec81485355fc8949, 0x3000, 0x9000000000000000]
PID = 4242


def sample(t, ip, chain, period):
    body = struct.pack("<QIIQQ", ip, PID, PID, t, period)
    ips = [PERF_CONTEXT_USER, ip] + chain
    body += struct.pack("<Q", len(ips)) + b"".join(struct.pack("<Q", x) for x in ips)
    return record(9, 2, body)  # PERF_RECORD_MISC_USER


events = [comm(PID, PID, "wrapper")]
t = 1000000
# each address once as the caller of one leaf, then pairs of them: the
# leaf's rows have periods of their own, every address row 3 of them
for i, a in enumerate(ADDRS):
    for k in range(3):
        b = ADDRS[(i + 5 * k + 1) % len(ADDRS)]
        chain = [a] if k == 0 else [a, b] if k == 1 else [b, a]
        events.append(sample(t, 0x401000 + 16 * (i % 4), chain, 1000))
        t += 1000
data = b"".join(events)

write(sys.argv[1], SAMPLE_IP | SAMPLE_TID | SAMPLE_TIME | SAMPLE_CALLCHAIN | SAMPLE_PERIOD,
      ATTR_COMM, data)
