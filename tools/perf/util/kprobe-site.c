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

/*
 * Whether the last one-byte poke at @ip at or before @time armed a kprobe
 * (int3 over another byte; disarming is the reverse), into @arm.  Not
 * the last poke there: the optimizer's jmp and its undoing ("cc 54 49 89
 * f4" back over the jmp) come and go while the probe stays armed.
 */
static bool kprobe_armed(struct text_image *ti, u64 ip, u64 time, struct textpoke_poke *arm)
{
	struct textpoke_site *site = textpoke_image__site_at(text_image__image(ti), ip);
	size_t nr = site ? textpoke_site__nr_pokes(site) : 0;
	bool armed = false;
	struct textpoke_poke p;

	for (size_t i = 0; i < nr; i++) {
		if (textpoke_site__poke(site, i, &p))
			continue;
		if (p.time > time)
			break;
		if (p.addr != ip || p.old_len != 1 || p.new_len != 1)
			continue;
		armed = p.new_bytes[0] == INT3 && p.old_bytes[0] != INT3;
		if (armed)
			*arm = p;
	}
	return armed;
}

/*
 * An optimized probe: the jmp at @ip leads to a detour in a
 * kprobe_optinsn_page (the optprobe template, then the instructions the
 * jmp covers, copied whole, then a jmp back to the first one after them).
 * 1 with @kp's orig filled from the detour's poke, 0 when its bytes are
 * not in the recording or not so shaped.
 */
static int kprobe_optimized(struct text_image *ti, u64 ip, u64 time, const u8 *jmp,
			    struct kprobe_site *kp)
{
	struct textpoke_site *site;
	struct textpoke_poke p, detour = {0};
	bool found = false;
	size_t nr;
	s32 rel;
	u64 to, back, n;

	memcpy(&rel, jmp + 1, 4);
	to = ip + 5 + (s64)rel;
	site = textpoke_image__site_at(text_image__image(ti), to);
	nr = site ? textpoke_site__nr_pokes(site) : 0;
	/* the detour came as new code (old_len 0), before the jmp to it */
	for (size_t i = 0; i < nr; i++) {
		if (textpoke_site__poke(site, i, &p) || p.time > time)
			continue;
		if (!p.old_len && p.addr <= to && to < p.addr + p.new_len) {
			detour = p;
			found = true;
		}
	}
	if (!found || detour.new_len < 10 || detour.new_bytes[detour.new_len - 5] != 0xe9)
		return 0;
	memcpy(&rel, detour.new_bytes + detour.new_len - 4, 4);
	back = detour.addr + detour.new_len + (s64)rel;
	n = back - ip;
	/* the copy sits between the jmp's target and the jmp back */
	if (back < ip + 5 || n > sizeof(kp->orig) || n > (u64)detour.new_len - 5 ||
	    detour.addr + detour.new_len - 5 - n < to)
		return 0;
	memcpy(kp->orig, detour.new_bytes + detour.new_len - 5 - n, n);
	kp->orig_len = n;
	kp->site_len = n;
	kp->slot = detour.addr + detour.new_len - 5 - n;
	kp->optimized = true;
	return 1;
}

int kprobe_site__find(struct text_image *ti, u64 ip, u64 time, struct kprobe_site *kp)
{
	u8 bytes[INSN_LEN_MAX], known[INSN_LEN_MAX];
	struct slot_search s = {.ip = ip};
	struct textpoke_poke arm;
	int len;

	memset(kp, 0, sizeof(*kp));
	if (text_image__read(ti, ip, INSN_LEN_MAX, time, bytes, known) <= 0 || !known[0] ||
	    (bytes[0] != INT3 && bytes[0] != 0xe9))
		return 0;
	if (!kprobe_armed(ti, ip, time, &arm))
		return 0;
	kp->arm_time = arm.time;
	if (bytes[0] == 0xe9) {
		for (int i = 1; i < 5; i++) {
			if (!known[i])
				return 0;
		}
		return kprobe_optimized(ti, ip, time, bytes, kp);
	}
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

int kprobe_site__insn_len(const struct kprobe_site *kp, size_t at)
{
	int len;

	if (at >= kp->orig_len)
		return 1;
	len = insn_len(kp->orig + at, NULL, kp->orig_len - at, INSN_LEN_64, NULL);
	return len > 0 ? len : 1;
}
