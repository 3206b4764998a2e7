// SPDX-License-Identifier: GPL-2.0-only
/*
 * The recorded events: attrs, their ids, the names perf prints, and the
 * parsing of PERF_RECORD_SAMPLE bodies and id trailers by sample_type.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "debug.h"
#include "event.h"
#include "evsel.h"
#include "evsel-time.h"

#ifndef PERF_SAMPLE_BRANCH_COUNTERS
/* Linux 6.8: a u64 of counters per branch entry follows the entries */
#define PERF_SAMPLE_BRANCH_COUNTERS (1ULL << 19)
#endif

struct evlist_id {
	u64 id;
	struct evsel *evsel; /* NULL: empty slot */
};

struct evlist *evlist__new(void)
{
	return calloc(1, sizeof(struct evlist));
}

static void evsel__delete(struct evsel *evsel)
{
	if (!evsel)
		return;
	free(evsel->name);
	free(evsel->ids);
	free(evsel);
}

void evlist__delete(struct evlist *evlist)
{
	int i;

	if (!evlist)
		return;
	for (i = 0; i < evlist->nr_entries; i++)
		evsel__delete(evlist->entries[i]);
	free(evlist->entries);
	free(evlist->id_hash);
	free(evlist);
}

static u32 id_hash(u64 id, u32 size)
{
	id ^= id >> 33;
	id *= 0xff51afd7ed558ccdULL;
	id ^= id >> 33;
	return id & (size - 1);
}

static void evlist__hash_insert(struct evlist *evlist, u64 id, struct evsel *evsel)
{
	u32 h = id_hash(id, evlist->id_hash_size);

	while (evlist->id_hash[h].evsel) {
		if (evlist->id_hash[h].id == id)
			return; /* first owner wins, as in perf */
		h = (h + 1) & (evlist->id_hash_size - 1);
	}
	evlist->id_hash[h].id = id;
	evlist->id_hash[h].evsel = evsel;
	evlist->nr_ids++;
}

static int evlist__rehash(struct evlist *evlist, u32 need)
{
	u32 size = 64, i;
	struct evlist_id *old = evlist->id_hash;
	u32 old_size = evlist->id_hash_size;

	while (size < need * 2)
		size *= 2;
	evlist->id_hash = calloc(size, sizeof(*evlist->id_hash));
	if (!evlist->id_hash) {
		evlist->id_hash = old;
		return -ENOMEM;
	}
	evlist->id_hash_size = size;
	evlist->nr_ids = 0;
	for (i = 0; i < old_size; i++)
		if (old[i].evsel)
			evlist__hash_insert(evlist, old[i].id, old[i].evsel);
	free(old);
	return 0;
}

int evlist__add_ids(struct evlist *evlist, struct evsel *evsel, const u64 *ids, u32 nr_ids)
{
	u64 *n;
	u32 i;
	int err;

	if (!nr_ids)
		return 0;
	if (nr_ids > (1U << 26) || evsel->nr_ids > (1U << 26))
		return -E2BIG;
	n = realloc(evsel->ids, (evsel->nr_ids + nr_ids) * sizeof(u64));
	if (!n)
		return -ENOMEM;
	evsel->ids = n;
	memcpy(evsel->ids + evsel->nr_ids, ids, nr_ids * sizeof(u64));
	evsel->nr_ids += nr_ids;
	if ((evlist->nr_ids + nr_ids) * 2 > evlist->id_hash_size) {
		err = evlist__rehash(evlist, evlist->nr_ids + nr_ids);
		if (err)
			return err;
	}
	for (i = 0; i < nr_ids; i++)
		evlist__hash_insert(evlist, ids[i], evsel);
	evlist->gen++;
	return 0;
}

/* positions of the id in a sample (from the start) and a trailer (from the end) */
static void evsel__calc_id_pos(struct evsel *evsel)
{
	u64 st = evsel->attr.sample_type;
	int idx = 0;

	evsel->id_pos = -1;
	evsel->is_pos = -1;
	if (st & PERF_SAMPLE_IDENTIFIER) {
		evsel->id_pos = 0;
		evsel->is_pos = 1;
		return;
	}
	if (st & PERF_SAMPLE_ID) {
		idx = !!(st & PERF_SAMPLE_IP) + !!(st & PERF_SAMPLE_TID) +
		      !!(st & PERF_SAMPLE_TIME) + !!(st & PERF_SAMPLE_ADDR);
		evsel->id_pos = idx;
		evsel->is_pos = 1 + !!(st & PERF_SAMPLE_STREAM_ID) + !!(st & PERF_SAMPLE_CPU);
	}
}

