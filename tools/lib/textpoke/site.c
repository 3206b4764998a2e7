// SPDX-License-Identifier: GPL-2.0-only
/*
 * A poked site: its pokes in time order and the versions of its bytes.
 *
 * Jump labels and ftrace call sites are poked over and over with the same
 * 5 (or 2) bytes: such a poke, arriving in time order, derives its version
 * from the previous one in O(len).  Anything else (the first poke of a
 * site, an overlapping poke of another width, an out of order poke, a base
 * added later) marks the site dirty, and the next query rebuilds all its
 * versions in O(len * pokes) with the rule described in image.c; in
 * memcpy()s for a uniform site, whose every poke rewrites all of it
 * (tp_site__uniform()), in byte-by-byte scans of the pokes otherwise.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "textpoke-internal.h"

struct textpoke_site *tp_site__new(struct textpoke_image *img, u64 start, u64 end)
{
	struct textpoke_site *s = tp_zalloc_aligned(img, sizeof(*s), 64);

	if (!s)
		return NULL;
	s->start = start;
	s->end = end;
	s->id = img->next_site_id++;
	s->img = img;
	s->dirty = true;
	return s;
}

static void tp_site__free_versions(struct textpoke_image *img, struct textpoke_site *s)
{
	tp_free(img, s->vbytes, s->valloc * (tp_site__len(s) + tp_site__kbytes(s)));
	s->vbytes = s->vknown = NULL;
	s->valloc = 0;
}

/* Bytes of a block of @pokes times and pokes, then @bytes of poke bytes */
static size_t tp_site__block_size(size_t pokes, size_t bytes)
{
	return pokes * (sizeof(u64) + sizeof(struct tp_poke)) + bytes;
}

void tp_site__delete(struct textpoke_image *img, struct textpoke_site *s)
{
	if (!s)
		return;
	if (img->last == s)
		img->last = NULL;
	tp_site__free_versions(img, s);
	tp_free(img, s->times, tp_site__block_size(s->alloc, s->arena_alloc));
	tp_free(img, s, sizeof(*s));
}

/* Both arrays live in one block, [bytes of every version][known bits of every version] */
static int tp_site__reserve_versions(struct textpoke_image *img, struct textpoke_site *s,
				     size_t want)
{
	size_t len = tp_site__len(s), kb = tp_site__kbytes(s), n;
	u8 *p;

	if (want <= s->valloc)
		return 0;
	n = s->valloc + s->valloc / 2;
	if (n < want)
		n = want;
	if (n > SIZE_MAX / (len + kb))
		return -ENOMEM;
	p = tp_realloc(img, s->vbytes, s->valloc * (len + kb), n * (len + kb));
	if (!p)
		return -ENOMEM;
	memmove(p + n * len, p + s->valloc * len, s->valloc * kb);
	s->vbytes = p;
	s->vknown = p + n * len;
	s->valloc = n;
	return 0;
}

/*
 * Room for @pokes more pokes and @bytes more old and new bytes.  Times,
 * pokes and their bytes share one block, [times][pokes][arena], so that a
 * growing site reallocs once where it took twice: when the pokes grow, the
 * arena is sized for as many pokes at the bytes per poke so far (once
 * there are a few), and both fill up together.
 */
int tp_site__reserve(struct textpoke_image *img, struct textpoke_site *s, size_t pokes,
		     size_t bytes)
{
	size_t nr = s->nr + pokes, len = s->arena_len + bytes, n = s->alloc, na = s->arena_alloc;
	u8 *p;

	if (nr <= n && len <= na)
		return 0;
	if (nr > n) {
		n = n < 4 ? 4 : n + n / 2;
		if (n < nr)
			n = nr;
		/* after a few pokes: one large poke says little of the next ones */
		if (s->nr >= 4 && len / nr < SIZE_MAX / n && na < n * ((len + nr - 1) / nr))
			na = n * ((len + nr - 1) / nr);
	}
	if (len > na) {
		na = na < 16 ? 16 : na + na / 2;
		if (na < len)
			na = len;
	}
	if (n > UINT32_MAX || na > UINT32_MAX)
		return -E2BIG;
	p = tp_realloc(img, s->times, tp_site__block_size(s->alloc, s->arena_alloc),
		       tp_site__block_size(n, na));
	if (!p)
		return -ENOMEM;
	/* the parts only move up: the arena first, out of the pokes' way */
	memmove(p + tp_site__block_size(n, 0), p + tp_site__block_size(s->alloc, 0), s->arena_len);
	memmove(p + n * sizeof(*s->times), p + s->alloc * sizeof(*s->times),
		s->nr * sizeof(*s->pokes));
	s->times = (u64 *)p;
	s->pokes = (struct tp_poke *)(p + n * sizeof(*s->times));
	s->arena = p + tp_site__block_size(n, 0);
	s->alloc = n;
	s->arena_alloc = na;
	return 0;
}

