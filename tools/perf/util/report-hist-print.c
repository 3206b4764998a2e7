// SPDX-License-Identifier: GPL-2.0-only
/*
 * The profile printed as perf report --stdio (6.1) prints it: the
 * header lines, columns sized as perf's hists__calc_col_len() sizes them,
 * one row per entry and what follows it (the call-graph tree); and the
 * per-ABI sample table.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "debug.h"
#include "fmt-fixed.h"
#include "report-hist.h"

/* perf's convert_unit(): 1K past 1000 samples */
static unsigned long convert_unit(unsigned long v, char *unit)
{
	*unit = ' ';
	if (v > 1000) {
		v /= 1000;
		*unit = 'K';
	}
	if (v > 1000) {
		v /= 1000;
		*unit = 'M';
	}
	if (v > 1000) {
		v /= 1000;
		*unit = 'G';
	}
	return v;
}

/* snprintf(buf, size, " %*.2f%%", width, pct): one row's figure, no printf */
static int pct__snprintf(char *buf, size_t size, int width, double pct)
{
	int n;

	if (size < 2) {
		n = fmt_fixed2(NULL, 0, width, pct);
		if (size)
			buf[0] = '\0';
		return n < 0 ? n : n + 2;
	}
	buf[0] = ' ';
	n = fmt_fixed2(buf + 1, size - 1, width, pct);
	/* cut short, the figure's bytes that fit are there, as snprintf leaves them */
	if (n >= 0 && (size_t)n + 2 < size) {
		buf[n + 1] = '%';
		buf[n + 2] = '\0';
	}
	return n < 0 ? n : n + 2;
}

/*
 * snprintf(buf, size, "%-*.*s", width, width, s): @s cut or padded to
 * @width, as the name columns are printed, 10^5 times on a busy profile
 */
static int str__snprintf(char *buf, size_t size, int width, const char *s)
{
	size_t n, i;

	if (width < 0)
		return snprintf(buf, size, "%-*.*s", width, width, s);
	n = strnlen(s, width);
	if (size) {
		size_t room = size - 1;

		memcpy(buf, s, n < room ? n : room);
		for (i = n; i < (size_t)width && i < room; i++)
			buf[i] = ' ';
		buf[(size_t)width < room ? (size_t)width : room] = '\0';
	}
	return width;
}

/*
 * snprintf(buf, size, "[%c] %-#*.*llx", level, width, 16, ip): a frame
 * with no symbol, as its address ("0x" and 16 digits, or 16 zeros for 0)
 */
static int ip__snprintf(char *buf, size_t size, char level, int width, u64 ip)
{
	static const char digits[] = "0123456789abcdef";
	char tmp[24];
	int n = 0, i;

	if (width < 0 || width > 512)
		return snprintf(buf, size, "[%c] %-#*.*llx", level, width, 16,
				(unsigned long long)ip);
	tmp[n++] = '[';
	tmp[n++] = level;
	tmp[n++] = ']';
	tmp[n++] = ' ';
	if (ip) {
		tmp[n++] = '0';
		tmp[n++] = 'x';
	}
	for (i = 15; i >= 0; i--)
		tmp[n++] = digits[(ip >> (4 * i)) & 0xf];
	/* as str__snprintf(), from after "[l] ": the digits padded to @width */
	if (!size)
		return 4 + (n - 4 > width ? n - 4 : width);
	memcpy(buf, tmp, (size_t)n < size - 1 ? (size_t)n : size - 1);
	for (i = n; i < 4 + width && (size_t)i < size - 1; i++)
		buf[i] = ' ';
	i = n > 4 + width ? n : 4 + width;
	buf[(size_t)i < size - 1 ? (size_t)i : size - 1] = '\0';
	return i;
}

/* a value column of one event (@total its period) */
static int value__snprintf(int col, u64 period, u64 nr_samples, u64 children, u64 total, int width,
			   char *buf, size_t size)
{
	double pct;

	switch (col) {
	case REPORT_COL_OVERHEAD:
	case REPORT_COL_CHILDREN:
		pct =
		    total ? 100.0 * (col == REPORT_COL_OVERHEAD ? period : children) / total : 0.0;
		return pct__snprintf(buf, size, width - 2, pct);
	case REPORT_COL_SAMPLE:
		return snprintf(buf, size, " %*llu", width - 1, (unsigned long long)nr_samples);
	default:
		return snprintf(buf, size, " %*llu", width - 1, (unsigned long long)period);
	}
}

/*
 * perf's group columns: each member's value in the one-event width, run
 * together, the leader's first
 */
