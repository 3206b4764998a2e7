#!/bin/bash
# script: public corpus recordings print as stock perf script prints them
# SPDX-License-Identifier: GPL-2.0-only
#
# Every corpus file goes through stock perf 6.1 script and ours.  Where
# stock perf exits 0 the outputs are compared line for line.  One
# normalization: these files were recorded on other machines, and where
# the recorded kernel's _text is not this kernel's, stock perf moves this
# machine's /proc/kallsyms there anyway (symbols that were never there);
# we warn and print [unknown] instead.  So for a file where we warn that
# kernel symbols were not resolved, the symbol and dso after a kernel
# address are not compared; every other file is compared as it is.
#
# The same for [vdso]: a recording that names no build-id for its [vdso]
# (stock perf buildid-list lists none) carries nothing of the vdso's code
# or symbols, and stock perf symbolizes its addresses from a copy of its
# own process's vdso (/tmp/perf-vdso.so-*), this kernel's: its offsets
# move with the machine (__vdso_gettimeofday+0x3e on one kernel, +0x1e on
# the next).  No tool can know those symbols from the file, so they are
# left out of the comparison (the address and "([vdso])" still compared),
# and ours must print [unknown] at each of them.
#
# Nothing is waved through.  Checked in under tools/perf/tests/data/
# script-corpus-parity/:
#   status        for every file: stock perf's exit status and stderr, and
#                 our exit status, so a file stock perf cannot read is
#                 listed with its error, and a change on either side fails;
#   <file>.diff   for each file known to differ, the exact `diff perf ours`
#                 of the normalized outputs, so a new difference fails.
# Each .diff has its reason in known[] below, and each reason a .diff.
#
# After a deliberate change, regenerate them and review the git diff:
#   TEXTPOKE_BLESS=1 TEXTPOKE_SRCDIR=$PWD tools/perf/perf-textpoke test "print as stock perf script"
# (make check never sets TEXTPOKE_BLESS).
#
# Mutation caught: dropping every sample of a legacy pipe (the sommelier
# files, equal to perf's, then differ with no expected difference); dso__load_vdso() taking
# this machine's vdso for a recording without a vdso build-id ("we name
# 39 [vdso] symbols of a vdso the file does not carry").

[ -n "$TEXTPOKE" ] || { echo "TEXTPOKE not set: run through perf-textpoke test"; exit 2; }
[ -d "$TEXTPOKE_CORPUS" ] || { echo "no corpus at '$TEXTPOKE_CORPUS'"; exit 2; }
command -v perf >/dev/null 2>&1 || { echo "stock perf is not installed"; exit 2; }
tmp=$(mktemp -d /tmp/textpoke-corpus-parity.XXXXXX) || exit 1
trap 'rm -rf "$tmp"' EXIT
data=$TEXTPOKE_SRCDIR/tools/perf/tests/data/script-corpus-parity
[ -f "$data/status" ] || [ -n "$TEXTPOKE_BLESS" ] ||
	{ echo "FAIL: no $data/status (TEXTPOKE_BLESS=1 writes it)"; exit 1; }

declare -A known=(
	[perf_data_converter/perf.data.intel_pt-4.14]="the Intel PT trace's decode errors only (perf's default --itrace=cepwx, pt-decode-default.sh): ours name the unknown code's address, time and trace position where perf says 'Failed to get instruction', and perf reports four more, a second error in four libraries where we report each object once"
	[perfparser/vector_static_gcc__perf.lbr.data]="LBR call-stack mode, whose chains both build from the branch stack: 8 samples say 1 LBR entry and hold none, and stock perf reads the next record's first bytes as that entry (a frame at the next sample's ip); ours gives them no user frame"
)

# the symbol and dso after a kernel address: a sample line, or a callchain frame
norm() {
	sed -E 's/ (ffff[0-9a-f]{12}) [^ ]+ \((\[kernel\.kallsyms\]|\[unknown\])\)/ \1 K/;
		s/^(\t *ffff[0-9a-f]{12}) .*/\1 K/'
}

# the symbol before "([vdso])": a sample line, or a callchain frame
vdso_norm() {
	sed -E 's/ [^ ]+ \(\[vdso\]\)$/ V ([vdso])/'
}

# the .diff of a corpus file: its path with / as %
diff_name() {
	echo "$data/${1//\//%}.diff"
}

