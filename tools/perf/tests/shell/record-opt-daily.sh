#!/bin/bash
# record: --call-graph fp,N, -P, -W, --phys-data, --sample-cpu, --namespaces, --all-cgroups, -N, -B, -D, -t, -u, --per-thread set stock perf's attrs; lbr and --off-cpu refused
# SPDX-License-Identifier: GPL-2.0-only
#
# Three command lines, each recorded once by stock perf record 6.1 and
# once by us; stock perf evlist -v reads both files.  Compared, per
# sampling event: sample_type (but IDENTIFIER, and CPU where the line
# has no --sample-cpu: our layout always has them; ID, which stock perf
# adds beside its tracking dummy; TIME, which stock perf drops with
# --per-thread and our layout keeps), sample_max_stack,
# branch_sample_type, disabled, inherit, enable_on_exec, the period;
# over all events: whether any has namespaces or cgroup set (stock perf
# sets them on its event, we on the side-band dummy).  Then what the
# options bring, checked on the same files:
#   1. --all-cgroups: stock perf report -s cgroup names the workload's
#      cgroup in our file as in its own (CGROUP records synthesized for
#      the cgroups that exist); --namespaces: the workload's NAMESPACES
#      record (synthesized) lists what stock perf's does; -B: no
#      HEADER_BUILD_ID in either file;
#      -D 100: "Events disabled" and "Events enabled" as stock perf says
#      them, and no sample of ours earlier than 100 ms after the
#      workload's exec (its COMM record).
#   2. -t TID on a shell that keeps forking: inherit off as stock perf's,
#      and every sample ours is of that thread, none of its children.
#   3. -u nobody --per-thread (when setpriv can run a process as nobody):
#      no inherit, no enable_on_exec, as stock perf; our samples (from a
#      ring per thread) include the nobody process and nothing of the
#      root workload beside it.
# --call-graph lbr on cpu-clock (a software event: never an LBR) fails
# with stock perf's line; --off-cpu is refused in one line.
# Mutation caught: record__config_sample() without sample_max_stack:
# line 1's attrs differ.
# Mutation caught: record_control__timeout() enabling at once: a sample
# lands before exec + 100 ms.
# Mutation caught: -t not setting no_inherit: line 2's inherit differs.
# Mutation caught: record__open_evsel() taking the CPU's ring, not the
# thread's, with --per-thread: the kernel refuses to share a ring between
# two threads' events and line 3's recording fails.

. "$(dirname "$0")/lib/record-common.sh"
need_perf_root
scratch recdaily
export HOME=$tmp

# attrs FILE KEEPCPU: the sampling events of FILE, one line each, then
# one line for the side-band bits
attrs() {
	perf evlist -v -i "$1" 2>/dev/null |
		awk -v keepcpu="$2" -v droptime="$3" -f "$testlib/evlist-fields.awk" -f /dev/fd/3 3<<'EOF'
{
	name = evlist_fields($0, f)
	if (f["namespaces"]) ns = 1
	if (f["cgroup"]) cg = 1
	if (name ~ /^dummy/) next
	m = split(f["sample_type"], bits, "|")
	st = ""
	for (i = 1; i <= m; i++) {
		if (bits[i] == "IDENTIFIER" || bits[i] == "ID" || (bits[i] == "CPU" && !keepcpu) ||
		    (bits[i] == "TIME" && droptime))
			continue
		st = st bits[i] ","
	}
	printf "%s: period %s freq %d sample %s max_stack %d branch %s", name,
		f["period_or_freq"], f["freq"], st, f["sample_max_stack"],
		f["branch_sample_type"]
	printf " disabled %d inherit %d enable_on_exec %d\n", f["disabled"],
		f["inherit"], f["enable_on_exec"]
}
END { printf "any namespaces %d cgroup %d\n", ns, cg }
EOF
}

