#!/bin/bash
# report: sort keys dso_size, symoff, srcline, srcfile, parent, names in any case, -p, -x, --symbol-filter, --ignore-callees, --hierarchy
# SPDX-License-Identifier: GPL-2.0-only
#
# The report workload (two threads; main in alpha, beta and calls, which
# makes system calls; the worker in alpha and beta), built with -g, is
# recorded now by stock perf record, with and without -g (cpu-clock).
# Both reports read the same file, so sampling luck changes what is
# compared, not whether it must be equal.  Byte for byte with stock perf
# report --stdio 6.1: key names in any case (--sort DSO,Sym, -F
# Overhead,COMM), dso_size, srcline, srcfile (alone and beside other
# keys, perf's widths, "sym+off" where there is no line, an empty file
# there), parent with -p (added after the default keys), its default
# expression, -x, and --sort parent,sym, whose parent is the first match
# in perf's chain order: the outermost with Children (main), the
# innermost without (calls); --symbol-filter; with and without the
# call-graph trees; --ignore-callees (the matching frame becomes the
# sample's place, the frames perf resolved before it dropped: callees in
# callee order, callers in caller order), with and without trees and
# beside -p; --hierarchy without trees (perf's levels: indent,
# overhead columns shifted, values without leading blanks, no Children,
# the parent in caller order still).
#
# Where perf is wrong, something else is the oracle:
# - --symbol-filter without the comm key: perf 6.1 filters in its
#   collapse pass, which it runs only for keys that need one (comm here),
#   so with --sort sym,dso it shows every entry; the oracle is perf's
#   unfiltered rows whose symbol holds the string.
# - symoff is not in perf 6.1 (upstream added it in 6.7): checked that
#   stock perf refuses it, then each row's sample count (-n) against the
#   samples stock perf script -F ip,sym,symoff gives that sym+0xoff.
# - srcline and srcfile with Children: perf 6.1 looks a chain frame's
#   line up at its address as recorded, not the object's, so every
#   frame row reads "main+94648509448322" (the runtime address less the
#   symbol's start) and no file.  Ours is compared with perf where
#   perf's answer is right (--no-children), and with Children each row
#   of the workload's own object (--sort dso,symoff,srcline: the address
#   is nm's symbol address plus the offset) must equal binutils'
#   addr2line at that address.
# Refused, one line and a non-zero exit: --sort parent on a recording
# without callchains (perf 6.1 says so and exits 0 with no profile).
#
# Mutation caught: report__parent_frame() returning 1 (stop at the first
# match) in caller order too: --sort parent,sym -p '^main|^calls' with
# Children gives calls where perf gives main (g-parent-order).  And:
# place__srclines() printing the unknown line's offset in hex
# ("%s+%#llx"): the kernel's srcline rows read pvm_irq_enable+0x19 where
# perf prints +25 (nog-srcline).  And: hier__row() padding the overhead
# columns by the row's depth instead of the deepest level's
# ((hr->nr_keys - 1) made depth): nog-hier's rows move.  And:
# report__chain() keeping the frames after the root's but not the root's
# own (keep_lo = root + 1): g-ignore-main-self's tree loses its chain.

. "$(dirname "$0")/lib/report-common.sh"
need_perf_root
scratch report-keys
command -v addr2line >/dev/null 2>&1 || skip "binutils' addr2line is not installed"
command -v nm >/dev/null 2>&1 || skip "binutils' nm is not installed"

build_report_workload "$tmp/w" || fail "gcc: $(cat "$tmp/gcc.err")"
perf_record "$tmp/nog.data" -e cpu-clock "$tmp/w" 20000000
perf_record "$tmp/g.data" -e cpu-clock -g "$tmp/w" 20000000

