// SPDX-License-Identifier: GPL-2.0-only
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bpf-capture.h"
#include "debug.h"
#include "event.h"
#include "header.h"
#include "kallsyms.h"
#include "kcore-copy.h"
#include "perf-event-open.h"
#include "record-events.h"
#include "record-features.h"
#include "record-lost.h"
#include "record.h"
#include "synthesize.h"
#include "writer.h"

/*
 * Sample layout of every event we open.  Fixed, so the main loop can read
 * the time, pid and ip of a sample without a full parser.
 */
#define RECORD_SAMPLE_TYPE                                                              \
	(PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | \
	 PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD)
/* offsets in a sample record: header, id, ip, pid/tid, time */
#define SAMPLE_OFF_IP 16
#define SAMPLE_OFF_PID 24
#define SAMPLE_OFF_TIME 32

/* perf's x86_64 default: every general register but DS, ES, FS, GS */
#define REGS_MASK_DEFAULT (((1ULL << 24) - 1) & ~(0xfULL << 12))

struct record_evsel {
	struct record_event ev;
	bool sideband;	  /* the dummy events */
	bool system_wide; /* opened with pid -1 even in task mode */
	bool user_given;  /* from -e: no silent fallback */
	int idx;	  /* writer attr index */
	enum record_group_pos group;
	int leader; /* index in rec->evsels of its group's leader, or its own */
	int nr_fds;
	int *fds;
	u64 *ids;
	/* fd per (cpu, tid) slot or -1: a group member opens beside its leader's */
	int *slot_fd;
};

struct record {
	struct record_opts *opts;
	struct perf_writer *w;
	int *cpus;
	int nr_cpus;
	pid_t *tids; /* -1 alone when system-wide */
	int nr_tids;
	bool task_mode;
	pid_t child;
	int go_fd;   /* the workload execs when this is written */
	int exec_fd; /* its exec's errno, or EOF once it ran */
	struct record_evsel *evsels;
	int nr_evsels;
	int sb_idx; /* attr for synthesized records */
	struct perf_ring *rings;
	struct bpf_capture *bpf;
	struct record_hits hits;
	/* where the callchain starts in a sample, 0 when samples have none */
	u16 callchain_off;
	u64 first_time, last_time;
	u64 max_time; /* of any record read: LOST_SAMPLES come after it */
	u64 nr_samples;
	u64 lost_format; /* PERF_FORMAT_LOST when the kernel has it, else 0 */
	struct record_lost lost;
	u64 bytes;
	u64 kcore_dir_bytes; /* what kcore_dir holds at the end */
	/* -z: bytes before and after compression, kept past the writer's close */
	u64 zbytes_in, zbytes_out;
};

static volatile sig_atomic_t record_done;
static volatile sig_atomic_t record_child_exited;

static void record__sig(int sig)
{
	if (sig == SIGCHLD)
		record_child_exited = 1;
	else
		record_done = 1;
}

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
}