static int evsel__calc_sample_size(const struct evsel *evsel)
{
	u64 st = evsel->attr.sample_type &
		 (PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR |
		  PERF_SAMPLE_ID | PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD |
		  PERF_SAMPLE_IDENTIFIER);

	return __builtin_popcountll(st) * 8;
}

struct evsel *evlist__add(struct evlist *evlist, const void *attr, u32 size, const u64 *ids,
			  u32 nr_ids)
{
	struct evsel *evsel, **n;

	evsel = calloc(1, sizeof(*evsel));
	if (!evsel)
		return NULL;
	memcpy(&evsel->attr, attr, size < sizeof(evsel->attr) ? size : sizeof(evsel->attr));
	evsel->attr_size = evsel->attr.size ? evsel->attr.size : PERF_ATTR_SIZE_VER0;
	/* fields past what the file's writer knew are zero, not garbage */
	if (evsel->attr_size < sizeof(evsel->attr))
		memset((char *)&evsel->attr + evsel->attr_size, 0,
		       sizeof(evsel->attr) - evsel->attr_size);
	evsel->idx = evlist->nr_entries;
	evsel__calc_id_pos(evsel);
	evsel->sample_size = evsel__calc_sample_size(evsel);
	sample_layout__init(&evsel->layout, evsel->attr.sample_type);
	n = realloc(evlist->entries, (evlist->nr_entries + 1) * sizeof(*n));
	if (!n)
		goto out_delete;
	evlist->entries = n;
	if (evlist__add_ids(evlist, evsel, ids, nr_ids))
		goto out_delete;
	evlist->entries[evlist->nr_entries++] = evsel;
	if (evlist->nr_entries == 1)
		evlist->sample_id_all = evsel->attr.sample_id_all;
	evlist->gen++;
	return evsel;

out_delete:
	evsel__delete(evsel);
	return NULL;
}

struct evsel *evlist__id2evsel(struct evlist *evlist, u64 id)
{
	u32 h;

	if (evlist->last_evsel && evlist->last_id == id)
		return evlist->last_evsel;
	if (!evlist->id_hash_size)
		return NULL;
	h = id_hash(id, evlist->id_hash_size);
	while (evlist->id_hash[h].evsel) {
		if (evlist->id_hash[h].id == id) {
			evlist->last_id = id;
			evlist->last_evsel = evlist->id_hash[h].evsel;
			return evlist->last_evsel;
		}
		h = (h + 1) & (evlist->id_hash_size - 1);
	}
	return NULL;
}

struct evsel *evlist__event2evsel(struct evlist *evlist, const union perf_event *event)
{
	struct evsel *first;
	const u8 *body = (const u8 *)event + sizeof(event->header);
	u32 size = event->header.size;
	u64 id;

	if (!evlist->nr_entries)
		return NULL;
	first = evlist->entries[0];
	if (evlist->nr_entries == 1)
		return first;
	if (size < sizeof(event->header))
		return NULL;
	size -= sizeof(event->header);
	if (event->header.type == PERF_RECORD_SAMPLE) {
		if (first->id_pos < 0 || (u32)(first->id_pos + 1) * 8 > size)
			return first;
		memcpy(&id, body + first->id_pos * 8, 8);
	} else {
		if (!evlist->sample_id_all || first->is_pos < 0 || (u32)first->is_pos * 8 > size)
			return first;
		memcpy(&id, body + size - first->is_pos * 8, 8);
	}
	if (!id)
		return first; /* synthesized records carry id 0 */
	return evlist__id2evsel(evlist, id) ?: first;
}

