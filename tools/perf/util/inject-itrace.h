/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __PERF_TEXTPOKE_INJECT_ITRACE_H
#define __PERF_TEXTPOKE_INJECT_ITRACE_H

#include "itrace.h"
#include "text-image.h"
#include "types.h"

/*
 * inject --itrace: an Intel PT trace replaced by the samples decoded from
 * it, as perf inject --itrace writes them.  A pass of its own decodes the
 * trace the way script and report do (itrace.c, against the code of each
 * moment) and spools each synthesized sample and decoder error to an
 * unlinked temporary file, in time order.  The copy pass then leaves out
 * the trace's records (AUXTRACE_INFO, AUXTRACE and its data, AUX,
 * ITRACE_START), adds an attr per synthesized event after the input's,
 * and writes the spooled records into the stream before each round ends,
 * those no later than the newest time the copy has passed: stock perf,
 * which flushes a round up to the round before's newest time, then
 * never meets one older than what it already delivered.
 */
struct inject_itrace;
struct perf_writer;

/* the decode pass over @path (a file); NULL with an error printed */
struct inject_itrace *inject_itrace__new(const char *path, const struct itrace_opts *opts,
					 const struct text_image_opts *text);
void inject_itrace__delete(struct inject_itrace *ii);

/* whether the copy leaves a record of @type out: the trace's own */
bool inject_itrace__drops(u32 type);
/* the synthesized events' attrs, after the input's (@nr_in of them) */
int inject_itrace__add_attrs(struct inject_itrace *ii, struct perf_writer *w, int nr_in);
/* note a copied record's time: the spooled records up to the newest go out at the round's end */
void inject_itrace__saw_time(struct inject_itrace *ii, u64 time);
/* before a FINISHED_ROUND is copied (@all: at the end, everything left) */
int inject_itrace__flush(struct inject_itrace *ii, struct perf_writer *w, bool all);
u64 inject_itrace__nr_samples(const struct inject_itrace *ii);
u64 inject_itrace__nr_errors(const struct inject_itrace *ii);

#endif /* __PERF_TEXTPOKE_INJECT_ITRACE_H */
