// SPDX-License-Identifier: GPL-2.0-only
/*
 * When was a copy taken?  perf record enables text_poke tracking and then
 * copies kcore, so the copy holds every poke made before some moment
 * during the recording, and none after: a base anchored AT a time nobody
 * wrote down.  The pokes tell it: at each poked site the copy equals some
 * of the site's versions, each in effect over an interval of time; the
 * moments where the most sites agree are where the copy was taken.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "textpoke-internal.h"

struct tp_edge {
	u64 time;
	int delta; /* +1: an interval opens, -1: one closes */
};

/*
 * The edges by time: an LSD radix sort, a byte a pass, skipping the
 * bytes every time shares (the high ones, mostly).  qsort() of the
 * edges was a fifth of the side-band time of a report with 1M pokes.
 * The order among equal times does not matter: the depth is taken after
 * all the edges of one time.  @tmp: room for @n edges.
 */
static struct tp_edge *tp_edges__sort(struct tp_edge *e, struct tp_edge *tmp, size_t n)
{
	size_t count[8][256] = {{0}};

	for (size_t i = 0; i < n; i++)
		for (int b = 0; b < 8; b++)
			count[b][(e[i].time >> (8 * b)) & 0xff]++;
	for (int b = 0; b < 8; b++) {
		size_t pos = 0;
		struct tp_edge *t;

		if (count[b][(e[0].time >> (8 * b)) & 0xff] == n)
			continue;
		for (int d = 0; d < 256; d++) {
			size_t c = count[b][d];

			count[b][d] = pos;
			pos += c;
		}
		for (size_t i = 0; i < n; i++)
			tmp[count[b][(e[i].time >> (8 * b)) & 0xff]++] = e[i];
		t = e;
		e = tmp;
		tmp = t;
	}
	return e;
}

/* Does version @v of @s agree with @bytes (at @addr) where both are known?  -1: nothing to compare */
static int tp_site__version_agrees(const struct textpoke_site *s, size_t v, u64 addr,
				   const u8 *bytes, size_t len)
{
	size_t slen = tp_site__len(s), kb = tp_site__kbytes(s);
	u64 lo = s->start > addr ? s->start : addr;
	u64 hi = s->end < addr + len ? s->end : addr + len;
	const u8 *vb = s->vbytes + v * slen, *vk = s->vknown + v * kb;
	int compared = 0;

	for (u64 a = lo; a < hi; a++) {
		size_t b = a - s->start;

		if (!((vk[b / 8] >> (b % 8)) & 1))
			continue;
		if (vb[b] != bytes[a - addr])
			return 0;
		compared = 1;
	}
	return compared ? 1 : -1;
}

/*
 * text_poke_bp() writes an int3 over the first byte, then the tail, emits
 * the TEXT_POKE record, then writes the first byte: a copy read in that
 * phase holds cc and, per tail byte, the old or the new one.  Does @bytes
 * (at @addr) hold poke @k of @s so?  Only for pokes that replace one
 * instruction by another of the same length, neither an int3.
 */
bool tp_site__int3_phase(const struct textpoke_site *s, size_t k, u64 addr, const u8 *bytes,
			 size_t len)
{
	struct textpoke_poke p;

	tp_site__poke_info(s, k, &p);
	if (p.old_len != p.new_len || p.old_len < 2 || p.old_bytes[0] == TP_INT3 ||
	    p.new_bytes[0] == TP_INT3 || p.addr < addr || p.addr - addr >= len ||
	    bytes[p.addr - addr] != TP_INT3)
		return false;
	for (u16 i = 1; i < p.old_len && p.addr + i - addr < len; i++) {
		u8 b = bytes[p.addr + i - addr];

		if (b != p.old_bytes[i] && b != p.new_bytes[i])
			return false;
	}
	return true;
}

/* the same for poke @k's own bytes as a copy held them (@known: which it held) */
bool tp_site__int3_phase_known(const struct textpoke_site *s, size_t k, const u8 *held,
			       const u8 *known)
{
	struct textpoke_poke p;

	tp_site__poke_info(s, k, &p);
	if (p.old_len != p.new_len || p.old_len < 2 || p.old_bytes[0] == TP_INT3 ||
	    p.new_bytes[0] == TP_INT3 || !known[0] || held[0] != TP_INT3)
		return false;
	for (u16 i = 1; i < p.old_len; i++) {
		if (known[i] && held[i] != p.old_bytes[i] && held[i] != p.new_bytes[i])
			return false;
	}
	return true;
}

