#!/bin/bash
# textimage: perf textpoke code shows a real recording's BPF programs under perf's names
# SPDX-License-Identifier: GPL-2.0-only
#
# A public recording (perf 5.19, x86_64) whose BPF programs' JIT bytes are
# in bpf_prog_info.  For each program stock perf reports with a KSYMBOL,
# perf textpoke code at its address must name it as perf does and decode
# its code: the x86 BPF JIT prologue as the kernel's emit_prologue() lays
# it (5.19): nop5 for a trampoline at the address; at +5, for programs not
# converted from classic BPF, xor %eax,%eax (31 c0: tail-call counter) or
# a 2-byte nop (66 90); then push %rbp (55), each checked on the line at
# its address, with no unknown or undecodable bytes.
# Mutation caught: capstone's "pushq" no longer renamed "push" as objdump
# spells it (disasm.c mnemonic()): the push %rbp line is then missing.

[ -n "$TEXTPOKE" ] || { echo "TEXTPOKE not set: run through perf-textpoke test"; exit 2; }
"$TEXTPOKE" code -h >/dev/null 2>&1 ||
	{ echo "'perf textpoke code' is not in builtin-textpoke.c's command table yet"; exit 2; }
command -v perf >/dev/null 2>&1 || { echo "stock perf is not installed"; exit 2; }
file="${TEXTPOKE_CORPUS:-}/perf_data_converter/perf.data.branch_stack_spec"
[ -r "$file" ] || { echo "corpus file $file not found"; exit 2; }
tmp=$(mktemp -d /tmp/textpoke-code.XXXXXX) || exit 1
trap 'rm -rf "$tmp"' EXIT

perf report -D -i "$file" 2>/dev/null |
	sed -n 's/.*PERF_RECORD_KSYMBOL addr \([0-9a-f]*\) len [0-9]* type 1 flags 0x0 name \(.*\)$/\1 \2/p' \
	>"$tmp/ksyms"
[ -s "$tmp/ksyms" ] || { echo "FAIL: stock perf shows no BPF KSYMBOL in $file"; exit 1; }

n=0
while read -r addr name; do
	"$TEXTPOKE" code -i "$file" --no-kcore --time 0 "$addr" 8 >"$tmp/out" 2>"$tmp/err" ||
		{ cat "$tmp/err"; echo "FAIL: perf textpoke code $addr"; exit 1; }
	if ! grep -qx "$addr <$name>:" "$tmp/out"; then
		cat "$tmp/out"
		echo "FAIL: $addr is not named $name as stock perf names it"
		exit 1
	fi
	# BPF trampolines and dispatchers have a KSYMBOL but no bpf_prog_info
	case $name in bpf_prog_*) ;; *) n=$((n + 1)); continue ;; esac
	a5=$(printf '%x' $((0x$addr + 5)))
	a7=$(printf '%x' $((0x$addr + 7)))
	if ! grep -q "^$addr:  0f 1f 44 00 00 .*nopl" "$tmp/out" ||
	   ! { grep -q "^$a5:  55 .*push %rbp\$" "$tmp/out" ||
	       { grep -q "^$a5:  \(66 90 .*nop\|31 c0 .*xorl %eax,%eax\)\$" "$tmp/out" &&
		 grep -q "^$a7:  55 .*push %rbp\$" "$tmp/out"; }; } ||
	   grep -q '??\|(bad)' "$tmp/out"; then
		cat "$tmp/out"
		echo "FAIL: $name at $addr: not the BPF JIT prologue (nop5, [66 90 | 31 c0,] push %rbp)"
		exit 1
	fi
	n=$((n + 1))
done <"$tmp/ksyms"
echo "ok: $n BPF programs named and decoded as stock perf names them"
exit 0
