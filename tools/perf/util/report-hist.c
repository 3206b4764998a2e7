// SPDX-License-Identifier: GPL-2.0-only
/*
 * The profile of perf textpoke report: samples grouped by the sort keys,
 * sorted as perf report --stdio (6.1) sorts them (printed by
 * report-hist-print.c, columns chosen by report-layout.c).
 *
 * Per sample: the strings that make a key (command, object) are
 * interned by content, so that a key is a few words compared by value,
 * and the key is looked up in an open-addressing table of entries.  A
 * symbol is told apart as perf's _sort__sym_cmp() does, by its start and
 * end within its object, so its name is interned only when an entry is
 * made.  Nothing is allocated per sample, only per new entry or new
 * string.  Interning by content, not by the model's pointers, keeps the
 * keys right when a thread or object of the model goes away and its
 * memory is reused.
 *
 * perf's order, reproduced in entry__cmp(): the -F/--sort columns in
 * order (overhead and samples descending, names ascending, known before
 * unknown), ties kept in the order of perf's input tree, which is the
 * keys' comparison order (symbols by address within their object).
 *
 * Children (perf's cumulative mode): a sample's chain frames are keyed
 * as its own entry is, with the sample's command, thread, cpu and ABI
 * and the frame's object and symbol, as perf's
 * iter_add_next_cumulative_entry() keys them; the entries the sample has
 * already given its period to are remembered by index for the length of
 * the sample (perf's he_cache), so that a recursive chain counts once.
 * A recording without callchains pays one store per sample for this.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "debug.h"
#include "dso.h"
#include "dso-inline.h"
#include "machine.h"
#include "map.h"
#include "report-hist.h"
#include "report-hist-internal.h"
#include "symbol.h"
#include "thread.h"

#define STR_HASH_MIN 256
#define ENTRY_HASH_MIN 256

/* eight bytes a step: names are short, but there are three per sample */
static u64 str_hash(const char *s, size_t len)
{
	u64 h = len * 0x9e3779b97f4a7c15ULL, w;

	for (; len >= 8; s += 8, len -= 8) {
		memcpy(&w, s, 8);
		h = (h ^ w) * 0xff51afd7ed558ccdULL;
		h ^= h >> 32;
	}
	if (len) {
		w = 0;
		memcpy(&w, s, len);
		h = (h ^ w) * 0xff51afd7ed558ccdULL;
	}
	return h ^ (h >> 29);
}

static int str_pool__grow(struct str_pool *sp)
{
	size_t size = sp->size ? sp->size * 2 : STR_HASH_MIN, i;
	struct str_slot *slots = calloc(size, sizeof(*slots));

	if (!slots)
		return -ENOMEM;
	for (i = 0; i < sp->size; i++) {
		size_t j;

		if (!sp->slots[i].str)
			continue;
		for (j = sp->slots[i].hash & (size - 1); slots[j].str; j = (j + 1) & (size - 1))
			;
		slots[j] = sp->slots[i];
	}
	free(sp->slots);
	sp->slots = slots;
	sp->size = size;
	return 0;
}

const char *str_pool__intern(struct str_pool *sp, const char *s)
{
	size_t len = strlen(s), j;
	u64 h = str_hash(s, len);

	if ((sp->nr + 1) * 2 > sp->size && str_pool__grow(sp))
		return NULL;
	for (j = h & (sp->size - 1); sp->slots[j].str; j = (j + 1) & (sp->size - 1))
		if (sp->slots[j].hash == h && !memcmp(sp->slots[j].str, s, len + 1))
			return sp->slots[j].str;
	sp->slots[j].str = malloc(len + 1);
	if (!sp->slots[j].str)
		return NULL;
	memcpy(sp->slots[j].str, s, len + 1);
	sp->slots[j].hash = h;
	sp->nr++;
	return sp->slots[j].str;
}

static void str_pool__exit(struct str_pool *sp)
{
	for (size_t i = 0; i < sp->size; i++)
		free(sp->slots[i].str);
	free(sp->slots);
}

/*
 * str_pool__intern() through the memo: a name read where the same name
 * was read before is that one (the bytes compared: a place may be reused
 * for another name)
 */
static const char *report_hists__intern(struct report_hists *rh, const char *src)
{
	struct str_memo *m = &rh->memo[((uintptr_t)src >> 4) % ARRAY_SIZE(rh->memo)];

	if (m->src == src && !strcmp(src, m->str))
		return m->str;
	m->str = str_pool__intern(&rh->strings, src);
	m->src = m->str ? src : NULL;
	return m->str;
}

struct report_hists *report_hists__new(const struct report_layout *l, size_t nr_events,
				       const char *time_slices)
{
	struct report_hists *rh = calloc(1, sizeof(*rh));

	if (!rh)
		return NULL;
	rh->layout = *l;
	rh->time_slices = time_slices;
	rh->self_memo_ok = true;
	for (int k = SORT_CPU; k < SORT__MAX; k++)
		if (l->key[k])
			rh->self_memo_ok = false;
	rh->nr_hists = nr_events;
	rh->builds = calloc(nr_events ?: 1, sizeof(*rh->builds));
	rh->out = calloc(nr_events ?: 1, sizeof(*rh->out));
	if (!rh->builds || !rh->out) {
		report_hists__delete(rh);
		return NULL;
	}
	return rh;
}

void report_hists__delete(struct report_hists *rh)
{
	size_t i, j;

	if (!rh)
		return;
	for (i = 0; rh->builds && i < rh->nr_hists; i++) {
		struct hist_build *b = &rh->builds[i];

		for (j = 0; j < b->nr; j++)
			thread__put(b->priv[j].thread);
		free(b->entries);
		free(b->priv);
		free(b->table);
		free(b->abi);
	}
	for (i = 0; rh->out && i < rh->nr_hists; i++)
		free(rh->out[i].entries);
	for (i = 0; i < rh->nr_peer; i++)
		free(rh->peer[i].idx);
	free(rh->peer);
	free(rh->seen);
	free(rh->mapless);
	free(rh->builds);
	free(rh->out);
	str_pool__exit(&rh->strings);
	free(rh);
}

/* a pipe's events arrive as records: one more histogram each */
static int report_hists__grow(struct report_hists *rh, size_t nr)
{
	struct hist_build *b = realloc(rh->builds, nr * sizeof(*b));
	struct report_hist *out;

	if (!b)
		return -ENOMEM;
	rh->builds = b;
	out = realloc(rh->out, nr * sizeof(*out));
	if (!out)
		return -ENOMEM;
	rh->out = out;
	memset(b + rh->nr_hists, 0, (nr - rh->nr_hists) * sizeof(*b));
	memset(out + rh->nr_hists, 0, (nr - rh->nr_hists) * sizeof(*out));
	rh->nr_hists = nr;
	return 0;
}

