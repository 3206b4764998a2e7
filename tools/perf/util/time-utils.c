// SPDX-License-Identifier: GPL-2.0-only
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "debug.h"
#include "time-utils.h"

#define NSEC_PER_SEC 1000000000ULL

int parse_nsec_time(const char *str, u64 *ns)
{
	unsigned long long sec, frac = 0;
	const char *p;
	char *end;
	int digits = 0;

	/* strtoull() alone would take signs, blanks and "0x" too */
	if (*str < '0' || *str > '9')
		return -EINVAL;
	errno = 0;
	sec = strtoull(str, &end, 10);
	if (errno || sec > UINT64_MAX / NSEC_PER_SEC - 1)
		return -EINVAL;
	p = end;
	if (*p == '.') {
		for (p++; *p >= '0' && *p <= '9'; p++) {
			if (digits++ < 9)
				frac = frac * 10 + (*p - '0');
		}
		for (; digits < 9; digits++)
			frac *= 10;
	}
	if (*p)
		return -EINVAL;
	*ns = sec * NSEC_PER_SEC + frac;
	return 0;
}

/*
 * A --time bound: blanks, seconds, an optional fraction of at most nine
 * digits (perf refuses a tenth rather than drop it), nothing else.
 */
static int parse_bound(const char *s, size_t len, u64 *ns)
{
	const char *end = s + len;
	u64 sec = 0, frac = 0;
	int digits = 0;

	*ns = 0;
	while (s < end && isspace((unsigned char)*s))
		s++;
	if (s == end)
		return 0; /* an open end */
	for (; s < end && isdigit((unsigned char)*s); s++) {
		if (sec > (UINT64_MAX / NSEC_PER_SEC - 1) / 10)
			return -EINVAL;
		sec = sec * 10 + (*s - '0');
	}
	if (s < end && *s == '.') {
		for (s++; s < end && isdigit((unsigned char)*s); s++, digits++)
			frac = frac * 10 + (*s - '0');
		if (digits > 9)
			return -EINVAL;
		for (; digits < 9; digits++)
			frac *= 10;
	}
	if (s != end)
		return -EINVAL;
	*ns = sec * NSEC_PER_SEC + frac;
	return 0;
}

/* "start,end" with @comma inside [s, s + len) */
static int parse_interval(const char *s, size_t len, const char *comma,
			  struct perf_time_interval *r)
{
	if (parse_bound(s, comma - s, &r->start) ||
	    parse_bound(comma + 1, s + len - comma - 1, &r->end))
		return -EINVAL;
	if (r->end && r->end < r->start)
		return -EINVAL;
	return 0;
}

/*
 * Seconds: one comma per range, so the commas count them.  A range other
 * than the last ends at the first blank after its end bound (blanks may
 * follow its comma); the last takes the rest of the string.
 */
static int parse_second_ranges(const char *str, struct perf_time_interval *r, int nr)
{
	const char *p = str;
	int i;

	for (i = 0; i < nr - 1; i++) {
		const char *comma = strchr(p, ','), *q = comma + 1;

		while (isspace((unsigned char)*q))
			q++;
		for (; *q && !isspace((unsigned char)*q); q++)
			if (*q == ',')
				return -EINVAL;
		if (parse_interval(p, q - p, comma, &r[i]))
			return -EINVAL;
		p = *q ? q + 1 : q;
	}
	if (parse_interval(p, strlen(p), strchr(p, ','), &r[i]))
		return -EINVAL;
	for (i = 0; i < nr - 1; i++)
		if (r[i].end >= r[i + 1].start)
			return -EINVAL;
	return nr;
}

/* "12.5%" (anything between the '%' and @end is ignored, as perf does) as a fraction */
static int parse_percent(const char *s, const char *end, double *frac)
{
	const char *pct = memchr(s, '%', end - s);
	char buf[64], *stop;
	double v;

	if (!pct || pct == s || (size_t)(pct - s) >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, s, pct - s);
	buf[pct - s] = 0;
	v = strtod(buf, &stop);
	if (*stop || !isfinite(v))
		return -EINVAL;
	*frac = v / 100.0;
	return 0;
}

/* perf computes in doubles; so do we, to land on the same nanosecond */
static int percent_interval(double a, double b, u64 first, u64 last, struct perf_time_interval *r)
{
	u64 total = last - first;

	if (a < 0.0 || a > 1.0 || b < 0.0 || b > 1.0)
		return -EINVAL;
	r->start = (u64)((double)first + round(a * (double)total));
	r->end = (u64)((double)first + round(b * (double)total));
	if (r->end > r->start && r->end != last)
		r->end--;
	return 0;
}

