// SPDX-License-Identifier: GPL-2.0-only
/*
 * Base images: code found at an address, anchored in time, copied or
 * borrowed.  For reads they are flattened into disjoint fragments, each
 * listing the bases that cover it, the last added first.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "textpoke-internal.h"

static int cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

static void tp_image__dirty_sites(struct textpoke_image *img, u64 start, u64 end)
{
	struct tp_slot *arrs[2] = {img->sites, img->pending};
	size_t nrs[2] = {img->nr_sites, img->nr_pending};

	for (int a = 0; a < 2; a++) {
		size_t i = tp_slots__first_end_after(arrs[a], nrs[a], start);

		for (; i < nrs[a] && arrs[a][i].start < end; i++)
			arrs[a][i].site->dirty = true;
	}
}

int textpoke_image__add_base(struct textpoke_image *img, u64 addr, const void *bytes, size_t len,
			     const struct textpoke_base_opts *opts)
{
	struct tp_base *b;
	enum textpoke_anchor anchor = TEXTPOKE_ANCHOR_BEFORE;
	unsigned int flags = 0;
	u64 time = 0;
	const u8 *data = bytes;

	if (!img || (!bytes && len) || addr + len < addr)
		return -EINVAL;
	if (opts) {
		if (opts->sz && opts->sz < sizeof(*opts))
			return -EINVAL;
		anchor = opts->anchor;
		time = opts->time;
		flags = opts->flags;
		if (anchor > TEXTPOKE_ANCHOR_AFTER || (flags & ~TEXTPOKE_BASE_BORROW))
			return -EINVAL;
	}
	if (!len)
		return 0;
	if (img->nr_bases == img->alloc_bases) {
		size_t n = img->alloc_bases ? img->alloc_bases * 2 : 8;
		void *p =
		    tp_realloc(img, img->bases, img->alloc_bases * sizeof(*b), n * sizeof(*b));

		if (!p)
			return -ENOMEM;
		img->bases = p;
		img->alloc_bases = n;
	}
	if (!(flags & TEXTPOKE_BASE_BORROW)) {
		u8 *copy = tp_alloc(img, len);

		if (!copy)
			return -ENOMEM;
		memcpy(copy, bytes, len);
		data = copy;
	}
	b = &img->bases[img->nr_bases++];
	b->start = addr;
	b->end = addr + len;
	b->bytes = data;
	b->owned = !(flags & TEXTPOKE_BASE_BORROW);
	b->anchor = anchor;
	b->time = time;
	img->frags_dirty = true;
	tp_image__dirty_sites(img, b->start, b->end);
	return 0;
}

/*
 * Flatten the bases into disjoint fragments.  Bases are few (kcore
 * segments, modules, a vmlinux), so the quadratic scan is fine.
 */
int tp_image__frags_update(struct textpoke_image *img)
{
	size_t nr_pts = img->nr_bases * 2, nr_frags = 0, nr_cand = 0, i, u;
	struct tp_frag *frags = NULL;
	u32 *cand = NULL;
	u64 *pts;

	if (!img->frags_dirty)
		return 0;
	pts = tp_alloc(img, nr_pts * sizeof(*pts) + 1);
	if (!pts)
		return -ENOMEM;
	for (i = 0; i < img->nr_bases; i++) {
		pts[2 * i] = img->bases[i].start;
		pts[2 * i + 1] = img->bases[i].end;
	}
	qsort(pts, nr_pts, sizeof(*pts), cmp_u64);
	for (i = 0, u = 0; i < nr_pts; i++) {
		if (!u || pts[u - 1] != pts[i])
			pts[u++] = pts[i];
	}
	/* count first, then fill: the cap sees the exact sizes */
	for (int pass = 0; pass < 2; pass++) {
		nr_frags = nr_cand = 0;
		for (i = 0; i + 1 < u; i++) {
			u64 s = pts[i], e = pts[i + 1];
			size_t first = nr_cand;

			for (size_t j = img->nr_bases; j-- > 0;) {
				if (img->bases[j].start <= s && img->bases[j].end >= e) {
					if (pass)
						cand[nr_cand] = j;
					nr_cand++;
				}
			}
			if (nr_cand == first)
				continue;
			if (pass) {
				frags[nr_frags].start = s;
				frags[nr_frags].end = e;
				frags[nr_frags].first = first;
				frags[nr_frags].nr = nr_cand - first;
			}
			nr_frags++;
		}
		if (!pass) {
			frags = tp_alloc(img, nr_frags * sizeof(*frags));
			cand = tp_alloc(img, nr_cand * sizeof(*cand));
			if (!frags || !cand) {
				tp_free(img, frags, nr_frags * sizeof(*frags));
				tp_free(img, cand, nr_cand * sizeof(*cand));
				tp_free(img, pts, nr_pts * sizeof(*pts) + 1);
				return -ENOMEM;
			}
		}
	}
	tp_free(img, pts, nr_pts * sizeof(*pts) + 1);
	tp_free(img, img->frags, img->nr_frags * sizeof(*img->frags));
	tp_free(img, img->cand, img->nr_cand * sizeof(*img->cand));
	img->frags = frags;
	img->nr_frags = nr_frags;
	img->cand = cand;
	img->nr_cand = nr_cand;
	img->frags_dirty = false;
	return 0;
}

/* Index of the first fragment whose end is above @addr */
size_t tp_image__frag_find(const struct textpoke_image *img, u64 addr)
{
	size_t lo = 0, hi = img->nr_frags;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (img->frags[mid].end > addr)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

void tp_image__read_bases(const struct textpoke_image *img, u64 addr, u64 end, u8 *buf, u8 *known)
{
	for (size_t i = tp_image__frag_find(img, addr); i < img->nr_frags; i++) {
		const struct tp_frag *f = &img->frags[i];
		const struct tp_base *b;
		u64 s, e;

		if (f->start >= end)
			break;
		b = &img->bases[img->cand[f->first]];
		s = f->start > addr ? f->start : addr;
		e = f->end < end ? f->end : end;
		memcpy(buf + (s - addr), b->bytes + (s - b->start), e - s);
		memset(known + (s - addr), 1, e - s);
	}
}
