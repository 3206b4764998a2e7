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
 * freed from its tail.  What does not fit (a worker far ahead) goes,
 * with the rest of that chunk, to the worker's spill file in the same
 * format, the parent's made before fork(), read at explicit offsets.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#include "types.h"
#include "worker-output.h"

#define NO_CHUNK UINT_MAX
/* all workers' rings together, and each one's bounds */
#define WO_RINGS_BYTES (16U << 20)
#define WO_RING_MIN (1U << 20)
#define WO_RING_MAX (8U << 20)

enum { WO_OPEN, WO_FINISHED, WO_PARTIAL };

struct wo_seg {
	u32 len;
	u32 fd;
};

struct wo_chunk {
	int state; /* WO_*: a worker's word to the parent, release/acquire */
	unsigned int worker;
	u64 ring_lo, ring_hi;	/* its segments in its worker's ring */
	u64 spill_lo, spill_hi; /* then in its worker's spill file */
};

struct wo_ring {
	u64 head; /* its worker's: where the next segment goes */
	u64 tail; /* what is before is written out */
	/* for -v: what its chunks printed ahead of their turn, in the ring and past it */
	u64 kept, spilled;
};

struct wo_shared {
	unsigned int turn;
	int gone; /* the reader went away: a worker saw EPIPE */
};

struct worker_output {
	unsigned int nr_workers, nr_chunks;
	size_t ring_size, area_size;
	void *area;
	struct wo_shared *sh;
	struct wo_chunk *chunks;
	struct wo_ring *rings;
	char *ring_bytes;
	int *spill_fds;
	/*
	 * stdout, stderr not a file (a pipe): sendfile() would put the spill file's
	 * pages in it by reference, and the hole punched after would
	 * zero them before the reader reads them
	 */
	bool by_hand[3];
	/* a worker's own, in its copy of this struct */
	unsigned int k, cur;
	bool direct;   /* cur is in turn: written straight */
	bool spilling; /* the rest of cur goes to the spill file */
	u64 ring_lo, spill_lo, spill_pos;
};

size_t worker_output__ring_size(unsigned int nr_workers)
{
	size_t size = WO_RINGS_BYTES / (nr_workers ? nr_workers : 1);

	if (size < WO_RING_MIN)
		size = WO_RING_MIN;
	if (size > WO_RING_MAX)
		size = WO_RING_MAX;
	return size & ~(size_t)4095;
}

/* an unlinked file where TMPDIR says */
static int wo__tmpfile(void)
{
	const char *dir = getenv("TMPDIR");
	char path[4096];
	int fd;

	if (!dir || !*dir)
		dir = "/tmp";
	fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	if (fd >= 0)
		return fd;
	snprintf(path, sizeof(path), "%s/perf-textpoke-chunk.XXXXXX", dir);
	fd = mkostemp(path, O_CLOEXEC);
	if (fd >= 0)
		unlink(path);
	return fd;
}

struct worker_output *worker_output__new(unsigned int nr_workers, unsigned int nr_chunks)
{
	struct worker_output *wo = calloc(1, sizeof(*wo));
	size_t head;
	unsigned int k;

