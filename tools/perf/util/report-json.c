// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf textpoke report --json: the schema is Documentation/report-json.md,
 * and a key changes only with schema_version.  Addresses are "0x..."
 * strings because a JSON number is a double to most readers and loses
 * the low bits of a kernel address; times are integer nanoseconds plus
 * perf script's "seconds.microseconds" string, for readers that would
 * round a large integer.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>

#include "debug.h"
#include "json-writer.h"
#include "report-group.h"
#include "report-output.h"
#include "report-tree.h"

#define REPORT_JSON_SCHEMA_VERSION 1
/*
 * An entry's call-graph tree: its frames in the order the text tree
 * prints them, each naming its parent's index (-1: the entry), so that
 * the document's nesting stays fixed however deep the chains go
 */
struct json_tree {
	struct json *j;
	u64 total;
	u32 nr;
	s32 *parents; /* the index of the frame open at each depth */
	size_t alloc;
};

static int json_tree__enter(void *arg, const struct report_tree_frame *f, int depth)
{
	struct json_tree *jt = arg;
	struct json *j = jt->j;

	if ((size_t)depth >= jt->alloc) {
		size_t alloc = jt->alloc ? 2 * jt->alloc : 64;
		s32 *p;

		while (alloc <= (size_t)depth)
			alloc *= 2;
		p = realloc(jt->parents, alloc * sizeof(*p));
		if (!p)
			return -ENOMEM;
		jt->parents = p;
		jt->alloc = alloc;
	}
	json__open(j, NULL, '{');
	json__s64(j, "parent", depth ? jt->parents[depth - 1] : -1);
	json__str(j, "sym", f->name);
	/* a function's frames are one whatever their address: it is told only where it tells */
	if (!f->name || f->srcline)
		json__addr(j, "ip", f->ip);
	if (f->name)
		json__bool(j, "inlined", f->inlined);
	if (f->srcline)
		json__str(j, "srcline", f->srcline);
	json__percent(j, "overhead", f->period, jt->total);
	json__u64(j, "period", f->period);
	json__u64(j, "self", f->self);
	json__u64(j, "nr_samples", f->nr_samples);
	json__close(j, '}');
	jt->parents[depth] = jt->nr++;
	return 0;
}

static int json_tree__leave(void *arg, int depth)
{
	(void)arg;
	(void)depth;
	return 0;
}

/* an event's total, or a group's leader's: what the rows' shares (and the trees' limits) are of */
static u64 json__total(const struct report_hist *h)
{
	return h->members ? h->member_totals[0] : h->total_period;
}

static int json__tree(struct json *j, const struct report_output *ro, const struct hist_entry *he,
		      const struct report_hist *h)
{
	struct json_tree jt = {.j = j, .total = h->all_period};
	struct report_tree_visitor v = {json_tree__enter, json_tree__leave, &jt};
	int err = 0;

	json__open(j, "callchain", '[');
	j->one_line = j->depth + 1;
	/* a group's row only a member has: no tree, as in the text */
	if (he->id != REPORT_GROUP_NO_TREE)
		err = report_trees__walk(ro->trees, h->idx, he->id, json__total(h), &v);
	j->one_line = 0;
	json__close(j, ']');
	free(jt.parents);
	return err;
}

/* the entry's value of a sort key, under the key's names */
static int json__key_value(struct json *j, const struct hist_entry *he, enum report_sort_key key)
{
	switch (key) {
	case SORT_COMM:
		json__str(j, "comm", he->comm);
		break;
	case SORT_PID:
		json__u64(j, "pid", he->pid);
		json__str(j, "thread_comm", he->thread_comm);
		break;
	case SORT_TID:
		json__u64(j, "tid", he->tid);
		break;
	case SORT_DSO:
		json__str(j, "dso", he->dso);
		break;
	case SORT_SYM:
		json__str(j, "sym", he->sym);
		json__bool(j, "inlined", he->inlined);
		json__addr(j, "ip", he->ip);
		json__addr(j, "sym_start", he->sym_start);
		json__str(j, "level", he->level == 'k' ? "kernel" : "user");
		break;
	case SORT_CPU:
		json__s64(j, "cpu", he->cpu);
		break;
	case SORT_ABI:
		json__u64(j, "abi", he->abi);
		break;
	case SORT_DSO_SIZE:
		/* the text's "unknown": the sample had no map */
		if (he->has_map)
			json__u64(j, "dso_size", he->dso_size);
		else
			json__null(j, "dso_size");
		break;
	case SORT_SYMOFF:
	case SORT_SRCLINE:
	case SORT_SRCFILE:
	case SORT_PARENT: {
		char *text = report_entry__key_text(key, he);

		if (!text)
			return -ENOMEM;
		json__str(j, report_sort_key__name(key), text);
		free(text);
		break;
	}
	default:
		break;
	}
	return 0;
}

