// SPDX-License-Identifier: GPL-2.0-only
/*
 * Reads: the bytes at an address and a time, from the bases and the
 * versions of the sites.
 *
 * What a byte held at a time follows from the pokes that cover it, in
 * time order (equal times: in the order they were added).  They cut its timeline into segments; the value of a
 * segment is, in this order of preference:
 *
 *   1. the new bytes of the poke that opened it (the kernel wrote them);
 *   2. nothing, when the poke that opened it took the byte away (new_len
 *      0: a kprobe slot or a trampoline freed) or, in the first segment,
 *      the poke that closes it brought the byte (old_len 0: code came):
 *      unknown then, whatever a base holds there, for a copy's bytes
 *      there are of another moment (free space, or earlier code);
 *   3. a base image anchored inside the segment (the latest added wins);
 *   4. the old bytes of the poke that closes it (what the kernel says it
 *      replaced: backward application from a later image, or the only
 *      knowledge there is when no base exists);
 *   5. unknown.
 *
 * Bytes no poke touches have a single segment, so any base covering them
 * answers at every time.  site.c materialises this rule per site.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "textpoke-internal.h"

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
	from[0] = tp_image__sites_find(img, addr, end); /* may merge .pending */
	from[1] =
	    img->nr_pending ? tp_slots__first_end_after(img->pending, img->nr_pending, addr) : 0;
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
			if (s->vbytes) {
				__builtin_prefetch(s->vbytes + v * tp_site__len(s) +
						   (s->start > addr ? 0 : addr - s->start));
				if (!s->all_known)
					__builtin_prefetch(s->vknown + v * tp_site__kbytes(s));
			}
			hits[nr_hits].s = s;
			hits[nr_hits].v = v;
			nr_hits++;
		}
	}
	memset(buf, 0, len);
	memset(kn, 0, len);
	tp_image__read_bases(img, addr, end, buf, kn);
	for (size_t h = 0; h < nr_hits; h++) {
		err = tp_site__copy_version(img, hits[h].s, hits[h].v, addr, len, buf, kn);
		if (err)
			goto out;
	}
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
			err = tp_site__copy_version(img, s, v, addr, len, buf, kn);
			if (err)
				goto out;
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

/* The end of the span of bases and sites that starts at or after @addr, into *@start */
static u64 tp_image__next_span(struct textpoke_image *img, u64 addr, u64 *start)
{
	size_t fi = tp_image__frag_find(img, addr);
	size_t si = tp_slots__first_end_after(img->sites, img->nr_sites, addr);
	u64 s = UINT64_MAX, e;
	bool grew = true;

	if (fi < img->nr_frags)
		s = img->frags[fi].start;
	if (si < img->nr_sites && img->sites[si].start < s)
		s = img->sites[si].start;
	if (s == UINT64_MAX)
		return 0;
	if (s < addr)
		s = addr;
	e = s;
	/* extend over touching fragments and sites until neither touches */
	while (grew) {
		grew = false;
		while (fi < img->nr_frags && img->frags[fi].start <= e) {
			if (img->frags[fi].end > e) {
				e = img->frags[fi].end;
				grew = true;
			}
			fi++;
		}
		while (si < img->nr_sites && img->sites[si].start <= e) {
			if (img->sites[si].end > e) {
				e = img->sites[si].end;
				grew = true;
			}
			si++;
		}
	}
	*start = s;
	return e;
}

#define TP_EXPORT_CHUNK 65536

int textpoke_image__export(struct textpoke_image *img, u64 time,
			   int (*fn)(u64 addr, const u8 *bytes, size_t len, void *arg), void *arg)
{
	u8 *buf, *known;
	u64 addr = 0, start, end;
	int err;

	if (!img || !fn)
		return -EINVAL;
	err = tp_image__settle(img);
	if (err)
		return err;
	buf = malloc(2 * TP_EXPORT_CHUNK);
	if (!buf)
		return -ENOMEM;
	known = buf + TP_EXPORT_CHUNK;
	while ((end = tp_image__next_span(img, addr, &start)) != 0) {
		/* by len, not the chunk: a range ending near 2^64 would wrap below end */
		for (u64 a = start, len; a < end; a += len) {
			len = end - a < TP_EXPORT_CHUNK ? end - a : TP_EXPORT_CHUNK;

			err = textpoke_image__read(img, a, len, time, buf, known);
			if (err < 0)
				goto out;
			err = 0;
			for (size_t i = 0; i < len && !err;) {
				size_t j = i;

				if (!known[i]) {
					i++;
					continue;
				}
				while (j < len && known[j])
					j++;
				err = fn(a + i, buf + i, j - i, arg);
				i = j;
			}
			if (err)
				goto out;
		}
		addr = end;
	}
out:
	free(buf);
	return err;
}
