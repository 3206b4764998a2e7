# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=bash
#
# Shared by tests/shell/bad-input-*.sh: make broken copies of real
# perf.data files and check that `$TEXTPOKE script -i FILE` refuses each
# one cleanly:
#   - exit status 234 or 255 (perf script's -EINVAL and -1): not 0, not a
#     signal, not an ASan/UBSan report
#   - stderr names the file, an offset (0x...) and a record type or section;
#     where the damage is at a known place the caller passes the text that
#     must be printed there, e.g. "record at 0x218 (type 1 MMAP, size 0)",
#     with offsets and types found by bi_records (awk over od, not the
#     reader under test)
#   - no huge allocation: it runs under ulimit -v of 1 GiB
#   - the input is unchanged (checksum before and after) and no file is
#     left in the working directory
#
# Sourcing scripts call bi_setup first; it exits 2 (skip) with the reason
# when something needed is missing.

BI_VMEM_KB=1048576

bi_skip() {
	echo "$1"
	exit 2
}

bi_setup() {
	[ -n "$TEXTPOKE" ] || bi_skip "TEXTPOKE is not set (run through perf-textpoke test)"
	if ! "$TEXTPOKE" script -h >/dev/null 2>&1; then
		bi_skip "script subcommand not built yet"
	fi
	command -v perf >/dev/null 2>&1 || bi_skip "stock perf not found"
	BI_TMP=$(mktemp -d /tmp/textpoke-bad-input.XXXXXX) || exit 1
	trap 'rm -rf "$BI_TMP"' EXIT
	mkdir "$BI_TMP/cwd"
	# The runs' kernel symbols: one line, the running kernel's _text as
	# /proc/kallsyms gives it.  Every run on a file with kernel samples
	# would read and parse /proc/kallsyms (~120k lines, ~0.1 s of CPU,
	# thousands of runs: most of the suite's time), and what is checked
	# here is the verdict on a cut or damaged file, not kernel symbols.
	grep -m1 ' _text$' /proc/kallsyms >"$BI_TMP/kallsyms" 2>/dev/null
	[ -s "$BI_TMP/kallsyms" ] || echo "ffffffff81000000 T _text" >"$BI_TMP/kallsyms"
	BI_SCRIPT_OPTS=(--kallsyms "$BI_TMP/kallsyms")
	BI_FAILS=0
	BI_RUNS=0
	# sanitizer builds reserve terabytes of shadow memory: no ulimit -v then,
	# and fewer cuts, since every run is slower
	if { (ulimit -v $BI_VMEM_KB && "$TEXTPOKE" script -h) >/dev/null 2>&1; } 2>/dev/null; then
		BI_ULIMIT=1
		BI_STRIDE=8
		BI_SPREAD=200
	else
		echo "note: $TEXTPOKE cannot run under ulimit -v (sanitizer build?): no memory cap"
		BI_ULIMIT=0
		BI_STRIDE=32
		BI_SPREAD=50
	fi
}

# a small stock perf recording, made now: file mode, kernel and user samples
bi_record() {
	local out=$1

	perf record -q -e cpu-clock -c 100000 -o "$out" -- \
		sh -c 'i=0; while [ $i -lt 100000 ]; do i=$((i+1)); done' >/dev/null 2>&1 ||
		return 1
	[ -s "$out" ]
}

bi_size() {
	stat -c %s "$1"
}

# unsigned little-endian integer of $3 bytes at offset $2 of file $1
bi_get() {
	od -An -tu"$3" -j "$2" -N "$3" "$1" | tr -d ' '
}

# write $4 (hex digits, most significant first, 2*$3 of them) as $3
# little-endian bytes at offset $2 of file $1
bi_put() {
	local f=$1 off=$2 n=$3 hex=$4 s="" i

	for ((i = n; i > 0; i--)); do
		s+=$(printf '\\%03o' "0x${hex:$((2 * i - 2)):2}")
	done
	# shellcheck disable=SC2059
	printf "$s" | dd of="$f" bs=1 seek="$off" conv=notrunc status=none
}

bi_hex() { # value bytes -> zero padded hex digits
	printf "%0$(($2 * 2))x" "$1"
}

# "offset size type" of every record: the data section of a file-mode
# file, everything after the 16-byte header of a pipe-mode one.  Little
# endian files only.
bi_records() {
	od -An -v -tu1 "$1" | awk '
	{ for (i = 1; i <= NF; i++) b[n++] = $i }
	function u16(o) { return b[o] + 256 * b[o + 1] }
	function u32(o) { return u16(o) + 65536 * u16(o + 2) }
	function u64(o) { return u32(o) + 4294967296 * u32(o + 4) }
	END {
		if (u64(8) == 16) {
			off = 16; end = n; pipe = 1
		} else {
			off = u64(40); end = off + u64(48)
			if (end > n) end = n
		}
		while (off + 8 <= end) {
			type = u32(off); size = u16(off + 6)
			if (size < 8)
				break
			print off, size, type
			skip = 0
			if (pipe && type == 66)
				skip = u32(off + 8)
			if (type == 71)
				skip = u64(off + 8)
			off += size + skip
		}
	}'
}