int evlist__check_consistency(struct evlist *evlist)
{
	struct evsel *first;
	int i;

	if (evlist->nr_entries < 2)
		return 0;
	first = evlist->entries[0];
	for (i = 1; i < evlist->nr_entries; i++) {
		struct evsel *e = evlist->entries[i];

		if (e->attr.sample_id_all != first->attr.sample_id_all) {
			pr_err("attrs disagree on sample_id_all (event %d vs 0)\n", i);
			return -EINVAL;
		}
		if (e->id_pos != first->id_pos ||
		    (first->attr.sample_id_all && e->is_pos != first->is_pos)) {
			pr_err(
			    "attrs disagree on where the sample id sits (event %d: sample_type %#" PRIx64
			    " vs %#" PRIx64 ")\n",
			    i, (u64)e->attr.sample_type, (u64)first->attr.sample_type);
			return -EINVAL;
		}
	}
	return 0;
}

/* --- names ------------------------------------------------------------- */

/* perf's names: "branches", not the event alias "branch-instructions" */
static const char *const hw_names[] = {
    "cycles",
    "instructions",
    "cache-references",
    "cache-misses",
    "branches",
    "branch-misses",
    "bus-cycles",
    "stalled-cycles-frontend",
    "stalled-cycles-backend",
    "ref-cycles",
};

static const char *const sw_names[] = {
    "cpu-clock",	"task-clock",	"page-faults",	"context-switches",
    "cpu-migrations",	"minor-faults", "major-faults", "alignment-faults",
    "emulation-faults", "dummy",	"bpf-output",	"cgroup-switches",
};

static const char *const cache_names[] = {
    "L1-dcache", "L1-icache", "LLC", "dTLB", "iTLB", "branch", "node",
};

static const char *const cache_op[][2] = {
    {"load", "loads"},
    {"store", "stores"},
    {"prefetch", "prefetches"},
};

/*
 * The modifier suffix perf 6.1 derives from the attr: k/u/h for the
 * privilege levels counted (only when some are excluded), p per precise
 * level, and H/G for host/guest when exclude_guest differs from what the
 * other modifiers imply ("cycles:ppH", "instructions:uH", "cycles:HG").
 */
static void evsel__add_modifiers(const struct evsel *evsel, char *bf, size_t size)
{
	const struct perf_event_attr *a = &evsel->attr;
	bool guest_default = false;
	size_t r = strlen(bf);
	char mod[16];
	int n = 0, i;

	if (a->exclude_kernel || a->exclude_user || a->exclude_hv) {
		if (!a->exclude_kernel)
			mod[n++] = 'k';
		if (!a->exclude_user)
			mod[n++] = 'u';
		if (!a->exclude_hv)
			mod[n++] = 'h';
		guest_default = true;
	}
	if (a->precise_ip) {
		for (i = 0; i < (int)a->precise_ip && i < 3; i++)
			mod[n++] = 'p';
		guest_default = true;
	}
	if (a->exclude_host || (bool)a->exclude_guest == guest_default) {
		if (!a->exclude_host)
			mod[n++] = 'H';
		if (!a->exclude_guest)
			mod[n++] = 'G';
	}
	mod[n] = '\0';
	if (n)
		snprintf(bf + r, size - r, ":%s", mod);
}

static void evsel__default_name(const struct evsel *evsel, char *bf, size_t size)
{
	const struct perf_event_attr *a = &evsel->attr;
	u64 c = a->config;

	switch (a->type) {
	case PERF_TYPE_HARDWARE:
		if ((c & 0xffffffff) < ARRAY_SIZE(hw_names))
			snprintf(bf, size, "%s", hw_names[c & 0xffffffff]);
		else
			snprintf(bf, size, "unknown-hardware");
		break;
	case PERF_TYPE_SOFTWARE:
		if (c < ARRAY_SIZE(sw_names))
			snprintf(bf, size, "%s", sw_names[c]);
		else
			snprintf(bf, size, "unknown-software");
		break;
	case PERF_TYPE_HW_CACHE: {
		u64 type = c & 0xff, op = (c >> 8) & 0xff, res = (c >> 16) & 0xff;

		if (type >= ARRAY_SIZE(cache_names) || op >= ARRAY_SIZE(cache_op) || res > 1)
			snprintf(bf, size, "unknown-ext-hardware-cache-type");
		else if (res == 1)
			snprintf(bf, size, "%s-%s-misses", cache_names[type], cache_op[op][0]);
		else
			snprintf(bf, size, "%s-%s", cache_names[type], cache_op[op][1]);
		break;
	}
	case PERF_TYPE_TRACEPOINT:
		/* the script layer names it from the tracing data */
		snprintf(bf, size, "tracepoint:%" PRIu64, c);
		return;
	case PERF_TYPE_BREAKPOINT:
		snprintf(bf, size, "mem:0x%" PRIx64 ":%s%s%s", (u64)a->bp_addr,
			 a->bp_type & 1 ? "r" : "", a->bp_type & 2 ? "w" : "",
			 a->bp_type & 4 ? "x" : "");
		break;
	case PERF_TYPE_RAW:
		snprintf(bf, size, "raw 0x%" PRIx64, c);
		break;
	default:
		snprintf(bf, size, "unknown attr type: %u", a->type);
		return;
	}
	evsel__add_modifiers(evsel, bf, size);
}