static int group__snprintf(const struct report_hist *h, const struct hist_entry *e, int col,
			   int width, char *buf, size_t size)
{
	const struct hist_member_vals *v = &h->members[(e - h->entries) * h->nr_members];
	int w = width / h->nr_members, len = 0;

	for (u32 m = 0; m < h->nr_members && (size_t)len < size; m++) {
		int n = value__snprintf(col, v[m].period, v[m].nr_samples, v[m].children,
					h->member_totals[m], w, buf + len, size - len);

		if (n < 0)
			return n;
		len += n;
	}
	return len;
}

/* the column's value as printed, width-free */
static int entry__snprintf(const struct report_hist *h, const struct hist_entry *e, int col,
			   int width, char *buf, size_t size)
{
	switch (col) {
	case REPORT_COL_OVERHEAD:
	case REPORT_COL_CHILDREN:
	case REPORT_COL_SAMPLE:
	case REPORT_COL_PERIOD:
		if (h->members)
			return group__snprintf(h, e, col, width, buf, size);
		return value__snprintf(col, e->period, e->nr_samples, e->children, h->total_period,
				       width, buf, size);
	case SORT_COMM:
		return str__snprintf(buf, size, width, e->comm);
	case SORT_PID:
		return snprintf(buf, size, "%7d:%-*.*s", e->tid, width - 8, width - 8,
				e->thread_comm);
	case SORT_TID:
		return snprintf(buf, size, "%*d", width, e->tid);
	case SORT_DSO:
		return str__snprintf(buf, size, width, e->dso ?: "[unknown]");
	case SORT_SYM:
		/* perf sizes the column by the name alone: " (inlined)" may run past it */
		if (e->sym && e->inlined) {
			int n = snprintf(buf, size, "[%c] %s (inlined)", e->level, e->sym);

			if (n >= 0 && n < width && (size_t)width < size) {
				memset(buf + n, ' ', width - n);
				buf[width] = 0;
				n = width;
			}
			return n;
		}
		if (e->sym && width >= 4 && size > 4) {
			buf[0] = '[';
			buf[1] = e->level;
			buf[2] = ']';
			buf[3] = ' ';
			return 4 + str__snprintf(buf + 4, size - 4, width - 4, e->sym);
		}
		if (e->sym)
			return snprintf(buf, size, "[%c] %-*.*s", e->level, width - 4, width - 4,
					e->sym);
		return ip__snprintf(buf, size, e->level, width - 4, e->ip);
	case SORT_CPU:
		return snprintf(buf, size, "%*.*d", width, width, e->cpu);
	case SORT_ABI:
		return snprintf(buf, size, "%-*s", width,
				e->abi == 0 ? "none" :
				e->abi == 1 ? "32" :
				e->abi == 2 ? "64" :
					      "?");
	case SORT_DSO_SIZE:
		if (!e->has_map)
			return snprintf(buf, size, "%*s", width, "unknown");
		return snprintf(buf, size, "%*llu", width, (unsigned long long)e->dso_size);
	case SORT_SYMOFF:
		/* upstream's hist_entry__symoff_snprintf(): not padded, hex offset */
		if (!e->sym)
			return snprintf(buf, size, "[%c] %-#.*llx", e->level, width - 4,
					(unsigned long long)e->ip);
		return snprintf(buf, size, "[%c] %s%s+0x%llx", e->level, e->sym,
				e->inlined ? " (inlined)" : "", (unsigned long long)e->sym_offset);
	case SORT_SRCLINE:
		return snprintf(buf, size, "%-.*s", width, e->srcline);
	case SORT_SRCFILE:
		return snprintf(buf, size, "%-.*s", width, e->srcfile);
	case SORT_PARENT:
		return snprintf(buf, size, "%-*.*s", width, width, e->parent ?: "[other]");
	default:
		return snprintf(buf, size, "?");
	}
}

/*
 * perf's hists__calc_col_len(): the header, and every entry shown; an
 * entry whose first sample had no symbol widens the object column to an
 * address's 16 digits, unless --dsos was given.
 */
