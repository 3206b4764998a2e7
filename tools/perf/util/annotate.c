// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf textpoke annotate: which instructions of a function the samples
 * fell on.  One ordered pass of the session reader delivers each sample,
 * resolved by the machine model at its time as report resolves it
 * (machine__resolve), and the sample is counted at its offset in its
 * symbol (perf's sym_hist).  Then the symbols come out hottest first,
 * each with its code disassembled (annotate-print.c).
 *
 * Kernel code, which changes while a recording runs, is shown per
 * version from the text image, BPF programs from their JIT images
 * (annotate-kernel.c).
 *
 * Nothing is printed before the pass has succeeded: a bad or cut-off
 * input leaves one error naming the file and offset, and no output.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "annotate-internal.h"
#include "annotate-itrace.h"
#include "annotate-kernel.h"
#include "annotate.h"
#include "debug.h"
#include "dso-data.h"
#include "dso.h"
#include "evsel.h"
#include "machine.h"
#include "map.h"
#include "report-output.h"
#include "session.h"
#include "session-workers.h"
#include "symbol.h"
#include "time-utils.h"

static const char *const annotate_percent_names[ANNOTATE_PERCENT__MAX][2] = {
    [ANNOTATE_PERCENT__LOCAL_PERIOD] = {"local-period", "local period"},
    [ANNOTATE_PERCENT__GLOBAL_PERIOD] = {"global-period", "global period"},
    [ANNOTATE_PERCENT__LOCAL_HITS] = {"local-hits", "local hits"},
    [ANNOTATE_PERCENT__GLOBAL_HITS] = {"global-hits", "global hits"},
};

const char *annotate_percent__name(enum annotate_percent type)
{
	return type < ANNOTATE_PERCENT__MAX ? annotate_percent_names[type][0] : NULL;
}

const char *annotate_percent__title(enum annotate_percent type)
{
	return type < ANNOTATE_PERCENT__MAX ? annotate_percent_names[type][1] : NULL;
}

int annotate_percent__parse(const char *name, enum annotate_percent *type)
{
	int i;

	for (i = 0; i < ANNOTATE_PERCENT__MAX; i++) {
		if (!strcmp(name, annotate_percent_names[i][0])) {
			*type = i;
			return 0;
		}
	}
	return -EINVAL;
}

void annotate_opts__init(struct annotate_opts *opts)
{
	memset(opts, 0, sizeof(*opts));
	opts->input = "perf.data";
}

void annotate_opts__exit(struct annotate_opts *opts)
{
	free(opts->syms);
	opts->syms = NULL;
	opts->nr_syms = 0;
}

int annotate_opts__add_sym(struct annotate_opts *opts, const char *name)
{
	const char **p = realloc(opts->syms, (opts->nr_syms + 1) * sizeof(*p));

	if (!p)
		return -ENOMEM;
	p[opts->nr_syms++] = name;
	opts->syms = p;
	return 0;
}

/*
 * The symbols hit, by (event, symbol): an open-addressed table of
 * indices into @syms, at most half full.  A symbol pointer stands for
 * its object's table entry, which the reference on the object keeps.
 */

static size_t annotate__hash(const struct symbol *sym, int idx)
{
	u64 h = (u64)(uintptr_t)sym * 0x9e3779b97f4a7c15ULL ^ (u64)idx * 0xc2b2ae3d27d4eb4fULL;

	return h ^ (h >> 29);
}

static int annotate__grow_slots(struct annotate *a)
{
	size_t n = a->nr_slots ? 2 * a->nr_slots : 256, i;
	size_t *slots = malloc(n * sizeof(*slots));

	if (!slots)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		slots[i] = SIZE_MAX;
	for (i = 0; i < a->nr_syms; i++) {
		size_t s = annotate__hash(a->syms[i].sym, a->syms[i].evsel_idx) & (n - 1);

		while (slots[s] != SIZE_MAX)
			s = (s + 1) & (n - 1);
		slots[s] = i;
	}
	free(a->slots);
	a->slots = slots;
	a->nr_slots = n;
	return 0;
}

/* the histogram of @sym for @evsel, made on its first sample; NULL on ENOMEM */
struct annotate_sym *annotate__findnew(struct annotate *a, struct evsel *evsel, struct dso *dso,
				       struct symbol *sym)
{
	struct annotate_sym *as;
	size_t s;

	if (2 * (a->nr_syms + 1) > a->nr_slots && annotate__grow_slots(a))
		return NULL;
	s = annotate__hash(sym, evsel->idx) & (a->nr_slots - 1);
	for (; a->slots[s] != SIZE_MAX; s = (s + 1) & (a->nr_slots - 1)) {
		as = &a->syms[a->slots[s]];
		if (as->sym == sym && as->evsel_idx == evsel->idx)
			return as;
	}
	if (a->nr_syms == a->alloc_syms) {
		size_t n = 2 * a->alloc_syms + 16;
		struct annotate_sym *p = realloc(a->syms, n * sizeof(*p));

		if (!p)
			return NULL;
		a->syms = p;
		a->alloc_syms = n;
	}
	as = &a->syms[a->nr_syms];
	memset(as, 0, sizeof(*as));
	as->hits = calloc(sym->end - sym->start, sizeof(*as->hits));
	if (!as->hits)
		return NULL;
	as->evsel_idx = evsel->idx;
	as->evsel_name = evsel__name(evsel);
	as->dso = dso__get(dso);
	as->sym = sym;
	a->slots[s] = a->nr_syms++;
	return as;
}

static bool annotate__wanted_sym(const struct annotate *a, struct symbol *sym)
{
	size_t i;

	if (!a->opts->nr_syms)
		return true;
	if (!sym)
		return false;
	for (i = 0; i < a->opts->nr_syms; i++)
		if (!strcmp(symbol__name(sym), a->opts->syms[i]))
			return true;
	return false;
}

struct annotate_totals *annotate__totals(struct annotate *a, int idx)
{
	if ((size_t)idx >= a->nr_totals) {
		size_t n = idx + 1;
		struct annotate_totals *p = realloc(a->totals, n * sizeof(*p));

		if (!p)
			return NULL;
		memset(p + a->nr_totals, 0, (n - a->nr_totals) * sizeof(*p));
		a->totals = p;
		a->nr_totals = n;
	}
	return &a->totals[idx];
}

static bool annotate_sym__is_kernel(const struct annotate_sym *as)
{
	return as->dso->kind == DSO_KIND__KERNEL || as->dso->kind == DSO_KIND__MODULE ||
	       as->dso->kind == DSO_KIND__KSYMBOL || as->dso->kind == DSO_KIND__KERNEL_OBJECT;
}

/*
 * Whether a kernel sample may be of a symbol asked for.  Reading the
 * kernel's symbols took a third of the time of annotate -s on a user
 * function; when no name asked for is a name in the kallsyms text the
 * table would be read from, the samples whose symbol would come from it
 * cannot be of one, and are left out unresolved, which perf annotate
 * -s leaves out too (BPF programs and other KSYMBOL objects, and
 * modules loaded while recording, are resolved as ever).
 */
static bool annotate__kernel_may_name(struct annotate *a, struct machine *machine)
{
	/* an Intel PT trace's samples come through the decoder's own path */
	if (!a->opts->nr_syms || a->tool.itrace)
		return true;
	if (!a->kernel_may_name)
		a->kernel_may_name =
		    machine__kallsyms_may_name(machine, a->opts->syms, a->opts->nr_syms) ? 1 : -1;
	return a->kernel_may_name > 0;
}

static bool annotate__kernel_wanted(struct annotate *a, struct machine *machine,
				    struct perf_sample *sample)
{
	if (!a->kernel_wanted)
		a->kernel_wanted = annotate__kernel_may_name(a, machine) ? 1 : -1;
	return a->kernel_wanted > 0 || !machine__kallsyms_names(machine, sample->ip, sample->time);
}

/*
 * A parallel run's reading of the kernel's symbols before its workers
 * fork: only if they may name one asked for, which is asked here before
 * any load, as one worker asks at its first sample in the kernel (a
 * loaded table answers "may" whatever the names: the fallback to one
 * worker after the walk then left out fewer samples, and counted other
 * records out of order).  The samples are left out from the same one
 * on as with one worker: the first sample in the kernel delivered.
 */
static void annotate__preload_kernel(struct perf_tool *tool, struct machine *machine)
{
	if (annotate__kernel_may_name((struct annotate *)tool, machine))
		machine__preload_kernel(machine);
}

/*
 * A kernel sample that annotate__kernel_wanted() will leave out, once it
 * has found that the kernel's table holds no name asked for: one in the
 * kernel image's own text, whose symbol is that table's whatever the
 * time, is dropped before it is queued and parsed (a system-wide
 * recording's kernel samples are a fifth of it and more).  Kept for
 * delivery: all until that is known, and any other.
 */
static bool annotate__sample_drop(struct perf_tool *tool, const struct evsel *evsel, u64 time,
				  u32 cpu __maybe_unused, const union perf_event *event)
{
	struct annotate *a = (struct annotate *)tool;
	u64 ip;

	if (a->kernel_wanted >= 0 ||
	    (event->header.misc & PERF_RECORD_MISC_CPUMODE_MASK) != PERF_RECORD_MISC_KERNEL ||
	    !evsel__sample_ip(evsel, event, &ip))
		return false;
	return machine__kernel_image_has(a->session->machine, ip, time);
}

static int annotate__sample(struct perf_tool *tool, union perf_event *event,
			    struct perf_sample *sample, struct evsel *evsel,
			    struct machine *machine)
{
	struct annotate *a = (struct annotate *)tool;
	struct annotate_totals *t;
	struct annotate_sym *as;
	struct addr_location al;
	u64 off;
	int err;

	/* perf annotate --time and -C: as if the samples outside had not been taken */
	if (a->nr_ranges && perf_time__ranges_skip(a->ranges, a->nr_ranges, sample->time))
		return 0;
	if (report_filters__skip_cpu(&a->filter, sample->cpu))
		return 0;
	if (sample->cpumode == PERF_RECORD_MISC_KERNEL &&
	    !annotate__kernel_wanted(a, machine, sample))
		return 0;
	addr_location__init(&al);
	err = machine__resolve(machine, &al, sample);
	if (err) {
		pr_err("%s: sample at %#llx: %s\n", a->session->path,
		       (unsigned long long)a->session->cur_offset, strerror(-err));
		goto out;
	}
	/*
	 * perf annotate leaves out the samples of other symbols than those
	 * asked for, and those its filters mark (other objects than -d's,
	 * other threads than --comm, --pid, --tid's), before it counts them:
	 * the global percentages are of the samples kept
	 */
	if (!annotate__wanted_sym(a, al.sym) || report_filters__match(&a->filter, &al))
		goto out;
	err = -ENOMEM;
	t = annotate__totals(a, evsel->idx);
	if (!t)
		goto out_err;
	t->nr_samples++;
	t->period += sample->period;
	err = 0;
	if (!al.sym || !al.map || al.sym->end <= al.sym->start)
		goto out;
	off = al.addr - al.sym->start;
	/* symbols__fixup() gave every symbol an end; a huge one gets no histogram */
	if (al.addr < al.sym->start || off >= al.sym->end - al.sym->start ||
	    al.sym->end - al.sym->start > ANNOTATE_SYM_MAX_SIZE)
		goto out;
	err = -ENOMEM;
	as = annotate__findnew(a, evsel, al.map->dso, al.sym);
	if (!as)
		goto out_err;
	err = 0;
	as->hits[off].nr++;
	as->hits[off].period += sample->period;
	as->nr_samples++;
	as->period += sample->period;
	if (!event && a->tool.itrace)
		/* a trace's sample (no record): by the bytes the decoder ran too */
		err = annotate_itrace__count(a->tool.itrace, as, off, sample);
	else if (annotate_sym__is_kernel(as))
		/* kernel code changes while recording: its samples are kept with their times */
		err = annotate_kernel__sample(as, sample->ip, off, sample->time, sample->period);
	if (err)
		goto out_err;
	goto out;
out_err:
	pr_err("%s: sample at %#llx: %s\n", a->session->path,
	       (unsigned long long)a->session->cur_offset, strerror(-err));
out:
	addr_location__exit(&al);
	return err;
}

/*
 * perf's order: event by event, the hottest symbol first; among equals
 * (not ordered by perf in any documented way) by object, then address,
 * then load (a BPF program loaded again at its old address: perf inject
 * --jit names each load's object apart).  A total order: the array's
 * order is the samples' (or, in a parallel run, the merge's)
 */
static int annotate_sym__cmp(const void *pa, const void *pb)
{
	const struct annotate_sym *a = pa, *b = pb;
	int c;

	if (a->evsel_idx != b->evsel_idx)
		return a->evsel_idx < b->evsel_idx ? -1 : 1;
	if (a->period != b->period)
		return a->period > b->period ? -1 : 1;
	if (a->nr_samples != b->nr_samples)
		return a->nr_samples > b->nr_samples ? -1 : 1;
	c = strcmp(a->dso->name, b->dso->name);
	if (c)
		return c;
	if (a->sym->start != b->sym->start)
		return a->sym->start < b->sym->start ? -1 : 1;
	return a->ksym_index < b->ksym_index ? -1 : a->ksym_index > b->ksym_index;
}

static const char *annotate__why(const struct annotate_sym *as, int err)
{
	if (as->dso->kind != DSO_KIND__USER)
		return "no object file holds its code";
	switch (err) {
	case -ENOENT:
		return "its object file is not there";
	case -ENOEXEC:
		return "its object file does not map it";
	case -ENODATA:
		return "its object file is shorter than the symbol";
	case -EFBIG:
		return "it is too large";
	case -EOPNOTSUPP:
		return "disassembly needs capstone";
	default:
		return strerror(-err);
	}
}

/*
 * The blocks of the symbols hit, to @out; @warn: say which could not be
 * annotated (the first output of a run, so that it is said once)
 */
static int annotate__fprintf(struct annotate *a, struct annotate_output *out, bool warn)
{
	struct dso_data *dd = dso_data__new();
	size_t i;
	int err = 0;

	if (!dd)
		return -ENOMEM;
	for (i = 0; i < a->nr_syms; i++) {
		struct annotate_sym *as = &a->syms[i];

		as->ksym_index = machine__dso_ksym_index(a->session->machine, as->dso);
		as->has_birth = machine__dso_ksym_birth(a->session->machine, as->dso, &as->birth);
	}
	if (a->nr_syms)
		qsort(a->syms, a->nr_syms, sizeof(*a->syms), annotate_sym__cmp);
	/* the table's indices are stale from here on */
	free(a->slots);
	a->slots = NULL;
	a->nr_slots = 0;
	for (i = 0; i < a->nr_syms; i++) {
		const struct annotate_sym *as = &a->syms[i];

		/* an Intel PT trace's samples: the code the trace ran, kernel code too */
		if (a->tool.itrace && annotate_itrace__owns(a->tool.itrace, as)) {
			err = annotate_itrace__write(a->tool.itrace, as, &a->totals[as->evsel_idx],
						     dd, out);
			if (err == -ENOMEM)
				break;
			if (err && warn && !a->opts->skip_missing)
				pr_warning("%s: cannot annotate %s: %s\n", a->opts->input,
					   symbol__name(as->sym), strerror(-err));
			err = 0;
			continue;
		}
		if (annotate_sym__is_kernel(as)) {
			err = annotate_kernel__write(a->kernel, as, &a->totals[as->evsel_idx], out);
			if (err)
				break;
			continue;
		}
		err = out->sym(out, as, &a->totals[as->evsel_idx], dd);
		if (err == -ENOMEM)
			break;
		if (err) {
			/* as perf: said, and on to the next symbol; --skip-missing says nothing */
			if (warn && !a->opts->skip_missing)
				pr_warning("%s: cannot annotate %s (%s): %s\n", a->opts->input,
					   symbol__name(as->sym), as->dso->name,
					   annotate__why(as, err));
			err = 0;
		}
	}
	dso_data__delete(dd);
	if (!err && out->end)
		err = out->end(out);
	if (err || !warn)
		return err;
	if (!a->nr_syms) {
		/* perf's answer, exit 0: there is nothing to annotate */
		if (a->opts->nr_syms)
			pr_warning("%s: no samples in the symbols asked for\n", a->opts->input);
		else
			pr_warning("%s: no samples in any symbol\n", a->opts->input);
	}
	return 0;
}

/* --time as report takes it: the recording's first and last sample times for percentages */
static int annotate__parse_time(struct annotate *a)
{
	const struct perf_env *env = &a->session->env;
	int nr;

	if (!a->opts->time_str)
		return 0;
	nr = perf_time__parse_option(a->opts->time_str, env->first_sample_time,
				     env->last_sample_time, a->session->path, &a->ranges);
	if (nr < 0)
		return nr;
	a->nr_ranges = nr;
	return 0;
}

static int annotate__stdio_sym(struct annotate_output *out, const struct annotate_sym *as,
			       const struct annotate_totals *totals, struct dso_data *dd)
{
	return annotate_sym__fprintf(as, totals, out->opts, dd, out->fp);
}

static int annotate__stdio_init(struct annotate_output *out, const struct annotate_opts *opts,
				FILE *fp)
{
	out->sym = annotate__stdio_sym;
	out->code = annotate_output__text_code;
	out->trace_head = annotate_output__text_trace_head;
	out->trace_insn = annotate_output__text_trace_insn;
	out->opts = opts;
	out->fp = fp;
	return 0;
}

/*
 * One output: --json or --html to stdout ("-") or to a file, written
 * through or replaced atomically as report's --html (report_file); a
 * reader of stdout that went away (| head) is no failure
 */
static int annotate__output(struct annotate *a, const char *what, const char *path,
			    int (*init)(struct annotate_output *, const struct annotate_opts *,
					FILE *),
			    bool warn)
{
	struct annotate_output out = {NULL};
	struct report_file file = {NULL};
	bool to_stdout = !strcmp(path, "-");
	int err;

	if (!to_stdout) {
		err = report_file__open(&file, what, path);
		if (err)
			return err;
	}
	err = init(&out, a->opts, to_stdout ? stdout : file.fp);
	out.what = what;
	out.quiet = !warn;
	if (!err)
		err = annotate__fprintf(a, &out, warn);
	if (out.free)
		out.free(&out);
	if (!to_stdout)
		return report_file__close(&file, !err) ?: err;
	if (!err && (fflush(stdout) || ferror(stdout)) && errno != EPIPE) {
		pr_err("writing the annotation failed: %s\n", strerror(errno));
		err = -EIO;
	}
	return err;
}

/* the text, unless only --json or --html were asked for; then each of those */
static int annotate__outputs(struct annotate *a)
{
	const struct annotate_opts *o = a->opts;
	bool warn = true;
	int err = 0;

	if (o->stdio || (!o->json && !o->html)) {
		err = annotate__output(a, "--stdio", "-", annotate__stdio_init, warn);
		warn = false;
	}
	if (!err && o->json) {
		err = annotate__output(a, "--json", o->json, annotate_output__json, warn);
		warn = false;
	}
	if (!err && o->html)
		err = annotate__output(a, "--html", o->html, annotate_output__html, warn);
	return err;
}

/* workers for the run (0: one per CPU): one for a trace, decoded as one stream */
static unsigned int annotate__nr_workers(const struct annotate *a)
{
	if (a->opts->threads == 1)
		return 1;
	if (a->tool.itrace) {
		pr_debug("%s: one worker: a hardware trace is decoded\n", a->session->path);
		return 1;
	}
	return a->opts->threads;
}

/*
 * Reads the recording and prints the annotation: all of it, or in a
 * worker of a parallel run its chunks of time, the worker that read the
 * last one adding up the others' counts (annotate-workers.c) and
 * printing, the others printing nothing.
 */
static int annotate__process(void *arg)
{
	struct annotate *a = arg;
	int err = perf_session__process_events(a->session);

	if (!err && a->tool.itrace)
		err = annotate_itrace__finish(a->tool.itrace);
	if (!err && a->session->window.active) {
		err = session_window__gather(a->session, annotate__send, annotate__merge, a);
		if (err <= 0)
			return err;
		err = 0;
	}
	if (err)
		return err;
	if (a->tool.itrace && annotate_itrace__nr_errors(a->tool.itrace))
		pr_warning("%s: %llu instruction trace errors\n", a->opts->input,
			   (unsigned long long)annotate_itrace__nr_errors(a->tool.itrace));
	return annotate__outputs(a);
}

int annotate__run(struct annotate_opts *opts)
{
	struct annotate a = {
	    .tool.tool =
		{
		    .sample = annotate__sample,
		    .sample_drop = annotate__sample_drop,
		    .preload_kernel = annotate__preload_kernel,
		    /* kernel code's TEXT_POKEs are read in a pass of their own, a trace's by its image */
		    .skip_types = 1ULL << PERF_RECORD_TEXT_POKE,
		    .ordered_events = true,
		},
	    .opts = opts,
	};
	size_t i;
	int err;

	err = report_filters__parse(&a.filter, &opts->filter);
	if (err)
		goto out;
	a.kernel = annotate_kernel__new(opts);
	if (!a.kernel) {
		err = -ENOMEM;
		goto out;
	}
	a.session = perf_session__new(opts->input, &a.tool.tool);
	if (!a.session) {
		err = -EINVAL;
		goto out;
	}
	err = annotate__parse_time(&a);
	if (!err)
		err = report_filters__check_cpu(&a.filter, a.session->evlist, a.session->path);
	if (!err)
		err = annotate_itrace__init(&a.tool, &opts->itrace, a.session, opts->input);
	/*
	 * -s: the samples of other symbols are left out, so objects that
	 * cannot hold one asked for need no symbols (a trace's decoder may
	 * want them, for its own ends)
	 */
	if (!a.tool.itrace)
		dso__set_wanted_names(opts->syms, opts->nr_syms);
	if (!err)
		err = perf_session__run_workers(a.session, annotate__nr_workers(&a),
						annotate__process, &a);
out:
	if (err == -ENOMEM)
		pr_err("%s: out of memory\n", opts->input);
	for (i = 0; i < a.nr_syms; i++) {
		free(a.syms[i].hits);
		annotate_kernel__sym_exit(&a.syms[i]);
		dso__put(a.syms[i].dso);
	}
	free(a.syms);
	free(a.slots);
	free(a.totals);
	report_filters__exit(&a.filter);
	annotate_itrace__delete(a.tool.itrace);
	free(a.ranges);
	annotate_kernel__delete(a.kernel);
	if (a.session)
		perf_session__delete(a.session);
	dso__set_wanted_names(NULL, 0);
	return err;
}
