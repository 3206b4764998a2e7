#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
# Writes a perf.data file (PERFILE2, one cpu-clock event sampling
# CALLCHAIN, no header features) byte by byte from the format's
# definition, not with perf textpoke's writer: kernel samples in a BPF
# program (a PERF_RECORD_KSYMBOL, so that no kernel symbol table is read)
# whose chains pass, in the kernel and in a user object (a
# PERF_RECORD_MMAP of a file that does not exist), through frames outside
# every map at a few small addresses, each met more than once in a chain.
# perf report --children makes such a frame's entry at its outermost
# frame and gives it the level of the nearest caller in a map there, or
# the sample's: the innermost frame's would be another level.  Each row
# below says which level stock perf must print for it.
# Usage: mapless-chains.py OUT
import os
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from perfdata import (ATTR_COMM, ATTR_KSYMBOL, PERF_CONTEXT_KERNEL,  # noqa: E402
                      PERF_CONTEXT_USER, SAMPLE_CALLCHAIN, SAMPLE_IP, SAMPLE_PERIOD, SAMPLE_TID,
                      SAMPLE_TIME, comm, record, write)

ATTR_MMAP = 1 << 8
PID = 7373
PROG = 0xffffffffa0040000  # the BPF program the samples are in
CALLER = 0xffffffffa0050000  # a BPF program calling it
APP = 0x400000  # the user object, 64 KiB
K, U = PERF_CONTEXT_KERNEL, PERF_CONTEXT_USER


def ksymbol(addr, length, name):
    body = struct.pack("<QIHH", addr, length, 1, 0)  # PERF_RECORD_KSYMBOL_TYPE_BPF
    raw = name.encode() + b"\0"
    raw += b"\0" * (-(len(body) + len(raw)) % 8)
    return record(17, 0, body + raw)


def mmap(pid, start, length, path):
    raw = path.encode() + b"\0"
    raw += b"\0" * (-len(raw) % 8)
    return record(1, 2, struct.pack("<IIQQQ", pid, pid, start, length, 0) + raw)


def sample(t, chain, period):
    body = struct.pack("<QIIQQ", chain[1], PID, PID, t, period)
    body += struct.pack("<Q", len(chain)) + b"".join(struct.pack("<Q", x) for x in chain)
    return record(9, 1, body)  # PERF_RECORD_MISC_KERNEL


# chains innermost first, as recorded; the comment: the level perf gives
# the entry of the address that first appears in that chain
CHAINS = [
    # 0: outermost frame, no caller in a map: the sample's [k], not the
    # [.] of the user frame above its innermost frame
    [K, PROG + 0x10, U, APP + 0x100, 0x0, APP + 0x200, 0x0],
    # 0x8: its outermost frame's caller is in the user object, [.], not
    # the [k] of the BPF program above its innermost frame (in the kernel)
    [K, PROG + 0x18, 0x8, CALLER + 0x20, U, 0x8, APP + 0x300],
    # 0 again, [.] its nearest caller: the entry made above stays [k]
    [K, PROG + 0x10, U, 0x0, APP + 0x100],
    # 0x10: three frames, under a BPF program, a user frame and nothing:
    # the outermost's [k] (the sample's), not the middle one's [.]
    [K, PROG + 0x20, 0x10, CALLER + 0x20, U, 0x10, APP + 0x200, 0x10],
]

events = [comm(PID, PID, "mapless"),
          mmap(PID, APP, 0x10000, "/nonexistent-textpoke/mapless-app"),
          ksymbol(PROG, 0x100, "bpf_prog_00000000000000dd_leaf"),
          ksymbol(CALLER, 0x100, "bpf_prog_00000000000000ee_caller")]
t = 1000000
for n, chain in enumerate(CHAINS):
    # periods apart, so that rows sort by figures, not by perf's trees
    events.append(sample(t, chain, 1000 * (n + 1)))
    t += 1000
data = b"".join(events)

write(sys.argv[1], SAMPLE_IP | SAMPLE_TID | SAMPLE_TIME | SAMPLE_CALLCHAIN | SAMPLE_PERIOD,
      ATTR_COMM | ATTR_KSYMBOL | ATTR_MMAP, data)
