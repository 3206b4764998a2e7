#!/bin/bash
# annotate: --threads 2 and 7 print what one worker prints, byte for byte, on the corpus, a live -a -g recording with BPF churn, and a poke storm
# SPDX-License-Identifier: GPL-2.0-only
# Exclusive: it loads BPF programs (another test's would be in its recording)
#
# A parallel annotate (util/annotate-workers.c) counts each chunk of time
# in its worker, and the worker that read the last chunk adds up the
# others' counts, finding each symbol by its object's name (a KSYMBOL
# object by its place among them) and its address, then prints.  Its
# promise is the one-worker output, byte for byte, stdout and stderr and
# exit status.  --threads 1 is the reference: the reader every other
# annotate test holds to stock perf annotate and to the writer's models.
# Checked at --threads 2 and 7 on
#  - every public corpus file (most fall back to one worker; the reason
#    is perf-textpoke's -v line);
#  - a system-wide -g recording made now by stock perf record, with BPF
#    socket filters loaded, run and closed while it runs, a chunk
#    beginning while they churn (programs of one name loaded again at
#    one address: each load is its own object), with -n --asm-raw, the
#    global percentages, one symbol, --time and -C, and --json;
#  - a storm of text pokes from our writer: kernel functions whose code
#    changes hundreds of times, each version a block of the samples taken
#    while it was live, cut into chunks across the pokes;
#  - one BPF program loaded 24 times at one address, each load sampled
#    once (lib/bpf-loads.py, written from the format's definition): the
#    loads tie on everything annotate sorts by but their time, so a
#    merge that left them in the order the workers' parts came in would
#    print them (here: their warnings, their code being unknown) in
#    another order than one worker, which sees them in time order;
#  - a record out of time order after kernel and user samples
#    (lib/kernel-late.py): read by one worker after the walk, which must
#    then be what --threads 1 is, with -s of a name the kernel's table
#    lacks (its samples in the kernel left out before they are queued).
# Mutations caught: annotate__merge() not adding a worker's totals (the
# global percentages differ); annotate_kernel__merge() dropping the
# samples' times (the versions' blocks differ); machine__find_dso()
# finding KSYMBOL objects by name (a program's later load takes the
# samples of its first: the live recording's blocks differ or the merge
# fails); annotate_sym__cmp() without the load as its last key (the 24
# loads' warnings in another order at 2 and 7 workers, every run; the
# live recording's one CI run had two loads of one sample each); the
# parallel run reading the kernel's symbols before its walk whatever -s
# asks (the late sample's fallback warns of the table and counts the
# records out of order that one worker does not).

. "$(dirname "$0")/lib/record-common.sh"
. "$(dirname "$0")/lib/threads-live.sh"
need_perf_root
scratch annotate-threads

threads_cmd=annotate

# --- the corpus ---
corpus_file() {
	same "$1" "$2" -n
}
threads_corpus corpus_file

# --- a live system-wide recording with BPF churn ---
threads_live "$tmp/live.data"
ours=$threads_live_comms
same live "$tmp/live.data" --comm $ours -n --asm-raw
grep -q "^ *[0-9]* : *[0-9a-f]*:" "$tmp/1.out" || fail "the live recording annotates no instruction"
grep -q "bpf_prog_" "$tmp/1.out" "$tmp/1.err" || fail "no BPF program in the live recording's annotation"
same "live global" "$tmp/live.data" --comm $ours --percent-type global-period
# the hottest block's first symbol (the block names its object; the
# disassembly's "ADDR <sym>:" line the symbol)
hot=$(awk '/Source code & Disassembly of/ { f = 1 }
	f && /<[^ >]*>:$/ { s = $0; sub(/^.*</, "", s); sub(/>:$/, "", s); print s; exit }' "$tmp/1.out")
[ -n "$hot" ] || fail "no symbol in the live recording's hottest block: $(head -12 "$tmp/1.out")"
same "live -s" "$tmp/live.data" --comm $ours -s "$hot"
grep -q "Source code & Disassembly of" "$tmp/1.out" || fail "live -s $hot: nothing annotated"
same "live --time -C" "$tmp/live.data" --comm $ours --time 20%-80% -C 1
same "live --json" "$tmp/live.data" --comm $ours --json
echo "live: ${p#*: }" | cut -d' ' -f1-5

# --- a poke storm ---
"$TEXTPOKE" test --write-fixture big-pokes:30000,30000,50 "$tmp/pokes.data" >/dev/null ||
	fail "the writer's poke storm"
p=$(plan "$tmp/pokes.data")
case "$p" in *" workers, "*) ;; *) fail "the poke storm was not cut: $p" ;; esac
same pokes "$tmp/pokes.data" -n --asm-raw big_fn_0 big_fn_1 big_fn_2
[ "$(grep -c '^# big_fn_0, version ' "$tmp/1.out")" -ge 100 ] ||
	fail "big_fn_0 shows fewer than 100 versions: $(grep -m1 '^# big_fn_0' "$tmp/1.out")"
echo "pokes: ${p#*: }" | cut -d' ' -f1-5

# --- one program loaded again and again at one address ---
python3 "$testlib/bpf-loads.py" "$tmp/loads.data" 24 || fail "lib/bpf-loads.py"
p=$(plan "$tmp/loads.data")
case "$p" in *" workers, "*) ;; *) fail "the loads were not cut: $p" ;; esac
same loads "$tmp/loads.data" -n
[ "$(grep -c 'cannot annotate bpf_prog_00000000000000bb_again .*, loaded at ' "$tmp/1.err")" = 24 ] ||
	fail "loads: not one warning for each of the 24 loads: $(head -3 "$tmp/1.err")"
echo "loads: ${p#*: }" | cut -d' ' -f1-5

# --- a record out of time order, -s of no kernel name ---
python3 "$testlib/kernel-late.py" "$tmp/late.data" || fail "lib/kernel-late.py"
p=$(plan "$tmp/late.data" -s no_symbol_of_this_name)
case "$p" in *"one worker: records out of time order"*) ;; *) fail "late: not read by one worker: $p" ;; esac
same late "$tmp/late.data" -s no_symbol_of_this_name
exit 0
