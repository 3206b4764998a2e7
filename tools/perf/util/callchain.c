// SPDX-License-Identifier: GPL-2.0-only
/*
 * Walking a sample's PERF_SAMPLE_CALLCHAIN the way perf script prints it:
 * every entry but the PERF_CONTEXT_* markers, callee first, each resolved
 * in the cpumode the last marker selected, at the sample's time.  A chain
 * with a marker perf does not know is dropped whole, as perf drops it.
 */
#include <inttypes.h>
#include <string.h>

#include "debug.h"
#include "dso-inline.h"
#include "dso.h"
#include "event.h"
#include "machine.h"
#include "map.h"
#include "symbol.h"
#include "unwind.h"

#ifndef PERF_CONTEXT_MAX
#define PERF_CONTEXT_MAX ((u64)-4095)
#endif

static bool context__cpumode(u64 ip, u8 *cpumode)
{
	switch (ip) {
	case PERF_CONTEXT_HV:
		*cpumode = PERF_RECORD_MISC_HYPERVISOR;
		return true;
	case PERF_CONTEXT_KERNEL:
		*cpumode = PERF_RECORD_MISC_KERNEL;
		return true;
	case PERF_CONTEXT_USER:
		*cpumode = PERF_RECORD_MISC_USER;
		return true;
	case PERF_CONTEXT_GUEST:
	case PERF_CONTEXT_GUEST_KERNEL:
		*cpumode = PERF_RECORD_MISC_GUEST_KERNEL;
		return true;
	case PERF_CONTEXT_GUEST_USER:
		*cpumode = PERF_RECORD_MISC_GUEST_USER;
		return true;
	default:
		return false;
	}
}

u64 callchain_frame__addr(const struct callchain_frame *frame)
{
	const struct map *map = frame->al.map;

	if (!map || !map->dso)
		return frame->ip;
	switch (map->dso->kind) {
	case DSO_KIND__KERNEL:
	case DSO_KIND__MODULE:
	case DSO_KIND__KSYMBOL:
		return frame->ip;
	default:
		return frame->al.addr;
	}
}

/* thread__walk_callchain(), @peek (when given) shown each frame before it is resolved */
static int thread__walk_recorded(struct thread *thread, struct perf_sample *sample,
				 int (*peek)(struct thread *thread, u8 cpumode, u64 ip, void *arg),
				 int (*cb)(struct callchain_frame *frame, void *arg), void *arg)
{
	const struct ip_callchain *chain = sample->callchain;
	struct callchain_frame frame;
	u8 cpumode = PERF_RECORD_MISC_USER;
	u64 i;
	int ret = 0;

	if (!chain)
		return 0;
	for (i = 0; i < chain->nr; i++) {
		u64 ip = chain->ips[i];
		u8 unused;

		if (ip >= PERF_CONTEXT_MAX && !context__cpumode(ip, &unused)) {
			pr_debug("invalid callchain context %#" PRIx64 ": callchain dropped\n",
				 chain->ips[i]);
			return 0;
		}
	}

	memset(&frame, 0, sizeof(frame));
	addr_location__init(&frame.al);
	for (i = 0; i < chain->nr; i++) {
		u64 ip = chain->ips[i];

		if (ip >= PERF_CONTEXT_MAX) {
			context__cpumode(ip, &cpumode);
			continue;
		}
		/* taken whole: 1, and the walk goes on; 2, and it ends */
		if (peek) {
			int taken = peek(thread, cpumode, ip, arg);

			if (taken == 2) {
				ret = 1;
				break;
			}
			if (taken)
				continue;
		}
		frame.ip = ip;
		frame.cpumode = cpumode;
		thread__find_symbol(thread, cpumode, ip, sample->time, &frame.al);
		frame.al.cpu = sample->cpu;
		ret = cb(&frame, arg);
		if (ret)
			break;
	}
	addr_location__exit(&frame.al);
	return ret;
}

