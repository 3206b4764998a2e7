#!/bin/bash
# report: rows that tie come in stock perf report's order
# SPDX-License-Identifier: GPL-2.0-only
#
# Where rows tie on their values, perf's order is the next sort key's,
# and where keys tie too, the order of its trees.  lib/ties-maps.py
# writes (with lib/perfdata.py, not our writer) two tasks that map
# objects of sizes in no order, two of one size, and sample each object,
# and one address outside every map, with one period: every row ties on
# Overhead.  Byte for byte with stock perf report --stdio 6.1:
# - --sort dso_size: perf's sort__dso_size_cmp() has no sort function of
#   its own, so the printed order is its input comparison's, the smaller
#   map first, no map (size 0, "unknown") before all;
# - beside dso (either order, the two objects of one size), comm and sym;
# - a third task maps two copies of one library (lib/remap-lib.c built as
#   alpha_*) at two paths of one base name, sampled in alpha_leaf of
#   each: perf's sort__dso_cmp() compares objects by short name, so
#   --sort sym,dso (and dso,sym, sym) makes one row of both.
#
# Mutation caught: the dso_size key reversed for the printed order in
# entry__cmp_key() (the larger map first, as it was): every row moves.
# And: objects keyed by their long name (map__dso_name() for
# map__dso_short() in hist_key__fill()): dso-size-dso fails first (the
# objects' paths printed), copies-sym-dso would have two rows of alpha_leaf.

. "$(dirname "$0")/lib/report-common.sh"
need_perf_root
scratch report-ties

command -v nm >/dev/null || skip "no nm (binutils)"
mkdir -p "$tmp/a" "$tmp/b"
cc -O1 -shared -fPIC -DNAME=alpha -o "$tmp/a/libties.so" "$libdir/remap-lib.c" ||
	fail "cannot build libties.so"
cp "$tmp/a/libties.so" "$tmp/b/libties.so"
python3 "$libdir/ties-maps.py" "$tmp/m.data" "$tmp/a/libties.so" "$tmp/b/libties.so" ||
	fail "ties-maps.py"
same_report dso-size "$tmp/m.data" --sort dso_size
n=$(grep -c '^ ' "$tmp/dso-size.ours")
[ "$n" = 7 ] || fail "dso-size: $n rows, not 7 (five sizes, the library, no map)"
same_report dso-size-dso "$tmp/m.data" --sort dso_size,dso
same_report dso-dso-size "$tmp/m.data" --sort dso,dso_size -n
same_report comm-dso-size "$tmp/m.data" --sort comm,dso_size
same_report dso-size-comm "$tmp/m.data" --sort dso_size,comm
same_report sym-dso-size "$tmp/m.data" --sort sym,dso_size
same_report fields-dso-size "$tmp/m.data" -F period,dso_size
same_report copies-sym-dso "$tmp/m.data" --comm tiesc --sort sym,dso -n
n=$(grep -c 'alpha_leaf' "$tmp/copies-sym-dso.ours")
[ "$n" = 1 ] || fail "copies-sym-dso: $n rows of alpha_leaf, not 1"
same_report copies-dso-sym "$tmp/m.data" --sort dso,sym
same_report copies-sym "$tmp/m.data" --sort sym
exit 0
