// SPDX-License-Identifier: GPL-2.0-only
/*
 * record's command line values that need more than a table: call-graph
 * modes, register and branch-filter lists, clock names, CPU lists.  They
 * are pure string -> value functions with no recorder state, apart so
 * that they can be read (and tested) without the machinery that opens
 * events.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include <linux/perf_event.h>

#include "debug.h"
#include "record-internal.h"

void record_opts__init(struct record_opts *opts)
{
	memset(opts, 0, sizeof(*opts));
	opts->output = "perf.data";
	opts->freq = 4000;
	opts->stack_size = 8192;
	opts->zstd_level = 1;
	opts->kcore = true;
	opts->bpf_capture = true;
	opts->mmap_pages = 256;
	opts->ctl_fd = -1;
	opts->ack_fd = -1;
}

/*
 * perf's --control forms: fifo:CTL[,ACK] names FIFOs made beforehand
 * (opened read-write, so that opening does not wait for the other end),
 * fd:CTL[,ACK] takes descriptors the caller already has open.
 */
int record_opts__parse_control(struct record_opts *opts, const char *arg)
{
	char *copy, *ack;
	int err = 0;

	if (!strncmp(arg, "fd:", 3)) {
		char *end;
		long c = strtol(arg + 3, &end, 10), a = -1;

		if (end == arg + 3 || c < 0 || c > INT_MAX || (*end && *end != ','))
			return -EINVAL;
		if (*end) {
			const char *p = end + 1;

			a = strtol(p, &end, 10);
			if (end == p || *end || a < 0 || a > INT_MAX)
				return -EINVAL;
		}
		/* the loop reads until there is nothing more: it must not block */
		if (fcntl(c, F_SETFL, fcntl(c, F_GETFL) | O_NONBLOCK)) {
			int err = -errno;

			pr_err("--control: fd %ld: %s\n", c, strerror(-err));
			return err;
		}
		opts->ctl_fd = c;
		opts->ack_fd = a;
		return 0;
	}
	if (strncmp(arg, "fifo:", 5) || !arg[5])
		return -EINVAL;
	copy = strdup(arg + 5);
	if (!copy)
		return -ENOMEM;
	ack = strchr(copy, ',');
	if (ack)
		*ack++ = '\0';
	opts->ctl_fd = open(copy, O_RDWR | O_NONBLOCK | O_CLOEXEC);
	if (opts->ctl_fd < 0) {
		err = -errno;
		pr_err("--control: cannot open %s: %s\n", copy, strerror(-err));
	} else if (ack && *ack) {
		opts->ack_fd = open(ack, O_RDWR | O_CLOEXEC);
		if (opts->ack_fd < 0) {
			err = -errno;
			pr_err("--control: cannot open %s: %s\n", ack, strerror(-err));
		}
	}
	free(copy);
	return err;
}

int record_opts__parse_call_graph(struct record_opts *opts, const char *arg)
{
	char *end;

	if (!arg || !strcmp(arg, "fp")) {
		opts->call_graph = CALL_GRAPH_FP;
		return 0;
	}
	if (!strncmp(arg, "fp,", 3)) {
		unsigned long v, max = 0;
		FILE *f;

		errno = 0;
		v = strtoul(arg + 3, &end, 0);
		if (errno || end == arg + 3 || *end || arg[3] == '-')
			return -EINVAL;
		/*
		 * as perf: a depth at or past the kernel's limit asks for
		 * nothing, so sample_max_stack stays 0 (the kernel's default)
		 */
		f = fopen("/proc/sys/kernel/perf_event_max_stack", "r");
		if (!f || fscanf(f, "%lu", &max) != 1)
			max = 127;
		if (f)
			fclose(f);
		opts->call_graph = CALL_GRAPH_FP;
		opts->max_stack = v < max ? v : 0;
		return 0;
	}
	if (!strcmp(arg, "lbr")) {
		/* the kernel says whether a PMU has LBR: the open is its test */
		opts->call_graph = CALL_GRAPH_LBR;
		return 0;
	}
	if (strncmp(arg, "dwarf", 5) || (arg[5] && arg[5] != ','))
		return -EINVAL;
	opts->call_graph = CALL_GRAPH_DWARF;
	/*
	 * perf record samples data addresses with a DWARF call graph (ADDR,
	 * DATA_SRC, the data mappings), as -d does: the same attrs as its
	 */
	opts->sample_addr = true;
	if (arg[5] == ',') {
		unsigned long v = strtoul(arg + 6, &end, 0);

		/* the kernel takes at most 65528 bytes, a multiple of 8 */
		if (*end || !v || v > 65528)
			return -EINVAL;
		opts->stack_size = (v + 7) & ~7UL;
	}
	return 0;
}

int record_opts__parse_regs(const char *arg, u64 *mask)
{
	static const char *const names[] = {
	    "ax", "bx", "cx", "dx", "si", "di", "bp",  "sp",  "ip",  "flags", "cs",  "ss",
	    "ds", "es", "fs", "gs", "r8", "r9", "r10", "r11", "r12", "r13",   "r14", "r15",
	};
	char *copy, *tok, *save;
	int err = 0;

	if (!arg || !*arg) {
		*mask = REGS_MASK_DEFAULT;
		return 0;
	}
	copy = strdup(arg);
	if (!copy)
		return -ENOMEM;
	*mask = 0;
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		size_t i;

		for (i = 0; i < ARRAY_SIZE(names); i++) {
			if (!strcasecmp(tok, names[i]))
				break;
		}
		/* the caller names the option and what it allows */
		if (i == ARRAY_SIZE(names)) {
			err = -EINVAL;
			break;
		}
		*mask |= 1ULL << i;
	}
	free(copy);
	return err;
}

