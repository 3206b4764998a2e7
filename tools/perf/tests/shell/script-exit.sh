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
# A recording cut inside its data is not an error of that kind: as the
# README's Reliability section promises, we print every complete record
# before the cut, in time order, then the error naming the record the cut
# falls in, and exit 234.  That is checked at cuts chosen from the records
# (found by bi_records, awk over od, not our reader): inside the first
# sample (no sample to print), in the header of the middle sample, halfway
# into the data, inside the last sample (all but one).  The expected lines
# are stock perf script's on a well-formed copy that ends at the last
# complete record (data.size patched, no feature sections: ours ignores
# them on a cut file too), one per SAMPLE record bi_records finds there,
# so the check does not depend on where the cut falls against a
# FINISHED_ROUND.  Stock perf's status on
# the cut file itself is compared only where it reads zeros after the cut
# (the cut record and the next header end in the file's last page): where
# the cut record runs into the next page, perf's mmap reads past the end
# of the file and it dies of SIGBUS, so its status then is no oracle.
#
# Mutation caught: cmd_textpoke_script() returning 1 for every error
# (the old behaviour: 255 and 234 become 1); script__run() keeping
# -EINVAL for a file that does not open (234 instead of 255);
# perf_session__process_events() flushing the ordered records only when
# there was no error (the records after the last round are lost at a cut).

. "$(dirname "$0")/lib/common.sh"
. "$(dirname "$0")/lib/bad-input.sh"
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
[ "$n" -ge 17 ] || fail "only $n cases ran"

# the cut recordings: every record's offset, size and type
rec_off=() rec_size=() rec_type=()
while read -r o s t; do
	rec_off+=("$o") rec_size+=("$s") rec_type+=("$t")
done < <(bi_records "$f")
nrec=${#rec_off[@]}
samples=()
for ((i = 0; i < nrec; i++)); do
	[ "${rec_type[i]}" = 9 ] && samples+=("$i")
done
ns=${#samples[@]}
((ns >= 3)) || fail "the recording has $ns samples, the cuts need 3"
first=${samples[0]} middle=${samples[ns / 2]} last=${samples[ns - 1]}
cuts="$((rec_off[first] + 9)) $((rec_off[middle] + 3))"
cuts+=" $((data_off + data_size / 2 + 3)) $((rec_off[last] + rec_size[last] - 1))"
for cut in $cuts; do
	# the record the cut falls in, and the last complete one before it
	for ((r = 0; r < nrec - 1 && rec_off[r + 1] <= cut; r++)); do :; done
	o=${rec_off[r]}
	rend=$((o + rec_size[r]))
	((cut > o && cut < rend)) || fail "cut at $cut is not inside record $r at $o"
	if ((cut < o + 8)); then
		want=$(printf 'record at 0x%x: header is cut off' "$o")
	else
		want=$(bi_record_at "$o" "${rec_type[r]}" "${rec_size[r]}")
	fi
	head -c "$cut" "$f" >"$tmp/cut"
	# the oracle's input: the records before the cut, as a whole file
	head -c "$o" "$f" >"$tmp/whole"
	bi_put "$tmp/whole" 48 8 "$(bi_hex $((o - data_off)) 8)"
	bi_put "$tmp/whole" 72 32 "$(bi_hex 0 32)"
	perf script -i "$tmp/whole" </dev/null >"$tmp/p.out" 2>"$tmp/p.err" ||
		fail "stock perf script on the records before $cut: $(head -3 "$tmp/p.err")"
	before=0
	for ((i = 0; i < r; i++)); do [ "${rec_type[i]}" = 9 ] && before=$((before + 1)); done
	[ "$(wc -l <"$tmp/p.out")" = "$before" ] ||
		fail "stock perf script prints $(wc -l <"$tmp/p.out") lines of $before samples before $cut"
	perf script -i "$tmp/cut" </dev/null >/dev/null 2>"$tmp/p.err"
	st_perf=$?
	"$TEXTPOKE" script -i "$tmp/cut" </dev/null >"$tmp/o.out" 2>"$tmp/o.err"
	st_ours=$?
	what="script -i cut (at $cut, in the $(bi_type_name "${rec_type[r]}") at $o)"
	[ "$st_ours" = 234 ] || fail "$what: we exit $st_ours, not 234: $(tail -2 "$tmp/o.err")"
	grep -qF "$want" "$tmp/o.err" || fail "$what: stderr lacks \"$want\": $(tail -2 "$tmp/o.err")"
	diff "$tmp/p.out" "$tmp/o.out" >"$tmp/diff" ||
		fail "$what: lines differ from stock perf's on the records before the cut:
$(head -20 "$tmp/diff")"
	# perf maps the file page by page: zeros after the cut up to the page end
	page_end=$(((cut + 4095) / 4096 * 4096))
	if ((rend + 8 <= page_end)); then
		[ "$st_perf" = 234 ] ||
			fail "$what: stock perf exits $st_perf, not 234: $(tail -1 "$tmp/p.err")"
		perf_says="perf $st_perf"
	else
		perf_says="perf reads past the file's last page ($st_perf)"
	fi
	echo "ok: $what: $(wc -l <"$tmp/o.out") lines as perf's before the cut, ours 234, $perf_says"
done
