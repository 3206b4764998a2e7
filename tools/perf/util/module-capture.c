// SPDX-License-Identifier: GPL-2.0-only
/*
 * The recorder's module reader (module-capture.h): the module:
 * tracepoints on rings of their own, a thread per CPU that takes each
 * module the moment it loads, and what they took written into kcore_dir.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "capture-thread.h"
#include "debug.h"
#include "event.h"
#include "kallsyms.h"
#include "module-capture.h"
#include "module-read.h"
#include "perf-event-open.h"
#include "tracefs.h"

#define MODULE_CAPTURE_PAGES 16

enum mc_tp {
	MC_LOAD,
	MC_PUT,
	MC_FREE,
	MC__NR,
};

static const char *const mc_tp_names[MC__NR] = {"module_load", "module_put", "module_free"};

/* where a tracepoint's fields sit in its raw data, from its format file */
struct mc_tp_format {
	u16 id;
	int name_off; /* the __data_loc of the module's name */
	int ip_off;   /* module_put's call site, -1 for the others */
};

/* a put or a free, kept until the end pairs it with its load */
struct mc_event {
	enum mc_tp kind;
	char name[MODULE_NAME_MAX];
	u64 time;
	u64 ip;
};

struct mc_thread {
	struct module_capture *cap;
	struct perf_ring *ring;
	pthread_t thread;
	bool started;
	/* a COMM record of this thread, on perf's clock, marks the time of a read */
	struct perf_ring marker;
	bool has_marker;
	char comm[16];
	u64 mark_time;
	bool marked;
	/* loads whose kallsyms lines are still to read */
	struct module_code **pending;
	size_t nr_pending, alloc_pending;
};

struct module_capture {
	char *sys, *proc;
	bool use_clockid;
	int clockid;
	struct mc_tp_format tp[MC__NR];
	int nr_rings;
	struct perf_ring *rings;
	int *fds; /* MC__NR per ring, the load's first (it owns the ring) */
	int nr_fds;
	struct mc_thread *threads;
	int stop_fd;
	bool running;
	bool kcore_readable;
	u64 init_lo, init_hi; /* do_init_module, 0 0 unknown */

	pthread_mutex_t lock; /* everything below */
	pthread_cond_t ready_cond;
	int nr_ready;
	struct module_code **codes; /* one per load, in the order seen */
	size_t nr_codes, alloc_codes;
	unsigned int next_seq;
	struct mc_event *events;
	size_t nr_events, alloc_events;
	struct module_capture_stats stats;
};

/* the "offset:N;" of the field line of @format holding @decl */
static int format__offset(const char *format, const char *decl)
{
	const char *p = strstr(format, decl), *off;
	int v;

	if (!p)
		return -1;
	off = strstr(p, "offset:");
	if (!off || sscanf(off, "offset:%d;", &v) != 1 || v < 0)
		return -1;
	return v;
}

