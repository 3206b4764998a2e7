/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __PERF_TEXTPOKE_WORKER_OUTPUT_H
#define __PERF_TEXTPOKE_WORKER_OUTPUT_H

#include <stdbool.h>
#include <stddef.h>

#include "types.h"

/*
 * The output of a parallel run's workers (session-workers.c), in chunk
 * order, each byte written once to the real stdout and stderr.
 *
 * The chunk whose turn it is (every chunk before it written) is written
 * by its worker straight to the standard output and error.  A worker
 * printing a chunk ahead of its turn keeps what it prints in a ring of
 * shared memory (waiting when it is full), and writes it out
 * itself when the turn reaches the chunk while it still prints it; a
 * chunk finished ahead is written by the parent when its turn comes.
 * What a chunk writes to stdout and to stderr is kept in one sequence,
 * so both go out in the order one worker would write them, also into
 * one file (2>&1).
 *
 * Made by the parent before fork(), so that all see the same memory.
 */
struct worker_output;

/* the bytes of a worker's ring: the chunks are cut so that one fits several times */
size_t worker_output__ring_size(unsigned int nr_workers);

struct worker_output *worker_output__new(unsigned int nr_workers, unsigned int nr_chunks);
void worker_output__delete(struct worker_output *wo);

/* --- in worker @k, after fork() --- */

/* stdout and stderr become the worker's, printing nowhere until a chunk begins */
int worker_output__attach(struct worker_output *wo, unsigned int k);
/* what the worker prints from now is chunk @c's (UINT_MAX: nothing's) */
void worker_output__begin(struct worker_output *wo, unsigned int c);
/* the current chunk is printed whole: 0, or the error of writing it */
int worker_output__end(struct worker_output *wo);
/* at the worker's end: what an unfinished chunk printed is left for the parent */
void worker_output__leave(struct worker_output *wo);

/* --- in the parent --- */

/*
 * Writes the chunks finished ahead whose turn has come.  0; -EPIPE
 * when the reader went away (also when a worker saw it); or the error
 * of a write.
 */
int worker_output__advance(struct worker_output *wo);
/* the first chunk not written whole */
unsigned int worker_output__turn(const struct worker_output *wo);
/* at the end, what the unfinished chunk in turn printed before its worker ended */
int worker_output__write_partial(struct worker_output *wo);
/* what worker @k printed ahead of the turn, how often it waited for room, its ring's size */
void worker_output__counts(const struct worker_output *wo, unsigned int k, u64 *kept, u64 *waits,
			   u64 *ring);

#endif /* __PERF_TEXTPOKE_WORKER_OUTPUT_H */