static int json__entry(struct json *j, const struct report_output *ro, const struct hist_entry *he,
		       const struct report_hist *h, const enum report_sort_key *keys,
		       size_t nr_keys)
{
	size_t i;
	int err = 0;

	json__open(j, NULL, '{');
	json__percent(j, "overhead", he->period, json__total(h));
	json__u64(j, "nr_samples", he->nr_samples);
	json__u64(j, "period", he->period);
	if (h->children) {
		json__percent(j, "children_overhead", he->children, json__total(h));
		json__u64(j, "children", he->children);
	}
	/* a group's block: each member's values, the leader's (as above) first */
	if (h->members) {
		const struct hist_member_vals *v = &h->members[(he - h->entries) * h->nr_members];

		json__open(j, "members", '[');
		for (u32 m = 0; m < h->nr_members; m++) {
			json__open(j, NULL, '{');
			json__percent(j, "overhead", v[m].period, h->member_totals[m]);
			json__u64(j, "nr_samples", v[m].nr_samples);
			json__u64(j, "period", v[m].period);
			if (h->children) {
				json__percent(j, "children_overhead", v[m].children,
					      h->member_totals[m]);
				json__u64(j, "children", v[m].children);
			}
			json__close(j, '}');
		}
		json__close(j, ']');
	}
	for (i = 0; i < nr_keys; i++) {
		err = json__key_value(j, he, keys[i]);
		if (err)
			return err;
	}
	if (ro->trees)
		err = json__tree(j, ro, he, h);
	json__close(j, '}');
	return err;
}

/* --hierarchy's rows: each node's parent, a row's index, by the node's */
struct json_hier {
	struct json *j;
	const struct report_output *ro;
	long *rows; /* the row of node i, -1: not printed */
	size_t nr_rows, alloc;
};

static int json_hier__row(void *arg, const struct report_hier_row *r)
{
	struct json_hier *jh = arg;
	struct json *j = jh->j;
	int err = 0;

	if (r->node >= jh->alloc) {
		size_t alloc = r->node * 2 + 64;
		long *v = realloc(jh->rows, alloc * sizeof(*v));

		if (!v)
			return -ENOMEM;
		for (size_t i = jh->alloc; i < alloc; i++)
			v[i] = -1;
		jh->rows = v;
		jh->alloc = alloc;
	}
	jh->rows[r->node] = jh->nr_rows++;
	json__open(j, NULL, '{');
	json__s64(j, "parent", r->up == SIZE_MAX ? -1 : jh->rows[r->up]);
	json__u64(j, "depth", r->depth);
	json__str(j, "key", report_sort_key__name(r->key));
	err = json__key_value(j, r->e, r->key);
	if (err)
		return err;
	/* the thread perf's pid level is of: the text prints its tid */
	if (r->key == SORT_PID)
		json__u64(j, "tid", r->e->tid);
	json__percent(j, "overhead", r->e->period, r->h->total_period);
	json__u64(j, "nr_samples", r->e->nr_samples);
	json__u64(j, "period", r->e->period);
	json__bool(j, "no_entry", r->no_entry);
	if (r->entry && jh->ro->trees)
		err = json__tree(j, jh->ro, r->entry, r->tree);
	json__close(j, '}');
	return err;
}

static int json__hierarchy(struct json *j, const struct report_output *ro,
			   const struct report_hist *h)
{
	struct json_hier jh = {.j = j, .ro = ro};
	int err;

	json__open(j, "hierarchy", '[');
	err = report_hist__walk_hierarchy(h, ro->layout, ro->hier, json_hier__row, &jh);
	json__close(j, ']');
	free(jh.rows);
	return err;
}