static int mc_tp_format__read(struct mc_tp_format *f, const char *name)
{
	char path[4096], buf[4096];
	unsigned int id;
	ssize_t n;
	FILE *fp;
	int fd;

	snprintf(path, sizeof(path), "%s/events/module/%s/id", tracefs__path(), name);
	fp = fopen(path, "r");
	if (!fp)
		return -errno;
	n = fscanf(fp, "%u", &id) == 1 && id <= 0xffff;
	fclose(fp);
	if (!n)
		return -EINVAL;
	f->id = id;
	snprintf(path, sizeof(path), "%s/events/module/%s/format", tracefs__path(), name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -EINVAL;
	buf[n] = '\0';
	f->name_off = format__offset(buf, "char[] name;");
	f->ip_off = format__offset(buf, "unsigned long ip;");
	if (f->name_off < 0 || (!strcmp(name, "module_put") && f->ip_off < 0))
		return -EINVAL;
	return 0;
}

/* the module name a tracepoint's raw data holds, into @name; false if none */
static bool raw__name(const u8 *raw, u32 size, int off, char *name)
{
	u32 loc, at, len;

	if ((u64)off + 4 > size)
		return false;
	memcpy(&loc, raw + off, 4);
	at = loc & 0xffff;
	len = loc >> 16;
	if (!len || (u64)at + len > size || len > MODULE_NAME_MAX)
		return false;
	memcpy(name, raw + at, len);
	name[len - 1] = '\0';
	return name[0] != '\0';
}

static int mc__add_event(struct module_capture *cap, const struct mc_event *ev)
{
	int err = 0;

	pthread_mutex_lock(&cap->lock);
	if (cap->nr_events == cap->alloc_events) {
		size_t n = cap->alloc_events ? 2 * cap->alloc_events : 64;
		struct mc_event *tmp = realloc(cap->events, n * sizeof(*tmp));

		if (!tmp) {
			err = -ENOMEM;
			goto out_unlock;
		}
		cap->events = tmp;
		cap->alloc_events = n;
	}
	cap->events[cap->nr_events++] = *ev;
	if (ev->kind == MC_FREE)
		cap->stats.frees++;
out_unlock:
	pthread_mutex_unlock(&cap->lock);
	return err;
}

static int mc_thread__marker_event(void *ctx, struct perf_ring *ring __maybe_unused,
				   const union perf_event *ev)
{
	struct mc_thread *th = ctx;

	/* sample_id_all with TIME alone: the time is the record's last u64 */
	if (ev->header.type == PERF_RECORD_COMM && ev->header.size >= 16) {
		memcpy(&th->mark_time, (const u8 *)ev + ev->header.size - 8, 8);
		th->marked = true;
	}
	return 0;
}

/*
 * Now, on perf's clock: the time of the COMM record that renaming this
 * thread (to its own name) makes.  0 or -ENODATA.
 */
static int mc_thread__mark(struct mc_thread *th, u64 *time)
{
	if (!th->has_marker)
		return -ENODATA;
	th->marked = false;
	if (prctl(PR_SET_NAME, th->comm) < 0)
		return -errno;
	perf_ring__drain(&th->marker, mc_thread__marker_event, th);
	if (!th->marked)
		return -ENODATA;
	*time = th->mark_time;
	return 0;
}

static void mc_thread__open_marker(struct mc_thread *th)
{
	struct module_capture *cap = th->cap;
	struct perf_event_attr attr;
	int fd;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_SOFTWARE;
	attr.config = PERF_COUNT_SW_DUMMY;
	attr.comm = 1;
	attr.sample_id_all = 1;
	attr.sample_type = PERF_SAMPLE_TIME;
	attr.use_clockid = cap->use_clockid;
	attr.clockid = cap->use_clockid ? cap->clockid : 0;
	if (prctl(PR_GET_NAME, th->comm) < 0)
		return;
	/* this thread alone, wherever it runs */
	fd = sys_perf_event_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0)
		return;
	if (perf_ring__mmap(&th->marker, fd, -1, 1)) {
		close(fd);
		return;
	}
	th->has_marker = true;
}

static int mc_thread__pend(struct mc_thread *th, struct module_code *mc)
{
	if (th->nr_pending == th->alloc_pending) {
		size_t n = th->alloc_pending ? 2 * th->alloc_pending : 8;
		struct module_code **tmp = realloc(th->pending, n * sizeof(*tmp));

		if (!tmp)
			return -ENOMEM;
		th->pending = tmp;
		th->alloc_pending = n;
	}
	th->pending[th->nr_pending++] = mc;
	return 0;
}

