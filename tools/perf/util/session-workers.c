// SPDX-License-Identifier: GPL-2.0-only
/*
 * Several workers over one recording, each on chunks of time.
 *
 * Why chunks of time can be read apart: with perf's FINISHED_ROUND
 * contract (ordered-events.c) and no record that arrives older than what a
 * round already delivered, the one-worker run delivers every timed record
 * sorted by (time, arrival), wherever the flushes fall.  A worker that
 * queues only the samples of its chunks, and all the side-band, delivers
 * that same sequence less the others' samples: each of its samples sees
 * the side-band the one-worker run had at that sample, so its lines are
 * that run's lines of its chunks, and the chunks' lines one after the
 * other are that run's.  Its flushes may come later than that run's (it
 * does not see every time), never earlier, so nothing it delivers can be
 * overtaken by a record it reads later.
 *
 * That holds when nothing reorders the delivery, which the parent checks
 * in one pass over the record headers before it forks (workers__walk):
 * no record older than the last round's limit, no two rounds larger than
 * the ordering window (a forced flush delivers early, at points that
 * depend on what is queued), every sample timed, parsed and of a known
 * event, and nothing whose handling is not per record (compressed data,
 * hardware trace, data.N files, a cut-off file).  Otherwise one worker
 * reads it all, as without this file.
 *
 * The same pass cuts the samples into chunks of about equal size at round
 * limits, and finds for each chunk the round before which none of its
 * samples can be (start_off: every record before is older than its start)
 * and the round from which none can be (end_off: that round delivers past
 * its end).  A worker steps over the samples outside its chunks' rounds
 * without reading them, and at end_off delivers its chunk whole.
 *
 * fork() gives each worker the session as the parent left it (symbols,
 * the text image, the side-band at the start, the kernel's symbols)
 * copy-on-write, so none of the readers needs a lock.  Worker k begins
 * with chunk k; the others are claimed in order by whichever worker's
 * reading reaches a chunk's start_off first, through a counter in shared
 * memory.  A worker that is done steps over the rounds of the chunks being
 * printed by the others, fast, and so is the first at the next free
 * chunk: the work balances itself, however unevenly it is spread in time.
 *
 * The chunk whose turn it is (all before it written) is printed straight
 * to the standard output; one printed ahead of its turn waits in shared
 * memory, written out when its turn comes (worker-output.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "data.h"
#include "debug.h"
#include "event.h"
#include "evsel.h"
#include "evsel-time.h"
#include "machine.h"
#include "ordered-events.h"
#include "session.h"
#include "session-workers.h"
#include "worker-output.h"

#define WORKERS_MAX 64
/* chunks per worker at least: the most a worker can be left waiting is about one */
#define WORKERS_CHUNKS_PER_WORKER 8
/*
 * and at most this share of a worker's output ring in sample bytes:
 * script's lines are ~4 times its samples' bytes (default fields,
 * callchains), so that a worker printing a chunk ahead of its turn fills
 * its ring about when it finishes the chunk, and waits for room seldom
 */
#define WORKERS_CHUNK_RING_SHARE 4
#define WORKERS_MAX_CHUNKS 1024
/*
 * with the default (one per CPU), a recording smaller than this is read
 * by one: below it the workers' fixed costs (the walk, each one's
 * side-band and objects, the chunks' copies) ate the gain in wall time on
 * a 2-CPU machine (23 MB: 0.15 s either way; 103 MB: 0.66 s -> 0.50 s)
 */
#define WORKERS_AUTO_MIN_BYTES (64ULL << 20)
#define NO_CHUNK UINT_MAX

/*
 * A FINISHED_ROUND: where it is, the time it delivers up to, the newest
 * time read before it, and the sample bytes read before it
 */
struct round_mark {
	u64 off, next_off;
	u64 limit;
	u64 max;
	u64 sample_bytes;
};

struct chunk {
	u64 lo, hi;    /* its samples' times: [lo, hi) */
	u64 start_off; /* no sample of it before this offset */
	u64 end_off;   /* ... nor from this one (a FINISHED_ROUND delivering past hi) */
};

struct workers_plan {
	struct round_mark *marks;
	size_t nr_marks, alloc;
	u64 sample_bytes; /* their weights (plan__weight()), in fact */
	/* the user stack dump every sample carries (--call-graph dwarf), 0: none */
	u64 stack_bytes;
	/* where every sample has its time (one layout for all events); 0: not known */
	u32 time_at;
	/* the runs of samples, for the workers to step over whole; NULL: none kept */
	struct sample_run *runs;
	size_t nr_runs, runs_alloc;
	bool no_runs;
	/*
	 * the walk runs beside the reading of the kernel's symbols, which
	 * waits for the first sample in the kernel (or the walk's end)
	 */
	pthread_mutex_t lock;
	pthread_cond_t cond;
	bool kernel_samples, walked;
	const char *why;
	unsigned int nr_workers, nr_chunks;
	struct chunk chunks[WORKERS_MAX_CHUNKS];
};

/* in memory the workers share */
struct workers_shared {
	unsigned int next; /* the first chunk no worker has claimed */
	int result[WORKERS_MAX];
	/* a worker that ended with a chunk unfinished and no error: its reader went away */
	bool quiet_end[WORKERS_MAX];
	/* a worker's end (release), and the chunk it left unfinished then (NO_CHUNK: none) */
	bool ended[WORKERS_MAX];
	unsigned int end_chunk[WORKERS_MAX];
};

/* a worker's own */
struct workers_state {
	const struct workers_plan *plan;
	struct workers_shared *shared;
	unsigned int cur;  /* the lowest chunk it owns and has not finished; NO_CHUNK */
	unsigned int last; /* the chunk of the last sample asked about */
	u64 owned[WORKERS_MAX_CHUNKS / 64];
	struct worker_output *out;
	int done_fd;		/* finished chunks' numbers, to the parent */
	int stats_rd, stats_wr; /* the others' counts, to the last chunk's worker */
	/*
	 * what a command that prints after its pass gathered (annotate), to
	 * the last chunk's worker: its own pipe's write end, every pipe's
	 * read end (who merges is known only at the end), -1 once closed
	 */
	int state_wr;
	int state_rd[WORKERS_MAX];
	unsigned int self;
	bool owns_last;
};

