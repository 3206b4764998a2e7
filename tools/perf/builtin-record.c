// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf textpoke record: the option table and a thin entry point; the
 * recorder lives in util/record.c.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <linux/perf_event.h>

#include "builtin.h"
#include "util/debug.h"
#include "util/parse-options.h"
#include "util/record.h"

/* 4 GiB of 4 KiB pages per CPU, as perf's UINT_MAX / page size */
#define RECORD_MAX_MMAP_PAGES (1ULL << 20)

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
	if (errno || *end || !*arg || !x || *arg == '-')
		return -EINVAL;
	*v = x;
	return 0;
}

/* the kernel's limit, what -F max samples at */
static int max_sample_rate(u64 *rate)
{
	static const char path[] = "/proc/sys/kernel/perf_event_max_sample_rate";
	unsigned long long v;
	FILE *f = fopen(path, "r");
	int err = 0;

	if (!f)
		return -errno;
	if (fscanf(f, "%llu", &v) == 1 && v)
		*rate = v;
	else
		err = -EINVAL;
	fclose(f);
	return err;
}

/* -p: "123" or "123,456" */
static bool pid_list__valid(const char *list)
{
	const char *p = list;

	do {
		char *end;
		long pid;

		errno = 0;
		pid = strtol(p, &end, 10);
		if (errno || end == p || pid <= 0 || pid > INT32_MAX || (*end && *end != ','))
			return false;
		p = end + 1;
	} while (p[-1] == ',');
	return true;
}

/*
 * The workload is found the way execvp() will find it, before anything
 * is opened or written: a typo then costs one line and no output file.
 */
static bool command__exists(const char *cmd)
{
	const char *path = getenv("PATH"), *p;
	char buf[4096];

	if (strchr(cmd, '/'))
		return !access(cmd, F_OK);
	if (!path)
		path = "/bin:/usr/bin";
	for (p = path;; p++) {
		const char *colon = strchrnul(p, ':');
		int dir = colon - p;

		if (snprintf(buf, sizeof(buf), "%.*s%s%s", dir, p, dir ? "/" : "", cmd) <
			(int)sizeof(buf) &&
		    !access(buf, X_OK))
			return true;
		if (!*colon)
			return false;
		p = colon;
	}
}

/*
 * -m as perf takes it: a number of pages, or a size with B, K, M or G;
 * rounded up to a power of two pages, which the ring needs.
 */
static int parse_mmap_pages(const char *arg, unsigned int *pages)
{
	long page = sysconf(_SC_PAGESIZE);
	unsigned long long x, n, p2;
	char *end;
	int shift = -1;

	errno = 0;
	x = strtoull(arg, &end, 0);
	if (errno || end == arg || *arg == '-')
		return -EINVAL;
	if (*end) {
		/* upper case only, as perf's parse_tag_value() */
		static const char units[] = "BKMG";
		const char *u = strchr(units, *end);

		if (!u || end[1])
			return -EINVAL;
		shift = 10 * (u - units);
	}
	if (page <= 0)
		page = 4096;
	if (shift >= 0) {
		if (x > (RECORD_MAX_MMAP_PAGES * (unsigned long long)page) >> shift)
			return -ERANGE;
		n = ((x << shift) + page - 1) / page;
	} else {
		n = x;
	}
	/* as perf: 0 rounds up to the one page a ring needs at least */
	if (n > RECORD_MAX_MMAP_PAGES)
		return -ERANGE;
	for (p2 = 1; p2 < n; p2 <<= 1)
		;
	if (p2 != n || !n) {
		unsigned long long size = p2 * page;
		int unit = 0;

		/* as perf says it: the largest unit that leaves more than one */
		while (size / 1024 > 1 && unit < 3) {
			size /= 1024;
			unit++;
		}
		pr_info("rounding mmap pages size to %llu%c (%llu pages)\n", size, "BKMG"[unit],
			p2);
	}
	*pages = p2;
	return 0;
}

/* --max-size: a number of bytes, or one with B, K, M or G, as perf's parse_tag_value() */
static int parse_size(const char *arg, u64 *size)
{
	static const char units[] = "BKMG";
	unsigned long long x;
	char *end;
	int shift = 0;

	errno = 0;
	x = strtoull(arg, &end, 0);
	if (errno || end == arg || *arg == '-')
		return -EINVAL;
	if (*end) {
		const char *u = strchr(units, *end);

		if (!u || end[1])
			return -EINVAL;
		shift = 10 * (u - units);
	}
	if (!x || x > ~0ULL >> shift)
		return -EINVAL;
	*size = x << shift;
	return 0;
}