static int column__width(const struct report_hist *h, const struct report_layout *l, int col)
{
	int w = strlen(report_column__header(col));
	int n = h->members ? h->nr_members : 1;
	size_t i;

	/* perf's hpp__width_fn(): a group's value columns, one width per member */
	switch (col) {
	case REPORT_COL_OVERHEAD:
	case REPORT_COL_CHILDREN:
		return 8 * n;
	case REPORT_COL_SAMPLE:
	case REPORT_COL_PERIOD:
		return 12 * n;
	case SORT_TID:
	case SORT_CPU:
	case SORT_DSO_SIZE: /* perf sizes these by their headers alone */
	case SORT_SYMOFF:
		return w;
	default:
		break;
	}
	for (i = 0; i < h->nr_entries; i++) {
		const struct hist_entry *e = &h->entries[i];
		int len = 0;

		switch (col) {
		case SORT_COMM:
			len = strlen(e->thread_comm);
			break;
		case SORT_PID:
			len = strlen(e->thread_comm) + 8;
			break;
		case SORT_DSO:
			len = e->dso ? (int)strlen(e->dso) : 0;
			if (!e->sym_resolved && !l->dso_filter && len < 16)
				len = 16;
			break;
		case SORT_SYM:
			len = e->sym ? (int)strlen(e->sym) + 4 : 16 + 4 + 2;
			break;
		case SORT_ABI:
			len = 4;
			break;
		case SORT_SRCLINE:
			len = strlen(e->srcline);
			break;
		case SORT_SRCFILE:
			len = strlen(e->srcfile);
			break;
		case SORT_PARENT:
			len = e->parent ? (int)strlen(e->parent) : 0;
			break;
		default:
			break;
		}
		if (len > w)
			w = len;
	}
	return w;
}

/* perf's lines above the rows, which -q leaves out */
static void hist__fprintf_header(const struct report_hist *h, const struct report_layout *l,
				 const int *width, FILE *fp)
{
	char unit;
	unsigned long nr = convert_unit(h->nr_samples, &unit);
	int i;

	/* perf 6.1 says "events" of a group's leader, grouped or not */
	fprintf(fp, "# Samples: %lu%c of event%s '%s'", nr, unit, h->group_size > 1 ? "s" : "",
		h->event_name);
	if (h->time_slices)
		fprintf(fp, " (time slices: %s)", h->time_slices);
	fprintf(fp, "\n");
	fprintf(fp, "# Event count (approx.): %llu\n#\n", (unsigned long long)h->total_period);
	fprintf(fp, "#");
	for (i = 0; i < l->nr_cols; i++) {
		int col = l->cols[i];

		if (width[i] < 0)
			continue;
		if (col == REPORT_COL_OVERHEAD && l->self_header)
			fprintf(fp, " %s%*s", i ? " " : "", width[i], "Self");
		else if (col >= SORT__MAX)
			fprintf(fp, " %s%*s", i ? " " : "", width[i], report_column__header(col));
		else
			fprintf(fp, " %s%-*.*s", i ? " " : "", width[i], width[i],
				report_column__header(col));
	}
	fprintf(fp, "\n#");
	for (i = 0; i < l->nr_cols; i++) {
		if (width[i] < 0)
			continue;
		fprintf(fp, " %s", i ? " " : "");
		for (int k = 0; k < width[i]; k++)
			fputc('.', fp);
	}
	fprintf(fp, "\n#\n");
}

void report_hist__fprintf(const struct report_hist *h, const struct report_layout *l,
			  float percent_limit, FILE *fp)
{
	int width[REPORT_MAX_COLS], i, last = -1;
	char buf[4096];
	size_t e;

	for (i = 0; i < l->nr_cols; i++) {
		int col = l->cols[i];

		width[i] = col < SORT__MAX && l->elide[col] ? -1 : column__width(h, l, col);
	}
	if (!quiet)
		hist__fprintf_header(h, l, width, fp);
	/* perf pads the symbol only when a column follows it, even one not shown */
	if (l->nr_cols && width[l->nr_cols - 1] >= 0)
		last = l->cols[l->nr_cols - 1];
	for (e = 0; e < h->nr_entries; e++) {
		const struct hist_entry *he = &h->entries[e];
		/* perf's hist_entry__get_percent_limit(): Children's share with --children */
		u64 period = h->children ? he->children : he->period;
		/* a group's: the leader's share of its own total */
		u64 total = h->members ? h->member_totals[0] : h->total_period;
		float pct = total ? period * 100.0 / total : 0;
		size_t len = 0;

		if (pct < percent_limit)
			continue;
		for (i = 0; i < l->nr_cols && len < sizeof(buf) - 1; i++) {
			int w;

			if (width[i] < 0)
				continue;
			/* snprintf(buf + len, sizeof(buf) - len, "  "), 10^5 times */
			if (len + 2 >= sizeof(buf)) {
				/* the loop leaves room for one at least */
				buf[len] = ' ';
				buf[len + 1] = '\0';
				len = sizeof(buf);
				break;
			}
			buf[len++] = ' ';
			buf[len++] = ' ';
			buf[len] = '\0';
			w = entry__snprintf(h, he, l->cols[i], width[i], buf + len,
					    sizeof(buf) - len);
			if (w > 0)
				len += w;
			/* perf's hist_entry__snprintf_alignment(): a column before another is full width */
			for (;
			     w >= 0 && w < width[i] && i < l->nr_cols - 1 && len < sizeof(buf) - 1;
			     w++)
				buf[len++] = ' ';
		}
		if (len >= sizeof(buf))
			len = sizeof(buf) - 1;
		while (len && buf[len - 1] == ' ' && last == SORT_SYM)
			len--;
		buf[len] = 0;
		fprintf(fp, "%s\n", buf);
		if (h->fprintf_after)
			h->fprintf_after(h, he, h->after_arg, fp);
	}
}

