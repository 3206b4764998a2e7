// SPDX-License-Identifier: GPL-2.0-only
/*
 * Reading the records of a recording and handing them to a perf_tool.
 *
 * File mode walks the data section through a read-only mmap window; pipe
 * mode (session-pipe.c) reads the stream record by record into a 64 KB
 * buffer.  Either hands each record to perf_session__process_raw(), which
 * delivers it or queues it in time order.  Records of the other
 * endianness, records at unaligned offsets and decompressed records are
 * copied into small scratch buffers first; nothing is ever written back.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "compress.h"
#include "data.h"
#include "debug.h"
#include "dump.h"
#include "event.h"
#include "evsel.h"
#include "evsel-time.h"
#include "header.h"
#include "interrupt.h"
#include "machine.h"
#include "ordered-events.h"
#include "session.h"
#include "session-internal.h"
#include "session-workers.h"
#include "swap.h"

/* decompression output: at least this, at most the cap, else mmap_len */
#define DECOMP_MIN (1U << 20)
/* an AUX trace reaches a tool in pieces of at most this */
#define AUXTRACE_PIECE (1U << 20)
#define DECOMP_MAX (64U << 20)

struct perf_session_state {
	struct perf_data data;
	struct perf_data_window win;
	/* aligned copies: one per nesting level (a COMPRESSED record and its contents) */
	u64 *scratch[NR_DEPTHS];
	u8 *decomp;
	size_t decomp_size, decomp_len;
	struct ordered_events oe;
	/*
	 * the last time a record read had: a side-band record of an event
	 * without sample_id_all carries none, and is taken to be 1 ns after
	 * it, where it stands in the file, which perf reads in its order
	 */
	u64 last_time;
	bool no_sample_id_all; /* the first event's attr has none: read in file order */
	bool oe_inited;
	/*
	 * A queued record keeps the evsel found for it when queued, which
	 * delivery takes instead of looking it up again, unless events or
	 * ids were added to the evlist after it was queued (a pipe's
	 * attrs): those before queue sequence number evsel_seq were queued
	 * before the evlist's generation became evsel_gen
	 */
	u32 evsel_gen;
	u64 evsel_seq;
	/* data.N paths of a directory: queued records point at them */
	char **dir_paths;
	int nr_dir_paths;
	/*
	 * Why the input ended early (a record or header cut off by the end
	 * of the file or stream): said after the complete records before the
	 * cut are delivered, so that the error is the last line
	 */
	char cut_msg[512];
	/* where reading starts when perf_session__process_preamble() read the records before */
	u64 resume_off;
};

bool perf_session__has_feat(const struct perf_session *session, int feat)
{
	if (feat <= 0 || feat >= HEADER_FEAT_BITS)
		return false;
	return session->feat_bitmap[feat / 64] & (1ULL << (feat % 64));
}

const char *perf_session__kcore_dir(const struct perf_session *session)
{
	return session->data ? session->data->kcore_dir : NULL;
}

/*
 * Where record types are numbered from: the kernel's below 64 (22 in
 * 2025), perf's from 64 (83), simpleperf's from 32768; each range leaves
 * room for what a newer version adds.
 */
static bool record_type_may_be_newer(u32 type)
{
	/* 0 was never a type: the kernel's count from PERF_RECORD_MMAP, 1 */
	return (type && type < 256) || (type >= 32768 && type < 32768 + 256);
}

void perf_session__record_error(struct perf_session *session, u64 offset, int depth,
				const struct perf_event_header *h, const char *what)
{
	if (h)
		pr_err("%s: record at %#" PRIx64 "%s (type %u %s, size %u) %s\n", session->path,
		       offset, depth ? " (inside compressed data)" : "", h->type,
		       perf_event__name(h->type), h->size, what);
	else
		pr_err("%s: record at %#" PRIx64 " %s\n", session->path, offset, what);
}

/*
 * The input ends inside a record: a killed recorder, a full disk, a copy
 * cut short.  What came before is whole, so the session delivers it
 * before it says where the input ended.
 */
void perf_session__input_cut(struct perf_session *session, const char *fmt, ...)
{
	struct perf_session_state *st = session->state;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(st->cut_msg, sizeof(st->cut_msg), fmt, ap);
	va_end(ap);
	session->truncated = true;
}

const char *perf_session__cut_message(const struct perf_session *session)
{
	return session->truncated ? session->state->cut_msg : NULL;
}

void perf_session__record_cut(struct perf_session *session, u64 offset,
			      const struct perf_event_header *h, const char *what)
{
	perf_session__input_cut(session, "%s: record at %#" PRIx64 " (type %u %s, size %u) %s",
				session->path, offset, h->type, perf_event__name(h->type), h->size,
				what);
}

/*
 * A record longer than its fields: the kernel and perf write them to
 * the byte, so a size bit flipped that happened to land on another
 * record's start swallowed the records between, which nothing else would
 * tell.  Counted, said once at the end.
 */
static void perf_session__oversized(struct perf_session *session, u64 offset)
{
	if (!session->stats.nr_oversized++)
		session->stats.first_oversized = offset;
}

/* --- delivery ---------------------------------------------------------- */

/*
 * What the queue keeps with a record: its evsel, and for a sample
 * whether the evlist knows its id, in the pointer's low bits (an evsel
 * is aligned wider)
 */
#define EVSEL_HINT_ID_CHECKED 1UL
#define EVSEL_HINT_ID_KNOWN 2UL

static void *evsel_hint(struct evsel *evsel, int id_known)
{
	return (void *)((uintptr_t)evsel |
			(id_known < 0 ?
			     0 :
			     EVSEL_HINT_ID_CHECKED | (id_known ? EVSEL_HINT_ID_KNOWN : 0)));
}

/*
 * @evsel: the record's, when known, else looked up; @id_known: whether
 * the evlist knows the id of the sample (1, 0), or -1: not checked yet
 */
