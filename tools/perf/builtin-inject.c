// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf textpoke inject: the options; the work is util/inject.c.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "builtin.h"
#include "util/debug.h"
#include "util/inject.h"
#include "util/parse-options.h"
#include "util/text-image-options.h"
#include "util/time-utils.h"

static const char *const inject_usage[] = {
    "perf textpoke inject [<options>] --jit -i <in> -o <out>",
    "perf textpoke inject [<options>] --snapshot=<when> -i <in> -o <out>",
    "perf textpoke inject [<options>] --itrace[=<opts>] -i <in> -o <out>",
    "perf textpoke inject [<options>] -i <in> -o <out>",
    NULL,
};

/* start, end, or a moment in perf script's seconds ("12345.678901") */
static int parse_snapshot(const char *str, struct inject_opts *o)
{
	if (!strcmp(str, "start")) {
		o->snapshot_at = INJECT_SNAPSHOT_START;
		return 0;
	}
	if (!strcmp(str, "end")) {
		o->snapshot_at = INJECT_SNAPSHOT_END;
		return 0;
	}
	o->snapshot_at = INJECT_SNAPSHOT_TIME;
	if (*str < '0' || *str > '9')
		return -EINVAL;
	return parse_nsec_time(str, &o->snapshot_time);
}

int cmd_textpoke_inject(int argc, char **argv)
{
	enum { OPT_JIT = 256, OPT_JIT_DIR, OPT_SNAPSHOT, OPT_ITRACE, OPT_BUILDID_ALL, OPT_STRIP };
	static const struct popt opts[] = {
	    {'i', "input", required_argument, "file",
	     "input file name (default: stdin, as perf inject)", 'i'},
	    {'o', "output", required_argument, "file",
	     "output: a perf.data directory with --jit or --snapshot, '-' for stdout", 'o'},
	    {'j', "jit", no_argument, NULL,
	     "an ELF object per BPF program and OOL region version, mapped for its life", OPT_JIT},
	    {0, "jit-dir", required_argument, "dir",
	     "where --jit writes the objects (default: <out>/jit)", OPT_JIT_DIR},
	    {0, "snapshot", required_argument, "when",
	     "kcore_dir of the kernel code at start, end or a time (seconds)", OPT_SNAPSHOT},
	    {0, "itrace", optional_argument, "opts",
	     "replace an Intel PT trace by the samples decoded from it (perf's letters: i100us, "
	     "b, c, r, e, p, x, w, g; none: i100usbepwx)",
	     OPT_ITRACE},
	    {'b', "build-ids", no_argument, NULL,
	     "a build-id table entry for each object a sample hit, as perf inject -b", 'b'},
	    {0, "buildid-all", no_argument, NULL,
	     "a build-id table entry for each object mapped, sampled or not", OPT_BUILDID_ALL},
	    {'s', "sched-stat", no_argument, NULL, "refused: not done by perf textpoke inject",
	     's'},
	    {0, "strip", no_argument, NULL,
	     "with --itrace: leave out the recorded events' samples and the context switches",
	     OPT_STRIP},
	    TEXT_IMAGE_POPTS,
	    {'q', "quiet", no_argument, NULL, "no summary line", 'q'},
	    {'v', "verbose", no_argument, NULL, "be more verbose", 'v'},
	    {'h', "help", no_argument, NULL, "show this help", 'h'},
	    {0},
	};
	struct inject_opts o = {.input = "-", .output = "-"};
	struct popt_ctx ctx;
	int c, err;

	popt_ctx__init(&ctx, opts);
	while ((c = popt__next(&ctx, argc, argv)) != -1) {
		switch (c) {
		case 'i':
			o.input = optarg;
			break;
		case 'o':
			o.output = optarg;
			break;
		case OPT_JIT:
			o.jit = true;
			break;
		case OPT_JIT_DIR:
			o.jit_dir = optarg;
			break;
		case OPT_SNAPSHOT:
			o.snapshot = true;
			if (parse_snapshot(optarg, &o)) {
				popt__bad_value(&ctx, "expected start, end or seconds as perf "
						      "script prints them (12345.678901)");
				return 129;
			}
			break;
		case OPT_ITRACE:
			if (!optarg || !*optarg)
				itrace_opts__set_inject_default(&o.itrace);
			else if (itrace_opts__parse(&o.itrace, optarg))
				return 129;
			break;
		case 'b':
			o.build_ids = true;
			break;
		case OPT_BUILDID_ALL:
			o.buildid_all = true;
			break;
		case 's':
			/* perf's needs sched_switch samples rewritten as sched_stat ones */
			pr_err(
			    "-s/--sched-stat is not supported: merging sched_switch samples into "
			    "sched_stat ones is not done by perf textpoke inject; use perf "
			    "inject -s\n");
			return 1;
		case OPT_STRIP:
			o.strip = true;
			break;
		case 'q':
			o.quiet = true;
			break;
		case 'v':
			verbose++;
			break;
		default:
			err = text_image_opts__parse_option(&o.image, c, optarg);
			if (err < 0)
				return 129;
			if (err)
				break;
			if (c == 'h')
				popt__usage(inject_usage, opts, stdout);
			return c == 'h' ? 0 : 129;
		}
	}
	if (optind < argc) {
		popt__error(&ctx, "unexpected argument '%s'", argv[optind]);
		return 129;
	}
	if (o.jit_dir && !o.jit) {
		popt__error(&ctx, "--jit-dir goes with --jit");
		return 129;
	}
	/* as perf inject: without a trace decoded, nothing would be left */
	if (o.strip && !o.itrace.set) {
		popt__error(&ctx, "--strip goes with --itrace");
		return 129;
	}
	if (text_image_opts__check(&o.image))
		return 1;
	return inject__run(&o) ? 1 : 0;
}
