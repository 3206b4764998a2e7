/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __PERF_TEXTPOKE_INSN_LEN_H
#define __PERF_TEXTPOKE_INSN_LEN_H

#include <stddef.h>

#include "types.h"

/*
 * x86 instruction lengths, decided the way perf's own decoder
 * (arch/x86/lib/insn.c, the one behind perf script -F insn) decides them:
 * legacy, REX, VEX, EVEX prefixes, the one-byte, 0f, 0f 38 and 0f 3a
 * opcode maps, ModRM, SIB, displacement and immediates.  Nothing is
 * disassembled: only the length, which is what -F insn prints, so insn
 * never needs capstone.
 */

/* the longest x86 instruction; longer is not an instruction */
#define INSN_LEN_MAX 15

enum insn_len_flags {
	INSN_LEN_64 = 1 << 0, /* 64-bit mode; else 32-bit */
	INSN_LEN_16 = 1 << 1, /* 16-bit default operand and address size (with !INSN_LEN_64) */
	/*
	 * AMD XOP (8f with a map field of 8 or more) as AMD defines it.
	 * perf's decoder has no XOP and reads 8f as POP Ev: without this
	 * flag so do we.
	 */
	INSN_LEN_XOP = 1 << 2,
};

/*
 * The length of the instruction at @bytes (@len of them, at most
 * INSN_LEN_MAX are looked at).  @known, when not NULL, says which bytes
 * are known (nonzero) and which are not: a byte that only has to be
 * there (a displacement, an immediate) may be unknown, a byte whose value
 * decides the length may not.
 *
 * Returns the length, or
 *   -ENODATA  the bytes end before the instruction does (or it would be
 *             longer than INSN_LEN_MAX)
 *   -EINVAL   an encoding perf's decoder refuses (a VEX form of an opcode
 *             that has none, a VEX-only opcode without VEX, ...)
 *   -EAGAIN   the byte at *@unknown_at decides the length and is unknown
 */
int insn_len(const u8 *bytes, const u8 *known, size_t len, unsigned int flags, size_t *unknown_at);

/*
 * The insn field as perf script prints it, " insn: 0f 1f 44 00 00": the
 * bytes of the one instruction at @bytes.  A byte that is not known reads
 * "??"; when such a byte decides the length, it is followed by " ...",
 * the length being unknown too (" insn: 48 ?? ...").  Writes nothing and
 * returns 0 when the first byte is unknown or the bytes do not decode
 * (perf prints nothing then).  Returns the length written, scnprintf
 * style: at most @size - 1 characters and a NUL.
 */
int insn_len__scnprintf_field(char *buf, size_t size, const u8 *bytes, const u8 *known, size_t len,
			      unsigned int flags);

#endif /* __PERF_TEXTPOKE_INSN_LEN_H */