int record_opts__parse_call_graph(struct record_opts *opts, const char *arg)
{
	char *end;

	if (!arg || !strcmp(arg, "fp")) {
		opts->call_graph = CALL_GRAPH_FP;
		return 0;
	}
	if (strncmp(arg, "dwarf", 5) || (arg[5] && arg[5] != ','))
		return -EINVAL;
	opts->call_graph = CALL_GRAPH_DWARF;
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
static int parse_cpu_list(const char *list, int **cpus)
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

static int add_tids_of(struct record *rec, pid_t pid)
{
	char path[64];
	struct dirent *de;
	DIR *d;

	snprintf(path, sizeof(path), "/proc/%d/task", pid);
	d = opendir(path);
	if (!d) {
		pr_err("-p %d: no such process\n", pid);
		return -ESRCH;
	}
	while ((de = readdir(d))) {
		pid_t *tmp;

		if (!isdigit((unsigned char)de->d_name[0]))
			continue;
		tmp = realloc(rec->tids, (rec->nr_tids + 1) * sizeof(*tmp));
		if (!tmp) {
			closedir(d);
			return -ENOMEM;
		}
		rec->tids = tmp;
		rec->tids[rec->nr_tids++] = atoi(de->d_name);
	}
	closedir(d);
	return 0;
}

/*
 * "-", or another name for what stdout is (/dev/stdout to a pipe), where
 * the workload's output would corrupt ours; a device such as /dev/null
 * on both takes no harm from it.
 */
static bool record__output_is_stdout(const char *output)
{
	struct stat o, out;

	if (!strcmp(output, "-"))
		return true;
	return !stat(output, &o) && !fstat(STDOUT_FILENO, &out) && !S_ISCHR(o.st_mode) &&
	       o.st_dev == out.st_dev && o.st_ino == out.st_ino;
}

/*
 * Fork the workload now, let it exec only once every event is open: the
 * events are opened on its pid with enable_on_exec, so counting starts
 * at exec, as perf record does.  A failed exec comes back as an errno
 * through a close-on-exec pipe; a successful one closes it.
 */
static int record__fork_workload(struct record *rec)
{
	int go[2], fail[2], e;
	char c;

	if (pipe2(go, O_CLOEXEC))
		return -errno;
	if (pipe2(fail, O_CLOEXEC)) {
		e = -errno;
		goto out_close_go;
	}
	rec->child = fork();
	if (rec->child < 0) {
		e = -errno;
		close(fail[0]);
		close(fail[1]);
		goto out_close_go;
	}
	if (!rec->child) {
		close(go[1]);
		close(fail[0]);
		/* stdout may be the output (-, /dev/stdout): the workload gets stderr */
		if (record__output_is_stdout(rec->opts->output))
			dup2(2, 1);
		if (read(go[0], &c, 1) != 1)
			_exit(127);
		/* ignored signals stay ignored across exec: the workload gets its defaults */
		signal(SIGPIPE, SIG_DFL);
		signal(SIGXFSZ, SIG_DFL);
		execvp(rec->opts->argv[0], rec->opts->argv);
		e = errno;
		if (write(fail[1], &e, sizeof(e)) != sizeof(e))
			_exit(126);
		_exit(127);
	}
	close(go[0]);
	close(fail[1]);
	rec->go_fd = go[1];
	rec->exec_fd = fail[0];
	rec->tids[0] = rec->child;
	rec->nr_tids = 1;
	return 0;
out_close_go:
	close(go[0]);
	close(go[1]);
	return e;
}

/* let the workload exec; 0 once it has, -errno of its exec otherwise */
static int record__start_workload(struct record *rec)
{
	int e = 0;
	ssize_t n;

	if (write(rec->go_fd, "g", 1) != 1)
		return -errno;
	close(rec->go_fd);
	rec->go_fd = -1;
	n = read(rec->exec_fd, &e, sizeof(e));
	close(rec->exec_fd);
	rec->exec_fd = -1;
	if (n == sizeof(e)) {
		pr_err("cannot run '%s': %s\n", rec->opts->argv[0], strerror(e));
		return -e;
	}
	return 0;
}

static int record__add_evsel(struct record *rec, struct record_evsel **out)
{
	struct record_evsel *tmp = realloc(rec->evsels, (rec->nr_evsels + 1) * sizeof(*tmp));

	if (!tmp)
		return -ENOMEM;
	rec->evsels = tmp;
	*out = &tmp[rec->nr_evsels++];
	memset(*out, 0, sizeof(**out));
	return 0;
}

static void record__config_sample(struct record *rec, struct perf_event_attr *attr)
{
	struct record_opts *o = rec->opts;

	attr->sample_type = RECORD_SAMPLE_TYPE;
	attr->sample_id_all = 1;
	attr->read_format = PERF_FORMAT_ID | rec->lost_format;
	attr->disabled = 1;
	/* -k: every event on the one clock, so side-band and samples stay in order */
	attr->use_clockid = o->use_clockid;
	attr->clockid = o->use_clockid ? o->clockid : 0;
	attr->inherit = rec->task_mode && !o->no_inherit;
	attr->enable_on_exec = rec->task_mode && rec->child > 0;
	if (o->sample_addr)
		attr->sample_type |= PERF_SAMPLE_ADDR | PERF_SAMPLE_DATA_SRC;
	if (o->inherit_stat) {
		/* the kernel sends each child's counts as a READ record when it exits */
		attr->inherit_stat = 1;
		attr->read_format |=
		    PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	}
	if (o->branch_filter) {
		attr->sample_type |= PERF_SAMPLE_BRANCH_STACK;
		attr->branch_sample_type = o->branch_filter;
	}
	if (attr->type == PERF_TYPE_TRACEPOINT) {
		attr->sample_type |= PERF_SAMPLE_RAW;
		attr->sample_period = 1;
	} else if (o->period) {
		attr->sample_period = o->period;
	} else {
		attr->freq = 1;
		attr->sample_freq = o->freq;
	}
	if (o->call_graph != CALL_GRAPH_NONE)
		attr->sample_type |= PERF_SAMPLE_CALLCHAIN;
	if (o->call_graph == CALL_GRAPH_DWARF) {
		attr->sample_type |= PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;
		attr->sample_regs_user = o->user_regs ? o->user_regs : REGS_MASK_DEFAULT;
		attr->sample_stack_user = o->stack_size;
		/* the user part comes from the stack copy */
		attr->exclude_callchain_user = 1;
	}
	if (o->user_regs) {
		attr->sample_type |= PERF_SAMPLE_REGS_USER;
		attr->sample_regs_user |= o->user_regs;
	}
	if (o->intr_regs) {
		attr->sample_type |= PERF_SAMPLE_REGS_INTR;
		attr->sample_regs_intr = o->intr_regs;
	}
}

/* a dummy event for side-band records, named as perf names it */
static int record__add_sideband(struct record *rec, struct record_evsel **ep, const char *name)
{
	struct record_evsel *e;
	int err = record__add_evsel(rec, ep);

	if (err)
		return err;
	e = *ep;
	err = record_event__parse(&e->ev, "dummy");
	if (err)
		return err;
	free(e->ev.name);
	e->ev.name = strdup(name);
	if (!e->ev.name)
		return -ENOMEM;
	e->sideband = true;
	/* the kernel lets events share a ring only on one clock (perf_event_set_output) */
	e->ev.attr.use_clockid = rec->opts->use_clockid;
	e->ev.attr.clockid = rec->opts->use_clockid ? rec->opts->clockid : 0;
	return 0;
}

/* record_events__split()'s callback: one event of an -e argument */
static int record__add_event(void *ctx, const char *name, size_t len, enum record_group_pos pos,
			     const char *group_mods)
{
	struct record *rec = ctx;
	struct record_evsel *e;
	char *copy = strndup(name, len);
	int err = copy ? record__add_evsel(rec, &e) : -ENOMEM;

	if (err)
		goto out_free;
	err = record_event__parse(&e->ev, copy);
	if (!err && *group_mods)
		err = record_event__apply_modifiers(&e->ev, group_mods);
	if (err)
		goto out_free;
	e->user_given = rec->opts->nr_events > 0;
	e->group = pos;
	e->leader = rec->nr_evsels - 1;
	if (pos == RECORD_GROUP_MEMBER) {
		while (rec->evsels[e->leader].group != RECORD_GROUP_LEADER)
			e->leader--;
	}
	record__config_sample(rec, &e->ev.attr);
	/* as perf: the leader enables its group, members follow it */
	if (pos == RECORD_GROUP_MEMBER) {
		e->ev.attr.disabled = 0;
		e->ev.attr.enable_on_exec = 0;
	}
out_free:
	free(copy);
	return err;
}

static int record__setup_evsels(struct record *rec)
{
	struct record_opts *o = rec->opts;
	static const char *const default_event[] = {"cycles"};
	const char *const *names = o->nr_events ? (const char *const *)o->events : default_event;
	int nr = o->nr_events ? o->nr_events : 1;
	struct record_evsel *e;
	int err;

	for (int i = 0; i < nr; i++) {
		err = record_events__split(names[i], record__add_event, rec);
		if (err)
			return err;
	}
	/* the side-band: enabled from the start, so nothing is missed while we synthesize */
	err = record__add_sideband(rec, &e, rec->task_mode ? "dummy:u" : "dummy:HG");
	if (err)
		return err;
	record__config_sample(rec, &e->ev.attr);
	e->ev.attr.sample_period = 1;
	e->ev.attr.freq = 0;
	e->ev.attr.sample_type = RECORD_SAMPLE_TYPE;
	e->ev.attr.read_format = PERF_FORMAT_ID | rec->lost_format;
	e->ev.attr.inherit_stat = 0;
	e->ev.attr.branch_sample_type = 0;
	e->ev.attr.context_switch = o->switch_events;
	e->ev.attr.sample_regs_user = 0;
	e->ev.attr.sample_regs_intr = 0;
	e->ev.attr.sample_stack_user = 0;
	e->ev.attr.exclude_callchain_user = 0;
	e->ev.attr.disabled = 0;
	e->ev.attr.enable_on_exec = 0;
	e->ev.attr.mmap = 1;
	e->ev.attr.mmap2 = 1;
	e->ev.attr.comm = 1;
	e->ev.attr.comm_exec = 1;
	e->ev.attr.task = 1;
	/*
	 * DWARF unwinding reads .eh_frame, which modern linkers put in a
	 * read-only segment apart from the code: perf's unwinder needs its
	 * mapping, so report data mappings too, as perf record does.
	 */
	e->ev.attr.mmap_data = o->call_graph == CALL_GRAPH_DWARF || o->sample_addr;
	if (!rec->task_mode) {
		e->ev.attr.text_poke = 1;
		e->ev.attr.ksymbol = 1;
		e->ev.attr.bpf_event = 1;
		return 0;
	}
	/* the kernel patches itself from any task: its side-band is per CPU */
	err = record__add_sideband(rec, &e, "dummy:k");
	if (err)
		return err;
	e->system_wide = true;
	e->ev.attr.sample_type = RECORD_SAMPLE_TYPE;
	e->ev.attr.sample_id_all = 1;
	e->ev.attr.read_format = PERF_FORMAT_ID | rec->lost_format;
	e->ev.attr.sample_period = 1;
	e->ev.attr.text_poke = 1;
	e->ev.attr.ksymbol = 1;
	e->ev.attr.bpf_event = 1;
	return 0;
}

static void record__close_evsel(struct record_evsel *e)
{
	for (int i = 0; i < e->nr_fds; i++) {
		if (e->fds[i] >= 0)
			close(e->fds[i]);
	}
	zfree(&e->fds);
	zfree(&e->ids);
	zfree(&e->slot_fd);
	e->nr_fds = 0;
}

/* open @e on every (cpu, tid); its first fd per CPU owns the ring unless one exists */
static int record__open_evsel(struct record *rec, struct record_evsel *e)
{
	int nr_tids = e->system_wide ? 1 : rec->nr_tids;
	const struct record_evsel *leader =
	    e->group == RECORD_GROUP_MEMBER ? &rec->evsels[e->leader] : NULL;
	int err = 0;

	e->fds = calloc(rec->nr_cpus * nr_tids, sizeof(int));
	e->ids = calloc(rec->nr_cpus * nr_tids, sizeof(u64));
	e->slot_fd = malloc(rec->nr_cpus * nr_tids * sizeof(int));
	if (!e->fds || !e->ids || !e->slot_fd)
		return -ENOMEM;
	for (int i = 0; i < rec->nr_cpus * nr_tids; i++)
		e->slot_fd[i] = -1;
	for (int c = 0; c < rec->nr_cpus; c++) {
		for (int t = 0; t < nr_tids; t++) {
			pid_t pid = e->system_wide ? -1 : rec->tids[t];
			struct perf_ring *ring = &rec->rings[c];
			int slot = c * nr_tids + t, group_fd = -1;
			int fd;

			if (leader) {
				group_fd = leader->slot_fd[slot];
				/* the leader's thread exited before it could be opened */
				if (group_fd < 0)
					continue;
			}
			fd = sys_perf_event_open(&e->ev.attr, pid, rec->cpus[c], group_fd,
						 PERF_FLAG_FD_CLOEXEC);
			if (fd < 0) {
				err = -errno;
				/* a thread of -p that exited meanwhile is no error */
				if (err == -ESRCH && rec->nr_tids > 1 && !rec->child)
					continue;
				return err;
			}
			e->fds[e->nr_fds] = fd;
			e->slot_fd[slot] = fd;
			err = perf_event__id(fd, &e->ids[e->nr_fds]);
			e->nr_fds++;
			if (err)
				return err;
			if (!ring->base) {
				err =
				    perf_ring__mmap(ring, fd, rec->cpus[c], rec->opts->mmap_pages);
				if (err) {
					pr_err(
					    "cannot mmap %u pages per CPU: %s (try a smaller -m)\n",
					    rec->opts->mmap_pages, strerror(-err));
					return err;
				}
			} else if (ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, ring->fd)) {
				return -errno;
			}
		}
	}
	return 0;
}

