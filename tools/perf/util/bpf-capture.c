// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "bpf-capture.h"
#include "capture-thread.h"
#include "debug.h"
#include "event.h"
#include "header.h"
#include "perf-event-open.h"
#include "writer.h"

/* perf's struct perf_bpil arrays bits, which stock perf reads back */
enum {
	BPIL_JITED_INSNS = 0,
	BPIL_JITED_KSYMS = 3,
	BPIL_JITED_FUNC_LENS = 4,
	BPIL_PROG_TAGS = 8,
};

#define BPF_CAPTURE_PAGES 16

struct bpf_capture {
	int nr_rings;
	struct perf_ring *rings;
	struct bpf_capture_thread *threads;
	int stop_fd;
	bool running;
	pthread_mutex_t lock;	   /* progs, nr_progs, stats */
	pthread_cond_t ready_cond; /* readers signal they are polling */
	int nr_ready;
	struct bpf_prog_capture **progs;
	size_t nr_progs, alloc_progs;
	/* id -> index + 1 into progs, open addressing, at most half full */
	u32 *slots;
	size_t nr_slots;
	struct bpf_capture_stats stats;
};

int sys_bpf(int cmd, union bpf_attr *attr, unsigned int size)
{
	return syscall(__NR_bpf, cmd, attr, size);
}

int bpf_prog__next_id(u32 id, u32 *next)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.start_id = id;
	if (sys_bpf(BPF_PROG_GET_NEXT_ID, &attr, sizeof(attr)))
		return -errno;
	*next = attr.next_id;
	return 0;
}

static int bpf_prog__get_fd(u32 id)
{
	union bpf_attr attr;
	int fd;

	memset(&attr, 0, sizeof(attr));
	attr.prog_id = id;
	fd = sys_bpf(BPF_PROG_GET_FD_BY_ID, &attr, sizeof(attr));
	return fd < 0 ? -errno : fd;
}

static int bpf_prog__info(int fd, struct bpf_prog_info *info)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.info.bpf_fd = fd;
	attr.info.info_len = sizeof(*info);
	attr.info.info = (u64)(unsigned long)info;
	return sys_bpf(BPF_OBJ_GET_INFO_BY_FD, &attr, sizeof(attr)) ? -errno : 0;
}

static void bpf_prog_capture__delete(struct bpf_prog_capture *p)
{
	if (!p)
		return;
	free(p->insns);
	free(p->ksyms);
	free(p->func_lens);
	free(p->tags);
	free(p);
}

/*
 * Two calls: the first tells the array sizes, the second fills them.  The
 * fd we hold keeps the program alive in between.
 */
static struct bpf_prog_capture *bpf_prog_capture__read(int fd, int *errp)
{
	struct bpf_prog_capture *p = calloc(1, sizeof(*p));
	struct bpf_prog_info sizes, info;
	int err = -ENOMEM;

	if (!p)
		goto out_err;
	memset(&sizes, 0, sizeof(sizes));
	err = bpf_prog__info(fd, &sizes);
	if (err)
		goto out_err;
	err = -ENOMEM;
	p->insns = calloc(1, sizes.jited_prog_len + 1);
	p->ksyms = calloc(sizes.nr_jited_ksyms + 1, sizeof(u64));
	p->func_lens = calloc(sizes.nr_jited_func_lens + 1, sizeof(u32));
	p->tags = calloc(sizes.nr_prog_tags + 1, BPF_TAG_SIZE);
	if (!p->insns || !p->ksyms || !p->func_lens || !p->tags)
		goto out_err;
	/* every array we do not want has a zero count, so no stray pointer is written */
	memset(&info, 0, sizeof(info));
	info.jited_prog_len = sizes.jited_prog_len;
	info.jited_prog_insns = (u64)(unsigned long)p->insns;
	info.nr_jited_ksyms = sizes.nr_jited_ksyms;
	info.jited_ksyms = (u64)(unsigned long)p->ksyms;
	info.nr_jited_func_lens = sizes.nr_jited_func_lens;
	info.jited_func_lens = (u64)(unsigned long)p->func_lens;
	info.nr_prog_tags = sizes.nr_prog_tags;
	info.prog_tags = (u64)(unsigned long)p->tags;
	err = bpf_prog__info(fd, &info);
	if (err)
		goto out_err;
	/* the program cannot change under our fd: the counts are those we gave */
	info.jited_prog_len =
	    sizes.jited_prog_len < info.jited_prog_len ? sizes.jited_prog_len : info.jited_prog_len;
	if (info.nr_jited_ksyms > sizes.nr_jited_ksyms)
		info.nr_jited_ksyms = sizes.nr_jited_ksyms;
	if (info.nr_jited_func_lens > sizes.nr_jited_func_lens)
		info.nr_jited_func_lens = sizes.nr_jited_func_lens;
	if (info.nr_prog_tags > sizes.nr_prog_tags)
		info.nr_prog_tags = sizes.nr_prog_tags;
	info.jited_prog_insns = 0;
	info.jited_ksyms = 0;
	info.jited_func_lens = 0;
	info.prog_tags = 0;
	p->info = info;
	p->id = info.id;
	return p;
out_err:
	bpf_prog_capture__delete(p);
	*errp = err;
	return NULL;
}

