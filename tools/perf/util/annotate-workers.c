// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf textpoke annotate read by several workers (session-workers.c):
 * each counts the samples of its chunks of time, then sends what it
 * counted to the worker that read the last chunk, which adds it up and
 * prints.  What annotate prints depends on the sums alone (each
 * instruction's samples and period, each event's totals, a kernel
 * function's samples with their times, sorted before use), never on the
 * order samples came in, so the sums of the parts are the one-worker
 * answer whatever order the parts are merged in.
 *
 * Pointers mean nothing in another process: a symbol goes by its
 * object's name (or, for a KSYMBOL object, its place among them), its
 * address and its name, which every worker knows alike, having read the
 * same side-band.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "annotate-internal.h"
#include "annotate-kernel.h"
#include "debug.h"
#include "dso.h"
#include "evsel.h"
#include "machine.h"
#include "session.h"
#include "session-workers.h"
#include "symbol.h"

#define ANNOTATE_STATE_MAGIC 0x31534e41U /* "ANS1" */

struct state_head {
	u32 magic;
	u32 nr_totals;
	u64 nr_syms;
};

struct state_sym {
	s32 evsel_idx;
	u32 pad;
	s64 ksym_index;
	u64 sym_start, sym_end;
	u64 nr_samples, period;
	u64 nr_hits; /* the offsets with samples, each a struct state_hit */
};

struct state_hit {
	u64 off, nr, period;
};

static int annotate_sym__send(struct annotate *a, const struct annotate_sym *as, FILE *fp)
{
	u64 size = as->sym->end - as->sym->start;
	struct state_sym ss = {
	    .evsel_idx = as->evsel_idx,
	    .ksym_index = machine__dso_ksym_index(a->session->machine, as->dso),
	    .sym_start = as->sym->start,
	    .sym_end = as->sym->end,
	    .nr_samples = as->nr_samples,
	    .period = as->period,
	};
	int err;

	for (u64 off = 0; off < size; off++)
		ss.nr_hits += as->hits[off].nr != 0;
	err = worker_state__write(fp, &ss, sizeof(ss));
	if (!err)
		err = worker_state__write_str(fp, as->dso->name);
	if (!err)
		err = worker_state__write_str(fp, symbol__name(as->sym));
	for (u64 off = 0; off < size && !err; off++) {
		struct state_hit h = {off, as->hits[off].nr, as->hits[off].period};

		if (h.nr)
			err = worker_state__write(fp, &h, sizeof(h));
	}
	return err ?: annotate_kernel__send(as, fp);
}

int annotate__send(void *arg, FILE *fp)
{
	struct annotate *a = arg;
	struct state_head head = {ANNOTATE_STATE_MAGIC, a->nr_totals, a->nr_syms};
	int err = worker_state__write(fp, &head, sizeof(head));

	if (!err)
		err = worker_state__write(fp, a->totals, a->nr_totals * sizeof(*a->totals));
	for (size_t i = 0; i < a->nr_syms && !err; i++)
		err = annotate_sym__send(a, &a->syms[i], fp);
	return err;
}

static struct evsel *annotate__evsel(struct annotate *a, int idx)
{
	struct evlist *evlist = a->session->evlist;

	for (int i = 0; i < evlist->nr_entries; i++)
		if (evlist->entries[i]->idx == idx)
			return evlist->entries[i];
	return NULL;
}

/* the symbol @ss names, as this worker has it: NULL when it has none such */
static struct symbol *annotate__state_symbol(struct annotate *a, const struct state_sym *ss,
					     const char *dso_name, const char *sym_name,
					     struct dso **dsop)
{
	struct dso *dso = machine__find_dso(a->session->machine, dso_name, ss->ksym_index);
	struct symbol *sym = dso ? dso__find_symbol(dso, ss->sym_start) : NULL;

	*dsop = dso;
	if (!sym || sym->start != ss->sym_start || sym->end != ss->sym_end ||
	    strcmp(symbol__name(sym), sym_name))
		return NULL;
	return sym;
}

static int annotate__merge_sym(struct annotate *a, FILE *fp)
{
	char *bufs[2] = {NULL, NULL};
	size_t sizes[2] = {0, 0};
	const char *dso_name = NULL, *sym_name = NULL;
	struct annotate_sym *as;
	struct state_sym ss;
	struct symbol *sym;
	struct evsel *evsel;
	struct dso *dso;
	int err;

	err = worker_state__read(fp, &ss, sizeof(ss));
	if (!err)
		err = worker_state__read_str(fp, &bufs[0], &sizes[0], &dso_name);
	if (!err)
		err = worker_state__read_str(fp, &bufs[1], &sizes[1], &sym_name);
	if (!err && (!dso_name || !sym_name))
		err = -ENODATA;
	if (err)
		goto out;
	evsel = annotate__evsel(a, ss.evsel_idx);
	sym = evsel ? annotate__state_symbol(a, &ss, dso_name, sym_name, &dso) : NULL;
	if (!sym) {
		/* every worker read the same side-band: this is a bug, said as one */
		pr_err("%s: a worker's %s in %s (event %d) is unknown to another\n",
		       a->session->path, sym_name, dso_name, ss.evsel_idx);
		err = -EINVAL;
		goto out;
	}
	err = -ENOMEM;
	as = annotate__findnew(a, evsel, dso, sym);
	if (!as)
		goto out;
	as->nr_samples += ss.nr_samples;
	as->period += ss.period;
	err = 0;
	for (u64 i = 0; i < ss.nr_hits && !err; i++) {
		struct state_hit h;

		err = worker_state__read(fp, &h, sizeof(h));
		if (!err && h.off >= sym->end - sym->start)
			err = -ENODATA;
		if (!err) {
			as->hits[h.off].nr += h.nr;
			as->hits[h.off].period += h.period;
		}
	}
	if (!err)
		err = annotate_kernel__merge(as, fp);
out:
	free(bufs[0]);
	free(bufs[1]);
	return err;
}

int annotate__merge(void *arg, FILE *fp)
{
	struct annotate *a = arg;
	struct state_head head;
	int err = worker_state__read(fp, &head, sizeof(head));

	if (!err && head.magic != ANNOTATE_STATE_MAGIC)
		err = -ENODATA;
	for (u32 i = 0; !err && i < head.nr_totals; i++) {
		struct annotate_totals t, *mine;

		err = worker_state__read(fp, &t, sizeof(t));
		if (err)
			break;
		mine = annotate__totals(a, i);
		if (!mine)
			return -ENOMEM;
		mine->nr_samples += t.nr_samples;
		mine->period += t.period;
	}
	for (u64 i = 0; !err && i < head.nr_syms; i++)
		err = annotate__merge_sym(a, fp);
	return err;
}
