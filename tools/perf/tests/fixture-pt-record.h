/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __PERF_TEXTPOKE_TESTS_FIXTURE_PT_RECORD_H
#define __PERF_TEXTPOKE_TESTS_FIXTURE_PT_RECORD_H

#include "../util/types.h"

/*
 * The perf.data around the traces of fixture-pt.c (fixture-pt-record.c):
 * what the generator of the trace leaves to it, and the two facts they
 * share.
 */

/* the CBR packets' ratio and priv[MAX_NONTURBO_RATIO] */
#define FP_CBR 24
#define FP_BPF_MAX_LEN FP_BPF_A_LEN

struct perf_writer;

struct fp_bpf_prog {
	u32 id, len; /* len <= FP_BPF_MAX_LEN */
	const char *name;
	const u8 *jit;
};

/* the intel_pt event (FP_NR_CPUS ids) and the side-band dummy; 0 or -errno */
int fixture_pt_record__attrs(struct perf_writer *w, unsigned int quirks, int *pt, int *dummy);
/*
 * The header features (HEADER_BPF_PROG_INFO with @progs at FP_BPF) and the
 * records before the trace: TIME_CONV, AUXTRACE_INFO, the kernel MMAP2,
 * swapper's COMM
 */
int fixture_pt_record__begin(struct perf_writer *w, unsigned int quirks, int dummy,
			     const struct fp_bpf_prog *progs, int nr_progs);
/* @dir/kcore_dir: kallsyms, modules and, unless @text is NULL, a kcore of it at FP_TEXT */
int fixture_pt_record__kcore_dir(const char *dir, const u8 *text);

#endif /* __PERF_TEXTPOKE_TESTS_FIXTURE_PT_RECORD_H */
