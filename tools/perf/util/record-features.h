/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __PERF_TEXTPOKE_RECORD_FEATURES_H
#define __PERF_TEXTPOKE_RECORD_FEATURES_H

#include "types.h"

/*
 * The feature sections record writes, and the bookkeeping behind
 * BUILD_ID: which mapped objects samples hit.
 *
 * Hits are kept as the set of distinct user sample pages (a hash set
 * capped at RECORD_HITS_MAX pages; past it new pages are not counted, so
 * a late first hit of an object may miss its build-id) and matched
 * against every executable mapping seen, synthesized or from the kernel,
 * once the recording ends.  Forked children inherit their parent's
 * mappings without records, so matching ignores the pid.
 */
#define RECORD_HITS_MAX (1U << 20)

struct perf_writer;
struct perf_record_mmap2;
struct record_opts;
struct record_event;

struct record_map {
	u64 start, end;
	char *filename;
};

/* open addressing, 0 = empty; at most RECORD_HITS_MAX keys, then @full */
struct record_set {
	u64 *keys;
	u32 nr, alloc;
	bool full;
};

/* the keys of record_hits__sample() found or added lately, one per slot */
#define RECORD_HITS_RECENT 256

struct record_hits {
	u64 *pages; /* open addressing, 0 = empty, page | 1 */
	u32 nr_pages, alloc_pages;
	/* kernel sample ips, callchain entries, text poke sites: the symbols kallsyms keeps */
	struct record_set kernel_ips;
	/* kernel ips known to be in kernel_ips, user pages in pages */
	u64 recent_ips[RECORD_HITS_RECENT], recent_pages[RECORD_HITS_RECENT];
	struct record_map *maps;
	size_t nr_maps, alloc_maps;
};

void record_hits__init(struct record_hits *h);
void record_hits__exit(struct record_hits *h);
void record_hits__sample(struct record_hits *h, u8 cpumode, u32 pid, u64 ip);
void record_hits__mmap(struct record_hits *h, const struct perf_record_mmap2 *m,
		       const char *filename);
void record_hits__kernel_ip(struct record_hits *h, u64 ip);
/*
 * The kernel addresses seen, sorted, in a new array the caller frees;
 * NULL with *@nr 0 when there were too many to keep (or no memory):
 * then every symbol must be kept.
 */
u64 *record_hits__kernel_ips(struct record_hits *h, size_t *nr);
/* synthesize.h's on_mmap hook */
void record_hits__synth_mmap(void *arg, const struct perf_record_mmap2 *m, const char *filename);

/* a group as HEADER_GROUP_DESC holds it: the leader's attr index and the size */
struct record_group {
	u32 leader_idx;
	u32 nr_members;
};

/* HEADER_GROUP_DESC for @nr groups of 2 or more events; 0 or -errno */
int record_features__group_desc(struct perf_writer *w, const struct record_group *groups, int nr);

/* what is known before the first record: host, CPU, command line, tracing data */
int record_features__write_start(struct perf_writer *w, const struct record_opts *opts,
				 const struct record_event *const *tracepoints, int nr_tracepoints);
/* BUILD_ID for the kernel and the objects hit, SAMPLE_TIME; errors are warnings */
void record_features__write_end(struct perf_writer *w, struct record_hits *h, u64 first, u64 last,
				bool build_ids);

#endif /* __PERF_TEXTPOKE_RECORD_FEATURES_H */
