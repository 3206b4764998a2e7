#!/bin/bash
# report: public corpus recordings give the profile stock perf report gives
# SPDX-License-Identifier: GPL-2.0-only
#
# Every corpus file goes through stock perf 6.1 report --stdio and ours,
# with --sort comm,dso, and with comm,dso,sym where we resolve the kernel
# (a file recorded on another kernel: stock perf moves this machine's
# kallsyms there anyway, we warn and print [unknown], so its kernel
# symbols are not compared; see script-corpus-parity.sh).  Both run with
# --no-children (the Self profile; report-children.sh compares Children on
# recordings made here, whose objects are present), both with -g none
# (the trees are report-tree.sh's), stock perf also with
# --no-branch-stack: we print no branch-stack entries, which stock perf
# picks by default for recordings that have branch stacks.
#
# Two 2012 ChromeOS pipes (platform2-sommelier) carry their header
# features as records 69..80, numbers that later became ID_INDEX,
# AUXTRACE_INFO, AUXTRACE...: stock perf 6.1 takes the first for an
# ID_INDEX and prints only "Too big".  Our own earlier output is no
# expectation (it moved with the machine: our kernel symbols of the .host
# file came from this kernel's kallsyms).  So stock perf reads a copy with
# those records cut out, found by legacy_features (awk over od, either
# endianness, not our reader): they say nothing about comms, maps or
# samples, and the rest is an ordinary pipe.  Its profile is the
# expectation for the original file.
#
# Checked in under tools/perf/tests/data/report-corpus-parity/:
#   status        for every file: stock perf's exit status and ours;
#   <file>.diff   for each file known to differ, the exact diff of the
#                 outputs, each with its reason in known[] below.
# After a deliberate change, regenerate and review the git diff:
#   TEXTPOKE_BLESS=1 TEXTPOKE_SRCDIR=$PWD tools/perf/perf-textpoke test "give the profile stock perf"
#
# Mutation caught: objects keyed and printed by their long name
# (map__dso_name() for map__dso_short() in report_hists__add()): most
# files' Shared Object column differs; dso__set_short_name() keeping
# "perf-9713.map" where perf says "[JIT] tid 9713" (the .host file
# differs from stock perf's profile of its copy).

. "$(dirname "$0")/lib/report-common.sh"
[ -n "$TEXTPOKE" ] || skip "TEXTPOKE not set: run through perf-textpoke test"
[ -d "$TEXTPOKE_CORPUS" ] || skip "no corpus at '$TEXTPOKE_CORPUS'"
command -v perf >/dev/null 2>&1 || skip "stock perf is not installed"
scratch report-corpus
data=$TEXTPOKE_SRCDIR/tools/perf/tests/data/report-corpus-parity
[ -f "$data/status" ] || [ -n "$TEXTPOKE_BLESS" ] ||
	fail "no $data/status (TEXTPOKE_BLESS=1 writes it)"

declare -A known=(
	[hotspot/perf.data.true.v1]="the 2010 v1 PERFFILE format, which we refuse"
	[linux-perf-data/fibo.compressed2.pipe.data]="stock perf 6.1 stops at the first COMPRESSED2 record (type 83) and prints the header alone"
	[linux-perf-data/sleep.compressed2.pipe.data]="stock perf 6.1 stops at the first COMPRESSED2 record (type 83)"
	[perf_data_converter/perf.data.piped.intel_pt-4.14]="stock perf 6.1 reads the pipe as a file here (-i, not stdin), fails with 'bad event header size' and prints the header alone with exit 0; we decode its trace with perf report's default --itrace"
	[perf_data_converter/perf.data.piped.corrupted.zero_size_sample-3.2]="a record of size 0: stock perf stops there and prints what it has with exit 0; we fail naming the record"
)

# the 2012 ChromeOS pipes: stock perf reads them without records 69..80
declare -A legacy=(
	[platform2-sommelier/perf.data.piped.host]=1
	[platform2-sommelier/perf.data.piped.powerpc]=1
)

# legacy_features FILE: "offset size" of each record of type 69..80 of a
# pipe file whose features are such records (no payload follows them),
# little or big endian ("2ELIFREP")
legacy_features() {
	od -An -v -tu1 "$1" | awk '
	{ for (i = 1; i <= NF; i++) b[n++] = $i }
	function u16(o) { return be ? b[o] * 256 + b[o + 1] : b[o] + 256 * b[o + 1] }
	function u32(o) { return be ? u16(o) * 65536 + u16(o + 2) : u16(o) + 65536 * u16(o + 2) }
	END {
		be = b[0] == 50
		for (off = 16; off + 8 <= n; off += size) {
			type = u32(off)
			size = u16(off + 6)
			if (size < 8)
				exit 1
			if (type >= 69 && type <= 80)
				print off, size
		}
		if (off != n)
			exit 1
	}'
}