static struct workers_state worker_state;

unsigned int session_workers__nr_cpus(void)
{
	cpu_set_t set;
	int n;

	if (sched_getaffinity(0, sizeof(set), &set))
		return 1;
	n = CPU_COUNT(&set);
	return n > 0 ? n : 1;
}

/*
 * Samples in time order: they end the last run or begin one.  Runs
 * are kept while they average 4 kB at least: below that the workers would
 * gain little, and the memory is bounded by the file's size / 170.
 */
static void plan__run(struct workers_plan *plan, const struct sample_run *run, u64 data_size)
{
	struct sample_run *r;

	if (plan->no_runs)
		return;
	r = plan->nr_runs ? &plan->runs[plan->nr_runs - 1] : NULL;
	if (r && r->end == run->off && r->t_hi <= run->t_lo) {
		r->end = run->end;
		r->nr += run->nr;
		r->t_hi = run->t_hi;
		return;
	}
	if (plan->nr_runs == plan->runs_alloc) {
		size_t n = plan->runs_alloc ? 2 * plan->runs_alloc : 1024;

		if (n > data_size / 4096 + 1024 || !(r = realloc(plan->runs, n * sizeof(*r)))) {
			free(plan->runs);
			plan->runs = NULL;
			plan->nr_runs = plan->runs_alloc = 0;
			plan->no_runs = true;
			return;
		}
		plan->runs = r;
		plan->runs_alloc = n;
	}
	plan->runs[plan->nr_runs++] = *run;
}

static int plan__mark(struct workers_plan *plan, u64 off, u64 size, u64 limit, u64 max)
{
	struct round_mark *m;

	if (plan->nr_marks == plan->alloc) {
		size_t n = plan->alloc ? 2 * plan->alloc : 1024;

		m = realloc(plan->marks, n * sizeof(*m));
		if (!m)
			return -ENOMEM;
		plan->marks = m;
		plan->alloc = n;
	}
	m = &plan->marks[plan->nr_marks++];
	m->off = off;
	m->next_off = off + size;
	m->limit = limit;
	m->max = max;
	m->sample_bytes = plan->sample_bytes;
	return 0;
}

/*
 * A sample's weight in the cut: its bytes, less the user stack dump that
 * --call-graph dwarf puts in every sample (8 kB of a record that prints
 * a line or a chain of 100 bytes).  Chunks are of about equal weight and
 * at most a share of a ring (workers__cut()): by bytes alone a dwarf
 * recording of 50k samples was cut into 800 chunks of 60 samples, whose
 * every handover cost more than the samples.
 */
static inline u64 plan__weight(const struct workers_plan *plan, u64 size)
{
	return size > plan->stack_bytes + 64 ? size - plan->stack_bytes : size;
}

/* the stack dump size all events' samples carry, 0 when one carries none */
static u64 workers__stack_bytes(const struct evlist *evlist)
{
	u64 least = 0;

	for (int i = 0; i < evlist->nr_entries; i++) {
		const struct perf_event_attr *a = &evlist->entries[i]->attr;
		u64 n = a->sample_type & PERF_SAMPLE_STACK_USER ? a->sample_stack_user : 0;

		if (!i || n < least)
			least = n;
	}
	return least;
}

/* what the session does with more than headers: none of it may reorder or repeat */
static const char *workers__check_session(struct perf_session *session)
{
	char path[4096];

	if (session->is_pipe)
		return "the input is a pipe";
	if (!session->tool->ordered_events)
		return "the records are read in file order";
	if (session->needs_swap)
		return "the recording is of the other byte order";
	if (session->data->is_dir) {
		snprintf(path, sizeof(path), "%s/data.0", session->data->path);
		if (!access(path, F_OK))
			return "the recording is in per-thread data.N files";
	}
	if (session->data_offset + session->data_size > session->data->size)
		return "the file is shorter than its data section";
	return NULL;
}

/* the walk's account of the rounds so far */
struct walk_rounds {
	u64 round_max, prev_round_max, limit, q_prev, q_cur, max_bytes;
	bool flushed;
};

/* a timed record of @size read at time @t: NULL, or why the chunks cannot be cut */
static inline const char *walk_rounds__add(struct walk_rounds *w, u64 t, u64 size)
{
	if (w->flushed && t < w->limit)
		return "records out of time order";
	if (t > w->round_max)
		w->round_max = t;
	w->q_cur += size;
	if (w->q_prev + w->q_cur > w->max_bytes)
		return "rounds larger than the ordering window";
	return NULL;
}

/* the walk saw a sample in the kernel: the kernel's symbols may be read beside it */
static void plan__kernel_sample(struct workers_plan *plan)
{
	pthread_mutex_lock(&plan->lock);
	plan->kernel_samples = true;
	pthread_cond_signal(&plan->cond);
	pthread_mutex_unlock(&plan->lock);
}

/*
 * The samples from @*off while they come one after another, when every
 * event's samples have one layout, @l: the most of a recording, so they
 * have a loop of their own, the key read in place, the window and the
 * run in locals.  Stops at anything else (another record, a sample the
 * general loop is to judge) with NULL, or says why the chunks cannot be
 * cut.
 */
