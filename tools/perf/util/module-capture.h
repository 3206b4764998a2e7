/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __PERF_TEXTPOKE_MODULE_CAPTURE_H
#define __PERF_TEXTPOKE_MODULE_CAPTURE_H

#include "types.h"

/*
 * The recorder's module reader: modules loaded while recording, their code
 * taken at once, as BPF programs' JIT images are (bpf-capture.h).
 *
 * The kernel reports no module load in the records perf reads, and keeps
 * no copy of a module's init code once init has run.  So, as the BPF JIT
 * reader does, one thread per CPU, pinned there and SCHED_FIFO, sleeps on
 * a ring of its own holding the module:module_load, module:module_put
 * and module:module_free tracepoints, and is woken by each load: it is
 * made runnable on the CPU of the loader, so it runs at the loader's
 * next preemption point, before or early in the module's init.  It reads
 * the module's layout (module-read.h), then its code from /proc/kcore
 * between two COMM records of its own (prctl(PR_SET_NAME)) that tell the
 * read's times on perf's clock, then, at normal priority, its kallsyms
 * lines.  Nothing pins the module meanwhile: the times of its free and of
 * the end of its init, kept beside, tell afterwards whether the bytes are
 * its own (module_load__code_ok()).
 *
 * What it took goes into kcore_dir (module-events.h) at the end.
 */

struct module_capture;

struct module_capture_opts {
	const char *sys;  /* NULL: /sys */
	const char *proc; /* NULL: /proc */
	bool use_clockid; /* the recording's clock */
	int clockid;
};

/*
 * Start the reader on @cpus (NULL: every online CPU).  NULL + errno when
 * the tracepoints cannot be opened: ENOENT when the kernel has none (no
 * module support), else why (EACCES: not root).
 */
struct module_capture *module_capture__new(const int *cpus, int nr_cpus,
					   const struct module_capture_opts *opts);

/*
 * The address range of do_init_module() (from kallsyms): its module_put
 * is the one that drops the initial reference, after which the init code
 * may be freed.  Unknown, the first module_put after the load is taken,
 * which comes no later.  Filters the module_put tracepoint in the kernel.
 */
void module_capture__set_init_caller(struct module_capture *cap, u64 start, u64 end);
/* [start, end) of do_init_module in the kallsyms file @path; 0 or -ENOENT */
int module_capture__find_init_caller(const char *path, u64 *start, u64 *end);

/* read what is left in the rings and stop the threads */
void module_capture__stop(struct module_capture *cap);
/*
 * @kcore_dir/module_events and each load's code and kallsyms files; no
 * file at all when no module came or went.  0 or -errno.
 */
int module_capture__write(struct module_capture *cap, const char *kcore_dir);
void module_capture__delete(struct module_capture *cap);

struct module_capture_stats {
	u64 loads;    /* module_load seen */
	u64 captured; /* loads whose code was read */
	u64 gone;     /* loads gone before their layout was read */
	u64 unread;   /* loads whose code /proc/kcore did not give (no marker time, a read error) */
	u64 frees;    /* module_free seen */
	u64 lost;     /* records the kernel dropped */
};
void module_capture__stats(struct module_capture *cap, struct module_capture_stats *st);

#endif /* __PERF_TEXTPOKE_MODULE_CAPTURE_H */
