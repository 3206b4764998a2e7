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
. "$(dirname "$0")"/lib/bad-input.sh

bi_setup

inputs=("$BI_TMP/stock.data")
bi_record "$BI_TMP/stock.data" || { echo "perf record failed"; exit 1; }
for f in perf_data_converter/perf.data.ctx_switch_namespaces-4.14 \
	 perfparser/vector_static_gcc__perf.data.zstd perfparser/probe.data.stream; do
	[ -f "$TEXTPOKE_CORPUS/$f" ] && inputs+=("$TEXTPOKE_CORPUS/$f")
done

cut_one() { # input offset what
	local damage=

	# a cut past the data section only loses feature sections
	((data_end && $2 >= data_end)) && damage=feature
	head -c "$2" "$1" >"$BI_TMP/cut"
	bi_expect_error "$BI_TMP/cut" "$3" $damage
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
