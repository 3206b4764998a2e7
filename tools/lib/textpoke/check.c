// SPDX-License-Identifier: GPL-2.0-only
/*
 * Consistency: every poke's old bytes against what the image held just
 * before it.
 *
 * "What the image held" must not come from the poke itself, so it is the
 * first two sources of the rule in image.c only: the new bytes of the
 * previous poke at that byte, else a base anchored between the two.  When
 * neither exists, a base anchored right after the poke (before the next
 * poke at that byte) can still confirm the new bytes: a kcore copied after
 * a jump label flipped already holds the jump, which is not a mismatch
 * but PRE_APPLIED.  A base anchored after the poke that holds something
 * else than the new bytes is a MISMATCH too (an event was lost after it).
 */
#include <errno.h>
#include <string.h>

#include "textpoke-internal.h"

enum {
	TP_NONE, /* nothing to compare with */
	TP_SAME,
	TP_DIFF,
};

const char *textpoke_verdict__str(enum textpoke_verdict verdict)
{
	switch (verdict) {
	case TEXTPOKE_VERIFIED:
		return "verified";
	case TEXTPOKE_PRE_APPLIED:
		return "pre-applied";
	case TEXTPOKE_MISMATCH:
		return "mismatch";
	case TEXTPOKE_UNKNOWN:
		return "unknown";
	default:
		return "invalid";
	}
}

static enum textpoke_verdict tp_verdict(const struct tp_poke *p, const u8 *status)
{
	const u8 *old_st = status + p->data, *new_st = old_st + p->old_len;
	bool all_old = true, all_new = p->new_len > 0;

	for (u16 i = 0; i < p->old_len; i++) {
		if (old_st[i] == TP_DIFF)
			return TEXTPOKE_MISMATCH;
		all_old &= old_st[i] == TP_SAME;
	}
	for (u16 i = 0; i < p->new_len; i++) {
		if (new_st[i] == TP_DIFF)
			return TEXTPOKE_MISMATCH;
		all_new &= new_st[i] == TP_SAME;
	}
	if (!p->old_len)
		return TEXTPOKE_UNKNOWN;
	if (all_old)
		return TEXTPOKE_VERIFIED;
	return all_new ? TEXTPOKE_PRE_APPLIED : TEXTPOKE_UNKNOWN;
}

#define TP_NO_POKE UINT32_MAX

/*
 * Fill, at each poke's arena offsets, what was compared with its old
 * bytes (val/kn at .data) and its new bytes (after .old_len), and how
 * they compared (status).  Two sweeps over the pokes in time order, with
 * @last (one entry per byte of the site) holding the poke that covered
 * each byte last: forwards for what came before, backwards for the base
 * anchored after.  O(pokes' bytes + site length).
 */
static void tp_site__compare(const struct textpoke_image *img, const struct textpoke_site *s,
			     u32 *last, u8 *val, u8 *kn, u8 *fb, u8 *status)
{
	size_t len = tp_site__len(s);

	for (int dir = 0; dir < 2; dir++) {
		for (size_t b = 0; b < len; b++)
			last[b] = TP_NO_POKE;
		for (size_t i = 0; i < s->nr; i++) {
			size_t k = dir ? s->nr - 1 - i : i;
			const struct tp_poke *p = &s->pokes[k];
			u64 t = s->times[k], ps = s->start + p->off;
			size_t fi = tp_image__frag_find(img, ps);

			for (u32 j = 0; j < tp_poke__span(p); j++) {
				const struct tp_frag *f = tp_image__frag_at(img, &fi, ps + j);
				u32 other = last[p->off + j];
				const struct tp_poke *o =
				    other != TP_NO_POKE ? &s->pokes[other] : NULL;
				u64 t_other = o ? s->times[other] : 0;
				size_t b = p->off + j, pos;
				const struct tp_base *base;

				last[b] = k;
				if (!dir && j < p->old_len) {
					/* before: the previous poke's new bytes, or a base since */
					pos = p->data + j;
					kn[pos] = 1;
					if (o && b - o->off < o->new_len) {
						val[pos] =
						    s->arena[o->data + o->old_len + (b - o->off)];
					} else if (o) {
						/* the poke before took it away: nothing to compare */
						kn[pos] = 0;
					} else if ((base = tp_frag__base_between(img, f, false, 0,
										 true, t))) {
						val[pos] = base->bytes[ps + j - base->start];
						fb[pos] = 1;
					} else {
						kn[pos] = 0;
					}
				} else if (dir && j < p->new_len) {
					/* after: a base anchored before the next poke */
					pos = p->data + p->old_len + j;
					base = tp_frag__base_between(img, f, true, t, o, t_other);
					kn[pos] = base != NULL;
					fb[pos] = base != NULL;
					val[pos] = base ? base->bytes[ps + j - base->start] : 0;
				} else {
					continue;
				}
				status[pos] = !kn[pos]			? TP_NONE :
					      val[pos] == s->arena[pos] ? TP_SAME :
									  TP_DIFF;
			}
		}
	}
}

static u8 tp_status(const u8 *val, const u8 *kn, const u8 *arena, size_t pos)
{
	return !kn[pos] ? TP_NONE : val[pos] == arena[pos] ? TP_SAME : TP_DIFF;
}

/*
 * tp_site__compare() for a uniform site (tp_site__uniform()): each byte
 * was last covered by the previous poke, which wrote it, so a poke's old
 * bytes compare with the previous poke's new bytes, and only the first
 * poke's needs the bases.  The base anchored after a poke is one lookup
 * per poke, not per byte, when a single fragment (or none) holds the
 * whole site.
 */
