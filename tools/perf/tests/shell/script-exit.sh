#!/bin/bash
# script: exit statuses of bad inputs and options equal stock perf script's (255, 234, 129)
# SPDX-License-Identifier: GPL-2.0-only
#
# A table of mistakes: a missing input, a file that is not a recording,
# empty, cut in its header, in its data or in its feature sections, a bad
# -F field or type, a field the recording lacks, -F tod without clock data,
# a bad --time.  Stock perf script and ours run on each; the exit statuses
# must be equal, except where the table names our status and the reason
# (perf's own status is then checked too, so a change on either side
# shows).  Both must print nothing on stdout for the errors ours reports.
#
# Mutation caught: cmd_textpoke_script() returning 1 for every error
# (the old behaviour: 255 and 234 become 1); script__run() keeping
# -EINVAL for a file that does not open (234 instead of 255).

. "$(dirname "$0")/lib/common.sh"
[ -n "$TEXTPOKE" ] || skip "TEXTPOKE not set: run through perf-textpoke test"
command -v perf >/dev/null 2>&1 || skip "stock perf is not installed"
scratch script-exit
export HOME=$tmp

perf record -q -e cpu-clock -o "$tmp/perf.data" -- sleep 0.05 >"$tmp/rec.err" 2>&1 ||
	fail "stock perf record: $(head -3 "$tmp/rec.err")"
f=$tmp/perf.data
# the header's u64 at a byte offset
u64_at() { od -An -t u8 -j "$1" -N 8 "$f" | tr -d ' '; }
data_off=$(u64_at 40)
data_size=$(u64_at 48)
end=$((data_off + data_size))
[ "$(stat -c %s "$f")" -gt "$((end + 16))" ] || fail "recording has no feature sections"
cp /etc/passwd "$tmp/passwd"
: >"$tmp/empty"
head -c 50 "$f" >"$tmp/cut-header"
# halfway into the data: inside some record
head -c $((data_off + data_size / 2 + 3)) "$f" >"$tmp/cut-data"
# the feature table is there, the sections it points to are not
head -c $((end + 16)) "$f" >"$tmp/cut-features"

# "ARGS|our status, when it differs from perf's|perf's status then|why"; @ is the recording
n=0
while IFS='|' read -r args ours_known perf_known why; do
	[ -n "$args" ] || continue
	args=${args//@@/$tmp}
	args=${args//@/$f}
	# shellcheck disable=SC2086
	perf script $args </dev/null >"$tmp/p.out" 2>"$tmp/p.err"
	st_perf=$?
	# shellcheck disable=SC2086
	"$TEXTPOKE" script $args </dev/null >"$tmp/o.out" 2>"$tmp/o.err"
	st_ours=$?
	[ "$st_ours" = 0 ] && fail "script $args: we exit 0 ($(head -c 200 "$tmp/o.out"))"
	[ -s "$tmp/o.out" ] && fail "script $args: exit $st_ours with output: $(head -3 "$tmp/o.out")"
	if [ -n "$ours_known" ]; then
		[ "$st_ours" = "$ours_known" ] && [ "$st_perf" = "$perf_known" ] ||
			fail "script $args: we exit $st_ours (known: $ours_known), perf $st_perf (known: $perf_known)"
		echo "ok: $args: ours $st_ours, perf $st_perf, known: $why"
	else
		[ "$st_ours" = "$st_perf" ] ||
			fail "script $args: we exit $st_ours, stock perf $st_perf ($(head -1 "$tmp/p.err"))"
		echo "ok: $args: both exit $st_ours: $(head -1 "$tmp/o.err")"
	fi
	n=$((n + 1))
done <<'EOF'
-i @@/no-such-file|||
-i @@/passwd|||
-i @@/empty|||
-i @@/cut-header|||
-i @@/cut-data|||
-i @@/cut-features|255|0|perf drops feature sections past the end of the file, we refuse the file
-i @ -F bogus|||
-i @ -F ip,bogus|||
-i @ -F bogus:ip|||
-i @ -F ip,+sym|||
-i @ -F synth:bogus|||
-i @ -F synth:trace|||
-i @ -F synth:ip,+sym|||
-i @ -F ip,addr|||
-i @ -F +tod|||
-i @ --time abc|||
-i @ --time 5%/0|||
-i @ --time 1,2,3|||
EOF
[ "$n" -ge 18 ] || fail "only $n cases ran"
