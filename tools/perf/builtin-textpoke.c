// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf textpoke: the subcommand table and the thin cmd_textpoke_<sub>()
 * entry points.  The work lives in util/ and tools/lib/textpoke/.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtin.h"
#include "util/debug.h"
#include "util/help-man.h"
#include "util/pager.h"
#include "util/parse-options.h"
#include "util/script.h"
#include "util/text-image-options.h"

struct textpoke_cmd {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *help;
};

static int cmd_textpoke_help(int argc, char **argv);

static const struct textpoke_cmd commands[] = {
    {"annotate", cmd_textpoke_annotate,
     "Which instructions of a function the samples fell on, as perf annotate"},
    {"buildid-list", cmd_textpoke_buildid_list, "List the build-ids in a recording, as perf"},
    {"code", cmd_textpoke_code, "Print kernel code as it was at a moment of a recording"},
    {"evlist", cmd_textpoke_evlist, "List the events in a recording, as perf"},
    {"help", cmd_textpoke_help, "List the commands, or show a command's man page"},
    {"inject", cmd_textpoke_inject,
     "Rewrite a recording for tools that know nothing of text pokes"},
    {"record", cmd_textpoke_record, "Record samples and the side-band that text tracking needs"},
    {"report", cmd_textpoke_report,
     "Where the samples went, and what the kernel rewrote meanwhile"},
    {"script", cmd_textpoke_script, "Print a recording like perf script, with ABIs and text pokes"},
    {"test", cmd_textpoke_test, "Run the built-in tests"},
    {"version", cmd_textpoke_version, "Show the version and build options"},
};

static const char *const version_usage[] = {
    "perf textpoke version [--build-options]",
    NULL,
};

int cmd_textpoke_version(int argc, char **argv)
{
	enum { OPT_BUILD = 256 };
	static const struct popt opts[] = {
	    {0, "build-options", no_argument, NULL, "list the optional libraries built in",
	     OPT_BUILD},
	    {'h', "help", no_argument, NULL, "show this help", 'h'},
	    {0},
	};
	struct popt_ctx ctx;
	bool build_options = false;
	int c;

	popt_ctx__init(&ctx, opts);
	while ((c = popt__next(&ctx, argc, argv)) != -1) {
		if (c == OPT_BUILD) {
			build_options = true;
		} else {
			/* an error has been reported in one line */
			if (c == 'h')
				popt__usage(version_usage, opts, stdout);
			return c == 'h' ? 0 : 129;
		}
	}
	if (optind < argc) {
		popt__error(&ctx, "unexpected argument '%s'", argv[optind]);
		return 129;
	}
	printf("perf-textpoke version %s\n", TEXTPOKE_VERSION);
	if (build_options) {
		/* same shape as perf version --build-options */
		const char *on = FEATURES_ON, *off = FEATURES_OFF;
		char name[64];
		int n;

		while (sscanf(on, "%63s%n", name, &n) == 1) {
			printf("%22s: [ on  ]\n", name);
			on += n;
		}
		while (sscanf(off, "%63s%n", name, &n) == 1) {
			printf("%22s: [ OFF ]\n", name);
			off += n;
		}
	}
	return 0;
}

static const char *const script_usage[] = {
    "perf textpoke script [<options>]",
    NULL,
};

