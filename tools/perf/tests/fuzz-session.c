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
 *
 * And a check of its own, which needs no sanitizer (the whole file is
 * mapped, so a read past one record is a read of the next): every area
 * a delivered sample points to, and the string of every delivered
 * side-band record (comm, filename, name, path), lies inside its record.
 * The session refuses what would break that (perf_event__check(),
 * evsel__parse_sample()); corpus/session/comm-unterminated is a COMM
 * whose comm fills its record with no NUL.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "fuzz.h"
#include "../util/header.h"
#include "../util/machine.h"
#include "../util/session.h"
#include "../util/trace-event.h"

struct fuzz_session_tool {
	struct perf_tool tool;
	struct perf_session *session;
	struct trace_events *trace;
	bool trace_tried;
	bool bug; /* a check of the harness failed: FUZZ_BUG */
	u64 sum;  /* what the pointers gave: keeps the reads from being optimized out */
};

/* [p, p + len) inside the record; a bug said once per input when not */
static void fs__inside(struct fuzz_session_tool *ft, const union perf_event *event, const void *p,
		       u64 len, const char *what)
{
	const u8 *start = (const u8 *)event, *end = start + event->header.size, *q = p;

	if (!p || (q >= start && q <= end && len <= (u64)(end - q)))
		return;
	if (!ft->bug)
		fprintf(stderr,
			"fuzz session: a record of type %u, %u bytes: %s at %+lld, %llu "
			"bytes, is not inside it\n",
			event->header.type, event->header.size, what, (long long)(q - start),
			(unsigned long long)len);
	ft->bug = true;
}

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

	if (sample->callchain) {
		fs__inside(ft, event, sample->callchain, 8, "the callchain's nr");
		fs__inside(ft, event, sample->callchain->ips, sample->callchain->nr * 8,
			   "the callchain");
	}
	fs__inside(ft, event, sample->raw_data, sample->raw_size, "the raw data");
	fs__inside(ft, event, sample->branch_entries,
		   sample->branch_nr * sizeof(*sample->branch_entries), "the branch stack");
	fs__inside(ft, event, sample->user_regs.regs,
		   8 * __builtin_popcountll(sample->user_regs.mask), "the user registers");
	fs__inside(ft, event, sample->intr_regs.regs,
		   8 * __builtin_popcountll(sample->intr_regs.mask), "the interrupt registers");
	fs__inside(ft, event, sample->user_stack.data, sample->user_stack.size, "the user stack");
	fs__inside(ft, event, sample->aux_data, sample->aux_size, "the AUX data");
	if (ft->bug)
		return 0;
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

/* the string of a side-band record ends inside it; then the machine model as usual */
static int fs__side_band(struct perf_tool *tool, union perf_event *event,
			 struct perf_sample *sample, struct evsel *evsel, struct machine *machine)
{
	struct fuzz_session_tool *ft = (struct fuzz_session_tool *)tool;
	const char *str = NULL, *end = (const char *)event + event->header.size;

	(void)evsel;
	switch (event->header.type) {
	case PERF_RECORD_COMM:
		str = event->comm.comm;
		break;
	case PERF_RECORD_MMAP:
		str = event->mmap.filename;
		break;
	case PERF_RECORD_MMAP2:
		str = event->mmap2.filename;
		break;
	case PERF_RECORD_KSYMBOL:
		str = event->ksymbol.name;
		break;
	case PERF_RECORD_CGROUP:
		str = event->cgroup.path;
		break;
	default:
		break;
	}
	if (str && (str >= end || !memchr(str, '\0', end - str))) {
		fs__inside(ft, event, str, end - str + 1, "the string");
		return 0;
	}
	return machine__process_event(machine, event, sample);
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

/* true when a check of the harness failed */
static bool fs__run(const char *path, bool ordered)
{
	struct fuzz_session_tool ft = {
	    .tool =
		{
		    .sample = fs__sample,
		    .side_band = fs__side_band,
		    .user_event = fs__user_event,
		    .auxtrace_data = fs__auxtrace_data,
		    .ordered_events = ordered,
		},
	};

	ft.session = perf_session__new(path, &ft.tool);
	if (!ft.session)
		return false;
	perf_session__process_events(ft.session);
	trace_events__delete(ft.trace);
	perf_session__delete(ft.session);
	return ft.bug;
}

/* the input on stdin through a pipe that holds all of it; true when a check failed */
static bool fs__run_pipe(const u8 *data, size_t size, bool ordered)
{
	int p[2], saved;
	bool bug = false;

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
	if (dup2(p[0], STDIN_FILENO) >= 0)
		bug = fs__run("-", ordered);
	dup2(saved, STDIN_FILENO);
	close(saved);
out_close:
	close(p[0]);
	if (p[1] >= 0)
		close(p[1]);
	return bug;
}

int fuzz__session(const u8 *data, size_t size)
{
	char path[64];
	/* which of the two delivery paths: from the input, so that a crash replays */
	bool ordered = !(size & 8), bug;
	u64 magic = 0;
	int fd;

	fd = fuzz__memfd(data, size, path, sizeof(path));
	if (fd < 0)
		return 0;
	bug = fs__run(path, ordered);
	close(fd);

	if (size >= 8)
		memcpy(&magic, data, 8);
	if ((magic == PERF_MAGIC2 || magic == __builtin_bswap64(PERF_MAGIC2)) && size >= 16) {
		u64 hsize;

		memcpy(&hsize, data + 8, 8);
		if (hsize == 16 || hsize == __builtin_bswap64(16ULL))
			bug |= fs__run_pipe(data, size, ordered);
	}
	return bug ? FUZZ_BUG : 0;
}
