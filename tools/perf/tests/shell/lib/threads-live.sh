# SPDX-License-Identifier: GPL-2.0-only
# The parallel readers' tests (script-threads.sh, annotate-threads.sh):
# runs at 2 and 7 workers compared with one, of the command the test sets
# in $threads_cmd (script, annotate, report), whose option for the number
# of workers is $threads_opt (--threads; report's is --workers, perf's
# --threads being its -T); and a recording made now by stock perf record
# -a -g of a loop on each CPU and of BPF socket filters loaded, run and
# closed (addresses handed out again), which the parallel run must cut
# into chunks while the programs churn.  Sourced after record-common.sh;
# $tmp is the scratch directory.

# the workload's commands: another process's object may be gone between
# two runs (a test's scratch directory), and be read by one run only
threads_live_comms=loop,churn,work.sh

# threads_live_record OUT: records it (skips where BPF cannot be loaded)
threads_live_record() {
	local out=$1
	build "$tmp/loop" loop.c || fail "gcc: $(cat "$tmp/gcc.err")"
	build "$tmp/churn" record-bpf-churn.c || fail "gcc: $(cat "$tmp/gcc.err")"
	"$tmp/churn" churn 1 >/dev/null 2>"$tmp/churn.err" ||
		skip "cannot load BPF socket filters here: $(cat "$tmp/churn.err")"
	cat >"$tmp/work.sh" <<EOS
#!/bin/sh
"$tmp/loop" 2 &
for v in 1 2 3; do
	"$tmp/churn" churn 20 >/dev/null || exit 1
	"$tmp/churn" busy 0.2 \$v >/dev/null || exit 1
done
wait
EOS
	chmod +x "$tmp/work.sh"
	HOME=$tmp perf record -q -e cpu-clock -c 20000 -a -g -o "$out" -- "$tmp/work.sh" \
		>/dev/null 2>"$tmp/rec.err" || fail "stock perf record: $(cat "$tmp/rec.err")"
}

# threads_live_churn_cut FILE PLAN: fails unless a chunk of PLAN (the -v
# line) begins between FILE's first and last BPF program load
threads_live_churn_cut() {
	local file=$1 p=$2 first last
	read -r first last < <(HOME=$tmp perf script -i "$file" --show-bpf-events -F time 2>/dev/null |
		awk '/PERF_RECORD_KSYMBOL/ { t = $1; sub(":", "", t); if (f == "") f = t; l = t }
		     END { print f, l }')
	[ -n "$first" ] || fail "stock perf script shows no KSYMBOL in the live recording"
	echo "$p" | awk -v f="$first" -v l="$last" '{ for (i = 1; i <= NF; i++)
			if ($i ~ /^[0-9]+\.[0-9]+$/ && $i + 0 > f + 0 && $i + 0 < l + 0) n++ }
		END { exit !n }' || fail "no chunk begins while BPF programs churn ($first..$last): $p"
}

# same NAME FILE ARGS...: $threads_cmd at --threads 2 and 7 against 1 on
# FILE: the same exit status, stdout and stderr
same() {
	local name=$1 file=$2 t st1 st
	shift 2
	timeout 300 "$TEXTPOKE" $threads_cmd ${threads_opt:---threads} 1 -i "$file" "$@" >"$tmp/1.out" 2>"$tmp/1.err"
	st1=$?
	for t in 2 7; do
		timeout 300 "$TEXTPOKE" $threads_cmd ${threads_opt:---threads} $t -i "$file" "$@" >"$tmp/$t.out" 2>"$tmp/$t.err"
		st=$?
		[ "$st" = "$st1" ] || fail "$name: --threads $t exits $st, one worker $st1 ($(head -3 "$tmp/$t.err"))"
		cmp -s "$tmp/1.out" "$tmp/$t.out" ||
			fail "$name: --threads $t prints other lines: $(diff "$tmp/1.out" "$tmp/$t.out" | head -5)"
		cmp -s "$tmp/1.err" "$tmp/$t.err" ||
			fail "$name: --threads $t says other things: $(diff "$tmp/1.err" "$tmp/$t.err" | head -5)"
	done
}

# plan FILE ARGS...: perf-textpoke's -v line on how FILE is read by 7
plan() {
	local file=$1
	shift
	"$TEXTPOKE" $threads_cmd -v ${threads_opt:---threads} 7 -i "$file" "$@" 2>&1 >/dev/null |
		grep -m1 -E ': [0-9]+ workers, [0-9]+ chunks|: one worker: '
}

# threads_corpus FN [ARGS...]: FN NAME FILE on every public corpus file;
# two files at least must be cut into chunks by the command with ARGS (the
# others fall back to one worker: pipes, compressed data, too few rounds)
threads_corpus() {
	local fn=$1 f rel cut=0
	shift
	[ -d "$TEXTPOKE_CORPUS" ] || fail "no corpus at '$TEXTPOKE_CORPUS'"
	while IFS= read -r -d '' f; do
		rel=${f#$TEXTPOKE_CORPUS/}
		case "$rel" in *.md) continue ;; esac
		$fn "$rel" "$f"
		case "$(plan "$f" "$@")" in *" workers, "*) cut=$((cut + 1)) ;; esac
	done < <(find "$TEXTPOKE_CORPUS" -type f -print0 | sort -z)
	[ "$cut" -ge 2 ] || fail "only $cut corpus files were cut into chunks (2 or more are)"
	echo "corpus: every file equal at 2 and 7 workers, $cut of them read in chunks"
}

# threads_live FILE [ARGS...]: the live recording made into FILE, read by
# the command with ARGS in chunks of which one begins while the programs
# churn; $p is the -v plan line
threads_live() {
	threads_live_record "$1"
	p=$(plan "$@")
	case "$p" in
	*" workers, "*)
		threads_live_churn_cut "$1" "$p"
		;;
	*"one worker: records out of time order"*)
		# Now and then (about one run in six on a loaded machine) a
		# record's time goes back past what a round already delivered,
		# and such a file is read by one worker, rightly.  The runs are
		# still compared; the chunks that must be cut are the corpus's
		# and the poke storm's, which no kernel made and which are cut
		# every time.
		echo "live: records out of time order: read by one worker"
		;;
	*) fail "the live recording was not cut: $p" ;;
	esac
}
