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

int thread__walk_callchain(struct thread *thread, struct perf_sample *sample,
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

struct chain_walk {
	struct thread *thread;
	const struct perf_sample *sample;
	unsigned int max_stack, nr; /* frames given of this part of the chain */
	int (*cb)(struct callchain_frame *frame, void *arg);
	void *arg;
	int stop;     /* the callback's non-zero value, which ends the whole walk */
	bool inlines; /* unwound frames split at inlined calls (perf's --inline) */
};

static int chain_walk__recorded(struct callchain_frame *frame, void *arg)
{
	struct chain_walk *cw = arg;

	cw->stop = cw->cb(frame, cw->arg);
	return cw->stop ?: ++cw->nr >= cw->max_stack;
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

int thread__walk_sample_chain(struct thread *thread, struct perf_sample *sample, u64 sample_type,
			      struct unwinder *uw, unsigned int max_stack, bool inlines,
			      int (*cb)(struct callchain_frame *frame, void *arg), void *arg)
{
	struct chain_walk cw = {thread, sample, max_stack, 0, cb, arg, 0, inlines};

	if (!max_stack)
		return 0;
	/* a part that reaches max_stack ends; the callback's value ends it all */
	thread__walk_callchain(thread, sample, chain_walk__recorded, &cw);
	if (cw.stop)
		return cw.stop;
	if (!uw || !unwind__sample_has_stack(sample_type, sample))
		return 0;
	cw.nr = 0;
	/* a stack that cannot be unwound gives no user frame: not an error */
	unwinder__walk(uw, thread, sample, max_stack, chain_walk__unwound, &cw);
	return cw.stop;
}
