#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
# Writes a perf.data file (PERFILE2, one cpu-clock event sampling
# CALLCHAIN, no header features) byte by byte from the format's
# definition, not with perf textpoke's writer: BPF programs come and go
# as PERF_RECORD_KSYMBOL says (register, unregister), one address held
# by three programs in turn, and samples in the kernel whose chains run
# through them and through a program that stays.  A frame at the reused
# address names the program that was there when the sample was taken,
# and none once the last is gone (its chains sampled again).
# Usage: bpf-chains.py OUT
import os
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from perfdata import (ATTR_COMM, ATTR_KSYMBOL, PERF_CONTEXT_KERNEL,  # noqa: E402
                      PERF_CONTEXT_USER, SAMPLE_CALLCHAIN, SAMPLE_IP, SAMPLE_PERIOD, SAMPLE_TID,
                      SAMPLE_TIME, comm, record, write)

KSYM_BPF, UNREGISTER = 1, 1
PID = 6262
REUSED, STAYS, OTHER = 0xffffffffa0010000, 0xffffffffa0020000, 0xffffffffa0030000


def ksymbol(addr, length, name, unregister=False):
    body = struct.pack("<QIHH", addr, length, KSYM_BPF, UNREGISTER if unregister else 0)
    raw = name.encode() + b"\0"
    raw += b"\0" * (-(len(body) + len(raw)) % 8)
    return record(17, 0, body + raw)


def sample(t, chain, period):
    ip = chain[1]
    body = struct.pack("<QIIQQ", ip, PID, PID, t, period)
    body += struct.pack("<Q", len(chain)) + b"".join(struct.pack("<Q", x) for x in chain)
    return record(9, 1, body)  # PERF_RECORD_MISC_KERNEL


events = [comm(PID, PID, "bpfload"),
          ksymbol(STAYS, 0x200, "bpf_prog_00000000000000aa_stays")]
t = 1000000
for gen, name in enumerate(["first", "second", "third"]):
    events.append(ksymbol(REUSED, 0x100, "bpf_prog_%016x_%s" % (0xb0 + gen, name)))
    if gen == 1:
        events.append(ksymbol(OTHER, 0x80, "bpf_prog_00000000000000cc_other"))
    for n in range(6 + 4 * gen):
        leaf = REUSED + 0x10 + 8 * (n % 3)
        chain = [PERF_CONTEXT_KERNEL, leaf, STAYS + 0x40 + 0x10 * (n % 2)]
        if gen == 1 and n % 2:
            chain = [PERF_CONTEXT_KERNEL, OTHER + 0x8, leaf, STAYS + 0x40]
        chain += [PERF_CONTEXT_USER, 0x401000 + 0x10 * (n % 4)]
        events.append(sample(t, chain, 1000))
        t += 1000
    if gen == 1:
        events.append(ksymbol(OTHER, 0x80, "bpf_prog_00000000000000cc_other", True))
    events.append(ksymbol(REUSED, 0x100, "bpf_prog_%016x_%s" % (0xb0 + gen, name), True))
# the third gone and nothing registered since: its chains again, whose
# frames at the reused address no program holds now
for n in range(4):
    chain = [PERF_CONTEXT_KERNEL, REUSED + 0x10 + 8 * (n % 3), STAYS + 0x40 + 0x10 * (n % 2),
             PERF_CONTEXT_USER, 0x401000 + 0x10 * (n % 4)]
    events.append(sample(t, chain, 1000))
    t += 1000
data = b"".join(events)

write(sys.argv[1], SAMPLE_IP | SAMPLE_TID | SAMPLE_TIME | SAMPLE_CALLCHAIN | SAMPLE_PERIOD,
      ATTR_COMM | ATTR_KSYMBOL, data)