/* --switch-output's value as perf takes it: signal, 10M (B/K/M/G), 30s (s/m/h/d) */
static int parse_switch_output(const char *arg, struct record_opts *ro)
{
	static const struct {
		char tag;
		u64 secs;
	} times[] = {{'s', 1}, {'m', 60}, {'h', 3600}, {'d', 86400}};
	unsigned long long x;
	char *end;

	ro->switch_output = true;
	if (!arg || !strcmp(arg, "signal"))
		return 0;
	if (!parse_size(arg, &ro->switch_size))
		return 0;
	errno = 0;
	x = strtoull(arg, &end, 10);
	if (errno || end == arg || !x || *arg == '-' || !*end || end[1])
		return -EINVAL;
	for (size_t i = 0; i < sizeof(times) / sizeof(times[0]); i++) {
		if (*end == times[i].tag) {
			ro->switch_secs = x * times[i].secs;
			return 0;
		}
	}
	return -EINVAL;
}

int cmd_textpoke_record(int argc, char **argv)
{
	enum {
		OPT_USER_REGS = 256,
		OPT_INTR_REGS,
		OPT_CALL_GRAPH,
		OPT_NO_KCORE,
		OPT_NO_BPF,
		OPT_SWITCH_EVENTS,
		OPT_KCORE,
		OPT_FULL_KALLSYMS,
		OPT_FILTER,
		OPT_PHYS_DATA,
		OPT_SAMPLE_CPU,
		OPT_NAMESPACES,
		OPT_ALL_CGROUPS,
		OPT_PER_THREAD,
		OPT_MAX_SIZE,
		OPT_CONTROL,
		OPT_OFF_CPU,
		OPT_SWITCH_OUTPUT,
	};
	static const struct popt opts[] = {
	    {'e', "event", required_argument, "event",
	     "events in perf's syntax: cpu-clock, pmu/term=value/, rNNNN, mem:ADDR[/LEN][:rwx], "
	     "sys:tracepoint (globs too), with modifiers (:u :k :p :S ...); a,b lists, {a,b}:mods "
	     "groups",
	     'e'},
	    {0, "filter", required_argument, "filter",
	     "a tracepoint filter for the events of the -e before it", OPT_FILTER},
	    {'c', "count", required_argument, "n", "sample every n events", 'c'},
	    {'F', "freq", required_argument, "n", "sample n times a second (default 4000), or max",
	     'F'},
	    {'a', "all-cpus", no_argument, NULL, "system-wide collection from all CPUs", 'a'},
	    {'C', "cpu", required_argument, "cpu", "list of cpus to monitor (0-1,3)", 'C'},
	    {'p', "pid", required_argument, "pid",
	     "record events on existing process ids (comma list)", 'p'},
	    {0, "user-regs", optional_argument, "regs",
	     "sample user registers (all, or ax,sp,ip,...)", OPT_USER_REGS},
	    {0, "intr-regs", optional_argument, "regs",
	     "sample registers at the interrupt (all, or a list)", OPT_INTR_REGS},
	    {'g', NULL, no_argument, NULL, "record call graphs (frame pointers)", 'g'},
	    {'d', "data", no_argument, NULL, "record the sample virtual addresses", 'd'},
	    {'T', "timestamp", no_argument, NULL, "record the sample timestamps (always on)", 'T'},
	    {'s', "stat", no_argument, NULL, "per thread counts", 's'},
	    {'b', "branch-any", no_argument, NULL, "sample any taken branches", 'b'},
	    {'j', "branch-filter", required_argument, "branch filter mask",
	     "branch stack filter modes: any,any_call,any_ret,ind_call,ind_jmp,call,cond,u,k,hv,...",
	     'j'},
	    {0, "switch-events", no_argument, NULL, "record context switch events",
	     OPT_SWITCH_EVENTS},
	    {'i', "no-inherit", no_argument, NULL, "child tasks do not inherit counters", 'i'},
	    {'k', "clockid", required_argument, "clockid",
	     "clockid to use for events, see clock_gettime()", 'k'},
	    {0, "call-graph", required_argument, "mode",
	     "fp, fp,<max depth>, dwarf, dwarf,<stack bytes> or lbr", OPT_CALL_GRAPH},
	    {'o', "output", required_argument, "file", "output file name (- for a pipe)", 'o'},
	    {'z', "compression-level", optional_argument, "n",
	     "compress records with zstd (level 1-22, default 1)", 'z'},
	    {'m', "mmap-pages", required_argument, "pages",
	     "ring buffer pages per CPU, or a size with B/K/M/G (default 256)", 'm'},
	    {0, "no-kcore", no_argument, NULL, "write a plain file, without kcore_dir",
	     OPT_NO_KCORE},
	    {0, "kcore", no_argument, NULL, "copy /proc/kcore: fail when it cannot be read",
	     OPT_KCORE},
	    {0, "full-kallsyms", no_argument, NULL,
	     "keep all of kallsyms (default: what samples, pokes and trampolines name; other "
	     "kernel addresses print as a wrong symbol+offset)",
	     OPT_FULL_KALLSYMS},
	    {0, "no-bpf-capture", no_argument, NULL, "do not capture BPF JIT images", OPT_NO_BPF},
	    {'t', "tid", required_argument, "tid",
	     "record these threads only (comma list), not their children", 't'},
	    {'u', "uid", required_argument, "user", "record the processes of this user", 'u'},
	    {'P', "period", no_argument, NULL, "record the sample period (always on)", 'P'},
	    {'W', "weight", no_argument, NULL, "sample the weight (WEIGHT_STRUCT)", 'W'},
	    {0, "phys-data", no_argument, NULL, "record the sample physical addresses",
	     OPT_PHYS_DATA},
	    {0, "sample-cpu", no_argument, NULL, "record the sample cpu (always on)",
	     OPT_SAMPLE_CPU},
	    {0, "namespaces", no_argument, NULL, "record namespaces events", OPT_NAMESPACES},
	    {0, "all-cgroups", no_argument, NULL, "record cgroup events and sample cgroups",
	     OPT_ALL_CGROUPS},
	    {0, "per-thread", no_argument, NULL,
	     "a ring buffer per thread (any CPU), children not followed", OPT_PER_THREAD},
	    {'D', "delay", required_argument, "ms",
	     "enable the events after this many ms of the workload; -1: by --control only", 'D'},
	    {0, "max-size", required_argument, "size",
	     "stop once this much is recorded (B, K, M, G)", OPT_MAX_SIZE},
	    {0, "control", required_argument, "fifo:ctl[,ack]|fd:ctl[,ack]",
	     "take enable, disable, ping, stop from a FIFO or fd; answer ack", OPT_CONTROL},
	    {0, "switch-output", optional_argument, "signal|<size>|<time>",
	     "close the output as OUT.<timestamp> and go on in a new one on SIGUSR2, every "
	     "<size> (B/K/M/G) or every <time> (s/m/h/d); implies -B",
	     OPT_SWITCH_OUTPUT},
	    {'B', "no-buildid", no_argument, NULL, "write no build-id table", 'B'},
	    {'N', "no-buildid-cache", no_argument, NULL,
	     "do not fill ~/.debug (never done: accepted for perf's command lines)", 'N'},
	    {0, "off-cpu", no_argument, NULL, "refused: perf needs a BPF tracing program for it",
	     OPT_OFF_CPU},
	    {'q', "quiet", no_argument, NULL, "do not print any messages", 'q'},
	    {'v', "verbose", no_argument, NULL, "be more verbose", 'v'},
	    {'h', "help", no_argument, NULL, "show this help", 'h'},
	    {0},
	};
	struct record_opts ro;
	struct popt_ctx ctx;
	const char **events = NULL, **filters = NULL;
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
				free(filters);
				return 1;
			}
			events = tmp;
			tmp = realloc(filters, (ro.nr_events + 1) * sizeof(*tmp));
			if (!tmp) {
				free(events);
				free(filters);
				return 1;
			}
			filters = tmp;
			filters[ro.nr_events] = NULL;
			events[ro.nr_events++] = optarg;
			break;
		}
		case OPT_FILTER:
			/* perf's words: a filter needs an event before it */
			if (!ro.nr_events) {
				pr_err("--filter option should follow a -e tracepoint or HW tracer "
				       "option\n");
				goto out_usage;
			}
			filters[ro.nr_events - 1] = optarg;
			break;
		case 'c':
			if (parse_u64(optarg, &ro.period)) {
				popt__bad_value(&ctx, "expected a period of 1 or more events");
				goto out_usage;
			}
			break;
		case 'F':
			if (!strcmp(optarg, "max")) {
				err = max_sample_rate(&ro.freq);
				if (err) {
					popt__bad_value(
					    &ctx,
					    "cannot read "
					    "/proc/sys/kernel/perf_event_max_sample_rate: %s",
					    strerror(-err));
					goto out_usage;
				}
				pr_info("info: Using a maximum frequency rate of %llu Hz\n",
					(unsigned long long)ro.freq);
			} else if (parse_u64(optarg, &ro.freq)) {
				popt__bad_value(&ctx,
						"expected a frequency of 1 or more Hz, or max");
				goto out_usage;
			}
			ro.period = 0;
			break;
		case 'a':
			ro.system_wide = true;
			break;
		case 'C':
			ro.cpu_list = optarg;
			break;
		case 'p':
			if (!pid_list__valid(optarg)) {
				popt__bad_value(&ctx,
						"expected a process id or a comma list of them");
				goto out_usage;
			}
			ro.pid_list = optarg;
			break;
		case OPT_USER_REGS:
		case OPT_INTR_REGS:
			if (record_opts__parse_regs(optarg, c == OPT_USER_REGS ? &ro.user_regs :
										 &ro.intr_regs)) {
				popt__bad_value(&ctx, "expected nothing (all), or a comma list of "
						      "ax bx cx dx si di bp sp ip flags cs ss ds "
						      "es fs gs r8-r15");
				goto out_usage;
			}
			break;
		case 'g':
			ro.call_graph = CALL_GRAPH_FP;
			break;
		case OPT_CALL_GRAPH:
			if (record_opts__parse_call_graph(&ro, optarg)) {
				if (!strncmp(optarg, "dwarf,", 6))
					popt__bad_value(&ctx, "the dwarf stack dump size must be "
							      "1..65528 bytes (default 8192)");
				else
					popt__bad_value(&ctx, "expected fp, fp,<max depth>, dwarf, "
							      "dwarf,<stack bytes> or lbr");
				goto out_usage;
			}
			break;
		case 'o':
			ro.output = optarg;
			break;
		case 'z':
			ro.zstd = true;
			if (optarg) {
				if (parse_u64(optarg, &v) || v > 22) {
					popt__bad_value(&ctx, "expected a level of 1..22");
					goto out_usage;
				}
				ro.zstd_level = v;
			}
			break;
		case 'm':
			if (parse_mmap_pages(optarg, &ro.mmap_pages)) {
				popt__bad_value(
				    &ctx,
				    "expected 1..%llu pages or a size with B, K, M or G "
				    "(rounded up to a power of two pages)",
				    RECORD_MAX_MMAP_PAGES);
				goto out_usage;
			}
			break;
		case OPT_NO_KCORE:
			ro.kcore = false;
			ro.kcore_required = false;
			break;
		case OPT_KCORE:
			ro.kcore = true;
			ro.kcore_required = true;
			break;
		case OPT_FULL_KALLSYMS:
			ro.full_kallsyms = true;
			break;
		case 'd':
			ro.sample_addr = true;
			break;
		case 'T':
			/* every sample carries its time already (PERF_SAMPLE_TIME) */
			break;
		case 's':
			ro.inherit_stat = true;
			break;
		case 'b':
			ro.branch_filter = PERF_SAMPLE_BRANCH_ANY;
			break;
		case 'j':
			if (record_opts__parse_branch_filter(optarg, &ro.branch_filter)) {
				popt__bad_value(
				    &ctx, "expected a comma list of any, any_call, any_ret, "
					  "ind_call, ind_jmp, call, cond, u, k, hv, in_tx, no_tx, "
					  "abort_tx, save_type, stack, hw_index, priv");
				goto out_usage;
			}
			break;
		case OPT_SWITCH_EVENTS:
			ro.switch_events = true;
			break;
		case 'i':
			ro.no_inherit = true;
			break;
		case 'k':
			if (ro.use_clockid || record_opts__parse_clockid(&ro, optarg)) {
				popt__bad_value(&ctx, "expected a clock number or monotonic, "
						      "monotonic_raw, realtime, boottime, tai");
				goto out_usage;
			}
			break;
		case OPT_NO_BPF:
			ro.bpf_capture = false;
			break;
		case 't':
			if (!pid_list__valid(optarg)) {
				popt__bad_value(&ctx,
						"expected a thread id or a comma list of them");
				goto out_usage;
			}
			ro.tid_list = optarg;
			/* as perf: threads named one by one are not followed into children */
			ro.no_inherit = true;
			break;
		case 'u':
			ro.uid = optarg;
			break;
		case 'P':
		case OPT_SAMPLE_CPU:
			/* PERIOD and CPU are in every sample of ours already */
			break;
		case 'W':
			ro.sample_weight = true;
			break;
		case OPT_PHYS_DATA:
			ro.sample_phys = true;
			break;
		case OPT_NAMESPACES:
			ro.namespaces = true;
			break;
		case OPT_ALL_CGROUPS:
			ro.all_cgroups = true;
			break;
		case OPT_PER_THREAD:
			/* as perf: a ring per thread, children not followed */
			ro.per_thread = true;
			ro.no_inherit = true;
			break;
		case 'D': {
			char *end;
			long d;

			errno = 0;
			d = strtol(optarg, &end, 10);
			if (errno || end == optarg || *end || d < -1 || d > INT_MAX) {
				popt__bad_value(&ctx, "expected a delay in ms, or -1");
				goto out_usage;
			}
			ro.delay_ms = d;
			break;
		}
		case OPT_MAX_SIZE:
			if (parse_size(optarg, &ro.max_size)) {
				popt__bad_value(&ctx, "expected a size with B, K, M or G");
				goto out_usage;
			}
			break;
		case OPT_CONTROL:
			err = record_opts__parse_control(&ro, optarg);
			if (err == -EINVAL)
				popt__bad_value(&ctx, "expected fifo:CTL[,ACK] or fd:CTL[,ACK]");
			if (err)
				goto out_usage;
			break;
		case OPT_SWITCH_OUTPUT:
			if (parse_switch_output(optarg, &ro)) {
				popt__bad_value(&ctx, "expected signal, a size with B, K, M or G, "
						      "or a time with s, m, h or d");
				goto out_usage;
			}
			break;
		case 'B':
			ro.no_buildid = true;
			break;
		case 'N':
			/* we keep no build-id cache: perf's option is accepted, nothing to skip */
			break;
		case OPT_OFF_CPU:
			pr_err("--off-cpu: not supported: perf measures off-CPU time with a BPF "
			       "program on sched_switch (a tracing program), which this recorder "
			       "does not load\n");
			goto out_usage;
		case 'q':
			ro.quiet = true;
			quiet = true;
			break;
		case 'v':
			verbose++;
			break;
		case 'h':
			free(events);
			free(filters);
			popt__usage(record_usage, opts, stdout);
			return 0;
		default:
			goto out_usage;
		}
	}
	ro.events = events;
	ro.filters = filters;
	if (ro.kcore_required && !strcmp(ro.output, "-")) {
		pr_err("--kcore: a pipe (-o -) has no room for kcore_dir\n");
		free(events);
		free(filters);
		return 129;
	}
	if (ro.switch_output) {
		/* each file is whole and closed as it goes: a plain file, as perf's */
		if (!strcmp(ro.output, "-") || ro.kcore_required) {
			pr_err("--switch-output: needs a file output, not %s\n",
			       ro.kcore_required ? "--kcore's directory" : "a pipe");
			free(events);
			free(filters);
			return 129;
		}
		ro.kcore = false;
		/* as perf: no build-id table in the switched files */
		ro.no_buildid = true;
	}
	ro.argc = argc - optind;
	ro.argv = argv + optind;
	if (ro.argc && !command__exists(ro.argv[0])) {
		pr_err("cannot run '%s': %s\n", ro.argv[0], strerror(ENOENT));
		free(events);
		free(filters);
		return 1;
	}
	err = record__run(&ro);
	free(events);
	free(filters);
	return err ? 1 : 0;
out_usage:
	free(events);
	free(filters);
	return 129;
}
