// SPDX-License-Identifier: GPL-2.0-only
/*
 * The image: base images, the index of poked sites, reads.
 *
 * What a byte held at a time follows from the pokes that cover it, in
 * (time, seq) order.  They cut its timeline into segments; the value of a
 * segment is, in this order of preference:
 *
 *   1. the new bytes of the poke that opened it (the kernel wrote them);
 *   2. a base image anchored inside the segment (the latest added wins);
 *   3. the old bytes of the poke that closes it (what the kernel says it
 *      replaced: backward application from a later image, or the only
 *      knowledge there is when no base exists);
 *   4. unknown.
 *
 * Bytes no poke touches have a single segment, so any base covering them
 * answers at every time.  site.c materialises this rule per site.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "textpoke-internal.h"

void *tp_alloc(struct textpoke_image *img, size_t size)
{
	void *p;

	if (img->max_bytes && (size > img->max_bytes || img->mem > img->max_bytes - size))
		return NULL;
	p = malloc(size ? size : 1);
	if (p)
		img->mem += size;
	return p;
}

void *tp_zalloc(struct textpoke_image *img, size_t size)
{
	void *p = tp_alloc(img, size);

	if (p)
		memset(p, 0, size);
	return p;
}

void *tp_zalloc_aligned(struct textpoke_image *img, size_t size, size_t align)
{
	void *p;

	if (img->max_bytes && (size > img->max_bytes || img->mem > img->max_bytes - size))
		return NULL;
	if (posix_memalign(&p, align, size))
		return NULL;
	memset(p, 0, size);
	img->mem += size;
	return p;
}

void *tp_realloc(struct textpoke_image *img, void *ptr, size_t old_size, size_t new_size)
{
	void *p;

	if (new_size > old_size && img->max_bytes &&
	    (new_size - old_size > img->max_bytes || img->mem > img->max_bytes - (new_size - old_size)))
		return NULL;
	p = realloc(ptr, new_size ? new_size : 1);
	if (p)
		img->mem = img->mem - old_size + new_size;
	return p;
}

void tp_free(struct textpoke_image *img, void *ptr, size_t size)
{
	if (!ptr)
		return;
	free(ptr);
	img->mem -= size;
}

void tp_print(struct textpoke_image *img, enum textpoke_print_level level, const char *fmt, ...)
{
	va_list ap;

	if (!img->print)
		return;
	va_start(ap, fmt);
	img->print(level, fmt, ap, img->print_arg);
	va_end(ap);
}

struct textpoke_image *textpoke_image__new(const struct textpoke_image_opts *opts)
{
	struct textpoke_image *img;

	if (opts && opts->sz && opts->sz < offsetof(struct textpoke_image_opts, print)) {
		errno = EINVAL;
		return NULL;
	}
	img = calloc(1, sizeof(*img));
	if (!img) {
		errno = ENOMEM;
		return NULL;
	}
	if (opts) {
		img->max_bytes = opts->max_bytes;
		if (!opts->sz || opts->sz >= sizeof(*opts)) {
			img->print = opts->print;
			img->print_arg = opts->print_arg;
		}
	}
	img->mem = sizeof(*img);
	if (img->max_bytes && img->mem > img->max_bytes) {
		free(img);
		errno = ENOMEM;
		return NULL;
	}
	img->pending = tp_alloc(img, TP_PENDING_MAX * sizeof(*img->pending));
	if (!img->pending) {
		free(img);
		errno = ENOMEM;
		return NULL;
	}
	return img;
}

static void tp_slots__delete_sites(struct textpoke_image *img, struct tp_slot *slots, size_t nr)
{
	for (size_t i = 0; i < nr; i++)
		tp_site__delete(img, slots[i].site);
}

void textpoke_image__delete(struct textpoke_image *img)
{
	if (!img)
		return;
	tp_slots__delete_sites(img, img->sites, img->nr_sites);
	tp_slots__delete_sites(img, img->pending, img->nr_pending);
	for (size_t i = 0; i < img->nr_bases; i++) {
		if (img->bases[i].owned)
			free((void *)img->bases[i].bytes);
	}
	free(img->pidx);
	free(img->sites);
	free(img->pending);
	free(img->bases);
	free(img->frags);
	free(img->cand);
	free(img);
}

size_t textpoke_image__nr_pokes(const struct textpoke_image *img)
{
	return img->nr_pokes;
}

size_t textpoke_image__nr_sites(const struct textpoke_image *img)
{
	return img->nr_sites + img->nr_pending;
}

size_t textpoke_image__nr_bases(const struct textpoke_image *img)
{
	return img->nr_bases;
}

size_t textpoke_image__mem_bytes(const struct textpoke_image *img)
{
	return img->mem;
}

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

/* ---- base images ---- */

static int cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