static u64 key_hash(const struct hist_key *k)
{
	u64 h = (uintptr_t)k->comm * 0x9e3779b97f4a7c15ULL;

	h ^= (uintptr_t)k->dso + (h << 6) + (h >> 2);
	h ^= (u64)k->has_sym + (uintptr_t)k->inlined + (h << 6) + (h >> 2);
	h ^= k->sym_start + (h << 6) + (h >> 2);
	h ^= k->ip + (h << 6) + (h >> 2);
	h ^= ((u64)(u32)k->tid << 32 | (u32)k->cpu) + (h << 6) + (h >> 2);
	h ^= k->abi + k->sym_end;
	h ^= k->map_size + (uintptr_t)k->srcline + (h << 6) + (h >> 2);
	h ^= (uintptr_t)k->srcfile + (uintptr_t)k->parent + (h << 6) + (h >> 2);
	return h * 0xff51afd7ed558ccdULL;
}

static bool key_equal(const struct hist_key *a, const struct hist_key *b)
{
	return a->comm == b->comm && a->dso == b->dso && a->has_sym == b->has_sym &&
	       a->inlined == b->inlined && a->sym_start == b->sym_start &&
	       a->sym_end == b->sym_end && a->ip == b->ip && a->tid == b->tid && a->cpu == b->cpu &&
	       a->abi == b->abi && a->has_map == b->has_map && a->map_size == b->map_size &&
	       a->srcline == b->srcline && a->srcfile == b->srcfile && a->parent == b->parent;
}

static int hist_build__grow_table(struct hist_build *b)
{
	size_t size = b->table_size ? b->table_size * 2 : ENTRY_HASH_MIN, i;
	u64 *table = calloc(size, sizeof(*table));

	if (!table)
		return -ENOMEM;
	for (i = 0; i < b->table_size; i++) {
		size_t j;

		if (!b->table[i])
			continue;
		for (j = (b->table[i] >> 32) & (size - 1); table[j]; j = (j + 1) & (size - 1))
			;
		table[j] = b->table[i];
	}
	free(b->table);
	b->table = table;
	b->table_size = size;
	return 0;
}

static int hist_build__grow_entries(struct hist_build *b)
{
	size_t alloc = b->alloc ? b->alloc * 2 : 64;
	struct hist_entry *e;
	struct hist_priv *p;

	if (alloc > UINT32_MAX - 1)
		return -ENOMEM;
	e = realloc(b->entries, alloc * sizeof(*e));
	if (!e)
		return -ENOMEM;
	b->entries = e;
	p = realloc(b->priv, alloc * sizeof(*p));
	if (!p)
		return -ENOMEM;
	b->priv = p;
	b->alloc = alloc;
	return 0;
}

/* perf's [x] privilege level of a sample */
static char cpumode_level(u8 cpumode)
{
	switch (cpumode) {
	case PERF_RECORD_MISC_KERNEL:
		return 'k';
	case PERF_RECORD_MISC_USER:
		return '.';
	case PERF_RECORD_MISC_GUEST_KERNEL:
		return 'g';
	case PERF_RECORD_MISC_GUEST_USER:
		return 'u';
	default:
		return 'H';
	}
}

struct report_abi_count *hist_build__abi_slot(struct hist_build *b, const char *comm)
{
	size_t i;

	/* consecutive samples are mostly of one command: try its slot first */
	i = b->abi_last;
	if (!i || b->abi[i - 1].comm != comm) {
		for (i = b->nr_abi; i > 0; i--)
			if (b->abi[i - 1].comm == comm)
				break;
	}
	if (!i) {
		if (b->nr_abi == b->alloc_abi) {
			size_t alloc = b->alloc_abi ? b->alloc_abi * 2 : 8;
			struct report_abi_count *a = realloc(b->abi, alloc * sizeof(*a));

			if (!a)
				return NULL;
			b->abi = a;
			b->alloc_abi = alloc;
		}
		b->abi[b->nr_abi] = (struct report_abi_count){.comm = comm};
		i = ++b->nr_abi;
	}
	b->abi_last = i;
	return &b->abi[i - 1];
}

static int hist_build__count_abi(struct hist_build *b, const char *comm, u64 abi)
{
	struct report_abi_count *a = hist_build__abi_slot(b, comm);

	if (!a)
		return -ENOMEM;
	a->nr[abi < 3 ? abi : 3]++;
	return 0;
}

/* where an entry is: its object and symbol (or address), and its [x] level */
struct hist_place {
	struct map *map;
	struct symbol *sym;
	const char *inlined; /* an inlined function's name at the address */
	u64 addr;	     /* the address an unknown symbol is told apart and printed by */
	u64 obj_addr;	     /* the address in the object, as its symbols and lines are */
	char level;
};

/* @k's entry in @b, or -1; *@hash: what hist_build__insert() takes */
static long hist_build__find(const struct hist_build *b, const struct hist_key *k, u64 *hash)
{
	/* the high half picks the slot and tells keys apart: the low half holds the index */
	u64 h = key_hash(k) >> 32 << 32;

	*hash = h;
	if (!b->table_size)
		return -1;
	for (size_t j = (h >> 32) & (b->table_size - 1); b->table[j];
	     j = (j + 1) & (b->table_size - 1)) {
		u32 i = (u32)b->table[j] - 1;

		if ((b->table[j] & ~0xffffffffULL) == h && key_equal(&b->priv[i].key, k))
			return i;
	}
	return -1;
}

/* room for one more entry and its slot: 0 or -ENOMEM */
static int hist_build__make_room(struct hist_build *b)
{
	if ((b->nr + 1) * 2 > b->table_size && hist_build__grow_table(b))
		return -ENOMEM;
	if (b->nr == b->alloc && hist_build__grow_entries(b))
		return -ENOMEM;
	return 0;
}

/* the entry just filled at b->nr, counted and put in its slot */
static void hist_build__insert(struct hist_build *b, u64 h)
{
	size_t j;

	for (j = (h >> 32) & (b->table_size - 1); b->table[j]; j = (j + 1) & (b->table_size - 1))
		;
	b->table[j] = h | ++b->nr;
}