int cmd_textpoke_script(int argc, char **argv)
{
	enum {
		OPT_TASK = 256,
		OPT_MMAP,
		OPT_BPF,
		OPT_TEXT_POKE,
		OPT_LOST,
		OPT_NS,
		OPT_MAX_STACK,
		OPT_INLINE,
		OPT_NO_INLINE,
		OPT_TIME,
		OPT_PID,
		OPT_TID,
		OPT_DSOS,
		OPT_RELTIME,
		OPT_DELTATIME,
		OPT_SWITCH,
		OPT_NAMESPACE,
		OPT_CGROUP,
		OPT_ROUND,
		OPT_PER_EVENT_DUMP,
		OPT_HEADER,
		OPT_HEADER_ONLY,
		OPT_ITRACE,
		OPT_JSON,
		OPT_THREADS,
	};
	static const struct popt opts[] = {
	    {'i', "input", required_argument, "file",
	     "input file name (default perf.data, - for a pipe)", 'i'},
	    {0, "threads", required_argument, "n",
	     "workers reading chunks of time in parallel (default: one per CPU on a recording of "
	     "64 MB or more; 1: none)",
	     OPT_THREADS},
	    {'F', "fields", required_argument, "fields",
	     "[type:]field,... or +field,-field: comm,tid,pid,time,cpu,event,trace,ip,sym,"
	     "symoff,dso,addr,period,iregs,uregs,abi,weight,data_src,ins_lat,phys_addr,misc,insn,"
	     "disasm,poked,srcline,brstack,brstacksym,brstackoff,insnlen,flags,ipc,callindent,"
	     "data_page_size,code_page_size,tod,synth; types hw,sw,trace,raw,break,synth",
	     'F'},
	    {0, "json", no_argument, NULL, "one JSON object per line, a key per field", OPT_JSON},
	    {0, "show-task-events", no_argument, NULL, "show the fork/comm/exit events", OPT_TASK},
	    {0, "show-mmap-events", no_argument, NULL, "show the mmap events", OPT_MMAP},
	    {0, "show-bpf-events", no_argument, NULL, "show the ksymbol/bpf events", OPT_BPF},
	    {0, "show-text-poke-events", no_argument, NULL, "show the text poke events",
	     OPT_TEXT_POKE},
	    {0, "show-lost-events", no_argument, NULL, "show the lost events", OPT_LOST},
	    {0, "show-switch-events", no_argument, NULL, "Show context switch events (if recorded)",
	     OPT_SWITCH},
	    {0, "show-namespace-events", no_argument, NULL, "Show namespace events (if recorded)",
	     OPT_NAMESPACE},
	    {0, "show-cgroup-events", no_argument, NULL, "Show cgroup events (if recorded)",
	     OPT_CGROUP},
	    {0, "show-round-events", no_argument, NULL, "Show round events (if recorded)",
	     OPT_ROUND},
	    {'G', "hide-call-graph", no_argument, NULL,
	     "when printing symbols do not display call chain", 'G'},
	    {0, "ns", no_argument, NULL, "use 9 decimal places when displaying time", OPT_NS},
	    {0, "header", no_argument, NULL, "Show data header.", OPT_HEADER},
	    {0, "header-only", no_argument, NULL, "Show only data header.", OPT_HEADER_ONLY},
	    {0, "itrace", required_argument, "opts",
	     "Instruction Tracing options: i[period] instructions, b branches, c calls, r returns, "
	     "e errors (period: Ni instructions, Nns Nus Nms time)",
	     OPT_ITRACE},
	    {'I', "show-info", no_argument, NULL,
	     "display extended information from perf.data file", 'I'},
	    {0, "per-event-dump", no_argument, NULL,
	     "Dump trace output to files named by the monitored events", OPT_PER_EVENT_DUMP},
	    {0, "reltime", no_argument, NULL, "Show time stamps relative to start", OPT_RELTIME},
	    {0, "deltatime", no_argument, NULL, "Show time stamps relative to previous event",
	     OPT_DELTATIME},
	    {0, "time", required_argument, "str", "Time span of interest (start,stop)", OPT_TIME},
	    {'C', "cpu", required_argument, "cpu", "list of cpus to profile", 'C'},
	    {'c', "comms", required_argument, "comm[,comm...]",
	     "only display events for these comms", 'c'},
	    {0, "pid", required_argument, "pid[,pid...]", "only consider symbols in these pids",
	     OPT_PID},
	    {0, "tid", required_argument, "tid[,tid...]", "only consider symbols in these tids",
	     OPT_TID},
	    {'S', "symbols", required_argument, "symbol[,symbol...]", "only consider these symbols",
	     'S'},
	    {0, "dsos", required_argument, "dso[,dso...]", "only consider symbols in these DSOs",
	     OPT_DSOS},
	    {'a', "all-cpus", no_argument, NULL, "system-wide collection from all CPUs", 'a'},
	    {'f', "force", no_argument, NULL, "don't complain, do it", 'f'},
	    {0, "max-stack", required_argument, "n",
	     "Set the maximum stack depth when parsing the callchain, anything beyond the "
	     "specified depth will be ignored. Default: kernel.perf_event_max_stack or 127",
	     OPT_MAX_STACK},
	    {0, "inline", no_argument, NULL, "Show inline function (the default)", OPT_INLINE},
	    {0, "no-inline", no_argument, NULL,
	     "unwound frames whole, not split at the functions inlined there", OPT_NO_INLINE},
	    TEXT_IMAGE_POPTS,
	    {'D', "dump-raw-trace", no_argument, NULL, "dump raw trace in ASCII", 'D'},
	    {'v', "verbose", no_argument, NULL, "be more verbose (show symbol address, etc)", 'v'},
	    {'q', "quiet", no_argument, NULL, "do not show any warnings or messages", 'q'},
	    {'h', "help", no_argument, NULL, "show this help", 'h'},
	    {0},
	};
	struct script_opts so;
	struct popt_ctx ctx;
	int c, err;

	script_opts__init(&so);
	popt_ctx__init(&ctx, opts);
	while ((c = popt__next(&ctx, argc, argv)) != -1) {
		switch (c) {
		case 'i':
			so.input = optarg;
			break;
		case 'F':
			/* it names the bad field */
			if (script_fields__parse(&so.fields, optarg))
				return 129;
			break;
		case OPT_TASK:
			so.show_task_events = true;
			break;
		case OPT_MMAP:
			so.show_mmap_events = true;
			break;
		case OPT_BPF:
			so.show_bpf_events = true;
			break;
		case OPT_TEXT_POKE:
			so.show_text_poke_events = true;
			break;
		case OPT_LOST:
			so.show_lost_events = true;
			break;
		case OPT_SWITCH:
			so.show_switch_events = true;
			break;
		case OPT_NAMESPACE:
			so.show_namespace_events = true;
			break;
		case OPT_CGROUP:
			so.show_cgroup_events = true;
			break;
		case OPT_ROUND:
			so.show_round_events = true;
			break;
		case OPT_HEADER:
			so.header = true;
			break;
		case OPT_HEADER_ONLY:
			so.header_only = true;
			break;
		case OPT_ITRACE:
			if (itrace_opts__parse(&so.itrace, optarg))
				return 1;
			break;
		case OPT_JSON:
			so.json = true;
			break;
		case 'I':
			so.show_info = true;
			break;
		case OPT_PER_EVENT_DUMP:
			so.per_event_dump = true;
			break;
		case 'G':
			so.hide_call_graph = true;
			break;
		case OPT_NS:
			so.nanosecs = true;
			break;
		case OPT_RELTIME:
			so.reltime = true;
			break;
		case OPT_DELTATIME:
			so.deltatime = true;
			break;
		case OPT_TIME:
			so.filter.time_str = optarg;
			break;
		case 'C':
			so.filter.cpu_str = optarg;
			break;
		case 'c':
			so.filter.comm_str = optarg;
			break;
		case OPT_PID:
			so.filter.pid_str = optarg;
			break;
		case OPT_TID:
			so.filter.tid_str = optarg;
			break;
		case 'S':
			so.filter.sym_str = optarg;
			break;
		case OPT_DSOS:
			so.filter.dso_str = optarg;
			break;
		case 'a':
			/* perf script takes it and does nothing with it */
			break;
		case 'f':
			so.force = true;
			break;
		case OPT_MAX_STACK:
			if (!popt__u32(&ctx, "a number of frames", &so.max_stack))
				return 129;
			break;
		case OPT_THREADS:
			if (!popt__u32(&ctx, "a number of workers", &so.threads) || !so.threads) {
				if (!so.threads)
					fprintf(stderr, "--threads: at least 1\n");
				return 129;
			}
			break;
		case OPT_INLINE:
		case OPT_NO_INLINE:
			so.no_inline = c == OPT_NO_INLINE;
			break;
		case 'D':
			dump_trace = true;
			break;
		case 'v':
			verbose++;
			break;
		case 'q':
			quiet = true;
			break;
		default:
			err = text_image_opts__parse_option(&so.text, c, optarg);
			if (err < 0)
				return 129;
			if (err)
				break;
			if (c == 'h')
				popt__usage(script_usage, opts, stdout);
			return c == 'h' ? 0 : 129;
		}
	}
	if (optind < argc) {
		popt__error(&ctx, "unexpected argument '%s'", argv[optind]);
		return 129;
	}
	/* their blocks are text: JSON lines have no room for them */
	if (so.json && (so.header || so.header_only || dump_trace)) {
		popt__error(&ctx, "--json does not mix with %s",
			    dump_trace ? "-D/--dump-raw-trace" : "--header and --header-only");
		return 129;
	}
	if (so.reltime && so.deltatime) {
		fprintf(stderr,
			"reltime and deltatime - the two don't get along well. Please limit "
			"to --reltime or --deltatime.\n");
		return 1;
	}
	/* a --kcore, --vmlinux or --kallsyms that cannot be read: an input perf could not open */
	if (text_image_opts__check(&so.text))
		return 255;
	/* as perf script: the pager starts before the file is read, so errors go there too */
	pager__setup();
	err = script__run(&so);
	/*
	 * perf script's statuses: 255 (its -1) for an input it cannot open
	 * as a recording, 234 (-EINVAL) for the rest; no other values, so
	 * that none reads as a shell's 128 + signal
	 */
	if (!err)
		return 0;
	return err == SCRIPT_ERR_OPEN ? 255 : 234;
}