# both N OPTS...: record the workload $work with stock perf and with us
both() {
	local n=$1
	shift
	perf record -o "$tmp/perf$n.data" "$@" -- sh -c "$work" \
		>/dev/null 2>"$tmp/perf$n.err" || fail "stock perf record $*: $(head -3 "$tmp/perf$n.err")"
	record "$tmp/ours$n.data" --no-bpf-capture --no-kcore "$@" -- sh -c "$work"
	cp "$tmp/record.err" "$tmp/ours$n.err"
	attrs "$tmp/perf$n.data" "$keepcpu" "$droptime" >"$tmp/perf$n.attrs"
	attrs "$tmp/ours$n.data" "$keepcpu" "$droptime" >"$tmp/ours$n.attrs"
	[ "$(wc -l <"$tmp/perf$n.attrs")" -gt 1 ] || fail "$*: stock perf evlist listed no event"
	diff "$tmp/perf$n.attrs" "$tmp/ours$n.attrs" >"$tmp/diff$n" ||
		{ cat "$tmp/diff$n"; fail "$*: attrs differ from stock perf's (< perf, > ours)"; }
	echo "ok: $*: $(head -1 "$tmp/ours$n.attrs")"
}

# the pids of FILE's samples, sorted, one each
sample_pids() {
	perf script -i "$1" -F pid 2>/dev/null | awk '{ print $1 }' | sort -un
}

# 1: the sample bits, -B and -D on one recording of some 0.1 s of CPU, which
# starts after a sleep longer than -D's delay: samples come after the
# events are enabled however fast the machine (the loop alone ends
# before 100 ms on a quiet one, and stock perf then records nothing)
work='sleep 0.15; i=0; while [ $i -lt 100000 ]; do i=$((i + 1)); done'
keepcpu=1
both 1 -B -D 100 -P -c 100003 -W --phys-data --sample-cpu --namespaces --all-cgroups \
	--call-graph fp,12 -e cpu-clock
grep -q 'sample_max_stack: 12' <(perf evlist -v -i "$tmp/ours1.data") ||
	fail "--call-graph fp,12: no sample_max_stack 12"
cg() {
	perf report -i "$1" --stdio --no-children -g none -s cgroup 2>/dev/null | awk '/%/ { print $NF }' | sort -u
}
theirs=$(cg "$tmp/perf1.data")
ours=$(cg "$tmp/ours1.data")
[ -n "$theirs" ] || fail "--all-cgroups: stock perf report -s cgroup names nothing in its file"
[ "$ours" = "$theirs" ] || fail "--all-cgroups: cgroups '$ours', stock perf's file '$theirs'"
echo "ok: --all-cgroups: samples in cgroup $ours as stock perf's"
# the namespaces of the workload, synthesized: the (dev, inode) lists
ns() {
	perf report -D -i "$1" 2>/dev/null | grep -A1 "PERF_RECORD_NAMESPACES [0-9]" | grep "net:" | sort -u
}
theirs=$(ns "$tmp/perf1.data")
ours=$(ns "$tmp/ours1.data")
[ -n "$theirs" ] || fail "--namespaces: stock perf's file has no NAMESPACES record"
[ "$ours" = "$theirs" ] || fail "--namespaces: '$ours', stock perf's file '$theirs'"
echo "ok: --namespaces: the workload's namespaces as stock perf's file has them"
for f in perf1 ours1; do
	perf report --header-only -i "$tmp/$f.data" 2>/dev/null |
		grep -q '^# missing features:.* BUILD_ID' || fail "-B: $f.data has a build-id table"
done
grep '^Events' "$tmp/perf1.err" >"$tmp/perf1.events"
grep '^Events' "$tmp/ours1.err" >"$tmp/ours1.events"
[ -s "$tmp/perf1.events" ] || fail "-D: stock perf said no 'Events' line"
cmp -s "$tmp/perf1.events" "$tmp/ours1.events" ||
	fail "-D: said '$(cat "$tmp/ours1.events")', stock perf '$(cat "$tmp/perf1.events")'"
