#!/bin/bash
# pt-decode: truncated PT recordings and hostile AUX data: errors with position, no crash
# SPDX-License-Identifier: GPL-2.0-only
#
# The corpus's two Intel PT recordings (file and pipe), through
# `script --itrace=be`:
#  - cut at record boundaries (found with bi_records, awk over od): every
#    8th, and those at and after every AUX-related record; and at 40
#    offsets spread over each file: exit 234 or 255 (perf script's statuses
#    for -EINVAL and -1) naming the file and an
#    offset, or, for a pipe cut exactly at a record boundary (a valid
#    shorter stream), exit 0; never a signal, a hang or a sanitizer report;
#  - the trace bytes after each AUXTRACE replaced: all random, random
#    after the first PSB+, every 61st byte flipped: exit 0, and decode
#    errors that name the trace offset and the AUXTRACE record's offset
#    (that of the file, found by bi_records);
#  - AUXTRACE sizes past the end of the file or stream (2^40, 1 TiB - 8,
#    1.25 GiB, to just past the end): a refusal naming the record, no huge
#    allocation (ulimit -v 1 GiB where the build allows it); a size cut
#    to half: exit 0 or a refusal, no crash;
#  - AUXTRACE_INFO naming another PMU type, or another trace type: a
#    warning that the trace is not decoded, exit 0.
# Random bytes come from perl's generator with a fixed seed.
#
# Mutation caught: allocating an AUXTRACE's claimed size when the record
# arrives (auxtrace.c: malloc(r->size) in auxtrace__add_buffer): in the
# pipe, 1.25 GiB under the 1 GiB cap is then an allocation error, not the
# session's "payload cut off by the end of the stream" naming the record.

. "$(dirname "$0")"/lib/bad-input.sh

bi_setup
c=$TEXTPOKE_CORPUS/perf_data_converter
f_file=$c/perf.data.intel_pt-4.14
f_pipe=$c/perf.data.piped.intel_pt-4.14
[ -r "$f_file" ] || bi_skip "no corpus file $f_file"
[ -r "$f_pipe" ] || bi_skip "no corpus file $f_pipe"
command -v perl >/dev/null 2>&1 || bi_skip "perl is not installed (random bytes)"
"$TEXTPOKE" version --build-options | grep -q 'libipt: \[ on' || bi_skip "built without libipt"

# run FILE: $status, $err (stderr) and $BI_TMP/out
run() {
	(
		cd "$BI_TMP/cwd" || exit 99
		[ "$BI_ULIMIT" = 1 ] && ulimit -v $BI_VMEM_KB
		exec timeout 30 "$TEXTPOKE" script -i "$1" --itrace=be >"$BI_TMP/out" 2>"$BI_TMP/err"
	)
	status=$?
	err=$(<"$BI_TMP/err")
}

# the common checks of a run: no signal, hang or sanitizer report (a
# refusal is perf script's exit status: 234 for -EINVAL, 255 for -1)
refusal() {
	[ "$status" = 234 ] || [ "$status" = 255 ]
}

sane() {
	if [ "$status" -ge 124 ] && ! refusal; then
		bi_fail "$1: exit $status (signal or timeout): ${err:0:300}"
		return 1
	fi
	if [[ $err =~ AddressSanitizer|runtime\ error:|LeakSanitizer ]]; then
		bi_fail "$1: sanitizer report: ${err:0:300}"
		return 1
	fi
	return 0
}

refused() {
	sane "$1" || return
	BI_RUNS=$((BI_RUNS + 1))
	if ! refusal || [[ $err != *"$2"* ]] || ! [[ $err =~ 0x[0-9a-f]+ ]]; then
		bi_fail "$1: exit $status, expected 234 or 255 naming $2 and an offset: ${err:0:300}"
	fi
}

# --- truncations -----------------------------------------------------------
for f in "$f_file" "$f_pipe"; do
	size=$(bi_size "$f")
	mapfile -t recs < <(bi_records "$f")
	[ ${#recs[@]} -gt 10 ] || bi_fail "$f: bi_records found ${#recs[@]} records"
	cuts=()
	declare -A boundary=()
	# every 8th record boundary, and every one at an AUX-related record
	# (AUX, ITRACE_START, AUXTRACE_INFO, AUXTRACE,
	# TIME_CONV) and the one after it: all of them take over a minute
	n=0 after=0
	for r in "${recs[@]}"; do
		read -r off _ type <<<"$r"
		n=$((n + 1))
		case $type in 11 | 12 | 70 | 71 | 79) aux_rec=1 ;; *) aux_rec=0 ;; esac
		if [ "$off" -gt 16 ] && { [ $((n % 8)) = 0 ] || [ $aux_rec = 1 ] || [ $after = 1 ]; }; then
			cuts+=("$off")
			boundary[$off]=1
		fi
		after=$aux_rec
	done
	for ((i = 1; i <= 40; i++)); do
		cuts+=($((size * i / 41 + i)))
	done
	for cut in "${cuts[@]}"; do
		head -c "$cut" "$f" >"$BI_TMP/cut"
		run "$BI_TMP/cut"
		sane "${f##*/} cut at $cut" || continue
		BI_RUNS=$((BI_RUNS + 1))
		if bi_is_pipe "$f" && [ -n "${boundary[$cut]}" ]; then
			[ "$status" = 0 ] ||
				bi_fail "${f##*/} cut at record boundary $cut: exit $status: ${err:0:200}"
		elif ! refusal || [[ $err != *"$BI_TMP/cut"* ]] || ! [[ $err =~ 0x[0-9a-f]+ ]]; then
			bi_fail "${f##*/} cut at $cut: exit $status, expected 234 or 255 naming file and offset: ${err:0:200}"
		fi
	done
	unset boundary
