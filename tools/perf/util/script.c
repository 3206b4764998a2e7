// SPDX-License-Identifier: GPL-2.0-only
/*
 * The perf script tool: session callbacks that keep the machine model up
 * to date in the order perf script does, resolve each sample at its time,
 * and hand resolved values to the printers (script-print.c).
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "debug.h"
#include "dso-inline.h"
#include "dso.h"
#include "dump.h"
#include "evsel.h"
#include "header.h"
#include "itrace.h"
#include "machine.h"
#include "map.h"
#include "script-branch.h"
#include "script-header.h"
#include "script-json.h"
#include "script-print.h"
#include "script-text.h"
#include "script.h"
#include "script-chain-text.h"
#include "session-workers.h"
#include "session.h"
#include "symbol.h"
#include "text-poke-print.h"
#include "trace-event.h"
#include "unwind.h"

struct script {
	struct perf_tool tool; /* first: the callbacks get &tool */
	struct script_opts *opts;
	struct script_printer printer;
	struct perf_session *session;
	struct trace_events *trace;
	struct script_text *text; /* kernel code over time, when asked for */
	bool prepared;
	bool filtering;		     /* some filter given: the sample path asks it */
	struct script_header header; /* --header: the feature payloads */
	bool trace_tried;
	struct unwinder *unwinder; /* user frames of --call-graph dwarf samples */
	bool want_srcline;	   /* some event prints -F srcline */
	struct script_branch_buf branches;
	char srcline[2][PATH_MAX];    /* perf's "dso[addr]" of the sample's line, of a frame's */
	int nr_prepared;	      /* evsels set up so far */
	char json_text[4][256];	      /* --json: insnlen, insn, disasm, poked of a sample */
	struct itrace *itrace;	      /* the hardware trace, decoded among the records */
	struct script_chains *chains; /* recorded callchains' lines, kept whole */
	struct script_chain_key chain_key; /* the sample's, when its chain is to be kept */
	size_t chain_start; /* where its lines begin in printer.out, SIZE_MAX: none */
	u64 chain_flushes;  /* printer.out's flushes then */
};

void script_opts__init(struct script_opts *opts)
{
	memset(opts, 0, sizeof(*opts));
	opts->input = NULL;
	opts->max_stack = CALLCHAIN_MAX_STACK;
	script_fields__init(&opts->fields);
}

static struct script *tool_to_script(struct perf_tool *tool)
{
	return (struct script *)tool;
}

/* --header of a pipe: the feature records seen since the last record printed */
static void script__header_pending(struct script *s)
{
	if (!s->header.nr_pending)
		return;
	script_buf__flush(&s->printer.out);
	script_header__fprintf_pending(&s->header, s->session, stdout);
}

/* tracepoint formats, names, and the fields each event type can print */
static int script__prepare_evsel(struct script *s, struct evsel *evsel, bool first_of_type)
{
	if (evsel->attr.type == PERF_TYPE_TRACEPOINT && s->trace && !evsel->tp_format) {
		evsel->tp_format = trace_events__find(s->trace, evsel->attr.config);
		if (evsel->tp_format && (!evsel->name || !strchr(evsel->name, ':'))) {
			char name[256];

			trace_events__name(evsel->tp_format, name, sizeof(name));
			evsel__set_name(evsel, name);
		}
	}
	/* perf checks the first event of each type only */
	if (first_of_type) {
		int err = script_fields__check_evsel(&s->opts->fields, evsel, s->session->path);

		if (script_fields__get(&s->opts->fields, evsel->attr.type) & SF_SRCLINE)
			s->want_srcline = true;
		return err;
	}
	return 0;
}

/*
 * Runs before the first record is printed: in a pipe the attrs and the
 * tracing data arrive as records, so the evlist is complete only then.
 */
static int script__prepare(struct script *s)
{
	struct evlist *evlist = s->session->evlist;
	struct perf_env *env = &s->session->env;
	bool seen[SCRIPT_OUT_MAX] = {false};
	bool has_callchain = false;
	int i, width = 0;

	bool new_trace = !s->trace_tried && env->tracing_data && env->tracing_data_size;

	/* again when attrs or a pipe's tracing data arrived since */
	if (s->prepared && !new_trace && (!evlist || s->nr_prepared == evlist->nr_entries))
		return 0;
	if (new_trace) {
		s->trace_tried = true;
		s->trace = trace_events__new(env->tracing_data, env->tracing_data_size,
					     s->session->path, env->tracing_data_offset);
	}
	for (i = 0; evlist && i < evlist->nr_entries; i++) {
		struct evsel *evsel = evlist->entries[i];
		enum script_output_type t = script_output_type(evsel->attr.type);
		/* the side-band carrier never has samples: it does not set the fields */
		bool dummy = evsel->attr.type == PERF_TYPE_SOFTWARE &&
			     evsel->attr.config == PERF_COUNT_SW_DUMMY;
		int err;

		err = script__prepare_evsel(s, evsel, !seen[t] && !dummy);
		if (err)
			return err;
		if (!dummy)
			seen[t] = true;
		if (evsel->attr.sample_type & PERF_SAMPLE_CALLCHAIN)
			has_callchain = true;
		/* names perf derives from the attr when the file has none */
		if ((int)strlen(evsel__name(evsel)) > width)
			width = strlen(evsel__name(evsel));
	}
	s->printer.name_width = width;
	s->printer.use_callchain = has_callchain && !s->opts->hide_call_graph;
	/* perf adds ip, sym, symoff and dso to tracepoints that have callchains */
	if (s->printer.use_callchain && !s->opts->fields.out[SCRIPT_OUT_TRACEPOINT].user_set) {
		for (i = 0; i < evlist->nr_entries; i++) {
			struct evsel *evsel = evlist->entries[i];

			if (evsel->attr.type == PERF_TYPE_TRACEPOINT &&
			    (evsel->attr.sample_type & PERF_SAMPLE_CALLCHAIN)) {
				s->opts->fields.out[SCRIPT_OUT_TRACEPOINT].fields |=
				    SF_IP | SF_SYM | SF_SYMOFFSET | SF_DSO;
				break;
			}
		}
	}
	s->prepared = true;
	s->nr_prepared = evlist ? evlist->nr_entries : 0;
	return 0;
}

