#!/bin/bash
# record: the kernel MMAP spans _text.._etext of /proc/kallsyms, found in one pass
# SPDX-License-Identifier: GPL-2.0-only
# Exclusive: it records the whole system (-a), which another test would load
#
# The recorder finds _text (or _stext) and _etext in a single read of
# /proc/kallsyms, the slowest file it reads at start; the synthesized
# kernel MMAP2 that stock perf shows must start at _text and end at
# _etext, as perf record's does.
# Mutation caught: kallsyms__kernel_text() stopping at the first of the
# three names (_etext never found: the map runs to the end of the address
# space).

. "$(dirname "$0")/lib/record-common.sh"
need_perf_root
scratch record-load-kmap
export HOME=$tmp

text=$(awk '$3 == "_text" { print $1; exit }' /proc/kallsyms)
[ -n "$text" ] || text=$(awk '$3 == "_stext" { print $1; exit }' /proc/kallsyms)
etext=$(awk '$3 == "_etext" { print $1; exit }' /proc/kallsyms)
[ -n "$text" ] && [ -n "$etext" ] || skip "/proc/kallsyms has no _text/_stext or _etext"
[ "$((16#$text))" != 0 ] || skip "kernel addresses are hidden (kptr_restrict)"
want=$(printf '[0x%x(0x%x) @ 0x%x ' "$((16#$text))" "$((16#$etext - 16#$text))" "$((16#$text))")

record "$tmp/k.data" -q --no-bpf-capture -e cpu-clock -a -- true
perf report -D -i "$tmp/k.data" 2>/dev/null | grep "PERF_RECORD_MMAP2 -1/0: .*\[kernel.kallsyms\]_text$" \
	>"$tmp/kmap" || fail "stock perf shows no kernel MMAP2 in our file"
[ "$(wc -l <"$tmp/kmap")" = 1 ] || fail "more than one kernel MMAP2: $(cat "$tmp/kmap")"
grep -qF "$want" "$tmp/kmap" || fail "kallsyms says $want, the file: $(cat "$tmp/kmap")"
echo "ok: kernel MMAP2 $want as /proc/kallsyms' _text/_etext"