/*
 * The fast path: the site is clean, the poke is the newest, and it
 * rewrites exactly the bytes the previous poke wrote (or fewer), so the
 * previous version plus the new bytes is the new version.  It knows every
 * byte the previous one knew, so .all_known stays as it was.
 */
static void tp_site__extend_versions(struct textpoke_image *img, struct textpoke_site *s,
				     const struct tp_poke *prev, const struct tp_poke *p)
{
	size_t len = tp_site__len(s), kb = tp_site__kbytes(s);
	size_t v = s->nr + 1; /* versions 0 .. nr exist */
	u8 *vb, *vk;

	if (s->dirty || s->huge || !prev || prev->off != p->off || p->new_len < p->old_len ||
	    prev->new_len < p->new_len || tp_site__reserve_versions(img, s, v + 1)) {
		s->dirty = true;
		return;
	}
	vb = s->vbytes + v * len;
	vk = s->vknown + v * kb;
	memcpy(vb, vb - len, len);
	memcpy(vk, vk - kb, kb);
	memcpy(vb + p->off, s->arena + p->data + p->old_len, p->new_len);
	for (size_t i = p->off; i < p->off + p->new_len; i++)
		vk[i / 8] |= 1U << (i % 8);
}

/* Does @p rewrite all of @s with as many bytes as it found (see tp_site__uniform())? */
static bool tp_poke__whole(const struct textpoke_site *s, const struct tp_poke *p)
{
	return !p->off && p->old_len == tp_site__len(s) && p->new_len == tp_site__len(s);
}

/*
 * Add a poke at its time, after those of the same time.  In time order it
 * appends; otherwise it is inserted, which shifts the indexes (.gen).
 */
int tp_site__append(struct textpoke_image *img, struct textpoke_site *s, u64 time, u64 addr,
		    const void *old, size_t old_len, const void *new, size_t new_len)
{
	struct tp_poke *p, *prev = NULL;
	size_t pos = s->nr;
	int err;

	err = tp_site__reserve(img, s, 1, old_len + new_len);
	if (err)
		return err;
	if (s->nr && s->t_last > time) {
		pos = tp_site__version_at(s, time);
		memmove(&s->times[pos + 1], &s->times[pos], (s->nr - pos) * sizeof(*s->times));
		memmove(&s->pokes[pos + 1], &s->pokes[pos], (s->nr - pos) * sizeof(*p));
		s->gen++;
		s->dirty = true;
	} else if (s->nr) {
		prev = &s->pokes[s->nr - 1];
	}
	s->times[pos] = time;
	p = &s->pokes[pos];
	p->off = addr - s->start;
	p->data = s->arena_len;
	p->old_len = old_len;
	p->new_len = new_len;
	if (old_len)
		memcpy(s->arena + s->arena_len, old, old_len);
	if (new_len)
		memcpy(s->arena + s->arena_len + old_len, new, new_len);
	s->arena_len += old_len + new_len;
	s->mixed |= !tp_poke__whole(s, p);
	if (pos == s->nr)
		tp_site__extend_versions(img, s, prev, p);
	/* times[0] is lines away from the end: not read back */
	if (pos == 0)
		s->t_first = time;
	if (pos == s->nr)
		s->t_last = time;
	s->nr++;
	return 0;
}

/*
 * Widen @s to [start, end), which holds its range: offsets move, versions
 * go (their size depends on the range).
 */
