// SPDX-License-Identifier: GPL-2.0-only
/*
 * inject --itrace: the decode pass and the spool of what it synthesized
 * (inject-itrace.h says how the copy places them).
 *
 * A spooled record is a fixed head and its payload: the raw data of a
 * PSB or CBR sample, a chain's addresses, or an error's message.  The
 * spool is written once, in the decoder's order, and read once, in the
 * same order, so it is a plain temporary stream: memory stays flat
 * however many samples a trace gives (i1i gives one per instruction).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "debug.h"
#include "event.h"
#include "evsel.h"
#include "inject-itrace.h"
#include "machine.h"
#include "session.h"
#include "writer.h"

enum { II_SAMPLE, II_ERROR };

/* perf's synthesized ids start far above the recorded ones (intel_pt_synth_events()) */
#define II_ID_OFFSET 1000000000ULL

/* an AUXTRACE_ERROR's message field holds 64 bytes, NUL included */
#define II_MSG_MAX 64

struct ii_rec {
	u64 time, ip, addr, period;
	s32 pid, tid, cpu;
	u16 kind;
	u8 cpumode;
	u8 pad;
	u32 evsel; /* the synthesized event's index in the decode pass's evlist */
	u32 raw_size;
	u32 nr_chain; /* addresses after the count */
	s32 code;     /* an error's */
	u32 msg_len;
};

struct inject_itrace {
	struct perf_tool tool;
	struct perf_session *session;
	struct itrace *it;
	u64 period; /* the instruction samples' (perf's attr.sample_period) */
	FILE *spool;
	int nr_in;	       /* the input's events: the decode pass's evlist before the trace's */
	u64 newest;	       /* the newest time the copy has passed */
	u64 nr_samples;	       /* spooled */
	u64 nr_errors;	       /* spooled */
	u64 nr_left;	       /* spooled, not yet written */
	struct ii_rec pending; /* read back, not yet due */
	bool has_pending;
	u8 *payload;
	size_t payload_size;
	int err;
};

static struct inject_itrace *tool2ii(struct perf_tool *tool)
{
	return (struct inject_itrace *)((char *)tool - offsetof(struct inject_itrace, tool));
}

static int ii__spool(struct inject_itrace *ii, const struct ii_rec *r, const void *a, size_t alen,
		     const void *b, size_t blen)
{
	if (fwrite(r, sizeof(*r), 1, ii->spool) != 1 ||
	    (alen && fwrite(a, alen, 1, ii->spool) != 1) ||
	    (blen && fwrite(b, blen, 1, ii->spool) != 1)) {
		pr_err("inject --itrace: cannot write the temporary spool of decoded samples: %s\n",
		       strerror(errno));
		return -EIO;
	}
	ii->nr_left++;
	return 0;
}

static int ii__sample(void *arg, struct evsel *evsel, struct perf_sample *sample)
{
	struct inject_itrace *ii = arg;
	struct ii_rec r = {
	    .time = sample->time,
	    .ip = sample->ip,
	    .addr = sample->addr,
	    .period = sample->period,
	    .pid = sample->pid,
	    .tid = sample->tid,
	    .cpu = sample->cpu,
	    .kind = II_SAMPLE,
	    .cpumode = sample->cpumode,
	    .evsel = evsel->idx,
	    .raw_size = sample->raw_size,
	};
	const u64 *ips = NULL;

	if (sample->callchain) {
		r.nr_chain = sample->callchain->nr;
		ips = sample->callchain->ips;
	}
	ii->nr_samples++;
	return ii__spool(ii, &r, sample->raw_data, r.raw_size, ips, r.nr_chain * sizeof(u64));
}

/*
 * perf's text for a decoder error code (intel_pt_error_message[]): what
 * its tools print of an AUXTRACE_ERROR; ours, which names the address,
 * time and trace offset, would not fit the record's 64 bytes
 */
