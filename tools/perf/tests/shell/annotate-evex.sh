#!/bin/bash
# annotate: instructions capstone cannot decode keep their length, the addresses after them perf's
# SPDX-License-Identifier: GPL-2.0-only
#
# Debian's capstone 4 decodes no vptestnmb or kmovd (EVEX and mask-
# register forms glibc's string functions use): taken as one byte of
# "(bad)", the instructions after it were read from the wrong byte, and
# annotate printed other addresses than perf's (stock perf runs objdump,
# which knows them).  lib/annotate-evex.c is a function holding them
# between ordinary instructions, built now (never run); lib/annotate-
# samples.py writes a recording (byte by byte, not with our writer) with
# a distinct number of samples at every instruction objdump lists in it.
# Stock perf annotate --stdio and ours must give the same figure at every
# address (lib/annotate-check.py), with -n too.
#
# Mutation caught: an instruction capstone cannot decode taken as one
# byte again (annotate-print.c without insn_len()): addresses only perf
# has.

. "$(dirname "$0")/lib/common.sh"
need_perf_root
command -v python3 >/dev/null 2>&1 || skip "python3 is not installed"
command -v objdump >/dev/null 2>&1 || skip "no objdump (binutils)"
scratch annotate-evex
export HOME=$tmp
lib=$(dirname "$0")/lib

gcc -O1 -no-pie -o "$tmp/evex" "$lib/annotate-evex.c" 2>"$tmp/gcc.err" ||
	fail "gcc cannot build lib/annotate-evex.c: $(head -3 "$tmp/gcc.err")"
objdump -d --no-show-raw-insn "$tmp/evex" |
	awk '/^[0-9a-f]+ <evex_fn>:$/ { f = 1; next } f && /^$/ { exit }
	     f && $1 ~ /^[0-9a-f]+:$/ { sub(":", "", $1); print $1 }' >"$tmp/addrs"
grep -q vptestnmb <(objdump -d "$tmp/evex") || fail "objdump does not show the vptestnmb"
[ "$(wc -l <"$tmp/addrs")" -ge 8 ] || fail "objdump lists $(wc -l <"$tmp/addrs") instructions"
# shellcheck disable=SC2046
python3 "$lib/annotate-samples.py" "$tmp/e.data" "$tmp/evex" $(cat "$tmp/addrs") ||
	fail "annotate-samples.py"
for opt in "" "-n"; do
	# shellcheck disable=SC2086
	perf annotate --stdio -i "$tmp/e.data" -s evex_fn $opt >"$tmp/perf.out" 2>"$tmp/perf.err" ||
		fail "stock perf annotate $opt: $(head -3 "$tmp/perf.err")"
	grep -q vptestnmb "$tmp/perf.out" || fail "stock perf annotate $opt shows no vptestnmb"
	# shellcheck disable=SC2086
	"$TEXTPOKE" annotate -i "$tmp/e.data" -s evex_fn $opt >"$tmp/ours.out" 2>"$tmp/err" ||
		fail "perf textpoke annotate $opt: $(head -3 "$tmp/err")"
	python3 "$lib/annotate-check.py" "$tmp/perf.out" "$tmp/ours.out" >"$tmp/check" ||
		fail "annotate $opt differs from perf's: $(head -5 "$tmp/check")"
	echo "ok: evex_fn $opt: $(cat "$tmp/check")"
done
exit 0