/* the srcline field, @which: the sample's own line (0) or a frame's (1) */
static const char *script__srcline(struct script *s, const struct addr_location *al, int which,
				   bool unwound)
{
	if (!s->want_srcline || !al->map || !al->map->dso)
		return NULL;
	return dso__srcline_print(al->map->dso, al->addr, unwound, s->srcline[which],
				  sizeof(s->srcline[which]));
}

/*
 * perf's sample_addr_correlates_sym(): the addr of a page fault is the
 * faulting address, that of a BTS branch its target; perf resolves those
 * (other events' addr is data it does not look up)
 */
static bool script__addr_is_resolved(const struct perf_event_attr *attr)
{
	if (attr->type == PERF_TYPE_SOFTWARE)
		return attr->config == PERF_COUNT_SW_PAGE_FAULTS ||
		       attr->config == PERF_COUNT_SW_PAGE_FAULTS_MIN ||
		       attr->config == PERF_COUNT_SW_PAGE_FAULTS_MAJ;
	return attr->type == PERF_TYPE_HARDWARE &&
	       attr->config == PERF_COUNT_HW_BRANCH_INSTRUCTIONS && attr->sample_period == 1;
}

static void loc_from_al(struct script *s, struct script_loc *loc, u64 ip,
			const struct addr_location *al);

/*
 * The sample's addr as perf's thread__resolve() finds it: in the
 * sample's cpumode, else in the one its address belongs to (a kernel page
 * fault on a user address), at the sample's time
 */
static void script__resolve_addr(struct script *s, struct thread *thread,
				 const struct perf_sample *sample, struct addr_location *al,
				 struct script_loc *loc)
{
	u8 mode = sample->addr >= (1ULL << 63) ? PERF_RECORD_MISC_KERNEL : PERF_RECORD_MISC_USER;

	thread__find_symbol(thread, sample->cpumode, sample->addr, sample->time, al);
	if (!al->map && mode != sample->cpumode)
		thread__find_symbol(thread, mode, sample->addr, sample->time, al);
	loc_from_al(s, loc, sample->addr, al);
}

static void loc_from_al(struct script *s, struct script_loc *loc, u64 ip,
			const struct addr_location *al)
{
	loc->ip = ip;
	loc->addr = al->map ? al->addr : ip;
	loc->relative = al->map != NULL;
	loc->sym = al->sym ? symbol__name(al->sym) : NULL;
	loc->len_sym = loc->sym;
	loc->sym_len = al->sym ? symbol__name_len(al->sym) : 0;
	loc->sym_start = al->sym ? al->sym->start : 0;
	loc->sym_end = al->sym ? al->sym->end : 0;
	loc->dso = al->map ? map__dso_name_len(al->map, &loc->dso_len) : NULL;
	loc->len_dso = loc->dso;
	loc->inlined = false;
	loc->srcline = NULL;
}

/* --per-event-dump: one output file per event, in evsel->priv */
struct script_dump {
	struct script_buf out;
	char *path;
	u64 samples;
};

/* perf's name for it: <input>.<event>.dump, next to the input */
static struct script_dump *script__dump(struct script *s, struct evsel *evsel)
{
	struct script_dump *d = evsel->priv;
	FILE *fp;

	if (d)
		return d;
	d = calloc(1, sizeof(*d));
	if (!d || asprintf(&d->path, "%s.%s.dump", s->opts->input, evsel__name(evsel)) < 0) {
		free(d);
		return NULL;
	}
	fp = fopen(d->path, "w");
	if (!fp || script_buf__init(&d->out, fp)) {
		pr_err("%s: cannot create it: %s\n", d->path, strerror(errno));
		if (fp)
			fclose(fp);
		free(d->path);
		free(d);
		return NULL;
	}
	evsel->priv = d;
	return d;
}

/*
 * perf's closing line per event.  perf measures the file with fstat()
 * before its stdio buffer is flushed, so its size leaves out the last
 * partial buffer (glibc's: st_blksize below BUFSIZ, else BUFSIZ): we
 * print the same number.
 */
static int script__dump_close(struct script *s, struct evsel *evsel)
{
	struct script_dump *d = evsel->priv;
	struct stat st;
	long written;
	u64 blk = BUFSIZ;
	int err;

	if (!d)
		return 0;
	err = script_buf__flush(&d->out);
	written = ftell(d->out.fp);
	if (!fstat(fileno(d->out.fp), &st) && st.st_blksize > 0 && st.st_blksize < BUFSIZ)
		blk = st.st_blksize;
	if (written < 0)
		written = 0;
	script_buf__printf(&s->printer.out, "[ perf script: Wrote %.3f MB %s (%llu samples) ]\n",
			   (double)((u64)written / blk * blk) / 1024.0 / 1024.0, d->path,
			   (unsigned long long)d->samples);
	if (fclose(d->out.fp) && !err)
		err = -errno;
	if (err)
		pr_err("%s: writing it failed: %s\n", d->path, strerror(-err));
	script_buf__exit(&d->out);
	free(d->path);
	free(d);
	evsel->priv = NULL;
	return err;
}