/* no event looks at the kernel (cpu-clock:u): what only the kernel gives is not missed */
static bool record__user_only(const struct record *rec)
{
	for (int i = 0; i < rec->nr_evsels; i++) {
		if (!rec->evsels[i].sideband && !rec->evsels[i].ev.attr.exclude_kernel)
			return false;
	}
	return true;
}

static int record__open(struct record *rec)
{
	char msg[256];
	int err;

	/* the side-band first: it owns the rings, so they exist whatever the events do */
	for (int pass = 0; pass < 2; pass++) {
		for (int i = 0; i < rec->nr_evsels; i++) {
			struct record_evsel *e = &rec->evsels[i];

			if (e->sideband != (pass == 0))
				continue;
			err = record__open_evsel(rec, e);
			while (err && e->ev.attr.precise_ip &&
			       (err == -EOPNOTSUPP || err == -EINVAL)) {
				/* as perf: fall back to what the hardware can do */
				record__close_evsel(e);
				e->ev.attr.precise_ip--;
				pr_debug("%s: retrying with precise_ip %u\n", e->ev.name,
					 e->ev.attr.precise_ip);
				err = record__open_evsel(rec, e);
			}
			if (err && !e->user_given && !e->sideband &&
			    e->ev.attr.type == PERF_TYPE_HARDWARE) {
				/* no PMU (a VM): sample the clock, as perf does */
				record__close_evsel(e);
				record_event__exit(&e->ev);
				err = record_event__parse(&e->ev, "cpu-clock");
				if (err)
					return err;
				record__config_sample(rec, &e->ev.attr);
				pr_debug("cycles: not supported, using cpu-clock\n");
				err = record__open_evsel(rec, e);
			}
			if (err && (err == -EACCES || err == -EPERM) && !e->system_wide &&
			    !e->ev.attr.exclude_kernel) {
				/* as perf: a user may still record user space (perf_event_paranoid 2) */
				static bool warned;

				/*
				 * the side-band follows the events: it is user-only too
				 * when they are (cpu-clock:u), which is no news
				 */
				if (!warned && !e->sideband) {
					pr_warning(
					    "not permitted to observe the kernel: recording user space "
					    "only (see /proc/sys/kernel/perf_event_paranoid)\n");
					warned = true;
				}
				record__close_evsel(e);
				e->ev.attr.exclude_kernel = 1;
				e->ev.attr.exclude_hv = 1;
				err = record__open_evsel(rec, e);
			}
			if (err && e->system_wide && (err == -EACCES || err == -EPERM)) {
				if (!record__user_only(rec))
					pr_warning(
					    "no system-wide side-band (%s): text pokes, ksymbols and BPF "
					    "events of other tasks are not recorded; run as root\n",
					    strerror(-err));
				record__close_evsel(e);
				e->nr_fds = 0;
				continue;
			}
			if (err) {
				record_event__open_error(&e->ev, err, msg, sizeof(msg));
				pr_err("%s\n", msg);
				return err;
			}
		}
	}
	return 0;
}

