#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
# Writes a perf.data file as perf record --call-graph lbr writes one
# (PERFILE2, one cpu-clock event sampling CALLCHAIN and BRANCH_STACK with
# branch_sample_type USER|CALL_STACK, no header features), byte by byte
# from the format's definition, not with perf textpoke's writer.  Each
# sample's recorded chain holds kernel frames, PERF_CONTEXT_USER and a
# user part perf does not use in this mode; its branch stack holds the
# user call stack, latest call first: perf builds the chain's user part
# from it.  No maps: every frame is printed by its address, so that the
# order and the addresses are what is compared.
# Usage: lbr-chains.py OUT
import struct
import sys

PERF_CONTEXT_KERNEL = (1 << 64) - 128
PERF_CONTEXT_USER = (1 << 64) - 512
SAMPLE_IP, SAMPLE_TID, SAMPLE_TIME, SAMPLE_CALLCHAIN, SAMPLE_PERIOD = 1, 2, 4, 32, 256
SAMPLE_BRANCH_STACK = 2048
BRANCH_USER, BRANCH_CALL_STACK = 1 << 0, 1 << 11
PID = 5151


def record(rtype, misc, body):
    return struct.pack("<IHH", rtype, misc, 8 + len(body)) + body


def comm(pid, tid, name):
    raw = name.encode() + b"\0"
    raw += b"\0" * (-len(raw) % 8)
    return record(3, 0, struct.pack("<II", pid, tid) + raw)


def sample(t, ip, misc, chain, calls, period):
    body = struct.pack("<QIIQQ", ip, PID, PID, t, period)
    body += struct.pack("<Q", len(chain)) + b"".join(struct.pack("<Q", x) for x in chain)
    body += struct.pack("<Q", len(calls))
    for frm, to in calls:
        body += struct.pack("<QQQ", frm, to, 0)  # no flags
    return record(9, misc, body)


# a user call stack main -> a -> b -> c (call sites and targets), entered
# at several depths; some samples in the kernel (a syscall under c)
MAIN, A, B, C = 0x400000, 0x401000, 0x402000, 0x403000
stacks = [
    [(B + 0x40, C)],
    [(B + 0x40, C), (A + 0x20, B), (MAIN + 0x10, A)],
    [(A + 0x20, B), (MAIN + 0x10, A)],
    [(A + 0x24, B), (MAIN + 0x10, A)],
    [(MAIN + 0x10, A)],
    [(B + 0x44, C), (A + 0x20, B), (MAIN + 0x14, A)],
]
events = [comm(PID, PID, "lbrtask")]
t = 2000000
for n in range(48):
    calls = stacks[n % len(stacks)]
    leaf = calls[0][1] + 0x8 + 4 * (n % 3)
    if n % 4 == 3:
        # in the kernel: the recorded chain's kernel part is used, then the LBR
        kip = 0xffffffffc0001000 + 0x10 * (n % 5)
        chain = [PERF_CONTEXT_KERNEL, kip, 0xffffffffc0002000 + 0x20 * (n % 2),
                 PERF_CONTEXT_USER, leaf + 2, 0x7777]
        events.append(sample(t, kip, 1, chain, calls, 1000))
    else:
        chain = [PERF_CONTEXT_USER, leaf, 0x7777, 0x8888]
        events.append(sample(t, leaf, 2, chain, calls, 1000))
    t += 1000
data = b"".join(events)

flags = 1 << 9  # comm
st = SAMPLE_IP | SAMPLE_TID | SAMPLE_TIME | SAMPLE_CALLCHAIN | SAMPLE_PERIOD | SAMPLE_BRANCH_STACK
attr = struct.pack("<IIQQQQQIIQQQQIiQIHH", 1, 112, 0, 4000, st, 0, flags, 0, 0, 0, 0,
                   BRANCH_USER | BRANCH_CALL_STACK, 0, 0, 0, 0, 0, 0, 0)
assert len(attr) == 112
attr_entry = attr + struct.pack("<QQ", 0, 0)
header_size = 104
data_off = header_size + len(attr_entry)
header = struct.pack("<8sQQ", b"PERFILE2", header_size, len(attr_entry))
header += struct.pack("<QQ", header_size, len(attr_entry))
header += struct.pack("<QQ", data_off, len(data))
header += struct.pack("<QQ", 0, 0)
header += b"\0" * 32
assert len(header) == header_size
with open(sys.argv[1], "wb") as f:
    f.write(header + attr_entry + data)
