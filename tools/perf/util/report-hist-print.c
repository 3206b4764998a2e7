// SPDX-License-Identifier: GPL-2.0-only
/*
 * The profile printed as perf report --stdio (6.1) prints it: the
 * header lines, columns sized as perf's hists__calc_col_len() sizes them,
 * one row per entry and what follows it (the call-graph tree); and the
 * per-ABI sample table.
 */
#include <stdio.h>
#include <string.h>

#include "report-hist.h"

/* perf's convert_unit(): 1K past 1000 samples */
static unsigned long convert_unit(unsigned long v, char *unit)
{
	*unit = ' ';
	if (v > 1000) {
		v /= 1000;
		*unit = 'K';
	}
	if (v > 1000) {
		v /= 1000;
		*unit = 'M';
	}
	if (v > 1000) {
		v /= 1000;
		*unit = 'G';
	}
	return v;
}

/* the column's value as printed, width-free */
static int entry__snprintf(const struct report_hist *h, const struct hist_entry *e, int col,
			   int width, char *buf, size_t size)
{
	double pct;

	switch (col) {
	case REPORT_COL_OVERHEAD:
		pct = h->total_period ? 100.0 * e->period / h->total_period : 0.0;
		return snprintf(buf, size, " %*.2f%%", width - 2, pct);
	case REPORT_COL_CHILDREN:
		pct = h->total_period ? 100.0 * e->children / h->total_period : 0.0;
		return snprintf(buf, size, " %*.2f%%", width - 2, pct);
	case REPORT_COL_SAMPLE:
		return snprintf(buf, size, " %*llu", width - 1, (unsigned long long)e->nr_samples);
	case REPORT_COL_PERIOD:
		return snprintf(buf, size, " %*llu", width - 1, (unsigned long long)e->period);
	case SORT_COMM:
		return snprintf(buf, size, "%-*.*s", width, width, e->comm);
	case SORT_PID:
		return snprintf(buf, size, "%7d:%-*.*s", e->tid, width - 8, width - 8,
				e->thread_comm);
	case SORT_TID:
		return snprintf(buf, size, "%*d", width, e->tid);
	case SORT_DSO:
		return snprintf(buf, size, "%-*.*s", width, width, e->dso ?: "[unknown]");
	case SORT_SYM:
		/* perf sizes the column by the name alone: " (inlined)" may run past it */
		if (e->sym && e->inlined) {
			int n = snprintf(buf, size, "[%c] %s (inlined)", e->level, e->sym);

			if (n >= 0 && n < width && (size_t)width < size) {
				memset(buf + n, ' ', width - n);
				buf[width] = 0;
				n = width;
			}
			return n;
		}
		if (e->sym)
			return snprintf(buf, size, "[%c] %-*.*s", e->level, width - 4, width - 4,
					e->sym);
		return snprintf(buf, size, "[%c] %-#*.*llx", e->level, width - 4, 16,
				(unsigned long long)e->ip);
	case SORT_CPU:
		return snprintf(buf, size, "%*.*d", width, width, e->cpu);
	case SORT_ABI:
		return snprintf(buf, size, "%-*s", width,
				e->abi == 0 ? "none" :
				e->abi == 1 ? "32" :
				e->abi == 2 ? "64" :
					      "?");
	case SORT_DSO_SIZE:
		if (!e->has_map)
			return snprintf(buf, size, "%*s", width, "unknown");
		return snprintf(buf, size, "%*llu", width, (unsigned long long)e->dso_size);
	case SORT_SYMOFF:
		/* upstream's hist_entry__symoff_snprintf(): not padded, hex offset */
		if (!e->sym)
			return snprintf(buf, size, "[%c] %-#.*llx", e->level, width - 4,
					(unsigned long long)e->ip);
		return snprintf(buf, size, "[%c] %s%s+0x%llx", e->level, e->sym,
				e->inlined ? " (inlined)" : "", (unsigned long long)e->sym_offset);
	case SORT_SRCLINE:
		return snprintf(buf, size, "%-.*s", width, e->srcline);
	case SORT_SRCFILE:
		return snprintf(buf, size, "%-.*s", width, e->srcfile);
	case SORT_PARENT:
		return snprintf(buf, size, "%-*.*s", width, width, e->parent ?: "[other]");
	default:
		return snprintf(buf, size, "?");
	}
}

/*
 * perf's hists__calc_col_len(): the header, and every entry shown; an
 * entry whose first sample had no symbol widens the object column to an
 * address's 16 digits, unless --dsos was given.
 */
static int column__width(const struct report_hist *h, const struct report_layout *l, int col)
{
	int w = strlen(report_column__header(col));
	size_t i;

	switch (col) {
	case REPORT_COL_OVERHEAD:
	case REPORT_COL_CHILDREN:
		return 8;
	case REPORT_COL_SAMPLE:
	case REPORT_COL_PERIOD:
		return 12;
	case SORT_TID:
	case SORT_CPU:
	case SORT_DSO_SIZE: /* perf sizes these by their headers alone */
	case SORT_SYMOFF:
		return w;
	default:
		break;
	}
	for (i = 0; i < h->nr_entries; i++) {
		const struct hist_entry *e = &h->entries[i];
		int len = 0;

		switch (col) {
		case SORT_COMM:
			len = strlen(e->thread_comm);
			break;
		case SORT_PID:
			len = strlen(e->thread_comm) + 8;
			break;
		case SORT_DSO:
			len = e->dso ? (int)strlen(e->dso) : 0;
			if (!e->sym_resolved && !l->dso_filter && len < 16)
				len = 16;
			break;
		case SORT_SYM:
			len = e->sym ? (int)strlen(e->sym) + 4 : 16 + 4 + 2;
			break;
		case SORT_ABI:
			len = 4;
			break;
		case SORT_SRCLINE:
			len = strlen(e->srcline);
			break;
		case SORT_SRCFILE:
			len = strlen(e->srcfile);
			break;
		case SORT_PARENT:
			len = e->parent ? (int)strlen(e->parent) : 0;
			break;
		default:
			break;
		}
		if (len > w)
			w = len;
	}
	return w;
}

