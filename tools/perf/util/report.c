// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf textpoke report: one ordered pass over the recording that feeds
 * every sample, resolved at its time, to the profile (report-hist.c) and
 * to the code-change report (report-changes.c), then the text, JSON or
 * HTML output.  The code-change report needs the whole history of the
 * kernel's code first, so the text image is built from a side-band pass
 * before the sample pass; without it the profile still comes out.
 *
 * The options and filters are report-options.c's.
 *
 * Nothing is printed before the pass has succeeded: a bad record leaves
 * an error naming it and no partial report.
 *
 * A sample with a callchain also gives its period to the entries of its
 * chain's frames (perf's --children): the whole chain as perf resolves
 * it, the recorded one and, for --call-graph dwarf, the user frames one
 * unwinder for the pass unwinds from the stack dump.  perf 6.1 decides
 * on Children before the first record, so a pipe, whose events come as
 * records, never gets them.
 */
#include <errno.h>
#include <regex.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "debug.h"
#include "dso.h"
#include "evsel.h"
#include "interrupt.h"
#include "itrace.h"
#include "machine.h"
#include "map.h"
#include "report-chain-cache.h"
#include "report-changes.h"
#include "report-group.h"
#include "report-tasks.h"
#include "report-threads.h"
#include "report-internal.h"
#include "report-output.h"
#include "report.h"
#include "session.h"
#include "session-workers.h"
#include "symbol.h"
#include "thread.h"
#include "time-utils.h"
#include "trace-event.h"
#include "unwind.h"

/*
 * Tracepoints are named "system:name" from the recording's tracing data,
 * as perf names them; a pipe carries that data as a record, so this runs
 * again once it has come.
 */
static void report__name_tracepoints(struct report *r)
{
	struct perf_env *env = &r->session->env;
	struct evlist *evlist = r->session->evlist;
	struct trace_events *te;
	int i;

	if (r->trace_tried || !env->tracing_data || !env->tracing_data_size || !evlist)
		return;
	r->trace_tried = true;
	te = trace_events__new(env->tracing_data, env->tracing_data_size, r->session->path,
			       env->tracing_data_offset);
	for (i = 0; te && i < evlist->nr_entries; i++) {
		struct evsel *evsel = evlist->entries[i];
		void *format;
		char name[256];

		if (evsel->attr.type != PERF_TYPE_TRACEPOINT ||
		    (evsel->name && strchr(evsel->name, ':')))
			continue;
		format = trace_events__find(te, evsel->attr.config);
		if (format && trace_events__name(format, name, sizeof(name)) > 0)
			evsel__set_name(evsel, name);
	}
	trace_events__delete(te);
}

struct chain_arg {
	struct report *r;
	int idx;
	const struct addr_location *al;
	const struct perf_sample *sample;
	unsigned int filtered;
	u64 skip;  /* recorded frames left out: the innermost ones past --max-stack */
	u64 limit; /* callee order: the recorded frames taken, the innermost */
	/* --ignore-callees: the frames kept, by their number in the walk, [lo, hi) */
	size_t nth, keep_lo, keep_hi;
	bool by_time; /* a frame resolved by time: the chain is not cached */
};

/*
 * perf takes --max-stack recorded frames in the order it builds the
 * chain: the recorded chain's frames come innermost first, *@skip of
 * them left out (caller order: the outermost kept), or once *@limit are
 * taken the rest (callee order)
 */
static void report__max_stack(const struct report *r, const struct perf_sample *sample, u64 *skip,
			      u64 *limit)
{
	unsigned int max_stack = r->opts->max_stack;
	u64 i, nr = 0;

	for (i = 0; i < sample->callchain->nr; i++)
		if (sample->callchain->ips[i] < PERF_CONTEXT_MAX)
			nr++;
	*skip = *limit = 0;
	if (r->callee_order)
		*limit = nr > max_stack ? max_stack : 0;
	else
		*skip = nr > max_stack ? nr - max_stack : 0;
}

static int report__frame(struct callchain_frame *frame, void *arg)
{
	struct chain_arg *ca = arg;
	struct report *r = ca->r;
	long entry = -1;
	size_t nth = ca->nth++;
	int err;

	/* --max-stack counts the frames perf resolved before a --ignore-callees root too */
	if (ca->skip) {
		ca->skip--;
		return 0;
	}
	if (ca->limit && !frame->unwound && !--ca->limit)
		ca->skip = UINT64_MAX;
	if (nth < ca->keep_lo || nth >= ca->keep_hi)
		return 0;
	if (frame->cpumode == PERF_RECORD_MISC_KERNEL && !ca->by_time &&
	    machine__kernel_by_time(r->session->machine, frame->ip, frame->al.map))
		ca->by_time = true;
	if (r->children) {
		err = report_hists__add_frame(r->hists, ca->idx, frame, ca->al, ca->sample,
					      ca->filtered);
		if (err)
			return err;
		entry = report_hists__frame_entry(r->hists);
	}
	return r->trees ? report_trees__frame(r->trees, frame, entry) : 0;
}

/*
 * Whether the chain's effects may come from the chain cache: a chain as
 * recorded (no stack to unwind, no branch stack to build it from), whose
 * entries depend on nothing but its frames and the key (no cpu, ABI or
 * parent key, no --ignore-callees cut)
 */
static bool report__chain_cacheable(const struct report *r, const struct evsel *evsel,
				    const struct perf_sample *sample, size_t root)
{
	const bool *key = r->layout.key;

	return r->chain_cache && root == SIZE_MAX && !r->ignore_regex_set && !key[SORT_CPU] &&
	       !key[SORT_ABI] && !key[SORT_PARENT] &&
	       !(evsel->attr.sample_type & PERF_SAMPLE_BRANCH_STACK) &&
	       !unwind__sample_has_stack(evsel->attr.sample_type, sample) && sample->callchain &&
	       sample->callchain->nr && sample->callchain->nr <= UINT32_MAX;
}

/*
 * Children: the entries of the sample's chain, each once.  perf report
 * --children resolves a chain caller first, so --max-stack keeps the
 * recorded chain's outermost frames; the unwinder's frames are the
 * innermost ones in either order.
 */
static int report__chain(struct report *r, struct evsel *evsel, const struct addr_location *al,
			 struct perf_sample *sample, unsigned int filtered, size_t root)
{
	struct chain_arg ca = {r, evsel->idx, al, sample, filtered, 0, 0, 0, 0, SIZE_MAX, false};
	u64 sample_type = evsel->attr.sample_type, hash = 0;
	struct chain_cache_key key;
	bool cache = false;
	unsigned int max_stack = r->opts->max_stack;
	struct perf_sample user;
	bool lbr;
	int err;

