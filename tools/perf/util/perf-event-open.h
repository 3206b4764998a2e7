/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __PERF_TEXTPOKE_PERF_EVENT_OPEN_H
#define __PERF_TEXTPOKE_PERF_EVENT_OPEN_H

#include <linux/perf_event.h>
#include <sys/types.h>

#include "types.h"

/*
 * A small libperf of our own: perf_event_open() and the mmap'ed ring
 * buffer the kernel writes records into.
 *
 * The ring is one control page followed by 2^n data pages.  The kernel
 * advances data_head after writing; we read records between data_tail and
 * data_head and then advance data_tail, which hands the space back:
 *
 *   data:  |....tail=====records=====head..........|
 *                ^ we read from here    ^ kernel writes here
 *
 * data_head is loaded with acquire semantics (the records before it are
 * visible once we see it) and data_tail stored with release (we are done
 * reading before the kernel may overwrite).  A record may wrap the end of
 * the data area: it is copied out into a bounce buffer.
 */

int sys_perf_event_open(struct perf_event_attr *attr, pid_t pid, int cpu, int group_fd,
			unsigned long flags);

struct perf_ring {
	int fd;
	int cpu;	  /* -1 for a per-thread ring */
	void *base;	  /* control page */
	u8 *data;	  /* data area */
	u64 size;	  /* data area size, a power of two */
	u64 lost;	  /* records the kernel reported lost (PERF_RECORD_LOST) */
	u64 lost_samples; /* PERF_RECORD_LOST_SAMPLES */
	u64 bytes;	  /* bytes read so far */
	u8 bounce[65536]; /* a record wrapping the end, copied whole */
};

/* map @pages data pages (a power of two) of @fd; 0 or -errno */
int perf_ring__mmap(struct perf_ring *ring, int fd, int cpu, unsigned int pages);
void perf_ring__munmap(struct perf_ring *ring);

/*
 * Hand every complete record in the ring to @fn, then release the space.
 * Stops at the first non-zero return of @fn and returns it (the records
 * before it are released); returns the number of records otherwise.  A
 * record with an impossible size (< 8 or past head) is -EBADMSG: the ring
 * is then reset to head.
 */
typedef int (*perf_ring_fn)(void *ctx, struct perf_ring *ring, const union perf_event *ev);
int perf_ring__drain(struct perf_ring *ring, perf_ring_fn fn, void *ctx);

/*
 * As perf_ring__drain(), and before the space is released @span is handed
 * the bytes of the records @fn took, in order, as they lie in the ring:
 * whole records in each piece (a record across the ring's end comes alone,
 * from a copy).  Its error is returned as @fn's is.  So a recorder writes
 * the records straight from the ring, as perf record does, instead of
 * copying each.
 */
typedef int (*perf_ring_span_fn)(void *ctx, const void *bytes, size_t len);
int perf_ring__drain_spans(struct perf_ring *ring, perf_ring_fn fn, perf_ring_span_fn span,
			   void *ctx);

/*
 * The ring's bytes from tail to head handed to @span as they lie, in one
 * piece or two (split where the ring ends, a record maybe cut there),
 * without looking at a record: for an output where the pieces land one
 * after the other and the records are read back later, as perf record
 * writes its rings.  1 when there was something, 0 when not, @span's
 * error (the space not released), or -EBADMSG for a head more than the
 * ring ahead of the tail (the ring is then reset to head).
 */
int perf_ring__drain_raw(struct perf_ring *ring, perf_ring_span_fn span, void *ctx);

/* PERF_EVENT_IOC_ID; 0 or -errno */
int perf_event__id(int fd, u64 *id);

#endif /* __PERF_TEXTPOKE_PERF_EVENT_OPEN_H */
