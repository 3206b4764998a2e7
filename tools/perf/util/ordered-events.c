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
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "event.h"
#include "ordered-events.h"

void ordered_events__init(struct ordered_events *oe, ordered_events__deliver_t deliver,
			  void *arg, u64 max_bytes)
{
	memset(oe, 0, sizeof(*oe));
	oe->deliver = deliver;
	oe->arg = arg;
	oe->max_bytes = max_bytes ?: ORDERED_EVENTS_DEFAULT_MAX_BYTES;
}

void ordered_events__exit(struct ordered_events *oe)
{
	u64 i;

	for (i = 0; i < oe->nr; i++)
		free(oe->heap[i].event);
	free(oe->heap);
	oe->heap = NULL;
	oe->nr = oe->alloc = 0;
	oe->cur_bytes = 0;
}

static bool oe_less(const struct ordered_event *a, const struct ordered_event *b)
{
	if (a->timestamp != b->timestamp)
		return a->timestamp < b->timestamp;
	return a->seq < b->seq;
}

static void heap_up(struct ordered_event *h, u64 i)
{
	struct ordered_event e = h[i];

	while (i) {
		u64 parent = (i - 1) / 2;

		if (!oe_less(&e, &h[parent]))
			break;
		h[i] = h[parent];
		i = parent;
	}
	h[i] = e;
}

static void heap_down(struct ordered_event *h, u64 n, u64 i)
{
	struct ordered_event e = h[i];

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

/* pops the oldest record and hands it over; the queue frees it */
static int ordered_events__pop(struct ordered_events *oe)
{
	struct ordered_event top = oe->heap[0];
	int err;

	oe->nr--;
	if (oe->nr) {
		oe->heap[0] = oe->heap[oe->nr];
		heap_down(oe->heap, oe->nr, 0);
	}
	oe->cur_bytes -= top.event->header.size;
	if (!oe->delivered_any || top.timestamp > oe->last_flush)
		oe->last_flush = top.timestamp;
	oe->delivered_any = true;
	err = oe->deliver(oe->arg, &top);
	free(top.event);
	return err;
}

static int ordered_events__flush_upto(struct ordered_events *oe, u64 limit)
{
	int err;

	while (oe->nr && oe->heap[0].timestamp <= limit) {
		err = ordered_events__pop(oe);
		if (err)
			return err;
	}
	return 0;
}

int ordered_events__queue(struct ordered_events *oe, const union perf_event *event,
			  u64 timestamp, u64 file_offset, const char *path)
{
	struct ordered_event *e;
	u32 size = event->header.size;

	if (oe->nr == oe->alloc) {
		u64 n = oe->alloc ? oe->alloc * 2 : 1024;

		e = realloc(oe->heap, n * sizeof(*e));
		if (!e)
			return -ENOMEM;
		oe->heap = e;
		oe->alloc = n;
	}
	e = &oe->heap[oe->nr];
	e->event = malloc(size);
	if (!e->event)
		return -ENOMEM;
	memcpy(e->event, event, size);
	e->timestamp = timestamp;
	e->seq = oe->seq++;
	e->file_offset = file_offset;
	e->path = path;
	heap_up(oe->heap, oe->nr);
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

int ordered_events__round(struct ordered_events *oe)
{
	u64 limit = oe->prev_round_max;

	oe->prev_round_max = oe->round_max;
	return ordered_events__flush_upto(oe, limit);
}

int ordered_events__flush_all(struct ordered_events *oe)
{
	return ordered_events__flush_upto(oe, (u64)-1);
}