int thread__walk_callchain(struct thread *thread, struct perf_sample *sample,
			   int (*cb)(struct callchain_frame *frame, void *arg), void *arg)
{
	return thread__walk_recorded(thread, sample, NULL, cb, arg);
}

/*
 * A --call-graph lbr sample (branch_sample_type CALL_STACK): perf 6.1
 * builds its chain's user part from the LBR call stack, not from the
 * recorded chain's (resolve_lbr_callchain_sample(), without LBR
 * stitching, which only its --stitch-lbr turns on).  Innermost first:
 * the recorded chain up to its PERF_CONTEXT_USER (the kernel's frames),
 * the last call's target, then each recorded call's site, the latest
 * first.  perf builds a caller-order chain backwards, and its cpumode
 * then starts as user and meets the kernel's marker only after the
 * kernel's frames: in caller order those are looked up as user
 * addresses, outside every map, which this walk reproduces (@caller).
 * @handled: false when the chain is no LBR one, or its PERF_CONTEXT_USER
 * lies past --max-stack's first @max_stack entries: perf then takes the
 * recorded chain.
 */
int thread__walk_lbr_callchain(struct thread *thread, struct perf_sample *sample,
			       const struct perf_event_attr *attr, unsigned int max_stack,
			       bool caller, bool *handled,
			       int (*cb)(struct callchain_frame *frame, void *arg), void *arg)
{
	const struct ip_callchain *chain = sample->callchain;
	struct callchain_frame frame;
	u64 i, user = 0, nr;
	int ret = 0;

	*handled = false;
	if (!chain || !(attr->branch_sample_type & PERF_SAMPLE_BRANCH_CALL_STACK))
		return 0;
	nr = chain->nr < max_stack ? chain->nr : max_stack;
	while (user < nr && chain->ips[user] != PERF_CONTEXT_USER)
		user++;
	if (user == nr)
		return 0;
	*handled = true;
	memset(&frame, 0, sizeof(frame));
	addr_location__init(&frame.al);
	for (i = 0; i < user && !ret; i++) {
		u8 cpumode = PERF_RECORD_MISC_USER;

		if (chain->ips[i] >= PERF_CONTEXT_MAX)
			continue;
		if (!caller) {
			/* the last marker before it, as the chain is read forwards */
			for (u64 j = i; j-- > 0;)
				if (context__cpumode(chain->ips[j], &cpumode))
					break;
		} else {
			/* read backwards from the user marker: the first marker after it */
			for (u64 j = i + 1; j < user; j++)
				if (context__cpumode(chain->ips[j], &cpumode))
					break;
		}
		frame.ip = chain->ips[i];
		frame.cpumode = cpumode;
		thread__find_symbol(thread, cpumode, frame.ip, sample->time, &frame.al);
		frame.al.cpu = sample->cpu;
		ret = cb(&frame, arg);
	}
	/* an empty stack gives no user frame (perf reads its first entry all the same) */
	for (i = 0; i <= sample->branch_nr && sample->branch_nr && !ret; i++) {
		frame.ip = i ? sample->branch_entries[i - 1].from : sample->branch_entries[0].to;
		frame.cpumode = PERF_RECORD_MISC_USER;
		thread__find_symbol(thread, PERF_RECORD_MISC_USER, frame.ip, sample->time,
				    &frame.al);
		frame.al.cpu = sample->cpu;
		ret = cb(&frame, arg);
	}
	addr_location__exit(&frame.al);
	return ret;
}

struct chain_walk {
	struct thread *thread;
	const struct perf_sample *sample;
	unsigned int max_stack, nr; /* frames given of this part of the chain */
	int (*cb)(struct callchain_frame *frame, void *arg);
	void *arg;
	int stop;     /* the callback's non-zero value, which ends the whole walk */
	bool inlines; /* unwound frames split at inlined calls (perf's --inline) */
	callchain_peek_t peek;
};