static size_t id_hash(u32 id, size_t nr_slots)
{
	return (id * 2654435761U) & (nr_slots - 1);
}

static struct bpf_prog_capture *bpf_capture__lookup(struct bpf_capture *cap, u32 id)
{
	if (!cap->nr_slots)
		return NULL;
	for (size_t i = id_hash(id, cap->nr_slots); cap->slots[i];
	     i = (i + 1) & (cap->nr_slots - 1)) {
		if (cap->progs[cap->slots[i] - 1]->id == id)
			return cap->progs[cap->slots[i] - 1];
	}
	return NULL;
}

/* append @p (an id not yet present); 0 or -ENOMEM.  Called locked. */
static int bpf_capture__insert(struct bpf_capture *cap, struct bpf_prog_capture *p)
{
	size_t i;

	if (cap->nr_progs == cap->alloc_progs) {
		size_t n = cap->alloc_progs ? cap->alloc_progs * 2 : 64;
		struct bpf_prog_capture **tmp = realloc(cap->progs, n * sizeof(*tmp));

		if (!tmp)
			return -ENOMEM;
		cap->progs = tmp;
		cap->alloc_progs = n;
	}
	if ((cap->nr_progs + 1) * 2 > cap->nr_slots) {
		size_t n = cap->nr_slots ? cap->nr_slots * 2 : 128;
		u32 *slots = calloc(n, sizeof(*slots));

		if (!slots)
			return -ENOMEM;
		for (size_t k = 0; k < cap->nr_progs; k++) {
			for (i = id_hash(cap->progs[k]->id, n); slots[i]; i = (i + 1) & (n - 1))
				;
			slots[i] = k + 1;
		}
		free(cap->slots);
		cap->slots = slots;
		cap->nr_slots = n;
	}
	for (i = id_hash(p->id, cap->nr_slots); cap->slots[i]; i = (i + 1) & (cap->nr_slots - 1))
		;
	cap->progs[cap->nr_progs++] = p;
	cap->slots[i] = cap->nr_progs;
	cap->stats.captured++;
	return 0;
}

int bpf_capture__add_id(struct bpf_capture *cap, u32 id)
{
	struct bpf_prog_capture *p;
	int fd, err = 0;

	/* first the fd: the program is pinned from here on */
	fd = bpf_prog__get_fd(id);
	if (fd < 0) {
		pthread_mutex_lock(&cap->lock);
		cap->stats.missed++;
		pthread_mutex_unlock(&cap->lock);
		return fd;
	}
	pthread_mutex_lock(&cap->lock);
	p = bpf_capture__lookup(cap, id);
	pthread_mutex_unlock(&cap->lock);
	if (p)
		goto out_close;
	p = bpf_prog_capture__read(fd, &err);
	if (!p)
		goto out_close;
	pthread_mutex_lock(&cap->lock);
	/* the reader and synthesis may both have been told about it */
	if (bpf_capture__lookup(cap, id)) {
		bpf_prog_capture__delete(p);
	} else {
		err = bpf_capture__insert(cap, p);
		if (err)
			bpf_prog_capture__delete(p);
	}
	pthread_mutex_unlock(&cap->lock);
out_close:
	close(fd);
	return err;
}

const struct bpf_prog_capture *bpf_capture__find(struct bpf_capture *cap, u32 id)
{
	struct bpf_prog_capture *p;

	pthread_mutex_lock(&cap->lock);
	p = bpf_capture__lookup(cap, id);
	pthread_mutex_unlock(&cap->lock);
	return p;
}

int bpf_capture__for_each(struct bpf_capture *cap,
			  int (*fn)(const struct bpf_prog_capture *p, void *arg), void *arg)
{
	int ret = 0;

	pthread_mutex_lock(&cap->lock);
	for (size_t i = 0; i < cap->nr_progs && !ret; i++)
		ret = fn(cap->progs[i], arg);
	pthread_mutex_unlock(&cap->lock);
	return ret;
}

static int bpf_capture__event(void *ctx, struct perf_ring *ring __maybe_unused,
			      const union perf_event *ev)
{
	struct bpf_capture *cap = ctx;
	const struct perf_record_bpf_event *b = (const void *)ev;

	if (ev->header.type != PERF_RECORD_BPF_EVENT || ev->header.size < sizeof(*b) ||
	    b->type != PERF_BPF_EVENT_PROG_LOAD)
		return 0;
	pthread_mutex_lock(&cap->lock);
	cap->stats.loads++;
	pthread_mutex_unlock(&cap->lock);
	bpf_capture__add_id(cap, b->id);
	return 0;
}

