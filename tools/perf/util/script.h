/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __PERF_TEXTPOKE_SCRIPT_H
#define __PERF_TEXTPOKE_SCRIPT_H

#include "script-fields.h"
#include "text-image.h"
#include "types.h"

/* What perf textpoke script was asked to do (its command line) */
struct script_opts {
	const char *input; /* file, perf.data/ directory, or "-" */
	struct script_fields fields;
	bool show_task_events; /* COMM, FORK, EXIT */
	bool show_mmap_events; /* MMAP, MMAP2 */
	bool show_bpf_events;  /* KSYMBOL, BPF_EVENT */
	bool show_text_poke_events;
	bool show_lost_events;
	bool nanosecs;
	bool hide_call_graph;
	unsigned int max_stack;	     /* callchain entries printed, recorded and unwound apart */
	struct text_image_opts text; /* where kernel code starts from: --kcore, --vmlinux */
};

/* perf's default --max-stack: the kernel's sysctl_perf_event_max_stack */
#define SCRIPT_MAX_STACK 127

void script_opts__init(struct script_opts *opts);

/* Print the recording; 0, or a negative errno with the reason printed */
int script__run(struct script_opts *opts);

#endif /* __PERF_TEXTPOKE_SCRIPT_H */
