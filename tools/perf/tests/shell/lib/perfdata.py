# SPDX-License-Identifier: GPL-2.0-only
# A perf.data file written byte by byte from the format's definition
# (PERFILE2, one event, no header features), not with perf textpoke's
# writer: what the Python test generators (wrap-chains.py, lbr-chains.py,
# bpf-chains.py) share.  Little-endian, as x86 records.
import struct

PERF_CONTEXT_KERNEL = (1 << 64) - 128
PERF_CONTEXT_USER = (1 << 64) - 512
SAMPLE_IP, SAMPLE_TID, SAMPLE_TIME, SAMPLE_CALLCHAIN = 1, 2, 4, 32
SAMPLE_PERIOD, SAMPLE_BRANCH_STACK = 256, 2048
ATTR_COMM, ATTR_KSYMBOL = 1 << 9, 1 << 29  # perf_event_attr flag bits


def record(rtype, misc, body):
    return struct.pack("<IHH", rtype, misc, 8 + len(body)) + body


def comm(pid, tid, name):
    raw = name.encode() + b"\0"
    raw += b"\0" * (-len(raw) % 8)
    return record(3, 0, struct.pack("<II", pid, tid) + raw)


def write(path, sample_type, flags, data, branch_sample_type=0):
    """one cpu-clock event (PERF_ATTR_SIZE_VER5), no ids, @data its records"""
    attr = struct.pack("<IIQQQQQIIQQQQIiQIHH", 1, 112, 0, 4000, sample_type, 0, flags, 0, 0,
                       0, 0, branch_sample_type, 0, 0, 0, 0, 0, 0, 0)
    assert len(attr) == 112
    attr_entry = attr + struct.pack("<QQ", 0, 0)
    header_size = 104
    data_off = header_size + len(attr_entry)
    header = struct.pack("<8sQQ", b"PERFILE2", header_size, len(attr_entry))
    header += struct.pack("<QQ", header_size, len(attr_entry))
    header += struct.pack("<QQ", data_off, len(data))
    header += struct.pack("<QQ", 0, 0)  # event types
    header += b"\0" * 32  # no features
    assert len(header) == header_size
    with open(path, "wb") as f:
        f.write(header + attr_entry + data)
