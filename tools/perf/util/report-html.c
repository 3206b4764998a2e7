// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf textpoke report --html: one self-contained file (no network: the
 * SVG, the style and the script are inline) that a browser opens as is.
 *
 *   +-- header: input, verdict line, poke verdicts, lanes omitted -------+
 *   | labels | timeline: one lane per site / region      | profile table |
 *   |        |   site: a segment per version, by kind   | per event,    |
 *   |        |   region: a bar over its lifetime        | ABI counts    |
 *   |        | time axis                                 |               |
 *   |        | sample density (histogram over the time)  |               |
 *   +--------------------------------------------------------------------+
 *
 * Every drawn change and lifetime carries its figures in data-*
 * attributes: the hover tooltip reads them, and so can a test reading
 * the DOM.  Everything taken from the recording is escaped.  At 10^4
 * sites the file stays usable: the busiest REPORT_HTML_MAX_LANES lanes
 * are drawn and the rest counted, and within a lane changes closer than
 * the drawing's resolution merge into one mark (counted in data-merged).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "debug.h"
#include "report-group.h"
#include "report-output.h"
#include "report-tree.h"

#define LABEL_W 190
#define PLOT_W 490
#define SVG_W (LABEL_W + PLOT_W + 10)
#define LANE_H 14
#define LANE_STEP 16
#define AXIS_H 26
#define DENSITY_H 60
/* marks (segments, bars) drawn at most, shared out by lowering the resolution */
#define MAX_MARKS 40000
#define LABEL_CHARS 30
#define MAX_ROWS 200
/* a call-graph frame's bar: CG_BAR_W pixels for the event's whole period */
#define CG_BAR_W 200
#define CG_INDENT 12
/* a --hierarchy row's bar and indent per level */
#define HIER_BAR_W 200
#define HIER_INDENT 12
/* the frames drawn at most over all trees, the rest counted */
#define MAX_CG_FRAMES 20000

static const char *const kind_colour[REPORT_KIND__MAX] = {
    [REPORT_KIND_JUMP_LABEL] = "#1f77b4", [REPORT_KIND_STATIC_CALL] = "#9467bd",
    [REPORT_KIND_FTRACE] = "#2ca02c",	  [REPORT_KIND_KPROBE] = "#d62728",
    [REPORT_KIND_OPTPROBE] = "#ff7f0e",	  [REPORT_KIND_TRAMPOLINE] = "#8c564b",
    [REPORT_KIND_OTHER] = "#7f7f7f",
};
#define ORIGINAL_COLOUR "#d0d0d0"

struct html {
	FILE *fp;
	size_t nr_cg_frames; /* drawn so far */
	size_t nr_cg_omitted;
	u64 t0, t1;
	double quantum; /* pixels within which a lane's changes merge */
};

/* report_output__html_escape(), to the page */
static bool html__escape(struct html *h, const char *s, size_t max)
{
	return report_output__html_escape(h->fp, s, max);
}

static void html__attr(struct html *h, const char *name, const char *s)
{
	fprintf(h->fp, " %s=\"", name);
	html__escape(h, s ? s : "", 0);
	fputc('"', h->fp);
}

static void html__attr_u64(struct html *h, const char *name, u64 v)
{
	fprintf(h->fp, " %s=\"%" PRIu64 "\"", name, v);
}

static void html__attr_addr(struct html *h, const char *name, u64 v)
{
	fprintf(h->fp, " %s=\"0x%" PRIx64 "\"", name, v);
}

static void html__attr_bytes(struct html *h, const char *name, const u8 *b, size_t len)
{
	size_t i;

	fprintf(h->fp, " %s=\"", name);
	if (b)
		for (i = 0; i < len; i++)
			fprintf(h->fp, "%s%02x", i ? " " : "", b[i]);
	fputc('"', h->fp);
}

static void fmt_time(char *buf, size_t size, u64 t)
{
	snprintf(buf, size, "%" PRIu64 ".%06" PRIu64, t / 1000000000, t % 1000000000 / 1000);
}

static double html__x(const struct html *h, u64 t)
{
	if (t <= h->t0)
		return LABEL_W;
	if (t >= h->t1)
		return LABEL_W + PLOT_W;
	return LABEL_W + (double)(t - h->t0) * PLOT_W / (double)(h->t1 - h->t0);
}

static const char *region_colour(u16 ksym_type)
{
	/* PERF_RECORD_KSYMBOL_TYPE_BPF 1, _OOL 2 */
	return ksym_type == 1			 ? "#17becf" :
	       ksym_type == 2			 ? "#bcbd22" :
	       ksym_type == REPORT_REGION_OBJECT ? "#e377c2" :
						   "#7f7f7f";
}

static const char *region_type(u16 ksym_type)
{
	return ksym_type == 1			 ? "bpf" :
	       ksym_type == 2			 ? "ool" :
	       ksym_type == REPORT_REGION_OBJECT ? "object" :
						   "unknown";
}

struct lane {
	bool region;
	size_t idx;
	u64 score;
};

static int lane__cmp_score(const void *a, const void *b)
{
	const struct lane *la = a, *lb = b;

	if (la->score != lb->score)
		return la->score > lb->score ? -1 : 1;
	if (la->region != lb->region)
		return la->region ? 1 : -1;
	return la->idx < lb->idx ? -1 : la->idx > lb->idx;
}

