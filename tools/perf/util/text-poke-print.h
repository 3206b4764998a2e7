/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __PERF_TEXTPOKE_TEXT_POKE_PRINT_H
#define __PERF_TEXTPOKE_TEXT_POKE_PRINT_H

#include <stddef.h>

#include "disasm.h"
#include "event.h"
#include "types.h"

struct text_image;
struct machine;
struct thread;

/*
 * What perf textpoke prints about kernel code as of a moment: the pieces
 * `script` puts into its lines and `code` into its listing.  Each writes
 * at most @size bytes (NUL included) into @buf and returns the length
 * written, 0 when it has nothing to say, like scnprintf().
 */

/*
 * The `insn` field as perf 6.1 prints `-F insn`: " insn: 0f 1f 44 00 00",
 * the bytes of the one instruction at @ip as of @time, its length from
 * our own decoder (insn-len.h, never capstone).  A byte no image or poke
 * tells is "??" (see insn_len__scnprintf_field()).  Empty when the first
 * byte is unknown or the bytes do not decode (as perf prints nothing then).
 * A kprobe's int3 is the exception: see KPROBED_TAG.
 */
int text_poke__scnprintf_insn(char *buf, size_t size, struct text_image *ti, u64 ip, u64 time);
/* the length of the instruction at @ip at @time, 0 when its bytes are not known enough */
int text_poke__insn_len(struct text_image *ti, u64 ip, u64 time);

/* The `disasm` field: " jmp fk_jl5_fn+0x44" (leading space), or empty */
int text_poke__scnprintf_disasm(char *buf, size_t size, struct text_image *ti, u64 ip, u64 time,
				disasm_sym_fn sym, void *arg);

/*
 * A kprobed instruction (kprobe-site.h) is printed as the instruction the
 * probe replaced, tagged: " insn: 41 54 [kprobed]", " push %r12 [kprobed]";
 * as "int3 [kprobed]" when no slot tells it.  Both tags start with
 * KPROBED_TAG less its "]".
 */
#define KPROBED_TAG " [kprobed]"
/* an optimized probe's: the jmp to its detour is in memory, orig in the detour */
#define KPROBED_OPT_TAG " [kprobed, optimized]"

struct kprobe_site;
struct disasm_insn;

/*
 * The instruction @at bytes into what @kp replaced at @ip, as the disasm
 * field and code print it, tag included, into @insn->text; returns its
 * length (1 for int3 alone)
 */
int text_poke__kprobed_text(const struct kprobe_site *kp, u64 ip, size_t at,
			    struct disasm_insn *insn, disasm_sym_fn sym, void *arg);

/*
 * The marker for a sample whose instruction bytes a poke changed before
 * the sample ran: " [poked 1.000002000]" with the last such poke's time,
 * empty otherwise.
 */
int text_poke__scnprintf_marker(char *buf, size_t size, struct text_image *ti, u64 ip, u64 time);

/*
 * For --show-text-poke-events, after perf's own lines: the poke decoded
 * and checked, "  nop5 -> jmp fk_jl5_fn+0x44 (verified)".  Before
 * text_image__finish() (one pass over a pipe, the poke already given to
 * text_image__process_event()) the verdict comes from the pokes so far.
 */
int text_poke__scnprintf_event(char *buf, size_t size, struct text_image *ti,
			       const struct perf_record_text_poke *tp, u64 time, disasm_sym_fn sym,
			       void *arg);

/*
 * A disasm_sym_fn naming addresses as the machine knew them at ->time
 * (KSYMBOLs come and go, so do user maps): "fk_jl5_fn+0x44".  Kernel
 * addresses unless ->cpumode says user.
 */
struct text_poke_sym {
	struct thread *thread; /* any thread of the machine for kernel lookups */
	u64 time;
	u8 cpumode; /* 0: PERF_RECORD_MISC_KERNEL */
};

bool text_poke__sym(u64 addr, char *buf, size_t size, void *arg);

#endif /* __PERF_TEXTPOKE_TEXT_POKE_PRINT_H */