const char *evsel__name(struct evsel *evsel)
{
	char bf[128];

	if (evsel->name)
		return evsel->name;
	evsel__default_name(evsel, bf, sizeof(bf));
	evsel->name = strdup(bf);
	return evsel->name ?: "unknown";
}

int evsel__set_name(struct evsel *evsel, const char *name)
{
	char *n = strdup(name);

	if (!n)
		return -ENOMEM;
	free(evsel->name);
	evsel->name = n;
	return 0;
}

/* --- sample parsing ---------------------------------------------------- */

struct sample_cursor {
	const u8 *p;
	const u8 *end;
};

static inline bool cur_need(const struct sample_cursor *c, u64 n)
{
	return (u64)(c->end - c->p) >= n;
}

static inline int cur_u64(struct sample_cursor *c, u64 *v)
{
	if (!cur_need(c, 8))
		return -EFAULT;
	memcpy(v, c->p, 8);
	c->p += 8;
	return 0;
}

/* a u64 slot holding two u32 (pid/tid, cpu/res) in memory order */
static inline int cur_u32_pair(struct sample_cursor *c, u32 *a, u32 *b)
{
	if (!cur_need(c, 8))
		return -EFAULT;
	memcpy(a, c->p, 4);
	memcpy(b, c->p + 4, 4);
	c->p += 8;
	return 0;
}

static int parse_id_trailer(const struct evsel *evsel, const union perf_event *event,
			    struct perf_sample *s)
{
	u64 st = evsel->attr.sample_type;
	const u8 *start = (const u8 *)event + sizeof(event->header);
	const u8 *p = (const u8 *)event + event->header.size;
	u32 dummy;

#define TRAILER_U64(v)                  \
	do {                            \
		if (p - 8 < start)      \
			return -EFAULT; \
		p -= 8;                 \
		memcpy(&(v), p, 8);     \
	} while (0)

	if (st & PERF_SAMPLE_IDENTIFIER)
		TRAILER_U64(s->id);
	if (st & PERF_SAMPLE_CPU) {
		if (p - 8 < start)
			return -EFAULT;
		p -= 8;
		memcpy(&s->cpu, p, 4);
		memcpy(&dummy, p + 4, 4);
	}
	if (st & PERF_SAMPLE_STREAM_ID)
		TRAILER_U64(s->stream_id);
	if (st & PERF_SAMPLE_ID)
		TRAILER_U64(s->id);
	if (st & PERF_SAMPLE_TIME)
		TRAILER_U64(s->time);
	if (st & PERF_SAMPLE_TID) {
		if (p - 8 < start)
			return -EFAULT;
		p -= 8;
		memcpy(&s->pid, p, 4);
		memcpy(&s->tid, p + 4, 4);
	}
#undef TRAILER_U64
	s->fields_end = p - (const u8 *)event;
	return 0;
}

static int parse_regs(struct sample_cursor *c, struct regs_dump *regs, u64 mask)
{
	u64 n;

	if (cur_u64(c, &regs->abi))
		return -EFAULT;
	regs->mask = mask;
	regs->regs = NULL;
	if (!regs->abi)
		return 0;
	n = __builtin_popcountll(mask);
	if (!cur_need(c, n * 8))
		return -EFAULT;
	regs->regs = (const u64 *)c->p;
	c->p += n * 8;
	return 0;
}

