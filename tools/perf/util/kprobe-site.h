/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __PERF_TEXTPOKE_KPROBE_SITE_H
#define __PERF_TEXTPOKE_KPROBE_SITE_H

#include <stdbool.h>

#include "insn-len.h"
#include "types.h"

struct text_image;

/*
 * What an armed kprobe hides.  x86 arms a kprobe with a one-byte poke of
 * int3 over the first byte of the probed instruction (old byte -> cc).
 * Just before, the kernel copied that instruction into a slot of a
 * kprobe_insn_page, followed by an int3 for the single step: an old_len 0
 * poke there, "41 54 cc" for push %r12.  Decoding the memory at the site
 * gives "int3; push %rsp"; what runs is the instruction in the slot.
 * Some 60 ms later the kprobe optimizer may put a jmp to a detour in a
 * kprobe_optinsn_page over the int3 and the next 4 bytes ("cc 54 49 89
 * f4" -> "e9 ..."), and take it back ("e9 ..." -> "cc 54 49 89 f4") when
 * optimization is turned off; the probe stays armed through both.
 */
struct kprobe_site {
	/*
	 * The probed instruction as it is at the site: the arming poke's
	 * old byte, then the site's bytes after the int3 (the slot's copy
	 * where the site's are unknown; a RIP-relative copy has its
	 * displacement moved, the site's has not).  orig_len 0: no slot
	 * tells the instruction (a lost record, a slot filled before the
	 * recording): print int3 alone.
	 */
	u8 orig[2 * INSN_LEN_MAX];
	u8 orig_len;
	/*
	 * The probed instruction's length as the arming poke's old byte and
	 * the site's bytes decode, slot or not (0: they do not)
	 */
	u8 site_len;
	u64 slot; /* the slot's (or detour's copy's) address, 0 when orig_len is 0 */
	/*
	 * the optimizer replaced the int3 and the next 4 bytes by a jmp to a
	 * detour: orig then holds every instruction the jmp covers (5 bytes
	 * or more), copied from the detour
	 */
	bool optimized;
	u64 arm_time; /* when the int3 was put there */
};

/*
 * Whether @ip at @time holds a kprobe: the last one-byte poke there put
 * int3 over another byte, and the byte is int3, or the optimizer's jmp
 * whose detour's bytes the recording holds.  1 with @kp filled, 0 when
 * not (an optimized probe whose detour is not known included).
 */
int kprobe_site__find(struct text_image *ti, u64 ip, u64 time, struct kprobe_site *kp);
/*
 * The length of the instruction @at bytes into @kp's orig (1 for the int3
 * alone, or where orig does not decode there: never 0, for a listing to
 * move on)
 */
int kprobe_site__insn_len(const struct kprobe_site *kp, size_t at);

#endif /* __PERF_TEXTPOKE_KPROBE_SITE_H */
