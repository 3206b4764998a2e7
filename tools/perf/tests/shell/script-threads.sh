#!/bin/bash
# script: --threads 2 and 7 print what one worker prints, byte for byte, on the corpus, a live -a -g recording with BPF churn, and a poke storm
# SPDX-License-Identifier: GPL-2.0-only
# Exclusive: it loads BPF programs (another test's would be in its recording)
#
# The parallel run (util/session-workers.c) cuts a recording into chunks
# of time read by fork()ed workers; its promise is the one-worker output,
# byte for byte, stdout and stderr and exit status, whatever it is given.
# --threads 1 is the reference: it is the reader every other script test
# holds to stock perf script.  Checked at --threads 2 and 7 on
#  - every public corpus file, with the default fields and with
#    -F comm,tid,time,ip,sym,dso (most fall back to one worker: pipes,
#    compressed data, too few rounds; each reason is perf-textpoke's -v
#    line; two files at least must be cut: generated_by_linux_perf.data
#    and vector_static_gcc__perf.data);
#  - a system-wide -g recording made now by stock perf record, of a loop
#    on each CPU and of socket filters loaded, run and closed (addresses
#    handed out again), with the default fields, with -F ...,insn -G (the
#    bytes of each BPF program at each sample's time), and with --time
#    and -C filters; its chunks must begin while the programs churn;
#  - a storm of text pokes from our writer with insn, disasm and poked
#    (each sample's bytes as they were at its time), cut into chunks
#    across the pokes;
#  - what must stay whole: a pipe in (one worker), a reader that goes
#    away (| head: one line, status 0; and | head -n N with N lines into
#    a later chunk), stdout and stderr as one file (the summary warning
#    after the last line, as with one worker), and a copy cut inside a
#    record (one worker: the salvaged lines and the cut message);
#  - the output's ways (util/worker-output.c): stdout and stderr as one
#    pipe to a reader that starts a second late (chunk 0's worker waits
#    on the full pipe, the others finish their chunks ahead of their
#    turn, kept until the parent writes them), and a ring of 4 kB
#    (TEXTPOKE_WORKER_RING) so that every chunk printed ahead goes on
#    past it into its worker's file, copied out to a file and to a pipe.
# Mutation caught: worker__finish_chunk() not flushing the queue up to
# the chunk's end (its last samples go out in the next chunk's file, out
# of order); session_window__keeps() keeping every sample (lines twice).

. "$(dirname "$0")/lib/record-common.sh"
need_perf_root
[ -d "$TEXTPOKE_CORPUS" ] || fail "no corpus at '$TEXTPOKE_CORPUS'"
scratch script-threads

# same NAME FILE ARGS...: --threads 2 and 7 against 1 on FILE
same() {
	local name=$1 file=$2 t st1 st
	shift 2
	timeout 300 "$TEXTPOKE" script --threads 1 -i "$file" "$@" >"$tmp/1.out" 2>"$tmp/1.err"
	st1=$?
	for t in 2 7; do
		timeout 300 "$TEXTPOKE" script --threads $t -i "$file" "$@" >"$tmp/$t.out" 2>"$tmp/$t.err"
		st=$?
		[ "$st" = "$st1" ] || fail "$name: --threads $t exits $st, one worker $st1"
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
	"$TEXTPOKE" script -v --threads 7 -i "$file" "$@" 2>&1 >/dev/null |
		grep -m1 -E ': [0-9]+ workers, [0-9]+ chunks|: one worker: '
}

# --- the corpus ---
cut=0
while IFS= read -r -d '' f; do
	rel=${f#$TEXTPOKE_CORPUS/}
	case "$rel" in *.md) continue ;; esac
	same "$rel" "$f"
	same "$rel -F" "$f" -F comm,tid,time,ip,sym,dso
	case "$(plan "$f")" in *" workers, "*) cut=$((cut + 1)) ;; esac
done < <(find "$TEXTPOKE_CORPUS" -type f -print0 | sort -z)
[ "$cut" -ge 2 ] || fail "only $cut corpus files were cut into chunks (2 or more are)"
echo "corpus: every file equal at 2 and 7 workers, $cut of them read in chunks"