static void tp_image__dirty_sites(struct textpoke_image *img, u64 start, u64 end)
{
	struct tp_slot *arrs[2] = { img->sites, img->pending };
	size_t nrs[2] = { img->nr_sites, img->nr_pending };

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
		void *p = tp_realloc(img, img->bases, img->alloc_bases * sizeof(*b), n * sizeof(*b));

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

/* ---- the site index ---- */

static void tp_image__sites_changed(struct textpoke_image *img)
{
	tp_free(img, img->pidx, img->pidx_size * sizeof(*img->pidx));
	img->pidx = NULL;
	img->pidx_size = 0;
	img->reads_unchanged = 0;
}

static inline size_t tp_pidx__hash(u64 page, size_t size)
{
	return (size_t)((page * 0x9e3779b97f4a7c15ULL) >> 32) & (size - 1);
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
		for (u64 pg = img->sites[i].start >> 12; pg <= (img->sites[i].end - 1) >> 12; pg++) {
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
 * Index of the first slot of .sites whose end is above @addr, for an
 * access to [addr, end).  Reads and pokes that find the sites unchanged
 * count towards building the page index.
 */
static size_t tp_image__sites_find(struct textpoke_image *img, u64 addr, u64 end)
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
static void tp_image__insert_site(struct textpoke_image *img, struct textpoke_site *s)
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

#define TP_MERGE_MAX 64

/*
 * Collect the sites overlapping [start, end) into @out (at most @max);
 * returns how many there are, which may exceed @max.
 */
static size_t tp_image__overlaps(struct textpoke_image *img, u64 start, u64 end,
				 struct textpoke_site **out, size_t max)
{
	size_t from0 = tp_image__sites_find(img, start, end);	/* may merge .pending */
	struct tp_slot *arrs[2] = { img->sites, img->pending };
	size_t nrs[2] = { img->nr_sites, img->nr_pending }, n = 0;

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

/*
 * A poke that spans several sites, or reaches out of one, joins them into
 * a new site.  Built aside so that a failure leaves the image untouched.
 */
static int tp_image__merge_into_new(struct textpoke_image *img, struct textpoke_site **olds,
				    size_t nr_olds, u64 start, u64 end,
				    struct textpoke_site **out)
{
	struct textpoke_site *s;
	int err;

	for (size_t i = 0; i < nr_olds; i++) {
		if (olds[i]->start < start)
			start = olds[i]->start;
		if (olds[i]->end > end)
			end = olds[i]->end;
	}
	/* pokes keep their offset in 32 bits */
	if (end - start > UINT32_MAX)
		return -E2BIG;
	s = tp_site__new(img, start, end);
	if (!s)
		return -ENOMEM;
	for (size_t i = 0; i < nr_olds; i++) {
		err = tp_site__absorb(img, s, olds[i]);
		if (err) {
			tp_site__delete(img, s);
			return err;
		}
	}
	*out = s;
	return 0;
}

int textpoke_image__add_poke(struct textpoke_image *img, u64 time, u64 addr, const void *old,
			     size_t old_len, const void *new, size_t new_len)
{
	struct textpoke_site *olds[TP_MERGE_MAX], *s = NULL;
	size_t span = old_len > new_len ? old_len : new_len;
	u64 end = addr + span;
	bool fresh = false;
	size_t nr_olds = 0;
	int err;

	if (!img || !span || old_len > UINT16_MAX || new_len > UINT16_MAX || end < addr ||
	    (old_len && !old) || (new_len && !new))
		return -EINVAL;

	if (img->last && img->last->start <= addr && end <= img->last->end) {
		s = img->last;
	} else {
		nr_olds = tp_image__overlaps(img, addr, end, olds, TP_MERGE_MAX);
		if (nr_olds > TP_MERGE_MAX) {
			tp_print(img, TEXTPOKE_WARN,
				 "poke at %#llx of %zu bytes spans %zu sites, more than %d\n",
				 (unsigned long long)addr, span, nr_olds, TP_MERGE_MAX);
			return -E2BIG;
		}
		if (nr_olds == 1 && olds[0]->start <= addr && end <= olds[0]->end) {
			s = olds[0];
		} else {
			/* room first: inserting must not fail once the poke is in */
			if (tp_image__reserve_sites(img, img->nr_pending + 1))
				return -ENOMEM;
			if (nr_olds) {
				err = tp_image__merge_into_new(img, olds, nr_olds, addr, end, &s);
				if (err)
					return err;
				tp_print(img, TEXTPOKE_DEBUG,
					 "poke at %#llx joins %zu sites into %#llx-%#llx\n",
					 (unsigned long long)addr, nr_olds,
					 (unsigned long long)s->start, (unsigned long long)s->end);
			} else {
				s = tp_site__new(img, addr, end);
				if (!s)
					return -ENOMEM;
			}
			fresh = true;
		}
	}

	err = tp_site__append(img, s, time, addr, old, old_len, new, new_len);
	if (err) {
		if (fresh)
			tp_site__delete(img, s);
		return err;
	}
	if (fresh) {
		for (size_t i = 0; i < nr_olds; i++) {
			tp_slots__remove_site(img->sites, &img->nr_sites, olds[i]);
			tp_image__sites_changed(img);
			tp_slots__remove_site(img->pending, &img->nr_pending, olds[i]);
			tp_site__delete(img, olds[i]);
		}
		tp_image__insert_site(img, s);
	}
	img->last = s;
	img->nr_pokes++;
	return 0;
}

/* ---- reads ---- */

static void tp_image__read_bases(const struct textpoke_image *img, u64 addr, u64 end, u8 *buf,
				 u8 *known)
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

static size_t count_known(const u8 *known, size_t len)
{
	size_t n = 0;

	for (size_t i = 0; i < len; i++)
		n += known[i];
	return n;
}

/*
 * The read shared by the image and its views: bases first, then the
 * version of each overlapping site that @version picks.
 *
 * A random read misses the cache on the base bytes and, one after the
 * other, on the site, its times and its version bytes.  So the sites are
 * looked up first, with the base bytes and the versions prefetched, and
 * the copying comes last, when the lines are (nearly) there.
 */
#define TP_READ_BATCH 8

int tp_image__read(struct textpoke_image *img, u64 addr, size_t len, void *buf, u8 *known,
		   int (*version)(void *ctx, const struct textpoke_site *s, size_t *v), void *ctx)
{
	struct tp_slot *arrs[2];
	size_t nrs[2], from[2], nr_hits = 0, fi;
	struct {
		struct textpoke_site *s;
		size_t v;
	} hits[TP_READ_BATCH];
	u8 tmp[64], *kn = known;
	u64 end = addr + len;
	bool more = false;
	int err;

	if ((!buf && len) || end < addr || len > INT32_MAX)
		return -EINVAL;
	if (!kn) {
		kn = len <= sizeof(tmp) ? tmp : malloc(len);
		if (!kn)
			return -ENOMEM;
	}
	err = tp_image__frags_update(img);
	if (err || !len)
		goto out;
	from[0] = tp_image__sites_find(img, addr, end);	/* may merge .pending */
	from[1] = img->nr_pending ? tp_slots__first_end_after(img->pending, img->nr_pending, addr) : 0;
	arrs[0] = img->sites;
	arrs[1] = img->pending;
	nrs[0] = img->nr_sites;
	nrs[1] = img->nr_pending;
	fi = tp_image__frag_find(img, addr);
	if (fi < img->nr_frags && img->frags[fi].start < end) {
		const struct tp_frag *f = &img->frags[fi];
		const struct tp_base *b = &img->bases[img->cand[f->first]];

		__builtin_prefetch(b->bytes + ((f->start > addr ? f->start : addr) - b->start));
	}
	for (int a = 0; a < 2; a++) {
		for (size_t i = from[a]; i < nrs[a] && arrs[a][i].start < end; i++) {
			struct textpoke_site *s = arrs[a][i].site;
			size_t v;

			if (s->dirty) {
				err = tp_site__materialize(img, s);
				if (err)
					goto out;
			}
			if (nr_hits == TP_READ_BATCH) {
				more = true;
				break;
			}
			err = version(ctx, s, &v);
			if (err)
				goto out;
			__builtin_prefetch(s->vbytes + v * tp_site__len(s) +
					   (s->start > addr ? 0 : addr - s->start));
			hits[nr_hits].s = s;
			hits[nr_hits].v = v;
			nr_hits++;
		}
	}
	memset(buf, 0, len);
	memset(kn, 0, len);
	tp_image__read_bases(img, addr, end, buf, kn);
	for (size_t h = 0; h < nr_hits; h++)
		tp_site__copy_version(hits[h].s, hits[h].v, addr, len, buf, kn);
	/* a long read over many sites: the rest, without the batching */
	for (int a = 0; more && a < 2; a++) {
		for (size_t i = from[a]; i < nrs[a] && arrs[a][i].start < end; i++) {
			struct textpoke_site *s = arrs[a][i].site;
			size_t v;

			if (s->dirty) {
				err = tp_site__materialize(img, s);
				if (err)
					goto out;
			}
			err = version(ctx, s, &v);
			if (err)
				goto out;
			tp_site__copy_version(s, v, addr, len, buf, kn);
		}
	}
	err = (int)count_known(kn, len);
out:
	if (kn != known && kn != tmp)
		free(kn);
	return err;
}

static int tp_image__version_at(void *ctx, const struct textpoke_site *s, size_t *v)
{
	*v = tp_site__version_at(s, *(const u64 *)ctx);
	return 0;
}

int textpoke_image__read(struct textpoke_image *img, u64 addr, size_t len, u64 time, void *buf,
			 u8 *known)
{
	if (!img)
		return -EINVAL;
	return tp_image__read(img, addr, len, buf, known, tp_image__version_at, &time);
}

int textpoke_image__for_each_site(struct textpoke_image *img,
				  int (*fn)(struct textpoke_site *site, void *arg), void *arg)
{
	int err;

	if (!img || !fn)
		return -EINVAL;
	err = tp_image__compact(img);
	if (!err)
		err = tp_image__frags_update(img);
	for (size_t i = 0; !err && i < img->nr_sites; i++) {
		struct textpoke_site *s = img->sites[i].site;

		if (s->dirty)
			err = tp_site__materialize(img, s);
		if (!err)
			err = fn(s, arg);
	}
	return err;
}
