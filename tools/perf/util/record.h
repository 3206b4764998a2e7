/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __PERF_TEXTPOKE_RECORD_H
#define __PERF_TEXTPOKE_RECORD_H

#include "types.h"

/*
 * perf textpoke record: samples plus everything text tracking needs.
 *
 * What gets opened, per CPU ring buffer:
 *   - the -e events (disabled until the start state is written, or
 *     enable_on_exec for a workload);
 *   - a side-band dummy event: text_poke, ksymbol, bpf_event, mmap2,
 *     comm (+exec), task.  System-wide with -a/-C; with -p or a workload
 *     the mmap2/comm/task part follows the tasks (inherit) and a second,
 *     system-wide dummy carries text_poke/ksymbol/bpf_event, since the
 *     kernel patches its code from any task;
 *   - apart from these, the BPF JIT reader's own rings (bpf-capture.h).
 * All attrs sample IDENTIFIER and set sample_id_all, so every record
 * carries its event id and time.
 */

enum record_call_graph {
	CALL_GRAPH_NONE,
	CALL_GRAPH_FP,
	CALL_GRAPH_DWARF,
	CALL_GRAPH_LBR,
};

struct record_opts {
	const char *output; /* "-": pipe to stdout */
	const char **events;
	const char **filters; /* --filter for events[i]'s tracepoints, or NULL */
	int nr_events;
	u64 period; /* -c */
	u64 freq;   /* -F */
	bool system_wide;
	const char *cpu_list;
	const char *pid_list;
	u64 user_regs; /* register mask, 0 = none */
	u64 intr_regs;
	enum record_call_graph call_graph;
	u32 stack_size; /* dwarf: user stack bytes per sample */
	bool zstd;
	int zstd_level;
	bool kcore; /* write kcore_dir (output is a directory) */
	bool bpf_capture;
	unsigned int mmap_pages; /* per CPU ring, power of two */
	bool quiet;
	bool switch_events;  /* --switch-events: context_switch on the side-band */
	bool sample_addr;    /* -d: ADDR and DATA_SRC, data mmaps */
	bool inherit_stat;   /* -s: per-thread counts at exit */
	bool no_inherit;     /* --no-inherit: children are not followed */
	bool kcore_required; /* --kcore: /proc/kcore must be copied, as perf insists */
	bool full_kallsyms;  /* --full-kallsyms: keep the whole kallsyms copy */
	u64 branch_filter;   /* -b / -j: PERF_SAMPLE_BRANCH_*, 0 = none */
	bool use_clockid;    /* -k: sample times from this clock, HEADER_CLOCK_DATA written */
	int clockid;
	u16 max_stack;	      /* --call-graph fp,N: sample_max_stack, 0 = the kernel's */
	bool sample_weight;   /* -W: WEIGHT_STRUCT, as perf on x86 */
	bool sample_phys;     /* --phys-data: PHYS_ADDR */
	bool namespaces;      /* --namespaces: NAMESPACES records */
	bool all_cgroups;     /* --all-cgroups: CGROUP records and sample bits */
	bool no_buildid;      /* -B: no HEADER_BUILD_ID */
	bool per_thread;      /* --per-thread: no inherit, a ring per thread */
	const char *tid_list; /* -t: these threads only, not followed into children */
	const char *uid;      /* -u: every process of this user (name or number) */
	int delay_ms;	      /* -D: enable after this long; -1: only by --control */
	u64 max_size;	      /* --max-size: stop past this many bytes, 0 = none */
	int ctl_fd, ack_fd;   /* --control: commands in, acks out; -1 = none */
	bool switch_output;   /* --switch-output: on SIGUSR2, and at ... */
	u64 switch_size;      /* ... this many bytes (0: not by size) */
	u64 switch_secs;      /* ... or this often (0: not by time) */
	int argc;	      /* the workload */
	char **argv;
	int cmdline_argc; /* for HEADER_CMDLINE */
	const char *const *cmdline_argv;
};

void record_opts__init(struct record_opts *opts);
/* "fp", "fp,N", "dwarf", "dwarf,8192", "lbr"; 0 or -EINVAL */
int record_opts__parse_call_graph(struct record_opts *opts, const char *arg);
/* -j "any,u": perf's branch filter names; 0 or -EINVAL (the caller names the option) */
int record_opts__parse_branch_filter(const char *arg, u64 *mask);
/* -k: a clock's number, or its name as perf spells it ("monotonic", "CLOCK_TAI", "raw"); 0 or -EINVAL */
int record_opts__parse_clockid(struct record_opts *opts, const char *arg);
/* --control fifo:CTL[,ACK] or fd:N[,M]: opens the FIFOs; 0 or -errno, said */
int record_opts__parse_control(struct record_opts *opts, const char *arg);
/* NULL/"" = every register perf records by default, else "ax,bx,sp,ip,..." */
int record_opts__parse_regs(const char *arg, u64 *mask);

/* record until the workload exits or SIGINT/SIGTERM; 0 or -errno */
int record__run(struct record_opts *opts);

#endif /* __PERF_TEXTPOKE_RECORD_H */