static int parse_read(const struct evsel *evsel, struct sample_cursor *c, struct perf_sample *s)
{
	u64 rf = evsel->attr.read_format;
	struct sample_read *r = &s->read;
	u64 entry = 8, v;

	if (rf & PERF_FORMAT_GROUP) {
		if (cur_u64(c, &r->nr))
			return -EFAULT;
		if ((rf & PERF_FORMAT_TOTAL_TIME_ENABLED) && cur_u64(c, &r->time_enabled))
			return -EFAULT;
		if ((rf & PERF_FORMAT_TOTAL_TIME_RUNNING) && cur_u64(c, &r->time_running))
			return -EFAULT;
		entry += (rf & PERF_FORMAT_ID ? 8 : 0) + (rf & PERF_FORMAT_LOST ? 8 : 0);
		if (r->nr > (u64)(c->end - c->p) / entry)
			return -EFAULT;
		r->values = (const u64 *)c->p;
		c->p += r->nr * entry;
		if (r->nr) {
			memcpy(&r->one_value, r->values, 8);
			if (rf & PERF_FORMAT_ID)
				memcpy(&r->one_id, r->values + 1, 8);
		}
		return 0;
	}
	r->nr = 1;
	r->values = (const u64 *)c->p;
	if (cur_u64(c, &r->one_value))
		return -EFAULT;
	if ((rf & PERF_FORMAT_TOTAL_TIME_ENABLED) && cur_u64(c, &r->time_enabled))
		return -EFAULT;
	if ((rf & PERF_FORMAT_TOTAL_TIME_RUNNING) && cur_u64(c, &r->time_running))
		return -EFAULT;
	if ((rf & PERF_FORMAT_ID) && cur_u64(c, &r->one_id))
		return -EFAULT;
	if ((rf & PERF_FORMAT_LOST) && cur_u64(c, &v))
		return -EFAULT;
	return 0;
}

static inline const struct sample_layout *evsel__layout(const struct evsel *evsel,
							struct sample_layout *tmp);

/*
 * The fields of a sample of a fast layout whose sizes
 * sample_layout__check() found right: each at its known offset, as the
 * parse below would read them one after the other, without its checks
 * of each sample_type bit and of the room left (a fifth of the parse's
 * cost on a profile)
 */
static __always_inline void sample_layout__parse(const struct sample_layout *l,
						 const union perf_event *event,
						 struct perf_sample *s)
{
	const u8 *body = (const u8 *)event + sizeof(event->header), *p;
	u64 nr;

	if (l->ip)
		memcpy(&s->ip, body + l->ip - 1, 8);
	if (l->tid) {
		memcpy(&s->pid, body + l->tid - 1, 4);
		memcpy(&s->tid, body + l->tid + 3, 4);
	}
	if (l->time)
		memcpy(&s->time, body + l->time - 1, 8);
	if (l->addr)
		memcpy(&s->addr, body + l->addr - 1, 8);
	if (l->id)
		memcpy(&s->id, body + l->id - 1, 8);
	if (l->stream_id)
		memcpy(&s->stream_id, body + l->stream_id - 1, 8);
	if (l->cpu)
		memcpy(&s->cpu, body + l->cpu - 1, 4);
	if (l->period)
		memcpy(&s->period, body + l->period - 1, 8);
	p = body + l->head;
	if (l->callchain) {
		s->callchain = (const struct ip_callchain *)p;
		memcpy(&nr, p, 8);
		p += 8 + nr * 8;
	}
	if (l->tail) {
		static const struct {
			u64 bit;
			size_t off;
		} tail[] = {
		    {PERF_SAMPLE_DATA_SRC, offsetof(struct perf_sample, data_src)},
		    {PERF_SAMPLE_TRANSACTION, offsetof(struct perf_sample, transaction)},
		    {PERF_SAMPLE_PHYS_ADDR, offsetof(struct perf_sample, phys_addr)},
		    {PERF_SAMPLE_CGROUP, offsetof(struct perf_sample, cgroup)},
		    {PERF_SAMPLE_DATA_PAGE_SIZE, offsetof(struct perf_sample, data_page_size)},
		    {PERF_SAMPLE_CODE_PAGE_SIZE, offsetof(struct perf_sample, code_page_size)},
		};
		size_t i;

		for (i = 0; i < ARRAY_SIZE(tail); i++) {
			if (!(l->st & tail[i].bit))
				continue;
			memcpy((char *)s + tail[i].off, p, 8);
			p += 8;
		}
	}
	s->fields_end = p - (const u8 *)event;
}

/*
 * With !@zero the fields the record does not set are left as they were:
 * the parse itself reads no field before writing it, so its verdict and
 * the fields it sets do not depend on that.
 */