static int chain_walk__recorded(struct callchain_frame *frame, void *arg)
{
	struct chain_walk *cw = arg;

	cw->stop = cw->cb(frame, cw->arg);
	return cw->stop ?: ++cw->nr >= cw->max_stack;
}

/* a frame the walker's peek took counts as given */
static int chain_walk__peek(struct thread *thread, u8 cpumode, u64 ip, void *arg)
{
	struct chain_walk *cw = arg;

	if (!cw->peek(thread, cpumode, ip, cw->arg))
		return 0;
	return ++cw->nr >= cw->max_stack ? 2 : 1;
}

/*
 * An unwound frame, resolved as a recorded one is, then split as perf's
 * unwind_entry() splits it (append_inlines()); perf 6.1 leaves the
 * recorded chain's frames whole
 */
static int chain_walk__unwound(const struct unwind_frame *uf, void *arg)
{
	struct chain_walk *cw = arg;
	struct callchain_frame frame = {.ip = uf->ip, .cpumode = PERF_RECORD_MISC_USER};
	char *const *names, *const *lines;
	unsigned int nr = 0;
	int ret = 0;

	/* perf leaves out frames at address 0 */
	if (!uf->ip)
		return 0;
	frame.unwound = true;
	addr_location__init(&frame.al);
	thread__find_symbol(cw->thread, PERF_RECORD_MISC_USER, uf->ip, cw->sample->time, &frame.al);
	frame.al.cpu = cw->sample->cpu;
	if (cw->inlines && frame.al.sym && frame.al.map && frame.al.map->dso)
		nr = dso__inline_names(frame.al.map->dso, frame.al.addr, &names, &lines);
	if (!nr)
		ret = cw->cb(&frame, cw->arg);
	for (unsigned int i = 0; i < nr && !ret; i++) {
		frame.inline_name = names[i];
		frame.inline_srcline = lines[i];
		frame.inlined = strcmp(names[i], symbol__name(frame.al.sym)) != 0;
		ret = cw->cb(&frame, cw->arg);
	}
	addr_location__exit(&frame.al);
	cw->stop = ret;
	return ret ?: ++cw->nr >= cw->max_stack;
}

int thread__walk_sample_chain(struct thread *thread, struct perf_sample *sample,
			      const struct perf_event_attr *attr, struct unwinder *uw,
			      unsigned int max_stack, bool inlines,
			      int (*cb)(struct callchain_frame *frame, void *arg), void *arg)
{
	return thread__walk_sample_chain_peek(thread, sample, attr, uw, max_stack, inlines, NULL,
					      cb, arg);
}

int thread__walk_sample_chain_peek(struct thread *thread, struct perf_sample *sample,
				   const struct perf_event_attr *attr, struct unwinder *uw,
				   unsigned int max_stack, bool inlines, callchain_peek_t peek,
				   int (*cb)(struct callchain_frame *frame, void *arg), void *arg)
{
	struct chain_walk cw = {thread, sample, max_stack, 0, cb, arg, 0, inlines, peek};
	u64 sample_type = attr->sample_type;
	bool lbr;
	int ret;

	if (!max_stack)
		return 0;
	ret = thread__walk_lbr_callchain(thread, sample, attr, max_stack, false, &lbr, cb, arg);
	if (lbr)
		return ret;
	/* a part that reaches max_stack ends; the callback's value ends it all */
	thread__walk_recorded(thread, sample, peek ? chain_walk__peek : NULL, chain_walk__recorded,
			      &cw);
	if (cw.stop)
		return cw.stop;
	if (!uw || !unwind__sample_has_stack(sample_type, sample))
		return 0;
	cw.nr = 0;
	/* a stack that cannot be unwound gives no user frame: not an error */
	unwinder__walk(uw, thread, sample, max_stack, chain_walk__unwound, &cw);
	return cw.stop;
}
