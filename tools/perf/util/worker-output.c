// SPDX-License-Identifier: GPL-2.0-only
/*
 * A parallel run's output, each byte written once: see worker-output.h.
 *
 * The area the parent maps shared before fork():
 *
 *   struct wo_shared | struct wo_chunk [nr_chunks] | struct wo_ring [nr_workers]
 *   | worker 0's ring bytes | worker 1's | ...
 *
 * turn is the first chunk not written whole.  It moves from c to c + 1
 * only where c's last byte was written: by c's worker when it finishes c
 * in turn, by the parent when it writes out c finished ahead.  So the
 * chunk in turn has one writer at a time: its worker while it prints it
 * (it sees the turn at its next flush, one load), else the parent once
 * the worker has said it finished.  A worker never waits for the turn:
 * ahead of it, it keeps what it prints.
 *
 * A ring holds its worker's chunks printed ahead, in chunk order, as
 * segments that never wrap:
 *
 *   | len | fd | len bytes, padded to 8 | len | fd | ... |
 *
 * fd is 1 or 2: stdout and stderr stay one sequence, written to each fd
 * in the order one worker would.  head is the worker's, tail moves when a
 * chunk is written out (by the parent, or the worker itself when the turn
 * reaches it): a worker's chunks go out in its order, so the ring is
 * freed from its tail.
 *
 * A full ring waits rather than spills to a file: written once to a
 * temporary file and again to the output, what a worker printed far
 * ahead cost more CPU than the whole run's writing (the output's writes
 * are serial anyway, one chunk after the other), and a worker that waits
 * costs nothing.  No wait can be for ever: the chunk in turn is either
 * finished (the parent writes it) or its worker's lowest unfinished one,
 * which that worker prints straight, never waiting; every chunk before
 * the first unclaimed one is claimed.  A worker that ended without
 * finishing its chunk (an error, a reader gone) is seen by the parent,
 * which stops the others once the turn reaches that chunk.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/futex.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "types.h"
#include "worker-output.h"

#define NO_CHUNK UINT_MAX
/*
 * all workers' rings together, and each one's bounds: a ring larger than
 * the chunk a worker prints ahead only costs its pages' faults and the
 * caches' misses when it is written out (8 MB rings took ~10% more CPU
 * than 2 MB ones on the bench's recording)
 */
#define WO_RINGS_BYTES (16U << 20)
#define WO_RING_MIN (1U << 20)
#define WO_RING_MAX (2U << 20)
/*
 * A ring grows (doubles, when it is empty) after its worker waited for
 * room: where a chunk prints more lines than its ring holds (long
 * callchains: 6 bytes of lines a byte of samples rather than 4), a
 * worker ahead would otherwise sit idle a third of the time.  Up to
 * this, all rings together and each one: address space, touched only
 * as a ring grows.  8 MB each made long chains' runs 10% faster in wall
 * time than 4 MB, and the bench's short ones 8% dearer in CPU.
 */
#define WO_RINGS_GROW_BYTES (64U << 20)
#define WO_RING_GROW_MAX (4U << 20)

enum { WO_OPEN, WO_FINISHED, WO_PARTIAL };

struct wo_seg {
	u32 len;
	u32 fd;
};

struct wo_chunk {
	int state; /* WO_*: a worker's word to the parent, release/acquire */
	unsigned int worker;
	u64 ring_lo, ring_hi; /* its segments in its worker's ring */
};

struct wo_ring {
	u64 head; /* its worker's: where the next segment goes */
	u64 tail; /* what is before is written out */
	/*
	 * its bytes now, and what its worker wants after a wait for room:
	 * the size changes only when the ring is empty, before the worker
	 * publishes a chunk that uses it (so the parent, which reads it after
	 * a chunk's state, sees the size the chunk was kept at)
	 */
	u64 size, want;
	/* for -v: what its chunks printed ahead of their turn, and its waits for room */
	u64 kept, waits;
};

