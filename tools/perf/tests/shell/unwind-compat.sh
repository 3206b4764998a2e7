#!/bin/bash
# unwind: --call-graph dwarf chains of a 32-bit (-m32) task, where stock perf has none
# SPDX-License-Identifier: GPL-2.0-only
#
# unwind-chain.c built gcc -m32 -O2 -g -fomit-frame-pointer (main ->
# level1 -> level2 -> level3, no frame pointers), recorded with stock
# perf record --call-graph dwarf.  Stock perf 6.1 on Debian picks its
# libunwind target by the object's ELF class and has no x86 (i386)
# target: it says "unwind: target platform=x86 is not supported" and
# prints no user frame.  What it does here is printed, and if it does
# unwind, the test says so and still checks ours.  Ours, guided by the
# sample's ABI word (1: compat), must unwind >= 95% of the samples whose
# IP is in level3 (counted by stock perf -G, which resolves the IP
# without unwinding) through level2 and level1 to main; every user frame
# must have an IP below 2^32 and lie in [vdso] or in a 32-bit object the
# task mapped (per stock perf's mmap events and readelf's ELF class).
#
# Past main, gdb's backtrace (set backtrace past-main on) at level3 names
# the outermost frame, and >= 95% of ours must end there too.
#
# The same checks run, on every machine, on m32-guest/chain32.data: stock
# perf record --call-graph dwarf,512 of chain32 on Debian's kernel under
# qemu, checked in with the perf archive of its objects, which the scratch
# HOME's build-id cache holds (their recorded paths exist nowhere else).
# gdb cannot run that program here, so its outermost frame is the one
# every program starts in: the function at its ELF entry point, by
# readelf on the packed object.  And on m32-guest/chain32.ours.data, the
# same program recorded there by our perf textpoke record with the same
# options (the stack dump our recorder wrote, unwound by ours).
#
# Mutation caught: the ABI word ignored (w->is32 = false in
# unwinder__walk(): a 64-bit Dwfl for 32-bit objects, no user frame).  Mutation
# caught: memory reads 8 bytes wide and addresses not cut to 32 bits for
# a compat task (uw__memory_read(), uw__addr()): the chains stop at main.

. "$(dirname "$0")/lib/common.sh"
. "$(dirname "$0")/lib/m32-guest.sh"
need_perf_root
scratch unwind-compat
export HOME=$tmp
src=$(dirname "$0")/../workloads
fields=comm,tid,time,ip,sym,symoff,dso
# a chain line of a kernel frame: 16 hex digits from 0xffff..., and a dso
# ([kernel.kallsyms] or a module); perf prints a failed user read as
# ffffffffffffffff [unknown] ([unknown]), a user frame
kernel_frame='function kernel(l, ip) {
	ip = l; sub(/^\t */, "", ip); sub(/ .*/, "", ip)
	return length(ip) == 16 && ip ~ /^ffff/ && l !~ /\(\[unknown\]\)$/
}'

