/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __PERF_TEXTPOKE_TIME_UTILS_H
#define __PERF_TEXTPOKE_TIME_UTILS_H

#include "types.h"

/*
 * A moment as perf script prints it: decimal seconds, optionally with a
 * fraction ("12345.678901", "347"), into nanoseconds; digits past the
 * ninth do not count, as perf keeps nanoseconds.  -EINVAL for anything
 * else or a value past what u64 nanoseconds hold.
 */
int parse_nsec_time(const char *str, u64 *ns);

/* One --time range in nanoseconds; 0 leaves that end open */
struct perf_time_interval {
	u64 start, end;
};

/*
 * perf's --time, as perf 6.1's script and report take it:
 *
 *   "a,b"          seconds, either end may be left out ("a," ",b")
 *   "a,b c,d"      several ranges, blank-separated, in order, not overlapping
 *   "10%"          the first tenth of [first, last]
 *   "10%/2"        the second tenth; "10%/2,10%/4" several slices
 *   "0%-10%"       a span; "0%-10%,50%-60%" several
 *
 * where [first, last] is the recording's first and last sample time
 * (HEADER_SAMPLE_TIME).  A percent slice ends one nanosecond short of the
 * next unless it reaches @last, so adjacent slices do not share a sample.
 * @reltime: the seconds (and percentages) are counted from @first, open
 * ends included, as perf script --reltime does.
 *
 * Returns the number of ranges, stored in a calloc()ed *@out the caller
 * frees; -EINVAL for a string perf refuses, -ENODATA when percentages or
 * @reltime need sample times the recording lacks (@first and @last 0).
 */
int perf_time__parse_ranges(const char *str, u64 first, u64 last, bool reltime,
			    struct perf_time_interval **out);
/*
 * The same for a --time option of report and annotate: the number of
 * ranges, or -EINVAL with perf's complaint printed (naming @path when
 * the percentages need sample times it lacks)
 */
int perf_time__parse_option(const char *str, u64 first, u64 last, const char *path,
			    struct perf_time_interval **out);

/*
 * Whether a sample at @t falls outside every range.  Time 0 (no
 * PERF_SAMPLE_TIME) is never left out, as perf does.
 */
bool perf_time__ranges_skip(const struct perf_time_interval *r, int nr, u64 t);

#endif /* __PERF_TEXTPOKE_TIME_UTILS_H */
