#!/bin/bash
# report: --workers 2 and 7 print what one worker prints, byte for byte, on the corpus, a live -a -g recording with BPF churn, and a poke storm
# SPDX-License-Identifier: GPL-2.0-only
# Exclusive: it loads BPF programs (another test's would be in its recording)
#
# A parallel report (util/report-hist-merge.c) builds each chunk of
# time's histograms in its worker, and the worker that read the last
# chunk adds up the others': entries by their keys (names and numbers),
# each with the attributes of its first touch in the recording, listed in
# the order one reader would have made them (which decides how perf
# orders equal rows), and the code-change report's counts by site and
# region.  Its promise is the one-worker output, byte for byte, stdout,
# stderr and exit status.  --workers 1 is the reference: the reader
# every other report test holds to stock perf report.  (perf's --threads
# is report's -T, hence --workers.)  Checked at 2 and 7 workers on
#  - every public corpus file (most fall back to one worker);
#  - a system-wide -g recording made now by stock perf record, with BPF
#    socket filters churning while a chunk begins: flat profiles
#    (--no-children -g none) by symbol, by pid (the pid column names the
#    thread as the recording left it), comm,dso,sym with -n, srcline,
#    --hierarchy, --time and -C, --symbol-filter, --percentage relative;
#    Children without the trees (-g none: every chain's frames an entry,
#    summed); and the default, which prints the call-graph trees: one
#    worker, said by -v;
#  - a storm of text pokes from our writer: the code-change report's
#    sites, versions and samples from every worker's counts.
# Mutations caught: hist_build__merge_entry() keeping the later touch's
# attributes (live pid: another thread's name); report_changes__merge()
# not adding the versions' samples (the poke storm's code-change report
# differs).  Not caught: report_hists__finish() leaving merged entries
# out of first-touch order; no recording here has rows whose order
# depends on it (perf's comparison is a total order on them).

. "$(dirname "$0")/lib/record-common.sh"
. "$(dirname "$0")/lib/threads-live.sh"
need_perf_root
scratch report-workers

threads_cmd="report --stdio"
threads_opt=--workers

# --- the corpus ---
corpus_file() {
	same "$1" "$2" --no-children -g none
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
case "$(plan "$tmp/live.data")" in
*"one worker: the call-graph trees are printed"*) ;;
*) fail "the default report of a -g recording is not said to take one worker: $(plan "$tmp/live.data")" ;;
esac
echo "live: ${p#*: }" | cut -d' ' -f1-5

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
