#!/bin/bash
# report: --tasks and --mmaps print the thread tree and its maps as stock perf report does
# SPDX-License-Identifier: GPL-2.0-only
#
# perf report --tasks lists every thread the COMM, FORK and EXIT records
# made, each under the thread that forked it, in perf 6.1's thread-table
# order (tid % 256, then tid); --mmaps adds each thread's maps.  Stock
# perf 6.1 is the oracle, byte for byte: recordings made now (a shell
# that forks, a two-thread program, a pipe), the rig's real system-wide
# recordings of Debian's kernel under qemu (70 threads, parents from the
# synthesized FORKs, processes past tid 256), and every public corpus
# file stock perf reads but those where it is wrong (known[] below).
#
# Mutation caught: machine__process_fork() copying the parent's maps for
# a FORK perf record synthesized (PERF_RECORD_MISC_FORK_EXEC ignored):
# the rig recording's children show their parent's vdso beside their own.
# Mutation caught: the tasks sorted by tid alone (TASKS_BUCKETS 1 << 30):
# autofdo/perf-kernel.data's threads come out in another order.

. "$(dirname "$0")/lib/report-common.sh"
need_perf_root
scratch report-tasks
export HOME=$tmp

build_report_workload "$tmp/w" || fail "gcc: $(cat "$tmp/gcc.err")"
perf_record "$tmp/sh.data" -e cpu-clock -F 2000 -- \
	sh -c 'for i in 1 2 3; do sh -c "i=0; while [ \$i -lt 3000 ]; do i=\$((i + 1)); done"; done'
perf_record "$tmp/w.data" -e cpu-clock -F 2000 -- "$tmp/w" 10000000
HOME=$tmp perf record -q -o - -e cpu-clock -F 2000 -- "$tmp/w" 5000000 >"$tmp/pipe.data" 2>/dev/null ||
	fail "perf record -o -"

# same_tasks NAME INPUT: --tasks and --mmaps, stock perf's and ours, byte for byte
same_tasks() {
	local name=$1 in=$2 opt
	for opt in --tasks --mmaps; do
		perf report -i "$in" $opt <"$tmp/pipe.data" >"$tmp/$name.perf" 2>/dev/null ||
			fail "$name: stock perf report $opt failed"
		"$TEXTPOKE" report -i "$in" $opt <"$tmp/pipe.data" >"$tmp/$name.ours" 2>"$tmp/$name.err" ||
			fail "$name: perf textpoke report $opt failed: $(head -3 "$tmp/$name.err")"
		grep -q '^#      pid      tid     ppid  comm$' "$tmp/$name.perf" ||
			fail "$name: stock perf printed no task list"
		cmp -s "$tmp/$name.perf" "$tmp/$name.ours" ||
			{ diff -u "$tmp/$name.perf" "$tmp/$name.ours" | head -20; fail "$name $opt: differs from stock perf"; }
	done
	echo "ok: $name: $(($(wc -l <"$tmp/$name.perf") - 1)) lines of --mmaps equal"
}

same_tasks sh "$tmp/sh.data"
same_tasks threads "$tmp/w.data"
same_tasks pipe -

for rec in kaslr-tracepoints.stock kaslr-startup.ours; do
	src=$TEXTPOKE_SRCDIR/tools/perf/tests/data/kernel-guest/$rec
	[ -f "$src/data.gz" ] || fail "$src: not in the tree"
	mkdir -p "$tmp/$rec" && gzip -dc "$src/data.gz" >"$tmp/$rec/data" || fail "$src: cannot unpack"
	same_tasks "$rec" "$tmp/$rec"
done

[ -d "$TEXTPOKE_CORPUS" ] || { echo "no corpus at '$TEXTPOKE_CORPUS': its part not run"; exit 0; }
declare -A known=(
	[hotspot/perf.data.true.v1]="the 2010 v1 PERFFILE format, which we refuse (report-corpus-parity.sh)"
	[perfparser/probe.data.stream]="stock perf 6.1 stops reading after the TRACING_DATA record (report-stats.sh): it lists the idle task alone"
	[platform2-sommelier/perf.data.piped.host]="2012's feature records 69..80: stock perf 6.1 fails at the first and lists the idle task alone"
	[platform2-sommelier/perf.data.piped.powerpc]="the same legacy feature records: the idle task alone in stock perf"
)
declare -A fixup=()
corpus_same tasks '^#      pid      tid     ppid  comm$' --mmaps
exit 0