struct frame_arg {
	struct script *s;
	struct evsel *evsel;
};

/* a recorded frame's line kept by what decides it (script_print__frame_again()) */
static bool frame__key(struct frame_arg *fa, struct thread *thread, u8 cpumode, u64 ip,
		       struct script_frame_key *k)
{
	k->ip = ip;
	k->evsel = fa->evsel;
	k->cpumode = cpumode;
	return thread__find_gen(thread, cpumode, ip, &k->gen, &k->spans);
}

/* the recorded chain's frames: a line printed before for the same key, again */
static int peek_frame(struct thread *thread, u8 cpumode, u64 ip, void *arg)
{
	struct frame_arg *fa = arg;
	struct script_frame_key k;

	return frame__key(fa, thread, cpumode, ip, &k) &&
	       script_print__frame_again(&fa->s->printer, &k);
}

static int print_frame(struct callchain_frame *frame, void *arg)
{
	struct frame_arg *fa = arg;
	struct script_frame_key k;
	struct script_loc loc;

	loc_from_al(fa->s, &loc, frame->ip, &frame->al);
	/* perf's unwound frames carry their line, "??:0" too, unless --no-inline */
	if (fa->s->want_srcline)
		loc.srcline = script__srcline(fa->s, &frame->al, 1,
					      frame->unwound && !fa->s->opts->no_inline);
	/* kernel, module and BPF frames show the address as recorded */
	loc.relative = callchain_frame__addr(frame) != frame->ip;
	if (frame->inline_name) {
		loc.sym = frame->inline_name;
		loc.inlined = frame->inlined;
		if (loc.srcline && frame->inline_srcline)
			loc.srcline = frame->inline_srcline;
	}
	if (!frame->unwound && !frame->inline_name && !fa->s->want_srcline &&
	    frame__key(fa, frame->al.thread, frame->cpumode, frame->ip, &k))
		script_print__frame_keep(&fa->s->printer, fa->evsel, &loc, &k);
	else
		script_print__frame(&fa->s->printer, fa->evsel, &loc);
	return 0;
}

/* the trace's samples up to a record's time go first, as in perf */
static int script__itrace_until(struct script *s, u64 time)
{
	int err;

	if (!itrace__active(s->itrace))
		return 0;
	err = script__prepare(s);
	return err ?: itrace__flush_until(s->itrace, time);
}

/*
 * --json: insnlen, insn, disasm and poked as separate values, each from
 * the text its field prints alone (" ilen: 2", " insn: 89 07", " movl
 * ...", " [poked 12.000000345]"), so both outputs show the same figures
 */
static void script__json_text(struct script *s, struct script_sample_info *info, u64 fields,
			      const struct perf_sample *sample, const struct addr_location *al)
{
	char *t;
	size_t n;

	if (fields & SF_INSNLEN) {
		n = script_text__sample(s->text, s->json_text[0], sizeof(s->json_text[0]),
					SF_INSNLEN, sample, al);
		info->json_insnlen = n > 7 ? atoi(s->json_text[0] + 7) : 0;
	}
	if (fields & SF_INSN) {
		n = script_text__sample(s->text, s->json_text[1], sizeof(s->json_text[1]), SF_INSN,
					sample, al);
		t = s->json_text[1];
		info->json_insn = n > 7 && !strncmp(t, " insn: ", 7) ? t + 7 : NULL;
		/* "insn" stays hex pairs: "disasm" says the instruction was kprobed */
		t = strstr(t, " [kprobed");
		if (t)
			*t = '\0';
	}
	if (fields & SF_DISASM) {
		n = script_text__sample(s->text, s->json_text[2], sizeof(s->json_text[2]),
					SF_DISASM, sample, al);
		info->json_disasm = n > 1 ? s->json_text[2] + 1 : NULL;
	}
	if (fields & SF_POKED) {
		unsigned long long secs, ns;

		n = script_text__sample(s->text, s->json_text[3], sizeof(s->json_text[3]), SF_POKED,
					sample, al);
		info->json_poked =
		    n && sscanf(s->json_text[3], " [poked %llu.%9llu]", &secs, &ns) == 2;
		if (info->json_poked)
			info->json_poked_time = secs * 1000000000ULL + ns;
	}
}

/*
 * --time and -C ahead of the queue: what script__sample() would drop
 * first, dropped before the record is copied, sorted and parsed whole.
 * Only once the evlist is set up (a pipe's later attrs check their -F
 * choices at their first sample) and when nothing else waits for a
 * sample: a pipe's pending --header, the hardware trace's interleaving.
 */
static bool script__sample_drop(struct perf_tool *tool, const struct evsel *evsel __maybe_unused,
				u64 time, u32 cpu, const union perf_event *event __maybe_unused)
{
	struct script *s = tool_to_script(tool);
	struct evlist *evlist = s->session->evlist;

	if (!s->prepared || !evlist || s->nr_prepared != evlist->nr_entries ||
	    s->header.nr_pending || itrace__active(s->itrace))
		return false;
	return script_filter__skip_time_cpu(&s->opts->filter, time, cpu);
}