	if (!wo)
		return NULL;
	wo->nr_workers = nr_workers;
	wo->nr_chunks = nr_chunks;
	wo->ring_size = worker_output__ring_size(nr_workers);
	/* for the tests: a small ring makes every worker ahead spill to its file */
	if (getenv("TEXTPOKE_WORKER_RING")) {
		wo->ring_size = strtoul(getenv("TEXTPOKE_WORKER_RING"), NULL, 0) & ~(size_t)4095;
		if (wo->ring_size < 4096)
			wo->ring_size = 4096;
	}
	head = sizeof(struct wo_shared) + nr_chunks * sizeof(struct wo_chunk) +
	       nr_workers * sizeof(struct wo_ring);
	head = PERF_ALIGN(head, 4096);
	wo->area_size = head + nr_workers * wo->ring_size;
	/* pages only as the rings fill */
	wo->area =
	    mmap(NULL, wo->area_size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	wo->spill_fds = malloc(nr_workers * sizeof(int));
	if (wo->area == MAP_FAILED || !wo->spill_fds) {
		if (wo->area == MAP_FAILED)
			wo->area = NULL;
		worker_output__delete(wo);
		return NULL;
	}
	wo->sh = wo->area;
	wo->chunks = (void *)(wo->sh + 1);
	wo->rings = (void *)(wo->chunks + nr_chunks);
	wo->ring_bytes = (char *)wo->area + head;
	for (k = 0; k < nr_workers; k++)
		wo->spill_fds[k] = -1;
	for (k = 0; k < nr_workers; k++) {
		wo->spill_fds[k] = wo__tmpfile();
		if (wo->spill_fds[k] < 0) {
			worker_output__delete(wo);
			return NULL;
		}
	}
	for (k = STDOUT_FILENO; k <= STDERR_FILENO; k++) {
		struct stat st;

		wo->by_hand[k] = fstat(k, &st) || !S_ISREG(st.st_mode);
	}
	wo->cur = NO_CHUNK;
	return wo;
}

void worker_output__delete(struct worker_output *wo)
{
	unsigned int k;

	if (!wo)
		return;
	for (k = 0; wo->spill_fds && k < wo->nr_workers; k++)
		if (wo->spill_fds[k] >= 0)
			close(wo->spill_fds[k]);
	free(wo->spill_fds);
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

/* @n bytes of the spill file @in at @off to @fd */
static int wo__send(struct worker_output *wo, int fd, int in, off_t off, size_t n)
{
	char buf[1 << 16];

	while (n && !wo->by_hand[fd]) {
		ssize_t r = sendfile(fd, in, &off, n);

		if (r > 0) {
			n -= r;
			continue;
		}
		if (!r)
			return -EIO; /* the spill file is shorter than said */
		if (errno == EINTR)
			continue;
		if (errno == EPIPE)
			__atomic_store_n(&wo->sh->gone, 1, __ATOMIC_RELEASE);
		if (errno != EINVAL && errno != ENOSYS)
			return -errno;
		break;
	}
	/* a pipe, or an output sendfile() cannot take: by hand */
	while (n) {
		ssize_t r = pread(in, buf, n < sizeof(buf) ? n : sizeof(buf), off);
		int err;

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return r ? -errno : -EIO;
		err = wo__write_all(wo, fd, buf, r);
		if (err)
			return err;
		off += r;
		n -= r;
	}
	return 0;
}

/* a chunk's segments, from worker @w's ring and then its spill file */
static int wo__write_spans(struct worker_output *wo, unsigned int w, u64 rlo, u64 rhi, u64 slo,
			   u64 shi)
{
	const char *ring = wo->ring_bytes + w * wo->ring_size;
	int in = wo->spill_fds[w], err;
	u64 start = slo;

	while (rlo < rhi) {
		const struct wo_seg *s = (const void *)(ring + rlo % wo->ring_size);

		err = wo__write_all(wo, s->fd, (const char *)(s + 1), s->len);
		if (err)
			return err;
		rlo += sizeof(*s) + PERF_ALIGN(s->len, 8);
	}
	while (slo < shi) {
		struct wo_seg s;

		if (pread(in, &s, sizeof(s), slo) != sizeof(s))
			return -EIO;
		slo += sizeof(s);
		err = wo__send(wo, s.fd, in, slo, s.len);
		if (err)
			return err;
		slo += s.len;
	}
	/* written: the disk may have it back (the file's size stays) */
	if (shi > start)
		fallocate(in, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, start, shi - start);
	return 0;
}

/* the turn has reached the worker's chunk: what it kept goes out first */
static int wo__drain(struct worker_output *wo)
{
	struct wo_ring *r = &wo->rings[wo->k];
	int err;

	err = wo__write_spans(wo, wo->k, wo->ring_lo, r->head, wo->spill_lo, wo->spill_pos);
	if (err)
		return err;
	__atomic_store_n(&r->tail, r->head, __ATOMIC_RELEASE);
	wo->ring_lo = r->head;
	wo->spill_lo = wo->spill_pos;
	wo->direct = true;
	return 0;
}

/* ahead of the turn: into the ring while it has room, then the spill file */
static int wo__keep(struct worker_output *wo, int fd, const char *p, size_t n)
{
	struct wo_ring *r = &wo->rings[wo->k];
	char *ring = wo->ring_bytes + wo->k * wo->ring_size;
	struct wo_seg s = {.fd = fd};
	struct iovec iov[2];

	while (n && !wo->spilling) {
		u64 head = r->head, room, take;
		u64 avail = wo->ring_size - (head - __atomic_load_n(&r->tail, __ATOMIC_ACQUIRE));

		if (avail < 2 * sizeof(s)) {
			wo->spilling = true;
			break;
		}
		room = wo->ring_size - head % wo->ring_size;
		if (avail > room)
			avail = room;
		/* 8 bytes left at the ring's end: an empty segment, then the start */
		take = n < avail - sizeof(s) ? n : avail - sizeof(s);
		s.len = take;
		memcpy(ring + head % wo->ring_size, &s, sizeof(s));
		memcpy(ring + head % wo->ring_size + sizeof(s), p, take);
		r->head = head + sizeof(s) + PERF_ALIGN(take, 8);
		r->kept += take;
		p += take;
		n -= take;
	}
	if (!n)
		return 0;
	r->spilled += n;
	s.len = n;
	iov[0] = (struct iovec){&s, sizeof(s)};
	iov[1] = (struct iovec){(void *)p, n};
	while (iov[0].iov_len + iov[1].iov_len) {
		ssize_t w = pwritev(wo->spill_fds[wo->k], iov[0].iov_len ? iov : iov + 1,
				    iov[0].iov_len ? 2 : 1, wo->spill_pos);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		wo->spill_pos += w;
		for (int i = 0; i < 2 && w; i++) {
			size_t d = (size_t)w < iov[i].iov_len ? (size_t)w : iov[i].iov_len;

			iov[i].iov_base = (char *)iov[i].iov_base + d;
			iov[i].iov_len -= d;
			w -= d;
		}
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
	if (__atomic_load_n(&r->tail, __ATOMIC_ACQUIRE) == r->head)
		r->head = r->tail = 0;
	wo->cur = c;
	wo->spilling = false;
	wo->ring_lo = r->head;
	wo->spill_lo = wo->spill_pos;
	wo->direct = c != NO_CHUNK && __atomic_load_n(&wo->sh->turn, __ATOMIC_ACQUIRE) == c;
}

/* the current chunk's spans, for the parent to write */
static void wo__publish(struct worker_output *wo, int state)
{
	struct wo_chunk *ch = &wo->chunks[wo->cur];

	ch->worker = wo->k;
	ch->ring_lo = wo->ring_lo;
	ch->ring_hi = wo->rings[wo->k].head;
	ch->spill_lo = wo->spill_lo;
	ch->spill_hi = wo->spill_pos;
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
		__atomic_store_n(&wo->sh->turn, c + 1, __ATOMIC_RELEASE);
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

void worker_output__counts(const struct worker_output *wo, unsigned int k, u64 *kept, u64 *spilled)
{
	*kept = wo->rings[k].kept;
	*spilled = wo->rings[k].spilled;
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
		err = wo__write_spans(wo, ch->worker, ch->ring_lo, ch->ring_hi, ch->spill_lo,
				      ch->spill_hi);
		if (err)
			return err;
		/*
		 * a chunk with nothing in the ring leaves the tail alone: its
		 * worker may have started its ring over since
		 */
		if (ch->ring_hi != ch->ring_lo)
			__atomic_store_n(&wo->rings[ch->worker].tail, ch->ring_hi,
					 __ATOMIC_RELEASE);
		__atomic_store_n(&wo->sh->turn, t + 1, __ATOMIC_RELEASE);
	}
}

int worker_output__write_partial(struct worker_output *wo)
{
	unsigned int t = worker_output__turn(wo);
	struct wo_chunk *ch = &wo->chunks[t];

	if (t >= wo->nr_chunks || __atomic_load_n(&ch->state, __ATOMIC_ACQUIRE) != WO_PARTIAL)
		return 0;
	return wo__write_spans(wo, ch->worker, ch->ring_lo, ch->ring_hi, ch->spill_lo,
			       ch->spill_hi);
}
