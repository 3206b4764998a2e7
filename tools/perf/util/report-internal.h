/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __PERF_TEXTPOKE_REPORT_INTERNAL_H
#define __PERF_TEXTPOKE_REPORT_INTERNAL_H

/*
 * perf textpoke report's state, shared by the pass and its output
 * (report.c) and the options that shape them (report-options.c).
 */
#include <regex.h>

#include "itrace.h"
#include "report-changes.h"
#include "report-filters.h"
#include "report-group.h"
#include "report-output.h"
#include "report-threads.h"
#include "report.h"
#include "script-header.h"
#include "session.h"
#include "time-utils.h"

struct report {
	struct perf_tool tool; /* first: the callbacks get &tool */
	struct report_opts *opts;
	struct report_layout layout;
	struct perf_session *session;
	struct report_hists *hists;
	struct unwinder *unwinder;	 /* user frames of --call-graph dwarf samples */
	bool children;			 /* perf's --children: the chains are counted */
	struct report_trees *trees;	 /* the call-graph trees, NULL: none printed */
	struct chain_cache *chain_cache; /* chains seen, NULL: every chain walked */
	bool callee_order;		 /* the trees' chains innermost frame first */
	struct report_changes *changes;
	struct report_density density;	   /* samples over time, for --html and --json */
	struct report_filters filter;	   /* --comm, --pid, --tid, --dsos, --symbols, --cpu */
	struct perf_time_interval *ranges; /* --time, NULL: the whole recording */
	int nr_ranges;
	bool trace_tried;
	struct script_header header; /* --header: the features as stored */
	u64 *evsel_samples;	     /* --stats: each event's samples, before any filter */
	int nr_evsel_samples;
	const char *sort; /* --sort, with -p's parent key added */
	char *sort_buf;
	regex_t parent_regex; /* with the parent key: -p's, or perf's default */
	bool parent_regex_set;
	bool parent_caller;   /* the chain walked outermost first for the parent */
	regex_t ignore_regex; /* --ignore-callees */
	bool ignore_regex_set;
	/* the sample's chain as report__chain() walks it, for -p and --ignore-callees */
	struct walk_frame {
		struct map *map;
		/* NULL where perf matches nothing: an inlined function, an unwound frame, past --max-stack */
		struct symbol *sym;
		u64 addr;
		u8 cpumode;
		bool unwound;
	} * walk;
	size_t nr_walk, alloc_walk;
	struct report_groups groups;   /* the recording's event groups */
	struct report_file html;       /* --html's, open from the start */
	struct report_blocks blocks;   /* --json and --html: a group's events one block */
	const char **event_names;      /* ... and their names */
	bool group_view;	       /* a block per group: perf's --group */
	struct report_threads threads; /* -T: the READ records' counts */
	/* PERF_SAMPLE_READ: each counter's value in its last sample, by id */
	struct report_read_id {
		u64 id, value;
	} * read_ids;
	size_t nr_read_ids, alloc_read_ids;
	struct itrace *itrace; /* --itrace: the samples an Intel PT trace gives */
	/*
	 * perf's PERF_SAMPLE_CALLCHAIN for a trace's chains: --itrace with
	 * g, or no --itrace on a file with HEADER_AUXTRACE
	 */
	bool itrace_chains;
};

struct addr_location;

/* the options checked and turned into the state the pass uses; 0 or -errno (said) */
int report__parse_options(struct report *r);
void report__exit_options(struct report *r);
/* --time's ranges, once the recording's first and last times are known */
int report__parse_time(struct report *r);
/* a sample outside --time's ranges */
bool report__skip_time(const struct report *r, u64 t);
/* REPORT_FILTER_* of what of --comm, --pid, --tid, --dsos, --symbols leaves a sample out, 0: none */
unsigned int report__filtered(const struct report *r, const struct addr_location *al);
/* the groups the recording's HEADER_GROUP_DESC gave, as --group and --no-group show them */
int report__setup_groups(struct report *r);
/* report_layout__parse()'s flags for the columns -n and --show-total-period add */
unsigned int report__show(const struct report_opts *o);

#endif /* __PERF_TEXTPOKE_REPORT_INTERNAL_H */
