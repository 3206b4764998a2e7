// SPDX-License-Identifier: GPL-2.0-only
/*
 * When the recording's kcore copy was taken: perf record copies
 * /proc/kcore at a moment it does not record, after the text_poke events
 * are enabled, and the copy is one ascending pass, not one moment.  The
 * image anchors the copy (or each of its ranges) at the moments its
 * poked sites agree with.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "debug.h"
#include "text-image-internal.h"

/* [@addr, @addr + @len) of the copy as a base anchored at @time */
static int ti__add_piece(struct text_image *ti, const struct kcore_segment *s, u64 addr, u64 len,
			 u64 time)
{
	struct textpoke_base_opts bo = {
	    .sz = sizeof(bo),
	    .anchor = TEXTPOKE_ANCHOR_AT,
	    .time = time,
	    .flags = TEXTPOKE_BASE_BORROW,
	};
	int err = textpoke_image__add_base(ti->img, addr, s->bytes + (addr - s->addr), len, &bo);

	if (err)
		pr_err("%s: cannot add the copy's bytes at %#llx: %s\n", ti->kcore->path,
		       (unsigned long long)addr, strerror(-err));
	if (!ti->stats.nr_pieces || time < ti->stats.pieces_from)
		ti->stats.pieces_from = time;
	if (time > ti->stats.pieces_to)
		ti->stats.pieces_to = time;
	ti->stats.nr_pieces++;
	return err;
}

/*
 * The copy went in piece by piece (ti__add_piece()), each at a moment of
 * its own: the stats say so, from the first piece's moment to the last's
 */
static void ti__pieces_fitted(struct text_image *ti, size_t sites, size_t agree,
			      const char *moments)
{
	const struct kcore *k = ti->kcore;

	ti->stats.base_path = k->path;
	ti->stats.nr_base_segments = k->nr_segments;
	ti->stats.base_anchor = TEXTPOKE_ANCHOR_AT;
	ti->stats.base_time = ti->stats.pieces_from;
	ti->stats.fit = (struct textpoke_anchor_fit){
	    .from = ti->stats.pieces_from,
	    .to = ti->stats.pieces_to,
	    .sites = sites,
	    .agree = agree,
	};
	ti->stats.fitted = true;
	if (agree < sites)
		pr_warning("%s: %zu of %zu poked sites disagree with the copy at every moment "
			   "%s (lost events? boot-time patching?)\n",
			   k->path, sites - agree, sites, moments);
}

/*
 * Our recorder wrote down when it read each range of the copy
 * (kcore_times): a copy is one ascending pass, not one moment, and a
 * poke made while it ran is in the ranges read after it and not in
 * those read before.  Each range is anchored at a moment of its own
 * read, the one its poked sites agree with (a range read while a site
 * was poked holds the old bytes, the new ones, or text_poke_bp's int3
 * phase); with no poked site in it, at its start.  Bytes no read covers
 * are left out: no time says what they are.
 */
static int ti__fit_reads(struct text_image *ti)
{
	const struct kcore *k = ti->kcore;
	size_t sites = 0, agree = 0;
	int err = 0;

	for (size_t r = 0; r < k->nr_reads && !err; r++) {
		const struct kcore_read *rd = &k->reads[r];

		for (int i = 0; i < k->nr_segments && !err; i++) {
			const struct kcore_segment *s = &k->segments[i];
			u64 lo = s->addr > rd->addr ? s->addr : rd->addr;
			u64 hi = s->addr + s->len < rd->addr + rd->len ? s->addr + s->len :
									 rd->addr + rd->len;
			struct textpoke_anchor_fit fit;

			if (lo >= hi)
				continue;
			err = textpoke_image__fit_anchor_in(ti->img, lo, s->bytes + (lo - s->addr),
							    hi - lo, rd->first, rd->last, &fit);
			if (err)
				break;
			sites += fit.sites;
			agree += fit.agree;
			err = ti__add_piece(ti, s, lo, hi - lo, fit.agree ? fit.from : rd->first);
		}
	}
	if (err)
		return err;
	ti->stats.pieces_timed = true;
	ti__pieces_fitted(ti, sites, agree, "their range was read");
	return 0;
}

#define TI_PAGE 4096ULL
/* where a page's one moment does not fit, its pieces of this size each get one */
#define TI_PIECE 64ULL

struct ti_pass {
	struct text_image *ti;
	const struct kcore_segment *s;
	u64 lo, hi;	 /* the window: [moment of the piece before, copy_before) */
	u64 run, run_at; /* the piece being gathered: start, anchor */
	bool in_run;
	bool dry; /* count only: add no base */
	size_t sites, agree;
};

/* the piece from @addr anchored at @at: joined to the run when the moment is the same */
static int ti_pass__put(struct ti_pass *p, u64 addr, u64 at)
{
	int err = 0;

	if (p->in_run && p->run_at != at) {
		if (!p->dry)
			err = ti__add_piece(p->ti, p->s, p->run, addr - p->run, p->run_at);
		p->in_run = false;
	}
	if (!p->in_run) {
		p->run = addr;
		p->run_at = at;
		p->in_run = true;
	}
	return err;
}

