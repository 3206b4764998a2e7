#!/bin/bash
# record: -e lists and groups, -d, -s, -T, -F max, --switch-events, --no-inherit set the attrs stock perf sets
# SPDX-License-Identifier: GPL-2.0-only
#
# Each option line is recorded by stock perf record 6.1 and by us, on the
# same workload; stock perf evlist -v reads both files.  Compared, per
# sampling event in order: its name and the attr fields these options
# decide (disabled, inherit, enable_on_exec, inherit_stat, exclude_*,
# the sample frequency, the ADDR/DATA_SRC sample bits, the TOTAL_TIME
# read_format bits); over all events: whether any carries context_switch
# or mmap_data (stock perf sets them on its first event, we on the
# side-band dummy).  Not compared: the bits our layout always has
# (IDENTIFIER, CPU) and exclude_guest, which perf 6.1 sets on lists only.
# Then what the attrs bring: the "# group:" lines of stock perf report
# --header-only (HEADER_GROUP_DESC, the leader's index naming it), the
# READ records -s makes at each child's exit (as many as stock perf's),
# SWITCH records with --switch-events, and stock perf script -F addr on
# a -d recording without a warning.
# Mutation caught: record__add_event() leaving a group member disabled:
# the {cpu-clock,task-clock} attrs differ from stock perf's.
# Mutation caught: record__write_groups() giving leader_idx + 1: the
# group line names other events.

. "$(dirname "$0")/lib/record-common.sh"
need_perf_root
scratch recopt
export HOME=$tmp

# the sampling events of FILE, one line each, with the fields compared
attrs() {
	perf evlist -v -i "$1" 2>/dev/null | awk -f "$testlib/evlist-fields.awk" -f /dev/fd/3 3<<'EOF'
{
	name = evlist_fields($0, f)
	if (f["context_switch"]) cs = 1
	if (f["mmap_data"]) md = 1
	if (name ~ /^dummy/) next
	st = ""
	if (f["sample_type"] ~ /(^|\|)ADDR(\||$)/) st = st "ADDR,"
	if (f["sample_type"] ~ /DATA_SRC/) st = st "DATA_SRC,"
	rf = ""
	if (f["read_format"] ~ /TOTAL_TIME_ENABLED/) rf = rf "ENABLED,"
	if (f["read_format"] ~ /TOTAL_TIME_RUNNING/) rf = rf "RUNNING,"
	printf "%s: freq %s disabled %d inherit %d enable_on_exec %d inherit_stat %d", name,
		f["period_or_freq"], f["disabled"], f["inherit"],
		f["enable_on_exec"], f["inherit_stat"]
	printf " exclude u%d k%d h%d sample %s read %s\n", f["exclude_user"],
		f["exclude_kernel"], f["exclude_hv"], st, rf
}
END { printf "any context_switch %d mmap_data %d\n", cs, md }
EOF
}

# the workload forks two children, so that inherit and -s have work, and
# first spends some CPU of its own, so that -d's recording has samples
# (the children alone are a few ms)
work='i=0; while [ $i -lt 20000 ]; do i=$((i + 1)); done; /bin/true; /bin/true'
n=0
while IFS= read -r opts; do
	n=$((n + 1))
	# shellcheck disable=SC2086
	perf record -q -o "$tmp/perf$n.data" $opts -- sh -c "$work" \
		>/dev/null 2>"$tmp/perf$n.err" || fail "stock perf record $opts: $(head -3 "$tmp/perf$n.err")"
	# shellcheck disable=SC2086
	record "$tmp/ours$n.data" -q --no-bpf-capture $opts -- sh -c "$work"
	attrs "$tmp/perf$n.data" >"$tmp/perf$n.attrs"
	attrs "$tmp/ours$n.data" >"$tmp/ours$n.attrs"
	[ "$(wc -l <"$tmp/perf$n.attrs")" -gt 1 ] || fail "$opts: stock perf evlist listed no event"
	diff "$tmp/perf$n.attrs" "$tmp/ours$n.attrs" >"$tmp/diff$n" ||
		{ cat "$tmp/diff$n"; fail "$opts: attrs differ from stock perf's (< perf, > ours)"; }
	perf report --header-only -i "$tmp/perf$n.data" 2>/dev/null | grep "^# group:" >"$tmp/perf$n.groups"
	perf report --header-only -i "$tmp/ours$n.data" 2>/dev/null | grep "^# group:" >"$tmp/ours$n.groups"
	cmp -s "$tmp/perf$n.groups" "$tmp/ours$n.groups" ||
		fail "$opts: group lines '$(cat "$tmp/ours$n.groups")', stock perf's '$(cat "$tmp/perf$n.groups")'"
	echo "ok: $opts: $(head -1 "$tmp/ours$n.attrs" | cut -c1-80)... $(cat "$tmp/ours$n.groups")"
done <<'EOF'
-e cpu-clock,task-clock
-e {cpu-clock,task-clock}
-e page-faults,{cpu-clock,task-clock:k}:u -e cs
-d -e cpu-clock
-s -e cpu-clock
-T -e cpu-clock
-F max -e cpu-clock
--no-inherit -e cpu-clock
--switch-events -e cpu-clock
EOF
[ "$(cat "$tmp/perf2.groups")" = "# group: {cpu-clock,task-clock}" ] ||
	fail "stock perf does not see the group it recorded: '$(cat "$tmp/perf2.groups")'"

# what the records carry: -s (5), --switch-events (9), -d (4)
count() {
	perf report -D -i "$1" 2>/dev/null | grep -c "PERF_RECORD_$2\b"
}
theirs=$(count "$tmp/perf5.data" READ)
ours=$(count "$tmp/ours5.data" READ)
[ "$theirs" -gt 0 ] || fail "-s: stock perf's file has no READ record"
[ "$ours" = "$theirs" ] || fail "-s: $ours READ records, stock perf's file has $theirs"
echo "ok: -s: $ours READ records at the children's exits, as stock perf's"
[ "$(count "$tmp/perf9.data" SWITCH)" -gt 0 ] || fail "--switch-events: stock perf's file has no SWITCH record"
ours=$(count "$tmp/ours9.data" SWITCH)
[ "$ours" -gt 0 ] || fail "--switch-events: no SWITCH record"
echo "ok: --switch-events: $ours SWITCH records"
stock_script addr "$tmp/ours4.data" -F comm,addr,ip
[ -s "$tmp/addr.out" ] || fail "-d: stock perf script printed no sample"
echo "ok: -d: stock perf script -F addr reads $(wc -l <"$tmp/addr.out") samples"
