// SPDX-License-Identifier: GPL-2.0-only
/*
 * The call-graph trees printed as perf report 6.1 --stdio prints them
 * (graph, fractal, flat, folded; the thresholds, print limits and
 * "[...]" remainders), and walked a frame at a time for --json and
 * --html.  Built by report-tree.c.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fmt-fixed.h"
#include "report-tree-internal.h"

/* printing */

static u64 node__cumul(const struct tree_node *n)
{
	return n->hit + n->children_hit;
}

static u32 node__cumul_count(const struct tree_node *n)
{
	return n->count + n->children_count;
}

static int trees__list_reserve(struct report_trees *t, size_t nr)
{
	u32 *l;

	if (nr <= t->alloc_list)
		return 0;
	l = realloc(t->list, nr * sizeof(*l));
	if (!l)
		return -ENOMEM;
	t->list = l;
	t->alloc_list = nr;
	return 0;
}

/*
 * The nodes in t->list[0..nr) sorted by @key descending, keeping the
 * order they came in among equals (perf inserts equals after), linked by
 * out_next; the first is returned
 */
static u32 list__sort_link(struct report_trees *t, size_t nr, bool by_hit)
{
	size_t i, j;

	for (i = 1; i < nr; i++) {
		u32 n = t->list[i];
		u64 k = by_hit ? t->nodes[n].hit : node__cumul(&t->nodes[n]);

		for (j = i; j > 0; j--) {
			const struct tree_node *p = &t->nodes[t->list[j - 1]];

			if ((by_hit ? p->hit : node__cumul(p)) >= k)
				break;
			t->list[j] = t->list[j - 1];
		}
		t->list[j] = n;
	}
	for (i = 0; i < nr; i++)
		t->nodes[t->list[i]].out_next = i + 1 < nr ? t->list[i + 1] : 0;
	return nr ? t->list[0] : 0;
}

/*
 * perf's graph sorts: a child is printed when its cumulated period
 * reaches @min_hit (graph: of the event's total; fractal: of its
 * parent's children, rounded up)
 */
static int node__sort_graph(struct report_trees *t, u32 n, u64 min_hit)
{
	size_t nr = 0, i;
	u32 ch;

	if (t->opts.mode == REPORT_TREE_FRACTAL)
		min_hit = ceil(t->nodes[n].children_hit * (t->opts.min_percent / 100.0));
	for (ch = t->nodes[n].child; ch; ch = t->nodes[ch].next) {
		if (node__sort_graph(t, ch, min_hit))
			return -ENOMEM;
		nr++;
	}
	if (trees__list_reserve(t, nr))
		return -ENOMEM;
	i = 0;
	for (ch = t->nodes[n].child; ch; ch = t->nodes[ch].next)
		if (node__cumul(&t->nodes[ch]) >= min_hit)
			t->list[i++] = ch;
	t->nodes[n].out_child = list__sort_link(t, i, false);
	return 0;
}

/* flat and folded: every node chains end in, children before their parent */
static int node__collect_flat(struct report_trees *t, u32 n, u64 min_hit, size_t *nr)
{
	u32 ch;

	for (ch = t->nodes[n].child; ch; ch = t->nodes[ch].next)
		if (node__collect_flat(t, ch, min_hit, nr))
			return -ENOMEM;
	if (!t->nodes[n].hit || t->nodes[n].hit < min_hit)
		return 0;
	if (trees__list_reserve(t, *nr + 1))
		return -ENOMEM;
	t->list[(*nr)++] = n;
	return 0;
}

/* fprintf(fp, "%.2f%%", pct), a line's figure, without printf's floating point */
static void fprintf_pct(double pct, FILE *fp)
{
	char buf[64];
	int n = fmt_fixed2(buf, sizeof(buf), 0, pct);

	if (n < 0 || (size_t)n + 1 >= sizeof(buf)) {
		fprintf(fp, "%.2f%%", pct);
		return;
	}
	buf[n] = '%';
	fwrite(buf, 1, n + 1, fp);
}

static void fprintf_value(const struct report_trees *t, u64 period, u32 count, u64 total, FILE *fp)
{
	switch (t->opts.value) {
	case REPORT_TREE_PERIOD:
		fprintf(fp, "%llu", (unsigned long long)period);
		break;
	case REPORT_TREE_COUNT:
		fprintf(fp, "%u", count);
		break;
	default:
		fprintf_pct(total ? period * 100.0 / total : 0.0, fp);
		break;
	}
}

