/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __PERF_TEXTPOKE_TRACE_EVENT_H
#define __PERF_TEXTPOKE_TRACE_EVENT_H

#include "types.h"

/*
 * Tracepoint formats from a recording's TRACING_DATA (perf's "tracing
 * data" container, see trace_events__new()), parsed with libtraceevent.
 * Without libtraceevent every call fails softly: no formats, no text.
 */
struct trace_events;

/*
 * Parse the TRACING_DATA payload, found at @file_offset of @path.  NULL
 * with an error printed (naming @path and the file offset) when it is
 * malformed, or when libtraceevent is not built in.  Pieces that are not
 * in the kernel's shape are left out with a warning, never handed to
 * libtraceevent, whose parsers trust their input.
 */
struct trace_events *trace_events__new(const void *data, u64 size, const char *path,
				       u64 file_offset);
void trace_events__delete(struct trace_events *te);

/* the format of tracepoint @id (attr.config), or NULL */
void *trace_events__find(struct trace_events *te, u64 id);
/* "system:name" of a format */
int trace_events__name(void *format, char *buf, size_t size);

/*
 * One tracepoint sample's fields as perf script prints them (libtrace-
 * event's TEP_PRINT_INFO).  The string lives until the next call.
 */
const char *trace_events__format(struct trace_events *te, void *format, int cpu, const void *raw,
				 u32 raw_size);

/* a format's own fields (no common_*), ','-joined: valid until the next call; NULL without libtraceevent */
const char *trace_events__field_names(struct trace_events *te, void *format);

bool trace_events__built_in(void);

#endif /* __PERF_TEXTPOKE_TRACE_EVENT_H */