# --- a live system-wide recording with BPF churn ---
build "$tmp/loop" loop.c || fail "gcc: $(cat "$tmp/gcc.err")"
build "$tmp/churn" record-bpf-churn.c || fail "gcc: $(cat "$tmp/gcc.err")"
"$tmp/churn" churn 1 >/dev/null 2>"$tmp/churn.err" ||
	skip "cannot load BPF socket filters here: $(cat "$tmp/churn.err")"
cat >"$tmp/work.sh" <<EOF
#!/bin/sh
"$tmp/loop" 2 &
for v in 1 2 3; do
	"$tmp/churn" churn 20 >/dev/null || exit 1
	"$tmp/churn" busy 0.2 \$v >/dev/null || exit 1
done
wait
EOF
chmod +x "$tmp/work.sh"
HOME=$tmp perf record -q -e cpu-clock -c 20000 -a -g -o "$tmp/live.data" -- "$tmp/work.sh" \
	>/dev/null 2>"$tmp/rec.err" || fail "stock perf record: $(cat "$tmp/rec.err")"
p=$(plan "$tmp/live.data")
case "$p" in *" workers, "*) ;; *) fail "the live recording was not cut: $p" ;; esac
# a chunk begins between the first and the last BPF program load
read -r first last < <(HOME=$tmp perf script -i "$tmp/live.data" --show-bpf-events -F time 2>/dev/null |
	awk '/PERF_RECORD_KSYMBOL/ { t = $1; sub(":", "", t); if (f == "") f = t; l = t }
	     END { print f, l }')
[ -n "$first" ] || fail "stock perf script shows no KSYMBOL in the live recording"
echo "$p" | awk -v f="$first" -v l="$last" '{ for (i = 1; i <= NF; i++)
		if ($i ~ /^[0-9]+\.[0-9]+$/ && $i + 0 > f + 0 && $i + 0 < l + 0) n++ }
	END { exit !n }' || fail "no chunk begins while BPF programs churn ($first..$last): $p"
# the workload's processes only: another process's object may be gone
# between two runs (a test's scratch directory), and be read by one only
ours=loop,churn,work.sh
same live "$tmp/live.data" -c $ours
same "live -F" "$tmp/live.data" -c $ours -F comm,tid,time,ip,sym,dso
same "live insn" "$tmp/live.data" -c $ours -G -F comm,tid,time,ip,sym,symoff,dso,insn
same "live --time -C" "$tmp/live.data" -c $ours --time 20%-80% -C 1
echo "live: ${p#*: }" | cut -d' ' -f1-5

# --- a poke storm ---
"$TEXTPOKE" test --write-fixture big-pokes:30000,30000,50 "$tmp/pokes.data" >/dev/null ||
	fail "the writer's poke storm"
p=$(plan "$tmp/pokes.data")
case "$p" in *" workers, "*) ;; *) fail "the poke storm was not cut: $p" ;; esac
same pokes "$tmp/pokes.data" -F comm,tid,time,ip,sym,dso,insn,disasm,poked
same "pokes default" "$tmp/pokes.data"
echo "pokes: ${p#*: }" | cut -d' ' -f1-5

# --- what stays whole ---
# stdout and stderr as one file, with the summary of the lost events if any
"$TEXTPOKE" script --threads 1 -c $ours -i "$tmp/live.data" >"$tmp/one.out" 2>&1
"$TEXTPOKE" script --threads 7 -c $ours -i "$tmp/live.data" >"$tmp/seven.out" 2>&1
cmp -s "$tmp/one.out" "$tmp/seven.out" || fail "stdout and stderr as one file differ at 7 workers"

# a pipe-mode stream (stock perf inject's) through a pipe: one worker
HOME=$tmp perf inject -i "$tmp/live.data" -o - >"$tmp/live.pipe" 2>"$tmp/inject.err" ||
	fail "stock perf inject -o -: $(cat "$tmp/inject.err")"
