// SPDX-License-Identifier: GPL-2.0-only
/*
 * --itrace: the hardware trace of a recording decoded into branch,
 * instruction and error samples, merged in time order across the trace
 * queues and with the recorded events, printed as perf script prints
 * synthesized samples.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "auxtrace.h"
#include "data.h"
#include "header.h"
#include "debug.h"
#include "disasm.h"
#include "dso-inline.h"
#include "dso.h"
#include "evsel.h"
#include "intel-pt-decode.h"
#include "itrace.h"
#include "itrace-stack.h"
#include "machine.h"
#include "map.h"
#include "script-filter.h"
#include "script-print.h"
#include "session.h"
#include "symbol.h"

/* perf's default instruction period: 100 us of trace time */
#define ITRACE_DEFAULT_PERIOD_NS 100000
/* perf's default callchain size for 'g', and the most it takes */
#define ITRACE_DEFAULT_CALLCHAIN_SZ 16
#define ITRACE_MAX_CALLCHAIN_SZ 16384

struct itrace_head {
	bool valid; /* item holds the queue's next item */
	bool done;  /* nothing more until new buffers arrive */
	/* perf's trace_nr: a new one at the start and after each lost sync */
	u64 trace_nr;
	struct intel_pt_item item;
};

struct itrace {
	struct itrace_opts opts;
	struct perf_session *session;
	struct script_printer *printer;
	const char *input;
	const struct text_image_opts *text_opts;
	const struct script_filter *filter;
	bool filtering;
	struct auxtrace at;
	struct intel_pt_info info;
	bool have_info;
	bool broken; /* the trace cannot be decoded: said once */
	struct intel_pt *pt;
	struct text_image *ti;
	bool own_pass; /* a file: the image came from a pass of its own */
	struct evsel *branches_evsel, *insns_evsel, *psb_evsel, *cbr_evsel;
	/* perf's cbr2khz and max_non_turbo_ratio: a CBR event's frequency and share */
	u64 cbr2khz;
	u32 max_nonturbo;
	struct itrace_head *heads;
	size_t nr_heads;
	u64 nr_errors;
	char srcline[PATH_MAX]; /* -F srcline of the item being printed */
	/* objects whose missing code an error was printed about */
	const void *seen[64];
	size_t nr_seen;
	itrace_sample_fn sink; /* report: the samples go there, not to the printer */
	void *sink_arg;
	itrace_error_fn error_sink; /* inject: the errors become records */
	void *error_arg;
	/* the item whose sample the sink has, for itrace__sink_insn() */
	const struct intel_pt_item *sink_item;
	struct itrace_stacks *stacks; /* 'g' (report): the call stacks */
	u64 trace_nr;		      /* of the item being printed */
	u64 *chain;		      /* its callchain: struct ip_callchain's nr, then ips */
};

int itrace_opts__parse(struct itrace_opts *o, const char *arg)
{
	const char *p = arg;

	memset(o, 0, sizeof(*o));
	o->set = true;
	while (*p) {
		char c = *p++;

		switch (c) {
		case 'b':
			o->branches = true;
			break;
		case 'c':
			o->calls = true;
			break;
		case 'r':
			o->returns = true;
			break;
		case 'e':
			o->errors = true;
			break;
		case 'i': {
			char *end;
			unsigned long long n;

			o->insns = true;
			o->period = ITRACE_DEFAULT_PERIOD_NS;
			o->period_ns = true;
			if (*p < '0' || *p > '9')
				break;
			n = strtoull(p, &end, 10);
			p = end;
			o->period = n;
			if (*p == 'i') {
				o->period_ns = false;
				p++;
			} else if (*p == 't') {
				/* ticks: nearest we have is ns of trace time */
				p++;
			} else if (!strncmp(p, "ms", 2)) {
				o->period *= 1000000;
				p += 2;
			} else if (!strncmp(p, "us", 2)) {
				o->period *= 1000;
				p += 2;
			} else if (!strncmp(p, "ns", 2)) {
				p += 2;
			}
			if (!o->period)
				o->period = 1;
			break;
		}
		case 'p':
			o->pwr_events = true;
			break;
		case 'x':
			o->transactions = true;
			break;
		case 'w':
			o->ptwrites = true;
			break;
		case 'g':
			o->callchain = true;
			o->callchain_sz = ITRACE_DEFAULT_CALLCHAIN_SZ;
			if (*p >= '1' && *p <= '9') {
				char *end;
				unsigned long n = strtoul(p, &end, 10);

				p = end;
				o->callchain_sz =
				    n > ITRACE_MAX_CALLCHAIN_SZ ? ITRACE_MAX_CALLCHAIN_SZ : n;
			}
			break;
		case 'o':
		case 'd':
		case 'f':
		case 'm':
		case 't':
		case 'a':
		case 'G':
		case 'l':
		case 'L':
		case 's':
		case 'q':
		case 'Z':
		case 'I':
		case 'T':
		case 'A':
		case 'M':
		case 'Y':
			pr_warning("--itrace=%s: '%c' is not supported by this decoder, ignored\n",
				   arg, c);
			/* g/G/l/L/s take a number: skip it */
			while (*p >= '0' && *p <= '9')
				p++;
			break;
		case ',':
		case ' ':
			break;
		default:
			pr_err("--itrace=%s: unknown option '%c'\n", arg, c);
			return -EINVAL;
		}
	}
	return 0;
}

