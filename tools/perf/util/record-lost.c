// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <inttypes.h>
#include <string.h>
#include <unistd.h>

#include <linux/perf_event.h>

#include "event.h"
#include "perf-event-open.h"
#include "record-lost.h"

#ifndef PERF_FORMAT_LOST
#define PERF_FORMAT_LOST (1U << 4)
#endif

/*
 * Kernels before 6.0 refuse an unknown read_format bit with EINVAL.  A
 * user-space dummy on ourselves is allowed at any perf_event_paranoid,
 * so any other answer is about the probe, not the bit: assume support
 * and let the real open report what is wrong.
 */
bool record_lost__format_supported(void)
{
	struct perf_event_attr attr = {
	    .type = PERF_TYPE_SOFTWARE,
	    .size = sizeof(attr),
	    .config = PERF_COUNT_SW_DUMMY,
	    .read_format = PERF_FORMAT_ID | PERF_FORMAT_LOST,
	    .disabled = 1,
	    .exclude_kernel = 1,
	    .exclude_hv = 1,
	};
	int fd = sys_perf_event_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);

	if (fd >= 0) {
		close(fd);
		return true;
	}
	return errno != EINVAL;
}

int record_lost__read(int fd, u64 read_format, u64 *lost)
{
	/* value, [time_enabled], [time_running], [id], lost */
	u64 buf[5];
	size_t n = 1;
	ssize_t got;

	if (!(read_format & PERF_FORMAT_LOST) || (read_format & PERF_FORMAT_GROUP))
		return -EINVAL;
	n += !!(read_format & PERF_FORMAT_TOTAL_TIME_ENABLED);
	n += !!(read_format & PERF_FORMAT_TOTAL_TIME_RUNNING);
	n += !!(read_format & PERF_FORMAT_ID);
	got = read(fd, buf, (n + 1) * sizeof(u64));
	if (got < 0)
		return -errno;
	if ((size_t)got != (n + 1) * sizeof(u64))
		return -EIO;
	*lost = buf[n];
	return 0;
}

void record_lost__print(const struct record_lost *l, bool quiet, FILE *fp)
{
	u64 all = l->nr_samples + l->lost_samples;

	if (!quiet)
		fprintf(fp, "[ perf textpoke record: Woken up %" PRIu64 " times to write data ]\n",
			l->wakeups);
	/* perf's ui__warning() words and blank lines, as perf record prints them */
	if (l->nr_chunks)
		fprintf(fp,
			"Warning:\nProcessed %" PRIu64 " events and lost %" PRIu64
			" chunks!\n\nCheck IO/CPU overload!\n\n",
			l->nr_records, l->nr_chunks);
	if (l->lost_samples && (double)l->lost_samples / all > 0.05)
		fprintf(fp, "Warning:\nProcessed %" PRIu64 " samples and lost %3.2f%%!\n\n", all,
			100.0 * l->lost_samples / all);
}
