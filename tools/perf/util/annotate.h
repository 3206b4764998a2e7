/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __PERF_TEXTPOKE_ANNOTATE_H
#define __PERF_TEXTPOKE_ANNOTATE_H

#include <stdbool.h>
#include <stddef.h>

#include "itrace.h"
#include "report-filters.h"
#include "text-image.h"
#include "types.h"

/* perf annotate's --percent-type: what a line's share is of */
enum annotate_percent {
	ANNOTATE_PERCENT__LOCAL_PERIOD,	 /* the symbol's period (the default) */
	ANNOTATE_PERCENT__GLOBAL_PERIOD, /* the event's period, all symbols */
	ANNOTATE_PERCENT__LOCAL_HITS,	 /* the symbol's samples */
	ANNOTATE_PERCENT__GLOBAL_HITS,	 /* the event's samples */
	ANNOTATE_PERCENT__MAX,
};

/* perf's name for @type ("local-period"), NULL when out of range */
const char *annotate_percent__name(enum annotate_percent type);
/* perf's name with a space ("local period"), as its header prints it */
const char *annotate_percent__title(enum annotate_percent type);
/* 0 and *@type, or -EINVAL for a name perf does not take */
int annotate_percent__parse(const char *name, enum annotate_percent *type);

/* What perf textpoke annotate was asked to do (its command line) */
struct annotate_opts {
	const char *input; /* file, perf.data/ directory, or "-" */
	/* the symbols to annotate (-s and the positional ones), none: every symbol hit */
	const char **syms;
	size_t nr_syms;
	/* as report's: --comm, --pid, --tid, -d (objects by basename or path), -C */
	struct report_filters_opts filter;
	enum annotate_percent percent_type;
	bool show_nr_samples; /* -n: a Samples column instead of Percent */
	bool asm_raw;	      /* --asm-raw: each instruction's bytes too */
	bool skip_missing;    /* --skip-missing: no message for a symbol without code */
	bool stdio;	      /* --stdio: accepted, the only output so far */
	bool no_source;	      /* --no-source: no source lines between the instructions */
	bool print_lines;     /* -l: hot instructions' file:line, and their summary */
	/* --itrace: the samples of an Intel PT trace (annotate-itrace.c), set: given */
	struct itrace_opts itrace;
	/* kernel code: where its bytes start from (--kcore, --vmlinux, ...); --time's window */
	struct text_image_opts text;
	const char *time_str;
	/* --json[=FILE], --html[=FILE]: where to, "-" stdout; NULL: not asked for */
	const char *json, *html;
	/* --threads: workers reading chunks of time in parallel, 0 one per CPU */
	unsigned int threads;
};

void annotate_opts__init(struct annotate_opts *opts);
void annotate_opts__exit(struct annotate_opts *opts);
/* add a symbol to annotate (-s, positional): 0 or -ENOMEM */
int annotate_opts__add_sym(struct annotate_opts *opts, const char *name);

/* Annotate the recording; 0, or a negative errno with the reason printed */
int annotate__run(struct annotate_opts *opts);

#endif /* __PERF_TEXTPOKE_ANNOTATE_H */