nog=$tmp/nog.data
# srcline and srcfile of the workload and the kernel ("sym+off"): the
# samples start-up leaves in ld.so and libc by luck may fall where stock
# perf's binutils addr2line names another file of a DWARF 5 line table
# than libdw does ("dl-get-cpu-features.c:321" for dl-cacheinfo.h:321)
lines="--dsos w,[kernel.kallsyms]"
g=$tmp/g.data
same_report nog-case-sort "$nog" --sort DSO,Sym
same_report nog-case-fields "$nog" -F Overhead,COMM,Dso
same_report nog-dso-size "$nog" --sort dso_size
same_report nog-dso-size-dso "$nog" --sort dso_size,dso -n
same_report nog-srcline "$nog" --sort srcline $lines
same_report nog-srcfile "$nog" --sort srcfile $lines
same_report nog-srcline-sym "$nog" --sort srcline,sym $lines
same_report nog-srcfile-dso "$nog" --sort srcfile,dso -n $lines
same_report nog-comm-lines "$nog" --sort comm,srcline,srcfile $lines
same_report nog-fields-srcline "$nog" -F overhead,SrcLine,dso $lines
same_report nog-symfilter "$nog" --symbol-filter=al
# perf 6.1 applies --symbol-filter only in its collapse pass, which
# only the comm key of ours needs: without comm it shows every entry.
# There the oracle is perf's rows without the filter whose symbol holds
# the string (our widths are of the rows shown, as perf's where it filters)
perf_report -i "$nog" --sort sym,dso >"$tmp/symf.perf" 2>/dev/null || fail "symfilter: stock perf failed"
awk '!/^#/ && NF && index($3, "al") { print $1, $2, $3, $4 }' "$tmp/symf.perf" >"$tmp/symf.want"
ours_report -i "$nog" --sort sym,dso --symbol-filter=al 2>"$tmp/symf.err" |
	awk '!/^#/ && NF { print $1, $2, $3, $4 }' >"$tmp/symf.ours" || fail "symfilter: $(cat "$tmp/symf.err")"
[ -s "$tmp/symf.want" ] || fail "symfilter: no row of stock perf's holds 'al'"
cmp -s "$tmp/symf.want" "$tmp/symf.ours" ||
	{ diff -u "$tmp/symf.want" "$tmp/symf.ours"; fail "symfilter: --sort sym,dso rows differ"; }
echo "ok: nog-symfilter-sym: $(wc -l <"$tmp/symf.ours") rows, perf's unfiltered rows holding 'al'"

same_report g-case "$g" -g none --sort DSO,Sym
same_report g-dso-size "$g" -g none --sort dso_size
same_report g-parent "$g" -g none -p '^beta|^calls'
same_report g-parent-x "$g" -g none -p '^beta|^calls' -x
same_report g-parent-x-self "$g" -g none -p '^beta|^calls' -x --no-children
same_report g-parent-order "$g" -g none --sort parent,sym -p '^main|^calls'
same_report g-parent-order-self "$g" -g none --sort parent,sym -p '^main|^calls' --no-children
same_report g-parent-default "$g" -g none --sort parent,dso
same_report g-symfilter "$g" -g none --symbol-filter=al -n
same_report g-srcline-self "$g" -g none --sort srcline --no-children $lines
same_report g-srcfile-self "$g" -g none --sort srcfile,sym --no-children $lines
# with the trees
same_report g-tree-parent "$g" -p '^beta|^calls'
same_report g-tree-parent-x "$g" -p '^beta|^calls' -x --no-children
same_report g-tree-symfilter "$g" --symbol-filter=al
same_report g-tree-dso-size "$g" --sort dso_size
same_report g-tree-srcline-self "$g" --sort srcline --no-children $lines

# --ignore-callees: the matching frame is the sample's place, the chain
# resolved before it (its callees in callee order) forgotten
same_report g-ignore-main "$g" --ignore-callees '^main$'
same_report g-ignore-main-self "$g" --ignore-callees '^main$' --no-children --sort sym
same_report g-ignore-calls-self "$g" --ignore-callees '^calls$' --no-children
same_report g-ignore-flat "$g" --ignore-callees '^calls$|^main$' -g none
same_report g-ignore-kernel "$g" --ignore-callees '^do_syscall' -g callee
same_report g-ignore-parent "$g" --ignore-callees getppid -p '^main|^calls' --sort parent,sym -g none
same_report nog-ignore "$nog" --ignore-callees '^main$'

# --hierarchy, flat
same_report nog-hier "$nog" --hierarchy
same_report nog-hier-n "$nog" --hierarchy -n --sort dso,sym
same_report nog-hier-sym "$nog" --hierarchy --sort sym,dso
same_report nog-hier-pid "$nog" --hierarchy --sort dso,pid,cpu
same_report nog-hier-size "$nog" --hierarchy --sort DSO_size,dso,sym
same_report g-hier "$g" --hierarchy -g none
same_report g-hier-parent "$g" --hierarchy -g none --sort parent,sym -p '^main|^calls'
same_report g-hier-parent-self "$g" --hierarchy -g none --no-children --sort parent,sym -p '^main|^calls'