	/* --ignore-callees: the root's frame and those perf resolved after it, outward or inward */
	if (root != SIZE_MAX && !r->parent_caller)
		ca.keep_lo = root;
	else if (root != SIZE_MAX)
		ca.keep_hi = root + 1;
	if (!max_stack)
		return 0;
	if (report__chain_cacheable(r, evsel, sample, root)) {
		struct chain_cached hit;

		key = (struct chain_cache_key){
		    .thread = al->thread,
		    .maps = al->thread->maps,
		    .maps_gen = maps__gen(al->thread->maps),
		    .kmaps_gen = machine__kmaps_gen(r->session->machine),
		    .comm = thread__comm_str(al->thread),
		    .pid = al->thread->pid,
		    .tid = al->thread->tid,
		    .self = report_hists__sample_entry(r->hists),
		    .hist = evsel->idx,
		    .filtered = filtered,
		    .ips = sample->callchain->ips,
		    .nr = (u32)sample->callchain->nr,
		};
		hash = chain_cache_key__hash(&key);
		if (chain_cache__find(r->chain_cache, &key, hash, &hit)) {
			if (r->children)
				report_hists__add_children(r->hists, evsel->idx, hit.entries,
							   hit.nr_entries, sample->period);
			if (r->trees)
				report_trees__add_chain(r->trees, hit.rec, sample->period);
			return 0;
		}
		cache = true;
	}
	if (r->trees)
		report_trees__begin(r->trees, evsel->idx, report_hists__sample_entry(r->hists));
	/* an LBR call stack's chain: whole, --max-stack finds its user marker only */
	err = thread__walk_lbr_callchain(al->thread, sample, &evsel->attr, max_stack,
					 !r->callee_order, &lbr, report__frame, &ca);
	if (lbr)
		goto out;
	report__max_stack(r, sample, &ca.skip, &ca.limit);
	err = thread__walk_callchain(al->thread, sample, report__frame, &ca);
	if (err || !unwind__sample_has_stack(sample_type, sample))
		goto out;
	if (!r->unwinder) {
		r->unwinder = unwinder__new();
		if (!r->unwinder) {
			err = -ENOMEM;
			goto out;
		}
	}
	/* the unwound part alone: the recorded one is counted above */
	ca.skip = 0;
	ca.limit = 0;
	user = *sample;
	user.callchain = NULL;
	err = thread__walk_sample_chain(al->thread, &user, &evsel->attr, r->unwinder, max_stack,
					!r->opts->no_inline, report__frame, &ca);
out:
	report_hists__end_chain(r->hists, evsel->idx);
	if (!err && r->trees)
		err = report_trees__end(r->trees, sample->period, r->children);
	if (!err && cache && !ca.by_time) {
		const u32 *entries = NULL;
		size_t nr_entries = 0;

		if (r->children)
			entries = report_hists__chain_entries(r->hists, &nr_entries);
		/* the sample's own entry is in the key, not among those given again */
		err = chain_cache__add(r->chain_cache, &key, hash, entries ? entries + 1 : NULL,
				       nr_entries ? (u32)nr_entries - 1 : 0,
				       r->trees ? report_trees__last_chain(r->trees) :
						  CHAIN_CACHE_NO_REC);
	}
	return err;
}

/*
 * --tasks, --mmaps: perf processes the records that make threads (COMM,
 * FORK, EXIT) and, for --mmaps, their maps; nothing else, samples
 * neither, so a thread seen only in samples or maps is not listed
 */
static int report__tasks_side_band(struct perf_tool *tool, union perf_event *event,
				   struct perf_sample *sample, struct evsel *evsel __maybe_unused,
				   struct machine *machine)
{
	struct report *r = (struct report *)tool;

	switch (event->header.type) {
	case PERF_RECORD_COMM:
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		break;
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		if (r->opts->mmaps)
			break;
		return 0;
	default:
		return 0;
	}
	return machine__process_event(machine, event, sample);
}

/* -T: the READ records' counts; every record then goes to the machine as without */
static int report__threads_side_band(struct perf_tool *tool, union perf_event *event,
				     struct perf_sample *sample, struct evsel *evsel,
				     struct machine *machine)
{
	struct report *r = (struct report *)tool;

	if (event->header.type == PERF_RECORD_READ) {
		int err = report_threads__add(&r->threads, event->read.pid, event->read.tid,
					      evsel->idx, evsel__name(evsel), event->read.value);

		if (err)
			return err;
	}
	return machine__process_event(machine, event, sample);
}

/* a pipe's events come as records: the counts grow with the evlist */
static int report__count_sample(struct report *r, int idx)
{
	if (idx >= r->nr_evsel_samples) {
		int n = idx + 1;
		u64 *p = realloc(r->evsel_samples, n * sizeof(*p));

		if (!p)
			return -ENOMEM;
		memset(p + r->nr_evsel_samples, 0, (n - r->nr_evsel_samples) * sizeof(*p));
		r->evsel_samples = p;
		r->nr_evsel_samples = n;
	}
	r->evsel_samples[idx]++;
	return 0;
}

static int report__walk_frame(struct callchain_frame *frame, void *arg)
{
	struct report *r = arg;
	struct walk_frame *w;

	if (r->nr_walk == r->alloc_walk) {
		size_t alloc = r->alloc_walk ? 2 * r->alloc_walk : 64;

		w = realloc(r->walk, alloc * sizeof(*w));
		if (!w)
			return -ENOMEM;
		r->walk = w;
		r->alloc_walk = alloc;
	}
	r->walk[r->nr_walk++] = (struct walk_frame){
	    .map = frame->al.map,
	    .sym = frame->inlined ? NULL : frame->al.sym,
	    .addr = frame->al.addr,
	    .cpumode = frame->cpumode,
	    .unwound = frame->unwound,
	};
	return 0;
}

/*
 * perf's add_callchain_ip() over the sample's chain, in the order perf
 * resolves it (the outermost first in caller order): the parent is the
 * first frame matching -p, and a frame matching --ignore-callees (not
 * the parent's) becomes the sample's own place, the chain resolved
 * before it forgotten; the last such frame wins.  The chain is the one
 * report__chain() walks, frame for frame; *@root: its number, or
 * SIZE_MAX.
 */