/*
 * A recorded callchain whose lines were printed before (script-chain-text.h):
 * printed again as they were.  Else the chain to keep once printed, in
 * s->chain_key, when its lines depend on nothing but the key: no frames
 * unwound or taken from an LBR stack, no source lines, one line a frame
 * (no --json), and each frame resolved by the maps alone
 */
static bool script__chain_again(struct script *s, const struct evsel *evsel,
				const struct thread *thread, const struct perf_sample *sample)
{
	struct script_chain_key *k = &s->chain_key;
	const char *text;
	size_t len;

	s->chain_start = SIZE_MAX;
	if (!s->chains || s->want_srcline || s->printer.json || !sample->callchain ||
	    unwind__sample_has_stack(evsel->attr.sample_type, sample) ||
	    (evsel->attr.sample_type & PERF_SAMPLE_BRANCH_STACK) ||
	    !thread__chain_gen(thread, sample->callchain, &k->gen))
		return false;
	k->evsel = evsel;
	k->ips = sample->callchain->ips;
	k->nr = sample->callchain->nr;
	script_chain_key__hash(k);
	text = script_chains__find(s->chains, k, &len);
	if (text) {
		script_buf__write(&s->printer.out, text, len);
		return true;
	}
	s->chain_start = s->printer.out.len;
	s->chain_flushes = s->printer.out.flushes;
	return false;
}

/* the chain script__chain_again() did not have, printed whole in the buffer: kept */
static void script__chain_keep(struct script *s)
{
	const struct script_buf *b = &s->printer.out;

	if (s->chain_start == SIZE_MAX || b->flushes != s->chain_flushes || b->err ||
	    b->len < s->chain_start)
		return;
	script_chains__keep(s->chains, &s->chain_key, b->data + s->chain_start,
			    b->len - s->chain_start);
}

static int script__sample(struct perf_tool *tool, union perf_event *event,
			  struct perf_sample *sample, struct evsel *evsel, struct machine *machine)
{
	struct script *s = tool_to_script(tool);
	struct script_sample_info info = {.comm = NULL};
	struct addr_location al, addr_al;
	struct script_loc addr_loc;
	char text[512]; /* insn, disasm, poked: printed by the tail */
	struct script_dump *dump = NULL;
	struct script_buf saved;
	int err;

	err = script__prepare(s);
	if (err)
		return err;
	script__header_pending(s);
	err = script__itrace_until(s, sample->time);
	if (err)
		return err;
	/* as perf: --time and -C drop a sample before it is resolved */
	if (s->filtering && script_filter__skip_early(&s->opts->filter, sample))
		return 0;
	/* perf resolves every sample, printed or not: -D shows its thread and dso */
	if (!script_printer__fields(&s->printer, evsel) && !dump_trace)
		return 0;

	addr_location__init(&al);
	addr_location__init(&addr_al);
	if (machine__resolve(machine, &al, sample) < 0) {
		pr_debug("%s: sample at %#llx: cannot resolve its thread, skipping it\n",
			 s->session->path, (unsigned long long)s->session->cur_offset);
		goto out;
	}
	perf_sample__dump_resolved(&al, sample);
	if (!script_printer__fields(&s->printer, evsel))
		goto out;
	if (s->filtering && script_filter__skip_resolved(&s->opts->filter, sample, &al))
		goto out;
	if (s->opts->per_event_dump) {
		dump = script__dump(s, evsel);
		if (!dump) {
			addr_location__exit(&al);
			return -EIO;
		}
		/* the printers write to p->out: lend it the event's file */
		saved = s->printer.out;
		s->printer.out = dump->out;
		dump->samples++;
	}
	info.comm = al.thread ? thread__comm_str(al.thread) : NULL;
	loc_from_al(s, &info.loc, sample->ip, &al);
	info.loc.srcline = script__srcline(s, &al, 0, false);
	if ((script_printer__fields(&s->printer, evsel) & SF_ADDR) &&
	    (script_printer__fields(&s->printer, evsel) & (SF_SYM | SF_DSO)) && al.thread &&
	    script__addr_is_resolved(&evsel->attr)) {
		script__resolve_addr(s, al.thread, sample, &addr_al, &addr_loc);
		info.addr_loc = &addr_loc;
	}
	info.has_chain = sample->callchain != NULL;
	if ((script_printer__fields(&s->printer, evsel) & SF_TRACE) && sample->raw_data &&
	    evsel->tp_format)
		info.trace = trace_events__format(s->trace, evsel->tp_format, sample->cpu,
						  sample->raw_data, sample->raw_size);