/*
 * The entry of @k in @b, made from @p and the sample when new; its
 * index.  -ENOMEM.
 */
static long hist_build__entry(struct report_hists *rh, struct hist_build *b,
			      const struct hist_key *k, const struct hist_place *p,
			      const struct addr_location *al, const struct perf_sample *sample,
			      unsigned int filtered)
{
	const char *sym = NULL;
	u64 h;
	long i = hist_build__find(b, k, &h);

	if (i >= 0)
		return i;
	if (hist_build__make_room(b))
		return -ENOMEM;
	if (k->has_sym) {
		sym = k->inlined ?: str_pool__intern(&rh->strings, symbol__name(p->sym));
		if (!sym)
			return -ENOMEM;
	}
	b->entries[b->nr] = (struct hist_entry){
	    .comm = k->comm,
	    .pid = thread__pid(al->thread),
	    .tid = thread__tid(al->thread),
	    .dso = k->dso,
	    .sym = sym,
	    .inlined = k->inlined != NULL,
	    .ip = p->addr,
	    .level = p->level,
	    .sym_resolved = p->sym != NULL,
	    .cpu = (s32)sample->cpu,
	    .abi = sample->user_regs.abi,
	    .has_map = k->has_map,
	    .dso_size = k->map_size,
	    .sym_offset = p->sym ? p->obj_addr - p->sym->start : 0,
	    .srcline = k->srcline,
	    .srcfile = k->srcfile,
	    .parent = k->parent,
	    .id = b->nr,
	};
	b->priv[b->nr] = (struct hist_priv){
	    .key = *k,
	    .thread = thread__get(al->thread),
	    .thread_tid = al->thread ? al->thread->tid : -1,
	    .thread_birth = al->thread ? al->thread->birth : 0,
	    .filtered = filtered,
	    .first_time = rh->place_time,
	    .first_off = rh->place_off,
	    .first_sub = rh->place_sub,
	};
	hist_build__insert(b, h);
	return b->nr - 1;
}

long hist_build__merge_entry(struct report_hists *rh, struct hist_build *b,
			     const struct hist_key *k, const struct hist_entry *e,
			     const struct hist_priv *p)
{
	struct hist_priv *mine;
	u64 h;
	long i = hist_build__find(b, k, &h);

	rh->merged = true;
	if (i < 0) {
		if (hist_build__make_room(b))
			return -ENOMEM;
		b->entries[b->nr] = *e;
		b->entries[b->nr].id = b->nr;
		b->priv[b->nr] = *p;
		b->priv[b->nr].key = *k;
		b->priv[b->nr].thread = NULL;
		hist_build__insert(b, h);
		return b->nr - 1;
	}
	mine = &b->priv[i];
	mine->nr_samples += p->nr_samples;
	mine->period += p->period;
	mine->children += p->children;
	/* the attributes are the first sample's: the earlier touch's */
	if (p->first_time < mine->first_time ||
	    (p->first_time == mine->first_time &&
	     (p->first_off < mine->first_off ||
	      (p->first_off == mine->first_off && p->first_sub < mine->first_sub)))) {
		b->entries[i] = *e;
		b->entries[i].id = i;
		thread__put(mine->thread);
		mine->thread = NULL;
		mine->thread_comm = p->thread_comm;
		mine->thread_tid = p->thread_tid;
		mine->thread_birth = p->thread_birth;
		mine->filtered = p->filtered;
		mine->first_time = p->first_time;
		mine->first_off = p->first_off;
		mine->first_sub = p->first_sub;
	}
	return i;
}

/*
 * perf's srcline and srcfile keys at @p (map__srcline() and
 * hist_entry__get_srcfile()): the line DWARF gives, as script -F srcline
 * finds it, "??:0" too; else "sym+off" (decimal) or "dso[addr]" and no
 * file; "??:0" outside every map.  The kernel's lines perf finds no DWARF for here.
 */
static int place__srclines(struct report_hists *rh, struct hist_key *k, const struct hist_place *p)
{
	struct dso *dso = p->map ? p->map->dso : NULL;
	const char *line = NULL, *colon;
	char buf[512];

	if (!dso) {
		k->srcline = str_pool__intern(&rh->strings, "??:0");
		k->srcfile = str_pool__intern(&rh->strings, "");
		return k->srcline && k->srcfile ? 0 : -ENOMEM;
	}
	if (dso->kind == DSO_KIND__USER)
		line = dso__srcline(dso, p->obj_addr);
	/*
	 * Where addr2line names a function but no line ("??:?", crt1's _start,
	 * a function of top-level asm) perf prints its "??:0" (":0" when the
	 * unit has no name), and no file
	 */
	if (rh->layout.key[SORT_SRCFILE]) {
		colon = line && strcmp(line, "??:0") ? strchr(line, ':') : NULL;
		snprintf(buf, sizeof(buf), "%.*s", colon ? (int)(colon - line) : 0, line ?: "");
		k->srcfile = str_pool__intern(&rh->strings, buf);
		if (!k->srcfile)
			return -ENOMEM;
	}
	if (!rh->layout.key[SORT_SRCLINE])
		return 0;
	if (!line && p->sym)
		snprintf(buf, sizeof(buf), "%s+%llu", symbol__name(p->sym),
			 (unsigned long long)(p->obj_addr - p->sym->start));
	else if (!line)
		snprintf(buf, sizeof(buf), "%s[%llx]", dso->short_name,
			 (unsigned long long)p->obj_addr);
	k->srcline = str_pool__intern(&rh->strings, line ?: buf);
	return k->srcline ? 0 : -ENOMEM;
}

