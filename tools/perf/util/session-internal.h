/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __PERF_TEXTPOKE_SESSION_INTERNAL_H
#define __PERF_TEXTPOKE_SESSION_INTERNAL_H

/*
 * What session.c (a file's records, and each record whatever its input)
 * and session-pipe.c (a stream's records) share.  Nothing else includes
 * this; the rest of the tree sees session.h.
 */
#include "event.h"
#include "session.h"
#include "types.h"

/* a record header's size is a u16: no record is larger */
#define RECORD_MAX 65536

/* a record read from the input, or one inside a COMPRESSED record */
enum { DEPTH_TOP, DEPTH_DECOMP, NR_DEPTHS };

/*
 * One record at @offset, delivered or queued: 0, or -errno once said;
 * *@skip is the payload that follows it in the input (AUXTRACE,
 * TRACING_DATA), for the reader to step over or read
 */
int perf_session__process_raw(struct perf_session *session, const void *raw, u64 offset, int depth,
			      u64 *skip);

/* a record that cannot be read or does not parse, said now */
void perf_session__record_error(struct perf_session *session, u64 offset, int depth,
				const struct perf_event_header *h, const char *what);
/* the input ends inside a record: said after what came before is delivered */
void perf_session__input_cut(struct perf_session *session, const char *fmt, ...) __printf(2, 3);
void perf_session__record_cut(struct perf_session *session, u64 offset,
			      const struct perf_event_header *h, const char *what);

/* session-pipe.c */
int perf_session__read_pipe_header(struct perf_session *session);
int perf_session__process_pipe(struct perf_session *session);

#endif /* __PERF_TEXTPOKE_SESSION_INTERNAL_H */
