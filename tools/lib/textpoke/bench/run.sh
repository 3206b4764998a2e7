#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Build and run the libtextpoke benchmark; arguments go to bench-textpoke
# (-n pokes, -s sites, -q queries).  Prints a small table.
set -e
dir=$(cd "$(dirname "$0")/.." && pwd)
make -s -C "$dir" BENCH_ARGS="$*" bench