/* the key of an entry at @p: the place's fields of the keys sorted on, the sample's others */
static int hist_key__fill(struct report_hists *rh, struct hist_key *k, const struct hist_place *p,
			  const struct addr_location *al, const struct perf_sample *sample,
			  const char *comm)
{
	const struct report_layout *l = &rh->layout;

	memset(k, 0, sizeof(*k));
	if (l->key[SORT_COMM])
		k->comm = comm;
	if (l->key[SORT_PID] || l->key[SORT_TID])
		k->tid = thread__tid(al->thread);
	if ((l->key[SORT_DSO] || l->key[SORT_SYM] || l->key[SORT_SYMOFF]) && p->map) {
		if (p->map != rh->name_map) {
			rh->name_dso = report_hists__intern(rh, map__dso_short(p->map));
			if (!rh->name_dso)
				return -ENOMEM;
			rh->name_map = p->map;
		}
		k->dso = rh->name_dso;
	}
	if (l->key[SORT_SYM] || l->key[SORT_SYMOFF]) {
		if (p->sym) {
			k->has_sym = true;
			k->sym_start = p->sym->start;
			k->sym_end = p->sym->end;
			if (p->inlined) {
				k->inlined = str_pool__intern(&rh->strings, p->inlined);
				if (!k->inlined)
					return -ENOMEM;
			}
		} else {
			/* perf tells unknown symbols apart by address alone */
			k->ip = p->addr;
		}
		if (!l->key[SORT_DSO] && !p->sym)
			k->dso = NULL;
		/* symoff: each address of a symbol its own entry */
		if (l->key[SORT_SYMOFF])
			k->ip = p->sym ? p->obj_addr : p->addr;
	}
	if (l->key[SORT_DSO_SIZE] && p->map) {
		k->has_map = true;
		k->map_size = p->map->end - p->map->start;
	}
	if ((l->key[SORT_SRCLINE] || l->key[SORT_SRCFILE]) && place__srclines(rh, k, p))
		return -ENOMEM;
	k->parent = l->key[SORT_PARENT] ? rh->parent : NULL;
	if (l->key[SORT_CPU])
		k->cpu = (s32)sample->cpu;
	if (l->key[SORT_ABI])
		k->abi = sample->user_regs.abi;
	return 0;
}

/*
 * The memo's slot for the sample at @al: filled (used) when it was the
 * same place, thread and command before; emptied for it otherwise.  NULL
 * when the keys take more than the memo holds.
 */
static struct self_memo *report_hists__self_memo(struct report_hists *rh, int idx,
						 const struct addr_location *al, const char *comm,
						 unsigned int filtered)
{
	const struct dso *dso = al->map ? al->map->dso : NULL;
	const void *dso_key = al->map ? (dso ? (const void *)dso : (const void *)al->map) : NULL;
	const char *dso_name = dso ? dso->short_name : NULL;
	u64 addr = al->sym ? 0 : al->addr;
	struct self_memo *m;
	uintptr_t h;

	if (!rh->self_memo_ok)
		return NULL;
	h = ((uintptr_t)al->thread >> 4) ^ ((uintptr_t)al->sym >> 3) ^ (uintptr_t)addr;
	h ^= h >> 8;
	m = &rh->self_memo[h % ARRAY_SIZE(rh->self_memo)];
	if (m->used && m->thread == al->thread && m->dso == dso_key && m->sym == al->sym &&
	    m->addr == addr && m->comm == comm && m->dso_name == dso_name && m->idx == idx &&
	    m->filtered == filtered && m->pid == thread__pid(al->thread) &&
	    m->tid == thread__tid(al->thread))
		return m;
	*m = (struct self_memo){
	    .thread = al->thread,
	    .dso = dso_key,
	    .sym = al->sym,
	    .comm = comm,
	    .dso_name = dso_name,
	    .addr = addr,
	    .pid = thread__pid(al->thread),
	    .tid = thread__tid(al->thread),
	    .idx = idx,
	    .filtered = filtered,
	};
	return m;
}

int report_hists__add(struct report_hists *rh, int idx, const char *event_name,
		      const struct addr_location *al, const struct perf_sample *sample,
		      unsigned int filtered)
{
	const struct report_layout *l = &rh->layout;
	struct hist_place p = {.map = al->map,
			       .sym = al->sym,
			       .addr = al->addr,
			       .obj_addr = al->addr,
			       .level = cpumode_level(al->cpumode)};
	struct self_memo *m;
	struct hist_build *b;
	struct hist_priv *priv;
	struct hist_key k;
	const char *comm = NULL;
	long i;

	if (idx < 0)
		return -EINVAL;
	if ((size_t)idx >= rh->nr_hists && report_hists__grow(rh, idx + 1))
		return -ENOMEM;
	b = &rh->builds[idx];
	b->hist.event_name = event_name;
	b->hist.nr_samples++;
	b->hist.total_period += sample->period;
	/* an event that samples the user registers gets the per-ABI counts */
	if (sample->user_regs.mask || sample->user_regs.abi)
		b->has_regs_user = true;
	if (l->key[SORT_COMM] || b->has_regs_user) {
		const char *src = thread__comm_str(al->thread);

		comm = report_hists__intern(rh, src);
		if (!comm)
			return -ENOMEM;
	}
	if (b->has_regs_user && !filtered && hist_build__count_abi(b, comm, sample->user_regs.abi))
		return -ENOMEM;
	/* a new sample: the maps of the last one may be gone */
	rh->name_map = NULL;
	rh->place_sub = 0;
	m = report_hists__self_memo(rh, idx, al, comm, filtered);
	if (m && m->used) {
		i = m->entry;
	} else {
		if (hist_key__fill(rh, &k, &p, al, sample, comm))
			return -ENOMEM;
		i = hist_build__entry(rh, b, &k, &p, al, sample, filtered);
		if (i < 0)
			return i;
		if (m) {
			m->used = true;
			m->entry = i;
		}
	}
	rh->place_sub = 1;
	priv = &b->priv[i];
	priv->nr_samples++;
	priv->period += sample->period;
	priv->children += sample->period;
	/* the sample's own entry is the first its chain may not count again */
	if (!rh->alloc_seen) {
		rh->seen = malloc(64 * sizeof(*rh->seen));
		if (!rh->seen)
			return -ENOMEM;
		rh->alloc_seen = 64;
	}
	rh->seen[0] = i;
	rh->nr_seen = 1;
	rh->level = p.level;
	rh->walk_level = p.level;
	rh->comm = comm;
	rh->nr_mapless = 0;
	rh->frame_first = b->nr;
	return 0;
}

/*
 * perf report --children walks a chain caller first (its default
 * -g caller), and fill_callchain_info() leaves a frame outside every map
 * at the level of the frame walked before it: the nearest one outside it
 * (a caller) in a map, or the sample's own when there is none.  Walked
 * callee first here, the entries such frames made wait for it.  perf
 * makes such an entry at the frame it meets first, the outermost of the
 * chain's frames with that address, so each later frame of an entry made
 * by this chain waits again, and the last level set is the outermost's.
 */
static void mapless__set_level(struct report_hists *rh, struct hist_build *b, char level)
{
	for (size_t j = 0; j < rh->nr_mapless; j++)
		b->entries[rh->mapless[j]].level = level;
	rh->nr_mapless = 0;
}