struct wo_shared {
	/* a futex word: every move is followed by a wake when someone waits */
	unsigned int turn;
	int gone; /* the reader went away: a worker saw EPIPE */
	int waiters;
};

struct worker_output {
	unsigned int nr_workers, nr_chunks;
	/* each ring's first size, and the most it may grow to (its place in the area) */
	size_t ring_size, ring_room, area_size;
	void *area;
	struct wo_shared *sh;
	struct wo_chunk *chunks;
	struct wo_ring *rings;
	char *ring_bytes;
	pid_t parent;
	/* a worker's own, in its copy of this struct */
	unsigned int k, cur;
	bool direct; /* cur is in turn: written straight */
	u64 ring_lo;
};

size_t worker_output__ring_size(unsigned int nr_workers)
{
	size_t size = WO_RINGS_BYTES / (nr_workers ? nr_workers : 1);

	/* for the tests: a small ring makes every worker ahead wait for room */
	if (getenv("TEXTPOKE_WORKER_RING")) {
		size = strtoul(getenv("TEXTPOKE_WORKER_RING"), NULL, 0) & ~(size_t)4095;
		return size < 4096 ? 4096 : size;
	}
	if (size < WO_RING_MIN)
		size = WO_RING_MIN;
	if (size > WO_RING_MAX)
		size = WO_RING_MAX;
	return size & ~(size_t)4095;
}

struct worker_output *worker_output__new(unsigned int nr_workers, unsigned int nr_chunks)
{
	struct worker_output *wo = calloc(1, sizeof(*wo));
	size_t head, chunks_off, rings_off;

	if (!wo)
		return NULL;
	wo->nr_workers = nr_workers;
	wo->nr_chunks = nr_chunks;
	wo->ring_size = worker_output__ring_size(nr_workers);
	wo->ring_room = WO_RINGS_GROW_BYTES / nr_workers;
	if (wo->ring_room > WO_RING_GROW_MAX)
		wo->ring_room = WO_RING_GROW_MAX;
	/* a ring the tests sized stays so */
	if (getenv("TEXTPOKE_WORKER_RING") || wo->ring_room < wo->ring_size)
		wo->ring_room = wo->ring_size;
	wo->ring_room &= ~(size_t)4095;
	/* the chunks' and the rings' u64s 8-byte aligned after the shared words */
	chunks_off = PERF_ALIGN(sizeof(struct wo_shared), 8);
	rings_off = chunks_off + nr_chunks * sizeof(struct wo_chunk);
	head = PERF_ALIGN(rings_off + nr_workers * sizeof(struct wo_ring), 4096);
	wo->area_size = head + nr_workers * wo->ring_room;
	/* pages only as the rings fill */
	wo->area =
	    mmap(NULL, wo->area_size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (wo->area == MAP_FAILED) {
		free(wo);
		return NULL;
	}
	wo->sh = wo->area;
	wo->chunks = (void *)((char *)wo->area + chunks_off);
	wo->rings = (void *)((char *)wo->area + rings_off);
	wo->ring_bytes = (char *)wo->area + head;
	for (unsigned int k = 0; k < nr_workers; k++)
		wo->rings[k].size = wo->rings[k].want = wo->ring_size;
	wo->parent = getpid();
	wo->cur = NO_CHUNK;
	return wo;
}

void worker_output__delete(struct worker_output *wo)
{
	if (!wo)
		return;
	if (wo->area)
		munmap(wo->area, wo->area_size);
	free(wo);
}

/* 0, or -errno; a reader gone is said to all */
static int wo__write_all(struct worker_output *wo, int fd, const char *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			if (errno == EPIPE)
				__atomic_store_n(&wo->sh->gone, 1, __ATOMIC_RELEASE);
			return -errno;
		}
		p += w;
		n -= w;
	}
	return 0;
}

/*
 * A chunk's segments in worker @w's ring.  One fd failing (a full disk)
 * leaves the other to its lines, as with one worker, whose stderr still
 * works when its stdout does not: a failed fd gets nothing more, and the
 * first error is returned (a reader gone at once)
 */
