// SPDX-License-Identifier: GPL-2.0-only
/*
 * The call-graph trees of perf textpoke report read by several workers
 * (session-workers.c): each keeps the chains of its chunks gathered
 * (report-tree.c: each distinct chain once, its samples' period and
 * count, the time and file offset of its first sample), and the others
 * send theirs to the worker that read the last chunk, which gathers them
 * with its own.  A tree is the set of its chains and its counts are sums,
 * so the trees the merger then builds are one reader's: the chains put in
 * the order of their first samples (a node keeps the frames of the first
 * chain that made it, and perf's insertion order decides where frames
 * whose comparison is no order meet), their entries renumbered as the
 * merged histograms' are (report_hists__order_merged()).
 *
 * A frame names its object by serial number, which is this process's:
 * the sender gives each object's name (and its place among the kernel's
 * spans, since programs loaded again share a name), the merger finds its
 * own object of that name and takes its serial.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "debug.h"
#include "dso.h"
#include "report-tree-internal.h"
#include "session-workers.h"

#define TREE_STATE_MAGIC 0x31535452U /* "RTS1" */
/* no chain is longer: the recorded part, the unwound one and their inlined frames */
#define TREE_STATE_MAX_FRAMES (1U << 16)

struct state_obj {
	u32 serial;
	u32 pad;
	s64 ksym_index;
};

struct state_chain {
	s32 hist;
	u32 entry, nr, count;
	u8 children, pad[7];
	u64 period, first_time, first_off;
};

struct state_frame {
	u32 obj;
	u8 cls, inlined, pad[2];
	u64 ip, start, key;
	s64 entry;
};

void report_trees__keep_objects(struct report_trees *t)
{
	t->keep_objs = true;
}

int report_trees__send(struct report_trees *t, FILE *fp, const struct report_trees_peer *peer)
{
	const struct chains *g = &t->gather;
	u64 head[2] = {TREE_STATE_MAGIC, 0};
	int err = 0;

	for (size_t i = 0; i < t->nr_objs; i++)
		head[1] += t->objs[i] != NULL;
	err = worker_state__write(fp, head, sizeof(head));
	for (size_t i = 0; i < t->nr_objs && !err; i++) {
		struct state_obj so = {.serial = i, .ksym_index = -1};
		const char *name = NULL;
		long ksym_index = -1;

		if (!t->objs[i])
			continue;
		err = peer->describe(peer->arg, t->objs[i], &name, &ksym_index);
		so.ksym_index = ksym_index;
		if (!err)
			err = worker_state__write(fp, &so, sizeof(so));
		if (!err)
			err = worker_state__write_str(fp, name);
	}
	if (!err)
		err = worker_state__write(fp, &(u64){g->nr_recs}, sizeof(u64));
	for (size_t i = 0; i < g->nr_recs && !err; i++) {
		const struct chain_rec *rec = &g->recs[i];
		struct state_chain sc = {
		    .hist = rec->hist,
		    .entry = rec->entry,
		    .nr = rec->nr,
		    .count = rec->count,
		    .children = rec->children,
		    .period = rec->period,
		    .first_time = rec->first_time,
		    .first_off = rec->first_off,
		};

		err = worker_state__write(fp, &sc, sizeof(sc));
		for (u32 j = 0; j < rec->nr && !err; j++) {
			const struct tree_frame *f = &t->frames[rec->first + j];
			struct state_frame sf = {
			    .obj = f->obj,
			    .cls = f->cls,
			    .inlined = f->inlined,
			    .ip = f->ip,
			    .start = f->start,
			    .key = f->key,
			    .entry = g->entries[rec->first + j],
			};

			err = worker_state__write(fp, &sf, sizeof(sf));
			if (!err)
				err = worker_state__write_str(fp, f->name);
			if (!err)
				err = worker_state__write_str(fp, f->srcline);
		}
	}
	return err;
}

/* the sender's objects, by serial (sent in increasing order), as the merger's serials */
struct obj_map {
	u32 *from, *to;
	size_t nr;
};

static int obj_map__read(struct obj_map *m, u64 nr, FILE *fp, const struct report_trees_peer *peer,
			 char **buf, size_t *size)
{
	size_t alloc = 0;

	for (m->nr = 0; m->nr < nr; m->nr++) {
		const struct dso *dso;
		struct state_obj so;
		const char *name;
		int err = worker_state__read(fp, &so, sizeof(so));

		/* grown as they come: the count is only the sender's word */
		if (m->nr == alloc) {
			u32 *from, *to;

			alloc = alloc ? 2 * alloc : 256;
			from = realloc(m->from, alloc * sizeof(*from));
			if (from)
				m->from = from;
			to = realloc(m->to, alloc * sizeof(*to));
			if (to)
				m->to = to;
			if (!from || !to)
				return -ENOMEM;
		}

		if (!err)
			err = worker_state__read_str(fp, buf, size, &name);
		if (err)
			return err;
		if (!name || (m->nr && so.serial <= m->from[m->nr - 1]))
			return -ENODATA;
		dso = peer->lookup(peer->arg, name, so.ksym_index);
		if (!dso) {
			pr_debug("report: another worker's object %s (span %lld) is not here\n",
				 name, (long long)so.ksym_index);
			return -ENODATA;
		}
		m->from[m->nr] = so.serial;
		m->to[m->nr] = dso->serial;
	}
	return 0;
}