static int record__enable(struct record *rec)
{
	for (int i = 0; i < rec->nr_evsels; i++) {
		struct record_evsel *e = &rec->evsels[i];

		if (e->sideband)
			continue;
		for (int f = 0; f < e->nr_fds; f++) {
			if (ioctl(e->fds[f], PERF_EVENT_IOC_ENABLE, 0))
				return -errno;
		}
	}
	return 0;
}

static void record__disable(struct record *rec)
{
	for (int i = 0; i < rec->nr_evsels; i++) {
		struct record_evsel *e = &rec->evsels[i];

		for (int f = 0; f < e->nr_fds; f++)
			ioctl(e->fds[f], PERF_EVENT_IOC_DISABLE, 0);
	}
}

/*
 * The format follows what -o names, symlinks followed: "-" or a FIFO gets
 * pipe mode, as perf record gives a pipe on stdout; a device (/dev/null)
 * gets a plain file written through, since it cannot hold kcore_dir.
 */
static unsigned int record__output_flags(struct record_opts *o)
{
	struct stat st;

	if (!strcmp(o->output, "-"))
		return PERF_WRITER_PIPE;
	if (stat(o->output, &st) || S_ISREG(st.st_mode) || S_ISDIR(st.st_mode))
		return o->kcore ? PERF_WRITER_DIRECTORY : 0;
	if (S_ISFIFO(st.st_mode))
		return PERF_WRITER_PIPE;
	if (o->kcore && !o->quiet)
		pr_info("perf textpoke record: %s is not a directory: writing a plain file, "
			"without kcore_dir\n",
			o->output);
	return 0;
}

static void record__writer_open_error(const char *output, unsigned int flags, int err)
{
	if (err == -ENXIO && (flags & PERF_WRITER_PIPE))
		pr_err("%s: no process has the FIFO open for reading (start the reader first)\n",
		       output);
	else if (err == -ENOTEMPTY)
		pr_err("%s: it or %s.old is a directory that holds more than a recording: "
		       "not replacing it\n",
		       output, output);
	else if (err == -EEXIST)
		pr_err("%s.old: a device or FIFO: not replacing it\n", output);
	else if (err == -ESPIPE)
		pr_err("%s: cannot seek on it, which perf.data needs (-o - streams pipe mode)\n",
		       output);
	else
		pr_err("%s: cannot create: %s\n", output, strerror(-err));
}

