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
import os
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from perfdata import (ATTR_COMM, PERF_CONTEXT_KERNEL, PERF_CONTEXT_USER,  # noqa: E402
                      SAMPLE_BRANCH_STACK, SAMPLE_CALLCHAIN, SAMPLE_IP, SAMPLE_PERIOD,
                      SAMPLE_TID, SAMPLE_TIME, comm, record, write)

BRANCH_USER, BRANCH_CALL_STACK = 1 << 0, 1 << 11
PID = 5151


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

st = SAMPLE_IP | SAMPLE_TID | SAMPLE_TIME | SAMPLE_CALLCHAIN | SAMPLE_PERIOD | SAMPLE_BRANCH_STACK
write(sys.argv[1], st, ATTR_COMM, data, BRANCH_USER | BRANCH_CALL_STACK)
