#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""
The ELF vmlinux inside a bzImage: the package ships only vmlinuz, whose
payload is the compressed vmlinux (xz for Debian's 6.1 kernels; gzip is
tried too).  The first compressed stream that unpacks into an ELF is it.
The result is stripped (no symbols) but holds the code at boot and the
kernel's build-id, so that perf textpoke -k takes it as a base.

Usage: extract-vmlinux.py VMLINUZ OUT
"""
import lzma
import sys
import zlib


def candidates(blob):
    i = blob.find(b"\xfd7zXZ\x00")
    while i >= 0:
        try:
            yield lzma.LZMADecompressor().decompress(blob[i:])
        except lzma.LZMAError:
            pass
        i = blob.find(b"\xfd7zXZ\x00", i + 1)
    i = blob.find(b"\x1f\x8b\x08")
    while i >= 0:
        try:
            yield zlib.decompressobj(16 + zlib.MAX_WBITS).decompress(blob[i:])
        except zlib.error:
            pass
        i = blob.find(b"\x1f\x8b\x08", i + 1)


def main():
    if len(sys.argv) != 3:
        print("usage: extract-vmlinux.py VMLINUZ OUT", file=sys.stderr)
        return 2
    with open(sys.argv[1], "rb") as f:
        blob = f.read()
    for out in candidates(blob):
        if out[:4] == b"\x7fELF":
            with open(sys.argv[2], "wb") as f:
                f.write(out)
            return 0
    print("extract-vmlinux: %s: no compressed ELF inside" % sys.argv[1], file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