static int wo__write_spans(struct worker_output *wo, unsigned int w, u64 lo, u64 hi)
{
	const char *ring = wo->ring_bytes + w * wo->ring_room;
	u64 size = wo->rings[w].size;
	bool failed[3] = {false};
	int err, first = 0;

	while (lo < hi) {
		const struct wo_seg *s = (const void *)(ring + lo % size);

		err = s->fd < 3 && failed[s->fd] ?
			  0 :
			  wo__write_all(wo, s->fd, (const char *)(s + 1), s->len);
		if (err == -EPIPE)
			return err;
		if (err && s->fd < 3) {
			failed[s->fd] = true;
			first = first ?: err;
		}
		lo += sizeof(*s) + PERF_ALIGN(s->len, 8);
	}
	return first;
}

/* the turn moves on to @t: whoever waits for room or for it looks again */
static void wo__set_turn(struct worker_output *wo, unsigned int t)
{
	__atomic_store_n(&wo->sh->turn, t, __ATOMIC_SEQ_CST);
	if (__atomic_load_n(&wo->sh->waiters, __ATOMIC_SEQ_CST))
		syscall(SYS_futex, &wo->sh->turn, FUTEX_WAKE, INT_MAX, NULL, NULL, 0);
}

/* the turn has reached the worker's chunk: what it kept goes out first */
static int wo__drain(struct worker_output *wo)
{
	struct wo_ring *r = &wo->rings[wo->k];
	int err;

	err = wo__write_spans(wo, wo->k, wo->ring_lo, r->head);
	if (err == -EPIPE)
		return err;
	/*
	 * written, or failed as one worker's would (its error returned): the
	 * chunk goes on straight either way, so that what it says next
	 * (the failure, on stderr) goes out
	 */
	__atomic_store_n(&r->tail, r->head, __ATOMIC_RELEASE);
	wo->ring_lo = r->head;
	wo->direct = true;
	return err;
}

/*
 * The ring is full: until the turn reaches the worker's chunk (then what
 * it kept goes out, and the rest straight) or the parent writes out one
 * of its chunks finished before (the tail moves, then the turn).  0, or
 * -EPIPE once the reader went away; a parent gone ends the worker.
 */
static int wo__wait(struct worker_output *wo, u64 tail)
{
	struct wo_ring *r = &wo->rings[wo->k];
	/* the parent is looked for now and then: a worker never outlives it */
	const struct timespec tick = {0, 100 * 1000 * 1000};

	r->waits++;
	/* the ring doubles when it is next empty (worker_output__begin()) */
	if (r->want < wo->ring_room)
		r->want = 2 * r->size < wo->ring_room ? 2 * r->size : wo->ring_room;
	for (;;) {
		unsigned int t = __atomic_load_n(&wo->sh->turn, __ATOMIC_SEQ_CST);

		if (__atomic_load_n(&wo->sh->gone, __ATOMIC_ACQUIRE))
			return -EPIPE;
		if (t == wo->cur)
			return wo__drain(wo);
		if (__atomic_load_n(&r->tail, __ATOMIC_ACQUIRE) != tail)
			return 0;
		if (getppid() != wo->parent)
			_exit(1);
		__atomic_add_fetch(&wo->sh->waiters, 1, __ATOMIC_SEQ_CST);
		/* the turn read again after saying it waits: a move before is seen */
		if (__atomic_load_n(&wo->sh->turn, __ATOMIC_SEQ_CST) == t &&
		    __atomic_load_n(&r->tail, __ATOMIC_ACQUIRE) == tail)
			syscall(SYS_futex, &wo->sh->turn, FUTEX_WAIT, t, &tick, NULL, 0);
		__atomic_sub_fetch(&wo->sh->waiters, 1, __ATOMIC_SEQ_CST);
	}
}

