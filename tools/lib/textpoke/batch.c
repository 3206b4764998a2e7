// SPDX-License-Identifier: GPL-2.0-only
/*
 * Batched reads.
 *
 * A random read over an image of tens of MB waits for a chain of
 * dependent cache and TLB misses: the page index bucket, the site's slot,
 * the site, its times around the version wanted, the version's bytes;
 * apart from the chain, the base bytes.  Alone, a read waits for each in
 * turn.  A batch takes a group of reads through the chain stage by stage,
 * each stage prefetching what the next one needs for every read of the
 * group: the misses of the group overlap instead of adding up.
 *
 * Only the common case takes the stages: a read of at most TP_BATCH_LEN
 * bytes, within a page when the page index is used, meeting at most one
 * site, whose versions are kept.  Every other read, and any read that
 * meets an error, is done by the single read path, so that a batch
 * answers exactly as single reads do.
 */
#include <errno.h>
#include <string.h>

#include "textpoke-internal.h"

#define TP_BATCH_GROUP 32
#define TP_BATCH_LEN 64

enum tp_bq_step {
	TP_BQ_SLOW,  /* for tp_image__read() */
	TP_BQ_PIDX,  /* page index bucket .i prefetched */
	TP_BQ_SLOT,  /* slot .i prefetched, or the first to look at */
	TP_BQ_SITE,  /* site .s prefetched */
	TP_BQ_TIMES, /* .s's times around .i prefetched */
	TP_BQ_COPY,  /* version .v of .s (or no site) prefetched */
};

struct tp_bq {
	enum tp_bq_step step;
	size_t i;
	struct textpoke_site *s;
	size_t v;
	const u8 *base; /* the bytes at the read's address if one base fragment holds them all */
};

static void tp_bq__start(struct textpoke_image *img, const struct textpoke_query *q,
			 struct tp_bq *b)
{
	u64 end = q->addr + q->len;
	size_t fi;

	b->step = TP_BQ_SLOW;
	b->s = NULL;
	b->base = NULL;
	if (!q->buf || !q->len || q->len > TP_BATCH_LEN || end < q->addr)
		return;
	fi = tp_image__frag_find(img, q->addr);
	if (fi < img->nr_frags && img->frags[fi].start < end) {
		const struct tp_frag *f = &img->frags[fi];
		const struct tp_base *base = &img->bases[img->cand[f->first]];
		const u8 *p =
		    base->bytes + ((f->start > q->addr ? f->start : q->addr) - base->start);

		__builtin_prefetch(p);
		if (f->start <= q->addr && end <= f->end)
			b->base = p;
	}
	if (img->pidx) {
		u64 pg = q->addr >> 12;

		if (pg != (end - 1) >> 12)
			return;
		b->i = tp_pidx__hash(pg, img->pidx_size);
		__builtin_prefetch(&img->pidx[b->i]);
		b->step = TP_BQ_PIDX;
	} else {
		b->i = tp_slots__first_end_after(img->sites, img->nr_sites, q->addr);
		b->step = TP_BQ_SLOT;
	}
}

/* The bucket of the read's page: the first slot that may overlap it */
static void tp_bq__pidx(struct textpoke_image *img, const struct textpoke_query *q, struct tp_bq *b)
{
	u64 pg = q->addr >> 12;
	size_t h = b->i;

	b->step = TP_BQ_SLOT;
	while (img->pidx[h].page != pg) {
		if (img->pidx[h].page == TP_PIDX_EMPTY) {
			b->i = img->nr_sites;
			return;
		}
		h = (h + 1) & (img->pidx_size - 1);
	}
	b->i = img->pidx[h].idx;
	if (b->i < img->nr_sites)
		__builtin_prefetch(&img->sites[b->i]);
}

static void tp_bq__slot(struct textpoke_image *img, const struct textpoke_query *q, struct tp_bq *b)
{
	const struct tp_slot *sl = img->sites;
	size_t i = b->i, nr = img->nr_sites;
	u64 end = q->addr + q->len;

	while (i < nr && sl[i].end <= q->addr)
		i++;
	if (i == nr || sl[i].start >= end) {
		b->step = TP_BQ_COPY;
		return;
	}
	if (i + 1 < nr && sl[i + 1].start < end)
		return; /* several sites: b->step stays TP_BQ_SLOT, made slow below */
	b->s = sl[i].site;
	__builtin_prefetch(b->s);
	b->step = TP_BQ_SITE;
}