done

# --- hostile trace bytes -----------------------------------------------------
# the AUXTRACE records of the file: "offset size" of each payload
mapfile -t aux < <(bi_records "$f_file" | awk '$3 == 71 { print $1 }')
[ ${#aux[@]} = 2 ] || bi_fail "$f_file: bi_records found ${#aux[@]} AUXTRACE records, INDEX.md's walker 2"

# hostile MODE: write the copy's payloads
hostile() {
	local mode=$1 a len start

	cp "$f_file" "$BI_TMP/h"
	for a in "${aux[@]}"; do
		len=$(bi_get "$f_file" $((a + 8)) 8)
		start=$((a + 48))
		case $mode in
		random) skip=0 ;;
		after-psb) skip=96 ;;
		flip) skip=-1 ;;
		esac
		if [ "$skip" -ge 0 ]; then
			perl -e 'srand($ARGV[0]); print pack("C*", map { int rand 256 } 1..$ARGV[1])' \
				"$a" $((len - skip)) |
				dd of="$BI_TMP/h" bs=1 seek=$((start + skip)) conv=notrunc status=none
		else
			dd if="$f_file" bs=1 skip="$start" count="$len" status=none |
				perl -e 'local $/; $_ = <STDIN>; for ($i = 0; $i < length; $i += 61) {
					substr($_, $i, 1) = chr(ord(substr($_, $i, 1)) ^ 0x55) } print' |
				dd of="$BI_TMP/h" bs=1 seek="$start" conv=notrunc status=none
		fi
	done
}

for mode in random after-psb flip; do
	hostile $mode
	run "$BI_TMP/h"
	sane "trace bytes $mode" || continue
	BI_RUNS=$((BI_RUNS + 1))
	if [ "$status" != 0 ]; then
		bi_fail "trace bytes $mode: exit $status: ${err:0:300}"
		continue
	fi
	for a in "${aux[@]}"; do
		grep -q "instruction trace error .*AUXTRACE at $(printf '%#x' "$a")" "$BI_TMP/out" ||
			bi_fail "trace bytes $mode: no decode error naming the AUXTRACE at $(printf '%#x' "$a")"
	done
	echo "trace bytes $mode: $(grep -c 'instruction trace error' "$BI_TMP/out") decode errors"
done

# sizes past the end, in the file (refused by the text image's pass and
# the listing's alike) and in the pipe (the decoder gets the record first)
a=${aux[0]}
pa=$(bi_records "$f_pipe" | awk '$3 == 71 { print $1; exit }')
for big in 0x10000000000 0xfffffffff8 0x50000000 $(($(bi_size "$f_file") - a)); do
	cp "$f_file" "$BI_TMP/h"
	bi_put "$BI_TMP/h" $((a + 8)) 8 "$(bi_hex $((big)) 8)"
	run "$BI_TMP/h"
	# the index names the record (its HEADER_AUXTRACE entry), else the session does
	refused "AUXTRACE size $big" "$(printf '%#x' "$a")"
	[[ $err == *AUXTRACE*"past the end"* ]] ||
		bi_fail "AUXTRACE size $big: no AUXTRACE running past the end in: ${err:0:300}"
	cp "$f_pipe" "$BI_TMP/h"
	bi_put "$BI_TMP/h" $((pa + 8)) 8 "$(bi_hex $((big)) 8)"
	run "$BI_TMP/h"
	if ((big > 1 << 31)); then
		want="AUXTRACE at $(printf '%#x' "$pa") has more trace than the decoder holds"
	else
		want="record at $(printf '%#x' "$pa") (type 71 AUXTRACE, size 48) has a payload cut off by the end of the stream"
	fi
	refused "pipe AUXTRACE size $big" "$want"
done
cp "$f_file" "$BI_TMP/h"
len=$(bi_get "$f_file" $((a + 8)) 8)
bi_put "$BI_TMP/h" $((a + 8)) 8 "$(bi_hex $((len / 2)) 8)"
run "$BI_TMP/h"
sane "AUXTRACE size halved" && BI_RUNS=$((BI_RUNS + 1))

# AUXTRACE_INFO: its record, then priv[0] (the PMU type) and the trace type
info=$(bi_records "$f_file" | awk '$3 == 70 { print $1; exit }')
cp "$f_file" "$BI_TMP/h"
bi_put "$BI_TMP/h" $((info + 16)) 8 "$(bi_hex 99 8)"
run "$BI_TMP/h"
if sane "AUXTRACE_INFO pmu type 99"; then
	BI_RUNS=$((BI_RUNS + 1))
	[ "$status" = 0 ] && [[ $err == *"PMU type 99"*"not decoded"* ]] ||
		bi_fail "AUXTRACE_INFO pmu type 99: exit $status: ${err:0:300}"
fi
cp "$f_file" "$BI_TMP/h"
bi_put "$BI_TMP/h" $((info + 8)) 4 "$(bi_hex 3 4)"
run "$BI_TMP/h"
if sane "AUXTRACE_INFO type 3"; then
	BI_RUNS=$((BI_RUNS + 1))
	[ "$status" = 0 ] && [[ $err == *"not of type intel_pt"* ]] &&
		[[ $err == *"not decoded"* ]] ||
		bi_fail "AUXTRACE_INFO type 3: exit $status: ${err:0:300}"
fi

bi_finish
