// SPDX-License-Identifier: GPL-2.0-only
/*
 * What an event of record is apart from its spelling: perf's symbolic
 * names, its modifier letters, and how a refusal to open it is worded.
 * The grammar that reads -e is record-events-parse.c.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "debug.h"
#include "record-events.h"

struct event_name {
	const char *name;
	u32 type;
	u64 config;
};

static const struct event_name event_names[] = {
    {"cpu-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK},
    {"task-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK},
    {"page-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS},
    {"faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS},
    {"context-switches", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES},
    {"cs", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES},
    {"cpu-migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS},
    {"migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS},
    {"minor-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MIN},
    {"major-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MAJ},
    {"alignment-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_ALIGNMENT_FAULTS},
    {"emulation-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_EMULATION_FAULTS},
    {"dummy", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_DUMMY},
    {"bpf-output", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_BPF_OUTPUT},
    {"cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES},
    {"cpu-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES},
    {"instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS},
    {"cache-references", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_REFERENCES},
    {"cache-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES},
    {"branches", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS},
    {"branch-instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS},
    {"branch-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES},
    {"bus-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BUS_CYCLES},
    {"stalled-cycles-frontend", PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_FRONTEND},
    {"stalled-cycles-backend", PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_BACKEND},
    {"ref-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_REF_CPU_CYCLES},
};

int record_event__lookup_symbol(const char *name, size_t len, u32 *type, __u64 *config)
{
	for (size_t i = 0; i < ARRAY_SIZE(event_names); i++) {
		if (strlen(event_names[i].name) == len &&
		    !strncmp(name, event_names[i].name, len)) {
			*type = event_names[i].type;
			*config = event_names[i].config;
			return 0;
		}
	}
	return -ENOENT;
}

int record_event__init_symbol(struct record_event *ev, const char *name)
{
	memset(ev, 0, sizeof(*ev));
	ev->inherit = -1;
	ev->call_graph = -1;
	ev->attr.size = sizeof(ev->attr);
	/* perf records the host only unless told otherwise (event_attr_init) */
	ev->attr.exclude_guest = 1;
	if (record_event__lookup_symbol(name, strlen(name), &ev->attr.type, &ev->attr.config))
		return -ENOENT;
	ev->name = strdup(name);
	return ev->name ? 0 : -ENOMEM;
}

/*
 * perf's modifier letters.  An event's own modifiers start from nothing
 * excluded (the exclude_guest every event starts with goes too); a
 * group's come on top of each member's: the first of u, k, h excludes
 * every privilege level unless one already is, then each letter lets its
 * own back in, and G, H do the same for guest and host.  u and p imply
 * exclude_guest unless G or H said otherwise.  Pinning and exclusivity
 * are for a group's leader only.
 */
int record_event__apply_modifiers(struct record_event *ev, const char *mods, size_t len, bool group,
				  bool leader)
{
	struct perf_event_attr *a = &ev->attr;
	bool eu = group && a->exclude_user, ek = group && a->exclude_kernel;
	bool eh = group && a->exclude_hv, eG = group && a->exclude_guest;
	bool eH = group && a->exclude_host, eI = group && a->exclude_idle;
	bool pinned = group && a->pinned, exclusive = group && a->exclusive;
	bool gh = group && ev->exclude_GH, excluding = eu || ek || eh;
	bool sample_read = false, precise_max = false;
	unsigned int precise = group ? a->precise_ip : 0;

	for (size_t i = 0; i < len; i++) {
		char c = mods[i];

		switch (c) {
		case 'u':
		case 'k':
		case 'h':
			if (!excluding)
				excluding = eu = ek = eh = true;
			if (c == 'u') {
				eu = false;
				if (!gh)
					eG = true;
			} else if (c == 'k') {
				ek = false;
			} else {
				eh = false;
			}
			break;
		case 'G':
		case 'H':
			if (!gh)
				gh = eG = eH = true;
			if (c == 'G')
				eG = false;
			else
				eH = false;
			break;
		case 'I':
			eI = true;
			break;
		case 'p':
			precise++;
			if (!gh)
				eG = true;
			break;
		case 'P':
			precise_max = true;
			break;
		case 'S':
			sample_read = true;
			break;
		case 'D':
			pinned = true;
			break;
		case 'e':
			exclusive = true;
			break;
		case 'W': /* a weak group: only perf stat reads it */
		case 'b': /* a BPF counter: only perf stat has them */
			break;
		default:
			pr_err(
			    "event '%s': bad modifier '%.*s' (u, k, h, G, H, I, p, P, S, D, e, W, "
			    "b)\n",
			    ev->name, (int)len, mods);
			return -EINVAL;
		}
	}
	if (precise > 3) {
		pr_err("event '%s': at most three p modifiers (ppp)\n", ev->name);
		return -EINVAL;
	}
	a->exclude_user = eu;
	a->exclude_kernel = ek;
	a->exclude_hv = eh;
	a->exclude_guest = eG;
	a->exclude_host = eH;
	a->exclude_idle = eI;
	/* P: the most precise the PMU has; opening steps down from 3 as for :ppp */
	a->precise_ip = precise_max ? 3 : precise;
	ev->exclude_GH = gh;
	ev->sample_read |= sample_read;
	if (leader) {
		a->pinned = pinned;
		a->exclusive = exclusive;
	}
	return 0;
}

void record_event__exit(struct record_event *ev)
{
	zfree(&ev->name);
	zfree(&ev->tp_system);
	zfree(&ev->tp_name);
	zfree(&ev->filter);
}

void record_event__open_error(const struct record_event *ev, int err, bool per_thread, char *buf,
			      size_t size)
{
	/* the kernel's answer for a software event or a PMU without LBR, as perf words it */
	if (ev->attr.branch_sample_type && err == -EOPNOTSUPP) {
		snprintf(buf, size,
			 "%s: PMU Hardware or event type doesn't support branch stack sampling.",
			 ev->name);
		return;
	}
	if (ev->attr.type == PERF_TYPE_HARDWARE &&
	    (err == -ENOENT || err == -EOPNOTSUPP || err == -ENODEV) &&
	    access("/sys/bus/event_source/devices/cpu", F_OK) &&
	    access("/sys/bus/event_source/devices/cpu_core", F_OK)) {
		snprintf(buf, size,
			 "%s: this CPU has no hardware PMU (no /sys/bus/event_source/devices/cpu); "
			 "use -e cpu-clock",
			 ev->name);
		return;
	}
	if (err == -EACCES || err == -EPERM) {
		snprintf(buf, size,
			 "%s: %s; check /proc/sys/kernel/perf_event_paranoid or run as root",
			 ev->name, strerror(-err));
		return;
	}
	if (err == -EOPNOTSUPP && ev->attr.precise_ip) {
		snprintf(buf, size, "%s: precise sampling (:p) is not supported by this event",
			 ev->name);
		return;
	}
	/* perf's words, so that scripts written against perf's errors still match */
	if (err == -ENOENT || err == -ENODEV || err == -EOPNOTSUPP) {
		snprintf(buf, size, "The %s event is not supported.", ev->name);
		return;
	}
	if (err == -EINVAL && per_thread && ev->attr.type != PERF_TYPE_SOFTWARE) {
		snprintf(buf, size,
			 "Invalid event (%s) in per-thread mode, enable system wide with '-a'.",
			 ev->name);
		return;
	}
	snprintf(buf, size, "%s: perf_event_open failed: %s", ev->name, strerror(-err));
}