static void tp_site__compare_uniform(const struct textpoke_image *img,
				     const struct textpoke_site *s, u8 *val, u8 *kn, u8 *fb,
				     u8 *status)
{
	size_t len = tp_site__len(s), fi = tp_image__frag_find(img, s->start), f_fi = fi;
	const struct tp_frag *f = tp_image__frag_at(img, &f_fi, s->start);
	bool one = f ? f->end >= s->end : f_fi >= img->nr_frags || img->frags[f_fi].start >= s->end;

	for (size_t k = 0; k < s->nr; k++) {
		const struct tp_poke *p = &s->pokes[k];
		const struct tp_base *base = NULL;
		u64 t = s->times[k];
		size_t old = p->data, new = p->data + len, bfi = fi;
		bool has_next = k + 1 < s->nr;
		u64 t_next = has_next ? s->times[k + 1] : 0;

		if (k) {
			const struct tp_poke *prev = &s->pokes[k - 1];

			memcpy(val + old, s->arena + prev->data + len, len);
			memset(kn + old, 1, len);
			for (size_t j = 0; j < len; j++)
				status[old + j] =
				    val[old + j] == s->arena[old + j] ? TP_SAME : TP_DIFF;
		}
		if (one)
			base = tp_frag__base_between(img, f, true, t, has_next, t_next);
		/* no base after it: the new bytes stay unknown (TP_NONE), as zeroed */
		if (k && one && !base)
			continue;
		for (size_t j = 0; j < len; j++) {
			const struct tp_frag *fr =
			    one ? f : tp_image__frag_at(img, &bfi, s->start + j);
			const struct tp_base *b;

			if (!k) {
				b = tp_frag__base_between(img, fr, false, 0, true, t);
				kn[old + j] = b != NULL;
				fb[old + j] = b != NULL;
				val[old + j] = b ? b->bytes[s->start + j - b->start] : 0;
				status[old + j] = tp_status(val, kn, s->arena, old + j);
			}
			b = one ? base : tp_frag__base_between(img, fr, true, t, has_next, t_next);
			kn[new + j] = b != NULL;
			fb[new + j] = b != NULL;
			val[new + j] = b ? b->bytes[s->start + j - b->start] : 0;
			status[new + j] = tp_status(val, kn, s->arena, new + j);
		}
	}
}

/*
 * A copy that caught poke @p in its int3 phase (tp_site__int3_phase())
 * holds what the kernel held then: the side of @p that a copy (@fb)
 * gave, cc first and then the old or the new bytes, is no mismatch.
 */
static void tp_check__int3_phase(const struct textpoke_site *s, size_t k, const u8 *val,
				 const u8 *kn, const u8 *fb, u8 *status)
{
	const struct tp_poke *p = &s->pokes[k];

	for (int side = 0; side < 2; side++) {
		size_t at = p->data + (side ? p->old_len : 0), len = side ? p->new_len : p->old_len;

		if (!len || !kn[at] || !fb[at] || status[at] != TP_DIFF)
			continue;
		for (size_t i = 0; i < len; i++) {
			if (kn[at + i] && !fb[at + i])
				goto next;
		}
		if (!tp_site__int3_phase_known(s, k, val + at, kn + at))
			continue;
		for (size_t i = 0; i < len; i++) {
			if (kn[at + i])
				status[at + i] = TP_SAME;
		}
	next:;
	}
}

int tp_site__checks(struct textpoke_image *img, struct textpoke_site *s,
		    int (*fn)(const struct textpoke_check *check, void *arg), void *arg)
{
	size_t last_size = tp_site__len(s) * sizeof(u32), tmp_size = 4 * s->arena_len + 1;
	u8 *tmp, *val, *kn, *fb, *status;
	u32 *last;
	int err = 0;

	last = tp_alloc(img, last_size);
	tmp = tp_zalloc(img, tmp_size);
	if (!last || !tmp) {
		err = -ENOMEM;
		goto out_free;
	}
	val = tmp;
	kn = tmp + s->arena_len;
	status = tmp + 2 * s->arena_len;
	fb = tmp + 3 * s->arena_len;
	if (tp_site__uniform(s))
		tp_site__compare_uniform(img, s, val, kn, fb, status);
	else
		tp_site__compare(img, s, last, val, kn, fb, status);
	for (u32 k = 0; k < s->nr && !err; k++) {
		const struct tp_poke *p = &s->pokes[k];
		struct textpoke_check c;

		tp_check__int3_phase(s, k, val, kn, fb, status);
		tp_site__poke_info(s, k, &c.poke);
		c.verdict = tp_verdict(p, status);
		c.before = val + p->data;
		c.before_known = kn + p->data;
		c.after = val + p->data + p->old_len;
		c.after_known = kn + p->data + p->old_len;
		err = fn(&c, arg);
	}
out_free:
	tp_free(img, tmp, tmp_size);
	tp_free(img, last, last_size);
	return err;
}

int textpoke_image__for_each_check(struct textpoke_image *img,
				   int (*fn)(const struct textpoke_check *check, void *arg),
				   void *arg)
{
	int err;

	if (!img || !fn)
		return -EINVAL;
	err = tp_image__settle(img);
	for (size_t i = 0; !err && i < img->nr_sites; i++)
		err = tp_site__checks(img, img->sites[i].site, fn, arg);
	return err;
}

static int tp_count_verdict(const struct textpoke_check *check, void *arg)
{
	size_t *counts = arg;

	counts[check->verdict]++;
	return 0;
}

int textpoke_image__count_verdicts(struct textpoke_image *img, size_t counts[TEXTPOKE_VERDICT__MAX])
{
	if (!counts)
		return -EINVAL;
	memset(counts, 0, TEXTPOKE_VERDICT__MAX * sizeof(*counts));
	return textpoke_image__for_each_check(img, tp_count_verdict, counts);
}
