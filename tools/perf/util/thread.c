// SPDX-License-Identifier: GPL-2.0-only
/*
 * Threads: refcounted, with their name history.  perf script prints the
 * name current when a sample is handled; the history answers for a time
 * when records are looked at out of order.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "map.h"
#include "thread.h"

struct thread *thread__new(struct machine *machine, s32 pid, s32 tid)
{
	struct thread *thread = calloc(1, sizeof(*thread));
	char name[32];

	if (!thread)
		return NULL;
	thread->refcnt = 1;
	thread->pid = pid;
	thread->tid = tid;
	thread->ppid = -1;
	thread->machine = machine;
	/* perf names a thread it knows nothing about by its tid */
	snprintf(name, sizeof(name), ":%d", tid);
	if (thread__set_comm(thread, name, 0, false)) {
		free(thread);
		return NULL;
	}
	thread->comm_set = false;
	return thread;
}

struct thread *thread__get(struct thread *thread)
{
	if (thread)
		thread->refcnt++;
	return thread;
}

void thread__put(struct thread *thread)
{
	size_t i;

	if (!thread || --thread->refcnt > 0)
		return;
	for (i = 0; i < thread->nr_comms; i++)
		free(thread->comms[i].str);
	free(thread->comms);
	maps__put(thread->maps);
	free(thread);
}

int thread__set_comm(struct thread *thread, const char *str, u64 time, bool exec)
{
	struct comm *comms;
	char *copy = strdup(str);

	if (!copy)
		return -ENOMEM;
	/* the placeholder name never held: overwrite it, as perf does */
	if (thread->nr_comms && !thread->comm_set) {
		struct comm *c = &thread->comms[thread->nr_comms - 1];

		free(c->str);
		c->str = copy;
		c->exec = exec;
		c->time = thread->nr_comms == 1 ? 0 : time;
		thread->comm_set = true;
		return 0;
	}
	comms = realloc(thread->comms, (thread->nr_comms + 1) * sizeof(*comms));
	if (!comms) {
		free(copy);
		return -ENOMEM;
	}
	thread->comms = comms;
	comms[thread->nr_comms].time = time;
	comms[thread->nr_comms].exec = exec;
	comms[thread->nr_comms].str = copy;
	thread->nr_comms++;
	thread->comm_set = true;
	return 0;
}

const char *thread__comm_str(const struct thread *thread)
{
	if (!thread || !thread->nr_comms)
		return "[unknown]";
	return thread->comms[thread->nr_comms - 1].str;
}

const char *thread__comm_at(const struct thread *thread, u64 time)
{
	size_t i;

	if (!thread || !thread->nr_comms)
		return "[unknown]";
	if (!time)
		return thread__comm_str(thread);
	for (i = thread->nr_comms; i > 1; i--)
		if (thread->comms[i - 1].time <= time)
			break;
	return thread->comms[i - 1].str;
}

s32 thread__pid(const struct thread *thread)
{
	return thread->pid;
}

s32 thread__tid(const struct thread *thread)
{
	return thread->tid;
}

void thread__set_maps(struct thread *thread, struct maps *maps)
{
	struct maps *old = thread->maps;

	thread->maps = maps__get(maps);
	maps__put(old);
}