/* a frame in a map is at the level of its maps, kernel or user */
static char frame__level(const struct callchain_frame *frame)
{
	const struct dso *dso = frame->al.map->dso;

	if (dso && (dso->kind == DSO_KIND__KERNEL || dso->kind == DSO_KIND__MODULE ||
		    dso->kind == DSO_KIND__KSYMBOL))
		return 'k';
	return '.';
}

int report_hists__add_frame(struct report_hists *rh, int idx, const struct callchain_frame *frame,
			    const struct addr_location *al, const struct perf_sample *sample,
			    unsigned int filtered)
{
	struct hist_place p = {
	    .map = frame->al.map,
	    .sym = frame->al.sym,
	    .inlined = frame->inlined ? frame->inline_name : NULL,
	    /* perf's callchain entries keep the address as recorded, not the object's */
	    .addr = frame->ip,
	    .obj_addr = callchain_frame__addr(frame),
	};
	struct hist_build *b;
	struct hist_key k;
	size_t j;
	long i;

	if (idx < 0 || (size_t)idx >= rh->nr_hists || !rh->nr_seen)
		return -EINVAL;
	b = &rh->builds[idx];
	if (p.map) {
		p.level = frame__level(frame);
		if (rh->callee_walk)
			rh->walk_level = p.level;
		else
			mapless__set_level(rh, b, p.level);
	} else if (rh->callee_walk) {
		/* perf walking callee first: the level of the frame walked before */
		p.level = rh->walk_level;
	}
	if (hist_key__fill(rh, &k, &p, al, sample, rh->comm))
		return -ENOMEM;
	i = hist_build__entry(rh, b, &k, &p, al, sample, filtered);
	if (i < 0)
		return i;
	rh->place_sub++;
	rh->frame_entry = i;
	/* its level is the next frame's in a map, or the sample's: known later */
	if (!p.map && !rh->callee_walk && (u32)i >= rh->frame_first) {
		if (rh->nr_mapless == rh->alloc_mapless) {
			size_t alloc = rh->alloc_mapless ? 2 * rh->alloc_mapless : 16;
			u32 *m = realloc(rh->mapless, alloc * sizeof(*m));

			if (!m)
				return -ENOMEM;
			rh->mapless = m;
			rh->alloc_mapless = alloc;
		}
		rh->mapless[rh->nr_mapless++] = i;
	}
	for (j = 0; j < rh->nr_seen; j++)
		if (rh->seen[j] == (u32)i)
			return 0;
	if (rh->nr_seen == rh->alloc_seen) {
		u32 *seen = realloc(rh->seen, 2 * rh->alloc_seen * sizeof(*seen));

		if (!seen)
			return -ENOMEM;
		rh->seen = seen;
		rh->alloc_seen *= 2;
	}
	rh->seen[rh->nr_seen++] = i;
	b->priv[i].children += sample->period;
	return 0;
}

void report_hists__set_place(struct report_hists *rh, u64 time, u64 off)
{
	rh->place_time = time;
	rh->place_off = off;
}

struct hist_build *report_hists__build(struct report_hists *rh, int idx)
{
	if (idx < 0 || ((size_t)idx >= rh->nr_hists && report_hists__grow(rh, idx + 1)))
		return NULL;
	return &rh->builds[idx];
}

int report_hists__set_parent(struct report_hists *rh, const char *name)
{
	rh->parent = name ? str_pool__intern(&rh->strings, name) : NULL;
	return name && !rh->parent ? -ENOMEM : 0;
}

void report_hists__set_symbol_filter(struct report_hists *rh, const char *str)
{
	rh->symbol_filter = str;
}

/*
 * perf's filters of a whole entry: the sample's (--comm, ...) when it
 * was made, and --symbol-filter, which perf applies to the entries made,
 * a chain's frames' too, by their own symbol
 */
static u8 hist_build__filtered(const struct report_hists *rh, const struct hist_build *b, size_t j)
{
	const char *sym = b->entries[j].sym;

	if (rh->symbol_filter && (!sym || !strstr(sym, rh->symbol_filter)))
		return b->priv[j].filtered | REPORT_FILTER_SYMBOL_FILTER;
	return b->priv[j].filtered;
}

void report_hists__set_after(struct report_hists *rh,
			     void (*fn)(const struct report_hist *h, const struct hist_entry *e,
					void *arg, FILE *fp),
			     void *arg)
{
	rh->fprintf_after = fn;
	rh->after_arg = arg;
}

void report_hists__set_depth(struct report_hists *rh, u32 (*depth)(void *arg, int idx, u32 entry),
			     void *arg, bool caller)
{
	rh->depth = depth;
	rh->depth_arg = arg;
	rh->depth_caller = caller;
	rh->callee_walk = !caller;
}

void report_hists__set_relative(struct report_hists *rh, bool relative)
{
	rh->relative = relative;
}

void report_hists__keep_filtered(struct report_hists *rh, bool keep)
{
	rh->keep_filtered = keep;
}

u32 report_hists__sample_entry(const struct report_hists *rh)
{
	return rh->nr_seen ? rh->seen[0] : 0;
}

u32 report_hists__frame_entry(const struct report_hists *rh)
{
	return rh->frame_entry;
}

const u32 *report_hists__chain_entries(const struct report_hists *rh, size_t *nr)
{
	*nr = rh->nr_seen;
	return rh->seen;
}

void report_hists__add_children(struct report_hists *rh, int idx, const u32 *entries, size_t nr,
				u64 period)
{
	struct hist_build *b;

	if (idx < 0 || (size_t)idx >= rh->nr_hists)
		return;
	b = &rh->builds[idx];
	for (size_t j = 0; j < nr; j++)
		if (entries[j] < b->nr)
			b->priv[entries[j]].children += period;
}

void report_hists__end_chain(struct report_hists *rh, int idx)
{
	if (idx >= 0 && (size_t)idx < rh->nr_hists)
		mapless__set_level(rh, &rh->builds[idx], rh->level);
}

/* known before unknown, as perf's cmp_null() sorts them */
static int cmp_null(const void *a, const void *b)
{
	if (!a && !b)
		return 0;
	return !a ? 1 : -1;
}

static int cmp_u64_asc(u64 a, u64 b)
{
	return a < b ? -1 : a > b;
}

/*
 * perf's address comparisons (_sort__addr_cmp(), _sort__sym_cmp()): the
 * difference taken as signed, so that addresses 2^63 or more apart
 * compare backwards, and the order is no order over all of them (chain
 * frames without a map hold any value); which entry comes first then
 * depends on the tree they meet in, rebuilt below
 */
