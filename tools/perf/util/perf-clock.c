// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "event.h"
#include "perf-clock.h"
#include "perf-event-open.h"

#define PERF_CLOCK_PAGE 4096

struct perf_clock {
	int fd;
	u8 *page;
	u64 time;
	bool seen;
	struct perf_ring ring; /* last: it holds a 64 KiB bounce buffer */
};

struct perf_clock *perf_clock__new(bool use_clockid, int clockid)
{
	struct perf_event_attr attr = {
	    .type = PERF_TYPE_SOFTWARE,
	    .size = sizeof(attr),
	    .config = PERF_COUNT_SW_PAGE_FAULTS,
	    .sample_period = 1,
	    .sample_type = PERF_SAMPLE_TIME,
	    .exclude_kernel = 1,
	    .exclude_hv = 1,
	    .use_clockid = use_clockid,
	    .clockid = use_clockid ? clockid : 0,
	};
	struct perf_clock *c = calloc(1, sizeof(*c));
	int err;

	if (!c)
		return NULL;
	c->page =
	    mmap(NULL, PERF_CLOCK_PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (c->page == MAP_FAILED) {
		err = errno;
		free(c);
		errno = err;
		return NULL;
	}
	c->fd = sys_perf_event_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	err = c->fd < 0 ? errno : 0;
	if (!err) {
		err = -perf_ring__mmap(&c->ring, c->fd, -1, 1);
		if (err)
			close(c->fd);
	}
	if (err) {
		munmap(c->page, PERF_CLOCK_PAGE);
		free(c);
		errno = err;
		return NULL;
	}
	return c;
}

static int perf_clock__sample(void *ctx, struct perf_ring *ring __maybe_unused,
			      const union perf_event *ev)
{
	struct perf_clock *c = ctx;

	if (ev->header.type == PERF_RECORD_SAMPLE && ev->header.size >= 16) {
		memcpy(&c->time, (const u8 *)ev + 8, sizeof(c->time));
		c->seen = true;
	}
	return 0;
}

int perf_clock__now(struct perf_clock *c, u64 *time)
{
	int err;

	/* what came before (other faults of this thread) is not now */
	err = perf_ring__drain(&c->ring, perf_clock__sample, c);
	if (err < 0)
		return err;
	c->seen = false;
	if (madvise(c->page, PERF_CLOCK_PAGE, MADV_DONTNEED))
		return -errno;
	*(volatile u8 *)c->page = 1;
	err = perf_ring__drain(&c->ring, perf_clock__sample, c);
	if (err < 0)
		return err;
	if (!c->seen)
		return -ENODATA;
	*time = c->time;
	return 0;
}

void perf_clock__delete(struct perf_clock *c)
{
	if (!c)
		return;
	perf_ring__munmap(&c->ring);
	close(c->fd);
	munmap(c->page, PERF_CLOCK_PAGE);
	free(c);
}
