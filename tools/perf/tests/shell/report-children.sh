#!/bin/bash
# report: --children (perf's default with callchains) equals stock perf report, fp, dwarf and -m32
# SPDX-License-Identifier: GPL-2.0-only
#
# A workload with a three-level chain below main (main -> level1 ->
# level2 -> level3, level3 also in libc's memset, a function inlined into
# level2 calling level3) is recorded now by stock perf record: built with
# frame pointers under -g, and -O2 -fomit-frame-pointer under
# --call-graph dwarf.  Our report -g none (Children, Self) must equal
# stock perf report --stdio -g none (the trees are report-tree.sh's),
# with --sort sym, dso,sym, dso (every frame of
# the program is one row there, each sample counted once), -n, -F and
# --percent-limit, --max-stack; --no-children must equal perf's
# --no-children -g none; a pipe gets no Children, as in perf 6.1.
# The dwarf recording's unwound frames include inlined ones, which perf
# report shows as rows of their own ("descend (inlined)").
#
# A -m32 build under --call-graph dwarf: stock perf 6.1 unwinds no user
# frame of a 32-bit task ("unwind: target platform=x86 is not
# supported"), so its Children of main and the levels are their Self.
# Ours unwinds them: each level's Children (from --json) must be at
# least 95% of the Self periods stock perf gives that level and the
# levels below it (every sample there has the level in its chain), and
# at most the event's total; the Self columns must equal stock perf's.
#
# Where this kernel runs no 32-bit program, the -m32 checks still run, on
# every machine, on recordings stock perf made on Debian's kernel under
# qemu (m32-guest/dw32.data, --call-graph dwarf,512), checked in with the
# perf archive of their objects, which the scratch HOME's build-id cache
# holds; with them the -m32 build under -g (m32-guest/fp32.data), whose
# chains the kernel walks by frame pointers: stock perf is right there,
# and every case of the 64-bit frame-pointer recording runs on it.
#
# Mutation caught: dropping the once-per-sample check in
# report_hists__add_frame() (the loop over rh->seen never returning 0):
# the recorded chain repeats the sampled IP, so level3's Children passes
# 100% and the rows no longer equal stock perf's.  And: frame__level()
# giving '.' to kernel objects too: the kernel rows that chain frames
# made (asm_sysvec_apic_timer_interrupt, [k] in perf) print [.].  And:
# the i386 DWARF register map giving DWARF register 4 (esp) perf's BP
# (dwarf32[] in unwind-libdw.c): the checked-in -m32 dwarf recording's
# levels get no Children from the unwound frames.

. "$(dirname "$0")/lib/report-common.sh"
. "$(dirname "$0")/lib/m32-guest.sh"
need_perf_root
scratch report-children

src="$libdir/report-children-workload.c"
gcc -O1 -fno-omit-frame-pointer -g -o "$tmp/wfp" "$src" 2>"$tmp/gcc.err" ||
	fail "gcc: $(cat "$tmp/gcc.err")"
gcc -O2 -fomit-frame-pointer -g -o "$tmp/wdw" "$src" 2>"$tmp/gcc.err" ||
	fail "gcc: $(cat "$tmp/gcc.err")"
why32=$(why_no_32bit)
if [ -n "$why32" ]; then
	why32="32-bit part: $why32"
else
	gcc -m32 -O2 -fomit-frame-pointer -g -o "$tmp/wdw32" "$src" 2>"$tmp/gcc32.err" ||
		fail "gcc -m32: $(cat "$tmp/gcc32.err")"
fi
nodw=
"$TEXTPOKE" version --build-options | grep -q 'libdw: \[ on' ||
	nodw="dwarf parts: perf-textpoke built without libdw"
m32_guest_check fp32.data dw32.data
whyguest=$why_m32_guest
[ -z "$whyguest" ] || whyguest="checked-in 32-bit parts: $whyguest"

# same_children NAME FILE ARGS...: ours -g none ARGS equals stock perf report -g none ARGS
same_children() {
	same_report "$1" "$2" -g none "${@:3}"
}

# parity FILE PREFIX PROGRAM: the cases every recording goes through
parity() {
	local file=$1 p=$2 prog=$3
	grep -q '^# Children      Self' <(perf_report -i "$file" -g none 2>/dev/null) ||
		fail "$p: stock perf report shows no Children column for a -g recording"
	same_children "$p-default" "$file"
	same_children "$p-sym" "$file" --sort sym
	same_children "$p-dso-sym" "$file" --sort dso,sym
	same_children "$p-dso" "$file" --sort dso -n
	same_children "$p-n" "$file" -n
	same_children "$p-pid-cpu" "$file" --sort pid,cpu,sym
	same_children "$p-children" "$file" --children --sort comm,sym
	same_children "$p-F" "$file" -F overhead,sym
	same_children "$p-F-plus" "$file" -F +sample
	same_children "$p-limit" "$file" --percent-limit 5
	same_children "$p-max-stack" "$file" --max-stack 3
	# perf filters a chain's entries by the sample that made them; level3's
	# own samples make its row, so the filtered reports are never empty
	same_children "$p-symbols" "$file" --symbols level2,level3 --sort sym
	same_children "$p-dsos" "$file" --dsos "$prog",libc.so.6
	same_children "$p-no-children" "$file" --no-children
	same_children "$p-no-children-sym" "$file" --no-children --sort sym -n
}