void tp_site__grow(struct textpoke_image *img, struct textpoke_site *s, u64 start, u64 end)
{
	u32 shift = s->start - start;

	tp_site__free_versions(img, s);
	for (u32 k = 0; shift && k < s->nr; k++)
		s->pokes[k].off += shift;
	s->start = start;
	s->end = end;
	/* a wider range: which pokes still cover all of it */
	s->mixed = false;
	for (u32 k = 0; k < s->nr; k++)
		s->mixed |= !tp_poke__whole(s, &s->pokes[k]);
	s->dirty = true;
	s->gen++;
}

/* Move @src's pokes into @dst, whose range covers @src's */
int tp_site__absorb(struct textpoke_image *img, struct textpoke_site *dst,
		    struct textpoke_site *src)
{
	for (u32 i = 0; i < src->nr; i++) {
		const struct tp_poke *p = &src->pokes[i];
		const u8 *data = src->arena + p->data;
		int err;

		err = tp_site__append(img, dst, src->times[i], src->start + p->off, data,
				      p->old_len, data + p->old_len, p->new_len);
		if (err)
			return err;
	}
	dst->dirty = true;
	dst->gen++;
	return 0;
}

/*
 * Number of pokes in effect at @time: those with time <= @time.  Pokes
 * spread over a recording roughly evenly, so the search starts where
 * @time falls between the first and last poke (tp_site__time_guess()) and
 * gallops from there: a couple of cache lines instead of log2(nr)
 * scattered ones, and never worse than twice a binary search.
 */
size_t tp_site__version_at(const struct textpoke_site *s, u64 time)
{
	size_t guess;

	if (!s->nr || s->t_last <= time)
		return s->nr;
	if (s->t_first > time)
		return 0;
	guess = tp_site__time_guess(s, time);
	/*
	 * the version wanted is most likely guess + 1: fetch it while t[guess]
	 * comes (a site that keeps no versions has no bytes to fetch: NULL +
	 * an offset is undefined)
	 */
	if (s->vbytes) {
		__builtin_prefetch(s->vbytes + (guess + 1) * tp_site__len(s));
		if (!s->all_known)
			__builtin_prefetch(s->vknown + (guess + 1) * tp_site__kbytes(s));
	}
	return tp_site__version_search(s, time, guess);
}

/* Where t_first <= @time < t_last: the index in times[] to start the search at */
size_t tp_site__time_guess(const struct textpoke_site *s, u64 time)
{
	size_t n = s->nr, guess = (size_t)((double)(time - s->t_first) /
					   (double)(s->t_last - s->t_first) * (n - 1));

	return guess >= n - 1 ? n - 2 : guess;
}

/* The version at @time, for t_first <= @time < t_last, searching from @guess */
size_t tp_site__version_search(const struct textpoke_site *s, u64 time, size_t guess)
{
	const u64 *t = s->times;
	size_t n = s->nr, lo, hi, step;

	/* here t[0] <= time < t[n - 1]: the answer is in [1, n - 1] */
	if (t[guess] <= time) {
		lo = guess;
		for (step = 1; guess + step < n && t[guess + step] <= time; step *= 2)
			lo = guess + step;
		hi = guess + step < n ? guess + step : n - 1;
	} else {
		hi = guess;
		for (step = 1; step <= guess && t[guess - step] > time; step *= 2)
			hi = guess - step;
		lo = step <= guess ? guess - step : 0;
	}
	/* t[lo] <= time < t[hi] */
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (t[mid] <= time)
			lo = mid;
		else
			hi = mid;
	}
	return hi;
}

/*
 * The base, of fragment @f, anchored between a byte's previous poke (at
 * @t_prev, if @has_prev) and its next one (at @t_next, if @has_next): the
 * last added wins.  A base AT T holds every poke with time <= T.
 */
const struct tp_base *tp_frag__base_between(const struct textpoke_image *img,
					    const struct tp_frag *f, bool has_prev, u64 t_prev,
					    bool has_next, u64 t_next)
{
	for (u32 c = 0; f && c < f->nr; c++) {
		const struct tp_base *b = &img->bases[img->cand[f->first + c]];
		bool in;

		if (b->anchor == TEXTPOKE_ANCHOR_BEFORE)
			in = !has_prev;
		else if (b->anchor == TEXTPOKE_ANCHOR_AFTER)
			in = !has_next;
		else
			in = (!has_prev || t_prev <= b->time) && (!has_next || b->time < t_next);
		if (in)
			return b;
	}
	return NULL;
}

