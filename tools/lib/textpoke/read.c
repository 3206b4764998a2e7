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