static int perf_session__deliver(struct perf_session *session, union perf_event *event, u64 offset,
				 struct evsel *evsel, int id_known)
{
	struct perf_tool *tool = session->tool;
	struct perf_sample sample;
	int err;

	if (!evsel)
		evsel = evlist__event2evsel(session->evlist, event);
	if (!evsel) {
		session->stats.nr_unknown_id++;
		return 0;
	}
	err = evsel__parse_sample(evsel, event, &sample);
	if (err) {
		perf_session__record_error(
		    session, offset, 0, &event->header,
		    "does not fit its sample_type (truncated or corrupt sample)");
		return err;
	}
	session->deliver_offset = offset;
	/* an id no attr claims: perf would refuse; we use the first event and count it */
	if (id_known < 0)
		id_known = session->evlist->nr_entries <= 1 || sample.id == (u64)-1 || !sample.id ||
			   evlist__id2evsel(session->evlist, sample.id);
	if (!id_known)
		session->stats.nr_unknown_id++;
	if (dump_trace)
		perf_event__dump_decoded(session, event, &sample, evsel, offset);
	if (event->header.type == PERF_RECORD_SAMPLE) {
		if (sample.fields_end < event->header.size) {
			perf_session__oversized(session, offset);
			if (!session->stats.nr_oversized_samples++)
				session->stats.first_oversized_sample = offset;
		}
	} else {
		u32 own = perf_event__fields_size(event);

		if (own && own < sample.fields_end)
			perf_session__oversized(session, offset);
	}

	if (event->header.type == PERF_RECORD_SAMPLE || evsel->attr.sample_id_all) {
		if (sample.time && sample.time != (u64)-1)
			session->state->last_time = sample.time;
	} else {
		/* after the last record that had a time, as it stands after it in the file */
		sample.time = session->state->last_time ? session->state->last_time + 1 : 0;
	}
	switch (event->header.type) {
	case PERF_RECORD_SAMPLE:
		return tool->sample ? tool->sample(tool, event, &sample, evsel, session->machine) :
				      0;
	case PERF_RECORD_LOST:
		session->stats.nr_lost_events += event->lost.lost;
		break;
	case PERF_RECORD_LOST_SAMPLES:
		session->stats.nr_lost_samples += event->lost_samples.lost;
		evsel->nr_lost_samples += event->lost_samples.lost;
		break;
	default:
		break;
	}
	if (tool->side_band)
		return tool->side_band(tool, event, &sample, evsel, session->machine);
	return machine__process_event(session->machine, event, &sample);
}

/* the records queued from now on have evsels of the evlist as it is */
static void perf_session__evsel_gen(struct perf_session *session)
{
	struct perf_session_state *st = session->state;

	if (st->evsel_gen != session->evlist->gen) {
		st->evsel_gen = session->evlist->gen;
		st->evsel_seq = st->oe.seq;
	}
}

static int deliver_ordered(void *arg, struct ordered_event *oe)
{
	struct perf_session *session = arg;
	const char *saved = session->path;
	uintptr_t hint = 0;
	int err;

	if (oe->path)
		session->path = oe->path;
	perf_session__evsel_gen(session);
	if (oe->seq >= session->state->evsel_seq)
		hint = (uintptr_t)oe->ctx;
	err = perf_session__deliver(
	    session, oe->event, oe->file_offset,
	    (struct evsel *)(hint & ~(EVSEL_HINT_ID_CHECKED | EVSEL_HINT_ID_KNOWN)),
	    hint & EVSEL_HINT_ID_CHECKED ? !!(hint & EVSEL_HINT_ID_KNOWN) : -1);
	session->path = saved;
	return err;
}

/* the record's time, if it has one (kernel records only) */
static u64 perf_session__event_time(struct perf_session *session, union perf_event *event)
{
	struct evsel *evsel = evlist__event2evsel(session->evlist, event);
	u64 time;

	if (!evsel || evsel__parse_sample_time(evsel, event, &time))
		return 0; /* delivered at once; the error comes from deliver */
	return time;
}

/*
 * perf_session__event_time(), and what delivery needs of the record:
 * its evsel, and whether the evlist knows its id (-1: not checked)
 */
static u64 perf_session__event_key(struct perf_session *session, union perf_event *event,
				   struct evsel **evsel, int *id_known)
{
	struct evlist *evlist = session->evlist;
	struct sample_key key;

	*evsel = evlist__event2evsel(evlist, event);
	*id_known = -1;
	if (!*evsel || evsel__parse_sample_key(*evsel, event, &key))
		return 0; /* delivered at once; the error comes from deliver */
	/* the id a sample's parse gives: the one its key holds */
	if (event->header.type == PERF_RECORD_SAMPLE)
		*id_known = evlist->nr_entries <= 1 || key.id == (u64)-1 || !key.id ||
			    evlist__id2evsel(evlist, key.id);
	return key.time;
}

/*
 * A parallel run's worker sorts the others' samples out itself, in
 * perf_session__process_range(), where the walk found every sample's
 * time in one place; unless time-less side-band records take their time
 * from the samples before them (each sample is then read in full and
 * the queue drops the others')
 */
static inline bool window__sorts_early(const struct perf_session *session)
{
	return session->window.time_at && !session->state->no_sample_id_all;
}

