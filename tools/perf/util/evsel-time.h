/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __PERF_TEXTPOKE_EVSEL_TIME_H
#define __PERF_TEXTPOKE_EVSEL_TIME_H

#include <errno.h>
#include <string.h>
#include <linux/perf_event.h>

#include "evsel.h"
#include "types.h"

struct evlist;
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

/*
 * For a loop over every sample of a recording (a parallel run's walk):
 * when all events sample the same fields, of sizes known but for the
 * callchain, the layout every sample has whatever its event, so that its
 * key is read without finding its event first; NULL otherwise.
 */
const struct sample_layout *evlist__uniform_layout(struct evlist *evlist);

/*
 * The size checks of a sample of fast layout @l, whose header is @h and
 * whose body follows: 0 when evsel__parse_sample() would accept it
 */
static inline int sample_layout__check(const struct sample_layout *l,
				       const struct perf_event_header *h)
{
	const u8 *body = (const u8 *)(h + 1);
	u64 left = h->size - sizeof(*h), nr;

	if (h->size < sizeof(*h) || left < l->head)
		return -EFAULT;
	left -= l->head;
	if (l->callchain) {
		if (left < 8)
			return -EFAULT;
		memcpy(&nr, body + l->head, 8);
		left -= 8;
		if (nr > left / 8)
			return -EFAULT;
		left -= nr * 8;
	}
	return left < l->tail ? -EFAULT : 0;
}

/* evsel__parse_sample_key() of a sample of that layout: 0, or -EFAULT */
static inline int sample_layout__key(const struct sample_layout *l,
				     const struct perf_event_header *h, struct sample_key *key)
{
	const u8 *body = (const u8 *)(h + 1);

	if (sample_layout__check(l, h))
		return -EFAULT;
	key->time = (u64)-1;
	key->cpu = (u32)-1;
	key->id = (u64)-1;
	if (l->time)
		memcpy(&key->time, body + l->time - 1, 8);
	if (l->id)
		memcpy(&key->id, body + l->id - 1, 8);
	if (l->cpu)
		memcpy(&key->cpu, body + l->cpu - 1, 4);
	return 0;
}

#endif /* __PERF_TEXTPOKE_EVSEL_TIME_H */
