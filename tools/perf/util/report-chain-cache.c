// SPDX-License-Identifier: GPL-2.0-only
/*
 * The callchains report has seen, with what each did to the entries and
 * the trees (report-chain-cache.h says why and when it is valid).
 *
 * An open-addressing table of records; each record's recorded addresses
 * and entries in two pools.  All of it is bounded: a profile of more
 * distinct chains than fit starts the cache again, so memory stays flat
 * however big the recording.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "report-chain-cache.h"

/* bounds: some 20 MB at most, far more chains than a profile's hot ones */
#define CC_MAX_RECS (1U << 17)
#define CC_MAX_IPS (1U << 20)
#define CC_MAX_ENTRIES (1U << 20)

struct cc_rec {
	u64 hash;
	const void *thread;
	const void *maps;
	u64 maps_gen;
	u64 kmaps_gen;
	const char *comm;
	s32 pid, tid;
	u32 self;
	int hist;
	u32 ips, nr;	     /* in the ips pool */
	u32 entries, nr_ent; /* in the entries pool */
	u32 rec;
	unsigned int filtered;
};

struct chain_cache {
	u32 *table; /* record index + 1, 0: free */
	size_t table_size;
	struct cc_rec *recs;
	size_t nr_recs, alloc_recs;
	u64 *ips;
	size_t nr_ips, alloc_ips;
	u32 *entries;
	size_t nr_entries, alloc_entries;
};

struct chain_cache *chain_cache__new(void)
{
	return calloc(1, sizeof(struct chain_cache));
}

void chain_cache__delete(struct chain_cache *c)
{
	if (!c)
		return;
	free(c->table);
	free(c->recs);
	free(c->ips);
	free(c->entries);
	free(c);
}

/* a multiply per word, then one avalanche (splitmix64's finaliser) */
static inline u64 cc_step(u64 h, u64 v)
{
	h = (h ^ v) * 0x9e3779b97f4a7c15ULL;
	return h ^ (h >> 32);
}

u64 chain_cache_key__hash(const struct chain_cache_key *k)
{
	u64 h = cc_step((uintptr_t)k->thread, k->self);

	h = cc_step(h, ((u64)(u32)k->hist << 32) | k->nr);
	for (u32 i = 0; i < k->nr; i++)
		h = cc_step(h, k->ips[i]);
	h ^= h >> 30;
	h *= 0xbf58476d1ce4e5b9ULL;
	h ^= h >> 27;
	h *= 0x94d049bb133111ebULL;
	return h ^ (h >> 31);
}

static bool cc_rec__equal(const struct chain_cache *c, const struct cc_rec *r,
			  const struct chain_cache_key *k, u64 hash)
{
	return r->hash == hash && r->thread == k->thread && r->self == k->self &&
	       r->hist == k->hist && r->nr == k->nr && r->maps == k->maps &&
	       r->maps_gen == k->maps_gen && r->kmaps_gen == k->kmaps_gen && r->comm == k->comm &&
	       r->pid == k->pid && r->tid == k->tid && r->filtered == k->filtered &&
	       !memcmp(c->ips + r->ips, k->ips, k->nr * sizeof(*k->ips));
}

bool chain_cache__find(struct chain_cache *c, const struct chain_cache_key *k, u64 hash,
		       struct chain_cached *out)
{
	size_t j;

	if (!c->table_size)
		return false;
	for (j = hash & (c->table_size - 1); c->table[j]; j = (j + 1) & (c->table_size - 1)) {
		const struct cc_rec *r = &c->recs[c->table[j] - 1];

		if (!cc_rec__equal(c, r, k, hash))
			continue;
		out->entries = c->entries + r->entries;
		out->nr_entries = r->nr_ent;
		out->rec = r->rec;
		return true;
	}
	return false;
}

/* the cache empty again, its memory kept */
static void chain_cache__reset(struct chain_cache *c)
{
	if (c->table)
		memset(c->table, 0, c->table_size * sizeof(*c->table));
	c->nr_recs = 0;
	c->nr_ips = 0;
	c->nr_entries = 0;
}

static int cc_reserve(void **mem, size_t *alloc, size_t need, size_t size)
{
	size_t n = *alloc ? *alloc : 1024;
	void *p;

	if (need <= *alloc)
		return 0;
	while (n < need)
		n *= 2;
	p = realloc(*mem, n * size);
	if (!p)
		return -ENOMEM;
	*mem = p;
	*alloc = n;
	return 0;
}

static int chain_cache__grow_table(struct chain_cache *c)
{
	size_t size = c->table_size ? 2 * c->table_size : 4096, i, j;
	u32 *table = calloc(size, sizeof(*table));

	if (!table)
		return -ENOMEM;
	for (i = 0; i < c->nr_recs; i++) {
		for (j = c->recs[i].hash & (size - 1); table[j]; j = (j + 1) & (size - 1))
			;
		table[j] = i + 1;
	}
	free(c->table);
	c->table = table;
	c->table_size = size;
	return 0;
}

int chain_cache__add(struct chain_cache *c, const struct chain_cache_key *k, u64 hash,
		     const u32 *entries, u32 nr_entries, u32 rec)
{
	struct cc_rec *r;
	size_t j;

	if (k->nr > CC_MAX_IPS / 4 || nr_entries > CC_MAX_ENTRIES / 4)
		return 0; /* never worth it */
	if (c->nr_recs == CC_MAX_RECS || c->nr_ips + k->nr > CC_MAX_IPS ||
	    c->nr_entries + nr_entries > CC_MAX_ENTRIES)
		chain_cache__reset(c);
	if ((c->nr_recs + 1) * 2 > c->table_size && chain_cache__grow_table(c))
		return -ENOMEM;
	if (cc_reserve((void **)&c->recs, &c->alloc_recs, c->nr_recs + 1, sizeof(*c->recs)) ||
	    cc_reserve((void **)&c->ips, &c->alloc_ips, c->nr_ips + k->nr, sizeof(*c->ips)) ||
	    cc_reserve((void **)&c->entries, &c->alloc_entries, c->nr_entries + nr_entries,
		       sizeof(*c->entries)))
		return -ENOMEM;
	r = &c->recs[c->nr_recs];
	*r = (struct cc_rec){
	    .hash = hash,
	    .thread = k->thread,
	    .maps = k->maps,
	    .maps_gen = k->maps_gen,
	    .kmaps_gen = k->kmaps_gen,
	    .comm = k->comm,
	    .pid = k->pid,
	    .tid = k->tid,
	    .self = k->self,
	    .hist = k->hist,
	    .ips = c->nr_ips,
	    .nr = k->nr,
	    .entries = c->nr_entries,
	    .nr_ent = nr_entries,
	    .rec = rec,
	    .filtered = k->filtered,
	};
	memcpy(c->ips + c->nr_ips, k->ips, k->nr * sizeof(*k->ips));
	c->nr_ips += k->nr;
	if (nr_entries)
		memcpy(c->entries + c->nr_entries, entries, nr_entries * sizeof(*entries));
	c->nr_entries += nr_entries;
	for (j = hash & (c->table_size - 1); c->table[j]; j = (j + 1) & (c->table_size - 1))
		;
	c->table[j] = ++c->nr_recs;
	return 0;
}