perf_record "$tmp/fp.data" -e cpu-clock -F 4000 -g -- "$tmp/wfp" 30000000
parity "$tmp/fp.data" fp wfp
# a level's samples counted in main's row: the chain holds main
grep -q '\[\.\] level3' "$tmp/fp-default.ours" || fail "fp: no level3 row"
# a pipe's events come as records, after perf 6.1 has chosen its columns:
# no Children, even when asked for
HOME=$tmp perf record -q -o - -e cpu-clock -F 4000 -g -- "$tmp/wfp" 10000000 \
	>"$tmp/pipe.data" 2>"$tmp/record.out" || fail "perf record -o -: $(head -3 "$tmp/record.out")"
same_children fp-pipe "$tmp/pipe.data" --children
grep -q '^# Overhead' "$tmp/fp-pipe.ours" || fail "fp-pipe: Children columns for a pipe"

# -m32 under -g from a real kernel: the kernel's compat frame-pointer walk
if [ -z "$whyguest" ]; then
	m32_guest_home
	HOME=$tmp parity "$m32_guest/fp32.data" guest-fp32 wfp32
	grep -q '\[\.\] level3' "$tmp/guest-fp32-default.ours" || fail "guest-fp32: no level3 row"
fi

[ -z "$nodw" ] || skip "$nodw${whyguest:+; $whyguest}${why32:+; $why32}"

# -D 50: not the dynamic loader's start-up, where one assembly stub has
# several ELF names and addr2line picks another than ours (__GI_munmap
# against munmap in ld.so: an open difference of dso-inline.c)
perf_record "$tmp/dw.data" -e cpu-clock -F 4000 -D 50 --call-graph dwarf -- "$tmp/wdw" 60000000
parity "$tmp/dw.data" dw wdw
grep -q '\[\.\] descend (inlined)' "$tmp/dw-default.ours" ||
	fail "dw: no row for the inlined descend(), which stock perf shows"

# check_dw32 NAME FILE: a -m32 --call-graph dwarf recording of the
# workload.  Stock perf unwinds no 32-bit frame: its Self per symbol (it
# resolves the sampled IPs alone) must equal ours, and each level's
# Children (from --json) be at least 95% of stock perf's Self there and
# below, and at most the event's total
check_dw32() {
	local name=$1 file=$2 stock_main

	same_children "$name-self" "$file" --no-children --sort sym -n
	perf_report -i "$file" -g none --no-children --sort sym -F period,sym 2>/dev/null |
		awk '/^ +[0-9]+ +\[/ { print $3, $1 }' >"$tmp/$name.self"
	grep -q '^level3 ' "$tmp/$name.self" || fail "$name: stock perf has no level3 samples"
	stock_main=$(perf_report -i "$file" -g none --sort sym 2>/dev/null |
		awk '$NF == "main" { print $1, $2 }')
	"$TEXTPOKE" report --no-changes -i "$file" --sort sym --json >"$tmp/$name.json" ||
		fail "$name: report --json"
	python3 - "$tmp/$name.json" "$tmp/$name.self" <<'EOF' ||
import json, sys

doc = json.load(open(sys.argv[1]))
ev = doc["profile"][0]
assert ev["children"], "no Children in the JSON of a callchain recording"
ours = {e["sym"]: e for e in ev["entries"] if e["sym"] and not e["inlined"]}
self = {}
for line in open(sys.argv[2]):
    sym, period = line.split()
    self[sym] = int(period)
levels = ["main", "level1", "level2", "level3"]
bad = 0
for i, sym in enumerate(levels):
    below = sum(self.get(s, 0) for s in levels[i:])
    got = ours[sym]["children"] if sym in ours else 0
    ok = 0.95 * below <= got <= ev["total_period"]
    print("%s %s: Children %d (%.2f%%), stock perf's Self here and below %d"
          % ("ok:" if ok else "FAIL:", sym, got, 100.0 * got / ev["total_period"], below))
    if sym in ours and ours[sym]["period"] != self.get(sym, 0):
        print("FAIL: %s: Self %d, stock perf's %d" % (sym, ours[sym]["period"], self.get(sym, 0)))
        ok = False
    bad += not ok
sys.exit(1 if bad else 0)
EOF
		fail "$name: Children of the levels are not what the samples say"
	echo "note: $name: stock perf 6.1 unwinds no 32-bit user frame: its main is Children Self $stock_main"
}

# -m32 under --call-graph dwarf from a real kernel
[ -n "$whyguest" ] || HOME=$tmp check_dw32 guest-dw32 "$m32_guest/dw32.data"

skipped="$whyguest${whyguest:+${why32:+; }}$why32"
[ -z "$why32" ] || skip "$skipped"
perf_record "$tmp/dw32.data" -e cpu-clock -F 4000 --call-graph dwarf -- "$tmp/wdw32" 30000000
check_dw32 dw32 "$tmp/dw32.data"
[ -z "$skipped" ] || skip "$skipped"
exit 0
