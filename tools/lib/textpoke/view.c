// SPDX-License-Identifier: GPL-2.0-only
/*
 * A forward-only view of the image for streaming consumers (perf script
 * decoding the code at each sample's IP, in time order).
 *
 * The view keeps, per site, a cursor: how many of the site's pokes are in
 * effect at the view's time.  As time only moves forward, a cursor only
 * moves forward, one step per poke passed, so a read costs O(1) in the
 * number of versions, amortised.  A cursor is tied to its site's .gen:
 * when an out of order poke or a merge shifts the site's pokes, the
 * cursor is found again by binary search.  Sites are found by address
 * with the image's binary search.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "textpoke-internal.h"

struct tp_cursor {
	u32 pos;
	u32 gen; /* site's gen + 1; 0: not set */
};

struct textpoke_view {
	struct textpoke_image *img;
	u64 time;
	struct tp_cursor *cursors; /* by site id */
	size_t nr_cursors;
};

struct textpoke_view *textpoke_view__new(struct textpoke_image *img, u64 time)
{
	struct textpoke_view *view;

	if (!img) {
		errno = EINVAL;
		return NULL;
	}
	view = calloc(1, sizeof(*view));
	if (!view) {
		errno = ENOMEM;
		return NULL;
	}
	view->img = img;
	view->time = time;
	return view;
}

void textpoke_view__delete(struct textpoke_view *view)
{
	if (!view)
		return;
	free(view->cursors);
	free(view);
}

int textpoke_view__advance(struct textpoke_view *view, u64 time)
{
	if (!view || time < view->time)
		return -EINVAL;
	view->time = time;
	return 0;
}

u64 textpoke_view__time(const struct textpoke_view *view)
{
	return view->time;
}

static int tp_view__version(struct textpoke_view *view, const struct textpoke_site *s, size_t *v)
{
	struct tp_cursor *c;

	if (s->id >= view->nr_cursors) {
		size_t n = view->nr_cursors ? view->nr_cursors : 64;
		void *p;

		while (n <= s->id)
			n *= 2;
		p = realloc(view->cursors, n * sizeof(*c));
		if (!p)
			return -ENOMEM;
		view->cursors = p;
		memset(view->cursors + view->nr_cursors, 0, (n - view->nr_cursors) * sizeof(*c));
		view->nr_cursors = n;
	}
	c = &view->cursors[s->id];
	if (c->gen != s->gen + 1 || c->pos > s->nr ||
	    (c->pos > 0 && s->times[c->pos - 1] > view->time)) {
		c->pos = tp_site__version_at(s, view->time);
		c->gen = s->gen + 1;
	}
	while (c->pos < s->nr && s->times[c->pos] <= view->time)
		c->pos++;
	*v = c->pos;
	return 0;
}

static int tp_view__version_cb(void *ctx, const struct textpoke_site *s, size_t *v)
{
	return tp_view__version(ctx, s, v);
}

int textpoke_view__read(struct textpoke_view *view, u64 addr, size_t len, void *buf, u8 *known)
{
	if (!view)
		return -EINVAL;
	return tp_image__read(view->img, addr, len, buf, known, tp_view__version_cb, view);
}