/* one piece: the first moment in the window its sites agree with, not before the last */
static int ti_pass__fit(struct ti_pass *p, u64 addr, u64 end, struct textpoke_anchor_fit *fit)
{
	return textpoke_image__fit_anchor_in(p->ti->img, addr, p->s->bytes + (addr - p->s->addr),
					     end - addr, p->lo, p->hi, fit);
}

/*
 * Stock perf's copy has no times, but it is one ascending pass between
 * two known moments: perf record opens the text_poke event enabled
 * ("immediate"), copies kcore, and only then enables the events it
 * opened disabled.  So each range was read at a moment before the first
 * sample of those, and no earlier than the range before it: page by page
 * in address order, the first moment in that window the page's poked
 * sites agree with; a page that no one moment fits (torn inside it)
 * piece by piece.  Each poke made during the copy is in it or not, and
 * the bytes decide.  Without such a sample the window has no end, and
 * the order alone binds the moments.
 */
static int ti__fit_pass(struct text_image *ti, bool dry, size_t *agree)
{
	struct ti_pass p = {.ti = ti, .hi = ti->copy_before ? ti->copy_before - 1 : 0, .dry = dry};

	if (ti->copy_before == UINT64_MAX)
		p.hi = UINT64_MAX;
	const struct kcore *k = ti->kcore;
	int err = 0;

	for (int i = 0; i < k->nr_segments && !err; i++) {
		const struct kcore_segment *s = &k->segments[i];
		u64 end = s->addr + s->len;

		p.s = s;
		p.in_run = false;
		for (u64 a = s->addr; a < end && !err;) {
			u64 next = (a & ~(TI_PAGE - 1)) + TI_PAGE;
			struct textpoke_anchor_fit fit;

			if (next > end || next < a)
				next = end;
			err = ti_pass__fit(&p, a, next, &fit);
			if (!err && fit.agree < fit.sites) {
				/* torn inside the page: its pieces, each its own moment */
				for (u64 b = a; b < next && !err; b += TI_PIECE) {
					u64 e = b + TI_PIECE < next ? b + TI_PIECE : next;

					err = ti_pass__fit(&p, b, e, &fit);
					if (err)
						break;
					if (fit.agree)
						p.lo = fit.from;
					p.sites += fit.sites;
					p.agree += fit.agree;
					err = ti_pass__put(&p, b, p.lo);
				}
			} else if (!err) {
				if (fit.agree)
					p.lo = fit.from;
				p.sites += fit.sites;
				p.agree += fit.agree;
				err = ti_pass__put(&p, a, p.lo);
			}
			a = next;
		}
		if (!err && p.in_run && !dry)
			err = ti__add_piece(ti, s, p.run, end - p.run, p.run_at);
	}
	*agree = p.agree;
	if (err || dry)
		return err;
	ti__pieces_fitted(ti, p.sites, p.agree, "of its pass");
	return 0;
}

/*
 * perf record copies kcore at a moment it does not record, after the
 * text_poke events are enabled: find that moment from the pokes.
 */
int ti__fit(struct text_image *ti)
{
	struct textpoke_anchor_fit best = {0};
	int i, err;

	if (ti->kcore->nr_reads)
		return ti__fit_reads(ti);

	for (i = 0; i < ti->kcore->nr_segments; i++) {
		const struct kcore_segment *s = &ti->kcore->segments[i];
		struct textpoke_anchor_fit fit;

		err = textpoke_image__fit_anchor(ti->img, s->addr, s->bytes, s->len, &fit);
		if (err)
			return err;
		if (fit.agree > best.agree || (fit.agree == best.agree && fit.sites > best.sites))
			best = fit;
	}
	/* the best segment's moment, for the whole copy: how many sites agree then */
	if (best.sites && ti->kcore->nr_segments > 1) {
		size_t sites = 0, agree = 0;

		for (i = 0; i < ti->kcore->nr_segments; i++) {
			const struct kcore_segment *s = &ti->kcore->segments[i];
			struct textpoke_anchor_fit fit;

			err = textpoke_image__fit_anchor_in(ti->img, s->addr, s->bytes, s->len,
							    best.from, best.from, &fit);
			if (err)
				return err;
			sites += fit.sites;
			agree += fit.agree;
		}
		best.sites = sites;
		best.agree = agree;
	}
	/*
	 * No one moment explains the copy: torn by pokes made while it ran?
	 * Then the pass, range by range, when it explains more.
	 */
	if (best.agree < best.sites) {
		size_t agree;

		err = ti__fit_pass(ti, true, &agree);
		if (err)
			return err;
		if (agree > best.agree)
			return ti__fit_pass(ti, false, &agree);
	}
	ti->stats.fit = best;
	ti->stats.fitted = true;
	if (!best.sites)
		return ti__add_base(ti, ti->kcore, TEXTPOKE_ANCHOR_BEFORE, 0);
	if (best.agree < best.sites)
		pr_warning("%s: %zu of %zu poked sites disagree with the copy at every time "
			   "(lost events? boot-time patching?)\n",
			   ti->kcore->path, best.sites - best.agree, best.sites);
	return ti__add_base(ti, ti->kcore, TEXTPOKE_ANCHOR_AT, best.from);
}
