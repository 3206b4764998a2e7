// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf textpoke evlist: the recording's events, one line each, as perf
 * evlist 6.1 prints them (evsel__fprintf()): the name, then with -v every
 * non-zero attr field, with -F the sampling frequency or period, with
 * --trace-fields a tracepoint's own fields; with -g a group leader and
 * its members on one line, "{a,b}".
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "attr-print.h"
#include "evlist-print.h"
#include "evsel.h"
#include "header.h"
#include "report-group.h"
#include "session.h"
#include "trace-event.h"

struct evlist_print {
	struct perf_tool tool;
	void *group_desc; /* HEADER_GROUP_DESC as stored */
	u64 group_desc_size;
};

static struct evlist_print *tool2ep(struct perf_tool *tool)
{
	return (struct evlist_print *)((char *)tool - offsetof(struct evlist_print, tool));
}

static int ep__feature(struct perf_tool *tool, int feat, const void *buf, u64 size)
{
	struct evlist_print *ep = tool2ep(tool);
	void *copy;

	if (feat != HEADER_GROUP_DESC)
		return 0;
	copy = malloc(size ?: 1);
	if (!copy)
		return -ENOMEM;
	memcpy(copy, buf, size);
	free(ep->group_desc);
	ep->group_desc = copy;
	ep->group_desc_size = size;
	return 0;
}

/* perf's comma_fprintf(): ':' after the name, ',' between the parts */
static void part(FILE *fp, bool *first, const char *s)
{
	fputs(*first ? ":" : ",", fp);
	*first = false;
	fputs(s, fp);
}

static void print_trace_fields(FILE *fp, struct trace_events *te, struct evsel *evsel, bool *first)
{
	void *format = te ? trace_events__find(te, evsel->attr.config) : NULL;
	const char *fields = format ? trace_events__field_names(te, format) : NULL;

	if (evsel->attr.type != PERF_TYPE_TRACEPOINT) {
		part(fp, first, " (not a tracepoint)");
		return;
	}
	if (!fields || !*fields) {
		part(fp, first, " (no trace field)");
		return;
	}
	fputs(*first ? ":" : ",", fp);
	*first = false;
	fprintf(fp, " trace_fields: %s", fields);
}

static void print_group(FILE *fp, struct perf_session *session, const struct report_groups *g,
			int idx)
{
	struct evlist *evlist = session->evlist;

	for (size_t i = 0; i < g->nr; i++) {
		const struct report_group *grp = &g->groups[i];

		if ((int)grp->leader == idx && grp->nr_members > 1) {
			fprintf(fp, "%s{", grp->name ? grp->name : "");
			for (u32 m = 0; m < grp->nr_members && idx + m < (u32)evlist->nr_entries;
			     m++)
				fprintf(fp, "%s%s", m ? "," : "",
					evsel__name(evlist->entries[idx + m]));
			fputs("}\n", fp);
			return;
		}
		/* a member: printed on its leader's line */
		if (idx > (int)grp->leader && idx < (int)(grp->leader + grp->nr_members))
			return;
	}
	fprintf(fp, "%s\n", evsel__name(evlist->entries[idx]));
}

/*
 * A stream's events as perf 6.1 names them there: it lists them before
 * the features (EVENT_DESC) are read, so the names are the attrs' own,
 * and a tracepoint, whose format it has not read either, is "unknown
 * tracepoint"
 */
static int evlist__pipe_names(struct evlist *evlist)
{
	for (int i = 0; i < evlist->nr_entries; i++) {
		struct evsel *evsel = evlist->entries[i];

		free(evsel->name);
		evsel->name = NULL;
		if (evsel->attr.type == PERF_TYPE_TRACEPOINT &&
		    evsel__set_name(evsel, "unknown tracepoint"))
			return -ENOMEM;
	}
	return 0;
}

/*
 * The attr perf 6.1 prints for a stream's event: it takes a whole
 * struct perf_event_attr from the HEADER_ATTR record, so that past an
 * older, shorter attr come the record's ids
 */
static void pipe_attr(const struct evsel *evsel, struct perf_event_attr *attr)
{
	u32 size = evsel->attr_size < sizeof(*attr) ? evsel->attr_size : sizeof(*attr);
	u64 room = sizeof(*attr) - size;
	u64 n = (u64)evsel->nr_ids * sizeof(u64);

	memset(attr, 0, sizeof(*attr));
	memcpy(attr, &evsel->attr, size);
	if (evsel->ids)
		memcpy((char *)attr + size, evsel->ids, n < room ? n : room);
}

int evlist_print__run(const struct evlist_print_opts *o, FILE *fp)
{
	struct evlist_print ep = {
	    .tool = {.feature = ep__feature},
	};
	struct report_groups groups = {0};
	struct trace_events *te = NULL;
	struct perf_session *session;
	bool has_tracepoint = false;
	int err = 0;

	session = perf_session__new(o->input, &ep.tool);
	if (!session) {
		free(ep.group_desc);
		return -EINVAL;
	}
	/*
	 * a stream's attrs and features come as records: read them all; one
	 * damaged further on still lists the events read (the error said)
	 */
	if (session->is_pipe)
		err = perf_session__process_events(session);
	if (o->trace_fields && session->env.tracing_data)
		te = trace_events__new(session->env.tracing_data, session->env.tracing_data_size,
				       o->input, session->env.tracing_data_offset);
	if (session->is_pipe && evlist__pipe_names(session->evlist))
		err = -ENOMEM;
	/* a stream's groups are not known when perf lists them */
	if (!err && ep.group_desc && !session->is_pipe)
		err = report_groups__parse(&groups, ep.group_desc, ep.group_desc_size, o->input);
	for (int i = 0; err != -ENOMEM && i < session->evlist->nr_entries; i++) {
		struct evsel *evsel = session->evlist->entries[i];
		bool first = true;

		if (evsel->attr.type == PERF_TYPE_TRACEPOINT)
			has_tracepoint = true;
		if (o->group) {
			print_group(fp, session, &groups, i);
			continue;
		}
		fputs(evsel__name(evsel), fp);
		if (o->verbose) {
			struct perf_event_attr attr = evsel->attr;

			if (session->is_pipe)
				pipe_attr(evsel, &attr);
			perf_event_attr__fprintf(fp, &attr, evsel->attr_size, ATTR_PRINT_EVLIST);
			first = false;
		} else if (o->freq) {
			char buf[64];

			snprintf(buf, sizeof(buf), " %s=%" PRIu64,
				 evsel->attr.freq ? "sample_freq" : "sample_period",
				 (u64)evsel->attr.sample_freq);
			part(fp, &first, buf);
		}
		if (o->trace_fields)
			print_trace_fields(fp, te, evsel, &first);
		fputc('\n', fp);
	}
	if (err != -ENOMEM && has_tracepoint && !o->trace_fields)
		fprintf(fp, "# Tip: use 'perf evlist --trace-fields' to show fields for "
			    "tracepoint events\n");
	trace_events__delete(te);
	report_groups__exit(&groups);
	free(ep.group_desc);
	perf_session__delete(session);
	return err;
}