static void tp_bq__prefetch_version(const struct textpoke_query *q, struct tp_bq *b)
{
	const struct textpoke_site *s = b->s;
	u64 off = s->start > q->addr ? 0 : q->addr - s->start;

	if (s->vbytes) {
		__builtin_prefetch(s->vbytes + b->v * tp_site__len(s) + off);
		if (!s->all_known)
			__builtin_prefetch(s->vknown + b->v * tp_site__kbytes(s) + off / 8);
	}
	b->step = TP_BQ_COPY;
}

static void tp_bq__site(struct textpoke_image *img, const struct textpoke_query *q, struct tp_bq *b)
{
	struct textpoke_site *s = b->s;

	if (s->dirty && tp_site__materialize(img, s)) {
		b->step = TP_BQ_SLOW;
		return;
	}
	if (s->huge) {
		b->step = TP_BQ_SLOW;
		return;
	}
	if (s->t_last <= q->time) {
		b->v = s->nr;
	} else if (s->t_first > q->time) {
		b->v = 0;
	} else {
		b->i = tp_site__time_guess(s, q->time);
		/* the guess is off by about sqrt(nr): the lines around it too */
		__builtin_prefetch(&s->times[b->i]);
		__builtin_prefetch(&s->times[b->i + 1]);
		__builtin_prefetch(&s->times[b->i >= 8 ? b->i - 8 : 0]);
		__builtin_prefetch(&s->times[b->i + 9 < s->nr ? b->i + 9 : s->nr - 1]);
		b->step = TP_BQ_TIMES;
		return;
	}
	tp_bq__prefetch_version(q, b);
}

static void tp_bq__times(const struct textpoke_query *q, struct tp_bq *b)
{
	b->v = tp_site__version_search(b->s, q->time, b->i);
	tp_bq__prefetch_version(q, b);
}

static int tp_bq__copy(struct textpoke_image *img, const struct textpoke_query *q,
		       const struct tp_bq *b)
{
	u8 tmp[TP_BATCH_LEN], *kn = q->known ? q->known : tmp;
	int n = 0;

	if (b->base) {
		memcpy(q->buf, b->base, q->len);
		memset(kn, 1, q->len);
	} else {
		memset(q->buf, 0, q->len);
		memset(kn, 0, q->len);
		tp_image__read_bases(img, q->addr, q->addr + q->len, q->buf, kn);
	}
	/* a kept version: cannot fail */
	if (b->s)
		tp_site__copy_version(img, b->s, b->v, q->addr, q->len, q->buf, kn);
	if (b->base && (!b->s || b->s->all_known))
		return q->len;
	for (size_t i = 0; i < q->len; i++)
		n += kn[i];
	return n;
}

int textpoke_image__read_batch(struct textpoke_image *img, struct textpoke_query *q, size_t n)
{
	struct tp_bq bq[TP_BATCH_GROUP];
	bool fast;

	if (!img || (!q && n))
		return -EINVAL;
	fast = !tp_image__frags_update(img) && !tp_image__sites_prepare(img, n);
	for (size_t g = 0; g < n; g += TP_BATCH_GROUP) {
		size_t m = n - g < TP_BATCH_GROUP ? n - g : TP_BATCH_GROUP;
		struct textpoke_query *gq = q + g;

		for (size_t k = 0; k < m; k++) {
			if (fast)
				tp_bq__start(img, &gq[k], &bq[k]);
			else
				bq[k].step = TP_BQ_SLOW;
		}
		for (size_t k = 0; k < m; k++) {
			if (bq[k].step == TP_BQ_PIDX)
				tp_bq__pidx(img, &gq[k], &bq[k]);
		}
		for (size_t k = 0; k < m; k++) {
			if (bq[k].step == TP_BQ_SLOT) {
				tp_bq__slot(img, &gq[k], &bq[k]);
				if (bq[k].step == TP_BQ_SLOT)
					bq[k].step = TP_BQ_SLOW;
			}
		}
		for (size_t k = 0; k < m; k++) {
			if (bq[k].step == TP_BQ_SITE)
				tp_bq__site(img, &gq[k], &bq[k]);
		}
		for (size_t k = 0; k < m; k++) {
			if (bq[k].step == TP_BQ_TIMES)
				tp_bq__times(&gq[k], &bq[k]);
		}
		for (size_t k = 0; k < m; k++) {
			struct textpoke_query *qk = &gq[k];

			if (bq[k].step == TP_BQ_COPY)
				qk->ret = tp_bq__copy(img, qk, &bq[k]);
			else
				qk->ret = textpoke_image__read(img, qk->addr, qk->len, qk->time,
							       qk->buf, qk->known);
		}
	}
	return 0;
}