# without_legacy_features IN OUT: IN without those records
without_legacy_features() {
	local pos=0 off size nr=0

	legacy_features "$1" >"$tmp/legacy" || return 1
	: >"$2"
	while read -r off size; do
		tail -c +$((pos + 1)) "$1" | head -c $((off - pos)) >>"$2"
		pos=$((off + size))
		nr=$((nr + 1))
	done <"$tmp/legacy"
	tail -c +$((pos + 1)) "$1" >>"$2"
	# one record of each of the 12 features (INDEX.md lists them)
	[ "$nr" = 12 ]
}

diff_name() {
	echo "$data/${1//\//%}.diff"
}

mkdir -p "$tmp/diffs"
n=0 equal=0 bad=0
: >"$tmp/status"
while IFS= read -r -d '' f; do
	rel=${f#$TEXTPOKE_CORPUS/}
	case "$rel" in *.md) continue ;; esac
	sorts="comm,dso"
	: >"$tmp/perf" && : >"$tmp/ours"
	pf=$f
	if [ -n "${legacy[$rel]}" ]; then
		without_legacy_features "$f" "$tmp/stock.data" ||
			fail "$rel: not 12 records of types 69..80 in a walk of the whole pipe"
		pf=$tmp/stock.data
		sorts="comm,dso (perf: without records 69..80)"
	fi
	for s in comm,dso comm,dso,sym; do
		perf_report -i "$pf" --no-children -g none --no-branch-stack --sort $s \
			>>"$tmp/perf" 2>"$tmp/perf.err" </dev/null
		pst=$?
		HOME=$tmp timeout 120 "$TEXTPOKE" report --no-changes --no-children -g none -i "$f" --sort $s \
			2>"$tmp/ours.err" </dev/null |
			awk '/^# Samples per user-register ABI/ { s = 1 } s && /^$/ { s = 0; next } !s' \
				>>"$tmp/ours"
		ost=${PIPESTATUS[0]}
		# another kernel's symbols: compared by object only
		grep -q 'kernel symbols not resolved' "$tmp/ours.err" && break
		[ "$s" = comm,dso ] && sorts="$sorts comm,dso,sym"
	done
	echo "$rel: perf exit $pst, ours exit $ost, sorts $sorts" >>"$tmp/status"
	[ "$pst" = 0 ] || continue
	n=$((n + 1))
	if cmp -s "$tmp/perf" "$tmp/ours"; then
		equal=$((equal + 1))
		[ -z "${known[$rel]}" ] || { echo "FAIL: $rel: listed as differing, but equal"; bad=$((bad + 1)); }
		continue
	fi
	diff "$tmp/perf" "$tmp/ours" | sed "s|$TEXTPOKE_CORPUS/||g" >"$tmp/diffs/${rel//\//%}.diff"
	if [ -z "${known[$rel]}" ]; then
		echo "FAIL: $rel differs from stock perf report, and no reason is known:"
		head -20 "$tmp/diffs/${rel//\//%}.diff"
		bad=$((bad + 1))
	fi
done < <(find "$TEXTPOKE_CORPUS" -type f -print0 | sort -z)

if [ -n "$TEXTPOKE_BLESS" ]; then
	rm -rf "$data"
	mkdir -p "$data"
	cp "$tmp/status" "$data/status"
	cp "$tmp/diffs/"*.diff "$data/" 2>/dev/null
	echo "blessed: $data"
	exit 0
fi
if ! cmp -s "$data/status" "$tmp/status"; then
	diff -u "$data/status" "$tmp/status" | head -30
	fail "exit statuses changed"
fi
for d in "$tmp/diffs/"*.diff "$data/"*.diff; do
	[ -e "$d" ] || continue
	b=$(basename "$d")
	# each once: the new one, or an expected one that is gone
	[ "$d" = "$tmp/diffs/$b" ] || [ ! -e "$tmp/diffs/$b" ] || continue
	if ! cmp -s "$data/$b" "$tmp/diffs/$b"; then
		diff -u "$data/$b" "$tmp/diffs/$b" 2>&1 | head -20
		echo "FAIL: $b changed"
		bad=$((bad + 1))
	fi
done
[ $bad = 0 ] || fail "$bad corpus files differ unexpectedly"
[ $n -gt 0 ] || fail "stock perf read no corpus file"
echo "ok: $equal of $n files stock perf reads give its profile; ${#known[@]} known to differ"
exit 0