struct bpf_capture_thread {
	struct bpf_capture *cap;
	struct perf_ring *ring;
	pthread_t thread;
	bool started;
};

/*
 * One reader per CPU, pinned there and SCHED_FIFO.  The kernel writes a
 * PROG_LOAD record into the ring of the CPU the loader runs on, and its
 * wakeup makes our reader runnable on that same CPU; being real-time, it
 * preempts the loader at the latest when the bpf() call returns to user
 * space, so the loader cannot close the program before we hold an fd.  A
 * reader on another CPU would first have to be woken from idle there,
 * which takes longer than a program that is closed at once lives.
 */
static void *bpf_capture__thread(void *arg)
{
	struct bpf_capture_thread *th = arg;
	struct bpf_capture *cap = th->cap;
	struct pollfd pfd[2] = {
	    {.fd = th->ring->fd, .events = POLLIN},
	    {.fd = cap->stop_fd, .events = POLLIN},
	};

	capture__pin(th->ring->cpu);
	capture__set_fifo(true);
	pthread_mutex_lock(&cap->lock);
	cap->nr_ready++;
	pthread_cond_signal(&cap->ready_cond);
	pthread_mutex_unlock(&cap->lock);
	for (;;) {
		int n = poll(pfd, 2, -1);

		if (n < 0 && errno != EINTR)
			break;
		perf_ring__drain(th->ring, bpf_capture__event, cap);
		/* the stop eventfd is never read: it wakes every reader */
		if (pfd[1].revents)
			break;
	}
	perf_ring__drain(th->ring, bpf_capture__event, cap);
	return NULL;
}

struct bpf_capture *bpf_capture__new(const int *cpus, int nr_cpus)
{
	struct bpf_capture *cap = calloc(1, sizeof(*cap));
	int *own = NULL, err = -ENOMEM;

	if (!cap)
		goto out_err;
	pthread_mutex_init(&cap->lock, NULL);
	pthread_cond_init(&cap->ready_cond, NULL);
	cap->stop_fd = -1;
	if (!cpus) {
		nr_cpus = capture__online_cpus(&own);
		if (nr_cpus < 0)
			goto out_delete;
		cpus = own;
	}
	cap->rings = calloc(nr_cpus, sizeof(*cap->rings));
	cap->threads = calloc(nr_cpus, sizeof(*cap->threads));
	if (!cap->rings || !cap->threads)
		goto out_delete;
	for (int i = 0; i < nr_cpus; i++) {
		struct perf_event_attr attr;
		int fd;

		memset(&attr, 0, sizeof(attr));
		attr.size = sizeof(attr);
		attr.type = PERF_TYPE_SOFTWARE;
		attr.config = PERF_COUNT_SW_DUMMY;
		attr.bpf_event = 1;
		/*
		 * Side-band records do not count towards wakeup_events (only
		 * samples do): a one-byte watermark wakes us for every record.
		 */
		attr.watermark = 1;
		attr.wakeup_watermark = 1;
		attr.exclude_kernel = 0;
		fd = sys_perf_event_open(&attr, -1, cpus[i], -1, PERF_FLAG_FD_CLOEXEC);
		if (fd < 0) {
			err = -errno;
			goto out_delete;
		}
		err = perf_ring__mmap(&cap->rings[i], fd, cpus[i], BPF_CAPTURE_PAGES);
		if (err) {
			close(fd);
			goto out_delete;
		}
		cap->nr_rings++;
	}
	cap->stop_fd = eventfd(0, EFD_CLOEXEC);
	if (cap->stop_fd < 0) {
		err = -errno;
		goto out_delete;
	}
	cap->running = true;
	for (int i = 0; i < cap->nr_rings; i++) {
		struct bpf_capture_thread *th = &cap->threads[i];

		th->cap = cap;
		th->ring = &cap->rings[i];
		err = -pthread_create(&th->thread, NULL, bpf_capture__thread, th);
		if (err)
			goto out_delete;
		th->started = true;
	}
	/* a program loaded before its reader is pinned and real-time could be missed */
	pthread_mutex_lock(&cap->lock);
	while (cap->nr_ready < cap->nr_rings)
		pthread_cond_wait(&cap->ready_cond, &cap->lock);
	pthread_mutex_unlock(&cap->lock);
	free(own);
	return cap;
out_delete:
	free(own);
	bpf_capture__delete(cap);
out_err:
	errno = -err;
	return NULL;
}