/* HEADER_GROUP_DESC, once the attrs have their indexes */
static int record__write_groups(struct record *rec)
{
	struct record_group *groups = calloc(rec->nr_evsels, sizeof(*groups));
	int nr = 0, kept = 0, err = 0;

	if (!groups)
		return -ENOMEM;
	for (int i = 0; i < rec->nr_evsels; i++) {
		struct record_evsel *e = &rec->evsels[i];

		if (!e->nr_fds)
			continue;
		if (e->group == RECORD_GROUP_LEADER)
			groups[nr++] = (struct record_group){.leader_idx = e->idx, .nr_members = 1};
		else if (e->group == RECORD_GROUP_MEMBER && nr &&
			 groups[nr - 1].leader_idx == (u32)rec->evsels[e->leader].idx)
			groups[nr - 1].nr_members++;
	}
	/* as perf: a group of one is no group */
	for (int i = 0; i < nr; i++) {
		if (groups[i].nr_members > 1)
			groups[kept++] = groups[i];
	}
	if (kept)
		err = record_features__group_desc(rec->w, groups, kept);
	if (err)
		pr_err("%s: cannot write the group descriptions: %s\n", rec->opts->output,
		       strerror(-err));
	free(groups);
	return err;
}

static int record__writer_open(struct record *rec)
{
	struct record_opts *o = rec->opts;
	unsigned int flags = record__output_flags(o);

	if (o->zstd)
		flags |= PERF_WRITER_ZSTD;
	rec->w = perf_writer__new(o->output, flags);
	if (!rec->w) {
		int err = -errno;

		record__writer_open_error(o->output, flags, err);
		return err;
	}
	if (o->zstd && perf_writer__set_zstd_level(rec->w, o->zstd_level)) {
		pr_err("-z: bad compression level %d\n", o->zstd_level);
		return -EINVAL;
	}
	for (int i = 0; i < rec->nr_evsels; i++) {
		struct record_evsel *e = &rec->evsels[i];
		int idx;

		if (!e->nr_fds)
			continue;
		idx = perf_writer__add_attr(rec->w, &e->ev.attr, e->ids, e->nr_fds, e->ev.name);
		if (idx < 0) {
			pr_err("%s: cannot add event %s: %s\n", o->output, e->ev.name,
			       strerror(-idx));
			return idx;
		}
		e->idx = idx;
		if (e->sideband && !e->system_wide)
			rec->sb_idx = idx;
	}
	if (flags & PERF_WRITER_DIRECTORY)
		perf_writer__set_dir_format(rec->w, 0);
	return record__write_groups(rec);
}

/* ---- the main loop ---- */

/* the kernel part of a sample's callchain: what kallsyms must keep symbols for */
static void record__callchain_hits(struct record *rec, const u8 *p, size_t room)
{
	u64 nr, ip;
	bool kernel = false;

	memcpy(&nr, p, 8);
	if (nr > (room - 8) / 8)
		return;
	for (u64 i = 0; i < nr; i++) {
		memcpy(&ip, p + 8 + i * 8, 8);
		if (ip >= (u64)PERF_CONTEXT_MAX)
			kernel = ip == (u64)PERF_CONTEXT_KERNEL;
		else if (kernel)
			record_hits__kernel_ip(&rec->hits, ip);
	}
}

static int record__event(void *ctx, struct perf_ring *ring __maybe_unused,
			 const union perf_event *ev)
{
	struct record *rec = ctx;
	const u8 *p = (const u8 *)ev;
	u16 size = ev->header.size;
	int err;

	if (ev->header.type == PERF_RECORD_SAMPLE && size >= SAMPLE_OFF_TIME + 8) {
		u64 t, ip;
		u32 pid;

		memcpy(&t, p + SAMPLE_OFF_TIME, 8);
		memcpy(&ip, p + SAMPLE_OFF_IP, 8);
		memcpy(&pid, p + SAMPLE_OFF_PID, 4);
		if (!rec->first_time || t < rec->first_time)
			rec->first_time = t;
		if (t > rec->last_time)
			rec->last_time = t;
		if (t > rec->max_time)
			rec->max_time = t;
		rec->nr_samples++;
		record_hits__sample(&rec->hits, ev->header.misc & PERF_RECORD_MISC_CPUMODE_MASK,
				    pid, ip);
		if (rec->callchain_off && size >= rec->callchain_off + 8)
			record__callchain_hits(rec, p + rec->callchain_off,
					       size - rec->callchain_off);
	} else if (size >= sizeof(ev->header) + 32) {
		u64 t;

		/* the sample_id_all trailer: pid/tid, time, cpu, identifier */
		memcpy(&t, p + size - 24, 8);
		if (t > rec->max_time)
			rec->max_time = t;
	}
	if (ev->header.type == PERF_RECORD_TEXT_POKE && size >= 16) {
		u64 addr;

		memcpy(&addr, p + 8, 8);
		record_hits__kernel_ip(&rec->hits, addr);
	} else if (ev->header.type == PERF_RECORD_MMAP2 &&
		   size > sizeof(struct perf_record_mmap2) + 32) {
		const struct perf_record_mmap2 *m = (const void *)ev;
		/* the filename ends before the 32-byte id trailer */
		size_t max = size - sizeof(*m) - 32;

		if (strnlen(m->filename, max) < max)
			record_hits__mmap(&rec->hits, m, m->filename);
	}
	err = perf_writer__write_event(rec->w, ev);
	if (err)
		return err;
	rec->bytes += size;
	return 0;
}

/* one pass over every ring; a FINISHED_ROUND after a pass that wrote anything */
static int record__mmap_read_all(struct record *rec)
{
	int total = 0;

	for (int c = 0; c < rec->nr_cpus; c++) {
		int n = perf_ring__drain(&rec->rings[c], record__event, rec);

		if (n == -EBADMSG) {
			pr_warning(
			    "cpu %d: corrupt record in the ring buffer, dropped what was left\n",
			    rec->cpus[c]);
			continue;
		}
		if (n < 0)
			return n;
		total += n;
	}
	if (total)
		return perf_writer__synth_finished_round(rec->w);
	return 0;
}

/* running, sleeping, stopped: anything but gone or a zombie nobody reaped yet */
static bool task__alive(pid_t tid)
{
	char path[64], buf[256], *p;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/stat", tid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return false;
	buf[n] = '\0';
	/* "pid (comm) S ...": comm may hold spaces and parentheses */
	p = strrchr(buf, ')');
	return p && p[1] == ' ' && p[2] != 'Z' && p[2] != 'X';
}

