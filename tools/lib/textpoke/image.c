// SPDX-License-Identifier: GPL-2.0-only
/*
 * The image: its lifecycle and memory accounting, and pokes finding their
 * site.  Bases are in base.c, the site index in index.c, sites in site.c,
 * reads in read.c, consistency in check.c, views in view.c.
 */
#include <errno.h>
#include <stdarg.h>
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
	    (new_size - old_size > img->max_bytes ||
	     img->mem > img->max_bytes - (new_size - old_size)))
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
	img->max_site_bytes = TP_MAX_SITE_BYTES_DEFAULT;
	if (opts) {
		img->max_bytes = opts->max_bytes;
		if (!opts->sz || opts->sz >= offsetof(struct textpoke_image_opts, max_site_bytes)) {
			img->print = opts->print;
			img->print_arg = opts->print_arg;
		}
		if ((!opts->sz || opts->sz >= sizeof(*opts)) && opts->max_site_bytes)
			img->max_site_bytes = opts->max_site_bytes;
	}
	img->mem = sizeof(*img);
	if (img->max_bytes && img->mem > img->max_bytes) {
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

#define TP_MERGE_MAX 64

/*
 * A poke that spans several sites, or reaches out of one, joins them: the
 * site with the most pokes grows over the others, so that a long chain of
 * overlapping pokes costs in proportion to its pokes, not their square.
 * All the memory is reserved first; after that nothing can fail.
 */
static int tp_image__join(struct textpoke_image *img, struct textpoke_site **olds, size_t nr_olds,
			  u64 start, u64 end, size_t poke_bytes, struct textpoke_site **out)
{
	struct textpoke_site *dst = olds[0];
	size_t pokes = 1, bytes = poke_bytes;
	int err;

	for (size_t i = 0; i < nr_olds; i++) {
		if (olds[i]->start < start)
			start = olds[i]->start;
		if (olds[i]->end > end)
			end = olds[i]->end;
		if (olds[i]->nr > dst->nr)
			dst = olds[i];
	}
	/* pokes keep their offset in 32 bits */
	if (end - start > UINT32_MAX)
		return -E2BIG;
	for (size_t i = 0; i < nr_olds; i++) {
		if (olds[i] != dst) {
			pokes += olds[i]->nr;
			bytes += olds[i]->arena_len;
		}
	}
	err = tp_site__reserve(img, dst, pokes, bytes);
	if (!err)
		err = tp_image__reserve_insert(img, start, true);
	if (err)
		return err;
	tp_print(img, TEXTPOKE_DEBUG, "poke joins %zu sites into %#llx-%#llx\n", nr_olds,
		 (unsigned long long)start, (unsigned long long)end);
	for (size_t i = 0; i < nr_olds; i++)
		tp_image__remove_site(img, olds[i]);
	tp_site__grow(img, dst, start, end);
	for (size_t i = 0; i < nr_olds; i++) {
		if (olds[i] != dst) {
			tp_site__absorb(img, dst, olds[i]); /* room reserved: cannot fail */
			tp_site__delete(img, olds[i]);
		}
	}
	*out = dst;
	return 0;
}

int textpoke_image__add_poke(struct textpoke_image *img, u64 time, u64 addr, const void *old,
			     size_t old_len, const void *new, size_t new_len)
{
	struct textpoke_site *olds[TP_MERGE_MAX], *s = NULL;
	size_t span = old_len > new_len ? old_len : new_len;
	u64 end = addr + span;
	size_t nr_olds;
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
		} else if (nr_olds) {
			err = tp_image__join(img, olds, nr_olds, addr, end, old_len + new_len, &s);
			if (err)
				return err;
			/* room reserved by the join: neither can fail */
			tp_site__append(img, s, time, addr, old, old_len, new, new_len);
			tp_image__insert_site(img, s);
			goto out;
		} else {
			/* room first: inserting must not fail once the poke is in */
			if (tp_image__reserve_insert(img, addr, false))
				return -ENOMEM;
			s = tp_site__new(img, addr, end);
			if (!s)
				return -ENOMEM;
			err = tp_site__append(img, s, time, addr, old, old_len, new, new_len);
			if (err) {
				tp_site__delete(img, s);
				return err;
			}
			tp_image__insert_site(img, s);
			goto out;
		}
	}
	err = tp_site__append(img, s, time, addr, old, old_len, new, new_len);
	if (err)
		return err;
out:
	img->last = s;
	img->nr_pokes++;
	return 0;
}

int textpoke_image__for_each_site(struct textpoke_image *img,
				  int (*fn)(struct textpoke_site *site, void *arg), void *arg)
{
	int err;

	if (!img || !fn)
		return -EINVAL;
	err = tp_image__settle(img);
	for (size_t i = 0; !err && i < img->nr_sites; i++) {
		struct textpoke_site *s = img->sites[i].site;

		if (s->dirty)
			err = tp_site__materialize(img, s);
		if (!err)
			err = fn(s, arg);
	}
	return err;
}

struct textpoke_site *textpoke_image__site_at(struct textpoke_image *img, u64 addr)
{
	struct textpoke_site *s = NULL;
	int err;

	if (!img) {
		errno = EINVAL;
		return NULL;
	}
	if (addr == UINT64_MAX || tp_image__overlaps(img, addr, addr + 1, &s, 1) != 1) {
		errno = ENOENT;
		return NULL;
	}
	err = tp_image__frags_update(img);
	if (!err && s->dirty)
		err = tp_site__materialize(img, s);
	if (err) {
		errno = -err;
		return NULL;
	}
	return s;
}
