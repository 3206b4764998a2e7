// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf textpoke annotate --itrace: the samples of an Intel PT trace.
 *
 * The trace is decoded by the decoder report and script use (itrace.c),
 * in time order among the recorded records: before each record the trace
 * up to its time.  Each synthesized sample goes to annotate.c's sample
 * callback as a recorded one does, so the filters, totals and per-symbol
 * histograms are the same code; annotate.c then hands the sample back
 * here (annotate_itrace__count()) to be counted once more by the bytes
 * the decoder walked at that address at that moment.  Kernel code poked
 * while the trace ran (a jump label, an ftrace site, a BPF program
 * replaced at one address) thus shows each instruction that ran at an
 * address with its own count, rather than all of them drawn on one copy
 * of the bytes, as stock perf annotate does.
 *
 * A block lists the instructions the trace ran, not the symbol's whole
 * code: the bytes are the decoder's, which is what is known of code that
 * changed.  With --itrace=i1 (every instruction a sample of period 1) the
 * counts are executions, and the header says so.  With b, a jump's or
 * call's line in the instructions block carries how often it was taken
 * (its branch samples), and the branches event has its own block.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "annotate-internal.h"
#include "annotate-itrace.h"
#include "debug.h"
#include "disasm.h"
#include "dso.h"
#include "evsel.h"
#include "header.h"
#include "machine.h"
#include "symbol.h"

/* the samples of one event at one instruction of one symbol, by its bytes */
struct ai_entry {
	const struct symbol *sym;
	u64 off;
	u64 base;   /* the address the symbol was at, from the sample's ip */
	size_t seq; /* first seen: an address's codes in the order they ran */
	int evsel_idx;
	u8 len; /* 0: the decoder did not have the bytes (a branch's, rarely) */
	u8 bytes[15];
	u64 nr, period;
};

struct annotate_itrace {
	struct itrace *it;
	struct annotate_tool *at;
	struct perf_session *session;
	/* annotate.c's own callbacks, called after the trace is decoded up to their record */
	int (*sample)(struct perf_tool *tool, union perf_event *event, struct perf_sample *sample,
		      struct evsel *evsel, struct machine *machine);
	bool exact;		     /* i1: every instruction one sample */
	int insns_idx, branches_idx; /* the trace's events, -1 until a sample comes */
	struct ai_entry *e;
	size_t nr, alloc;
	size_t *slots; /* SIZE_MAX: free; NULL once sorted for printing */
	size_t nr_slots;
	bool sorted;
};

static struct annotate_itrace *ai__of(struct perf_tool *tool)
{
	return ((struct annotate_tool *)tool)->itrace;
}

static int ai__sink(void *arg, struct evsel *evsel, struct perf_sample *sample)
{
	struct annotate_itrace *ai = arg;

	if (ai->insns_idx < 0 && !strcmp(evsel__name(evsel), "instructions"))
		ai->insns_idx = evsel->idx;
	if (ai->branches_idx < 0 && !strcmp(evsel__name(evsel), "branches"))
		ai->branches_idx = evsel->idx;
	return ai->sample(&ai->at->tool, NULL, sample, evsel, ai->session->machine);
}

static int ai__sample(struct perf_tool *tool, union perf_event *event, struct perf_sample *sample,
		      struct evsel *evsel, struct machine *machine)
{
	struct annotate_itrace *ai = ai__of(tool);
	int err = itrace__flush_until(ai->it, sample->time);

	return err ?: ai->sample(tool, event, sample, evsel, machine);
}

static int ai__side_band(struct perf_tool *tool, union perf_event *event,
			 struct perf_sample *sample, struct evsel *evsel __maybe_unused,
			 struct machine *machine)
{
	struct annotate_itrace *ai = ai__of(tool);
	int err = itrace__flush_until(ai->it, sample->time);

	if (!err)
		err = machine__process_event(machine, event, sample);
	return err ?: itrace__side_band(ai->it, event, sample);
}

static int ai__data(struct perf_tool *tool, const void *buf, u64 len)
{
	return itrace__auxtrace_data(ai__of(tool)->it, buf, len);
}