void report_hist__fprintf_abi(const struct report_hist *h, FILE *fp)
{
	size_t i;
	int w = 7;

	if (!h->nr_comms)
		return;
	for (i = 0; i < h->nr_comms; i++)
		if ((int)strlen(h->abi_counts[i].comm) > w)
			w = strlen(h->abi_counts[i].comm);
	fprintf(fp, "# Samples per user-register ABI of event '%s'\n#\n", h->event_name);
	fprintf(fp, "# %-*s  %12s  %12s  %12s  %12s\n", w, "Command", "none", "32-bit", "64-bit",
		"other");
	for (i = 0; i < h->nr_comms; i++) {
		const struct report_abi_count *a = &h->abi_counts[i];

		fprintf(fp, "  %-*s  %12llu  %12llu  %12llu  %12llu\n", w, a->comm,
			(unsigned long long)a->nr[0], (unsigned long long)a->nr[1],
			(unsigned long long)a->nr[2], (unsigned long long)a->nr[3]);
	}
}

int report_hist__nr_abis(const struct report_hist *h)
{
	bool seen[4] = {false};
	int n = 0;

	for (size_t i = 0; i < h->nr_comms; i++)
		for (int a = 0; a < 4; a++)
			if (h->abi_counts[i].nr[a] && !seen[a]) {
				seen[a] = true;
				n++;
			}
	return n;
}

/*
 * perf's --hierarchy (ui/stdio/hist.c's hierarchy printing): one level
 * per sort key in --sort order, each level's rows sorted by overhead
 * then by its key, indented 3 more, the value columns first (shifted by
 * the indent, padded by the indent of the deepest level), then the key's
 * value with its leading blanks dropped; a last-level row (perf's leaf,
 * one entry) is followed by its tree.
 *
 * perf builds the levels from every entry, filtered ones too, so an
 * upper level counts what the filters left out below it (a command at
 * 100% over --dsos' objects).  Each node of a level is a copy of the
 * first entry (in perf's input order) to reach it, filter bits included,
 * which perf then adjusts per filter (hist_entry__check_and_remove_filter):
 * a level of the filter's own key keeps its bit and, when clear, clears
 * it in the levels above; a level of another key is filtered at the top,
 * and below inherits its parent's bit.  --symbol-filter marks each node
 * by its own first entry's symbol.  A filtered node prints no row, but
 * the rows under it still print.
 */
#define HIERARCHY_INDENT 3

struct hier_node {
	size_t lo, hi;			/* its entries, in the sorted copy */
	struct hist_entry sum;		/* the first entry's keys, the node's counts */
	const struct hist_entry *first; /* the first entry perf's input order gives it */
	size_t child, nr_children;	/* its nodes of the next level, heaviest first */
	int depth;
	u8 filters; /* REPORT_FILTER_* that leave its row out */
};

struct hierarchy {
	const struct report_hist *h;
	struct report_hist shown; /* h with perf's total of the hierarchy */
	struct report_hist tree;  /* h with the total of the leaves' trees */
	const struct report_layout *l;
	const struct report_hier_opts *o;
	int keys[REPORT_MAX_COLS], nr_keys;
	int width[REPORT_COL__MAX];
	int values_width; /* of the value columns, their blanks between included */
	struct hist_entry *e;
	size_t *orig; /* e[i] is h->entries[orig[i]] */
	u64 *totals;  /* a group's members' totals, as shown */
	struct hier_node *nodes;
	size_t nr_nodes, alloc_nodes;
	size_t nr_top; /* the top level's nodes, the first ones */
	FILE *fp;
};

/* qsort has no argument: the hierarchy being sorted, and the level */
static const struct hierarchy *hier_sort;
static int hier_level;

/* the entries in their nodes: the levels' keys in turn, as perf's tree of each level */
static int hier__cmp_input(const void *pa, const void *pb)
{
	const struct hist_entry *a = &hier_sort->h->entries[*(const size_t *)pa];
	const struct hist_entry *b = &hier_sort->h->entries[*(const size_t *)pb];
	int c = 0;

	for (int i = 0; i < hier_sort->nr_keys && !c; i++)
		c = report_entry__cmp_key(hier_sort->keys[i], a, b, true);
	return c;
}