mkdir -p "$tmp/diffs"
n=0 equal=0 gaps=0 bad=0
: >"$tmp/status"
while IFS= read -r -d '' f; do
	rel=${f#$TEXTPOKE_CORPUS/}
	case "$rel" in *.md) continue ;; esac
	HOME=$tmp timeout 120 perf script -i "$f" >"$tmp/perf.raw" 2>"$tmp/perf.err"
	pst=$?
	timeout 120 "$TEXTPOKE" script -i "$f" >"$tmp/ours.raw" 2>"$tmp/ours.err"
	ost=$?
	{
		echo "$rel: perf exit $pst, ours exit $ost"
		sed "s|$TEXTPOKE_CORPUS/||g; s/^/	/" "$tmp/perf.err"
	} >>"$tmp/status"
	# stock perf failed: its error and status are in the status file
	[ $pst = 0 ] || continue
	n=$((n + 1))
	if grep -q 'kernel symbols not resolved' "$tmp/ours.err"; then
		norm <"$tmp/perf.raw" >"$tmp/perf"
		norm <"$tmp/ours.raw" >"$tmp/ours"
	else
		cp "$tmp/perf.raw" "$tmp/perf"
		cp "$tmp/ours.raw" "$tmp/ours"
	fi
	if grep -q '(\[vdso\])$' "$tmp/perf" &&
		! HOME=$tmp perf buildid-list -i "$f" 2>/dev/null | grep -qE '^[0-9a-f]+ \[vdso\]$'; then
		vdso_norm <"$tmp/perf" >"$tmp/perf.v" && mv "$tmp/perf.v" "$tmp/perf"
		vdso_norm <"$tmp/ours" >"$tmp/ours.v" && mv "$tmp/ours.v" "$tmp/ours"
		named=$(grep '(\[vdso\])$' "$tmp/ours.raw" | grep -vc ' \[unknown\] (\[vdso\])$')
		if [ "$named" != 0 ]; then
			echo "DIFFERS: $rel: we name $named [vdso] symbols of a vdso the file does not carry:"
			grep '(\[vdso\])$' "$tmp/ours.raw" | grep -v ' \[unknown\] (\[vdso\])$' | head -3
			bad=$((bad + 1))
		fi
		echo "this machine's vdso: $rel: $(grep -c '(\[vdso\])$' "$tmp/perf") [vdso] symbols not compared"
	fi
	if cmp -s "$tmp/perf" "$tmp/ours"; then
		equal=$((equal + 1))
		continue
	fi
	diff "$tmp/perf" "$tmp/ours" >"$tmp/diffs/${rel//\//%}.diff"
	gaps=$((gaps + 1))
done < <(find "$TEXTPOKE_CORPUS" -type f -print0 | sort -z)
[ $n -gt 0 ] || { echo "stock perf read none of the corpus"; exit 2; }

if [ -n "$TEXTPOKE_BLESS" ]; then
	mkdir -p "$data"
	rm -f "$data"/*.diff
	cp "$tmp/status" "$data/status"
	cp "$tmp"/diffs/*.diff "$data/" 2>/dev/null
	echo "blessed: $data (review with git diff)"
fi

if ! cmp -s "$data/status" "$tmp/status"; then
	echo "DIFFERS: exit status or stock perf's stderr (< expected, > now):"
	diff "$data/status" "$tmp/status" | head -40
	bad=$((bad + 1))
fi
for d in "$tmp"/diffs/*.diff "$data"/*.diff; do
	[ -e "$d" ] || continue
	b=${d##*/}
	rel=${b%.diff}
	rel=${rel//%//}
	[ "$d" = "$tmp/diffs/$b" ] || [ ! -e "$tmp/diffs/$b" ] || continue
	if [ -z "${known[$rel]}" ]; then
		echo "DIFFERS: $rel differs from stock perf and has no reason in known[]"
		bad=$((bad + 1))
	fi
	if [ ! -e "$data/$b" ]; then
		echo "DIFFERS: $rel: a new difference from stock perf:"
		head -20 "$d"
		bad=$((bad + 1))
	elif [ ! -e "$tmp/diffs/$b" ]; then
		echo "DIFFERS: $rel now equals stock perf's output: remove $data/$b"
		bad=$((bad + 1))
	elif ! cmp -s "$data/$b" "$d"; then
		echo "DIFFERS: $rel: not the expected difference (< expected, > now):"
		diff "$data/$b" "$d" | head -20
		bad=$((bad + 1))
	else
		echo "known: $rel: $(grep -c '^<' "$d") lines as expected: ${known[$rel]}"
	fi
done
for rel in "${!known[@]}"; do
	[ -e "$(diff_name "$rel")" ] || { echo "DIFFERS: known[$rel] has no .diff"; bad=$((bad + 1)); }
done

echo "$n files stock perf reads: $equal equal, $gaps with their expected difference, $bad problems"
[ $bad = 0 ]
