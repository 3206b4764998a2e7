#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
# The oracle of the --json tests: Python's own JSON parser, strict (the
# document must be UTF-8, no NaN/Infinity, no raw control characters),
# then every expected line "path<TAB>value" must hold.  A path is keys
# and array indexes joined by '.', "path#len" an array's length; a value
# is s:<hex of the UTF-8 string>, i:<int>, f:<float to 4 places>,
# b:true / b:false, n: (null).
# Usage: json-check.py DOC EXPECTED
import json
import sys


def bad_constant(name):
    raise ValueError("non-standard constant " + name)


def flatten(v, path, out):
    if isinstance(v, dict):
        for k, x in v.items():
            flatten(x, path + [k], out)
    elif isinstance(v, list):
        out[".".join(path) + "#len"] = "i:%d" % len(v)
        for i, x in enumerate(v):
            flatten(x, path + [str(i)], out)
    else:
        p = ".".join(path)
        if v is None:
            out[p] = "n:"
        elif isinstance(v, bool):
            out[p] = "b:" + ("true" if v else "false")
        elif isinstance(v, int):
            out[p] = "i:%d" % v
        elif isinstance(v, float):
            out[p] = "f:%.4f" % v
        else:
            out[p] = "s:" + v.encode("utf-8").hex()


def main():
    with open(sys.argv[1], "rb") as f:
        text = f.read().decode("utf-8")
    doc = json.loads(text, parse_constant=bad_constant)
    flat = {}
    flatten(doc, [], flat)
    bad = 0
    with open(sys.argv[2]) as f:
        for line in f:
            line = line.rstrip("\n")
            if not line:
                continue
            path, want = line.split("\t", 1)
            got = flat.get(path, "<missing>")
            if got != want:
                print("%s: got %s, want %s" % (path, got, want))
                bad += 1
    if bad:
        sys.exit(1)


main()
