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
#    (TEXTPOKE_WORKER_RING, which also makes the chunks small) so that
#    every worker ahead waits for room, again and again, to a file and to
#    a late pipe; and /dev/full as the output (the error and status of one
#    worker, never a worker left waiting once the chunk in turn failed).
#  - a --call-graph dwarf recording of over 64 MB, 8 kB of stack a
#    sample: read by one worker by default (what counts towards the 64 MB
#    is the samples less their stack dumps), cut at 7 workers into the
#    56 chunks the workers want, not by the stack bytes (hundreds).
# Mutation caught: worker__finish_chunk() not flushing the queue up to
# the chunk's end (its last samples go out in the next chunk's file, out
# of order); session_window__keeps() keeping every sample (lines twice).

. "$(dirname "$0")/lib/record-common.sh"
. "$(dirname "$0")/lib/threads-live.sh"
need_perf_root
scratch script-threads

threads_cmd=script

# --- the corpus ---
corpus_file() {
	same "$1" "$2"
	same "$1 -F" "$2" -F comm,tid,time,ip,sym,dso
}
threads_corpus corpus_file

# --- a live system-wide recording with BPF churn ---
threads_live "$tmp/live.data"
ours=$threads_live_comms
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

# a ring too small for anything: a worker ahead waits for room at every few lines
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

# an output that fails (a full disk): one worker's error and status, and
# no worker left waiting for room in its ring once the chunk in turn
# cannot end (the 4 kB ring makes every worker ahead wait).  One worker
# says what it counted until its write failed: a LOST record put first
# (lib/lost-first.py) is in that count, so the worker whose chunk failed
# must say it too (it did not: the summary waited for the last chunk, a
# live recording's own LOST records showed it now and then)
python3 "$(dirname "$0")/lib/lost-first.py" "$tmp/live.data" "$tmp/lost.data" >/dev/null ||
	fail "lib/lost-first.py could not add a LOST record"
for ring in "" 4096; do
	for t in 1 2 7; do
		env ${ring:+TEXTPOKE_WORKER_RING=$ring} timeout 120 "$TEXTPOKE" script --threads $t \
			-c $ours -i "$tmp/lost.data" >/dev/full 2>"$tmp/full.$t.err"
		echo $? >>"$tmp/full.$t.err"
	done
	grep -q "events lost in" "$tmp/full.1.err" ||
		fail "a full disk: one worker does not say the LOST record: $(tr '\n' ' ' <"$tmp/full.1.err")"
	for t in 2 7; do
		cmp -s "$tmp/full.1.err" "$tmp/full.$t.err" ||
			fail "a full disk at $t workers${ring:+, a ring of $ring}: $(tr '\n' ' ' <"$tmp/full.$t.err")" \
				"against one worker's $(tr '\n' ' ' <"$tmp/full.1.err")"
	done
done

size=$(stat -c %s "$tmp/live.data")
head -c $((size * 2 / 3 + 5)) "$tmp/live.data" >"$tmp/cut.data"
same cut "$tmp/cut.data" -c $ours
grep -q "truncated" "$tmp/1.err" || fail "the cut copy is not said to be cut: $(cat "$tmp/1.err")"
echo "pipe, | head, 2>&1, a late reader, a small ring, a full disk and a cut copy: as one worker"

# --- a --call-graph dwarf recording of more than 64 MB, 8 kB a sample ---
HOME=$tmp perf record -q -e cpu-clock -c 20000 --call-graph dwarf -o "$tmp/dwarf.data" -- \
	"$tmp/loop" 0.5 >/dev/null 2>"$tmp/rec.err" || fail "stock perf record: $(cat "$tmp/rec.err")"
size=$(stat -c %s "$tmp/dwarf.data")
[ "$size" -ge $((64 << 20)) ] || fail "the dwarf recording is $size bytes, under 64 MB"
p=$("$TEXTPOKE" script -v -i "$tmp/dwarf.data" -F ip,sym 2>&1 >/dev/null |
	grep -m1 -E ': [0-9]+ workers, [0-9]+ chunks|: one worker: ')
case "$p" in *"one worker: a small recording"*) ;;
*) fail "a dwarf recording whose samples are 8 kB of stack is not read alone by default: $p" ;; esac
p=$(plan "$tmp/dwarf.data" -F ip,sym)
chunks=$(echo "$p" | sed -n 's/.* workers, \([0-9]*\) chunks.*/\1/p')
[ -n "$chunks" ] && [ "$chunks" -le 56 ] ||
	fail "7 workers cut the dwarf recording into more than 56 chunks: $(echo "$p" | cut -c1-120)"
same dwarf "$tmp/dwarf.data" -F comm,tid,time,ip,sym,dso
echo "dwarf: one worker by default, $chunks chunks at 7 workers"
exit 0
