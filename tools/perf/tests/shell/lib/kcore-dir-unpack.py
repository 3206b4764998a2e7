#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""kcore-dir-unpack.py FILE KDIR [STRIPPED]: the kcore_dir a plain perf.data
FILE of perf textpoke record carries (feature bit 255) written to KDIR, read
from the format's bytes, not with perf textpoke's reader; with STRIPPED, FILE
without that feature (its bit, table entry and payload) written there too,
so that KDIR/.. can be the directory form of the same recording.
Exit 3 when FILE has no such feature."""
import os
import struct
import sys

FEAT = 255


def main():
    path, kdir = sys.argv[1], sys.argv[2]
    raw = open(path, "rb").read()
    if raw[:8] != b"PERFILE2":
        sys.exit(f"{path}: not a little-endian perf.data file")
    data_off, data_size = struct.unpack_from("<QQ", raw, 40)
    bits = struct.unpack_from("<4Q", raw, 72)
    feats = [f for f in range(256) if bits[f // 64] >> (f % 64) & 1]
    if FEAT not in feats:
        sys.exit(3)
    table = data_off + data_size
    secs = [struct.unpack_from("<QQ", raw, table + 16 * i) for i in range(len(feats))]
    off, size = secs[feats.index(FEAT)]
    payload = raw[off:off + size]
    os.makedirs(kdir, exist_ok=True)
    pos = 0
    while pos < len(payload):
        name_len, _, n = struct.unpack_from("<IIQ", payload, pos)
        pos += 16
        name = payload[pos:pos + name_len - 1].decode()
        assert payload[pos + name_len - 1] == 0 and "/" not in name and name not in ("", ".", "..")
        pos += -(-name_len // 8) * 8
        with open(os.path.join(kdir, name), "wb") as f:
            f.write(payload[pos:pos + n])
        pos += -(-n // 8) * 8
    if len(sys.argv) > 3:
        # ours is the last bit, so its entry ends the table and its payload the file
        assert feats[-1] == FEAT and off + size == len(raw)
        hdr = bytearray(raw[:table])
        struct.pack_into("<Q", hdr, 72 + 8 * 3, bits[3] & ~(1 << 63))
        rest = b"".join(struct.pack("<QQ", o - 16, s) for o, s in secs[:-1])
        body = raw[table + 16 * len(feats):off]
        with open(sys.argv[3], "wb") as f:
            f.write(bytes(hdr) + rest + body)


main()
