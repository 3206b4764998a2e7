// SPDX-License-Identifier: GPL-2.0-only
/*
 * Walking a sample's PERF_SAMPLE_CALLCHAIN the way perf script prints it:
 * every entry but the PERF_CONTEXT_* markers, callee first, each resolved
 * in the cpumode the last marker selected, at the sample's time.  A chain
 * with a marker perf does not know is dropped whole, as perf drops it.
 */
#include <inttypes.h>

#include "debug.h"
#include "dso.h"
#include "machine.h"
#include "map.h"

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
