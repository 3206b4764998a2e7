/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __PERF_TEXTPOKE_SCRIPT_H
#define __PERF_TEXTPOKE_SCRIPT_H

#include "itrace.h"
#include "script-fields.h"
#include "script-filter.h"
#include "text-image.h"
#include "types.h"

/* What perf textpoke script was asked to do (its command line) */
struct script_opts {
	const char
	    *input; /* file, perf.data/ directory, "-", or NULL: a pipe on stdin, else perf.data */
	struct script_fields fields;
	bool show_task_events; /* COMM, FORK, EXIT */
	bool show_mmap_events; /* MMAP, MMAP2 */
	bool show_bpf_events;  /* KSYMBOL, BPF_EVENT */
	bool show_text_poke_events;
	bool show_lost_events;
	bool show_switch_events; /* SWITCH, SWITCH_CPU_WIDE */
	bool show_namespace_events;
	bool show_cgroup_events;
	bool show_round_events; /* FINISHED_ROUND, and then records in file order */
	bool header;		/* the recording's header first, as perf report --header-only */
	bool header_only;	/* and nothing else */
	bool show_info;		/* -I: the header's topologies in full */
	bool per_event_dump;	/* samples to <input>.<event>.dump, one file per event */
	bool nanosecs;
	bool reltime;	/* times from the first line printed */
	bool deltatime; /* times from the previous line printed */
	bool force;	/* -f: read a file another user owns */
	bool hide_call_graph;
	bool json;		     /* --json: one JSON object per line (script-json.c) */
	unsigned int max_stack;	     /* callchain entries printed, recorded and unwound apart */
	bool no_inline;		     /* --no-inline: unwound frames not split at inlined calls */
	struct text_image_opts text; /* where kernel code starts from: --kcore, --vmlinux */
	struct script_filter filter; /* --time, -C, --pid, --tid, -c, --dsos, -S */
	struct itrace_opts itrace;   /* --itrace, or perf's default for AUX recordings */
	unsigned int threads;	     /* --threads: workers; 0 one per CPU on a big recording */
};

void script_opts__init(struct script_opts *opts);

/*
 * perf script's -1: the file cannot be read as a recording, or the fields
 * asked for do not fit it (exit status 255)
 */
#define SCRIPT_ERR_OPEN (-1)

/*
 * Print the recording; 0, SCRIPT_ERR_OPEN, or a negative errno with the
 * reason printed.  perf script exits with such values' low byte: 255 for
 * -1, 234 for -EINVAL (a bad --time, a record that cannot be read).
 */
int script__run(struct script_opts *opts);

#endif /* __PERF_TEXTPOKE_SCRIPT_H */
