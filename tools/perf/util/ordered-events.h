/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __PERF_TEXTPOKE_ORDERED_EVENTS_H
#define __PERF_TEXTPOKE_ORDERED_EVENTS_H

#include "types.h"

union perf_event;
struct oe_chunk;

/*
 * Records waiting to be delivered in time order.  Each queued record is
 * copied (the file window it came from moves on), so the queue owns its
 * memory and caps it: past max_bytes the oldest half is delivered early
 * (nr_forced_flushes counts how often), which keeps memory bounded on
 * recordings without FINISHED_ROUND at the price of possibly delivering
 * a later-arriving older record out of order (counted as unordered).
 */
struct ordered_event {
	u64 timestamp;
	u64 seq; /* arrival order: ties keep file order */
	u64 file_offset;
	const char *path; /* the file it came from (perf.data/data.N), for messages */
	union perf_event *event;
	struct oe_chunk *chunk; /* where the copy of the record lives */
	void *ctx;		/* the queuer's, handed back with the record */
};

/*
 * What the heap moves around: the sort key and the record, whose details
 * sit in its chunk just before the copy of the record.
 */
struct ordered_event_key {
	u64 timestamp;
	u64 seq;
	struct ordered_event *oe;
};

typedef int (*ordered_events__deliver_t)(void *arg, struct ordered_event *oe);

/*
 * A run: keys queued in increasing order, kept as a FIFO (a ring of
 * mask + 1 slots).  Each CPU's buffer arrives in time order, so nearly
 * every record extends a run and costs no heap work at all.
 */
struct ordered_events_run {
	struct ordered_event_key *keys;
	u64 head, count, mask;
	struct ordered_event_key last; /* the newest key appended */
};

#define ORDERED_EVENTS_RUNS 8

struct ordered_events {
	/* records that extend no run */
	struct ordered_event_key *heap;
	u64 heap_nr, alloc;
	u64 nr; /* queued in all: runs and heap */
	struct ordered_events_run runs[ORDERED_EVENTS_RUNS];
	u32 runs_used; /* bit r: runs[r] holds records */
	int last_run;  /* the run the previous record extended, or -1 */
	u64 seq;
	u64 cur_bytes;
	u64 max_bytes;
	u64 last_flush;	    /* timestamp of the newest record delivered */
	u64 round_max;	    /* newest timestamp queued in this round */
	u64 prev_round_max; /* ... and in the previous one */
	u64 nr_unordered;   /* queued older than something already delivered */
	u64 nr_forced_flushes;
	bool delivered_any;
	struct oe_chunk *cur_chunk;   /* copies are carved from here */
	struct oe_chunk *spare_chunk; /* one emptied chunk kept for reuse */
	ordered_events__deliver_t deliver;
	void *arg;
};

/* 512 MB: far above what one round of a busy 64-cpu recording holds */
#define ORDERED_EVENTS_DEFAULT_MAX_BYTES (512ULL << 20)

void ordered_events__init(struct ordered_events *oe, ordered_events__deliver_t deliver, void *arg,
			  u64 max_bytes);
void ordered_events__exit(struct ordered_events *oe);
/* copies @event, kept with @ctx; may deliver the oldest half when over the cap */
int ordered_events__queue(struct ordered_events *oe, const union perf_event *event, u64 timestamp,
			  u64 file_offset, const char *path, void *ctx);
/*
 * A record at @timestamp the tool skips: counted as unordered and
 * raising the round's high mark as if it were queued, so that the
 * figures and the flushes stay those of a pass that queues it.
 */
void ordered_events__note(struct ordered_events *oe, u64 timestamp);
/* FINISHED_ROUND: deliver up to the previous round's newest timestamp */
int ordered_events__round(struct ordered_events *oe);
/* deliver everything (end of the data) */
int ordered_events__flush_all(struct ordered_events *oe);
/* delivers every record up to @limit (inclusive), as a round ending there would */
int ordered_events__flush_until(struct ordered_events *oe, u64 limit);

#endif /* __PERF_TEXTPOKE_ORDERED_EVENTS_H */