	script_print__sample_head(&s->printer, sample, evsel, &info);
	if (info.has_chain && al.thread && script_printer__callchain(&s->printer, evsel)) {
		struct frame_arg fa = {s, evsel};

		if (script__chain_again(s, evsel, al.thread, sample))
			goto chain_done;
		/* --call-graph dwarf: the user part is unwound from the stack dump */
		if (!s->unwinder && unwind__sample_has_stack(evsel->attr.sample_type, sample))
			s->unwinder = unwinder__new();
		thread__walk_sample_chain_peek(
		    al.thread, sample, &evsel->attr, s->unwinder, s->opts->max_stack,
		    !s->opts->no_inline, s->want_srcline ? NULL : peek_frame, print_frame, &fa);
		script__chain_keep(s);
	}
chain_done:
	if ((script_printer__fields(&s->printer, evsel) &
	     (SF_BRSTACK | SF_BRSTACKSYM | SF_BRSTACKOFF)) &&
	    al.thread &&
	    !script_branch__format(&s->branches, script_printer__fields(&s->printer, evsel),
				   al.thread, sample)) {
		info.branches = s->branches.buf;
		info.branches_len = s->branches.len;
	}
	if (script_printer__fields(&s->printer, evsel) & SF_TEXT) {
		if (s->printer.json) {
			script__json_text(s, &info, script_printer__fields(&s->printer, evsel),
					  sample, &al);
		} else {
			info.text = text;
			info.text_len = script_text__sample(
			    s->text, text, sizeof(text), script_printer__fields(&s->printer, evsel),
			    sample, &al);
		}
	}
	script_print__sample_tail(&s->printer, sample, evsel, &info);
	if (dump) {
		dump->out = s->printer.out;
		s->printer.out = saved;
		err = script_buf__maybe_flush(&dump->out);
		if (err)
			return err;
	}
out:
	addr_location__exit(&addr_al);
	addr_location__exit(&al);
	if (dump_trace)
		return script_buf__flush(&s->printer.out);
	return script_buf__maybe_flush(&s->printer.out);
}

static bool script__shows(const struct script *s, u32 type)
{
	const struct script_opts *o = s->opts;

	switch (type) {
	case PERF_RECORD_COMM:
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		return o->show_task_events;
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		return o->show_mmap_events;
	case PERF_RECORD_KSYMBOL:
		/* perf 6.1 prints KSYMBOLs for either option: both change kernel text */
		return o->show_bpf_events || o->show_text_poke_events;
	case PERF_RECORD_BPF_EVENT:
		return o->show_bpf_events;
	case PERF_RECORD_TEXT_POKE:
		return o->show_text_poke_events;
	case PERF_RECORD_LOST:
		return o->show_lost_events;
	case PERF_RECORD_SWITCH:
	case PERF_RECORD_SWITCH_CPU_WIDE:
		return o->show_switch_events;
	case PERF_RECORD_NAMESPACES:
		return o->show_namespace_events;
	case PERF_RECORD_CGROUP:
		return o->show_cgroup_events;
	default:
		return false;
	}
}

/*
 * The thread perf script names on a side-band line: the record's own
 * pid/tid for COMM, MMAP, FORK (the child) and EXIT, the sample id's for
 * the others.
 */
static void side_band_ids(const union perf_event *event, const struct perf_sample *sample, s32 *pid,
			  s32 *tid)
{
	switch (event->header.type) {
	case PERF_RECORD_COMM:
		*pid = event->comm.pid;
		*tid = event->comm.tid;
		break;
	case PERF_RECORD_MMAP:
		*pid = event->mmap.pid;
		*tid = event->mmap.tid;
		break;
	case PERF_RECORD_MMAP2:
		*pid = event->mmap2.pid;
		*tid = event->mmap2.tid;
		break;
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		*pid = event->fork.pid;
		*tid = event->fork.tid;
		break;
	case PERF_RECORD_NAMESPACES:
		*pid = event->namespaces.pid;
		*tid = event->namespaces.tid;
		break;
	default:
		*pid = sample->pid;
		*tid = sample->tid;
		break;
	}
}

static void script__print_side_band(struct script *s, union perf_event *event,
				    struct perf_sample *sample, struct evsel *evsel,
				    struct machine *machine)
{
	struct script_loc poke, *poke_sym = NULL;
	struct thread *thread = NULL;
	s32 pid, tid;

	side_band_ids(event, sample, &pid, &tid);
	/* without sample_id_all perf shows cpu 0, the record's own time and ids */
	if (evsel && !evsel->attr.sample_id_all) {
		sample->cpu = 0;
		sample->time = 0;
		if (event->header.type == PERF_RECORD_FORK ||
		    event->header.type == PERF_RECORD_EXIT)
			sample->time = event->fork.time;
		sample->pid = pid;
		sample->tid = tid;
	}
	/* of the filters, perf applies -C alone to side-band lines */
	if (s->filtering && script_filter__skip_cpu(&s->opts->filter, sample->cpu))
		return;
	if (tid != -1)
		thread = machine__findnew_thread(machine, pid, tid);
	if (event->header.type == PERF_RECORD_TEXT_POKE && thread) {
		struct addr_location al;

		addr_location__init(&al);
		if (thread__find_symbol(thread, PERF_RECORD_MISC_KERNEL, event->text_poke.addr,
					sample->time, &al) &&
		    al.sym) {
			loc_from_al(s, &poke, event->text_poke.addr, &al);
			poke_sym = &poke;
			/* the name outlives al: symbols belong to the dso */
		}
		script_print__side_band(&s->printer, event, sample, evsel, thread__comm_str(thread),
					poke_sym);
		addr_location__exit(&al);
		if (s->text) {
			char text[512];
			size_t n = script_text__poke_event(s->text, text, sizeof(text), event,
							   sample, thread);

			size_t lead = strspn(text, " ");

			/*
			 * our line after perf's Old/New bytes, in their style:
			 * the poke decoded and checked against the image
			 */
			if (n > lead && s->printer.json) {
				script_json__side_band_extra(&s->printer, "decoded", text + lead,
							     n - lead);
			} else if (n > lead) {
				script_buf__puts(&s->printer.out, "            Decoded: ");
				script_buf__write(&s->printer.out, text + lead, n - lead);
				script_buf__putc(&s->printer.out, '\n');
			}
		}
	} else {
		script_print__side_band(&s->printer, event, sample, evsel,
					thread ? thread__comm_str(thread) : NULL, NULL);
	}
	script_print__side_band_end(&s->printer);
	thread__put(thread);
}

