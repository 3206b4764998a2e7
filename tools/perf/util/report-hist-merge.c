// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf textpoke report read by several workers (session-workers.c): each
 * builds the histograms of its chunks of time, then sends them to the
 * worker that read the last chunk, which adds them to its own.
 *
 * An entry is its keys, which are names and numbers, so another worker
 * finds its own copy by value.  Its counts add up; its attributes (the
 * first sample's thread, level, cpu, filters, ...) are those of its first
 * touch, the earliest in the recording of the samples that touched it,
 * which every entry remembers (its sample's time and file offset, and
 * which of the sample's touches: report_hists__set_place()).  Ordered by
 * first touch, the merged entries are made in one reader's order, which
 * decides how perf's trees order equal rows (report_hists__finish()).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report-hist-internal.h"
#include "machine.h"
#include "session-workers.h"

#define HIST_STATE_MAGIC 0x31534852U /* "RHS1" */

struct state_build {
	u32 idx;
	u32 has_regs_user;
	u64 nr_entries, nr_abi;
	u64 nr_samples, total_period;
};

/* an entry's numbers: its strings follow, each a u32 length and its bytes */
struct state_entry {
	/* the key's */
	u64 sym_start, sym_end, ip, abi, map_size;
	s32 tid, cpu;
	u8 has_sym, has_map;
	/* the entry's */
	u8 e_inlined, e_level, e_sym_resolved, e_has_map, filtered;
	u8 pad;
	u32 e_pid, e_tid;
	s32 e_cpu;
	u32 first_sub;
	s32 thread_tid;
	u32 pad2;
	u64 thread_birth;
	u64 e_ip, e_abi, e_dso_size, e_sym_offset;
	/* the counts, the first touch */
	u64 nr_samples, period, children;
	u64 first_time, first_off;
};

enum {
	ST_KEY_COMM,
	ST_KEY_DSO,
	ST_KEY_INLINED,
	ST_KEY_SRCLINE,
	ST_KEY_SRCFILE,
	ST_KEY_PARENT,
	ST_COMM,
	ST_DSO,
	ST_SYM,
	ST_SRCLINE,
	ST_SRCFILE,
	ST_PARENT,
	ST_THREAD_COMM,
	ST__MAX,
};

/* a string interned in @rh's pool (NULL as sent), into *@out */
static int state__read_str(struct report_hists *rh, FILE *fp, char **buf, size_t *size,
			   const char **out)
{
	const char *str;
	int err = worker_state__read_str(fp, buf, size, &str);

	*out = NULL;
	if (err || !str)
		return err;
	*out = str_pool__intern(&rh->strings, str);
	return *out ? 0 : -ENOMEM;
}

static int entry__send(const struct hist_entry *e, const struct hist_priv *p, FILE *fp)
{
	const struct hist_key *k = &p->key;
	struct state_entry se = {
	    .sym_start = k->sym_start,
	    .sym_end = k->sym_end,
	    .ip = k->ip,
	    .abi = k->abi,
	    .map_size = k->map_size,
	    .tid = k->tid,
	    .cpu = k->cpu,
	    .has_sym = k->has_sym,
	    .has_map = k->has_map,
	    .e_inlined = e->inlined,
	    .e_level = e->level,
	    .e_sym_resolved = e->sym_resolved,
	    .e_has_map = e->has_map,
	    .filtered = p->filtered,
	    .e_pid = e->pid,
	    .e_tid = e->tid,
	    .e_cpu = e->cpu,
	    .first_sub = p->first_sub,
	    .thread_tid = p->thread_tid,
	    .thread_birth = p->thread_birth,
	    .e_ip = e->ip,
	    .e_abi = e->abi,
	    .e_dso_size = e->dso_size,
	    .e_sym_offset = e->sym_offset,
	    .nr_samples = p->nr_samples,
	    .period = p->period,
	    .children = p->children,
	    .first_time = p->first_time,
	    .first_off = p->first_off,
	};
	const char *strs[ST__MAX] = {
	    [ST_KEY_COMM] = k->comm,
	    [ST_KEY_DSO] = k->dso,
	    [ST_KEY_INLINED] = k->inlined,
	    [ST_KEY_SRCLINE] = k->srcline,
	    [ST_KEY_SRCFILE] = k->srcfile,
	    [ST_KEY_PARENT] = k->parent,
	    [ST_COMM] = e->comm,
	    [ST_DSO] = e->dso,
	    [ST_SYM] = e->sym,
	    [ST_SRCLINE] = e->srcline,
	    [ST_SRCFILE] = e->srcfile,
	    [ST_PARENT] = e->parent,
	    /* every worker read the side-band to its end: the thread's last name */
	    [ST_THREAD_COMM] = p->thread ? thread__comm_str(p->thread) : p->thread_comm,
	};
	int err = worker_state__write(fp, &se, sizeof(se));

	for (int i = 0; i < ST__MAX && !err; i++)
		err = worker_state__write_str(fp, strs[i]);
	return err;
}

int report_hists__send(struct report_hists *rh, FILE *fp)
{
	u32 head[2] = {HIST_STATE_MAGIC, rh->nr_hists};
	int err = worker_state__write(fp, head, sizeof(head));

	for (size_t i = 0; i < rh->nr_hists && !err; i++) {
		const struct hist_build *b = &rh->builds[i];
		struct state_build sb = {
		    .idx = i,
		    .has_regs_user = b->has_regs_user,
		    .nr_entries = b->nr,
		    .nr_abi = b->nr_abi,
		    .nr_samples = b->hist.nr_samples,
		    .total_period = b->hist.total_period,
		};

		err = worker_state__write(fp, &sb, sizeof(sb));
		if (!err)
			err = worker_state__write_str(fp, b->hist.event_name);
		for (size_t j = 0; j < b->nr_abi && !err; j++) {
			err = worker_state__write_str(fp, b->abi[j].comm);
			if (!err)
				err = worker_state__write(fp, b->abi[j].nr, sizeof(b->abi[j].nr));
		}
		for (size_t j = 0; j < b->nr && !err; j++)
			err = entry__send(&b->entries[j], &b->priv[j], fp);
	}
	return err;
}

static int build__merge_abi(struct hist_build *b, const char *comm, const u64 nr[4])
{
	struct report_abi_count *a = hist_build__abi_slot(b, comm);

	if (!a)
		return -ENOMEM;
	for (int k = 0; k < 4; k++)
		a->nr[k] += nr[k];
	return 0;
}

/* the merged worker's next entry of histogram @hist is entry @idx here */
static int peer__add(struct report_hists *rh, int hist, long idx)
{
	struct peer_map *m;

	if ((size_t)hist >= rh->nr_peer) {
		struct peer_map *p = realloc(rh->peer, (hist + 1) * sizeof(*p));

		if (!p)
			return -ENOMEM;
		memset(p + rh->nr_peer, 0, (hist + 1 - rh->nr_peer) * sizeof(*p));
		rh->peer = p;
		rh->nr_peer = hist + 1;
	}
	m = &rh->peer[hist];
	if (m->nr == m->alloc) {
		size_t alloc = m->alloc ? 2 * m->alloc : 64;
		u32 *n = realloc(m->idx, alloc * sizeof(*n));

		if (!n)
			return -ENOMEM;
		m->idx = n;
		m->alloc = alloc;
	}
	m->idx[m->nr++] = idx;
	return 0;
}

long report_hists__peer_entry(const struct report_hists *rh, int hist, u32 entry)
{
	if (hist < 0 || (size_t)hist >= rh->nr_peer || entry >= rh->peer[hist].nr)
		return -ENOENT;
	return rh->peer[hist].idx[entry];
}

static int build__merge_entry(struct report_hists *rh, struct hist_build *b, FILE *fp, char **buf,
			      size_t *size, long *idx)
{
	const char *strs[ST__MAX];
	struct state_entry se;
	struct hist_entry e;
	struct hist_priv p;
	struct hist_key k;
	int err = worker_state__read(fp, &se, sizeof(se));

	for (int i = 0; i < ST__MAX && !err; i++)
		err = state__read_str(rh, fp, buf, size, &strs[i]);
	if (err)
		return err;
	k = (struct hist_key){
	    .comm = strs[ST_KEY_COMM],
	    .dso = strs[ST_KEY_DSO],
	    .has_sym = se.has_sym,
	    .inlined = strs[ST_KEY_INLINED],
	    .sym_start = se.sym_start,
	    .sym_end = se.sym_end,
	    .ip = se.ip,
	    .tid = se.tid,
	    .cpu = se.cpu,
	    .abi = se.abi,
	    .has_map = se.has_map,
	    .map_size = se.map_size,
	    .srcline = strs[ST_KEY_SRCLINE],
	    .srcfile = strs[ST_KEY_SRCFILE],
	    .parent = strs[ST_KEY_PARENT],
	};
	e = (struct hist_entry){
	    .comm = strs[ST_COMM],
	    .pid = se.e_pid,
	    .tid = se.e_tid,
	    .dso = strs[ST_DSO],
	    .sym = strs[ST_SYM],
	    .inlined = se.e_inlined,
	    .ip = se.e_ip,
	    .level = se.e_level,
	    .sym_resolved = se.e_sym_resolved,
	    .cpu = se.e_cpu,
	    .abi = se.e_abi,
	    .has_map = se.e_has_map,
	    .dso_size = se.e_dso_size,
	    .sym_offset = se.e_sym_offset,
	    .srcline = strs[ST_SRCLINE],
	    .srcfile = strs[ST_SRCFILE],
	    .parent = strs[ST_PARENT],
	};
	p = (struct hist_priv){
	    .nr_samples = se.nr_samples,
	    .period = se.period,
	    .children = se.children,
	    .filtered = se.filtered,
	    .first_time = se.first_time,
	    .first_off = se.first_off,
	    .first_sub = se.first_sub,
	    .thread_comm = strs[ST_THREAD_COMM] ?: "",
	    .thread_tid = se.thread_tid,
	    .thread_birth = se.thread_birth,
	};
	*idx = hist_build__merge_entry(rh, b, &k, &e, &p);
	return *idx < 0 ? -ENOMEM : 0;
}

int report_hists__merge(struct report_hists *rh, FILE *fp)
{
	char *buf = NULL;
	size_t size = 0;
	u32 head[2];
	int err = worker_state__read(fp, head, sizeof(head));

	if (!err && head[0] != HIST_STATE_MAGIC)
		err = -ENODATA;
	/* this worker's numbering, for what it sends next (report-tree-merge.c) */
	for (size_t i = 0; i < rh->nr_peer; i++)
		rh->peer[i].nr = 0;
	for (u32 i = 0; !err && i < head[1]; i++) {
		struct state_build sb;
		struct hist_build *b;
		const char *name;

		err = worker_state__read(fp, &sb, sizeof(sb));
		if (!err)
			err = state__read_str(rh, fp, &buf, &size, &name);
		if (err)
			break;
		b = report_hists__build(rh, sb.idx);
		if (!b) {
			err = -ENOMEM;
			break;
		}
		if (!b->hist.event_name)
			b->hist.event_name = name;
		b->hist.nr_samples += sb.nr_samples;
		b->hist.total_period += sb.total_period;
		b->has_regs_user |= sb.has_regs_user;
		for (u64 j = 0; !err && j < sb.nr_abi; j++) {
			const char *comm;
			u64 nr[4];

			err = state__read_str(rh, fp, &buf, &size, &comm);
			if (!err)
				err = worker_state__read(fp, nr, sizeof(nr));
			if (!err)
				err = comm ? build__merge_abi(b, comm, nr) : -ENODATA;
		}
		for (u64 j = 0; !err && j < sb.nr_entries; j++) {
			long idx;

			err = build__merge_entry(rh, b, fp, &buf, &size, &idx);
			if (!err)
				err = peer__add(rh, sb.idx, idx);
		}
	}
	free(buf);
	return err;
}
