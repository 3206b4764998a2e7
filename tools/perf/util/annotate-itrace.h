/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __PERF_TEXTPOKE_ANNOTATE_ITRACE_H
#define __PERF_TEXTPOKE_ANNOTATE_ITRACE_H

#include <stdio.h>

#include "itrace.h"
#include "session.h"
#include "types.h"

/*
 * perf textpoke annotate --itrace: the samples an Intel PT trace gives
 * (itrace.c's decoder, as report and script use it), counted by
 * annotate.c's histograms as recorded samples are, and each instruction
 * also by the bytes the decoder walked at it: kernel code poked during
 * the trace is shown as each of the instructions that ran there.
 */
struct annotate_itrace;
struct annotate_sym;
struct annotate_totals;
struct annotate_opts;
struct annotate_output;
struct evsel;
struct dso_data;

/*
 * The start of annotate.c's state: the session's callbacks get the
 * address of the tool, and annotate-itrace.c's find the decoder beside it.
 */
struct annotate_tool {
	struct perf_tool tool;
	struct annotate_itrace *itrace; /* --itrace, else NULL */
};

/*
 * Decode @session's trace with @opts (not set: perf annotate's default,
 * and only for a file whose header has a trace): the tool's callbacks are
 * wrapped so that the trace up to each record's time is decoded before
 * the record, and each synthesized sample goes to the tool's sample
 * callback with no event.  0 or -ENOMEM.
 */
int annotate_itrace__init(struct annotate_tool *at, const struct itrace_opts *opts,
			  struct perf_session *session, const char *input);
void annotate_itrace__delete(struct annotate_itrace *ai);
/* after the last record: the rest of the trace; 0 or -errno */
int annotate_itrace__finish(struct annotate_itrace *ai);
/* the decode errors met (perf's instruction trace errors) */
u64 annotate_itrace__nr_errors(const struct annotate_itrace *ai);

/*
 * In the sample callback, a synthesized sample counted at @off of @as's
 * symbol: counted again by the instruction's bytes.  0 or -ENOMEM.
 */
int annotate_itrace__count(struct annotate_itrace *ai, const struct annotate_sym *as, u64 off,
			   const struct perf_sample *sample);
/* whether @as's event is the trace's instructions or branches (their bytes known) */
bool annotate_itrace__owns(const struct annotate_itrace *ai, const struct annotate_sym *as);
/*
 * @as's block to @out (its trace callbacks): each instruction the trace
 * ran in the symbol, once per distinct bytes seen at its address, with
 * its count.  0 or -errno.
 */
int annotate_itrace__write(struct annotate_itrace *ai, const struct annotate_sym *as,
			   const struct annotate_totals *totals, struct dso_data *dd,
			   struct annotate_output *out);

#endif /* __PERF_TEXTPOKE_ANNOTATE_ITRACE_H */
