// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf report's sample filters, for report and annotate: the lists
 * split once when the options are read, then a few comparisons per
 * sample.  What a caller does with a sample left out differs (report
 * counts it in its totals and hides it, annotate drops it, as perf),
 * so this only answers which filters leave it out.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "debug.h"
#include "dso.h"
#include "evsel.h"
#include "machine.h"
#include "map.h"
#include "report-filters.h"
#include "report-hist.h"
#include "symbol.h"
#include "thread.h"

static int name_list__parse(struct name_list *l, const char *str)
{
	char *p, *save = NULL;

	if (!str)
		return 0;
	l->buf = strdup(str);
	l->names = calloc(strlen(str) / 2 + 2, sizeof(*l->names));
	if (!l->buf || !l->names)
		return -ENOMEM;
	for (p = strtok_r(l->buf, ",", &save); p; p = strtok_r(NULL, ",", &save))
		l->names[l->nr++] = p;
	return 0;
}

bool name_list__has(const struct name_list *l, const char *name)
{
	for (size_t i = 0; i < l->nr; i++)
		if (!strcmp(l->names[i], name))
			return true;
	return false;
}

static void name_list__exit(struct name_list *l)
{
	free(l->buf);
	free(l->names);
}

static int int_list__parse(struct int_list *l, const char *opt, const char *str)
{
	const char *p = str;

	if (!str)
		return 0;
	l->v = calloc(strlen(str) / 2 + 2, sizeof(*l->v));
	if (!l->v)
		return -ENOMEM;
	while (*p) {
		char *end;
		long v;

		errno = 0;
		v = strtol(p, &end, 10);
		if (errno || end == p || (*end && *end != ',')) {
			pr_err("%s %s: not a list of numbers\n", opt, str);
			return -EINVAL;
		}
		l->v[l->nr++] = v;
		p = *end ? end + 1 : end;
	}
	return 0;
}

static bool int_list__has(const struct int_list *l, long v)
{
	for (size_t i = 0; i < l->nr; i++)
		if (l->v[i] == v)
			return true;
	return false;
}

/* perf's cpu list: "0-3,5" */
static int cpu_list__parse(struct report_filters *f, const char *str)
{
	const char *p = str;

	f->cpu_bitmap = calloc(REPORT_MAX_CPUS / 8, 1);
	if (!f->cpu_bitmap)
		return -ENOMEM;
	while (*p) {
		unsigned long a, b;
		char *end;

		errno = 0;
		a = strtoul(p, &end, 10);
		b = a;
		if (!errno && end != p && *end == '-') {
			p = end + 1;
			b = strtoul(p, &end, 10);
		}
		if (errno || end == p || (*end && *end != ',') || b < a || b >= REPORT_MAX_CPUS) {
			pr_err("--cpu %s: expected cpus as 0-3,5 (below %d)\n", str,
			       REPORT_MAX_CPUS);
			return -EINVAL;
		}
		for (; a <= b; a++)
			f->cpu_bitmap[a / 8] |= 1 << (a % 8);
		p = *end ? end + 1 : end;
	}
	return 0;
}

int report_filters__parse(struct report_filters *f, const struct report_filters_opts *o)
{
	int err;

	if (name_list__parse(&f->comms, o->comms) || name_list__parse(&f->dsos, o->dsos) ||
	    name_list__parse(&f->symbols, o->symbols))
		return -ENOMEM;
	err = int_list__parse(&f->pids, "--pid", o->pids);
	if (!err)
		err = int_list__parse(&f->tids, "--tid", o->tids);
	if (!err && o->cpus)
		err = cpu_list__parse(f, o->cpus);
	return err;
}

void report_filters__exit(struct report_filters *f)
{
	name_list__exit(&f->comms);
	name_list__exit(&f->dsos);
	name_list__exit(&f->symbols);
	free(f->pids.v);
	free(f->tids.v);
	free(f->cpu_bitmap);
	memset(f, 0, sizeof(*f));
}

bool report_filters__skip_cpu(const struct report_filters *f, u32 cpu)
{
	return f->cpu_bitmap &&
	       (cpu >= REPORT_MAX_CPUS || !(f->cpu_bitmap[cpu / 8] & (1 << (cpu % 8))));
}

int report_filters__check_cpu(const struct report_filters *f, const struct evlist *evlist,
			      const char *path)
{
	int i;

	for (i = 0; f->cpu_bitmap && evlist && i < evlist->nr_entries; i++) {
		if (!(evlist->entries[i]->attr.sample_type & PERF_SAMPLE_CPU)) {
			pr_err("%s: --cpu: the recording has no cpu in its samples "
			       "(perf record -a or --sample-cpu records it)\n",
			       path);
			return -EINVAL;
		}
	}
	return 0;
}

unsigned int report_filters__match(const struct report_filters *f, const struct addr_location *al)
{
	unsigned int out = 0;

	if ((f->comms.names && !name_list__has(&f->comms, thread__comm_str(al->thread))) ||
	    (f->pids.v && !int_list__has(&f->pids, thread__pid(al->thread))) ||
	    (f->tids.v && !int_list__has(&f->tids, thread__tid(al->thread))))
		out |= REPORT_FILTER_THREAD;
	if (f->dsos.names && (!al->map || (!name_list__has(&f->dsos, map__dso_short(al->map)) &&
					   !name_list__has(&f->dsos, map__dso_name(al->map)))))
		out |= REPORT_FILTER_DSO;
	if (f->symbols.names) {
		char addr[32];

		if (!al->sym)
			return out | REPORT_FILTER_SYMBOL;
		if (name_list__has(&f->symbols, symbol__name(al->sym)))
			return out;
		/* perf's --symbols takes a symbol's start address too */
		snprintf(addr, sizeof(addr), "%#llx",
			 (unsigned long long)map__unmap_ip(al->map, al->sym->start));
		if (!name_list__has(&f->symbols, addr))
			out |= REPORT_FILTER_SYMBOL;
	}
	return out;
}

unsigned int report_filters__given(const struct report_filters *f)
{
	return (f->comms.names || f->pids.v || f->tids.v ? REPORT_FILTER_THREAD : 0) |
	       (f->dsos.names ? REPORT_FILTER_DSO : 0) |
	       (f->symbols.names ? REPORT_FILTER_SYMBOL : 0);
}
