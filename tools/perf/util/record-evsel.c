// SPDX-License-Identifier: GPL-2.0-only
/*
 * The events a recording opens: the -e events and the side-band dummies
 * as attrs (one fixed sample layout), then open on every (cpu, tid) with
 * perf record's fallbacks (precise_ip, cpu-clock without a PMU, user
 * space only when the kernel is not ours to see), enable and disable.
 * Apart from record.c because it is the one part that talks to
 * perf_event_open() and its many ways of saying no.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "debug.h"
#include "event.h"
#include "perf-event-open.h"
#include "record-internal.h"

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
	/* -D and --control start disabled: the events wait for the delay or a command */
	attr->enable_on_exec = rec->workload_target && !o->delay_ms;
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
	attr->sample_max_stack = o->max_stack;
	if (o->call_graph == CALL_GRAPH_LBR && !o->branch_filter && !attr->exclude_user) {
		/* perf's LBR call stack: user branches only, no cycles or flags */
		attr->sample_type |= PERF_SAMPLE_BRANCH_STACK;
		attr->branch_sample_type = PERF_SAMPLE_BRANCH_USER | PERF_SAMPLE_BRANCH_CALL_STACK |
					   PERF_SAMPLE_BRANCH_NO_CYCLES |
					   PERF_SAMPLE_BRANCH_NO_FLAGS |
					   PERF_SAMPLE_BRANCH_HW_INDEX;
	}
	if (o->sample_weight)
		attr->sample_type |= PERF_SAMPLE_WEIGHT_STRUCT;
	if (o->sample_phys)
		attr->sample_type |= PERF_SAMPLE_PHYS_ADDR;
	if (o->all_cgroups)
		attr->sample_type |= PERF_SAMPLE_CGROUP;
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
	err = record_event__init_symbol(&e->ev, "dummy");
	if (err)
		return err;
	/* the side-band sees guests too, as before: only -e events start host-only */
	e->ev.attr.exclude_guest = 0;
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

/*
 * The terms of an event (period=, freq=, inherit=, call-graph=) win
 * over the command line's options, and S asks each sample for the
 * counter (its group's with a group): perf's evsel__config order.
 */
static void record__config_terms(struct record *rec, struct record_evsel *e, u64 period, u64 freq)
{
	struct perf_event_attr *attr = &e->ev.attr;
	struct record_event *ev = &e->ev;

	if (ev->tp_by_config) {
		/* tracepoint/config=N/ is a PMU event to perf: no raw data, the usual period */
		attr->sample_type &= ~PERF_SAMPLE_RAW;
		attr->sample_period = rec->opts->period;
		attr->freq = !rec->opts->period;
		if (attr->freq)
			attr->sample_freq = rec->opts->freq;
	}
	if (ev->has_period) {
		attr->sample_period = period;
		attr->freq = 0;
	} else if (ev->has_freq) {
		attr->sample_freq = freq;
		attr->freq = 1;
	}
	if (ev->inherit >= 0)
		attr->inherit = rec->task_mode && ev->inherit;
	if (ev->call_graph >= 0) {
		attr->sample_type &=
		    ~(PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER);
		attr->exclude_callchain_user = 0;
		attr->sample_stack_user = 0;
		if (ev->call_graph != RECORD_EV_CG_NONE)
			attr->sample_type |= PERF_SAMPLE_CALLCHAIN;
		if (ev->call_graph == RECORD_EV_CG_DWARF) {
			/* as perf's --call-graph dwarf: data addresses and their mappings too */
			attr->sample_type |= PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER |
					     PERF_SAMPLE_ADDR | PERF_SAMPLE_DATA_SRC;
			attr->sample_regs_user |= REGS_MASK_DEFAULT;
			attr->sample_stack_user = ev->stack_size ? ev->stack_size : 8192;
			attr->exclude_callchain_user = 1;
		}
	}
	if (ev->sample_read)
		attr->sample_type |= PERF_SAMPLE_READ;
	if (e->group == RECORD_GROUP_NONE || !rec->evsels[e->leader].ev.sample_read)
		return;
	/* a sampled group: the leader samples, and each sample reads the whole group */
	attr->read_format |= PERF_FORMAT_GROUP;
	attr->inherit = 0;
	if (e->group == RECORD_GROUP_MEMBER) {
		attr->freq = 0;
		attr->sample_period = 0;
	}
}