/* -p: as perf, stop once every thread we attached to is gone */
static bool record__targets_alive(struct record *rec)
{
	for (int t = 0; t < rec->nr_tids; t++) {
		if (task__alive(rec->tids[t]))
			return true;
	}
	return false;
}

/*
 * After the events are disabled and the rings drained: what each event fd
 * could not write, one LOST_SAMPLES record each, as perf 6.1 writes them.
 * The time is the newest seen, so readers that order by time keep them
 * last, where they belong.
 */
static int record__write_lost_samples(struct record *rec)
{
	struct {
		struct perf_record_lost_samples ls;
		u32 pid, tid;
		u64 time;
		u32 cpu, res;
		u64 id;
	} r = {.ls.header = {.type = PERF_RECORD_LOST_SAMPLES, .size = sizeof(r)}};

	if (!rec->lost_format)
		return 0;
	for (int i = 0; i < rec->nr_evsels; i++) {
		struct record_evsel *e = &rec->evsels[i];
		int nr_tids = e->system_wide ? 1 : rec->nr_tids, f = 0;

		/* fds[] holds the opened slots in slot order */
		for (int slot = 0; slot < rec->nr_cpus * nr_tids && f < e->nr_fds; slot++) {
			u64 lost;
			int err;

			if (e->slot_fd[slot] < 0)
				continue;
			err = record_lost__read(e->fds[f], e->ev.attr.read_format, &lost);
			r.id = e->ids[f++];
			if (err) {
				pr_debug("%s: cannot read its lost count: %s\n", e->ev.name,
					 strerror(-err));
				continue;
			}
			if (!lost)
				continue;
			r.ls.lost = lost;
			r.time = rec->max_time;
			r.cpu = rec->cpus[slot / nr_tids];
			err = perf_writer__write_event(rec->w, (const union perf_event *)&r);
			if (err)
				return err;
			rec->lost.lost_samples += lost;
		}
	}
	return 0;
}

static int record__loop(struct record *rec)
{
	struct pollfd *pfd = calloc(rec->nr_cpus, sizeof(*pfd));
	int err = 0, status, ready;

	if (!pfd)
		return -ENOMEM;
	for (int c = 0; c < rec->nr_cpus; c++) {
		pfd[c].fd = rec->rings[c].fd;
		pfd[c].events = POLLIN;
	}
	while (!record_done) {
		err = record__mmap_read_all(rec);
		if (err)
			break;
		if (record_child_exited && rec->child > 0 &&
		    waitpid(rec->child, &status, WNOHANG) == rec->child) {
			rec->child = -1;
			break;
		}
		if (rec->task_mode && rec->child <= 0 && !record__targets_alive(rec))
			break;
		/* a signal between the checks and poll is caught by the timeout */
		ready = poll(pfd, rec->nr_cpus, 100);
		if (ready < 0 && errno != EINTR) {
			err = -errno;
			break;
		}
		/* perf's "Woken up" counts the waits that ended with data */
		if (ready > 0)
			rec->lost.wakeups++;
	}
	free(pfd);
	record__disable(rec);
	if (!err)
		err = record__mmap_read_all(rec);
	if (!err)
		err = record__write_lost_samples(rec);
	return err;
}

static pid_t record__tgid(pid_t tid)
{
	char path[64], line[128];
	int tgid = tid;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", tid);
	f = fopen(path, "r");
	if (!f)
		return tid;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "Tgid: %d", &tgid) == 1)
			break;
	}
	fclose(f);
	return tgid;
}

static int record__write_features(struct record *rec)
{
	const struct record_event **tps = calloc(rec->nr_evsels + 1, sizeof(*tps));
	int nr = 0, err;

	if (!tps)
		return -ENOMEM;
	for (int i = 0; i < rec->nr_evsels; i++) {
		if (rec->evsels[i].ev.attr.type == PERF_TYPE_TRACEPOINT)
			tps[nr++] = &rec->evsels[i].ev;
	}
	err = record_features__write_start(rec->w, rec->opts, tps, nr);
	free(tps);
	return err;
}

static int record__synthesize(struct record *rec)
{
	struct synth s = {.w = rec->w,
			  .idx = rec->sb_idx,
			  .on_mmap = record_hits__synth_mmap,
			  .arg = &rec->hits,
			  .data_mmaps =
			      rec->opts->call_graph == CALL_GRAPH_DWARF || rec->opts->sample_addr};
	int err;

	err = synthesize__kernel_mmap(&s);
	if (!err)
		err = synthesize__modules(&s);
	if (!err && !rec->task_mode)
		err = synthesize__all_processes(&s);
	else if (!err && rec->child > 0)
		err = synthesize__process(&s, rec->child, false);
	else if (!err) {
		pid_t last = -1;

		for (int t = 0; !err && t < rec->nr_tids; t++) {
			pid_t tgid = record__tgid(rec->tids[t]);

			if (tgid != last)
				err = synthesize__process(&s, tgid, true);
			last = tgid;
		}
	}
	if (!err && rec->bpf) {
		int n = synthesize__bpf_programs(&s, rec->bpf);

		err = n < 0 ? n : 0;
	}
	return err;
}

/*
 * The kallsyms copy keeps the symbols of what the recording touched
 * (record_hits__kernel_ip()); a whole copy costs megabytes a short run
 * has no use for.  --full-kallsyms, or more addresses than the hit set
 * holds, keeps everything.
 */
