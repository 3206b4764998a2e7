#!/bin/bash
# textimage: perf textpoke code --time takes perf's time syntax and warns outside the recording
# SPDX-License-Identifier: GPL-2.0-only
#
# On a recording made now by stock perf record:
# - seconds as perf script prints them are that moment, and a bare
#   integer is seconds too, as for perf script --time ("347" is 347 s);
# - "10%" is a tenth of the way from the first sample to the last, as
#   perf report --header-only gives them (to the microsecond);
# - a moment inside the samples is quiet; one before the first or after
#   the last gets one warning line; a malformed one is one error line.
# The moment is what the listing's first line says: "# <range> at <time>".

. "$(dirname "$0")/lib/common.sh"
[ -n "$TEXTPOKE" ] || skip "TEXTPOKE not set: run through perf-textpoke test"
command -v perf >/dev/null 2>&1 || skip "stock perf is not installed"
scratch codetime
export HOME=$tmp

perf record -q -e cpu-clock -o "$tmp/perf.data" -- \
	sh -c 'i=0; while [ $i -lt 100000 ]; do i=$((i + 1)); done' >"$tmp/rec.err" 2>&1 ||
	fail "stock perf record: $(head -3 "$tmp/rec.err")"
perf report --header-only -i "$tmp/perf.data" >"$tmp/header" 2>/dev/null
first=$(sed -n 's/^# time of first sample : \([0-9.]*\)$/\1/p' "$tmp/header")
last=$(sed -n 's/^# time of last sample : \([0-9.]*\)$/\1/p' "$tmp/header")
[ -n "$first" ] && [ -n "$last" ] || skip "stock perf wrote no sample times: $(grep time "$tmp/header")"
perf script -i "$tmp/perf.data" -F time,ip >"$tmp/script" 2>/dev/null
read -r t1 addr < <(sed -n '2s/^ *\([0-9.]*\): *\([0-9a-f]*\).*/\1 \2/p' "$tmp/script")
[ -n "$addr" ] || fail "no sample in perf script's output: $(head -3 "$tmp/script")"

# code TIME: runs it, $at is the moment it lists, $tmp/err its stderr
code() {
	"$TEXTPOKE" code -i "$tmp/perf.data" --no-kcore --time "$1" "$addr" 4 >"$tmp/out" 2>"$tmp/err" ||
		fail "code --time $1: $(cat "$tmp/err")"
	at=$(sed -n '1s/^# 0x[0-9a-f]*\.\.0x[0-9a-f]* at \([0-9.]*\)$/\1/p' "$tmp/out")
	[ -n "$at" ] || fail "code --time $1: no moment in '$(head -1 "$tmp/out")'"
}
quiet() {
	[ -s "$tmp/err" ] && fail "code --time $1, inside the recording, warned: $(cat "$tmp/err")"
	return 0
}
warns() {
	[ "$(wc -l <"$tmp/err")" = 1 ] && grep -q "^warning: --time $1 is $2 the recording" "$tmp/err" ||
		fail "code --time $1: expected one warning that it is $2 the recording: $(cat "$tmp/err")"
}

# perf script's own time of a sample (microseconds) is that moment
code "$t1"
[ "$at" = "${t1}000" ] || fail "--time $t1 (from perf script) lists $at"
quiet "$t1"
echo "ok: --time $t1, as perf script printed it, lists $at, quietly"

# a bare integer is seconds: one whole second before the first sample (a
# fixed number would be after it on a machine booted minutes ago)
b=$((${first%%.*} - 1))
code "$b"
[ "$at" = "$b.000000000" ] || fail "--time $b lists $at, not $b seconds"
warns "$b" before
echo "ok: --time $b is $b seconds, before the recording: $(cat "$tmp/err")"

code 10%
awk -v f="$first" -v l="$last" -v a="$at" 'BEGIN {
	want = f + (l - f) / 10; d = a - want; exit !(d < 2e-6 && d > -2e-6) }' ||
	fail "--time 10% lists $at, not a tenth of the way from $first to $last"
quiet 10%
echo "ok: --time 10% lists $at, a tenth of the way from $first to $last"

after=$(awk -v l="$last" 'BEGIN { printf "%d.5", l + 100 }')
code "$after"
warns "$after" after
echo "ok: --time $after: $(cat "$tmp/err")"

for bad in 12x -3 1.2.3 10%x 150% 0x10% 1e1% ""; do
	"$TEXTPOKE" code -i "$tmp/perf.data" --no-kcore --time "$bad" "$addr" 4 >/dev/null 2>"$tmp/err" &&
		fail "code --time '$bad' succeeded"
	[ "$(wc -l <"$tmp/err")" = 1 ] && grep -q "'$bad' for --time: expected" "$tmp/err" ||
		fail "code --time '$bad': not one line naming it: $(cat "$tmp/err")"
done
echo "ok: malformed times are one line each: $(cat "$tmp/err")"
exit 0