/* a group member's period in a node (entries [lo, hi) of the sorted copy) */
static u64 hier__member_period(const struct hierarchy *hr, size_t lo, size_t hi, u32 k)
{
	u64 sum = 0;

	for (size_t j = lo; j < hi; j++)
		sum += hr->h->members[hr->orig[j] * hr->h->nr_members + k].period;
	return sum;
}

/* perf's output order of a level: overhead, then the level's key */
static int hier_node__cmp(const void *pa, const void *pb)
{
	const struct hier_node *a = pa, *b = pb;
	int key = hier_sort->keys[hier_level];
	int c;

	if (a->sum.period != b->sum.period)
		return a->sum.period > b->sum.period ? -1 : 1;
	/* perf's __hpp__sort(): an event group's other members' periods in turn */
	for (u32 k = 1; hier_sort->h->members && k < hier_sort->h->nr_members; k++) {
		u64 pa_k = hier__member_period(hier_sort, a->lo, a->hi, k);
		u64 pb_k = hier__member_period(hier_sort, b->lo, b->hi, k);

		if (pa_k != pb_k)
			return pa_k > pb_k ? -1 : 1;
	}
	c = report_entry__cmp_key(key, &a->sum, &b->sum, false);
	return c ?: report_entry__cmp_key(key, &a->sum, &b->sum, true);
}

/* the levels whose key a filter (REPORT_FILTER_*) is on */
static bool hier__key_of(int key, unsigned int filter)
{
	switch (filter) {
	case REPORT_FILTER_THREAD:
		return key == SORT_COMM || key == SORT_PID || key == SORT_TID;
	case REPORT_FILTER_DSO:
		return key == SORT_DSO;
	case REPORT_FILTER_SYMBOL:
		return key == SORT_SYM;
	default:
		return false;
	}
}

/*
 * The nodes of @depth's key in [lo, hi) of the sorted entries, made the
 * children of @parent (an index, or SIZE_MAX for the top level), each
 * then given its own; -ENOMEM
 */
static int hier__build(struct hierarchy *hr, size_t parent, size_t lo, size_t hi, int depth)
{
	size_t first = hr->nr_nodes, nr, i, j;
	int err = 0;

	for (i = lo; i < hi; i = j) {
		struct hier_node *n;

		if (hr->nr_nodes == hr->alloc_nodes) {
			size_t alloc = hr->alloc_nodes ? hr->alloc_nodes * 2 : 64;
			struct hier_node *v = realloc(hr->nodes, alloc * sizeof(*v));

			if (!v)
				return -ENOMEM;
			hr->nodes = v;
			hr->alloc_nodes = alloc;
		}
		n = &hr->nodes[hr->nr_nodes++];
		*n = (struct hier_node){
		    .lo = i, .sum = hr->e[i], .first = &hr->e[i], .depth = depth};
		n->sum.period = n->sum.nr_samples = 0;
		for (j = i; j < hi; j++) {
			if (report_entry__cmp_key(hr->keys[depth], &hr->e[i], &hr->e[j], true))
				break;
			n->sum.period += hr->e[j].period;
			n->sum.nr_samples += hr->e[j].nr_samples;
			if (hr->e[j].input_rank < n->first->input_rank)
				n->first = &hr->e[j];
		}
		n->hi = j;
	}
	nr = hr->nr_nodes - first;
	if (parent != SIZE_MAX) {
		hr->nodes[parent].child = first;
		hr->nodes[parent].nr_children = nr;
	}
	hier_level = depth;
	qsort(hr->nodes + first, nr, sizeof(*hr->nodes), hier_node__cmp);
	for (i = first; i < first + nr && !err && depth + 1 < hr->nr_keys; i++)
		err = hier__build(hr, i, hr->nodes[i].lo, hr->nodes[i].hi, depth + 1);
	return err;
}

/* a node of @filter's key below @n (or @n itself, with @self) that it leaves in */
static bool hier__kept_below(const struct hierarchy *hr, const struct hier_node *n,
			     unsigned int filter, bool self)
{
	if (self && hier__key_of(hr->keys[n->depth], filter) && !(n->first->filters & filter))
		return true;
	for (size_t i = 0; i < n->nr_children; i++)
		if (hier__kept_below(hr, &hr->nodes[n->child + i], filter, true))
			return true;
	return false;
}