void bpf_capture__stop(struct bpf_capture *cap)
{
	u64 one = 1;

	if (!cap || !cap->running)
		return;
	if (write(cap->stop_fd, &one, sizeof(one)) != sizeof(one))
		pr_debug("bpf capture: cannot wake the reader: %s\n", strerror(errno));
	for (int i = 0; i < cap->nr_rings; i++) {
		if (cap->threads[i].started)
			pthread_join(cap->threads[i].thread, NULL);
		cap->threads[i].started = false;
	}
	cap->running = false;
	for (int i = 0; i < cap->nr_rings; i++)
		cap->stats.lost += cap->rings[i].lost;
}

void bpf_capture__stats(struct bpf_capture *cap, struct bpf_capture_stats *st)
{
	pthread_mutex_lock(&cap->lock);
	*st = cap->stats;
	pthread_mutex_unlock(&cap->lock);
}

void bpf_capture__delete(struct bpf_capture *cap)
{
	if (!cap)
		return;
	bpf_capture__stop(cap);
	for (int i = 0; i < cap->nr_rings; i++) {
		close(cap->rings[i].fd);
		perf_ring__munmap(&cap->rings[i]);
	}
	free(cap->rings);
	free(cap->threads);
	if (cap->stop_fd >= 0)
		close(cap->stop_fd);
	for (size_t i = 0; i < cap->nr_progs; i++)
		bpf_prog_capture__delete(cap->progs[i]);
	free(cap->progs);
	free(cap->slots);
	pthread_cond_destroy(&cap->ready_cond);
	pthread_mutex_destroy(&cap->lock);
	free(cap);
}

static size_t round8(size_t n)
{
	return (n + 7) & ~(size_t)7;
}

/*
 * One program as perf's struct perf_bpil: u32 info_len, u32 data_len,
 * u64 arrays, struct bpf_prog_info with each array pointer replaced by its
 * offset into data, then data: the arrays in bit order, each padded to 8.
 */
static size_t bpil__size(const struct bpf_prog_capture *p)
{
	return 16 + sizeof(struct bpf_prog_info) + round8(p->info.jited_prog_len) +
	       round8(p->info.nr_jited_ksyms * sizeof(u64)) +
	       round8(p->info.nr_jited_func_lens * sizeof(u32)) +
	       round8(p->info.nr_prog_tags * BPF_TAG_SIZE);
}

static u8 *bpil__put(u8 *out, const struct bpf_prog_capture *p)
{
	struct bpf_prog_info info = p->info;
	size_t insns = round8(info.jited_prog_len);
	size_t ksyms = round8(info.nr_jited_ksyms * sizeof(u64));
	size_t lens = round8(info.nr_jited_func_lens * sizeof(u32));
	size_t tags = round8(info.nr_prog_tags * BPF_TAG_SIZE);
	u32 info_len = sizeof(info), data_len = insns + ksyms + lens + tags;
	u64 arrays = 1ULL << BPIL_JITED_INSNS | 1ULL << BPIL_JITED_KSYMS |
		     1ULL << BPIL_JITED_FUNC_LENS | 1ULL << BPIL_PROG_TAGS;
	u8 *data;

	info.jited_prog_insns = 0;
	info.jited_ksyms = insns;
	info.jited_func_lens = insns + ksyms;
	info.prog_tags = insns + ksyms + lens;
	memcpy(out, &info_len, 4);
	memcpy(out + 4, &data_len, 4);
	memcpy(out + 8, &arrays, 8);
	memcpy(out + 16, &info, sizeof(info));
	data = out + 16 + sizeof(info);
	memset(data, 0, data_len);
	memcpy(data, p->insns, info.jited_prog_len);
	memcpy(data + insns, p->ksyms, info.nr_jited_ksyms * sizeof(u64));
	memcpy(data + insns + ksyms, p->func_lens, info.nr_jited_func_lens * sizeof(u32));
	memcpy(data + insns + ksyms + lens, p->tags, info.nr_prog_tags * BPF_TAG_SIZE);
	return data + data_len;
}

int bpf_capture__write(struct bpf_capture *cap, struct perf_writer *w)
{
	size_t size = 4;
	u32 count;
	u8 *buf, *p;
	int err;

	pthread_mutex_lock(&cap->lock);
	count = cap->nr_progs;
	for (size_t i = 0; i < cap->nr_progs; i++)
		size += bpil__size(cap->progs[i]);
	buf = malloc(size);
	if (!buf) {
		pthread_mutex_unlock(&cap->lock);
		return -ENOMEM;
	}
	memcpy(buf, &count, 4);
	p = buf + 4;
	for (size_t i = 0; i < cap->nr_progs; i++)
		p = bpil__put(p, cap->progs[i]);
	pthread_mutex_unlock(&cap->lock);
	err = count ? perf_writer__set_bpf_prog_info(w, buf, size) : 0;
	free(buf);
	return err;
}