/* ahead of the turn: into the ring, waiting for room when it is full */
static int wo__keep(struct worker_output *wo, int fd, const char *p, size_t n)
{
	struct wo_ring *r = &wo->rings[wo->k];
	char *ring = wo->ring_bytes + wo->k * wo->ring_room;
	u64 size = r->size;
	struct wo_seg s = {.fd = fd};
	int err;

	while (n) {
		u64 head = r->head, tail = __atomic_load_n(&r->tail, __ATOMIC_ACQUIRE);
		u64 avail = size - (head - tail), room, take;

		if (avail < 2 * sizeof(s)) {
			err = wo__wait(wo, tail);
			if (err)
				return err;
			if (wo->direct)
				return wo__write_all(wo, fd, p, n);
			continue;
		}
		room = size - head % size;
		if (avail > room)
			avail = room;
		/* 8 bytes left at the ring's end: an empty segment, then the start */
		take = n < avail - sizeof(s) ? n : avail - sizeof(s);
		s.len = take;
		memcpy(ring + head % size, &s, sizeof(s));
		memcpy(ring + head % size + sizeof(s), p, take);
		r->head = head + sizeof(s) + PERF_ALIGN(take, 8);
		r->kept += take;
		p += take;
		n -= take;
	}
	return 0;
}

/* what stdio gives the worker's stdout (@fd 1) or stderr (2) */
static ssize_t wo__write(struct worker_output *wo, int fd, const char *p, size_t n)
{
	int err = 0;

	if (wo->cur == NO_CHUNK || !n)
		return n; /* between chunks: nothing is printed there */
	/* the one check of the turn at each flush */
	if (!wo->direct && __atomic_load_n(&wo->sh->turn, __ATOMIC_ACQUIRE) == wo->cur)
		err = wo__drain(wo);
	if (!err)
		err = wo->direct ? wo__write_all(wo, fd, p, n) : wo__keep(wo, fd, p, n);
	if (!err)
		return n;
	errno = -err;
	return -1;
}

static ssize_t wo__write_out(void *cookie, const char *p, size_t n)
{
	return wo__write(cookie, STDOUT_FILENO, p, n);
}

static ssize_t wo__write_err(void *cookie, const char *p, size_t n)
{
	return wo__write(cookie, STDERR_FILENO, p, n);
}

int worker_output__attach(struct worker_output *wo, unsigned int k)
{
	cookie_io_functions_t out_io = {.write = wo__write_out};
	cookie_io_functions_t err_io = {.write = wo__write_err};
	size_t size = BUFSIZ;
	struct stat st;
	FILE *out, *err;
	char *buf;

	wo->k = k;
	wo->cur = NO_CHUNK;
	/*
	 * its ring's pages mapped in one call rather than a fault each (no
	 * fault-around for writes to shared memory); a kernel before 5.14
	 * says EINVAL and they fault in as before
	 */
	madvise(wo->ring_bytes + k * wo->ring_room, wo->rings[k].size, MADV_POPULATE_WRITE);
	out = fopencookie(wo, "w", out_io);
	err = fopencookie(wo, "w", err_io);
	if (!out || !err)
		return -ENOMEM;
	/*
	 * buffered as glibc buffers the real ones, so that in one file
	 * (2>&1) stderr's lines fall where they fall with one worker; with
	 * no buffer given, glibc would take BUFSIZ whatever the size asked.
	 * The buffer lives as long as the worker.
	 */
	if (!fstat(STDOUT_FILENO, &st) && st.st_blksize > 0 && st.st_blksize < BUFSIZ)
		size = st.st_blksize;
	buf = malloc(size);
	if (!buf || setvbuf(out, buf, isatty(STDOUT_FILENO) ? _IOLBF : _IOFBF, size) ||
	    setvbuf(err, NULL, _IONBF, 0))
		return -ENOMEM;
	fflush(stdout);
	fflush(stderr);
	stdout = out;
	stderr = err;
	return 0;
}

