#!/bin/bash
# salvage: a recording cut off mid-record gives every complete record before the cut, then the error
# SPDX-License-Identifier: GPL-2.0-only
#
# A killed recorder or a full disk leaves a perf.data that ends inside a
# record.  Stock perf 6.1 prints nothing of such a file (its error, exit
# 234); script, report and inject give what is whole.  For cuts at three
# places of a file-mode recording and of a pipe, each a few bytes into a
# record, the oracle is stock perf report -D of the *uncut* recording:
# its SAMPLE records that end at or before the cut, as (time, ip), and
# the offset of the first record the cut runs through.  Checked:
# - script --ns -F time,ip prints exactly those samples, in time order,
#   exits 234 (perf script's status for a cut file), and its last stderr
#   line names the file and that offset;
# - report --json counts exactly those samples, says "truncated", exits 1;
# - inject writes a recording of them that stock perf reads (its
#   report -D counts them), exits 1.
#
# The time-order check holds where stock perf finds the uncut recording
# in order; a recording made under load may not be (its buffers read
# after a later round was flushed), which stock perf says, and then the
# samples are compared as a set only.
# Mutation caught: perf_session__process_events() flushing the ordered
# queue only when the input ended cleanly (the "|| session->truncated"
# dropped): the samples still queued at the cut are missing.

. "$(dirname "$0")/lib/report-common.sh"
need_perf_root
command -v python3 >/dev/null 2>&1 || skip "python3 is not installed (reads report --json)"
scratch salvage

build_report_workload "$tmp/work" || { cat "$tmp/gcc.err"; fail "gcc"; }
# both CPUs busy, so that the per-CPU buffers interleave in the file
perf_record "$tmp/file.data" -e cpu-clock -c 20000 -- sh -c "'$tmp/work' 1 & '$tmp/work' 1; wait"
HOME=$tmp perf record -q -o - -e cpu-clock -c 20000 -- sh -c "'$tmp/work' 1 & '$tmp/work' 1; wait" \
	>"$tmp/pipe.data" 2>/dev/null || fail "perf record -o -"

# records NAME FILE: $tmp/NAME.records, "offset size type" of every record
# in file order, walked here from the record headers (stock perf's pipe
# offsets are not the stream's: they leave out the header and the first
# attr); $tmp/NAME.samples, "offset size time ip" of each SAMPLE, its time
# and ip from stock perf report -D, matched to the walk in file order
records() {
	python3 - "$2" >"$tmp/$1.records" <<'PY' || fail "$1: cannot walk the records"
import struct, sys
d = open(sys.argv[1], 'rb').read()
if d[8:16] == struct.pack('<Q', 16):
    off, end = 16, len(d)
else:
    off, size = struct.unpack_from('<QQ', d, 40)
    end = off + size
while off + 8 <= min(end, len(d)):
    t, m, s = struct.unpack_from('<IHH', d, off)
    if s < 8:
        sys.exit('bad record size at %#x' % off)
    print(off, s, t)
    if t == 71:  # AUXTRACE: the trace follows the record
        s += struct.unpack_from('<Q', d, off + 8)[0]
    off += s
PY
	HOME=$tmp perf report -D -i "$2" 2>/dev/null |
		awk '# the offset is hex: "0x.." + 0 is 0 to gawk, whatever mawk makes of it
		function hex(s, i, n) {
			n = 0
			for (i = 3; i <= length(s); i++)
				n = n * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
			return n
		}
		/^[0-9]+ 0x[0-9a-f]+ \[0x[0-9a-f]+\]: PERF_RECORD_SAMPLE/ {
			for (i = 5; i < NF; i++)
				if ($i ~ /^-?[0-9]+\/-?[0-9]+:$/) { ip = $(i + 1); break }
			print hex($2), $1, ip
		}' | sort -n -k1,1 >"$tmp/$1.perf"
	awk '$3 == 9 { print $1, $2 }' "$tmp/$1.records" | paste -d ' ' - "$tmp/$1.perf" |
		awk 'NF != 5 { exit 1 } { print $1, $2, $4, $5 }' >"$tmp/$1.samples" ||
		fail "$1: stock perf report -D lists $(wc -l <"$tmp/$1.perf") samples, the file has $(awk '$3 == 9' "$tmp/$1.records" | wc -l)"
	[ -s "$tmp/$1.samples" ] || fail "$1: no samples"
}