static void textpoke_usage(FILE *fp)
{
	size_t i;

	fprintf(fp, "\n Usage: perf textpoke [-v] [--no-pager] <command> [<args>]\n\n"
		    " Kernel code as it was at each moment of a recording.\n\n"
		    " Commands:\n");
	for (i = 0; i < ARRAY_SIZE(commands); i++)
		fprintf(fp, "   %-13s %s\n", commands[i].name, commands[i].help);
	fprintf(fp, "\n See 'perf textpoke <command> -h' for a command's options,\n"
		    " 'perf textpoke help <command>' for its man page.\n");
}

static const struct textpoke_cmd *textpoke_cmd__find(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++) {
		if (!strcmp(name, commands[i].name))
			return &commands[i];
	}
	return NULL;
}

/* the man page of @name, or of perf textpoke itself for NULL */
static int textpoke__show_man_page(const char *name)
{
	char page[64];

	snprintf(page, sizeof(page), "perf-textpoke%s%s", name ? "-" : "", name ? name : "");
	return help__show_man_page(page) ? 1 : 0;
}

static const char *const help_usage[] = {
    "perf textpoke help [<command>]",
    NULL,
};

/* as perf help: the list of commands, or the man page of one */
static int cmd_textpoke_help(int argc, char **argv)
{
	static const struct popt opts[] = {
	    {'h', "help", no_argument, NULL, "show this help", 'h'},
	    {0},
	};
	struct popt_ctx ctx;
	int c;

	popt_ctx__init(&ctx, opts);
	c = popt__next(&ctx, argc, argv);
	if (c != -1) {
		popt__usage(help_usage, opts, c == 'h' ? stdout : stderr);
		return c == 'h' ? 0 : 129;
	}
	if (optind == argc) {
		textpoke_usage(stdout);
		return 0;
	}
	if (optind + 1 < argc) {
		fprintf(stderr, "perf textpoke help: one command at a time, not '%s'\n",
			argv[optind + 1]);
		return 129;
	}
	if (!textpoke_cmd__find(argv[optind])) {
		fprintf(
		    stderr,
		    "perf textpoke help: '%s' is not a textpoke command. See 'perf textpoke help'.\n",
		    argv[optind]);
		return 129;
	}
	return textpoke__show_man_page(argv[optind]);
}