static int report__prewalk(struct report *r, struct evsel *evsel, const struct addr_location *al,
			   struct perf_sample *sample, struct symbol **parent, size_t *root)
{
	bool want_parent = r->layout.key[SORT_PARENT];
	struct perf_sample user;
	size_t i, k;
	bool lbr;
	int err;

	*parent = NULL;
	*root = SIZE_MAX;
	r->nr_walk = 0;
	if (!sample->callchain || !al->thread)
		return 0;
	err = thread__walk_lbr_callchain(al->thread, sample, &evsel->attr, r->opts->max_stack,
					 !r->callee_order, &lbr, report__walk_frame, r);
	if (!lbr)
		err = thread__walk_callchain(al->thread, sample, report__walk_frame, r);
	if (!lbr && !err && unwind__sample_has_stack(evsel->attr.sample_type, sample)) {
		if (!r->unwinder && !(r->unwinder = unwinder__new()))
			return -ENOMEM;
		user = *sample;
		user.callchain = NULL;
		err = thread__walk_sample_chain(al->thread, &user, &evsel->attr, r->unwinder,
						r->opts->max_stack, !r->opts->no_inline,
						report__walk_frame, r);
	}
	if (err)
		return err;
	/*
	 * perf's add_callchain_ip() sees the recorded frames within
	 * --max-stack (as report__chain() takes them), never the unwound
	 * ones, which its unwinder appends past it: those match nothing
	 */
	if (!lbr) {
		u64 skip, limit;

		report__max_stack(r, sample, &skip, &limit);
		for (k = 0; k < r->nr_walk; k++) {
			struct walk_frame *w = &r->walk[k];

			if (skip) {
				skip--;
				w->sym = NULL;
				continue;
			}
			if (limit && !w->unwound && !--limit)
				skip = UINT64_MAX;
			if (w->unwound)
				w->sym = NULL;
		}
	}
	for (k = 0; k < r->nr_walk; k++) {
		const struct walk_frame *w;

		i = r->parent_caller ? r->nr_walk - 1 - k : k;
		w = &r->walk[i];
		if (!w->sym)
			continue;
		if (want_parent && !*parent &&
		    !regexec(&r->parent_regex, symbol__name(w->sym), 0, NULL, 0))
			*parent = w->sym;
		else if (r->ignore_regex_set &&
			 !regexec(&r->ignore_regex, symbol__name(w->sym), 0, NULL, 0))
			*root = i;
	}
	return 0;
}

static int report__sample_one(struct report *r, struct perf_sample *sample, struct evsel *evsel,
			      struct machine *machine)
{
	struct addr_location al, sal;
	size_t root = SIZE_MAX;
	unsigned int filtered;
	int err;

	if (report__skip_time(r, sample->time))
		return 0;
	if (r->changes)
		report_changes__sample(r->changes, sample->ip, sample->cpumode, sample->time);
	if (sample->time)
		report_density__add(&r->density, sample->time);
	if (report_filters__skip_cpu(&r->filter, sample->cpu))
		return 0;
	addr_location__init(&al);
	err = machine__resolve(machine, &al, sample);
	if (err) {
		pr_err("%s: sample at %#llx: %s\n", r->session->path,
		       (unsigned long long)r->session->cur_offset, strerror(-err));
		goto out;
	}
	filtered = report__filtered(r, &al);
	/*
	 * -x without the parent key: perf finds no parent, and its
	 * exclude_other filters every entry (symbol__parent_filter())
	 */
	if (r->opts->exclude_other && !r->layout.key[SORT_PARENT])
		filtered |= REPORT_FILTER_OTHER;
	/* perf resolves the chain (parent, --ignore-callees) only when it uses it */
	if (r->layout.key[SORT_PARENT] || (r->ignore_regex_set && (r->children || r->trees))) {
		struct symbol *parent;

		err = report__prewalk(r, evsel, &al, sample, &parent, &root);
		if (!err && r->layout.key[SORT_PARENT])
			err = report_hists__set_parent(r->hists,
						       parent ? symbol__name(parent) : NULL);
		if (err)
			goto out_err;
		/* -x: perf's exclude_other filters the entries without a parent */
		if (!parent && r->opts->exclude_other && r->layout.key[SORT_PARENT])
			filtered |= REPORT_FILTER_OTHER;
		if (!(r->children || r->trees))
			root = SIZE_MAX;
	}
	if (root != SIZE_MAX) {
		/* the frame's place is the sample's, its callees' (callee order) forgotten */
		const struct walk_frame *w = &r->walk[root];

		sal = al;
		sal.map = w->map;
		sal.sym = w->sym;
		sal.addr = w->addr;
		sal.cpumode = w->cpumode;
	}
	report_hists__set_place(r->hists, sample->time, r->session->deliver_offset);
	if (r->trees)
		report_trees__set_place(r->trees, sample->time, r->session->deliver_offset);
	err = report_hists__add(r->hists, evsel->idx, evsel__name(evsel),
				root != SIZE_MAX ? &sal : &al, sample, filtered);
	if (!err && sample->callchain && (r->children || r->trees) && al.thread)
		err = report__chain(r, evsel, &al, sample, filtered, root);
out_err:
	if (err)
		pr_err("%s: sample at %#llx: %s\n", r->session->path,
		       (unsigned long long)r->session->cur_offset, strerror(-err));
out:
	addr_location__exit(&al);
	return err;
}

/* the counter value a PERF_SAMPLE_READ sample last carried for @id: a slot, NULL on ENOMEM */
static u64 *report__read_slot(struct report *r, u64 id)
{
	size_t i;

	for (i = 0; i < r->nr_read_ids; i++)
		if (r->read_ids[i].id == id)
			return &r->read_ids[i].value;
	if (r->nr_read_ids == r->alloc_read_ids) {
		size_t n = 2 * r->alloc_read_ids + 4;
		struct report_read_id *p = realloc(r->read_ids, n * sizeof(*p));

		if (!p)
			return NULL;
		r->read_ids = p;
		r->alloc_read_ids = n;
	}
	r->read_ids[r->nr_read_ids] = (struct report_read_id){.id = id};
	return &r->read_ids[r->nr_read_ids++].value;
}

/*
 * perf's PERF_SAMPLE_READ delivery: a sample carries the values of its
 * event's counter (of each of its group's, with PERF_FORMAT_GROUP); each
 * counter's rise since the last sample that carried it, by its id, is
 * the period of a sample of that counter's event, none when it did not
 * rise.  A counter whose id no event claims is left out, as perf counts
 * it unknown.
 */
