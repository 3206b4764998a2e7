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
import struct
import sys

PERF_CONTEXT_USER = (1 << 64) - 512
SAMPLE_IP, SAMPLE_TID, SAMPLE_TIME, SAMPLE_CALLCHAIN, SAMPLE_PERIOD = 1, 2, 4, 32, 256
ADDRS = [0x2000, 0x6c6f6b6d5f6f696c, 0xabcdd5ca7247dffe, 0xdfdfdfdf00000003,
         0x65722d656b6f7074, 0xffffffff82256388, 0x0000560c7a031a40, 0x00007fa39ee74ef5,
         0x1, 0x8000000000000000, 0x7fffffffffffffff, 0xdf00000000000000,
         0x0000d8ec81485355, 0xec81485355fc8949, 0x3000, 0x9000000000000000]
PID = 4242


def record(rtype, misc, body):
    return struct.pack("<IHH", rtype, misc, 8 + len(body)) + body


def comm(pid, tid, name):
    raw = name.encode() + b"\0"
    raw += b"\0" * (-len(raw) % 8)
    return record(3, 0, struct.pack("<II", pid, tid) + raw)


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

# perf_event_attr, PERF_ATTR_SIZE_VER5 (112 bytes): cpu-clock, comm
flags = 1 << 9  # comm
attr = struct.pack("<IIQQQQQIIQQQQIiQIHH", 1, 112, 0, 4000,
                   SAMPLE_IP | SAMPLE_TID | SAMPLE_TIME | SAMPLE_CALLCHAIN | SAMPLE_PERIOD,
                   0, flags, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
assert len(attr) == 112
header_size = 104
attrs_off = header_size
attr_entry = attr + struct.pack("<QQ", 0, 0)  # no ids
data_off = attrs_off + len(attr_entry)
header = struct.pack("<8sQQ", b"PERFILE2", header_size, len(attr_entry))
header += struct.pack("<QQ", attrs_off, len(attr_entry))
header += struct.pack("<QQ", data_off, len(data))
header += struct.pack("<QQ", 0, 0)  # event types
header += b"\0" * 32  # no features
assert len(header) == header_size
with open(sys.argv[1], "wb") as f:
    f.write(header + attr_entry + data)