static const char *workers__walk_samples(struct perf_session *session, struct workers_plan *plan,
					 struct perf_data_window *win,
					 const struct sample_layout *l, struct walk_rounds *w,
					 u64 *offp, u64 end, u64 *known_id)
{
	struct evlist *evlist = session->evlist;
	bool ids = evlist->nr_entries > 1, kernel = plan->kernel_samples;
	u64 off = *offp, bytes = 0;
	struct sample_run run = {.off = off, .end = off};
	const char *why = NULL;
	const u8 *base = NULL;
	u64 lo = 0, hi = 0; /* the window's file offsets, as locals */

	while (end - off >= sizeof(struct perf_event_header)) {
		const struct perf_event_header *h;
		struct sample_key key;
		u16 size;

		if (off < lo || off + sizeof(*h) > hi) {
			if (!perf_data__window_peek(session->data, win, off, sizeof(*h)))
				break;
			base = win->base;
			lo = win->start;
			hi = lo + win->len;
		}
		h = (const void *)(base + (off - lo));
		if (h->type != PERF_RECORD_SAMPLE || h->size < sizeof(*h) || h->size % 8 ||
		    h->size > end - off)
			break;
		size = h->size;
		if (off + size > hi) {
			if (!perf_data__window_peek(session->data, win, off, size))
				break;
			base = win->base;
			lo = win->start;
			hi = lo + win->len;
			h = (const void *)(base + (off - lo));
		}
		if ((uintptr_t)h & 7)
			break;
		if (sample_layout__key(l, h, &key)) {
			why = "a sample does not parse";
			break;
		}
		if (ids && key.id != (u64)-1 && key.id && key.id != *known_id) {
			if (!evlist__id2evsel(evlist, key.id)) {
				why = "a sample of an unknown event";
				break;
			}
			*known_id = key.id;
		}
		if (!key.time || key.time == (u64)-1) {
			why = "the samples have no time";
			break;
		}
		if (!kernel &&
		    (h->misc & PERF_RECORD_MISC_CPUMODE_MASK) == PERF_RECORD_MISC_KERNEL) {
			plan__kernel_sample(plan);
			kernel = true;
		}
		why = walk_rounds__add(w, key.time, size);
		if (why)
			break;
		if (run.nr && key.time < run.t_hi) {
			plan__run(plan, &run, session->data_size);
			run = (struct sample_run){.off = off, .end = off};
		}
		if (!run.nr++)
			run.t_lo = key.time;
		run.t_hi = key.time;
		run.end = off + size;
		bytes += plan__weight(plan, size);
		off += size;
	}
	if (run.nr)
		plan__run(plan, &run, session->data_size);
	plan->sample_bytes += bytes;
	*offp = off;
	return why;
}

/*
 * One pass over the records: the round marks, and the reason the chunks
 * cannot be cut cleanly, if there is one (see the top of the file).
 */
static const char *workers__walk(struct perf_session *session, struct workers_plan *plan)
{
	/* every page is read: mapped at once rather than faulted in 16 at a time */
	struct perf_data_window win = {.base = NULL, .populate = true};
	struct evlist *evlist = session->evlist;
	u64 off = session->data_offset, end = off + session->data_size;
	struct walk_rounds w = {.max_bytes = session->ordered->max_bytes};
	const struct sample_layout *fast = evlist__uniform_layout(evlist);
	u64 known_id = (u64)-1; /* the last sample's id, known */
	const char *why = NULL;
	u64 *copy = NULL;

	plan->stack_bytes = workers__stack_bytes(evlist);
	while (off < end && !why) {
		const union perf_event *event;
		struct perf_event_header h;
		struct sample_key key;
		struct evsel *evsel;
		const void *p;
		u64 t;

		if (fast) {
			why = workers__walk_samples(session, plan, &win, fast, &w, &off, end,
						    &known_id);
			if (why || off >= end)
				break;
		}
		p = end - off >= sizeof(h) ?
			perf_data__window_peek(session->data, &win, off, sizeof(h)) :
			NULL;
		if (!p) {
			why = "a record is cut off";
			break;
		}
		memcpy(&h, p, sizeof(h));
		if (h.size < sizeof(h) || h.size > end - off) {
			why = "a record has a damaged size";
			break;
		}
		if (h.type == PERF_RECORD_FINISHED_ROUND) {
			w.limit = w.prev_round_max;
			w.prev_round_max = w.round_max;
			w.flushed = true;
			w.q_prev = w.q_cur;
			w.q_cur = 0;
			if (plan__mark(plan, off, h.size, w.limit, w.round_max)) {
				why = "no memory for the plan";
				break;
			}
			off += h.size;
			continue;
		}
		if (h.type >= PERF_RECORD_USER_TYPE_START) {
			if (!perf_session__inert_type(h.type))
				why = h.type == PERF_RECORD_COMPRESSED ||
					      h.type == PERF_RECORD_COMPRESSED2 ?
					  "the records are compressed" :
				      h.type == PERF_RECORD_AUXTRACE ||
					      h.type == PERF_RECORD_AUXTRACE_INFO ?
					  "the recording holds a hardware trace" :
					  "a record of perf's whose effect spans the recording";
			off += h.size;
			continue;
		}
		if (!h.type || (h.type >= PERF_RECORD_MAX && h.type != 21) || h.size % 8) {
			why = "a kernel record of an unknown type or size";
			break;
		}
		p = perf_data__window_peek(session->data, &win, off, h.size);
		if (!p) {
			why = "a record cannot be mapped";
			break;
		}
		if ((uintptr_t)p & 7) {
			/* after a user record of odd size: the session copies, so do we */
			if (!copy && !(copy = malloc(1 << 16))) {
				why = "no memory for the plan";
				break;
			}
			memcpy(copy, p, h.size);
			p = copy;
		}
		event = p;
		if (h.type == PERF_RECORD_SAMPLE) {
			if (!(evsel = evlist__event2evsel(evlist, event)) ||
			    evsel__parse_sample_key(evsel, event, &key))
				why = "a sample does not parse";
			else if (evlist->nr_entries > 1 && key.id != (u64)-1 && key.id &&
				 !evlist__id2evsel(evlist, key.id))
				why = "a sample of an unknown event";
			else if (!key.time || key.time == (u64)-1)
				why = "the samples have no time";
			t = key.time;
			plan->sample_bytes += plan__weight(plan, h.size);
			plan__run(plan,
				  &(struct sample_run){off, off + h.size, 1, key.time, key.time},
				  session->data_size);
			if (!plan->kernel_samples &&
			    (h.misc & PERF_RECORD_MISC_CPUMODE_MASK) == PERF_RECORD_MISC_KERNEL)
				plan__kernel_sample(plan);
		} else if (perf_event__check(event)) {
			why = "a damaged record";
			break;
		} else if (!(evsel = evlist__event2evsel(evlist, event)) ||
			   evsel__parse_sample_time(evsel, event, &t) || !t || t == (u64)-1) {
			/* delivered as it is read, in every worker alike */
			off += h.size;
			continue;
		}
		if (!why)
			why = walk_rounds__add(&w, t, h.size);
		off += h.size;
	}
	free(copy);
	perf_data__window_put(&win);
	if (fast && fast->time && !dump_trace)
		plan->time_at = sizeof(struct perf_event_header) + fast->time - 1;
	return why;
}