static int cmp_u64_wrap(u64 a, u64 b)
{
	s64 d = (s64)(a - b);

	return d < 0 ? -1 : d > 0;
}

/* interned names: one pointer for one name, mostly compared to itself */
static inline int name_cmp(const char *a, const char *b)
{
	return a == b ? 0 : strcmp(a, b);
}

static inline int entry__cmp_dso(const struct hist_entry *a, const struct hist_entry *b)
{
	return !a->dso || !b->dso ? cmp_null(a->dso, b->dso) : name_cmp(a->dso, b->dso);
}

/* the sym key; @input: perf's input tree, which tells symbols apart by dso and address */
static inline int entry__cmp_sym(const struct hist_entry *a, const struct hist_entry *b, bool input)
{
	int c;

	if (!input)
		return !a->sym || !b->sym ? cmp_null(a->sym, b->sym) : name_cmp(a->sym, b->sym);
	if (!a->sym && !b->sym)
		return cmp_u64_wrap(a->ip, b->ip);
	c = entry__cmp_dso(a, b);
	if (c)
		return c;
	if (!a->sym || !b->sym)
		return cmp_null(a->sym, b->sym);
	/*
	 * perf's _sort__sym_cmp() tells an inlined function by its name
	 * first, the new entry's name against the tree's: names descend in
	 * the tree's order
	 */
	if (a->inlined || b->inlined) {
		c = name_cmp(b->sym, a->sym);
		if (c)
			return c;
	}
	return cmp_u64_wrap(a->sym_start, b->sym_start);
}

/*
 * One sort key's order.  @input: perf's input tree, which tells symbols
 * apart by dso and address; else its output order, by name.  Inline: the
 * red-black tree rebuilds of a big profile compare millions of times.
 */
static inline __attribute__((always_inline)) int
entry__cmp_key(int key, const struct hist_entry *a, const struct hist_entry *b, bool input)
{
	int c;

	switch (key) {
	case SORT_COMM:
		return name_cmp(a->comm, b->comm);
	case SORT_PID:
	case SORT_TID:
		/* signed, as perf's tids: a sample of an exiting task has tid -1 */
		return (s32)a->tid < (s32)b->tid ? -1 : (s32)a->tid > (s32)b->tid;
	case SORT_DSO:
		return entry__cmp_dso(a, b);
	case SORT_SYM:
		return entry__cmp_sym(a, b, input);
	case SORT_CPU:
		return a->cpu < b->cpu ? -1 : a->cpu > b->cpu;
	case SORT_ABI:
		return cmp_u64_asc(a->abi, b->abi);
	case SORT_DSO_SIZE:
		/*
		 * perf's sort__dso_size_cmp(): no map is size 0.  It has no
		 * sort function of its own, so the output tree uses the same
		 * comparison, whose sign sends the smaller map left: the
		 * smaller first both in its input tree and when printed.
		 */
		return cmp_u64_asc(a->has_map ? a->dso_size : 0, b->has_map ? b->dso_size : 0);
	case SORT_SYMOFF:
		c = entry__cmp_sym(a, b, input);
		if (c)
			return c;
		/* upstream's sort__symoff_sort(): of one symbol, the higher offset first */
		c = cmp_u64_asc(a->sym ? a->sym_offset : a->ip, b->sym ? b->sym_offset : b->ip);
		return input ? c : -c;
	case SORT_SRCLINE:
		return name_cmp(a->srcline, b->srcline);
	case SORT_SRCFILE:
		return name_cmp(a->srcfile, b->srcfile);
	case SORT_PARENT:
		return !a->parent || !b->parent ? cmp_null(a->parent, b->parent) :
						  name_cmp(a->parent, b->parent);
	default:
		return 0;
	}
}

int report_entry__cmp_key(int key, const struct hist_entry *a, const struct hist_entry *b,
			  bool input)
{
	return entry__cmp_key(key, a, b, input);
}

/* ties: perf's input tree, ordered by its keys' comparisons */
static int entry__cmp_input(const struct report_layout *l, const struct hist_entry *a,
			    const struct hist_entry *b)
{
	int i, c = 0;

	/* the columns (Overhead, Children, ...) are no key of perf's input tree */
	for (i = 0; i < l->nr_sort && !c; i++)
		if (l->sort[i] < SORT__MAX)
			c = entry__cmp_key(l->sort[i], a, b, true);
	return c;
}

/* qsort has no argument: the layout and the tie rule of the histogram being sorted */
static const struct report_layout *sort_layout;
static bool sort_depth, sort_depth_caller;

/* perf's output sort: the sort columns' own orders, then the input order */
static int entry__cmp(const struct report_layout *l, const struct hist_entry *a,
		      const struct hist_entry *b)
{
	int i, c = 0;

	for (i = 0; i < l->nr_sort && !c; i++) {
		switch (l->sort[i]) {
		case REPORT_COL_OVERHEAD:
		case REPORT_COL_PERIOD:
			c = cmp_u64_asc(b->period, a->period);
			break;
		case REPORT_COL_CHILDREN:
			c = cmp_u64_asc(b->children, a->children);
			/* perf's __hpp__sort_acc(): a caller above its callee */
			if (!c && sort_depth && hist_entry__same_thread(a, b))
				c = sort_depth_caller ? cmp_u64_asc(b->max_depth, a->max_depth) :
							cmp_u64_asc(a->max_depth, b->max_depth);
			break;
		case REPORT_COL_SAMPLE:
			c = cmp_u64_asc(b->nr_samples, a->nr_samples);
			break;
		default:
			/*
			 * perf's hist_entry__sort() skips an elided column
			 * (perf_hpp__should_skip()): equal on the rows shown,
			 * but the filtered entries of other names in the
			 * tree then compare otherwise, and where the trees'
			 * tie rule makes the order no order, the rows land
			 * elsewhere
			 */
			if (l->sort[i] < SORT__MAX && l->elide[l->sort[i]])
				break;
			c = entry__cmp_key(l->sort[i], a, b, false);
			break;
		}
	}
	/* equals go after: the later in perf's input order */
	return c ?: cmp_u64_asc(a->input_rank, b->input_rank);
}

static int entry__qsort_cmp(const void *a, const void *b)
{
	return entry__cmp(sort_layout, a, b);
}

/*
 * perf inserts the entries one by one, in its input order, into a
 * red-black tree ordered by the output comparison (hist_entry__sort()
 * greater going left).  With the trees' tie rule that comparison is not
 * a total order (the max_depth tie applies to entries of one thread
 * only), so where an entry lands depends on the entries it meets on its
 * way down: the tree is rebuilt here, balanced as every red-black tree
 * is (the textbook insertion fix-up the kernel's rbtree implements).
 */
