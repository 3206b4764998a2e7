/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __PERF_TEXTPOKE_THREAD_H
#define __PERF_TEXTPOKE_THREAD_H

#include "machine.h"
#include "types.h"

struct maps;

/* One name a thread had from @time on (exec: set by an exec) */
struct comm {
	u64 time;
	bool exec;
	char *str;
};

/*
 * A task as the records describe it.  Threads of one process share one
 * struct maps; a forked process gets a copy of its parent's.
 */
struct thread {
	int refcnt;
	s32 pid;
	s32 tid;
	s32 ppid;
	bool dead; /* EXIT seen: kept, late samples still resolve */
	/*
	 * the time of the FORK that made it, 0: none; with the tid, the
	 * thread's name in every worker of a parallel run (threads a sample
	 * makes are made at other times in each, a FORK in the side-band
	 * every worker reads)
	 */
	u64 birth;
	bool comm_set;	    /* a COMM (or fork) named it, not just ":tid" */
	struct comm *comms; /* in the order set; the last is current */
	size_t nr_comms;
	struct maps *maps;
	struct machine *machine; /* not a reference: the machine outlives it */
	struct thread *next;	 /* machine hash chain */
};

struct thread *thread__new(struct machine *machine, s32 pid, s32 tid);
/* replaces the name from @time on; the first real name replaces ":tid" */
int thread__set_comm(struct thread *thread, const char *comm, u64 time, bool exec);
/* shares (same process) or replaces (new process) the maps */
void thread__set_maps(struct thread *thread, struct maps *maps);

#endif /* __PERF_TEXTPOKE_THREAD_H */