static int obj_map__find(const struct obj_map *m, u32 serial, u32 *out)
{
	size_t lo = 0, hi = m->nr;

	if (!serial) {
		*out = 0;
		return 0;
	}
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (m->from[mid] == serial) {
			*out = m->to[mid];
			return 0;
		}
		if (m->from[mid] < serial)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -ENODATA;
}

/* one chain of the sender, into t->chain with this worker's numbers, then gathered */
static int chain__merge(struct report_trees *t, FILE *fp, const struct obj_map *objs,
			const struct report_trees_peer *peer, char **buf, size_t *size)
{
	struct state_chain sc;
	long entry;
	int err = worker_state__read(fp, &sc, sizeof(sc));

	if (err)
		return err;
	/* an empty chain (every frame cut) counts its samples too */
	if (sc.nr > TREE_STATE_MAX_FRAMES)
		return -ENODATA;
	entry = peer->entry(peer->arg, sc.hist, sc.entry);
	if (entry < 0)
		return -ENODATA;
	err = trees__chain_room(t, sc.nr);
	for (u32 j = 0; j < sc.nr && !err; j++) {
		struct sample_frame *f = &t->chain[j];
		struct state_frame sf;
		const char *str;

		err = worker_state__read(fp, &sf, sizeof(sf));
		if (err)
			break;
		memset(f, 0, sizeof(*f));
		f->f = (struct tree_frame){
		    .ip = sf.ip,
		    .start = sf.start,
		    .key = sf.key,
		    .cls = sf.cls,
		    .inlined = sf.inlined,
		};
		f->entry = -1;
		if (sf.cls > FRAME_INLINED || obj_map__find(objs, sf.obj, &f->f.obj))
			return -ENODATA;
		if (sf.entry >= 0) {
			f->entry = peer->entry(peer->arg, sc.hist, sf.entry);
			if (f->entry < 0)
				return -ENODATA;
		}
		err = worker_state__read_str(fp, buf, size, &str);
		if (!err && str && !(f->f.name = trees__intern(t, str)))
			err = -ENOMEM;
		if (!err)
			err = worker_state__read_str(fp, buf, size, &str);
		if (!err && str && !(f->f.srcline = trees__intern(t, str)))
			err = -ENOMEM;
	}
	if (err)
		return err;
	t->nr_chain = sc.nr;
	t->hist = sc.hist;
	t->entry = entry;
	t->place_time = sc.first_time;
	t->place_off = sc.first_off;
	return trees__gather(t, sc.period, sc.count, sc.children, true);
}

int report_trees__merge(struct report_trees *t, FILE *fp, const struct report_trees_peer *peer)
{
	struct obj_map objs = {NULL, NULL, 0};
	char *buf = NULL;
	size_t size = 0;
	u64 head[2], nr;
	int err = worker_state__read(fp, head, sizeof(head));

	if (!err && head[0] != TREE_STATE_MAGIC)
		err = -ENODATA;
	if (!err)
		err = obj_map__read(&objs, head[1], fp, peer, &buf, &size);
	if (!err)
		err = worker_state__read(fp, &nr, sizeof(nr));
	for (u64 i = 0; !err && i < nr; i++)
		err = chain__merge(t, fp, &objs, peer, &buf, &size);
	free(objs.from);
	free(objs.to);
	free(buf);
	return err;
}

/* qsort has no argument: the chains whose first samples order the indices */
static const struct chain_rec *first_base;

static int chain__first_cmp(const void *pa, const void *pb)
{
	const struct chain_rec *a = &first_base[*(const u32 *)pa];
	const struct chain_rec *b = &first_base[*(const u32 *)pb];

	if (a->first_time != b->first_time)
		return a->first_time < b->first_time ? -1 : 1;
	if (a->first_off != b->first_off)
		return a->first_off < b->first_off ? -1 : 1;
	/* one sample's chains (its entries' in Children) in the order they came */
	return *(const u32 *)pa < *(const u32 *)pb ? -1 : 1;
}

int report_trees__order_merged(struct report_trees *t)
{
	struct chains *g = &t->gather;
	struct chain_rec *recs;
	u32 *order;

	if (g->nr_recs < 2)
		return 0;
	recs = malloc(g->nr_recs * sizeof(*recs));
	order = malloc(g->nr_recs * sizeof(*order));
	if (!recs || !order) {
		free(recs);
		free(order);
		return -ENOMEM;
	}
	for (u32 i = 0; i < g->nr_recs; i++)
		order[i] = i;
	first_base = g->recs;
	qsort(order, g->nr_recs, sizeof(*order), chain__first_cmp);
	for (size_t i = 0; i < g->nr_recs; i++)
		recs[i] = g->recs[order[i]];
	free(g->recs);
	free(order);
	g->recs = recs;
	g->alloc_recs = g->nr_recs;
	/* the table's indices are of no more use: only the flush follows */
	free(g->table);
	g->table = NULL;
	g->table_size = 0;
	return 0;
}

int report_trees__renumber(struct report_trees *t, int hist, const u32 *new_idx, size_t nr)
{
	struct chains *g = &t->gather;

	for (size_t i = 0; i < g->nr_recs; i++) {
		struct chain_rec *rec = &g->recs[i];

		if (rec->hist != hist)
			continue;
		if (rec->entry >= nr)
			return -EINVAL;
		rec->entry = new_idx[rec->entry];
		for (u32 j = 0; j < rec->nr; j++) {
			long *e = &g->entries[rec->first + j];

			if (*e >= 0 && (size_t)*e >= nr)
				return -EINVAL;
			if (*e >= 0)
				*e = new_idx[*e];
		}
	}
	return 0;
}