static int report__sample_read(struct report *r, struct perf_sample *sample, struct evsel *evsel,
			       struct machine *machine)
{
	u64 rf = evsel->attr.read_format, i;
	u64 entry = 1 + !!(rf & PERF_FORMAT_ID) + !!(rf & PERF_FORMAT_LOST);
	struct evlist *evlist = r->session->evlist;

	for (i = 0; i < sample->read.nr; i++) {
		const u64 *v = sample->read.values + i * entry;
		u64 value, id, *last;
		struct perf_sample one = *sample;
		struct evsel *to;
		int err;

		if (rf & PERF_FORMAT_GROUP) {
			memcpy(&value, v, 8);
			id = 0;
			if (rf & PERF_FORMAT_ID)
				memcpy(&id, v + 1, 8);
		} else {
			value = sample->read.one_value;
			id = sample->read.one_id;
		}
		to = (rf & PERF_FORMAT_ID) ? evlist__id2evsel(evlist, id) : NULL;
		if (!to)
			continue;
		last = report__read_slot(r, id);
		if (!last)
			return -ENOMEM;
		one.id = id;
		one.period = value - *last;
		*last = value;
		if (!one.period)
			continue;
		err = report__sample_one(r, &one, to, machine);
		if (err)
			return err;
	}
	return 0;
}

static int report__sample(struct perf_tool *tool, union perf_event *event,
			  struct perf_sample *sample, struct evsel *evsel, struct machine *machine)
{
	struct report *r = (struct report *)tool;

	if (!r->trace_tried)
		report__name_tracepoints(r);
	/* a recorded sample (a synthesized one has no event): the trace before it first */
	if (event && itrace__active(r->itrace)) {
		const struct ip_callchain *chain;
		int err = itrace__flush_until(r->itrace, sample->time);

		if (err)
			return err;
		chain = itrace__recorded_chain(r->itrace, sample);
		if (chain)
			sample->callchain = chain;
	}
	/*
	 * perf report --stats counts every sample its event got, --time or
	 * not, and prints nothing else of them: no entry, chain or unwind
	 */
	if (r->opts->stats)
		return report__count_sample(r, evsel->idx);
	if (evsel->attr.sample_type & PERF_SAMPLE_READ)
		return report__sample_read(r, sample, evsel, machine);
	return report__sample_one(r, sample, evsel, machine);
}

/*
 * --itrace: the samples script synthesizes from an Intel PT trace (the
 * same decoder, itrace.c) come to report__sample as recorded ones do, in
 * time order among them: the trace up to each record's time is decoded
 * before the record.  With 'g' the instruction samples carry the chains
 * of the trace's call stacks (itrace-stack.c).  Without --itrace a trace
 * is decoded with perf report's own default (instructions every 100 us,
 * with callchains, and the power events).
 */
static int report__itrace_sample(void *arg, struct evsel *evsel, struct perf_sample *sample)
{
	struct report *r = arg;

	return report__sample(&r->tool, NULL, sample, evsel, r->session->machine);
}

static int report__itrace_side_band(struct perf_tool *tool, union perf_event *event,
				    struct perf_sample *sample, struct evsel *evsel,
				    struct machine *machine)
{
	struct report *r = (struct report *)tool;
	int err = itrace__flush_until(r->itrace, sample->time);

	/* -T's READ records counted as without a trace */
	if (!err && r->opts->threads)
		err = report__threads_side_band(tool, event, sample, evsel, machine);
	else if (!err)
		err = machine__process_event(machine, event, sample);
	return err ?: itrace__side_band(r->itrace, event, sample);
}

static int report__itrace_data(struct perf_tool *tool, const void *buf, u64 len)
{
	return itrace__auxtrace_data(((struct report *)tool)->itrace, buf, len);
}

static int report__itrace_user_event(struct perf_tool *tool, union perf_event *event,
				     struct perf_session *session)
{
	struct report *r = (struct report *)tool;
	int err;

	err = itrace__user_event(r->itrace, event, session);
	/* a trace this decoder cannot read (not Intel PT) is said undecoded */
	if (!err && event->header.type == PERF_RECORD_AUXTRACE_INFO)
		r->tool.auxtrace_data = itrace__active(r->itrace) ? report__itrace_data : NULL;
	return err;
}

/* the profile's pass decodes the trace; --stats, --tasks, --mmaps leave it */
static int report__itrace_init(struct report *r)
{
	struct report_opts *o = r->opts;
	struct itrace_opts io = o->itrace;

	if (o->stats || o->tasks || o->mmaps || o->header_only)
		return 0;
	if (!io.set)
		itrace_opts__set_report_default(&io);
	r->itrace = itrace__new(&io, r->session, NULL, o->input, &o->text, NULL, false);
	if (!r->itrace)
		return -ENOMEM;
	if (itrace__set_sink(r->itrace, report__itrace_sample, r))
		return -ENOMEM;
	r->tool.user_event = report__itrace_user_event;
	r->tool.side_band = report__itrace_side_band;
	return 0;
}

/*
 * perf's evlist__combined_sample_type() & PERF_SAMPLE_CALLCHAIN, which
 * perf report sets for --itrace=...g before it knows of a trace
 */
static bool report__has_callchains(const struct report *r)
{
	const struct evlist *evlist = r->session->evlist;

	if (r->itrace_chains)
		return true;
	for (int i = 0; evlist && i < evlist->nr_entries; i++)
		if (evlist->entries[i]->attr.sample_type & PERF_SAMPLE_CALLCHAIN)
			return true;
	return false;
}

/* after each row, its tree */
static void report__fprintf_tree(const struct report_hist *h, const struct hist_entry *e, void *arg,
				 FILE *fp)
{
	struct report *r = arg;
	const struct report_opts *o = r->opts;
	/* perf leaves out the single chain's first frame when the entries are symbols first */
	bool skip_first = !o->fields && o->sort && !strncmp(o->sort, "sym", 3);

	report_trees__fprintf(r->trees, h->idx, e->id, h->all_period, h->total_period,
			      h->children ? e->children : e->period, skip_first, fp);
}

static u32 report__entry_depth(void *arg, int idx, u32 entry)
{
	return report_trees__max_depth(arg, idx, entry);
}

/*
 * perf 6.1's order when none is given: the caller's with Children (the
 * trees read from the outermost frame down), the callee's without.  perf
 * chooses it from the options, before it finds a pipe (whose Children it
 * then drops): a pipe's trees are in caller order unless --no-children.
 */