/* The base anchored in segment @seg of a byte covered by the pokes @cover (@m of them) */
const struct tp_base *tp_site__segment_base(const struct textpoke_image *img,
					    const struct tp_frag *f, const struct textpoke_site *s,
					    const u32 *cover, size_t m, size_t seg)
{
	return tp_frag__base_between(img, f, seg > 0, seg ? s->times[cover[seg - 1]] : 0, seg < m,
				     seg < m ? s->times[cover[seg]] : 0);
}

/* The fragment holding @abs, advancing *@fi monotonically; NULL if none */
const struct tp_frag *tp_image__frag_at(const struct textpoke_image *img, size_t *fi, u64 abs)
{
	while (*fi < img->nr_frags && img->frags[*fi].end <= abs)
		(*fi)++;
	if (*fi < img->nr_frags && img->frags[*fi].start <= abs)
		return &img->frags[*fi];
	return NULL;
}

/* Indexes of the pokes covering @abs into @cover; returns how many */
size_t tp_site__cover(const struct textpoke_site *s, u64 abs, u32 *cover)
{
	u64 off = abs - s->start;
	size_t m = 0;

	for (u32 k = 0; k < s->nr; k++) {
		const struct tp_poke *p = &s->pokes[k];

		if (p->off <= off && off < p->off + tp_poke__span(p))
			cover[m++] = k;
	}
	return m;
}

/*
 * The value of the byte at offset @b in segment @seg of its timeline
 * (@cover: the pokes covering it, @m of them; @f: its base fragment), by
 * the rule in read.c.  Returns whether it is known.
 */
static bool tp_site__segment_value(const struct textpoke_image *img, const struct textpoke_site *s,
				   const struct tp_frag *f, const u32 *cover, size_t m, size_t seg,
				   size_t b, u8 *val)
{
	const struct tp_poke *prev = seg ? &s->pokes[cover[seg - 1]] : NULL;
	const struct tp_poke *next = seg < m ? &s->pokes[cover[seg]] : NULL;
	const struct tp_base *base;

	if (prev && b - prev->off < prev->new_len) {
		*val = s->arena[prev->data + prev->old_len + (b - prev->off)];
	} else if (prev || (next && b - next->off >= next->old_len)) {
		/* the poke before took the byte away, or the one after brought it */
		*val = 0;
		return false;
	} else if ((base = tp_site__segment_base(img, f, s, cover, m, seg)) &&
		   !(next && b - next->off < next->old_len &&
		     tp_site__int3_phase(s, cover[seg], base->start, base->bytes,
					 base->end - base->start))) {
		*val = base->bytes[s->start + b - base->start];
	} else if (next && b - next->off < next->old_len) {
		/*
		 * the next poke's old bytes; also where the base caught that
		 * poke's int3 phase, a moment's state: before it, and since
		 * the previous poke, the kernel held the old bytes
		 */
		*val = s->arena[next->data + (b - next->off)];
	} else {
		*val = 0;
		return false;
	}
	return true;
}

/* Is every byte of every version known?  Then reads need not look at vknown. */
static bool tp_site__versions_known(const struct textpoke_site *s)
{
	size_t len = tp_site__len(s), kb = tp_site__kbytes(s);
	u8 last = len % 8 ? (1U << (len % 8)) - 1 : 0xff;

	for (size_t v = 0; v <= s->nr; v++) {
		const u8 *vk = s->vknown + v * kb;

		for (size_t i = 0; i + 1 < kb; i++) {
			if (vk[i] != 0xff)
				return false;
		}
		if (vk[kb - 1] != last)
			return false;
	}
	return true;
}

/*
 * The versions of a uniform site: every byte's timeline is the site's,
 * so version k >= 1 is poke k-1's new bytes, all known, and only version
 * 0 takes the rule, byte by byte.  O(pokes x len) in memcpy()s, where the
 * general case scans the pokes for each byte.
 */
