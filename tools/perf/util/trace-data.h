/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __PERF_TEXTPOKE_TRACE_DATA_H
#define __PERF_TEXTPOKE_TRACE_DATA_H

#include <stddef.h>

struct record_event;

/*
 * The TRACING_DATA payload perf writes for tracepoint events, from
 * tracefs: "\027\010Dtracing", version "0.6", endianness, sizeof(long),
 * page size, header_page and header_event, the ftrace formats (none), the
 * format of every recorded tracepoint grouped by system, kallsyms (left
 * empty: perf's reader accepts size 0), printk_formats, saved_cmdlines.
 * 0 and a malloc'ed buffer, or -errno.
 */
int trace_data__build(const struct record_event *const *tps, int nr, void **data, size_t *size);

#endif /* __PERF_TEXTPOKE_TRACE_DATA_H */
