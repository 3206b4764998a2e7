# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=sh
# In the guest (busybox sh), sourced by the text-poke experiments: the
# recorders, the truth moments and the kernel's knobs.  Paths:
#   /rig/pokes/          these scripts, kcore-truth, the workloads, dummy.ko
#   /out/<exp>.ours      perf textpoke record -a (a directory: data, kcore_dir/)
#   /out/<exp>.stock     perf record -a --kcore (the same)
#   /out/truth/          kcore-truth's moments, numbered across the boot
#   /out/<exp>.log       what the experiment did, with the moments' numbers

P=/rig/pokes
T=/sys/kernel/tracing
TRUTH_STATE=/tmp/truth-state
export PATH=$P:$PATH

log() {
	echo "$*" >>"/out/$RIG_EXP.log"
}

# truth KIND: the next moment of the boot (a number kept in a file, since
# the experiment's body runs under a recorder, in another process)
truth() {
	n=$(($(cat /tmp/moment) + 1))
	echo $n >/tmp/moment
	kcore-truth read $TRUTH_STATE /out/truth $n "$1" || echo "rig: kcore-truth read $n failed"
	log "truth $n $1"
}

# busy CMD...: runs CMD in the background until busy_end; the moments
# taken meanwhile race what it changes
busy() {
	"$@" &
	busy_pid=$!
	log "busy $*"
}

busy_end() {
	kill "$busy_pid" 2>/dev/null
	wait "$busy_pid" 2>/dev/null
	log "busy end"
}

# tp_toggle N EVENT...: enable and disable the events N times (tracepoint
# static keys: jump labels, the tp_func static calls)
tp_toggle() {
	i=0
	c=$1
	shift
	while [ "$c" = 0 ] || [ $i -lt "$c" ]; do
		for e; do echo 1 >"$T/events/$e/enable"; done
		for e; do echo 0 >"$T/events/$e/enable"; done
		i=$((i + 1))
	done
}

# what the shell does while the recorder runs: the experiment's body
# (exp_body, defined by /rig/pokes/<exp>.sh)
run_body() {
	RIG_EXP=$1
	. "$P/$1.sh"
	exp_body
}

# record_both EXP: the experiment recorded by our recorder, then by stock
# perf, each with its own run of the body (exp_before/exp_after, when the
# experiment defines them, run around each recorder)
record_both() {
	RIG_EXP=$1
	. "$P/$1.sh"
	for who in ours stock; do
		log "record $who"
		type exp_before >/dev/null 2>&1 && exp_before
		t0=$(date +%s)
		case $who in
		ours) perf-textpoke record -q -a -e cpu-clock -F 499 -o "/out/$1.$who" -- \
			sh -c ". $P/lib.sh; run_body $1" ;;
		stock) perf record -q -a --kcore -N -e cpu-clock -F 499 -o "/out/$1.$who" -- \
			sh -c ". $P/lib.sh; run_body $1" ;;
		esac
		echo "rig: $1.$who: exit $?, $(($(date +%s) - t0)) s"
		type exp_after >/dev/null 2>&1 && exp_after
		log "recorded $who"
	done
}