"$TEXTPOKE" script --threads 1 -c $ours -i - <"$tmp/live.pipe" >"$tmp/one.out" 2>"$tmp/one.err"
cat "$tmp/live.pipe" | "$TEXTPOKE" script --threads 2 -c $ours -i - >"$tmp/pipe.out" 2>"$tmp/pipe.err" ||
	fail "a pipe in at --threads 2 failed: $(cat "$tmp/pipe.err")"
cmp -s "$tmp/one.out" "$tmp/pipe.out" || fail "a pipe in at --threads 2 prints other lines"
cat "$tmp/live.pipe" | "$TEXTPOKE" script -v --threads 2 -i - 2>&1 >/dev/null |
	grep -q "one worker: the input is a pipe" || fail "a pipe in is not said to take one worker"

"$TEXTPOKE" script --threads 7 -i "$tmp/live.data" 2>"$tmp/head.err" | head -1 >"$tmp/head.out"
st=${PIPESTATUS[0]}
[ "$st" = 0 ] || fail "a reader that went away: status $st ($(cat "$tmp/head.err"))"
[ "$(wc -l <"$tmp/head.out")" = 1 ] || fail "| head -1 got $(wc -l <"$tmp/head.out") lines"

# ten lines into the middle of the output: the reader goes away in a later chunk
"$TEXTPOKE" script --threads 1 -c $ours -i "$tmp/live.data" >"$tmp/all.out" 2>/dev/null
n=$(($(wc -l <"$tmp/all.out") / 2 + 10))
head -n $n "$tmp/all.out" >"$tmp/want.out"
"$TEXTPOKE" script --threads 7 -c $ours -i "$tmp/live.data" 2>"$tmp/head.err" |
	head -n $n >"$tmp/head.out"
st=${PIPESTATUS[0]}
[ "$st" = 0 ] || fail "a reader that went away mid-way: status $st ($(cat "$tmp/head.err"))"
cmp -s "$tmp/want.out" "$tmp/head.out" || fail "| head -n $n got other lines than one worker's first $n"

# chunks finished ahead of their turn, waiting for a late reader of one pipe
"$TEXTPOKE" script --threads 1 -c $ours -i "$tmp/live.data" 2>&1 | cat >"$tmp/one.out"
for t in 2 7; do
	"$TEXTPOKE" script --threads $t -c $ours -i "$tmp/live.data" 2>&1 |
		(sleep 1; cat) >"$tmp/late.out"
	cmp -s "$tmp/one.out" "$tmp/late.out" ||
		fail "2>&1 | a late reader at $t workers: $(diff "$tmp/one.out" "$tmp/late.out" | head -5)"
done

# a ring too small for anything: what is printed ahead goes past it to a file
"$TEXTPOKE" script --threads 1 -c $ours -i "$tmp/live.data" >"$tmp/one.out" 2>&1
pf=comm,tid,time,ip,sym,dso,insn
"$TEXTPOKE" script --threads 1 -i "$tmp/pokes.data" -F $pf >"$tmp/one-pokes.out" 2>&1
for t in 2 7; do
	TEXTPOKE_WORKER_RING=4096 "$TEXTPOKE" script --threads $t -c $ours -i "$tmp/live.data" \
		>"$tmp/small.out" 2>&1
	cmp -s "$tmp/one.out" "$tmp/small.out" || fail "a 4 kB ring at $t workers, to a file"
	TEXTPOKE_WORKER_RING=4096 "$TEXTPOKE" script --threads $t -i "$tmp/pokes.data" -F $pf 2>&1 |
		(sleep 1; cat) >"$tmp/small.out"
	cmp -s "$tmp/one-pokes.out" "$tmp/small.out" || fail "a 4 kB ring at $t workers, to a late pipe"
done

size=$(stat -c %s "$tmp/live.data")
head -c $((size * 2 / 3 + 5)) "$tmp/live.data" >"$tmp/cut.data"
same cut "$tmp/cut.data" -c $ours
grep -q "truncated" "$tmp/1.err" || fail "the cut copy is not said to be cut: $(cat "$tmp/1.err")"
echo "pipe, | head, 2>&1, a late reader, a small ring and a cut copy: as one worker"
exit 0
