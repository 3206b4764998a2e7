#!/bin/bash
# annotate: instructions capstone cannot decode keep their length, the addresses after them perf's; _fini as perf shows it
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
# address (lib/annotate-check.py), with -n too.  Samples at _fini too:
# a symbol of no size, given an end past the executable segment it ends
# (perf shows the three instructions of .fini); ours refused it, or
# printed the bytes after it.
#
# Mutation caught: an instruction capstone cannot decode taken as one
# byte again (annotate-print.c without insn_len()): addresses only perf
# has; _fini's extent not cut at the end of its segment
# (annotate_code__read()): instructions past .fini's three that perf does
# not show (in a PIE, where the segment ends the file, no block at all).
# And the "Disassembly of section .fini:" line objdump writes before
# _fini: ours from the object's section headers (it has no DWARF).
# Mutation caught: dso__section_name() answering -ENOENT for an object
# without DWARF: ".text" is printed, the check fails.

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
fini=$(nm "$tmp/evex" | awk '$3 == "_fini" { print $1 }')
[ -n "$fini" ] || fail "nm shows no _fini"
# shellcheck disable=SC2046
python3 "$lib/annotate-samples.py" "$tmp/e.data" "$tmp/evex" $(cat "$tmp/addrs") "$fini" ||
	fail "annotate-samples.py"
for opt in "" "-n" "-s _fini"; do
	sym="-s evex_fn" want=vptestnmb
	[ "$opt" = "-s _fini" ] && sym= want="<_fini>"
	# shellcheck disable=SC2086
	perf annotate --stdio -i "$tmp/e.data" $sym $opt >"$tmp/perf.out" 2>"$tmp/perf.err" ||
		fail "stock perf annotate $sym $opt: $(head -3 "$tmp/perf.err")"
	grep -q -- "$want" "$tmp/perf.out" || fail "stock perf annotate $sym $opt shows no $want"
	# shellcheck disable=SC2086
	"$TEXTPOKE" annotate -i "$tmp/e.data" $sym $opt >"$tmp/ours.out" 2>"$tmp/err" ||
		fail "perf textpoke annotate $opt: $(head -3 "$tmp/err")"
	python3 "$lib/annotate-check.py" "$tmp/perf.out" "$tmp/ours.out" >"$tmp/check" ||
		fail "annotate $opt differs from perf's: $(head -5 "$tmp/check")"
	echo "ok: $want $sym $opt: $(cat "$tmp/check")"
done
# objdump's section line, in an object without DWARF: from its own section headers
grep -q ": 3 *Disassembly of section .fini:$" "$tmp/perf.out" ||
	fail "stock perf annotate -s _fini names no section .fini"
grep -q ": 3 *Disassembly of section .fini:$" "$tmp/ours.out" ||
	fail "-s _fini: $(grep "Disassembly of section" "$tmp/ours.out"), perf's is .fini"
echo "ok: _fini in section .fini, as perf"
exit 0
