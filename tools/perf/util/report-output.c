// SPDX-License-Identifier: GPL-2.0-only
/*
 * What the JSON and HTML writers share: the sample density histogram,
 * the walk over hostile strings, the sort keys named as perf names them,
 * the output file written through or replaced atomically.
 */
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>

#include "debug.h"
#include "output-path.h"
#include "report-output.h"
#include "utf8.h"

void report_density__init(struct report_density *d)
{
	memset(d, 0, sizeof(*d));
}

/* halve the resolution: aligned neighbours merge, the span doubles */
static void report_density__widen(struct report_density *d)
{
	u64 counts[REPORT_DENSITY_BINS] = {0}, first = d->start / d->bin_ns;

	for (size_t i = 0; i < REPORT_DENSITY_BINS; i++)
		counts[(first + i) / 2 - first / 2] += d->counts[i];
	memcpy(d->counts, counts, sizeof(counts));
	d->bin_ns *= 2;
	d->start = first / 2 * d->bin_ns;
}

/*
 * The bins for the span lo..hi: as narrow as holds it (a u64 span fits
 * in 2^56 bins of 256: no widening past that, bin_ns would overflow),
 * the first bin the earliest sample's
 */
static void report_density__fit(struct report_density *d)
{
	u64 shift;

	while (d->hi / d->bin_ns - d->lo / d->bin_ns >= REPORT_DENSITY_BINS &&
	       d->bin_ns <= UINT64_MAX / 4)
		report_density__widen(d);
	shift = d->start / d->bin_ns - d->lo / d->bin_ns;
	if (!shift)
		return;
	/* the earlier samples' bins before the others' */
	if (shift > REPORT_DENSITY_BINS)
		shift = REPORT_DENSITY_BINS;
	memmove(d->counts + shift, d->counts, (REPORT_DENSITY_BINS - shift) * sizeof(*d->counts));
	memset(d->counts, 0, shift * sizeof(*d->counts));
	d->start = d->lo / d->bin_ns * d->bin_ns;
}

static void report_density__count(struct report_density *d, u64 time, u64 n)
{
	/* bin_ns is a power of two: every sample's division is a shift */
	unsigned int shift = __builtin_ctzll(d->bin_ns);
	u64 idx = (time >> shift) - (d->start >> shift);

	d->counts[idx < REPORT_DENSITY_BINS ? idx : REPORT_DENSITY_BINS - 1] += n;
}

void report_density__add(struct report_density *d, u64 time)
{
	if (!d->nr_samples) {
		d->lo = d->hi = d->start = time;
		d->bin_ns = 1;
	}
	d->nr_samples++;
	/* the bins change only for a sample outside the span so far */
	if (time < d->lo || time > d->hi) {
		if (time < d->lo)
			d->lo = time;
		else
			d->hi = time;
		report_density__fit(d);
	}
	report_density__count(d, time, 1);
}

void report_density__merge(struct report_density *d, const struct report_density *from)
{
	if (!from->nr_samples)
		return;
	if (!d->nr_samples) {
		*d = *from;
		return;
	}
	while (d->bin_ns < from->bin_ns)
		report_density__widen(d);
	d->lo = d->lo < from->lo ? d->lo : from->lo;
	d->hi = d->hi > from->hi ? d->hi : from->hi;
	d->nr_samples += from->nr_samples;
	report_density__fit(d);
	/* @from's bins as wide as ours, or narrower: each lies in one of ours */
	for (size_t i = 0; i < REPORT_DENSITY_BINS; i++)
		if (from->counts[i])
			report_density__count(d, from->start + i * from->bin_ns, from->counts[i]);
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

int report_file__open(struct report_file *f, const char *what, const char *path)
{
	struct stat st;
	bool through;
	int fd, err;

	f->path = path;
	f->what = what;
	f->tmp = NULL;
	err = output_path__resolve(path, &f->target, &through);
	if (err) {
		pr_err("%s %s: %s\n", what, path, strerror(-err));
		return err;
	}
	if (!through && !stat(f->target, &st) && S_ISDIR(st.st_mode)) {
		pr_err("%s %s: is a directory\n", what, path);
		err = -EISDIR;
		goto out_free;
	}
	if (through) {
		/* O_NONBLOCK: a FIFO nobody reads fails at once instead of blocking */
		fd = open(f->target, O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
		if (fd >= 0 && fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)) {
			close(fd);
			fd = -1;
		}
	} else {
		f->tmp = output_path__tmp(f->target);
		if (!f->tmp) {
			err = -ENOMEM;
			goto out_free;
		}
		fd = mkostemp(f->tmp, O_CLOEXEC);
		if (fd >= 0) {
			/* mkostemp's 0600: an output file is for sharing, as a redirection makes it */
			mode_t mask = umask(0);

			umask(mask);
			fchmod(fd, 0666 & ~mask);
		}
	}
	if (fd < 0) {
		err = -errno;
		pr_err("%s %s: %s\n", what, path, strerror(errno));
		goto out_free;
	}
	f->fp = fdopen(fd, "w");
	if (f->fp)
		return 0;
	close(fd);
	if (f->tmp)
		unlink(f->tmp);
	err = -ENOMEM;
out_free:
	zfree(&f->tmp);
	zfree(&f->target);
	return err;
}

int report_file__close(struct report_file *f, bool keep)
{
	int err = 0;

	if (fflush(f->fp) || ferror(f->fp))
		err = -errno ?: -EIO;
	if (fclose(f->fp) && !err)
		err = -errno;
	if (err)
		pr_err("%s %s: %s\n", f->what, f->path, strerror(-err));
	if (f->tmp) {
		if (!err && keep && rename(f->tmp, f->target)) {
			err = -errno;
			pr_err("%s %s: %s\n", f->what, f->path, strerror(-err));
		}
		if (err || !keep)
			unlink(f->tmp);
		zfree(&f->tmp);
	}
	zfree(&f->target);
	return err;
}

/*
 * Text and attribute values alike: the five markup characters as
 * entities, control characters and bytes that are not UTF-8 as U+FFFD
 * (HTML forbids the former, and the latter would make the parser guess
 * at an encoding).  Stops after @max code points (0: no limit) and says
 * whether it cut.
 */
bool report_output__html_escape(FILE *fp, const char *s, size_t max)
{
	size_t n = 0;

	if (!s)
		return false;
	while (*s) {
		const char *p = s;
		unsigned long cp;

		if (max && n++ == max) {
			fputs("\u2026", fp);
			return true;
		}
		cp = report_output__utf8_next(&s);
		if (cp == REPORT_UTF8_INVALID || (cp < 0x20 && cp != '\t') ||
		    (cp >= 0x7f && cp < 0xa0))
			fputs("\ufffd", fp);
		else if (cp == '&')
			fputs("&amp;", fp);
		else if (cp == '<')
			fputs("&lt;", fp);
		else if (cp == '>')
			fputs("&gt;", fp);
		else if (cp == '"')
			fputs("&quot;", fp);
		else if (cp == '\'')
			fputs("&#39;", fp);
		else
			fwrite(p, 1, s - p, fp);
	}
	return false;
}