static void fprintf_name(const struct tree_frame *f, FILE *fp)
{
	if (f->name && f->srcline)
		fprintf(fp, "%s %s%s", f->name, f->srcline, f->inlined ? " (inlined)" : "");
	else if (f->name)
		fprintf(fp, "%s%s", f->name, f->inlined ? " (inlined)" : "");
	else
		fprintf(fp, "%#llx", (unsigned long long)f->ip);
}

/* every line of a tree starts 12 columns in, then the margin */
static void fprintf_margin(int margin, FILE *fp)
{
	fprintf(fp, "%*s", 12 + margin, "");
}

/* perf's depth mask is an int shifted by the depth: as x86 shifts, by depth mod 32 */
static bool mask__has(int mask, int depth)
{
	return mask & (int)(1u << (depth & 31));
}

static int mask__bit(int depth)
{
	return (int)(1u << (depth & 31));
}

static void fprintf_graph_line(int depth, int mask, int margin, FILE *fp)
{
	fprintf_margin(margin, fp);
	for (int i = 0; i < depth; i++)
		fputs(mask__has(mask, i) ? "|          " : "           ", fp);
	fputc('\n', fp);
}

/* a frame's line: the node's value before its first frame */
static void fprintf_graph_frame(const struct report_trees *t, const struct tree_frame *f,
				const char *name, u64 period, u32 count, int depth, int mask,
				bool first, u64 total, int margin, FILE *fp)
{
	fprintf_margin(margin, fp);
	for (int i = 0; i < depth; i++) {
		fputc(mask__has(mask, i) ? '|' : ' ', fp);
		if (first && i == depth - 1) {
			fputs("--", fp);
			fprintf_value(t, period, count, total, fp);
			fputs("--", fp);
		} else {
			fputs("          ", fp);
		}
	}
	if (f)
		fprintf_name(f, fp);
	else
		fputs(name, fp);
	fputc('\n', fp);
}

static size_t fprintf_graph_children(const struct report_trees *t, u32 n, u64 total, int depth,
				     int mask, int margin, FILE *fp)
{
	const bool fractal = t->opts.mode == REPORT_TREE_FRACTAL;
	u64 remaining = total;
	int new_mask = mask;
	u32 ch, nr = 0, cumul_count = 0;
	size_t lines = 0;

	for (ch = t->nodes[n].out_child; ch; ch = t->nodes[ch].out_next) {
		const struct tree_node *c = &t->nodes[ch];

		remaining -= node__cumul(c);
		cumul_count += node__cumul_count(c);
		/* the last child ends its level's line, unless a "[...]" comes after it */
		if (!c->out_next && (!fractal || !remaining))
			new_mask &= ~mask__bit(depth - 1);
		fprintf_graph_line(depth, mask, margin, fp);
		for (u32 i = 0; i < c->nr_frames; i++)
			fprintf_graph_frame(t, &t->frames[c->frame + i], NULL, node__cumul(c),
					    node__cumul_count(c), depth, new_mask, i == 0, total,
					    margin, fp);
		lines += 1 + c->nr_frames;
		lines += fprintf_graph_children(t, ch, fractal ? c->children_hit : total, depth + 1,
						new_mask | mask__bit(depth), margin, fp);
		if (++nr == t->opts.print_limit)
			break;
	}
	/* fractal: what the children below the threshold had, as one line */
	if (fractal && remaining && remaining != total) {
		u32 count = 0;

		if (t->opts.value == REPORT_TREE_COUNT) {
			s64 left = (s64)t->nodes[n].children_count - cumul_count;

			/* perf counts them only when a child was printed */
			if (t->nodes[n].out_child && left <= 0)
				return lines;
			count = left > 0 ? left : 0;
		}
		new_mask &= ~mask__bit(depth - 1);
		fprintf_graph_frame(t, NULL, "[...]", remaining, count, depth, new_mask, true,
				    total, margin, fp);
		lines++;
	}
	return lines;
}

static void fprintf_graph(struct report_trees *t, u32 root, u64 total, u64 parent, bool skip_first,
			  FILE *fp)
{
	u32 first = t->nodes[root].out_child;
	int margin = 0;
	size_t lines = 0;

	/*
	 * one chain at the top holding the whole entry: its frames without
	 * a percentage, "---" before the first
	 */
	if (first && !t->nodes[first].out_next && node__cumul(&t->nodes[first]) == parent) {
		const struct tree_node *c = &t->nodes[first];
		u32 printed = 0;

		for (u32 i = 0; i < c->nr_frames; i++) {
			if (!i && skip_first)
				continue;
			fprintf_margin(margin, fp);
			if (!lines) {
				fputs("|\n", fp);
				fprintf_margin(margin, fp);
				fputs("---", fp);
				margin += 3;
				lines++;
			}
			fprintf_name(&t->frames[c->frame + i], fp);
			fputc('\n', fp);
			lines++;
			if (++printed == t->opts.print_limit)
				break;
		}
		root = first;
	}
	if (t->opts.mode == REPORT_TREE_FRACTAL)
		total = parent;
	lines += fprintf_graph_children(t, root, total, 1, 1, margin, fp);
	if (lines)
		fputc('\n', fp);
}