struct walk_arg {
	struct perf_session *session;
	struct workers_plan *plan;
};

static void *workers__walk_thread(void *p)
{
	struct walk_arg *a = p;
	const char *why = workers__walk(a->session, a->plan);

	pthread_mutex_lock(&a->plan->lock);
	a->plan->why = why;
	a->plan->walked = true;
	pthread_cond_signal(&a->plan->cond);
	pthread_mutex_unlock(&a->plan->lock);
	return NULL;
}

static void workers__preload_kernel(struct perf_session *session)
{
	if (session->tool->preload_kernel)
		session->tool->preload_kernel(session->tool, session->machine);
	else
		machine__preload_kernel(session->machine);
}

/*
 * The walk, and beside it the kernel's symbols once a sample in the
 * kernel is seen (never read otherwise, as with one worker): both are
 * what the workers would each do, done once, and reading /proc/kallsyms
 * is tens of milliseconds of the kernel's time.  The walk touches the
 * data file and the evlist only, the symbols the machine only.
 */
static const char *workers__walk_and_load(struct perf_session *session, struct workers_plan *plan)
{
	struct walk_arg a = {session, plan};
	pthread_t thread;
	bool kernel;

	pthread_mutex_init(&plan->lock, NULL);
	pthread_cond_init(&plan->cond, NULL);
	if (pthread_create(&thread, NULL, workers__walk_thread, &a)) {
		workers__walk_thread(&a);
	} else {
		pthread_mutex_lock(&plan->lock);
		while (!plan->kernel_samples && !plan->walked)
			pthread_cond_wait(&plan->cond, &plan->lock);
		kernel = plan->kernel_samples;
		pthread_mutex_unlock(&plan->lock);
		if (kernel)
			workers__preload_kernel(session);
		pthread_join(thread, NULL);
	}
	pthread_mutex_destroy(&plan->lock);
	pthread_cond_destroy(&plan->cond);
	if (!plan->why && plan->kernel_samples)
		workers__preload_kernel(session);
	return plan->why;
}

/*
 * Chunks of about equal sample bytes, cut at round limits so that a chunk
 * ends at a round; then where each chunk's rounds begin and end.
 */
static const char *workers__cut(struct perf_session *session, struct workers_plan *plan,
				unsigned int nr_workers)
{
	unsigned int want = nr_workers * WORKERS_CHUNKS_PER_WORKER, c = 1;
	u64 most = worker_output__ring_size(nr_workers) / WORKERS_CHUNK_RING_SHARE;
	size_t m = 0;

	if (plan->sample_bytes / most > want)
		want = plan->sample_bytes / most;
	if (want > WORKERS_MAX_CHUNKS)
		want = WORKERS_MAX_CHUNKS;
	plan->chunks[0].lo = 0;
	while (c < want) {
		u64 target = plan->sample_bytes * c / want;

		while (m < plan->nr_marks && (plan->marks[m].sample_bytes < target ||
					      plan->marks[m].limit <= plan->chunks[c - 1].lo))
			m++;
		if (m == plan->nr_marks || plan->marks[m].sample_bytes >= plan->sample_bytes)
			break;
		plan->chunks[c - 1].hi = plan->chunks[c].lo = plan->marks[m].limit;
		c++;
	}
	if (c < 2)
		return plan->nr_marks ? "the rounds are too few to cut" :
					"the recording has no rounds";
	plan->chunks[c - 1].hi = (u64)-1;
	plan->nr_chunks = c;
	plan->nr_workers = nr_workers < c ? nr_workers : c;
	/* every record before the first round newer than lo is older than lo */
	for (c = 0, m = 0; c < plan->nr_chunks; c++) {
		while (m < plan->nr_marks && plan->marks[m].max < plan->chunks[c].lo)
			m++;
		plan->chunks[c].start_off = m ? plan->marks[m - 1].next_off : session->data_offset;
	}
	/* from the first round that delivers up to hi, every record is newer */
	for (c = 0, m = 0; c + 1 < plan->nr_chunks; c++) {
		while (m < plan->nr_marks && plan->marks[m].limit < plan->chunks[c].hi)
			m++;
		plan->chunks[c].end_off = plan->marks[m].off;
	}
	plan->chunks[c].end_off = (u64)-1;
	return NULL;
}

/* --- in a worker ------------------------------------------------------- */

static bool worker__owns(const struct workers_state *ws, unsigned int c)
{
	return ws->owned[c / 64] & (1ULL << (c % 64));
}

/* the owned and unfinished chunk after @c, or NO_CHUNK */
static unsigned int worker__next_owned(const struct workers_state *ws, unsigned int c)
{
	for (c++; c < ws->plan->nr_chunks; c++)
		if (worker__owns(ws, c))
			return c;
	return NO_CHUNK;
}

/*
 * The parse region: the rounds of the current chunk, and of the owned
 * chunks after it whose rounds overlap them (chunk k + 1's rounds begin
 * before chunk k's end); beyond, the samples are another worker's until
 * the next owned chunk's rounds, where the next step sets the region.
 */
static void worker__set_region(struct perf_session *session, struct workers_state *ws)
{
	const struct workers_plan *plan = ws->plan;
	struct session_window *win = &session->window;
	unsigned int c;

	if (ws->cur == NO_CHUNK) {
		win->parse_from = win->parse_to = 0;
		return;
	}
	win->parse_from = plan->chunks[ws->cur].start_off;
	win->parse_to = plan->chunks[ws->cur].end_off;
	for (c = worker__next_owned(ws, ws->cur);
	     c != NO_CHUNK && plan->chunks[c].start_off <= win->parse_to;
	     c = worker__next_owned(ws, c))
		if (plan->chunks[c].end_off > win->parse_to)
			win->parse_to = plan->chunks[c].end_off;
}

