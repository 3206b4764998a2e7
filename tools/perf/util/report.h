/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __PERF_TEXTPOKE_REPORT_H
#define __PERF_TEXTPOKE_REPORT_H

#include "itrace.h"
#include "report-hist.h"
#include "report-tree.h"
#include "text-image.h"
#include "types.h"

/* What perf textpoke report was asked to do (its command line) */
struct report_opts {
	const char *input;  /* file, perf.data/ directory, or "-" */
	const char *sort;   /* --sort as given, NULL: perf's comm,dso,sym */
	const char *fields; /* -F as given */
	bool show_nr_samples;
	bool show_total_period; /* --show-total-period: perf's Period column */
	/*
	 * --group 1, --no-group 0; -1: perf 6.1's default, a block per group
	 * when the recording has groups (HEADER_GROUP_DESC)
	 */
	int group;
	bool threads; /* -T: the per-thread counts of the READ records, after the profile */
	/* --workers: workers reading chunks of time in parallel, 0 one per CPU (perf's --threads is -T) */
	unsigned int workers;
	float percent_limit;
	bool json;
	const char *html; /* --html FILE */
	bool stdio;
	/* filters, as perf report takes them: comma-separated lists */
	const char *comms, *pids, *tids, *dsos, *symbols, *cpus;
	const char *time; /* perf's --time: start,end in seconds or percentages */
	bool no_changes;  /* --no-changes: the profile only */
	/*
	 * --changes: the code-change report as text even when the recording
	 * holds no kernel code change (else one line says there is none)
	 */
	bool changes;
	/* --header, --header-only, -I: perf's "# ========" block of the recording */
	bool header, header_only, show_info;
	/* --stats: the records of each type, and each event's samples, alone */
	bool stats;
	/* --tasks, --mmaps: the threads as a tree, and their maps; no profile */
	bool tasks, mmaps;
	/*
	 * --children / --no-children; -1: perf's default, Children when an
	 * event samples callchains
	 */
	int children;
	/* --max-stack: the recorded chain's outermost frames, the unwound innermost */
	unsigned int max_stack;
	/* --no-inline: unwound frames not split at the functions inlined there */
	bool no_inline;
	/* -g/--call-graph as parsed; -G/--inverted: caller order */
	struct report_tree_opts call_graph;
	bool inverted;
	/* --percentage relative: percentages of the samples the filters keep */
	bool relative;
	/*
	 * -p/--parent REGEX (the parent key's, perf's "^sys_|^do_page_fault"
	 * without it), -x/--exclude-other: only entries with a parent;
	 * --symbol-filter: only entries whose symbol holds the string;
	 * --ignore-callees and --hierarchy are refused for now
	 */
	const char *parent;
	bool exclude_other;
	const char *symbol_filter;
	const char *ignore_callees;
	bool hierarchy;
	/* --itrace: the samples to synthesize from an Intel PT trace (set: given) */
	struct itrace_opts itrace;
	struct text_image_opts text;
};

void report_opts__init(struct report_opts *opts);

/* check the options that need no recording: 0 or -EINVAL, said */
int report_opts__check(struct report_opts *opts);

/* Report on the recording; 0, or a negative errno with the reason printed */
int report__run(struct report_opts *opts);

#endif /* __PERF_TEXTPOKE_REPORT_H */
