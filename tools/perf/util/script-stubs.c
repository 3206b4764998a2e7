// SPDX-License-Identifier: GPL-2.0-only
/*
 * Weak stand-ins for the reader (session, evsel) and machine model
 * functions the script tool calls, so this branch links and its printer
 * tests run before those branches are merged.  The real definitions are
 * strong symbols and replace these at link time; once both are merged this
 * file is deleted.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "debug.h"
#include "evsel.h"
#include "machine.h"
#include "session.h"

#define __weak __attribute__((weak))

__weak struct perf_session *perf_session__new(const char *path, struct perf_tool *tool)
{
	pr_err("%s: cannot read recordings: the reader is not built in\n", path);
	return NULL;
}

__weak void perf_session__delete(struct perf_session *session)
{
}

__weak int perf_session__process_events(struct perf_session *session)
{
	return -ENOSYS;
}

__weak int evsel__set_name(struct evsel *evsel, const char *name)
{
	char *n = strdup(name);

	if (!n)
		return -ENOMEM;
	free(evsel->name);
	evsel->name = n;
	return 0;
}

__weak struct thread *machine__findnew_thread(struct machine *machine, s32 pid, s32 tid)
{
	return NULL;
}

__weak void thread__put(struct thread *thread)
{
}

__weak const char *thread__comm_str(const struct thread *thread)
{
	return NULL;
}

__weak void addr_location__init(struct addr_location *al)
{
	memset(al, 0, sizeof(*al));
}

__weak void addr_location__exit(struct addr_location *al)
{
}

__weak int machine__resolve(struct machine *machine, struct addr_location *al,
			    struct perf_sample *sample)
{
	return -ENOSYS;
}

__weak bool thread__find_symbol(struct thread *thread, u8 cpumode, u64 addr, u64 time,
				struct addr_location *al)
{
	return false;
}

__weak const char *map__dso_name(const struct map *map)
{
	return NULL;
}

__weak int thread__walk_callchain(struct thread *thread, struct perf_sample *sample,
				  int (*cb)(struct callchain_frame *frame, void *arg), void *arg)
{
	return 0;
}
