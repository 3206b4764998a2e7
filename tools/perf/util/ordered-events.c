// SPDX-License-Identifier: GPL-2.0-only
/*
 * Time ordering of records, with perf's FINISHED_ROUND contract.
 *
 * The kernel writes each CPU's ring buffer in time order, and perf record
 * drains all buffers in rounds, writing FINISHED_ROUND after each.  A
 * record read in round N can be older than records of round N-1 but not
 * older than anything that was already in the buffers when round N-1
 * started.  So at the end of round N it is safe to deliver everything up
 * to the newest timestamp seen in round N-1:
 *
 *   round N-1: ....|....  max = T1
 *   round N:   ....|....  max = T2      on FINISHED_ROUND(N): deliver <= T1
 *
 * The queue is a binary min-heap on (timestamp, arrival), so records with
 * equal times keep file order.
 *
 * Queued records are copies (the mmap window or stream buffer they came
 * from moves on).  The copies are carved out of 1 MB chunks rather than
 * malloc'd one by one: records leave the queue roughly in the order they
 * entered it, so a chunk empties soon after it fills, and then it is
 * reused or freed.  Each chunk counts its live records.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "event.h"
#include "ordered-events.h"

void ordered_events__init(struct ordered_events *oe, ordered_events__deliver_t deliver, void *arg,
			  u64 max_bytes)
{
	memset(oe, 0, sizeof(*oe));
	oe->deliver = deliver;
	oe->arg = arg;
	oe->max_bytes = max_bytes ?: ORDERED_EVENTS_DEFAULT_MAX_BYTES;
	oe->last_run = -1;
}

#define OE_CHUNK_SIZE (1U << 20)

struct oe_chunk {
	u64 size; /* bytes of data[] */
	u64 used;
	u64 live; /* records carved from it still queued */
	u8 data[];
};

static void oe_chunk__put_record(struct ordered_events *oe, struct oe_chunk *c)
{
	if (--c->live || c == oe->cur_chunk)
		return;
	if (!oe->spare_chunk && c->size == OE_CHUNK_SIZE) {
		oe->spare_chunk = c;
		return;
	}
	free(c);
}

/* room for @size bytes, 8-aligned; NULL without memory */
static void *oe__alloc_record(struct ordered_events *oe, u32 size, struct oe_chunk **chunkp)
{
	struct oe_chunk *c = oe->cur_chunk;
	void *p;

	size = PERF_ALIGN(size, 8);
	if (!c || c->used + size > c->size) {
		u64 want = size > OE_CHUNK_SIZE ? size : OE_CHUNK_SIZE;

		if (want == OE_CHUNK_SIZE && oe->spare_chunk) {
			c = oe->spare_chunk;
			oe->spare_chunk = NULL;
		} else {
			c = malloc(sizeof(*c) + want);
			if (!c)
				return NULL;
			c->size = want;
		}
		c->used = 0;
		c->live = 0;
		/* the old current chunk goes once its last record does */
		if (oe->cur_chunk && !oe->cur_chunk->live) {
			struct oe_chunk *old = oe->cur_chunk;

			oe->cur_chunk = c;
			old->live = 1;
			oe_chunk__put_record(oe, old);
		}
		oe->cur_chunk = c;
	}
	p = c->data + c->used;
	c->used += size;
	c->live++;
	*chunkp = c;
	return p;
}

void ordered_events__exit(struct ordered_events *oe)
{
	u64 i;
	int r;

	/* chunks are freed with their last record; the current one may be empty */
	for (i = 0; i < oe->heap_nr; i++)
		oe_chunk__put_record(oe, oe->heap[i].oe->chunk);
	for (r = 0; r < ORDERED_EVENTS_RUNS; r++) {
		struct ordered_events_run *run = &oe->runs[r];

		for (i = 0; i < run->count; i++)
			oe_chunk__put_record(oe, run->keys[(run->head + i) & run->mask].oe->chunk);
		zfree(&run->keys);
		run->head = run->count = run->mask = 0;
	}
	oe->runs_used = 0;
	oe->last_run = -1;
	if (oe->cur_chunk) {
		struct oe_chunk *c = oe->cur_chunk;

		oe->cur_chunk = NULL;
		if (!c->live)
			free(c);
	}
	zfree(&oe->spare_chunk);
	free(oe->heap);
	oe->heap = NULL;
	oe->nr = oe->heap_nr = oe->alloc = 0;
	oe->cur_bytes = 0;
}