/* a load: where the module is and its code, now; its symbols come after */
static int mc_thread__load(struct mc_thread *th, const char *name, u64 time)
{
	struct module_capture *cap = th->cap;
	struct module_code *mc = calloc(1, sizeof(*mc));
	u64 from, to;
	int err = -ENOMEM;

	if (!mc)
		return err;
	snprintf(mc->ml.name, sizeof(mc->ml.name), "%s", name);
	mc->ml.time = time;
	mc->ml.read_from = mc->ml.read_to = mc->ml.init_end = mc->ml.free_time = MODULE_TIME_NONE;
	pthread_mutex_lock(&cap->lock);
	if (cap->nr_codes == cap->alloc_codes) {
		size_t n = cap->alloc_codes ? 2 * cap->alloc_codes : 16;
		struct module_code **tmp = realloc(cap->codes, n * sizeof(*tmp));

		if (!tmp) {
			pthread_mutex_unlock(&cap->lock);
			free(mc);
			return err;
		}
		cap->codes = tmp;
		cap->alloc_codes = n;
	}
	mc->ml.seq = ++cap->next_seq;
	cap->codes[cap->nr_codes++] = mc;
	cap->stats.loads++;
	pthread_mutex_unlock(&cap->lock);

	err = module_read__layout(mc, cap->sys);
	if (err) {
		pr_debug("module %s: no layout: %s\n", name, strerror(-err));
		pthread_mutex_lock(&cap->lock);
		cap->stats.gone++;
		pthread_mutex_unlock(&cap->lock);
		return 0;
	}
	if (cap->kcore_readable && !mc_thread__mark(th, &from)) {
		err = module_read__code(mc, cap->proc);
		/* bytes whose time is unknown cannot be judged: none kept */
		if (!err && mc_thread__mark(th, &to))
			err = -ENODATA;
		if (!err) {
			mc->ml.read_from = from;
			mc->ml.read_to = to;
			pthread_mutex_lock(&cap->lock);
			cap->stats.captured++;
			pthread_mutex_unlock(&cap->lock);
		} else {
			pr_debug("module %s: code not read: %s\n", name, strerror(-err));
			pthread_mutex_lock(&cap->lock);
			cap->stats.unread++;
			pthread_mutex_unlock(&cap->lock);
			zfree(&mc->text);
			zfree(&mc->init_text);
		}
	}
	return mc_thread__pend(th, mc);
}

static int mc_thread__event(void *ctx, struct perf_ring *ring __maybe_unused,
			    const union perf_event *ev)
{
	struct mc_thread *th = ctx;
	struct module_capture *cap = th->cap;
	const u8 *p = (const u8 *)ev;
	struct mc_event e = {0};
	u32 size;
	u16 type;

	/* TIME, then RAW: u64 time, u32 size, the tracepoint's data */
	if (ev->header.type != PERF_RECORD_SAMPLE || ev->header.size < 8 + 8 + 4 + 2)
		return 0;
	memcpy(&e.time, p + 8, 8);
	memcpy(&size, p + 16, 4);
	if (size > ev->header.size - 20u)
		return 0;
	p += 20;
	memcpy(&type, p, 2);
	for (e.kind = 0; e.kind < MC__NR && cap->tp[e.kind].id != type; e.kind++)
		;
	if (e.kind == MC__NR || !raw__name(p, size, cap->tp[e.kind].name_off, e.name))
		return 0;
	if (e.kind == MC_LOAD)
		return mc_thread__load(th, e.name, e.time) == -ENOMEM ? -ENOMEM : 0;
	if (e.kind == MC_PUT) {
		if ((u64)cap->tp[MC_PUT].ip_off + 8 > size)
			return 0;
		memcpy(&e.ip, p + cap->tp[MC_PUT].ip_off, 8);
	}
	return mc__add_event(cap, &e);
}

/* whether a load waits in the thread's ring (its wakeup makes the ring readable) */
static bool mc_thread__load_waits(void *arg)
{
	struct mc_thread *th = arg;
	struct pollfd pfd = {.fd = th->ring->fd, .events = POLLIN};

	return poll(&pfd, 1, 0) > 0;
}

