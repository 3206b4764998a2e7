// SPDX-License-Identifier: GPL-2.0-only
/*
 * What the JSON and HTML writers share: the sample density histogram,
 * the walk over hostile strings, the sort keys named as perf names them.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "debug.h"
#include "report-output.h"
#include "utf8.h"

void report_density__init(struct report_density *d)
{
	memset(d, 0, sizeof(*d));
}

/* halve the resolution: neighbours merge, the span doubles */
static void report_density__widen(struct report_density *d)
{
	size_t i;

	for (i = 0; i < REPORT_DENSITY_BINS / 2; i++)
		d->counts[i] = d->counts[2 * i] + d->counts[2 * i + 1];
	memset(&d->counts[REPORT_DENSITY_BINS / 2], 0, sizeof(d->counts) / 2);
	d->bin_ns *= 2;
}

void report_density__add(struct report_density *d, u64 time)
{
	u64 off;

	if (!d->nr_samples) {
		d->start = time;
		d->bin_ns = 1;
	}
	d->nr_samples++;
	off = time > d->start ? time - d->start : 0;
	/* a u64 span fits in 2^56 bins of 256: stop widening before bin_ns overflows */
	while (off / d->bin_ns >= REPORT_DENSITY_BINS && d->bin_ns <= UINT64_MAX / 4)
		report_density__widen(d);
	off /= d->bin_ns;
	d->counts[off < REPORT_DENSITY_BINS ? off : REPORT_DENSITY_BINS - 1]++;
}

size_t report_density__nr_bins(const struct report_density *d)
{
	size_t n = REPORT_DENSITY_BINS;

	if (!d->nr_samples)
		return 0;
	while (n > 1 && !d->counts[n - 1])
		n--;
	return n;
}

/*
 * The report writers' policy, which their hand-written expected output
 * (tests/report-output-fixture.c) fixes: every byte that starts no
 * well-formed sequence is its own REPORT_UTF8_INVALID, so a cut-short
 * "\xe2\x82" gives two U+FFFD where script --json, following Python's
 * decoder, gives one.  The strings end at a NUL, which is no
 * continuation byte: looking at 4 bytes at most never reads past it.
 */
unsigned long report_output__utf8_next(const char **s)
{
	u32 cp;
	size_t len = utf8__next((const u8 *)*s, strnlen(*s, 4), &cp);

	if (cp == UTF8_INVALID) {
		*s += 1;
		return REPORT_UTF8_INVALID;
	}
	*s += len;
	return cp;
}

/* the sort key's name as --sort takes it, which report-layout.c owns */
const char *report_sort_key__name(enum report_sort_key key)
{
	return key < SORT__MAX ? report_column__name(key) : "invalid";
}

int report_output__sort_keys(const char *sort, enum report_sort_key keys[SORT__MAX],
			     size_t *nr_keys)
{
	const char *p = sort ? sort : "comm,dso,sym";
	size_t n = 0;

	while (*p) {
		size_t len = strcspn(p, ","), i;
		int k;

		for (k = 0; k < SORT__MAX; k++)
			if (strlen(report_column__name(k)) == len &&
			    !strncmp(p, report_column__name(k), len))
				break;
		if (k == SORT__MAX) {
			pr_err("report: sort key '%.*s' has no output column (comm, pid, tid, dso, "
			       "sym, cpu, abi, dso_size, symoff, srcline, srcfile, parent)\n",
			       (int)len, p);
			return -EINVAL;
		}
		/* a repeated key adds no column */
		for (i = 0; i < n; i++)
			if (keys[i] == (enum report_sort_key)k)
				break;
		if (i == n)
			keys[n++] = k;
		p += len;
		if (*p == ',')
			p++;
	}
	*nr_keys = n;
	return 0;
}

/*
 * The value of a key the text report prints as it stands (dso_size,
 * symoff, srcline, srcfile, parent), without its column's padding: what
 * report-hist-print.c's row holds there
 */
char *report_entry__key_text(enum report_sort_key key, const struct hist_entry *he)
{
	char *s = NULL;
	int n;

	switch (key) {
	case SORT_DSO_SIZE:
		if (!he->has_map)
			return strdup("unknown");
		n = asprintf(&s, "%llu", (unsigned long long)he->dso_size);
		break;
	case SORT_SYMOFF:
		/*
		 * the text's address of an unknown symbol has the precision of
		 * its column: "Symbol Offset" less the "[.] ", 9 digits
		 */
		if (!he->sym)
			n = asprintf(&s, "[%c] %#.9llx", he->level, (unsigned long long)he->ip);
		else
			n = asprintf(&s, "[%c] %s%s+0x%llx", he->level, he->sym,
				     he->inlined ? " (inlined)" : "",
				     (unsigned long long)he->sym_offset);
		break;
	case SORT_SRCLINE:
		return strdup(he->srcline ?: "");
	case SORT_SRCFILE:
		return strdup(he->srcfile ?: "");
	case SORT_PARENT:
		return strdup(he->parent ?: "[other]");
	default:
		return strdup("?");
	}
	return n < 0 ? NULL : s;
}

/*
 * as the text applies --percent-limit (perf's
 * hist_entry__get_percent_limit()): Children's share with --children,
 * and in a group's block the leader's share of its own total
 */
bool report_hist_entry__below(const struct hist_entry *he, const struct report_hist *h,
			      float percent_limit)
{
	u64 period = h->children ? he->children : he->period;
	u64 total = h->members ? h->member_totals[0] : h->total_period;

	if (percent_limit <= 0 || !total)
		return false;
	return 100.0 * (double)period / (double)total < percent_limit;
}