static int json__hist(struct json *j, const struct report_output *ro, const struct report_hist *h,
		      const enum report_sort_key *keys, size_t nr_keys, float percent_limit)
{
	static const char *const abi_keys[4] = {"none", "abi32", "abi64", "other"};
	size_t i, k, hidden = 0;
	int err;

	json__open(j, NULL, '{');
	json__str(j, "event", h->event_name);
	json__str(j, "time_slices", h->time_slices);
	json__u64(j, "nr_samples", h->nr_samples);
	json__u64(j, "total_period", h->total_period);
	json__bool(j, "children", h->children);
	/* perf's --group: the events whose values the entries' "members" hold */
	if (h->members) {
		json__open(j, "members", '[');
		for (u32 m = 0; m < h->nr_members; m++) {
			json__open(j, NULL, '{');
			json__str(j, "event", ro->event_names ? ro->event_names[h->idx + m] : NULL);
			json__u64(j, "total_period", h->member_totals[m]);
			json__close(j, '}');
		}
		json__close(j, ']');
	}
	json__open(j, "entries", '[');
	for (i = 0; i < h->nr_entries; i++) {
		/* --hierarchy's histograms hold the filtered entries too */
		if (h->entries[i].filtered)
			continue;
		if (report_hist_entry__below(&h->entries[i], h, percent_limit)) {
			hidden++;
			continue;
		}
		err = json__entry(j, ro, &h->entries[i], h, keys, nr_keys);
		if (err)
			return err;
	}
	json__close(j, ']');
	json__u64(j, "nr_entries_below_limit", hidden);
	if (ro->hier) {
		err = json__hierarchy(j, ro, h);
		if (err)
			return err;
	} else {
		json__null(j, "hierarchy");
	}
	json__open(j, "abi_counts", '[');
	for (i = 0; i < h->nr_comms; i++) {
		json__open(j, NULL, '{');
		json__str(j, "comm", h->abi_counts[i].comm);
		for (k = 0; k < 4; k++)
			json__u64(j, abi_keys[k], h->abi_counts[i].nr[k]);
		json__close(j, '}');
	}
	json__close(j, ']');
	json__close(j, '}');
	return 0;
}

static const char *const verdict_keys[TEXTPOKE_VERDICT__MAX] = {
    [TEXTPOKE_VERIFIED] = "verified",
    [TEXTPOKE_PRE_APPLIED] = "pre_applied",
    [TEXTPOKE_MISMATCH] = "mismatch",
    [TEXTPOKE_UNKNOWN] = "unknown",
};

static const char *verdict_key(enum textpoke_verdict v)
{
	return v < TEXTPOKE_VERDICT__MAX ? verdict_keys[v] : "invalid";
}

static void json__site(struct json *j, const struct report_site *s)
{
	size_t v;

	json__open(j, NULL, '{');
	json__addr(j, "addr", s->addr);
	json__u64(j, "len", s->len);
	json__str(j, "sym", s->sym);
	json__str(j, "kind", report_site_kind__name(s->kind));
	json__u64(j, "nr_changes", s->nr_versions ? s->nr_versions - 1 : 0);
	if (s->nr_versions > 1) {
		json__time(j, "first_change", s->first_change);
		json__time(j, "last_change", s->last_change);
	} else {
		json__no_time(j, "first_change");
		json__no_time(j, "last_change");
	}
	json__u64(j, "nr_samples_changed", s->nr_samples_changed);
	json__open(j, "versions", '[');
	for (v = 0; v < s->nr_versions; v++) {
		const struct report_version *rv = &s->versions[v];

		json__open(j, NULL, '{');
		json__u64(j, "version", v);
		if (v)
			json__time(j, "time", rv->time);
		else
			json__no_time(j, "time");
		json__u64(j, "duration_ns", rv->duration);
		json__u64(j, "nr_samples", rv->nr_samples);
		json__bool(j, "changed", rv->changed);
		json__str(j, "desc", rv->desc);
		json__hex_bytes(j, "bytes", rv->bytes, s->len);
		if (v)
			json__str(j, "verdict", verdict_key(rv->verdict));
		else
			json__null(j, "verdict");
		json__close(j, '}');
	}
	json__close(j, ']');
	json__close(j, '}');
}

static const char *ksym_type_name(u16 type)
{
	/* PERF_RECORD_KSYMBOL_TYPE_BPF, _OOL (include/uapi/linux/perf_event.h) */
	switch (type) {
	case 1:
		return "bpf";
	case 2:
		return "ool";
	case REPORT_REGION_OBJECT:
		return "object";
	default:
		return "unknown";
	}
}

