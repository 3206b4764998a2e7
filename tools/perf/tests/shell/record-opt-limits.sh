#!/bin/bash
# record: -b/-j, --kcore, -m and bad -e groups succeed or fail where stock perf record does, with its words
# SPDX-License-Identifier: GPL-2.0-only
#
# Each case runs stock perf record 6.1 and ours with the same options:
# - -b, -j any,u: where the event cannot sample branches (no PMU, or a
#   software event as here) both fail, ours in one line with perf's
#   "PMU Hardware or event type doesn't support branch stack sampling."
#   and nothing left behind; where stock perf records, we do, with its
#   branch_sample_type (stock perf evlist -v on both);
# - -j with a name perf does not know: both refuse it as a usage error
#   (exit 129), ours naming -j and the value;
# - --kcore: where /proc/kcore cannot be read stock perf fails ("kcore is
#   not readable") and so do we, naming /proc/kcore, with nothing left
#   (stock perf leaves an empty directory); where it can, both write a
#   directory whose kcore_dir holds kcore, kallsyms and modules;
# - -m: 0, 3, 5K, 1M give stock perf's rounding note or none, word for
#   word; 3k (perf's units are upper case) is refused by both;
# - -e lists and groups stock perf refuses ("{}", "{a,}", "{a}{b}", ...):
#   we refuse them in one line naming the argument, with nothing left.
# Mutation caught: record_event__open_error() without the branch stack
# case: the -b message is the generic one.
# Mutation caught: parse_mmap_pages() taking lower-case units: -m 3k is
# accepted.

. "$(dirname "$0")/lib/record-common.sh"
need_perf_root
scratch recopt
export HOME=$tmp

branch_words="PMU Hardware or event type doesn't support branch stack sampling."
for opts in "-b -e cpu-clock" "-j any,u -e cpu-clock" "-b"; do
	rm -rf "$tmp/perf.data" "$tmp/ours.data"
	# shellcheck disable=SC2086
	perf record -q -o "$tmp/perf.data" $opts -- true >/dev/null 2>"$tmp/perf.err"
	theirs=$?
	# shellcheck disable=SC2086
	"$TEXTPOKE" record -q -o "$tmp/ours.data" $opts -- true >/dev/null 2>"$tmp/ours.err"
	ours=$?
	if [ "$theirs" != 0 ]; then
		grep -qF "$branch_words" "$tmp/perf.err" ||
			fail "$opts: stock perf failed otherwise: $(head -3 "$tmp/perf.err")"
		[ "$ours" != 0 ] || fail "$opts: recorded where stock perf fails"
		[ "$(wc -l <"$tmp/ours.err")" = 1 ] || fail "$opts: not one line: $(cat "$tmp/ours.err")"
		grep -qF "$branch_words" "$tmp/ours.err" ||
			fail "$opts: '$(cat "$tmp/ours.err")' lacks perf's words"
		[ -e "$tmp/ours.data" ] && fail "$opts: output left behind"
		echo "ok: $opts: fails as stock perf: $(cat "$tmp/ours.err")"
	else
		[ "$ours" = 0 ] || fail "$opts: stock perf records, we fail: $(cat "$tmp/ours.err")"
		want=$(perf evlist -v -i "$tmp/perf.data" | grep -o "branch_sample_type: [^,]*" | head -1)
		have=$(perf evlist -v -i "$tmp/ours.data" | grep -o "branch_sample_type: [^,]*" | head -1)
		[ -n "$want" ] && [ "$want" = "$have" ] || fail "$opts: '$have', stock perf's '$want'"
		echo "ok: $opts: records as stock perf, $have"
	fi
done

perf record -q -o "$tmp/perf.data" -j foo -- true >/dev/null 2>&1
theirs=$?
"$TEXTPOKE" record -q -o "$tmp/ours.data" -j foo -- true >/dev/null 2>"$tmp/ours.err"
ours=$?
[ "$theirs" = 129 ] || fail "-j foo: stock perf exits $theirs, not 129"
[ "$ours" = 129 ] || fail "-j foo: exit $ours, stock perf's 129"
grep -q "'foo'.*-j" "$tmp/ours.err" || fail "-j foo: '$(cat "$tmp/ours.err")' names neither -j nor foo"
echo "ok: -j foo: a usage error, as stock perf's"