static void tp_site__materialize_uniform(const struct textpoke_image *img, struct textpoke_site *s)
{
	size_t len = tp_site__len(s), kb = tp_site__kbytes(s), fi;
	const u32 first = 0;
	u8 *vk;

	memset(s->vknown, 0, (s->nr + 1) * kb);
	fi = tp_image__frag_find(img, s->start);
	for (size_t b = 0; b < len; b++) {
		const struct tp_frag *f = tp_image__frag_at(img, &fi, s->start + b);
		u8 val;

		/* segment 0 of a timeline whose first poke is poke 0 */
		if (tp_site__segment_value(img, s, f, &first, 1, 0, b, &val))
			s->vknown[b / 8] |= 1U << (b % 8);
		s->vbytes[b] = val;
	}
	for (size_t v = 1; v <= s->nr; v++) {
		const struct tp_poke *p = &s->pokes[v - 1];

		memcpy(s->vbytes + v * len, s->arena + p->data + p->old_len, len);
		vk = s->vknown + v * kb;
		memset(vk, 0xff, len / 8);
		if (len % 8)
			vk[len / 8] = (1U << (len % 8)) - 1;
	}
}

/*
 * Versions cost (len + len/8) x (pokes + 1) bytes.  Past max_site_bytes a
 * site keeps none ("huge") and each read computes the bytes it needs from
 * the pokes, in O(bytes x pokes): slow, but a hostile file of long chained
 * pokes cannot make the image allocate what it never could.
 */
int tp_site__materialize(struct textpoke_image *img, struct textpoke_site *s)
{
	size_t len = tp_site__len(s), kb = tp_site__kbytes(s), n = s->nr, fi;
	u32 *cover;
	int err;

	err = tp_image__frags_update(img);
	if (err)
		return err;
	if (n + 1 > img->max_site_bytes / (len + kb)) {
		if (!s->huge)
			tp_print(img, TEXTPOKE_DEBUG,
				 "site %#llx-%#llx: %u pokes, versions computed on demand\n",
				 (unsigned long long)s->start, (unsigned long long)s->end, s->nr);
		tp_site__free_versions(img, s);
		s->huge = true;
		s->dirty = false;
		return 0;
	}
	err = tp_site__reserve_versions(img, s, n + 1);
	if (err)
		return err;
	if (tp_site__uniform(s)) {
		tp_site__materialize_uniform(img, s);
		goto out;
	}
	cover = tp_alloc(img, (n + 1) * sizeof(*cover));
	if (!cover)
		return -ENOMEM;
	memset(s->vknown, 0, (n + 1) * kb);
	fi = tp_image__frag_find(img, s->start);
	for (size_t b = 0; b < len; b++) {
		const struct tp_frag *f = tp_image__frag_at(img, &fi, s->start + b);
		size_t m = tp_site__cover(s, s->start + b, cover);

		for (size_t seg = 0; seg <= m; seg++) {
			size_t lo = seg ? cover[seg - 1] + 1 : 0;
			size_t hi = seg < m ? cover[seg] + 1 : n + 1;
			u8 val;
			bool known = tp_site__segment_value(img, s, f, cover, m, seg, b, &val);

			for (size_t v = lo; v < hi; v++) {
				s->vbytes[v * len + b] = val;
				if (known)
					s->vknown[v * kb + b / 8] |= 1U << (b % 8);
			}
		}
	}
	tp_free(img, cover, (n + 1) * sizeof(*cover));
out:
	s->all_known = tp_site__versions_known(s);
	s->huge = false;
	s->dirty = false;
	return 0;
}

#define TP_NONE UINT32_MAX

/*
 * Version @v of a huge site over [lo, hi), computed from its pokes: for
 * each byte, the last of the first @v pokes that covers it and the first
 * of the others, in O(pokes + bytes).
 */
