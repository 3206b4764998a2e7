/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __PERF_TEXTPOKE_EVLIST_PRINT_H
#define __PERF_TEXTPOKE_EVLIST_PRINT_H

#include <stdio.h>

#include "types.h"

/* perf textpoke evlist: a recording's events as perf evlist 6.1 lists them */
struct evlist_print_opts {
	const char *input;
	bool verbose;	   /* -v: every non-zero attr field */
	bool freq;	   /* -F: sample_freq= or sample_period= */
	bool group;	   /* -g: "{leader,member,...}" lines */
	bool trace_fields; /* --trace-fields */
};

/* 0, or -errno with an error printed */
int evlist_print__run(const struct evlist_print_opts *opts, FILE *fp);

#endif /* __PERF_TEXTPOKE_EVLIST_PRINT_H */