/* a sample of a tool with .sample_drop: its key parsed once, for the drop and the queue */
static int perf_session__queue_sample(struct perf_session *session, union perf_event *event,
				      u64 offset)
{
	struct evlist *evlist = session->evlist;
	struct evsel *evsel = evlist__event2evsel(evlist, event);
	struct sample_key key;
	bool known;

	if (!evsel || evsel__parse_sample_key(evsel, event, &key))
		return perf_session__deliver(session, event, offset, NULL, -1);
	known = evlist->nr_entries <= 1 || key.id == (u64)-1 || !key.id ||
		evlist__id2evsel(evlist, key.id);
	/* a dropped sample's time still places the time-less side-band records after it */
	if (session->state->no_sample_id_all && key.time && key.time != (u64)-1)
		session->state->last_time = key.time;
	if (known &&
	    ((session->window.active && !window__sorts_early(session) &&
	      !session_window__keeps(session, key.time)) ||
	     (session->tool->sample_drop &&
	      session->tool->sample_drop(session->tool, evsel, key.time, key.cpu, event)))) {
		if (session->tool->ordered_events && key.time != 0 && key.time != (u64)-1)
			ordered_events__note(&session->state->oe, key.time);
		return 0;
	}
	if (session->tool->ordered_events && key.time != 0 && key.time != (u64)-1) {
		perf_session__evsel_gen(session);
		return ordered_events__queue(&session->state->oe, event, key.time, offset,
					     session->path, evsel_hint(evsel, known));
	}
	return perf_session__deliver(session, event, offset, evsel, known);
}

static int perf_session__queue_kernel(struct perf_session *session, union perf_event *event,
				      u64 offset)
{
	struct evsel *evsel = NULL;
	int id_known = -1;
	u64 t;

	/*
	 * A tool that takes no samples (the text image's side-band pass
	 * before a listing) skips their bodies: no parse, no queueing.
	 */
	if (event->header.type == PERF_RECORD_SAMPLE && !session->tool->sample && !dump_trace) {
		/* its time still places the time-less side-band records after it */
		if (session->state->no_sample_id_all) {
			t = perf_session__event_time(session, event);
			if (t && t != (u64)-1)
				session->state->last_time = t;
		}
		return 0;
	}
	if ((session->tool->skip_types & (1ULL << event->header.type)) && !dump_trace) {
		if (session->tool->ordered_events) {
			t = perf_session__event_time(session, event);
			if (t != 0 && t != (u64)-1)
				ordered_events__note(&session->state->oe, t);
		}
		return 0;
	}
	if (event->header.type == PERF_RECORD_SAMPLE &&
	    (session->tool->sample_drop || session->window.active) && !dump_trace)
		return perf_session__queue_sample(session, event, offset);
	if (session->tool->ordered_events) {
		t = perf_session__event_key(session, event, &evsel, &id_known);
		if (t != 0 && t != (u64)-1) {
			perf_session__evsel_gen(session);
			return ordered_events__queue(&session->state->oe, event, t, offset,
						     session->path, evsel_hint(evsel, id_known));
		}
	}
	return perf_session__deliver(session, event, offset, evsel, id_known);
}

/* --- user records the session consumes ---------------------------------- */

static int perf_session__process_attr(struct perf_session *session, union perf_event *event,
				      u64 offset)
{
	u32 payload = event->header.size - sizeof(event->header), asz;
	struct perf_event_attr attr;
	u64 *ids = NULL;
	u32 nr_ids;
	int err = 0;

	if (payload < PERF_ATTR_SIZE_VER0) {
		perf_session__record_error(session, offset, 0, &event->header,
					   "is too short for an attr");
		return -EINVAL;
	}
	memcpy(&asz, (u8 *)event + 8 + 4, 4);
	asz = asz ?: PERF_ATTR_SIZE_VER0;
	if (asz < PERF_ATTR_SIZE_VER0 || asz > payload) {
		perf_session__record_error(
		    session, offset, 0, &event->header,
		    asz > payload ? "has an attr larger than itself" :
				    "has an attr.size smaller than the first attr ABI (64)");
		return -EINVAL;
	}
	memset(&attr, 0, sizeof(attr));
	memcpy(&attr, (u8 *)event + 8, asz < sizeof(attr) ? asz : sizeof(attr));
	nr_ids = (payload - asz) / 8;
	if (nr_ids) {
		ids = malloc(nr_ids * 8);
		if (!ids)
			return -ENOMEM;
		memcpy(ids, (u8 *)event + 8 + asz, nr_ids * 8);
	}
	if (!evlist__add(session->evlist, &attr, asz, ids, nr_ids))
		err = -ENOMEM;
	free(ids);
	if (!err)
		err = evlist__check_consistency(session->evlist);
	if (!err)
		perf_header__apply_event_desc(session);
	return err;
}

static void perf_session__process_event_update(struct perf_session *session,
					       union perf_event *event)
{
	u64 type, id;
	struct evsel *evsel;
	char name[256];
	u32 len;

	if (event->header.size < 24)
		return;
	memcpy(&type, (u8 *)event + 8, 8);
	memcpy(&id, (u8 *)event + 16, 8);
	if (type != 2 /* PERF_EVENT_UPDATE__NAME */)
		return;
	evsel = evlist__id2evsel(session->evlist, id);
	if (!evsel)
		return;
	len = event->header.size - 24;
	if (len >= sizeof(name))
		len = sizeof(name) - 1;
	memcpy(name, (u8 *)event + 24, len);
	name[len] = '\0';
	if (name[0])
		evsel__set_name(evsel, name);
}

/* {u64 nr; {u64 id, idx, cpu, tid}[nr]}: ids an attr record did not carry */
static void perf_session__process_id_index(struct perf_session *session, union perf_event *event)
{
	u64 nr, i, e[4];
	const u8 *p = (const u8 *)event + 16;

	if (event->header.size < 16)
		return;
	memcpy(&nr, (u8 *)event + 8, 8);
	if (nr > (event->header.size - 16u) / 32)
		nr = (event->header.size - 16u) / 32;
	for (i = 0; i < nr; i++, p += 32) {
		memcpy(e, p, 32);
		if (e[1] >= (u64)session->evlist->nr_entries ||
		    evlist__id2evsel(session->evlist, e[0]))
			continue;
		evlist__add_ids(session->evlist, session->evlist->entries[e[1]], &e[0], 1);
	}
}

