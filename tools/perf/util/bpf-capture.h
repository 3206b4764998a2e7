/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __PERF_TEXTPOKE_BPF_CAPTURE_H
#define __PERF_TEXTPOKE_BPF_CAPTURE_H

#include <linux/bpf.h>

#include "types.h"

/*
 * The BPF JIT reader.  The kernel tells us a program was loaded
 * (PERF_RECORD_BPF_EVENT PROG_LOAD) but not its code; the code can only be
 * read while the program lives, with BPF_OBJ_GET_INFO_BY_FD.  Programs
 * may live microseconds, so a dedicated thread sleeps on a side-band ring
 * of its own (one bpf_event-only event per CPU, wakeup_events = 1: woken
 * for every record) and takes a file descriptor on each new program at
 * once: once we hold the fd, the program cannot go away while we copy its
 * JIT image, symbols and lengths.
 *
 * The result is written as HEADER_BPF_PROG_INFO, laid out as perf's own
 * struct perf_bpil so that stock perf reads it.
 */

struct perf_writer;
struct bpf_capture;

struct bpf_prog_capture {
	u32 id;
	struct bpf_prog_info info; /* array pointers cleared */
	u8 *insns;		   /* info.jited_prog_len bytes */
	u64 *ksyms;		   /* info.nr_jited_ksyms */
	u32 *func_lens;		   /* info.nr_jited_func_lens */
	u8 *tags;		   /* info.nr_prog_tags * BPF_TAG_SIZE */
};

/*
 * Start the reader on @cpus (NULL: every online CPU).  NULL + errno when
 * the side-band events cannot be opened (not root, old kernel).
 */
struct bpf_capture *bpf_capture__new(const int *cpus, int nr_cpus);
/* capture program @id now (already loaded programs); 0, -ENOENT when gone */
int bpf_capture__add_id(struct bpf_capture *cap, u32 id);
/* the capture of @id, or NULL; valid until delete */
const struct bpf_prog_capture *bpf_capture__find(struct bpf_capture *cap, u32 id);
/*
 * @fn for every program captured so far, in capture order, under the
 * capture's lock (@fn must not call back); stops at and returns @fn's
 * first non-zero value
 */
int bpf_capture__for_each(struct bpf_capture *cap,
			  int (*fn)(const struct bpf_prog_capture *p, void *arg), void *arg);
/* read what is left in the rings and stop the thread */
void bpf_capture__stop(struct bpf_capture *cap);
/* HEADER_BPF_PROG_INFO with every captured program; 0 or -errno */
int bpf_capture__write(struct bpf_capture *cap, struct perf_writer *w);
void bpf_capture__delete(struct bpf_capture *cap);

struct bpf_capture_stats {
	u64 loads;    /* PROG_LOAD events seen */
	u64 captured; /* programs whose code we hold */
	u64 missed;   /* gone before we got to them */
	u64 lost;     /* side-band records the kernel dropped */
};
void bpf_capture__stats(struct bpf_capture *cap, struct bpf_capture_stats *st);

/* bpf(2) helpers shared with synthesis */
int sys_bpf(int cmd, union bpf_attr *attr, unsigned int size);
/* next loaded program id after @id; 0 or -errno (-ENOENT at the end) */
int bpf_prog__next_id(u32 id, u32 *next);

#endif /* __PERF_TEXTPOKE_BPF_CAPTURE_H */
