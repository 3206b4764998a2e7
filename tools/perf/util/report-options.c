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
	unsigned int f = report_filters__match(&r->filter, al);

	if (al->cpumode != PERF_RECORD_MISC_KERNEL && al->cpumode != PERF_RECORD_MISC_USER)
		f |= REPORT_FILTER_OTHER; /* perf reports the host only */
	return f;
}

void report__exit_options(struct report *r)
{
	report_filters__exit(&r->filter);
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
	err = report__check_keys(r);
	if (err)
		return err;
	return report_filters__parse(&r->filter, &(struct report_filters_opts){
						     .comms = o->comms,
						     .pids = o->pids,
						     .tids = o->tids,
						     .dsos = o->dsos,
						     .symbols = o->symbols,
						     .cpus = o->cpus,
						 });
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
