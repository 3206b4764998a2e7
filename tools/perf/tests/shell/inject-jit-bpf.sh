#!/bin/bash
# inject --jit: stock perf reports, annotates and reads JIT bytes of BPF programs that came and went
# SPDX-License-Identifier: GPL-2.0-only
# Exclusive: it loads BPF programs (another test's would be in its recording)
#
# A system-wide recording, made now, of socket filters that ran on
# loopback packets: 60 short-lived ones (load, attach, three packets,
# close), whose addresses the kernel hands out again, and three busy ones,
# each of its own bytes, that take the samples.  Recorded once by perf
# textpoke record and once by stock perf record.  Every comparison is of
# the workload's own processes (--pid), in both outputs alike: other
# tests may run programs of the same names meanwhile, and stock perf
# leaves samples of a program loaded before a perf textpoke recording
# unresolved on IN (its kernel MMAP2 covers the module area) where OUT
# resolves them.  On OUT of inject --jit, stock perf 6.1 (HOME a scratch
# directory each time) must
#  - report every sample under the symbol it gives it on IN
#    (perf report --stdio --sort sym, identical), and the busy programs
#    under the same comm, dso and symbol (the default sort);
#  - annotate each busy program with objdump's disassembly, its own loop
#    bound in it, where on IN it refuses ("Please link with binutils's
#    libopcode to enable BPF annotation");
#  - print at every sample in a busy program the bytes the kernel itself
#    reported for that program at that offset (BPF_OBJ_GET_INFO_BY_FD, read
#    by the workload: not our code, not perf's), and at every sample the
#    same ip, symbol and bytes as on IN (perf script -F ip,sym,insn).
# And the round trip: perf textpoke script on OUT equals it on IN (the
# dso of a load whose name an earlier load took is <name>.<n>).
# Mutation caught: jit__bpf_event() keeping PROG_LOAD (return 0): perf
# marks the object as BPF_PROG_INFO, annotate refuses, bytes come out
# shifted.

. "$(dirname "$0")/lib/record-common.sh"
need_perf_root
command -v objdump >/dev/null 2>&1 || skip "objdump (binutils) is not installed"
scratch inject-jit

build "$tmp/churn" record-bpf-churn.c || fail "gcc: $(cat "$tmp/gcc.err")"
"$tmp/churn" churn 1 >/dev/null 2>"$tmp/churn.err" ||
	skip "cannot load BPF socket filters here: $(cat "$tmp/churn.err")"

# each workload process's pid in pids: the comparisons are narrowed to
# them, as other tests may run BPF programs of the same names meanwhile
cat >"$tmp/work.sh" <<EOF
#!/bin/sh
for v in 1 2 3; do
	"$tmp/churn" churn 20 >/dev/null &
	echo \$! >>"$tmp/pids"
	wait \$! || exit 1
	"$tmp/churn" busy 0.3 \$v "$tmp/jit.txt" >/dev/null &
	echo \$! >>"$tmp/pids"
	wait \$! || exit 1
done
EOF
chmod +x "$tmp/work.sh"

# stock NAME HOME ARGS...: stock perf with its own HOME, stdout in $tmp/NAME
stock() {
	local name=$1 home=$2
	shift 2
	mkdir -p "$home"
	HOME=$home perf "$@" >"$tmp/$name" 2>"$tmp/$name.err"
}

