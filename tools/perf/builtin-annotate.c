// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf textpoke annotate: the options; the work is util/annotate.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtin.h"
#include "util/annotate.h"
#include "util/debug.h"
#include "util/parse-options.h"
#include "util/text-image-options.h"

static const char *const annotate_usage[] = {
    "perf textpoke annotate [<options>] [<symbol>...]",
    NULL,
};

int cmd_textpoke_annotate(int argc, char **argv)
{
	enum {
		OPT_STDIO = 256,
		OPT_PERCENT_TYPE,
		OPT_ASM_RAW,
		OPT_SKIP_MISSING,
		OPT_SOURCE,
		OPT_NO_SOURCE,
		OPT_ITRACE,
		OPT_TIME,
		OPT_JSON,
		OPT_HTML,
		OPT_COMM,
		OPT_PID,
		OPT_TID,
		OPT_THREADS,
	};
	static const struct popt opts[] = {
	    {'i', "input", required_argument, "file",
	     "input file name (default perf.data, - for a pipe)", 'i'},
	    {0, "threads", required_argument, "n",
	     "workers reading chunks of time in parallel (default: one per CPU on a recording of "
	     "64 MB or more; 1: none)",
	     OPT_THREADS},
	    {0, "stdio", no_argument, NULL,
	     "the text output (the default; with --json or --html, printed too)", OPT_STDIO},
	    {0, "json", optional_argument, "file",
	     "the blocks as one JSON document (Documentation/annotate-json.md), to stdout or FILE",
	     OPT_JSON},
	    {0, "html", optional_argument, "file",
	     "one self-contained HTML page, hot lines coloured, to stdout or FILE", OPT_HTML},
	    {'s', "symbol", required_argument, "symbol",
	     "symbol to annotate (as many as given, with the positional ones)", 's'},
	    {'d', "dsos", required_argument, "dso[,dso...]",
	     "only consider symbols in these objects", 'd'},
	    /* report's filters: the samples of other threads or cpus are not counted */
	    {0, "comm", required_argument, "comm[,comm...]", "only these commands", OPT_COMM},
	    {0, "pid", required_argument, "pid[,pid...]", "only these processes", OPT_PID},
	    {0, "tid", required_argument, "tid[,tid...]", "only these threads", OPT_TID},
	    {'C', "cpu", required_argument, "cpu", "only these cpus: 0-3,5", 'C'},
	    {'n', "show-nr-samples", no_argument, NULL,
	     "a column with the number of samples instead of the percentage", 'n'},
	    {0, "percent-type", required_argument, "type",
	     "what the percentages are of: local-period (default), global-period, local-hits, "
	     "global-hits",
	     OPT_PERCENT_TYPE},
	    {0, "asm-raw", no_argument, NULL, "the bytes of each instruction too", OPT_ASM_RAW},
	    {0, "skip-missing", no_argument, NULL,
	     "say nothing of symbols that cannot be annotated", OPT_SKIP_MISSING},
	    {0, "source", no_argument, NULL, "source lines between the instructions (the default)",
	     OPT_SOURCE},
	    {0, "no-source", no_argument, NULL, "no source lines between the instructions",
	     OPT_NO_SOURCE},
	    {0, "itrace", required_argument, "opts",
	     "the samples of an Intel PT trace, as perf's --itrace (i1i: each instruction's "
	     "executions, b: branches taken)",
	     OPT_ITRACE},
	    /* kernel code (annotate-kernel.c): a window, and where its bytes start from */
	    {0, "time", required_argument, "time",
	     "time range: start,end in seconds, or percentages (10%/2, 0%-10%)", OPT_TIME},
	    TEXT_IMAGE_POPTS,
	    {'l', "print-line", no_argument, NULL,
	     "each hot instruction's file:line, and a summary of the hottest lines", 'l'},
	    {'v', "verbose", no_argument, NULL, "be more verbose", 'v'},
	    {'q', "quiet", no_argument, NULL, "do not show any warnings or messages", 'q'},
	    {'h', "help", no_argument, NULL, "show this help", 'h'},
	    {0},
	};
	struct annotate_opts o;
	struct popt_ctx ctx;
	int c, err = 0;

	annotate_opts__init(&o);
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
			o.json = optarg ? optarg : "-";
			break;
		case OPT_HTML:
			o.html = optarg ? optarg : "-";
			break;
		case 's':
			if (annotate_opts__add_sym(&o, optarg))
				goto out_nomem;
			break;
		case 'd':
			o.filter.dsos = optarg;
			break;
		case OPT_COMM:
			o.filter.comms = optarg;
			break;
		case OPT_PID:
			o.filter.pids = optarg;
			break;
		case OPT_TID:
			o.filter.tids = optarg;
			break;
		case 'C':
			o.filter.cpus = optarg;
			break;
		case 'n':
			o.show_nr_samples = true;
			break;
		case OPT_PERCENT_TYPE:
			if (annotate_percent__parse(optarg, &o.percent_type)) {
				popt__bad_value(&ctx, "expected local-period, global-period, "
						      "local-hits or global-hits");
				err = 129;
				goto out;
			}
			break;
		case OPT_ASM_RAW:
			o.asm_raw = true;
			break;
		case OPT_SKIP_MISSING:
			o.skip_missing = true;
			break;
		case OPT_SOURCE:
			o.no_source = false;
			break;
		case OPT_NO_SOURCE:
			o.no_source = true;
			break;
		case OPT_ITRACE:
			if (itrace_opts__parse(&o.itrace, optarg)) {
				err = 129;
				goto out;
			}
			break;
		case OPT_TIME:
			o.time_str = optarg;
			break;
		case OPT_THREADS:
			if (!popt__u32(&ctx, "a number of workers", &o.threads) || !o.threads) {
				if (!o.threads)
					fprintf(stderr, "--threads: at least 1\n");
				err = 129;
				goto out;
			}
			break;
		case 'l':
			o.print_lines = true;
			break;
		case 'v':
			verbose++;
			break;
		case 'q':
			quiet = true;
			break;
		default:
			err = text_image_opts__parse_option(&o.text, c, optarg);
			if (err < 0) {
				err = 129;
				goto out;
			}
			if (err) {
				err = 0;
				break;
			}
			/* an error has been reported in one line */
			if (c == 'h')
				popt__usage(annotate_usage, opts, stdout);
			err = c == 'h' ? 0 : 129;
			goto out;
		}
	}
	for (; optind < argc; optind++)
		if (annotate_opts__add_sym(&o, argv[optind]))
			goto out_nomem;
	if (text_image_opts__check(&o.text)) {
		err = 1;
		goto out;
	}
	/* each output is whole: two of them interleaved on stdout would be neither */
	if ((o.stdio && o.json && !strcmp(o.json, "-")) ||
	    (o.stdio && o.html && !strcmp(o.html, "-")) ||
	    (o.json && o.html && !strcmp(o.json, "-") && !strcmp(o.html, "-"))) {
		pr_err("annotate: two outputs to stdout (--stdio, --json, --html): "
		       "give --json=FILE or --html=FILE\n");
		err = 129;
		goto out;
	}
	err = annotate__run(&o) ? 1 : 0;
out:
	annotate_opts__exit(&o);
	return err;
out_nomem:
	pr_err("out of memory\n");
	annotate_opts__exit(&o);
	return 1;
}