perf script -i "$tmp/ours1.data" --show-task-events -F comm,time,event 2>/dev/null | awk '
	/PERF_RECORD_COMM exec/ && !exec_t { sub(/:$/, "", $2); exec_t = $2 + 0 }
	/cpu-clock/ { sub(/:$/, "", $2); if (!first) first = $2 + 0; n++ }
	END {
		if (!exec_t || !n) { print "FAIL: -D 100: exec at " exec_t ", " n " samples"; exit 1 }
		d = (first - exec_t) * 1000
		if (d < 100) { printf "FAIL: -D 100: first sample %.1f ms after exec\n", d; exit 1 }
		printf "ok: -D 100: %d samples, the first %.1f ms after exec\n", n, d
	}' || exit 1

# 2: -t on a shell that forks a child every thousand rounds
sh -c 'while :; do i=0; while [ $i -lt 1000 ]; do i=$((i + 1)); done; /bin/true; done' &
busy=$!
trap 'kill $busy 2>/dev/null; rm -rf "$tmp"' EXIT
work='sleep 0.2'
keepcpu=
both 2 -q -N -t "$busy" -e cpu-clock
pids=$(sample_pids "$tmp/ours2.data" | tr '\n' ' ')
[ "$pids" = "$busy " ] || fail "-t $busy: samples of pids '$pids'"
echo "ok: -t $busy: samples of that thread only"
kill $busy

# 3: -u, with a process of nobody's running
if ! command -v setpriv >/dev/null || ! id nobody >/dev/null 2>&1; then
	skipped="-u: no setpriv or no user nobody"
else
	# two processes, so that --per-thread has two rings to fill
	setpriv --reuid "$(id -u nobody)" --regid "$(id -g nobody)" --clear-groups \
		sh -c 'while :; do :; done & while :; do :; done' &
	busy=$!
	# stock perf 6.1 crashes when the user has no process yet: wait for
	# setpriv's setuid and the child (a bounded wait on a state, not luck)
	for i in $(seq 100); do
		child=$(pgrep -P "$busy" | head -1)
		[ -n "$child" ] &&
			[ "$(awk '/^Uid:/ { print $2 }' "/proc/$child/status" 2>/dev/null)" = "$(id -u nobody)" ] &&
			break
		sleep 0.02
	done
	droptime=1
	both 3 -q -N -u nobody --per-thread -e cpu-clock
	pids=" $(sample_pids "$tmp/ours3.data" | tr '\n' ' ')"
	case "$pids" in
	*" $busy "*) ;;
	*) fail "-u nobody: no sample of the nobody process $busy (pids$pids)" ;;
	esac
	perf script -i "$tmp/ours3.data" -F comm 2>/dev/null | grep -q sleep &&
		fail "-u nobody: samples of root's workload"
	echo "ok: -u nobody --per-thread: samples of pids$pids"
	kill $busy $child
fi

# refusals: lbr where stock perf refuses it, --off-cpu
perf record -q -o "$tmp/lbr.data" --call-graph lbr -e cpu-clock -- true >/dev/null 2>"$tmp/perf-lbr.err" &&
	fail "stock perf record --call-graph lbr on cpu-clock did not fail"
"$TEXTPOKE" record -o "$tmp/lbr-ours.data" --call-graph lbr -e cpu-clock -- true 2>"$tmp/lbr.err" &&
	fail "--call-graph lbr on cpu-clock did not fail"
line=$(sed 's/^error: //' "$tmp/lbr.err")
grep -qxF "$line" "$tmp/perf-lbr.err" || fail "lbr: said '$line', stock perf: $(cat "$tmp/perf-lbr.err")"
echo "ok: lbr refused as stock perf: $line"
"$TEXTPOKE" record -o "$tmp/offcpu.data" --off-cpu -- true 2>"$tmp/offcpu.err" &&
	fail "--off-cpu was not refused"
[ "$(wc -l <"$tmp/offcpu.err")" = 1 ] && grep -q "off-cpu.*BPF" "$tmp/offcpu.err" ||
	fail "--off-cpu: not one line naming BPF: $(cat "$tmp/offcpu.err")"
echo "ok: $(cat "$tmp/offcpu.err")"
[ -z "$skipped" ] || skip "$skipped"