int cmd_textpoke(int argc, char **argv)
{
	const struct textpoke_cmd *cmd;

	/* perf passes "textpoke" as argv[0] when run as "perf textpoke" */
	argc--;
	argv++;
	for (; argc > 0; argc--, argv++) {
		if (!strcmp(argv[0], "-v"))
			verbose++;
		else if (!strcmp(argv[0], "--no-pager"))
			setenv("PERF_PAGER", "cat", 1); /* what perf --no-pager does */
		else
			break;
	}
	if (argc == 0 || !strcmp(argv[0], "-h")) {
		textpoke_usage(argc == 0 ? stderr : stdout);
		return argc == 0 ? 129 : 0;
	}
	/* as perf: --help opens the man page, -h prints the short usage */
	if (!strcmp(argv[0], "--help"))
		return textpoke__show_man_page(NULL);
	if (!strcmp(argv[0], "--version"))
		return cmd_textpoke_version(1, argv);
	cmd = textpoke_cmd__find(argv[0]);
	if (cmd && argc > 1 && !strcmp(argv[1], "--help"))
		return textpoke__show_man_page(cmd->name);
	if (cmd)
		return cmd->fn(argc, argv);
	fprintf(stderr, "perf textpoke: '%s' is not a textpoke command. See 'perf textpoke -h'.\n",
		argv[0]);
	return 129;
}
