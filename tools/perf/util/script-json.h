/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __PERF_TEXTPOKE_SCRIPT_JSON_H
#define __PERF_TEXTPOKE_SCRIPT_JSON_H

#include <stddef.h>

#include "event.h"
#include "types.h"

struct evsel;
struct script_buf;
struct script_loc;
struct script_printer;
struct script_sample_info;

/*
 * perf textpoke script --json: each record the text listing would print
 * becomes one JSON object on one line, with a key per -F field, so that
 * scripts need not parse perf's columns.  The schema is in
 * Documentation/perf-textpoke-script.txt (JSON OUTPUT); the figures are
 * those of the text listing of the same run.
 */

/* @s (@n bytes) as a JSON string: RFC 8259 escapes, invalid UTF-8 as U+FFFD */
void script_json__string(struct script_buf *b, const char *s, size_t n);

/* the sample's object up to its callchain; false when the type prints nothing */
bool script_json__sample_head(struct script_printer *p, const struct perf_sample *sample,
			      const struct evsel *evsel, const struct script_sample_info *info);
/* one element of the "callchain" array */
void script_json__frame(struct script_printer *p, const struct evsel *evsel,
			const struct script_loc *frame);
/* the fields after the callchain, and the end of the line */
void script_json__sample_tail(struct script_printer *p, const struct perf_sample *sample,
			      const struct evsel *evsel, const struct script_sample_info *info);

/*
 * A side-band record: "record", the sample id's fields, and "text", what
 * the listing prints after PERF_RECORD_<NAME> (@text, @len bytes, its
 * trailing newline dropped).  The object stays open for
 * script_json__side_band_extra() and is closed by script_json__side_band_end().
 */
void script_json__side_band(struct script_printer *p, const union perf_event *event,
			    const struct perf_sample *sample, const struct evsel *evsel,
			    const char *comm, const char *text, size_t len);
/* an extra string member of the open side-band object */
void script_json__side_band_extra(struct script_printer *p, const char *key, const char *text,
				  size_t len);
void script_json__side_band_end(struct script_printer *p);

#endif /* __PERF_TEXTPOKE_SCRIPT_JSON_H */