static int ai__user_event(struct perf_tool *tool, union perf_event *event,
			  struct perf_session *session)
{
	struct annotate_itrace *ai = ai__of(tool);
	int err = itrace__user_event(ai->it, event, session);

	/* a trace this decoder cannot read (not Intel PT) is said undecoded */
	if (!err && event->header.type == PERF_RECORD_AUXTRACE_INFO)
		tool->auxtrace_data = itrace__active(ai->it) ? ai__data : NULL;
	return err;
}

int annotate_itrace__init(struct annotate_tool *at, const struct itrace_opts *opts,
			  struct perf_session *session, const char *input)
{
	/* the kernel code comes from the recording's kcore_dir, poked as it ran */
	static const struct text_image_opts text;
	struct itrace_opts o = *opts;
	struct annotate_itrace *ai;

	/*
	 * Without --itrace perf annotate decodes a trace with report's
	 * default (instructions every 100 us, errors, psb and cbr events)
	 * but for the callchains, which annotate has no use for.  A
	 * recording whose header names no trace is left alone.
	 */
	if (!o.set) {
		if (session->is_pipe || !perf_session__has_feat(session, HEADER_AUXTRACE))
			return 0;
		itrace_opts__set_report_default(&o);
		o.callchain = o.add_callchain = false;
	}
	ai = calloc(1, sizeof(*ai));
	if (!ai)
		return -ENOMEM;
	ai->insns_idx = ai->branches_idx = -1;
	ai->exact = o.insns && o.period == 1 && !o.period_ns;
	ai->session = session;
	ai->at = at;
	ai->it = itrace__new(&o, session, NULL, input, &text, NULL, false);
	if (!ai->it || itrace__set_sink(ai->it, ai__sink, ai)) {
		annotate_itrace__delete(ai);
		return -ENOMEM;
	}
	ai->sample = at->tool.sample;
	at->tool.sample = ai__sample;
	at->tool.side_band = ai__side_band;
	at->tool.user_event = ai__user_event;
	at->itrace = ai;
	return 0;
}

void annotate_itrace__delete(struct annotate_itrace *ai)
{
	if (!ai)
		return;
	itrace__delete(ai->it);
	free(ai->e);
	free(ai->slots);
	free(ai);
}

int annotate_itrace__finish(struct annotate_itrace *ai)
{
	return itrace__finish(ai->it);
}

u64 annotate_itrace__nr_errors(const struct annotate_itrace *ai)
{
	return itrace__nr_errors(ai->it);
}

static size_t ai__hash(const struct symbol *sym, u64 off, int idx, const u8 *bytes, u8 len)
{
	u64 h = (u64)(uintptr_t)sym * 0x9e3779b97f4a7c15ULL ^ off * 0xc2b2ae3d27d4eb4fULL ^
		(u64)idx << 40 ^ len;
	u8 i;

	for (i = 0; i < len; i++)
		h = (h ^ bytes[i]) * 0x100000001b3ULL;
	return h ^ (h >> 31);
}

static bool ai__same(const struct ai_entry *e, const struct symbol *sym, u64 off, int idx,
		     const u8 *bytes, u8 len)
{
	return e->sym == sym && e->off == off && e->evsel_idx == idx && e->len == len &&
	       !memcmp(e->bytes, bytes, len);
}

static int ai__grow_slots(struct annotate_itrace *ai)
{
	size_t n = ai->nr_slots ? 2 * ai->nr_slots : 1024, i;
	size_t *slots = malloc(n * sizeof(*slots));

	if (!slots)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		slots[i] = SIZE_MAX;
	for (i = 0; i < ai->nr; i++) {
		const struct ai_entry *e = &ai->e[i];
		size_t s = ai__hash(e->sym, e->off, e->evsel_idx, e->bytes, e->len) & (n - 1);

		while (slots[s] != SIZE_MAX)
			s = (s + 1) & (n - 1);
		slots[s] = i;
	}
	free(ai->slots);
	ai->slots = slots;
	ai->nr_slots = n;
	return 0;
}

