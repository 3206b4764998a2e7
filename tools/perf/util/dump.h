/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __PERF_TEXTPOKE_DUMP_H
#define __PERF_TEXTPOKE_DUMP_H

#include "types.h"

union perf_event;
struct perf_sample;
struct evsel;
struct perf_session;

/*
 * perf report -D / perf script -D: the raw view of each record when it is
 * read (offset, size, type, hex bytes), and its decoded line when it is
 * delivered (in time order when ordering is on, as perf does).
 */
void perf_event__dump_raw(const union perf_event *event, u64 offset, const char *path);
void perf_event__dump_decoded(struct perf_session *session, const union perf_event *event,
			      const struct perf_sample *sample, struct evsel *evsel, u64 offset);

struct addr_location;
/*
 * The two lines perf's machine__resolve() adds once a tool resolves a
 * sample: " ... thread: <comm>:<tid>" and " ...... dso: <object's path>".
 */
void perf_sample__dump_resolved(const struct addr_location *al, const struct perf_sample *sample);

#endif /* __PERF_TEXTPOKE_DUMP_H */
