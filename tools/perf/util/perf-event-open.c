// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "event.h"
#include "perf-event-open.h"

int sys_perf_event_open(struct perf_event_attr *attr, pid_t pid, int cpu, int group_fd,
			unsigned long flags)
{
	return syscall(__NR_perf_event_open, attr, pid, cpu, group_fd, flags);
}

int perf_event__id(int fd, u64 *id)
{
	return ioctl(fd, PERF_EVENT_IOC_ID, id) < 0 ? -errno : 0;
}

int perf_ring__mmap(struct perf_ring *ring, int fd, int cpu, unsigned int pages)
{
	long page_size = sysconf(_SC_PAGESIZE);
	void *base;

	if (!pages || (pages & (pages - 1)))
		return -EINVAL;
	base =
	    mmap(NULL, (size_t)(pages + 1) * page_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (base == MAP_FAILED)
		return -errno;
	ring->fd = fd;
	ring->cpu = cpu;
	ring->base = base;
	ring->data = (u8 *)base + page_size;
	ring->size = (u64)pages * page_size;
	ring->lost = 0;
	ring->lost_samples = 0;
	ring->bytes = 0;
	return 0;
}

void perf_ring__munmap(struct perf_ring *ring)
{
	if (ring->base)
		munmap(ring->base, ring->size + sysconf(_SC_PAGESIZE));
	ring->base = NULL;
	ring->data = NULL;
}

/* the bytes of [@from, @to) of the ring, in one piece or two, split where the ring ends */
static int perf_ring__spans(struct perf_ring *ring, u64 from, u64 to, perf_ring_span_fn span,
			    void *ctx)
{
	u64 off = from & (ring->size - 1), len = to - from;
	int err;

	if (!span || !len)
		return 0;
	if (off + len <= ring->size)
		return span(ctx, ring->data + off, len);
	err = span(ctx, ring->data + off, ring->size - off);
	return err ? err : span(ctx, ring->data, len - (ring->size - off));
}

int perf_ring__drain_spans(struct perf_ring *ring, perf_ring_fn fn, perf_ring_span_fn span,
			   void *ctx)
{
	struct perf_event_mmap_page *pc = ring->base;
	u64 head, tail, mask = ring->size - 1;
	u64 start;
	int n = 0, err = 0, span_err = 0;

	if (!pc)
		return 0;
	head = __atomic_load_n(&pc->data_head, __ATOMIC_ACQUIRE);
	tail = start = pc->data_tail;
	while (tail < head) {
		const struct perf_event_header *h;
		u64 off = tail & mask;
		u16 size;

		if (head - tail < sizeof(*h))
			goto bad;
		/* the header itself may wrap: copy it byte by byte */
		if (off + sizeof(*h) > ring->size) {
			u8 *dst = ring->bounce;

			for (size_t i = 0; i < sizeof(*h); i++)
				dst[i] = ring->data[(off + i) & mask];
			h = (const void *)dst;
		} else {
			h = (const void *)(ring->data + off);
		}
		size = h->size;
		if (size < sizeof(*h) || size > head - tail)
			goto bad;
		if (off + size > ring->size) {
			u64 first = ring->size - off;

			memcpy(ring->bounce, ring->data + off, first);
			memcpy(ring->bounce + first, ring->data, size - first);
			h = (const void *)ring->bounce;
		}
		if (h->type == PERF_RECORD_LOST && size >= sizeof(struct perf_record_lost))
			ring->lost += ((const struct perf_record_lost *)h)->lost;
		else if (h->type == PERF_RECORD_LOST_SAMPLES &&
			 size >= sizeof(struct perf_record_lost_samples))
			ring->lost_samples += ((const struct perf_record_lost_samples *)h)->lost;
		err = fn(ctx, ring, (const union perf_event *)h);
		if (err)
			break;
		/* a record across the ring's end goes whole, from its copy */
		if (span && off + size > ring->size) {
			span_err = perf_ring__spans(ring, start, tail, span, ctx);
			if (!span_err)
				span_err = span(ctx, h, size);
			if (span_err)
				return span_err;
			start = tail + size;
		}
		tail += size;
		ring->bytes += size;
		n++;
	}
	span_err = perf_ring__spans(ring, start, tail, span, ctx);
	__atomic_store_n(&pc->data_tail, tail, __ATOMIC_RELEASE);
	return err ? err : span_err ? span_err : n;
bad:
	/* the records before it are whole; after it, nothing sane to resynchronise on: dropped */
	span_err = perf_ring__spans(ring, start, tail, span, ctx);
	__atomic_store_n(&pc->data_tail, head, __ATOMIC_RELEASE);
	return span_err ? span_err : -EBADMSG;
}

int perf_ring__drain_raw(struct perf_ring *ring, perf_ring_span_fn span, void *ctx)
{
	struct perf_event_mmap_page *pc = ring->base;
	u64 head, tail;
	int err;

	if (!pc)
		return 0;
	head = __atomic_load_n(&pc->data_head, __ATOMIC_ACQUIRE);
	tail = pc->data_tail;
	if (head == tail)
		return 0;
	if (head - tail > ring->size) {
		__atomic_store_n(&pc->data_tail, head, __ATOMIC_RELEASE);
		return -EBADMSG;
	}
	err = perf_ring__spans(ring, tail, head, span, ctx);
	if (err)
		return err;
	ring->bytes += head - tail;
	__atomic_store_n(&pc->data_tail, head, __ATOMIC_RELEASE);
	return 1;
}

int perf_ring__drain(struct perf_ring *ring, perf_ring_fn fn, void *ctx)
{
	return perf_ring__drain_spans(ring, fn, NULL, ctx);
}