static const char *ii__perf_msg(int code)
{
	static const char *const msg[] = {
	    [1] = "Memory allocation failed",
	    [2] = "Internal error",
	    [3] = "Bad packet",
	    [4] = "No more data",
	    [5] = "Failed to get instruction",
	    [6] = "Trace doesn't match instruction",
	    [7] = "Overflow packet",
	    [8] = "Lost trace data",
	    [9] = "Unknown error!",
	    [10] = "Never-ending loop (refer perf config intel-pt.max-loops)",
	    [11] = "Broken emulated ptwrite",
	};

	return code > 0 && code < (int)ARRAY_SIZE(msg) && msg[code] ? msg[code] : msg[9];
}

static int ii__error(void *arg, const struct itrace_error *e)
{
	struct inject_itrace *ii = arg;
	const char *text = ii__perf_msg(e->code);
	size_t len = strnlen(text, II_MSG_MAX - 1);
	struct ii_rec r = {
	    .time = e->time,
	    .ip = e->ip,
	    .pid = e->pid,
	    .tid = e->tid,
	    .cpu = e->cpu,
	    .kind = II_ERROR,
	    .code = e->code,
	    .msg_len = len,
	};

	ii->nr_errors++;
	return ii__spool(ii, &r, text, len, NULL, 0);
}

/* the decode pass: the tool report's --itrace uses, its samples only decoded up to */
static int ii__tool_sample(struct perf_tool *tool, union perf_event *event __maybe_unused,
			   struct perf_sample *sample, struct evsel *evsel __maybe_unused,
			   struct machine *machine __maybe_unused)
{
	return itrace__flush_until(tool2ii(tool)->it, sample->time);
}

static int ii__tool_side_band(struct perf_tool *tool, union perf_event *event,
			      struct perf_sample *sample, struct evsel *evsel __maybe_unused,
			      struct machine *machine)
{
	struct inject_itrace *ii = tool2ii(tool);
	int err = itrace__flush_until(ii->it, sample->time);

	if (!err)
		err = machine__process_event(machine, event, sample);
	return err ?: itrace__side_band(ii->it, event, sample);
}

static int ii__tool_data(struct perf_tool *tool, const void *buf, u64 len)
{
	return itrace__auxtrace_data(tool2ii(tool)->it, buf, len);
}

static int ii__tool_user_event(struct perf_tool *tool, union perf_event *event,
			       struct perf_session *session)
{
	struct inject_itrace *ii = tool2ii(tool);
	int err;

	/* the trace's events are added after the input's: their place in the output */
	if (event->header.type == PERF_RECORD_AUXTRACE_INFO && ii->nr_in < 0)
		ii->nr_in = session->evlist->nr_entries;
	err = itrace__user_event(ii->it, event, session);
	if (!err && event->header.type == PERF_RECORD_AUXTRACE_INFO)
		ii->tool.auxtrace_data = itrace__active(ii->it) ? ii__tool_data : NULL;
	return err;
}

struct inject_itrace *inject_itrace__new(const char *path, const struct itrace_opts *opts,
					 const struct text_image_opts *text)
{
	struct inject_itrace *ii = calloc(1, sizeof(*ii));
	int err;

	if (!ii)
		return NULL;
	ii->nr_in = -1;
	ii->period = opts->insns ? opts->period : 0;
	ii->tool = (struct perf_tool){
	    .sample = ii__tool_sample,
	    .side_band = ii__tool_side_band,
	    .user_event = ii__tool_user_event,
	    .ordered_events = true,
	};
	ii->spool = tmpfile();
	if (!ii->spool) {
		pr_err(
		    "inject --itrace: cannot make a temporary file for the decoded samples: %s\n",
		    strerror(errno));
		goto fail;
	}
	ii->session = perf_session__new(path, &ii->tool);
	if (!ii->session)
		goto fail;
	ii->it = itrace__new(opts, ii->session, NULL, path, text, NULL, false);
	if (!ii->it || itrace__set_sink(ii->it, ii__sample, ii)) {
		pr_err("inject --itrace: %s\n", strerror(ENOMEM));
		goto fail;
	}
	itrace__set_error_sink(ii->it, ii__error, ii);
	err = perf_session__process_events(ii->session);
	if (!err)
		err = itrace__finish(ii->it);
	if (err)
		goto fail;
	if (!itrace__active(ii->it)) {
		pr_err("%s: --itrace: the recording holds no Intel PT trace this decoder reads\n",
		       path);
		goto fail;
	}
	if (fflush(ii->spool) || fseek(ii->spool, 0, SEEK_SET)) {
		pr_err("inject --itrace: cannot read back the temporary spool: %s\n",
		       strerror(errno));
		goto fail;
	}
	return ii;
fail:
	inject_itrace__delete(ii);
	return NULL;
}

