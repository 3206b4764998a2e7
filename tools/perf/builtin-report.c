// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf textpoke report: the options; the work is util/report.c.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtin.h"
#include "util/debug.h"
#include "util/parse-options.h"
#include "util/report.h"
#include "util/text-image-options.h"

static const char *const report_usage[] = {
    "perf textpoke report [<options>]",
    NULL,
};

/* perf's --percent-limit: a number, "%" allowed after it */
static int parse_percent_limit(const char *str, float *limit)
{
	char *end;
	float v;

	errno = 0;
	v = strtof(str, &end);
	if (errno || end == str || (*end && strcmp(end, "%")) || v < 0 || v > 100)
		return -EINVAL;
	*limit = v;
	return 0;
}

int cmd_textpoke_report(int argc, char **argv)
{
	enum {
		OPT_STDIO = 256,
		OPT_JSON,
		OPT_HTML,
		OPT_PERCENT_LIMIT,
		OPT_COMM,
		OPT_PID,
		OPT_TID,
		OPT_DSOS,
		OPT_SYMBOLS,
		OPT_TIME,
		OPT_NO_CHANGES,
		OPT_CHANGES,
		OPT_HEADER,
		OPT_HEADER_ONLY,
		OPT_STATS,
		OPT_TASKS,
		OPT_MMAPS,
		OPT_CHILDREN,
		OPT_NO_CHILDREN,
		OPT_MAX_STACK,
		OPT_PERCENTAGE,
		OPT_INLINE,
		OPT_NO_INLINE,
		OPT_SYMBOL_FILTER,
		OPT_IGNORE_CALLEES,
		OPT_HIERARCHY,
		OPT_SHOW_TOTAL_PERIOD,
		OPT_GROUP,
		OPT_NO_GROUP,
		OPT_PERCENT_TYPE,
		OPT_ITRACE,
		OPT_WORKERS,
	};
	static const struct popt opts[] = {
	    {'i', "input", required_argument, "file",
	     "input file name (default perf.data, - for a pipe)", 'i'},
	    {0, "stdio", no_argument, NULL, "the text report (the default)", OPT_STDIO},
	    {0, "json", no_argument, NULL, "the report as JSON (Documentation/report-json.md)",
	     OPT_JSON},
	    {0, "html", required_argument, "file",
	     "a self-contained HTML report with a timeline of the code changes", OPT_HTML},
	    {'s', "sort", required_argument, "key[,key...]",
	     "sort by comm, pid, tid, dso, sym, cpu, abi, dso_size, symoff, srcline, srcfile, "
	     "parent (default comm,dso,sym; any case)",
	     's'},
	    {'F', "fields", required_argument, "field[,field...]",
	     "output fields: overhead, sample, period and the sort keys", 'F'},
	    {'n', "show-nr-samples", no_argument, NULL, "show the number of samples", 'n'},
	    {0, "percent-limit", required_argument, "percent",
	     "do not show entries below this overhead", OPT_PERCENT_LIMIT},
	    {0, "comm", required_argument, "comm[,comm...]", "only these commands", OPT_COMM},
	    {0, "pid", required_argument, "pid[,pid...]", "only these processes", OPT_PID},
	    {0, "tid", required_argument, "tid[,tid...]", "only these threads", OPT_TID},
	    {'d', "dsos", required_argument, "dso[,dso...]", "only these objects", OPT_DSOS},
	    {'S', "symbols", required_argument, "symbol[,symbol...]", "only these symbols",
	     OPT_SYMBOLS},
	    {'C', "cpu", required_argument, "cpu", "only these cpus: 0-3,5", 'C'},
	    {0, "time", required_argument, "time",
	     "time range: start,end in seconds, or percentages (10%/2, 0%-10%)", OPT_TIME},
	    {0, "no-changes", no_argument, NULL, "the profile only: no code-change report",
	     OPT_NO_CHANGES},
	    {0, "changes", no_argument, NULL,
	     "the code-change report even when the kernel's code did not change", OPT_CHANGES},
	    {0, "header", no_argument, NULL, "Show data header.", OPT_HEADER},
	    {0, "header-only", no_argument, NULL, "Show only data header.", OPT_HEADER_ONLY},
	    {0, "stats", no_argument, NULL, "Display event stats", OPT_STATS},
	    {0, "tasks", no_argument, NULL, "Display recorded tasks", OPT_TASKS},
	    {0, "mmaps", no_argument, NULL, "Display recorded tasks memory maps", OPT_MMAPS},
	    {'I', "show-info", no_argument, NULL,
	     "display extended information about perf.data file", 'I'},
	    {0, "children", no_argument, NULL,
	     "add the period of callers: Children and Self (the default with callchains)",
	     OPT_CHILDREN},
	    {0, "no-children", no_argument, NULL, "the period of each entry's own samples only",
	     OPT_NO_CHILDREN},
	    {'g', "call-graph", required_argument, "mode[,threshold[,limit]][,order][,value]",
	     "call-graph trees as perf: graph, fractal, flat, folded, none; caller, callee; "
	     "percent, period, count",
	     'g'},
	    {'G', "inverted", no_argument, NULL, "the trees in caller order", 'G'},
	    {0, "percentage", required_argument, "relative|absolute",
	     "percentages of the samples the filters keep, or of all (default)", OPT_PERCENTAGE},
	    {0, "max-stack", required_argument, "n",
	     "callchain frames counted: the recorded outermost, the unwound innermost (127)",
	     OPT_MAX_STACK},
	    {0, "inline", no_argument, NULL,
	     "unwound frames split at the functions inlined there (the default)", OPT_INLINE},
	    {0, "no-inline", no_argument, NULL, "unwound frames whole, by their symbol",
	     OPT_NO_INLINE},
	    {'p', "parent", required_argument, "regex",
	     "the parent key: a chain's first symbol matching (default ^sys_|^do_page_fault)", 'p'},
	    {'x', "exclude-other", no_argument, NULL, "only entries with a parent (-p)", 'x'},
	    {0, "symbol-filter", required_argument, "filter", "only symbols holding this string",
	     OPT_SYMBOL_FILTER},
	    {0, "ignore-callees", required_argument, "regex",
	     "a matching frame is the sample's place, its callees forgotten", OPT_IGNORE_CALLEES},
	    {0, "hierarchy", no_argument, NULL,
	     "a level per sort key, as perf's (no Children; not with trees, -F or filters yet)",
	     OPT_HIERARCHY},
	    {0, "show-total-period", no_argument, NULL, "show the total period of each entry",
	     OPT_SHOW_TOTAL_PERIOD},
	    {0, "group", no_argument, NULL,
	     "an event group as one block, a column per member (the default with groups)",
	     OPT_GROUP},
	    {0, "no-group", no_argument, NULL, "every event its own block, groups or not",
	     OPT_NO_GROUP},
	    {'T', "threads", no_argument, NULL,
	     "after the profile, the per-thread counts the READ records hold", 'T'},
	    {0, "workers", required_argument, "n",
	     "workers reading chunks of time in parallel (default: one per CPU on a recording of "
	     "64 MB or more; 1: none)",
	     OPT_WORKERS},
	    {0, "percent-type", required_argument, "type",
	     "perf annotate's percentages: accepted, the report prints none", OPT_PERCENT_TYPE},
	    {0, "itrace", required_argument, "opts",
	     "samples from an Intel PT trace: b branches, c calls, r returns, i<n>i every n "
	     "instructions, i<n>ns/us/ms a period, e errors, p power events, g callchains",
	     OPT_ITRACE},
	    TEXT_IMAGE_POPTS,
	    {'v', "verbose", no_argument, NULL, "be more verbose", 'v'},
	    {'q', "quiet", no_argument, NULL, "do not show any warnings or messages", 'q'},
	    {'h', "help", no_argument, NULL, "show this help", 'h'},
	    {0},
	};
	struct report_opts o;
	struct popt_ctx ctx;
	int c, err;

	report_opts__init(&o);
	popt_ctx__init(&ctx, opts);
	while ((c = popt__next(&ctx, argc, argv)) != -1) {
		switch (c) {
		case 'i':
			o.input = optarg;
			break;
		case OPT_STDIO:
			o.stdio = true;
			break;
		case OPT_JSON:
			o.json = true;
			break;
		case OPT_HTML:
			o.html = optarg;
			break;
		case 's':
			o.sort = optarg;
			break;
		case 'F':
			o.fields = optarg;
			break;
		case 'n':
			o.show_nr_samples = true;
			break;
		case OPT_PERCENT_LIMIT:
			if (parse_percent_limit(optarg, &o.percent_limit)) {
				popt__bad_value(&ctx, "expected a percentage from 0 to 100");
				return 129;
			}
			/* perf's --percent-limit is the trees' threshold too, until -g gives one */
			o.call_graph.min_percent = o.percent_limit;
			break;
		case OPT_COMM:
			o.comms = optarg;
			break;
		case OPT_PID:
			o.pids = optarg;
			break;
		case OPT_TID:
			o.tids = optarg;
			break;
		case OPT_DSOS:
			o.dsos = optarg;
			break;
		case OPT_SYMBOLS:
			o.symbols = optarg;
			break;
		case 'C':
			o.cpus = optarg;
			break;
		case OPT_TIME:
			o.time = optarg;
			break;
		case OPT_NO_CHANGES:
			o.no_changes = true;
			o.changes = false;
			break;
		case OPT_CHANGES:
			o.changes = true;
			o.no_changes = false;
			break;
		case OPT_HEADER:
			o.header = true;
			break;
		case OPT_HEADER_ONLY:
			o.header_only = true;
			break;
		case OPT_STATS:
			o.stats = true;
			break;
		case OPT_TASKS:
			o.tasks = true;
			break;
		case OPT_MMAPS:
			o.mmaps = true;
			break;
		case 'I':
			o.show_info = true;
			break;
		case OPT_CHILDREN:
			o.children = 1;
			break;
		case OPT_NO_CHILDREN:
			o.children = 0;
			break;
		case 'g': {
			const char *bad = NULL;
			size_t len = 0;

			if (report_tree_opts__parse(&o.call_graph, optarg, &bad, &len)) {
				pr_err(
				    "-g %s: '%.*s' is not a mode (graph, fractal, flat, folded, "
				    "none), an order (caller, callee), a key (function, address), a value "
				    "(percent, period, count) or a number\n",
				    optarg, (int)len, bad ?: "");
				return 129;
			}
			break;
		}
		case 'G':
			o.inverted = true;
			break;
		case OPT_PERCENTAGE:
			if (!strcmp(optarg, "relative")) {
				o.relative = true;
			} else if (!strcmp(optarg, "absolute")) {
				o.relative = false;
			} else {
				popt__bad_value(&ctx, "expected relative or absolute");
				return 129;
			}
			break;
		case 'p':
			o.parent = optarg;
			break;
		case 'x':
			o.exclude_other = true;
			break;
		case OPT_SYMBOL_FILTER:
			o.symbol_filter = optarg;
			break;
		case OPT_IGNORE_CALLEES:
			o.ignore_callees = optarg;
			break;
		case OPT_HIERARCHY:
			o.hierarchy = true;
			break;
		case OPT_SHOW_TOTAL_PERIOD:
			o.show_total_period = true;
			break;
		case OPT_GROUP:
			o.group = 1;
			break;
		case OPT_NO_GROUP:
			o.group = 0;
			break;
		case 'T':
			o.threads = true;
			break;
		case OPT_WORKERS:
			if (!popt__u32(&ctx, "a number of workers", &o.workers) || !o.workers) {
				if (!o.workers)
					fprintf(stderr, "--workers: at least 1\n");
				return 129;
			}
			break;
		case OPT_PERCENT_TYPE:
			/* perf 6.1 takes it for annotate's columns; --stdio's report has none */
			if (strcmp(optarg, "local-period") && strcmp(optarg, "global-period") &&
			    strcmp(optarg, "local-hits") && strcmp(optarg, "global-hits")) {
				popt__bad_value(&ctx, "expected local-period, global-period, "
						      "local-hits or global-hits");
				return 129;
			}
			break;
		case OPT_MAX_STACK:
			if (!popt__u32(&ctx, "a number of frames", &o.max_stack))
				return 129;
			break;
		case OPT_ITRACE:
			if (itrace_opts__parse(&o.itrace, optarg))
				return 129;
			break;
		case OPT_INLINE:
		case OPT_NO_INLINE:
			o.no_inline = c == OPT_NO_INLINE;
			break;
		case 'v':
			verbose++;
			break;
		case 'q':
			quiet = true;
			break;
		default:
			err = text_image_opts__parse_option(&o.text, c, optarg);
			if (err < 0)
				return 129;
			if (err)
				break;
			if (c == 'h')
				popt__usage(report_usage, opts, stdout);
			return c == 'h' ? 0 : 129;
		}
	}
	if (optind < argc) {
		popt__error(&ctx, "unexpected argument '%s'", argv[optind]);
		return 129;
	}
	if (report_opts__check(&o))
		return 129;
	if (text_image_opts__check(&o.text))
		return 1;
	return report__run(&o) ? 1 : 0;
}
