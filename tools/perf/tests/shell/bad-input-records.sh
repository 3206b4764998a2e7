#!/bin/bash
# bad input: records with a hostile size are refused with file, offset and record
# SPDX-License-Identifier: GPL-2.0-only
#
# In real files (a stock perf record made now, corpus files in file and pipe
# mode), sets the size of chosen records (first, second, middle, last, the
# first SAMPLE, MMAP and COMM) to 0, to a size that is not a multiple of 8,
# to a SAMPLE too short for its sample_type, and the last records' sizes to
# point past the end of the file.  Each refusal must print the record as
# "record at 0xOFF (type T NAME, size S)" with the damaged size, the offset
# and type found by bi_records, not by the reader.  Records perf's tools
# write (types 64 and up) need not be 8-byte aligned (COMPRESSED is not):
# one of those with a wrong size of at least 8 may be taken at its word,
# so the refusal may instead name the record that size leads to, read from
# the damaged file.
# The type of a record is also set to numbers no writer uses (0, 300,
# 5242881: refused) and to 200 (skipped as a newer perf's, said).
# Mutations caught: the record error printing the type number without its
# name (record_error() given "?" for perf_event__name()); every unknown
# type skipped (record_type_may_be_newer() returning true).
. "$(dirname "$0")"/lib/bad-input.sh

bi_setup

inputs=("$BI_TMP/stock.data")
bi_record "$BI_TMP/stock.data" || { echo "perf record failed"; exit 1; }
for f in perf_data_converter/perf.data.ctx_switch_namespaces-4.14 perfparser/probe.data.stream; do
	[ -f "$TEXTPOKE_CORPUS/$f" ] && inputs+=("$TEXTPOKE_CORPUS/$f")
done

# corrupt_size INPUT OFF NEWSIZE WHAT: the record at OFF (type $type) gets NEWSIZE
corrupt_size() {
	local want next

	cp "$1" "$BI_TMP/bad"
	bi_put "$BI_TMP/bad" $(($2 + 6)) 2 "$(bi_hex "$3" 2)"
	want=$(bi_record_at "$2" "$type" "$3")
	if ((type >= 64 && $3 >= 8)); then
		next=$(($2 + $3))
		# a pipe's TRACING_DATA is followed by its payload
		((type == 66)) && bi_is_pipe "$1" && next=$((next + $(bi_get "$1" $(($2 + 8)) 4)))
		if ((next + 8 <= size)); then
			local nrec
			nrec=$(bi_record_in "$BI_TMP/bad" "$next")
			want+=$'\n'$nrec
			# a type the reader does not know is skipped, as a newer
			# perf's would be: where the misreading then ends depends on
			# the bytes, but the skip is said
			[[ $nrec == *" UNKNOWN, size "* ]] && want+=$'\n'"records of unknown type skipped"
		fi
	fi
	bi_expect_error "$BI_TMP/bad" "$4" "" "$want"
}

for in in "${inputs[@]}"; do
	bi_expect_ok "$in" || continue
	name=$(basename "$in")
	size=$(bi_size "$in")
	mapfile -t recs < <(bi_records "$in")
	n=${#recs[@]}
	if ((n < 4)); then
		bi_fail "$name: only $n records found"
		continue
	fi
	picks=(0 1 $((n / 2)) $((n - 1)))
	first_sample="" first_mmap="" first_comm=""
	for ((i = 0; i < n; i++)); do
		read -r _ _ type <<<"${recs[$i]}"
		case $type in
		9) [ -z "$first_sample" ] && first_sample=$i ;;
		1 | 10) [ -z "$first_mmap" ] && first_mmap=$i ;;
		3) [ -z "$first_comm" ] && first_comm=$i ;;
		esac
	done
	picks+=($first_sample $first_mmap $first_comm)
	declare -A done_pick=()
	for i in "${picks[@]}"; do
		[ -n "${done_pick[$i]}" ] && continue
		done_pick[$i]=1
		read -r off rsize type <<<"${recs[$i]}"
		# COMPRESSED records are not padded to 8 bytes: leave them be
		((type == 81)) && continue
		where="$name record $i (type $type) at $off"
		corrupt_size "$in" "$off" 0 "$where: size 0"
		corrupt_size "$in" "$off" 4 "$where: size 4"
		corrupt_size "$in" "$off" $((rsize + 4)) "$where: size $((rsize + 4))"
		if ((rsize > 16)); then
			corrupt_size "$in" "$off" $((rsize - 4)) "$where: size $((rsize - 4))"
		fi
		if ((type == 9 && rsize > 16)); then
			corrupt_size "$in" "$off" 16 "$where: SAMPLE of 16 bytes"
		fi
		# past the end of the file
		if ((off + 65528 > size)); then
			corrupt_size "$in" "$off" 65528 "$where: size 65528 past the end ($size)"
		fi
	done
	# a type number: one no kernel, perf or simpleperf writes is damage
	# (refused, naming the record); an unknown one where a newer perf's
	# would be is skipped, with a warning
	read -r off rsize type <<<"${recs[1]}"
	for t in 0 300 5242881; do
		cp "$in" "$BI_TMP/bad"
		bi_put "$BI_TMP/bad" "$off" 4 "$(bi_hex $t 4)"
		bi_expect_error "$BI_TMP/bad" "$name record 1 at $off: type $t" "" \
			"$(bi_record_at "$off" $t "$rsize")"
	done
	cp "$in" "$BI_TMP/bad"
	bi_put "$BI_TMP/bad" "$off" 4 "$(bi_hex 200 4)"
	if ! (cd "$BI_TMP/cwd" &&
		"$TEXTPOKE" script "${BI_SCRIPT_OPTS[@]}" -i "$BI_TMP/bad" >/dev/null 2>"$BI_TMP/err"); then
		bi_fail "$name record 1 at $off: type 200 not skipped: $(head -2 "$BI_TMP/err")"
	elif ! grep -q "records\? of unknown type skipped" "$BI_TMP/err"; then
		bi_fail "$name record 1 at $off: type 200 skipped without a word"
	fi
	unset recs picks done_pick
done
bi_finish