void inject_itrace__delete(struct inject_itrace *ii)
{
	if (!ii)
		return;
	itrace__delete(ii->it);
	if (ii->session)
		perf_session__delete(ii->session);
	if (ii->spool)
		fclose(ii->spool);
	free(ii->payload);
	free(ii);
}

bool inject_itrace__drops(u32 type)
{
	switch (type) {
	case PERF_RECORD_AUXTRACE_INFO:
	case PERF_RECORD_AUXTRACE:
	case PERF_RECORD_AUX:
	case PERF_RECORD_ITRACE_START:
		return true;
	default:
		return false;
	}
}

/*
 * As perf's synthesized attrs: the trace event's exclusion bits, a chain
 * for the events that get one (all but branches) with 'g', the
 * instructions' period
 */
int inject_itrace__add_attrs(struct inject_itrace *ii, struct perf_writer *w, int nr_in)
{
	struct evlist *evlist = ii->session->evlist;
	const struct perf_event_attr *trace = NULL;
	u64 base = 0;
	int i, err;

	if (ii->nr_in < 0 || ii->nr_in != nr_in) {
		pr_err("inject --itrace: the input's events changed between the passes\n");
		return -EINVAL;
	}
	for (i = 0; i < nr_in; i++) {
		struct evsel *evsel = evlist->entries[i];

		if (evsel->nr_ids && evsel->ids[0] > base && !trace)
			base = evsel->ids[0];
		if (!trace && evsel->attr.type != PERF_TYPE_SOFTWARE &&
		    evsel->attr.type != PERF_TYPE_TRACEPOINT)
			trace = &evsel->attr;
	}
	base += II_ID_OFFSET;
	for (i = nr_in; i < evlist->nr_entries; i++) {
		struct evsel *evsel = evlist->entries[i];
		struct perf_event_attr attr = evsel->attr;
		u64 id = base + (i - nr_in);

		if (trace) {
			attr.exclude_user = trace->exclude_user;
			attr.exclude_kernel = trace->exclude_kernel;
			attr.exclude_hv = trace->exclude_hv;
			attr.exclude_host = trace->exclude_host;
			attr.exclude_guest = trace->exclude_guest;
			/* perf's synthesized events read as the trace's does (ID with -a) */
			attr.read_format = trace->read_format;
		}
		if (evsel->attr.type == PERF_TYPE_HARDWARE &&
		    evsel->attr.config == PERF_COUNT_HW_INSTRUCTIONS &&
		    (evsel->attr.sample_type & PERF_SAMPLE_PERIOD) && ii->period)
			attr.sample_period = ii->period;
		if (!(evsel->attr.type == PERF_TYPE_HARDWARE &&
		      evsel->attr.config == PERF_COUNT_HW_BRANCH_INSTRUCTIONS) &&
		    itrace__has_callchains(ii->it))
			attr.sample_type |= PERF_SAMPLE_CALLCHAIN;
		err = perf_writer__add_attr(w, &attr, &id, 1, evsel->name);
		if (err < 0)
			return err;
		if (err != i) {
			pr_err("inject --itrace: the output's attrs are not the input's\n");
			return -EINVAL;
		}
	}
	return 0;
}

void inject_itrace__saw_time(struct inject_itrace *ii, u64 time)
{
	if (time != (u64)-1 && time > ii->newest)
		ii->newest = time;
}

