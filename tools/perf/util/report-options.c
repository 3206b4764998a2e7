// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf textpoke report's options: the filter lists (--comms, --pid,
 * --tid, --dsos, --symbols, --cpu, --time) parsed once and asked per
 * sample, the sort keys and their checks (-p's parent key, --hierarchy,
 * the keys the recording cannot give), and report_opts__check(), which
 * says what is wrong with a command line before any file is opened.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "debug.h"
#include "dso.h"
#include "evsel.h"
#include "machine.h"
#include "map.h"
#include "report-internal.h"
#include "symbol.h"

void report_opts__init(struct report_opts *opts)
{
	memset(opts, 0, sizeof(*opts));
	opts->input = "perf.data";
	opts->children = -1;
	opts->group = -1;
	opts->max_stack = CALLCHAIN_MAX_STACK;
	report_tree_opts__init(&opts->call_graph);
}

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

static bool name_list__has(const struct name_list *l, const char *name)
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
static int cpu_list__parse(struct report *r, const char *str)
{
	const char *p = str;

	r->cpu_bitmap = calloc(REPORT_MAX_CPUS / 8, 1);
	if (!r->cpu_bitmap)
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
			r->cpu_bitmap[a / 8] |= 1 << (a % 8);
		p = *end ? end + 1 : end;
	}
	return 0;
}

/* "10%" as a fraction; -1 when it is not one */
/* perf's --time (util/time-utils.c has the syntax), shared with perf textpoke script */
int report__parse_time(struct report *r)
{
	const struct perf_env *env = &r->session->env;
	int nr = perf_time__parse_option(r->opts->time, env->first_sample_time,
					 env->last_sample_time, r->session->path, &r->ranges);

	if (nr < 0)
		return nr;
	r->nr_ranges = nr;
	return 0;
}

bool report__skip_time(const struct report *r, u64 t)
{
	return perf_time__ranges_skip(r->ranges, r->nr_ranges, t);
}

/* the filters perf marks an entry with: counted in the totals, not shown */
unsigned int report__filtered(const struct report *r, const struct addr_location *al)
{
	unsigned int f = 0;

	if (al->cpumode != PERF_RECORD_MISC_KERNEL && al->cpumode != PERF_RECORD_MISC_USER)
		f |= REPORT_FILTER_OTHER; /* perf reports the host only */
	if ((r->comms.names && !name_list__has(&r->comms, thread__comm_str(al->thread))) ||
	    (r->pids.v && !int_list__has(&r->pids, thread__pid(al->thread))) ||
	    (r->tids.v && !int_list__has(&r->tids, thread__tid(al->thread))))
		f |= REPORT_FILTER_THREAD;
	if (r->dsos.names && (!al->map || (!name_list__has(&r->dsos, map__dso_short(al->map)) &&
					   !name_list__has(&r->dsos, map__dso_name(al->map)))))
		f |= REPORT_FILTER_DSO;
	if (r->symbols.names) {
		char addr[32];

		if (!al->sym)
			return f | REPORT_FILTER_SYMBOL;
		if (name_list__has(&r->symbols, symbol__name(al->sym)))
			return f;
		snprintf(addr, sizeof(addr), "%#llx",
			 (unsigned long long)map__unmap_ip(al->map, al->sym->start));
		if (!name_list__has(&r->symbols, addr))
			f |= REPORT_FILTER_SYMBOL;
	}
	return f;
}

void report__exit_options(struct report *r)
{
	name_list__exit(&r->comms);
	name_list__exit(&r->dsos);
	name_list__exit(&r->symbols);
	free(r->pids.v);
	free(r->tids.v);
	free(r->cpu_bitmap);
	free(r->ranges);
	free(r->sort_buf);
	if (r->parent_regex_set)
		regfree(&r->parent_regex);
	if (r->ignore_regex_set)
		regfree(&r->ignore_regex);
	free(r->walk);
}

/* --hierarchy: what perf refuses beside it */
static int report__check_hierarchy(struct report *r)
{
	const struct report_opts *o = r->opts;

	/* as perf 6.1, which then prints its usage (and exits 0) */
	if (o->hierarchy && o->fields) {
		pr_err("--hierarchy and --fields options cannot be used together\n");
		return -EINVAL;
	}
	return 0;
}

