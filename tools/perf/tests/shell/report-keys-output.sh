#!/bin/bash
# report: --json and --html carry the keys dso_size, symoff, srcline, srcfile, parent
# SPDX-License-Identifier: GPL-2.0-only
#
# The report workload (lib/report-workload.c, -g), recorded now by stock
# perf record with and without -g (cpu-clock).  For each of the keys
# perf textpoke report once printed in the text alone, the --json
# entries and the --html table rows of a report must be the rows of
# stock perf report --stdio 6.1 with the same options, in order, value
# for value (lib/keys-output-check.py): the key's value as the text
# prints it (dso_size a number, null where the text says "unknown"),
# Children, Self/Overhead and Samples.  Stock perf is the oracle where
# report-keys.sh finds it right (srcline and srcfile without Children,
# on the workload's and the kernel's objects); symoff is not in perf
# 6.1, so there the oracle is our --stdio, which report-keys.sh checks
# against stock perf script's sym+0xoff.
#
# Mutation caught: report_entry__key_text() giving srcfile the entry's
# srcline (nog-srcfile: the JSON's srcfile is "" where perf prints
# report-workload.c).

. "$(dirname "$0")/lib/report-common.sh"
need_perf_root
scratch report-keys-output
command -v python3 >/dev/null 2>&1 || skip "python3 is not installed"

build_report_workload "$tmp/w" || fail "gcc: $(cat "$tmp/gcc.err")"
perf_record "$tmp/nog.data" -e cpu-clock "$tmp/w" 20000000
perf_record "$tmp/g.data" -e cpu-clock -g "$tmp/w" 20000000
nog=$tmp/nog.data
g=$tmp/g.data
# as report-keys.sh: the start-up samples in ld.so and libc may be named
# by another file of a DWARF 5 line table by stock perf's addr2line
lines="--dsos w,[kernel.kallsyms]"

# ours_outputs NAME FILE ARGS...: our --json and --html of the report
ours_outputs() {
	local name=$1 file=$2
	shift 2
	"$TEXTPOKE" report --no-changes -i "$file" "$@" --json >"$tmp/$name.json" 2>"$tmp/$name.err" ||
		fail "$name: --json: $(head -3 "$tmp/$name.err")"
	"$TEXTPOKE" report --no-changes -i "$file" "$@" --html "$tmp/$name.html" 2>"$tmp/$name.err" ||
		fail "$name: --html: $(head -3 "$tmp/$name.err")"
}

# same_outputs NAME FILE ARGS...: ours against stock perf report --stdio
same_outputs() {
	local name=$1 file=$2
	shift 2
	perf_report -i "$file" "$@" >"$tmp/$name.perf" 2>"$tmp/$name.perf.err" ||
		fail "$name: stock perf report failed: $(head -3 "$tmp/$name.perf.err")"
	ours_outputs "$name" "$file" "$@"
	python3 "$libdir/keys-output-check.py" "$tmp/$name.perf" "$tmp/$name.json" \
		"$tmp/$name.html" >"$tmp/$name.check" 2>&1 ||
		fail "$name ($*): $(cat "$tmp/$name.check")"
	echo "ok: $name: $(cat "$tmp/$name.check"), as stock perf report $*"
}

same_outputs nog-dso-size "$nog" --sort dso_size -n
same_outputs nog-dso-size-dso "$nog" --sort dso,dso_size
same_outputs nog-srcline "$nog" --sort srcline -n $lines
same_outputs nog-srcfile "$nog" --sort srcfile,dso $lines
same_outputs nog-comm-lines "$nog" --sort comm,srcline,srcfile $lines
same_outputs g-dso-size "$g" -g none --sort dso_size -n
same_outputs g-parent "$g" -g none -p '^beta|^calls'
same_outputs g-parent-order-self "$g" -g none --sort parent,sym -p '^main|^calls' --no-children
same_outputs g-srcline-self "$g" -g none --sort srcline --no-children -n $lines
# with the call-graph trees beside the rows
same_outputs g-tree-dso-size "$g" --sort dso_size
same_outputs g-tree-parent "$g" -p '^beta|^calls' -x --no-children
same_outputs g-tree-srcfile-self "$g" --sort srcfile,sym --no-children $lines

# symoff: perf 6.1 has none; our text's rows are the oracle
for f in nog g; do
	"$TEXTPOKE" report --no-changes -i "$tmp/$f.data" --sort dso,symoff -n -g none \
		>"$tmp/$f-symoff.ours" 2>"$tmp/$f-symoff.err" ||
		fail "$f-symoff: --stdio: $(head -3 "$tmp/$f-symoff.err")"
	ours_outputs "$f-symoff" "$tmp/$f.data" --sort dso,symoff -n -g none
	python3 "$libdir/keys-output-check.py" "$tmp/$f-symoff.ours" "$tmp/$f-symoff.json" \
		"$tmp/$f-symoff.html" >"$tmp/$f-symoff.check" 2>&1 ||
		fail "$f-symoff: $(cat "$tmp/$f-symoff.check")"
	echo "ok: $f-symoff: $(cat "$tmp/$f-symoff.check"), as our --stdio"
done
exit 0