static int lane__cmp_order(const void *a, const void *b)
{
	const struct lane *la = a, *lb = b;

	if (la->region != lb->region)
		return la->region ? 1 : -1;
	return la->idx < lb->idx ? -1 : la->idx > lb->idx;
}

/*
 * The lanes to draw, sites in address order then regions in start
 * order; past the cap, the ones with the most changes and samples.
 */
static struct lane *html__lanes(const struct report_changes *rc, size_t *nr)
{
	size_t total = rc->nr_sites + rc->nr_regions, i, n = 0;
	struct lane *lanes = calloc(total ? total : 1, sizeof(*lanes));

	if (!lanes)
		return NULL;
	for (i = 0; i < rc->nr_sites; i++, n++) {
		const struct report_site *s = &rc->sites[i];

		lanes[n].idx = i;
		lanes[n].score = (s->nr_versions ? s->nr_versions - 1 : 0) + s->nr_samples_changed;
	}
	for (i = 0; i < rc->nr_regions; i++, n++) {
		lanes[n].region = true;
		lanes[n].idx = i;
		/* a region's life is one change of the address space, at least */
		lanes[n].score = 1 + rc->regions[i].nr_samples;
	}
	if (n > REPORT_HTML_MAX_LANES) {
		qsort(lanes, n, sizeof(*lanes), lane__cmp_score);
		n = REPORT_HTML_MAX_LANES;
		qsort(lanes, n, sizeof(*lanes), lane__cmp_order);
	}
	*nr = n;
	return lanes;
}

static void html__label(struct html *h, double y, const char *text, const char *full)
{
	fprintf(h->fp, "<text class=\"label\" x=\"4\" y=\"%.1f\">", y + LANE_H - 3);
	if (html__escape(h, text, LABEL_CHARS)) {
		fputs("<title>", h->fp);
		html__escape(h, full ? full : text, 0);
		fputs("</title>", h->fp);
	}
	fputs("</text>\n", h->fp);
}

static void html__site_lane(struct html *h, const struct report_site *s, size_t lane, double y)
{
	char addr[32], tbuf[32];
	double last_x = -1e9;
	size_t v, merged = 0;
	u32 state = 0;

	snprintf(addr, sizeof(addr), "0x%" PRIx64, s->addr);
	/* the same walk as the drawing's below, to put the count on the lane */
	for (v = 0; v < s->nr_versions; v++) {
		double x0 = html__x(h, v ? s->versions[v].time : h->t0);

		if (v && x0 - last_x < h->quantum)
			merged++;
		else
			last_x = x0;
	}
	last_x = -1e9;
	fprintf(h->fp, "<g class=\"lane\" data-lane=\"%zu\" data-type=\"site\"", lane);
	html__attr_addr(h, "data-addr", s->addr);
	html__attr_u64(h, "data-len", s->len);
	html__attr(h, "data-sym", s->sym);
	html__attr(h, "data-kind", report_site_kind__name(s->kind));
	html__attr_u64(h, "data-changes", s->nr_versions ? s->nr_versions - 1 : 0);
	html__attr_u64(h, "data-samples-changed", s->nr_samples_changed);
	html__attr_u64(h, "data-merged", merged);
	fputs(">\n", h->fp);
	html__label(h, y, s->sym ? s->sym : addr, NULL);
	fprintf(h->fp, "<rect class=\"track\" x=\"%d\" y=\"%.1f\" width=\"%d\" height=\"%d\"/>\n",
		LABEL_W, y, PLOT_W, LANE_H);
	for (v = 0; v < s->nr_versions; v++) {
		const struct report_version *rv = &s->versions[v];
		double x0 = html__x(h, v ? rv->time : h->t0), x1;
		bool original;
		size_t next;

		/* a change within the resolution of the last one drawn merges into it */
		if (v && x0 - last_x < h->quantum)
			continue;
		for (next = v + 1; next < s->nr_versions; next++)
			if (html__x(h, s->versions[next].time) - x0 >= h->quantum)
				break;
		x1 = next < s->nr_versions ? html__x(h, s->versions[next].time) : LABEL_W + PLOT_W;
		last_x = x0;
		/* the colour says whether the code differed from its first state then */
		original = !v || !rv->changed;
		if (!original)
			state++;
		fprintf(h->fp,
			"<rect class=\"seg\" x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%d\" "
			"fill=\"%s\" fill-opacity=\"%s\"",
			x0, y, x1 - x0 > 0.5 ? x1 - x0 : 0.5, LANE_H,
			original ?
			    ORIGINAL_COLOUR :
			    kind_colour[s->kind < REPORT_KIND__MAX ? s->kind : REPORT_KIND_OTHER],
			original || state % 2 ? "1" : "0.65");
		fprintf(h->fp, " data-lane=\"%zu\" data-version=\"%zu\"", lane, v);
		if (v) {
			fmt_time(tbuf, sizeof(tbuf), rv->time);
			html__attr_u64(h, "data-time-ns", rv->time);
			html__attr(h, "data-time", tbuf);
			html__attr(h, "data-verdict", textpoke_verdict__str(rv->verdict));
		}
		html__attr_addr(h, "data-addr", s->addr);
		html__attr(h, "data-sym", s->sym);
		html__attr(h, "data-kind", report_site_kind__name(s->kind));
		html__attr(h, "data-desc", rv->desc);
		html__attr_bytes(h, "data-bytes", rv->bytes, s->len);
		html__attr_u64(h, "data-duration-ns", rv->duration);
		html__attr_u64(h, "data-samples", rv->nr_samples);
		html__attr(h, "data-changed", rv->changed ? "yes" : "no");
		fputs("/>\n", h->fp);
	}
	fputs("</g>\n", h->fp);
}