/* the forms of the sort keys and their options that are done, and -p's expression */
static int report__check_keys(struct report *r)
{
	const struct report_opts *o = r->opts;
	const char *pattern = o->parent ?: "^sys_|^do_page_fault";
	char why[128];
	int err;

	if (o->ignore_callees) {
		err = regcomp(&r->ignore_regex, o->ignore_callees, REG_EXTENDED | REG_NOSUB);
		if (err) {
			regerror(err, &r->ignore_regex, why, sizeof(why));
			pr_err("--ignore-callees %s: not a regular expression: %s\n",
			       o->ignore_callees, why);
			return -EINVAL;
		}
		r->ignore_regex_set = true;
	}
	err = report__check_hierarchy(r);
	if (err)
		return err;
	if (o->symbol_filter && !r->layout.key[SORT_SYM] && !r->layout.key[SORT_SYMOFF]) {
		pr_err("--symbol-filter %s: needs the sym (or symoff) key in --sort or -F\n",
		       o->symbol_filter);
		return -EINVAL;
	}
	if (!r->layout.key[SORT_PARENT])
		return 0;
	err = regcomp(&r->parent_regex, pattern, REG_EXTENDED | REG_NOSUB);
	if (err) {
		regerror(err, &r->parent_regex, why, sizeof(why));
		pr_err("--parent %s: not a regular expression: %s\n", pattern, why);
		return -EINVAL;
	}
	r->parent_regex_set = true;
	return 0;
}

/*
 * perf 6.1 shows a group's events as one block unless --no-group; with
 * --group, a recording without groups is one group of all its events
 * (perf's evlist__force_leader(), named by its events alone)
 */
int report__setup_groups(struct report *r)
{
	const struct evlist *evlist = r->session->evlist;
	int nr = evlist ? evlist->nr_entries : 0;

	if (r->opts->group == 1 && !r->groups.nr && nr > 1) {
		r->groups.groups = calloc(1, sizeof(*r->groups.groups));
		if (!r->groups.groups)
			return -ENOMEM;
		r->groups.groups[0] = (struct report_group){.nr_members = nr, .forced = true};
		r->groups.nr = 1;
	}
	r->group_view = r->opts->group != 0 && r->groups.nr;
	return 0;
}

/* the columns added by option */
unsigned int report__show(const struct report_opts *o)
{
	return (o->show_nr_samples ? REPORT_SHOW_SAMPLES : 0) |
	       (o->show_total_period ? REPORT_SHOW_PERIOD : 0);
}

/* the options that need no recording: -F, --sort, the filters' lists */
int report__parse_options(struct report *r)
{
	struct report_opts *o = r->opts;
	int err;

	if (o->json && o->stdio) {
		pr_err("--json and --stdio both print to stdout: choose one\n");
		return -EINVAL;
	}
	r->sort = o->sort;
	if (o->parent) {
		/* perf's -p adds the parent key after the others */
		const char *base =
		    o->sort ?: (o->fields && o->fields[0] != '+' ? NULL : "comm,dso,sym");
		size_t n = (base ? strlen(base) : 0) + sizeof(",parent");

		r->sort_buf = malloc(n);
		if (!r->sort_buf)
			return -ENOMEM;
		snprintf(r->sort_buf, n, "%s%sparent", base ?: "", base ? "," : "");
		r->sort = r->sort_buf;
	}
	err = report_layout__parse(&r->layout, r->sort, o->fields, report__show(o), false);
	if (err)
		return err;
	if (name_list__parse(&r->comms, o->comms) || name_list__parse(&r->dsos, o->dsos) ||
	    name_list__parse(&r->symbols, o->symbols))
		return -ENOMEM;
	err = report__check_keys(r);
	if (err)
		return err;
	err = int_list__parse(&r->pids, "--pid", o->pids);
	if (!err)
		err = int_list__parse(&r->tids, "--tid", o->tids);
	if (!err && o->cpus)
		err = cpu_list__parse(r, o->cpus);
	return err;
}

int report_opts__check(struct report_opts *o)
{
	struct report r = {.opts = o};
	int err;

	/* as perf script: the block is text, which JSON on stdout cannot hold */
	if (o->json && (o->header || o->header_only)) {
		pr_err("--json: --header and --header-only print text: use one or the other\n");
		return -EINVAL;
	}
	if ((o->stats || o->tasks || o->mmaps) && (o->json || o->html)) {
		pr_err("--%s prints text alone: not with --json or --html\n", o->stats ? "stats" :
									      o->tasks ? "tasks" :
											 "mmaps");
		return -EINVAL;
	}
	err = report__parse_options(&r);

	report__exit_options(&r);
	return err;
}