static void fprintf_path(const struct report_trees *t, u32 n, bool folded, bool *first, FILE *fp)
{
	const struct tree_node *nd = &t->nodes[n];

	if (nd->parent)
		fprintf_path(t, nd->parent, folded, first, fp);
	for (u32 i = 0; i < nd->nr_frames; i++) {
		if (folded) {
			if (!*first)
				fputc(';', fp);
		} else {
			fputs("                ", fp);
		}
		fprintf_name(&t->frames[nd->frame + i], fp);
		if (!folded)
			fputc('\n', fp);
		*first = false;
	}
}

void report_trees__fprintf(struct report_trees *t, int hist, u32 entry, u64 total, u64 base,
			   u64 parent, bool skip_first, FILE *fp)
{
	const bool folded = t->opts.mode == REPORT_TREE_FOLDED;
	/* perf's threshold in graph, flat and folded: of the event's total, truncated */
	u64 min_hit = base * (t->opts.min_percent / 100);
	size_t nr = 0;
	u32 root, n, printed = 0;

	if (hist < 0 || (size_t)hist >= t->nr_index || entry >= t->index[hist].nr ||
	    !(root = t->index[hist].root[entry]))
		return;
	switch (t->opts.mode) {
	case REPORT_TREE_GRAPH:
	case REPORT_TREE_FRACTAL:
		if (node__sort_graph(t, root, min_hit))
			return;
		fprintf_graph(t, root, total, parent, skip_first, fp);
		return;
	case REPORT_TREE_FLAT:
	case REPORT_TREE_FOLDED:
		if (node__collect_flat(t, root, min_hit, &nr))
			return;
		for (n = list__sort_link(t, nr, true); n; n = t->nodes[n].out_next) {
			const struct tree_node *nd = &t->nodes[n];
			bool first = true;

			if (folded) {
				fprintf_value(t, nd->hit, nd->count, total, fp);
				fputc(' ', fp);
			} else {
				fputs("           ", fp);
				fprintf_value(t, node__cumul(nd), node__cumul_count(nd), total, fp);
				fputc('\n', fp);
			}
			fprintf_path(t, n, folded, &first, fp);
			fputc('\n', fp);
			if (++printed == t->opts.print_limit)
				break;
		}
		return;
	default:
		return;
	}
}

/* --json and --html: the printed tree, one frame at a time */

static int walk__children(struct report_trees *t, u32 n, int depth,
			  const struct report_tree_visitor *v)
{
	u32 ch, nr = 0;

	for (ch = t->nodes[n].out_child; ch; ch = t->nodes[ch].out_next) {
		const struct tree_node *c = &t->nodes[ch];
		struct report_tree_frame f;
		u32 i;
		int err;

		for (i = 0; i < c->nr_frames; i++) {
			const struct tree_frame *tf = &t->frames[c->frame + i];
			bool last = i + 1 == c->nr_frames;

			f.name = tf->name;
			f.srcline = tf->srcline;
			f.ip = tf->ip;
			f.inlined = tf->inlined;
			f.period = node__cumul(c);
			f.nr_samples = node__cumul_count(c);
			/* a run's frames but the last have every chain going on below them */
			f.self = last ? c->hit : 0;
			f.self_samples = last ? c->count : 0;
			err = v->enter(v->arg, &f, depth + i);
			if (err)
				return err;
		}
		err = walk__children(t, ch, depth + c->nr_frames, v);
		for (i = c->nr_frames; i-- > 0 && !err;)
			err = v->leave(v->arg, depth + i);
		if (err)
			return err;
		if (++nr == t->opts.print_limit)
			break;
	}
	return 0;
}

int report_trees__walk(struct report_trees *t, int hist, u32 entry, u64 base,
		       const struct report_tree_visitor *v)
{
	u32 root;

	if (hist < 0 || (size_t)hist >= t->nr_index || entry >= t->index[hist].nr ||
	    !(root = t->index[hist].root[entry]))
		return 0;
	if (node__sort_graph(t, root, base * (t->opts.min_percent / 100)))
		return -ENOMEM;
	return walk__children(t, root, 0, v);
}
