/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __PERF_TEXTPOKE_SYNTHESIZE_H
#define __PERF_TEXTPOKE_SYNTHESIZE_H

#include <sys/types.h>

#include "types.h"

/*
 * The start state of a recording, as perf record synthesizes it: what
 * existed before the side-band event was enabled and so will never be
 * reported by the kernel.  Records go to attr s->idx of s->w with time 0,
 * which readers deliver before everything else.
 */

struct perf_writer;
struct bpf_capture;
struct perf_record_mmap2;

/* where synthesized records go; @on_mmap (may be NULL) sees each mmap written */
struct synth {
	struct perf_writer *w;
	int idx;
	void (*on_mmap)(void *arg, const struct perf_record_mmap2 *m, const char *filename);
	void *arg;
	/* non-executable mappings too, as the kernel reports them with attr.mmap_data */
	bool data_mmaps;
	/* --namespaces: a NAMESPACES record per thread, as perf synthesizes them */
	bool namespaces;
	/*
	 * A copy of /proc/kallsyms just taken, to find the kernel's text in
	 * (NULL: /proc/kallsyms itself, which the kernel formats anew at
	 * every read, a cost of tens of milliseconds)
	 */
	const char *kallsyms;
};

/* "[kernel.kallsyms]_text" from _text to _etext (or the top of the address space) */
int synthesize__kernel_mmap(struct synth *s);
/* one mmap per line of /proc/modules; none when it does not exist */
int synthesize__modules(struct synth *s);
/* COMM (+ FORK for non-leader threads) and executable MMAP2s of @pid */
int synthesize__process(struct synth *s, pid_t pid, bool mmaps);
/* every process in /proc */
int synthesize__all_processes(struct synth *s);
/*
 * The BPF programs loaded now: KSYMBOL per sub-program and a BPF_EVENT
 * PROG_LOAD each, as the kernel would have written them; their code goes
 * into @cap.  Returns the number of programs or -errno.
 */
int synthesize__bpf_programs(struct synth *s, struct bpf_capture *cap);

/*
 * --all-cgroups: a CGROUP record for every cgroup of the hierarchy the
 * perf_event controller is on (v1 if mounted so, else cgroup2), so that
 * samples of tasks in cgroups made before recording have a name
 */
int synthesize__cgroups(struct synth *s);

/* "bpf_prog_<tag>_<name>", the name the kernel gives a JITed program */
void bpf_prog__ksym_name(char *buf, size_t size, const u8 tag[8], const char *name, u32 sub,
			 u32 nr_subs);

#endif /* __PERF_TEXTPOKE_SYNTHESIZE_H */
