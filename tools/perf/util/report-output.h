/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __PERF_TEXTPOKE_REPORT_OUTPUT_H
#define __PERF_TEXTPOKE_REPORT_OUTPUT_H

#include <stdbool.h>
#include <stdio.h>

#include "report-changes.h"
#include "report-hist.h"

struct report_trees;

/*
 * Samples over time, for the density strip under the HTML timeline.
 * The span is not known until the last sample, so the bins start one
 * nanosecond wide and double (merging neighbours) whenever the samples
 * span more than the bins: fixed memory, O(1) amortised per sample,
 * whatever the recording's length.  A bin's start is a multiple of its
 * width, so that the bins of any two sets of samples line up once one
 * is as wide as the other: a parallel run's workers each count their
 * samples, and the sum is what one reader counts (report_density__merge()).
 */
#define REPORT_DENSITY_BINS 256

struct report_density {
	u64 start;  /* the first bin's start: the earliest sample's, a multiple of bin_ns */
	u64 bin_ns; /* the width of every bin, a power of two */
	u64 counts[REPORT_DENSITY_BINS];
	u64 nr_samples;
	u64 lo, hi; /* the earliest and the latest sample */
};

void report_density__init(struct report_density *d);
/* every sample's time, in any order */
void report_density__add(struct report_density *d, u64 time);
/* @from's samples added to @d's */
void report_density__merge(struct report_density *d, const struct report_density *from);
/* the number of bins in use (0 without samples) */
size_t report_density__nr_bins(const struct report_density *d);

/*
 * perf textpoke report --json and --html: every figure of the text report
 * (the profile of each event, the code changes) in one documented JSON
 * schema (Documentation/report-json.md), and one self-contained HTML file
 * (no network: inline SVG and script) with a timeline, one lane per site
 * or region, state changes and lifetimes over time, sample density
 * beneath, the profile table beside it.  0 or -errno.
 */
struct report_output {
	size_t nr_hists;
	/*
	 * the blocks of the text report: an event's histogram, or with
	 * --group a group's (report-group.h), its members' values side by side
	 */
	const struct report_hist *hists;
	const char *const *event_names;	      /* by event index, a group's members' names */
	const struct report_changes *changes; /* NULL: no code-change part */
	const char *input;		      /* the recording, as named */
	const char *sort;		      /* the sort keys, as given; NULL: comm,dso,sym */
	const struct report_density *density; /* NULL: no sample times */
	u64 nr_lost_samples;		      /* the text report's "Total Lost Samples" */
	float percent_limit;		      /* --percent-limit: rows below it left out */
	struct report_trees *trees;	      /* the entries' call-graph trees, NULL: none */
	/* --hierarchy: its options and the columns its levels are of; NULL: none */
	const struct report_hier_opts *hier;
	const struct report_layout *layout;
};

int report_output__json(const struct report_output *ro, FILE *fp);
/* the lanes drawn at most: the busiest ones, the rest counted as omitted */
#define REPORT_HTML_MAX_LANES 400
int report_output__html(const struct report_output *ro, FILE *fp);

/*
 * What both writers share.  Strings from a recording (symbol, command
 * and DSO names) are hostile input: report_output__utf8_next() walks
 * them by code point, and gives REPORT_UTF8_INVALID for a byte that does
 * not start a well-formed UTF-8 sequence (overlong, surrogate, past
 * U+10FFFF, truncated, as utf8__next() judges), so each writer can
 * replace it and never emit something its format's parser rejects.
 */
#define REPORT_UTF8_INVALID 0xfffffffful
unsigned long report_output__utf8_next(const char **s);

/*
 * @s as HTML text or attribute value: the five markup characters as
 * entities, control characters and bytes that are not UTF-8 as U+FFFD;
 * at most @max code points (0: all), true when it cut
 */
bool report_output__html_escape(FILE *fp, const char *s, size_t max);

/* the sort keys of @sort in order, into keys[SORT__MAX]; -EINVAL names a bad one */
int report_output__sort_keys(const char *sort, enum report_sort_key keys[SORT__MAX],
			     size_t *nr_keys);
const char *report_sort_key__name(enum report_sort_key key);
/*
 * dso_size, symoff, srcline, srcfile and parent's value as the text
 * report prints it, unpadded ("unknown", "[.] main+0x1f", "[other]"):
 * to be freed; NULL: no memory
 */
char *report_entry__key_text(enum report_sort_key key, const struct hist_entry *he);
/* --percent-limit as perf applies it: the entry's (Children's, a group leader's) share */
bool report_hist_entry__below(const struct hist_entry *he, const struct report_hist *h,
			      float percent_limit);

/*
 * A file named by --html (report) or --json/--html (annotate): a regular
 * file, or a name not taken yet, is written under a temporary name beside
 * it and renamed into place by report_file__close() only when everything
 * was written, so a failed run leaves what was there; a device, FIFO or
 * socket (/dev/stdout on a pipe) is written through, never replaced
 * (output-path.h decides which).  Messages start with "@what @path:".
 */
struct report_file {
	FILE *fp;
	char *tmp;    /* the temporary name, NULL when written through */
	char *target; /* the path, symlinks followed */
	const char *path;
	const char *what; /* the option that named it, for messages: "--html" */
};

/* 0 and @f->fp open, or -errno with the reason printed */
int report_file__open(struct report_file *f, const char *what, const char *path);
/* flush and close; @keep: rename the temporary into place (else removed); 0 or -errno */
int report_file__close(struct report_file *f, bool keep);

#endif /* __PERF_TEXTPOKE_REPORT_OUTPUT_H */
