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

/*
 * perf's modifier letters on top of what @attr already excludes: the
 * first of u, k, h excludes every privilege level, then each letter
 * lets its own back in.  A group's modifiers ("{a,b:k}:u") come on top
 * of each member's own, so that b ends up with user and kernel.
 */
static int apply_modifiers(struct perf_event_attr *attr, const char *mods)
{
	bool excluding = attr->exclude_user || attr->exclude_kernel || attr->exclude_hv;

	for (const char *p = mods; *p; p++) {
		switch (*p) {
		case 'u':
		case 'k':
		case 'h':
			if (!excluding) {
				attr->exclude_user = attr->exclude_kernel = attr->exclude_hv = 1;
				excluding = true;
			}
			if (*p == 'u')
				attr->exclude_user = 0;
			else if (*p == 'k')
				attr->exclude_kernel = 0;
			else
				attr->exclude_hv = 0;
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
	return 0;
}

int record_event__apply_modifiers(struct record_event *ev, const char *mods)
{
	if (apply_modifiers(&ev->attr, mods)) {
		pr_err("event '%s': bad modifier '%s' (u, k, h, p, pp, ppp)\n", ev->name, mods);
		return -EINVAL;
	}
	return 0;
}

/* the end of the name starting at @p: a comma or brace outside any group, or the end */
static const char *name_end(const char *p)
{
	while (*p && *p != ',' && *p != '{' && *p != '}')
		p++;
	return p;
}

int record_events__split(const char *arg, record_events__fn fn, void *ctx)
{
	const char *p = arg;
	int err;

	while (*p) {
		const char *end;

		if (*p == '{') {
			const char *members = p + 1, *close = strchr(members, '}'), *mods = "";
			const char *inner = strchr(members, '{');
			size_t n = 0;
			char *copy, *q;

			if (!close || close == members || (inner && inner < close)) {
				pr_err("event '%s': a group is {event,event,...}\n", arg);
				return -EINVAL;
			}
			end = close + 1;
			if (*end == ':') {
				mods = end + 1;
				end = name_end(mods);
			}
			if (*end && *end != ',') {
				pr_err("event '%s': expected ',' after the group\n", arg);
				return -EINVAL;
			}
			copy = strndup(mods, end - mods);
			if (!copy)
				return -ENOMEM;
			for (q = (char *)members; q < close; n++) {
				const char *e = name_end(q);

				if (e == q) {
					pr_err("event '%s': an empty event name in the group\n",
					       arg);
					free(copy);
					return -EINVAL;
				}
				err = fn(ctx, q, e - q,
					 n == 0 ? RECORD_GROUP_LEADER : RECORD_GROUP_MEMBER, copy);
				if (err) {
					free(copy);
					return err;
				}
				q = (char *)(*e == ',' ? e + 1 : e);
				if (*e == ',' && q == close) {
					pr_err("event '%s': an empty event name in the group\n",
					       arg);
					free(copy);
					return -EINVAL;
				}
			}
			free(copy);
		} else {
			end = name_end(p);
			if (end == p || *end == '{' || *end == '}') {
				pr_err("event '%s': expected an event name at '%s'\n", arg, p);
				return -EINVAL;
			}
			err = fn(ctx, p, end - p, RECORD_GROUP_NONE, "");
			if (err)
				return err;
		}
		p = end;
		if (*p == ',') {
			p++;
			if (!*p) {
				pr_err("event '%s': an empty event name at the end\n", arg);
				return -EINVAL;
			}
		}
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
	ev->name = strdup(str);
	if (!ev->name) {
		err = -ENOMEM;
		goto out_free;
	}
	if (mods && record_event__apply_modifiers(ev, mods)) {
		err = -EINVAL;
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
	snprintf(buf, size, "%s: perf_event_open failed: %s", ev->name, strerror(-err));
}
