// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf textpoke buildid-list and evlist, the two listings of a recording:
 * the options; the work is
 * util/buildid-list.c and util/evlist-print.c.
 */
#include <stdio.h>

#include "builtin.h"
#include "util/buildid-list.h"
#include "util/debug.h"
#include "util/evlist-print.h"
#include "util/pager.h"
#include "util/parse-options.h"

static const char *const buildid_list_usage[] = {
    "perf textpoke buildid-list [<options>]",
    NULL,
};

int cmd_textpoke_buildid_list(int argc, char **argv)
{
	static const struct popt opts[] = {
	    {'f', "force", no_argument, NULL, "don't complain, do it", 'f'},
	    {'H', "with-hits", no_argument, NULL, "Show only DSOs with hits", 'H'},
	    {'i', "input", required_argument, "file", "input file name (default perf.data)", 'i'},
	    {'k', "kernel", no_argument, NULL, "Show current kernel build id", 'k'},
	    {'v', "verbose", no_argument, NULL, "be more verbose", 'v'},
	    {'h', "help", no_argument, NULL, "show this help", 'h'},
	    {0},
	};
	struct buildid_list_opts o = {.input = "perf.data"};
	struct popt_ctx ctx;
	int c;

	popt_ctx__init(&ctx, opts);
	while ((c = popt__next(&ctx, argc, argv)) != -1) {
		switch (c) {
		case 'f':
			o.force = true;
			break;
		case 'H':
			o.with_hits = true;
			break;
		case 'i':
			o.input = optarg;
			break;
		case 'k':
			o.kernel = true;
			break;
		case 'v':
			verbose++;
			break;
		default:
			if (c == 'h')
				popt__usage(buildid_list_usage, opts, stdout);
			return c == 'h' ? 0 : 129;
		}
	}
	if (optind < argc) {
		popt__error(&ctx, "unexpected argument '%s'", argv[optind]);
		return 129;
	}
	pager__setup();
	return buildid_list__run(&o, stdout) ? 1 : 0;
}

static const char *const evlist_usage[] = {
    "perf textpoke evlist [<options>]",
    NULL,
};

int cmd_textpoke_evlist(int argc, char **argv)
{
	enum { OPT_TRACE_FIELDS = 256 };
	static const struct popt opts[] = {
	    {'f', "force", no_argument, NULL, "don't complain, do it", 'f'},
	    {'F', "freq", no_argument, NULL, "Show the sample frequency", 'F'},
	    {'g', "group", no_argument, NULL, "Show event group information", 'g'},
	    {'i', "input", required_argument, "file", "Input file name (default perf.data)", 'i'},
	    {'v', "verbose", no_argument, NULL, "Show all event attr details", 'v'},
	    {0, "trace-fields", no_argument, NULL, "Show tracepoint fields", OPT_TRACE_FIELDS},
	    {'h', "help", no_argument, NULL, "show this help", 'h'},
	    {0},
	};
	struct evlist_print_opts o = {.input = "perf.data"};
	struct popt_ctx ctx;
	int c;

	popt_ctx__init(&ctx, opts);
	while ((c = popt__next(&ctx, argc, argv)) != -1) {
		switch (c) {
		case 'f':
			break;
		case 'F':
			o.freq = true;
			break;
		case 'g':
			o.group = true;
			break;
		case 'i':
			o.input = optarg;
			break;
		case 'v':
			o.verbose = true;
			break;
		case OPT_TRACE_FIELDS:
			o.trace_fields = true;
			break;
		default:
			if (c == 'h')
				popt__usage(evlist_usage, opts, stdout);
			return c == 'h' ? 0 : 129;
		}
	}
	if (optind < argc) {
		popt__error(&ctx, "unexpected argument '%s'", argv[optind]);
		return 129;
	}
	/* as perf: a group line has no room for the attr details */
	if (o.group && (o.verbose || o.freq)) {
		popt__error(&ctx, "--group option is not compatible with other options");
		return 129;
	}
	pager__setup();
	return evlist_print__run(&o, stdout) ? 1 : 0;
}