static int perf_session__process_feature_record(struct perf_session *session,
						union perf_event *event, u64 offset)
{
	u64 feat;
	int err;

	if (event->header.size < 16) {
		perf_session__record_error(session, offset, 0, &event->header,
					   "is too short for a feature");
		return -EINVAL;
	}
	memcpy(&feat, (u8 *)event + 8, 8);
	if (feat == HEADER_LAST_FEATURE) {
		session->seen_header_end = true;
		return 0;
	}
	if (feat >= HEADER_FEAT_BITS)
		return 0;
	err = perf_header__process_feature(session, feat, (u8 *)event + 16, event->header.size - 16,
					   session->needs_swap);
	if (!err && feat == HEADER_EVENT_DESC)
		perf_header__apply_event_desc(session);
	return err;
}

/* pipe mode (and perf inject -b): a build-id as a record, like the feature's entries */
static void perf_session__add_build_id(struct perf_session *session, union perf_event *event)
{
	struct perf_env *env = &session->env;
	struct build_id_entry *n, *e;
	const u8 *p = (const u8 *)event;
	s32 pid;

	if (event->header.size < 36 || env->nr_build_ids >= (1 << 20))
		return;
	n = realloc(env->build_ids, (env->nr_build_ids + 1) * sizeof(*n));
	if (!n)
		return;
	env->build_ids = n;
	e = &n[env->nr_build_ids];
	memset(e, 0, sizeof(*e));
	memcpy(&pid, p + 8, 4);
	e->pid = pid;
	e->misc = event->header.misc;
	memcpy(e->build_id, p + 12, 20);
	e->size = p[32] && p[32] <= 20 ? p[32] : 20;
	e->filename = strndup((const char *)p + 36, event->header.size - 36);
	if (e->filename)
		env->nr_build_ids++;
}

/* --- compressed data --------------------------------------------------- */

static int perf_session__decompress(struct perf_session *session, const void *src, size_t len,
				    u64 offset)
{
	struct perf_session_state *st = session->state;
	size_t used = 0;

	if (!session->zstd) {
		session->zstd = zstd_data__new();
		if (!session->zstd) {
			pr_err("%s: record at %#" PRIx64 " is zstd compressed, but %s\n",
			       session->path, offset,
			       zstd_data__available() ? "the decompressor could not be set up" :
							"zstd support is not built in");
			return -ENOTSUP;
		}
	}
	if (!st->decomp) {
		size_t sz = session->env.comp.mmap_len;

		if (sz < DECOMP_MIN)
			sz = DECOMP_MIN;
		if (sz > DECOMP_MAX)
			sz = DECOMP_MAX;
		st->decomp = malloc(sz);
		if (!st->decomp)
			return -ENOMEM;
		st->decomp_size = sz;
	}

	for (;;) {
		size_t consumed = 0, pos = 0, space = st->decomp_size - st->decomp_len;
		ssize_t n;

		n = zstd_data__decompress(session->zstd, (const u8 *)src + used, len - used,
					  &consumed, st->decomp + st->decomp_len,
					  st->decomp_size - st->decomp_len);
		if (n < 0) {
			pr_err("%s: record at %#" PRIx64 " (COMPRESSED): corrupt zstd data\n",
			       session->path, offset);
			return -EIO;
		}
		used += consumed;
		st->decomp_len += n;
		session->stats.nr_compressed_bytes += n;

		while (st->decomp_len - pos >= sizeof(struct perf_event_header)) {
			struct perf_event_header h;
			u64 skip = 0;
			int err;

			memcpy(&h, st->decomp + pos, sizeof(h));
			if (session->needs_swap)
				perf_event_header__swap(&h);
			if (h.size < sizeof(h)) {
				perf_session__record_error(
				    session, offset, DEPTH_DECOMP, &h,
				    "has an invalid size (corrupt compressed data)");
				return -EINVAL;
			}
			if (h.size > st->decomp_len - pos)
				break; /* continues in the next output chunk */
			err = perf_session__process_raw(session, st->decomp + pos, offset,
							DEPTH_DECOMP, &skip);
			if (err)
				return err;
			if (skip) {
				perf_session__record_error(
				    session, offset, DEPTH_DECOMP, &h,
				    "carries a payload, not allowed in compressed data");
				return -EINVAL;
			}
			pos += h.size;
		}
		memmove(st->decomp, st->decomp + pos, st->decomp_len - pos);
		st->decomp_len -= pos;
		/* output not full: the decoder has flushed all it can for this input */
		if (used >= len && (size_t)n < space)
			break;
		if (!consumed && !n)
			break;
	}
	return 0;
}

/* --- one record -------------------------------------------------------- */

