// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf textpoke record: the option table and a thin entry point; the
 * recorder lives in util/record.c.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtin.h"
#include "util/debug.h"
#include "util/parse-options.h"
#include "util/record.h"

static const char *const record_usage[] = {
    "perf textpoke record [<options>] [<command>]",
    "perf textpoke record [<options>] -- <command> [<options>]",
    NULL,
};

static int parse_u64(const char *arg, u64 *v)
{
	char *end;
	unsigned long long x;

	errno = 0;
	x = strtoull(arg, &end, 0);
	if (errno || *end || !*arg || !x)
		return -EINVAL;
	*v = x;
	return 0;
}

int cmd_textpoke_record(int argc, char **argv)
{
	enum {
		OPT_USER_REGS = 256,
		OPT_INTR_REGS,
		OPT_CALL_GRAPH,
		OPT_NO_KCORE,
		OPT_NO_BPF,
	};
	static const struct popt opts[] = {
	    {'e', "event", required_argument, "event",
	     "event to sample: cpu-clock, task-clock, cycles, sys:tracepoint, with :u :k :p :pp :ppp",
	     'e'},
	    {'c', "count", required_argument, "n", "sample every n events", 'c'},
	    {'F', "freq", required_argument, "n", "sample n times a second (default 4000)", 'F'},
	    {'a', "all-cpus", no_argument, NULL, "system-wide collection from all CPUs", 'a'},
	    {'C', "cpu", required_argument, "cpu", "list of cpus to monitor (0-1,3)", 'C'},
	    {'p', "pid", required_argument, "pid",
	     "record events on existing process ids (comma list)", 'p'},
	    {0, "user-regs", optional_argument, "regs",
	     "sample user registers (all, or ax,sp,ip,...)", OPT_USER_REGS},
	    {0, "intr-regs", optional_argument, "regs",
	     "sample registers at the interrupt (all, or a list)", OPT_INTR_REGS},
	    {'g', NULL, no_argument, NULL, "record call graphs (frame pointers)", 'g'},
	    {0, "call-graph", required_argument, "mode", "fp, dwarf or dwarf,<stack bytes>",
	     OPT_CALL_GRAPH},
	    {'o', "output", required_argument, "file", "output file name (- for a pipe)", 'o'},
	    {'z', "compression-level", optional_argument, "n",
	     "compress records with zstd (level 1-22, default 1)", 'z'},
	    {'m', "mmap-pages", required_argument, "pages",
	     "ring buffer pages per CPU (power of two, default 256)", 'm'},
	    {0, "no-kcore", no_argument, NULL, "write a plain file, without kcore_dir",
	     OPT_NO_KCORE},
	    {0, "no-bpf-capture", no_argument, NULL, "do not capture BPF JIT images", OPT_NO_BPF},
	    {'q', "quiet", no_argument, NULL, "do not print any messages", 'q'},
	    {'v', "verbose", no_argument, NULL, "be more verbose", 'v'},
	    {'h', "help", no_argument, NULL, "show this help", 'h'},
	    {0},
	};
	struct record_opts ro;
	struct popt_ctx ctx;
	const char **events = NULL;
	u64 v;
	int c, err;

	record_opts__init(&ro);
	ro.cmdline_argc = argc;
	ro.cmdline_argv = (const char *const *)argv;
	popt_ctx__init(&ctx, opts);
	while ((c = popt__next(&ctx, argc, argv)) != -1) {
		switch (c) {
		case 'e': {
			const char **tmp = realloc(events, (ro.nr_events + 1) * sizeof(*tmp));

			if (!tmp) {
				free(events);
				return 1;
			}
			events = tmp;
			events[ro.nr_events++] = optarg;
			break;
		}
		case 'c':
			if (parse_u64(optarg, &ro.period))
				goto bad_value;
			break;
		case 'F':
			if (parse_u64(optarg, &ro.freq))
				goto bad_value;
			ro.period = 0;
			break;
		case 'a':
			ro.system_wide = true;
			break;
		case 'C':
			ro.cpu_list = optarg;
			break;
		case 'p':
			ro.pid_list = optarg;
			break;
		case OPT_USER_REGS:
			if (record_opts__parse_regs(optarg, &ro.user_regs))
				goto bad_value;
			break;
		case OPT_INTR_REGS:
			if (record_opts__parse_regs(optarg, &ro.intr_regs))
				goto bad_value;
			break;
		case 'g':
			ro.call_graph = CALL_GRAPH_FP;
			break;
		case OPT_CALL_GRAPH:
			if (record_opts__parse_call_graph(&ro, optarg))
				goto bad_value;
			break;
		case 'o':
			ro.output = optarg;
			break;
		case 'z':
			ro.zstd = true;
			if (optarg) {
				if (parse_u64(optarg, &v) || v > 22)
					goto bad_value;
				ro.zstd_level = v;
			}
			break;
		case 'm':
			if (parse_u64(optarg, &v) || v > (1U << 20))
				goto bad_value;
			ro.mmap_pages = v;
			break;
		case OPT_NO_KCORE:
			ro.kcore = false;
			break;
		case OPT_NO_BPF:
			ro.bpf_capture = false;
			break;
		case 'q':
			ro.quiet = true;
			quiet = true;
			break;
		case 'v':
			verbose++;
			break;
		default:
			free(events);
			popt__usage(record_usage, opts, c == 'h' ? stdout : stderr);
			return c == 'h' ? 0 : 129;
		}
	}
	ro.events = events;
	ro.argc = argc - optind;
	ro.argv = argv + optind;
	err = record__run(&ro);
	free(events);
	return err ? 1 : 0;
bad_value:
	fprintf(stderr, "perf textpoke record: bad value '%s' for option '%s'\n",
		optarg ? optarg : "", argv[optind - 1]);
	free(events);
	popt__usage(record_usage, opts, stderr);
	return 129;
}
