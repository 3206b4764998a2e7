#!/bin/bash
# report: --workers 2 and 7 print what one worker prints, byte for byte, the call-graph trees included, on the corpus, a live -a -g recording with BPF churn, a dwarf one, and a poke storm
# SPDX-License-Identifier: GPL-2.0-only
# Exclusive: it loads BPF programs (another test's would be in its recording)
#
# A parallel report (util/report-hist-merge.c, util/report-tree-merge.c)
# builds each chunk of time's histograms and gathers its call chains in
# its worker, and the worker that read the last chunk adds up the
# others': entries by their keys (names and numbers), each with the
# attributes of its first touch in the recording, listed in the order
# one reader would have made them (which decides how perf orders equal
# rows); chains by their frames, objects by name, put in the order of
# their first samples before the trees are built; and the code-change
# report's counts by site and region.  Its promise is the one-worker
# output, byte for byte, stdout, stderr and exit status.  --workers 1 is
# the reference: the reader every other report test holds to stock perf
# report.  (perf's --threads is report's -T, hence --workers.)  Checked
# at 2 and 7 workers on
#  - every public corpus file (most fall back to one worker), flat and
#    by default (the trees, where chains were recorded);
#  - a system-wide -g recording made now by stock perf record, with BPF
#    socket filters churning while a chunk begins: flat profiles
#    (--no-children -g none) by symbol, by pid (the pid column names the
#    thread as the recording left it), comm,dso,sym with -n, srcline,
#    --hierarchy, --time and -C, --symbol-filter, --percentage relative;
#    Children without the trees (-g none: every chain's frames an entry,
#    summed); the call-graph trees: the default, by pid (rows of equal
#    Children ordered by their longest chain within one thread), Self
#    only, every -g form, the address key, -G, --hierarchy, --max-stack,
#    --percent-limit; --json and --html (the samples over time too);
#  - a --call-graph dwarf recording of the report workload: unwound
#    chains with inlined frames, caller and callee, the address key,
#    --hierarchy;
#  - a storm of text pokes from our writer: the code-change report's
#    sites, versions and samples from every worker's counts.
# Mutations caught: hist_build__merge_entry() keeping the later touch's
# attributes (live pid: another thread's name); report_changes__merge()
# not adding the versions' samples (the poke storm's code-change report
# differs); merged entries without their thread's tid, which the trees'
# tie rule compares (live trees: rows of equal Children move); the merged
# chains' entries not renumbered as the histograms' are (a corpus file's
# trees under other rows); another worker's Children frames keeping its
# entry numbers (the same).  Not caught: report_hists__finish() leaving
# merged entries out of first-touch order, report_trees__order_merged()
# leaving the chains out of it; no recording here has rows or nodes whose
# order depends on it (perf's comparisons are a total order on them).

. "$(dirname "$0")/lib/record-common.sh"
. "$(dirname "$0")/lib/report-common.sh"
. "$(dirname "$0")/lib/threads-live.sh"
need_perf_root
scratch report-workers

threads_cmd="report --stdio"
threads_opt=--workers

# --- the corpus ---
corpus_file() {
	same "$1" "$2" --no-children -g none
	# the default: Children and the call-graph trees where chains were recorded
	same "$1 default" "$2"
}
threads_corpus corpus_file --no-children -g none

# --- a live system-wide recording with BPF churn ---
flat="--no-children -g none --comm $threads_live_comms"
threads_live "$tmp/live.data" $flat
same live "$tmp/live.data" $flat
grep -q "bpf_prog_" "$tmp/1.out" || fail "no BPF program in the live recording's profile"
same "live pid" "$tmp/live.data" $flat --sort pid
same "live comm,dso,sym -n" "$tmp/live.data" $flat --sort comm,dso,sym -n
same "live srcline" "$tmp/live.data" $flat --sort srcline
same "live --hierarchy" "$tmp/live.data" $flat --sort dso,sym --hierarchy
same "live --time -C" "$tmp/live.data" $flat --time 20%-80% -C 1
same "live --symbol-filter" "$tmp/live.data" $flat --symbol-filter loop
same "live relative" "$tmp/live.data" $flat --percentage relative --dsos loop
# Children without the trees: each chain's frames' entries, summed
chains="-g none --comm $threads_live_comms"
same "live children" "$tmp/live.data" $chains
grep -q "Children" "$tmp/1.out" || fail "no Children column in the live recording's -g none report"
same "live children pid" "$tmp/live.data" $chains --sort pid,sym
# the call-graph trees: every worker's chains, gathered by the last
trees="--comm $threads_live_comms"
case "$(plan "$tmp/live.data" $trees)" in
*" workers, "* | *"one worker: records out of time order"*) ;;
*) fail "the trees of the live recording were not read in chunks: $(plan "$tmp/live.data" $trees)" ;;
esac
same "live trees" "$tmp/live.data" $trees
grep -q -- "---" "$tmp/1.out" || fail "no call-graph tree in the live recording's default report"
same "live trees pid" "$tmp/live.data" $trees --sort pid,sym
same "live trees self" "$tmp/live.data" $trees --no-children
for g in caller callee flat folded fractal,0 graph,0,callee,function,count address; do
	same "live trees -g $g" "$tmp/live.data" $trees --no-children -g "$g"