static int perf_session__process_user(struct perf_session *session, union perf_event *event,
				      u64 offset, int depth, u64 *skip)
{
	struct perf_tool *tool = session->tool;
	u32 type = event->header.type;
	u64 v;

	if (session->legacy_pipe && type >= 69 && type <= 80) {
		/* 2012 ChromeOS: HOSTNAME (69) .. NUMA_TOPOLOGY (80), payload = feature body */
		int err = perf_header__process_feature(session, type - 66, (u8 *)event + 8,
						       event->header.size - 8, session->needs_swap);

		if (!err && type - 66 == HEADER_EVENT_DESC)
			perf_header__apply_event_desc(session);
		return err;
	}

	switch (type) {
	case PERF_RECORD_HEADER_ATTR:
		return perf_session__process_attr(session, event, offset);
	case PERF_RECORD_HEADER_EVENT_TYPE:
		if (session->is_pipe && !session->seen_header_end)
			session->legacy_pipe = true;
		return 0;
	case PERF_RECORD_HEADER_TRACING_DATA:
		/* old perf wrote 12 bytes: no pad */
		if (event->header.size < 12) {
			perf_session__record_error(session, offset, depth, &event->header,
						   "is too short");
			return -EINVAL;
		}
		*skip = event->tracing_data.size;
		return 0;
	case PERF_RECORD_HEADER_FEATURE:
		return perf_session__process_feature_record(session, event, offset);
	case PERF_RECORD_EVENT_UPDATE:
		perf_session__process_event_update(session, event);
		break;
	case PERF_RECORD_ID_INDEX:
		perf_session__process_id_index(session, event);
		break;
	case PERF_RECORD_FINISHED_ROUND:
		if (event->header.size != sizeof(event->header))
			perf_session__oversized(session, offset);
		if (tool->ordered_events)
			return session->no_rounds ? 0 : ordered_events__round(&session->state->oe);
		break;
	case PERF_RECORD_FINISHED_INIT:
		if (event->header.size != sizeof(event->header))
			perf_session__oversized(session, offset);
		session->seen_header_end = true;
		return 0;
	case PERF_RECORD_COMPRESSED:
	case PERF_RECORD_COMPRESSED2: {
		const u8 *p = (const u8 *)event + 8;
		u64 len = event->header.size - 8;

		if (depth != DEPTH_TOP) {
			perf_session__record_error(session, offset, depth, &event->header,
						   "is compressed inside compressed data");
			return -EINVAL;
		}
		if (type == PERF_RECORD_COMPRESSED2) {
			if (len < 8) {
				perf_session__record_error(session, offset, depth, &event->header,
							   "is too short");
				return -EINVAL;
			}
			memcpy(&v, p, 8);
			if (v > len - 8) {
				perf_session__record_error(session, offset, depth, &event->header,
							   "has a data_size larger than itself");
				return -EINVAL;
			}
			p += 8;
			len = v;
		}
		return perf_session__decompress(session, p, len, offset);
	}
	case PERF_RECORD_AUXTRACE:
		/* the trace itself is for decoders we do not have: skip it */
		if (event->header.size < sizeof(struct perf_record_auxtrace)) {
			perf_session__record_error(session, offset, depth, &event->header,
						   "is too short");
			return -EINVAL;
		}
		*skip = event->auxtrace.size;
		session->stats.nr_auxtrace_bytes += *skip;
		break;
	case PERF_RECORD_THREAD_MAP:
	case PERF_RECORD_CPU_MAP:
		/* the machine model learns threads and cpus from the records themselves */
		break;
	case PERF_RECORD_HEADER_BUILD_ID:
		perf_session__add_build_id(session, event);
		break;
	default:
		break;
	}
	if (tool->user_event)
		return tool->user_event(tool, event, session);
	return 0;
}

/*
 * The 2012 ChromeOS perf sent header features as record types 69..80,
 * which later became ID_INDEX, AUXTRACE_INFO, ...  Its HOSTNAME (69) is
 * a u32 length and a string: as an ID_INDEX that gives an entry count
 * that cannot fit the record.
 */
static bool perf_session__modern_id_index(struct perf_session *session, const void *raw,
					  const struct perf_event_header *h)
{
	u64 nr;

	if (h->size < 16)
		return false;
	memcpy(&nr, (const u8 *)raw + 8, 8);
	if (session->needs_swap)
		nr = __builtin_bswap64(nr);
	return nr <= (h->size - 16u) / 32;
}

/*
 * @raw: a record as stored (any alignment, file endianness).  *@skip gets
 * the size of a payload that follows the record outside header.size.
 */
int perf_session__process_raw(struct perf_session *session, const void *raw, u64 offset, int depth,
			      u64 *skip)
{
	struct perf_event_header h;
	union perf_event *event;
	u32 type;

	memcpy(&h, raw, sizeof(h));
	if (session->needs_swap)
		perf_event_header__swap(&h);
	if (session->is_pipe && !session->legacy_pipe && !session->seen_header_end &&
	    h.type == PERF_RECORD_ID_INDEX && !perf_session__modern_id_index(session, raw, &h))
		session->legacy_pipe = true;
	if (session->needs_swap || ((uintptr_t)raw & 7)) {
		memcpy(session->state->scratch[depth], raw, h.size);
		event = (union perf_event *)session->state->scratch[depth];
		if (session->needs_swap) {
			if (session->legacy_pipe && h.type >= 69 && h.type <= 80)
				perf_event_header__swap(event);
			else if (perf_event__swap(event, session->evlist)) {
				perf_session__record_error(
				    session, offset, depth, &h,
				    "is too short for its type (cannot byte-swap it)");
				return -EINVAL;
			}
		}
	} else {
		event = (union perf_event *)raw;
	}
	type = h.type;
	session->cur_offset = offset;
	session->stats.total_bytes += h.size;
	if (type < PERF_RECORD_HEADER_MAX)
		session->stats.nr_events[type]++;
	/* like perf, show what is inside compressed data, not the container */
	if (dump_trace && type >= PERF_RECORD_USER_TYPE_START && type != PERF_RECORD_COMPRESSED &&
	    type != PERF_RECORD_COMPRESSED2)
		perf_event__dump_decoded(
		    session, event, NULL,
		    session->evlist->nr_entries ? session->evlist->entries[0] : NULL, offset);

	if (type < PERF_RECORD_USER_TYPE_START) {
		if (type && (type == PERF_RECORD_SAMPLE || type < PERF_RECORD_MAX || type == 21)) {
			const char *bad;

			if (!session->evlist->nr_entries) {
				perf_session__record_error(
				    session, offset, depth, &h,
				    "comes before any attr (no event description)");
				return -EINVAL;
			}
			bad = h.size % 8 ? "has a size that is not a multiple of 8" :
					   perf_event__check(event);
			if (bad) {
				perf_session__record_error(session, offset, depth, &h, bad);
				return -EINVAL;
			}
			return perf_session__queue_kernel(session, event, offset);
		}
	} else if (type < PERF_RECORD_HEADER_MAX || (session->legacy_pipe && type <= 80)) {
		return perf_session__process_user(session, event, offset, depth, skip);
	}
	/*
	 * A newer kernel or perf (or simpleperf) may write types this reader
	 * does not know: those are skipped, as the records after them are
	 * still readable.  But a type outside the ranges they number from is
	 * a damaged size that led into other bytes, and skipping it would
	 * walk on through garbage; and the kernel's records are 8-byte
	 * aligned, whatever their type.
	 */
	if (!record_type_may_be_newer(type)) {
		perf_session__record_error(
		    session, offset, depth, &h,
		    "has a type that no kernel, perf or simpleperf writes (damaged file?)");
		return -EINVAL;
	}
	if (type < PERF_RECORD_USER_TYPE_START && h.size % 8) {
		perf_session__record_error(session, offset, depth, &h,
					   "has a size that is not a multiple of 8");
		return -EINVAL;
	}
	session->stats.nr_unknown_events++;
	pr_debug("%s: record at %#" PRIx64 ": unknown type %u (size %u) skipped\n", session->path,
		 offset, type, h.size);
	return 0;
}