int annotate_itrace__count(struct annotate_itrace *ai, const struct annotate_sym *as, u64 off,
			   const struct perf_sample *sample)
{
	const u8 *bytes;
	int len = itrace__sink_insn(ai->it, &bytes);
	struct ai_entry *e;
	size_t s;

	if (ai->sorted)
		return 0;
	if (len <= 0 || len > (int)sizeof(e->bytes))
		len = 0;
	if (2 * (ai->nr + 1) > ai->nr_slots && ai__grow_slots(ai))
		return -ENOMEM;
	s = ai__hash(as->sym, off, as->evsel_idx, bytes, len) & (ai->nr_slots - 1);
	for (; ai->slots[s] != SIZE_MAX; s = (s + 1) & (ai->nr_slots - 1)) {
		e = &ai->e[ai->slots[s]];
		if (ai__same(e, as->sym, off, as->evsel_idx, bytes, len))
			goto count;
	}
	if (ai->nr == ai->alloc) {
		size_t n = 2 * ai->alloc + 256;
		struct ai_entry *p = realloc(ai->e, n * sizeof(*p));

		if (!p)
			return -ENOMEM;
		ai->e = p;
		ai->alloc = n;
	}
	e = &ai->e[ai->nr];
	memset(e, 0, sizeof(*e));
	e->sym = as->sym;
	e->off = off;
	e->base = sample->ip - off;
	e->seq = ai->nr;
	e->evsel_idx = as->evsel_idx;
	e->len = len;
	memcpy(e->bytes, bytes, len);
	ai->slots[s] = ai->nr++;
count:
	e->nr++;
	e->period += sample->period;
	return 0;
}

bool annotate_itrace__owns(const struct annotate_itrace *ai, const struct annotate_sym *as)
{
	/* psb and cbr samples come with no instruction: annotated as recorded ones */
	return as->evsel_idx == ai->insns_idx || as->evsel_idx == ai->branches_idx;
}