/*
 * The kallsyms lines of the loads read so far, in one read of the table
 * for all of them (it takes long), at normal priority: the code is
 * already in hand.  A load that comes meanwhile comes first (@final: none
 * will): the read stops, and starts again after that load's code is
 * read.  Returns whether it stopped so.
 */
static bool mc_thread__kallsyms(struct mc_thread *th, bool final)
{
	int err;

	if (!th->nr_pending)
		return false;
	capture__set_fifo(false);
	err = module_read__kallsyms(th->pending, th->nr_pending, th->cap->proc,
				    final ? NULL : mc_thread__load_waits, th);
	capture__set_fifo(true);
	if (err == -EINTR)
		return true;
	if (err)
		pr_debug("modules: no kallsyms lines: %s\n", strerror(-err));
	for (size_t i = 0; i < th->nr_pending; i++) {
		if (!th->pending[i]->kallsyms)
			pr_debug("module %s: no kallsyms lines: gone\n", th->pending[i]->ml.name);
	}
	th->nr_pending = 0;
	return false;
}

static void *mc_thread__run(void *arg)
{
	struct mc_thread *th = arg;
	struct module_capture *cap = th->cap;
	struct pollfd pfd[2] = {
	    {.fd = th->ring->fd, .events = POLLIN},
	    {.fd = cap->stop_fd, .events = POLLIN},
	};

	capture__pin(th->ring->cpu);
	capture__set_fifo(true);
	mc_thread__open_marker(th);
	pthread_mutex_lock(&cap->lock);
	cap->nr_ready++;
	pthread_cond_signal(&cap->ready_cond);
	pthread_mutex_unlock(&cap->lock);
	for (bool again = false;;) {
		/*
		 * A kallsyms read stopped for a load: its poll took the
		 * ring's wakeup, so another would sleep past that load.
		 */
		if (!again && poll(pfd, 2, -1) < 0 && errno != EINTR)
			break;
		perf_ring__drain(th->ring, mc_thread__event, th);
		again = mc_thread__kallsyms(th, false);
		if (pfd[1].revents)
			break;
	}
	perf_ring__drain(th->ring, mc_thread__event, th);
	mc_thread__kallsyms(th, true);
	return NULL;
}