static int report__setup_trees(struct report *r)
{
	struct report_tree_opts o = r->opts->call_graph;

	if (r->opts->inverted)
		o.caller = true;
	else if (!o.order_set)
		/* as --children asked: a pipe's Children go, its caller order stays */
		o.caller = r->opts->children != 0;
	r->callee_order = !o.caller;
	r->trees = report_trees__new(&o);
	if (!r->trees)
		return -ENOMEM;
	report_hists__set_after(r->hists, report__fprintf_tree, r);
	report_hists__set_depth(r->hists, report__entry_depth, r->trees, o.caller);
	return 0;
}

/* the checks perf makes on the recording before the pass */
static int report__check_recording(struct report *r)
{
	struct evlist *evlist = r->session->evlist;
	bool regs_user = false;
	int i;

	if (report_filters__check_cpu(&r->filter, evlist, r->session->path))
		return -EINVAL;
	for (i = 0; evlist && i < evlist->nr_entries; i++)
		if (evlist->entries[i]->attr.sample_type & PERF_SAMPLE_REGS_USER)
			regs_user = true;
	if (r->layout.key[SORT_ABI] && !regs_user && !r->session->is_pipe) {
		pr_err("%s: --sort abi: no event samples the user registers, whose ABI word it "
		       "sorts on (perf record --user-regs)\n",
		       r->session->path);
		return -EINVAL;
	}
	/* as perf, which says so and prints no profile; an error here, not its exit 0 */
	if (r->opts->call_graph.set && r->opts->call_graph.mode != REPORT_TREE_NONE &&
	    !r->session->is_pipe && !report__has_callchains(r)) {
		pr_err("%s: -g: the recording has no callchains to draw (perf record -g or "
		       "--call-graph records them; -g none for the profile alone)\n",
		       r->session->path);
		return -EINVAL;
	}
	if (r->opts->time)
		return report__parse_time(r);
	return 0;
}

/*
 * The code-change part: the text image from a side-band pass first.  A
 * pipe can be read only once, and an image that cannot be built leaves
 * the profile alone: both say so and go on.
 */
static struct text_image *report__load_changes(struct report *r)
{
	struct report_opts *o = r->opts;
	struct text_image *ti;
	struct stat st;

	if (o->no_changes || o->header_only || o->stats || o->tasks || o->mmaps)
		return NULL;
	if (!strcmp(o->input, "-") || stat(o->input, &st) || S_ISFIFO(st.st_mode)) {
		pr_warning("%s: a pipe is read once: the code-change report needs a file, "
			   "the profile follows\n",
			   r->session->path);
		return NULL;
	}
	ti = text_image__load(o->input, &o->text);
	if (!ti && interrupt__pending())
		return NULL;
	if (!ti) {
		pr_warning("%s: the kernel's code over time cannot be built: the code-change "
			   "report is unavailable, the profile follows\n",
			   o->input);
		return NULL;
	}
	r->changes = report_changes__new(ti, text_image__machine(ti));
	if (!r->changes)
		pr_warning("%s: the code-change report is unavailable, the profile follows\n",
			   o->input);
	return ti;
}

/*
 * perf's sort__setup_elide(): a one-name filter makes its column constant,
 * so the column goes and a header line names the filter, in the order of
 * the columns; with every key column gone they all come back.
 */
static void report__setup_elide(struct report *r, FILE *fp)
{
	static const char *const names[SORT__MAX] = {
	    [SORT_COMM] = "comm", [SORT_DSO] = "dso", [SORT_SYM] = "symbol"};
	const struct name_list *lists[SORT__MAX] = {[SORT_COMM] = &r->filter.comms,
						    [SORT_DSO] = &r->filter.dsos,
						    [SORT_SYM] = &r->filter.symbols};
	struct report_layout *l = &r->layout;
	bool all = true;
	int i;

	l->dso_filter = r->filter.dsos.names != NULL;
	memset(l->elide, 0, sizeof(l->elide));
	for (i = 0; i < l->nr_cols; i++) {
		int col = l->cols[i];

		if (col >= SORT__MAX)
			continue;
		if (!lists[col] || lists[col]->nr != 1) {
			all = false;
			continue;
		}
		l->elide[col] = true;
		if (fp)
			fprintf(fp, "# %s: %s\n", names[col], lists[col]->names[0]);
	}
	if (all)
		memset(l->elide, 0, sizeof(l->elide));
}

/*
 * --header, --header-only: the block perf report prints in place of its
 * hint; a pipe's features came as records, printed after the block
 */
static int report__fprintf_header(struct report *r, FILE *fp)
{
	int err = script_header__fprintf(&r->header, r->session, fp);

	if (!err && r->session->is_pipe)
		script_header__fprintf_pending(&r->header, r->session, fp);
	return err;
}

/*
 * --stats, as perf report prints it: the records of each type the
 * session read (the containers of compressed ones and what they held,
 * the user types too), then each event's samples (every one delivered:
 * perf's stats mode applies no --time, --comm or other filter) and the
 * samples its LOST_SAMPLES records say were lost.  Empty ones are left out, as perf's
 * --skip-empty does.
 */
static void report__fprintf_stats(struct report *r, FILE *fp)
{
	const struct events_stats *st = &r->session->stats;
	const struct evlist *evlist = r->session->evlist;
	u64 total = 0;
	u32 type;

	/* perf says the one-name filters first here too ("# comm: NAME") */
	report__setup_elide(r, fp);
	for (type = 1; type < PERF_RECORD_HEADER_MAX; type++)
		total += st->nr_events[type];
	fprintf(fp, "\nAggregated stats:%s\n",
		perf_session__has_feat(r->session, HEADER_AUXTRACE) ?
		    " (excludes AUX area (e.g. instruction trace) decoded / synthesized events)" :
		    "");
	fprintf(fp, "%16s events: %10llu\n", perf_event__name(0), (unsigned long long)total);
	for (type = 1; type < PERF_RECORD_HEADER_MAX; type++) {
		if (!st->nr_events[type] || !strcmp(perf_event__name(type), "UNKNOWN"))
			continue;
		fprintf(fp, "%16s events: %10llu  (%4.1f%%)\n", perf_event__name(type),
			(unsigned long long)st->nr_events[type],
			100.0 * st->nr_events[type] / total);
	}
	for (int i = 0; evlist && i < evlist->nr_entries; i++) {
		struct evsel *evsel = evlist->entries[i];
		u64 nr_samples = i < r->nr_evsel_samples ? r->evsel_samples[i] : 0;

		if (!nr_samples && !evsel->nr_lost_samples)
			continue;
		fprintf(fp, "%s stats:\n", evsel__name(evsel));
		if (nr_samples)
			fprintf(fp, "%16s events: %10llu\n", "SAMPLE",
				(unsigned long long)nr_samples);
		if (evsel->nr_lost_samples)
			fprintf(fp, "%16s events: %10llu\n", "LOST_SAMPLES",
				(unsigned long long)evsel->nr_lost_samples);
	}
}