struct rb_order {
	u32 *left, *right, *up; /* entry index + 1, 0: none */
	bool *red;
	u32 root;
};

static void rb_order__rotate(struct rb_order *t, u32 x, bool to_left)
{
	/* to_left: x's right child y takes x's place, x becomes y's left */
	u32 *down = to_left ? t->right : t->left, *side = to_left ? t->left : t->right;
	u32 y = down[x - 1], p = t->up[x - 1];

	down[x - 1] = side[y - 1];
	if (side[y - 1])
		t->up[side[y - 1] - 1] = x;
	t->up[y - 1] = p;
	if (!p)
		t->root = y;
	else if (t->left[p - 1] == x)
		t->left[p - 1] = y;
	else
		t->right[p - 1] = y;
	side[y - 1] = x;
	t->up[x - 1] = y;
}

static void rb_order__fixup(struct rb_order *t, u32 z)
{
	while (t->up[z - 1] && t->red[t->up[z - 1] - 1]) {
		u32 p = t->up[z - 1], g = t->up[p - 1];
		bool p_left = t->left[g - 1] == p;
		u32 uncle = p_left ? t->right[g - 1] : t->left[g - 1];

		if (uncle && t->red[uncle - 1]) {
			t->red[p - 1] = false;
			t->red[uncle - 1] = false;
			t->red[g - 1] = true;
			z = g;
			continue;
		}
		if (z == (p_left ? t->right[p - 1] : t->left[p - 1])) {
			z = p;
			rb_order__rotate(t, z, p_left);
			p = t->up[z - 1];
		}
		t->red[p - 1] = false;
		t->red[g - 1] = true;
		rb_order__rotate(t, g, !p_left);
	}
	t->red[t->root - 1] = false;
}

static int entry__cmp_output(const struct hist_entry *a, const struct hist_entry *b)
{
	return entry__cmp(sort_layout, a, b);
}

static int entry__cmp_in(const struct hist_entry *a, const struct hist_entry *b)
{
	return entry__cmp_input(sort_layout, a, b);
}

/* report_rb_order() over entries: its comparison and the entries compared */
struct rb_entries {
	const struct hist_entry *e;
	int (*cmp)(const struct hist_entry *a, const struct hist_entry *b);
};

static int rb_entries__cmp(u32 a, u32 b, void *arg)
{
	const struct rb_entries *r = arg;

	return r->cmp(&r->e[a], &r->e[b]);
}

/*
 * @e[0..n) in the order of a red-black tree they are inserted into one
 * by one, as they come: an entry goes left of one it compares below
 * (@cmp(new, there) < 0), else right (see above)
 */
static int entries__rb_order(struct hist_entry *e, size_t n,
			     int (*cmp)(const struct hist_entry *, const struct hist_entry *))
{
	struct rb_entries r = {e, cmp};
	u32 *order = malloc((n ?: 1) * sizeof(*order));
	struct hist_entry *out = malloc((n ?: 1) * sizeof(*out));
	int err = -ENOMEM;

	if (order && out && !report_rb_order(n, rb_entries__cmp, &r, order)) {
		for (size_t i = 0; i < n; i++)
			out[i] = e[order[i]];
		memcpy(e, out, n * sizeof(*out));
		err = 0;
	}
	free(order);
	free(out);
	return err;
}

/*
 * perf's input order: the entries as they were made, inserted into its
 * tree of the keys (hists->entries_in), then, when a key has a collapse
 * step (comm), re-inserted in that tree's order into another
 * (entries_collapsed).  With addresses compared as perf compares them
 * neither is a sort: both trees are rebuilt.  Each entry's place is
 * kept, the output order's last tie-break.
 */
static int entries__input_order(struct report_hist *h, const struct report_layout *l)
{
	bool collapse = false;
	size_t i;

	for (i = 0; i < (size_t)l->nr_sort; i++)
		collapse |= l->sort[i] == SORT_COMM;
	if (entries__rb_order(h->entries, h->nr_entries, entry__cmp_in))
		return -ENOMEM;
	if (collapse && entries__rb_order(h->entries, h->nr_entries, entry__cmp_in))
		return -ENOMEM;
	for (i = 0; i < h->nr_entries; i++)
		h->entries[i].input_rank = i;
	return 0;
}

int report_rb_order(u32 n, int (*cmp)(u32 a, u32 b, void *arg), void *arg, u32 *order)
{
	struct rb_order t = {NULL};
	u32 *stack, x, sp = 0, k = 0, i;
	int err = -ENOMEM;

	t.left = calloc(n ?: 1, sizeof(u32));
	t.right = calloc(n ?: 1, sizeof(u32));
	t.up = calloc(n ?: 1, sizeof(u32));
	t.red = calloc(n ?: 1, sizeof(bool));
	stack = malloc((n ?: 1) * sizeof(u32));
	if (!t.left || !t.right || !t.up || !t.red || !stack)
		goto out_free;
	for (i = 0; i < n; i++) {
		u32 z = i + 1, p = 0;
		bool go_left = false;

		for (x = t.root; x;) {
			p = x;
			go_left = cmp(i, x - 1, arg) < 0;
			x = go_left ? t.left[x - 1] : t.right[x - 1];
		}
		t.up[z - 1] = p;
		t.red[z - 1] = true;
		if (!p)
			t.root = z;
		else if (go_left)
			t.left[p - 1] = z;
		else
			t.right[p - 1] = z;
		rb_order__fixup(&t, z);
	}
	for (x = t.root; x || sp;) {
		while (x) {
			stack[sp++] = x;
			x = t.left[x - 1];
		}
		x = stack[--sp];
		order[k++] = x - 1;
		x = t.right[x - 1];
	}
	err = 0;
out_free:
	free(t.left);
	free(t.right);
	free(t.up);
	free(t.red);
	free(stack);
	return err;
}

/* the busiest command first, then by name */
static int abi_count__cmp(const void *pa, const void *pb)
{
	const struct report_abi_count *a = pa, *b = pb;
	u64 na = a->nr[0] + a->nr[1] + a->nr[2] + a->nr[3];
	u64 nb = b->nr[0] + b->nr[1] + b->nr[2] + b->nr[3];

	return na != nb ? (na < nb ? 1 : -1) : strcmp(a->comm, b->comm);
}

