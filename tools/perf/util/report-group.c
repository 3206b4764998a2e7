// SPDX-License-Identifier: GPL-2.0-only
/*
 * Event groups in perf textpoke report, as perf report 6.1 shows them:
 * a group's events (its leader and the members that follow it, as
 * HEADER_GROUP_DESC lists them) make one block, one row per entry any
 * member has, a value column per member side by side.  An entry only a
 * member has gets a row with zeros for the leader, as perf's
 * hists__link() gives the leader a dummy entry for it; the rows are
 * sorted on the leader's value, ties on each member's in turn, then on
 * the keys, as perf's __hpp__sort() sorts a group (Children on the
 * leader's alone, as its __hpp__sort_acc()).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "debug.h"
#include "report-group.h"

static u32 get_u32(const u8 *p)
{
	u32 v;

	memcpy(&v, p, sizeof(v));
	return v;
}

int report_groups__parse(struct report_groups *g, const void *buf, u64 size, const char *path)
{
	const u8 *p = buf, *end = p + size;
	u32 nr, i;

	report_groups__exit(g);
	if (size < 4)
		goto bad;
	nr = get_u32(p);
	p += 4;
	/* each group takes 12 bytes at least: a count past that is a bad header */
	if (nr > (size - 4) / 12)
		goto bad;
	g->groups = calloc(nr ?: 1, sizeof(*g->groups));
	if (!g->groups)
		return -ENOMEM;
	for (i = 0; i < nr; i++) {
		struct report_group *grp = &g->groups[i];
		u32 len;

		if (end - p < 4)
			goto bad_free;
		len = get_u32(p);
		p += 4;
		if ((u64)(end - p) < (u64)len + 8)
			goto bad_free;
		/* perf writes an unnamed group as "{anon_group}" */
		if (len && p[0] && strncmp((const char *)p, "{anon_group}", len)) {
			grp->name = strndup((const char *)p, len);
			if (!grp->name) {
				g->nr = i;
				report_groups__exit(g);
				return -ENOMEM;
			}
		}
		p += len;
		grp->leader = get_u32(p);
		grp->nr_members = get_u32(p + 4);
		p += 8;
		g->nr = i + 1;
	}
	return 0;
bad_free:
	report_groups__exit(g);
bad:
	pr_err("%s: HEADER_GROUP_DESC of %llu bytes is cut short or malformed\n", path,
	       (unsigned long long)size);
	return -EINVAL;
}

void report_groups__exit(struct report_groups *g)
{
	for (size_t i = 0; i < g->nr; i++)
		free(g->groups[i].name);
	free(g->groups);
	g->groups = NULL;
	g->nr = 0;
}

/* the group @idx leads (of two or more events), NULL: none */
static const struct report_group *groups__led_by(const struct report_groups *g, size_t idx)
{
	for (size_t i = 0; g && i < g->nr; i++)
		if (g->groups[i].leader == idx && g->groups[i].nr_members > 1)
			return &g->groups[i];
	return NULL;
}

static bool groups__is_member(const struct report_groups *g, size_t idx)
{
	for (size_t i = 0; g && i < g->nr; i++)
		if (idx > g->groups[i].leader &&
		    idx < (size_t)g->groups[i].leader + g->groups[i].nr_members)
			return true;
	return false;
}

/* what a block owns */
struct block_mem {
	struct hist_entry *entries;
	struct hist_member_vals *vals;
	u64 *totals;
	char *name;
	/*
	 * with trees: each row's entry is the leader's (its tree printed as
	 * the leader's block prints it), or a member's alone, whose dummy
	 * entry in perf's leader has no chain
	 */
	bool *from_leader;
	const struct report_hist *leader;
};

/* an entry of one member, while matching */
struct member_entry {
	const struct hist_entry *e;
	u32 m;
};

/* qsort has no argument: the layout and values of the block being sorted */
static const struct report_layout *group_layout;
static const struct hist_member_vals *group_vals;
static const struct hist_entry *group_base;
static u32 group_nr;
static int group_depth; /* the trees' tie rule: 1 deeper first, -1 shallower, 0 none */

/* the same entry: perf's hist_entry__collapse() on the sort keys */
static int keys__cmp(const struct hist_entry *a, const struct hist_entry *b)
{
	int c = 0;

	for (int i = 0; i < group_layout->nr_sort && !c; i++)
		if (group_layout->sort[i] < SORT__MAX)
			c = report_entry__cmp_key(group_layout->sort[i], a, b, true);
	return c;
}

static int member_entry__cmp(const void *pa, const void *pb)
{
	const struct member_entry *a = pa, *b = pb;
	int c = keys__cmp(a->e, b->e);

	return c ?: (a->m < b->m ? -1 : a->m > b->m);
}

