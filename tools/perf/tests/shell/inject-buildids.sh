#!/bin/bash
# inject -b/--buildid-all: the build-id table perf inject writes, -s and a lone --strip refused
# SPDX-License-Identifier: GPL-2.0-only
#
# Stock perf 6.1 is the judge: perf buildid-list lists the same lines on
# our -b output as on perf inject -b's, for a recording without build-ids
# (record -B) and one with them, through a file, to a stream and from a
# stream (against perf inject's file output of the same stream: its own
# stream to stream output has no header in 6.1); --buildid-all likewise on
# a recording with a table.  Stock perf script and perf report read our
# -b output as they read perf inject's.  -s, and --strip without --itrace, are refused: one
# line, a non-zero exit, no output file.  The sets compared are those of one input, so whichever
# objects the samples hit, both sides see the same hits.  Public
# recordings with modules hit: the table entry perf takes for a module.
# Mutation caught: inject_buildid__finish() not called (the vdso a file's
# table names although nothing hit it is missing, as in the -B case).

. "$(dirname "$0")/lib/common.sh"
[ -n "$TEXTPOKE" ] || skip "TEXTPOKE not set: run through perf-textpoke test"
command -v perf >/dev/null 2>&1 || skip "stock perf is not installed"
scratch inject-bid
export HOME="$tmp"

# user time only: every sample is in a file with a build-id
work='i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done; ls / >/dev/null'
perf record -q -B -e cpu-clock:u -c 100000 -o "$tmp/nb.data" -- sh -c "$work" >/dev/null 2>&1 ||
	skip "stock perf record cannot record here"
perf record -q -e cpu-clock -c 100000 -o "$tmp/bid.data" -- sh -c "$work" >/dev/null 2>&1 ||
	fail "stock perf record"
# the same as a stream, one recording fewer
perf inject -i "$tmp/bid.data" -o - 2>/dev/null | cat >"$tmp/in.pipe"
[ -s "$tmp/in.pipe" ] || fail "stock perf inject -o -"

# list FILE: perf buildid-list's lines, sorted
list() {
	perf buildid-list -i "$1" 2>/dev/null | sort
}

same() { # what, ours, stock
	list "$2" >"$tmp/a"
	list "$3" >"$tmp/b"
	[ -s "$tmp/b" ] || fail "$1: perf buildid-list lists nothing for perf inject's output"
	cmp -s "$tmp/a" "$tmp/b" || { diff "$tmp/a" "$tmp/b"; fail "$1: not the lines of perf inject's"; }
}

for in in nb bid; do
	"$TEXTPOKE" inject -q -b -i "$tmp/$in.data" -o "$tmp/o-$in.data" || fail "inject -b $in"
	perf inject -b -i "$tmp/$in.data" -o "$tmp/s-$in.data" || fail "perf inject -b $in"
	same "-b $in" "$tmp/o-$in.data" "$tmp/s-$in.data"
done
# a -B recording has no table: every line comes from -b, the vdso among them
grep -q ' \[vdso\]$' "$tmp/a" || fail "-b nb: no [vdso] entry"
perf script -i "$tmp/o-nb.data" >"$tmp/a" 2>&1 || fail "stock perf script on inject -b's output"
perf script -i "$tmp/s-nb.data" >"$tmp/b" 2>&1
cmp -s "$tmp/a" "$tmp/b" || { diff "$tmp/a" "$tmp/b" | head; fail "perf script differs on -b"; }
# perf report's profile (its lines sorted: ties of equal share come in
# insertion order, which differs between the two files)
perf report -q --stdio -g none --sort dso,sym -i "$tmp/o-nb.data" 2>&1 | sort >"$tmp/a"
perf report -q --stdio -g none --sort dso,sym -i "$tmp/s-nb.data" 2>&1 | sort >"$tmp/b"
[ -s "$tmp/b" ] || fail "stock perf report printed nothing for perf inject -b's output"
cmp -s "$tmp/a" "$tmp/b" || { diff "$tmp/a" "$tmp/b" | head; fail "perf report differs on -b"; }

"$TEXTPOKE" inject -q --buildid-all -i "$tmp/bid.data" -o "$tmp/o-all.data" || fail "--buildid-all"
perf inject --buildid-all -i "$tmp/bid.data" -o "$tmp/s-all.data" || fail "perf inject --buildid-all"
same "--buildid-all" "$tmp/o-all.data" "$tmp/s-all.data"

# to a stream: the HEADER_BUILD_ID records perf buildid-list reads there
"$TEXTPOKE" inject -q -b -i "$tmp/nb.data" -o - | cat >"$tmp/o-nb.pipe" || fail "inject -b -o -"
perf inject -b -i "$tmp/nb.data" -o - | cat >"$tmp/s-nb.pipe"
same "-b -o -" "$tmp/o-nb.pipe" "$tmp/s-nb.pipe"
perf script -i "$tmp/o-nb.pipe" >"$tmp/a" 2>&1 || fail "stock perf script on inject -b -o -"
perf script -i "$tmp/s-nb.pipe" >"$tmp/b" 2>&1
cmp -s "$tmp/a" "$tmp/b" || { diff "$tmp/a" "$tmp/b" | head; fail "perf script differs on -b -o -"; }
# from a stream
"$TEXTPOKE" inject -q -b -o "$tmp/o-pipe.data" <"$tmp/in.pipe" || fail "inject -b -i -"
perf inject -b -i "$tmp/in.pipe" -o "$tmp/s-pipe.data" || fail "perf inject -b of a stream"
same "-b -i -" "$tmp/o-pipe.data" "$tmp/s-pipe.data"

# public recordings: modules hit, named in the table as kernel objects
# (callgraph-3.8) and as a user one, which perf does not take for the
# module (generated_by_linux_perf)
corpus="${TEXTPOKE_CORPUS:-}"
if [ -n "$corpus" ] && [ -r "$corpus/INDEX.md" ]; then
	for f in perf_data_converter/perf.data.callgraph-3.8 platform_system_extras/generated_by_linux_perf.data; do
		"$TEXTPOKE" inject -q -b -i "$corpus/$f" -o "$tmp/o-c.data" || fail "inject -b $f"
		perf inject -b -i "$corpus/$f" -o "$tmp/s-c.data" 2>/dev/null || fail "perf inject -b $f"
		same "-b $f" "$tmp/o-c.data" "$tmp/s-c.data"
		case $f in *3.8) grep -q '\.ko$' "$tmp/a" || fail "-b $f: no module entry" ;; esac
		rm -f "$tmp/o-c.data" "$tmp/s-c.data"
	done
	grep -q ' /lib/modules/3.13.*\.ko$' "$tmp/a" && fail "-b: a module from a user entry"
fi

# refused, with the reason
for opt in -s --strip; do
	"$TEXTPOKE" inject $opt -i "$tmp/bid.data" -o "$tmp/r.data" 2>"$tmp/err" && fail "$opt accepted"
	[ "$(wc -l <"$tmp/err")" = 1 ] || { cat "$tmp/err"; fail "$opt: not one line"; }
	[ -e "$tmp/r.data" ] && fail "$opt left an output"
done
grep -q 'itrace' "$tmp/err" || fail "--strip: the reason does not name --itrace"
exit 0