static int ii__read(struct inject_itrace *ii)
{
	struct ii_rec *r = &ii->pending;
	size_t need;

	if (fread(r, sizeof(*r), 1, ii->spool) != 1)
		goto fail;
	if (r->kind == II_ERROR && r->msg_len >= II_MSG_MAX)
		goto fail;
	/* the raw data, then the chain as struct ip_callchain at an 8-byte boundary */
	need = r->kind == II_ERROR ?
		   r->msg_len + 1 :
		   PERF_ALIGN((size_t)r->raw_size, 8) + 8 + (size_t)r->nr_chain * sizeof(u64);
	if (need > ii->payload_size) {
		u8 *p = realloc(ii->payload, need);

		if (!p)
			return -ENOMEM;
		ii->payload = p;
		ii->payload_size = need;
	}
	if (r->kind == II_ERROR) {
		if (r->msg_len && fread(ii->payload, r->msg_len, 1, ii->spool) != 1)
			goto fail;
		ii->payload[r->msg_len] = '\0';
	} else {
		u8 *chain = ii->payload + PERF_ALIGN((size_t)r->raw_size, 8);
		u64 nr = r->nr_chain;

		if (r->raw_size && fread(ii->payload, r->raw_size, 1, ii->spool) != 1)
			goto fail;
		memcpy(chain, &nr, 8);
		if (nr && fread(chain + 8, nr * sizeof(u64), 1, ii->spool) != 1)
			goto fail;
	}
	ii->has_pending = true;
	return 0;
fail:
	pr_err("inject --itrace: the temporary spool of decoded samples cannot be read back\n");
	return -EIO;
}

/* perf's PERF_RECORD_AUXTRACE_ERROR, format 1 (with the time), as perf inject writes it */
static int ii__write_error(struct perf_writer *w, const struct ii_rec *r, const char *msg)
{
	union {
		struct perf_event_header header;
		u8 b[8 + 6 * 4 + 8 + 8 + II_MSG_MAX];
	} ev;
	u32 f[6] = {1, (u32)r->code, (u32)r->cpu, (u32)r->pid, (u32)r->tid, 1};
	size_t size = 8 + sizeof(f) + 8 + 8 + r->msg_len + 1;

	memset(&ev, 0, sizeof(ev));
	size = PERF_ALIGN(size, 8);
	ev.header.type = PERF_RECORD_AUXTRACE_ERROR;
	ev.header.size = size;
	memcpy(ev.b + 8, f, sizeof(f));
	memcpy(ev.b + 32, &r->ip, 8);
	memcpy(ev.b + 40, &r->time, 8);
	memcpy(ev.b + 48, msg, r->msg_len);
	return perf_writer__write_event(w, (const union perf_event *)&ev);
}

static int ii__write(struct inject_itrace *ii, struct perf_writer *w)
{
	const struct ii_rec *r = &ii->pending;
	struct perf_sample s;

	if (r->kind == II_ERROR)
		return ii__write_error(w, r, (const char *)ii->payload);
	memset(&s, 0, sizeof(s));
	s.time = r->time;
	s.ip = r->ip;
	s.addr = r->addr;
	s.period = r->period;
	s.pid = r->pid;
	s.tid = r->tid;
	s.cpu = r->cpu;
	s.cpumode = r->cpumode;
	s.raw_size = r->raw_size;
	s.raw_data = r->raw_size ? ii->payload : NULL;
	if (r->nr_chain)
		s.callchain =
		    (const struct ip_callchain *)(ii->payload + PERF_ALIGN(r->raw_size, 8));
	return perf_writer__synth_sample(w, r->evsel, &s);
}

int inject_itrace__flush(struct inject_itrace *ii, struct perf_writer *w, bool all)
{
	int err;

	while (ii->nr_left || ii->has_pending) {
		if (!ii->has_pending) {
			err = ii__read(ii);
			if (err)
				return err;
			ii->nr_left--;
		}
		if (!all && ii->pending.time > ii->newest)
			return 0;
		err = ii__write(ii, w);
		if (err) {
			pr_err("inject --itrace: cannot write a decoded sample: %s\n",
			       strerror(-err));
			return err;
		}
		ii->has_pending = false;
	}
	return 0;
}

u64 inject_itrace__nr_samples(const struct inject_itrace *ii)
{
	return ii ? ii->nr_samples : 0;
}

u64 inject_itrace__nr_errors(const struct inject_itrace *ii)
{
	return ii ? ii->nr_errors : 0;
}
