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
#    while it was live, cut into chunks across the pokes.
# Mutations caught: annotate__merge() not adding a worker's totals (the
# global percentages differ); annotate_kernel__merge() dropping the
# samples' times (the versions' blocks differ); machine__find_dso()
# finding KSYMBOL objects by name (a program's later load takes the
# samples of its first: the live recording's blocks differ or the merge
# fails).

. "$(dirname "$0")/lib/record-common.sh"
. "$(dirname "$0")/lib/threads-live.sh"
need_perf_root
[ -d "$TEXTPOKE_CORPUS" ] || fail "no corpus at '$TEXTPOKE_CORPUS'"
scratch annotate-threads

# same NAME FILE ARGS...: --threads 2 and 7 against 1 on FILE
same() {
	local name=$1 file=$2 t st1 st
	shift 2
	timeout 300 "$TEXTPOKE" annotate --threads 1 -i "$file" "$@" >"$tmp/1.out" 2>"$tmp/1.err"
	st1=$?
	for t in 2 7; do
		timeout 300 "$TEXTPOKE" annotate --threads $t -i "$file" "$@" >"$tmp/$t.out" 2>"$tmp/$t.err"
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
	"$TEXTPOKE" annotate -v --threads 7 -i "$file" "$@" 2>&1 >/dev/null |
		grep -m1 -E ': [0-9]+ workers, [0-9]+ chunks|: one worker: '
}

# --- the corpus ---
cut=0
while IFS= read -r -d '' f; do
	rel=${f#$TEXTPOKE_CORPUS/}
	case "$rel" in *.md) continue ;; esac
	same "$rel" "$f" -n
	case "$(plan "$f")" in *" workers, "*) cut=$((cut + 1)) ;; esac
done < <(find "$TEXTPOKE_CORPUS" -type f -print0 | sort -z)
[ "$cut" -ge 2 ] || fail "only $cut corpus files were cut into chunks (2 or more are)"
echo "corpus: every file equal at 2 and 7 workers, $cut of them read in chunks"

# --- a live system-wide recording with BPF churn ---
threads_live_record "$tmp/live.data"
p=$(plan "$tmp/live.data")
case "$p" in *" workers, "*) ;; *) fail "the live recording was not cut: $p" ;; esac
threads_live_churn_cut "$tmp/live.data" "$p"
ours=$threads_live_comms
same live "$tmp/live.data" --comm $ours -n --asm-raw
grep -q "^ *[0-9]* : *[0-9a-f]*:" "$tmp/1.out" || fail "the live recording annotates no instruction"
grep -q "bpf_prog_" "$tmp/1.out" "$tmp/1.err" || fail "no BPF program in the live recording's annotation"
same "live global" "$tmp/live.data" --comm $ours --percent-type global-period
hot=$(awk '/Source code & Disassembly of/ { getline; getline; getline; sub(/^.*</, ""); sub(/>:.*/, ""); print; exit }' "$tmp/1.out")
same "live -s" "$tmp/live.data" --comm $ours -s "${hot:-main}"
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
exit 0
