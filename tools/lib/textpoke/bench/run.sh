#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Build and run the libtextpoke benchmark; arguments go to bench-textpoke
# (-n pokes, -s sites, -q queries, -r repeats).  Prints, per case, the
# median of the repeats (CPU time of one thread) with its range: build
# rate, single and batched random reads, view reads, memory per poke; and
# last, the full-size case against the targets (build >= 5M pokes/s,
# batched random 16-byte reads >= 10M/s).
set -e
dir=$(cd "$(dirname "$0")/.." && pwd)
make -s -C "$dir" BENCH_ARGS="$*" bench
