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

/*
 * Fill, at each poke's arena offsets, what was compared with its old
 * bytes (val/kn at .data) and its new bytes (after .old_len), and how
 * they compared (status).
 */
static void tp_site__compare(const struct textpoke_image *img, const struct textpoke_site *s,
			     u32 *cover, u8 *val, u8 *kn, u8 *status)
{
	size_t fi = tp_image__frag_find(img, s->start);

	for (u64 abs = s->start; abs < s->end; abs++) {
		const struct tp_frag *f = tp_image__frag_at(img, &fi, abs);
		size_t m = tp_site__cover(s, abs, cover), b = abs - s->start;

		for (size_t seg = 0; seg < m; seg++) {
			const struct tp_poke *prev = seg ? &s->pokes[cover[seg - 1]] : NULL;
			const struct tp_poke *p = &s->pokes[cover[seg]];
			const struct tp_base *base;
			size_t i = b - p->off, pos;

			if (i < p->old_len) {
				pos = p->data + i;
				kn[pos] = 1;
				if (prev && b - prev->off < prev->new_len)
					val[pos] =
					    s->arena[prev->data + prev->old_len + (b - prev->off)];
				else if ((base = tp_site__segment_base(img, f, s, cover, m, seg)))
					val[pos] = base->bytes[abs - base->start];
				else
					kn[pos] = 0;
				status[pos] = !kn[pos]			  ? TP_NONE
					      : val[pos] == s->arena[pos] ? TP_SAME
									  : TP_DIFF;
			}
			if (i < p->new_len) {
				pos = p->data + p->old_len + i;
				base = tp_site__segment_base(img, f, s, cover, m, seg + 1);
				kn[pos] = base != NULL;
				val[pos] = base ? base->bytes[abs - base->start] : 0;
				status[pos] = !base			  ? TP_NONE
					      : val[pos] == s->arena[pos] ? TP_SAME
									  : TP_DIFF;
			}
		}
	}
}

int tp_site__checks(struct textpoke_image *img, struct textpoke_site *s,
		    int (*fn)(const struct textpoke_check *check, void *arg), void *arg)
{
	size_t cover_size = (s->nr + 1) * sizeof(u32), tmp_size = 3 * s->arena_len + 1;
	u8 *tmp, *val, *kn, *status;
	u32 *cover;
	int err = 0;

	cover = tp_alloc(img, cover_size);
	tmp = tp_zalloc(img, tmp_size);
	if (!cover || !tmp) {
		err = -ENOMEM;
		goto out_free;
	}
	val = tmp;
	kn = tmp + s->arena_len;
	status = tmp + 2 * s->arena_len;
	tp_site__compare(img, s, cover, val, kn, status);
	for (u32 k = 0; k < s->nr && !err; k++) {
		const struct tp_poke *p = &s->pokes[k];
		struct textpoke_check c;

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
	tp_free(img, cover, cover_size);
	return err;
}

int textpoke_image__for_each_check(struct textpoke_image *img,
				   int (*fn)(const struct textpoke_check *check, void *arg),
				   void *arg)
{
	int err;

	if (!img || !fn)
		return -EINVAL;
	err = tp_image__compact(img);
	if (!err)
		err = tp_image__frags_update(img);
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