static inline bool oe_less(const struct ordered_event_key *a, const struct ordered_event_key *b)
{
	if (a->timestamp != b->timestamp)
		return a->timestamp < b->timestamp;
	return a->seq < b->seq;
}

static void heap_up(struct ordered_event_key *h, u64 i)
{
	struct ordered_event_key e = h[i];

	while (i) {
		u64 parent = (i - 1) / 2;

		if (!oe_less(&e, &h[parent]))
			break;
		h[i] = h[parent];
		i = parent;
	}
	h[i] = e;
}

static void heap_down(struct ordered_event_key *h, u64 n, u64 i)
{
	struct ordered_event_key e = h[i];

	for (;;) {
		u64 c = 2 * i + 1;

		if (c >= n)
			break;
		if (c + 1 < n && oe_less(&h[c + 1], &h[c]))
			c++;
		if (!oe_less(&h[c], &e))
			break;
		h[i] = h[c];
		i = c;
	}
	h[i] = e;
}

/*
 * Where the oldest record is: a run's index, or ORDERED_EVENTS_RUNS for
 * the heap.  Call with oe->nr > 0.
 */
static int ordered_events__oldest(const struct ordered_events *oe,
				  const struct ordered_event_key **keyp)
{
	const struct ordered_event_key *best = oe->heap_nr ? &oe->heap[0] : NULL;
	int r, where = ORDERED_EVENTS_RUNS;
	u32 used;

	for (used = oe->runs_used; used; used &= used - 1) {
		const struct ordered_events_run *run;
		const struct ordered_event_key *k;

		r = __builtin_ctz(used);
		run = &oe->runs[r];
		k = &run->keys[run->head];
		if (!best || oe_less(k, best)) {
			best = k;
			where = r;
		}
	}
	*keyp = best;
	return where;
}

/* pops the oldest record, found at @where, and hands it over; the queue frees it */
static int __ordered_events__pop(struct ordered_events *oe, int where,
				 const struct ordered_event_key *key)
{
	struct ordered_event *e = key->oe;
	int err;

	if (where == ORDERED_EVENTS_RUNS) {
		oe->heap_nr--;
		if (oe->heap_nr) {
			oe->heap[0] = oe->heap[oe->heap_nr];
			heap_down(oe->heap, oe->heap_nr, 0);
		}
	} else {
		struct ordered_events_run *run = &oe->runs[where];

		run->head = (run->head + 1) & run->mask;
		if (!--run->count)
			oe->runs_used &= ~(1U << where);
	}
	oe->nr--;
	oe->cur_bytes -= e->event->header.size;
	if (!oe->delivered_any || e->timestamp > oe->last_flush)
		oe->last_flush = e->timestamp;
	oe->delivered_any = true;
	err = oe->deliver(oe->arg, e);
	oe_chunk__put_record(oe, e->chunk);
	return err;
}

static int ordered_events__pop(struct ordered_events *oe)
{
	const struct ordered_event_key *key;
	int where = ordered_events__oldest(oe, &key);

	return __ordered_events__pop(oe, where, key);
}

static int ordered_events__flush_upto(struct ordered_events *oe, u64 limit)
{
	const struct ordered_event_key *key;
	int where, err;

	while (oe->nr) {
		where = ordered_events__oldest(oe, &key);
		if (key->timestamp > limit)
			break;
		err = __ordered_events__pop(oe, where, key);
		if (err)
			return err;
	}
	return 0;
}

/* room for one more key at the tail of @run, growing its ring */
static int oe_run__reserve(struct ordered_events_run *run)
{
	struct ordered_event_key *keys;
	u64 n, i;

	if (run->keys && run->count <= run->mask)
		return 0;
	n = run->keys ? 2 * (run->mask + 1) : 256;
	keys = malloc(n * sizeof(*keys));
	if (!keys)
		return -ENOMEM;
	for (i = 0; i < run->count; i++)
		keys[i] = run->keys[(run->head + i) & run->mask];
	free(run->keys);
	run->keys = keys;
	run->head = 0;
	run->mask = n - 1;
	return 0;
}

