#!/bin/bash
# report: a library mapped over another at the same address: equal callchains before and after resolve as stock perf resolves them
# SPDX-License-Identifier: GPL-2.0-only
#
# Report keeps what a recorded callchain did to the profile (its entries,
# its tree) and reuses it for the next sample with the same addresses, as
# long as the maps it was resolved in stay as they were.  Here they do not:
# lib/remap-chains.py writes (byte by byte, not with our writer) a task
# that maps library A (lib/remap-lib.c built as alpha_*), is sampled 40
# times through it, maps B (the same code as beta_*) over the same
# address, and is sampled 25 times with the very same callchains, whose
# sampled addresses are in a third library (gamma_leaf) that stays.  Stock
# perf report --stdio 6.1 resolves the later frames in B; ours must equal
# it byte for byte (Children and trees, --no-children, caller and callee
# graphs, -g none), and must name beta_mid in the trees, or the reuse was
# never put to the test.
#
# perf script of it too: frame lines, and lookups, are kept by address and
# the maps' generation (script_print__frame_keep(), thread__find_symbol()).
#
# Mutations caught: maps__insert() not giving the maps a new generation
# (the later samples' chains drawn in alpha_*: the default report and
# its trees differ from stock perf's); script's frame lines kept by the
# address alone, without the maps' generation (script prints alpha_mid
# for beta_mid); thread__find_symbol()'s answers kept without it (the
# same); script's chains' lines kept without the user maps' generation
# (the same).  Not caught here: a chain kept whose kernel frames lie in
# KSYMBOL spans (thread__chain_gen() refuses them: a program unloaded
# resolves otherwise at the same addresses with no new span counted).

. "$(dirname "$0")/lib/report-common.sh"
need_perf_root
scratch report-remap
command -v nm >/dev/null || skip "no nm (binutils)"

for name in alpha beta gamma; do
	cc -O1 -fno-omit-frame-pointer -shared -fPIC -DNAME=$name -o "$tmp/lib$name.so" \
		"$libdir/remap-lib.c" || fail "cannot build lib$name.so"
done
python3 "$libdir/remap-chains.py" "$tmp/r.data" "$tmp/libalpha.so" "$tmp/libbeta.so" \
	"$tmp/libgamma.so" ||
	fail "remap-chains.py"
same_report default "$tmp/r.data"
grep -q -- '--.*beta_mid' "$tmp/default.ours" || fail "no tree frame in beta_mid: B never resolved"
grep -q -- '--.*alpha_mid' "$tmp/default.ours" || fail "no tree frame in alpha_mid"
same_report no-children "$tmp/r.data" --no-children
same_report callee "$tmp/r.data" -g callee
same_report g-none "$tmp/r.data" -g none
# script keeps each recorded frame's line by its address and the maps it
# was resolved in (and thread__find_symbol() its answer): B's frames must
# not print A's lines
same_script "$tmp/r.data"
grep -q "beta_mid+" "$tmp/script.ours" || fail "script: no frame in beta_mid"
exit 0