static int script__side_band(struct perf_tool *tool, union perf_event *event,
			     struct perf_sample *sample, struct evsel *evsel,
			     struct machine *machine)
{
	struct script *s = tool_to_script(tool);
	bool show = script__shows(s, event->header.type);
	int err;

	script__header_pending(s);
	if (show || s->itrace) {
		err = script__prepare(s);
		if (err)
			return err;
	}
	err = script__itrace_until(s, sample->time);
	if (err)
		return err;
	/* perf prints an EXIT while the thread still exists, the rest after the update */
	if (show && event->header.type == PERF_RECORD_EXIT)
		script__print_side_band(s, event, sample, evsel, machine);
	err = machine__process_event(machine, event, sample);
	if (err)
		pr_debug("%s: %s record at %#llx not applied to the machine model (%d)\n",
			 s->session->path, perf_event__name(event->header.type),
			 (unsigned long long)s->session->cur_offset, err);
	err = itrace__side_band(s->itrace, event, sample);
	if (err)
		return err;
	if (s->text && script_text__side_band(s->text, machine, event, sample))
		pr_debug("%s: %s record at %#llx not applied to the text image\n", s->session->path,
			 perf_event__name(event->header.type),
			 (unsigned long long)s->session->cur_offset);
	if (show && event->header.type != PERF_RECORD_EXIT)
		script__print_side_band(s, event, sample, evsel, machine);
	if (!show)
		return 0;
	if (dump_trace)
		return script_buf__flush(&s->printer.out);
	return script_buf__maybe_flush(&s->printer.out);
}

/* --show-round-events: perf prints each round bare, where it is in the file */
static int script__user_event(struct perf_tool *tool, union perf_event *event,
			      struct perf_session *session)
{
	struct script *s = tool_to_script(tool);

	(void)session;
	script__header_pending(s);
	if (event->header.type != PERF_RECORD_FINISHED_ROUND)
		return 0;
	script_print__side_band(&s->printer, event, NULL, NULL, NULL, NULL);
	script_print__side_band_end(&s->printer);
	return script_buf__maybe_flush(&s->printer.out);
}

static int script__itrace_data(struct perf_tool *tool, const void *buf, u64 len)
{
	return itrace__auxtrace_data(tool_to_script(tool)->itrace, buf, len);
}

/*
 * AUXTRACE_INFO, TIME_CONV and AUXTRACE go to the decoder; a trace it
 * cannot decode is left to the session, which skips and counts it
 */
static int script__itrace_user_event(struct perf_tool *tool, union perf_event *event,
				     struct perf_session *session)
{
	struct script *s = tool_to_script(tool);
	int err;

	err = itrace__user_event(s->itrace, event, session);
	if (err)
		return err;
	/* the trace goes to a decoder that is there, else the session counts it */
	if (event->header.type == PERF_RECORD_AUXTRACE_INFO)
		s->tool.auxtrace_data = itrace__active(s->itrace) ? script__itrace_data : NULL;
	if (s->opts->show_round_events)
		return script__user_event(tool, event, session);
	return 0;
}

static int script__feature(struct perf_tool *tool, int feat, const void *buf, u64 size)
{
	struct script *s = tool_to_script(tool);

	/* -F tod converts with it; a bad one is perf's "no clock data" */
	if (feat == HEADER_CLOCK_DATA && script_tod__init(&s->printer.tod, buf, size))
		pr_debug("%s: HEADER_CLOCK_DATA of %llu bytes is not version 1, ignored\n",
			 s->opts->input, (unsigned long long)size);
	if (!s->opts->header && !s->opts->header_only)
		return 0;
	return script_header__keep(&s->header, feat, buf, size);
}

/*
 * perf's check: -F tod on some event type present needs the recording's
 * clock data (a pipe's arrives later: its lines say "disabled" without)
 */
static int script__check_tod(struct script *s)
{
	struct evlist *evlist = s->session->evlist;
	int i;

	if (s->printer.tod.enabled || s->session->is_pipe)
		return 0;
	for (i = 0; evlist && i < evlist->nr_entries; i++) {
		const struct evsel *evsel = evlist->entries[i];

		/* as perf, the side-band carrier does not count */
		if (evsel->attr.type == PERF_TYPE_SOFTWARE &&
		    evsel->attr.config == PERF_COUNT_SW_DUMMY)
			continue;
		if (!(script_printer__fields(&s->printer, evsel) & SF_TOD))
			continue;
		pr_err("Can't provide 'tod' time, missing clock data. Please record with "
		       "-k/--clockid option.\n");
		return SCRIPT_ERR_OPEN;
	}
	return 0;
}

/* the text image costs a pass over the file: only when its answers are printed */
static bool script__wants_text(const struct script_opts *opts)
{
	int t;

	if (opts->show_text_poke_events)
		return true;
	for (t = 0; t < SCRIPT_OUT_MAX; t++)
		if (opts->fields.out[t].fields & SF_TEXT)
			return true;
	return false;
}

/*
 * perf's check on the file it reads (a directory's data file): one owned
 * by someone else, root aside, is refused unless -f
 */
static int script__check_owner(const struct script_opts *opts)
{
	char path[PATH_MAX];
	struct stat st;

	if (opts->force || !strcmp(opts->input, "-") || stat(opts->input, &st))
		return 0; /* opening it reports the rest */
	if (S_ISDIR(st.st_mode)) {
		snprintf(path, sizeof(path), "%s/data", opts->input);
		if (stat(path, &st))
			return 0;
	} else {
		snprintf(path, sizeof(path), "%s", opts->input);
	}
	if (st.st_uid && st.st_uid != geteuid()) {
		pr_err("File %s not owned by current user or root (use -f to override)\n", path);
		return -EPERM;
	}
	return 0;
}

