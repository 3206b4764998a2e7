/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __PERF_TEXTPOKE_RECORD_INTERNAL_H
#define __PERF_TEXTPOKE_RECORD_INTERNAL_H

/*
 * The recorder's state, shared by the files that make up perf textpoke
 * record (record.c runs it; record-opts.c, record-evsel.c, record-loop.c
 * and record-report.c each own one stage).  Not for anything outside
 * record*.c: builtin-record.c sees only record.h.
 */

#include <signal.h>
#include <sys/types.h>

#include "record-events.h"
#include "record-features.h"
#include "record-lost.h"
#include "record.h"

struct bpf_capture;
struct module_capture;
struct perf_ring;
struct perf_writer;

/*
 * Sample layout of every event we open.  Fixed, so the main loop can read
 * the time, pid and ip of a sample without a full parser.
 */
#define RECORD_SAMPLE_TYPE                                                              \
	(PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | \
	 PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD)
/* offsets in a sample record: header, id, ip, pid/tid, time */
#define SAMPLE_OFF_IP 16
#define SAMPLE_OFF_PID 24
#define SAMPLE_OFF_TIME 32

/* perf's x86_64 default: every general register but DS, ES, FS, GS */
#define REGS_MASK_DEFAULT (((1ULL << 24) - 1) & ~(0xfULL << 12))

struct record_evsel {
	struct record_event ev;
	bool sideband;	  /* the dummy events */
	bool system_wide; /* opened with pid -1 even in task mode */
	int idx;	  /* writer attr index */
	enum record_group_pos group;
	int leader; /* index in rec->evsels of its group's leader, or its own */
	int nr_fds;
	int *fds;
	u64 *ids;
	/* fd per (cpu, tid) slot or -1: a group member opens beside its leader's */
	int *slot_fd;
};

struct record {
	struct record_opts *opts;
	struct perf_writer *w;
	int *cpus;
	int nr_cpus;
	pid_t *tids; /* -1 alone when system-wide */
	int nr_tids;
	bool task_mode;
	/* the forked command is what is recorded (no -p, -a or -C) */
	bool workload_target;
	pid_t child;
	int go_fd;   /* the workload execs when this is written */
	int exec_fd; /* its exec's errno, or EOF once it ran */
	struct record_evsel *evsels;
	int nr_evsels;
	int sb_idx; /* attr for synthesized records */
	struct perf_ring *rings;
	/* one per CPU, or with --per-thread one per thread (cpus is {-1}) */
	int nr_rings;
	struct bpf_capture *bpf;
	struct module_capture *modules; /* only with a kcore_dir to keep them in */
	struct record_hits hits;
	/* the rings' records are noted from the output from read_from on, not as they come */
	bool read_back;
	u64 read_from;
	/* read back, the rings' bytes are written as they lie, unwalked */
	bool raw_rings;
	/* the kernel's LOST and LOST_SAMPLES in the rings' records, found when read back */
	u64 raw_lost, raw_lost_samples;
	/* where the callchain starts in a sample, 0 when samples have none */
	u16 callchain_off;
	u64 first_time, last_time;
	u64 max_time; /* of any record read: LOST_SAMPLES come after it */
	u64 nr_samples;
	u64 lost_format; /* PERF_FORMAT_LOST when the kernel has it, else 0 */
	struct record_lost lost;
	u64 bytes;
	u64 kcore_dir_bytes; /* what kcore_dir holds at the end */
	/*
	 * A plain file's kcore_dir is written in this temporary directory
	 * (as <dir>/kcore_dir) and packed into the file at the end
	 */
	char *kdir_tmp;
	/* kcore_dir/kallsyms is a fresh copy the first synthesis may read */
	bool kallsyms_copy;
	/* -D: when to enable the events (CLOCK_MONOTONIC ns), 0 = not waiting */
	u64 enable_at;
	/* --control: a command read in part, waiting for its newline */
	char ctl_buf[256];
	size_t ctl_len;
	/* --switch-output: rec->bytes at the last switch, the next switch's time (0: none) */
	u64 switch_bytes;
	u64 switch_at;
	int nr_switches;
	char dump_name[4096]; /* the last file's name once renamed, for the closing lines */
	/* -z: bytes before and after compression, kept past the writer's close */
	u64 zbytes_in, zbytes_out;
};

/* record-opts.c */
/* "0-1,3" (NULL: every CPU) -> the number of cpus, or -EINVAL */
int parse_cpu_list(const char *list, int **cpus);

/* record-evsel.c */
int record__setup_evsels(struct record *rec);
int record__open(struct record *rec);
void record__close_evsel(struct record_evsel *e);
int record__enable(struct record *rec);
void record__disable(struct record *rec);
/* enable (on) or disable the -e events named @name, or all of them (NULL); how many */
int record__toggle(struct record *rec, const char *name, bool on);
bool record__user_only(const struct record *rec);

/* record-loop.c: the flags the signal handler sets, reset by record__run() */
extern volatile sig_atomic_t record_done;
extern volatile sig_atomic_t record_child_exited;
extern volatile sig_atomic_t record_switch; /* SIGUSR2: --switch-output now */
void record__sig(int sig);
int record__loop(struct record *rec);
/* the output's position now: the rings' records from here are noted when read back */
void record__read_back_mark(struct record *rec);
/* the records written since the mark noted, from the output; 0 or -errno, said */
int record__read_back(struct record *rec);

/* record.c: --switch-output: close this file as OUT.<timestamp>, go on in a new one */
int record__switch_output(struct record *rec);

/* record-report.c */
int record__write_lost_samples(struct record *rec);
void record__count(struct record *rec);
void record__report(struct record *rec);

#endif /* __PERF_TEXTPOKE_RECORD_INTERNAL_H */