/* @filter's bit of @n, whose parent's is @parent_bit (the top: none) */
static bool hier__filter_bit(const struct hierarchy *hr, const struct hier_node *n,
			     unsigned int filter, bool parent_bit)
{
	bool own = n->first->filters & filter, mine = hier__key_of(hr->keys[n->depth], filter);

	for (int d = n->depth + 1; d < hr->nr_keys; d++)
		if (hier__key_of(hr->keys[d], filter))
			/* cleared by a node of the key below that the filter keeps */
			return (mine ? own : true) && !hier__kept_below(hr, n, filter, false);
	if (mine)
		return own;
	return !n->depth || own || parent_bit;
}

static void hier__filter(struct hierarchy *hr, size_t i, u8 parent)
{
	static const unsigned int typed[] = {REPORT_FILTER_THREAD, REPORT_FILTER_DSO,
					     REPORT_FILTER_SYMBOL};
	struct hier_node *n = &hr->nodes[i];

	/* the bits no level clears: copied from the first entry */
	n->filters = n->first->filters & (REPORT_FILTER_OTHER | REPORT_FILTER_SYMBOL_FILTER);
	for (size_t t = 0; t < sizeof(typed) / sizeof(typed[0]); t++)
		if ((hr->o->filters & typed[t]) &&
		    hier__filter_bit(hr, n, typed[t], parent & typed[t]))
			n->filters |= typed[t];
	for (size_t c = 0; c < n->nr_children; c++)
		hier__filter(hr, n->child + c, n->filters);
}

/* perf's hist_entry__get_percent_limit() in hierarchy mode, which has no Children */
static bool hier__below(const struct hierarchy *hr, u64 period)
{
	/* a group's: the leader's share of its own total, as the flat form's */
	u64 total = hr->h->members ? hr->shown.member_totals[0] : hr->shown.total_period;
	float pct = total ? period * 100.0 / total : 0;

	return pct < hr->o->percent_limit;
}

/*
 * an event group's block (--group): the node's values of each member,
 * summed over its entries, as a one-entry block group__snprintf() reads
 */
static int hier__members(const struct hierarchy *hr, const struct hier_node *n,
			 struct report_hist *one)
{
	const struct report_hist *h = hr->h;
	struct hist_member_vals *v = calloc(h->nr_members, sizeof(*v));

	if (!v)
		return -ENOMEM;
	for (size_t j = n->lo; j < n->hi; j++) {
		const struct hist_member_vals *m = &h->members[hr->orig[j] * h->nr_members];

		for (u32 k = 0; k < h->nr_members; k++) {
			v[k].period += m[k].period;
			v[k].nr_samples += m[k].nr_samples;
			v[k].children += m[k].children;
		}
	}
	*one = hr->shown;
	one->entries = (struct hist_entry *)&n->sum;
	one->nr_entries = 1;
	one->members = v;
	return 0;
}

static int hier__row(const struct hierarchy *hr, const struct hier_node *n)
{
	const struct report_layout *l = hr->l;
	const struct hist_entry *e = &n->sum;
	int key = hr->keys[n->depth], i;
	struct report_hist one = hr->shown;
	char buf[4096], *v;
	size_t len;

	if (hr->h->members && hier__members(hr, n, &one))
		return -ENOMEM;
	fprintf(hr->fp, "%*s", n->depth * HIERARCHY_INDENT, "");
	for (i = 0; i < l->nr_cols; i++) {
		if (l->cols[i] < SORT__MAX)
			continue;
		entry__snprintf(&one, e, l->cols[i], hr->width[l->cols[i]], buf, sizeof(buf));
		fprintf(hr->fp, "  %s", buf);
	}
	if (hr->h->members)
		free((void *)one.members);
	fprintf(hr->fp, "%*s  ", (hr->nr_keys - 1) * HIERARCHY_INDENT, "");
	entry__snprintf(&hr->shown, e, key, hr->width[key], buf, sizeof(buf));
	for (v = buf; *v == ' '; v++)
		;
	len = strlen(v);
	/* the symbol is printed as perf prints the last column: not padded */
	while (key == SORT_SYM && len && v[len - 1] == ' ')
		v[--len] = 0;
	fprintf(hr->fp, "%s\n", v);
	return 0;
}

/*
 * perf's walk: every node, each followed by the levels under it, rows
 * under a filtered or a light one too; under a row whose first unfiltered
 * node of the next level is missing or light, perf's "no entry" line
 */