/* qsort has no argument: the counts whose first touches order the indices */
static const struct hist_priv *first_touch_base;

static int first_touch__cmp(const void *pa, const void *pb)
{
	const struct hist_priv *a = &first_touch_base[*(const u32 *)pa];
	const struct hist_priv *b = &first_touch_base[*(const u32 *)pb];

	if (a->first_time != b->first_time)
		return a->first_time < b->first_time ? -1 : 1;
	if (a->first_off != b->first_off)
		return a->first_off < b->first_off ? -1 : 1;
	return a->first_sub < b->first_sub ? -1 : a->first_sub > b->first_sub;
}

/*
 * @b's entries in the order of their first touches, each its index as
 * id, as one reader makes them; the table is of no more use (only the
 * finish follows).  @new_idx, when given, gets each old index's new one.
 */
static int hist_build__first_touch_order(struct hist_build *b, u32 *new_idx)
{
	struct hist_entry *entries = malloc(b->nr * sizeof(*entries));
	struct hist_priv *priv = malloc(b->nr * sizeof(*priv));
	u32 *order = malloc(b->nr * sizeof(*order));
	int err = -ENOMEM;

	if (b->nr < 2) {
		if (new_idx && b->nr)
			new_idx[0] = 0;
		err = 0;
		goto out;
	}
	if (!entries || !priv || !order)
		goto out;
	for (u32 j = 0; j < b->nr; j++)
		order[j] = j;
	first_touch_base = b->priv;
	qsort(order, b->nr, sizeof(*order), first_touch__cmp);
	memcpy(entries, b->entries, b->nr * sizeof(*entries));
	memcpy(priv, b->priv, b->nr * sizeof(*priv));
	for (u32 j = 0; j < b->nr; j++) {
		b->entries[j] = entries[order[j]];
		b->entries[j].id = j;
		b->priv[j] = priv[order[j]];
		if (new_idx)
			new_idx[order[j]] = j;
	}
	err = 0;
out:
	free(entries);
	free(priv);
	free(order);
	return err;
}

int report_hists__order_merged(struct report_hists *rh,
			       int (*renumber)(void *arg, int hist, const u32 *new_idx, size_t nr),
			       void *arg)
{
	int err = 0;

	if (!rh->merged || rh->ordered)
		return 0;
	for (size_t i = 0; i < rh->nr_hists && !err; i++) {
		struct hist_build *b = &rh->builds[i];
		u32 *new_idx = malloc((b->nr ?: 1) * sizeof(*new_idx));

		err = new_idx ? hist_build__first_touch_order(b, new_idx) : -ENOMEM;
		if (!err && renumber)
			err = renumber(arg, i, new_idx, b->nr);
		free(new_idx);
	}
	rh->ordered = !err;
	return err;
}

const struct report_hist *report_hists__finish(struct report_hists *rh,
					       const struct report_layout *l, size_t *nr)
{
	size_t i, j;

	rh->layout = *l;
	for (i = 0; i < rh->nr_hists; i++) {
		struct hist_build *b = &rh->builds[i];
		struct report_hist *h = &rh->out[i];
		size_t n = 0;

		/* the workers' entries in the order one reader would have made them */
		if (rh->merged && !rh->ordered && hist_build__first_touch_order(b, NULL)) {
			*nr = 0;
			return NULL;
		}

		*h = b->hist;
		h->idx = i;
		h->all_period = h->total_period;
		h->all_samples = h->nr_samples;
		/*
		 * perf's non-filtered totals: the Self of the entries not
		 * filtered, which an entry is for good when the first sample
		 * to make it was (a chain's frame may make it before its own
		 * samples come)
		 */
		h->shown_samples = h->shown_period = 0;
		for (j = 0; j < b->nr; j++) {
			b->priv[j].filtered = hist_build__filtered(rh, b, j);
			if (b->priv[j].filtered)
				continue;
			h->shown_samples += b->priv[j].nr_samples;
			h->shown_period += b->priv[j].period;
		}
		if (rh->relative) {
			h->nr_samples = h->shown_samples;
			h->total_period = h->shown_period;
		}
		h->fprintf_after = rh->fprintf_after;
		h->after_arg = rh->after_arg;
		h->time_slices = rh->time_slices;
		h->children = l->children;
		h->entries = malloc((b->nr ?: 1) * sizeof(*h->entries));
		if (!h->entries) {
			*nr = 0;
			return NULL;
		}
		for (j = 0; j < b->nr; j++) {
			struct hist_entry *e = &b->entries[j];

			/*
			 * filtered entries are not shown, but they shape
			 * perf's input tree, and with the trees' tie rule its
			 * output tree
			 */
			e->filtered = b->priv[j].filtered;
			e->filters = b->priv[j].filtered;
			e->thread_comm = b->priv[j].thread ?
					     str_pool__intern(&rh->strings,
							      thread__comm_str(b->priv[j].thread)) :
					     b->priv[j].thread_comm;
			if (!e->thread_comm)
				e->thread_comm = "";
			e->sym_start = b->priv[j].key.sym_start;
			e->nr_samples = b->priv[j].nr_samples;
			e->period = b->priv[j].period;
			e->children = b->priv[j].children;
			if (rh->depth) {
				e->max_depth = rh->depth(rh->depth_arg, i, j);
				e->thread_tid = b->priv[j].thread_tid;
				e->thread_birth = b->priv[j].thread_birth;
			}
			h->entries[n++] = *e;
		}
		h->nr_entries = n;
		sort_layout = &rh->layout;
		sort_depth = rh->depth != NULL;
		sort_depth_caller = rh->depth_caller;
		/* perf's output order; with the trees' tie rule, as its tree builds it */
		if (n && entries__input_order(h, l)) {
			*nr = 0;
			return NULL;
		}
		if (n && sort_depth) {
			if (entries__rb_order(h->entries, n, entry__cmp_output)) {
				*nr = 0;
				return NULL;
			}
		} else if (n) {
			qsort(h->entries, n, sizeof(*h->entries), entry__qsort_cmp);
		}
		for (j = 0, n = 0; j < h->nr_entries; j++)
			if (!h->entries[j].filtered || rh->keep_filtered)
				h->entries[n++] = h->entries[j];
		h->nr_entries = n;
		if (b->nr_abi)
			qsort(b->abi, b->nr_abi, sizeof(*b->abi), abi_count__cmp);
		h->nr_comms = b->nr_abi;
		h->abi_counts = b->abi;
	}
	*nr = rh->nr_hists;
	return rh->out;
}