void itrace_opts__set_inject_default(struct itrace_opts *o)
{
	itrace_opts__set_report_default(o);
	o->callchain = false;
	o->callchain_sz = 0;
	o->add_callchain = false;
	o->branches = true;
	o->set = true;
}

void itrace_opts__set_report_default(struct itrace_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->insns = true;
	o->period = ITRACE_DEFAULT_PERIOD_NS;
	o->period_ns = true;
	o->errors = true;
	o->pwr_events = true;
	o->transactions = true;
	o->ptwrites = true;
	o->callchain = true;
	o->callchain_sz = ITRACE_DEFAULT_CALLCHAIN_SZ;
	o->add_callchain = true;
}

void itrace_opts__set_default(struct itrace_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->branches = true;
	o->calls = true;
	o->errors = true;
	o->pwr_events = true;
	o->transactions = true;
	o->ptwrites = true;
}

struct itrace *itrace__new(const struct itrace_opts *opts, struct perf_session *session,
			   struct script_printer *printer, const char *input,
			   const struct text_image_opts *text, const struct script_filter *filter,
			   bool filtering)
{
	struct itrace *it = calloc(1, sizeof(*it));

	if (!it)
		return NULL;
	it->opts = *opts;
	it->session = session;
	it->printer = printer;
	it->input = input;
	it->text_opts = text;
	it->filter = filter;
	it->filtering = filtering;
	auxtrace__init(&it->at);
	return it;
}

void itrace__delete(struct itrace *it)
{
	if (!it)
		return;
	if (it->nr_errors)
		pr_debug("itrace: %" PRIu64 " decode errors\n", it->nr_errors);
	intel_pt__delete(it->pt);
	itrace_stacks__delete(it->stacks);
	free(it->chain);
	text_image__delete(it->ti);
	intel_pt_info__exit(&it->info);
	auxtrace__exit(&it->at);
	free(it->heads);
	free(it);
}

bool itrace__has_callchains(const struct itrace *it)
{
	return it && it->stacks;
}

void itrace__set_error_sink(struct itrace *it, itrace_error_fn fn, void *arg)
{
	it->error_sink = fn;
	it->error_arg = arg;
}

int itrace__sink_insn(const struct itrace *it, const u8 **bytes)
{
	if (!it || !it->sink_item) {
		*bytes = NULL;
		return 0;
	}
	*bytes = it->sink_item->insn;
	return it->sink_item->insn_len;
}

int itrace__set_sink(struct itrace *it, itrace_sample_fn fn, void *arg)
{
	it->sink = fn;
	it->sink_arg = arg;
	if (!it->opts.callchain)
		return 0;
	it->stacks = itrace_stacks__new();
	/* perf's chain: callchain_sz + 1 entries, after the count */
	it->chain = calloc(it->opts.callchain_sz + 2, sizeof(u64));
	return it->stacks && it->chain ? 0 : -ENOMEM;
}

const struct ip_callchain *itrace__recorded_chain(struct itrace *it,
						  const struct perf_sample *sample)
{
	if (!it || !it->pt || !it->stacks || !it->opts.add_callchain || sample->callchain)
		return NULL;
	it->chain[0] =
	    itrace_stacks__late_chain(it->stacks, sample->pid, sample->tid, sample->cpu, sample->ip,
				      it->chain + 1, it->opts.callchain_sz + 1);
	return (const struct ip_callchain *)it->chain;
}

u64 itrace__nr_errors(const struct itrace *it)
{
	return it ? it->nr_errors : 0;
}

bool itrace__active(const struct itrace *it)
{
	return it && it->pt;
}

/* perf's synthesized event ids: attr.config of PERF_TYPE_SYNTH (util/event.h) */
enum {
	ITRACE_SYNTH_PTWRITE,
	ITRACE_SYNTH_MWAIT,
	ITRACE_SYNTH_PWRE,
	ITRACE_SYNTH_EXSTOP,
	ITRACE_SYNTH_PWRX,
	ITRACE_SYNTH_CBR,
	ITRACE_SYNTH_PSB,
};

/* the intel_pt attr.config bit that makes the CPU trace power-state changes */
#define INTEL_PT_CFG_PWR_EVT_EN 0x10

/* the sample_type bits perf keeps of the trace's event (its PERF_SAMPLE_MASK) */
#define ITRACE_SAMPLE_MASK                                                                         \
	(PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR | PERF_SAMPLE_ID | \
	 PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | PERF_SAMPLE_IDENTIFIER)

static struct evsel *itrace__add_evsel(struct itrace *it, u32 type, u64 config, u64 sample_type,
				       const char *name)
{
	struct perf_event_attr attr;
	struct evsel *evsel;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = type;
	attr.config = config;
	attr.sample_period = 1;
	attr.sample_type = sample_type;
	attr.sample_id_all = 1;
	evsel = evlist__add(it->session->evlist, &attr, sizeof(attr), NULL, 0);
	if (evsel && evsel__set_name(evsel, name))
		return NULL;
	return evsel;
}