static int tp_site__compute_version(struct textpoke_image *img, const struct textpoke_site *s,
				    size_t v, u64 lo, u64 hi, u8 *buf, u8 *known)
{
	size_t w = hi - lo, fi = tp_image__frag_find(img, lo);
	u32 *prev = tp_alloc(img, 2 * w * sizeof(*prev)), *next;

	if (!prev)
		return -ENOMEM;
	next = prev + w;
	for (size_t i = 0; i < 2 * w; i++)
		prev[i] = TP_NONE;
	for (size_t k = 0; k < s->nr; k++) {
		const struct tp_poke *p = &s->pokes[k];
		u64 ps = s->start + p->off, pe = ps + tp_poke__span(p);
		u32 *slot = k < v ? prev : next;

		for (u64 a = ps > lo ? ps : lo; a < pe && a < hi; a++) {
			if (k < v || slot[a - lo] == TP_NONE)
				slot[a - lo] = k;
		}
	}
	for (u64 a = lo; a < hi; a++) {
		const struct tp_frag *f = tp_image__frag_at(img, &fi, a);
		u32 pk = prev[a - lo], nk = next[a - lo];
		const struct tp_poke *pp = pk != TP_NONE ? &s->pokes[pk] : NULL;
		const struct tp_poke *np = nk != TP_NONE ? &s->pokes[nk] : NULL;
		size_t b = a - s->start;
		const struct tp_base *base;

		known[a - lo] = 1;
		if (pp && b - pp->off < pp->new_len)
			buf[a - lo] = s->arena[pp->data + pp->old_len + (b - pp->off)];
		else if (pp || (np && b - np->off >= np->old_len))
			known[a - lo] = buf[a - lo] = 0;
		else if ((base = tp_frag__base_between(img, f, pp, pp ? s->times[pk] : 0, np,
						       np ? s->times[nk] : 0)))
			buf[a - lo] = base->bytes[a - base->start];
		else if (np && b - np->off < np->old_len)
			buf[a - lo] = s->arena[np->data + (b - np->off)];
		else
			known[a - lo] = buf[a - lo] = 0;
	}
	tp_free(img, prev, 2 * w * sizeof(*prev));
	return 0;
}

int tp_site__copy_version(struct textpoke_image *img, const struct textpoke_site *s, size_t v,
			  u64 addr, size_t len, u8 *buf, u8 *known)
{
	size_t slen = tp_site__len(s);
	u64 lo = s->start > addr ? s->start : addr;
	u64 hi = s->end < addr + len ? s->end : addr + len;
	const u8 *vb, *vk;

	if (lo >= hi)
		return 0;
	if (s->huge)
		return tp_site__compute_version(img, s, v, lo, hi, buf + (lo - addr),
						known + (lo - addr));
	vb = s->vbytes + v * slen;
	memcpy(buf + (lo - addr), vb + (lo - s->start), hi - lo);
	if (s->all_known) {
		memset(known + (lo - addr), 1, hi - lo);
		return 0;
	}
	vk = s->vknown + v * tp_site__kbytes(s);
	for (u64 a = lo; a < hi; a++) {
		size_t b = a - s->start;

		known[a - addr] = (vk[b / 8] >> (b % 8)) & 1;
	}
	return 0;
}

uint64_t textpoke_site__addr(const struct textpoke_site *site)
{
	return site->start;
}

size_t textpoke_site__len(const struct textpoke_site *site)
{
	return tp_site__len(site);
}

size_t textpoke_site__nr_pokes(const struct textpoke_site *site)
{
	return site->nr;
}

void tp_site__poke_info(const struct textpoke_site *s, size_t idx, struct textpoke_poke *out)
{
	const struct tp_poke *p = &s->pokes[idx];

	out->time = s->times[idx];
	out->addr = s->start + p->off;
	out->old_bytes = s->arena + p->data;
	out->new_bytes = s->arena + p->data + p->old_len;
	out->old_len = p->old_len;
	out->new_len = p->new_len;
}

int textpoke_site__poke(const struct textpoke_site *site, size_t idx, struct textpoke_poke *poke)
{
	if (!site || !poke || idx >= site->nr)
		return -EINVAL;
	tp_site__poke_info(site, idx, poke);
	return 0;
}

int textpoke_site__version(const struct textpoke_site *site, size_t idx, uint64_t *time, void *buf,
			   uint8_t *known)
{
	size_t len;
	u8 *kn = known;
	int n;

	if (!site || !buf || idx > site->nr)
		return -EINVAL;
	/* for_each_site() hands out clean sites; a dirty one was changed since */
	if (site->dirty)
		return -EAGAIN;
	len = tp_site__len(site);
	if (!kn) {
		kn = malloc(len);
		if (!kn)
			return -ENOMEM;
	}
	n = tp_site__copy_version(site->img, site, idx, site->start, len, buf, kn);
	if (n) {
		if (kn != known)
			free(kn);
		return n;
	}
	if (time)
		*time = idx ? site->times[idx - 1] : 0;
	n = 0;
	for (size_t i = 0; i < len; i++)
		n += kn[i];
	if (kn != known)
		free(kn);
	return n;
}
