/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __PERF_TEXTPOKE_SESSION_WORKERS_H
#define __PERF_TEXTPOKE_SESSION_WORKERS_H

#include <stdbool.h>
#include <stdio.h>

#include "types.h"

struct perf_session;

/*
 * A parallel run of a command that prints as it reads (script): the
 * recording is cut at round boundaries into windows of time, and each
 * window is read by a fork()ed worker that sees the whole side-band but
 * only its window's samples.  The window whose turn it is (all before it
 * written) is written straight to the standard output; the others wait in
 * shared memory until their turn (worker-output.h).  So the output is the one-worker output, byte for byte,
 * whenever the recording's order lets the windows be cut cleanly; when it
 * does not (see session_workers__plan), @body simply runs once.
 *
 * @nr_workers: 0 for one per available CPU (and one alone for a small
 * recording), else that many at most.  @body reads the session with
 * perf_session__process_events() and writes its output; it returns 0 or
 * a negative errno, as the run does.  Under -v the plan, or the reason
 * for one worker, is said.
 */
int perf_session__run_workers(struct perf_session *session, unsigned int nr_workers,
			      int (*body)(void *arg), void *arg);

/*
 * In a worker, at the end of perf_session__process_events(): the others
 * give the last worker what they counted of their windows' samples; true
 * in the last worker, whose summary then covers the whole recording.
 */
bool session_window__gather_stats(struct perf_session *session);

/*
 * In a worker, before the record at @off when off >= window.next_off:
 * finishes the chunks whose samples are all read, claims the next free
 * chunk when this reading is the first at its rounds, sets what is parsed
 * next.  0 or the error of a delivery.
 */
int session_window__step(struct perf_session *session, u64 off);

/*
 * In a worker, after its pass, for a command that prints once the whole
 * recording is read (annotate): what each worker gathered goes to the
 * worker that owns the last chunk, which merges it and prints.  @send
 * writes this worker's state to @fp; @merge reads one other worker's
 * from @fp and adds it to its own (-ENODATA: the state ends early).
 * Returns 1 in the merger once every other state is in, 0 in the others
 * (which print nothing), or a negative errno: -ECANCELED where another
 * worker failed and says why itself, else @send's or @merge's error.
 * The order the states come in is no order of the recording: the merge
 * must not depend on it.
 */
int session_window__gather(struct perf_session *session, int (*send)(void *arg, FILE *fp),
			   int (*merge)(void *arg, FILE *fp), void *arg);

/*
 * What @send writes and @merge reads, the same way for every command: a
 * struct as it lies (the workers are one build on one machine), a string
 * as its length and bytes (NULL as a length of its own).  0, -EIO on a
 * write, -ENODATA where the state ends early or a length is past any
 * string sent; -ENOMEM.  worker_state__read_str() reads into *@buf
 * (*@size bytes, grown), *@out then the string or NULL.
 */
int worker_state__write(FILE *fp, const void *buf, size_t size);
int worker_state__read(FILE *fp, void *buf, size_t size);
int worker_state__write_str(FILE *fp, const char *s);
int worker_state__read_str(FILE *fp, char **buf, size_t *size, const char **out);

/* in a worker: whether a sample at @time is in one of its chunks */
bool session_window__keeps(struct perf_session *session, u64 time);
/*
 * A run of samples in time order, from @t_lo to @t_hi, inside a worker's
 * rounds: -1 when none is its own, 1 when all are, 0 when some may be
 */
int session_window__run_verdict(struct perf_session *session, u64 t_lo, u64 t_hi);
/*
 * In a worker's reading at @off (before @end): when a run of samples
 * begins there that is none of the worker's (outside its chunks' rounds,
 * or inside with the others' times only; @sorts_early: the walk found
 * each sample's time in place), it is stepped over as the queue would
 * drop each sample (counted, their times noted) and its end returned;
 * one all the worker's own is kept without asking each sample
 * (session_window.keep_until); else @off
 */
u64 session_window__skip_run(struct perf_session *session, u64 off, u64 end, bool sorts_early);
/*
 * Another worker's sample in this one's rounds, @rec of @size bytes:
 * dropped by its time read in place, as the queue drops it (counted, its
 * time noted); false when it is the worker's own
 */
bool session_window__drop_sample(struct perf_session *session, const void *rec, u32 size);

/* the CPUs this process may run on (at least 1) */
unsigned int session_workers__nr_cpus(void);

#endif /* __PERF_TEXTPOKE_SESSION_WORKERS_H */
