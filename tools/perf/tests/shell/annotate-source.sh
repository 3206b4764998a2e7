#!/bin/bash
# annotate: source lines, -l/--print-line and --no-source against perf annotate and the line table
# SPDX-License-Identifier: GPL-2.0-only
#
# A workload built now with -O2 -g (lib/annotate-source-workload.c, whose
# loop is two inlined functions, one from lib/annotate-source-mix.h, and
# two loops of top-level asm, which have no line),
# recorded once by stock perf record -e cpu-clock for ~0.1 s.  Stock perf
# annotate --stdio -d on that recording (HOME a scratch directory) is the
# oracle for where every line falls: the section and symbol lines, the
# inlined functions' "mix():" lines, the source lines and their blank
# separators, the figures, -l's " // file:line" marks and its "Sorted
# summary" (whose shares perf sums over the lines above 0.5%), by
# lib/annotate-source-check.py perf, which keeps of an instruction its
# figure, address and mark (the text is objdump's against capstone's).
# Options: none, -l, --no-source -l, -n --percent-type local-hits -l (the
# summary's shares are of that type), --asm-raw --source --print-line (each
# further line of objdump's bytes takes one of perf's numbers).
#
# perf also reads a source line that starts, once trimmed, like "/x:N" as
# objdump's file:line (leaves it out, and numbers on from N): the header's
# line 2 is such a comment, and we do the same, the layout being perf's.
#
# Where perf 6.1 is wrong: it numbers a source line by its distance from
# the last line objdump names, so the context lines objdump prints before
# a line take that line's number and the next ones ("16 static volatile
# unsigned long sink;" for line 11).  Ours are the files' own line numbers,
# checked against the line table instead: objdump --dwarf=decodedline,
# read by lib/annotate-source-check.py table, says which line each
# instruction's address is; the last source line before it must be that
# line, each source line printed the file's line of that number (its
# text read from the file), each -l mark the table's line, and the
# header's mix() named before code the table puts in the header.
#
# Mutation caught: objdump's context rule without its "printed already"
# clause (annotate_source__before_insn() always starting 5 lines before):
# lines perf prints once are printed again, "source" differs from perf's.
# Mutation caught: a file:line marker left unread by perf's counter
# (source__emit() printing "/path:N" as text): "source" differs.
# Mutation caught: the summary's share summed over every instruction, not
# those above 0.5% (annotate_source__after_insn()'s threshold dropped):
# "print-line"'s marks and summary differ from perf's.
# Mutation caught: perf's "/path:N" pattern tried on objdump's own lines
# only (source__emit()'s test with "number < 0 &&"): the header's indented
# comment "/* Inlined at annotate-source-workload.c:22, ...", which perf
# takes for a file:line and leaves out, is printed; "source" differs.
# Mutation caught: "dso[addr]" for an address addr2line names no line
# ("??:?") in source__srcline(), as for one it knows nothing of: asm_loop's
# mark and summary line differ from perf's "??:0" ("print-line").
# Mutation caught: -l's last mark kept per symbol (annotate_source's own),
# not for the run as perf's static: asm_loop2's jne is marked "??:0" again
# after asm_loop's ("print-line" differs from perf's).
# Mutation caught: report's srcline key "sym+off" where addr2line names no
# line (place__srclines() dropping "??:0"): "report" differs from perf's.
# Mutation caught: perf's numbering of source lines (source_file__print()
# passing -1, perf's counter, for the number): "table" fails ("the last
# source line is 26, the table says annotate-source-workload.c:21").

. "$(dirname "$0")/lib/common.sh"
need_perf_root
command -v python3 >/dev/null 2>&1 || skip "python3 is not installed"
command -v objdump >/dev/null 2>&1 || skip "objdump (binutils) is not installed"
scratch annotate-source
export HOME=$tmp
lib=$(dirname "$0")/lib
check="$lib/annotate-source-check.py"

# the sources beside the object, as its DWARF names them, so that both tools read the same files
cp "$lib/annotate-source-workload.c" "$lib/annotate-source-mix.h" "$tmp/" || fail "cp sources"
(cd "$tmp" && gcc -O2 -g -o "$tmp/annotate-source-workload" "$tmp/annotate-source-workload.c") \
	2>"$tmp/gcc.err" || fail "gcc cannot build the workload: $(head -3 "$tmp/gcc.err")"