static int record__trim_kallsyms(struct record *rec)
{
	const char *dir = perf_writer__dir_path(rec->w);
	size_t nr;
	u64 *ips;
	int err = 0;

	if (!rec->opts->full_kallsyms) {
		ips = record_hits__kernel_ips(&rec->hits, &nr);
		if (ips)
			err = kcore_dir__trim_kallsyms(dir, ips, nr);
		else
			pr_debug("kallsyms: too many kernel addresses to trim by, kept whole\n");
		free(ips);
		/* no kallsyms copy (restricted): nothing to trim */
		if (err == -ENOENT)
			err = 0;
		if (err)
			pr_err("%s: cannot trim kcore_dir/kallsyms: %s\n", rec->opts->output,
			       strerror(-err));
	}
	rec->kcore_dir_bytes = kcore_dir__size(dir);
	return err;
}

/* what the closing lines need from the writer, before it is closed */
static void record__count(struct record *rec)
{
	struct record_lost *l = &rec->lost;

	l->nr_records = 0;
	for (u32 type = 0; type < PERF_RECORD_HEADER_MAX; type++)
		l->nr_records += perf_writer__nr_records(rec->w, type);
	l->nr_chunks = perf_writer__nr_records(rec->w, PERF_RECORD_LOST);
	l->nr_samples = perf_writer__nr_records(rec->w, PERF_RECORD_SAMPLE);
	/* the kernel's own LOST_SAMPLES (hardware samples it discarded) count as well */
	for (int c = 0; c < rec->nr_cpus; c++)
		l->lost_samples += rec->rings[c].lost_samples;
}

static void record__report(struct record *rec)
{
	u64 lost = 0;

	for (int c = 0; c < rec->nr_cpus; c++)
		lost += rec->rings[c].lost;
	record_lost__print(&rec->lost, rec->opts->quiet, stderr);
	if (lost)
		pr_debug("lost %" PRIu64 " events in %" PRIu64 " LOST records (try a larger -m)\n",
			 lost, rec->lost.nr_chunks);
	if (rec->bpf) {
		struct bpf_capture_stats st;

		bpf_capture__stats(rec->bpf, &st);
		if (st.missed || st.lost)
			fprintf(stderr,
				"perf textpoke record: BPF programs: %" PRIu64 " loaded, %" PRIu64
				" captured, %" PRIu64 " gone before capture, %" PRIu64
				" events lost\n",
				st.loads, st.captured, st.missed, st.lost);
		else
			pr_debug("BPF programs: %" PRIu64 " loaded, %" PRIu64 " captured\n",
				 st.loads, st.captured);
	}
	if (!rec->opts->quiet) {
		u64 zin = rec->zbytes_in, zout = rec->zbytes_out;

		/* -z: what went to the file, then perf's "original" size and ratio */
		fprintf(stderr,
			"[ perf textpoke record: Captured and wrote %.3f MB %s (%" PRIu64
			" samples)",
			(zout ? zout : rec->bytes) / 1024.0 / 1024.0,
			strcmp(rec->opts->output, "-") ? rec->opts->output : "<stdout>",
			rec->nr_samples);
		if (zout)
			fprintf(stderr, ", compressed (original %.3f MB, ratio is %.3f)",
				zin / 1024.0 / 1024.0, (double)zin / zout);
		/* the starting image apart: it is not records, and perf's file has none */
		if (rec->kcore_dir_bytes)
			fprintf(stderr, ", with %.3f MB of kernel symbols and code",
				rec->kcore_dir_bytes / 1024.0 / 1024.0);
		fprintf(stderr, " ]\n");
	}
}

static void record__exit(struct record *rec)
{
	bpf_capture__delete(rec->bpf);
	for (int i = 0; i < rec->nr_evsels; i++) {
		record__close_evsel(&rec->evsels[i]);
		record_event__exit(&rec->evsels[i].ev);
	}
	free(rec->evsels);
	for (int c = 0; c < rec->nr_cpus && rec->rings; c++)
		perf_ring__munmap(&rec->rings[c]);
	free(rec->rings);
	free(rec->cpus);
	free(rec->tids);
	record_hits__exit(&rec->hits);
	if (rec->go_fd >= 0)
		close(rec->go_fd);
	if (rec->exec_fd >= 0)
		close(rec->exec_fd);
	if (rec->child > 0) {
		kill(rec->child, SIGTERM);
		waitpid(rec->child, NULL, 0);
	}
}

static int kallsyms__nonzero(void *arg, const char *name, char type, u64 start, const char *module)
{
	(void)name;
	(void)type;
	(void)module;
	if (!start)
		return 0;
	*(bool *)arg = true;
	return 1;
}

/*
 * Where kptr_restrict (or perf_event_paranoid without CAP_SYSLOG) hides
 * kernel addresses, /proc/kallsyms and /proc/modules read as zeros: a
 * kcore_dir of those would only look useful.  Store none, and say why
 * kernel samples will lack symbols, as perf record warns.
 */
static void record__check_kallsyms(struct record *rec)
{
	struct record_opts *o = rec->opts;
	bool nonzero = false;

	if (!o->kcore || !strcmp(o->output, "-"))
		return;
	if (kallsyms__parse("/proc/kallsyms", &nonzero, kallsyms__nonzero) <= 0 || nonzero)
		return;
	o->kcore = false;
	if (!record__user_only(rec))
		pr_warning("kernel address maps (/proc/{kallsyms,modules}) are restricted, see "
			   "/proc/sys/kernel/kptr_restrict and perf_event_paranoid: no kcore_dir "
			   "written, kernel samples may lack symbols\n");
}

/* the kernel refuses a frequency above its limit: lower it, as perf does */
static void record__cap_freq(struct record_opts *opts)
{
	unsigned long long max = 0;
	FILE *f;

	if (opts->period)
		return;
	f = fopen("/proc/sys/kernel/perf_event_max_sample_rate", "r");
	if (!f)
		return;
	if (fscanf(f, "%llu", &max) == 1 && max && opts->freq > max) {
		pr_warning("-F %llu is above perf_event_max_sample_rate, sampling at %llu Hz\n",
			   (unsigned long long)opts->freq, max);
		opts->freq = max;
	}
	fclose(f);
}