static int cmp_desc(u64 a, u64 b)
{
	return a > b ? -1 : a < b;
}

/* perf's __hpp__sort() of a group: the leader's value, then each member's */
static int group__cmp_value(const struct hist_member_vals *a, const struct hist_member_vals *b,
			    int col)
{
	int c = 0;

	for (u32 m = 0; m < group_nr && !c; m++)
		c = col == REPORT_COL_SAMPLE   ? cmp_desc(a[m].nr_samples, b[m].nr_samples) :
		    col == REPORT_COL_CHILDREN ? cmp_desc(a[m].children, b[m].children) :
						 cmp_desc(a[m].period, b[m].period);
	return c;
}

static int group_entry__cmp(const void *pa, const void *pb)
{
	const u32 *ia = pa, *ib = pb;
	const struct hist_entry *a = &group_base[*ia], *b = &group_base[*ib];
	const struct hist_member_vals *va = &group_vals[*ia * group_nr];
	const struct hist_member_vals *vb = &group_vals[*ib * group_nr];
	int c = 0;

	for (int i = 0; i < group_layout->nr_sort && !c; i++) {
		int col = group_layout->sort[i];

		/*
		 * perf's __hpp__sort_acc() knows no group: the leader's Children
		 * alone, then with trees the longest chain's depth of one thread
		 */
		if (col == REPORT_COL_CHILDREN) {
			c = cmp_desc(va[0].children, vb[0].children);
			if (!c && group_depth && hist_entry__same_thread(a, b))
				c = group_depth > 0 ? cmp_desc(a->max_depth, b->max_depth) :
						      cmp_desc(b->max_depth, a->max_depth);
		} else if (col >= SORT__MAX)
			c = group__cmp_value(va, vb, col);
		else
			c = report_entry__cmp_key(col, a, b, false);
	}
	/* ties stay in perf's input order, its tree of the keys */
	return c ?: keys__cmp(a, b);
}

static int group_entry__rb_cmp(u32 a, u32 b, void *arg __maybe_unused)
{
	return group_entry__cmp(&a, &b);
}

/* after a row, the leader's tree of its entry as the leader's own block prints it */
static void group__fprintf_after(const struct report_hist *h, const struct hist_entry *e, void *arg,
				 FILE *fp)
{
	const struct block_mem *mem = arg;

	if (mem->from_leader[e - h->entries])
		mem->leader->fprintf_after(mem->leader, e, mem->leader->after_arg, fp);
}