/*
 * The events perf synthesizes for the trace, in its order and with its
 * names and sample types (intel_pt_synth_events()): what -F is checked
 * against, and their names widen the event column as in perf, whether or
 * not a sample of them comes.  PTWRITE, transaction and power-state
 * samples are not synthesized here; their events exist all the same.
 */
static int itrace__add_evsels(struct itrace *it, const struct evsel *pt_evsel)
{
	const struct itrace_opts *o = &it->opts;
	u64 st = (pt_evsel->attr.sample_type & ITRACE_SAMPLE_MASK) | PERF_SAMPLE_IP |
		 PERF_SAMPLE_TID | PERF_SAMPLE_PERIOD | PERF_SAMPLE_TIME;
	static const struct {
		u64 config;
		const char *name;
	} pwr[] = {
	    {ITRACE_SYNTH_MWAIT, "mwait"},
	    {ITRACE_SYNTH_PWRE, "pwre"},
	    {ITRACE_SYNTH_EXSTOP, "exstop"},
	    {ITRACE_SYNTH_PWRX, "pwrx"},
	};
	size_t i;

	if (!it->info.per_cpu_mmaps)
		st &= ~(u64)PERF_SAMPLE_CPU;
	if (o->branches || o->calls || o->returns) {
		it->branches_evsel =
		    itrace__add_evsel(it, PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS,
				      st | PERF_SAMPLE_ADDR, "branches");
		if (!it->branches_evsel)
			return -ENOMEM;
	}
	if (o->insns) {
		it->insns_evsel = itrace__add_evsel(it, PERF_TYPE_HARDWARE,
						    PERF_COUNT_HW_INSTRUCTIONS, st, "instructions");
		if (!it->insns_evsel)
			return -ENOMEM;
	}
	st &= ~(u64)PERF_SAMPLE_PERIOD;
	if (o->transactions && !itrace__add_evsel(it, PERF_TYPE_HARDWARE,
						  PERF_COUNT_HW_INSTRUCTIONS, st, "transactions"))
		return -ENOMEM;
	st |= PERF_SAMPLE_RAW;
	if (o->ptwrites &&
	    !itrace__add_evsel(it, PERF_TYPE_SYNTH, ITRACE_SYNTH_PTWRITE, st, "ptwrite"))
		return -ENOMEM;
	if (!o->pwr_events)
		return 0;
	it->cbr_evsel = itrace__add_evsel(it, PERF_TYPE_SYNTH, ITRACE_SYNTH_CBR, st, "cbr");
	it->psb_evsel = itrace__add_evsel(it, PERF_TYPE_SYNTH, ITRACE_SYNTH_PSB, st, "psb");
	if (!it->cbr_evsel || !it->psb_evsel)
		return -ENOMEM;
	if (!(pt_evsel->attr.config & INTEL_PT_CFG_PWR_EVT_EN))
		return 0;
	for (i = 0; i < ARRAY_SIZE(pwr); i++)
		if (!itrace__add_evsel(it, PERF_TYPE_SYNTH, pwr[i].config, st, pwr[i].name))
			return -ENOMEM;
	return 0;
}

/*
 * perf's CBR frequency: the TSC frequency (from the time conversion of
 * AUXTRACE_INFO) over the maximum non-turbo ratio, which perf estimates
 * from that frequency when the recording lacks it
 */
static void itrace__cbr_setup(struct itrace *it)
{
	const struct perf_tsc_conv *tc = &it->info.tc;
	u64 ns = 1000000000ULL, tsc_freq;

	it->max_nonturbo = it->info.max_nonturbo_ratio;
	if (!tc->time_mult)
		return;
	tsc_freq = ((ns / tc->time_mult) << tc->time_shift) +
		   ((ns % tc->time_mult) << tc->time_shift) / tc->time_mult;
	if (!it->max_nonturbo)
		it->max_nonturbo = (tsc_freq + 50000000) / 100000000;
	if (it->max_nonturbo)
		it->cbr2khz = tsc_freq / it->max_nonturbo / 1000;
}

static struct evsel *itrace__pt_evsel(struct itrace *it)
{
	struct evlist *evlist = it->session->evlist;
	int i;

	for (i = 0; i < evlist->nr_entries; i++)
		if (evlist->entries[i]->attr.type == it->info.pmu_type)
			return evlist->entries[i];
	return NULL;
}

/*
 * A file's trace, read before its records as perf does: through its
 * HEADER_AUXTRACE section, found in the feature table after the data
 * section (one {offset, size} per feature bit set, in bit order), or
 * without one (a writer that keeps none, a recording cut before its
 * header was written) by a walk of the records, as perf's
 * auxtrace_queue_data() does then
 */