# perf's name of record type $1, as "record at ... (type N NAME" prints it
bi_type_name() {
	local names=(TOTAL MMAP LOST COMM EXIT THROTTLE UNTHROTTLE FORK READ SAMPLE MMAP2 AUX
		ITRACE_START LOST_SAMPLES SWITCH SWITCH_CPU_WIDE NAMESPACES KSYMBOL BPF_EVENT
		CGROUP TEXT_POKE AUX_OUTPUT_HW_ID)
	local user=(ATTR EVENT_TYPE TRACING_DATA BUILD_ID FINISHED_ROUND ID_INDEX AUXTRACE_INFO
		AUXTRACE AUXTRACE_ERROR THREAD_MAP CPU_MAP STAT_CONFIG STAT STAT_ROUND
		EVENT_UPDATE TIME_CONV FEATURE COMPRESSED FINISHED_INIT)

	if (($1 < ${#names[@]})); then
		echo "${names[$1]}"
	elif (($1 >= 64 && $1 - 64 < ${#user[@]})); then
		echo "${user[$1 - 64]}"
	else
		echo UNKNOWN
	fi
}

# "record at 0xOFF (type T NAME, size S)" for a record at $1 of type $2, size $3
bi_record_at() {
	printf 'record at 0x%x (type %d %s, size %d)' "$1" "$2" "$(bi_type_name "$2")" "$3"
}

# the same for whatever record header file $1 holds at offset $2
bi_record_in() {
	bi_record_at "$2" "$(bi_get "$1" "$2" 4)" "$(bi_get "$1" $(($2 + 6)) 2)"
}

bi_is_pipe() {
	[ "$(bi_get "$1" 8 8)" = 16 ]
}

bi_fail() {
	echo "FAIL: $*"
	BI_FAILS=$((BI_FAILS + 1))
}

# bi_expect_error FILE WHAT [feature] [WANT]: run script on the broken FILE
# and check the refusal.  WHAT describes the damage for the log; WANT, when
# given, is text stderr must hold (the offset and record or field), or
# several such texts one per line, one of which it must hold.  With
# "feature", the damage is confined to the feature sections after the
# data: the records are intact, and perf itself skips a broken feature
# section, so a warning that names the file, an offset and the section,
# with exit status 0, is accepted as well as a refusal.
bi_expect_error() {
	local file=$1 what=$2 feature=$3 want=$4 sum_before sum_after status err first left

	# bash builtins where possible: this runs thousands of times
	BI_RUNS=$((BI_RUNS + 1))
	sum_before=$(cksum <"$file")
	(
		cd "$BI_TMP/cwd" || exit 99
		[ "$BI_ULIMIT" = 1 ] && ulimit -v $BI_VMEM_KB
		exec "$TEXTPOKE" script "${BI_SCRIPT_OPTS[@]}" -i "$file" >/dev/null 2>"$BI_TMP/err"
	)
	status=$?
	sum_after=$(cksum <"$file")
	err=$(<"$BI_TMP/err")
	first=${err:0:300}
	first=${first//$'\n'/ | }
	if [ "$status" = 0 ] && [ "$feature" = feature ] &&
		[[ ${err,,} == *warning* ]] && [[ ${err,,} =~ feature|section ]]; then
		status=234
	fi
	if [ "$status" != 234 ] && [ "$status" != 255 ]; then
		bi_fail "$what: exit status $status, expected 234 or 255 (stderr: $first)"
		return
	fi
	if [[ $err =~ AddressSanitizer|runtime\ error:|LeakSanitizer ]]; then
		bi_fail "$what: sanitizer report: $first"
		return
	fi
	if [[ $err != *"$file"* ]]; then
		bi_fail "$what: stderr does not name the file: $first"
		return
	fi
	if ! [[ $err =~ 0x[0-9a-fA-F]+ ]]; then
		bi_fail "$what: stderr names no offset: $first"
		return
	fi
	if [ -n "$want" ]; then
		local w found=0

		while IFS= read -r w; do
			[[ $err == *"$w"* ]] && found=1
		done <<<"$want"
		if [ $found = 0 ]; then
			bi_fail "$what: stderr lacks \"${want//$'\n'/\" or \"}\": $first"
			return
		fi
	fi
	# a record type or a section: strip the path, then look for a name
	err=${err//"$file"/}
	if ! [[ ${err,,} =~ record|section|header|attr|feature|data|event ]] &&
		! [[ $err =~ [A-Z][A-Z0-9_]{3,} ]]; then
		bi_fail "$what: stderr names no record type or section: $first"
		return
	fi
	if [ "$sum_before" != "$sum_after" ]; then
		bi_fail "$what: the input was modified"
		return
	fi
	# a glob, not a subshell: this runs thousands of times
	shopt -s nullglob dotglob
	left=("$BI_TMP"/cwd/*)
	shopt -u nullglob dotglob
	if [ ${#left[@]} -gt 0 ]; then
		bi_fail "$what: left files behind: ${left[*]}"
		rm -rf "${BI_TMP:?}/cwd/"* "${BI_TMP:?}/cwd/".[!.]*
		return
	fi
}

# bi_expect_ok FILE: the intact file is read (sanity check of the setup)
bi_expect_ok() {
	if ! (cd "$BI_TMP/cwd" &&
		"$TEXTPOKE" script "${BI_SCRIPT_OPTS[@]}" -i "$1" >/dev/null 2>"$BI_TMP/err"); then
		bi_fail "intact $1 is not read: $(head -3 "$BI_TMP/err")"
		return 1
	fi
}

bi_finish() {
	echo "$BI_RUNS broken inputs, $BI_FAILS failures"
	[ "$BI_FAILS" = 0 ]
}