static __always_inline int __evsel__parse_sample(const struct evsel *evsel,
						 const union perf_event *event,
						 struct perf_sample *s, bool zero, bool fast)
{
	u64 st = evsel->attr.sample_type;
	struct sample_cursor c;
	u32 res;
	u64 v;

	if (zero)
		memset(s, 0, sizeof(*s));
	s->pid = s->tid = (u32)-1;
	s->cpu = (u32)-1;
	s->id = s->stream_id = s->time = (u64)-1;
	s->period = evsel->attr.sample_period;
	s->data_src = PERF_MEM_DATA_SRC_NONE;
	s->misc = event->header.misc;
	s->cpumode = event->header.misc & PERF_RECORD_MISC_CPUMODE_MASK;
	s->no_hw_idx = true;

	if (event->header.size < sizeof(event->header))
		return -EFAULT;
	s->fields_end = event->header.size;
	if (event->header.type != PERF_RECORD_SAMPLE) {
		if (!evsel->attr.sample_id_all)
			return 0;
		return parse_id_trailer(evsel, event, s);
	}

	if (fast) {
		struct sample_layout tmp;
		const struct sample_layout *l = evsel__layout(evsel, &tmp);

		if (l->fast) {
			if (sample_layout__check(l, &event->header))
				return -EFAULT;
			sample_layout__parse(l, event, s);
			return 0;
		}
	}

	c.p = (const u8 *)event + sizeof(event->header);
	c.end = (const u8 *)event + event->header.size;