static void html__region_lane(struct html *h, const struct report_changes *rc, size_t idx,
			      size_t lane, double y)
{
	const struct report_region *r = &rc->regions[idx];
	double x0 = html__x(h, r->start), x1;
	char tbuf[32];
	size_t i;

	x1 = r->end == UINT64_MAX ? LABEL_W + PLOT_W : html__x(h, r->end);
	fprintf(h->fp, "<g class=\"lane\" data-lane=\"%zu\" data-type=\"region\"", lane);
	html__attr_addr(h, "data-addr", r->addr);
	html__attr_u64(h, "data-len", r->len);
	html__attr(h, "data-name", r->name);
	fputs(">\n", h->fp);
	html__label(h, y, r->name, NULL);
	fprintf(h->fp, "<rect class=\"track\" x=\"%d\" y=\"%.1f\" width=\"%d\" height=\"%d\"/>\n",
		LABEL_W, y, PLOT_W, LANE_H);
	fprintf(h->fp,
		"<rect class=\"life%s\" x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%d\" "
		"fill=\"%s\" data-lane=\"%zu\"",
		r->bytes_known ? "" : " nobytes", x0, y + 1, x1 - x0 > 0.5 ? x1 - x0 : 0.5,
		LANE_H - 2, region_colour(r->ksym_type), lane);
	html__attr(h, "data-name", r->name);
	html__attr_addr(h, "data-addr", r->addr);
	html__attr_u64(h, "data-len", r->len);
	html__attr(h, "data-type", region_type(r->ksym_type));
	fmt_time(tbuf, sizeof(tbuf), r->start);
	html__attr_u64(h, "data-start-ns", r->start);
	html__attr(h, "data-start", tbuf);
	if (r->end != UINT64_MAX) {
		fmt_time(tbuf, sizeof(tbuf), r->end);
		html__attr_u64(h, "data-end-ns", r->end);
		html__attr(h, "data-end", tbuf);
	} else {
		html__attr(h, "data-end", "alive at the end");
	}
	html__attr(h, "data-bytes-known", r->bytes_known ? "yes" : "no");
	html__attr_u64(h, "data-samples", r->nr_samples);
	fputs(" data-reused=\"", h->fp);
	for (i = 0; i < r->nr_reused; i++) {
		if (r->reused[i] >= rc->nr_regions)
			continue;
		fputs(i ? ", " : "", h->fp);
		html__escape(h, rc->regions[r->reused[i]].name, 0);
	}
	fputs("\"/>\n</g>\n", h->fp);
}

static void html__axis(struct html *h, double y)
{
	char tbuf[32];
	int i;

	fprintf(h->fp, "<g class=\"axis\"><line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\"/>\n",
		LABEL_W, y, LABEL_W + PLOT_W, y);
	for (i = 0; i <= 4; i++) {
		u64 t = h->t0 + (u64)((double)(h->t1 - h->t0) * i / 4);
		double x = LABEL_W + (double)PLOT_W * i / 4;

		fmt_time(tbuf, sizeof(tbuf), t);
		fprintf(h->fp,
			"<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>"
			"<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\">%s</text>\n",
			x, y, x, y + 4, x, y + 15,
			i == 0 ? "start" :
			i == 4 ? "end" :
				 "middle",
			tbuf);
	}
	fputs("</g>\n", h->fp);
}

static void html__density(struct html *h, const struct report_density *d, double y)
{
	size_t i, n = d ? report_density__nr_bins(d) : 0;
	char tbuf[32];
	u64 max = 0;

	fprintf(h->fp, "<g id=\"density\" class=\"density\" data-samples=\"%" PRIu64 "\">\n",
		d ? d->nr_samples : 0);
	fprintf(h->fp, "<text class=\"label\" x=\"4\" y=\"%.1f\">%s</text>\n", y + DENSITY_H / 2.0,
		n ? "samples over time" : "samples over time: none");
	fprintf(h->fp, "<rect class=\"track\" x=\"%d\" y=\"%.1f\" width=\"%d\" height=\"%d\"/>\n",
		LABEL_W, y, PLOT_W, DENSITY_H);
	for (i = 0; i < n; i++)
		if (d->counts[i] > max)
			max = d->counts[i];
	for (i = 0; i < n; i++) {
		u64 b0 = d->start + i * d->bin_ns;
		double x0 = html__x(h, b0), x1 = html__x(h, b0 + d->bin_ns);
		double bh = max ? (double)d->counts[i] * (DENSITY_H - 2) / (double)max : 0;

		if (!d->counts[i])
			continue;
		fmt_time(tbuf, sizeof(tbuf), b0);
		fprintf(h->fp,
			"<rect class=\"bin\" x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" "
			"data-start-ns=\"%" PRIu64 "\" data-start=\"%s\" data-bin-ns=\"%" PRIu64
			"\" data-count=\"%" PRIu64 "\"/>\n",
			x0, y + DENSITY_H - bh, x1 - x0 > 1.5 ? x1 - x0 : 1.5, bh, b0, tbuf,
			d->bin_ns, d->counts[i]);
	}
	fputs("</g>\n", h->fp);
}