static int itrace__read_trace(struct itrace *it)
{
	struct perf_session *session = it->session;
	const struct perf_file_header *h = &session->file_header;
	u64 data_end = h->data.offset + h->data.size, sec[2];
	const char *why = NULL;
	u64 bad = 0;
	void *buf;
	int i, n = 0, err;

	if (session->is_pipe || session->needs_swap)
		return 0;
	if (!perf_session__has_feat(session, HEADER_AUXTRACE))
		goto walk;
	for (i = 0; i < HEADER_AUXTRACE; i++)
		if (h->adds_features[i / 64] & (1ULL << (i % 64)))
			n++;
	if (perf_data__pread(session->data, sec, sizeof(sec), data_end + 16 * n) ||
	    sec[1] > (64ULL << 20)) {
		pr_warning("%s: HEADER_AUXTRACE cannot be read: the trace is found by a walk of "
			   "the records\n",
			   session->path);
		goto walk;
	}
	buf = malloc(sec[1] ? sec[1] : 1);
	if (!buf)
		return -ENOMEM;
	err = perf_data__pread(session->data, buf, sec[1], sec[0]);
	if (!err)
		err = auxtrace__read_index(&it->at, session->data, buf, sec[1], data_end,
					   it->info.per_cpu_mmaps, &why, &bad);
	free(buf);
	if (err) {
		pr_err("%s: AUXTRACE at %#" PRIx64 " (HEADER_AUXTRACE at %#" PRIx64 ") %s\n",
		       session->path, bad, sec[0], why ?: strerror(-err));
		return err;
	}
	return 0;

walk:
	err = auxtrace__read_records(&it->at, session->data, session->data_offset,
				     session->data_offset + session->data_size,
				     it->info.per_cpu_mmaps, &why, &bad);
	if (err)
		pr_err("%s: AUXTRACE at %#" PRIx64 " %s\n", session->path, bad,
		       why ?: strerror(-err));
	return err;
}

static int itrace__setup(struct itrace *it)
{
	struct intel_pt_opts po = {
	    .want_insns = it->opts.insns,
	    .want_pwr = it->opts.pwr_events,
	    .insn_period = it->opts.period_ns ? 0 : it->opts.period,
	    .period_ns = it->opts.period_ns ? it->opts.period : 0,
	};
	struct evsel *pt_evsel = itrace__pt_evsel(it);
	int err;

	if (!pt_evsel) {
		/* perf decodes nothing then, and says so only with -v: we say it */
		pr_warning("%s: no event has the intel_pt PMU type %u of AUXTRACE_INFO: "
			   "its trace is not decoded\n",
			   it->session->path, it->info.pmu_type);
		it->broken = true;
		return 0;
	}
	if (it->session->is_pipe) {
		it->ti = text_image__new(&it->session->env, perf_session__kcore_dir(it->session),
					 it->text_opts);
	} else {
		bool saved = quiet;

		/* its own pass over the file: the listing's pass says the warnings */
		quiet = true;
		it->ti = text_image__load(it->input, it->text_opts);
		quiet = saved;
		it->own_pass = true;
	}
	if (!it->ti)
		return -EINVAL;
	err = itrace__read_trace(it);
	if (err)
		return err;
	/* a mask into attr.config, like the bits: the value libipt wants is under it */
	if (it->info.mtc_freq_bits)
		it->info.mtc_freq_bits = (pt_evsel->attr.config & it->info.mtc_freq_bits) >>
					 __builtin_ctzll(it->info.mtc_freq_bits);
	if (!(pt_evsel->attr.config & it->info.mtc_bit))
		it->info.mtc_freq_bits = 0;
	it->pt = intel_pt__new(&it->info, it->session->env.cpuid, it->session->machine, it->ti,
			       &it->at, &po);
	if (!it->pt) {
		if (errno != ENOTSUP)
			return -errno ?: -EINVAL;
		/* said once; the session counts the trace as not decoded */
		it->broken = true;
		return 0;
	}
	itrace__cbr_setup(it);
	return itrace__add_evsels(it, pt_evsel);
}

int itrace__user_event(struct itrace *it, union perf_event *event, struct perf_session *session)
{
	const char *why = NULL;
	int err;

	switch (event->header.type) {
	case PERF_RECORD_AUXTRACE_INFO:
		if (it->have_info)
			return 0;
		err = intel_pt_info__parse(&it->info, event, &why);
		if (err) {
			pr_warning("%s: AUXTRACE_INFO at %#" PRIx64 " %s\n", session->path,
				   session->cur_offset, why ?: strerror(-err));
			it->broken = true;
			return 0;
		}
		it->have_info = true;
		return itrace__setup(it);
	case PERF_RECORD_TIME_CONV:
		if (it->have_info)
			perf_tsc_conv__time_conv(&it->info.tc, event);
		return 0;
	case PERF_RECORD_AUXTRACE:
		/* read already, through the file's index */
		if (!it->pt || it->at.indexed)
			return 0;
		err = auxtrace__add_buffer(&it->at, event, session->cur_offset,
					   it->info.per_cpu_mmaps, &why);
		if (err) {
			pr_err("%s: AUXTRACE at %#" PRIx64 " %s\n", session->path,
			       session->cur_offset, why ?: strerror(-err));
			return err;
		}
		return 0;
	default:
		return 0;
	}
}

int itrace__auxtrace_data(struct itrace *it, const void *buf, u64 len)
{
	if (!it->pt)
		return 0;
	return auxtrace__data(&it->at, buf, len);
}