	if ((st & PERF_SAMPLE_IDENTIFIER) && cur_u64(&c, &s->id))
		return -EFAULT;
	if ((st & PERF_SAMPLE_IP) && cur_u64(&c, &s->ip))
		return -EFAULT;
	if ((st & PERF_SAMPLE_TID) && cur_u32_pair(&c, &s->pid, &s->tid))
		return -EFAULT;
	if ((st & PERF_SAMPLE_TIME) && cur_u64(&c, &s->time))
		return -EFAULT;
	if ((st & PERF_SAMPLE_ADDR) && cur_u64(&c, &s->addr))
		return -EFAULT;
	if ((st & PERF_SAMPLE_ID) && cur_u64(&c, &s->id))
		return -EFAULT;
	if ((st & PERF_SAMPLE_STREAM_ID) && cur_u64(&c, &s->stream_id))
		return -EFAULT;
	if ((st & PERF_SAMPLE_CPU) && cur_u32_pair(&c, &s->cpu, &res))
		return -EFAULT;
	if ((st & PERF_SAMPLE_PERIOD) && cur_u64(&c, &s->period))
		return -EFAULT;
	if ((st & PERF_SAMPLE_READ) && parse_read(evsel, &c, s))
		return -EFAULT;
	if (st & PERF_SAMPLE_CALLCHAIN) {
		if (cur_u64(&c, &v) || v > (u64)(c.end - c.p) / 8)
			return -EFAULT;
		s->callchain = (const struct ip_callchain *)(c.p - 8);
		c.p += v * 8;
	}
	if (st & PERF_SAMPLE_RAW) {
		if (!cur_need(&c, 4))
			return -EFAULT;
		memcpy(&s->raw_size, c.p, 4);
		if (!cur_need(&c, 4 + (u64)s->raw_size))
			return -EFAULT;
		s->raw_data = c.p + 4;
		/* the kernel pads size + data to a u64; keep what follows aligned */
		c.p += PERF_ALIGN(4 + (u64)s->raw_size, 8);
		if (c.p > c.end)
			return -EFAULT;
	}
	if (st & PERF_SAMPLE_BRANCH_STACK) {
		u64 bst = evsel->attr.branch_sample_type;

		if (cur_u64(&c, &s->branch_nr))
			return -EFAULT;
		if (bst & PERF_SAMPLE_BRANCH_HW_INDEX) {
			s->no_hw_idx = false;
			if (cur_u64(&c, &s->branch_hw_idx))
				return -EFAULT;
		}
		if (s->branch_nr > (u64)(c.end - c.p) / sizeof(struct branch_entry))
			return -EFAULT;
		s->branch_entries = (const struct branch_entry *)c.p;
		c.p += s->branch_nr * sizeof(struct branch_entry);
		if (bst & PERF_SAMPLE_BRANCH_COUNTERS) {
			if (s->branch_nr > (u64)(c.end - c.p) / 8)
				return -EFAULT;
			c.p += s->branch_nr * 8;
		}
	}
	if ((st & PERF_SAMPLE_REGS_USER) &&
	    parse_regs(&c, &s->user_regs, evsel->attr.sample_regs_user))
		return -EFAULT;
	if (st & PERF_SAMPLE_STACK_USER) {
		s->user_stack.offset = c.p - (const u8 *)event;
		if (cur_u64(&c, &s->user_stack.size))
			return -EFAULT;
		if (s->user_stack.size) {
			if (s->user_stack.size > (u64)(c.end - c.p) || s->user_stack.size % 8)
				return -EFAULT;
			s->user_stack.data = (const char *)c.p;
			c.p += s->user_stack.size;
			/* as perf: a dump larger than its buffer is corrupt */
			if (cur_u64(&c, &s->user_stack.dyn_size) ||
			    s->user_stack.dyn_size > s->user_stack.size)
				return -EFAULT;
		}
	}
	if (st & PERF_SAMPLE_WEIGHT_TYPE) {
		if (cur_u64(&c, &v))
			return -EFAULT;
		if (st & PERF_SAMPLE_WEIGHT_STRUCT) {
			s->weight = v & 0xffffffff;
			s->ins_lat = (v >> 32) & 0xffff;
			s->p_stage_cyc = v >> 48;
		} else {
			s->weight = v;
		}
	}
	if ((st & PERF_SAMPLE_DATA_SRC) && cur_u64(&c, &s->data_src))
		return -EFAULT;
	if ((st & PERF_SAMPLE_TRANSACTION) && cur_u64(&c, &s->transaction))
		return -EFAULT;
	if ((st & PERF_SAMPLE_REGS_INTR) &&
	    parse_regs(&c, &s->intr_regs, evsel->attr.sample_regs_intr))
		return -EFAULT;
	if ((st & PERF_SAMPLE_PHYS_ADDR) && cur_u64(&c, &s->phys_addr))
		return -EFAULT;
	if ((st & PERF_SAMPLE_CGROUP) && cur_u64(&c, &s->cgroup))
		return -EFAULT;
	if ((st & PERF_SAMPLE_DATA_PAGE_SIZE) && cur_u64(&c, &s->data_page_size))
		return -EFAULT;
	if ((st & PERF_SAMPLE_CODE_PAGE_SIZE) && cur_u64(&c, &s->code_page_size))
		return -EFAULT;
	if (st & PERF_SAMPLE_AUX) {
		if (cur_u64(&c, &s->aux_size) || s->aux_size > (u64)(c.end - c.p))
			return -EFAULT;
		s->aux_data = c.p;
		c.p += s->aux_size;
	}
	s->fields_end = c.p - (const u8 *)event;
	return 0;
}

int evsel__parse_sample(const struct evsel *evsel, const union perf_event *event,
			struct perf_sample *s)
{
	return __evsel__parse_sample(evsel, event, s, true, true);
}

int evsel__parse_sample_slow(const struct evsel *evsel, const union perf_event *event,
			     struct perf_sample *s)
{
	return __evsel__parse_sample(evsel, event, s, true, false);
}

/* u64 fields before PERF_SAMPLE_READ, and after the callchain, in parse order */
#define SAMPLE_FIXED_HEAD                                                               \
	(PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | \
	 PERF_SAMPLE_ADDR | PERF_SAMPLE_ID | PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU |  \
	 PERF_SAMPLE_PERIOD)
#define SAMPLE_FIXED_TAIL                                                         \
	(PERF_SAMPLE_DATA_SRC | PERF_SAMPLE_TRANSACTION | PERF_SAMPLE_PHYS_ADDR | \
	 PERF_SAMPLE_CGROUP | PERF_SAMPLE_DATA_PAGE_SIZE | PERF_SAMPLE_CODE_PAGE_SIZE)

/*
 * Where the fields of a sample of only u64 fields and a callchain lie:
 * the checks the parse would make are then a few size comparisons, and
 * time, cpu and id sit at fixed offsets.  Worked out once per evsel (the
 * record order is not the bits' order: IDENTIFIER is first, STREAM_ID
 * comes before CPU).
 */
