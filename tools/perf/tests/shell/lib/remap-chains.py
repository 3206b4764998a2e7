#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
# Writes a perf.data file (PERFILE2, one cpu-clock event sampling
# CALLCHAIN, no header features) byte by byte from the format's
# definition, not with perf textpoke's writer: one task maps library A,
# is sampled in it, then maps library B over the same address and is
# sampled again with callchains equal to the first ones, address for
# address.  A and B hold the same code under other names (lib/remap-lib.c
# built twice): every caller frame of the later samples is B's.  The
# sampled address itself is in a third library, C, that stays: the
# samples' own places are the same before and after.  Records are in
# time order in the file (no sample_id_all: read in file order).
# Usage: remap-chains.py OUT LIB_A LIB_B LIB_C
import os
import struct
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from perfdata import (ATTR_COMM, PERF_CONTEXT_USER, SAMPLE_CALLCHAIN, SAMPLE_IP,  # noqa: E402
                      SAMPLE_PERIOD, SAMPLE_TID, SAMPLE_TIME, comm, record, write)

PID = 5151
BASE = 0x7f1200000000
BASE_C = 0x7f3400000000


def symbols(path):
    """name -> address of the library's functions, as nm reads them"""
    out = subprocess.run(["nm", "--defined-only", path], capture_output=True, text=True,
                         check=True).stdout
    syms = {}
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1] in "tT":
            syms[parts[2]] = int(parts[0], 16)
    return syms


def mmap(path, base):
    body = struct.pack("<IIQQQ", PID, PID, base, 0x100000, 0)
    raw = path.encode() + b"\0"
    raw += b"\0" * (-(len(body) + len(raw)) % 8)
    return record(1, 2, body + raw)  # PERF_RECORD_MMAP, PERF_RECORD_MISC_USER


def sample(t, chain, period):
    ip = chain[1]
    body = struct.pack("<QIIQQ", ip, PID, PID, t, period)
    body += struct.pack("<Q", len(chain)) + b"".join(struct.pack("<Q", x) for x in chain)
    return record(9, 2, body)


out, lib_a, lib_b, lib_c = sys.argv[1:5]
a, b, c = symbols(lib_a), symbols(lib_b), symbols(lib_c)
for part in ("leaf", "mid", "top"):
    if a["alpha_" + part] != b["beta_" + part]:
        sys.exit("remap-chains.py: the two builds differ: %s at %#x and %#x" %
                 (part, a["alpha_" + part], b["beta_" + part]))
# C's leaf loop, and the return addresses into A's (then B's) mid and top
chains = [[PERF_CONTEXT_USER, BASE_C + c["gamma_leaf"] + off, BASE + a["alpha_mid"] + 9,
           BASE + a["alpha_top"] + 9] for off in (4, 8, 12)]
events = [comm(PID, PID, "remap"), mmap(lib_c, BASE_C), mmap(lib_a, BASE)]
t = 1000000
for n in range(40):
    events.append(sample(t, chains[n % 3], 1000 + n % 2))
    t += 1000
events.append(mmap(lib_b, BASE))
for n in range(25):
    events.append(sample(t, chains[n % 3], 1000 + n % 2))
    t += 1000
write(out, SAMPLE_IP | SAMPLE_TID | SAMPLE_TIME | SAMPLE_CALLCHAIN | SAMPLE_PERIOD, ATTR_COMM,
      b"".join(events))
