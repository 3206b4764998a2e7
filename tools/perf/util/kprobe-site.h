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
	u8 orig[INSN_LEN_MAX];
	u8 orig_len;
	/*
	 * The probed instruction's length as the arming poke's old byte and
	 * the site's bytes decode, slot or not (0: they do not)
	 */
	u8 site_len;
	u64 slot;     /* the slot's address, 0 when orig_len is 0 */
	u64 arm_time; /* when the int3 was put there */
};

/*
 * Whether @ip at @time holds a kprobe's int3: the byte is cc and the last
 * poke there was a one-byte poke that put it over another byte.  1 with
 * @kp filled, 0 when not.
 */
int kprobe_site__find(struct text_image *ti, u64 ip, u64 time, struct kprobe_site *kp);

#endif /* __PERF_TEXTPOKE_KPROBE_SITE_H */
