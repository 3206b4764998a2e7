// SPDX-License-Identifier: GPL-2.0-only
/*
 * Reading a recording from a pipe: its header, then record after record
 * into a 64 KB buffer (a record header's size is a u16, so no record is
 * larger), each payload that follows its record (TRACING_DATA, an AUX
 * trace) read or stepped over in turn.  The stream is read once, in its
 * order: nothing can be looked at twice, and a record cut off by the end
 * of the stream ends the input as a cut file does.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data.h"
#include "debug.h"
#include "header.h"
#include "interrupt.h"
#include "session-internal.h"
#include "swap.h"

/* a pipe's TRACING_DATA is read in steps, never trusting its size field */
#define TRACING_STEP (1U << 20)
#define TRACING_MAX (1ULL << 30)

int perf_session__read_pipe_header(struct perf_session *session)
{
	struct perf_pipe_file_header h;
	ssize_t n;

	n = perf_data__read(session->data, &h, sizeof(h));
	if (n < (ssize_t)sizeof(h)) {
		pr_err("%s: stream too short for a perf.data pipe header\n", session->path);
		return -EINVAL;
	}
	if (h.magic == __builtin_bswap64(PERF_MAGIC2)) {
		session->needs_swap = true;
		h.size = __builtin_bswap64(h.size);
	} else if (h.magic == 0x454c494646524550ULL) {
		pr_err("%s: legacy v1 'PERFFILE' format is not supported\n", session->path);
		return -EINVAL;
	} else if (h.magic != PERF_MAGIC2) {
		pr_err("%s: not a perf.data stream (bad magic %#" PRIx64 " at 0)\n", session->path,
		       h.magic);
		return -EINVAL;
	}
	if (h.size != sizeof(h)) {
		pr_err("%s: a file-mode perf.data header (size %" PRIu64 ") on a pipe: "
		       "use a regular file\n",
		       session->path, h.size);
		return -EINVAL;
	}
	session->file_header.magic = PERF_MAGIC2;
	session->file_header.size = h.size;
	session->is_pipe = true;
	return 0;
}

static int perf_session__read_tracing_data(struct perf_session *session, u64 size, u64 offset,
					   u64 data_offset)
{
	struct perf_env *env = &session->env;
	u8 *buf = NULL;
	u64 got = 0;

	if (size > TRACING_MAX) {
		pr_err("%s: TRACING_DATA at %#" PRIx64 " claims %" PRIu64 " bytes\n", session->path,
		       offset, size);
		return -EINVAL;
	}
	while (got < size) {
		u64 step = size - got < TRACING_STEP ? size - got : TRACING_STEP;
		u8 *n = realloc(buf, got + step);
		ssize_t r;

		if (!n) {
			free(buf);
			return -ENOMEM;
		}
		buf = n;
		r = perf_data__read(session->data, buf + got, step);
		if (r < (ssize_t)step) {
			free(buf);
			if (r < 0) {
				pr_err("%s: TRACING_DATA at %#" PRIx64 ": cannot read: %s\n",
				       session->path, offset, strerror((int)-r));
				return r;
			}
			perf_session__input_cut(session,
						"%s: TRACING_DATA at %#" PRIx64
						" is cut off by the end of the stream",
						session->path, offset);
			return -EINVAL;
		}
		got += step;
	}
	free(env->tracing_data);
	env->tracing_data = buf;
	env->tracing_data_size = size;
	env->tracing_data_offset = data_offset;
	session->feat_bitmap[0] |= 1ULL << HEADER_TRACING_DATA;
	return 0;
}

/* an AUX trace of a stream, read into @buf (RECORD_MAX bytes) piece by piece */
static int perf_session__stream_auxtrace(struct perf_session *session, u8 *buf, u64 off,
					 const struct perf_event_header *h, u64 len)
{
	while (len) {
		size_t n = len < RECORD_MAX ? len : RECORD_MAX;
		ssize_t got = perf_data__read(session->data, buf, n);
		int err;

		if (got < (ssize_t)n) {
			if (got < 0)
				perf_session__record_error(session, off, 0, h,
							   "has a payload that cannot be read");
			else
				perf_session__record_cut(
				    session, off, h,
				    "has a payload cut off by the end of the stream");
			return got < 0 ? got : -EINVAL;
		}
		err = session->tool->auxtrace_data(session->tool, buf, n);
		if (err)
			return err;
		len -= n;
	}
	return 0;
}

int perf_session__process_pipe(struct perf_session *session)
{
	struct perf_data *data = session->data;
	u8 *buf;
	int err;

	/* the pipe reader owns a separate buffer: scratch[] may hold copies of it */
	buf = malloc(RECORD_MAX + 8);
	if (!buf)
		return -ENOMEM;
	for (;;) {
		u64 off = data->stream_pos, skip = 0;
		struct perf_event_header h;
		ssize_t n;

		if (interrupt__pending()) {
			err = -EINTR;
			goto out;
		}
		n = perf_data__read(data, buf, sizeof(h));
		if (n == 0)
			break;
		if (n < 0) {
			pr_err("%s: record at %#" PRIx64 ": cannot read: %s\n", session->path, off,
			       strerror((int)-n));
			err = n;
			goto out;
		}
		if (n < (ssize_t)sizeof(h)) {
			perf_session__input_cut(
			    session,
			    "%s: record at %#" PRIx64
			    ": header is cut off by the end of the stream (truncated?)",
			    session->path, off);
			err = -EINVAL;
			goto out;
		}
		memcpy(&h, buf, sizeof(h));
		if (session->needs_swap)
			perf_event_header__swap(&h);
		if (h.size < sizeof(h)) {
			perf_session__record_error(session, off, 0, &h,
						   "has an invalid size (corrupt stream?)");
			err = -EINVAL;
			goto out;
		}
		n = perf_data__read(data, buf + sizeof(h), h.size - sizeof(h));
		if (n >= 0 && n < (ssize_t)(h.size - sizeof(h)) && data->eof &&
		    h.type >= PERF_RECORD_HEADER_MAX && !session->legacy_pipe) {
			/* perf record -o - 2>&1: its closing messages end the stream */
			pr_warning("%s: %" PRIu64 " bytes of trailing garbage at %#" PRIx64
				   " ignored\n",
				   session->path, (u64)n + sizeof(h), off);
			break;
		}
		if (n < 0) {
			perf_session__record_error(session, off, 0, &h, "cannot be read");
			err = n;
			goto out;
		}
		if (n < (ssize_t)(h.size - sizeof(h))) {
			perf_session__record_cut(
			    session, off, &h, "is cut off by the end of the stream (truncated?)");
			err = -EINVAL;
			goto out;
		}
		err = perf_session__process_raw(session, buf, off, DEPTH_TOP, &skip);
		if (err)
			goto out;
		if (h.type == PERF_RECORD_HEADER_TRACING_DATA) {
			/* the payload follows the record */
			err = perf_session__read_tracing_data(session, skip, off, off + h.size);
			if (err)
				goto out;
		} else if (skip && h.type == PERF_RECORD_AUXTRACE && session->tool->auxtrace_data) {
			err = perf_session__stream_auxtrace(session, buf, off, &h, skip);
			if (err)
				goto out;
		} else if (skip) {
			s64 s = perf_data__skip(data, skip);

			if (s < 0 || (u64)s < skip) {
				perf_session__record_cut(
				    session, off, &h,
				    "has a payload cut off by the end of the stream");
				err = -EINVAL;
				goto out;
			}
		}
	}
	err = 0;
out:
	free(buf);
	return err;
}