static void json__region(struct json *j, const struct report_region *r, size_t nr_regions)
{
	size_t i;

	json__open(j, NULL, '{');
	json__str(j, "name", r->name);
	json__addr(j, "addr", r->addr);
	json__u64(j, "len", r->len);
	json__u64(j, "ksym_type", r->ksym_type);
	json__str(j, "type", ksym_type_name(r->ksym_type));
	json__time(j, "start", r->start);
	if (r->end == UINT64_MAX)
		json__no_time(j, "end");
	else
		json__time(j, "end", r->end);
	json__bool(j, "alive_at_end", r->end == UINT64_MAX);
	json__bool(j, "bytes_known", r->bytes_known);
	json__u64(j, "nr_samples", r->nr_samples);
	json__open(j, "reused_by", '[');
	for (i = 0; i < r->nr_reused; i++)
		if (r->reused[i] < nr_regions)
			json__u64(j, NULL, r->reused[i]);
	json__close(j, ']');
	json__close(j, '}');
}

static void json__changes(struct json *j, const struct report_changes *rc)
{
	const struct report_consistency *c = &rc->consistency;
	size_t i;

	json__open(j, "changes", '{');
	json__time(j, "first_time", rc->first_time);
	json__time(j, "last_time", rc->last_time);
	json__u64(j, "nr_kernel_samples", rc->nr_kernel_samples);
	json__u64(j, "nr_sites", rc->nr_sites);
	json__open(j, "sites", '[');
	for (i = 0; i < rc->nr_sites; i++)
		json__site(j, &rc->sites[i]);
	json__close(j, ']');
	json__u64(j, "nr_regions", rc->nr_regions);
	json__open(j, "regions", '[');
	for (i = 0; i < rc->nr_regions; i++)
		json__region(j, &rc->regions[i], rc->nr_regions);
	json__close(j, ']');
	json__open(j, "consistency", '{');
	json__open(j, "pokes", '{');
	for (i = 0; i < TEXTPOKE_VERDICT__MAX; i++)
		json__u64(j, verdict_keys[i], c->verdicts[i]);
	json__close(j, '}');
	json__u64(j, "nr_lost", c->nr_lost);
	json__u64(j, "nr_lost_samples", c->nr_lost_samples);
	json__u64(j, "nr_unordered", c->nr_unordered);
	json__u64(j, "nr_unmapped", c->nr_unmapped);
	json__u64(j, "nr_unmapped_module_space", c->nr_unmapped_module_space);
	json__bool(j, "truncated", c->truncated);
	json__bool(j, "trusted", c->trusted);
	json__str(j, "verdict", c->verdict);
	json__close(j, '}');
	json__close(j, '}');
}

static void json__density(struct json *j, const struct report_density *d)
{
	size_t i, n = report_density__nr_bins(d);

	json__open(j, "sample_density", '{');
	json__u64(j, "nr_samples", d->nr_samples);
	if (n)
		json__time(j, "start", d->start);
	else
		json__no_time(j, "start");
	json__u64(j, "bin_ns", n ? d->bin_ns : 0);
	json__open(j, "counts", '[');
	for (i = 0; i < n; i++)
		json__u64(j, NULL, d->counts[i]);
	json__close(j, ']');
	json__close(j, '}');
}

int report_output__json(const struct report_output *ro, FILE *fp)
{
	enum report_sort_key keys[SORT__MAX];
	struct json j = {.fp = fp};
	size_t nr_keys, i;
	int err;

	err = report_output__sort_keys(ro->sort, keys, &nr_keys);
	if (err)
		return err;
	json__open(&j, NULL, '{');
	json__str(&j, "schema", "perf-textpoke-report");
	json__u64(&j, "schema_version", REPORT_JSON_SCHEMA_VERSION);
	json__str(&j, "input", ro->input);
	json__u64(&j, "total_lost_samples", ro->nr_lost_samples);
	json__open(&j, "sort", '[');
	for (i = 0; i < nr_keys; i++)
		json__str(&j, NULL, report_sort_key__name(keys[i]));
	json__close(&j, ']');
	json__open(&j, "profile", '[');
	for (i = 0; i < ro->nr_hists; i++) {
		err = json__hist(&j, ro, &ro->hists[i], keys, nr_keys, ro->percent_limit);
		if (err) {
			pr_err("report: writing the JSON failed: %s\n", strerror(-err));
			return err;
		}
	}
	json__close(&j, ']');
	if (ro->changes)
		json__changes(&j, ro->changes);
	else
		json__null(&j, "changes");
	if (ro->density)
		json__density(&j, ro->density);
	else
		json__null(&j, "sample_density");
	json__close(&j, '}');
	fputc('\n', fp);
	if (fflush(fp) || ferror(fp)) {
		err = errno ? -errno : -EIO;
		/* a reader that went away (| head) is no failure of ours: the caller decides */
		if (err != -EPIPE)
			pr_err("report: writing the JSON failed: %s\n", strerror(-err));
		return err;
	}
	return 0;
}