/* --- the two readers --------------------------------------------------- */

/* an AUX trace of a mapped file, in pieces no larger than a window */
static int perf_session__file_auxtrace(struct perf_session *session, struct perf_data *data,
				       u64 off, u64 len)
{
	struct perf_session_state *st = session->state;

	while (len) {
		u64 n = len < AUXTRACE_PIECE ? len : AUXTRACE_PIECE;
		const void *p = perf_data__window_peek(data, &st->win, off, n);
		int err;

		if (!p) {
			pr_err("%s: cannot map the AUX trace at %#" PRIx64 "\n", session->path,
			       off);
			return -EIO;
		}
		err = session->tool->auxtrace_data(session->tool, p, n);
		if (err)
			return err;
		off += n;
		len -= n;
	}
	return 0;
}

/* the records of [@off, @end) of @data, a file mapped through st->win */
static int perf_session__process_range(struct perf_session *session, struct perf_data *data,
				       u64 off, u64 end)
{
	struct perf_session_state *st = session->state;
	int err = 0;

	if (end > data->size) {
		pr_debug("%s: data section claims %#" PRIx64 " bytes, file has %#" PRIx64 "\n",
			 session->path, end, data->size);
	}
	while (off < end) {
		struct perf_event_header h;
		const void *p;
		u64 skip = 0;

		if (interrupt__pending())
			return -EINTR;
		if (session->window.active && off >= session->window.next_off) {
			err = session_window__step(session, off);
			if (err)
				return err;
			if (session->window.stop)
				return 0;
		}
		/* a worker's run of others' samples, stepped over whole */
		if (session->window.runs && !dump_trace && !st->no_sample_id_all) {
			u64 next = session_window__skip_run(session, off, end,
							    window__sorts_early(session));

			if (next != off) {
				off = next;
				continue;
			}
		}
		if (data->size - off < sizeof(h)) {
			perf_session__input_cut(
			    session,
			    "%s: record at %#" PRIx64
			    ": header is cut off by the end of the file (truncated file?)",
			    session->path, off);
			return -EINVAL;
		}
		if (end - off < sizeof(h)) {
			pr_err("%s: record at %#" PRIx64
			       ": header is cut off by the end of the data section\n",
			       session->path, off);
			return -EINVAL;
		}
		p = perf_data__window_peek(data, &st->win, off, sizeof(h));
		if (!p) {
			pr_err("%s: cannot map the record at %#" PRIx64 "\n", session->path, off);
			return -EIO;
		}
		memcpy(&h, p, sizeof(h));
		if (session->needs_swap)
			perf_event_header__swap(&h);
		if (h.size < sizeof(h)) {
			perf_session__record_error(session, off, 0, &h,
						   "has an invalid size (corrupt file?)");
			return -EINVAL;
		}
		if (h.size > data->size - off) {
			perf_session__record_cut(
			    session, off, &h,
			    "is cut off by the end of the file (truncated file?)");
			return -EINVAL;
		}
		if (h.size > end - off) {
			perf_session__record_error(session, off, 0, &h,
						   "runs past the end of the data section");
			return -EINVAL;
		}
		/*
		 * A pass that takes no samples (the text image's) steps over
		 * their bodies: most of a recording, never read here; so does a
		 * worker of a parallel run outside its chunks' rounds
		 */
		if (h.type == PERF_RECORD_SAMPLE &&
		    (!session->tool->sample ||
		     (session->window.active &&
		      (off < session->window.parse_from || off >= session->window.parse_to))) &&
		    !dump_trace && !st->no_sample_id_all && !(h.size % 8) &&
		    session->evlist->nr_entries) {
			session->stats.total_bytes += h.size;
			session->stats.nr_events[PERF_RECORD_SAMPLE]++;
			off += h.size;
			continue;
		}
		p = perf_data__window_peek(data, &st->win, off, h.size);
		if (!p) {
			pr_err("%s: cannot map the record at %#" PRIx64 "\n", session->path, off);
			return -EIO;
		}
		if (h.type == PERF_RECORD_SAMPLE && off >= session->window.keep_until &&
		    window__sorts_early(session) &&
		    session_window__drop_sample(session, p, h.size)) {
			off += h.size;
			continue;
		}
		err = perf_session__process_raw(session, p, off, DEPTH_TOP, &skip);
		if (err)
			return err;
		off += h.size;
		if (skip) {
			if (skip > end - off) {
				if (skip > data->size - off)
					perf_session__record_cut(
					    session, off - h.size, &h,
					    "has a payload cut off by the end of the file "
					    "(truncated file?)");
				else
					perf_session__record_error(
					    session, off - h.size, 0, &h,
					    "has a payload that runs past the end of the data");
				return -EINVAL;
			}
			if (h.type == PERF_RECORD_AUXTRACE && session->tool->auxtrace_data) {
				err = perf_session__file_auxtrace(session, data, off, skip);
				if (err)
					return err;
			}
			off += skip;
		}
	}
	if (end > data->size) {
		perf_session__input_cut(session,
					"%s: the data section ends at %#" PRIx64
					" but the file ends at %#" PRIx64 " (truncated file?)",
					session->path, end, data->size);
		return -EINVAL;
	}
	return 0;
}