static void html__span(struct html *h, const struct report_output *ro)
{
	const struct report_density *d = ro->density;
	bool any = false;

	h->t0 = UINT64_MAX;
	h->t1 = 0;
	if (ro->changes && ro->changes->last_time >= ro->changes->first_time &&
	    ro->changes->last_time) {
		h->t0 = ro->changes->first_time;
		h->t1 = ro->changes->last_time;
		any = true;
	}
	if (d && d->nr_samples) {
		u64 end = d->start + report_density__nr_bins(d) * d->bin_ns;

		/* from the earliest sample: the first bin may start before it */
		if (d->lo < h->t0)
			h->t0 = d->lo;
		if (end > h->t1)
			h->t1 = end;
		any = true;
	}
	if (!any)
		h->t0 = h->t1 = 0;
	if (h->t1 <= h->t0)
		h->t1 = h->t0 + 1;
}

static void html__timeline(struct html *h, const struct report_output *ro)
{
	const struct report_changes *rc = ro->changes;
	size_t nr_lanes = 0, total = rc ? rc->nr_sites + rc->nr_regions : 0, i;
	struct lane *lanes = NULL;
	double y = 4, height;

	if (rc) {
		lanes = html__lanes(rc, &nr_lanes);
		if (!lanes)
			nr_lanes = 0;
	}
	h->quantum = nr_lanes * (double)PLOT_W / MAX_MARKS;
	if (h->quantum < 0.25)
		h->quantum = 0.25;
	height = 4 + nr_lanes * LANE_STEP + AXIS_H + DENSITY_H + 8;
	fprintf(
	    h->fp,
	    "<p id=\"lanes\" class=\"note\" data-lanes=\"%zu\" data-drawn=\"%zu\" data-omitted=\"%zu\">",
	    total, nr_lanes, total - nr_lanes);
	if (total > nr_lanes)
		fprintf(h->fp,
			"%zu of %zu lanes drawn (the busiest); %zu omitted, all are in --json",
			nr_lanes, total, total - nr_lanes);
	else
		fprintf(h->fp, "%zu lanes", total);
	fputs("</p>\n", h->fp);
	fprintf(h->fp,
		"<svg id=\"timeline\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
		"height=\"%.0f\" viewBox=\"0 0 %d %.0f\">\n",
		SVG_W, height, SVG_W, height);
	for (i = 0; i < nr_lanes; i++, y += LANE_STEP) {
		if (lanes[i].region)
			html__region_lane(h, rc, lanes[i].idx, i, y);
		else
			html__site_lane(h, &rc->sites[lanes[i].idx], i, y);
	}
	html__axis(h, y + 2);
	html__density(h, ro->density, y + AXIS_H);
	fputs("</svg>\n", h->fp);
	free(lanes);
}

/* the keys past abi are headed as the text report heads them (report-layout.c's table) */
static const char *const column_name[SORT__MAX] = {
    [SORT_COMM] = "Command", [SORT_PID] = "Pid", [SORT_TID] = "Tid", [SORT_DSO] = "Shared Object",
    [SORT_SYM] = "Symbol",   [SORT_CPU] = "CPU", [SORT_ABI] = "ABI",
};

static const char *html__column_name(enum report_sort_key key)
{
	return column_name[key] ?: report_column__header(key);
}

/* an entry's value of a sort key, as the text report writes it */
static int html__key(struct html *h, const struct hist_entry *he, enum report_sort_key key)
{
	char *text;

	switch (key) {
	case SORT_COMM:
		html__escape(h, he->comm, 0);
		break;
	case SORT_PID:
		/* perf's pid column: "pid:comm" with the thread's last name */
		fprintf(h->fp, "%u:", he->pid);
		html__escape(h, he->thread_comm, 0);
		break;
	case SORT_TID:
		fprintf(h->fp, "%u", he->tid);
		break;
	case SORT_DSO:
		html__escape(h, he->dso ? he->dso : "[unknown]", 0);
		break;
	case SORT_SYM:
		fprintf(h->fp, "[%c] ", he->level ? he->level : '.');
		if (he->sym)
			html__escape(h, he->sym, 0);
		else
			/* as the text: C's "%#" writes no 0x before a zero */
			fprintf(h->fp, "%#.16" PRIx64, he->ip);
		break;
	case SORT_CPU:
		fprintf(h->fp, "%03d", he->cpu);
		break;
	case SORT_ABI:
		fputs(he->abi == 0 ? "none" :
		      he->abi == 1 ? "32" :
		      he->abi == 2 ? "64" :
				     "other",
		      h->fp);
		break;
	default:
		/* dso_size .. parent: the text report's value */
		text = report_entry__key_text(key, he);
		if (!text)
			return -ENOMEM;
		html__escape(h, text, 0);
		free(text);
		break;
	}
	return 0;
}

static int html__cell(struct html *h, const struct hist_entry *he, enum report_sort_key key)
{
	int err;

	fputs("<td>", h->fp);
	err = html__key(h, he, key);
	fputs("</td>", h->fp);
	return err;
}

/*
 * An entry's call-graph tree, as the text report prints it (the same
 * order, threshold and print limit), one line per frame: a bar whose
 * length is the frame's share of the event, the share, the name.  The
 * lines are siblings indented by their depth, not nested elements, so
 * that no chain is too deep for the browser; a click on a line folds
 * the lines below it (the script).
 */
