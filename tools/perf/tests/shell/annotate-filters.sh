#!/bin/bash
# annotate: --comm, --pid, --tid and -C, report's filters, on one recording; -s spares the kernel table
# SPDX-License-Identifier: GPL-2.0-only
#
# One recording (stock perf record -e cpu-clock --sample-cpu) of
# lib/annotate-filter-workload.c: alpha run by the main thread, by a
# thread named ann-thread (same pid, another tid and comm) and by a
# child process named ann-child (another pid), the child on cpu 1 and
# the parent on cpu 0.
#
# -C is in stock perf annotate 6.1: ours and its --stdio must agree figure
# by figure (lib/annotate-check.py), with -C 1 and -C 0 on the workload's
# object (-d), -C 0 in global-period percentages (the total is of the samples -C
# keeps).  --comm, --pid and --tid are not in perf annotate 6.1: with
# them, our -n count at every address of the workload's blocks must be
# the number of samples stock perf script --comms/--pid/--tid puts at
# that symbol offset (annotate-check.py nr), and --percent-type
# global-hits the share of the samples the filter keeps (hits).
# Bad values: -C on a recording without cpus, --pid that is no number.
# -s alpha does not read the kernel's symbols (no kernel symbol is named
# so: annotate__kernel_wanted()), -s of a kernel symbol with samples does
# and finds it (-v's "kernel symbols:" line, and its block or warning).
#
# Mutation caught: report_filters__match() not asked in annotate__sample()
# (the thread filters ignored): the --comm, --pid and --tid counts are
# all the tasks'.  Mutation caught: the samples counted in the event's
# totals before the filters (annotate__totals() moved above them):
# global-hits with --comm and global-period with -C 0 differ.  Mutation
# caught: report_filters__skip_cpu() not asked: -C 1 shows the parent's
# samples that stock perf leaves out.  Mutation caught:
# machine__kallsyms_may_name() always true (the table read for -s alpha),
# or always false (-s of the kernel symbol: no table, no symbol).

. "$(dirname "$0")/lib/common.sh"
need_perf_root
command -v python3 >/dev/null 2>&1 || skip "python3 is not installed"
scratch annotate-filters
export HOME=$tmp
lib=$(dirname "$0")/lib
check="$lib/annotate-check.py"

gcc -O2 -g -o "$tmp/afw" "$lib/annotate-filter-workload.c" 2>"$tmp/gcc.err" ||
	fail "gcc cannot build lib/annotate-filter-workload.c: $(head -3 "$tmp/gcc.err")"
perf record -q -e cpu-clock --sample-cpu -o "$tmp/f.data" "$tmp/afw" 50000000 \
	>"$tmp/afw.out" 2>"$tmp/record.err" || fail "perf record: $(head -3 "$tmp/record.err")"
child=$(awk '$1 == "child" { print $2 }' "$tmp/afw.out")
thread=$(awk '$1 == "thread" { print $2 }' "$tmp/afw.out")
[ -n "$child" ] && [ -n "$thread" ] || fail "the workload did not say its child and thread"

# counts NAME SCRIPT-FILTER OUR-FILTER: our -n and global-hits against perf script's samples
counts() {
	local name=$1 sf=$2 of=$3 n
	perf script -i "$tmp/f.data" $sf -F ip,sym,symoff,dso >"$tmp/$name.script" 2>/dev/null ||
		fail "$name: stock perf script $sf"
	n=$(grep -c " alpha+" "$tmp/$name.script")
	[ "$n" -ge 20 ] || fail "$name: stock perf script $sf has $n samples in alpha, want >= 20"
	"$TEXTPOKE" annotate -i "$tmp/f.data" $of -n >"$tmp/$name.nr" 2>"$tmp/$name.err" ||
		fail "$name: annotate $of -n: $(head -3 "$tmp/$name.err")"
	python3 "$check" nr "$tmp/$name.nr" "$tmp/$name.script" afw >"$tmp/$name.check" ||
		fail "$name: annotate $of -n against perf script $sf: $(head -5 "$tmp/$name.check")"
	echo "$name -n: $(cat "$tmp/$name.check")"
	"$TEXTPOKE" annotate -i "$tmp/f.data" $of --percent-type global-hits >"$tmp/$name.hits" \
		2>"$tmp/$name.err" || fail "$name: annotate $of: $(head -3 "$tmp/$name.err")"
	python3 "$check" hits "$tmp/$name.hits" "$tmp/$name.script" afw >"$tmp/$name.check" ||
		fail "$name: annotate $of global-hits: $(head -5 "$tmp/$name.check")"
	echo "$name global-hits: $(cat "$tmp/$name.check")"
}