/* every sample of chunk ws->cur is read: delivered, and its output closed */
static int worker__finish_chunk(struct perf_session *session, struct workers_state *ws)
{
	const struct chunk *ch = &ws->plan->chunks[ws->cur];
	struct perf_tool *tool = session->tool;
	unsigned int c = ws->cur;
	int err;

	err = ordered_events__flush_until(session->ordered, ch->hi - 1);
	if (!err && tool->flush_output)
		err = tool->flush_output(tool);
	if (!err)
		err = worker_output__end(ws->out);
	if (err)
		return err;
	ws->owned[c / 64] &= ~(1ULL << (c % 64));
	ws->cur = worker__next_owned(ws, c);
	worker_output__begin(ws->out, ws->cur);
	/* one write of 4 bytes to a pipe: whole, never interleaved with another */
	if (write(ws->done_fd, &c, sizeof(c)) != sizeof(c))
		return -errno;
	return 0;
}

static void worker__own(struct workers_state *ws, unsigned int c)
{
	ws->owned[c / 64] |= 1ULL << (c % 64);
	if (c == ws->plan->nr_chunks - 1)
		ws->owns_last = true;
}

int session_window__step(struct perf_session *session, u64 off)
{
	struct session_window *win = &session->window;
	struct workers_state *ws = win->ws;
	const struct workers_plan *plan = ws->plan;
	u64 next_claim = (u64)-1;
	unsigned int u;
	int err;

	while (ws->cur != NO_CHUNK && off >= plan->chunks[ws->cur].end_off) {
		err = worker__finish_chunk(session, ws);
		if (err)
			return err;
	}
	/* the next free chunk is this worker's if its reading is the first there */
	for (;;) {
		u = __atomic_load_n(&ws->shared->next, __ATOMIC_ACQUIRE);
		if (u >= plan->nr_chunks)
			break;
		if (plan->chunks[u].start_off > off) {
			next_claim = plan->chunks[u].start_off;
			break;
		}
		if (plan->chunks[u].start_off < off) {
			/* past it: another worker behind this one takes it */
			next_claim = off + 1;
			break;
		}
		if (!__atomic_compare_exchange_n(&ws->shared->next, &u, u + 1, false,
						 __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
			continue;
		worker__own(ws, u);
		if (ws->cur == NO_CHUNK || u < ws->cur) {
			ws->cur = u;
			worker_output__begin(ws->out, u);
		}
	}
	/* nothing of its own left: the rest is read only when its side-band is wanted */
	if (ws->cur == NO_CHUNK && u >= plan->nr_chunks && !session->workers_read_side_band) {
		win->stop = true;
		return 0;
	}
	worker__set_region(session, ws);
	win->next_off = next_claim;
	if (ws->cur != NO_CHUNK && plan->chunks[ws->cur].end_off < win->next_off)
		win->next_off = plan->chunks[ws->cur].end_off;
	return 0;
}

/* the chunk of a sample of time @time: the last whose start is not after it */
static unsigned int worker__chunk_at(struct workers_state *ws, u64 time)
{
	const struct workers_plan *plan = ws->plan;
	unsigned int lo = 0, hi = plan->nr_chunks;
	const struct chunk *ch = &plan->chunks[ws->last];

	/* samples come near in time to the one before: most are in its chunk */
	if (ch->lo <= time && time < ch->hi)
		return ws->last;
	while (hi - lo > 1) {
		unsigned int mid = (lo + hi) / 2;

		if (plan->chunks[mid].lo <= time)
			lo = mid;
		else
			hi = mid;
	}
	ws->last = lo;
	return lo;
}

bool session_window__keeps(struct perf_session *session, u64 time)
{
	struct workers_state *ws = session->window.ws;

	return worker__owns(ws, worker__chunk_at(ws, time));
}

int session_window__run_verdict(struct perf_session *session, u64 t_lo, u64 t_hi)
{
	struct workers_state *ws = session->window.ws;
	unsigned int c = worker__chunk_at(ws, t_lo), last = worker__chunk_at(ws, t_hi);

	if (c == last)
		return worker__owns(ws, c) ? 1 : -1;
	for (; c <= last; c++)
		if (worker__owns(ws, c))
			return 0;
	return -1;
}

u64 session_window__skip_run(struct perf_session *session, u64 off, u64 end, bool sorts_early)
{
	struct session_window *w = &session->window;
	const struct sample_run *r;
	bool inside;
	int v = -1;

	while (w->run < w->nr_runs && w->runs[w->run].off < off)
		w->run++;
	if (w->run == w->nr_runs || w->runs[w->run].off != off || w->runs[w->run].end > end)
		return off;
	r = &w->runs[w->run];
	inside = off >= w->parse_from && off < w->parse_to;
	if (inside)
		v = sorts_early ? session_window__run_verdict(session, r->t_lo, r->t_hi) : 0;
	if (v >= 0) {
		w->keep_until = v > 0 ? r->end : 0;
		return off;
	}
	session->stats.total_bytes += r->end - off;
	session->stats.nr_events[PERF_RECORD_SAMPLE] += r->nr;
	if (inside) {
		ordered_events__note(session->ordered, r->t_lo);
		ordered_events__note(session->ordered, r->t_hi);
	}
	return r->end;
}

bool session_window__drop_sample(struct perf_session *session, const void *rec, u32 size)
{
	u64 t;

	memcpy(&t, (const char *)rec + session->window.time_at, sizeof(t));
	if (session_window__keeps(session, t))
		return false;
	session->stats.total_bytes += size;
	session->stats.nr_events[PERF_RECORD_SAMPLE]++;
	ordered_events__note(session->ordered, t);
	return true;
}

struct worker_counts {
	u64 nr_oversized_samples;
	u64 first_oversized_sample;
};

bool session_window__gather_stats(struct perf_session *session)
{
	struct workers_state *ws = session->window.ws;
	struct events_stats *s = &session->stats;
	struct worker_counts c;
	unsigned int i;

	if (!ws->owns_last) {
		c.nr_oversized_samples = s->nr_oversized_samples;
		c.first_oversized_sample = s->first_oversized_sample;
		/* one write of a few bytes to a pipe: whole, never interleaved */
		if (write(ws->stats_wr, &c, sizeof(c)) != sizeof(c))
			pr_debug("worker: its counts were not passed on: %s\n", strerror(errno));
		return false;
	}
	for (i = 1; i < ws->plan->nr_workers; i++) {
		ssize_t n;

		do
			n = read(ws->stats_rd, &c, sizeof(c));
		while (n < 0 && errno == EINTR);
		if (n != sizeof(c))
			break;
		if (c.nr_oversized_samples &&
		    (!s->nr_oversized || c.first_oversized_sample < s->first_oversized))
			s->first_oversized = c.first_oversized_sample;
		s->nr_oversized += c.nr_oversized_samples;
	}
	return true;
}

struct workers_pipes {
	int done[2];
	int stats[2];
	int state[WORKERS_MAX][2]; /* a worker's gathered state: session_window__gather() */
};

static void worker__close_state_reads(struct workers_state *ws)
{
	for (unsigned int i = 0; i < ws->plan->nr_workers; i++) {
		if (ws->state_rd[i] >= 0)
			close(ws->state_rd[i]);
		ws->state_rd[i] = -1;
	}
}

/* one worker's state, read whole by @merge: -ECANCELED when it did not come */
static int worker__merge_one(int fd, int (*merge)(void *arg, FILE *fp), void *arg)
{
	FILE *fp = fdopen(fd, "r");
	int err, c;

	if (!fp) {
		close(fd);
		return -errno;
	}
	/* nothing at all: its worker failed before sending, and says why itself */
	c = getc(fp);
	if (c == EOF) {
		fclose(fp);
		return -ECANCELED;
	}
	ungetc(c, fp);
	err = merge(arg, fp);
	/* a state cut short is its worker's failure too */
	if (err == -ENODATA || (!err && getc(fp) != EOF))
		err = -ECANCELED;
	fclose(fp);
	return err;
}

#define WORKER_STATE_NO_STR 0xffffffffU
/* a name longer than this is no name a worker sent */
#define WORKER_STATE_MAX_STR 65536U

int worker_state__write(FILE *fp, const void *buf, size_t size)
{
	return size && fwrite(buf, size, 1, fp) != 1 ? -EIO : 0;
}

int worker_state__read(FILE *fp, void *buf, size_t size)
{
	return size && fread(buf, size, 1, fp) != 1 ? -ENODATA : 0;
}

int worker_state__write_str(FILE *fp, const char *s)
{
	u32 len = s ? strlen(s) : WORKER_STATE_NO_STR;
	int err = worker_state__write(fp, &len, sizeof(len));

	return err || !s ? err : worker_state__write(fp, s, len);
}

int worker_state__read_str(FILE *fp, char **buf, size_t *size, const char **out)
{
	u32 len;
	int err = worker_state__read(fp, &len, sizeof(len));

	*out = NULL;
	if (err || len == WORKER_STATE_NO_STR)
		return err;
	if (len > WORKER_STATE_MAX_STR)
		return -ENODATA;
	if (len + 1 > *size) {
		char *p = realloc(*buf, len + 1);

		if (!p)
			return -ENOMEM;
		*buf = p;
		*size = len + 1;
	}
	err = worker_state__read(fp, *buf, len);
	if (err)
		return err;
	(*buf)[len] = '\0';
	*out = *buf;
	return 0;
}

int session_window__gather(struct perf_session *session, int (*send)(void *arg, FILE *fp),
			   int (*merge)(void *arg, FILE *fp), void *arg)
{
	struct workers_state *ws = session->window.ws;
	int err = 0, fd = ws->state_wr;
	FILE *fp;

	ws->state_wr = -1;
	if (!ws->owns_last) {
		/*
		 * not the merger: its reads closed first, so that a merger
		 * that failed leaves this write an EPIPE, never a wait
		 */
		worker__close_state_reads(ws);
		signal(SIGPIPE, SIG_IGN);
		fp = fdopen(fd, "w");
		if (!fp) {
			close(fd);
			return -errno;
		}
		err = send(arg, fp);
		if (fclose(fp) && !err)
			err = -errno;
		/* a merger gone has said why: this worker's part ends quietly */
		return err == -EPIPE ? -ECANCELED : (err ?: 0);
	}
	close(fd);
	for (unsigned int i = 0; i < ws->plan->nr_workers; i++) {
		int e;

		if (i == ws->self || ws->state_rd[i] < 0)
			continue;
		e = worker__merge_one(ws->state_rd[i], merge, arg);
		ws->state_rd[i] = -1;
		if (e && !err)
			err = e;
	}
	return err ?: 1;
}

static void __attribute__((noreturn))
workers__child(struct perf_session *session, struct workers_plan *plan, unsigned int k,
	       struct workers_shared *shared, struct workers_pipes *pp, struct worker_output *out,
	       int (*body)(void *arg), void *arg)
{
	struct workers_state *ws = &worker_state;
	unsigned int wake = NO_CHUNK;
	int ret;

	close(pp->done[0]);
	memset(ws, 0, sizeof(*ws));
	ws->plan = plan;
	ws->shared = shared;
	ws->out = out;
	ws->done_fd = pp->done[1];
	ws->stats_rd = pp->stats[0];
	ws->stats_wr = pp->stats[1];
	ws->self = k;
	for (unsigned int i = 0; i < plan->nr_workers; i++) {
		ws->state_rd[i] = pp->state[i][0];
		/* only its own pipe's write end: the merger sees the others' ends */
		if (i != k)
			close(pp->state[i][1]);
	}
	ws->state_wr = pp->state[k][1];
	worker__own(ws, k);
	ws->cur = k;
	session->window = (struct session_window){
	    .active = true,
	    .next_off = plan->chunks[k].start_off,
	    .runs = plan->runs,
	    .nr_runs = plan->nr_runs,
	    .time_at = plan->time_at,
	    .ws = ws,
	};
	worker__set_region(session, ws);
	ret = worker_output__attach(out, k);
	if (!ret) {
		worker_output__begin(out, k);
		ret = body(arg);
	}
	/* the last chunk ends with the data */
	if (!ret && ws->cur == plan->nr_chunks - 1) {
		unsigned int c = ws->cur;

		ret = worker_output__end(out);
		if (!ret && write(ws->done_fd, &c, sizeof(c)) == sizeof(c))
			ws->cur = NO_CHUNK;
	}
	worker_output__leave(out);
	shared->quiet_end[k] = !ret && ws->cur != NO_CHUNK;
	shared->result[k] = ret;
	shared->end_chunk[k] = ws->cur;
	__atomic_store_n(&shared->ended[k], true, __ATOMIC_RELEASE);
	/* the parent looks again: an unfinished chunk's lines, or a reader gone */
	if (write(ws->done_fd, &wake, sizeof(wake)) != sizeof(wake))
		pr_debug("worker: the parent was not woken: %s\n", strerror(errno));
	/* no exit handlers: they are the parent's to run */
	_exit(0);
}

static void workers__kill(pid_t *pids, unsigned int nr)
{
	unsigned int k;

	for (k = 0; k < nr; k++)
		if (pids[k] > 0)
			kill(pids[k], SIGKILL);
}

/* one worker killed by a signal (said), its pid then 0 */
static bool workers__any_killed(struct perf_session *session, struct workers_plan *plan,
				pid_t *pids)
{
	unsigned int k;

	for (k = 0; k < plan->nr_workers; k++) {
		int status;

		if (pids[k] <= 0 || waitpid(pids[k], &status, WNOHANG) != pids[k])
			continue;
		pids[k] = -pids[k]; /* reaped: not waited for again */
		if (WIFSIGNALED(status)) {
			pr_err("%s: worker %u of %u was killed by signal %d\n", session->path,
			       k + 1, plan->nr_workers, WTERMSIG(status));
			return true;
		}
	}
	return false;
}

/*
 * Every chunk before the turn is written, and the chunk in turn is one a
 * worker ended without finishing: nothing after it will be written, and
 * a worker ahead may wait for room for ever (worker-output.c).
 */
static bool workers__stuck(const struct workers_plan *plan, struct workers_shared *shared,
			   const struct worker_output *out)
{
	unsigned int t = worker_output__turn(out), k;

	for (k = 0; t < plan->nr_chunks && k < plan->nr_workers; k++)
		if (__atomic_load_n(&shared->ended[k], __ATOMIC_ACQUIRE) &&
		    shared->end_chunk[k] == t)
			return true;
	return false;
}

static double workers__now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static double rusage__seconds(const struct rusage *ru)
{
	return ru->ru_utime.tv_sec + ru->ru_stime.tv_sec +
	       (ru->ru_utime.tv_usec + ru->ru_stime.tv_usec) / 1e6;
}

/*
 * The chunks finished ahead of their turn written out as the turn comes
 * (worker-output.c), each time a worker says it finished one; then the
 * workers' ends.  0, or the first failing worker's error after the
 * output it made.
 */
static int workers__join(struct perf_session *session, struct workers_plan *plan,
			 struct workers_shared *shared, struct worker_output *out, pid_t *pids,
			 int done_fd)
{
	bool gone = false, stopped = false;
	unsigned int next, k, c;
	int ret = 0;

	while (worker_output__turn(out) < plan->nr_chunks) {
		struct pollfd pfd = {.fd = done_fd, .events = POLLIN};
		ssize_t n;
		int e;

		/*
		 * A worker killed by a signal leaves the others waiting for its
		 * counts or chunks: look for one now and then
		 */
		if (poll(&pfd, 1, 500) == 0) {
			if (workers__any_killed(session, plan, pids)) {
				workers__kill(pids, plan->nr_workers);
				ret = -EIO;
				gone = true;
				break;
			}
			continue;
		}
		n = read(done_fd, &c, sizeof(c));
		if (n < 0 && errno == EINTR)
			continue;
		e = worker_output__advance(out);
		if (e) {
			/* a reader that went away ends the run, as it ends one worker's */
			if (e != -EPIPE) {
				pr_err("writing the output failed: %s\n", strerror(-e));
				ret = e;
			}
			gone = true;
			workers__kill(pids, plan->nr_workers);
			break;
		}
		if (n != sizeof(c))
			break; /* every worker has ended */
		/* the others' work after a chunk that cannot end is lost anyway */
		if (workers__stuck(plan, shared, out)) {
			workers__kill(pids, plan->nr_workers);
			stopped = true;
			break;
		}
	}
	for (k = 0; k < plan->nr_workers; k++) {
		struct rusage ru;
		int status = 0;
		u64 kept, waits, ring;

		if (pids[k] <= 0)
			continue;
		while (wait4(pids[k], &status, 0, &ru) < 0 && errno == EINTR)
			;
		/*
		 * so that the share of the serial part shows what more CPUs
		 * would give, and what waited for its turn where
		 */
		worker_output__counts(out, k, &kept, &waits, &ring);
		pr_debug("%s: worker %u of %u: %.3f s CPU; printed ahead: %.1f MB, waited for room "
			 "%" PRIu64 " times (ring %" PRIu64 " MB)\n",
			 session->path, k + 1, plan->nr_workers, rusage__seconds(&ru), kept / 1e6,
			 waits, ring >> 20);
		if (gone || ret)
			continue;
		if (stopped) {
			/*
			 * the error is the one a worker ended with (said before it
			 * woke the parent, which may have killed it on its way out)
			 */
			if (__atomic_load_n(&shared->ended[k], __ATOMIC_ACQUIRE) &&
			    shared->result[k])
				ret = shared->result[k];
			continue;
		}
		if (!WIFEXITED(status)) {
			pr_err("%s: worker %u of %u was killed by signal %d\n", session->path,
			       k + 1, plan->nr_workers, WTERMSIG(status));
			ret = -EIO;
		} else if (shared->result[k] && !ret) {
			ret = shared->result[k];
		}
	}
	next = worker_output__turn(out);
	if (!gone && next < plan->nr_chunks) {
		bool quiet = false;

		for (k = 0; k < plan->nr_workers; k++)
			quiet |= shared->quiet_end[k];
		/* what the chunk that failed had printed, with its error */
		worker_output__write_partial(out);
		if (!ret && !quiet) {
			pr_err("%s: chunk %u of %u was left unfinished\n", session->path, next + 1,
			       plan->nr_chunks);
			ret = -EIO;
		}
	}
	return ret;
}

/*
 * Forks the workers, last first: if one cannot be made, the ones made
 * have printed only ahead of chunk 0's turn, kept in memory, and one
 * worker can still read it all.
 */
static int workers__run(struct perf_session *session, struct workers_plan *plan,
			int (*body)(void *arg), void *arg, bool *ran)
{
	struct workers_pipes pp = {{-1, -1}, {-1, -1}, {{0}}};
	struct workers_shared *shared;
	struct worker_output *out = NULL;
	pid_t pids[WORKERS_MAX] = {0};
	unsigned int k, c;
	int ret = 0;

	*ran = false;
	shared =
	    mmap(NULL, sizeof(*shared), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (shared == MAP_FAILED)
		return 0;
	memset(shared, 0, sizeof(*shared));
	shared->next = plan->nr_workers;
	for (k = 0; k < WORKERS_MAX; k++)
		pp.state[k][0] = pp.state[k][1] = -1;
	out = worker_output__new(plan->nr_workers, plan->nr_chunks);
	if (!out || pipe2(pp.done, O_CLOEXEC) || pipe2(pp.stats, O_CLOEXEC))
		goto out;
	for (k = 0; k < plan->nr_workers; k++)
		if (pipe2(pp.state[k], O_CLOEXEC))
			goto out;
	fflush(stdout);
	fflush(stderr);
	for (k = plan->nr_workers; k-- > 0;) {
		pids[k] = fork();
		if (!pids[k]) {
			workers__child(session, plan, k, shared, &pp, out, body, arg);
		}
		if (pids[k] < 0) {
			pr_debug("%s: fork: %s: one worker\n", session->path, strerror(errno));
			pids[k] = 0;
			workers__kill(pids, plan->nr_workers);
			for (c = k + 1; c < plan->nr_workers; c++)
				waitpid(pids[c], NULL, 0);
			goto out;
		}
	}
	*ran = true;
	close(pp.done[1]);
	pp.done[1] = -1;
	/* the workers' states are theirs alone: a reader gone must be seen as gone */
	for (k = 0; k < plan->nr_workers; k++) {
		close(pp.state[k][0]);
		close(pp.state[k][1]);
		pp.state[k][0] = pp.state[k][1] = -1;
	}
	ret = workers__join(session, plan, shared, out, pids, pp.done[0]);
	if (verbose > 0) {
		struct rusage self;

		getrusage(RUSAGE_SELF, &self);
		pr_debug("%s: serial part (setup, plan, joining): %.3f s CPU\n", session->path,
			 rusage__seconds(&self));
	}
out:
	for (k = 0; k < 2; k++) {
		if (pp.done[k] >= 0)
			close(pp.done[k]);
		if (pp.stats[k] >= 0)
			close(pp.stats[k]);
	}
	for (k = 0; k < WORKERS_MAX; k++) {
		if (pp.state[k][0] >= 0)
			close(pp.state[k][0]);
		if (pp.state[k][1] >= 0)
			close(pp.state[k][1]);
	}
	worker_output__delete(out);
	munmap(shared, sizeof(*shared));
	return ret;
}

/*
 * The size --threads' default goes by: the data's, less the samples'
 * user stack dumps (--call-graph dwarf: 8 kB of every sample, while the
 * lines it prints are a chain; each worker would also read the objects'
 * CFI again for its share), estimated from the first sample that has one
 */
static u64 workers__auto_bytes(struct perf_session *session)
{
	u64 stack = workers__stack_bytes(session->evlist), bytes = session->data_size;
	u64 off = session->data_offset, end = off + session->data_size;
	struct perf_data_window win = {.base = NULL};

	for (int n = 0; stack && n < 4096 && end - off >= sizeof(struct perf_event_header); n++) {
		const void *p = perf_data__window_peek(session->data, &win, off,
						       sizeof(struct perf_event_header));
		struct perf_event_header h;

		if (!p)
			break;
		/* after a user record of odd size a header is not aligned */
		memcpy(&h, p, sizeof(h));
		if (h.size < sizeof(h))
			break;
		if (h.type == PERF_RECORD_SAMPLE && h.size > stack + 64) {
			bytes = bytes / h.size * (h.size - stack);
			break;
		}
		off += h.size;
	}
	perf_data__window_put(&win);
	return bytes;
}

int perf_session__run_workers(struct perf_session *session, unsigned int nr_workers,
			      int (*body)(void *arg), void *arg)
{
	struct workers_plan *plan;
	bool automatic = !nr_workers, ran = false;
	const char *why = NULL;
	double t_walk, t_fork;
	int ret = 0;

	if (automatic)
		nr_workers = session_workers__nr_cpus();
	if (nr_workers > WORKERS_MAX)
		nr_workers = WORKERS_MAX;
	if (nr_workers < 2)
		return body(arg);
	if (automatic &&
	    (session->is_pipe || workers__auto_bytes(session) < WORKERS_AUTO_MIN_BYTES)) {
		pr_debug("%s: one worker: a small recording\n", session->path);
		return body(arg);
	}
	plan = calloc(1, sizeof(*plan));
	if (!plan)
		return body(arg);
	why = workers__check_session(session);
	if (why) {
		pr_debug("%s: one worker: %s\n", session->path, why);
		goto out_body;
	}
	/*
	 * What every worker would set up alike, set up once: the side-band
	 * at the start (read as one worker reads it, whatever comes next),
	 * the walk, the kernel's symbols
	 */
	ret = perf_session__process_preamble(session);
	if (ret)
		goto out;
	t_walk = workers__now();
	why = workers__walk_and_load(session, plan) ?: workers__cut(session, plan, nr_workers);
	t_fork = workers__now();
	if (why) {
		pr_debug("%s: one worker: %s\n", session->path, why);
		goto out_body;
	}
	if (verbose > 0) {
		unsigned int c;

		pr_debug("%s: %u workers, %u chunks from", session->path, plan->nr_workers,
			 plan->nr_chunks);
		for (c = 1; c < plan->nr_chunks; c++)
			pr_debug(" %" PRIu64 ".%09" PRIu64, plan->chunks[c].lo / 1000000000,
				 plan->chunks[c].lo % 1000000000);
		pr_debug("\n");
	}
	ret = workers__run(session, plan, body, arg, &ran);
	if (ran) {
		pr_debug("%s: wall time: walk and kernel symbols %.3f s, workers %.3f s\n",
			 session->path, t_fork - t_walk, workers__now() - t_fork);
		goto out;
	}
out_body:
	ret = body(arg);
out:
	free(plan->marks);
	free(plan->runs);
	free(plan);
	return ret;
}
