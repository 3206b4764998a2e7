#!/bin/bash
# bad input: hostile header, attr and feature section sizes are refused
# SPDX-License-Identifier: GPL-2.0-only
#
# In file-mode files (a stock perf record made now and a corpus file), sets
# header fields (header size, attr_size, the attrs and data sections), an
# attr's size and id section, and feature table entries to absurd or huge
# values.  Each must be refused without a huge allocation (ulimit -v); a
# broken feature section may instead be skipped with a warning naming it,
# as perf does (see bi_expect_error).  Header size and attr.size are
# checked because stock perf 6.1 refuses such files too.
. "$(dirname "$0")"/lib/bad-input.sh

bi_setup

inputs=("$BI_TMP/stock.data")
bi_record "$BI_TMP/stock.data" || { echo "perf record failed"; exit 1; }
f=perf_data_converter/perf.data.ctx_switch_namespaces-4.14
[ -f "$TEXTPOKE_CORPUS/$f" ] && inputs+=("$TEXTPOKE_CORPUS/$f")

# corrupt INPUT OFF BYTES HEX WHAT [feature]
corrupt() {
	cp "$1" "$BI_TMP/bad"
	bi_put "$BI_TMP/bad" "$2" "$3" "$4"
	bi_expect_error "$BI_TMP/bad" "$5" "$6"
}

HUGE=7fffffffffffff00
ALL=ffffffffffffffff

for in in "${inputs[@]}"; do
	bi_expect_ok "$in" || continue
	name=$(basename "$in")
	size=$(bi_size "$in")
	attr_size=$(bi_get "$in" 16 8)
	attrs_off=$(bi_get "$in" 24 8)
	attrs_size=$(bi_get "$in" 32 8)
	data_off=$(bi_get "$in" 40 8)
	data_size=$(bi_get "$in" 48 8)

	corrupt "$in" 8 8 0000000000001000 "$name: header size 4096"
	corrupt "$in" 8 8 $ALL "$name: header size ~0"
	corrupt "$in" 16 8 0000000000000000 "$name: attr_size 0"
	corrupt "$in" 16 8 0000000000000008 "$name: attr_size 8"
	corrupt "$in" 16 8 00000000ffffffff "$name: attr_size 2^32-1"
	corrupt "$in" 16 8 $HUGE "$name: attr_size huge"
	corrupt "$in" 24 8 $HUGE "$name: attrs offset huge"
	corrupt "$in" 32 8 $HUGE "$name: attrs size huge"
	corrupt "$in" 40 8 "$(bi_hex $((size + 8)) 8)" "$name: data offset past the end"
	corrupt "$in" 40 8 $HUGE "$name: data offset huge"
	corrupt "$in" 48 8 $HUGE "$name: data size huge"
	corrupt "$in" 48 8 "$(bi_hex $((size - data_off + 8)) 8)" "$name: data size past the end"

	# the first attr: its size, and its ids section {offset, size}
	ids=$((attrs_off + attr_size - 16))
	corrupt "$in" $((attrs_off + 4)) 4 ffffffff "$name: attr.size 2^32-1"
	corrupt "$in" "$ids" 8 $HUGE "$name: attr ids offset huge"
	corrupt "$in" $((ids + 8)) 8 $HUGE "$name: attr ids size huge"
	corrupt "$in" $((ids + 8)) 8 "$(bi_hex $((size + 64)) 8)" "$name: attr ids past the end"

	# feature table at data.offset + data.size: first and last entries
	feat=$((data_off + data_size))
	nfeat=0
	for w in 0 1 2 3; do
		bits=$(bi_get "$in" $((72 + 8 * w)) 8)
		# popcount of a u64 printed in decimal (awk keeps 53 bits exactly;
		# feature bits live in the first word)
		nfeat=$((nfeat + $(awk -v v="$bits" 'BEGIN { n = 0; while (v > 0) { n += v % 2; v = int(v / 2) } print n }')))
	done
	if ((nfeat == 0)); then
		bi_fail "$name: no features"
		continue
	fi
	last=$((feat + 16 * (nfeat - 1)))
	for e in $feat $last; do
		corrupt "$in" "$e" 8 $HUGE "$name: feature entry at $e offset huge" feature
		corrupt "$in" $((e + 8)) 8 $HUGE "$name: feature entry at $e size huge" feature
		corrupt "$in" $((e + 8)) 8 "$(bi_hex $((size + 8)) 8)" \
			"$name: feature entry at $e past the end" feature
	done
done
bi_finish