/*
 * When a copy may have seen poke @k's int3 phase: before its record (the
 * phase is between the poke's start and its record), at most
 * TP_INT3_SLACK before, and after the site's previous poke
 */
static void tp_site__int3_window(const struct textpoke_site *s, size_t k, u64 *from, u64 *to)
{
	u64 t = s->times[k];

	*from = t > TP_INT3_SLACK ? t - TP_INT3_SLACK : 0;
	*to = t;
	if (k && *from < s->times[k - 1])
		*from = s->times[k - 1];
}

int textpoke_image__fit_anchor(struct textpoke_image *img, u64 addr, const void *bytes, size_t len,
			       struct textpoke_anchor_fit *fit)
{
	return textpoke_image__fit_anchor_in(img, addr, bytes, len, 0, UINT64_MAX, fit);
}

int textpoke_image__fit_anchor_in(struct textpoke_image *img, u64 addr, const void *bytes,
				  size_t len, u64 lo, u64 hi, struct textpoke_anchor_fit *fit)
{
	struct tp_edge *edges = NULL, *tmp = NULL, *sorted;
	size_t nr_edges = 0, alloc_edges = 0, edges_size = 0;
	int depth = 0, best = 0, err;
	u64 end = addr + len;

	if (!img || !fit || (!bytes && len) || end < addr || hi < lo)
		return -EINVAL;
	memset(fit, 0, sizeof(*fit));
	fit->to = UINT64_MAX;
	err = tp_image__settle(img);
	if (err)
		return err;
	for (size_t i = tp_slots__first_end_after(img->sites, img->nr_sites, addr);
	     i < img->nr_sites && img->sites[i].start < end; i++) {
		struct textpoke_site *s = img->sites[i].site;
		bool informative = false;

		if (s->dirty) {
			err = tp_site__materialize(img, s);
			if (err)
				goto out;
		}
		if (s->huge)
			continue;
		/* versions 0 .. nr, then the int3 phases of pokes 0 .. nr - 1 */
		for (size_t v = 0; v <= 2 * s->nr; v++) {
			u64 from = v ? s->times[v - 1] : 0;
			u64 to = v < s->nr ? s->times[v] : UINT64_MAX;
			int agrees;

			if (v > s->nr) {
				if (!tp_site__int3_phase(s, v - s->nr - 1, addr, bytes, len))
					continue;
				tp_site__int3_window(s, v - s->nr - 1, &from, &to);
				agrees = 1;
			} else {
				agrees = tp_site__version_agrees(s, v, addr, bytes, len);
			}
			if (agrees < 0)
				continue;
			informative = true;
			/* only the window counts: [lo, hi] */
			if (from < lo)
				from = lo;
			if (hi != UINT64_MAX && to > hi + 1)
				to = hi + 1;
			if (!agrees || from >= to)
				continue;
			if (nr_edges + 2 > alloc_edges) {
				size_t n = alloc_edges ? alloc_edges * 2 : 64;
				void *p = tp_realloc(img, edges, edges_size, n * sizeof(*edges));

				if (!p) {
					err = -ENOMEM;
					goto out;
				}
				edges = p;
				alloc_edges = n;
				edges_size = n * sizeof(*edges);
			}
			edges[nr_edges++] = (struct tp_edge){from, +1};
			if (to != UINT64_MAX)
				edges[nr_edges++] = (struct tp_edge){to, -1};
		}
		fit->sites += informative;
	}
	/*
	 * A site's versions do not overlap in time, so the depth over a time
	 * is the number of sites agreeing then: find the deepest, then the
	 * first interval at that depth.
	 */
	sorted = edges;
	if (nr_edges > 1) {
		tmp = tp_alloc(img, nr_edges * sizeof(*tmp));
		if (!tmp) {
			err = -ENOMEM;
			goto out;
		}
		sorted = tp_edges__sort(edges, tmp, nr_edges);
	}
	for (int pass = 0; pass < 2; pass++) {
		bool in = false;

		depth = 0;
		for (size_t e = 0; e < nr_edges;) {
			u64 t = sorted[e].time;

			while (e < nr_edges && sorted[e].time == t)
				depth += sorted[e++].delta;
			if (!pass) {
				if (depth > best)
					best = depth;
			} else if (!in && best && depth == best) {
				in = true;
				fit->from = t;
			} else if (in && depth < best) {
				fit->to = t;
				break;
			}
		}
	}
	fit->agree = best;
	err = 0;
out:
	tp_free(img, tmp, tmp ? nr_edges * sizeof(*tmp) : 0);
	tp_free(img, edges, edges_size);
	return err;
}