/* perf's names for branch flag combinations, else one letter per flag */
static const struct {
	u32 flags;
	const char *name;
} itrace_flag_names[] = {
    {IPT_FLAG_BRANCH | IPT_FLAG_CALL, "call"},
    {IPT_FLAG_BRANCH | IPT_FLAG_RETURN, "return"},
    {IPT_FLAG_BRANCH | IPT_FLAG_CONDITIONAL, "jcc"},
    {IPT_FLAG_BRANCH, "jmp"},
    {IPT_FLAG_BRANCH | IPT_FLAG_CALL | IPT_FLAG_INTERRUPT, "int"},
    {IPT_FLAG_BRANCH | IPT_FLAG_RETURN | IPT_FLAG_INTERRUPT, "iret"},
    {IPT_FLAG_BRANCH | IPT_FLAG_CALL | IPT_FLAG_SYSCALLRET, "syscall"},
    {IPT_FLAG_BRANCH | IPT_FLAG_RETURN | IPT_FLAG_SYSCALLRET, "sysret"},
    {IPT_FLAG_BRANCH | IPT_FLAG_ASYNC, "async"},
    {IPT_FLAG_BRANCH | IPT_FLAG_CALL | IPT_FLAG_ASYNC | IPT_FLAG_INTERRUPT, "hw int"},
    {IPT_FLAG_BRANCH | IPT_FLAG_TX_ABORT, "tx abrt"},
    {IPT_FLAG_BRANCH | IPT_FLAG_TRACE_BEGIN, "tr strt"},
    {IPT_FLAG_BRANCH | IPT_FLAG_TRACE_END, "tr end"},
    {IPT_FLAG_BRANCH | IPT_FLAG_ASYNC | IPT_FLAG_TRACE_END, "tr end  async"},
    {IPT_FLAG_BRANCH | IPT_FLAG_CALL | IPT_FLAG_TRACE_END, "tr end  call"},
    {IPT_FLAG_BRANCH | IPT_FLAG_RETURN | IPT_FLAG_TRACE_END, "tr end  return"},
    {IPT_FLAG_BRANCH | IPT_FLAG_CONDITIONAL | IPT_FLAG_TRACE_END, "tr end  jcc"},
    {IPT_FLAG_BRANCH | IPT_FLAG_CALL | IPT_FLAG_SYSCALLRET | IPT_FLAG_TRACE_END, "tr end  syscall"},
    {IPT_FLAG_BRANCH | IPT_FLAG_RETURN | IPT_FLAG_SYSCALLRET | IPT_FLAG_TRACE_END,
     "tr end  sysret"},
};

static void itrace__flags_str(u32 flags, char *buf, size_t size)
{
	static const char letters[] = "bcrosyiABE";
	size_t i, n = 0;

	for (i = 0; i < sizeof(itrace_flag_names) / sizeof(itrace_flag_names[0]); i++) {
		if (itrace_flag_names[i].flags == flags) {
			snprintf(buf, size, "%s", itrace_flag_names[i].name);
			return;
		}
	}
	for (i = 0; i < sizeof(letters) - 1 && n + 1 < size; i++)
		buf[n++] = flags & (1U << i) ? letters[i] : '-';
	buf[n] = '\0';
}

/* an address resolved as perf script resolves a synthesized sample's */
static void itrace__loc(struct thread *thread, u64 addr, u64 time, struct script_loc *loc,
			struct addr_location *al)
{
	u8 cpumode =
	    addr >= 0xffff800000000000ULL ? PERF_RECORD_MISC_KERNEL : PERF_RECORD_MISC_USER;

	memset(loc, 0, sizeof(*loc));
	loc->ip = addr;
	loc->addr = addr;
	if (!thread || !addr)
		return;
	thread__find_symbol(thread, cpumode, addr, time, al);
	if (al->map) {
		loc->addr = al->addr;
		loc->dso = map__dso_name(al->map);
	}
	if (al->sym) {
		loc->sym = symbol__name(al->sym);
		loc->sym_start = al->sym->start;
		loc->sym_end = al->sym->end;
	}
}

/* -F srcline of a synthesized sample's own line, as perf prints a sample's */
static const char *itrace__srcline(struct itrace *it, const struct addr_location *al)
{
	if (!al->map || !al->map->dso)
		return NULL;
	return dso__srcline_print(al->map->dso, al->addr, false, it->srcline, sizeof(it->srcline));
}

/*
 * " ip sym+off (dso)" at the end of the line: the printer's frame line,
 * whose leading tab and trailing newline are this line's space and
 * nothing (the buffer has room for a line: flushed before each one)
 */
static void itrace__put_loc(struct itrace *it, const struct evsel *evsel,
			    const struct script_loc *loc)
{
	struct script_buf *b = &it->printer->out;
	size_t at = b->len;

	script_print__frame(it->printer, evsel, loc);
	if (b->len > at && b->data[at] == '\t' && b->data[b->len - 1] == '\n') {
		b->data[at] = ' ';
		b->len--;
	}
}

/*
 * insnlen, insn, disasm: the bytes the decoder walked, which are those
 * live at the item's time (what the text image gave it), not a later
 * copy; into @s, of @size bytes, returning the length
 */