void sample_layout__init(struct sample_layout *l, u64 st)
{
	static const u64 order[] = {
	    PERF_SAMPLE_IDENTIFIER, PERF_SAMPLE_IP, PERF_SAMPLE_TID,	   PERF_SAMPLE_TIME,
	    PERF_SAMPLE_ADDR,	    PERF_SAMPLE_ID, PERF_SAMPLE_STREAM_ID, PERF_SAMPLE_CPU,
	};
	u16 off = 0;
	size_t i;

	memset(l, 0, sizeof(*l));
	l->st = st;
	l->valid = true;
	l->fast = !(st & ~(SAMPLE_FIXED_HEAD | SAMPLE_FIXED_TAIL | PERF_SAMPLE_CALLCHAIN));
	for (i = 0; i < ARRAY_SIZE(order); i++) {
		if (!(st & order[i]))
			continue;
		/* as the parse takes them: the id of IDENTIFIER, then ID's over it */
		if (order[i] == PERF_SAMPLE_TIME)
			l->time = off + 1;
		else if (order[i] == PERF_SAMPLE_CPU)
			l->cpu = off + 1;
		else if (order[i] == PERF_SAMPLE_IDENTIFIER || order[i] == PERF_SAMPLE_ID)
			l->id = off + 1;
		else if (order[i] == PERF_SAMPLE_IP)
			l->ip = off + 1;
		else if (order[i] == PERF_SAMPLE_TID)
			l->tid = off + 1;
		else if (order[i] == PERF_SAMPLE_ADDR)
			l->addr = off + 1;
		else if (order[i] == PERF_SAMPLE_STREAM_ID)
			l->stream_id = off + 1;
		off += 8;
	}
	/* PERIOD comes last of the head, after CPU */
	if (st & PERF_SAMPLE_PERIOD)
		l->period = off + 1;
	l->head = 8 * __builtin_popcountll(st & SAMPLE_FIXED_HEAD);
	l->tail = 8 * __builtin_popcountll(st & SAMPLE_FIXED_TAIL);
	l->callchain = st & PERF_SAMPLE_CALLCHAIN;
}

/* the evsel's layout, or one worked out now for an evsel not made by evlist__add() */
static inline const struct sample_layout *evsel__layout(const struct evsel *evsel,
							struct sample_layout *tmp)
{
	if (evsel->layout.valid && evsel->layout.st == evsel->attr.sample_type)
		return &evsel->layout;
	sample_layout__init(tmp, evsel->attr.sample_type);
	return tmp;
}

const struct sample_layout *evlist__uniform_layout(struct evlist *evlist)
{
	struct evsel *first;
	int i;

	if (!evlist->nr_entries)
		return NULL;
	first = evlist->entries[0];
	for (i = 1; i < evlist->nr_entries; i++)
		if (evlist->entries[i]->attr.sample_type != first->attr.sample_type)
			return NULL;
	if (!first->layout.valid || first->layout.st != first->attr.sample_type)
		sample_layout__init(&first->layout, first->attr.sample_type);
	return first->layout.fast ? &first->layout : NULL;
}

int evsel__parse_sample_key(const struct evsel *evsel, const union perf_event *event,
			    struct sample_key *key)
{
	struct sample_layout tmp;
	const struct sample_layout *l = evsel__layout(evsel, &tmp);
	struct perf_sample s;
	int err;

	if (event->header.type == PERF_RECORD_SAMPLE && l->fast)
		return sample_layout__key(l, &event->header, key);
	err = __evsel__parse_sample(evsel, event, &s, false, false);
	key->time = s.time;
	key->cpu = s.cpu;
	key->id = s.id;
	return err;
}

bool evsel__sample_ip(const struct evsel *evsel, const union perf_event *event, u64 *ip)
{
	const struct sample_layout *l = &evsel->layout;

	if (!l->valid || l->st != evsel->attr.sample_type || !l->fast || !l->ip ||
	    event->header.type != PERF_RECORD_SAMPLE || sample_layout__check(l, &event->header))
		return false;
	memcpy(ip, (const u8 *)event + sizeof(event->header) + l->ip - 1, 8);
	return true;
}

int evsel__parse_sample_time(const struct evsel *evsel, const union perf_event *event, u64 *time)
{
	struct sample_key key;
	int err = evsel__parse_sample_key(evsel, event, &key);

	*time = key.time;
	return err;
}