# check_chains NAME FILE PROGRAM OUTER: ours unwinds the recording FILE of
# chain32 (mapped from PROGRAM) through level2, level1 to main, past main
# to OUTER (when known), in 32-bit objects only; what stock perf does is
# said
check_chains() {
	local name=$1 file=$2 prog=$3 outer=$4 n3 perf_user perf_says stock f obj bid

	# the denominator, without unwinding: user-mode samples whose own IP is
	# in level3 (a kernel-mode sample's IP is the kernel's), by time
	perf script -i "$file" --ns -F time,ip,sym -G >"$tmp/$name.perf-G" 2>/dev/null ||
		fail "$name: perf script -G"
	awk '$NF == "level3" { print $1 }' "$tmp/$name.perf-G" >"$tmp/$name.in3"
	n3=$(wc -l <"$tmp/$name.in3")
	[ "$n3" -gt 100 ] || fail "$name: stock perf -G sees only $n3 samples in level3"

	# what stock perf does with the user stacks of a compat task
	perf script -i "$file" -F $fields >"$tmp/$name.perf" 2>"$tmp/$name.perf.err" ||
		fail "$name: stock perf script: $(head -3 "$tmp/$name.perf.err")"
	perf_user=$(awk "$kernel_frame"'
		BEGIN { RS = ""; FS = "\n" }
		{ for (i = 2; i <= NF; i++) if (!kernel($i)) { n++; break } }
		END { print n + 0 }' "$tmp/$name.perf")
	perf_says=$(grep -m1 -i unwind "$tmp/$name.perf.err")
	if [ "$perf_user" = 0 ]; then
		stock="none (${perf_says:-no message})"
	else
		stock="$perf_user samples with user frames (stock perf unwinds compat tasks here)"
	fi

	"$TEXTPOKE" script -i "$file" --ns -F $fields >"$tmp/$name.ours" 2>"$tmp/$name.ours.err" ||
		fail "$name: perf textpoke script: $(head -3 "$tmp/$name.ours.err")"

	# the 32-bit objects the task mapped, as stock perf saw them mapped: the
	# file at its path, else (a recording from elsewhere) the build-id
	# cache's copy of the build-id the recording gives it
	perf script -i "$file" --show-mmap-events 2>/dev/null |
		sed -n 's/.* PERF_RECORD_MMAP2 .* \(\/[^ ]*\)$/\1/p' | sort -u >"$tmp/$name.mapped"
	perf buildid-list -i "$file" >"$tmp/$name.bids" 2>/dev/null
	: >"$tmp/$name.dsos32"
	while read -r f; do
		obj=$f
		if [ ! -e "$obj" ]; then
			bid=$(awk -v f="$f" '$2 == f { print $1; exit }' "$tmp/$name.bids")
			obj=$HOME/.debug/.build-id/${bid:0:2}/${bid:2}/elf
		fi
		readelf -h "$obj" 2>/dev/null | grep -q 'Class: *ELF32$' && echo "$f" >>"$tmp/$name.dsos32"
	done <"$tmp/$name.mapped"
	grep -qx "$prog" "$tmp/$name.dsos32" ||
		fail "$name: no mmap of $prog in stock perf's view: $(cat "$tmp/$name.mapped")"

	awk -v n3="$n3" -v dsos="$tmp/$name.dsos32" -v in3file="$tmp/$name.in3" -v outer="$outer" \
		"$kernel_frame"'
		BEGIN {
			while ((getline f <dsos) > 0)
				ok["(" f ")"] = 1
			# perf names the compat vdso [vdso32]
			ok["([vdso])"] = ok["([vdso32])"] = ok["(inlined)"] = 1
			while ((getline f <in3file) > 0)
				level3[f] = 1
			RS = ""; FS = "\n"
		}
		{
			split($1, h, " ")
			key = h[3]
			nu = 0
			for (i = 2; i <= NF; i++) {
				if (kernel($i))
					continue
				split($i, w, " ")
				ip = w[1]; sub(/^\t */, "", ip)
				sym = w[2]; sub(/\+0x[0-9a-f]+$/, "", sym)
				dso = $i; sub(/^.* \(/, "(", dso)
				user[++nu] = sym
				frames++
				if (length(ip) > 8 && bad_ip++ < 3)
					print "user frame above 2^32 at sample " NR ": " $i
				if (!(dso in ok) && bad_dso++ < 3)
					print "user frame outside the 32-bit objects at sample " NR ": " $i
			}
			if (key in level3) {
				seen3++
				if (nu >= 4 && user[2] == "level2" && user[3] == "level1" && user[4] == "main")
					through++
				else if (shown++ < 3)
					print "not through to main: sample " NR ":\n" $0
				tail[user[nu]]++
				if (user[nu] == outer)
					outermost++
			}
		}
		END {
			for (t in tail)
				ends = ends " " t " " tail[t]
			if (outer != "")
				ends = ends sprintf(" (%s, %.1f%% of ours)", outer, n3 ? 100 * outermost / n3 : 0)
			printf "ours: %d of %d user samples in level3 unwind through level2, level1 to main" \
				" (%.1f%%); %d user frames; chains end in:%s\n",
				through, n3, n3 ? 100 * through / n3 : 0, frames, ends
			exit !(seen3 == n3 && bad_ip + bad_dso == 0 && through * 100 >= n3 * 95 &&
			       (outer == "" || outermost * 100 >= n3 * 95))
		}' "$tmp/$name.ours" >"$tmp/$name.verdict" ||
		{ cat "$tmp/$name.verdict"; fail "$name: stock perf: $stock; $(tail -1 "$tmp/$name.verdict")"; }
	grep -v "^warning: .* events lost in [0-9]* LOST records" "$tmp/$name.ours.err" | head -3 | grep . &&
		fail "$name: perf textpoke script wrote the above to stderr"
	echo "ok: $name: stock perf: $stock; $(tail -1 "$tmp/$name.verdict")"
}

# chain32 from a real kernel, in the tree: the outermost frame of every
# chain is the function at the program's ELF entry point, where the
# kernel started it (readelf on the packed object; gdb cannot run it here)
m32_guest_check chain32.data
skipped=$why_m32_guest
if [ -z "$skipped" ]; then
	m32_guest_home
	prog=$m32_guest_dir/chain32
	bid=$(perf buildid-list -i "$m32_guest/chain32.data" 2>/dev/null | awk -v f="$prog" '$2 == f { print $1 }')
	obj=$HOME/.debug/.build-id/${bid:0:2}/${bid:2}/elf
	entry=$(readelf -h "$obj" 2>/dev/null | sed -n 's/^ *Entry point address: *0x0*//p')
	outer=$(readelf -sW "$obj" 2>/dev/null |
		awk -v e="$entry" '$4 == "FUNC" { v = $2; sub(/^0+/, "", v); if (v == e) { print $8; exit } }')
	[ -n "$outer" ] || fail "guest: no function at the entry point ($entry) of $prog's packed copy $obj"
	check_chains guest "$m32_guest/chain32.data" "$prog" "$outer"
	# the same program recorded there by our perf textpoke record
	m32_guest_check chain32.ours.data
	check_chains guest-ours "$m32_guest/chain32.ours.data" "$prog" "$outer"
else
	skipped="checked-in part: $skipped"
fi

why=$(why_no_32bit)
[ -z "$why" ] || skip "${skipped:+$skipped; }recording part: $why"
gcc -m32 -O2 -g -fomit-frame-pointer -o "$tmp/chain32" "$src/unwind-chain.c" 2>"$tmp/gcc.err" ||
	fail "gcc -m32: $(cat "$tmp/gcc.err")"
perf record -q -e cpu-clock -c 200000 --call-graph dwarf -o "$tmp/c32.data" \
	"$tmp/chain32" 0.5 >"$tmp/record.out" 2>&1 || fail "perf record: $(head -3 "$tmp/record.out")"

# past main, an oracle of its own: gdb's backtrace at level3 (past-main on)
# names the outermost frame; ours must end there too (a 32-bit task read 8
# bytes at a time stops at main, whose CFA is a DWARF expression)
outer=
if command -v gdb >/dev/null 2>&1; then
	timeout 30 gdb -nx -batch -ex 'set backtrace past-main on' -ex 'break level3' -ex run -ex bt \
		--args "$tmp/chain32" 0.01 >"$tmp/gdb.out" 2>&1
	if grep -q '^Breakpoint 1, level3 ' "$tmp/gdb.out"; then
		outer=$(awk '/^#[0-9]/ { name = $2 ~ /^0x/ ? $4 : $2 } END { print name }' "$tmp/gdb.out")
		[ -n "$outer" ] && [ "$outer" != "??" ] && [ "$outer" != main ] ||
			fail "gdb's backtrace at level3 ends in '$outer': $(grep '^#' "$tmp/gdb.out")"
	else
		why=$(grep -m1 -iE 'warning|error' "$tmp/gdb.out")
		skipped="${skipped:+$skipped; }gdb cannot run the workload to level3 ($why): frames past main not checked"
	fi
else
	skipped="${skipped:+$skipped; }gdb is not installed: frames past main not checked"
fi
check_chains c32 "$tmp/c32.data" "$tmp/chain32" "$outer"
[ -z "$skipped" ] || skip "$skipped"
exit 0