static size_t itrace__insn_text(const struct intel_pt_item *item, u64 f, char *s, size_t size)
{
	struct disasm_insn insn;
	size_t n = 0;
	int i;

#define ITRACE_PUT(...)                                         \
	do {                                                    \
		int r = snprintf(s + n, size - n, __VA_ARGS__); \
		if (r > 0)                                      \
			n = n + r < size ? n + r : size - 1;    \
	} while (0)
	s[0] = '\0';
	if (f & SF_INSNLEN)
		ITRACE_PUT(" ilen: %u", item->insn_len);
	if ((f & SF_INSN) && item->insn_len) {
		ITRACE_PUT(" insn:");
		for (i = 0; i < item->insn_len; i++)
			ITRACE_PUT(" %02x", item->insn[i]);
	}
	if ((f & SF_DISASM) && item->insn_len &&
	    disasm__one(item->insn, item->insn_len, item->ip, &insn, NULL, NULL) > 0)
		ITRACE_PUT(" %s", insn.text);
#undef ITRACE_PUT
	return n;
}

static void itrace__put_insn(struct script_buf *b, const struct intel_pt_item *item, u64 f)
{
	char text[256];

	if (itrace__insn_text(item, f, text, sizeof(text)))
		script_buf__puts(b, text);
}

/*
 * perf reports code it cannot read once per object (dso), and each time
 * for an address outside every map: whether @item is one it would not
 * print
 */
static bool itrace__seen(struct itrace *it, const struct intel_pt_item *item)
{
	struct addr_location al;
	struct thread *thread;
	const void *key;
	size_t i;

	if (!item->once || item->tid == -1)
		return false;
	/*
	 * as perf, a task no record named (":1760") is made: its kernel
	 * code is the kernel's, already reported
	 */
	thread = machine__findnew_thread(it->session->machine, item->pid, item->tid);
	if (!thread)
		return false;
	addr_location__init(&al);
	thread__find_symbol(thread,
			    item->cpumode_user ? PERF_RECORD_MISC_USER : PERF_RECORD_MISC_KERNEL,
			    item->ip, item->time, &al);
	key = al.map ? al.map->dso : NULL;
	addr_location__exit(&al);
	thread__put(thread);
	if (!key)
		return false;
	for (i = 0; i < it->nr_seen; i++)
		if (it->seen[i] == key)
			return true;
	if (it->nr_seen < sizeof(it->seen) / sizeof(it->seen[0]))
		it->seen[it->nr_seen++] = key;
	return false;
}

static int itrace__print_error(struct itrace *it, const struct intel_pt_item *item)
{
	struct script_buf *b;

	if (itrace__seen(it, item))
		return 0;

	it->nr_errors++;
	if (it->opts.errors && it->error_sink) {
		struct itrace_error e = {
		    .time = item->time,
		    .ip = item->ip,
		    .cpu = item->cpu,
		    .pid = item->pid,
		    .tid = item->tid,
		    .code = item->err_code,
		    .msg = item->msg,
		};

		return it->error_sink(it->error_arg, &e);
	}
	if (!it->opts.errors || it->sink)
		return 0;
	b = &it->printer->out;
	/* perf's auxtrace error line: the time in ns always, type 1 (decoder) */
	script_buf__printf(b,
			   " instruction trace error type 1 time %" PRIu64 ".%09" PRIu64
			   " cpu %d pid %d tid %d ip %#" PRIx64 " code %d: %s\n",
			   item->time / 1000000000, item->time % 1000000000, item->cpu, item->pid,
			   item->tid, item->ip, item->err_code, item->msg);
	return 0;
}

/*
 * perf's branch filter: c keeps calls, with interrupts and trace ends
 * (PERF_IP_FLAG_CALL | ASYNC | TRACE_END), r returns with trace starts;
 * b alone keeps every branch
 */
static bool itrace__wants_branch(const struct itrace *it, u32 flags)
{
	u32 filter = 0;

	if (it->opts.calls)
		filter |= IPT_FLAG_CALL | IPT_FLAG_ASYNC | IPT_FLAG_TRACE_END;
	if (it->opts.returns)
		filter |= IPT_FLAG_RETURN | IPT_FLAG_TRACE_BEGIN;
	return !filter || (flags & filter);
}

/* the evsel an item is a sample of, or NULL when it is not asked for */
static struct evsel *itrace__item_evsel(struct itrace *it, const struct intel_pt_item *item)
{
	switch (item->type) {
	case IPT_ITEM_BRANCH:
		return itrace__wants_branch(it, item->flags) ? it->branches_evsel : NULL;
	case IPT_ITEM_INSN:
		return it->insns_evsel;
	case IPT_ITEM_PSB:
		return it->psb_evsel;
	case IPT_ITEM_CBR:
		return it->cbr_evsel;
	default:
		return NULL;
	}
}

/*
 * The payload of a PSB or CBR sample as perf lays out struct
 * perf_synth_intel_psb and _cbr after their leading u32: the PSB's
 * offset; the CBR's payload with the maximum non-turbo ratio above it,
 * and its frequency in kHz
 */
static u32 itrace__synth_raw(const struct itrace *it, const struct intel_pt_item *item, u8 *raw)
{
	u32 w[3] = {0};

	memset(raw, 0, 12);
	if (item->type == IPT_ITEM_PSB) {
		memcpy(raw + 4, &item->psb_offset, 8);
		return 12;
	}
	w[0] = (u16)item->cbr_payload | (it->max_nonturbo & 0xff) << 16;
	w[1] = (item->cbr_payload & 0xff) * it->cbr2khz;
	memcpy(raw, w, sizeof(w));
	return 12;
}

