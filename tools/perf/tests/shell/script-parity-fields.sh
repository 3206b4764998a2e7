#!/bin/bash
# script: -F edits that drop ip (-F -ip, -ip,-dso, ...) against perf script
# SPDX-License-Identifier: GPL-2.0-only
#
# perf 6.1 checks that the samples carry an address before it prints sym or
# dso, not that ip is printed: "-F -ip" prints each sample without its ip,
# sym and dso (they print beside ip only), with and without callchains.
# Where stock perf refuses a field list (symoff without sym, addr that the
# samples lack), we must refuse it too.  flags, ipc and callindent, the
# fields of trace-synthesized samples, on ordinary ones.
#
# data_page_size and code_page_size on a recording that has them.
#
# Mutation caught: flags printing no column (the 24 blanks left out); a
# page size printed as perf's unit_number__scnprintf() does not ("4096B").

. "$(dirname "$0")/lib/script-common.sh"
need_perf_root
scratch script
export HOME=$tmp/home
mkdir -p "$HOME"

build_workload "$tmp/w64" || fail "gcc: $(cat "$tmp/gcc.err")"
perf_record "$tmp/f.data" -e cpu-clock "$tmp/w64" 20000000
perf_record "$tmp/g.data" -e cpu-clock -g "$tmp/w64" 20000000

for f in -ip -ip,-dso -ip,-symoff -ip,-sym,-symoff -ip,-dso,-period +pid,-ip; do
	same_output "f$f" "$tmp/f.data" -F "$f"
	same_output "g$f" "$tmp/g.data" -F "$f"
done

# the trace-synthesis fields on ordinary samples: flags keeps its empty
# column, ipc and callindent print nothing, as stock perf prints them
for f in comm,tid,flags,ip,sym comm,time,event,flags,ipc,callindent,ip,sym,dso +flags; do
	same_output "f$f" "$tmp/f.data" -F "$f"
	same_output "g$f" "$tmp/g.data" -F "$f"
done

# page sizes (perf record --code-page-size --data-page-size, kernels >= 5.11)
if HOME=$tmp/home perf record -q -o "$tmp/p.data" -e cpu-clock -d --code-page-size \
	--data-page-size "$tmp/w64" 20000000 >"$tmp/p.err" 2>&1; then
	for f in comm,ip,sym,code_page_size,data_page_size comm,ip,addr,data_page_size; do
		same_output "p$f" "$tmp/p.data" -F "$f"
	done
else
	echo "skip: page sizes: stock perf record refuses them here: $(head -1 "$tmp/p.err")"
fi

# lists stock perf refuses: both exit non-zero, neither prints a sample
for f in -ip,-sym -sym -ip,+addr comm,code_page_size; do
	perf script -i "$tmp/f.data" -F "$f" >"$tmp/refused.perf" 2>&1 &&
		fail "stock perf accepts -F $f: the test's premise is wrong"
	"$TEXTPOKE" script -i "$tmp/f.data" -F "$f" >"$tmp/refused.ours" 2>"$tmp/refused.err" &&
		fail "-F $f: accepted, stock perf refuses it"
	[ -s "$tmp/refused.ours" ] && fail "-F $f: refused but printed samples"
	[ -s "$tmp/refused.err" ] || fail "-F $f: refused without a message"
	echo "ok: -F $f refused as perf does: $(head -1 "$tmp/refused.err")"
done
exit 0