/* by symbol, event, offset, then in the order the codes ran */
static int ai_entry__cmp(const void *pa, const void *pb)
{
	const struct ai_entry *a = pa, *b = pb;

	if (a->sym != b->sym)
		return (uintptr_t)a->sym < (uintptr_t)b->sym ? -1 : 1;
	if (a->evsel_idx != b->evsel_idx)
		return a->evsel_idx < b->evsel_idx ? -1 : 1;
	if (a->off != b->off)
		return a->off < b->off ? -1 : 1;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

/* the first entry of (@sym, @idx) or after where it would be */
static size_t ai__lower(const struct annotate_itrace *ai, const struct symbol *sym, int idx,
			u64 off)
{
	size_t lo = 0, hi = ai->nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct ai_entry *e = &ai->e[mid];
		bool before;

		if (e->sym != sym)
			before = (uintptr_t)e->sym < (uintptr_t)sym;
		else if (e->evsel_idx != idx)
			before = e->evsel_idx < idx;
		else
			before = e->off < off;
		if (before)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static bool ai__in(const struct ai_entry *e, const struct symbol *sym, int idx)
{
	return e->sym == sym && e->evsel_idx == idx;
}

/*
 * How often the instruction @ins was taken: the branch samples from its
 * address with its bytes; those whose bytes the decoder did not keep
 * count when the address ran only one code.  -1: not a branch seen.
 */
static s64 ai__taken(const struct annotate_itrace *ai, const struct ai_entry *ins, bool one_code)
{
	size_t i = ai__lower(ai, ins->sym, ai->branches_idx, ins->off);
	s64 taken = -1;

	for (; i < ai->nr && ai__in(&ai->e[i], ins->sym, ai->branches_idx) &&
	       ai->e[i].off == ins->off;
	     i++) {
		const struct ai_entry *b = &ai->e[i];

		if ((b->len == ins->len && !memcmp(b->bytes, ins->bytes, b->len)) ||
		    (!b->len && one_code))
			taken = (taken < 0 ? 0 : taken) + b->nr;
	}
	return taken;
}

static bool ai__is_kernel(const struct annotate_sym *as)
{
	return as->dso->kind == DSO_KIND__KERNEL || as->dso->kind == DSO_KIND__MODULE ||
	       as->dso->kind == DSO_KIND__KSYMBOL || as->dso->kind == DSO_KIND__KERNEL_OBJECT;
}

/*
 * where @as's first byte is shown: kernel code where it ran (a BPF
 * program's or trampoline's symbol is an offset into its own object),
 * user code at its link-time address, as objdump shows it to perf
 */
static u64 ai__base(const struct annotate_sym *as, const struct ai_entry *first,
		    struct dso_data *dd)
{
	struct annotate_code code;
	u64 base = first ? first->base : as->sym->start;

	if (ai__is_kernel(as) || annotate_code__read(&code, dd, as->dso, as->sym))
		return base;
	base = code.vaddr;
	annotate_code__exit(&code);
	return base;
}

/* the figure column, " Percent |" in the header, as annotate-print.c's */
#define AI_COL_WIDTH 8

/* the header: a trace's exact counts say what they count, sampled ones are perf's */
int annotate_output__text_trace_head(struct annotate_output *out, const struct annotate_sym *as,
				     const struct annotate_totals *totals __maybe_unused,
				     const struct annotate_trace_head *h)
{
	const struct annotate_opts *opts = out->opts;
	const char *what = opts->show_nr_samples ? "Samples" : "Percent";
	FILE *fp = out->fp;
	char figures[128];
	int len;

	if (h->insns && !h->exact) {
		snprintf(figures, sizeof(figures), "%llu samples, percent: %s",
			 (unsigned long long)h->count, annotate_percent__title(opts->percent_type));
	} else {
		int n = snprintf(figures, sizeof(figures), "%llu %s", (unsigned long long)h->count,
				 h->insns ? "instructions executed" : "taken branches");

		if (opts->show_nr_samples)
			what = "Count";
		else
			snprintf(figures + n, sizeof(figures) - n, ", percent: %s",
				 annotate_percent__title(opts->percent_type));
	}
	len = fprintf(fp, " %-*.*s|\tSource code & Disassembly of %s for %s (%s)\n", AI_COL_WIDTH,
		      AI_COL_WIDTH, what, as->dso->short_name, as->evsel_name, figures);
	/* perf's underline: the header, its newline and tab counted as a column each, plus 4 */
	for (int i = 0; i < len + 4; i++)
		fputc('-', fp);
	fputc('\n', fp);
	fprintf(fp, "%*s:\n%*s:     %016llx <%s>:\n", AI_COL_WIDTH + 1, "", AI_COL_WIDTH + 1, "",
		(unsigned long long)h->base, symbol__name(as->sym));
	return 0;
}

/* spaces to objdump's next tab stop from @col (columns counted from the address) */
static int ai__tab(FILE *fp, int col)
{
	int next = (col / 8 + 1) * 8;

	fprintf(fp, "%*s", next - col, "");
	return next;
}

/*
 * One code run at an address: its figure, address, bytes with --asm-raw,
 * text; then, after a '#', how often it was taken and which of the
 * address's codes it is
 */
int annotate_output__text_trace_insn(struct annotate_output *out,
				     const struct annotate_sym *as __maybe_unused,
				     const struct annotate_trace_insn *ti)
{
	const struct annotate_opts *opts = out->opts;
	FILE *fp = out->fp;
	const char *sp;
	int col;

	if (opts->show_nr_samples)
		fprintf(fp, " %*llu : ", AI_COL_WIDTH - 1, (unsigned long long)ti->nr);
	else
		fprintf(fp, " %*.2f : ", AI_COL_WIDTH - 1, ti->percent);
	fprintf(fp, "  %*llx:", ti->head->width, (unsigned long long)ti->addr);
	col = ai__tab(fp, snprintf(NULL, 0, "%llx:", (unsigned long long)ti->addr));
	if (opts->asm_raw) {
		int raw = 0;

		for (int i = 0; i < ti->len; i++)
			raw += fprintf(fp, "%02x ", ti->bytes[i]);
		/* objdump leaves room for 7 bytes before its tab */
		if (raw < 21)
			raw += fprintf(fp, "%*s", 21 - raw, "");
		ai__tab(fp, col + raw);
	}
	/* the mnemonic in objdump's 6 columns */
	sp = ti->decoded ? strchr(ti->text, ' ') : NULL;
	if (sp)
		fprintf(fp, "%-6.*s %s", (int)(sp - ti->text), ti->text, sp + 1);
	else
		fputs(ti->text, fp);
	if (ti->taken >= 0 || ti->nr_codes > 1)
		fputs("\t#", fp);
	if (ti->taken >= 0)
		fprintf(fp, " taken %lld%s", (long long)ti->taken, ti->nr_codes > 1 ? "," : "");
	if (ti->nr_codes > 1)
		fprintf(fp, " code %zu of %zu run here", ti->code, ti->nr_codes);
	fputc('\n', fp);
	return 0;
}

/*
 * @e, code @code of the @nr_codes run at its address: its text, figures
 * and taken count, for every output.  0, or -EOPNOTSUPP without capstone.
 */
static int ai__insn(const struct annotate_itrace *ai, const struct annotate_sym *as,
		    const struct ai_entry *e, size_t code, size_t nr_codes,
		    const struct annotate_trace_head *h, const struct annotate_totals *totals,
		    const struct annotate_opts *opts, struct annotate_trace_insn *ti)
{
	struct disasm_insn insn;
	int n = -EINVAL;

	memset(ti, 0, sizeof(*ti));
	ti->head = h;
	ti->offset = e->off;
	ti->addr = h->base + e->off;
	ti->bytes = e->bytes;
	ti->len = e->len;
	if (e->len)
		n = disasm__one(e->bytes, e->len, ti->addr, &insn, NULL, NULL);
	if (n == -EOPNOTSUPP)
		return n;
	ti->decoded = n > 0;
	if (ti->decoded)
		snprintf(ti->text, sizeof(ti->text), "%s", insn.text);
	else
		snprintf(ti->text, sizeof(ti->text), "%s", e->len ? "(bad)" : "(bytes not known)");
	ti->nr = e->nr;
	ti->period = e->period;
	ti->percent = annotate_sym__percent(as, totals, opts->percent_type, e->nr, e->period);
	ti->code = code;
	ti->nr_codes = nr_codes;
	/* a taken count on every jump, call or return the trace took, 0 on a jump it never took */
	ti->taken = -1;
	if (h->insns && ai->branches_idx >= 0) {
		ti->taken = ai__taken(ai, e, nr_codes == 1);
		if (ti->taken < 0 && ti->decoded && ti->text[0] == 'j')
			ti->taken = 0;
	}
	return 0;
}

int annotate_itrace__write(struct annotate_itrace *ai, const struct annotate_sym *as,
			   const struct annotate_totals *totals, struct dso_data *dd,
			   struct annotate_output *out)
{
	const struct ai_entry *head = NULL;
	struct annotate_trace_head h;
	size_t i, first;
	int err;

	if (!ai->sorted) {
		/* counting is over: the table gives way to an order */
		if (ai->nr)
			qsort(ai->e, ai->nr, sizeof(*ai->e), ai_entry__cmp);
		free(ai->slots);
		ai->slots = NULL;
		ai->nr_slots = 0;
		ai->sorted = true;
	}
	first = ai__lower(ai, as->sym, as->evsel_idx, 0);
	if (first < ai->nr && ai__in(&ai->e[first], as->sym, as->evsel_idx))
		head = &ai->e[first];
	h.base = ai__base(as, head, dd);
	h.insns = as->evsel_idx == ai->insns_idx;
	h.exact = ai->exact;
	h.count = h.insns && ai->exact ? as->period : as->nr_samples;
	/* perf's address column is as wide as the symbol's last address */
	h.width = snprintf(NULL, 0, "%llx",
			   (unsigned long long)(h.base + (as->sym->end - as->sym->start) - 1));
	err = out->trace_head(out, as, totals, &h);
	for (i = first; !err && i < ai->nr && ai__in(&ai->e[i], as->sym, as->evsel_idx);) {
		size_t j, end = i;

		/* the codes run at this address */
		while (end < ai->nr && ai__in(&ai->e[end], as->sym, as->evsel_idx) &&
		       ai->e[end].off == ai->e[i].off)
			end++;
		for (j = i; !err && j < end; j++) {
			struct annotate_trace_insn ti;

			err = ai__insn(ai, as, &ai->e[j], j - i + 1, end - i, &h, totals, out->opts,
				       &ti);
			if (!err)
				err = out->trace_insn(out, as, &ti);
		}
		i = end;
	}
	if (!err && out->trace_end)
		err = out->trace_end(out, as);
	return err;
}
