#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
# Writes a perf.data file (PERFILE2, one cpu-clock event sampling
# CALLCHAIN, no header features) byte by byte from the format's
# definition, not with perf textpoke's writer: BPF programs come and go
# as PERF_RECORD_KSYMBOL says (register, unregister), one address held
# by three programs in turn, and samples in the kernel whose chains run
# through them and through a program that stays.  A frame at the reused
# address names the program that was there when the sample was taken.
# Usage: bpf-chains.py OUT
import struct
import sys

PERF_CONTEXT_KERNEL = (1 << 64) - 128
PERF_CONTEXT_USER = (1 << 64) - 512
SAMPLE_IP, SAMPLE_TID, SAMPLE_TIME, SAMPLE_CALLCHAIN, SAMPLE_PERIOD = 1, 2, 4, 32, 256
KSYM_BPF, UNREGISTER = 1, 1
PID = 6262
REUSED, STAYS, OTHER = 0xffffffffa0010000, 0xffffffffa0020000, 0xffffffffa0030000


def record(rtype, misc, body):
    return struct.pack("<IHH", rtype, misc, 8 + len(body)) + body


def cstr(s):
    raw = s.encode() + b"\0"
    return raw + b"\0" * (-(len(raw) + 4) % 8)


def comm(pid, tid, name):
    raw = name.encode() + b"\0"
    raw += b"\0" * (-len(raw) % 8)
    return record(3, 0, struct.pack("<II", pid, tid) + raw)


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
data = b"".join(events)

flags = (1 << 9) | (1 << 29)  # comm, ksymbol
st = SAMPLE_IP | SAMPLE_TID | SAMPLE_TIME | SAMPLE_CALLCHAIN | SAMPLE_PERIOD
attr = struct.pack("<IIQQQQQIIQQQQIiQIHH", 1, 112, 0, 4000, st, 0, flags, 0, 0, 0, 0, 0, 0,
                   0, 0, 0, 0, 0, 0)
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
