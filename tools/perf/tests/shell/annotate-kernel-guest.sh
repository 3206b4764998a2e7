#!/bin/bash
# annotate: a real kernel's poked functions per version against stock perf on inject --snapshot outputs
# SPDX-License-Identifier: GPL-2.0-only
#
# The checked-in recording kaslr-ftrace.ours (Debian's 6.1 kernel under
# qemu, data/kernel-guest/, made by the rig while ftrace was switched on
# and off: vfs_read's first instruction a call to an ftrace trampoline,
# then a nop, and so on) has samples in vfs_read under three versions of
# its code, and in finish_task_switch.isra.0 after its jump label's poke.
# For each version our annotate -n --asm-raw prints, stock perf 6.1
# annotates (HOME a scratch directory) the output of inject --snapshot at
# a moment inside that version's span ("start" or "end" at the ends):
# every instruction of our block, address and raw bytes, must be the one
# objdump shows on that snapshot, and perf, which puts every sample of the
# function on that one copy of the bytes, must count at each address the
# sum of our versions' counts, and in its header the sum of our headers
# (lib/annotate-versions.py).  vfs_read must come in at least two
# versions: the recording holds three (checked in, no sampling here).
#
# Mutations caught: the version bytes read at the symbol's last sample's time
# (vfs_read version 1 shows the nop of the later ones, perf the call);
# annotate__lines_end() keeping the trailing nops
# (*end = off + n for every instruction): our vfs_read blocks show the
# padding nopl at ffffffffae366cec that perf drops.

[ -n "$TEXTPOKE" ] || { echo "TEXTPOKE not set: run through perf-textpoke test"; exit 2; }
. "$(dirname "$0")/lib/common.sh"
data=${TEXTPOKE_SRCDIR:?}/tools/perf/tests/data/kernel-guest
rec=kaslr-ftrace.ours
[ -f "$data/$rec/data.gz" ] || skip "$data/$rec: not in the tree"
command -v gzip >/dev/null 2>&1 || skip "gzip is not installed"
command -v perf >/dev/null 2>&1 || skip "stock perf is not installed"
command -v objdump >/dev/null 2>&1 || skip "objdump (binutils) is not installed"
command -v python3 >/dev/null 2>&1 || skip "python3 is not installed"
scratch kguest-annotate
export HOME=$tmp
check_py="$TEXTPOKE_SRCDIR/tools/perf/tests/shell/lib/annotate-versions.py"

in=$tmp/$rec
mkdir -p "$in/kcore_dir" || fail "mkdir $in"
gzip -dc "$data/$rec/data.gz" >"$in/data" &&
	gzip -dc "$data/$rec/kcore_dir/kallsyms.gz" >"$in/kcore_dir/kallsyms" &&
	gzip -dc "$data/$rec/kcore_dir/kcore.gz" >"$in/kcore_dir/kcore" &&
	cp "$data/$rec/kcore_dir/modules" "$in/kcore_dir/modules" ||
	fail "$data/$rec: cannot unpack"

syms="vfs_read finish_task_switch.isra.0"
"$TEXTPOKE" annotate -i "$in" -n --asm-raw -s vfs_read -s finish_task_switch.isra.0 \
	>"$tmp/ours" 2>"$tmp/ours.err" || fail "annotate: $(head -3 "$tmp/ours.err")"
args=()
for sym in $syms; do
	# each version's span: "# SYM, version K of N: FROM to TO, ..."
	grep -F "# $sym, version " "$tmp/ours" |
		sed -n 's/^# [^,]*, version \([0-9]*\) of [0-9]*: \([^ ]*\) to \([^,]*\),.*/\1 \2 \3/p' \
			>"$tmp/spans"
	[ -s "$tmp/spans" ] || fail "$sym: no version of it in our output: $(head -3 "$tmp/ours.err")"
	[ "$sym" != vfs_read ] || [ "$(wc -l <"$tmp/spans")" -ge 2 ] ||
		fail "vfs_read: $(wc -l <"$tmp/spans") version(s) with samples, the recording has 3"
	list=
	while read -r k from to; do
		if [ "$from" = start ]; then
			at=start
		elif [ "$to" = end ]; then
			at=end
		else
			at=$(awk -v a="$from" -v b="$to" 'BEGIN { printf "%.9f", (a + b) / 2 }')
		fi
		snap=$tmp/snap-$sym-$k.data
		"$TEXTPOKE" inject -i "$in" -o "$snap" --snapshot="$at" >/dev/null 2>"$tmp/inject.err" ||
			fail "inject --snapshot=$at: $(head -3 "$tmp/inject.err")"
		perf annotate -i "$snap" --stdio -n --asm-raw -s "$sym" >"$tmp/perf-$sym-$k" \
			2>"$tmp/perf.err" || fail "stock perf annotate $sym on the $at snapshot: $(head -3 "$tmp/perf.err")"
		list=$list${list:+,}$tmp/perf-$sym-$k
	done <"$tmp/spans"
	args+=("$sym=$list")
done
# one checker run: python's start is slow on a busy machine
python3 "$check_py" "$tmp/ours" "${args[@]}" >"$tmp/check" 2>&1 ||
	fail "our versions against stock perf on the snapshots: $(head -8 "$tmp/check")"
cat "$tmp/check"
echo "ok: $rec: each version as objdump shows its snapshot, the counts as perf's"
