#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
# lost-first.py IN OUT: IN (a perf.data file whose events have
# sample_id_all, its first event's layout) copied to OUT with a
# PERF_RECORD_LOST (3 events lost, of the first event)
# put first in the data section, timed at the first sample's time, so
# that a reader that stops at its first failing write has counted it,
# whatever the recording.  Written from the format's definition (the
# file header, its attr, record headers, the feature index), not with
# perf textpoke's reader or writer.
import struct
import sys

SAMPLE, LOST = 9, 2
# the sample_id trailer's fields, in their order (PERF_SAMPLE_* bits)
TRAILER = [(1 << 1, "tid"), (1 << 2, "time"), (1 << 6, "id"), (1 << 9, "stream_id"),
           (1 << 7, "cpu"), (1 << 16, "identifier")]
# the fields before TIME in a sample: IDENTIFIER, IP, TID
BEFORE_TIME = [(1 << 16, 8), (1 << 0, 8), (1 << 1, 8)]


def main():
    src, dst = sys.argv[1], sys.argv[2]
    buf = bytearray(open(src, "rb").read())
    if buf[:8] != b"PERFILE2":
        sys.exit(f"{src}: not a PERFILE2 file")
    attr_size, attrs_off, attrs_size, data_off, data_size = struct.unpack_from("<QQQQQ", buf, 16)
    if attrs_size < attr_size:
        sys.exit(f"{src}: no event")
    attr = attrs_off
    sample_type = struct.unpack_from("<Q", buf, attr + 24)[0]
    flags = struct.unpack_from("<Q", buf, attr + 40)[0]
    if not flags & (1 << 18) or not sample_type & (1 << 2):
        sys.exit(f"{src}: no sample_id_all or no time")
    ids_off, ids_size = struct.unpack_from("<QQ", buf, attr + attr_size - 16)
    eid = struct.unpack_from("<Q", buf, ids_off)[0] if ids_size else 0
    pos, end, first_time = data_off, data_off + data_size, None
    while pos + 8 <= end:
        rtype, _, size = struct.unpack_from("<IHH", buf, pos)
        if size < 8 or pos + size > end:
            sys.exit(f"{src}: bad record at {pos:#x}")
        if rtype == SAMPLE:
            at = pos + 8 + sum(n for bit, n in BEFORE_TIME if sample_type & bit)
            first_time = struct.unpack_from("<Q", buf, at)[0]
            break
        pos += size
    if first_time is None:
        sys.exit(f"{src}: no sample")
    body = struct.pack("<QQ", eid, 3)
    for bit, name in TRAILER:
        if not sample_type & bit:
            continue
        body += struct.pack("<Q", first_time if name == "time" else
                            eid if name in ("id", "identifier") else 0)
    rec = struct.pack("<IHH", LOST, 0, 8 + len(body)) + body
    n = len(rec)
    # the feature index after the data: absolute offsets, each moved by n
    feats = bin(int.from_bytes(buf[72:104], "little")).count("1")
    for i in range(feats):
        at = end + 16 * i
        off = struct.unpack_from("<Q", buf, at)[0]
        struct.pack_into("<Q", buf, at, off + n)
    struct.pack_into("<Q", buf, 48, data_size + n)
    buf[data_off:data_off] = rec
    open(dst, "wb").write(buf)
    print(f"a LOST record of {n} bytes first, at time {first_time}")


main()
