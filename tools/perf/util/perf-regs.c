// SPDX-License-Identifier: GPL-2.0-only
/*
 * Register names per ABI.  The bit numbers are the kernel's
 * arch/x86/include/uapi/asm/perf_regs.h: the general registers in
 * pt_regs order, R8..R15 at 16..23 and XMM0..XMM15 from 32, two bits
 * each (a 128-bit register is two u64 halves; perf names only the even
 * bit).
 */
#include <stdio.h>

#include "perf-regs.h"

static const char *const regs64[24] = {
    "AX", "BX", "CX", "DX", "SI", "DI", "BP",  "SP",  "IP",  "FLAGS", "CS",  "SS",
    "DS", "ES", "FS", "GS", "R8", "R9", "R10", "R11", "R12", "R13",   "R14", "R15",
};

/* what a compat task's registers are called on i386 */
static const char *const regs32[24] = {
    "eax", "ebx", "ecx", "edx", "esi", "edi", "ebp", "esp", "eip", "eflags", "cs",  "ss",
    "ds",  "es",  "fs",	 "gs",	"r8",  "r9",  "r10", "r11", "r12", "r13",    "r14", "r15",
};

static const char *const xmm64[16] = {
    "XMM0", "XMM1", "XMM2",  "XMM3",  "XMM4",  "XMM5",	"XMM6",	 "XMM7",
    "XMM8", "XMM9", "XMM10", "XMM11", "XMM12", "XMM13", "XMM14", "XMM15",
};

static const char *const xmm32[16] = {
    "xmm0", "xmm1", "xmm2",  "xmm3",  "xmm4",  "xmm5",	"xmm6",	 "xmm7",
    "xmm8", "xmm9", "xmm10", "xmm11", "xmm12", "xmm13", "xmm14", "xmm15",
};

enum perf_regs_kind perf_regs__kind(u64 abi)
{
	if (abi & ~(u64)3)
		return PERF_REGS_KIND_UNKNOWN;
	switch (abi) {
	case 0:
		return PERF_REGS_KIND_NONE;
	case 1:
		return PERF_REGS_KIND_32;
	case 2:
		return PERF_REGS_KIND_64;
	default:
		return PERF_REGS_KIND_UNKNOWN;
	}
}

const char *perf_regs__abi_name(u64 abi)
{
	switch (perf_regs__kind(abi)) {
	case PERF_REGS_KIND_NONE:
		return "none";
	case PERF_REGS_KIND_32:
		return "32";
	case PERF_REGS_KIND_64:
		return "64";
	default:
		return NULL;
	}
}

const char *perf_reg_name(unsigned int bit, enum perf_regs_kind kind)
{
	bool is32 = kind == PERF_REGS_KIND_32;

	if (bit < 24)
		return is32 ? regs32[bit] : regs64[bit];
	/* perf names only the low half of each XMM register */
	if (bit >= 32 && bit < 64 && !(bit & 1))
		return is32 ? xmm32[(bit - 32) / 2] : xmm64[(bit - 32) / 2];
	return NULL;
}

u64 perf_reg_value(u64 val, enum perf_regs_kind kind)
{
	return kind == PERF_REGS_KIND_32 ? (u32)val : val;
}