static int hier__visit(const struct hierarchy *hr, size_t i, size_t up,
		       int (*fn)(void *arg, const struct report_hier_row *r), void *arg)
{
	const struct hier_node *n = &hr->nodes[i];
	size_t c;
	int err = 0;

	if (!n->filters && !hier__below(hr, n->sum.period)) {
		struct report_hier_row r = {
		    .node = i,
		    .up = up,
		    .e = &n->sum,
		    .entry = n->nr_children ? NULL : n->first,
		    .h = &hr->shown,
		    .tree = &hr->tree,
		    .depth = n->depth,
		    .key = hr->keys[n->depth],
		};

		if (n->nr_children) {
			for (c = 0; c < n->nr_children && hr->nodes[n->child + c].filters; c++)
				;
			r.no_entry = c == n->nr_children ||
				     hier__below(hr, hr->nodes[n->child + c].sum.period);
		}
		err = fn(arg, &r);
		up = i;
	}
	for (c = 0; c < n->nr_children && !err; c++)
		err = hier__visit(hr, n->child + c, up, fn, arg);
	return err;
}

static int hier__print(void *arg, const struct report_hier_row *r)
{
	const struct hierarchy *hr = arg;

	if (hier__row(hr, &hr->nodes[r->node]))
		return -ENOMEM;
	if (r->entry && hr->h->fprintf_after)
		hr->h->fprintf_after(r->tree, r->entry, hr->h->after_arg, hr->fp);
	if (r->no_entry)
		fprintf(hr->fp, "%*s%*sno entry >= %.2f%%\n",
			(hr->nr_keys + r->depth) * HIERARCHY_INDENT, "", hr->values_width + 4, "",
			hr->o->percent_limit);
	return 0;
}

/*
 * perf's column widths in hierarchy mode: of every node not filtered,
 * whichever level, each a copy of its first entry
 */
static int hier__widths(struct hierarchy *hr)
{
	struct report_hist w = *hr->h;
	struct hist_entry *firsts = malloc((hr->nr_nodes ?: 1) * sizeof(*firsts));
	size_t i;

	if (!firsts)
		return -ENOMEM;
	w.nr_entries = 0;
	for (i = 0; i < hr->nr_nodes; i++)
		if (!hr->nodes[i].filters)
			firsts[w.nr_entries++] = *hr->nodes[i].first;
	w.entries = firsts;
	for (i = 0; i < (size_t)hr->l->nr_cols; i++)
		hr->width[hr->l->cols[i]] = column__width(&w, hr->l, hr->l->cols[i]);
	free(firsts);
	return 0;
}

static void hier__fprintf_header(struct hierarchy *hr)
{
	const struct report_hist *h = &hr->shown;
	const struct report_layout *l = hr->l;
	FILE *fp = hr->fp;
	char unit;
	unsigned long nr = convert_unit(h->nr_samples, &unit);
	int i, head = 0, dots = 0;

	fprintf(fp, "# Samples: %lu%c of event%s '%s'", nr, unit, h->group_size > 1 ? "s" : "",
		h->event_name);
	if (h->time_slices)
		fprintf(fp, " (time slices: %s)", h->time_slices);
	fprintf(fp, "\n# Event count (approx.): %llu\n#\n#", (unsigned long long)h->total_period);
	for (i = 0; i < l->nr_cols; i++) {
		int col = l->cols[i], w = hr->width[col];

		if (col >= SORT__MAX) {
			/* the first column takes the levels' indent */
			if (!head)
				w += (hr->nr_keys - 1) * HIERARCHY_INDENT;
			fprintf(fp, " %s%*s", head ? " " : "", w, report_column__header(col));
			head += (head ? 2 : 0) + w;
		}
	}
	/* the keys' headers joined, dotted as wide as they or the widest level */
	fprintf(fp, "  ");
	for (i = 0; i < hr->nr_keys; i++) {
		const char *name = report_column__header(hr->keys[i]);

		/* perf drops the headers' leading blanks there too ("    Pid:Command") */
		while (*name == ' ')
			name++;
		fprintf(fp, "%s%s", i ? " / " : "", name);
		dots += strlen(name) + (i ? 3 : 0);
	}
	for (i = 0; i < hr->nr_keys; i++)
		if (i * HIERARCHY_INDENT + hr->width[hr->keys[i]] > dots)
			dots = i * HIERARCHY_INDENT + hr->width[hr->keys[i]];
	fprintf(fp, "\n# ");
	for (i = 0; i < head; i++)
		fputc('.', fp);
	fprintf(fp, "  ");
	for (i = 0; i < dots; i++)
		fputc('.', fp);
	fprintf(fp, "\n#\n");
}

/*
 * An event group's block: each member's total, perf's recount with
 * --percentage relative (the top level's nodes not filtered), and the
 * header's event count, their sum
 */
