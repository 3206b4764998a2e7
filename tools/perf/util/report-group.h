/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __PERF_TEXTPOKE_REPORT_GROUP_H
#define __PERF_TEXTPOKE_REPORT_GROUP_H

#include "report-hist.h"
#include "types.h"

/*
 * perf report's event groups: the recording's HEADER_GROUP_DESC, and the
 * blocks perf report --stdio prints from the events' histograms, one per
 * group leader with a value column per member (--group, perf 6.1's
 * default when the recording has groups), or one per event.
 */
struct report_group {
	char *name; /* NULL: perf's "anon group" */
	u32 leader; /* the leader's event index; its members follow it */
	u32 nr_members;
	/* --group on a recording without groups: named "a, b", no braces */
	bool forced;
};

struct report_groups {
	size_t nr;
	struct report_group *groups;
};

/*
 * HEADER_GROUP_DESC's payload: u32 count, then per group a string (u32
 * length, NUL-padded bytes), the leader's index and the size, u32 each.
 * 0, -ENOMEM, or -EINVAL with the reason said (naming @path).
 */
int report_groups__parse(struct report_groups *g, const void *buf, u64 size, const char *path);
void report_groups__exit(struct report_groups *g);

struct block_mem;

/* what report__fprintf() prints: one histogram a block */
struct report_blocks {
	size_t nr;
	struct report_hist *hists; /* shallow copies, or a group's own */
	struct block_mem *mem;	   /* what a group's block owns */
};

/*
 * The blocks of @hists (@nr events) as @l sorts them: with @group, each
 * group of more than one event as one block in which an entry of any
 * member has a row (perf's hists__match() and hists__link()), sorted on
 * the leader's value then the members'; else every event its own block.
 * @names: the events' names (a member without samples has none in @hists).
 * @depth: with trees, perf's tie of equal Children of one thread: 1 the
 * deeper longest chain first (caller order), -1 the shallower, 0 none;
 * each row then gets the leader's tree of its entry.
 * 0 or -ENOMEM.
 */
int report_blocks__build(struct report_blocks *b, const struct report_hist *hists, size_t nr,
			 const struct report_groups *g, bool group, const struct report_layout *l,
			 const char *const *names, int depth);
void report_blocks__exit(struct report_blocks *b);

/*
 * The id of a group block's row that only a member has: perf's dummy
 * leader entry, which has no call-graph tree
 */
#define REPORT_GROUP_NO_TREE UINT32_MAX

#endif /* __PERF_TEXTPOKE_REPORT_GROUP_H */