/* --hierarchy's options, for the text and --json */
static void report__hier_opts(const struct report *r, struct report_hier_opts *o)
{
	*o = (struct report_hier_opts){
	    .percent_limit = r->opts->percent_limit,
	    .relative = r->opts->relative,
	    .filters = report_filters__given(&r->filter),
	};
}

/*
 * perf's -q leaves out every line around the rows but the one-name
 * filters' ("# comm: NAME"): the hint, the --header block, the lost
 * samples and each block's header lines
 */
/*
 * The blocks the report prints, in text, JSON or HTML alike: an event
 * group's as one with --group.  *@names: the events' names, which the
 * caller frees (a member without samples has none in @hists).
 */
static int report__blocks(struct report *r, const struct report_hist *hists, size_t nr,
			  struct report_blocks *blocks, const char ***names)
{
	const struct evlist *evlist = r->session->evlist;
	int err;

	*names = calloc(nr ?: 1, sizeof(**names));
	if (!*names)
		return -ENOMEM;
	for (size_t i = 0; i < nr; i++)
		(*names)[i] = evlist && i < (size_t)evlist->nr_entries ?
				  evsel__name(evlist->entries[i]) :
				  hists[i].event_name;
	err = report_blocks__build(blocks, hists, nr, &r->groups, r->group_view, &r->layout, *names,
				   r->trees ? (r->callee_order ? -1 : 1) : 0);
	if (err) {
		report_blocks__exit(blocks);
		zfree(names);
	}
	return err;
}

static int report__fprintf(struct report *r, const struct report_hist *hists, size_t nr, FILE *fp)
{
	struct report_blocks blocks;
	const char **names;
	size_t i;
	u64 nr_samples = 0;
	struct report_hier_opts hier;
	int err;

	report__hier_opts(r, &hier);
	err = report__blocks(r, hists, nr, &blocks, &names);
	if (err)
		return err;
	free(names);
	/* -q cleared --header (see report__run()) */
	if (r->opts->header)
		report__fprintf_header(r, fp);
	else if (!quiet)
		fprintf(fp, "# To display the perf.data header info, please use "
			    "--header/--header-only options.\n#\n");
	/* every sample, filtered ones too: --percentage relative may count none */
	for (i = 0; i < nr; i++)
		nr_samples += hists[i].all_samples;
	/* as perf: the header alone, and the code changes, which need no samples */
	if (!nr_samples) {
		pr_warning("%s: no samples%s\n", r->session->path,
			   r->nr_ranges || r->filter.cpu_bitmap ? " in the --time or --cpu range" :
								  "");
		goto changes;
	}
	report__setup_elide(r, fp);
	if (!quiet)
		fprintf(fp, "#\n# Total Lost Samples: %llu\n#\n",
			(unsigned long long)r->session->stats.nr_lost_samples);
	for (i = 0; i < blocks.nr; i++) {
		/* perf's --skip-empty, its default */
		if (!blocks.hists[i].all_samples)
			continue;
		if (r->opts->hierarchy) {
			err =
			    report_hist__fprintf_hierarchy(&blocks.hists[i], &r->layout, &hier, fp);
			if (err) {
				report_blocks__exit(&blocks);
				return err;
			}
		} else {
			report_hist__fprintf(&blocks.hists[i], &r->layout, r->opts->percent_limit,
					     fp);
		}
		fprintf(fp, "\n\n");
	}
	/*
	 * the per-ABI block is news only where the ABI varies, or when asked
	 * for by the abi sort key
	 */
	for (i = 0; i < nr; i++) {
		if (!hists[i].nr_comms ||
		    (!r->layout.key[SORT_ABI] && report_hist__nr_abis(&hists[i]) < 2))
			continue;
		report_hist__fprintf_abi(&hists[i], fp);
		fprintf(fp, "\n");
	}
changes:
	report_blocks__exit(&blocks);
	/* perf's -T table comes after its profile and tip, -q or not */
	if (r->opts->threads)
		report_threads__fprintf(&r->threads, fp);
	if (!r->changes)
		return 0;
	/*
	 * a recording in which the kernel's code did not change (no pokes, no
	 * BPF program or trampoline): one line, not a report of nothing
	 * whose verdict would only say what the recording lacks; none with -q
	 */
	if (!r->opts->changes && !r->changes->nr_sites && !r->changes->nr_regions) {
		if (!quiet)
			fprintf(fp, "# Kernel code changes: none in this recording "
				    "(--changes prints the full report)\n");
		return 0;
	}
	report_changes__fprintf(r->changes, fp);
	return 0;
}

static int report__feature(struct perf_tool *tool, int feat, const void *buf, u64 size)
{
	struct report *r = (struct report *)tool;

	if (feat == HEADER_GROUP_DESC) {
		int err = report_groups__parse(&r->groups, buf, size, r->opts->input);

		if (err)
			return err;
	}
	if (!r->opts->header && !r->opts->header_only)
		return 0;
	return script_header__keep(&r->header, feat, buf, size);
}

/* a parallel run's trees: objects by name (and kernel span), entries by the merged histograms */
static int report__tree_describe(void *arg, const struct dso *dso, const char **name,
				 long *ksym_index)
{
	struct report *r = arg;

	*name = dso->name;
	*ksym_index = machine__dso_ksym_index(r->session->machine, dso);
	return 0;
}

static const struct dso *report__tree_lookup(void *arg, const char *name, long ksym_index)
{
	struct report *r = arg;

	return machine__lookup_dso(r->session->machine, name, ksym_index);
}

static long report__tree_entry(void *arg, int hist, u32 entry)
{
	struct report *r = arg;

	return report_hists__peer_entry(r->hists, hist, entry);
}

static int report__tree_renumber(void *arg, int hist, const u32 *new_idx, size_t nr)
{
	struct report *r = arg;

	return r->trees ? report_trees__renumber(r->trees, hist, new_idx, nr) : 0;
}

