// SPDX-License-Identifier: GPL-2.0-only
/*
 * A frame whose CFA is kept in rbx, called into a leaf that never saves
 * rbx: the shape of glibc's _dl_runtime_resolve_xsavec (the lazy-binding
 * trampoline aligns the stack for xsave and says "CFA = rbx + 16") and
 * _dl_fixup's first instructions.  realigned() aligns the stack to 64
 * bytes the same way and calls spin(), where the time goes.  spin()'s
 * CFI gives rbx no rule: by the psABI a callee-saved register without
 * one keeps its value, so the caller's CFA is the sampled rbx + 16.  An
 * unwinder that takes "no rule" for "undefined" (elfutils 0.188's x86-64
 * defaults name DWARF register 0 where they mean rbx, 3) stops at
 * realigned(); stock perf's libunwind walks on to main().
 * Built -O2 -g -fomit-frame-pointer, as the other unwind-*.c workloads.
 * Usage: unwind-realign [seconds] (0.5 when omitted)
 */
#include <stdlib.h>
#include <time.h>

void realigned(long n);
void spin(long n);

__asm__(".text\n"
	".globl spin\n"
	".type spin, @function\n"
	"spin:\n"
	".cfi_startproc\n"
	"1:	dec %rdi\n"
	"	jnz 1b\n"
	"	ret\n"
	".cfi_endproc\n"
	".size spin, .-spin\n"
	".globl realigned\n"
	".type realigned, @function\n"
	"realigned:\n"
	".cfi_startproc\n"
	"	push %rbx\n"
	".cfi_adjust_cfa_offset 8\n"
	".cfi_rel_offset %rbx, 0\n"
	"	mov %rsp, %rbx\n"
	".cfi_def_cfa_register %rbx\n"
	"	and $-64, %rsp\n"
	"	sub $512, %rsp\n"
	"	call spin\n"
	"	mov %rbx, %rsp\n"
	".cfi_def_cfa_register %rsp\n"
	"	pop %rbx\n"
	".cfi_adjust_cfa_offset -8\n"
	".cfi_restore %rbx\n"
	"	ret\n"
	".cfi_endproc\n"
	".size realigned, .-realigned\n");

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	double end = now() + (argc > 1 ? atof(argv[1]) : 0.5);

	while (now() < end)
		realigned(200000);
	return 0;
}
