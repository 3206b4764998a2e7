#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
# Writes a perf.data file (PERFILE2, one cpu-clock event, sample_id_all,
# rounds, no header features) byte by byte from the format's definition,
# not with perf textpoke's writer: a kernel MMAP, samples in the kernel's
# text and in user space, and in the third round a kernel sample older
# than what the second round delivered: a record out of time order, so
# that a parallel reader falls back to one worker after its walk.
# Whether that late sample counts as "out of order" depends on which
# samples before it were delivered: a reader that leaves the kernel's
# samples out before queueing them (annotate -s of a name the kernel's
# table does not hold) must leave out the same ones whether or not the
# walk before it read the kernel's symbols.
# Usage: kernel-late.py OUT
import os
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from perfdata import (ATTR_COMM, SAMPLE_IP, SAMPLE_PERIOD, SAMPLE_TID, SAMPLE_TIME,  # noqa: E402
                      record, write)

ATTR_SAMPLE_ID_ALL = 1 << 18
MISC_KERNEL, MISC_USER = 1, 2
PID = 7272
KTEXT, KLEN = 0xffffffff81000000, 0x1000000


def trailer(pid, t):
    """sample_id_all's fields for IP|TID|TIME|PERIOD: pid, tid, time"""
    return struct.pack("<IIQ", pid, pid, t)


def named(body, name, pid, t):
    raw = name.encode() + b"\0"
    raw += b"\0" * (-(len(body) + len(raw)) % 8)
    return body + raw + trailer(pid, t)


def sample(t, ip, misc):
    return record(9, misc, struct.pack("<QIIQQ", ip, PID, PID, t, 1000))


events = [record(1, MISC_KERNEL,
                 named(struct.pack("<IIQQQ", 0xffffffff, 0, KTEXT, KLEN, KTEXT),
                       "[kernel.kallsyms]_text", 0xffffffff, 0)),
          record(3, 0, named(struct.pack("<II", PID, PID), "late", PID, 500))]
# round 1: the kernel's samples up to 1090, user ones up to 1030
for t in range(1000, 1100, 10):
    events.append(sample(t, KTEXT + 0x1000 + t, MISC_KERNEL))
    if t <= 1030:
        events.append(sample(t + 5, 0x401000 + t, MISC_USER))
events.append(record(68, 0, b""))
# round 2: delivers round 1
for t in range(2000, 2100, 10):
    events.append(sample(t, KTEXT + 0x2000 + t, MISC_KERNEL))
events.append(record(68, 0, b""))
# round 3: a kernel sample older than round 1's last
events.append(sample(1050, KTEXT + 0x3000, MISC_KERNEL))
events.append(sample(3000, 0x402000, MISC_USER))
events.append(record(68, 0, b""))
write(sys.argv[1], SAMPLE_IP | SAMPLE_TID | SAMPLE_TIME | SAMPLE_PERIOD,
      ATTR_COMM | ATTR_SAMPLE_ID_ALL, b"".join(events))
