/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __PERF_TEXTPOKE_PERF_REGS_H
#define __PERF_TEXTPOKE_PERF_REGS_H

#include "types.h"

/*
 * x86 sample registers (PERF_SAMPLE_REGS_USER / _INTR) named per register
 * ABI.  A 64-bit task keeps perf's mask names (AX, SP, R8, XMM0) so the
 * output matches stock perf line for line; a 32-bit task gets the i386
 * names (eax, esp, eip, eflags) and only the low 32 bits, which is all
 * the kernel fills in for a compat task.
 */

enum perf_regs_kind {
	PERF_REGS_KIND_NONE,
	PERF_REGS_KIND_32,
	PERF_REGS_KIND_64,
	PERF_REGS_KIND_UNKNOWN,
};

/*
 * The kernel defines 0, 1 and 2 and may add flag bits above them later:
 * the kind comes from the low two bits, anything else makes it unknown
 * (printed as a number, named like a 64-bit task).
 */
enum perf_regs_kind perf_regs__kind(u64 abi);

/* "64", "32", "none"; NULL for an unknown ABI word */
const char *perf_regs__abi_name(u64 abi);

/* the name of mask bit @bit for @kind, or NULL when x86 has no such bit */
const char *perf_reg_name(unsigned int bit, enum perf_regs_kind kind);

/* a register value as the task saw it: truncated to 32 bits for kind 32 */
u64 perf_reg_value(u64 val, enum perf_regs_kind kind);

#endif /* __PERF_TEXTPOKE_PERF_REGS_H */