static int hier__member_totals(struct hierarchy *hr)
{
	const struct report_hist *h = hr->h;
	u64 sum = 0;

	hr->totals = calloc(h->nr_members, sizeof(*hr->totals));
	if (!hr->totals)
		return -ENOMEM;
	for (u32 k = 0; k < h->nr_members; k++)
		hr->totals[k] = h->member_totals[k];
	if (hr->o->relative && h->nr_entries) {
		memset(hr->totals, 0, h->nr_members * sizeof(*hr->totals));
		for (size_t i = 0; i < hr->nr_top; i++) {
			const struct hier_node *n = &hr->nodes[i];

			for (size_t j = n->lo; j < n->hi && !n->filters; j++)
				for (u32 k = 0; k < h->nr_members; k++)
					hr->totals[k] +=
					    h->members[hr->orig[j] * h->nr_members + k].period;
		}
	}
	for (u32 k = 0; k < h->nr_members; k++)
		sum += hr->totals[k];
	hr->shown.member_totals = hr->totals;
	if (hr->o->relative)
		hr->shown.total_period = sum;
	return 0;
}

/* the levels of @h's entries, their filters, totals and widths, as perf's */
static int hier__setup(struct hierarchy *hr)
{
	const struct report_hist *h = hr->h;
	const struct report_layout *l = hr->l;
	u64 total = 0, kept = 0;
	size_t i;
	int err = 0;

	hr->shown = *h;
	for (i = 0; i < (size_t)l->nr_cols; i++) {
		int col = l->cols[i];

		if (col < SORT__MAX)
			hr->keys[hr->nr_keys++] = col;
		else
			hr->values_width += (hr->values_width ? 2 : 0) + column__width(h, l, col);
	}
	if (!hr->nr_keys)
		return -EINVAL;
	hr->e = malloc((h->nr_entries ?: 1) * sizeof(*hr->e));
	hr->orig = malloc((h->nr_entries ?: 1) * sizeof(*hr->orig));
	if (!hr->e || !hr->orig)
		return -ENOMEM;
	/* the entries in their nodes, and where each was (a group's values are by that) */
	for (i = 0; i < h->nr_entries; i++)
		hr->orig[i] = i;
	hier_sort = hr;
	qsort(hr->orig, h->nr_entries, sizeof(*hr->orig), hier__cmp_input);
	for (i = 0; i < h->nr_entries; i++)
		hr->e[i] = h->entries[hr->orig[i]];
	if (h->nr_entries)
		err = hier__build(hr, SIZE_MAX, 0, h->nr_entries, 0);
	/* the top level's nodes come first, in their order */
	for (hr->nr_top = 0; hr->nr_top < hr->nr_nodes && !hr->nodes[hr->nr_top].depth;
	     hr->nr_top++)
		;
	for (i = 0; !err && i < hr->nr_top; i++)
		hier__filter(hr, i, 0);
	/*
	 * perf's totals then (hierarchy_recalc_total_periods()): the top
	 * level's, and those of its nodes not filtered
	 */
	for (i = 0; i < hr->nr_top; i++) {
		total += hr->nodes[i].sum.period;
		if (!hr->nodes[i].filters)
			kept += hr->nodes[i].sum.period;
	}
	if (h->nr_entries && !h->members)
		hr->shown.total_period = hr->o->relative ? kept : total;
	if (h->members) {
		err = err ?: hier__member_totals(hr);
		if (err)
			return err;
	}
	/*
	 * the trees' percentages are of that total (hists__total_period()
	 * after perf's recount), their threshold of what it was before
	 */
	hr->tree = *h;
	hr->tree.all_period = hr->shown.total_period;
	return err ?: hier__widths(hr);
}

static void hier__exit(struct hierarchy *hr)
{
	free(hr->nodes);
	free(hr->e);
	free(hr->orig);
	free(hr->totals);
}

int report_hist__walk_hierarchy(const struct report_hist *h, const struct report_layout *l,
				const struct report_hier_opts *o,
				int (*fn)(void *arg, const struct report_hier_row *r), void *arg)
{
	struct hierarchy hr = {.h = h, .l = l, .o = o};
	int err = hier__setup(&hr);

	for (size_t i = 0; !err && i < hr.nr_top; i++)
		err = hier__visit(&hr, i, SIZE_MAX, fn, arg);
	hier__exit(&hr);
	return err;
}

int report_hist__fprintf_hierarchy(const struct report_hist *h, const struct report_layout *l,
				   const struct report_hier_opts *o, FILE *fp)
{
	struct hierarchy hr = {.h = h, .l = l, .o = o, .fp = fp};
	int err = hier__setup(&hr);

	if (!err) {
		hier__fprintf_header(&hr);
		for (size_t i = 0; !err && i < hr.nr_top; i++)
			err = hier__visit(&hr, i, SIZE_MAX, hier__print, &hr);
	}
	hier__exit(&hr);
	return err;
}