static int report__send(void *arg, FILE *fp)
{
	struct report *r = arg;
	struct report_trees_peer peer = {.describe = report__tree_describe, .arg = r};
	int err = report_hists__send(r->hists, fp);

	if (!err && r->changes)
		err = report_changes__send(r->changes, fp);
	if (!err && r->trees)
		err = report_trees__send(r->trees, fp, &peer);
	/* --json and --html: the samples over time */
	return err ?: worker_state__write(fp, &r->density, sizeof(r->density));
}

static int report__merge(void *arg, FILE *fp)
{
	struct report *r = arg;
	struct report_trees_peer peer = {
	    .lookup = report__tree_lookup,
	    .entry = report__tree_entry,
	    .arg = r,
	};
	struct report_density density;
	int err = report_hists__merge(r->hists, fp);

	if (!err && r->changes)
		err = report_changes__merge(r->changes, fp);
	if (!err && r->trees)
		err = report_trees__merge(r->trees, fp, &peer);
	if (!err)
		err = worker_state__read(fp, &density, sizeof(density));
	if (!err)
		report_density__merge(&r->density, &density);
	return err;
}

/* an event samples PERF_SAMPLE_READ: each value is taken against the one before */
static bool report__has_read(const struct report *r)
{
	const struct evlist *evlist = r->session->evlist;

	for (int i = 0; evlist && i < evlist->nr_entries; i++)
		if (evlist->entries[i]->attr.sample_type & PERF_SAMPLE_READ)
			return true;
	return false;
}

/*
 * Workers for the run (0: one per CPU).  One where the output needs more
 * than the sums of the histograms, the call-graph trees and the samples
 * over time: counts that follow each other (PERF_SAMPLE_READ), a
 * trace, --stats, and the side-band tables.  Said under -v.
 */
static unsigned int report__nr_workers(struct report *r)
{
	const struct report_opts *o = r->opts;
	const char *why = NULL;

	if (o->workers == 1)
		return 1;
	if (itrace__active(r->itrace) || r->tool.auxtrace_data)
		why = "a hardware trace is decoded";
	else if (o->stats || o->tasks || o->mmaps || o->threads || o->header_only)
		why = "the output is not the profile";
	else if (report__has_read(r))
		why = "samples read counters";
	else if (dump_trace)
		why = "-D";
	if (why) {
		pr_debug("%s: one worker: %s\n", r->session->path, why);
		return 1;
	}
	return o->workers;
}

/*
 * Reads the recording and prints the report: all of it, or in a worker
 * of a parallel run the samples of its chunks of time, the worker that
 * read the last one adding up the others' histograms
 * (report-hist-merge.c) and printing, the others printing nothing.
 */
static int report__process(void *arg)
{
	struct report *r = arg;
	struct report_opts *opts = r->opts;
	const struct report_hist *hists;
	char sort_keys[REPORT_MAX_COLS * 16] = "";
	size_t nr = 0;
	int err = 0, err_cut = 0;

	if (!err)
		err = perf_session__process_events(r->session);
	if (!err)
		err = itrace__finish(r->itrace);
	if (!err && itrace__nr_errors(r->itrace))
		pr_warning("%s: %llu instruction trace errors\n", opts->input,
			   (unsigned long long)itrace__nr_errors(r->itrace));
	/* a cut-off input: the report of what came before, then why it ends */
	if (err && r->session->truncated) {
		err_cut = err;
		err = 0;
	}
	/*
	 * a parallel run: the last chunk's worker adds up the others' and
	 * prints; the merged entries and chains in one reader's order
	 */
	if (!err && r->session->window.active) {
		err = session_window__gather(r->session, report__send, report__merge, r);
		if (err <= 0)
			return err;
		err = report_hists__order_merged(r->hists, report__tree_renumber, r);
		if (!err && r->trees)
			err = report_trees__order_merged(r->trees);
	}
	/* the chains gathered while reading, into the trees */
	if (!err && r->trees)
		err = report_trees__flush(r->trees);
	if (err)
		goto out;
	if (opts->header_only) {
		err = report__fprintf_header(r, stdout);
		goto out_flush;
	}
	if (opts->tasks || opts->mmaps) {
		err = report_tasks__fprintf(r->session->machine, opts->mmaps, stdout);
		goto out_flush;
	}
	if (r->changes)
		r->changes->consistency.truncated = r->session->truncated;
	if (r->changes && report_changes__finish(r->changes, r->session->stats.nr_lost_events,
						 r->session->stats.nr_lost_samples,
						 r->session->stats.nr_unordered_events)) {
		pr_warning("%s: the code-change report could not be completed, the profile "
			   "follows\n",
			   opts->input);
		report_changes__delete(r->changes);
		r->changes = NULL;
	}
	err = report__setup_groups(r);
	if (err)
		goto out;
	if (r->children) {
		err = report_layout__parse(&r->layout, r->sort, opts->fields, report__show(opts),
					   true);
		if (err)
			goto out;
	}
	report_hists__set_relative(r->hists, opts->relative);
	/* perf's levels count the entries filtered out below them */
	report_hists__keep_filtered(r->hists, opts->hierarchy);
	/* before the sort: perf's output order skips an elided key */
	report__setup_elide(r, NULL);
	hists = report_hists__finish(r->hists, &r->layout, &nr);
	if (!hists) {
		err = -ENOMEM;
		goto out;
	}
	/* the keys the entries are told apart by, whichever of --sort or -F gave them */
	for (int i = 0, len = 0; i < r->layout.nr_sort; i++) {
		if (r->layout.sort[i] >= SORT__MAX)
			continue;
		len += snprintf(sort_keys + len, sizeof(sort_keys) - len, "%s%s", len ? "," : "",
				report_column__name(r->layout.sort[i]));
	}
	if (opts->json || opts->html) {
		/* as the text: a group's events one block (--group) */
		err = report__blocks(r, hists, nr, &r->blocks, &r->event_names);
		if (err)
			goto out;
	}
	{
		struct report_hier_opts hier;
		struct report_output ro = {
		    .nr_hists = opts->json || opts->html ? r->blocks.nr : nr,
		    .hists = opts->json || opts->html ? r->blocks.hists : hists,
		    .event_names = r->event_names,
		    .changes = r->changes,
		    .input = opts->input,
		    .sort = sort_keys,
		    .density = &r->density,
		    .nr_lost_samples = r->session->stats.nr_lost_samples,
		    .percent_limit = opts->percent_limit,
		    .trees = r->trees,
		    .hier = opts->hierarchy ? &hier : NULL,
		    .layout = &r->layout,
		};

		report__hier_opts(r, &hier);
		if (opts->html) {
			err = report_output__html(&ro, r->html.fp);
			err = report_file__close(&r->html, !err) ?: err;
			r->html.fp = NULL;
			if (err)
				goto out;
		}
		if (opts->json) {
			err = report_output__json(&ro, stdout);
			if (err == -EPIPE)
				err = 0;
		} else if (opts->stats)
			report__fprintf_stats(r, stdout);
		else if (opts->stdio)
			err = report__fprintf(r, hists, nr, stdout);
	}
out_flush:
	if (!err && (fflush(stdout) || ferror(stdout)) && errno != EPIPE) {
		pr_err("writing the report failed: %s\n", strerror(errno));
		err = -EIO;
	}
	if (!err && err_cut) {
		pr_err("%s\n", perf_session__cut_message(r->session));
		err = err_cut;
	}
out:
	return err;
}