# symoff: not in perf 6.1; stock perf script's sym+0xoff per sample instead
HOME=$tmp perf report --stdio -i "$nog" --sort symoff >/dev/null 2>"$tmp/symoff.perf-err"
grep -q "Unknown --sort key: .symoff" "$tmp/symoff.perf-err" ||
	fail "stock perf report takes --sort symoff: compare it byte for byte instead"

for f in "$nog" "$g"; do
	HOME=$tmp perf script -i "$f" -F ip,sym,symoff --hide-call-graph 2>/dev/null |
		awk '$2 ~ /\+0x/ { n[$2]++ } END { for (k in n) print k, n[k] }' |
		sort >"$tmp/symoff.perf"
	ours_report -i "$f" --sort symoff -n --no-children -g none 2>"$tmp/symoff.err" |
		awk '!/^#/ && $4 ~ /\+0x/ { print $4, $2 }' | sort >"$tmp/symoff.ours" ||
		fail "symoff: $(head -3 "$tmp/symoff.err")"
	[ "$(wc -l <"$tmp/symoff.perf")" -gt 5 ] || fail "symoff: stock perf script gave few symbols"
	if ! cmp -s "$tmp/symoff.perf" "$tmp/symoff.ours"; then
		diff -u "$tmp/symoff.perf" "$tmp/symoff.ours" | head -20
		fail "symoff: sample counts differ from stock perf script's sym+0xoff ($f)"
	fi
	echo "ok: symoff: $(wc -l <"$tmp/symoff.ours") sym+0xoff rows, counts as stock perf script"
done

# srcline with Children: the workload's rows against addr2line
ours_report -i "$g" -g none --sort dso,symoff,srcline >"$tmp/lines.ours" 2>"$tmp/lines.err" ||
	fail "children srcline: $(head -3 "$tmp/lines.err")"
nm "$tmp/w" >"$tmp/w.nm"
n=0
while read -r dso symoff line; do
	sym=${symoff%+0x*}
	off=${symoff##*+}
	# a PLT entry's name is made up (by perf, by us): nm has none
	[ "${sym%@plt}" = "$sym" ] || continue
	start=$(awk -v s="$sym" '$3 == s { print $1; exit }' "$tmp/w.nm")
	[ -n "$start" ] || fail "children srcline: nm has no $sym"
	want=$(addr2line -e "$tmp/w" "$(printf '%x' $((0x$start + off)))" | sed 's/ (discriminator [0-9]*)//')
	# a function without a line (crt1's _start: "??:?"): perf's line 0;
	# nothing known ("??:0"): perf's sym+offset, in decimal
	case $want in
	"??:0") want="$sym+$((off))" ;;
	*:\?) want="${want%:?}:0" ;;
	esac
	[ "$line" = "${want##*/}" ] ||
		fail "children srcline: $dso $symoff is $line, addr2line says ${want##*/}"
	n=$((n + 1))
done < <(awk '!/^#/ && $3 == "w" { print $3, $5, $6 }' "$tmp/lines.ours")
[ $n -gt 3 ] || fail "children srcline: only $n rows of the workload"
grep -q '^ *[0-9.]*% *0.00%  w .*\[\.\] main+' "$tmp/lines.ours" ||
	fail "children srcline: no row of main's call sites (chain frames)"
echo "ok: children srcline: $n rows of w equal to addr2line at nm's address + offset"

# refused forms: one line, non-zero status
refused() {
	local name=$1 want=$2
	shift 2
	"$TEXTPOKE" report --no-changes "$@" >"$tmp/r.out" 2>"$tmp/r.err" &&
		fail "$name: exit 0 for $*"
	[ "$(wc -l <"$tmp/r.err")" = 1 ] && grep -q -e "$want" "$tmp/r.err" ||
		fail "$name: expected one line holding '$want', got: $(head -3 "$tmp/r.err")"
	[ -s "$tmp/r.out" ] && fail "$name: printed a report"
	echo "ok: $name refused: $(cat "$tmp/r.err")"
}
refused parent-nochain "--sort parent: .* has no callchains" -i "$nog" --sort parent
refused parent-regex "--parent (: not a regular expression" -i "$g" -p '('
exit 0