rm -rf "$tmp/perf.data" "$tmp/ours.data"
perf record -o "$tmp/perf.data" --kcore -e cpu-clock -- true >/dev/null 2>"$tmp/perf.err"
theirs=$?
"$TEXTPOKE" record -q -o "$tmp/ours.data" --kcore -e cpu-clock -- true >/dev/null 2>"$tmp/ours.err"
ours=$?
if [ "$theirs" != 0 ]; then
	grep -q "kcore is not readable" "$tmp/perf.err" ||
		fail "--kcore: stock perf failed otherwise: $(head -3 "$tmp/perf.err")"
	[ "$ours" != 0 ] || fail "--kcore: recorded where stock perf fails"
	grep -q "/proc/kcore" "$tmp/ours.err" || fail "--kcore: '$(cat "$tmp/ours.err")' does not name /proc/kcore"
	[ -e "$tmp/ours.data" ] && fail "--kcore: output left behind"
	echo "ok: --kcore: fails as stock perf: $(cat "$tmp/ours.err")"
else
	[ "$ours" = 0 ] || fail "--kcore: stock perf records, we fail: $(cat "$tmp/ours.err")"
	for f in kcore kallsyms modules; do
		[ -f "$tmp/perf.data/kcore_dir/$f" ] || fail "--kcore: stock perf wrote no kcore_dir/$f"
		[ -f "$tmp/ours.data/kcore_dir/$f" ] || fail "--kcore: no kcore_dir/$f"
	done
	perf report --header-only -i "$tmp/ours.data" >/dev/null 2>"$tmp/hdr.err" ||
		fail "--kcore: stock perf cannot read the directory: $(head -3 "$tmp/hdr.err")"
	echo "ok: --kcore: a directory with kcore_dir/{kcore,kallsyms,modules}, as stock perf's"
fi

for m in 0 3 5K 1M 3k; do
	perf record -o "$tmp/perf.data" -m $m -e cpu-clock -- true >/dev/null 2>"$tmp/perf.err"
	theirs=$?
	"$TEXTPOKE" record -o "$tmp/ours.data" -m $m -e cpu-clock -- true >/dev/null 2>"$tmp/ours.err"
	ours=$?
	if [ "$theirs" = 129 ]; then
		[ "$ours" = 129 ] || fail "-m $m: exit $ours where stock perf refuses it"
		echo "ok: -m $m: refused, as by stock perf"
		continue
	fi
	[ "$theirs" = 0 ] || fail "-m $m: stock perf failed: $(head -3 "$tmp/perf.err")"
	[ "$ours" = 0 ] || fail "-m $m: failed: $(head -3 "$tmp/ours.err")"
	want=$(grep "^rounding mmap" "$tmp/perf.err")
	have=$(grep "^rounding mmap" "$tmp/ours.err")
	[ "$want" = "$have" ] || fail "-m $m: '$have', stock perf says '$want'"
	echo "ok: -m $m: ${have:-no note}, as stock perf"
done

while IFS= read -r e; do
	rm -rf "$tmp/perf.data" "$tmp/ours.data"
	perf record -q -o "$tmp/perf.data" -e "$e" -- true >/dev/null 2>&1 && fail "-e '$e': stock perf takes it"
	"$TEXTPOKE" record -q -o "$tmp/ours.data" -e "$e" -- true >/dev/null 2>"$tmp/ours.err" &&
		fail "-e '$e': recorded"
	[ "$(wc -l <"$tmp/ours.err")" = 1 ] || fail "-e '$e': not one line: $(cat "$tmp/ours.err")"
	grep -qF "event '" "$tmp/ours.err" || fail "-e '$e': '$(cat "$tmp/ours.err")' names no event"
	[ -e "$tmp/ours.data" ] && fail "-e '$e': output left behind"
	echo "ok: -e '$e': $(cat "$tmp/ours.err")"
done <<'EOF'
{}
{cpu-clock,}
}
{cpu-clock}{task-clock}
,cpu-clock
cpu-clock,
{{cpu-clock}}
{cpu-clock}:x
EOF