/*
 * The run @key extends: the one whose newest key is the latest still
 * older than @key (so runs stay long), else an empty one; NULL when it
 * extends none and every run is in use.
 */
static struct ordered_events_run *ordered_events__run_for(struct ordered_events *oe,
							  const struct ordered_event_key *key)
{
	struct ordered_events_run *best = NULL, *empty = NULL;
	int r;

	/*
	 * The common case first: the record extends the run the previous one
	 * did.  Take that one without looking further: best fit only helps
	 * keep runs long, any run the record extends keeps the order right.
	 */
	if (oe->last_run >= 0) {
		best = &oe->runs[oe->last_run];
		if (best->count && !oe_less(key, &best->last))
			return best;
		best = NULL;
	}
	for (r = 0; r < ORDERED_EVENTS_RUNS; r++) {
		struct ordered_events_run *run = &oe->runs[r];

		if (!run->count) {
			if (!empty)
				empty = run;
			continue;
		}
		if (oe_less(key, &run->last))
			continue;
		if (!best || oe_less(&best->last, &run->last))
			best = run;
	}
	return best ?: empty;
}

static int ordered_events__push(struct ordered_events *oe, const struct ordered_event_key *key)
{
	struct ordered_events_run *run = ordered_events__run_for(oe, key);

	if (run && !oe_run__reserve(run)) {
		run->keys[(run->head + run->count) & run->mask] = *key;
		run->count++;
		run->last = *key;
		oe->last_run = run - oe->runs;
		oe->runs_used |= 1U << oe->last_run;
		return 0;
	}
	if (oe->heap_nr == oe->alloc) {
		u64 n = oe->alloc ? oe->alloc * 2 : 1024;
		struct ordered_event_key *heap = realloc(oe->heap, n * sizeof(*heap));

		if (!heap)
			return -ENOMEM;
		oe->heap = heap;
		oe->alloc = n;
	}
	oe->heap[oe->heap_nr] = *key;
	heap_up(oe->heap, oe->heap_nr);
	oe->heap_nr++;
	return 0;
}

int ordered_events__queue(struct ordered_events *oe, const union perf_event *event, u64 timestamp,
			  u64 file_offset, const char *path, void *ctx)
{
	struct ordered_event_key key;
	struct ordered_event *e;
	struct oe_chunk *chunk;
	u32 size = event->header.size;

	e = oe__alloc_record(oe, sizeof(*e) + size, &chunk);
	if (!e)
		return -ENOMEM;
	e->event = (union perf_event *)(e + 1);
	e->chunk = chunk;
	memcpy(e->event, event, size);
	e->timestamp = timestamp;
	e->seq = oe->seq++;
	e->file_offset = file_offset;
	e->path = path;
	e->ctx = ctx;
	key.timestamp = timestamp;
	key.seq = e->seq;
	key.oe = e;
	if (ordered_events__push(oe, &key)) {
		oe->seq--;
		oe_chunk__put_record(oe, chunk);
		return -ENOMEM;
	}
	oe->nr++;
	oe->cur_bytes += size;

	if (oe->delivered_any && timestamp < oe->last_flush)
		oe->nr_unordered++;
	if (timestamp > oe->round_max)
		oe->round_max = timestamp;

	if (oe->cur_bytes > oe->max_bytes) {
		u64 half = oe->nr / 2 ?: 1;

		oe->nr_forced_flushes++;
		while (half--) {
			int err = ordered_events__pop(oe);

			if (err)
				return err;
		}
	}
	return 0;
}

void ordered_events__note(struct ordered_events *oe, u64 timestamp)
{
	if (oe->delivered_any && timestamp < oe->last_flush)
		oe->nr_unordered++;
	if (timestamp > oe->round_max)
		oe->round_max = timestamp;
}

int ordered_events__round(struct ordered_events *oe)
{
	u64 limit = oe->prev_round_max;

	oe->prev_round_max = oe->round_max;
	return ordered_events__flush_upto(oe, limit);
}

int ordered_events__flush_until(struct ordered_events *oe, u64 limit)
{
	return ordered_events__flush_upto(oe, limit);
}

int ordered_events__flush_all(struct ordered_events *oe)
{
	return ordered_events__flush_upto(oe, (u64)-1);
}