# check NAME BASE CUT STDIN: the three commands on $tmp/BASE.data cut at byte CUT
check() {
	local name=$1 base=$2 cut=$3 stdin=$4 file=$tmp/$2.data first want got st in
	head -c "$cut" "$file" >"$tmp/$name.cut"
	first=$(awk -v c="$cut" '$1 + $2 > c { printf "0x%x", $1; exit }' "$tmp/$base.records")
	[ -n "$first" ] || fail "$name: no record runs through byte $cut"
	awk -v c="$cut" '$1 + $2 <= c { printf "%d.%09d %s\n", int($3 / 1e9), $3 % 1e9, $4 }' \
		"$tmp/$base.samples" | sed 's/ 0x/ /' | sort >"$tmp/$name.want"
	want=$(wc -l <"$tmp/$name.want")
	[ "$want" -gt 0 ] || fail "$name: no complete sample before byte $cut"
	in="-i $tmp/$name.cut"
	[ "$stdin" = 1 ] && in="-i -"

	# script
	# shellcheck disable=SC2086
	"$TEXTPOKE" script $in --ns -F time,ip <"$tmp/$name.cut" >"$tmp/$name.script" \
		2>"$tmp/$name.script.err"
	st=$?
	[ "$st" = 234 ] || fail "$name: script exit $st, not 234 (stock perf's)"
	tail -1 "$tmp/$name.script.err" | grep -q "^error: .*: record at $first" ||
		fail "$name: script's last stderr line does not name the record at $first: $(tail -1 "$tmp/$name.script.err")"
	awk '{ sub(/:$/, "", $1); print $1, $2 }' "$tmp/$name.script" >"$tmp/$name.got"
	# in time order, unless the stream itself delivered a sample after
	# its time was flushed, which stock perf says of the uncut recording
	if [ -s "$tmp/$base.unordered" ]; then
		echo "note: $name: stock perf: $(cat "$tmp/$base.unordered"): order not checked"
	else
		# by the time alone: two CPUs' samples may share a time, in either ip order
		if ! sort -c -s -k1,1n "$tmp/$name.got" 2>"$tmp/$name.order"; then
			# the line sort names and the one before it, for the record
			l=$(grep -o ':[0-9]*:' "$tmp/$name.order" | head -1 | tr -d :)
			fail "$name: script's samples are not in time order at line $l:" \
				"$(sed -n "$((l - 1)),${l}p" "$tmp/$name.got" | tr '\n' '|')"
		fi
	fi
	sort "$tmp/$name.got" | cmp -s - "$tmp/$name.want" || {
		diff <(sort "$tmp/$name.got") "$tmp/$name.want" | head -5
		fail "$name: script printed $(wc -l <"$tmp/$name.got") samples, not the $want complete ones"
	}

	# report
	# shellcheck disable=SC2086
	"$TEXTPOKE" report $in --json <"$tmp/$name.cut" >"$tmp/$name.json" 2>"$tmp/$name.report.err"
	st=$?
	[ "$st" = 1 ] || fail "$name: report exit $st, not 1"
	tail -1 "$tmp/$name.report.err" | grep -q "^error: .*: record at $first" ||
		fail "$name: report's last stderr line: $(tail -1 "$tmp/$name.report.err")"
	got=$(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
c = d["changes"]
if c is not None and not c["consistency"]["truncated"]:
    sys.exit("changes.consistency.truncated is false")
print(sum(e["nr_samples"] for e in d["profile"]))' "$tmp/$name.json") ||
		fail "$name: report --json: $got"
	[ "$got" = "$want" ] || fail "$name: report counts $got samples, not $want"

	# inject
	# shellcheck disable=SC2086
	"$TEXTPOKE" inject $in -o "$tmp/$name.inj" <"$tmp/$name.cut" 2>"$tmp/$name.inject.err"
	st=$?
	[ "$st" = 1 ] || fail "$name: inject exit $st, not 1"
	grep -q "record at $first" "$tmp/$name.inject.err" ||
		fail "$name: inject does not name the record at $first: $(tail -1 "$tmp/$name.inject.err")"
	got=$(HOME=$tmp perf report -D -i "$tmp/$name.inj" 2>/dev/null | grep -c ': PERF_RECORD_SAMPLE')
	[ "$got" = "$want" ] || fail "$name: stock perf reads $got samples in inject's output, not $want"
	echo "ok: $name: cut at $cut (in the record at $first): $want samples by script, report, inject"
}

records file "$tmp/file.data"
records pipe "$tmp/pipe.data"
# under load a CPU's buffer may be read after a later round was flushed:
# stock perf then warns "N out of order events recorded" (its own count,
# not ours), and no reader can print that recording in time order
for mode in file pipe; do
	HOME=$tmp perf report --stdio -i - <"$tmp/$mode.data" 2>&1 >/dev/null |
		grep -o '[0-9]* out of order events recorded' >"$tmp/$mode.unordered"
done
for part in 3 6 9; do
	for mode in file pipe; do
		# a few bytes into a record part/10 of the way through the records
		n=$(wc -l <"$tmp/$mode.records")
		cut=$(awk -v c=$((n * part / 10)) 'NR > c && $2 > 8 { print $1 + 5; exit }' \
			"$tmp/$mode.records")
		[ -n "$cut" ] || fail "$mode: no record past $((part * 10))% of them"
		check "$mode-$part" "$mode" "$cut" $([ $mode = pipe ] && echo 1 || echo 0)
	done
done

# stock perf 6.1 on the same cut file: nothing printed (named, not checked)
n=$(HOME=$tmp perf script -i "$tmp/file-6.cut" 2>/dev/null | wc -l)
echo "stock perf script prints $n lines of file-6.cut; ours $(wc -l <"$tmp/file-6.script")"
exit 0