counts comm "--comms ann-thread" "--comm ann-thread"
counts comms "--comms ann-child,afw" "--comm ann-child,afw"
counts pid "--pid $child" "--pid $child"
counts tid "--tid $thread" "--tid $thread"

# -C: stock perf annotate takes it; the child must have run on cpu 1 for it to say anything
# same NAME ARGS...: stock perf annotate --stdio and ours agree
same() {
	local name=$1 st
	shift
	perf annotate --stdio -i "$tmp/f.data" "$@" >"$tmp/$name.perf" 2>"$tmp/$name.perf-err"
	st=$?
	[ $st = 0 ] || fail "$name: stock perf annotate $* exits $st: $(head -3 "$tmp/$name.perf-err")"
	"$TEXTPOKE" annotate -i "$tmp/f.data" "$@" >"$tmp/$name.ours" 2>"$tmp/$name.err" ||
		fail "$name: perf textpoke annotate $*: $(head -3 "$tmp/$name.err")"
	python3 "$check" "$tmp/$name.perf" "$tmp/$name.ours" >"$tmp/$name.check" ||
		fail "$name: annotate $* differs from perf's: $(head -5 "$tmp/$name.check")"
	echo "$name: $(cat "$tmp/$name.check")"
}
perf script -i "$tmp/f.data" -F cpu,ip,sym 2>/dev/null >"$tmp/cpus.txt"
if [ "$(grep -c '^\[001\] .* alpha$' "$tmp/cpus.txt")" -ge 20 ] &&
	[ "$(grep -c '^\[000\] .* alpha$' "$tmp/cpus.txt")" -ge 20 ]; then
	same cpu1 -C 1 -d afw
	same cpu0 -C 0 -d afw --percent-type global-period
else
	echo "note: -C not checked: fewer than 20 samples of alpha on cpu 0 or 1 (one cpu?)"
fi

# -s of user code alone: the kernel's table is not read (-v says when it is); -s of
# a kernel symbol with samples: read, and the symbol found
"$TEXTPOKE" annotate -v -i "$tmp/f.data" -s alpha >/dev/null 2>"$tmp/user.err" ||
	fail "-s alpha -v: $(head -3 "$tmp/user.err")"
grep "kernel symbols:" "$tmp/user.err" &&
	fail "-s alpha: the kernel's symbols were read, though no kernel symbol is named alpha"
ksym=$(perf script -i "$tmp/f.data" -F ip,sym,dso 2>/dev/null |
	awk '$3 == "([kernel.kallsyms])" && $2 != "[unknown]" { print $2; exit }')
if [ -n "$ksym" ]; then
	"$TEXTPOKE" annotate -v -i "$tmp/f.data" -s "$ksym" >"$tmp/kernel.out" 2>"$tmp/kernel.err" ||
		fail "-s $ksym -v: $(head -3 "$tmp/kernel.err")"
	grep -q "kernel symbols:" "$tmp/kernel.err" ||
		fail "-s $ksym: the kernel's symbols were not read"
	cat "$tmp/kernel.out" "$tmp/kernel.err" | grep -v "kernel symbols:" | grep -q "$ksym" ||
		fail "-s $ksym: neither a block nor a warning names it: $(head -3 "$tmp/kernel.err")"
	echo "kernel table: not read for -s alpha, read for -s $ksym"
else
	echo "note: no kernel sample in stock perf script's output: -s of a kernel symbol not checked"
fi

# bad values: said, exit not 0
perf record -q -e cpu-clock -o "$tmp/nocpu.data" true >/dev/null 2>&1 ||
	fail "perf record of true"
"$TEXTPOKE" annotate -i "$tmp/nocpu.data" -C 0 >"$tmp/nocpu.out" 2>"$tmp/nocpu.err" &&
	fail "-C on a recording without cpus: exit 0"
grep -q "no cpu in its samples" "$tmp/nocpu.err" ||
	fail "-C without cpus: stderr says $(head -3 "$tmp/nocpu.err")"
"$TEXTPOKE" annotate -i "$tmp/f.data" --pid 1x >"$tmp/badpid.out" 2>"$tmp/badpid.err" &&
	fail "--pid 1x: exit 0"
grep -q -- "--pid 1x: not a list of numbers" "$tmp/badpid.err" ||
	fail "--pid 1x: stderr says $(head -3 "$tmp/badpid.err")"
echo "bad values: -C without cpus and --pid 1x refused"
exit 0
