// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fuzz target: a whole recording through the session, as script and
 * report read one: header, attrs, features (tracing data, build-ids,
 * topologies...), records in time order or as they come, COMPRESSED
 * payloads through zstd, the machine model fed with the side-band.  The
 * input is the perf.data: read from a memfd (file mode, or the stream
 * reader when it starts with the pipe header), and when it is a pipe
 * recording also from a real pipe on stdin, as "perf record -o - |"
 * gives it.  Samples have their pointers dereferenced and their
 * tracepoint payloads formatted, so that a field the parser left
 * pointing past its record is a sanitizer report here.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "fuzz.h"
#include "../util/header.h"
#include "../util/session.h"
#include "../util/trace-event.h"

struct fuzz_session_tool {
	struct perf_tool tool;
	struct perf_session *session;
	struct trace_events *trace;
	bool trace_tried;
	u64 sum; /* what the pointers gave: keeps the reads from being optimized out */
};

static u64 sum_bytes(const void *p, u64 len)
{
	const u8 *b = p;
	u64 s = 0;

	for (u64 i = 0; i < len; i++)
		s += b[i];
	return s;
}

static int fs__sample(struct perf_tool *tool, union perf_event *event, struct perf_sample *sample,
		      struct evsel *evsel, struct machine *machine)
{
	struct fuzz_session_tool *ft = (struct fuzz_session_tool *)tool;
	struct perf_env *env = &ft->session->env;
	u64 s = sample->ip + sample->time;

	if (sample->callchain)
		s += sum_bytes(sample->callchain->ips, sample->callchain->nr * 8);
	if (sample->raw_data)
		s += sum_bytes(sample->raw_data, sample->raw_size);
	if (sample->branch_entries)
		s += sum_bytes(sample->branch_entries,
			       sample->branch_nr * sizeof(*sample->branch_entries));
	if (sample->user_regs.regs)
		s += sum_bytes(sample->user_regs.regs,
			       8 * __builtin_popcountll(sample->user_regs.mask));
	if (sample->intr_regs.regs)
		s += sum_bytes(sample->intr_regs.regs,
			       8 * __builtin_popcountll(sample->intr_regs.mask));
	if (sample->user_stack.data)
		s += sum_bytes(sample->user_stack.data, sample->user_stack.size);
	if (sample->aux_data)
		s += sum_bytes(sample->aux_data, sample->aux_size);

	/* a pipe's tracing data may come after the first samples */
	if (!ft->trace_tried && env->tracing_data && env->tracing_data_size) {
		ft->trace_tried = true;
		ft->trace = trace_events__new(env->tracing_data, env->tracing_data_size,
					      ft->session->path, env->tracing_data_offset);
	}
	if (ft->trace && evsel && evsel->attr.type == PERF_TYPE_TRACEPOINT && sample->raw_data) {
		void *fmt = trace_events__find(ft->trace, evsel->attr.config);
		const char *text;

		if (fmt) {
			text = trace_events__format(ft->trace, fmt, sample->cpu, sample->raw_data,
						    sample->raw_size);
			if (text)
				s += strlen(text);
		}
	}
	if (evsel)
		s += strlen(evsel__name(evsel));
	ft->sum += s;
	return 0;
}

static int fs__user_event(struct perf_tool *tool, union perf_event *event,
			  struct perf_session *session)
{
	((struct fuzz_session_tool *)tool)->sum += event->header.type;
	return 0;
}

static int fs__auxtrace_data(struct perf_tool *tool, const void *buf, u64 len)
{
	((struct fuzz_session_tool *)tool)->sum += sum_bytes(buf, len);
	return 0;
}

static void fs__run(const char *path, bool ordered)
{
	struct fuzz_session_tool ft = {
	    .tool =
		{
		    .sample = fs__sample,
		    .user_event = fs__user_event,
		    .auxtrace_data = fs__auxtrace_data,
		    .ordered_events = ordered,
		},
	};

	ft.session = perf_session__new(path, &ft.tool);
	if (!ft.session)
		return;
	perf_session__process_events(ft.session);
	trace_events__delete(ft.trace);
	perf_session__delete(ft.session);
}

/* the input on stdin through a pipe that holds all of it; false when it cannot */
static bool fs__run_pipe(const u8 *data, size_t size, bool ordered)
{
	int p[2], saved;
	bool ran = false;

	if (pipe2(p, O_CLOEXEC))
		return false;
	if (fcntl(p[1], F_SETPIPE_SZ, (int)size) < (int)size)
		goto out_close;
	if (write(p[1], data, size) != (ssize_t)size)
		goto out_close;
	close(p[1]);
	p[1] = -1;
	fflush(stdout);
	saved = dup(STDIN_FILENO);
	if (saved < 0)
		goto out_close;
	if (dup2(p[0], STDIN_FILENO) >= 0) {
		fs__run("-", ordered);
		ran = true;
	}
	dup2(saved, STDIN_FILENO);
	close(saved);
out_close:
	close(p[0]);
	if (p[1] >= 0)
		close(p[1]);
	return ran;
}

int fuzz__session(const u8 *data, size_t size)
{
	char path[64];
	/* which of the two delivery paths: from the input, so that a crash replays */
	bool ordered = !(size & 8);
	u64 magic = 0;
	int fd;

	fd = fuzz__memfd(data, size, path, sizeof(path));
	if (fd < 0)
		return 0;
	fs__run(path, ordered);
	close(fd);

	if (size >= 8)
		memcpy(&magic, data, 8);
	if ((magic == PERF_MAGIC2 || magic == __builtin_bswap64(PERF_MAGIC2)) && size >= 16) {
		u64 hsize;

		memcpy(&hsize, data + 8, 8);
		if (hsize == 16 || hsize == __builtin_bswap64(16ULL))
			fs__run_pipe(data, size, ordered);
	}
	return 0;
}
