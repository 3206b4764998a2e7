/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __PERF_TEXTPOKE_EVSEL_H
#define __PERF_TEXTPOKE_EVSEL_H

#include <linux/perf_event.h>

#include "types.h"

union perf_event;
struct perf_sample;

/*
 * One recorded event: its attr (normalized to the uapi size this tool was
 * built with; shorter attrs on disk are zero-extended, longer ones keep
 * only the fields we know), its sample ids and the name perf would print.
 */
/* where a sample's fields lie, when they lie at fixed offsets (evsel-time.h) */
struct sample_layout {
	u64 st; /* the sample_type it was worked out for */
	bool valid;
	bool fast; /* u64 fields and a callchain only */
	bool callchain;
	u16 head;			      /* bytes of u64 fields before the callchain */
	u16 tail;			      /* and after it */
	u16 time, cpu, id;		      /* byte offset + 1 in the body; 0: none */
	u16 ip, tid, addr, stream_id, period; /* likewise */
};

void sample_layout__init(struct sample_layout *l, u64 sample_type);

struct evsel {
	struct perf_event_attr attr;
	u32 attr_size; /* attr.size as recorded (0 on disk means 64) */
	int idx;       /* position in the file, from 0 */
	char *name;    /* "cpu-clock", "sched:sched_switch", "cycles:pp" */
	u64 *ids;
	u32 nr_ids;
	int sample_size; /* bytes of the fixed part of a sample */
	int id_pos;	 /* u64 index of the id in a sample, -1 if none */
	int is_pos;	 /* u64 index of the id from the end of a trailer */
	struct sample_layout layout;
	void *tp_format; /* struct tep_event * for tracepoints, if known */
	void *priv;	 /* owned by the tool */
	/* the lost counts of the LOST_SAMPLES records its id claims */
	u64 nr_lost_samples;
};

struct evlist {
	struct evsel **entries;
	int nr_entries;
	bool sample_id_all;
	/* id -> evsel, open addressing; rebuilt when ids are added */
	struct evlist_id *id_hash;
	u32 id_hash_size;
	u32 nr_ids;
	/*
	 * the last id found: records come in runs of one event, and an id
	 * once owned keeps its owner (the first wins), so the memo stays right
	 */
	u64 last_id;
	struct evsel *last_evsel;
	/*
	 * bumped by every event or id added: an answer of
	 * evlist__event2evsel() kept for later holds while it is unchanged
	 */
	u32 gen;
};

struct evlist *evlist__new(void);
void evlist__delete(struct evlist *evlist);
/* copies attr (size bytes as on disk) and ids; returns the new evsel */
struct evsel *evlist__add(struct evlist *evlist, const void *attr, u32 size, const u64 *ids,
			  u32 nr_ids);
int evlist__add_ids(struct evlist *evlist, struct evsel *evsel, const u64 *ids, u32 nr_ids);
struct evsel *evlist__id2evsel(struct evlist *evlist, u64 id);
/* the evsel a record belongs to: by its id, or the only/first one */
struct evsel *evlist__event2evsel(struct evlist *evlist, const union perf_event *event);
/* all attrs agree on sample_id_all and where ids sit; -EINVAL otherwise */
int evlist__check_consistency(struct evlist *evlist);

const char *evsel__name(struct evsel *evsel);
int evsel__set_name(struct evsel *evsel, const char *name);

/*
 * Parse a PERF_RECORD_SAMPLE (or, for other kernel records with
 * sample_id_all, their id trailer) into @sample.  Returns 0, or -EFAULT
 * when a field runs past header.size (the caller names the offset).
 */
int evsel__parse_sample(const struct evsel *evsel, const union perf_event *event,
			struct perf_sample *sample);
/*
 * The ip of a sample @event of @evsel whose key parsed (its sizes are
 * checked): false when its layout is not a fast one, or has no ip
 */
bool evsel__sample_ip(const struct evsel *evsel, const union perf_event *event, u64 *ip);
/*
 * For tests: the parse field by field, never by the offsets of a fast
 * layout (struct sample_layout), which evsel__parse_sample() takes
 */
int evsel__parse_sample_slow(const struct evsel *evsel, const union perf_event *event,
			     struct perf_sample *sample);

#endif /* __PERF_TEXTPOKE_EVSEL_H */