/*
 * perf record --threads writes a directory: data (header, features and
 * the synthesized records) plus data.0, data.1, ... with each thread's
 * raw records.  Rounds are per file there, so no round may flush while
 * other files are still unread: everything waits for the final flush (or
 * the memory cap).
 */
static int perf_session__process_dir_files(struct perf_session *session)
{
	struct perf_session_state *st = session->state;
	const char *dir_path = session->data->path;
	int i, err = 0;

	for (i = 0; i < 4096 && !err; i++) {
		char path[4096], **names;
		struct perf_data d;
		const char *saved = session->path;

		snprintf(path, sizeof(path), "%s/data.%d", dir_path, i);
		if (access(path, F_OK))
			break;
		err = perf_data__open(&d, path);
		if (err)
			break;
		names = realloc(st->dir_paths, (st->nr_dir_paths + 1) * sizeof(*names));
		if (!names || !(names[st->nr_dir_paths] = strdup(d.path))) {
			if (names)
				st->dir_paths = names;
			perf_data__close(&d);
			err = -ENOMEM;
			break;
		}
		st->dir_paths = names;
		d.window_size = session->data->window_size;
		session->path = names[st->nr_dir_paths++];
		perf_data__window_put(&st->win);
		err = perf_session__process_range(session, &d, 0, d.size);
		perf_data__window_put(&st->win);
		session->path = saved;
		perf_data__close(&d);
	}
	return err;
}

bool perf_session__inert_type(u32 type)
{
	switch (type) {
	case PERF_RECORD_FINISHED_INIT:
	case PERF_RECORD_TIME_CONV:
	case PERF_RECORD_ID_INDEX:
	case PERF_RECORD_HEADER_BUILD_ID:
	case PERF_RECORD_THREAD_MAP:
	case PERF_RECORD_CPU_MAP:
	case PERF_RECORD_EVENT_UPDATE:
		return true;
	default:
		return false;
	}
}

int perf_session__process_preamble(struct perf_session *session)
{
	struct perf_session_state *st = session->state;
	u64 off = st->resume_off ?: session->data_offset;
	u64 end = session->data_offset + session->data_size;
	int err = 0;

	if (session->is_pipe || end > session->data->size)
		return 0;
	while (off < end) {
		struct perf_event_header h;
		const void *p =
		    end - off >= sizeof(h) ?
			perf_data__window_peek(session->data, &st->win, off, sizeof(h)) :
			NULL;
		u64 skip = 0, t;

		if (!p)
			break;
		memcpy(&h, p, sizeof(h));
		if (h.size < sizeof(h) || h.size > end - off || h.size % 8 ||
		    h.type == PERF_RECORD_SAMPLE ||
		    (h.type >= PERF_RECORD_USER_TYPE_START && !perf_session__inert_type(h.type)))
			break;
		p = perf_data__window_peek(session->data, &st->win, off, h.size);
		if (!p || ((uintptr_t)p & 7))
			break;
		if (h.type < PERF_RECORD_USER_TYPE_START) {
			if (perf_event__check(p))
				break;
			/* one that would be queued is read in its turn */
			t = perf_session__event_time(session, (union perf_event *)p);
			if (t != 0 && t != (u64)-1)
				break;
		}
		err = perf_session__process_raw(session, p, off, DEPTH_TOP, &skip);
		if (err)
			break;
		off += h.size;
	}
	st->resume_off = off;
	return err;
}

static int perf_session__process_file(struct perf_session *session)
{
	bool threads = false;
	char path[4096];
	int err;

	if (session->data->is_dir) {
		snprintf(path, sizeof(path), "%s/data.0", session->data->path);
		threads = !access(path, F_OK);
	}
	/* rounds of one file say nothing about the others: sort it all at the end */
	session->no_rounds = threads;
	err = perf_session__process_range(session, session->data,
					  session->state->resume_off ?: session->data_offset,
					  session->data_offset + session->data_size);
	if (!err && threads)
		err = perf_session__process_dir_files(session);
	return err;
}

static void perf_session__warn_stats(struct perf_session *session)
{
	struct events_stats *s = &session->stats;
	char line[512];
	int n = 0;

	if (s->nr_events[PERF_RECORD_LOST])
		n += snprintf(line + n, sizeof(line) - n,
			      "%s%" PRIu64 " events lost in %" PRIu64 " LOST records",
			      n ? ", " : "", s->nr_lost_events, s->nr_events[PERF_RECORD_LOST]);
	if (s->nr_lost_samples)
		n += snprintf(line + n, sizeof(line) - n, "%s%" PRIu64 " samples lost",
			      n ? ", " : "", s->nr_lost_samples);
	if (s->nr_unknown_events)
		n += snprintf(line + n, sizeof(line) - n,
			      "%s%" PRIu64 " records of unknown type skipped", n ? ", " : "",
			      s->nr_unknown_events);
	if (s->nr_unordered_events)
		n += snprintf(line + n, sizeof(line) - n, "%s%" PRIu64 " out of order events",
			      n ? ", " : "", s->nr_unordered_events);
	if (s->nr_unknown_id)
		n +=
		    snprintf(line + n, sizeof(line) - n, "%s%" PRIu64 " records with an unknown id",
			     n ? ", " : "", s->nr_unknown_id);
	if (s->nr_auxtrace_bytes && !session->tool->auxtrace_data &&
	    !session->tool->trace_elsewhere)
		n += snprintf(line + n, sizeof(line) - n,
			      "%s%" PRIu64 " bytes of hardware trace "
			      "(AUXTRACE) not decoded",
			      n ? ", " : "", s->nr_auxtrace_bytes);
	if (s->nr_oversized)
		n += snprintf(line + n, sizeof(line) - n,
			      "%s%" PRIu64
			      " records longer than their fields (the first at %#" PRIx64
			      ": a damaged size?)",
			      n ? ", " : "", s->nr_oversized, s->first_oversized);
	if (s->nr_forced_flushes)
		n += snprintf(line + n, sizeof(line) - n,
			      "%sordering window overflowed %" PRIu64 " times", n ? ", " : "",
			      s->nr_forced_flushes);
	if (n)
		pr_warning("%s: %s%s\n", session->path, line, verbose ? "" : " (-v for detail)");
	if (verbose && n) {
		int i;

		for (i = 0; i < PERF_RECORD_HEADER_MAX; i++)
			if (s->nr_events[i])
				pr_debug("%20s records: %10" PRIu64 "\n", perf_event__name(i),
					 s->nr_events[i]);
	}
}