struct html_tree {
	struct html *h;
	u64 total;
	size_t nr;
};

static int html_tree__enter(void *arg, const struct report_tree_frame *f, int depth)
{
	struct html_tree *ht = arg;
	struct html *h = ht->h;
	double pct = ht->total ? 100.0 * (double)f->period / (double)ht->total : 0.0;
	u64 bar = ht->total ? (f->period * CG_BAR_W + ht->total / 2) / ht->total : 0;

	if (h->nr_cg_frames >= MAX_CG_FRAMES) {
		h->nr_cg_omitted++;
		return 0;
	}
	h->nr_cg_frames++;
	ht->nr++;
	fprintf(h->fp,
		"<div class=\"cf\" data-depth=\"%d\" data-period=\"%" PRIu64
		"\" data-self=\"%" PRIu64
		"\" data-samples=\"%u\" style=\"padding-left:%dpx\"><span class=\"cb\" "
		"style=\"width:%" PRIu64 "px\"></span>%.2f%% ",
		depth, f->period, f->self, f->nr_samples, CG_INDENT * depth, bar, pct);
	if (f->name) {
		html__escape(h, f->name, 0);
		if (f->srcline) {
			fputc(' ', h->fp);
			html__escape(h, f->srcline, 0);
		}
		if (f->inlined)
			fputs(" (inlined)", h->fp);
	} else {
		fprintf(h->fp, "%#" PRIx64, f->ip);
	}
	fputs("</div>\n", h->fp);
	return 0;
}

static int html_tree__leave(void *arg, int depth)
{
	(void)arg;
	(void)depth;
	return 0;
}

static int html__tree(struct html *h, const struct report_output *ro,
		      const struct report_hist *hist, const struct hist_entry *he, size_t nr_cols,
		      bool first, int depth)
{
	struct html_tree ht = {.h = h, .total = hist->all_period};
	struct report_tree_visitor v = {html_tree__enter, html_tree__leave, &ht};
	int err;

	/* the event's first row's tree open, the others one click away */
	/* a group's row only a member has: no tree, as in the text */
	if (he->id == REPORT_GROUP_NO_TREE)
		return 0;
	fputs("<tr class=\"cgrow\"", h->fp);
	/* under a --hierarchy row: one level below it, folded with it */
	if (depth >= 0)
		fprintf(h->fp, " data-depth=\"%d\"", depth);
	fprintf(h->fp,
		"><td colspan=\"%zu\"><details%s><summary>call graph"
		"</summary><div class=\"cg\">\n",
		nr_cols, first ? " open" : "");
	/* a group's trees are its leader's, their limits of the leader's total */
	err = report_trees__walk(ro->trees, hist->idx, he->id,
				 hist->members ? hist->member_totals[0] : hist->total_period, &v);
	fputs("</div></details></td></tr>\n", h->fp);
	return err;
}

/*
 * --hierarchy: a row per node of perf's levels, in the text's order and
 * with its figures (report_hist__walk_hierarchy()), the key's value
 * indented by the level with a bar of the row's share (HIER_BAR_W pixels
 * for all of it); a click on a row folds the rows below it, its
 * call-graph tree's too.  The rows are siblings, as the trees' lines.
 */
struct html_hier {
	struct html *h;
	const struct report_output *ro;
	const struct report_hist *hist;
	size_t shown, hidden;
	int err;
};

static int html_hier__row(void *arg, const struct report_hier_row *r)
{
	struct html_hier *hh = arg;
	struct html *h = hh->h;
	u64 total = r->h->total_period;
	double pct = total ? 100.0 * (double)r->e->period / (double)total : 0.0;
	u64 bar = total ? (r->e->period * HIER_BAR_W + total / 2) / total : 0;
	int err;

	if (hh->shown >= MAX_ROWS) {
		hh->hidden++;
		return 0;
	}
	hh->shown++;
	fprintf(h->fp,
		"<tr class=\"hr\" data-depth=\"%d\" data-period=\"%" PRIu64
		"\" data-samples=\"%" PRIu64 "\"><td class=\"num\">%.2f%%</td>"
		"<td class=\"num\">%" PRIu64 "</td><td style=\"padding-left:%dpx\">"
		"<span class=\"hb\" style=\"width:%" PRIu64 "px\"></span>",
		r->depth, r->e->period, r->e->nr_samples, pct, r->e->nr_samples,
		HIER_INDENT * r->depth, bar);
	err = html__key(h, r->e, r->key);
	if (err)
		return err;
	fputs("</td></tr>\n", h->fp);
	if (r->entry && hh->ro->trees) {
		err = html__tree(h, hh->ro, r->tree, r->entry, 3, false, r->depth + 1);
		if (err)
			return err;
	}
	if (r->no_entry)
		fprintf(h->fp,
			"<tr class=\"hn\" data-depth=\"%d\"><td></td><td></td>"
			"<td style=\"padding-left:%dpx\">no entry &gt;= %.2f%%</td></tr>\n",
			r->depth + 1, HIER_INDENT * (r->depth + 1), hh->ro->hier->percent_limit);
	return 0;
}