int record__run(struct record_opts *opts)
{
	struct record rec = {.opts = opts, .go_fd = -1, .exec_fd = -1, .child = -1};
	struct sigaction sa = {.sa_handler = record__sig};
	int err;

	if (opts->mmap_pages & (opts->mmap_pages - 1) || !opts->mmap_pages) {
		pr_err("-m %u: the ring size must be a power of two pages\n", opts->mmap_pages);
		return -EINVAL;
	}
	/* as perf record --kcore: the option asks for the copy, so no copy, no recording */
	if (opts->kcore_required && access("/proc/kcore", R_OK)) {
		pr_err("--kcore: /proc/kcore is not readable: %s\n", strerror(errno));
		return -ENOENT;
	}
	/* as perf record: no command and no target means the whole system until Ctrl-C */
	if (!opts->cpu_list && !opts->pid_list && !opts->argc)
		opts->system_wide = true;
	record__cap_freq(opts);
	record_done = 0;
	record_child_exited = 0;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGCHLD, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	/*
	 * Past a file-size limit (ulimit -f) the kernel sends SIGXFSZ, which
	 * kills us with the temporary output left behind; ignored, the write
	 * fails with EFBIG and we clean up and say so.
	 */
	signal(SIGXFSZ, SIG_IGN);

	record_hits__init(&rec.hits);
	err = parse_cpu_list(opts->cpu_list, &rec.cpus);
	if (err < 0)
		goto out;
	rec.nr_cpus = err;
	rec.rings = calloc(rec.nr_cpus, sizeof(*rec.rings));
	rec.tids = malloc(sizeof(pid_t));
	err = -ENOMEM;
	if (!rec.rings || !rec.tids)
		goto out;
	rec.task_mode = !opts->system_wide && !opts->cpu_list;
	err = 0;
	if (opts->argc)
		err = record__fork_workload(&rec);
	if (!err && rec.task_mode && !opts->argc) {
		char *copy = strdup(opts->pid_list), *tok, *save;

		err = copy ? 0 : -ENOMEM;
		for (tok = copy ? strtok_r(copy, ",", &save) : NULL; tok && !err;
		     tok = strtok_r(NULL, ",", &save))
			err = add_tids_of(&rec, atoi(tok));
		free(copy);
	} else if (!err && !rec.task_mode) {
		/* system-wide; a workload only says for how long */
		rec.tids[0] = -1;
		rec.nr_tids = 1;
	}
	if (err)
		goto out;
	rec.lost_format = record_lost__format_supported() ? PERF_FORMAT_LOST : 0;
	err = record__setup_evsels(&rec);
	if (!err)
		err = record__open(&rec);
	if (!err && opts->call_graph != CALL_GRAPH_NONE)
		rec.callchain_off = SAMPLE_OFF_TIME + 8 + (opts->sample_addr ? 8 : 0) + 16;
	if (err)
		goto out;
	if (opts->bpf_capture) {
		rec.bpf = bpf_capture__new(NULL, 0);
		if (!rec.bpf && !record__user_only(&rec))
			pr_warning("no BPF JIT capture: %s (needs root)\n", strerror(errno));
	}
	record__check_kallsyms(&rec);
	err = record__writer_open(&rec);
	if (err)
		goto out_discard;
	err = record__write_features(&rec);
	if (!err)
		err = record__synthesize(&rec);
	if (err)
		goto out_abort;
	if (perf_writer__dir_path(rec.w)) {
		err = kcore_dir__write(perf_writer__dir_path(rec.w), opts->quiet);
		if (err) {
			pr_err("%s: cannot write kcore_dir: %s\n", opts->output, strerror(-err));
			goto out_discard;
		}
	}
	if (!rec.task_mode || rec.child <= 0) {
		err = record__enable(&rec);
		if (err)
			goto out_abort;
	}
	if (rec.child > 0) {
		err = record__start_workload(&rec);
		if (err)
			goto out_discard;
	}
	pr_debug("recording: events enabled\n");
	err = record__loop(&rec);
	if (err)
		goto out_abort;
	if (rec.bpf) {
		bpf_capture__stop(rec.bpf);
		err = bpf_capture__write(rec.bpf, rec.w);
		/* a pipe's HEADER_FEATURE record holds 64 KiB at most */
		if (err == -E2BIG) {
			if (!opts->quiet)
				pr_warning(
				    "pipe mode: a captured BPF JIT image does not fit a 64 KiB "
				    "HEADER_FEATURE record: none written (record to a file)\n");
		} else if (err) {
			goto out_abort;
		}
	}
	if (perf_writer__dir_path(rec.w)) {
		err = record__trim_kallsyms(&rec);
		if (err)
			goto out_abort;
	}
	record_features__write_end(rec.w, &rec.hits, rec.first_time, rec.last_time);
	err = perf_writer__zstd_bytes(rec.w, &rec.zbytes_in, &rec.zbytes_out);
	if (err)
		goto out_abort;
	record__count(&rec);
	err = perf_writer__close(rec.w);
	rec.w = NULL;
	if (err)
		pr_err("%s: %s\n", opts->output, strerror(-err));
	else
		record__report(&rec);
	goto out;
out_abort:
	if (perf_writer__error(rec.w))
		pr_err("%s: %s\n", opts->output, strerror(-perf_writer__error(rec.w)));
	else if (err && err != -EINTR)
		pr_err("recording failed: %s\n", strerror(-err));
out_discard:
	perf_writer__abort(rec.w);
	rec.w = NULL;
out:
	record__exit(&rec);
	return err;
}
