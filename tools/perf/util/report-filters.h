/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __PERF_TEXTPOKE_REPORT_FILTERS_H
#define __PERF_TEXTPOKE_REPORT_FILTERS_H

/*
 * The sample filters perf report takes (--comm, --pid, --tid, --dsos,
 * --symbols, --cpu), parsed once and asked per sample.  report and
 * annotate share them, so that a list means the same to both.
 */
#include <stdbool.h>
#include <stddef.h>

#include "types.h"

struct addr_location;
struct evlist;

#define REPORT_MAX_CPUS 4096

/* a comma-separated list, split once: the names perf's strlist holds */
struct name_list {
	char *buf;
	size_t nr;
	char **names;
};

struct int_list {
	size_t nr;
	long *v;
};

/* the option strings, NULL: not given */
struct report_filters_opts {
	const char *comms, *pids, *tids, *dsos, *symbols, *cpus;
};

struct report_filters {
	struct name_list comms, dsos, symbols;
	struct int_list pids, tids;
	u8 *cpu_bitmap; /* REPORT_MAX_CPUS bits, NULL: every cpu */
};

/* 0, -ENOMEM, or -EINVAL with the bad list named */
int report_filters__parse(struct report_filters *f, const struct report_filters_opts *o);
void report_filters__exit(struct report_filters *f);
bool name_list__has(const struct name_list *l, const char *name);
/* a sample of @cpu that --cpu leaves out */
bool report_filters__skip_cpu(const struct report_filters *f, u32 cpu);
/* --cpu on a recording whose samples have no cpu: said naming @path, -EINVAL */
int report_filters__check_cpu(const struct report_filters *f, const struct evlist *evlist,
			      const char *path);
/* REPORT_FILTER_THREAD, _DSO and _SYMBOL (report-hist.h) of the filters that leave @al out */
unsigned int report_filters__match(const struct report_filters *f, const struct addr_location *al);
/* REPORT_FILTER_* of the filters given */
unsigned int report_filters__given(const struct report_filters *f);

#endif /* __PERF_TEXTPOKE_REPORT_FILTERS_H */