static int html__hierarchy(struct html *h, const struct report_output *ro,
			   const struct report_hist *hist, const enum report_sort_key *keys,
			   size_t nr_keys)
{
	struct html_hier hh = {.h = h, .ro = ro, .hist = hist};
	size_t k;
	int err;

	fputs("<table class=\"hist hier\"", h->fp);
	html__attr(h, "data-event", hist->event_name);
	fputs("><tr><th>Overhead</th><th>Samples</th><th>", h->fp);
	for (k = 0; k < nr_keys; k++)
		fprintf(h->fp, "%s%s", k ? " / " : "", html__column_name(keys[k]));
	fputs("</th></tr>\n", h->fp);
	err = report_hist__walk_hierarchy(hist, ro->layout, ro->hier, html_hier__row, &hh);
	fputs("</table>\n", h->fp);
	if (err)
		return err;
	if (hh.hidden)
		fprintf(h->fp, "<p>%zu more rows, all are in --json</p>\n", hh.hidden);
	return 0;
}

enum html_value { HTML_CHILDREN, HTML_SELF, HTML_SAMPLES };

/*
 * A value cell of a row: the entry's, or a group's members' side by side
 * as the text prints them ("12.50% 3.10%"), each a share of its total
 */
static void html__values(struct html *h, const struct report_hist *hist,
			 const struct hist_entry *he, enum html_value what)
{
	u32 n = hist->members ? hist->nr_members : 1;

	fputs("<td class=\"num\">", h->fp);
	for (u32 m = 0; m < n; m++) {
		const struct hist_member_vals *v =
		    hist->members ? &hist->members[(he - hist->entries) * n + m] : NULL;
		u64 total = v ? hist->member_totals[m] : hist->total_period;
		u64 part = what == HTML_CHILDREN ? (v ? v->children : he->children) :
			   what == HTML_SELF	 ? (v ? v->period : he->period) :
						   (v ? v->nr_samples : he->nr_samples);

		if (m)
			fputc(' ', h->fp);
		if (what == HTML_SAMPLES)
			fprintf(h->fp, "%" PRIu64, part);
		else
			fprintf(h->fp, "%.2f%%",
				total ? 100.0 * (double)part / (double)total : 0.0);
	}
	fputs("</td>", h->fp);
}

static int html__profile(struct html *h, const struct report_output *ro,
			 const enum report_sort_key *keys, size_t nr_keys)
{
	size_t i, e, k;
	int err;

	fputs("<div id=\"profile\">\n", h->fp);
	for (i = 0; i < ro->nr_hists; i++) {
		const struct report_hist *hist = &ro->hists[i];
		size_t rows = 0, shown = 0;

		/* as the text report: an event without samples is skipped (perf's --skip-empty) */
		if (!hist->nr_samples)
			continue;
		for (e = 0; e < hist->nr_entries; e++)
			rows +=
			    !report_hist_entry__below(&hist->entries[e], hist, ro->percent_limit);
		fputs("<h2>", h->fp);
		html__escape(h, hist->event_name, 0);
		fprintf(h->fp, "</h2>\n<p>Samples: %" PRIu64 ", event count (approx.): %" PRIu64,
			hist->nr_samples, hist->total_period);
		if (hist->time_slices) {
			fputs(", time slices ", h->fp);
			html__escape(h, hist->time_slices, 0);
		}
		fputs("</p>\n", h->fp);
		if (ro->hier) {
			err = html__hierarchy(h, ro, hist, keys, nr_keys);
			if (err)
				return err;
			continue;
		}
		fputs("<table class=\"hist\"", h->fp);
		html__attr(h, "data-event", hist->event_name);
		/* perf's columns: Children before Self when the entries have both */
		fprintf(h->fp, " data-rows=\"%zu\"><tr>%s<th>Samples</th>", rows,
			hist->children ? "<th>Children</th><th>Self</th>" : "<th>Overhead</th>");
		for (k = 0; k < nr_keys; k++)
			fprintf(h->fp, "<th>%s</th>", html__column_name(keys[k]));
		fputs("</tr>\n", h->fp);
		for (e = 0; e < hist->nr_entries && shown < MAX_ROWS; e++) {
			const struct hist_entry *he = &hist->entries[e];

			if (report_hist_entry__below(he, hist, ro->percent_limit))
				continue;
			shown++;
			fprintf(h->fp,
				"<tr class=\"row\" data-period=\"%" PRIu64
				"\" data-samples=\"%" PRIu64 "\">",
				he->period, he->nr_samples);
			if (hist->children)
				html__values(h, hist, he, HTML_CHILDREN);
			html__values(h, hist, he, HTML_SELF);
			html__values(h, hist, he, HTML_SAMPLES);
			for (k = 0; k < nr_keys; k++) {
				err = html__cell(h, he, keys[k]);
				if (err)
					return err;
			}
			fputs("</tr>\n", h->fp);
			if (ro->trees) {
				err = html__tree(h, ro, hist, he, nr_keys + 2 + hist->children,
						 shown == 1, -1);
				if (err)
					return err;
			}
		}
		fputs("</table>\n", h->fp);
		if (shown < rows)
			fprintf(h->fp, "<p>%zu more rows, all are in --json</p>\n", rows - shown);
		if (hist->nr_comms) {
			fputs("<table class=\"abi\"><tr><th>Command</th><th>no regs</th>"
			      "<th>32-bit</th><th>64-bit</th><th>other</th></tr>\n",
			      h->fp);
			for (e = 0; e < hist->nr_comms; e++) {
				const struct report_abi_count *a = &hist->abi_counts[e];

				fputs("<tr><td>", h->fp);
				html__escape(h, a->comm, 0);
				fprintf(h->fp,
					"</td><td class=\"num\">%" PRIu64
					"</td><td class=\"num\">%" PRIu64
					"</td><td class=\"num\">%" PRIu64
					"</td><td class=\"num\">%" PRIu64 "</td></tr>\n",
					a->nr[0], a->nr[1], a->nr[2], a->nr[3]);
			}
			fputs("</table>\n", h->fp);
		}
	}
	if (h->nr_cg_omitted)
		fprintf(h->fp,
			"<p class=\"cgmore\">%zu more call-graph frames, all are in --json</p>\n",
			h->nr_cg_omitted);
	fputs("</div>\n", h->fp);
	return 0;
}

