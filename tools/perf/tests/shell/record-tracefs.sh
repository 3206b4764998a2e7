#!/bin/bash
# record: tracepoints where tracefs is not mounted, found or mounted as perf does
# SPDX-License-Identifier: GPL-2.0-only
# Exclusive: it records the whole system (-a), which another test would load
#
# A fresh machine has no tracefs mounted until something mounts it; stock
# perf record does, so must we.  Each case runs in a mount namespace of its
# own (unshare -m, private propagation) whose tracefs mounts are taken away
# first: the machine's mounts, which other tests use at the same time, are
# never touched.
# - nothing mounted: record mounts tracefs at /sys/kernel/tracing, and
#   stock perf script decodes the records from our TRACING_DATA;
# - only debugfs mounted: record finds tracefs under debugfs/tracing and
#   mounts nothing of its own;
# - as nobody, who cannot mount: one line that says tracefs is not mounted
#   and why, a non-zero exit and no output file.

. "$(dirname "$0")/lib/record-common.sh"
need_perf_root
command -v unshare >/dev/null 2>&1 || skip "unshare (util-linux) is not installed"
unshare --mount --propagation private true 2>/dev/null ||
	skip "cannot make a private mount namespace here (unshare -m)"
scratch tracefs

host_before=$(awk '$3 == "tracefs" || $3 == "debugfs"' /proc/mounts)

# unmounted MODE CMD...: CMD in a private mount namespace without tracefs;
# MODE debugfs leaves debugfs mounted at /sys/kernel/debug, MODE none takes
# it away too.  The tracefs mount points after CMD go to $tmp/mounts.
unmounted() {
	local mode=$1
	shift
	unshare --mount --propagation private bash -c '
		mode=$1 out=$2
		shift 2
		mounts() { awk -v t="$1" "\$3 == t { print \$2 }" /proc/mounts | sort -r; }
		for m in $(mounts tracefs); do umount "$m" || exit 90; done
		if [ "$mode" = none ]; then
			for m in $(mounts debugfs); do umount "$m" || exit 90; done
		elif ! mounts debugfs | grep -qx /sys/kernel/debug; then
			mount -t debugfs nodev /sys/kernel/debug || exit 90
		fi
		[ -z "$(mounts tracefs)" ] || exit 91
		"$@"
		rc=$?
		mounts tracefs >"$out"
		exit $rc' unmounted "$mode" "$tmp/mounts" "$@"
}

# record_unmounted MODE NAME: a system-wide sched_switch recording
record_unmounted() {
	local rc
	unmounted "$1" "$TEXTPOKE" record -o "$tmp/$2.data" -e sched:sched_switch -a -- sleep 0.2 \
		>"$tmp/record.out" 2>"$tmp/record.err"
	rc=$?
	[ $rc = 90 ] && fail "$1: could not unmount tracefs in the private namespace"
	[ $rc = 91 ] && fail "$1: tracefs still mounted in the private namespace"
	[ $rc = 0 ] || fail "$1: record -e sched:sched_switch exit $rc: $(cat "$tmp/record.err")"
}

# decoded NAME: stock perf script prints every record with its fields
decoded() {
	n=$(recorded_samples)
	[ -n "$n" ] && [ "$n" -gt 0 ] || fail "$1: no samples recorded: $(cat "$tmp/record.err")"
	stock_script "$1" "$tmp/$1.data"
	[ "$(wc -l <"$tmp/$1.out")" = "$n" ] ||
		fail "$1: perf script shows $(wc -l <"$tmp/$1.out") records, we wrote $n"
	grep -q "sched:sched_switch: prev_comm=.* prev_pid=[0-9]* .*==> next_comm=" "$tmp/$1.out" ||
		fail "$1: tracepoint fields not decoded: $(head -2 "$tmp/$1.out")"
}

record_unmounted none none
grep -qx /sys/kernel/tracing "$tmp/mounts" ||
	fail "none: record did not mount tracefs at /sys/kernel/tracing (mounted: $(cat "$tmp/mounts"))"
decoded none
echo "ok: nothing mounted: record mounted tracefs at /sys/kernel/tracing, $n records decoded by stock perf"

record_unmounted debugfs debugfs
grep -qx /sys/kernel/debug/tracing "$tmp/mounts" ||
	fail "debugfs: tracefs not found under debugfs (mounted: $(cat "$tmp/mounts"))"
grep -qx /sys/kernel/tracing "$tmp/mounts" &&
	fail "debugfs: record mounted tracefs although debugfs/tracing had it"
decoded debugfs
echo "ok: debugfs only: record used /sys/kernel/debug/tracing and mounted nothing, $n records decoded"

command -v setpriv >/dev/null 2>&1 || skip "setpriv (util-linux) is not installed"
mkdir -m 1777 "$tmp/nobody"
unmounted none setpriv --reuid=65534 --regid=65534 --clear-groups \
	"$TEXTPOKE" record -o "$tmp/nobody/u.data" -e sched:sched_switch -a -- true \
	>"$tmp/nobody.out" 2>"$tmp/nobody.err"
rc=$?
[ $rc = 0 ] && fail "nobody: record succeeded without tracefs: $(cat "$tmp/nobody.err")"
[ $rc -ge 90 ] && fail "nobody: could not prepare the private namespace (exit $rc)"
[ "$(wc -l <"$tmp/nobody.err")" = 1 ] || fail "nobody: not one line: $(cat "$tmp/nobody.err")"
grep -q "sched:sched_switch.*tracefs is not mounted.*/sys/kernel/tracing.*(Operation not permitted)" \
	"$tmp/nobody.err" || fail "nobody: unclear error: $(cat "$tmp/nobody.err")"
[ -e "$tmp/nobody/u.data" ] && fail "nobody: an output file was left"
echo "ok: as nobody: $(cat "$tmp/nobody.err")"

[ "$(awk '$3 == "tracefs" || $3 == "debugfs"' /proc/mounts)" = "$host_before" ] ||
	fail "the machine's tracefs/debugfs mounts changed"
exit 0
