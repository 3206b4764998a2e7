// SPDX-License-Identifier: GPL-2.0-only
/*
 * The site index: sites by address, in two sorted arrays (a large one and
 * a small one for sites that arrive out of address order), and a page
 * index that replaces the binary search once the sites stop changing.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "textpoke-internal.h"

/* Index of the first slot whose end is above @addr (nr if none) */
size_t tp_slots__first_end_after(const struct tp_slot *slots, size_t nr, u64 addr)
{
	size_t lo = 0, hi = nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (slots[mid].end > addr)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

static void tp_image__sites_changed(struct textpoke_image *img)
{
	tp_free(img, img->pidx, img->pidx_size * sizeof(*img->pidx));
	img->pidx = NULL;
	img->pidx_size = 0;
	img->reads_unchanged = 0;
}

/* Index every page the sites of .sites overlap; no index if memory is short */
static void tp_image__pidx_build(struct textpoke_image *img)
{
	size_t pages = 0, size = 64;
	struct tp_pidx *t;

	if (tp_image__compact(img))
		return;
	for (size_t i = 0; i < img->nr_sites; i++)
		pages += ((img->sites[i].end - 1) >> 12) - (img->sites[i].start >> 12) + 1;
	while (size < 2 * pages)
		size *= 2;
	t = tp_alloc(img, size * sizeof(*t));
	if (!t)
		return;
	for (size_t h = 0; h < size; h++)
		t[h].page = TP_PIDX_EMPTY;
	for (size_t i = 0; i < img->nr_sites; i++) {
		for (u64 pg = img->sites[i].start >> 12; pg <= (img->sites[i].end - 1) >> 12;
		     pg++) {
			size_t h = tp_pidx__hash(pg, size);

			while (t[h].page != TP_PIDX_EMPTY && t[h].page != pg)
				h = (h + 1) & (size - 1);
			if (t[h].page == TP_PIDX_EMPTY) {
				t[h].page = pg;
				t[h].idx = i;
			}
		}
	}
	img->pidx = t;
	img->pidx_size = size;
}

/*
 * Index of the first slot of .sites whose end is above @addr, for a read
 * of [addr, end) within one page: nr_sites when no site is on that page.
 */
static size_t tp_image__pidx_find(const struct textpoke_image *img, u64 addr)
{
	u64 pg = addr >> 12;
	size_t h = tp_pidx__hash(pg, img->pidx_size), i;

	while (img->pidx[h].page != pg) {
		if (img->pidx[h].page == TP_PIDX_EMPTY)
			return img->nr_sites;
		h = (h + 1) & (img->pidx_size - 1);
	}
	for (i = img->pidx[h].idx; i < img->nr_sites && img->sites[i].end <= addr; i++)
		;
	return i;
}

/*
 * Before a batch of @n reads: .pending merged into .sites, so that .sites
 * alone answers, and the page index built if @n more reads make it due.
 */
int tp_image__sites_prepare(struct textpoke_image *img, size_t n)
{
	int err = tp_image__compact(img);

	if (err)
		return err;
	if (!img->pidx && img->nr_sites >= 256) {
		img->reads_unchanged += n;
		if (img->reads_unchanged > img->nr_sites)
			tp_image__pidx_build(img);
	}
	return 0;
}

/*
 * Index of the first slot of .sites whose end is above @addr, for an
 * access to [addr, end).  Reads and pokes that find the sites unchanged
 * count towards building the page index.
 */
size_t tp_image__sites_find(struct textpoke_image *img, u64 addr, u64 end)
{
	if (!img->pidx && img->nr_sites + img->nr_pending >= 256 &&
	    ++img->reads_unchanged > img->nr_sites + img->nr_pending)
		tp_image__pidx_build(img);
	if (img->pidx && (addr >> 12) == ((end - 1) >> 12))
		return tp_image__pidx_find(img, addr);
	return tp_slots__first_end_after(img->sites, img->nr_sites, addr);
}

static int tp_image__reserve_sites(struct textpoke_image *img, size_t extra)
{
	size_t want = img->nr_sites + extra, n;
	void *p;

	if (want <= img->alloc_sites)
		return 0;
	n = img->alloc_sites ? img->alloc_sites * 2 : 64;
	while (n < want)
		n *= 2;
	p = tp_realloc(img, img->sites, img->alloc_sites * sizeof(struct tp_slot),
		       n * sizeof(struct tp_slot));
	if (!p)
		return -ENOMEM;
	img->sites = p;
	img->alloc_sites = n;
	return 0;
}

/*
 * Room to insert one site starting at @start (or, when @merging, wherever
 * the joined site lands), so that inserting cannot fail once the poke is
 * in.  .pending is allocated the first time a site comes out of address
 * order.
 */
int tp_image__reserve_insert(struct textpoke_image *img, u64 start, bool merging)
{
	bool appends = !img->nr_sites || img->sites[img->nr_sites - 1].end <= start;

	if (tp_image__reserve_sites(img, img->nr_pending + 1))
		return -ENOMEM;
	if ((merging || !appends) && !img->pending) {
		img->pending = tp_alloc(img, TP_PENDING_MAX * sizeof(*img->pending));
		if (!img->pending)
			return -ENOMEM;
	}
	return 0;
}

/* Merge .pending into .sites (room reserved by the caller) */
static void tp_image__merge_pending(struct textpoke_image *img)
{
	size_t i = img->nr_sites, j = img->nr_pending, k = i + j;

	while (j > 0) {
		if (i > 0 && img->sites[i - 1].start > img->pending[j - 1].start)
			img->sites[--k] = img->sites[--i];
		else
			img->sites[--k] = img->pending[--j];
	}
	img->nr_sites += img->nr_pending;
	img->nr_pending = 0;
	tp_image__sites_changed(img);
}

/* Make .pending empty, so that .sites alone is in address order */
int tp_image__compact(struct textpoke_image *img)
{
	if (!img->nr_pending)
		return 0;
	if (tp_image__reserve_sites(img, img->nr_pending))
		return -ENOMEM;
	tp_image__merge_pending(img);
	return 0;
}

static void tp_slots__insert(struct tp_slot *slots, size_t *nr, struct textpoke_site *s)
{
	size_t i = tp_slots__first_end_after(slots, *nr, s->start);

	memmove(&slots[i + 1], &slots[i], (*nr - i) * sizeof(*slots));
	slots[i].start = s->start;
	slots[i].end = s->end;
	slots[i].site = s;
	(*nr)++;
}

/*
 * Insert a site that overlaps no other.  Sites arriving in address order
 * (ftrace and jump labels patch in address order) append to .sites.
 * Needs room reserved: one slot in .sites, or .pending not full.
 */
void tp_image__insert_site(struct textpoke_image *img, struct textpoke_site *s)
{
	if (!img->nr_sites || img->sites[img->nr_sites - 1].end <= s->start) {
		img->sites[img->nr_sites].start = s->start;
		img->sites[img->nr_sites].end = s->end;
		img->sites[img->nr_sites].site = s;
		img->nr_sites++;
		tp_image__sites_changed(img);
		return;
	}
	if (img->nr_pending == TP_PENDING_MAX)
		tp_image__merge_pending(img);
	tp_slots__insert(img->pending, &img->nr_pending, s);
}

static void tp_slots__remove_site(struct tp_slot *slots, size_t *nr, struct textpoke_site *s)
{
	size_t i = tp_slots__first_end_after(slots, *nr, s->start);

	if (i < *nr && slots[i].site == s) {
		memmove(&slots[i], &slots[i + 1], (*nr - i - 1) * sizeof(*slots));
		(*nr)--;
	}
}

/*
 * Collect the sites overlapping [start, end) into @out (at most @max);
 * returns how many there are, which may exceed @max.
 */
size_t tp_image__overlaps(struct textpoke_image *img, u64 start, u64 end,
			  struct textpoke_site **out, size_t max)
{
	size_t from0 = tp_image__sites_find(img, start, end); /* may merge .pending */
	struct tp_slot *arrs[2] = {img->sites, img->pending};
	size_t nrs[2] = {img->nr_sites, img->nr_pending}, n = 0;

	for (int a = 0; a < 2; a++) {
		size_t i = a ? tp_slots__first_end_after(arrs[a], nrs[a], start) : from0;

		for (; i < nrs[a] && arrs[a][i].start < end; i++) {
			if (n < max)
				out[n] = arrs[a][i].site;
			n++;
		}
	}
	return n;
}

/* Take a site out of the index (it is being joined into another) */
void tp_image__remove_site(struct textpoke_image *img, struct textpoke_site *s)
{
	size_t nr = img->nr_sites;

	tp_slots__remove_site(img->sites, &img->nr_sites, s);
	if (img->nr_sites != nr)
		tp_image__sites_changed(img);
	else
		tp_slots__remove_site(img->pending, &img->nr_pending, s);
}

int tp_image__settle(struct textpoke_image *img)
{
	int err = tp_image__compact(img);

	return err ?: tp_image__frags_update(img);
}