void worker_output__begin(struct worker_output *wo, unsigned int c)
{
	struct wo_ring *r = &wo->rings[wo->k];

	/* what was printed until now is the previous chunk's */
	fflush(stdout);
	fflush(stderr);
	/*
	 * an empty ring starts over: it touches no more pages than it ever
	 * holds at once (no one else moves its tail while it holds nothing)
	 */
	if (__atomic_load_n(&r->tail, __ATOMIC_ACQUIRE) == r->head) {
		r->head = r->tail = 0;
		if (r->want > r->size) {
			madvise(wo->ring_bytes + wo->k * wo->ring_room + r->size, r->want - r->size,
				MADV_POPULATE_WRITE);
			r->size = r->want;
		}
	}
	wo->cur = c;
	wo->ring_lo = r->head;
	wo->direct = c != NO_CHUNK && __atomic_load_n(&wo->sh->turn, __ATOMIC_ACQUIRE) == c;
}

/* the current chunk's spans, for the parent to write */
static void wo__publish(struct worker_output *wo, int state)
{
	struct wo_chunk *ch = &wo->chunks[wo->cur];

	ch->worker = wo->k;
	ch->ring_lo = wo->ring_lo;
	ch->ring_hi = wo->rings[wo->k].head;
	__atomic_store_n(&ch->state, state, __ATOMIC_RELEASE);
}

int worker_output__end(struct worker_output *wo)
{
	unsigned int c = wo->cur;
	int err = 0;

	if (c == NO_CHUNK)
		return 0;
	if (fflush(stdout) || fflush(stderr))
		return -errno;
	if (!wo->direct && __atomic_load_n(&wo->sh->turn, __ATOMIC_ACQUIRE) == c)
		err = wo__drain(wo);
	if (err)
		return err;
	if (wo->direct)
		wo__set_turn(wo, c + 1);
	else
		wo__publish(wo, WO_FINISHED);
	wo->cur = NO_CHUNK;
	return 0;
}

void worker_output__leave(struct worker_output *wo)
{
	fflush(stdout);
	fflush(stderr);
	if (wo->cur != NO_CHUNK && !wo->direct)
		wo__publish(wo, WO_PARTIAL);
	wo->cur = NO_CHUNK;
}

void worker_output__counts(const struct worker_output *wo, unsigned int k, u64 *kept, u64 *waits,
			   u64 *ring)
{
	*kept = wo->rings[k].kept;
	*waits = wo->rings[k].waits;
	*ring = wo->rings[k].size;
}

unsigned int worker_output__turn(const struct worker_output *wo)
{
	return __atomic_load_n(&wo->sh->turn, __ATOMIC_ACQUIRE);
}

int worker_output__advance(struct worker_output *wo)
{
	for (;;) {
		unsigned int t = worker_output__turn(wo);
		struct wo_chunk *ch;
		int err;

		if (__atomic_load_n(&wo->sh->gone, __ATOMIC_ACQUIRE))
			return -EPIPE;
		if (t >= wo->nr_chunks)
			return 0;
		ch = &wo->chunks[t];
		if (__atomic_load_n(&ch->state, __ATOMIC_ACQUIRE) != WO_FINISHED)
			return 0;
		err = wo__write_spans(wo, ch->worker, ch->ring_lo, ch->ring_hi);
		if (err)
			return err;
		/*
		 * a chunk with nothing in the ring leaves the tail alone: its
		 * worker may have started its ring over since
		 */
		if (ch->ring_hi != ch->ring_lo)
			__atomic_store_n(&wo->rings[ch->worker].tail, ch->ring_hi,
					 __ATOMIC_RELEASE);
		wo__set_turn(wo, t + 1);
	}
}

int worker_output__write_partial(struct worker_output *wo)
{
	unsigned int t = worker_output__turn(wo);
	struct wo_chunk *ch = &wo->chunks[t];

	if (t >= wo->nr_chunks || __atomic_load_n(&ch->state, __ATOMIC_ACQUIRE) != WO_PARTIAL)
		return 0;
	return wo__write_spans(wo, ch->worker, ch->ring_lo, ch->ring_hi);
}