/*
 * A branch sample: perf prints the samples of its "branches" event
 * (hardware, config branch-instructions, period 1) as BTS samples, the
 * start of the line and then only ip, the target and insn
 * (perf_sample__fprintf_bts())
 */
static void itrace__print_branch(struct itrace *it, struct intel_pt_item *item, struct evsel *evsel,
				 struct perf_sample *sample, struct script_sample_info *info,
				 struct thread *thread)
{
	struct script_printer *p = it->printer;
	struct script_buf *b = &p->out;
	int t = script_output_type(evsel->attr.type);
	u64 *fp = &p->fields->out[t].fields, f = *fp;
	struct addr_location al_to;
	struct script_loc to;

	*fp = f & (SF_COMM | SF_TID | SF_PID | SF_TIME | SF_CPU | SF_MISC | SF_TOD | SF_PERIOD |
		   SF_EVNAME | SF_FLAGS);
	script_print__sample_head(p, sample, evsel, info);
	*fp = f;
	if ((f & SF_FLAGS) && b->len >= 24) {
		char name[32], col[48];

		itrace__flags_str(item->flags, name, sizeof(name));
		snprintf(col, sizeof(col), "  %-21s ", name);
		memcpy(b->data + b->len - 24, col, 24);
	}
	if (f & SF_IP) {
		const char *srcline = info->loc.srcline;

		info->loc.srcline = NULL;
		itrace__put_loc(it, evsel, &info->loc);
		info->loc.srcline = srcline;
	}
	/*
	 * as perf 6.1: the target if asked for, or with the default
	 * fields, which '-F +flags' alone leaves (+insn, +ip do not)
	 */
	if ((f & SF_ADDR) || !p->fields->out[t].user_set ||
	    p->fields->out[t].user_fields == SF_FLAGS) {
		addr_location__init(&al_to);
		itrace__loc(thread, item->addr, item->time, &to, &al_to);
		script_buf__puts(b, " => ");
		script_print__loc(p, &to, item->addr,
				  (f & (SF_SYM | SF_SYMOFFSET | SF_DSO)) | SF_IP);
		addr_location__exit(&al_to);
	}
	/* perf prints a branch's srcline after its target */
	if ((f & (SF_IP | SF_SRCLINE)) == (SF_IP | SF_SRCLINE) && info->loc.srcline) {
		script_buf__puts(b, "\n  ");
		script_buf__puts(b, info->loc.srcline);
	}
	itrace__put_insn(b, item, f);
	script_buf__putc(b, '\n');
}

static int itrace__print(struct itrace *it, struct intel_pt_item *item)
{
	struct script_printer *p = it->printer;
	struct script_buf *b;
	struct evsel *evsel;
	struct perf_sample sample;
	struct script_sample_info info;
	struct addr_location al;
	struct thread *thread = NULL;
	char text[256];
	u8 raw[12];
	u64 f;

	/* printed once every record before it is in: who ran then is known */
	if (item->cpu >= 0)
		intel_pt__cpu_task(it->pt, item->cpu, item->time, &item->pid, &item->tid);
	if (item->type == IPT_ITEM_ERROR)
		return itrace__print_error(it, item);
	/* every branch moves the call stacks, before its own sample as in perf */
	if (it->stacks && item->type == IPT_ITEM_BRANCH) {
		int err =
		    itrace_stacks__branch(it->stacks, item->pid, item->tid, item->cpu, item->flags,
					  item->ip, item->addr, item->insn_len, it->trace_nr);

		if (err)
			return err;
	}
	evsel = itrace__item_evsel(it, item);
	if (!evsel)
		return 0;
	memset(&sample, 0, sizeof(sample));
	sample.ip = item->ip;
	sample.addr = item->type == IPT_ITEM_INSN ? 0 : item->addr;
	sample.pid = item->pid;
	sample.tid = item->tid;
	sample.time = item->time;
	sample.cpu = item->cpu;
	sample.period = item->type == IPT_ITEM_INSN ? item->period : 1;
	sample.cpumode = item->cpumode_user ? PERF_RECORD_MISC_USER : PERF_RECORD_MISC_KERNEL;
	/*
	 * perf's intel_pt_cpumode(): a sample with no ip (a trace start's
	 * branch, a PSB or CBR met where no ip is known) is of its target's
	 * mode, user for none
	 */
	if (!item->ip)
		sample.cpumode = item->addr >= 0xffff800000000000ULL ? PERF_RECORD_MISC_KERNEL :
								       PERF_RECORD_MISC_USER;
	/* perf's synthesized samples have no misc (no K or U in -F misc), data_src 0 */
	sample.misc = 0;
	if (item->type == IPT_ITEM_PSB || item->type == IPT_ITEM_CBR) {
		sample.raw_size = itrace__synth_raw(it, item, raw);
		sample.raw_data = raw;
	}
	if (it->sink) {
		int err;

		/*
		 * perf gives a chain to every sample but the branch ones
		 * (intel_pt_prep_sample()): instructions, psb, cbr
		 */
		if (it->stacks && item->type != IPT_ITEM_BRANCH) {
			it->chain[0] = itrace_stacks__chain(it->stacks, item->pid, item->tid,
							    item->cpu, item->ip, it->chain + 1,
							    it->opts.callchain_sz + 1);
			sample.callchain = (const struct ip_callchain *)it->chain;
		}
		it->sink_item = item;
		err = it->sink(it->sink_arg, evsel, &sample);
		it->sink_item = NULL;
		return err;
	}
	b = &p->out;
	if (it->filtering && script_filter__skip_early(it->filter, &sample))
		return 0;
	f = script_printer__fields(p, evsel);
	if (!f)
		return 0;
	script_buf__maybe_flush(b);
	if (item->tid != -1)
		thread = machine__findnew_thread(it->session->machine, item->pid, item->tid);
	memset(&info, 0, sizeof(info));
	info.comm = thread ? thread__comm_str(thread) : NULL;
	addr_location__init(&al);
	itrace__loc(thread, item->ip, item->time, &info.loc, &al);
	if (f & SF_SRCLINE)
		info.loc.srcline = itrace__srcline(it, &al);
	if (item->type == IPT_ITEM_BRANCH) {
		itrace__print_branch(it, item, evsel, &sample, &info, thread);
	} else {
		/* insnlen and insn from the bytes the decoder walked, after iregs as in perf */
		info.text = text;
		info.text_len = itrace__insn_text(item, f, text, sizeof(text));
		script_print__sample_head(p, &sample, evsel, &info);
		script_print__sample_tail(p, &sample, evsel, &info);
	}
	addr_location__exit(&al);
	thread__put(thread);
	return script_buf__maybe_flush(b);
}

