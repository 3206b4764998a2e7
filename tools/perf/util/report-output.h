/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __PERF_TEXTPOKE_REPORT_OUTPUT_H
#define __PERF_TEXTPOKE_REPORT_OUTPUT_H

#include <stdio.h>

#include "report-changes.h"
#include "report-hist.h"

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
	const struct report_hist *hists;
	const struct report_changes *changes;
	const char *input; /* the recording, as named */
	const char *sort;  /* the sort keys, as given */
};

int report_output__json(const struct report_output *ro, FILE *fp);
int report_output__html(const struct report_output *ro, FILE *fp);

#endif /* __PERF_TEXTPOKE_REPORT_OUTPUT_H */