/*
 * The hardware trace of a recording that has one is decoded, as perf
 * does, with its default --itrace when none is given.  Whether it has one
 * is known at its AUXTRACE_INFO record: HEADER_AUXTRACE, the index of a
 * file's trace, is missing from some (a writer that keeps none, a
 * recording cut before its header was written), and a pipe has none.
 */
static int script__itrace_init(struct script *s)
{
	struct script_opts *opts = s->opts;

	/* the synthesized samples have no JSON form yet: the trace is left undecoded */
	if (opts->json)
		return 0;
	if (!opts->itrace.set)
		itrace_opts__set_default(&opts->itrace);
	/* the stacks are report's: script prints no callchain of a trace's sample */
	if (opts->itrace.callchain)
		pr_warning("--itrace: 'g' (callchains) is not supported by script, ignored\n");
	s->itrace = itrace__new(&opts->itrace, s->session, &s->printer, opts->input, &opts->text,
				&opts->filter, s->filtering);
	if (!s->itrace)
		return -ENOMEM;
	s->tool.user_event = script__itrace_user_event;
	return 0;
}

/* perf checks the first event of each type for PERF_SAMPLE_CPU */
static bool script__has_cpu(const struct evlist *evlist)
{
	bool seen[PERF_TYPE_MAX + 1] = {false};
	int i;

	for (i = 0; evlist && i < evlist->nr_entries; i++) {
		const struct evsel *evsel = evlist->entries[i];
		u32 type = evsel->attr.type < PERF_TYPE_MAX ? evsel->attr.type : PERF_TYPE_MAX;

		if (seen[type])
			continue;
		seen[type] = true;
		if (!(evsel->attr.sample_type & PERF_SAMPLE_CPU))
			return false;
	}
	return true;
}

/*
 * A parallel run's chunk is done: its lines go out before the output
 * moves on, stdio's buffer too, so that a write that fails there is
 * said as one worker says it (its next write would have failed)
 */
static int script__flush_output(struct perf_tool *tool)
{
	struct script_buf *b = &tool_to_script(tool)->printer.out;
	int err = script_buf__flush(b);

	if (!err && b->fp && fflush(b->fp))
		err = b->err = -errno ?: -EIO;
	return err;
}

/*
 * Workers for the run (0: one per CPU): one where a line depends on lines
 * before it or on records no chunk owns.  Said under -v.
 */
static unsigned int script__nr_workers(struct script *s)
{
	const struct script_opts *o = s->opts;
	const char *why = NULL;

	if (o->threads == 1)
		return 1;
	if (o->json)
		why = "--json";
	else if (o->reltime || o->deltatime)
		why = o->reltime ? "--reltime" : "--deltatime";
	else if (o->per_event_dump)
		why = "--per-event-dump";
	else if (o->show_round_events)
		why = "--show-round-events";
	else if (o->show_task_events || o->show_mmap_events || o->show_bpf_events ||
		 o->show_text_poke_events || o->show_lost_events || o->show_switch_events ||
		 o->show_namespace_events || o->show_cgroup_events)
		why = "side-band records are shown";
	else if (itrace__active(s->itrace) || s->session->tool->auxtrace_data)
		why = "a hardware trace is decoded";
	else if (dump_trace)
		why = "-D";
	/* as perf, data_src is padded to the widest printed so far */
	for (int i = 0; !why && i < s->session->evlist->nr_entries; i++)
		if (script_printer__fields(&s->printer, s->session->evlist->entries[i]) &
		    SF_DATA_SRC)
			why = "data_src is printed";
	if (why) {
		pr_debug("%s: one worker: %s\n", s->session->path, why);
		return 1;
	}
	return o->threads;
}

/*
 * Reads the recording and prints it: all of it, or in a worker of a
 * parallel run (session-workers.c) the samples of its chunks of time.
 */
static int script__process(void *arg)
{
	struct script *s = arg;
	struct script_opts *opts = s->opts;
	int err;

	/* a parallel run's worker has a stdout of its own (worker-output.c) */
	s->printer.out.fp = stdout;
	err = perf_session__process_events(s->session);
	if (!err)
		err = itrace__finish(s->itrace);
	script__header_pending(s);
	for (int i = 0;
	     opts->per_event_dump && s->session->evlist && i < s->session->evlist->nr_entries;
	     i++) {
		int e = script__dump_close(s, s->session->evlist->entries[i]);

		err = err ?: e;
	}
	/* a cut-off input: the lines of what came before, then why it ends */
	if (!err || s->session->truncated) {
		int e = script_buf__flush(&s->printer.out);

		err = e ?: err;
	}
	if (err == -EPIPE)
		err = 0;
	else if (s->printer.out.err)
		pr_err("writing the output failed: %s\n", strerror(-s->printer.out.err));
	else if (s->session->truncated) {
		/* after the lines it ends, in a 2>&1 stream too */
		fflush(s->printer.out.fp);
		pr_err("%s\n", perf_session__cut_message(s->session));
	}
	return err;
}