perf record -q -e cpu-clock -F 4000 -o "$tmp/perf.data" "$tmp/annotate-source-workload" 100000000 \
	>"$tmp/record.out" 2>&1 || fail "perf record: $(head -3 "$tmp/record.out")"

# same NAME ARGS...: stock perf annotate --stdio and ours print the same lines
same() {
	local name=$1 st
	shift
	perf annotate --stdio -i "$tmp/perf.data" -d annotate-source-workload "$@" \
		>"$tmp/$name.perf" 2>"$tmp/$name.perf-err"
	st=$?
	[ $st = 0 ] || fail "$name: stock perf annotate $* exits $st: $(head -3 "$tmp/$name.perf-err")"
	"$TEXTPOKE" annotate -i "$tmp/perf.data" -d annotate-source-workload "$@" \
		>"$tmp/$name.ours" 2>"$tmp/$name.err" ||
		fail "$name: perf textpoke annotate $*: $(head -3 "$tmp/$name.err")"
	python3 "$check" perf "$tmp/$name.perf" "$tmp/$name.ours" >"$tmp/$name.check" ||
		fail "$name: annotate $* differs from perf's: $(head -5 "$tmp/$name.check")"
	echo "$name: $(cat "$tmp/$name.check")"
}

same source
same print-line -l
same no-source --no-source -l
same hits-nr -n --percent-type local-hits -l
same asm-raw --asm-raw --source --print-line

# not vacuous: perf's output has source lines of both files, an inlined
# function's name, and -l marks and a summary of more than one line
grep -q "mix():" "$tmp/source.perf" || fail "stock perf names no inlined mix()"
grep -q "return x \* 0x9e3779b97f4a7c15UL;" "$tmp/source.perf" ||
	fail "stock perf prints no line of annotate-source-mix.h"
[ "$(grep -c ' // annotate-source-' "$tmp/print-line.perf")" -ge 2 ] ||
	fail "stock perf marks fewer than 2 instructions with -l"
[ "$(grep -cE '^ +[0-9.]+ annotate-source-[a-z-]+\.[ch]:[0-9]+$' "$tmp/print-line.perf")" -ge 2 ] ||
	fail "stock perf's summary has fewer than 2 lines"
grep -q ", 0 source lines" "$tmp/no-source.check" || fail "--no-source: $(cat "$tmp/no-source.check")"
# asm_loop has a name and no line: perf marks it "??:0" (addr2line's "??:?")
grep -q "jne .* // ??:0$" "$tmp/print-line.perf" || fail "stock perf marks no asm_loop instruction ??:0"
# ... and perf's last mark runs on into the next symbol: asm_loop2's jne, same line, unmarked
grep -q "jne .*<asm_loop2>$" "$tmp/print-line.perf" || fail "stock perf marks asm_loop2's jne"

# report's srcline and srcfile keys on the same recording: asm_loop's "??:0" and no file
perf report --stdio -i "$tmp/perf.data" -d annotate-source-workload -s srcline,srcfile,sym \
	2>&1 | grep -v '^#' | grep -v '^$' >"$tmp/report.perf"
"$TEXTPOKE" report --stdio -i "$tmp/perf.data" -d annotate-source-workload -s srcline,srcfile,sym \
	2>&1 | grep -v '^#' | grep -v '^$' >"$tmp/report.ours"
grep -q '??:0  *\[\.\] asm_loop$' "$tmp/report.perf" || fail "report: stock perf has no ??:0 row of asm_loop"
cmp -s "$tmp/report.perf" "$tmp/report.ours" ||
	fail "report -s srcline,srcfile,sym differs from perf's: $(diff "$tmp/report.perf" "$tmp/report.ours" | head -5)"
echo "report: $(wc -l <"$tmp/report.ours") srcline rows as perf's"

# our source lines and marks against the line table
objdump --dwarf=decodedline "$tmp/annotate-source-workload" >"$tmp/decodedline.txt" 2>&1 ||
	fail "objdump --dwarf=decodedline: $(head -3 "$tmp/decodedline.txt")"
python3 "$check" table "$tmp/print-line.ours" "$tmp/decodedline.txt" "$tmp" \
	annotate-source-mix.h >"$tmp/table.check" ||
	fail "against the line table: $(head -5 "$tmp/table.check")"
echo "table: $(cat "$tmp/table.check")"
exit 0
