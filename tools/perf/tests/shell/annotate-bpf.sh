#!/bin/bash
# annotate: BPF programs per load against stock perf annotate on inject --jit's output
# SPDX-License-Identifier: GPL-2.0-only
# Exclusive: it loads BPF programs (another test's would be in its recording)
#
# Socket filters that ran on loopback packets (workloads/record-bpf-churn.c
# busy), recorded now by perf textpoke record -a with its workload: tp_busy1
# loaded, run and closed twice (two programs of one name, each its own
# JIT image), then tp_busy2.  Stock perf 6.1 refuses to annotate BPF
# programs on the recording itself, and annotates them after inject --jit
# (one ELF object per program load).  For each program name, ours on the
# recording and stock perf annotate --stdio on inject's output (HOME a
# scratch directory) must print the same blocks, known by first address
# and event (the objects are named differently), with the same header
# figures and the same figure at every address, with percentages and
# with -n (lib/annotate-loads.py).  Ours must also say each block's load,
# two of them for tp_busy1 with two program ids; and ours on inject's
# output must print what it prints on the recording.
#
# Mutation caught: annotate_sym__is_kernel() without DSO_KIND__KSYMBOL (BPF
# programs taken for user code: "no object file holds its code", no block).

. "$(dirname "$0")/lib/record-common.sh"
need_perf_root
command -v objdump >/dev/null 2>&1 || skip "objdump (binutils) is not installed"
command -v python3 >/dev/null 2>&1 || skip "python3 is not installed"
scratch annotate-bpf
check_py="$TEXTPOKE_SRCDIR/tools/perf/tests/shell/lib/annotate-loads.py"
pairs=()

build "$tmp/churn" record-bpf-churn.c || fail "gcc: $(cat "$tmp/gcc.err")"
"$tmp/churn" busy 0.01 9 >/dev/null 2>"$tmp/churn.err" ||
	skip "cannot load BPF socket filters here: $(cat "$tmp/churn.err")"

printf '#!/bin/sh\n"%s" busy 0.15 1 "%s" >/dev/null &&\n"%s" busy 0.15 1 "%s" >/dev/null &&\n"%s" busy 0.15 2 "%s" >/dev/null\n' \
	"$tmp/churn" "$tmp/jit.txt" "$tmp/churn" "$tmp/jit.txt" "$tmp/churn" "$tmp/jit.txt" \
	>"$tmp/work.sh"
chmod +x "$tmp/work.sh"

in=$tmp/in.data
out=$tmp/out.data
# -a: a loaded machine runs the filters' softirq in ksoftirqd, not in the
# workload's task, and a recording of the task alone can then hold no
# sample of a program
record "$in" -e cpu-clock -a -- "$tmp/work.sh"
[ "$(wc -l <"$tmp/jit.txt")" = 3 ] ||
	fail "the workload reported $(wc -l <"$tmp/jit.txt") of 3 JIT images"
"$TEXTPOKE" inject -i "$in" -o "$out" --jit >"$tmp/inject.out" 2>"$tmp/inject.err" ||
	fail "inject --jit: $(head -3 "$tmp/inject.err")"

# the programs' full names, as stock perf reports them on the recording
mkdir -p "$tmp/h0"
HOME=$tmp/h0 perf report -i "$in" --stdio --sort sym >"$tmp/report" 2>"$tmp/report.err" ||
	fail "stock perf report: $(head -3 "$tmp/report.err")"
for v in 1 2; do
	prog=$(sed -n "s/.* \\(bpf_prog_[0-9a-f]*_tp_busy$v\\)\$/\\1/p" "$tmp/report" | head -1)
	[ -n "$prog" ] || fail "stock perf report shows no sample in tp_busy$v"
	for opt in "" -n; do
		mkdir -p "$tmp/h$v$opt"
		HOME=$tmp/h$v$opt perf annotate -i "$out" --stdio $opt -s "$prog" \
			>"$tmp/perf.$v$opt" 2>"$tmp/perf.$v$opt.err" ||
			fail "stock perf annotate $prog on inject's output: $(head -3 "$tmp/perf.$v$opt.err")"
		"$TEXTPOKE" annotate -i "$in" --stdio $opt -s "$prog" \
			>"$tmp/ours.$v$opt" 2>"$tmp/ours.$v$opt.err" ||
			fail "annotate $prog: $(head -3 "$tmp/ours.$v$opt.err")"
		pairs+=("$tmp/perf.$v$opt" "$tmp/ours.$v$opt")
	done
	# an extra: ours on inject's output, whose programs are ELF objects mapped by kernel MMAPs
	"$TEXTPOKE" annotate -i "$out" --stdio -s "$prog" >"$tmp/ours-out.$v" 2>"$tmp/ours-out.$v.err" ||
		fail "annotate $prog on inject's output: $(head -3 "$tmp/ours-out.$v.err")"
	pairs+=("$tmp/ours-out.$v" "$tmp/ours.$v")
	# each block says its load: tp_busy1 was loaded twice
	loads=$(grep -c "^# $prog: BPF program [0-9]*, loaded at " "$tmp/ours.$v")
	ids=$(sed -n "s/^# $prog: BPF program \\([0-9]*\\),.*/\\1/p" "$tmp/ours.$v" | sort -u | wc -l)
	want=$((v == 1 ? 2 : 1))
	[ "$loads" = "$want" ] && [ "$ids" = "$want" ] ||
		fail "$prog: $loads blocks with a load line, $ids program ids, not $want"
done
# one checker run for all: python's start is slow on a busy machine
python3 "$check_py" "${pairs[@]}" >"$tmp/check" 2>&1 ||
	fail "annotate differs from stock perf's on inject --jit: $(head -8 "$tmp/check")"
cat "$tmp/check"
echo "ok: BPF programs per load as stock perf annotates inject --jit's objects"
