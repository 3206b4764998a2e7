#!/bin/bash
# record: kcore_dir/kallsyms keeps what the samples need; stock perf resolves them as with the whole table
# SPDX-License-Identifier: GPL-2.0-only
#
# A -g recording of a shell loop of cat processes, whose kernel samples
# and callchains go through many kernel functions.  Its kallsyms must be
# a small part of /proc/kallsyms (here a tenth at most), and the closing
# line must say what kcore_dir holds, in the MB of the directory's files.
# The oracle is stock perf 6.1 on a copy of the recording whose
# kcore_dir/kallsyms is a fresh /proc/kallsyms (the same boot, so the
# same kernel addresses): perf script with callchains and symbol offsets,
# and perf report's sym,symbol_size sort (each symbol ends at the next
# one kept: the size says it is the right next one) print the same on
# both, narrowed to the workload's comms (other tests may load BPF
# programs or modules meanwhile).  stock perf report --header-only reads
# the directory.  --full-kallsyms keeps the table whole (at least 90% of
# the lines /proc/kallsyms has now).
# Mutation caught: record__event() not passing callchains to
# record__callchain_hits(): callers' symbols are missing from the table.
# Mutation caught: ksym__keep_around() not keeping the next symbol:
# symbol sizes differ.

. "$(dirname "$0")/lib/record-common.sh"
need_perf_root
scratch recksym
export HOME=$tmp

loop='for i in $(seq 150); do cat /proc/self/stat >/dev/null; done'
# a directory, which stock perf takes kcore_dir/kallsyms from (-o an existing one)
mkdir "$tmp/trim.data" "$tmp/whole.data" || fail "mkdir"
record "$tmp/trim.data" -e cpu-clock -g -- sh -c "$loop"
k="$tmp/trim.data/kcore_dir"
[ -s "$k/kallsyms" ] || fail "no kcore_dir/kallsyms"
full=$(wc -c </proc/kallsyms)
have=$(wc -c <"$k/kallsyms")
[ "$have" -le $((full / 10)) ] || fail "kallsyms is $have bytes, /proc/kallsyms $full"
total=0
for f in "$k"/*; do
	total=$((total + $(stat -c %s "$f")))
done
mb=$(awk -v b=$total 'BEGIN { printf "%.3f", b / 1024 / 1024 }')
grep -q "with $mb MB of kernel symbols and code ]" "$tmp/record.err" ||
	fail "the closing line does not say $mb MB: $(tail -1 "$tmp/record.err")"
echo "ok: kallsyms $have bytes of /proc/kallsyms' $full; the closing line says $mb MB"

cp -r "$tmp/trim.data" "$tmp/full.data"
cat /proc/kallsyms >"$tmp/full.data/kcore_dir/kallsyms"
for v in trim full; do
	stock_script "$v" "$tmp/$v.data" --comms sh,cat -F comm,tid,ip,sym,symoff,dso
	perf report --stdio -i "$tmp/$v.data" --comms sh,cat --sort sym,symbol_size -g none \
		>"$tmp/$v.report" 2>"$tmp/$v.rerr" || fail "stock perf report: $(head -3 "$tmp/$v.rerr")"
	grep -v '^#' "$tmp/$v.report" >"$tmp/$v.rows"
done
kernel=$(grep -c '\[kernel.kallsyms\]' "$tmp/trim.out")
[ "$kernel" -gt 100 ] || fail "only $kernel kernel frames: the workload did not run in the kernel"
grep '\[kernel.kallsyms\]' "$tmp/full.out" | grep -q '\[unknown\]' &&
	fail "stock perf leaves kernel frames unresolved even with the whole table"
diff "$tmp/full.out" "$tmp/trim.out" >"$tmp/script.diff" ||
	{ head "$tmp/script.diff"; fail "stock perf script differs from the whole table's (< whole, > ours)"; }
diff "$tmp/full.rows" "$tmp/trim.rows" >"$tmp/report.diff" ||
	{ head "$tmp/report.diff"; fail "symbol sizes differ from the whole table's (< whole, > ours)"; }
perf report --header-only -i "$tmp/trim.data" >/dev/null 2>"$tmp/hdr.err" ||
	fail "stock perf report --header-only: $(head -3 "$tmp/hdr.err")"
echo "ok: stock perf resolves $kernel kernel frames and their symbol sizes as with the whole table"

record "$tmp/whole.data" -q -e cpu-clock --full-kallsyms -- true
lines=$(wc -l <"$tmp/whole.data/kcore_dir/kallsyms")
now=$(wc -l </proc/kallsyms)
[ "$lines" -ge $((now * 9 / 10)) ] || fail "--full-kallsyms: $lines lines, /proc/kallsyms has $now"
echo "ok: --full-kallsyms: $lines lines"
