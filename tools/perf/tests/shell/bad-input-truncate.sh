#!/bin/bash
# bad input: truncated perf.data files are refused with file, offset and record
# SPDX-License-Identifier: GPL-2.0-only
#
# Cuts real files (a stock perf record made now, corpus files in file, zstd
# and pipe mode) at every 8th byte up to 4 KiB and at ~200 offsets spread
# over the rest.  A file-mode file cut anywhere is broken: even a cut at a
# record boundary leaves less data than the header's data.size.  A pipe has
# no size, so a pipe-mode file cut exactly at a record boundary is a valid
# shorter stream: those cuts are skipped, every other one must fail.  A
# cut past the data section of a file-mode file only loses feature
# sections: a warning naming them is accepted there (see bi_expect_error).
# A cut inside the records must name the record it cuts as printed:
# "record at 0xOFF: header is cut off" inside its 8-byte header, "record
# at 0xOFF (type T NAME, size S)" inside its body, "NAME at 0xOFF" inside
# the payload that follows a pipe's TRACING_DATA or an AUXTRACE; the record
# is found with bi_records (awk over od), not with the reader.
# Mutation caught: the cut-off error naming the offset where the file ends
# instead of the record's start (record_error() given data->size).
. "$(dirname "$0")"/lib/bad-input.sh

bi_setup

inputs=("$BI_TMP/stock.data")
bi_record "$BI_TMP/stock.data" || { echo "perf record failed"; exit 1; }
for f in perf_data_converter/perf.data.ctx_switch_namespaces-4.14 \
	 perfparser/vector_static_gcc__perf.data.zstd perfparser/probe.data.stream; do
	[ -f "$TEXTPOKE_CORPUS/$f" ] && inputs+=("$TEXTPOKE_CORPUS/$f")
done

# cut_rec: the record a cut at $1 falls into, its index in rec_off[], or -1
# (no subshells: this runs for every cut)
cut_record() {
	local lo=0 hi=$((${#rec_off[@]} - 1)) mid

	cut_rec=-1
	((hi < 0 || $1 < rec_off[0])) && return
	while ((lo < hi)); do
		mid=$(((lo + hi + 1) / 2))
		if ((rec_off[mid] <= $1)); then lo=$mid; else hi=$((mid - 1)); fi
	done
	(($1 < rec_end[lo])) && cut_rec=$lo
}

cut_one() { # input offset what
	local damage= want= r o

	# a cut past the data section only loses feature sections
	((data_end && $2 >= data_end)) && damage=feature
	cut_record "$2"
	r=$cut_rec
	if ((r >= 0)); then
		o=${rec_off[r]}
		if (($2 < o + 8)); then
			printf -v want 'record at 0x%x: header is cut off' "$o"
		elif (($2 < o + rec_size[r])); then
			printf -v want 'record at 0x%x (type %d %s, size %d)' "$o" "${rec_type[r]}" \
				"${rec_name[r]}" "${rec_size[r]}"
		else
			printf -v want '%s at 0x%x' "${rec_name[r]}" "$o"
		fi
	fi
	head -c "$2" "$1" >"$BI_TMP/cut"
	bi_expect_error "$BI_TMP/cut" "$3" "$damage" "$want"
}

for in in "${inputs[@]}"; do
	bi_expect_ok "$in" || continue
	size=$(bi_size "$in")
	declare -A boundary=()
	data_end=0
	if ! bi_is_pipe "$in"; then
		data_end=$(($(bi_get "$in" 40 8) + $(bi_get "$in" 48 8)))
	fi
	if bi_is_pipe "$in"; then
		while read -r off _ _; do boundary[$off]=1; done < <(bi_records "$in")
		boundary[16]=1
	fi
	# every record's extent, its payload included
	rec_off=() rec_end=() rec_size=() rec_type=() rec_name=()
	declare -A type_name=()
	while read -r off rsize type; do
		skip=0
		if ((type == 71)) || { ((type == 66)) && bi_is_pipe "$in"; }; then
			((type == 71)) && skip=$(bi_get "$in" $((off + 8)) 8)
			((type == 66)) && skip=$(bi_get "$in" $((off + 8)) 4)
		fi
		rec_off+=("$off")
		rec_size+=("$rsize")
		rec_type+=("$type")
		[ -n "${type_name[$type]}" ] || type_name[$type]=$(bi_type_name "$type")
		rec_name+=("${type_name[$type]}")
		rec_end+=($((off + rsize + skip)))
	done < <(bi_records "$in")
	for ((off = 0; off < 4096 && off < size; off += BI_STRIDE)); do
		[ -n "${boundary[$off]}" ] && continue
		cut_one "$in" "$off" "$(basename "$in") cut at $off"
	done
	if ((size > 4096)); then
		for ((k = 0; k < BI_SPREAD; k++)); do
			off=$((4096 + k * (size - 4096) / BI_SPREAD + k % 7))
			((off >= size)) && continue
			[ -n "${boundary[$off]}" ] && continue
			cut_one "$in" "$off" "$(basename "$in") cut at $off"
		done
	fi
	# one byte short of the end
	if [ -z "${boundary[$((size - 1))]}" ]; then
		cut_one "$in" $((size - 1)) "$(basename "$in") cut at $((size - 1))"
	fi
	unset boundary
done
bi_finish