check() {
	local rec=$1 in=$tmp/$1.in.data out=$tmp/$1.out.data v prog addr st pids
	rm -f "$tmp/jit.txt" "$tmp/pids"
	if [ "$rec" = textpoke ]; then
		record "$in" -e cpu-clock -a -- "$tmp/work.sh"
	else
		perf record -q -e cpu-clock -a -o "$in" -- "$tmp/work.sh" >"$tmp/perf-record.err" 2>&1 ||
			fail "stock perf record: $(head -3 "$tmp/perf-record.err")"
	fi
	[ "$(wc -l <"$tmp/jit.txt")" = 3 ] || fail "$rec: the workload reported $(wc -l <"$tmp/jit.txt") of 3 JIT images"
	pids=$(paste -sd, "$tmp/pids")
	"$TEXTPOKE" inject -i "$in" -o "$out" --jit >"$tmp/inject.out" 2>"$tmp/inject.err" ||
		fail "$rec: inject --jit: $(head -3 "$tmp/inject.err")"

	# the scenario: an address that held two programs, seen by stock perf
	stock events "$tmp/h-ev" script -i "$in" --show-bpf-events -F comm
	grep -c 'PERF_RECORD_KSYMBOL .* type 1 flags 0x0 ' "$tmp/events" >/dev/null ||
		fail "$rec: no BPF KSYMBOL in the recording"
	sed -n 's/.*PERF_RECORD_KSYMBOL addr \([0-9a-f]*\) .* type 1 flags 0x0 .*/\1/p' "$tmp/events" |
		sort | uniq -d | grep -q . || reused_skip="$rec: the kernel reused no BPF address"

	stock report.in "$tmp/h-$rec-1" report -i "$in" --stdio --sort sym --pid "$pids" ||
		fail "$rec: perf report on IN: $(head -3 "$tmp/report.in.err")"
	stock report.out "$tmp/h-$rec-2" report -i "$out" --stdio --sort sym --pid "$pids" ||
		fail "$rec: perf report on OUT: $(head -3 "$tmp/report.out.err")"
	grep -v '^#' "$tmp/report.in" | grep . >"$tmp/r.in"
	grep -v '^#' "$tmp/report.out" | grep . >"$tmp/r.out"
	diff "$tmp/r.in" "$tmp/r.out" >"$tmp/r.diff" ||
		fail "$rec: perf report --sort sym differs on OUT: $(head -6 "$tmp/r.diff")"

	# the default sort (comm, dso, sym): each object is named as perf named
	# the program's KSYMBOL, as long as no other load took the name first
	stock report.in "$tmp/h-$rec-1" report -i "$in" --stdio --pid "$pids" ||
		fail "$rec: perf report on IN: $(head -3 "$tmp/report.in.err")"
	stock report.out "$tmp/h-$rec-2" report -i "$out" --stdio --pid "$pids" ||
		fail "$rec: perf report on OUT: $(head -3 "$tmp/report.out.err")"
	# rows compared field by field: the dso column is as wide as the
	# widest name shown, and on OUT a sampled short-lived program whose
	# name an earlier load took is <name>.<n>, wider than on IN
	grep '_tp_busy[0-9]' "$tmp/report.in" | tr -s ' ' >"$tmp/d.in"
	grep '_tp_busy[0-9]' "$tmp/report.out" | tr -s ' ' >"$tmp/d.out"
	[ -s "$tmp/d.in" ] || fail "$rec: perf report shows no busy program on IN"
	diff "$tmp/d.in" "$tmp/d.out" >"$tmp/d.diff" ||
		fail "$rec: perf report (comm,dso,sym) differs on OUT: $(head -6 "$tmp/d.diff")"

	for v in 1 2 3; do
		prog=$(sed -n "s/.* \\(bpf_prog_[0-9a-f]*_tp_busy$v\\)\$/\\1/p" "$tmp/r.in" | head -1)
		[ -n "$prog" ] || fail "$rec: no sample in tp_busy$v on IN"
		stock ann.in "$tmp/h-$rec-3" annotate -i "$in" --stdio -s "$prog"
		grep -q "Please link with binutils's libopcode to enable BPF annotation" \
			"$tmp/ann.in" "$tmp/ann.in.err" ||
			fail "$rec: stock perf annotate of $prog on IN does not refuse as expected"
		stock ann.out "$tmp/h-$rec-4" annotate -i "$out" --stdio -s "$prog" ||
			fail "$rec: perf annotate $prog on OUT: $(head -3 "$tmp/ann.out.err")"
		addr=$(awk -v n="tp_busy$v" '$1 == n { print $2 }' "$tmp/jit.txt")
		grep -q "^ *: *[0-9]* *$addr <$prog>:" "$tmp/ann.out" ||
			fail "$rec: annotate on OUT shows no disassembly of $prog at $addr"
		grep -q "cmp *\$0x$(printf %x $((4000 + v))),%rdi" "$tmp/ann.out" ||
			fail "$rec: annotate on OUT does not show tp_busy$v's own loop bound"
	done

	stock script.in "$tmp/h-$rec-5" script -i "$in" -F ip,sym,insn --pid "$pids"
	stock script.out "$tmp/h-$rec-6" script -i "$out" -F ip,sym,insn --pid "$pids"
	cmp -s "$tmp/script.in" "$tmp/script.out" ||
		fail "$rec: perf script -F ip,sym,insn differs: $(diff "$tmp/script.in" "$tmp/script.out" | head -4)"
	# every busy sample against the kernel's own bytes; offsets from the
	# low 32 bits of the addresses (mawk numbers are doubles)
	awk -v rec="$rec" '
		function lo32(h,   i, v) {
			h = substr(h, length(h) - 7); v = 0
			for (i = 1; i <= length(h); i++)
				v = v * 16 + index("0123456789abcdef", substr(h, i, 1)) - 1
			return v
		}
		FNR == NR { code[$1] = $3; base[$1] = lo32($2); next }
		$2 ~ /_tp_busy[0-9]+$/ {
			n = $2; sub(/.*_/, "tp_", n)
			if (!(n in code)) { print rec ": no JIT image of " n " from the kernel"; bad = 1; exit }
			off = lo32($1) - base[n]
			hex = ""
			for (i = 4; i <= NF; i++) hex = hex $i
			if (hex == "" || substr(code[n], off * 2 + 1, length(hex)) != hex) {
				print rec ": " $0 ": the kernel has " substr(code[n], off * 2 + 1, 16)
				bad = 1; exit
			}
			nr++
		}
		END {
			if (!bad && nr < 30) { print rec ": only " nr " samples in the busy programs"; bad = 1 }
			if (!bad) print "ok: " rec ": " nr " samples in the busy programs have the kernel'"'"'s bytes"
			exit bad
		}
	' "$tmp/jit.txt" "$tmp/script.out" >"$tmp/bytes.out"
	st=$?
	cat "$tmp/bytes.out"
	[ "$st" = 0 ] || fail "$(tail -1 "$tmp/bytes.out")"
	echo "ok: $rec: report, annotate and insn bytes right on OUT ($(grep -c . "$tmp/script.out") samples)"

	# the round trip: our own reader gives every sample the same symbol
	# and bytes on OUT as on IN, and the same dso but where a name was
	# taken by an earlier load (the object is then <name>.<n>)
	"$TEXTPOKE" script -i "$in" -F comm,tid,time,ip,sym,insn >"$tmp/ours.in" 2>"$tmp/ours.in.err" ||
		fail "$rec: perf textpoke script on IN: $(head -3 "$tmp/ours.in.err")"
	"$TEXTPOKE" script -i "$out" -F comm,tid,time,ip,sym,insn >"$tmp/ours.out" 2>"$tmp/ours.out.err" ||
		fail "$rec: perf textpoke script on OUT: $(head -3 "$tmp/ours.out.err")"
	grep -q '_tp_busy[0-9]' "$tmp/ours.in" || fail "$rec: perf textpoke script shows no busy program on IN"
	cmp -s "$tmp/ours.in" "$tmp/ours.out" ||
		fail "$rec: perf textpoke script differs on OUT: $(diff "$tmp/ours.in" "$tmp/ours.out" | head -4)"
	"$TEXTPOKE" script -i "$in" >"$tmp/ours.in" 2>/dev/null
	"$TEXTPOKE" script -i "$out" >"$tmp/ours.out" 2>/dev/null
	sed 's/(\(bpf_prog_[0-9a-f]*_[A-Za-z0-9_]*\)\.[0-9]*)$/(\1)/' "$tmp/ours.out" >"$tmp/ours.out.n"
	cmp -s "$tmp/ours.in" "$tmp/ours.out.n" ||
		fail "$rec: perf textpoke script (default fields) differs on OUT: $(diff "$tmp/ours.in" "$tmp/ours.out.n" | head -4)"
	echo "ok: $rec: perf textpoke script on OUT equals it on IN"

	# a pipe out, the objects in a directory of their own: stock perf reads
	# the stream as it read OUT
	"$TEXTPOKE" inject -q -i "$in" -o - --jit --jit-dir "$tmp/$rec.jit" 2>"$tmp/inject.err" |
		HOME="$tmp/h-$rec-7" perf script -i - -F ip,sym,insn --pid "$pids" >"$tmp/script.pipe" 2>/dev/null ||
		fail "$rec: inject --jit -o - | perf script -i -: $(head -3 "$tmp/inject.err")"
	ls "$tmp/$rec.jit" | grep -q '_tp_busy1' || fail "$rec: --jit-dir holds no object of tp_busy1"
	cmp -s "$tmp/script.out" "$tmp/script.pipe" ||
		fail "$rec: perf script of inject --jit -o - differs from OUT's: $(diff "$tmp/script.out" "$tmp/script.pipe" | head -4)"
	echo "ok: $rec: inject --jit --jit-dir -o - read by stock perf as OUT"
}

reused_skip=
check textpoke
check perf
[ -z "$reused_skip" ] || skip "$reused_skip"
exit 0