void report_hist__fprintf(const struct report_hist *h, const struct report_layout *l,
			  float percent_limit, FILE *fp)
{
	int width[REPORT_MAX_COLS], i, last = -1;
	char unit, buf[4096];
	unsigned long nr = convert_unit(h->nr_samples, &unit);
	size_t e;

	fprintf(fp, "# Samples: %lu%c of event '%s'", nr, unit, h->event_name);
	if (h->time_slices)
		fprintf(fp, " (time slices: %s)", h->time_slices);
	fprintf(fp, "\n");
	fprintf(fp, "# Event count (approx.): %llu\n#\n", (unsigned long long)h->total_period);
	for (i = 0; i < l->nr_cols; i++) {
		int col = l->cols[i];

		width[i] = col < SORT__MAX && l->elide[col] ? -1 : column__width(h, l, col);
	}
	fprintf(fp, "#");
	for (i = 0; i < l->nr_cols; i++) {
		int col = l->cols[i];

		if (width[i] < 0)
			continue;
		if (col == REPORT_COL_OVERHEAD && l->self_header)
			fprintf(fp, " %s%*s", i ? " " : "", width[i], "Self");
		else if (col >= SORT__MAX)
			fprintf(fp, " %s%*s", i ? " " : "", width[i], report_column__header(col));
		else
			fprintf(fp, " %s%-*.*s", i ? " " : "", width[i], width[i],
				report_column__header(col));
	}
	fprintf(fp, "\n#");
	for (i = 0; i < l->nr_cols; i++) {
		if (width[i] < 0)
			continue;
		fprintf(fp, " %s", i ? " " : "");
		for (int k = 0; k < width[i]; k++)
			fputc('.', fp);
	}
	fprintf(fp, "\n#\n");
	/* perf pads the symbol only when a column follows it, even one not shown */
	if (l->nr_cols && width[l->nr_cols - 1] >= 0)
		last = l->cols[l->nr_cols - 1];
	for (e = 0; e < h->nr_entries; e++) {
		const struct hist_entry *he = &h->entries[e];
		/* perf's hist_entry__get_percent_limit(): Children's share with --children */
		u64 period = h->children ? he->children : he->period;
		float pct = h->total_period ? period * 100.0 / h->total_period : 0;
		size_t len = 0;

		if (pct < percent_limit)
			continue;
		for (i = 0; i < l->nr_cols && len < sizeof(buf) - 1; i++) {
			int w;

			if (width[i] < 0)
				continue;
			len += snprintf(buf + len, sizeof(buf) - len, "  ");
			if (len >= sizeof(buf))
				break;
			w = entry__snprintf(h, he, l->cols[i], width[i], buf + len,
					    sizeof(buf) - len);
			if (w > 0)
				len += w;
			/* perf's hist_entry__snprintf_alignment(): a column before another is full width */
			for (; w >= 0 && w < width[i] && i < l->nr_cols - 1 && len < sizeof(buf) - 1; w++)
				buf[len++] = ' ';
		}
		if (len >= sizeof(buf))
			len = sizeof(buf) - 1;
		while (len && buf[len - 1] == ' ' && last == SORT_SYM)
			len--;
		buf[len] = 0;
		fprintf(fp, "%s\n", buf);
		if (h->fprintf_after)
			h->fprintf_after(h, he, h->after_arg, fp);
	}
}

void report_hist__fprintf_abi(const struct report_hist *h, FILE *fp)
{
	size_t i;
	int w = 7;

	if (!h->nr_comms)
		return;
	for (i = 0; i < h->nr_comms; i++)
		if ((int)strlen(h->abi_counts[i].comm) > w)
			w = strlen(h->abi_counts[i].comm);
	fprintf(fp, "# Samples per user-register ABI of event '%s'\n#\n", h->event_name);
	fprintf(fp, "# %-*s  %12s  %12s  %12s  %12s\n", w, "Command", "none", "32-bit", "64-bit",
		"other");
	for (i = 0; i < h->nr_comms; i++) {
		const struct report_abi_count *a = &h->abi_counts[i];

		fprintf(fp, "  %-*s  %12llu  %12llu  %12llu  %12llu\n", w, a->comm,
			(unsigned long long)a->nr[0], (unsigned long long)a->nr[1],
			(unsigned long long)a->nr[2], (unsigned long long)a->nr[3]);
	}
}

int report_hist__nr_abis(const struct report_hist *h)
{
	bool seen[4] = {false};
	int n = 0;

	for (size_t i = 0; i < h->nr_comms; i++)
		for (int a = 0; a < 4; a++)
			if (h->abi_counts[i].nr[a] && !seen[a]) {
				seen[a] = true;
				n++;
			}
	return n;
}