int record_opts__parse_clockid(struct record_opts *opts, const char *arg)
{
	/* perf record's names, the short ones included */
	static const struct {
		const char *name;
		int id;
	} clocks[] = {
	    {"monotonic", CLOCK_MONOTONIC},
	    {"monotonic_raw", CLOCK_MONOTONIC_RAW},
	    {"realtime", CLOCK_REALTIME},
	    {"boottime", CLOCK_BOOTTIME},
	    {"tai", CLOCK_TAI},
	    {"mono", CLOCK_MONOTONIC},
	    {"raw", CLOCK_MONOTONIC_RAW},
	    {"real", CLOCK_REALTIME},
	    {"boot", CLOCK_BOOTTIME},
	};
	char *end;
	long id;
	size_t i;

	id = strtol(arg, &end, 10);
	if (end != arg && !*end && id >= 0 && id <= INT_MAX) {
		opts->use_clockid = true;
		opts->clockid = id;
		return 0;
	}
	if (!strncasecmp(arg, "CLOCK_", 6))
		arg += 6;
	for (i = 0; i < ARRAY_SIZE(clocks); i++) {
		if (!strcasecmp(arg, clocks[i].name)) {
			opts->use_clockid = true;
			opts->clockid = clocks[i].id;
			return 0;
		}
	}
	return -EINVAL;
}

int record_opts__parse_branch_filter(const char *arg, u64 *mask)
{
	static const struct {
		const char *name;
		u64 bit;
	} modes[] = {
	    {"u", PERF_SAMPLE_BRANCH_USER},
	    {"k", PERF_SAMPLE_BRANCH_KERNEL},
	    {"hv", PERF_SAMPLE_BRANCH_HV},
	    {"any", PERF_SAMPLE_BRANCH_ANY},
	    {"any_call", PERF_SAMPLE_BRANCH_ANY_CALL},
	    {"any_ret", PERF_SAMPLE_BRANCH_ANY_RETURN},
	    {"ind_call", PERF_SAMPLE_BRANCH_IND_CALL},
	    {"abort_tx", PERF_SAMPLE_BRANCH_ABORT_TX},
	    {"in_tx", PERF_SAMPLE_BRANCH_IN_TX},
	    {"no_tx", PERF_SAMPLE_BRANCH_NO_TX},
	    {"cond", PERF_SAMPLE_BRANCH_COND},
	    {"ind_jmp", PERF_SAMPLE_BRANCH_IND_JUMP},
	    {"call", PERF_SAMPLE_BRANCH_CALL},
	    {"save_type", PERF_SAMPLE_BRANCH_TYPE_SAVE},
	    {"stack", PERF_SAMPLE_BRANCH_CALL_STACK},
	    {"hw_index", PERF_SAMPLE_BRANCH_HW_INDEX},
	    {"priv", PERF_SAMPLE_BRANCH_PRIV_SAVE},
	};
	const u64 priv =
	    PERF_SAMPLE_BRANCH_USER | PERF_SAMPLE_BRANCH_KERNEL | PERF_SAMPLE_BRANCH_HV;
	char *copy = strdup(arg), *tok, *save;
	u64 m = 0;
	int err = 0;

	if (!copy)
		return -ENOMEM;
	for (tok = strtok_r(copy, ",", &save); tok && !err; tok = strtok_r(NULL, ",", &save)) {
		size_t i;

		for (i = 0; i < ARRAY_SIZE(modes) && strcmp(tok, modes[i].name); i++)
			;
		if (i == ARRAY_SIZE(modes))
			err = -EINVAL;
		else
			m |= modes[i].bit;
	}
	free(copy);
	if (err || !m)
		return -EINVAL;
	/* as perf: privilege levels alone mean any branch at those levels */
	if (!(m & ~priv))
		m |= PERF_SAMPLE_BRANCH_ANY;
	*mask = m;
	return 0;
}

/* "0-1,3" -> cpus; -EINVAL on a malformed list or an offline CPU */
int parse_cpu_list(const char *list, int **cpus)
{
	long nr_online = sysconf(_SC_NPROCESSORS_CONF);
	int *out = NULL, n = 0;
	const char *p = list;

	if (nr_online <= 0)
		nr_online = 1;
	if (!list) {
		out = calloc(nr_online, sizeof(int));
		if (!out)
			return -ENOMEM;
		for (n = 0; n < nr_online; n++)
			out[n] = n;
		*cpus = out;
		return n;
	}
	out = calloc(nr_online, sizeof(int));
	if (!out)
		return -ENOMEM;
	while (*p) {
		char *end;
		long a = strtol(p, &end, 10), b;

		if (end == p)
			goto bad;
		b = a;
		p = end;
		if (*p == '-') {
			b = strtol(p + 1, &end, 10);
			if (end == p + 1)
				goto bad;
			p = end;
		}
		if (a < 0 || b < a || b >= nr_online)
			goto bad;
		for (long c = a; c <= b; c++) {
			bool dup = false;

			for (int i = 0; i < n; i++)
				dup |= out[i] == c;
			if (!dup)
				out[n++] = c;
		}
		if (*p == ',')
			p++;
		else if (*p)
			goto bad;
	}
	if (!n)
		goto bad;
	*cpus = out;
	return n;
bad:
	pr_err("bad CPU list '%s' (this machine has CPUs 0-%ld)\n", list, nr_online - 1);
	free(out);
	return -EINVAL;
}