/* "10%/2": the second slice of 10% */
static int percent_slice(const char *s, const char *end, u64 first, u64 last,
			 struct perf_time_interval *r)
{
	const char *slash = memchr(s, '/', end - s);
	char buf[32], *stop;
	double pct;
	long n;

	if (!slash || parse_percent(s, slash, &pct) || pct <= 0.0 ||
	    (size_t)(end - slash) >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, slash + 1, end - slash - 1);
	buf[end - slash - 1] = 0;
	errno = 0;
	n = strtol(buf, &stop, 10);
	if (*stop || errno || n < INT_MIN || n > INT_MAX)
		return -EINVAL;
	return percent_interval(pct * (n - 1), pct * n, first, last, r);
}

/* "0%-10%" */
static int percent_span(const char *s, const char *end, u64 first, u64 last,
			struct perf_time_interval *r)
{
	const char *dash = memchr(s, '-', end - s);
	double a, b;

	if (!dash || parse_percent(s, dash, &a) || parse_percent(dash + 1, end, &b))
		return -EINVAL;
	return percent_interval(a, b, first, last, r);
}

/*
 * One '/' anywhere makes every comma-separated piece a slice, else one
 * '-' makes each a span; a lone "N%" (its only '%' last) is "N%/1".
 */
static int parse_percent_ranges(const char *str, u64 first, u64 last, struct perf_time_interval *r,
				int nr)
{
	int (*piece)(const char *, const char *, u64, u64, struct perf_time_interval *);
	const char *p = str, *end = str + strlen(str);
	int i = 0;

	if (strchr(str, '/')) {
		piece = percent_slice;
	} else if (strchr(str, '-')) {
		piece = percent_span;
	} else {
		const char *pct = strchr(str, '%');
		double v;

		if (!pct || pct != end - 1 || parse_percent(str, end, &v) || v <= 0.0)
			return -EINVAL;
		return percent_interval(0, v, first, last, r) ? -EINVAL : 1;
	}
	while (p < end) {
		const char *comma = strchr(p, ',') ?: end;

		if (i == nr || piece(p, comma, first, last, &r[i]))
			return -EINVAL;
		i++;
		if (comma == end)
			break;
		p = comma + 1;
	}
	return i;
}

int perf_time__parse_ranges(const char *str, u64 first, u64 last, bool reltime,
			    struct perf_time_interval **out)
{
	bool percent = strchr(str, '%') != NULL;
	struct perf_time_interval *r;
	int i, nr = 1;

	*out = NULL;
	if ((percent || reltime) && !first && !last)
		return -ENODATA;
	for (i = 0; str[i]; i++)
		nr += str[i] == ',';
	if (!percent && nr == 1)
		return -EINVAL;
	r = calloc(nr, sizeof(*r));
	if (!r)
		return -ENOMEM;
	nr = percent ? parse_percent_ranges(str, first, last, r, nr) :
		       parse_second_ranges(str, r, nr - 1);
	if (nr < 0) {
		free(r);
		return nr;
	}
	/* perf shifts every bound, an open end too, and percentages as well */
	for (i = 0; reltime && i < nr; i++) {
		r[i].start += first;
		r[i].end += first;
	}
	*out = r;
	return nr;
}

bool perf_time__ranges_skip(const struct perf_time_interval *r, int nr, u64 t)
{
	int i;

	if (!nr || !t)
		return false;
	if (nr == 1)
		return (r->start && t < r->start) || (r->end && t > r->end);
	for (i = 0; i < nr; i++)
		if (t >= r[i].start && (!r[i].end || t <= r[i].end))
			return false;
	return true;
}

int perf_time__parse_option(const char *str, u64 first, u64 last, const char *path,
			    struct perf_time_interval **out)
{
	int nr = perf_time__parse_ranges(str, first, last, false, out);

	if (nr == -ENODATA) {
		pr_err("--time %s: %s has no first and last sample time (HEADER_SAMPLE_TIME) to "
		       "take percentages of; give seconds\n",
		       str, path);
		return -EINVAL;
	}
	if (nr < 0) {
		pr_err(
		    "--time %s: expected start,end in seconds (12345.678901,12346; several "
		    "space-separated), percentage slices (10%%/2) or ranges (0%%-10%%,50%%-60%%)\n",
		    str);
		return -EINVAL;
	}
	return nr;
}
