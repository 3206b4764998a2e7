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
# Mutation caught: module_events__read() returning 0 before opening
# kcore_dir/module_events (the .text differs from byte 1: no code).
src=${TEXTPOKE_SRCDIR:-.}
command -v perf >/dev/null || { echo "stock perf is not installed"; exit 2; }
d=$(mktemp -d) || exit 1
trap 'rm -rf "$d"' EXIT
cp -r "$src/tools/perf/tests/data/module-guest/." "$d/"
bash "$src/tools/perf/tests/kernel/module/check.sh" "$d"
