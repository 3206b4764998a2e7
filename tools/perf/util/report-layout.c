// SPDX-License-Identifier: GPL-2.0-only
/*
 * The columns of perf textpoke report's profile: which there are, their
 * names and headers, and how --sort, -F and -n choose and order them, as
 * perf 6.1's setup_sorting() does.
 */
#include <errno.h>
#include <string.h>
#include <strings.h>

#include "debug.h"
#include "report-hist.h"

static const char *const column_names[REPORT_COL__MAX] = {
    [SORT_COMM] = "comm",
    [SORT_PID] = "pid",
    [SORT_TID] = "tid",
    [SORT_DSO] = "dso",
    [SORT_SYM] = "sym",
    [SORT_CPU] = "cpu",
    [SORT_ABI] = "abi",
    [SORT_DSO_SIZE] = "dso_size",
    [SORT_SYMOFF] = "symoff",
    [SORT_SRCLINE] = "srcline",
    [SORT_SRCFILE] = "srcfile",
    [SORT_PARENT] = "parent",
    [REPORT_COL_OVERHEAD] = "overhead",
    [REPORT_COL_CHILDREN] = "overhead_children",
    [REPORT_COL_SAMPLE] = "sample",
    [REPORT_COL_PERIOD] = "period",
};

/* perf's column headers */
static const char *const column_headers[REPORT_COL__MAX] = {
    [SORT_COMM] = "Command",
    [SORT_PID] = "    Pid:Command",
    [SORT_TID] = "    Tid",
    [SORT_DSO] = "Shared Object",
    [SORT_SYM] = "Symbol",
    [SORT_CPU] = "CPU",
    [SORT_ABI] = "ABI",
    [SORT_DSO_SIZE] = "DSO size",
    [SORT_SYMOFF] = "Symbol Offset",
    [SORT_SRCLINE] = "Source:Line",
    [SORT_SRCFILE] = "Source File",
    [SORT_PARENT] = "Parent symbol",
    [REPORT_COL_OVERHEAD] = "Overhead",
    [REPORT_COL_CHILDREN] = "Children",
    [REPORT_COL_SAMPLE] = "Samples",
    [REPORT_COL_PERIOD] = "Period",
};

const char *report_column__name(int col)
{
	return col >= 0 && col < REPORT_COL__MAX ? column_names[col] : "?";
}

const char *report_column__header(int col)
{
	return col >= 0 && col < REPORT_COL__MAX ? column_headers[col] : "?";
}

static int column__lookup(const char *name, size_t len)
{
	int i;

	/* perf takes the names in any case: --sort DSO,Sym */
	for (i = 0; i < REPORT_COL__MAX; i++)
		if (strlen(column_names[i]) == len && !strncasecmp(column_names[i], name, len))
			return i;
	/* not "symbol": perf 6.1 adds IPC columns to it, which we do not have */
	return -1;
}

static bool layout__has(const int *cols, int nr, int col)
{
	for (int i = 0; i < nr; i++)
		if (cols[i] == col)
			return true;
	return false;
}

static int layout__add(int *cols, int *nr, int col)
{
	if (layout__has(cols, *nr, col))
		return 0;
	if (*nr >= REPORT_MAX_COLS)
		return -EINVAL;
	cols[(*nr)++] = col;
	return 0;
}

/* a comma-separated list of names into columns; @keys_only: --sort */
static int layout__parse_list(const char *opt, const char *str, bool keys_only, int *cols, int *nr)
{
	const char *p = str;

	while (*p) {
		size_t len = strcspn(p, ",");
		int col = column__lookup(p, len);

		if (len && (col < 0 || (keys_only && col >= SORT__MAX))) {
			pr_err("%s: unknown %s '%.*s' (known: comm, pid, tid, dso, sym, cpu, "
			       "abi, dso_size, symoff, srcline, srcfile, parent%s)\n",
			       opt, keys_only ? "sort key" : "field", (int)len, p,
			       keys_only ? "" : ", overhead, overhead_children, sample, period");
			return -EINVAL;
		}
		if (len && layout__add(cols, nr, col))
			return -EINVAL;
		p += len;
		if (*p == ',')
			p++;
	}
	return 0;
}

/*
 * perf 6.1's setup_sorting(): without a strict -F, "overhead" is put
 * before the sort keys (and "overhead_children" before it, with
 * --children); the printed columns are -F's (or overhead and, with -n,
 * samples and with --show-total-period the period, after Children with
 * --children) followed by the sort keys not
 * among them; and the printed columns not sorted on are sorted on last.
 */
int report_layout__parse(struct report_layout *l, const char *sort, const char *fields,
			 unsigned int show, bool children)
{
	bool strict = fields && fields[0] != '+';
	int keys[REPORT_MAX_COLS], nr_keys = 0, i;

	memset(l, 0, sizeof(*l));
	if (!sort && !strict)
		sort = "comm,dso,sym";
	if (sort && layout__parse_list("--sort", sort, true, keys, &nr_keys))
		return -EINVAL;
	l->children = children;
	l->self_header = children && !strict;
	if (l->self_header)
		layout__add(l->sort, &l->nr_sort, REPORT_COL_CHILDREN);
	if (!strict)
		layout__add(l->sort, &l->nr_sort, REPORT_COL_OVERHEAD);
	for (i = 0; i < nr_keys; i++)
		layout__add(l->sort, &l->nr_sort, keys[i]);
	if (strict) {
		if (layout__parse_list("-F", fields, false, l->cols, &l->nr_cols))
			return -EINVAL;
	} else {
		if (l->self_header)
			layout__add(l->cols, &l->nr_cols, REPORT_COL_CHILDREN);
		layout__add(l->cols, &l->nr_cols, REPORT_COL_OVERHEAD);
		if (show & REPORT_SHOW_SAMPLES)
			layout__add(l->cols, &l->nr_cols, REPORT_COL_SAMPLE);
		/* perf's --show-total-period: after Samples, before -F's "+" fields */
		if (show & REPORT_SHOW_PERIOD)
			layout__add(l->cols, &l->nr_cols, REPORT_COL_PERIOD);
		if (fields && layout__parse_list("-F", fields + 1, false, l->cols, &l->nr_cols))
			return -EINVAL;
	}
	if (strict && (show & REPORT_SHOW_SAMPLES))
		layout__add(l->cols, &l->nr_cols, REPORT_COL_SAMPLE);
	for (i = 0; i < nr_keys; i++)
		layout__add(l->cols, &l->nr_cols, keys[i]);
	for (i = 0; i < l->nr_cols; i++)
		layout__add(l->sort, &l->nr_sort, l->cols[i]);
	for (i = 0; i < l->nr_sort; i++)
		if (l->sort[i] < SORT__MAX)
			l->key[l->sort[i]] = true;
	return 0;
}