done
same "live trees -G" "$tmp/live.data" $trees -G
same "live trees --hierarchy" "$tmp/live.data" $trees --hierarchy --sort comm,dso,sym
same "live trees --max-stack" "$tmp/live.data" $trees --max-stack 3 -g caller
same "live trees --percent-limit" "$tmp/live.data" $trees --percent-limit 1 -g fractal
# --json and --html: the same figures and trees, and the samples over time
# same_doc NAME FILE ARGS...: report's --json and --html FILE.html at 1, 2 and 7 workers
same_doc() {
	local name=$1 file=$2 t
	shift 2
	for t in 1 2 7; do
		"$TEXTPOKE" report --workers $t -i "$file" "$@" --json --html "$tmp/$t.html" \
			>"$tmp/$t.json" 2>"$tmp/doc.err" || fail "$name, $t workers: $(head -3 "$tmp/doc.err")"
	done
	grep -q '"sample_density": *{' "$tmp/1.json" || fail "$name: no sample_density in --json"
	grep -q 'id="density"' "$tmp/1.html" || fail "$name: no density in --html"
	for t in 2 7; do
		cmp -s "$tmp/1.json" "$tmp/$t.json" ||
			fail "$name: --json of $t workers differs: $(diff "$tmp/1.json" "$tmp/$t.json" | head -5)"
		cmp -s "$tmp/1.html" "$tmp/$t.html" || fail "$name: --html of $t workers differs"
	done
}
same_doc "live --json --html" "$tmp/live.data" $trees
echo "live: ${p#*: }" | cut -d' ' -f1-5

# --- a --call-graph dwarf recording: unwound chains, inlined frames ---
build_report_workload "$tmp/w" || fail "gcc: $(cat "$tmp/gcc.err")"
HOME=$tmp perf record -q -e cpu-clock -F 4000 --call-graph dwarf -o "$tmp/dw.data" "$tmp/w" 20000000 \
	>/dev/null 2>"$tmp/rec.err" || fail "stock perf record --call-graph dwarf: $(cat "$tmp/rec.err")"
p=$(plan "$tmp/dw.data")
case "$p" in *" workers, "*) ;; *) fail "the dwarf recording was not cut: $p" ;; esac
same "dwarf trees" "$tmp/dw.data"
grep -q "(inlined)" "$tmp/1.out" || fail "no inlined frame in the dwarf recording's trees"
same "dwarf trees callee" "$tmp/dw.data" -g callee --no-children
same "dwarf trees address" "$tmp/dw.data" -g caller,0.5,address --no-children
same "dwarf trees --hierarchy" "$tmp/dw.data" --hierarchy -g fractal
same_doc "dwarf --json --html" "$tmp/dw.data"
echo "dwarf: ${p#*: }" | cut -d' ' -f1-5

# --- a poke storm: the code-change report ---
"$TEXTPOKE" test --write-fixture big-pokes:30000,30000,50 "$tmp/pokes.data" >/dev/null ||
	fail "the writer's poke storm"
p=$(plan "$tmp/pokes.data" --no-children)
case "$p" in *" workers, "*) ;; *) fail "the poke storm was not cut: $p" ;; esac
same pokes "$tmp/pokes.data" --no-children
grep -q "^# Kernel code changes" "$tmp/1.out" ||
	fail "no code-change report in the poke storm's: $(grep -m3 -i change "$tmp/1.out")"
echo "pokes: ${p#*: }" | cut -d' ' -f1-5
exit 0
