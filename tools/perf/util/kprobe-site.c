// SPDX-License-Identifier: GPL-2.0-only
/*
 * Finding the instruction a kprobe's int3 hides (kprobe-site.h).  Nothing
 * in the records ties a slot to its site: the arming poke says only
 * "old byte -> cc" at the site, the slot's poke only what the slot got.
 * The slot is recognised by its shape: the probed instruction, whose
 * first byte is the arming poke's old byte and whose length is what the
 * site decodes to, then the way back the kernel puts after it: an int3 to
 * trap the single step, or (a boosted probe, kernels without preemption)
 * a jmp back to the instruction after the site.  Of the slots so shaped,
 * the last one filled before the arming poke is the probe's: the kernel
 * fills the slot while registering the probe, then arms it.
 */
#include <string.h>

#include "kprobe-site.h"
#include "text-image.h"

#define INT3 0xcc

struct slot_search {
	u64 ip, arm_time;
	u8 first;     /* the byte the int3 replaced */
	int site_len; /* the length the site decodes to, <= 0 when not known */
	struct textpoke_poke best;
	bool found;
};

/* the probed instruction's length when @p is shaped as its slot, else 0 */
static int slot__insn_len(const struct slot_search *s, const struct textpoke_poke *p)
{
	const u8 *b = p->new_bytes;
	int len;
	s32 rel;

	if (p->old_len || p->new_len < 2 || b[0] != s->first || p->time > s->arm_time)
		return 0;
	if (b[p->new_len - 1] == INT3) {
		len = p->new_len - 1;
	} else if (p->new_len > 5 && b[p->new_len - 5] == 0xe9) {
		len = p->new_len - 5;
		memcpy(&rel, b + len + 1, 4);
		/* the jmp back lands right after the probed instruction */
		if (p->addr + p->new_len + (s64)rel != s->ip + len)
			return 0;
	} else {
		return 0;
	}
	if (insn_len(b, NULL, len, INSN_LEN_64, NULL) != len)
		return 0;
	if (s->site_len > 0 && s->site_len != len)
		return 0;
	return len;
}

static int slot_search__site(struct textpoke_site *site, void *arg)
{
	struct slot_search *s = arg;
	size_t nr = textpoke_site__nr_pokes(site);
	struct textpoke_poke p;

	for (size_t i = 0; i < nr; i++) {
		if (textpoke_site__poke(site, i, &p) || !slot__insn_len(s, &p))
			continue;
		if (!s->found || p.time >= s->best.time) {
			s->best = p;
			s->found = true;
		}
	}
	return 0;
}

int kprobe_site__find(struct text_image *ti, u64 ip, u64 time, struct kprobe_site *kp)
{
	u8 bytes[INSN_LEN_MAX], known[INSN_LEN_MAX];
	struct slot_search s = {.ip = ip};
	struct textpoke_poke arm;
	int len;

	memset(kp, 0, sizeof(*kp));
	if (text_image__read(ti, ip, INSN_LEN_MAX, time, bytes, known) <= 0 || !known[0] ||
	    bytes[0] != INT3)
		return 0;
	/* a kprobe arms with a poke of its own: one byte, int3 over another */
	if (!text_image__poked_before(ti, ip, 1, time, &arm) || arm.addr != ip ||
	    arm.old_len != 1 || arm.new_len != 1 || arm.new_bytes[0] != INT3 ||
	    arm.old_bytes[0] == INT3)
		return 0;
	kp->arm_time = arm.time;
	s.arm_time = arm.time;
	s.first = arm.old_bytes[0];
	bytes[0] = s.first;
	s.site_len = insn_len(bytes, known, INSN_LEN_MAX, INSN_LEN_64, NULL);
	kp->site_len = s.site_len > 0 ? s.site_len : 0;
	textpoke_image__for_each_site(text_image__image(ti), slot_search__site, &s);
	if (!s.found)
		return 1;
	len = slot__insn_len(&s, &s.best);
	for (int i = 0; i < len; i++)
		kp->orig[i] = i && known[i] ? bytes[i] : s.best.new_bytes[i];
	kp->orig_len = len;
	kp->slot = s.best.addr;
	return 1;
}
