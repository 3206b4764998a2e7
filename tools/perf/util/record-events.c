// SPDX-License-Identifier: GPL-2.0-only
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

/* "u", "k", "pp", "ukp": perf's modifier letters; -EINVAL on anything else */
static int apply_modifiers(struct perf_event_attr *attr, const char *mods)
{
	bool u = false, k = false, h = false;

	for (const char *p = mods; *p; p++) {
		switch (*p) {
		case 'u':
			u = true;
			break;
		case 'k':
			k = true;
			break;
		case 'h':
			h = true;
			break;
		case 'p':
			if (attr->precise_ip >= 3)
				return -EINVAL;
			attr->precise_ip++;
			break;
		case 'G':
		case 'H':
			break;
		default:
			return -EINVAL;
		}
	}
	/* as perf: naming some privilege levels excludes the others */
	if (u || k || h) {
		attr->exclude_user = !u;
		attr->exclude_kernel = !k;
		attr->exclude_hv = !h;
	}
	return 0;
}

static int tracepoint_id(const char *sys, const char *name, u64 *id)
{
	char path[512];
	unsigned long long v;
	FILE *f;
	int ok;

	snprintf(path, sizeof(path), "%s/events/%s/%s/id", tracefs__path(), sys, name);
	f = fopen(path, "r");
	if (!f)
		return -errno;
	ok = fscanf(f, "%llu", &v) == 1;
	fclose(f);
	if (!ok)
		return -EINVAL;
	*id = v;
	return 0;
}

int record_event__parse(struct record_event *ev, const char *str)
{
	const struct event_name *known = NULL;
	char *copy, *colon, *mods = NULL;
	int err = -EINVAL;

	memset(ev, 0, sizeof(*ev));
	copy = strdup(str);
	if (!copy)
		return -ENOMEM;
	colon = strchr(copy, ':');
	if (colon)
		*colon = '\0';
	for (size_t i = 0; i < ARRAY_SIZE(event_names); i++) {
		if (!strcmp(copy, event_names[i].name)) {
			known = &event_names[i];
			break;
		}
	}
	ev->attr.size = sizeof(ev->attr);
	if (known) {
		ev->attr.type = known->type;
		ev->attr.config = known->config;
		mods = colon ? colon + 1 : NULL;
	} else if (colon) {
		char *tp = colon + 1, *more = strchr(tp, ':');

		if (more) {
			*more = '\0';
			mods = more + 1;
		}
		u64 id = 0;

		err = tracepoint_id(copy, tp, &id);
		ev->attr.config = id;
		if (err && tracefs__error()) {
			pr_err(
			    "event '%s': tracefs is not mounted and mounting it at %s failed (%s)\n",
			    str, tracefs__path(), strerror(-tracefs__error()));
			goto out_free;
		}
		if (err) {
			pr_err("event '%s': no tracepoint %s:%s in %s/events (%s)\n", str, copy, tp,
			       tracefs__path(), strerror(-err));
			goto out_free;
		}
		ev->attr.type = PERF_TYPE_TRACEPOINT;
		ev->tp_system = strdup(copy);
		ev->tp_name = strdup(tp);
		if (!ev->tp_system || !ev->tp_name) {
			err = -ENOMEM;
			goto out_free;
		}
	} else {
		pr_err(
		    "event '%s': unknown; try cpu-clock, task-clock, cycles or a tracepoint sys:name\n",
		    str);
		goto out_free;
	}
	if (mods && apply_modifiers(&ev->attr, mods)) {
		pr_err("event '%s': bad modifier '%s' (u, k, h, p, pp, ppp)\n", str, mods);
		err = -EINVAL;
		goto out_free;
	}
	ev->name = strdup(str);
	if (!ev->name) {
		err = -ENOMEM;
		goto out_free;
	}
	free(copy);
	return 0;
out_free:
	free(copy);
	record_event__exit(ev);
	return err;
}

void record_event__exit(struct record_event *ev)
{
	zfree(&ev->name);
	zfree(&ev->tp_system);
	zfree(&ev->tp_name);
}

void record_event__open_error(const struct record_event *ev, int err, char *buf, size_t size)
{
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
	snprintf(buf, size, "%s: perf_event_open failed: %s", ev->name, strerror(-err));
}