int report__run(struct report_opts *opts)
{
	struct report r = {
	    .tool =
		{
		    .sample = report__sample,
		    /* the text image's own pass reads them */
		    .skip_types = 1ULL << PERF_RECORD_TEXT_POKE,
		    .ordered_events = true,
		    .defer_cut = true,
		    .feature = report__feature,
		},
	    .opts = opts,
	    .header = {.full = opts->show_info},
	};
	struct text_image *ti = NULL;
	int err;

	err = report__parse_options(&r);
	if (err)
		goto out;
	/* perf's -q prints the report without its header, --header-only too */
	if (quiet)
		opts->header = opts->header_only = false;
	/* as perf: a smaller --max-stack would cut the chains 'g' asked for */
	if (opts->itrace.callchain && opts->itrace.callchain_sz > opts->max_stack)
		opts->max_stack = opts->itrace.callchain_sz;
	if (!opts->json && !opts->stdio && !opts->html)
		opts->stdio = true;

	r.session = perf_session__new(opts->input, &r.tool);
	if (!r.session) {
		err = -EINVAL;
		goto out;
	}
	/*
	 * --header-only: a file's header alone; a pipe's features are
	 * records, which come only as the stream is read
	 */
	if (opts->header_only && !r.session->is_pipe) {
		err = report__fprintf_header(&r, stdout);
		goto out_flush;
	}
	/* a pipe's features, kept as they come, are printed after the block */
	r.header.pipe = r.session->is_pipe;
	if (opts->tasks || opts->mmaps) {
		r.tool.sample = NULL;
		r.tool.side_band = report__tasks_side_band;
	} else if (opts->threads) {
		r.tool.side_band = report__threads_side_band;
	}

	/* perf report decides on callchains from the header, before any record */
	r.itrace_chains = opts->itrace.set ? opts->itrace.callchain :
					     !r.session->is_pipe &&
						 perf_session__has_feat(r.session, HEADER_AUXTRACE);
	err = machine__set_kernel_symbols(r.session->machine, opts->text.kallsyms,
					  opts->text.vmlinux);
	if (!err)
		err = report__check_recording(&r);
	if (err)
		goto out;
	r.hists = report_hists__new(
	    &r.layout, r.session->evlist ? r.session->evlist->nr_entries : 0, opts->time);
	if (!r.hists) {
		err = -ENOMEM;
		goto out;
	}
	if (opts->html) {
		/* Ctrl-C keeps what --html named as it was, with no temporary file */
		interrupt__install();
		err = report_file__open(&r.html, "--html", opts->html);
		if (err)
			goto out;
	}
	/*
	 * perf 6.1: Children by default, silently not when no event has
	 * callchains, which is what its sample type says of a pipe's before
	 * the first record
	 */
	/* perf's hierarchy has no Children */
	r.children =
	    opts->children && !opts->hierarchy && !r.session->is_pipe && report__has_callchains(&r);
	/*
	 * perf's chain order, which picks the parent among several matches:
	 * chosen before --hierarchy or a pipe dropped Children
	 */
	r.parent_caller =
	    opts->inverted ||
	    (opts->call_graph.order_set ?
		 opts->call_graph.caller :
		 opts->children && (r.session->is_pipe || report__has_callchains(&r)));
	if (r.layout.key[SORT_PARENT] && !r.session->is_pipe && !report__has_callchains(&r)) {
		pr_err("--sort parent: %s has no callchains: record it with -g\n", opts->input);
		err = -EINVAL;
		goto out;
	}
	report_hists__set_symbol_filter(r.hists, opts->symbol_filter);
	/*
	 * --json and --html carry the trees the text would print.  A pipe's
	 * events come as records: its trees are made ready, and stay empty
	 * if no sample has a chain
	 */
	if (opts->call_graph.mode != REPORT_TREE_NONE &&
	    (r.session->is_pipe || report__has_callchains(&r))) {
		err = report__setup_trees(&r);
		if (err)
			goto out;
	}
	if (r.children || r.trees) {
		r.chain_cache = chain_cache__new();
		if (!r.chain_cache) {
			err = -ENOMEM;
			goto out;
		}
	}
	ti = report__load_changes(&r);
	err = report__itrace_init(&r);
	if (!err) {
		unsigned int nr_workers = report__nr_workers(&r);

		/* several: the pid column names threads as the end of the recording left them */
		r.session->workers_read_side_band = nr_workers != 1;
		/* and a worker's trees name objects the merger finds by name */
		if (r.trees && nr_workers != 1)
			report_trees__keep_objects(r.trees);
		err = perf_session__run_workers(r.session, nr_workers, report__process, &r);
	}
	goto out;
out_flush:
	if (!err && (fflush(stdout) || ferror(stdout)) && errno != EPIPE) {
		pr_err("writing the report failed: %s\n", strerror(errno));
		err = -EIO;
	}
out:
	if (r.html.fp)
		report_file__close(&r.html, false);
	report_blocks__exit(&r.blocks);
	free(r.event_names);
	report_changes__delete(r.changes);
	report_hists__delete(r.hists);
	report_trees__delete(r.trees);
	unwinder__delete(r.unwinder);
	chain_cache__delete(r.chain_cache);
	itrace__delete(r.itrace);
	if (r.session)
		perf_session__delete(r.session);
	text_image__delete(ti);
	script_header__exit(&r.header);
	free(r.evsel_samples);
	report_groups__exit(&r.groups);
	report_threads__exit(&r.threads);
	free(r.read_ids);
	report__exit_options(&r);
	if (interrupt__pending()) {
		pr_err("--html %s: interrupted by %s: not written, what was there is kept\n",
		       opts->html, strsignal(interrupt__pending()));
		interrupt__reraise();
	}
	return err;
}
