/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __PERF_TEXTPOKE_RECORD_EVENTS_H
#define __PERF_TEXTPOKE_RECORD_EVENTS_H

#include <linux/perf_event.h>

#include "tracefs.h"
#include "types.h"

/*
 * One event of an -e argument, as perf's event syntax describes it:
 * a symbolic name, "pmu/term=value,.../", a raw "rNNNN", a breakpoint
 * "mem:ADDR[/LEN][:rwx]" or a tracepoint "sys:name", each with perf's
 * modifiers.  The terms that ask for more than an attr field (period=,
 * freq=, call-graph=, inherit=) are kept apart, so that they win over
 * the command line's options when record configures the sample.
 */
struct record_event {
	char *name;		     /* as perf names it, for EVENT_DESC */
	struct perf_event_attr attr; /* type, config*, exclude_*, precise_ip, ... */
	char *tp_system;	     /* tracepoints only */
	char *tp_name;
	char *filter;	   /* --filter after this tracepoint, or NULL */
	bool exclude_GH;   /* a G or H modifier chose exclude_guest/host */
	bool sample_read;  /* S */
	bool tp_by_config; /* tracepoint/config=N/: sampled as a PMU event */
	bool has_period;   /* period= or a tracepoint's/breakpoint's 1 */
	bool has_freq;	   /* freq= */
	int inherit;	   /* inherit=, no-inherit: 0 or 1; -1 for the option's */
	int call_graph;	   /* call-graph=: RECORD_EV_CG_*, -1 for the option's */
	u32 stack_size;	   /* stack-size=, 0 for the option's */
};

enum { RECORD_EV_CG_NONE, RECORD_EV_CG_FP, RECORD_EV_CG_DWARF };

/* a symbolic event name (cpu-clock, cycles, ...): 0 with its type and config, or -ENOENT */
int record_event__lookup_symbol(const char *name, size_t len, u32 *type, __u64 *config);
/* a bare symbolic event with no modifiers (the default event, the side-band dummy) */
int record_event__init_symbol(struct record_event *ev, const char *name);
void record_event__exit(struct record_event *ev);
/*
 * perf's modifier letters (u k h G H I p P S D e W b) on @ev; @group:
 * they come from a group's "{...}:mods", on top of what the event
 * already has.  0, or -EINVAL with a message naming the event.
 */
int record_event__apply_modifiers(struct record_event *ev, const char *mods, size_t len, bool group,
				  bool leader);

enum record_group_pos {
	RECORD_GROUP_NONE,
	RECORD_GROUP_LEADER,
	RECORD_GROUP_MEMBER,
};

/*
 * One -e argument in perf's grammar: a comma list of events and groups
 * "{a,b}:mods"; a tracepoint glob gives one event per match.  @fn gets
 * each event, whose strings it then owns, and its place in a group.
 * 0, or -EINVAL / -ENOENT with a message naming @arg, or what @fn
 * returned.
 */
typedef int (*record_events__fn)(void *ctx, struct record_event *ev, enum record_group_pos pos);
int record_events__parse(const char *arg, record_events__fn fn, void *ctx);

/* exactly one event, no group: 0, or -EINVAL / -ENOENT with a message */
int record_event__parse(struct record_event *ev, const char *str);

/*
 * A sysfs format ("config1:0-7,32-35") places @value's bits, lowest
 * first, in those ranges of @attr: 0, -ERANGE when it does not fit,
 * -EINVAL for a format we cannot read.
 */
int record_event__format_place(struct perf_event_attr *attr, const char *fmt, u64 value);

/* a one-line hint for an open failure of @ev (no PMU, paranoid, ...) */
void record_event__open_error(const struct record_event *ev, int err, bool per_thread, char *buf,
			      size_t size);

#endif /* __PERF_TEXTPOKE_RECORD_EVENTS_H */
