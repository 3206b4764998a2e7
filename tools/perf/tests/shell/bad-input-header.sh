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
# checked because stock perf 6.1 refuses such files too.  Each refusal
# must name the damaged field with its file offset as printed ("attr_size
# 8 at 0x10", "attr 0 at 0x78: id array", "in the table at 0xda90"), or,
# when a data size runs into the feature table, the record read there
# ("record at 0xda90 (type ..."), offsets computed here from the header.
# Mutation caught: a header error naming the wrong field offset (attrs
# size reported at 0x10).
. "$(dirname "$0")"/lib/bad-input.sh

bi_setup

inputs=("$BI_TMP/stock.data")
bi_record "$BI_TMP/stock.data" || { echo "perf record failed"; exit 1; }
f=perf_data_converter/perf.data.ctx_switch_namespaces-4.14
[ -f "$TEXTPOKE_CORPUS/$f" ] && inputs+=("$TEXTPOKE_CORPUS/$f")

# corrupt INPUT OFF BYTES HEX WHAT WANT [feature]
corrupt() {
	cp "$1" "$BI_TMP/bad"
	bi_put "$BI_TMP/bad" "$2" "$3" "$4"
	bi_expect_error "$BI_TMP/bad" "$5" "$7" "$6"
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

	hx() { printf '0x%x' "$1"; }
	corrupt "$in" 8 8 0000000000001000 "$name: header size 4096" "header size 4096 at 0x8"
	corrupt "$in" 8 8 $ALL "$name: header size ~0" "header size 18446744073709551615 at 0x8"
	corrupt "$in" 16 8 0000000000000000 "$name: attr_size 0" "attr_size 0 at 0x10"
	corrupt "$in" 16 8 0000000000000008 "$name: attr_size 8" "attr_size 8 at 0x10"
	corrupt "$in" 16 8 00000000ffffffff "$name: attr_size 2^32-1" "attr_size 4294967295 at 0x10"
	corrupt "$in" 16 8 $HUGE "$name: attr_size huge" "attr_size $((0x$HUGE)) at 0x10"
	corrupt "$in" 24 8 $HUGE "$name: attrs offset huge" \
		"attrs section [0x$HUGE, +$(hx "$attrs_size")) at 0x18"
	# not a multiple of attr_size, or (when it is) past the end
	corrupt "$in" 32 8 $HUGE "$name: attrs size huge" "attrs section size 0x$HUGE at 0x20
attrs section [$(hx "$attrs_off"), +0x$HUGE) at 0x18"
	corrupt "$in" 40 8 "$(bi_hex $((size + 8)) 8)" "$name: data offset past the end" \
		"data section offset $(hx $((size + 8))) at 0x28"
	corrupt "$in" 40 8 $HUGE "$name: data offset huge" "data section offset 0x$HUGE at 0x28"
	# the data section then runs into the feature table: its first entry read as a record
	ft=$((data_off + data_size))
	corrupt "$in" 48 8 $HUGE "$name: data size huge" "$(bi_record_in "$in" $ft)"
	corrupt "$in" 48 8 "$(bi_hex $((size - data_off + 8)) 8)" "$name: data size past the end" \
		"$(bi_record_in "$in" $ft)"

	# the first attr: its size, and its ids section {offset, size}
	ids=$((attrs_off + attr_size - 16))
	a0="attr 0 at $(hx "$attrs_off"):"
	corrupt "$in" $((attrs_off + 4)) 4 ffffffff "$name: attr.size 2^32-1" "$a0 attr.size 4294967295"
	corrupt "$in" "$ids" 8 $HUGE "$name: attr ids offset huge" "$a0 id array [0x$HUGE, +"
	corrupt "$in" $((ids + 8)) 8 $HUGE "$name: attr ids size huge" "$a0 id array ["
	corrupt "$in" $((ids + 8)) 8 "$(bi_hex $((size + 64)) 8)" "$name: attr ids past the end" \
		"$a0 id array ["

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
		at="in the table at $(hx "$e")"
		corrupt "$in" "$e" 8 $HUGE "$name: feature entry at $e offset huge" "$at" feature
		corrupt "$in" $((e + 8)) 8 $HUGE "$name: feature entry at $e size huge" "$at" feature
		corrupt "$in" $((e + 8)) 8 "$(bi_hex $((size + 8)) 8)" \
			"$name: feature entry at $e past the end" "$at" feature
	done
done
bi_finish