int perf_session__process_events(struct perf_session *session)
{
	struct perf_session_state *st = session->state;
	int err;

	if (session->is_pipe)
		err = perf_session__process_pipe(session);
	else
		err = perf_session__process_file(session);
	/* a cut-off input: what came before the cut is whole, deliver it */
	if ((!err || session->truncated) && session->tool->ordered_events) {
		int e = ordered_events__flush_all(&st->oe);

		if (e)
			err = e;
	}
	if (session->truncated && !session->tool->defer_cut) {
		/* the error after the output it ends, in a 2>&1 stream too */
		fflush(stdout);
		pr_err("%s\n", st->cut_msg);
	}
	perf_data__window_put(&st->win);
	if (!err && st->decomp_len)
		pr_warning("%s: compressed data ends with %zu bytes of an unfinished record\n",
			   session->path, st->decomp_len);
	session->stats.nr_unordered_events = st->oe.nr_unordered;
	session->stats.nr_forced_flushes = st->oe.nr_forced_flushes;
	/*
	 * A parallel run says its summary once, in the last worker, for all.
	 * A worker that fails (a full disk) ends the run at its chunk: it says
	 * what it counted, as one worker says what it read until then (every
	 * worker reads the whole side-band, so its LOST records are all there).
	 */
	if (session->window.active && (!err || err == -EPIPE) &&
	    !session_window__gather_stats(session))
		return err;
	/*
	 * after the lines, whole, in a 2>&1 stream too: where a buffer
	 * happens to end is no place for it, and differs between workers
	 */
	if (session->tool->flush_output && !err)
		session->tool->flush_output(session->tool);
	fflush(stdout);
	perf_session__warn_stats(session);
	return err;
}

/* --- setup ------------------------------------------------------------- */

struct perf_session *perf_session__new(const char *path, struct perf_tool *tool)
{
	struct perf_session *session = calloc(1, sizeof(*session));
	struct perf_session_state *st;
	int i, err;

	if (!session)
		return NULL;
	if (!tool)
		tool = &session->null_tool;
	st = calloc(1, sizeof(*st));
	if (!st)
		goto out_free;
	session->state = st;
	session->tool = tool;
	for (i = 0; i < NR_DEPTHS; i++) {
		st->scratch[i] = malloc(RECORD_MAX + 8);
		if (!st->scratch[i])
			goto out_delete;
	}
	session->evlist = evlist__new();
	if (!session->evlist)
		goto out_delete;
	err = perf_data__open(&st->data, path);
	if (err)
		goto out_delete;
	session->data = &st->data;
	/* messages name the file read: perf.data/data for a directory */
	session->path = st->data.is_dir ? st->data.file_path : st->data.path;

	if (st->data.is_stream)
		err = perf_session__read_pipe_header(session);
	else
		err = perf_header__read(session);
	if (err)
		goto out_delete;

	/*
	 * perf_session__new() of perf: without sample_id_all the side-band
	 * records have no time to be ordered by, so perf reads the whole
	 * file in its order (a KSYMBOL then comes between the samples it
	 * stands between), not the samples sorted after every record
	 */
	if (!st->data.is_stream && tool->ordered_events && session->evlist->nr_entries &&
	    !session->evlist->entries[0]->attr.sample_id_all) {
		pr_debug("%s: no sample_id_all: records are processed in file order\n",
			 session->path);
		tool->ordered_events = false;
	}
	st->no_sample_id_all =
	    session->evlist->nr_entries && !session->evlist->entries[0]->attr.sample_id_all;
	ordered_events__init(&st->oe, deliver_ordered, session, 0);
	st->oe_inited = true;
	session->ordered = &st->oe;
	session->machine = machine__new(&session->env, perf_session__kcore_dir(session));
	if (!session->machine)
		goto out_delete;
	return session;

out_delete:
	perf_session__delete(session);
	return NULL;
out_free:
	free(session);
	return NULL;
}

void perf_session__delete(struct perf_session *session)
{
	struct perf_session_state *st;
	int i;

	if (!session)
		return;
	st = session->state;
	if (session->machine)
		machine__delete(session->machine);
	if (st) {
		if (st->oe_inited)
			ordered_events__exit(&st->oe);
		perf_data__window_put(&st->win);
		perf_data__close(&st->data);
		for (i = 0; i < NR_DEPTHS; i++)
			free(st->scratch[i]);
		for (i = 0; i < st->nr_dir_paths; i++)
			free(st->dir_paths[i]);
		free(st->dir_paths);
		free(st->decomp);
		free(st);
	}
	zstd_data__delete(session->zstd);
	evlist__delete(session->evlist);
	perf_env__exit(&session->env);
	free(session);
}
