/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __PERF_TEXTPOKE_REPORT_CHAIN_CACHE_H
#define __PERF_TEXTPOKE_REPORT_CHAIN_CACHE_H

#include <stdbool.h>
#include <stddef.h>

#include "types.h"

/*
 * What a recorded callchain did to the report the last time it came: the
 * entries it added Children to and the gathered chain of the trees.  Most
 * samples of a profile repeat a chain already seen (a loop's few return
 * addresses under a few leaf addresses); their frames need not be resolved,
 * keyed and gathered again.
 *
 * A chain's frames resolve the same way only while the maps they were
 * found in stay as they were: the key holds the maps' generations (see
 * maps__gen()), and frames resolved by time (BPF programs, modules that go)
 * are never cached.  Everything else the walk used is in the key: the
 * event, the thread and its command, the sample's own entry (its place),
 * whether filters hid it.
 */
struct chain_cache_key {
	const void *thread;
	const void *maps; /* the thread's maps */
	u64 maps_gen;
	u64 kmaps_gen;
	const char *comm; /* interned: equal names, equal pointers */
	s32 pid, tid;
	u32 self; /* the sample's entry */
	int hist;
	unsigned int filtered; /* REPORT_FILTER_*: which filters hid the sample */
	const u64 *ips;	       /* as recorded, context markers included */
	u32 nr;
};

struct chain_cached {
	const u32 *entries; /* Children's entries, each once, the sample's own left out */
	u32 nr_entries;
	u32 rec; /* the trees' gathered chain, CHAIN_CACHE_NO_REC: no trees */
};

#define CHAIN_CACHE_NO_REC UINT32_MAX

struct chain_cache;

struct chain_cache *chain_cache__new(void);
void chain_cache__delete(struct chain_cache *c);

u64 chain_cache_key__hash(const struct chain_cache_key *k);
/* the chain's effects, or false: not seen under this key */
bool chain_cache__find(struct chain_cache *c, const struct chain_cache_key *k, u64 hash,
		       struct chain_cached *out);
/*
 * Keep @k's effects.  The cache holds a bounded amount: past it, it
 * starts again empty (a chain not found is walked, never wrong).
 */
int chain_cache__add(struct chain_cache *c, const struct chain_cache_key *k, u64 hash,
		     const u32 *entries, u32 nr_entries, u32 rec);

#endif /* __PERF_TEXTPOKE_REPORT_CHAIN_CACHE_H */
