#!/bin/bash
# report: the code-change report and the per-ABI block only where they have something to say
# SPDX-License-Identifier: GPL-2.0-only
#
# On a recording in which the kernel's code did not change (no TEXT_POKE,
# no KSYMBOL: a user-only profile made now with stock perf record) the
# text report ends with one line saying so, and --changes brings the full
# code-change report back; on the rig's real recording of tracepoint
# toggles (Debian's 6.1 kernel under qemu, checked in) the full report is
# printed unasked.  Whether a recording holds code changes is what stock
# perf report --stats counts, not our reader.  The per-ABI block comes
# with --sort abi, or unasked where the samples hold more than one ABI
# word: the checked-in 32-then-64-bit process (m32-guest/mixed.data), in
# which stock perf script prints both ABI:1 and ABI:2; not on the 64-bit
# profile made now, where it prints ABI:2 alone.
# Mutation caught: report__fprintf() printing the code-change report
# whatever r->opts->changes and the sites say (the user-only profile ends
# in its Consistency block).
# Mutation caught: report_hist__nr_abis() counting every column (the
# 64-bit profile gets the per-ABI block).

. "$(dirname "$0")/lib/report-common.sh"
. "$(dirname "$0")/lib/m32-guest.sh"
need_perf_root
scratch report-quiet
export HOME=$tmp

perf_record "$tmp/user.data" -e cpu-clock:u -F 2000 --user-regs=ip,sp -- \
	sh -c 'i=0; while [ $i -lt 30000 ]; do i=$((i + 1)); done'

# stock perf's count of the records that change kernel code
changes_of() {
	perf report -i "$1" --stats 2>/dev/null |
		awk '/(TEXT_POKE|KSYMBOL) events:/ { n += $3 } END { print n + 0 }'
}
# the distinct ABI words stock perf script prints
abis_of() {
	perf script -i "$1" -F comm,uregs 2>/dev/null | grep -o 'ABI:[0-9]' | sort -u | wc -l
}

# 1. user-only: no change, one ABI
[ "$(changes_of "$tmp/user.data")" = 0 ] || fail "user.data: stock perf counts code changes in it"
[ "$(abis_of "$tmp/user.data")" = 1 ] || fail "user.data: stock perf script prints other than one ABI"
"$TEXTPOKE" report -i "$tmp/user.data" >"$tmp/user.out" 2>"$tmp/user.err" ||
	fail "report user.data: $(head -3 "$tmp/user.err")"
[ "$(tail -1 "$tmp/user.out")" = "# Kernel code changes: none in this recording (--changes prints the full report)" ] ||
	fail "user.data: last line: $(tail -1 "$tmp/user.out")"
grep -q '^# Consistency' "$tmp/user.out" && fail "user.data: the code-change report printed unasked"
grep -q '^# Samples per user-register ABI' "$tmp/user.out" &&
	fail "user.data: the per-ABI block printed for one ABI"
echo "ok: user-only profile: one closing line, no per-ABI block"
"$TEXTPOKE" report -i "$tmp/user.data" --changes >"$tmp/changes.out" 2>"$tmp/changes.err" ||
	fail "report --changes: $(head -3 "$tmp/changes.err")"
grep -q '^#   verdict: ' "$tmp/changes.out" || fail "--changes: no verdict line"
"$TEXTPOKE" report -i "$tmp/user.data" --sort comm,abi >"$tmp/abi.out" 2>&1 ||
	fail "report --sort comm,abi: $(head -3 "$tmp/abi.out")"
grep -q '^# Samples per user-register ABI' "$tmp/abi.out" || fail "--sort abi: no per-ABI block"
echo "ok: --changes prints the code-change report, --sort abi the per-ABI block"

# 2. the real kernel's tracepoint toggles: the full report unasked
src=${TEXTPOKE_SRCDIR:?}/tools/perf/tests/data/kernel-guest/kaslr-tracepoints.ours
[ -f "$src/data.gz" ] || fail "$src: not in the tree"
mkdir -p "$tmp/tp/kcore_dir" &&
	gzip -dc "$src/data.gz" >"$tmp/tp/data" &&
	gzip -dc "$src/kcore_dir/kallsyms.gz" >"$tmp/tp/kcore_dir/kallsyms" &&
	gzip -dc "$src/kcore_dir/kcore.gz" >"$tmp/tp/kcore_dir/kcore" &&
	cp "$src/kcore_dir/modules" "$tmp/tp/kcore_dir/modules" || fail "$src: cannot unpack"
[ "$(changes_of "$tmp/tp")" -gt 0 ] || fail "kaslr-tracepoints: stock perf counts no code change"
"$TEXTPOKE" report -i "$tmp/tp" >"$tmp/tp.out" 2>"$tmp/tp.err" ||
	fail "report kaslr-tracepoints: $(head -3 "$tmp/tp.err")"
grep -q '^#   verdict: trusted' "$tmp/tp.out" ||
	fail "kaslr-tracepoints: $(grep -E '^# (Kernel|  verdict)' "$tmp/tp.out")"
echo "ok: the real kernel's tracepoint toggles: the code-change report, unasked"

# 3. two ABIs in one process: the per-ABI block unasked
m32_guest_check mixed.data
[ "$(abis_of "$m32_guest/mixed.data")" = 2 ] ||
	fail "mixed.data: stock perf script does not print two ABIs"
"$TEXTPOKE" report -i "$m32_guest/mixed.data" >"$tmp/mixed.out" 2>"$tmp/mixed.err" ||
	fail "report mixed.data: $(head -3 "$tmp/mixed.err")"
grep -q '^# Samples per user-register ABI' "$tmp/mixed.out" ||
	fail "mixed.data: no per-ABI block for two ABIs"
echo "ok: a 32-then-64-bit process: the per-ABI block, unasked"
exit 0