static void html__summary(struct html *h, const struct report_output *ro)
{
	const struct report_changes *rc = ro->changes;
	size_t i;

	fputs("<h1>perf textpoke report: ", h->fp);
	html__escape(h, ro->input ? ro->input : "perf.data", 0);
	fputs("</h1>\n", h->fp);
	if (!rc) {
		fputs("<p id=\"verdict\">no code-change report</p>\n", h->fp);
		return;
	}
	fprintf(h->fp, "<p id=\"verdict\" class=\"%s\" data-trusted=\"%s\">",
		rc->consistency.trusted ? "ok" : "bad", rc->consistency.trusted ? "yes" : "no");
	html__escape(h, rc->consistency.verdict, 0);
	fprintf(h->fp,
		"</p>\n<p>%zu sites, %zu regions, %" PRIu64 " kernel samples; pokes:", rc->nr_sites,
		rc->nr_regions, rc->nr_kernel_samples);
	for (i = 0; i < TEXTPOKE_VERDICT__MAX; i++)
		fprintf(h->fp, " %s %zu", textpoke_verdict__str(i), rc->consistency.verdicts[i]);
	fprintf(h->fp,
		"; lost %" PRIu64 ", lost samples %" PRIu64 ", out of order %" PRIu64
		", unmapped %zu (in module space %zu)</p>\n",
		rc->consistency.nr_lost, rc->consistency.nr_lost_samples,
		rc->consistency.nr_unordered, rc->consistency.nr_unmapped,
		rc->consistency.nr_unmapped_module_space);
	fputs("<p class=\"legend\">", h->fp);
	for (i = 0; i < REPORT_KIND__MAX; i++)
		fprintf(h->fp, "<span style=\"background:%s\"></span>%s ", kind_colour[i],
			report_site_kind__name(i));
	fprintf(h->fp,
		"<span style=\"background:%s\"></span>original state "
		"<span style=\"background:%s\"></span>BPF program "
		"<span style=\"background:%s\"></span>OOL region "
		"<span style=\"background:%s\"></span>ELF object</p>\n",
		ORIGINAL_COLOUR, region_colour(1), region_colour(2),
		region_colour(REPORT_REGION_OBJECT));
}

/*
 * The only script: a tooltip filled from the hovered mark's data-*
 * attributes (textContent: the recording's names stay text).  A link
 * ending in #show=ADDR:VERSION opens the tooltip of that change, which
 * is also how the tests see the tooltip without a mouse.
 */
static const char html_script[] =
    "(function () {\n"
    "  var tip = document.getElementById('tip');\n"
    "  var svg = document.getElementById('timeline');\n"
    "  var fields = [['sym', 'symbol'], ['name', 'region'], ['addr', 'address'],\n"
    "                ['kind', 'kind'], ['type', 'type'], ['version', 'version'],\n"
    "                ['time', 'time'], ['start', 'start'], ['end', 'end'],\n"
    "                ['bytes', 'bytes'], ['desc', 'disassembly'], ['verdict', 'verdict'],\n"
    "                ['samples', 'samples'], ['bytesKnown', 'bytes known'],\n"
    "                ['reused', 'address also held by'], ['count', 'samples']];\n"
    "  function show(target, x, y) {\n"
    "    var d = target.dataset, lines = [];\n"
    "    if (!d || (d.version === undefined && d.start === undefined)) {\n"
    "      tip.style.display = 'none';\n"
    "      return;\n"
    "    }\n"
    "    fields.forEach(function (f) {\n"
    "      if (d[f[0]] !== undefined && d[f[0]] !== '') lines.push(f[1] + ': ' + d[f[0]]);\n"
    "    });\n"
    "    tip.textContent = lines.join('\\n');\n"
    "    tip.style.left = (x + 12) + 'px';\n"
    "    tip.style.top = (y + 12) + 'px';\n"
    "    tip.style.display = 'block';\n"
    "  }\n"
    "  svg.addEventListener('mousemove', function (ev) { show(ev.target, ev.clientX, ev.clientY); });\n"
    "  svg.addEventListener('mouseleave', function () { tip.style.display = 'none'; });\n"
    "  var m = /^#show=(0x[0-9a-f]+):([0-9]+)$/.exec(location.hash);\n"
    "  var el = m && svg.querySelector('rect.seg[data-addr=\"' + m[1] + '\"][data-version=\"' +\n"
    "                                 m[2] + '\"]');\n"
    "  if (el) {\n"
    "    var r = el.getBoundingClientRect();\n"
    "    show(el, r.left, r.bottom);\n"
    "  }\n"
    "  function fold(line, folded) {\n"
    "    var d = +line.dataset.depth, n = line.nextElementSibling;\n"
    "    line.classList.toggle('folded', folded);\n"
    "    for (; n && +n.dataset.depth > d; n = n.nextElementSibling) {\n"
    "      n.style.display = folded ? 'none' : '';\n"
    "      n.classList.remove('folded');\n"
    "    }\n"
    "  }\n"
    "  document.querySelectorAll('.cg').forEach(function (cg) {\n"
    "    cg.addEventListener('click', function (ev) {\n"
    "      var line = ev.target.closest('.cf');\n"
    "      if (line) fold(line, !line.classList.contains('folded'));\n"
    "    });\n"
    "  });\n"
    "  document.querySelectorAll('table.hier').forEach(function (t) {\n"
    "    t.addEventListener('click', function (ev) {\n"
    "      var row = ev.target.closest('tr.hr');\n"
    "      if (row) fold(row, !row.classList.contains('folded'));\n"
    "    });\n"
    "  });\n"
    "  var hf = /^#hfold=([0-9]+)$/.exec(location.hash);\n"
    "  var hrows = document.querySelectorAll('tr.hr');\n"
    "  if (hf && hrows[+hf[1]])\n"
    "    fold(hrows[+hf[1]], true);\n"
    "  var f = /^#fold=([0-9]+)$/.exec(location.hash);\n"
    "  var lines = document.querySelectorAll('.cf');\n"
    "  if (location.hash === '#trees')\n"
    "    document.querySelectorAll('tr.cgrow details').forEach(function (d) { d.open = true; });\n"
    "  if (f && lines[+f[1]]) {\n"
    "    lines[+f[1]].closest('details').open = true;\n"
    "    fold(lines[+f[1]], true);\n"
    "  }\n"
    "  document.body.setAttribute('data-ready', 'yes');\n"
    "})();\n";

