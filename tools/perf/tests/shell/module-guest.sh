#!/bin/bash
# textimage: a real module loaded and unloaded while recording has its kernel bytes, none outside its life
# SPDX-License-Identifier: GPL-2.0-only
#
# The checked-in recording of the kernel rig's module experiment
# (tests/data/module-guest, MANIFEST there): dummy.ko on Debian's 6.1
# kernel under qemu, loaded six times.  tools/perf/tests/kernel/module/
# check.sh compares what perf textpoke code shows at the moment the guest
# read dummy's .text from /proc/kcore with those bytes (711 of them),
# and wants unknown bytes before the first load, after the last free and
# in the init code after its init; stock perf must read the recording
# without a warning.
# The same checks hold on the recording after perf textpoke inject with
# no mode, whose kcore_dir must keep module_events and module.<N>.*.
# Mutation caught: module_events__read() returning 0 before opening
# kcore_dir/module_events (the .text differs from byte 1: no code).
# Mutation caught: inject copying only kcore, kallsyms and modules (the
# injected copy: "module_events lacks the load or the free of dummy").
src=${TEXTPOKE_SRCDIR:-.}
tp=${TEXTPOKE:-$src/tools/perf/perf-textpoke}
command -v perf >/dev/null || { echo "stock perf is not installed"; exit 2; }
d=$(mktemp -d) || exit 1
trap 'rm -rf "$d"' EXIT
mkdir "$d/orig" "$d/injected"
cp -r "$src/tools/perf/tests/data/module-guest/." "$d/orig/"
bash "$src/tools/perf/tests/kernel/module/check.sh" "$d/orig" || exit 1
cp "$d/orig/MANIFEST" "$d/orig/sections" "$d/orig/truth.text" "$d/injected/"
"$tp" inject -q -i "$d/orig/mod.data" -o "$d/injected/mod.data" ||
	{ echo "FAILED: perf textpoke inject of the module recording"; exit 1; }
echo "after perf textpoke inject:"
bash "$src/tools/perf/tests/kernel/module/check.sh" "$d/injected"