static int itrace__heads(struct itrace *it)
{
	size_t n = it->at.nr_queues;
	struct itrace_head *h;

	if (n <= it->nr_heads)
		return 0;
	h = realloc(it->heads, n * sizeof(*h));
	if (!h)
		return -ENOMEM;
	memset(h + it->nr_heads, 0, (n - it->nr_heads) * sizeof(*h));
	it->heads = h;
	it->nr_heads = n;
	return 0;
}

/*
 * Items of every queue with a time at or before @time, oldest first:
 * each queue keeps its next item at hand, the oldest of those goes out.
 */
static int itrace__run(struct itrace *it, u64 time, bool all)
{
	int err;

	if (!it->pt)
		return 0;
	err = itrace__heads(it);
	if (err)
		return err;
	for (size_t i = 0; i < it->nr_heads; i++)
		it->heads[i].done = false;
	for (;;) {
		struct itrace_head *best = NULL;

		for (size_t i = 0; i < it->nr_heads; i++) {
			struct itrace_head *h = &it->heads[i];

			if (!h->valid && !h->done) {
				err = intel_pt__next(it->pt, i, &h->item);
				if (err < 0)
					return err;
				h->valid = err == 1;
				h->done = err == 0;
				if (!h->trace_nr)
					h->trace_nr = 1;
			}
			if (h->valid && (!best || h->item.time < best->item.time))
				best = h;
		}
		/* as perf: a record goes before the trace of its own time */
		if (!best || (!all && best->item.time >= time))
			return 0;
		best->valid = false;
		it->trace_nr = best->trace_nr;
		err = itrace__print(it, &best->item);
		if (err)
			return err;
		/*
		 * the decoder syncs again after an error: a new trace for the
		 * stacks; but code it cannot read leaves it waiting for the
		 * next ip only, the same trace for perf
		 */
		if (best->item.type == IPT_ITEM_ERROR && best->item.err_code != IPT_ERR_NOINSN)
			best->trace_nr++;
	}
}

int itrace__flush_until(struct itrace *it, u64 time)
{
	if (!it || !time)
		return 0;
	return itrace__run(it, time, false);
}

int itrace__finish(struct itrace *it)
{
	if (!it)
		return 0;
	return itrace__run(it, 0, true);
}

int itrace__side_band(struct itrace *it, union perf_event *event, struct perf_sample *sample)
{
	int err = 0;

	if (!it || !it->pt)
		return 0;
	switch (event->header.type) {
	case PERF_RECORD_SWITCH_CPU_WIDE:
		/*
		 * as perf with context-switch records (have_sched_switch 3):
		 * the next task runs from the switch-out on, not from the
		 * switch-in record a few microseconds later
		 */
		if (event->header.misc & PERF_RECORD_MISC_SWITCH_OUT)
			err = intel_pt__set_cpu_task(
			    it->pt, sample->cpu, event->context_switch.next_prev_pid,
			    event->context_switch.next_prev_tid, sample->time);
		break;
	case PERF_RECORD_SWITCH:
		if (!(event->header.misc & PERF_RECORD_MISC_SWITCH_OUT))
			err = intel_pt__set_cpu_task(it->pt, sample->cpu, sample->pid, sample->tid,
						     sample->time);
		break;
	case PERF_RECORD_ITRACE_START:
		err = intel_pt__set_cpu_task(it->pt, sample->cpu, event->itrace_start.pid,
					     event->itrace_start.tid, sample->time);
		break;
	case PERF_RECORD_AUX:
		auxtrace__aux(&it->at, event);
		break;
	default:
		break;
	}
	intel_pt__maps_changed(it->pt);
	if (!it->own_pass && it->ti &&
	    text_image__process_event(it->ti, it->session->machine, event, sample))
		pr_debug("%s: %s record not applied to the trace's text image\n", it->session->path,
			 perf_event__name(event->header.type));
	return err;
}
