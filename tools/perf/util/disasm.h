/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __PERF_TEXTPOKE_DISASM_H
#define __PERF_TEXTPOKE_DISASM_H

#include <stdbool.h>
#include <stddef.h>

#include "types.h"

/*
 * x86 instruction decoding (capstone, AT&T syntax as perf and objdump
 * print it).  Without capstone every function returns -EOPNOTSUPP and
 * disasm__available() says so once.
 */

/*
 * Names a branch target: writes "sym+0xoff" (or "sym") into @buf and
 * returns true, or false to have the address printed as a number.
 */
typedef bool (*disasm_sym_fn)(u64 addr, char *buf, size_t size, void *arg);

struct disasm_insn {
	u64 addr;
	u8 len;
	char text[160]; /* "jmp fk_jl5_fn+0x44", "nopl (%rax,%rax)" */
};

bool disasm__available(void);

/*
 * Decode the instruction at @bytes (@len of them, at address @addr).
 * Returns its length, -EINVAL when the bytes are not a whole instruction,
 * -EOPNOTSUPP without capstone.  @sym may be NULL.
 */
int disasm__one(const u8 *bytes, size_t len, u64 addr, struct disasm_insn *insn, disasm_sym_fn sym,
		void *arg);
/* the same for the code of a 32-bit object: 40..4f are inc/dec there, not REX */
int disasm__one_32(const u8 *bytes, size_t len, u64 addr, struct disasm_insn *insn,
		   disasm_sym_fn sym, void *arg);

/*
 * A poke's bytes in a few words, for "old -> new": "nop5" (a run of nops
 * of that many bytes), "jmp fk_jl5_fn+0x44", "int3", several instructions
 * joined with "; ", "(none)" for no bytes, the bytes in hex (or "<N bytes>"
 * past 8) when they do not decode.  Never fails: without capstone it prints the bytes.
 */
void disasm__describe(const u8 *bytes, size_t len, u64 addr, char *buf, size_t size,
		      disasm_sym_fn sym, void *arg);

/* release the decoder (at exit; the next call opens it again) */
void disasm__exit(void);

#endif /* __PERF_TEXTPOKE_DISASM_H */