int script__run(struct script_opts *opts)
{
	struct script s = {
	    .tool =
		{
		    .sample = script__sample,
		    .side_band = script__side_band,
		    .ordered_events = true,
		    .defer_cut = true,
		    .flush_output = script__flush_output,
		},
	    .opts = opts,
	};
	int err;

	err = script_buf__init(&s.printer.out, stdout);
	if (err)
		return err;
	s.printer.fields = &opts->fields;
	s.printer.nanosecs = opts->nanosecs;
	/* without it chains are printed frame by frame, as before */
	s.chains = script_chains__new();
	s.printer.json = opts->json;
	s.printer.json_frames = -1;
	if (opts->json) {
		err = script_buf__init(&s.printer.scratch, NULL);
		if (err)
			goto out_buf;
	}
	/* as perf: rounds are shown in file order, so nothing is sorted */
	if (opts->show_round_events) {
		s.tool.ordered_events = false;
		s.tool.user_event = script__user_event;
	}
	/* the header's features, and the clock data -F tod needs */
	s.tool.feature = script__feature;
	s.printer.tod.cached_sec = -1;
	s.header.full = opts->show_info;
	s.printer.reltime = opts->reltime;
	s.printer.deltatime = opts->deltatime;
	opts->filter.reltime = opts->reltime;
	if (!opts->input) {
		struct stat st;

		/* as perf: no -i and a pipe on stdin reads the pipe */
		opts->input = !fstat(STDIN_FILENO, &st) && S_ISFIFO(st.st_mode) ? "-" : "perf.data";
	}
	err = script__check_owner(opts);
	if (err)
		goto out_buf;

	dso__set_symfs(opts->text.symfs);
	s.session = perf_session__new(opts->input, &s.tool);
	if (!s.session) {
		/* perf's status when a file cannot be opened or is not a recording */
		err = SCRIPT_ERR_OPEN;
		goto out_buf;
	}
	err = machine__set_kernel_symbols(s.session->machine, opts->text.kallsyms,
					  opts->text.vmlinux);
	if (err)
		goto out_delete;
	/*
	 * as perf: a file with a trace index may have fields asked for that
	 * only the trace's samples carry (a pipe writes no index)
	 */
	opts->fields.allow_user_set =
	    !s.session->is_pipe && perf_session__has_feat(s.session, HEADER_AUXTRACE);
	/* a file's evlist is known now: report bad -F choices before any output */
	err = script__prepare(&s);
	if (err || (err = script__check_tod(&s))) {
		err = SCRIPT_ERR_OPEN; /* perf's check_output_opt() returns -1 */
		goto out_delete;
	}
	if (opts->header || opts->header_only) {
		/* the printers' buffer goes out later: this block comes first */
		err = script_header__fprintf(&s.header, s.session, stdout);
		if (err || opts->header_only)
			goto out_delete;
	}
	s.filtering = script_filter__active(&opts->filter);
	if (s.filtering) {
		err = script_filter__init(&opts->filter, s.session->env.first_sample_time,
					  s.session->env.last_sample_time,
					  script__has_cpu(s.session->evlist));
		if (err)
			goto out_delete;
		s.tool.sample_drop = script__sample_drop;
	}
	err = script__itrace_init(&s);
	if (err)
		goto out_delete;
	if (script__wants_text(opts)) {
		s.text = script_text__new(opts->input, s.session, &opts->text);
		if (!s.text) {
			err = -EINVAL;
			goto out_delete;
		}
	}
	for (int i = 0; opts->per_event_dump && i < s.session->evlist->nr_entries; i++) {
		/* perf creates every event's file up front, empty ones too */
		if (!script__dump(&s, s.session->evlist->entries[i])) {
			err = -EIO;
			goto out_delete;
		}
	}
	/* nothing may wait in a buffer that every worker would then write */
	err = script_buf__flush(&s.printer.out);
	if (!err)
		err = perf_session__run_workers(s.session, script__nr_workers(&s), script__process,
						&s);
out_delete:
	/* after an error: the files written so far are closed, without their lines */
	for (int i = 0; opts->per_event_dump && s.session && s.session->evlist &&
			i < s.session->evlist->nr_entries;
	     i++) {
		struct script_dump *d = s.session->evlist->entries[i]->priv;

		if (!d)
			continue;
		script_buf__flush(&d->out);
		fclose(d->out.fp);
		script_buf__exit(&d->out);
		free(d->path);
		free(d);
		s.session->evlist->entries[i]->priv = NULL;
	}
	if (s.unwinder) {
		const struct unwind_stats *us = unwinder__stats(s.unwinder);

		pr_debug("unwind: %llu stacks, %llu frames; %llu by libdwfl, %llu ended in a pc "
			 "with no object, %llu on a bad stack, %llu at --max-stack; %llu objects "
			 "opened\n",
			 (unsigned long long)us->nr_walks, (unsigned long long)us->nr_frames,
			 (unsigned long long)us->nr_slow_walks,
			 (unsigned long long)us->nr_no_object, (unsigned long long)us->nr_bad_stack,
			 (unsigned long long)us->nr_max_stack,
			 (unsigned long long)us->nr_objects_open);
	}
	itrace__delete(s.itrace);
	unwinder__delete(s.unwinder);
	script_branch_buf__exit(&s.branches);
	script_text__delete(s.text);
	trace_events__delete(s.trace);
	perf_session__delete(s.session);
	script_filter__exit(&opts->filter);
	script_header__exit(&s.header);
out_buf:
	script_buf__exit(&s.printer.out);
	script_printer__exit(&s.printer);
	script_chains__delete(s.chains);
	if (opts->json)
		script_buf__exit(&s.printer.scratch);
	return err;
}