/* one module: tracepoint on @cpu, on the recording's clock */
static int module_capture__open_tp(struct module_capture *cap, enum mc_tp k, int cpu)
{
	struct perf_event_attr attr;
	int fd;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_TRACEPOINT;
	attr.config = cap->tp[k].id;
	attr.sample_period = 1;
	attr.sample_type = PERF_SAMPLE_TIME | PERF_SAMPLE_RAW;
	/* every load wakes its reader; puts and frees wait for it */
	attr.wakeup_events = k == MC_LOAD;
	/* the kernel lets events share a ring only on one clock */
	attr.use_clockid = cap->use_clockid;
	attr.clockid = cap->use_clockid ? cap->clockid : 0;
	fd = sys_perf_event_open(&attr, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

/*
 * The three tracepoints of @cpu, the load's owning the ring: mapped
 * before the others are pointed at it, as the kernel refuses
 * (EINVAL) output into an event that has no ring yet.  0 or -errno.
 */
static int module_capture__open_cpu(struct module_capture *cap, int cpu)
{
	int *fds = &cap->fds[cap->nr_rings * MC__NR], err;
	int k;

	for (k = 0; k < MC__NR; k++)
		fds[k] = -1;
	fds[MC_LOAD] = module_capture__open_tp(cap, MC_LOAD, cpu);
	if (fds[MC_LOAD] < 0)
		return fds[MC_LOAD];
	err = perf_ring__mmap(&cap->rings[cap->nr_rings], fds[MC_LOAD], cpu, MODULE_CAPTURE_PAGES);
	if (err) {
		close(fds[MC_LOAD]);
		return err;
	}
	for (k = 0; k < MC__NR; k++) {
		if (k == MC_LOAD)
			continue;
		fds[k] = module_capture__open_tp(cap, k, cpu);
		if (fds[k] < 0) {
			err = fds[k];
			goto out_close;
		}
		if (ioctl(fds[k], PERF_EVENT_IOC_SET_OUTPUT, fds[MC_LOAD]) < 0) {
			err = -errno;
			goto out_close;
		}
	}
	cap->nr_rings++;
	cap->nr_fds += MC__NR;
	return 0;
out_close:
	perf_ring__munmap(&cap->rings[cap->nr_rings]);
	for (k = 0; k < MC__NR; k++) {
		if (fds[k] >= 0)
			close(fds[k]);
	}
	return err;
}

struct module_capture *module_capture__new(const int *cpus, int nr_cpus,
					   const struct module_capture_opts *opts)
{
	struct module_capture *cap = calloc(1, sizeof(*cap));
	char path[4096];
	int *own = NULL, err = -ENOMEM;

	if (!cap)
		goto out_err;
	pthread_mutex_init(&cap->lock, NULL);
	pthread_cond_init(&cap->ready_cond, NULL);
	cap->stop_fd = -1;
	cap->sys = strdup(opts && opts->sys ? opts->sys : "/sys");
	cap->proc = strdup(opts && opts->proc ? opts->proc : "/proc");
	if (!cap->sys || !cap->proc)
		goto out_delete;
	cap->use_clockid = opts && opts->use_clockid;
	cap->clockid = opts ? opts->clockid : 0;
	snprintf(path, sizeof(path), "%s/kcore", cap->proc);
	cap->kcore_readable = !access(path, R_OK);
	if (tracefs__error()) {
		err = tracefs__error();
		goto out_delete;
	}
	for (int k = 0; k < MC__NR; k++) {
		err = mc_tp_format__read(&cap->tp[k], mc_tp_names[k]);
		if (err) {
			pr_debug("module:%s: format not read: %s\n", mc_tp_names[k],
				 strerror(-err));
			goto out_delete;
		}
	}
	err = -ENOMEM;
	if (!cpus) {
		nr_cpus = capture__online_cpus(&own);
		if (nr_cpus < 0)
			goto out_delete;
		cpus = own;
	}
	cap->rings = calloc(nr_cpus, sizeof(*cap->rings));
	cap->threads = calloc(nr_cpus, sizeof(*cap->threads));
	cap->fds = malloc(nr_cpus * MC__NR * sizeof(*cap->fds));
	if (!cap->rings || !cap->threads || !cap->fds)
		goto out_delete;
	for (int i = 0; i < nr_cpus; i++) {
		err = module_capture__open_cpu(cap, cpus[i]);
		if (err) {
			pr_debug("module tracepoints on cpu %d: %s\n", cpus[i], strerror(-err));
			goto out_delete;
		}
	}
	cap->stop_fd = eventfd(0, EFD_CLOEXEC);
	if (cap->stop_fd < 0) {
		err = -errno;
		goto out_delete;
	}
	cap->running = true;
	for (int i = 0; i < cap->nr_rings; i++) {
		struct mc_thread *th = &cap->threads[i];

		th->cap = cap;
		th->ring = &cap->rings[i];
		err = -pthread_create(&th->thread, NULL, mc_thread__run, th);
		if (err)
			goto out_delete;
		th->started = true;
	}
	/* a module loaded before its reader is pinned and real-time could be missed */
	pthread_mutex_lock(&cap->lock);
	while (cap->nr_ready < cap->nr_rings)
		pthread_cond_wait(&cap->ready_cond, &cap->lock);
	pthread_mutex_unlock(&cap->lock);
	free(own);
	return cap;
out_delete:
	free(own);
	module_capture__delete(cap);
out_err:
	errno = -err;
	return NULL;
}

void module_capture__set_init_caller(struct module_capture *cap, u64 start, u64 end)
{
	char filter[128];

	if (!cap || start >= end)
		return;
	cap->init_lo = start;
	cap->init_hi = end;
	/* only the put that matters reaches the rings; failing that, all of them do */
	snprintf(filter, sizeof(filter), "ip >= %#" PRIx64 " && ip < %#" PRIx64, start, end);
	for (int i = 0; i < cap->nr_rings; i++) {
		if (ioctl(cap->fds[i * MC__NR + MC_PUT], PERF_EVENT_IOC_SET_FILTER, filter) < 0)
			pr_debug("module_put: filter '%s' refused: %s\n", filter, strerror(errno));
	}
}

struct init_caller {
	u64 start, end;
	bool found;
};

static int init_caller__add(void *arg, const char *name, char type, u64 start, const char *module)
{
	struct init_caller *ic = arg;

	if (module || !start || !kallsyms__type_is_symbol(type))
		return 0;
	if (!ic->found && !strcmp(name, "do_init_module")) {
		ic->start = start;
		ic->found = true;
	}
	/* the lowest address above it ends it (the table need not be sorted) */
	if (start > ic->start && (!ic->end || start < ic->end))
		ic->end = start;
	return 0;
}

int module_capture__find_init_caller(const char *path, u64 *start, u64 *end)
{
	struct init_caller ic = {0};
	int err;

	/* two passes: the end is the next symbol after the start, wherever it is listed */
	err = kallsyms__parse(path, &ic, init_caller__add);
	if (err < 0)
		return err;
	if (!ic.found)
		return -ENOENT;
	ic.end = 0;
	err = kallsyms__parse(path, &ic, init_caller__add);
	if (err < 0 || !ic.end)
		return err < 0 ? err : -ENOENT;
	*start = ic.start;
	*end = ic.end;
	return 0;
}

void module_capture__stop(struct module_capture *cap)
{
	u64 one = 1;

	if (!cap || !cap->running)
		return;
	if (write(cap->stop_fd, &one, sizeof(one)) != sizeof(one))
		pr_debug("module capture: cannot wake the reader: %s\n", strerror(errno));
	for (int i = 0; i < cap->nr_rings; i++) {
		if (cap->threads[i].started)
			pthread_join(cap->threads[i].thread, NULL);
		cap->threads[i].started = false;
	}
	cap->running = false;
	for (int i = 0; i < cap->nr_rings; i++)
		cap->stats.lost += cap->rings[i].lost + cap->rings[i].lost_samples;
}

void module_capture__stats(struct module_capture *cap, struct module_capture_stats *st)
{
	pthread_mutex_lock(&cap->lock);
	*st = cap->stats;
	pthread_mutex_unlock(&cap->lock);
}

void module_capture__delete(struct module_capture *cap)
{
	if (!cap)
		return;
	module_capture__stop(cap);
	for (int i = 0; i < cap->nr_rings; i++)
		perf_ring__munmap(&cap->rings[i]);
	for (int i = 0; i < cap->nr_fds; i++)
		close(cap->fds[i]);
	for (int i = 0; cap->threads && i < cap->nr_rings; i++) {
		struct mc_thread *th = &cap->threads[i];

		if (th->has_marker) {
			perf_ring__munmap(&th->marker);
			close(th->marker.fd);
		}
		free(th->pending);
	}
	free(cap->rings);
	free(cap->threads);
	free(cap->fds);
	if (cap->stop_fd >= 0)
		close(cap->stop_fd);
	for (size_t i = 0; i < cap->nr_codes; i++) {
		module_code__exit(cap->codes[i]);
		free(cap->codes[i]);
	}
	free(cap->codes);
	free(cap->events);
	free(cap->sys);
	free(cap->proc);
	pthread_cond_destroy(&cap->ready_cond);
	pthread_mutex_destroy(&cap->lock);
	free(cap);
}

static int mc_event__cmp(const void *a, const void *b)
{
	const struct mc_event *x = a, *y = b;

	return x->time < y->time ? -1 : x->time > y->time;
}

/* the latest load of @name at or before @time that is still loaded; NULL if none */
static struct module_load *mc__load_of(struct module_capture *cap, const char *name, u64 time)
{
	struct module_load *best = NULL;

	for (size_t i = 0; i < cap->nr_codes; i++) {
		struct module_load *ml = &cap->codes[i]->ml;

		if (strcmp(ml->name, name) || ml->time > time || ml->free_time != MODULE_TIME_NONE)
			continue;
		if (!best || ml->time > best->time)
			best = ml;
	}
	return best;
}

/*
 * Each free ends the load of its module before it (or a module loaded
 * before the recording), each put from do_init_module the load's init:
 * in time order, as the rings of different CPUs hold them apart.
 */
static int module_capture__pair(struct module_capture *cap, struct module_events *me)
{
	/* no module came or went: events is NULL, which qsort() may not take */
	if (cap->nr_events)
		qsort(cap->events, cap->nr_events, sizeof(*cap->events), mc_event__cmp);
	for (size_t i = 0; i < cap->nr_events; i++) {
		const struct mc_event *e = &cap->events[i];
		struct module_load *ml = mc__load_of(cap, e->name, e->time);
		int err;

		if (e->kind == MC_FREE) {
			if (ml) {
				ml->free_time = e->time;
				continue;
			}
			err = module_events__add_free(me, e->name, e->time);
			if (err)
				return err;
			continue;
		}
		if (cap->init_hi && (e->ip < cap->init_lo || e->ip >= cap->init_hi))
			continue;
		if (ml && ml->init_end == MODULE_TIME_NONE)
			ml->init_end = e->time;
	}
	return 0;
}

/*
 * A reader that falls behind (a burst of loads while it read kallsyms)
 * reads the layout and code of whatever then bears the module's name: a
 * later load, or nothing.  What it read after the module's free, ranges
 * included, is not the module's: the load is kept with no ranges (its
 * time and free alone), and counted as gone before capture.
 */
static void module_capture__drop_late(struct module_capture *cap)
{
	for (size_t i = 0; i < cap->nr_codes; i++) {
		struct module_code *mc = cap->codes[i];
		struct module_load *ml = &mc->ml;

		if (ml->read_to == MODULE_TIME_NONE || ml->free_time == MODULE_TIME_NONE ||
		    ml->free_time > ml->read_from)
			continue;
		pr_debug("module %s loaded at %" PRIu64 ": read at %" PRIu64
			 ", after its free at %" PRIu64 ": not its own\n",
			 ml->name, ml->time, ml->read_from, ml->free_time);
		ml->core = ml->text = ml->init = ml->init_text = (struct module_range){0, 0};
		ml->read_from = ml->read_to = MODULE_TIME_NONE;
		module_code__exit(mc);
		cap->stats.captured--;
		cap->stats.gone++;
	}
}

int module_capture__write(struct module_capture *cap, const char *kcore_dir)
{
	struct module_events me;
	int err;

	module_capture__stop(cap);
	module_events__init(&me);
	err = module_capture__pair(cap, &me);
	if (!err)
		module_capture__drop_late(cap);
	for (size_t i = 0; !err && i < cap->nr_codes; i++) {
		struct module_code *mc = cap->codes[i];

		err = module_code__write(mc, kcore_dir);
		if (!err)
			err = module_events__add_load(&me, &mc->ml);
	}
	/*
	 * the index even when nothing loaded: it says that loads were
	 * watched, so a poke in module space that no map covers is a fault
	 * of the recording, not a module the recorder could not see
	 */
	if (!err)
		err = module_events__write(&me, kcore_dir);
	/* the loads are the captures' own: nothing of them to free here */
	me.nr_loads = 0;
	module_events__exit(&me);
	return err;
}