/* record_events__parse()'s callback: one event of an -e argument, ours now */
static int record__add_event(void *ctx, struct record_event *ev, enum record_group_pos pos)
{
	struct record *rec = ctx;
	struct record_evsel *e;
	u64 period = ev->attr.sample_period, freq = ev->attr.sample_freq;
	int err = record__add_evsel(rec, &e);

	if (err) {
		record_event__exit(ev);
		return err;
	}
	e->ev = *ev;
	e->group = pos;
	e->leader = rec->nr_evsels - 1;
	if (pos == RECORD_GROUP_MEMBER) {
		while (rec->evsels[e->leader].group != RECORD_GROUP_LEADER)
			e->leader--;
	}
	record__config_sample(rec, &e->ev.attr);
	record__config_terms(rec, e, period, freq);
	/* as perf: the leader enables its group, members follow it */
	if (pos == RECORD_GROUP_MEMBER) {
		e->ev.attr.disabled = 0;
		e->ev.attr.enable_on_exec = 0;
	}
	return 0;
}

/*
 * --filter: for the tracepoints of the -e before it, a glob's every
 * match, as perf.  On anything else perf would try an address filter,
 * which no PMU of ours has: perf's words for that.
 */
static int record__add_filter(struct record *rec, int first, const char *filter)
{
	bool any = false;

	for (int i = first; i < rec->nr_evsels; i++) {
		struct record_event *ev = &rec->evsels[i].ev;

		if (ev->attr.type != PERF_TYPE_TRACEPOINT)
			continue;
		free(ev->filter);
		ev->filter = strdup(filter);
		if (!ev->filter)
			return -ENOMEM;
		any = true;
	}
	if (!any) {
		pr_err("This CPU does not support address filtering\n");
		return -EINVAL;
	}
	return 0;
}

/* the kernel checks a filter when it is set: perf's words for a refusal */
static int record__set_filter(const struct record_evsel *e)
{
	for (int f = 0; e->ev.filter && f < e->nr_fds; f++) {
		if (ioctl(e->fds[f], PERF_EVENT_IOC_SET_FILTER, e->ev.filter)) {
			int err = -errno;

			pr_err("failed to set filter \"%s\" on event %s with %d (%s)\n",
			       e->ev.filter, e->ev.name, -err, strerror(-err));
			return err;
		}
	}
	return 0;
}

