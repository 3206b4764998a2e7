/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __PERF_TEXTPOKE_EVSEL_TIME_H
#define __PERF_TEXTPOKE_EVSEL_TIME_H

#include "types.h"

struct evsel;
union perf_event;

/*
 * What evsel__parse_sample() returns for @event, and the time it would
 * give (-1 when the record has none), without filling a whole perf_sample:
 * the ordered-events queue needs only that, once per record.
 */
int evsel__parse_sample_time(const struct evsel *evsel, const union perf_event *event, u64 *time);

/* the fields a sample is kept or dropped on before it is queued */
struct sample_key {
	u64 time; /* -1: none */
	u64 id;	  /* -1: none */
	u32 cpu;  /* -1: none */
};

/* as evsel__parse_sample_time(), with the cpu and the id too */
int evsel__parse_sample_key(const struct evsel *evsel, const union perf_event *event,
			    struct sample_key *key);

#endif /* __PERF_TEXTPOKE_EVSEL_TIME_H */
