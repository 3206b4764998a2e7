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
/* more modifiers on a parsed event, perf's way (a group's "{...}:u"); 0 or -EINVAL */
int record_event__apply_modifiers(struct record_event *ev, const char *mods);

enum record_group_pos {
	RECORD_GROUP_NONE,
	RECORD_GROUP_LEADER,
	RECORD_GROUP_MEMBER,
};

/*
 * One -e argument as perf takes it: "a,b", "{a,b}", "{a,b:k}:u",
 * "a,{b,c}".  @fn gets each event's name (not NUL terminated), its place
 * in a group and the group's modifiers ("" for none).  0, or -EINVAL
 * with a message naming @arg, or what @fn returned.
 */
typedef int (*record_events__fn)(void *ctx, const char *name, size_t len, enum record_group_pos pos,
				 const char *group_mods);
int record_events__split(const char *arg, record_events__fn fn, void *ctx);

/* a one-line hint for an open failure of @ev (no PMU, paranoid, ...) */
void record_event__open_error(const struct record_event *ev, int err, char *buf, size_t size);

#endif /* __PERF_TEXTPOKE_RECORD_EVENTS_H */
