/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __PERF_TEXTPOKE_RECORD_EVENTS_H
#define __PERF_TEXTPOKE_RECORD_EVENTS_H

#include <linux/perf_event.h>

#include "tracefs.h"
#include "types.h"

/*
 * The -e event names record understands: perf's software and generic
 * hardware event names, tracepoints "sys:name" (id from tracefs), each
 * with perf's modifiers :u :k :h :p :pp :ppp.
 */
struct record_event {
	char *name;		     /* as the user spelled it, for EVENT_DESC */
	struct perf_event_attr attr; /* type, config, exclude_*, precise_ip */
	char *tp_system;	     /* tracepoints only */
	char *tp_name;
};

/* 0, or -EINVAL / -ENOENT with a message naming @str printed */
int record_event__parse(struct record_event *ev, const char *str);
void record_event__exit(struct record_event *ev);

/* a one-line hint for an open failure of @ev (no PMU, paranoid, ...) */
void record_event__open_error(const struct record_event *ev, int err, char *buf, size_t size);

#endif /* __PERF_TEXTPOKE_RECORD_EVENTS_H */