int record__setup_evsels(struct record *rec)
{
	struct record_opts *o = rec->opts;
	static const char *const default_event[] = {"cycles"};
	const char *const *names = o->nr_events ? (const char *const *)o->events : default_event;
	int nr = o->nr_events ? o->nr_events : 1;
	struct record_evsel *e;
	int err;

	for (int i = 0; i < nr; i++) {
		int first = rec->nr_evsels;

		err = record_events__parse(names[i], record__add_event, rec);
		if (!err && o->nr_events && o->filters[i])
			err = record__add_filter(rec, first, o->filters[i]);
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
	e->ev.attr.namespaces = o->namespaces;
	e->ev.attr.cgroup = o->all_cgroups;
	e->ev.attr.sample_max_stack = 0;
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
	for (int i = 0; i < rec->nr_evsels; i++) {
		if (rec->evsels[i].ev.call_graph == RECORD_EV_CG_DWARF)
			e->ev.attr.mmap_data = 1;
	}
	/*
	 * --per-thread has no per-CPU ring for a system-wide side-band:
	 * the tasks' own carries what the kernel does while they run
	 */
	if (!rec->task_mode || o->per_thread) {
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

void record__close_evsel(struct record_evsel *e)
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
			struct perf_ring *ring = &rec->rings[rec->opts->per_thread ? t : c];
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
				if (err == -ESRCH && rec->nr_tids > 1 && !rec->workload_target)
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

/*
 * cycles becomes cpu-clock with the same modifiers and terms, renamed as
 * perf renames it: the clock's name and the modifiers its attr shows,
 * where H says the guest is excluded though no u, k, h or p implied it.
 */
static int record__fallback_cpu_clock(struct record_evsel *e)
{
	struct perf_event_attr *a = &e->ev.attr;
	bool guest_default = false;
	char name[32] = "cpu-clock", *p = name + strlen(name), *colon = NULL;

#define MOD(cond, c)                                  \
	do {                                          \
		if (cond) {                           \
			if (!colon)                   \
				*(colon = p++) = ':'; \
			*p++ = (c);                   \
		}                                     \
	} while (0)
	if (a->exclude_kernel || a->exclude_user || a->exclude_hv) {
		MOD(!a->exclude_kernel, 'k');
		MOD(!a->exclude_user, 'u');
		MOD(!a->exclude_hv, 'h');
		guest_default = true;
	}
	for (unsigned int i = 0; i < a->precise_ip; i++)
		MOD(true, 'p');
	if (a->precise_ip)
		guest_default = true;
	if (a->exclude_host || a->exclude_guest == guest_default) {
		MOD(!a->exclude_host, 'H');
		MOD(!a->exclude_guest, 'G');
	}
#undef MOD
	*p = '\0';
	a->type = PERF_TYPE_SOFTWARE;
	a->config = PERF_COUNT_SW_CPU_CLOCK;
	free(e->ev.name);
	e->ev.name = strdup(name);
	return e->ev.name ? 0 : -ENOMEM;
}

/* no event looks at the kernel (cpu-clock:u): what only the kernel gives is not missed */
bool record__user_only(const struct record *rec)
{
	for (int i = 0; i < rec->nr_evsels; i++) {
		if (!rec->evsels[i].sideband && !rec->evsels[i].ev.attr.exclude_kernel)
			return false;
	}
	return true;
}

int record__open(struct record *rec)
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
			if (err && !e->sideband && e->ev.attr.type == PERF_TYPE_HARDWARE &&
			    e->ev.attr.config == PERF_COUNT_HW_CPU_CYCLES &&
			    (err == -ENOENT || err == -EOPNOTSUPP || err == -ENODEV)) {
				/* no PMU (a VM): sample the clock, as perf does */
				record__close_evsel(e);
				err = record__fallback_cpu_clock(e);
				if (err)
					return err;
				/* perf's words, so that its users find what they grep for */
				pr_debug("The cycles event is not supported, trying to fall back "
					 "to cpu-clock-ticks\n");
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
				record_event__open_error(&e->ev, err, rec->task_mode, msg,
							 sizeof(msg));
				pr_err("%s\n", msg);
				return err;
			}
			err = record__set_filter(e);
			if (err)
				return err;
		}
	}
	return 0;
}

int record__enable(struct record *rec)
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

int record__toggle(struct record *rec, const char *name, bool on)
{
	int n = 0;

	for (int i = 0; i < rec->nr_evsels; i++) {
		struct record_evsel *e = &rec->evsels[i];

		if (e->sideband || (name && strcmp(name, e->ev.name)))
			continue;
		for (int f = 0; f < e->nr_fds; f++)
			ioctl(e->fds[f], on ? PERF_EVENT_IOC_ENABLE : PERF_EVENT_IOC_DISABLE, 0);
		n++;
	}
	return n;
}

void record__disable(struct record *rec)
{
	for (int i = 0; i < rec->nr_evsels; i++) {
		struct record_evsel *e = &rec->evsels[i];

		for (int f = 0; f < e->nr_fds; f++)
			ioctl(e->fds[f], PERF_EVENT_IOC_DISABLE, 0);
	}
}
