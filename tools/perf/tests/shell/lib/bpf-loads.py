#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
# Writes a perf.data file (PERFILE2, one cpu-clock event, sample_id_all,
# rounds, no header features) byte by byte from the format's definition,
# not with perf textpoke's writer: one BPF program loaded again and again
# at one address under one name, each load sampled once, a program that
# stays sampled in every round; KSYMBOL records register and unregister
# each load.  The loads are alike but for their times: a parallel reader
# that orders them by anything but their load (the order its workers'
# parts were merged in) prints them in another order than one worker.
# Usage: bpf-loads.py OUT [LOADS]
import os
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from perfdata import (ATTR_COMM, ATTR_KSYMBOL, SAMPLE_IP, SAMPLE_PERIOD, SAMPLE_TID,  # noqa: E402
                      SAMPLE_TIME, record, write)

KSYM_BPF, UNREGISTER = 1, 1
ATTR_SAMPLE_ID_ALL = 1 << 18
PID = 6363
AGAIN, STAYS = 0xffffffffa0010000, 0xffffffffa0020000


def trailer(t):
    """sample_id_all's fields for IP|TID|TIME|PERIOD: pid, tid, time"""
    return struct.pack("<IIQ", PID, PID, t)


def named(body, name, t):
    raw = name.encode() + b"\0"
    raw += b"\0" * (-(len(body) + len(raw)) % 8)
    return body + raw + trailer(t)


def ksymbol(t, addr, length, name, unregister=False):
    body = struct.pack("<QIHH", addr, length, KSYM_BPF, UNREGISTER if unregister else 0)
    return record(17, 0, named(body, name, t))


def sample(t, ip):
    return record(9, 1, struct.pack("<QIIQQ", ip, PID, PID, t, 1000))  # MISC_KERNEL


def finished_round():
    return record(68, 0, b"")


loads = int(sys.argv[2]) if len(sys.argv) > 2 else 24
events = [record(3, 0, named(struct.pack("<II", PID, PID), "bpfload", 1000)),
          ksymbol(2000, STAYS, 0x200, "bpf_prog_00000000000000aa_stays")]
t = 1000000
for n in range(loads):
    events.append(ksymbol(t, AGAIN, 0x100, "bpf_prog_00000000000000bb_again"))
    events.append(sample(t + 100, AGAIN + 0x10 + 8 * (n % 4)))
    events.append(ksymbol(t + 200, AGAIN, 0x100, "bpf_prog_00000000000000bb_again", True))
    for k in range(8):
        events.append(sample(t + 300 + 100 * k, STAYS + 0x40 + 0x10 * (k % 3)))
    events.append(finished_round())
    t += 10000
write(sys.argv[1], SAMPLE_IP | SAMPLE_TID | SAMPLE_TIME | SAMPLE_PERIOD,
      ATTR_COMM | ATTR_KSYMBOL | ATTR_SAMPLE_ID_ALL, b"".join(events))