/* the group's block: its entries matched across the members, then sorted */
static int block__merge(struct report_hist *out, struct block_mem *mem,
			const struct report_hist *hists, const struct report_group *grp, u32 nr_m,
			const struct report_layout *l, const char *const *names, int depth)
{
	struct member_entry *all;
	struct hist_entry *entries = NULL;
	struct hist_member_vals *vals = NULL;
	u32 *order = NULL;
	bool *from_leader = NULL;
	size_t n = 0, k = 0, i;
	char *name = NULL;
	size_t name_len = 0;
	FILE *nf;
	int err = -ENOMEM;

	for (u32 m = 0; m < nr_m; m++)
		n += hists[m].nr_entries;
	all = malloc((n ?: 1) * sizeof(*all));
	entries = malloc((n ?: 1) * sizeof(*entries));
	vals = calloc((n ?: 1) * nr_m, sizeof(*vals));
	order = malloc((n ?: 1) * sizeof(*order));
	from_leader = calloc(n ?: 1, sizeof(*from_leader));
	mem->totals = calloc(nr_m, sizeof(*mem->totals));
	mem->from_leader = calloc(n ?: 1, sizeof(*mem->from_leader));
	if (!all || !entries || !vals || !order || !from_leader || !mem->totals ||
	    !mem->from_leader)
		goto out;
	for (u32 m = 0, j = 0; m < nr_m; m++)
		for (i = 0; i < hists[m].nr_entries; i++)
			all[j++] = (struct member_entry){&hists[m].entries[i], m};
	group_layout = l;
	qsort(all, n, sizeof(*all), member_entry__cmp);
	for (i = 0; i < n; k++) {
		size_t j = i;

		/* the leader's entry, or a member's with the leader's counts zero */
		entries[k] = *all[i].e;
		from_leader[k] = !all[i].m;
		if (all[i].m) {
			entries[k].period = 0;
			entries[k].nr_samples = 0;
			entries[k].children = 0;
			entries[k].max_depth = 0;
			entries[k].id = REPORT_GROUP_NO_TREE;
		}
		for (; j < n && !keys__cmp(all[i].e, all[j].e); j++) {
			vals[k * nr_m + all[j].m].period = all[j].e->period;
			vals[k * nr_m + all[j].m].nr_samples = all[j].e->nr_samples;
			vals[k * nr_m + all[j].m].children = all[j].e->children;
		}
		i = j;
	}
	group_base = entries;
	group_vals = vals;
	group_nr = nr_m;
	group_depth = hists[0].fprintf_after ? depth : 0;
	/*
	 * with the trees' tie rule perf's comparison is no total order: its
	 * output tree is rebuilt, the entries inserted in its input order,
	 * the leader's tree of the keys (which hists__link() adds the
	 * members' entries to), here the keys' order
	 */
	if (group_depth) {
		if (report_rb_order(k, group_entry__rb_cmp, NULL, order))
			goto out;
	} else {
		for (i = 0; i < k; i++)
			order[i] = i;
		qsort(order, k, sizeof(*order), group_entry__cmp);
	}
	mem->entries = malloc((k ?: 1) * sizeof(*mem->entries));
	mem->vals = malloc((k ?: 1) * nr_m * sizeof(*mem->vals));
	nf = open_memstream(&name, &name_len);
	if (!mem->entries || !mem->vals || !nf) {
		if (nf)
			fclose(nf);
		free(name);
		goto out;
	}
	for (i = 0; i < k; i++) {
		mem->entries[i] = entries[order[i]];
		mem->from_leader[i] = from_leader[order[i]];
		memcpy(&mem->vals[i * nr_m], &vals[order[i] * nr_m], nr_m * sizeof(*vals));
	}
	/* perf's evsel__group_desc() */
	if (!grp->forced)
		fprintf(nf, "%s { ", grp->name ?: "anon group");
	for (u32 m = 0; m < nr_m; m++)
		fprintf(nf, "%s%s", m ? ", " : "", names[m]);
	if (!grp->forced)
		fprintf(nf, " }");
	if (fclose(nf) || !name) {
		free(name);
		goto out;
	}
	mem->name = name;

	*out = hists[0];
	out->event_name = name;
	out->entries = mem->entries;
	out->nr_entries = k;
	out->nr_members = nr_m;
	out->members = mem->vals;
	out->member_totals = mem->totals;
	out->fprintf_after = NULL;
	if (hists[0].fprintf_after) {
		mem->leader = &hists[0];
		out->fprintf_after = group__fprintf_after;
		out->after_arg = mem;
	}
	out->nr_samples = out->total_period = out->all_samples = 0;
	for (u32 m = 0; m < nr_m; m++) {
		mem->totals[m] = hists[m].total_period;
		out->nr_samples += hists[m].nr_samples;
		out->total_period += hists[m].total_period;
		out->all_samples += hists[m].all_samples;
	}
	err = 0;
out:
	free(all);
	free(entries);
	free(vals);
	free(order);
	free(from_leader);
	return err;
}

int report_blocks__build(struct report_blocks *b, const struct report_hist *hists, size_t nr,
			 const struct report_groups *g, bool group, const struct report_layout *l,
			 const char *const *names, int depth)
{
	struct block_mem *mem;

	memset(b, 0, sizeof(*b));
	b->hists = calloc(nr ?: 1, sizeof(*b->hists));
	mem = calloc(nr ?: 1, sizeof(*mem));
	b->mem = mem;
	if (!b->hists || !mem)
		return -ENOMEM;
	for (size_t i = 0; i < nr; i++) {
		const struct report_group *grp = groups__led_by(g, i);
		struct report_hist *h = &b->hists[b->nr];

		if (group && groups__is_member(g, i))
			continue;
		/* counted first: report_blocks__exit() frees what a failed merge left */
		b->nr++;
		if (group && grp) {
			/* a group cut short by the evlist keeps the members there are */
			u32 nr_m = grp->nr_members;
			int err;

			if (nr_m > nr - i)
				nr_m = nr - i;
			err = block__merge(h, &mem[b->nr - 1], &hists[i], grp, nr_m, l, &names[i],
					   depth);
			if (err)
				return err;
		} else {
			*h = hists[i];
		}
		h->group_size = grp ? grp->nr_members : 1;
	}
	return 0;
}

void report_blocks__exit(struct report_blocks *b)
{
	struct block_mem *mem = b->mem;

	for (size_t i = 0; mem && i < b->nr; i++) {
		free(mem[i].entries);
		free(mem[i].vals);
		free(mem[i].totals);
		free(mem[i].name);
		free(mem[i].from_leader);
	}
	free(mem);
	free(b->hists);
	memset(b, 0, sizeof(*b));
}