static const char html_style[] =
    "body{font:13px sans-serif;margin:12px;color:#222;background:#fff}\n"
    "h1{font-size:16px;margin:0 0 4px}h2{font-size:14px;margin:8px 0 2px}\n"
    "p{margin:2px 0}#verdict.ok{color:#1a7f37}#verdict.bad{color:#b42318;font-weight:bold}\n"
    ".main{display:flex;gap:16px;align-items:flex-start}\n"
    "#profile{min-width:300px;overflow:auto}\n"
    "table{border-collapse:collapse;font:10.5px monospace}td,th{padding:1px 4px;text-align:left;white-space:nowrap}\n"
    "td.num{text-align:right}tr:nth-child(even){background:#f3f3f3}\n"
    ".legend span{display:inline-block;width:10px;height:10px;margin:0 3px 0 8px}\n"
    "svg text{font:9.5px monospace;fill:#333}.track{fill:#f6f6f6}\n"
    ".seg{stroke:#fff;stroke-width:0.5}.life{stroke:#333;stroke-width:0.5}\n"
    ".life.nobytes{fill-opacity:0.35;stroke-dasharray:2 2}.bin{fill:#555}\n"
    ".axis line{stroke:#888}\n"
    "tr.cgrow{background:#fff}tr.cgrow summary{font:10.5px sans-serif;color:#555}.cf{font:10.5px monospace;white-space:nowrap;cursor:pointer;"
    "line-height:13px}\n"
    ".cb{display:inline-block;height:9px;margin-right:6px;background:#3b8686;"
    "vertical-align:middle}\n"
    "tr.hr{cursor:pointer}.hb{display:inline-block;height:9px;margin-right:6px;"
    "background:#3b8686;vertical-align:middle}\n"
    "tr.hr.folded td:last-child::before{content:'+';position:absolute;margin-left:-9px}\n"
    ".cf{position:relative}.cf.folded::before{content:'+';position:absolute;margin-left:-9px}\n"
    "#tip{position:fixed;display:none;background:#ffffe8;border:1px solid #999;padding:4px;"
    "font:12px monospace;white-space:pre;pointer-events:none}\n";

int report_output__html(const struct report_output *ro, FILE *fp)
{
	enum report_sort_key keys[SORT__MAX];
	struct html h = {.fp = fp};
	size_t nr_keys;
	int err;

	err = report_output__sort_keys(ro->sort, keys, &nr_keys);
	if (err)
		return err;
	html__span(&h, ro);
	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>perf "
	      "textpoke report: ",
	      fp);
	html__escape(&h, ro->input ? ro->input : "perf.data", 0);
	fprintf(fp, "</title>\n<style>\n%s</style>\n</head>\n<body class=\"report\">\n",
		html_style);
	html__summary(&h, ro);
	fputs("<div class=\"main\">\n<div id=\"changes\">\n", fp);
	html__timeline(&h, ro);
	fputs("</div>\n", fp);
	err = html__profile(&h, ro, keys, nr_keys);
	if (err) {
		pr_err("report: writing the HTML failed: %s\n", strerror(-err));
		return err;
	}
	fprintf(
	    fp,
	    "</div>\n<div id=\"tip\" class=\"tip\"></div>\n<script>\n%s</script>\n</body></html>\n",
	    html_script);
	if (fflush(fp) || ferror(fp)) {
		err = errno ? -errno : -EIO;
		pr_err("report: writing the HTML failed: %s\n", strerror(-err));
		return err;
	}
	return 0;
}
